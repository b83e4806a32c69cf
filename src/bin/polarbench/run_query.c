/*-------------------------------------------------------------------------
 *
 * run_query.c
 *	  The calls the client makes for a run and for a sweep, built from its
 *	  options: polarbench_run() and polarbench_sweep() with named
 *	  arguments, every value a query parameter (never pasted into SQL
 *	  text), and the result row read back by column name.
 *
 * The calls run in the session's own search_path, which finds the user's
 * tables: every function and type in them is named with its schema,
 * polarbench's as @extschema@ (see connection.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include "common/logging.h"

#include "polarbench.h"

/*
 * add_param
 *		Add a parameter and return its $n number.
 */
static int
add_param(ParamList *p, const char *value)
{
	if (p->n == p->space)
	{
		p->space = Max(16, p->space * 2);
		p->values = pg_realloc(p->values, sizeof(char *) * p->space);
	}
	p->values[p->n++] = value;
	return p->n;
}

/*
 * append_json_string
 *		Append s as a JSON string, quoted and escaped.
 */
void
append_json_string(PQExpBuffer buf, const char *s)
{
	appendPQExpBufferChar(buf, '"');
	for (const unsigned char *p = (const unsigned char *) s; *p; p++)
	{
		if (*p == '"' || *p == '\\')
			appendPQExpBuffer(buf, "\\%c", *p);
		else if (*p < 0x20)
			appendPQExpBuffer(buf, "\\u%04x", *p);
		else
			appendPQExpBufferChar(buf, *p);
	}
	appendPQExpBufferChar(buf, '"');
}

/*
 * setting_set_json
 *		A setting set as a JSON object of strings, {"name": "value", ...}.
 */
static void
setting_set_json(PQExpBuffer buf, const SettingSet *set)
{
	appendPQExpBufferChar(buf, '{');
	for (int i = 0; i < set->n; i++)
	{
		if (i > 0)
			appendPQExpBufferStr(buf, ", ");
		append_json_string(buf, set->names[i]);
		appendPQExpBufferStr(buf, ": ");
		append_json_string(buf, set->values[i]);
	}
	appendPQExpBufferChar(buf, '}');
}

/*
 * setting_set_json_or_null
 *		A setting set as a JSON object, or NULL when it is empty.
 */
char *
setting_set_json_or_null(const SettingSet *set)
{
	PQExpBufferData buf;

	if (set->n == 0)
		return NULL;
	initPQExpBuffer(&buf);
	setting_set_json(&buf, set);
	return buf.data;
}

/* The workload argument: the server's workload -b named, or built-ins with weights */
static const char *
workload_arg(const ClientOptions *opts)
{
	PQExpBufferData workload;

	initPQExpBuffer(&workload);
	if (opts->workload != NULL)
		appendPQExpBufferStr(&workload, opts->workload->name);
	for (int i = 0; i < opts->nbuiltins; i++)
		appendPQExpBuffer(&workload, "%s%s@%d", i > 0 ? "," : "",
						  opts->scripts[i].builtin, opts->scripts[i].weight);
	return workload.len > 0 ? workload.data : NULL;
}

/* A jsonb object of name and value pairs, for a repeated name the last */
static void
append_pairs(PQExpBuffer sql, ParamList *p, char **names, char **values, int n)
{
	appendPQExpBufferStr(sql, "pg_catalog.jsonb_object(ARRAY[");
	for (int i = 0; i < n; i++)
	{
		int			k = add_param(p, names[i]);
		int			v = add_param(p, values[i]);

		appendPQExpBuffer(sql, "%s$%d::pg_catalog.text, $%d::pg_catalog.text", i > 0 ? ", " : "", k, v);
	}
	appendPQExpBufferStr(sql, "])");
}

/* The arguments polarbench_run() and polarbench_sweep() share */
static void
append_common_args(const ClientOptions *opts, PQExpBuffer sql, ParamList *p)
{
	if (opts->duration > 0)
		appendPQExpBuffer(sql, ", duration => $%d::pg_catalog.float8",
						  add_param(p, psprintf("%d", opts->duration)));
	if (opts->nxacts > 0)
		appendPQExpBuffer(sql, ", transactions => $%d::pg_catalog.int8",
						  add_param(p, psprintf("%d", opts->nxacts)));
	if (opts->random_seed != NULL)
		appendPQExpBuffer(sql, ", random_seed => $%d::pg_catalog.int8",
						  add_param(p, opts->random_seed));
	if (opts->scale > 0)
		appendPQExpBuffer(sql, ", scale => $%d::pg_catalog.int4",
						  add_param(p, psprintf("%d", opts->scale)));
	if (opts->rate > 0)
		appendPQExpBuffer(sql, ", rate => $%d::pg_catalog.float8",
						  add_param(p, psprintf("%.17g", opts->rate)));
	if (opts->latency_limit > 0)
		appendPQExpBuffer(sql, ", latency_limit => $%d::pg_catalog.float8",
						  add_param(p, psprintf("%.17g", opts->latency_limit)));
	if (opts->max_tries != 1)
		appendPQExpBuffer(sql, ", max_tries => $%d::pg_catalog.int4",
						  add_param(p, psprintf("%d", opts->max_tries)));
	if (opts->warmup > 0)
		appendPQExpBuffer(sql, ", warmup => $%d::pg_catalog.float8",
						  add_param(p, psprintf("%.17g", opts->warmup)));
	if (opts->end_grace >= 0)
		appendPQExpBuffer(sql, ", end_grace => $%d::pg_catalog.float8",
						  add_param(p, psprintf("%.17g", opts->end_grace)));
}

