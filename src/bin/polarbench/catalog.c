/*-------------------------------------------------------------------------
 *
 * catalog.c
 *	  What the server runs and loads, as its polarbench_workloads and
 *	  polarbench_datasets views say: the workload a -b name that is no
 *	  built-in script names, the check of the --name=value options given
 *	  for it, the data set -i -b names and the check of the arguments given
 *	  for it, and the lists of --list, --list NAME and -b list.
 *
 * The program knows pgbench's built-in scripts (the pgbench kind's) and
 * nothing else of any workload or data set: each of the server's other
 * workloads, its options and their types, defaults and ranges come from
 * the view, and so do a data set's arguments and their types, so that a
 * workload or a data set added to the server needs nothing here.  An
 * option is matched to the view's name of it by the kinds' spelling rule
 * (pb_option_is: case, '-' and '_' aside), the one the server reads
 * options with; the server checks the values.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include "common/logging.h"
#include "pqexpbuffer.h"

#include "kind_options.h"
#include "pgbench.h"
#include "polarbench.h"

/* One row of polarbench_workloads, with its options' names */
typedef struct CatalogWorkload
{
	char	   *name;
	char	   *description;
	char	  **options;
	int			noptions;
} CatalogWorkload;

/* The server's workloads, in the view's order */
typedef struct Catalog
{
	CatalogWorkload *workloads;
	int			n;
} Catalog;

/*
 * is_builtin_name
 *		Whether name is exactly one of pgbench's built-in scripts, which the
 *		client runs and checks as scripts of its own.
 */
static bool
is_builtin_name(const char *name)
{
	for (int i = 0; i < pb_builtin_count(); i++)
		if (strcmp(pb_builtin_name(i), name) == 0)
			return true;
	return false;
}

/*
 * load_catalog
 *		Read polarbench_workloads: every workload and its options' names.
 *		Returns false on error, reported unless quiet.
 */
static bool
load_catalog(PGconn *conn, Catalog *cat, bool quiet)
{
	PGresult   *res = exec_query(conn, 0,
								 "SELECT w.name, w.description, o.value OPERATOR(pg_catalog.->>) 'name'"
								 "  FROM (SELECT v.name, v.description, v.options,"
								 "               pg_catalog.row_number() OVER () AS ord"
								 "          FROM @extschema@.polarbench_workloads v) w"
								 "  LEFT JOIN LATERAL pg_catalog.jsonb_array_elements(w.options)"
								 "       WITH ORDINALITY o(value, n) ON true"
								 " ORDER BY w.ord, o.n",
								 0, NULL);

	memset(cat, 0, sizeof(*cat));
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		if (!quiet)
			report_server_error(conn, res);
		PQclear(res);
		return false;
	}
	cat->workloads = pg_malloc0(sizeof(CatalogWorkload) * Max(PQntuples(res), 1));
	for (int i = 0; i < PQntuples(res); i++)
	{
		CatalogWorkload *w = cat->n > 0 ? &cat->workloads[cat->n - 1] : NULL;

		if (w == NULL || strcmp(w->name, PQgetvalue(res, i, 0)) != 0)
		{
			w = &cat->workloads[cat->n++];
			w->name = pg_strdup(PQgetvalue(res, i, 0));
			w->description = pg_strdup(PQgetvalue(res, i, 1));
			w->options = pg_malloc0(sizeof(char *) * PQntuples(res));
		}
		if (!PQgetisnull(res, i, 2))
			w->options[w->noptions++] = pg_strdup(PQgetvalue(res, i, 2));
	}
	PQclear(res);
	return true;
}

/* The workload of the catalog named name, or NULL */
static CatalogWorkload *
find_workload(const Catalog *cat, const char *name)
{
	for (int i = 0; i < cat->n; i++)
		if (strcmp(cat->workloads[i].name, name) == 0)
			return &cat->workloads[i];
	return NULL;
}

/* The view's name of an option of w spelt name, or NULL */
static const char *
find_option(const CatalogWorkload *w, const char *name)
{
	for (int i = 0; i < w->noptions; i++)
		if (pb_option_is(name, w->options[i]))
			return w->options[i];
	return NULL;
}

