/*-------------------------------------------------------------------------
 *
 * settings_journal.h
 *	  The durable record of the server settings a run has changed and of
 *	  the values to put back, and putting them back after a crash
 *	  (settings_journal.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_SETTINGS_JOURNAL_H
#define PB_SETTINGS_JOURNAL_H

/* the journal, in the data directory */
#define PB_JOURNAL_FILE			"polarbench_server_settings.journal"

extern void pb_journal_request_shmem(void);
extern void pb_journal_lock(void);
extern void pb_journal_unlock(void);
extern void pb_journal_write(int n, char *const *names,
							 char *const *previous, char *const *values);
extern void pb_journal_check_free(void);
extern void pb_journal_claim(void);
extern void pb_journal_orphan(void);
extern void pb_journal_remove(void);
extern void pb_journal_unlink(int elevel);
extern void pb_journal_recover(void);
extern void pb_journal_recover_now(void);
extern void pb_journal_register_worker(void);
extern PGDLLEXPORT void pb_journal_worker_main(Datum main_arg);

#endif							/* PB_SETTINGS_JOURNAL_H */
