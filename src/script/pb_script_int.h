/*-------------------------------------------------------------------------
 *
 * pb_script_int.h
 *	  Declarations shared by the files of the script language library but
 *	  not meant for its users, who only need pb_script.h.
 *
 * The library's files, in layers, each calling only those below it:
 *
 *	  script_error.c, expr_node.c, random_dist.c	errors, trees, numbers
 *	  script_set.c					the script set
 *	  expr_parse.c, then script_parse.c			the parsers
 *	  script_check.c, client_vars.c,				checks, a client's state,
 *	  expr_eval.c, meta_exec.c, script_choice.c	evaluation and execution
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_SCRIPT_INT_H
#define PB_SCRIPT_INT_H

#include "pb_script.h"

/*
 * Deepest expression tree accepted.  Evaluation recurses once per level,
 * and scripts run inside server processes with a bounded stack, so a
 * pathological "1+1+1+..." line must be refused at parse time rather than
 * overflow the stack at run time.
 */
#define PB_EXPR_MAX_DEPTH	1000

/* at most this many arguments to a non-lazy function, as pgbench */
#define PB_MAX_FARGS		16

/* pgbench's bounds on the distribution parameters */
#define PB_MIN_GAUSSIAN_PARAM	2.0
#define PB_MIN_ZIPFIAN_PARAM	1.001
#define PB_MAX_ZIPFIAN_PARAM	1000.0

/* The longest \sleep, in microseconds: its nanoseconds fit an int64 */
#define PB_MAX_SLEEP_US		(INT64_MAX / 1000)

/* at most this many scripts in a set, as pgbench */
#define PB_MAX_SCRIPTS		128

/* Functions and operators of the expression language */
typedef enum PbFunc
{
	PB_F_ADD,
	PB_F_SUB,
	PB_F_MUL,
	PB_F_DIV,
	PB_F_MOD,
	PB_F_ABS,
	PB_F_LEAST,
	PB_F_GREATEST,
	PB_F_DEBUG,
	PB_F_PI,
	PB_F_SQRT,
	PB_F_LN,
	PB_F_EXP,
	PB_F_INT,
	PB_F_DOUBLE,
	PB_F_RANDOM,
	PB_F_RANDOM_GAUSSIAN,
	PB_F_RANDOM_EXPONENTIAL,
	PB_F_RANDOM_ZIPFIAN,
	PB_F_POW,
	PB_F_AND,
	PB_F_OR,
	PB_F_NOT,
	PB_F_BITAND,
	PB_F_BITOR,
	PB_F_BITXOR,
	PB_F_LSHIFT,
	PB_F_RSHIFT,
	PB_F_EQ,
	PB_F_NE,
	PB_F_LE,
	PB_F_LT,
	PB_F_IS,
	PB_F_CASE,
	PB_F_HASH_MURMUR2,
	PB_F_HASH_FNV1A,
	PB_F_PERMUTE
} PbFunc;

typedef enum PbExprKind
{
	PB_EXPR_CONST,
	PB_EXPR_VAR,
	PB_EXPR_DEFAULT_SEED,		/* implicit seed of hash() and permute() */
	PB_EXPR_FUNC
} PbExprKind;

/*
 * A node of a parsed expression.  Arguments are kept in an array so that
 * evaluation walks the tree without allocating anything.  CASE keeps its
 * arguments as when1, then1, when2, then2, ..., else.
 */
struct PbExpr
{
	PbExprKind	kind;
	PbValue		constant;		/* PB_EXPR_CONST */
	int			varid;			/* PB_EXPR_VAR */
	PbFunc		func;			/* PB_EXPR_FUNC */
	int			nargs;
	struct PbExpr **args;
	int			depth;			/* 1 for a leaf */
};

/* script_error.c */
extern void pb_error_set(PbError *err, PbErrorKind kind, int line,
						 const char *detail, const char *fmt,...)
			__attribute__((format(printf, 5, 6)));
extern void pb_error_oom(PbError *err, int line);
extern void pb_syntax_error(PbError *err, int line, const char *text,
							size_t len, const char *msg, const char *more,
							const char *cmd, long column);
extern char *pb_strndup(const char *s, size_t len);

/* script_set.c */
extern const char *pb_var_name(const PbScriptSet *set, int id);

/*
 * expr_parse.c: parse the expression in text[start..end) (one meta-command's
 * line, with its continuations), creating variables in set as needed.
 * cmd_offset is where the backslash of the command is in text, for error
 * columns; cmd is the command name and line its line number, both for
 * messages.
 */
extern PbExpr *pb_expr_parse(PbScriptSet *set, const char *text,
							 size_t start, size_t end, size_t cmd_offset,
							 const char *cmd, int line, PbError *err);

/* expr_node.c: free a tree; call fn(varid, arg) for every variable read */
extern void pb_expr_free(PbExpr *expr);
extern void pb_expr_walk_vars(const PbExpr *expr,
							  void (*fn) (int varid, void *arg), void *arg);


/* expr_eval.c: evaluate for a client; script and pc name the command, for
 * debug() (script may be NULL) */
extern bool pb_expr_evaluate(const PbExpr *expr, PbClientState *client,
							 const PbScriptSet *set, const PbScript *script,
							 int pc, PbValue *result, PbError *err);
extern bool pb_value_truth(const PbValue *v);

#endif							/* PB_SCRIPT_INT_H */
