/*-------------------------------------------------------------------------
 *
 * pgbench.h
 *	  The pgbench kind's backend-free part: pgbench's built-in scripts, by
 *	  name (builtin_scripts.c), and the kind's options and descriptor,
 *	  pb_pgbench_library (pgbench_options.c), which the server, the
 *	  command-line program and the unit tests share.  The scripts' language is the script library's
 *	  (pb_script.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_PGBENCH_H
#define PB_PGBENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "kind_options.h"

/* Text of a built-in script ("tpcb-like", "simple-update", "select-only"),
 * or NULL when there is none by that name. Unique prefixes are accepted as
 * pgbench does; *canonical gets the full name. */
extern const char *pb_builtin_script(const char *name, const char **canonical);

/* How many built-in scripts there are, and the name and pgbench's
 * description ("<builtin: select only>") of the i-th. */
extern int	pb_builtin_count(void);
extern const char *pb_builtin_name(int i);
extern const char *pb_builtin_desc(int i);
extern const char *pb_builtin_default_var(int i, int64_t *per_scale);

/* How many built-in scripts' names start with prefix. */
extern int	pb_builtin_matches(const char *prefix);

/* The options of a run of scripts (pgbench_options.c) */
typedef struct PbPgbenchOptions
{
	bool		continue_on_error;	/* an SQL command's error fails only its
									 * transaction */
	bool		exit_on_abort;	/* a client's abort stops every client */
} PbPgbenchOptions;

/* pgbench_options.c: the kind's descriptor, and what its runs are */
extern const PbKindLibrary pb_pgbench_library;
extern const PbWorkloadDef pb_pgbench_scripts;

#endif							/* PB_PGBENCH_H */
