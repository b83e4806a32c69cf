/*-------------------------------------------------------------------------
 *
 * run_settings.c
 *	  A run's settings: server parameters every client sets for the run,
 *	  with the privileges of the role that starts it, as if it had run SET
 *	  in each client's session.
 *
 * In the caller, before anything starts, every setting is checked: it must
 * be one a session can SET (not one that only a reload or a restart
 * changes, nor one fixed at connection start), the caller must be allowed
 * to set it (a superuser, or GRANT SET ON PARAMETER for superuser-only
 * ones), and the value must be one the parameter takes; the parameter
 * itself says so, by being set in a subtransaction that is rolled back.
 * Parameters that act only on statements a client sends over the protocol
 * (log_statement, log_min_duration_statement, ...) are refused: the
 * clients' statements run through SPI, which they do not see; pgaudit
 * does, and its pgaudit.log can be set per run.
 *
 * The clients' search_path is the caller's, as the caller's own statements
 * would resolve it at the call (or as settings give it): the schemas it
 * finds, pg_catalog searched first (pb_settings_search_path()).  The
 * caller checks the run and reads what the run needs of the tables with
 * that path too, and the recorder reads its figures of the tables the
 * caller found, so that all of them work on the same tables.
 *
 * The effective values of the parameters that matter to a benchmark are
 * recorded with the run, with the run's settings applied, search_path
 * among them.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/formatting.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"
#include "utils/json.h"
#include "utils/lsyscache.h"

#include "engine.h"
#include "safe_sql.h"

/*
 * Parameters that act only on statements sent over the protocol
 * (exec_simple_query and the extended protocol's messages).
 */
static const char *const pb_protocol_only[] = {
	"log_statement",
	"log_min_duration_statement",
	"log_min_duration_sample",
	"log_statement_sample_rate",
	"log_transaction_sample_rate",
	"log_duration",
	"log_parameter_max_length",
	"log_parameter_max_length_on_error",
	"log_statement_stats",
	"log_parser_stats",
	"log_planner_stats",
	"log_executor_stats",
};

/* Timeouts that the protocol loop arms: they never fire in a client */
static const char *const pb_protocol_timeouts[] = {
	"statement_timeout",
	"idle_in_transaction_session_timeout",
	"idle_session_timeout",
};

/* The parameters recorded with every run, with their effective values */
static const char *const pb_recorded_settings[] = {
	"shared_buffers",
	"synchronous_commit",
	"fsync",
	"full_page_writes",
	"wal_level",
	"wal_compression",
	"wal_buffers",
	"max_wal_size",
	"checkpoint_timeout",
	"work_mem",
	"default_transaction_isolation",
	"jit",
	"huge_pages",
	"max_connections",
};

/* Old names SET still takes, as guc.c maps them */
static const char *const pb_old_setting_names[][2] = {
	{"sort_mem", "work_mem"},
	{"vacuum_mem", "maintenance_work_mem"},
};

/*
 * pb_setting_lookup
 *		The parameter of that name as SET finds it: case-insensitively, old
 *		names mapped, superuser-only ones too (which pg_settings hides from
 *		roles that may still be granted SET on them); NULL if there is none,
 *		or only a placeholder for a module not loaded.
 */
static struct config_generic *
pb_setting_lookup(const char *name)
{
	struct config_generic **vars;
	int			nvars;

	for (int i = 0; i < lengthof(pb_old_setting_names); i++)
		if (pg_strcasecmp(name, pb_old_setting_names[i][0]) == 0)
			name = pb_old_setting_names[i][1];
	vars = PB_GUC_VARIABLES(&nvars);
	for (int i = 0; i < nvars; i++)
		if (pg_strcasecmp(vars[i]->name, name) == 0)
			return (vars[i]->flags & GUC_CUSTOM_PLACEHOLDER) ? NULL : vars[i];
	return NULL;
}

/*
 * pb_setting_context
 *		The context of a parameter as pg_settings names it ("user",
 *		"sighup", ...), or NULL if there is no such parameter.
 */
char *
pb_setting_context(const char *name)
{
	struct config_generic *record = pb_setting_lookup(name);

	return record ? pstrdup(GucContext_Names[record->context]) : NULL;
}

