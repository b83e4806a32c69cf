/*-------------------------------------------------------------------------
 *
 * settings.h
 *	  The polarbench.* settings (settings.c), read by the run engine and
 *	  the loader.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_SETTINGS_H
#define PB_SETTINGS_H

/* polarbench.max_clients: workers of all runs and loads at once */
extern PGDLLIMPORT int pb_max_clients;

/* polarbench.max_run_duration, in seconds, and the most it can be set to */
extern PGDLLIMPORT int pb_max_run_duration;
#define PB_MAX_RUN_DURATION_LIMIT	(INT_MAX / 1000)

/* polarbench.max_script_commands: commands of one run's scripts */
extern PGDLLIMPORT int pb_max_script_commands;

/* polarbench.max_run_memory, in kilobytes */
extern PGDLLIMPORT int pb_max_run_memory;

/* polarbench.start_timeout, in milliseconds */
extern PGDLLIMPORT int pb_start_timeout;

/* polarbench.lock_timeout, in milliseconds, 0 for none */
extern PGDLLIMPORT int pb_lock_timeout;

/* polarbench.end_grace, in milliseconds: a run's default grace at its end */
extern PGDLLIMPORT int pb_end_grace;

/*
 * polarbench.cluster_start: empty, "check", or the instant a node's part of
 * a run across a Citus cluster releases its clients
 */
extern PGDLLIMPORT char *pb_cluster_start;

extern void pb_settings_init(void);

#endif							/* PB_SETTINGS_H */
