/*-------------------------------------------------------------------------
 *
 * test_pgbench.c
 *	  Unit tests of the pgbench kind's backend-free part: pgbench's built-in
 *	  scripts and PolarDB's, found by name and unique prefix as pgbench's
 *	  -b finds them, with their texts, commands and variables.
 *
 * Prints one line per failure and ends with "N passed, N failed".
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench.h"
#include "unit_check.h"

/*
 * parse_ok
 *		A set of one script parsed from text, or NULL (a failed check) when
 *		it does not parse.
 */
static PbScriptSet *
parse_ok(const char *text)
{
	PbScriptSet *set = pb_scriptset_create();
	PbError		err;

	if (text == NULL || !pb_script_parse(set, "test", text, 1, &err))
	{
		check(false, "built-in script should parse: %s", text ? err.message : "no text");
		pb_scriptset_free(set);
		return NULL;
	}
	return set;
}

/* pgbench's built-in scripts and the white paper's ro.sql and rw.sql. */
static void
test_builtins(void)
{
	const char *canon = NULL;
	const char *text;
	PbScriptSet *set;
	PbError		err;
	int			k;
	static const char *const names[] = {"tpcb-like", "simple-update", "select-only"};
	static const int ncmds[] = {11, 9, 2};

	text = pb_builtin_script("select-only", &canon);
	check(text != NULL && strcmp(text,
								 "\\set aid random(1, 100000 * :scale)\n"
								 "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n") == 0 &&
		  strcmp(canon, "select-only") == 0, "select-only text");
	text = pb_builtin_script("tpc", &canon);
	check(text != NULL && strcmp(canon, "tpcb-like") == 0, "prefix tpc");
	text = pb_builtin_script("si", &canon);
	check(text != NULL && strcmp(canon, "simple-update") == 0, "prefix si");
	check(pb_builtin_script("s", &canon) == NULL, "ambiguous prefix s");
	check(pb_builtin_script("", &canon) == NULL, "empty name ambiguous");
	check(pb_builtin_script("tpcb-likes", &canon) == NULL, "longer name");
	check(pb_builtin_script("x", NULL) == NULL, "unknown name");
	check(pb_builtin_count() == 5 && pb_builtin_matches("s") == 2 &&
		  pb_builtin_matches("select") == 1 && pb_builtin_matches("x") == 0 &&
		  pb_builtin_matches("polardb-r") == 2,
		  "built-in names by prefix");
	check(strcmp(pb_builtin_name(0), "tpcb-like") == 0 &&
		  strcmp(pb_builtin_desc(0), "<builtin: TPC-B (sort of)>") == 0 &&
		  strcmp(pb_builtin_desc(2), "<builtin: select only>") == 0,
		  "built-in names and pgbench's descriptions");

	for (k = 0; k < 3; k++)
	{
		set = parse_ok(pb_builtin_script(names[k], NULL));
		if (!set)
			continue;
		check(set->scripts[0].ncommands == ncmds[k], "%s: %d commands", names[k],
			  set->scripts[0].ncommands);
		check(!pb_scriptset_check_vars(set, &err) &&
			  strcmp(err.message, "undefined variable \"scale\"") == 0,
			  "%s needs scale", names[k]);
		pb_var_mark_assigned(set, pb_var_id(set, "scale", true));
		check(pb_scriptset_check_vars(set, &err), "%s vars ok", names[k]);
		pb_scriptset_free(set);
	}
	/* the white paper's scripts, whose range defaults to every account */
	{
		int64_t		per_scale = 0;
		const char *var;

		set = parse_ok(pb_builtin_script("polardb-rw", NULL));
		if (set)
		{
			check(set->scripts[0].ncommands == 11, "polardb-rw: %d commands",
				  set->scripts[0].ncommands);
			pb_scriptset_free(set);
		}
		set = parse_ok(pb_builtin_script("polardb-ro", NULL));
		if (set)
		{
			pb_var_mark_assigned(set, pb_var_id(set, "scale", true));
			check(!pb_scriptset_check_vars(set, &err) &&
				  strcmp(err.message, "undefined variable \"range\"") == 0,
				  "polardb-ro needs range");
			pb_scriptset_free(set);
		}
		var = pb_builtin_default_var(3, &per_scale);
		check(var != NULL && strcmp(var, "range") == 0 && per_scale == 100000,
			  "polardb-ro's range defaults to every account");
		check(pb_builtin_default_var(0, &per_scale) == NULL, "tpcb-like sets no variable");
	}
}

int
main(void)
{
	test_builtins();
	return check_summary();
}
