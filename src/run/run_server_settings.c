/*-------------------------------------------------------------------------
 *
 * run_server_settings.c
 *	  A run's server settings: parameters set with ALTER SYSTEM and a reload
 *	  for the run (those only a reload changes, fsync, full_page_writes, ...,
 *	  and any other a reload gives new sessions, such as wal_compression), and put back as they
 *	  were in postgresql.auto.conf afterwards, after an error or a cancel
 *	  too.
 *
 * Allowed to superusers, and to roles granted ALTER SYSTEM on the
 * parameter, as ALTER SYSTEM itself, that may read pg_file_settings, where
 * the previous values are read.  Every check is made
 * before anything is changed.  The change is the server's: other sessions
 * see it while the run goes on, and a server that crashes meanwhile keeps
 * it, as it would keep any ALTER SYSTEM.
 *
 * calls: run_settings.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <signal.h>

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/parsenodes.h"
#include "postmaster/interrupt.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "run.h"
#include "safe_sql.h"

/* How long the server may take to reload its configuration */
#define PB_RELOAD_TIMEOUT_MS	10000

/*
 * pb_server_setting_previous
 *		The value postgresql.auto.conf gives a parameter now, or NULL if it
 *		gives none.
 */
static char *
pb_server_setting_previous(const char *name)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(name)};

	if (pb_spi_execute_safe("SELECT setting FROM pg_catalog.pg_file_settings"
							" WHERE name = $1 AND sourcefile LIKE '%/postgresql.auto.conf'"
							" ORDER BY seqno DESC LIMIT 1",
							1, types, values, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read pg_file_settings");
	if (SPI_processed == 0)
		return NULL;
	return SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
}

/*
 * pb_server_settings_check
 *		Before the run: every server setting must be a parameter a reload
 *		changes (not one a restart does), that the caller may set with
 *		ALTER SYSTEM, to a value it
 *		takes; and the previous values must be readable, to be put back.
 */
void
pb_server_settings_check(PbRunConfig *config)
{
	MemoryContext cxt = CurrentMemoryContext;

	if (config->nserver_settings == 0)
		return;
	config->server_previous = palloc0(sizeof(char *) * config->nserver_settings);
	SPI_connect();
	if (!superuser())
	{
		bool		isnull;

		if (pb_spi_execute_safe("SELECT pg_catalog.has_table_privilege('pg_catalog.pg_file_settings', 'SELECT')"
								" AND pg_catalog.has_function_privilege('pg_catalog.pg_show_all_file_settings()', 'EXECUTE')",
								0, NULL, NULL, true, 1) != SPI_OK_SELECT)
			elog(ERROR, "could not check the privileges on pg_file_settings");
		if (!DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull)))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("permission denied to change server settings for a run"),
					 errdetail("The values to put back after the run are read from pg_file_settings, which the role may not read."),
					 errhint("A superuser may; or a role granted SELECT on pg_file_settings, EXECUTE on pg_show_all_file_settings() and ALTER SYSTEM on the parameters.")));
	}
	for (int i = 0; i < config->nserver_settings; i++)
	{
		const char *name = config->server_names[i];
		const char *value = config->server_values[i];
		char	   *context = pb_setting_context(name);
		char	   *previous;

		if (context == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("unrecognized configuration parameter \"%s\"", name)));
		if (strcmp(context, "postmaster") == 0)
			ereport(ERROR,
					(errcode(ERRCODE_CANT_CHANGE_RUNTIME_PARAM),
					 errmsg("parameter \"%s\" cannot be set for a run: it takes a server restart", name),
					 errhint("The command-line client applies it for a run with a restart of your own: polarbench --settings %s=VALUE --restart-command 'pg_ctlcluster 15 main restart' (it restarts again after the run to put it back).", name)));
		if (strcmp(context, "internal") == 0)
			ereport(ERROR,
					(errcode(ERRCODE_CANT_CHANGE_RUNTIME_PARAM),
					 errmsg("parameter \"%s\" cannot be changed", name)));
		if (!superuser() &&
			pg_parameter_aclcheck(name, GetUserId(), ACL_ALTER_SYSTEM) != ACLCHECK_OK)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("permission denied to set parameter \"%s\" for a run", name),
					 errhint("A superuser, or a role granted ALTER SYSTEM on the parameter, may.")));
		/* the parameter says whether the value is good, changing nothing */
		(void) set_config_option(name, value, PGC_SIGHUP, PGC_S_FILE,
								 GUC_ACTION_SET, false, ERROR, false);
		previous = pb_server_setting_previous(name);
		config->server_previous[i] = previous ? MemoryContextStrdup(cxt, previous) : NULL;
	}
	SPI_finish();
}