/*
 * pb_setting_flags
 *		The flags of a parameter (GUC_LIST_QUOTE, ...), 0 if there is none.
 */
int
pb_setting_flags(const char *name)
{
	struct config_generic *record = pb_setting_lookup(name);

	return record ? record->flags : 0;
}

/*
 * pb_setting_canonical_name
 *		A parameter's name as the run keeps it: in lower case, the old
 *		names SET maps mapped to the new ones.
 */
char *
pb_setting_canonical_name(const char *name)
{
	for (int i = 0; i < lengthof(pb_old_setting_names); i++)
		if (pg_strcasecmp(name, pb_old_setting_names[i][0]) == 0)
			name = pb_old_setting_names[i][1];
	return asc_tolower(name, strlen(name));
}

/*
 * pb_setting_check_one
 *		Refuse a setting a run cannot have, saying why; else set it for the
 *		current subtransaction.  SPI connected.
 */
static void
pb_setting_check_one(const char *name, const char *value)
{
	char	   *context;

	for (int i = 0; i < lengthof(pb_protocol_only); i++)
		if (strcmp(name, pb_protocol_only[i]) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("parameter \"%s\" does not act on benchmark clients", name),
					 errdetail("It acts only on statements a client sends over the protocol; the clients' statements run through SPI, which it does not see."),
					 errhint("To log the clients' statements, load pgaudit (Debian's postgresql-15-pgaudit) in shared_preload_libraries and give pgaudit.log in settings.")));

	for (int i = 0; i < lengthof(pb_protocol_timeouts); i++)
		if (strcmp(name, pb_protocol_timeouts[i]) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("parameter \"%s\" does not act on benchmark clients", name),
					 errdetail("The server arms it for statements a client sends over the protocol; the clients' statements run through SPI, and never wait for a client's next one."),
					 errhint("A run's duration ends it, and polarbench.max_run_duration bounds it; lock_timeout acts on the clients.")));

	context = pb_setting_context(name);
	if (context == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("unrecognized configuration parameter \"%s\"", name),
				 strchr(name, '.') != NULL ?
				 errhint("A module's parameters exist once the module is loaded; pgaudit's, once it is in shared_preload_libraries.") : 0));
	if (strcmp(context, "internal") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_CANT_CHANGE_RUNTIME_PARAM),
				 errmsg("parameter \"%s\" cannot be changed", name)));
	if (strcmp(context, "postmaster") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_CANT_CHANGE_RUNTIME_PARAM),
				 errmsg("parameter \"%s\" cannot be set for a run: it takes a server restart", name),
				 errhint("The command-line program applies it for a run with a restart of your own: polarbench --settings %s=VALUE --restart-command 'pg_ctlcluster 15 main restart' (it restarts again after the run to put it back).", name)));
	if (strcmp(context, "sighup") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_CANT_CHANGE_RUNTIME_PARAM),
				 errmsg("parameter \"%s\" cannot be set for a run's clients: only a reload of the server's configuration changes it", name),
				 errhint("Set it with ALTER SYSTEM and pg_reload_conf() before the run.")));
	if (strcmp(context, "backend") == 0 || strcmp(context, "superuser-backend") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_CANT_CHANGE_RUNTIME_PARAM),
				 errmsg("parameter \"%s\" cannot be set for a run: it is fixed when a session starts", name)));

	/* the parameter says whether the caller may set it and the value is good */
	(void) set_config_option(name, value,
							 superuser() ? PGC_SUSET : PGC_USERSET,
							 PGC_S_SESSION, GUC_ACTION_LOCAL, true, ERROR, false);
}

/* In a subtransaction: check and set every setting. */
static void
pb_settings_check_in_subxact(void *arg)
{
	PbRunConfig *config = arg;

	for (int i = 0; i < config->nsettings; i++)
		pb_setting_check_one(config->setting_names[i], config->setting_values[i]);
}

/*
 * pb_setting_shown_value
 *		A parameter's value as SHOW shows it, NULL if there is none.  One
 *		only superusers may examine is read as the bootstrap superuser: it
 *		is recorded with the run, and the view shows it only to roles that
 *		may examine it (polarbench_shown_settings()).
 */