/* A workload's options' names, comma separated */
static char *
option_list(const CatalogWorkload *w)
{
	PQExpBufferData buf;

	initPQExpBuffer(&buf);
	for (int i = 0; i < w->noptions; i++)
		appendPQExpBuffer(&buf, "%s%s", i > 0 ? ", " : "", w->options[i]);
	return buf.data;
}

/*
 * print_script_list
 *		-b list, as pgbench prints it, to stderr: the built-in scripts, then
 *		the server's other workloads when cat has them (NULL: the server
 *		could not be asked), or how to see them.
 */
static void
print_script_list(const Catalog *cat)
{
	int			width = 0;

	fprintf(stderr, "Available builtin scripts:\n");
	for (int i = 0; i < pb_builtin_count(); i++)
		fprintf(stderr, "  %13s: %s\n", pb_builtin_name(i), pb_builtin_desc(i));
	fprintf(stderr, "\n");
	if (cat == NULL)
	{
		fprintf(stderr, "The server's other workloads are listed when %s can connect to a database\n"
				"with the polarbench extension: give -h, -p, -U and -d as for a run, or see\n"
				"\"%s --list\".\n\n", progname, progname);
		return;
	}
	for (int i = 0; i < cat->n; i++)
		if (!is_builtin_name(cat->workloads[i].name))
			width = Max(width, (int) strlen(cat->workloads[i].name));
	if (width == 0)
		return;
	fprintf(stderr, "Available workloads of the server (\"%s --list NAME\" shows one's options):\n",
			progname);
	for (int i = 0; i < cat->n; i++)
		if (!is_builtin_name(cat->workloads[i].name))
			fprintf(stderr, "  %*s: %s\n", width, cat->workloads[i].name,
					cat->workloads[i].description);
	fprintf(stderr, "\n");
}

/*
 * has_extension
 *		Whether the connection's database has the polarbench extension,
 *		asked without complaint.
 */
static bool
has_extension(PGconn *conn)
{
	PGresult   *res = exec_query(conn, 0,
								 "SELECT 1 FROM pg_catalog.pg_extension"
								 " WHERE extname OPERATOR(pg_catalog.=) 'polarbench'",
								 0, NULL);
	bool		found = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1;

	PQclear(res);
	return found;
}

/*
 * list_builtin_scripts
 *		-b list: pgbench's list of built-in scripts, and the workloads of
 *		the server at target if a connection can be made (silently, else
 *		the list says how to get them).
 */
void
list_builtin_scripts(const ConnTarget *target)
{
	PGconn	   *conn = connect_target(target, false);
	Catalog		cat;
	bool		loaded = conn != NULL && has_extension(conn) &&
		load_catalog(conn, &cat, true);

	print_script_list(loaded ? &cat : NULL);
	if (conn != NULL)
		PQfinish(conn);
}

/*
 * report_unknown_script
 *		A -b name that is neither a built-in script nor a workload of the
 *		server's: pgbench's error, and the list.
 */
static void
report_unknown_script(const char *name, const Catalog *cat)
{
	int			found = pb_builtin_matches(name);

	if (found > 1)
		pg_log_error("ambiguous builtin name: %d builtin scripts found for prefix \"%s\"",
					 found, name);
	else
		pg_log_error("no builtin script found for name \"%s\"", name);
	print_script_list(cat);
}

/*
 * check_workload_options
 *		Match every --name=value option to one of the chosen workload's
 *		options, or with none chosen (scripts) to one of pgbench's
 *		built-ins', and pass it on under the view's name; else say which
 *		workloads take it.  Returns false on error (reported).
 */
