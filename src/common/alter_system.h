/*-------------------------------------------------------------------------
 *
 * alter_system.h
 *	  Server parameters written as ALTER SYSTEM writes them, and the
 *	  server's configuration reloaded (alter_system.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_ALTER_SYSTEM_H
#define PB_ALTER_SYSTEM_H

extern void pb_alter_system(const char *name, const char *value);
extern bool pb_alter_system_try(const char *name, const char *value,
								char **error);
extern void pb_reload_and_wait(void);
extern bool pb_reload_signal(void);

#endif							/* PB_ALTER_SYSTEM_H */
