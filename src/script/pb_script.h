/*-------------------------------------------------------------------------
 *
 * pb_script.h
 *	  pgbench's script language: parsed scripts, expressions, variables and
 *	  random distributions.
 *
 * Everything declared here is plain C with no dependency on the PostgreSQL
 * backend (no postgres.h, no palloc, no ereport), so that the server-side
 * workers, the command-line program, the unit tests and the fuzz harnesses
 * all share one implementation.  Functions that can fail return false and
 * fill a PbError; they never exit or longjmp.  Memory is taken with
 * malloc() and given back by the matching *_free() function.
 *
 * The server executes SQL commands itself; everything else (\set, \sleep,
 * \if and friends) is executed by pb_exec_meta().
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_SCRIPT_H
#define PB_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- errors ------------------------------------------------------------ */

/*
 * What kind of error a PbError reports, set where it is raised; the server
 * maps each kind to one SQLSTATE (whatever the message says).
 */
typedef enum PbErrorKind
{
	PB_ERROR_NONE = 0,
	PB_ERROR_SYNTAX,			/* the script does not parse */
	PB_ERROR_UNDEFINED_VARIABLE,	/* a variable no one sets */
	PB_ERROR_DIVISION_BY_ZERO,
	PB_ERROR_OUT_OF_RANGE,		/* integer overflow, a value out of range */
	PB_ERROR_INVALID_ARGUMENT,	/* random() bounds, distribution parameters */
	PB_ERROR_TYPE,				/* a value that is not of the type needed */
	PB_ERROR_DATA,				/* other bad data (pgbench's other errors) */
	PB_ERROR_OUT_OF_MEMORY,
	PB_ERROR_INTERNAL			/* cannot happen */
} PbErrorKind;

typedef struct PbError
{
	PbErrorKind kind;
	int			script_no;		/* the script of a set, when the set is known */
	int			line;			/* 1-based script line, 0 when not known */
	char		message[256];	/* pgbench's words: lower case, no full stop */
	char		detail[512];	/* offending text, or empty */
} PbError;

/* ---- values and variables ---------------------------------------------- */

typedef enum PbValueType
{
	PB_VAL_NONE = 0,			/* no value: variable unset */
	PB_VAL_NULL,
	PB_VAL_BOOL,
	PB_VAL_INT,
	PB_VAL_DOUBLE
} PbValueType;

typedef struct PbValue
{
	PbValueType type;
	union
	{
		bool		bval;
		int64_t		ival;
		double		dval;
	}			u;
} PbValue;

/*
 * A client's variable.  As in pgbench a variable holds a string (from vars,
 * \gset or \aset), a typed value (from \set), or both once the string has
 * been parsed for use in an expression.
 */
typedef struct PbVariable
{
	char	   *svalue;			/* malloc'd string form, or NULL */
	PbValue		value;			/* typed form, PB_VAL_NONE if not known */
} PbVariable;

/* ---- pseudo-random numbers (xoroshiro128**, as pg_prng) ------------------ */

typedef struct PbPrng
{
	uint64_t	s0;
	uint64_t	s1;
} PbPrng;

extern void pb_prng_seed(PbPrng *state, uint64_t seed);
extern uint64_t pb_prng_u64(PbPrng *state);
extern double pb_prng_double(PbPrng *state);	/* [0, 1) */

/* pgbench's distributions; bounds are checked by the callers */
extern int64_t pb_rand_uniform(PbPrng *state, int64_t min, int64_t max);
extern int64_t pb_rand_gaussian(PbPrng *state, int64_t min, int64_t max,
								double parameter);
extern int64_t pb_rand_exponential(PbPrng *state, int64_t min, int64_t max,
								   double parameter);
extern int64_t pb_rand_zipfian(PbPrng *state, int64_t min, int64_t max,
							   double s);
extern int64_t pb_permute(int64_t val, int64_t size, int64_t seed);
extern int64_t pb_hash_fnv1a(int64_t val, int64_t seed);
extern int64_t pb_hash_murmur2(int64_t val, int64_t seed);