static bool
check_workload_options(const Catalog *cat, ClientOptions *opts)
{
	const ClientWorkload *chosen = opts->workload;

	for (int i = 0; i < opts->nopts; i++)
	{
		const char *name = opts->opt_names[i];

		if (chosen != NULL)
		{
			const CatalogWorkload *w = find_workload(cat, chosen->name);
			const char *canonical = find_option(w, name);

			if (canonical != NULL)
			{
				opts->opt_names[i] = pg_strdup(canonical);
				continue;
			}
			pg_log_error("unrecognized option \"--%s\" for workload \"%s\"",
						 name, chosen->name);
			if (w->noptions == 0)
				pg_log_error_hint("Workload %s takes no options.", chosen->name);
			else
				pg_log_error_hint("The options of %s are %s; \"%s --list %s\" describes them.",
								  chosen->name, option_list(w), progname, chosen->name);
			return false;
		}
		else
		{
			PQExpBufferData takers;
			const char *canonical = NULL;

			/* a run of scripts takes the options of pgbench's built-ins */
			for (int k = 0; k < cat->n && canonical == NULL; k++)
				if (is_builtin_name(cat->workloads[k].name))
					canonical = find_option(&cat->workloads[k], name);
			if (canonical != NULL)
			{
				opts->opt_names[i] = pg_strdup(canonical);
				continue;
			}
			initPQExpBuffer(&takers);
			for (int k = 0; k < cat->n; k++)
				if (find_option(&cat->workloads[k], name) != NULL)
					appendPQExpBuffer(&takers, "%s%s", takers.len > 0 ? ", " : "",
									  cat->workloads[k].name);
			if (takers.len == 0)
			{
				pg_log_error("unrecognized option \"--%s\"", name);
				pg_log_error_hint("Try \"%s --help\" for more information, or \"%s --list\" for the workloads.",
								  progname, progname);
			}
			else
			{
				pg_log_error("option --%s applies to a workload chosen with -b, not to scripts", name);
				pg_log_error_hint("\"%s --list\" lists the workloads, and \"%s --list NAME\" the options of one.",
								  progname, progname);
			}
			termPQExpBuffer(&takers);
			return false;
		}
	}
	return true;
}

/*
 * resolve_workload
 *		Look up, in the server's polarbench_workloads, the -b names that are
 *		no built-in script: one may name a workload, which then runs alone;
 *		and check the --name=value options given for it.  Nothing is asked
 *		when the command line has neither.  Returns false on error
 *		(reported).
 */
bool
resolve_workload(PGconn *conn, ClientOptions *opts)
{
	Catalog		cat;

	if (opts->nworkload_names == 0 && opts->nopts == 0)
		return true;
	if (!load_catalog(conn, &cat, false))
		return false;
	for (int i = 0; i < opts->nworkload_names; i++)
	{
		const char *name = opts->workload_names[i];
		const CatalogWorkload *w = find_workload(&cat, name);
		ClientWorkload *chosen;

		if (w == NULL)
		{
			report_unknown_script(name, &cat);
			return false;
		}
		if (opts->workload != NULL || opts->nscripts > 0)
		{
			pg_log_error("workload \"%s\" cannot be combined with other scripts",
						 opts->workload ? opts->workload->name : name);
			return false;
		}
		chosen = pg_malloc0(sizeof(ClientWorkload));
		chosen->name = pg_strdup(w->name);
		chosen->options = w->options;
		chosen->noptions = w->noptions;
		opts->workload = chosen;
	}
	if (opts->workload != NULL && (opts->continue_on_error || opts->exit_on_abort))
	{
		pg_log_error("option %s applies to pgbench scripts, not to workload \"%s\"",
					 opts->continue_on_error ? "--continue-on-error" : "--exit-on-abort",
					 opts->workload->name);
		pg_log_error_hint("A workload of the server's handles its errors as its tool does.");
		return false;
	}
	return check_workload_options(&cat, opts);
}

/* The data set -i loads when -b does not name one: what pgbench -i makes */
#define DEFAULT_DATASET		"pgbench"

/*
 * add_init_argument
 *		Add argument name of polarbench_init() with value, given as option
 *		(for the errors), to the call -i makes, if the data set reads it:
 *		rows holds the data set's arguments, each one's name and SQL type.
 *		Returns false on error (reported).
 */
