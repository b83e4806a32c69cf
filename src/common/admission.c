/*-------------------------------------------------------------------------
 *
 * admission.c
 *	  Admission of a run's workers (its clients and recorder, and a
 *	  background run's conductor) or a parallel load's workers, checked
 *	  before any of them is registered.
 *
 * Background workers take no connection slot and PostgreSQL does not
 * count them against a role's or a database's CONNECTION LIMIT, so
 * polarbench counts its own: every polarbench process counts, whatever
 * it does.  A run may start N workers only if the polarbench workers
 * already running plus N stay within polarbench.max_clients, and the
 * role's (and the database's) sessions plus its polarbench workers plus N
 * stay within its connection limit, as they would if the N workers were
 * sessions.  Superusers are exempt from the connection limits, as at
 * login.
 *
 * The workers are counted from the server's backend status (what
 * pg_stat_activity shows), where a worker appears once it has connected.
 * So that two runs starting at once cannot both count the same free room,
 * admission holds a cluster-wide lock from the count until the caller's
 * workers have connected (pb_admission_end()).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_database.h"
#include "commands/dbcommands.h"
#include "miscadmin.h"
#include "postmaster/bgworker.h"
#include "storage/lock.h"
#include "storage/procarray.h"
#include "utils/backend_status.h"
#include "utils/syscache.h"

#include "admission.h"
#include "compat.h"
#include "settings.h"

/* The key of the cluster-wide admission lock (an advisory lock of no
 * database, which pg_advisory_lock() cannot take) */
#define PB_ADMISSION_KEY1		0x50425244	/* "PBRD" */
#define PB_ADMISSION_KEY2		1

static bool admission_locked = false;
static LOCKTAG admission_tag;

/* polarbench workers running now */
typedef struct PbWorkerCount
{
	int			total;			/* every kind, whole cluster */
	int			role;			/* of the role the workers log in as */
	int			database;		/* in this database */
} PbWorkerCount;

/*
 * pb_in_polarbench_worker
 *		Whether this process is one of polarbench's background workers.
 */
static bool
pb_in_polarbench_worker(void)
{
	return MyBgworkerEntry != NULL &&
		strcmp(MyBgworkerEntry->bgw_library_name, "polarbench") == 0;
}

/*
 * pb_refuse_in_worker
 *		A benchmark client's script, or a loader worker, must not start runs
 *		or loads of its own: each would take more workers, without bound.
 */
void
pb_refuse_in_worker(const char *function)
{
	if (pb_in_polarbench_worker())
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s cannot be called by a polarbench worker", function),
				 errdetail("A benchmark script must not start runs or loads of its own.")));
}

/*
 * pb_is_polarbench_type
 *		Whether a worker type is one of polarbench's.
 */
static bool
pb_is_polarbench_type(const char *type)
{
	return strcmp(type, PB_CLIENT_WORKER_TYPE) == 0 ||
		strcmp(type, PB_RECORDER_WORKER_TYPE) == 0 ||
		strcmp(type, PB_CONDUCTOR_WORKER_TYPE) == 0 ||
		strcmp(type, PB_LOADER_WORKER_TYPE) == 0;
}

/*
 * pb_count_workers
 *		Count the polarbench workers that have connected, as
 *		pg_stat_activity shows them.
 */
static void
pb_count_workers(Oid role, Oid database, PbWorkerCount *count)
{
	int			nbackends;

	memset(count, 0, sizeof(PbWorkerCount));
	/* not what an earlier read in this transaction saw */
	pgstat_clear_backend_activity_snapshot();
	nbackends = pgstat_fetch_stat_numbackends();
	for (int i = 1; i <= nbackends; i++)
	{
		LocalPgBackendStatus *local = pgstat_fetch_stat_local_beentry(i);
		PgBackendStatus *be;
		const char *type;

		if (local == NULL)
			continue;
		be = &local->backendStatus;
		if (be->st_backendType != B_BG_WORKER || be->st_procpid <= 0)
			continue;
		type = GetBackgroundWorkerTypeByPid(be->st_procpid);
		if (type == NULL || !pb_is_polarbench_type(type))
			continue;
		count->total++;
		if (be->st_userid == role)
			count->role++;
		if (be->st_databaseid == database)
			count->database++;
	}
	pgstat_clear_backend_activity_snapshot();
}