/*
 * pb_alter_system
 *		ALTER SYSTEM SET name = value, or RESET when value is NULL.
 */
static void
pb_alter_system(const char *name, const char *value)
{
	AlterSystemStmt *stmt = makeNode(AlterSystemStmt);
	VariableSetStmt *set = makeNode(VariableSetStmt);

	set->name = pstrdup(name);
	if (value == NULL)
		set->kind = VAR_RESET;
	else
	{
		A_Const    *arg = makeNode(A_Const);

		arg->val.sval.type = T_String;
		arg->val.sval.sval = pstrdup(value);
		arg->location = -1;
		set->kind = VAR_SET_VALUE;
		set->args = list_make1(arg);
	}
	stmt->setstmt = set;
	AlterSystemSetConfigFile(stmt);
}

/*
 * pb_reload_and_wait
 *		pg_reload_conf(), then wait until the postmaster has read the file
 *		again: it tells every backend, this one too, once it has, and the
 *		workers it starts from then on have the new values.
 */
static void
pb_reload_and_wait(void)
{
	TimestampTz deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
													   PB_RELOAD_TIMEOUT_MS);

	ConfigReloadPending = false;
	if (kill(PostmasterPid, SIGHUP) != 0)
		ereport(ERROR,
				(errmsg("could not send a reload signal to the postmaster: %m")));
	while (!ConfigReloadPending)
	{
		if (GetCurrentTimestamp() >= deadline)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("the server did not reload its configuration within %d s",
							PB_RELOAD_TIMEOUT_MS / 1000)));
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 10, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	ConfigReloadPending = false;
	ProcessConfigFile(PGC_SIGHUP);
}

/*
 * pb_server_settings_apply
 *		Set the run's server settings, and reload.
 */
void
pb_server_settings_apply(PbRunConfig *config)
{
	if (config->nserver_settings == 0)
		return;
	for (int i = 0; i < config->nserver_settings; i++)
		pb_alter_system(config->server_names[i], config->server_values[i]);
	pb_reload_and_wait();
}

/*
 * pb_restore_one
 *		Put one parameter back; a failure is a warning that names it.
 */
static void
pb_restore_one(const char *name, const char *previous, MemoryContext cxt)
{
	PG_TRY();
	{
		pb_alter_system(name, previous);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		ereport(WARNING,
				(errmsg("could not put parameter \"%s\" back after the run: %s",
						name, edata->message),
				 errhint("Check postgresql.auto.conf, and ALTER SYSTEM RESET what the run set.")));
	}
	PG_END_TRY();
}

/*
 * pb_server_settings_restore
 *		After the run: put every server setting back as postgresql.auto.conf
 *		had it, and reload.  The run is over and recorded, so a setting
 *		that cannot be put back is a warning that names it, not an error.
 */
void
pb_server_settings_restore(PbRunConfig *config)
{
	MemoryContext cxt = CurrentMemoryContext;

	if (config->nserver_settings == 0)
		return;
	for (int i = 0; i < config->nserver_settings; i++)
		pb_restore_one(config->server_names[i], config->server_previous[i], cxt);
	PG_TRY();
	{
		pb_reload_and_wait();
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		ereport(WARNING,
				(errmsg("the server settings are put back, but the reload was not seen: %s",
						edata->message)));
	}
	PG_END_TRY();
}

/*
 * pb_server_settings_cleanup
 *		PG_ENSURE_ERROR_CLEANUP callback, on the way out of an error or of
 *		the process: put the server settings back and signal a reload,
 *		without waiting for it.  A setting the run never wrote is put back
 *		to what the file has anyway.
 */
void
pb_server_settings_cleanup(int code, Datum arg)
{
	PbRunConfig *config = (PbRunConfig *) DatumGetPointer(arg);

	if (config->nserver_settings == 0)
		return;
	for (int i = 0; i < config->nserver_settings; i++)
		pb_alter_system(config->server_names[i], config->server_previous[i]);
	(void) kill(PostmasterPid, SIGHUP);
}
