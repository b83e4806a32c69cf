/*-------------------------------------------------------------------------
 *
 * builtin_scripts.c
 *	  The texts of pgbench's built-in scripts and their lookup by name: the
 *	  pgbench kind's workloads, which its driver finds (pgbench_options.c
 *	  holds the kind's descriptor).
 *
 * The scripts are pgbench's own (tpcb-like, simple-update, select-only),
 * with its table sizes per scale unit: 1 branch, 10 tellers and 100000
 * accounts; and the PolarDB white paper's ro.sql and rw.sql, verbatim
 * (polardb-ro, polardb-rw), which read a gaussian spread of accounts over
 * the first :range of them: range, unless given, is every account.
 *
 * Their SQL is pgbench's text unchanged: a variable becomes a parameter of
 * the type its column or operand has (as the server infers it for pgbench
 * -M prepared), so each operator they call (integer = and +) has an exact
 * match in pg_catalog, which the clients search first, and none a role
 * planted elsewhere on the search_path is called.
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "pgbench.h"

typedef struct PbBuiltin
{
	const char *name;
	const char *desc;			/* pgbench's "transaction type" */
	const char *script;
	const char *default_var;	/* a variable set for the run unless given */
	int64_t		per_scale;		/* to this times the scale */
} PbBuiltin;

static const PbBuiltin builtins[] =
{
	{
		"tpcb-like",
		"<builtin: TPC-B (sort of)>",
		"\\set aid random(1, 100000 * :scale)\n"
		"\\set bid random(1, 1 * :scale)\n"
		"\\set tid random(1, 10 * :scale)\n"
		"\\set delta random(-5000, 5000)\n"
		"BEGIN;\n"
		"UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
		"SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
		"UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;\n"
		"UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;\n"
		"INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n"
		"END;\n",
		NULL, 0
	},
	{
		"simple-update",
		"<builtin: simple update>",
		"\\set aid random(1, 100000 * :scale)\n"
		"\\set bid random(1, 1 * :scale)\n"
		"\\set tid random(1, 10 * :scale)\n"
		"\\set delta random(-5000, 5000)\n"
		"BEGIN;\n"
		"UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
		"SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
		"INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n"
		"END;\n",
		NULL, 0
	},
	{
		"select-only",
		"<builtin: select only>",
		"\\set aid random(1, 100000 * :scale)\n"
		"SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n",
		NULL, 0
	},
	{
		"polardb-ro",
		"<builtin: PolarDB ro.sql>",
		"\\set aid random_gaussian(1, :range, 10.0)\n"
		"SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n",
		"range", 100000
	},
	{
		"polardb-rw",
		"<builtin: PolarDB rw.sql>",
		"\\set aid random_gaussian(1, :range, 10.0)\n"
		"\\set bid random(1, 1 * :scale)\n"
		"\\set tid random(1, 10 * :scale)\n"
		"\\set delta random(-5000, 5000)\n"
		"BEGIN;\n"
		"UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
		"SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
		"UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;\n"
		"UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;\n"
		"INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n"
		"END;\n",
		"range", 100000
	},
};

/*
 * The text of the built-in script that name designates, as pgbench's
 * findBuiltin(): name may be any prefix that matches exactly one script.
 * NULL when it matches none or several; otherwise *canonical (if not NULL)
 * gets the full name.
 */
const char *
pb_builtin_script(const char *name, const char **canonical)
{
	size_t		len = strlen(name);
	const PbBuiltin *result = NULL;

	if (pb_builtin_matches(name) != 1)
		return NULL;
	for (int i = 0; i < pb_builtin_count(); i++)
		if (strncmp(builtins[i].name, name, len) == 0)
			result = &builtins[i];
	if (canonical != NULL)
		*canonical = result->name;
	return result->script;
}

/* The number of built-in scripts. */
int
pb_builtin_count(void)
{
	return (int) (sizeof(builtins) / sizeof(builtins[0]));
}

/* The name of the i-th built-in script. */
const char *
pb_builtin_name(int i)
{
	return builtins[i].name;
}

/* pgbench's description of the i-th built-in script. */
const char *
pb_builtin_desc(int i)
{
	return builtins[i].desc;
}

/*
 * The variable the i-th built-in script sets for its run unless given, and
 * the multiple of the scale it is set to; NULL if it has none.
 */
const char *
pb_builtin_default_var(int i, int64_t *per_scale)
{
	*per_scale = builtins[i].per_scale;
	return builtins[i].default_var;
}

/* How many built-in scripts' names start with prefix. */
int
pb_builtin_matches(const char *prefix)
{
	size_t		len = strlen(prefix);
	int			found = 0;

	for (int i = 0; i < pb_builtin_count(); i++)
		if (strncmp(builtins[i].name, prefix, len) == 0)
			found++;
	return found;
}