static bool
add_init_argument(InitOptions *init, const char *dataset, PGresult *rows,
				  const char *name, const char *value, const char *option)
{
	PQExpBufferData known;

	for (int r = 0; r < PQntuples(rows); r++)
	{
		const char *argument = PQgetvalue(rows, r, 0);
		const char *type = PQgetvalue(rows, r, 2);
		bool		boolean = strcmp(PQgetvalue(rows, r, 3), "t") == 0;

		if (PQgetisnull(rows, r, 0) || !pb_option_is(name, argument))
			continue;
		if (value == NULL && !boolean)
		{
			pg_log_error("option %s needs a value", option);
			pg_log_error_hint("Give it as %s=VALUE.", option);
			return false;
		}
		init->call = pg_realloc(init->call, sizeof(InitArgument) * (init->ncall + 1));
		init->call[init->ncall].name = pg_strdup(argument);
		init->call[init->ncall].type = pg_strdup(type);
		init->call[init->ncall].value = pg_strdup(value ? value : "true");
		init->ncall++;
		return true;
	}

	/* as options: --foreign-keys for foreign_keys */
	initPQExpBuffer(&known);
	for (int r = 0; r < PQntuples(rows); r++)
		if (!PQgetisnull(rows, r, 0))
		{
			appendPQExpBuffer(&known, "%s--", known.len > 0 ? ", " : "");
			for (const char *c = PQgetvalue(rows, r, 0); *c != '\0'; c++)
				appendPQExpBufferChar(&known, *c == '_' ? '-' : *c);
		}
	pg_log_error("option %s does not apply to data set \"%s\"", option, dataset);
	if (known.len == 0)
		pg_log_error_hint("Data set %s takes no arguments of its own.", dataset);
	else
		pg_log_error_hint("The arguments of %s are %s; \"%s --list %s\" describes them.",
						  dataset, known.data, progname, dataset);
	termPQExpBuffer(&known);
	return false;
}

/*
 * report_unknown_dataset
 *		A data set -i -b names that the server does not have; --list lists
 *		those it has.
 */
static void
report_unknown_dataset(const char *dataset)
{
	pg_log_error("no data set named \"%s\"", dataset);
	pg_log_error_hint("\"%s --list\" lists the server's data sets.", progname);
}

/*
 * resolve_dataset
 *		Check the arguments given with -i against those polarbench_datasets
 *		gives the data set -b names (pgbench's by default): pgbench -i's
 *		options (-s, --partitions, --partition-method, --foreign-keys) and
 *		--name=value, each one an argument of polarbench_init() that the data
 *		set reads; and set init->call to them, with their SQL types.
 *		Returns false on error (reported).
 */
bool
resolve_dataset(PGconn *conn, InitOptions *init)
{
	const char *dataset = init->dataset ? init->dataset : DEFAULT_DATASET;
	const char *params[1] = {dataset};
	char		buf[32];
	bool		ok = true;
	PGresult   *rows;

	/* each argument's name, its type as a cast, whether it is boolean */
	rows = exec_query(conn, 0,
					  "SELECT a.value OPERATOR(pg_catalog.->>) 'name', a.n,"
					  "       pg_catalog.format('%I.%I', tn.nspname, t.typname),"
					  "       t.oid OPERATOR(pg_catalog.=) 'pg_catalog.bool'::pg_catalog.regtype"
					  "  FROM @extschema@.polarbench_datasets d"
					  "  LEFT JOIN LATERAL pg_catalog.jsonb_array_elements(d.options)"
					  "       WITH ORDINALITY a(value, n) ON true"
					  "  LEFT JOIN pg_catalog.pg_type t"
					  "    ON t.oid OPERATOR(pg_catalog.=)"
					  "       pg_catalog.to_regtype(a.value OPERATOR(pg_catalog.->>) 'type')"
					  "  LEFT JOIN pg_catalog.pg_namespace tn ON tn.oid OPERATOR(pg_catalog.=) t.typnamespace"
					  " WHERE d.name OPERATOR(pg_catalog.=) $1::pg_catalog.text"
					  " ORDER BY a.n",
					  1, params);
	if (PQresultStatus(rows) != PGRES_TUPLES_OK)
	{
		report_server_error(conn, rows);
		PQclear(rows);
		return false;
	}
	if (PQntuples(rows) == 0)
	{
		report_unknown_dataset(dataset);
		PQclear(rows);
		return false;
	}

	init->ncall = 0;
	if (init->scale > 0)
	{
		snprintf(buf, sizeof(buf), "%d", init->scale);
		ok = add_init_argument(init, dataset, rows, "scale", buf, "-s/--scale");
	}
	if (ok && init->partitions_given)
	{
		snprintf(buf, sizeof(buf), "%d", init->partitions);
		ok = add_init_argument(init, dataset, rows, "partitions", buf, "--partitions");
	}
	if (ok && init->partition_method != NULL)
		ok = add_init_argument(init, dataset, rows, "partition_method",
							   init->partition_method, "--partition-method");
	if (ok && init->foreign_keys)
		ok = add_init_argument(init, dataset, rows, "foreign_keys", "true",
							   "--foreign-keys");
	for (int i = 0; ok && i < init->nargs; i++)
		ok = add_init_argument(init, dataset, rows, init->arg_names[i],
							   init->arg_values[i],
							   psprintf("--%s", init->arg_names[i]));
	/* given twice (--warehouses=2 --warehouses=3): the server would refuse */
	for (int i = 0; ok && i < init->ncall; i++)
		for (int k = i + 1; ok && k < init->ncall; k++)
			if (strcmp(init->call[i].name, init->call[k].name) == 0)
			{
				pg_log_error("argument %s of data set \"%s\" is given twice",
							 init->call[i].name, dataset);
				ok = false;
			}
	init->dataset = pg_strdup(dataset);
	PQclear(rows);
	return ok;
}

