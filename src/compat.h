/*-------------------------------------------------------------------------
 *
 * compat.h
 *	  Differences between the PostgreSQL major versions polarbench builds
 *	  against (15, 16 and 17), kept in one place.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_COMPAT_H
#define PB_COMPAT_H

#if PG_VERSION_NUM < 150000
#error "polarbench needs PostgreSQL 15 or later"
#endif

#if PG_VERSION_NUM >= 160000
#include "utils/guc_hooks.h"
#endif

/* PostgreSQL 17 renamed the background worker's connection flags. */
#ifndef BGWORKER_BYPASS_ALLOWCONN
#define BGWORKER_BYPASS_ALLOWCONN 1
#endif

/* PostgreSQL 17 numbers a process's PGPROC with MyProcNumber. */
#if PG_VERSION_NUM >= 170000
#define PB_MY_PGPROCNO		MyProcNumber
#else
#define PB_MY_PGPROCNO		(MyProc->pgprocno)
#endif

/* PostgreSQL 17 gave LockHeldByMe() a flag for stronger modes. */
#if PG_VERSION_NUM >= 170000
#define PB_LOCK_HELD_BY_ME(tag, mode)	LockHeldByMe((tag), (mode), false)
#else
#define PB_LOCK_HELD_BY_ME(tag, mode)	LockHeldByMe((tag), (mode))
#endif

#endif							/* PB_COMPAT_H */