char *
pb_setting_shown_value(const char *name)
{
	struct config_generic *record = pb_setting_lookup(name);
	Oid			save_user;
	int			save_sec;
	char	   *value;

	if (record == NULL)
		return NULL;
	if ((record->flags & GUC_SUPERUSER_ONLY) == 0)
		return GetConfigOptionByName(name, NULL, true);
	GetUserIdAndSecContext(&save_user, &save_sec);
	SetUserIdAndSecContext(BOOTSTRAP_SUPERUSERID, save_sec | SECURITY_LOCAL_USERID_CHANGE);
	PG_TRY();
	{
		value = GetConfigOptionByName(name, NULL, true);
	}
	PG_FINALLY();
	{
		SetUserIdAndSecContext(save_user, save_sec);
	}
	PG_END_TRY();
	return value;
}

/*
 * pb_settings_effective
 *		The values of the recorded parameters and of those given, as JSON.
 */
static char *
pb_settings_effective(const PbRunConfig *config)
{
	StringInfoData json;
	int			nrecorded = lengthof(pb_recorded_settings);

	initStringInfo(&json);
	appendStringInfoChar(&json, '{');
	for (int i = 0; i < nrecorded + config->nsettings; i++)
	{
		const char *name = i < nrecorded ? pb_recorded_settings[i] :
			config->setting_names[i - nrecorded];
		char	   *value = pb_setting_shown_value(name);
		bool		seen = false;

		/* a setting given that is also a recorded one appears once */
		for (int k = 0; i >= nrecorded && k < nrecorded; k++)
			seen |= (strcmp(pb_recorded_settings[k], name) == 0);
		if (value == NULL || seen)
			continue;
		if (json.len > 1)
			appendStringInfoString(&json, ", ");
		escape_json(&json, name);
		appendStringInfoString(&json, ": ");
		escape_json(&json, value);
	}
	appendStringInfoChar(&json, '}');
	return json.data;
}

/*
 * pb_settings_add
 *		Add a setting given for the run (its name kept as
 *		pb_setting_canonical_name() spells it); a parameter given twice
 *		under names that SET takes for the same is an error.
 */
void
pb_settings_add(PbRunConfig *config, const char *name, const char *value)
{
	char	   *lower = pb_setting_canonical_name(name);

	for (int i = 0; i < config->nsettings; i++)
		if (strcmp(config->setting_names[i], lower) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("parameter \"%s\" is given twice in settings", name),
					 errhint("Parameter names are not case-sensitive; give each once.")));
	if (config->nsettings == 0)
	{
		config->setting_names = palloc(sizeof(char *) * 8);
		config->setting_values = palloc(sizeof(char *) * 8);
	}
	else if (config->nsettings % 8 == 0)
	{
		config->setting_names = repalloc(config->setting_names,
										 sizeof(char *) * (config->nsettings + 8));
		config->setting_values = repalloc(config->setting_values,
										  sizeof(char *) * (config->nsettings + 8));
	}
	config->setting_names[config->nsettings] = lower;
	config->setting_values[config->nsettings] = pstrdup(value);
	config->nsettings++;
}

/*
 * pb_settings_check
 *		In the caller, before the run: refuse any setting the clients could
 *		not have, with the reason.
 */
void
pb_settings_check(PbRunConfig *config)
{
	pb_in_rolled_back_subxact(pb_settings_check_in_subxact, NULL, config);
}

/*
 * pb_settings_search_path
 *		The search_path a run's clients get, from the session's: the schemas
 *		it resolves to now, as namespace.c resolves it ("$user" as the
 *		role's schema; schemas that do not exist, or that the role may not
 *		use, left out), quoted, then pg_temp; never pg_catalog, nor the
 *		session's temporary schema (each client has its own).
 *
 * pg_catalog is left out so that it is searched first, as PostgreSQL
 * searches it when the path does not name it, even where the session's
 * path names it after another schema.  The workloads' statements call
 * operators, functions, aggregates and types by their bare names, as their
 * tools send them, typed so that pg_catalog has an exact match for each
 * call; but a schema searched before pg_catalog could hold an exact match
 * too, planted by any role that may create objects in it, and the clients
 * would call it with the rights of the role that runs the benchmark.  No
 * workload's table is in pg_catalog, so the tables are found as the
 * session finds them, and the first schema named stays the one a CREATE
 * creates in.  pg_temp comes last, so that no temporary table (the
 * caller's, as it checks the run, or a client's) takes the place of a
 * table of the path.
 */