/* ---- expressions -------------------------------------------------------- */

typedef struct PbExpr PbExpr;	/* opaque parsed expression tree */

/* ---- commands and scripts ---------------------------------------------- */

typedef enum PbCommandKind
{
	PB_CMD_SQL,					/* an SQL command, executed by the caller */
	PB_CMD_SET,					/* \set var expr */
	PB_CMD_SLEEP,				/* \sleep n [us|ms|s] */
	PB_CMD_IF,					/* \if expr */
	PB_CMD_ELIF,				/* \elif expr */
	PB_CMD_ELSE,				/* \else */
	PB_CMD_ENDIF,				/* \endif */
	PB_CMD_NOOP					/* accepted, does nothing here (pipelines) */
} PbCommandKind;

/* How an SQL command bears on the database transaction */
typedef enum PbTxnControl
{
	PB_TXN_NONE,				/* ordinary statement */
	PB_TXN_BEGIN,				/* BEGIN / START TRANSACTION */
	PB_TXN_COMMIT,				/* END / COMMIT */
	PB_TXN_ROLLBACK				/* ROLLBACK / ABORT */
} PbTxnControl;

typedef enum PbResultTarget
{
	PB_RESULT_NONE,
	PB_RESULT_GSET,				/* \gset: exactly one row into variables */
	PB_RESULT_ASET				/* \aset: every row, last one wins */
} PbResultTarget;

typedef struct PbCommand
{
	PbCommandKind kind;
	int			line;			/* first line of the command in its script */
	char	   *text;			/* the command as written, trimmed */

	/* PB_CMD_SQL */
	char	   *sql;			/* text with each :var replaced by $n */
	int			nparams;
	int		   *param_vars;		/* variable id bound to $1..$nparams */
	PbTxnControl txn;
	PbResultTarget result_target;
	char	   *result_prefix;	/* \gset/\aset prefix, "" if none */

	/* PB_CMD_SET: set_var := expr; PB_CMD_IF/ELIF: condition expr */
	int			set_var;
	PbExpr	   *expr;

	/* PB_CMD_SLEEP: a constant or a variable, times unit_us */
	int64_t		sleep_value;
	int			sleep_var;		/* variable id, or -1 for the constant */
	int64_t		sleep_unit_us;

	/*
	 * PB_CMD_IF / PB_CMD_ELIF: command index to go to when the condition is
	 * false (the next ELIF, ELSE + 1 or ENDIF).  PB_CMD_ELSE and PB_CMD_ELIF
	 * reached after a true branch: command index of the matching ENDIF.
	 */
	int			false_target;
	int			endif_target;
} PbCommand;

typedef struct PbScript
{
	char	   *name;			/* builtin name, or "script N" */
	int			weight;
	int			ncommands;
	PbCommand  *commands;
} PbScript;

/*
 * A set of scripts run together (pgbench's -b/-f with weights).  Variable
 * names are shared by every script of the set and known by their id, an
 * index into var_names.
 */
typedef struct PbScriptSet
{
	int			nscripts;
	PbScript   *scripts;
	int64_t		total_weight;
	int			nvars;
	char	  **var_names;
	bool	   *var_assigned;	/* set by \set, \gset/\aset or predefined */
	bool		has_result_targets; /* some command uses \gset or \aset */
} PbScriptSet;

extern PbScriptSet *pb_scriptset_create(void);
extern void pb_scriptset_free(PbScriptSet *set);

/* Parse one script's text and add it to the set with the given weight. */
extern bool pb_script_parse(PbScriptSet *set, const char *name,
							const char *text, int weight, PbError *err);

/* ---- rules every user of the library shares (script_set.c) -------------- */

/* Whether name may be a variable's, as pgbench's valid_variable_name(). */
extern bool pb_valid_variable_name(const char *name);

/* The weight in "name@weight", at pointing to the last '@': a whole
 * number from 0 to INT32_MAX; false, with pgbench's message, if not. */
extern bool pb_parse_weight(const char *at, int *weight, PbError *err);