/*
 * check_report_style
 *		--report: json, csv, or the report style of one of the server's
 *		workloads (polarbench_workloads.report_style), checked before
 *		anything runs.  Returns false on error (reported).
 */
bool
check_report_style(PGconn *conn, const ClientOptions *opts)
{
	const char *params[1] = {opts->report};
	PGresult   *res;
	bool		found;

	if (opts->report == NULL || strcmp(opts->report, "json") == 0 ||
		strcmp(opts->report, "csv") == 0 || strcmp(opts->report, "html") == 0)
		return true;
	res = exec_query(conn, 0,
					 "SELECT pg_catalog.bool_or(report_style OPERATOR(pg_catalog.=) $1)"
					 "  FROM @extschema@.polarbench_workloads",
					 1, params);
	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1)
	{
		report_server_error(conn, res);
		PQclear(res);
		return false;
	}
	found = strcmp(PQgetvalue(res, 0, 0), "t") == 0;
	if (!found)
	{
		pg_log_error("invalid report style \"%s\"", opts->report);
		pg_log_error_hint("The styles are json, csv, html and each workload's report style, which \"%s --list NAME\" shows.",
						  progname);
	}
	PQclear(res);
	return found;
}

/*
 * print_table
 *		Rows of cells (row 0 the header) in columns as wide as their widest
 *		cell, two spaces apart and indented by two; the last column is not
 *		padded.
 */
static void
print_table(char ***cells, int nrows, int ncols)
{
	int		   *width = pg_malloc0(sizeof(int) * ncols);

	for (int r = 0; r < nrows; r++)
		for (int c = 0; c < ncols; c++)
			width[c] = Max(width[c], (int) strlen(cells[r][c]));
	for (int r = 0; r < nrows; r++)
	{
		for (int c = 0; c < ncols; c++)
			printf("  %-*s", c < ncols - 1 ? width[c] : 0, cells[r][c]);
		printf("\n");
	}
	free(width);
}

/*
 * print_result_table
 *		A query's rows as print_table() prints them, under headers.
 */
static void
print_result_table(PGresult *res, const char *const *headers)
{
	int			nrows = PQntuples(res) + 1;
	int			ncols = PQnfields(res);
	char	 ***cells = pg_malloc(sizeof(char **) * nrows);

	for (int r = 0; r < nrows; r++)
	{
		cells[r] = pg_malloc(sizeof(char *) * ncols);
		for (int c = 0; c < ncols; c++)
			cells[r][c] = r == 0 ? (char *) headers[c] : PQgetvalue(res, r - 1, c);
	}
	print_table(cells, nrows, ncols);
	for (int r = 0; r < nrows; r++)
		free(cells[r]);
	free(cells);
}

/*
 * list_all
 *		--list: every workload of polarbench_workloads and every data set of
 *		polarbench_datasets.  Returns false on error (reported).
 */
