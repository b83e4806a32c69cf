/*-------------------------------------------------------------------------
 *
 * kind_options.h
 *	  What every kind of workload shares below the server: the description
 *	  of a kind's workloads and options (names, types, places in the kind's
 *	  options struct, ranges, defaults), the machinery that reads, checks
 *	  and writes options by that description (kind_options.c), and the
 *	  list of every kind's description (kind_library.c, from kind_list.h).
 *
 * A kind of workload is a folder of src/kinds/ (PostgreSQL keeps an index
 * access method in a folder of src/backend/access/ the same way).  Its
 * backend-free part exports one PbKindLibrary, pb_<kind>_library: its
 * name, its workloads, its options table, the size of its options struct,
 * its defaults and its rules.  Its server part exports one PbKind
 * (driver.h), which points at the library part.
 *
 * Like the script library, this part uses no PostgreSQL header, allocates
 * with malloc and reports errors as a message in a buffer, never by
 * longjmp, so that the server, the command-line program and the unit tests
 * share one implementation.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_KIND_H
#define PB_KIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pb_script.h"

/* The type of an option, as its value is read and stored */
typedef enum PbOptionType
{
	PB_OPT_INT,					/* int */
	PB_OPT_INT64,				/* int64_t */
	PB_OPT_BOOL,				/* bool */
	PB_OPT_DOUBLE,				/* double */
	PB_OPT_ENUM					/* int: the index of its name in values */
} PbOptionType;

/* The largest values of int and int64_t options, as a table's max */
#define PB_OPT_INT_MAX		2147483647.0
#define PB_OPT_INT64_MAX	9.2e18

/* One option of a kind: a row of its options table */
typedef struct PbOptionDef
{
	const char *name;			/* as the tool spells it in its own files */
	PbOptionType type;
	size_t		offset;			/* in the kind's options struct */
	double		min;
	double		max;
	const char *const *values;	/* PB_OPT_ENUM: names, NULL-terminated; an
								 * empty name holds a place no one may give */
	bool		open;			/* min and max themselves are excluded */
	const char *description;	/* one line, as the tool's help says it */
	size_t		given;			/* offset + 1 of a bool set when it is given;
								 * 0 for none */
} PbOptionDef;

/* A workload of a kind, which polarbench_run() takes by name */
typedef struct PbWorkloadDef
{
	const char *name;
	int			variant;		/* which of the kind's workloads, for its
								 * defaults and its driver */
	const char *description;
} PbWorkloadDef;

/*
 * The backend-free part of a kind's descriptor.  A kind without options of
 * its own (pgbench's scripts) has no options table and no workloads here:
 * its driver finds them.
 */
typedef struct PbKindLibrary
{
	const char *name;			/* as polarbench_workloads shows it */
	const char *tool;			/* its tool, in messages: "sysbench" */
	const PbWorkloadDef *workloads; /* NULL-terminated by name; NULL: none */
	const PbOptionDef *options; /* NULL-terminated by name; NULL: none */
	size_t		options_size;	/* of its options struct */
	/* fill options with a workload's defaults: its tool's and its own */
	void		(*defaults) (void *options, int variant);
	/* what no single option shows, or NULL; may complete options */
	bool		(*check) (void *options, PbError *err);
} PbKindLibrary;

/* What polarbench_workloads says of one option of a workload */
typedef struct PbOptionInfo
{
	const char *name;
	const char *type;			/* integer, boolean, number, enum */
	bool		has_range;
	double		min;
	double		max;
	char		values[256];	/* enum: its values, comma separated */
	char		default_value[128];	/* as JSON's text, "" if computed at the run */
	const char *description;
} PbOptionInfo;

/* kind_options.c */
extern bool pb_option_is(const char *name, const char *canonical);
extern bool pb_option_error(PbError *err, const char *hint, const char *fmt,...)
			__attribute__((format(printf, 3, 4)));
extern const PbWorkloadDef *pb_kind_workload(const PbKindLibrary *kind,
											 const char *name);
extern int	pb_kind_workload_count(const PbKindLibrary *kind);
extern void pb_kind_defaults(const PbKindLibrary *kind,
							 const PbWorkloadDef *def, void *options);
extern bool pb_kind_set_option(const PbKindLibrary *kind, void *options,
							   const char *name, const char *value,
							   PbError *err);
extern bool pb_kind_check_options(const PbKindLibrary *kind, void *options,
								  PbError *err);
extern char *pb_kind_options_json(const PbKindLibrary *kind,
								  const void *options);
extern bool pb_kind_has_option(const PbKindLibrary *kind, const char *name);
extern const char *pb_kind_option_at(const PbKindLibrary *kind, int i);
extern bool pb_kind_option_info(const PbKindLibrary *kind,
								const PbWorkloadDef *def, int i,
								PbOptionInfo *info);

/* kind_library.c: every kind, in kind_list.h's order */
extern int	pb_kind_library_count(void);
extern const PbKindLibrary *pb_kind_library_at(int i);
extern const PbKindLibrary *pb_kind_library_of(const char *workload,
											   const PbWorkloadDef **def);

#endif							/* PB_KIND_H */