/* The variables every client sets for itself, as pgbench does. */
#define PB_PREDEFINED_VARIABLES	4
extern const char *const pb_predefined_variables[PB_PREDEFINED_VARIABLES];

/* Id of a variable, creating it when create is true; -1 if absent. */
extern int	pb_var_id(PbScriptSet *set, const char *name, bool create);

/* Mark a variable as given from outside (vars, :scale, :client_id...). */
extern void pb_var_mark_assigned(PbScriptSet *set, int id);

/* Error out on a variable that is used but can never be set. */
extern bool pb_scriptset_check_vars(const PbScriptSet *set, PbError *err);

/* Choose a script by weight, as pgbench's chooseScript() (script_choice.c). */
extern int	pb_choose_script(const PbScriptSet *set, PbPrng *prng);

/* ---- a client's state and meta-command execution ------------------------ */

typedef struct PbClientState
{
	PbVariable *vars;			/* nvars entries, indexed by variable id */
	int			nvars;
	PbPrng		prng;			/* random() and friends */
	int64_t		random_seed;	/* for hash() and permute() defaults */
} PbClientState;

extern PbClientState *pb_client_create(const PbScriptSet *set,
									   uint64_t prng_seed,
									   int64_t random_seed);
extern void pb_client_free(PbClientState *client);

/* Set a variable from a string / a typed value (copies). */
extern bool pb_var_set_string(PbClientState *client, int id,
							  const char *value, PbError *err);
extern void pb_var_set_value(PbClientState *client, int id,
							 const PbValue *value);

/* The typed value of a variable, parsing its string form if needed;
 * fails for an unset variable or a string that is not a number. */
extern bool pb_var_get_value(PbClientState *client, const PbScriptSet *set,
							 int id, PbValue *value, PbError *err);

/* The string form of a variable (as pgbench sends it), written to buf;
 * returns buf, or NULL for an unset variable.  NULL values give "". */
extern const char *pb_var_get_string(PbClientState *client, int id,
									 char *buf, size_t buflen);

/*
 * The string form of a variable without a copy: the variable's own string
 * when it has one (valid until the variable is next set), otherwise the
 * value formatted into buf (64 bytes always suffice).  NULL when unset.
 */
extern const char *pb_var_get_string_ref(PbClientState *client, int id,
										 char *buf, size_t buflen);

/*
 * Execute the meta-command at script->commands[pc] (any kind but
 * PB_CMD_SQL).  On success *next_pc is the index of the next command to
 * run (script->ncommands at the end) and *sleep_us the time to sleep
 * before it (0 unless \sleep).  A runtime failure (division by zero,
 * integer overflow, bad random bounds, unset variable) returns false with
 * err naming the command.
 */
extern bool pb_exec_meta(const PbScript *script, int pc,
						 PbClientState *client, const PbScriptSet *set,
						 int *next_pc, int64_t *sleep_us, PbError *err);

/*
 * Notes for callers:
 *
 * - A false \if or \elif evaluates the following \elif conditions itself,
 *   so *next_pc is never an \elif to be evaluated; an \elif or \else that
 *   is executed in sequence ends a taken branch and jumps to its \endif,
 *   and \endif and PB_CMD_NOOP just go on to pc + 1.
 * - err->message is pgbench's message ("division by zero"), err->line the
 *   command's line and err->detail its text.
 * - SQL parameters: $n is bound to param_vars[n - 1]; send the text of
 *   pb_var_get_string_ref() (NULL for an unset variable).  A name used
 *   twice in a command has one $n.  result_prefix is never NULL ("" when
 *   no prefix or no \gset/\aset).  A \gset column is stored with
 *   pb_var_set_string() under pb_var_id(set, prefix + column, false),
 *   skipping columns whose id is -1 since no script reads them.
 * - hash() and permute() without a seed use client->random_seed, which
 *   plays pgbench's :default_seed.  Variables pgbench predefines (scale,
 *   client_id, random_seed, default_seed) must be set and marked assigned
 *   by the caller if scripts read them.
 */

#endif							/* PB_SCRIPT_H */
