/*-------------------------------------------------------------------------
 *
 * admission.h
 *	  Whether the server can take the workers a run or a parallel load asks
 *	  for (admission.c): polarbench.max_clients, the role's and the
 *	  database's connection limits, and no run started from inside one.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_ADMISSION_H
#define PB_ADMISSION_H

/* bgw_type of polarbench's workers, every one of which counts */
#define PB_CLIENT_WORKER_TYPE	"polarbench client"
#define PB_LOADER_WORKER_TYPE	"polarbench loader"
#define PB_RECORDER_WORKER_TYPE	"polarbench recorder"
#define PB_CONDUCTOR_WORKER_TYPE	"polarbench conductor"

extern void pb_refuse_in_worker(const char *function);
extern void pb_admission_begin(int nworkers);
extern void pb_admission_check(int nworkers);
extern void pb_admission_end(void);

#endif							/* PB_ADMISSION_H */