/*
 * pb_admission_begin
 *		Check that nworkers more workers, logging in as the current user into
 *		the current database, fit every limit; raise the error of the first
 *		that does not.  On success the admission lock is held until
 *		pb_admission_end(), or the end of the (sub)transaction.
 */
void
pb_admission_begin(int nworkers)
{
	Oid			role = GetUserId();
	PbWorkerCount count;
	HeapTuple	tuple;
	bool		role_super;
	int			role_limit;
	int			db_limit;

	tuple = SearchSysCache1(AUTHOID, ObjectIdGetDatum(role));
	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for role %u", role);
	role_super = ((Form_pg_authid) GETSTRUCT(tuple))->rolsuper;
	role_limit = ((Form_pg_authid) GETSTRUCT(tuple))->rolconnlimit;
	ReleaseSysCache(tuple);
	tuple = SearchSysCache1(DATABASEOID, ObjectIdGetDatum(MyDatabaseId));
	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for database %u", MyDatabaseId);
	db_limit = ((Form_pg_database) GETSTRUCT(tuple))->datconnlimit;
	ReleaseSysCache(tuple);

	if (nworkers > pb_max_clients)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("%d workers are more than polarbench.max_clients (%d) allows",
						nworkers, pb_max_clients),
				 errdetail("polarbench.max_clients bounds the workers of all runs and loads together: benchmark clients, a run's recorder, a background run's conductor, loader workers."),
				 errhint("Use fewer, or ask a superuser to raise polarbench.max_clients.")));

	pb_admission_end();			/* left over from an earlier error */
	SET_LOCKTAG_ADVISORY(admission_tag, InvalidOid, PB_ADMISSION_KEY1,
						 PB_ADMISSION_KEY2, 2);
	(void) LockAcquire(&admission_tag, ExclusiveLock, false, false);
	admission_locked = true;

	pb_count_workers(role, MyDatabaseId, &count);
	if (count.total + nworkers > pb_max_clients)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("too many polarbench workers"),
				 errdetail("%d polarbench workers are running, %d more would exceed polarbench.max_clients (%d).",
						   count.total, nworkers, pb_max_clients),
				 errhint("Wait for other runs to end, or ask a superuser to raise polarbench.max_clients.")));
	if (!role_super && role_limit >= 0 &&
		CountUserBackends(role) + count.role + nworkers > role_limit)
		ereport(ERROR,
				(errcode(ERRCODE_TOO_MANY_CONNECTIONS),
				 errmsg("too many connections for role \"%s\"",
						GetUserNameFromId(role, false)),
				 errdetail_plural("Every polarbench worker counts against the role's connection limit of %d, as its sessions do; %d more is needed.",
								  "Every polarbench worker counts against the role's connection limit of %d, as its sessions do; %d more are needed.",
								  nworkers, role_limit, nworkers),
				 errhint("Use fewer, or raise the role's limit with ALTER ROLE ... CONNECTION LIMIT.")));
	if (!role_super && db_limit >= 0 &&
		CountDBConnections(MyDatabaseId) + count.database + nworkers > db_limit)
		ereport(ERROR,
				(errcode(ERRCODE_TOO_MANY_CONNECTIONS),
				 errmsg("too many connections for database \"%s\"",
						get_database_name(MyDatabaseId)),
				 errdetail_plural("Every polarbench worker counts against the database's connection limit of %d, as its sessions do; %d more is needed.",
								  "Every polarbench worker counts against the database's connection limit of %d, as its sessions do; %d more are needed.",
								  nworkers, db_limit, nworkers),
				 errhint("Use fewer, or raise the database's limit with ALTER DATABASE ... CONNECTION LIMIT.")));
}

/*
 * pb_admission_check
 *		Whether nworkers more workers would fit every limit now, as
 *		pb_admission_begin() finds; holds nothing.
 */
void
pb_admission_check(int nworkers)
{
	pb_admission_begin(nworkers);
	pb_admission_end();
}

/*
 * pb_admission_end
 *		The admitted workers have connected (or gone): let the next run count.
 */
void
pb_admission_end(void)
{
	/* an error may have released it with the (sub)transaction already */
	if (admission_locked && PB_LOCK_HELD_BY_ME(&admission_tag, ExclusiveLock))
		(void) LockRelease(&admission_tag, ExclusiveLock, false);
	admission_locked = false;
}