static bool
list_all(PGconn *conn)
{
	static const char *const workload_headers[] = {"name", "kind", "writes", "description"};
	static const char *const dataset_headers[] = {"name", "description"};
	PGresult   *res;

	res = exec_query(conn, 0,
					 "SELECT name, kind, CASE WHEN writes THEN 'yes' ELSE 'no' END, description"
					 "  FROM @extschema@.polarbench_workloads",
					 0, NULL);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		report_server_error(conn, res);
		PQclear(res);
		return false;
	}
	printf("Workloads (run one with -b NAME; \"%s --list NAME\" shows its options):\n", progname);
	print_result_table(res, workload_headers);
	PQclear(res);

	res = exec_query(conn, 0,
					 "SELECT name, description FROM @extschema@.polarbench_datasets",
					 0, NULL);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		report_server_error(conn, res);
		PQclear(res);
		return false;
	}
	printf("\nData sets (load one with -i -b NAME, or polarbench_init(NAME, ...); \"%s --list NAME\" shows its arguments):\n",
		   progname);
	print_result_table(res, dataset_headers);
	PQclear(res);
	return true;
}

/* A number of the view as the user would write it: 0.2, not 0.2000...01 */
static char *
format_number(const char *type, const char *value)
{
	if (value == NULL || value[0] == '\0')
		return pg_strdup("");
	if (strcmp(type, "number") == 0)
		return psprintf("%.15g", strtod(value, NULL));
	return pg_strdup(value);
}

/*
 * print_workload_options
 *		--list NAME for a workload: what it is, and each of its options'
 *		name, type, default, range or values and meaning, as sysbench's
 *		"help" command tells them.  Returns 1 if it is no workload, -1 on
 *		error (reported), else 0.
 */
static int
print_workload_options(PGconn *conn, const char *name)
{
	static const char *const headers[] = {"option", "type", "default", "range or values",
	"description"};
	const char *params[1] = {name};
	PGresult   *res;
	char	 ***cells;
	int			nrows;

	res = exec_query(conn, 0,
					 "SELECT name, kind, description, CASE WHEN writes THEN 'yes' ELSE 'no' END, report_style"
					 "  FROM @extschema@.polarbench_workloads"
					 " WHERE name OPERATOR(pg_catalog.=) $1::pg_catalog.text",
					 1, params);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		report_server_error(conn, res);
		PQclear(res);
		return -1;
	}
	if (PQntuples(res) != 1)
	{
		PQclear(res);
		return 1;
	}
	printf("workload %s: %s\n", PQgetvalue(res, 0, 0), PQgetvalue(res, 0, 2));
	printf("kind: %s; writes: %s; report style: %s\n",
		   PQgetvalue(res, 0, 1), PQgetvalue(res, 0, 3), PQgetvalue(res, 0, 4));
	PQclear(res);

	res = exec_query(conn, 0,
					 "SELECT o.value OPERATOR(pg_catalog.->>) 'name',"
					 "       o.value OPERATOR(pg_catalog.->>) 'type',"
					 "       o.value OPERATOR(pg_catalog.->>) 'default',"
					 "       o.value OPERATOR(pg_catalog.->>) 'min',"
					 "       o.value OPERATOR(pg_catalog.->>) 'max',"
					 "       (SELECT pg_catalog.string_agg(v, ', ')"
					 "          FROM pg_catalog.jsonb_array_elements_text(o.value OPERATOR(pg_catalog.->) 'values') v),"
					 "       o.value OPERATOR(pg_catalog.->>) 'description'"
					 "  FROM @extschema@.polarbench_workloads w,"
					 "       pg_catalog.jsonb_array_elements(w.options) WITH ORDINALITY o(value, n)"
					 " WHERE w.name OPERATOR(pg_catalog.=) $1::pg_catalog.text"
					 " ORDER BY o.n",
					 1, params);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		report_server_error(conn, res);
		PQclear(res);
		return -1;
	}
	if (PQntuples(res) == 0)
	{
		printf("\nIt takes no options.\n");
		PQclear(res);
		return 0;
	}
	printf("\nOptions (--NAME=VALUE; in polarbench_run, options => '{\"NAME\": VALUE}'):\n");
	nrows = PQntuples(res) + 1;
	cells = pg_malloc(sizeof(char **) * nrows);
	cells[0] = (char **) headers;
	for (int r = 1; r < nrows; r++)
	{
		const char *type = PQgetvalue(res, r - 1, 1);
		char	   *min = format_number(type, PQgetvalue(res, r - 1, 3));
		char	   *max = format_number(type, PQgetvalue(res, r - 1, 4));

		cells[r] = pg_malloc(sizeof(char *) * lengthof(headers));
		cells[r][0] = PQgetvalue(res, r - 1, 0);
		cells[r][1] = (char *) type;
		cells[r][2] = PQgetisnull(res, r - 1, 2) ? pg_strdup("(computed)") :
			format_number(type, PQgetvalue(res, r - 1, 2));
		if (!PQgetisnull(res, r - 1, 5))
			cells[r][3] = PQgetvalue(res, r - 1, 5);
		else if (min[0] != '\0' || max[0] != '\0')
			cells[r][3] = psprintf("%s .. %s", min, max);
		else
			cells[r][3] = "";
		cells[r][4] = PQgetvalue(res, r - 1, 6);
	}
	print_table(cells, nrows, lengthof(headers));
	PQclear(res);
	return 0;
}

