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
 * the previous values are read.  Every check is made before anything is
 * changed.  The change is the server's: other sessions see it while the run
 * goes on.  What is to be put back is written durably before the change
 * (settings_journal.c), so that a crash or an immediate stop in the middle
 * of the run does not keep it: the next polarbench call puts it back.  One
 * run at a time has server settings.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "alter_system.h"
#include "engine.h"
#include "safe_sql.h"
#include "settings_journal.h"

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
							" WHERE pg_catalog.lower(name) = pg_catalog.lower($1)"
							"   AND sourcefile LIKE '%/postgresql.auto.conf'"
							" ORDER BY seqno DESC LIMIT 1",
							1, types, values, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read pg_file_settings");
	if (SPI_processed == 0)
		return NULL;
	return SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
}

/*
 * pb_server_setting_check_newlines
 *		ALTER SYSTEM writes no value with a newline: refuse a run's value
 *		that has one, and a value to put back that has one (a file edited by
 *		hand can give it), which could not be put back after the run.
 */
static void
pb_server_setting_check_newlines(const char *name, const char *value)
{
	char	   *previous;

	if (strchr(value, '\n') != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("value of server setting \"%s\" must not contain a newline", name),
				 errdetail("ALTER SYSTEM does not write a value with a newline to postgresql.auto.conf.")));
	previous = pb_server_setting_previous(name);
	if (previous != NULL && strchr(previous, '\n') != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("parameter \"%s\" cannot be set for a run: its value in postgresql.auto.conf contains a newline", name),
				 errdetail("ALTER SYSTEM could not put that value back after the run."),
				 errhint("Give the parameter a value without a newline with ALTER SYSTEM first.")));
}

/*
 * pb_server_settings_check
 *		Before the run: every server setting must be a parameter a reload
 *		changes (not one a restart does), that the caller may set with
 *		ALTER SYSTEM, to a value it takes; the previous values must be
 *		readable, to be put back; and no other run may have server settings
 *		in place (a run's left over are put back first).
 */
void
pb_server_settings_check(PbRunConfig *config)
{
	if (config->nserver_settings == 0)
		return;
	pb_journal_check_free();
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

		if (context == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("unrecognized configuration parameter \"%s\"", name)));
		if (strcmp(context, "postmaster") == 0)
			ereport(ERROR,
					(errcode(ERRCODE_CANT_CHANGE_RUNTIME_PARAM),
					 errmsg("parameter \"%s\" cannot be set for a run: it takes a server restart", name),
					 errhint("The command-line program applies it for a run with a restart of your own: polarbench --settings %s=VALUE --restart-command 'pg_ctlcluster 15 main restart' (it restarts again after the run to put it back).", name)));
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
		pb_server_setting_check_newlines(name, value);
	}
	SPI_finish();
}

/*
 * pb_server_settings_apply
 *		Set the run's server settings, and reload: first, under the
 *		journal's lock, claim the journal, read the values to put back and
 *		write them durably; then ALTER SYSTEM.
 */
void
pb_server_settings_apply(PbRunConfig *config)
{
	MemoryContext cxt = CurrentMemoryContext;

	if (config->nserver_settings == 0)
		return;
	pb_journal_claim();
	config->server_previous = palloc0(sizeof(char *) * config->nserver_settings);
	SPI_connect();
	for (int i = 0; i < config->nserver_settings; i++)
	{
		char	   *previous = pb_server_setting_previous(config->server_names[i]);

		config->server_previous[i] = previous ? MemoryContextStrdup(cxt, previous) : NULL;
	}
	SPI_finish();
	pb_journal_write(config->nserver_settings, config->server_names,
					 config->server_previous, config->server_values);
	config->server_journaled = true;
	pb_journal_unlock();
	for (int i = 0; i < config->nserver_settings; i++)
		pb_alter_system(config->server_names[i], config->server_values[i]);
	pb_reload_and_wait();
}

/*
 * pb_server_settings_restore
 *		After the run: put every server setting back as postgresql.auto.conf
 *		had it, the last first, reload, and remove the journal.  The run is
 *		over and recorded, so a setting that cannot be put back is a warning
 *		that names it, not an error, and the journal is left for the next
 *		polarbench call of any session to try again.
 */
void
pb_server_settings_restore(PbRunConfig *config)
{
	MemoryContext cxt = CurrentMemoryContext;
	bool		all = true;

	if (!config->server_journaled)
		return;
	for (int i = config->nserver_settings - 1; i >= 0; i--)
	{
		char	   *error;

		if (!pb_alter_system_try(config->server_names[i], config->server_previous[i],
								 &error))
		{
			all = false;
			ereport(WARNING,
					(errmsg("could not put parameter \"%s\" back after the run: %s",
							config->server_names[i], error),
					 errhint("The next polarbench call tries again; file \"%s/%s\" names what is to be put back.",
							 DataDir, PB_JOURNAL_FILE)));
		}
	}
	if (all)
		pb_journal_remove();
	else
		pb_journal_orphan();
	config->server_journaled = false;
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
 *		without waiting for it.  The journal is first made no live
 *		process's, so that if putting back fails part of the way, the next
 *		polarbench call of any session finishes it.
 */
void
pb_server_settings_cleanup(int code, Datum arg)
{
	PbRunConfig *config = (PbRunConfig *) DatumGetPointer(arg);

	if (!config->server_journaled)
		return;
	pb_journal_orphan();
	for (int i = config->nserver_settings - 1; i >= 0; i--)
		pb_alter_system(config->server_names[i], config->server_previous[i]);
	config->server_journaled = false;
	pb_journal_unlink(LOG);
	(void) pb_reload_signal();
}