char *
pb_settings_search_path(void)
{
	Oid			small[16];
	Oid		   *path = small;
	int			n = fetch_search_path_array(small, lengthof(small));
	StringInfoData buf;

	if (n > lengthof(small))
	{
		path = palloc(sizeof(Oid) * n);
		n = fetch_search_path_array(path, n);
	}
	initStringInfo(&buf);
	for (int i = 0; i < n; i++)
	{
		char	   *name;

		if (path[i] == PG_CATALOG_NAMESPACE || isAnyTempNamespace(path[i]))
			continue;
		name = get_namespace_name(path[i]);
		if (name != NULL)
			appendStringInfo(&buf, "%s, ", quote_identifier(name));
	}
	/* with no schema, pg_temp would come first, and take CREATEs */
	if (buf.len > 0)
		appendStringInfoString(&buf, "pg_temp");
	return buf.data;
}

/*
 * pb_settings_put
 *		Make a setting of the run's clients name = value, in place of one
 *		given for the same parameter.
 */
static void
pb_settings_put(PbRunConfig *config, const char *name, const char *value)
{
	for (int i = 0; i < config->nsettings; i++)
		if (strcmp(config->setting_names[i], name) == 0)
		{
			config->setting_values[i] = pstrdup(value);
			return;
		}
	pb_settings_add(config, name, value);
}

/* Have the run's settings for what follows, until the nesting level is popped. */
static int
pb_settings_set(const PbRunConfig *config)
{
	int			nest = NewGUCNestLevel();

	for (int i = 0; i < config->nsettings; i++)
		(void) set_config_option(config->setting_names[i], config->setting_values[i],
								 superuser() ? PGC_SUSET : PGC_USERSET,
								 PGC_S_SESSION, GUC_ACTION_SAVE, true, ERROR, false);
	return nest;
}

/*
 * pb_settings_push
 *		In the caller, once they are checked: have the run's settings for
 *		what follows, so that its scripts are checked as its clients will
 *		run them, until pb_settings_pop() (or the end of the transaction)
 *		puts the caller's back, as a function's SET clause does.  The
 *		search_path is the one the clients get, pb_settings_search_path() of
 *		the caller's or of the one given, and a setting of the run.  Returns
 *		the nesting level to pop.
 */
int
pb_settings_push(PbRunConfig *config)
{
	int			nest = pb_settings_set(config);
	char	   *path;

	path = pb_settings_search_path();
	(void) set_config_option("search_path", path, PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, ERROR, false);
	pb_settings_put(config, "search_path", path);
	return nest;
}

/*
 * pb_settings_record
 *		In the caller, just before the launch: record the effective values
 *		of the parameters that matter (config->effective_json) as the run's
 *		clients will have them, with the run's settings (pushed once, which
 *		gave it its search_path) and the server's as they are now, after the
 *		run's server settings.
 */
void
pb_settings_record(PbRunConfig *config)
{
	int			nest = pb_settings_set(config);

	config->effective_json = pb_settings_effective(config);
	pb_settings_pop(nest);
}

/*
 * pb_settings_pop
 *		Put the caller's settings back.
 */
void
pb_settings_pop(int nest)
{
	AtEOXact_GUC(true, nest);
}

/*
 * pb_settings_apply
 *		In a client, in a transaction: set the run's settings for the
 *		session, as the role, as SET would.
 */
void
pb_settings_apply(const PbRunConfig *config)
{
	for (int i = 0; i < config->nsettings; i++)
		(void) set_config_option(config->setting_names[i], config->setting_values[i],
								 superuser() ? PGC_SUSET : PGC_USERSET,
								 PGC_S_SESSION, GUC_ACTION_SET, true, ERROR, false);
}