/*
 * print_dataset_arguments
 *		--list NAME for a data set: what it is, and the arguments of
 *		polarbench_init() it reads.  Returns 1 if it is no data set, -1 on
 *		error (reported), else 0.
 */
static int
print_dataset_arguments(PGconn *conn, const char *name, bool separate)
{
	static const char *const headers[] = {"argument", "type", "default", "description"};
	const char *params[1] = {name};
	PGresult   *res;

	res = exec_query(conn, 0,
					 "SELECT d.description, a.value OPERATOR(pg_catalog.->>) 'name',"
					 "       a.value OPERATOR(pg_catalog.->>) 'type',"
					 "       a.value OPERATOR(pg_catalog.->>) 'default',"
					 "       a.value OPERATOR(pg_catalog.->>) 'description'"
					 "  FROM @extschema@.polarbench_datasets d"
					 "  LEFT JOIN LATERAL pg_catalog.jsonb_array_elements(d.options)"
					 "       WITH ORDINALITY a(value, n) ON true"
					 " WHERE d.name OPERATOR(pg_catalog.=) $1::pg_catalog.text"
					 " ORDER BY a.n",
					 1, params);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		report_server_error(conn, res);
		PQclear(res);
		return -1;
	}
	if (PQntuples(res) == 0)
	{
		PQclear(res);
		return 1;
	}
	printf("%sdata set %s: %s\n", separate ? "\n" : "", name, PQgetvalue(res, 0, 0));
	if (PQgetisnull(res, 0, 1))
		printf("\nIt reads no arguments of its own.\n");
	else
	{
		int			nrows = PQntuples(res) + 1;
		char	 ***cells = pg_malloc(sizeof(char **) * nrows);

		printf("\nArguments of polarbench_init('%s', ...), beside those every data set reads\n"
			   "(-i -b %s --NAME=VALUE):\n", name, name);
		cells[0] = (char **) headers;
		for (int r = 1; r < nrows; r++)
		{
			cells[r] = pg_malloc(sizeof(char *) * lengthof(headers));
			for (int c = 0; c < lengthof(headers); c++)
				cells[r][c] = PQgetvalue(res, r - 1, c + 1);
		}
		print_table(cells, nrows, lengthof(headers));
	}
	PQclear(res);
	return 0;
}

/*
 * list_catalog
 *		--list: the server's workloads and data sets; --list NAME: the
 *		options of workload NAME, or the arguments of data set NAME.
 *		Returns the exit status.
 */
int
list_catalog(PGconn *conn, const char *name)
{
	int			workload;
	int			dataset;

	if (name == NULL)
		return list_all(conn) ? 0 : 1;
	workload = print_workload_options(conn, name);
	if (workload < 0)
		return 1;
	dataset = print_dataset_arguments(conn, name, workload == 0);
	if (dataset < 0)
		return 1;
	if (workload == 1 && dataset == 1)
	{
		pg_log_error("no workload or data set named \"%s\"", name);
		pg_log_error_hint("\"%s --list\" lists them; give the database with -d.", progname);
		return 1;
	}
	return 0;
}
