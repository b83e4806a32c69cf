/*-------------------------------------------------------------------------
 *
 * kind_library.c
 *	  The backend-free list of the kinds of workload: every kind's
 *	  PbKindLibrary, in kind_list.h's order, for the server (whose registry
 *	  keeps the same order), the command-line program and the unit tests.
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "kind_options.h"

#define PB_KIND(name) extern const PbKindLibrary pb_##name##_library;
#include "kind_list.h"
#undef PB_KIND

static const PbKindLibrary *const libraries[] = {
#define PB_KIND(name) &pb_##name##_library,
#include "kind_list.h"
#undef PB_KIND
};

/* How many kinds of workload there are. */
int
pb_kind_library_count(void)
{
	return (int) (sizeof(libraries) / sizeof(libraries[0]));
}

/* The i-th kind's library part, in kind_list.h's order. */
const PbKindLibrary *
pb_kind_library_at(int i)
{
	return libraries[i];
}

/*
 * pb_kind_library_of
 *		The kind that has a workload of that name (exactly) in its library,
 *		with the workload in *def; NULL (and *def NULL) if none has.
 */
const PbKindLibrary *
pb_kind_library_of(const char *workload, const PbWorkloadDef **def)
{
	for (int i = 0; i < pb_kind_library_count(); i++)
	{
		*def = pb_kind_workload(libraries[i], workload);
		if (*def != NULL)
			return libraries[i];
	}
	*def = NULL;
	return NULL;
}
