/*-------------------------------------------------------------------------
 *
 * loader_stubs.c
 *	  Weak stand-ins for symbols that other parts of polarbench.so define:
 *	  the module magic block and polarbench_run(), which the install script
 *	  declares.  They let the loader be built and tested alone; when the
 *	  run engine's files are linked in, their (strong) definitions win and
 *	  these are ignored.  This file can go once the branches are merged.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"

#if defined(__GNUC__) || defined(__clang__)

/*
 * The module magic block (what PG_MODULE_MAGIC defines), weak.
 */
__attribute__((weak)) PGDLLEXPORT const Pg_magic_struct *PG_MAGIC_FUNCTION_NAME(void);

__attribute__((weak)) const Pg_magic_struct *
PG_MAGIC_FUNCTION_NAME(void)
{
	static const Pg_magic_struct Pg_magic_data = PG_MODULE_MAGIC_DATA;

	return &Pg_magic_data;
}

__attribute__((weak)) PGDLLEXPORT Datum polarbench_run(PG_FUNCTION_ARGS);
__attribute__((weak)) PGDLLEXPORT const Pg_finfo_record *pg_finfo_polarbench_run(void);

/*
 * Version-1 calling convention record of the stand-in below.
 */
__attribute__((weak)) const Pg_finfo_record *
pg_finfo_polarbench_run(void)
{
	static const Pg_finfo_record my_finfo = {1};

	return &my_finfo;
}

/*
 * polarbench_run() when the run engine is not linked in: refuse.
 */
__attribute__((weak)) Datum
polarbench_run(PG_FUNCTION_ARGS)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("polarbench_run is not available in this build")));
	PG_RETURN_NULL();
}

#else
PG_MODULE_MAGIC;
#endif