/* The figures the program reads and prints, from PB_RUN_FIGURES */
static const ClientFigure figures[] = {
#define CLIENT_FIG_DEF(name, type, nulls, counter, run, progress, live, program) \
	PB_FIG_IF(program, {#name, PB_FIG_IS_COUNT_##type, offsetof(ClientResult, name)},)
	PB_RUN_FIGURES(CLIENT_FIG_DEF)
#undef CLIENT_FIG_DEF
};

/* How many figures the program reads. */
int
client_figure_count(void)
{
	return lengthof(figures);
}

/* The i-th of them, in PB_RUN_FIGURES' order. */
const ClientFigure *
client_figure_at(int i)
{
	return &figures[i];
}

/*
 * append_figure
 *		A figure of result, as text: a whole number, or a number with every
 *		digit a double holds.
 */
void
append_figure(PQExpBuffer buf, const ClientFigure *f, const ClientResult *result)
{
	const char *field = (const char *) result + f->offset;

	if (f->count)
		appendPQExpBuffer(buf, "%lld", *(const long long *) field);
	else
		appendPQExpBuffer(buf, "%.17g", *(const double *) field);
}

/*
 * result_columns
 *		The columns of polarbench_result the program reads: run_id and its
 *		figures.
 */
const char *
result_columns(void)
{
	static char *columns = NULL;

	if (columns == NULL)
	{
		PQExpBufferData buf;

		initPQExpBuffer(&buf);
		appendPQExpBufferStr(&buf, "run_id");
		for (int i = 0; i < lengthof(figures); i++)
			appendPQExpBuffer(&buf, ", %s", figures[i].name);
		columns = buf.data;
	}
	return columns;
}

/*
 * build_run_query
 *		The polarbench_run() call for the options, in sql, with its
 *		parameters: built-ins as the workload, files as scripts and
 *		weights (named, in pgbench's report, by their file names), -D
 *		definitions as a jsonb object built by the server, and the settings
 *		for the run (JSON objects, NULL for none).
 */
void
build_run_query(const ClientOptions *opts, PQExpBuffer sql, ParamList *p,
				const char *settings_json, const char *server_json)
{
	appendPQExpBuffer(sql, "SELECT %s FROM @extschema@.polarbench_run(", result_columns());
	appendPQExpBuffer(sql, "workload => $%d::pg_catalog.text", add_param(p, workload_arg(opts)));
	appendPQExpBuffer(sql, ", clients => $%d::pg_catalog.int4",
					  add_param(p, psprintf("%d", opts->nclients)));
	/* a negative interval: every second, drawn by --svg but not printed */
	appendPQExpBuffer(sql, ", progress => $%d::pg_catalog.int4",
					  add_param(p, psprintf("%d", opts->progress < 0 ? 1 : opts->progress)));
	append_common_args(opts, sql, p);

	if (opts->nscripts > opts->nbuiltins)
	{
		appendPQExpBufferStr(sql, ", scripts => ARRAY[");
		for (int i = opts->nbuiltins; i < opts->nscripts; i++)
			appendPQExpBuffer(sql, "%s$%d::pg_catalog.text", i > opts->nbuiltins ? ", " : "",
							  add_param(p, opts->scripts[i].text));
		appendPQExpBufferStr(sql, "], weights => ARRAY[");
		for (int i = opts->nbuiltins; i < opts->nscripts; i++)
			appendPQExpBuffer(sql, "%s$%d::pg_catalog.int4", i > opts->nbuiltins ? ", " : "",
							  add_param(p, psprintf("%d", opts->scripts[i].weight)));
		appendPQExpBufferStr(sql, "], script_names => ARRAY[");
		for (int i = opts->nbuiltins; i < opts->nscripts; i++)
			appendPQExpBuffer(sql, "%s$%d::pg_catalog.text", i > opts->nbuiltins ? ", " : "",
							  add_param(p, opts->scripts[i].desc));
		appendPQExpBufferStr(sql, "]");
	}
	if (opts->nvars > 0)
	{
		appendPQExpBufferStr(sql, ", vars => ");
		append_pairs(sql, p, opts->var_names, opts->var_values, opts->nvars);
	}
	if (opts->nopts > 0)
	{
		/* the server reads each value as the option's type */
		appendPQExpBufferStr(sql, ", options => ");
		append_pairs(sql, p, opts->opt_names, opts->opt_values, opts->nopts);
	}
	if (settings_json != NULL)
		appendPQExpBuffer(sql, ", settings => $%d::pg_catalog.jsonb", add_param(p, settings_json));
	if (server_json != NULL)
		appendPQExpBuffer(sql, ", server_settings => $%d::pg_catalog.jsonb",
						  add_param(p, server_json));
	appendPQExpBufferStr(sql, ")");
}

/*
 * build_sweep_query
 *		The polarbench_sweep() call for the options and one setting set
 *		(its session and server parts as JSON objects, NULL for none): every
 *		client count, repeat times.  A sweep runs built-ins or one script.
 */
void
build_sweep_query(const ClientOptions *opts, PQExpBuffer sql, ParamList *p,
				  const char *settings_json, const char *server_json)
{
	appendPQExpBufferStr(sql,
						 "SELECT sweep_id, run_id, repetition, run_clients, tps, qps, "
						 "latency_avg, latency_p95, latency_p99, failed FROM @extschema@.polarbench_sweep(");
	appendPQExpBuffer(sql, "workload => $%d::pg_catalog.text", add_param(p, workload_arg(opts)));
	appendPQExpBufferStr(sql, ", clients => ARRAY[");
	for (int i = 0; i < opts->nclient_counts; i++)
		appendPQExpBuffer(sql, "%s$%d::pg_catalog.int4", i > 0 ? ", " : "",
						  add_param(p, psprintf("%d", opts->client_counts[i])));
	appendPQExpBufferStr(sql, "]");
	appendPQExpBuffer(sql, ", repeat => $%d::pg_catalog.int4",
					  add_param(p, psprintf("%d", opts->repeat)));
	append_common_args(opts, sql, p);
	if (opts->nscripts > opts->nbuiltins)
		appendPQExpBuffer(sql, ", script => $%d::pg_catalog.text",
						  add_param(p, opts->scripts[opts->nbuiltins].text));
	if (opts->nvars > 0)
	{
		appendPQExpBufferStr(sql, ", vars => ARRAY[");
		append_pairs(sql, p, opts->var_names, opts->var_values, opts->nvars);
		appendPQExpBufferStr(sql, "]");
	}
	if (opts->nopts > 0)
	{
		appendPQExpBufferStr(sql, ", options => ARRAY[");
		append_pairs(sql, p, opts->opt_names, opts->opt_values, opts->nopts);
		appendPQExpBufferStr(sql, "]");
	}
	if (settings_json != NULL)
		appendPQExpBuffer(sql, ", settings => ARRAY[$%d::pg_catalog.jsonb]",
						  add_param(p, settings_json));
	if (server_json != NULL)
		appendPQExpBuffer(sql, ", server_settings => ARRAY[$%d::pg_catalog.jsonb]",
						  add_param(p, server_json));
	appendPQExpBufferStr(sql, ")");
}

/* A column's value as a double, 0 if it is NULL or absent */
static double
column_double(PGresult *res, int row, const char *name)
{
	int			col = PQfnumber(res, name);

	return col < 0 || PQgetisnull(res, row, col) ? 0 : atof(PQgetvalue(res, row, col));
}

/* A column's value as a long long, 0 if it is NULL or absent */
static long long
column_int(PGresult *res, int row, const char *name)
{
	int			col = PQfnumber(res, name);

	return col < 0 || PQgetisnull(res, row, col) ? 0 : atoll(PQgetvalue(res, row, col));
}

/*
 * read_result
 *		Fill result from row of a result with result_columns(); false if
 *		the row has no run_id.
 */
bool
read_result(PGresult *res, int row, ClientResult *result)
{
	int			col = PQfnumber(res, "run_id");

	memset(result, 0, sizeof(*result));
	if (col < 0 || PQgetisnull(res, row, col))
		return false;
	result->run_id = pg_strdup(PQgetvalue(res, row, col));
	for (int i = 0; i < lengthof(figures); i++)
	{
		char	   *field = (char *) result + figures[i].offset;

		if (figures[i].count)
			*(long long *) field = column_int(res, row, figures[i].name);
		else
			*(double *) field = column_double(res, row, figures[i].name);
	}
	return true;
}
