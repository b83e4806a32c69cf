/*-------------------------------------------------------------------------
 *
 * test_kinds.c
 *	  Unit tests of what the kinds of workload share below the server: the
 *	  list of every kind (kind_list.h, through kind_library.c) and the
 *	  option machinery (kind_options.c), run over every kind's workloads
 *	  and options as their tables describe them, so that a kind added to
 *	  the list is tested here without a line of its own.
 *
 * Prints one line per failure and ends with "N passed, N failed".
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kind_options.h"
#include "unit_check.h"

/* Every kind's name, and every workload's, is unique, and found again. */
static void
test_list(void)
{
	int			nkinds = pb_kind_library_count();

	check(nkinds > 1, "kinds listed: %d", nkinds);
	for (int k = 0; k < nkinds; k++)
	{
		const PbKindLibrary *kind = pb_kind_library_at(k);

		check(kind->name != NULL && kind->tool != NULL, "kind %d has a name", k);
		for (int j = 0; j < k; j++)
			check(strcmp(pb_kind_library_at(j)->name, kind->name) != 0,
				  "kind %s is listed once", kind->name);
		check((kind->options == NULL) == (kind->options_size == 0),
			  "%s has an options struct if it has options", kind->name);
		for (int i = 0; i < pb_kind_workload_count(kind); i++)
		{
			const PbWorkloadDef *def;

			check(pb_kind_library_of(kind->workloads[i].name, &def) == kind &&
				  def == &kind->workloads[i],
				  "workload %s is found in kind %s", kind->workloads[i].name, kind->name);
		}
	}
}

/*
 * Every option of every kind refuses a value that is not one, as the
 * kind's tool would, and is one of the kind's; its default is within its
 * range, or stands for a value found at the run.
 */
static void
test_every_option(void)
{
	int			checked = 0;

	for (int k = 0; k < pb_kind_library_count(); k++)
	{
		const PbKindLibrary *kind = pb_kind_library_at(k);
		void	   *o = calloc(1, kind->options_size + 1);
		const char *name;

		for (int i = 0; (name = pb_kind_option_at(kind, i)) != NULL; i++)
		{
			PbError		err;
			PbOptionInfo info;
			char		expect[128];

			for (int w = 0; w < pb_kind_workload_count(kind); w++)
			{
				pb_kind_defaults(kind, &kind->workloads[w], o);
				check(pb_kind_option_info(kind, &kind->workloads[w], i, &info) &&
					  strcmp(info.name, name) == 0 &&
					  (info.default_value[0] == '\0' || !info.has_range ||
					   (strtod(info.default_value, NULL) >= info.min &&
						strtod(info.default_value, NULL) <= info.max)),
					  "%s's default for %s is in its range: %s", name,
					  kind->workloads[w].name, info.default_value);
			}
			snprintf(expect, sizeof(expect), "invalid value for %s option \"%s\"",
					 kind->tool, name);
			check(!pb_kind_set_option(kind, o, name, "not-a-value", &err) &&
				  strstr(err.message, expect) != NULL && err.detail[0] != '\0',
				  "%s refuses a value that is not one: %s", name, err.message);
			check(!pb_kind_set_option(kind, o, name, "-99999999999", &err),
				  "%s refuses -99999999999", name);
			check(pb_kind_has_option(kind, name), "%s is an option", name);
			checked++;
		}
		{
			PbError		err;
			char		expect[128];

			snprintf(expect, sizeof(expect), "unrecognized %s option \"no-such-option\"",
					 kind->tool);
			check(!pb_kind_set_option(kind, o, "no-such-option", "1", &err) &&
				  strcmp(err.message, expect) == 0,
				  "%s refuses an option it does not have: %s", kind->name, err.message);
		}
		free(o);
	}
	check(checked > 0, "options checked: %d", checked);
}

/* Option names match whatever their case, dashes and underscores. */
static void
test_spelling(void)
{
	check(pb_option_is("table-size", "table_size") && pb_option_is("TABLE_SIZE", "tablesize") &&
		  pb_option_is("read_proportion", "readproportion") &&
		  !pb_option_is("tables", "table_size"), "spellings of one option");
}

int
main(void)
{
	test_list();
	test_every_option();
	test_spelling();
	return check_summary();
}
