/*-------------------------------------------------------------------------
 *
 * status.c
 *	  Whether a run recorded as running is still going: its recorder is
 *	  alive.  The views and the next run's recorder ask it alike, and a run
 *	  that is not is shown and recorded as interrupted (PB_INTERRUPTED_*).
 *	  And who owns the run history: the extension's owner and schema, and
 *	  acting as that owner, as the recorder and the SQL entry points that
 *	  read the run tables do.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/pg_extension.h"
#include "commands/extension.h"
#include "postmaster/bgworker.h"
#include "utils/backend_status.h"
#include "utils/fmgroids.h"

#include "admission.h"
#include "engine.h"
#include "safe_sql.h"

/*
 * pb_recorder_running
 *		Whether process pid is a polarbench recorder (or a conductor, which
 *		records the run it conducts across a cluster) that started no later
 *		than since (so not another process that got the same pid later).
 */
bool
pb_recorder_running(int pid, TimestampTz since)
{
	int			nbackends = pgstat_fetch_stat_numbackends();

	for (int i = 1; i <= nbackends; i++)
	{
		LocalPgBackendStatus *local = pgstat_fetch_stat_local_beentry(i);
		const char *type;

		if (local == NULL || local->backendStatus.st_procpid != pid)
			continue;
		if (local->backendStatus.st_proc_start_timestamp > since)
			return false;
		type = GetBackgroundWorkerTypeByPid(pid);
		/* a background run across a Citus cluster is recorded by its conductor */
		return type != NULL && (strcmp(type, PB_RECORDER_WORKER_TYPE) == 0 ||
								strcmp(type, PB_CONDUCTOR_WORKER_TYPE) == 0);
	}
	return false;
}

/*
 * pb_extension_owner
 *		The owner of the polarbench extension, who owns its result tables,
 *		and the extension's schema in *schema.
 */
Oid
pb_extension_owner(Oid *schema)
{
	Oid			extoid = get_extension_oid("polarbench", false);
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	Oid			owner = InvalidOid;

	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_extension_oid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(extoid));
	scan = systable_beginscan(rel, ExtensionOidIndexId, true, NULL, 1, &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
	{
		owner = ((Form_pg_extension) GETSTRUCT(tuple))->extowner;
		*schema = ((Form_pg_extension) GETSTRUCT(tuple))->extnamespace;
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	if (!OidIsValid(owner))
		elog(ERROR, "extension polarbench not found");
	return owner;
}

/*
 * pb_as_owner_begin
 *		Act as the extension's owner, who alone reads the run table, in a
 *		security-restricted operation, with a search_path of pg_catalog
 *		only: nothing of the caller's (an operator, a function of the same
 *		name in a schema of its own) can run as the owner.  Returns the
 *		nesting level that pb_as_owner_end() pops.  An error puts all of it
 *		back too, with the (sub)transaction's abort.
 */
int
pb_as_owner_begin(Oid owner, Oid *save_user, int *save_sec)
{
	int			nest;

	GetUserIdAndSecContext(save_user, save_sec);
	SetUserIdAndSecContext(owner, *save_sec | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	nest = pb_pin_search_path();
	return nest;
}

/* Stop acting as the owner. */
void
pb_as_owner_end(int nest, Oid save_user, int save_sec)
{
	pb_unpin_search_path(nest);
	SetUserIdAndSecContext(save_user, save_sec);
}
