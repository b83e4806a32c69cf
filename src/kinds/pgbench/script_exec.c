/*-------------------------------------------------------------------------
 *
 * script_exec.c
 *	  Runs a parsed pgbench script inside a background worker: SQL commands
 *	  through SPI plans prepared once, meta-commands through the script
 *	  library, and database transactions as the script delimits them.
 *
 * As a client of a server would, a command outside BEGIN ... END runs in a
 * transaction of its own, and the commands between BEGIN and END (or
 * COMMIT, or ROLLBACK) run in one, a transaction block as the server's, as
 * do the statements of a compound command (\;).  Variables become typed
 * parameters of the plans: each plan is prepared once with the types the
 * parser infers for its parameters, as a server does for a client's
 * prepared statement whose parameter types are left unspecified (pgbench -M
 * prepared).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "parser/parse_param.h"
#include "parser/parser.h"
#include "pgstat.h"
#include "common/hashfn.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/plancache.h"
#include "utils/snapmgr.h"
#include "storage/latch.h"
#include "utils/wait_event.h"

#include "script_exec.h"
#include "statement_exec.h"

/*
 * pb_script_sqlstate
 *		The SQLSTATE of a script library error, by its kind.
 */
static int
pb_script_sqlstate(PbErrorKind kind)
{
	switch (kind)
	{
		case PB_ERROR_SYNTAX:
			return ERRCODE_SYNTAX_ERROR;
		case PB_ERROR_UNDEFINED_VARIABLE:
			return ERRCODE_UNDEFINED_OBJECT;
		case PB_ERROR_DIVISION_BY_ZERO:
			return ERRCODE_DIVISION_BY_ZERO;
		case PB_ERROR_OUT_OF_RANGE:
			return ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
		case PB_ERROR_INVALID_ARGUMENT:
			return ERRCODE_INVALID_PARAMETER_VALUE;
		case PB_ERROR_TYPE:
			return ERRCODE_DATATYPE_MISMATCH;
		case PB_ERROR_OUT_OF_MEMORY:
			return ERRCODE_OUT_OF_MEMORY;
		case PB_ERROR_DATA:
			return ERRCODE_DATA_EXCEPTION;
		case PB_ERROR_NONE:
		case PB_ERROR_INTERNAL:
			break;
	}
	return ERRCODE_INTERNAL_ERROR;
}

/*
 * pb_script_error
 *		Raise a script library error of the script called name: its message
 *		(pgbench's), its detail, and the command's line in the context.
 */
void
pb_script_error(const PbError *err, const char *name, const char *hint)
{
	char	   *where = err->line > 0 ?
		psprintf("command at line %d of script \"%s\"", err->line, name) :
		psprintf("script \"%s\"", name);

	ereport(ERROR,
			(errcode(pb_script_sqlstate(err->kind)),
			 errmsg_internal("%s", err->message),
			 err->detail[0] ? errdetail_internal("%s", err->detail) : 0,
			 hint ? errhint("%s", hint) : 0,
			 errcontext("%s", where)));
}

/*
 * One plan, with what binding its parameters takes.  Commands of the same
 * text (after :var became $n) share one: a plan is what a client's memory
 * mostly goes to, about 14 kB each.
 */
typedef struct PbPlan
{
	const char *sql;			/* key: the command's text */
	SPIPlanPtr	plan;
	int			nparams;
	Oid		   *types;
	FmgrInfo   *input_funcs;
	Oid		   *input_params;
	ParamListInfo params;		/* the values of each execution */
	bool		read_only;		/* a SELECT that writes nothing itself */
	bool		compound;		/* several statements (\;): one transaction */
} PbPlan;

/* One command of a script, prepared */
typedef struct PbPrepared
{
	PbPlan	   *plan;			/* SQL but transaction control; else NULL */
	List	   *begin_options;	/* BEGIN: isolation level and the like */
	int			nresult_vars;	/* \gset/\aset: result columns */
	int		   *result_vars;	/* variable id of each column */
} PbPrepared;

struct PbExecutor
{
	PbScriptSet *set;
	PbRunShared *run;			/* for its deadline and stop; NULL in a check */
	PbClientState *client;
	PbPrepared **prepared;		/* [script][command] */
	HTAB	   *plans;			/* PbPlan by text */
	int			nplans;
	MemoryContext cxt;			/* lives as long as the executor */
	bool		in_block;		/* between BEGIN and END */
	bool		in_xact;		/* a transaction is started */
	int			pc;				/* command being run */
	bool		in_sql;			/* in an SQL command, until its rows are
								 * stored: an error there is the server's
								 * (pgbench's --continue-on-error covers it) */
	const char *activity;		/* last text shown in pg_stat_activity */
	char		strbuf[64];		/* a variable's string form */
};

/* Where a prepare or a check is, for the error context */
typedef struct PbPrepareContext
{
	const PbScript *script;
	const PbCommand *cmd;
	const char *var;			/* variable being checked, or NULL */
	int			param;			/* its parameter number */
} PbPrepareContext;

/* Collects the parameter types the parser infers */
typedef struct PbParamTypes
{
	Oid		   *types;
	int			ntypes;
} PbParamTypes;

/* Hash of a plan's key, its text. */
static uint32
pb_plan_hash(const void *key, Size keysize)
{
	const char *sql = *(const char *const *) key;

	return hash_bytes((const unsigned char *) sql, strlen(sql));
}

/* Whether two plan keys are the same text (0 if so). */
static int
pb_plan_match(const void *key1, const void *key2, Size keysize)
{
	return strcmp(*(const char *const *) key1, *(const char *const *) key2);
}

/*
 * pb_executor_create
 *		An executor for the script set.  Lives in TopMemoryContext: a client
 *		keeps it across transactions and errors.  run is NULL for an
 *		executor that only prepares, to check the scripts.
 */
PbExecutor *
pb_executor_create(PbScriptSet *set, PbRunShared *run)
{
	MemoryContext cxt;
	PbExecutor *exec;
	HASHCTL		ctl;

	cxt = AllocSetContextCreate(TopMemoryContext, "polarbench executor",
								ALLOCSET_DEFAULT_SIZES);
	exec = MemoryContextAllocZero(cxt, sizeof(PbExecutor));
	exec->cxt = cxt;
	exec->set = set;
	exec->run = run;
	exec->prepared = MemoryContextAllocZero(cxt,
											sizeof(PbPrepared *) * set->nscripts);
	for (int s = 0; s < set->nscripts; s++)
		exec->prepared[s] = MemoryContextAllocZero(cxt,
												   sizeof(PbPrepared) * Max(set->scripts[s].ncommands, 1));
	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(const char *);
	ctl.entrysize = sizeof(PbPlan);
	ctl.hash = pb_plan_hash;
	ctl.match = pb_plan_match;
	ctl.hcxt = cxt;
	exec->plans = hash_create("polarbench plans", 64, &ctl,
							  HASH_ELEM | HASH_FUNCTION | HASH_COMPARE | HASH_CONTEXT);
	return exec;
}

/*
 * pb_executor_free
 *		Free an executor and its plans.
 */
void
pb_executor_free(PbExecutor *exec)
{
	HASH_SEQ_STATUS status;
	PbPlan	   *plan;

	hash_seq_init(&status, exec->plans);
	while ((plan = hash_seq_search(&status)) != NULL)
		if (plan->plan != NULL)
			SPI_freeplan(plan->plan);
	MemoryContextDelete(exec->cxt);
}

/*
 * pb_executor_nplans
 *		How many plans the prepared scripts keep.
 */
int
pb_executor_nplans(PbExecutor *exec)
{
	return exec->nplans;
}

/*
 * pb_executor_first_writer
 *		The first prepared SQL command that writes (INSERT, UPDATE, DELETE,
 *		MERGE, SELECT FOR UPDATE or with a data-modifying WITH), or NULL if
 *		none does: what a hot standby cannot run.  Transaction control and
 *		utility commands are left to the standby to refuse if it must.
 */
const PbCommand *
pb_executor_first_writer(PbExecutor *exec, int *script_no)
{
	for (int s = 0; s < exec->set->nscripts; s++)
		for (int c = 0; c < exec->set->scripts[s].ncommands; c++)
		{
			PbPrepared *p = &exec->prepared[s][c];

			if (p->plan != NULL && !p->plan->read_only &&
				!pb_plan_is_utility(p->plan->plan))
			{
				*script_no = s;
				return &exec->set->scripts[s].commands[c];
			}
		}
	return NULL;
}

/* Error context of a prepare or check: the script's name and line. */
static void
pb_prepare_error_context(void *arg)
{
	PbPrepareContext *pc = (PbPrepareContext *) arg;

	if (pc->cmd == NULL)
		return;
	if (pc->var != NULL)
		errcontext("variable \"%s\" as parameter $%d of the command at line %d of script \"%s\"",
				   pc->var, pc->param, pc->cmd->line, pc->script->name);
	else
		errcontext("command at line %d of script \"%s\"",
				   pc->cmd->line, pc->script->name);
}

/* Parser hook: let the parser infer the types of $n parameters. */
static void
pb_param_setup(ParseState *pstate, void *arg)
{
	PbParamTypes *pt = (PbParamTypes *) arg;

	setup_parse_variable_parameters(pstate, &pt->types, &pt->ntypes);
}

/*
 * pb_prepare_plan
 *		The plan of one SQL command's text: find its parameter types, then
 *		prepare and keep a plan with those types; or the plan an earlier
 *		command of the same text has.
 */
static PbPlan *
pb_prepare_plan(PbExecutor *exec, const PbCommand *cmd)
{
	PbParamTypes pt = {NULL, 0};
	SPIPrepareOptions options;
	SPIPlanPtr	probe;
	PbPlan	   *p;
	bool		found;

	p = hash_search(exec->plans, &cmd->sql, HASH_ENTER, &found);
	if (found)
		return p;
	p->plan = NULL;
	exec->nplans++;

	p->nparams = cmd->nparams;
	p->types = MemoryContextAllocZero(exec->cxt, sizeof(Oid) * Max(cmd->nparams, 1));
	if (cmd->nparams > 0)
	{
		memset(&options, 0, sizeof(options));
		options.parserSetup = pb_param_setup;
		options.parserSetupArg = &pt;
		options.parseMode = RAW_PARSE_DEFAULT;
		probe = SPI_prepare_extended(cmd->sql, &options);
		if (probe == NULL)
			elog(ERROR, "SPI_prepare_extended failed: %s",
				 SPI_result_code_string(SPI_result));
		SPI_freeplan(probe);
	}
	for (int i = 0; i < cmd->nparams; i++)
	{
		Oid			type = i < pt.ntypes ? pt.types[i] : InvalidOid;

		p->types[i] = (type == InvalidOid || type == UNKNOWNOID) ? TEXTOID : type;
	}

	p->plan = pb_spi_prepare(cmd->sql, cmd->nparams, p->types, true);
	p->read_only = pb_plan_is_read_only(p->plan);
	p->compound = list_length(SPI_plan_get_plan_sources(p->plan)) > 1;

	p->input_funcs = MemoryContextAllocZero(exec->cxt, sizeof(FmgrInfo) * Max(cmd->nparams, 1));
	p->input_params = MemoryContextAllocZero(exec->cxt, sizeof(Oid) * Max(cmd->nparams, 1));
	for (int i = 0; i < cmd->nparams; i++)
	{
		Oid			infunc;

		getTypeInputInfo(p->types[i], &infunc, &p->input_params[i]);
		fmgr_info_cxt(infunc, &p->input_funcs[i], exec->cxt);
	}
	{
		MemoryContext old = MemoryContextSwitchTo(exec->cxt);

		p->params = pb_params_make(cmd->nparams, p->types);
		MemoryContextSwitchTo(old);
	}
	return p;
}

/*
 * pb_prepare_command
 *		Prepare one SQL command.  For \gset and \aset, create the variables
 *		its result columns will set.
 */
static void
pb_prepare_command(PbExecutor *exec, const PbCommand *cmd, PbPrepared *p)
{
	p->plan = pb_prepare_plan(exec, cmd);

	if (cmd->result_target != PB_RESULT_NONE)
	{
		List	   *sources = SPI_plan_get_plan_sources(p->plan->plan);
		CachedPlanSource *source;
		TupleDesc	desc;

		source = sources != NIL ? (CachedPlanSource *) llast(sources) : NULL;
		desc = source ? source->resultDesc : NULL;
		if (desc == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("\\gset and \\aset need a command that returns rows")));
		p->nresult_vars = desc->natts;
		p->result_vars = MemoryContextAlloc(exec->cxt, sizeof(int) * Max(desc->natts, 1));
		for (int i = 0; i < desc->natts; i++)
		{
			char	   *name = psprintf("%s%s", cmd->result_prefix ? cmd->result_prefix : "",
										NameStr(TupleDescAttr(desc, i)->attname));

			p->result_vars[i] = pb_var_id(exec->set, name, true);
			if (p->result_vars[i] < 0)
				ereport(ERROR,
						(errcode(ERRCODE_OUT_OF_MEMORY),
						 errmsg("out of memory")));
		}
	}
}

/*
 * pb_begin_options
 *		The options of a BEGIN or START TRANSACTION command (ISOLATION
 *		LEVEL, READ ONLY, DEFERRABLE), kept in the executor's context.
 */
static List *
pb_begin_options(PbExecutor *exec, const PbCommand *cmd)
{
	List	   *stmts = raw_parser(cmd->sql, RAW_PARSE_DEFAULT);
	RawStmt    *raw;
	MemoryContext old;
	List	   *options;

	if (list_length(stmts) != 1)
		return NIL;
	raw = linitial_node(RawStmt, stmts);
	if (!IsA(raw->stmt, TransactionStmt))
		return NIL;
	old = MemoryContextSwitchTo(exec->cxt);
	options = copyObject(((TransactionStmt *) raw->stmt)->options);
	MemoryContextSwitchTo(old);
	return options;
}

/*
 * pb_executor_prepare_plans
 *		Prepare every SQL command of every script, in the current transaction
 *		with SPI connected.  Errors (a missing table, a syntax error) carry
 *		the script's name and the command's line.
 */
void
pb_executor_prepare_plans(PbExecutor *exec)
{
	PbPrepareContext pc = {NULL, NULL, NULL, 0};
	ErrorContextCallback callback;

	callback.callback = pb_prepare_error_context;
	callback.arg = &pc;
	callback.previous = error_context_stack;
	error_context_stack = &callback;

	for (int s = 0; s < exec->set->nscripts; s++)
	{
		PbScript   *script = &exec->set->scripts[s];

		pc.script = script;
		for (int c = 0; c < script->ncommands; c++)
		{
			PbCommand  *cmd = &script->commands[c];

			pc.cmd = cmd;
			if (cmd->kind == PB_CMD_SQL && cmd->txn == PB_TXN_NONE)
				pb_prepare_command(exec, cmd, &exec->prepared[s][c]);
			else if (cmd->kind == PB_CMD_SQL && cmd->txn == PB_TXN_BEGIN)
				exec->prepared[s][c].begin_options = pb_begin_options(exec, cmd);
		}
	}
	error_context_stack = callback.previous;
}

/*
 * pb_executor_prepare
 *		Prepare every SQL command of every script, in a transaction of its
 *		own.  Errors propagate.
 */
void
pb_executor_prepare(PbExecutor *exec)
{
	pb_xact_begin(NIL);
	pgstat_report_activity(STATE_RUNNING, "polarbench: preparing");
	pb_executor_prepare_plans(exec);
	pb_xact_commit();
	pgstat_report_activity(STATE_IDLE, NULL);
}

/*
 * pb_executor_check_values
 *		For every parameter bound to a variable that keeps one value for the
 *		whole run (values[varid] non-NULL) and that no script command sets,
 *		check that the value reads as the parameter's type, as the clients
 *		will read it.  The error names the variable, the script and the line.
 */
void
pb_executor_check_values(PbExecutor *exec, const char *const *values)
{
	PbScriptSet *set = exec->set;
	bool	   *assigned = palloc0(sizeof(bool) * Max(set->nvars, 1));
	PbPrepareContext pc = {NULL, NULL, NULL, 0};
	ErrorContextCallback callback;

	/* variables a script sets itself may hold any value by then */
	for (int s = 0; s < set->nscripts; s++)
		for (int c = 0; c < set->scripts[s].ncommands; c++)
		{
			PbCommand  *cmd = &set->scripts[s].commands[c];
			PbPrepared *p = &exec->prepared[s][c];

			if (cmd->kind == PB_CMD_SET && cmd->set_var >= 0)
				assigned[cmd->set_var] = true;
			for (int i = 0; i < p->nresult_vars; i++)
				if (p->result_vars[i] >= 0 && p->result_vars[i] < set->nvars)
					assigned[p->result_vars[i]] = true;
		}

	callback.callback = pb_prepare_error_context;
	callback.arg = &pc;
	callback.previous = error_context_stack;
	error_context_stack = &callback;
	for (int s = 0; s < set->nscripts; s++)
	{
		pc.script = &set->scripts[s];
		for (int c = 0; c < set->scripts[s].ncommands; c++)
		{
			PbCommand  *cmd = &set->scripts[s].commands[c];
			PbPlan	   *plan = exec->prepared[s][c].plan;

			if (plan == NULL)
				continue;
			pc.cmd = cmd;
			for (int i = 0; i < plan->nparams; i++)
			{
				int			var = cmd->param_vars[i];

				if (var < 0 || var >= set->nvars || assigned[var] ||
					values[var] == NULL)
					continue;
				pc.var = set->var_names[var];
				pc.param = i + 1;
				(void) InputFunctionCall(&plan->input_funcs[i],
										 (char *) values[var],
										 plan->input_params[i], -1);
			}
			pc.var = NULL;
		}
	}
	error_context_stack = callback.previous;
	pfree(assigned);
}

/*
 * pb_executor_set_client
 *		The variables and random state the scripts run with.  They are made
 *		after pb_executor_prepare(), which may add variables for \gset.
 */
void
pb_executor_set_client(PbExecutor *exec, PbClientState *client)
{
	exec->client = client;
}

/*
 * Start a transaction for the commands to come, with the options of its
 * BEGIN; in a transaction block for a BEGIN's or a compound command's
 * several statements, which commit or roll back together on every node
 * of a cluster too.
 */
static void
pb_xact_start(PbExecutor *exec, List *options, bool block)
{
	if (block)
		pb_xact_begin_block(options);
	else
		pb_xact_begin(options);
	exec->in_xact = true;
}

/* Commit the current transaction. */
static void
pb_xact_end(PbExecutor *exec)
{
	pb_xact_commit();
	exec->in_xact = false;
	exec->in_block = false;
	MemoryContextSwitchTo(exec->cxt);
}

/*
 * pb_executor_current_command
 *		Index of the command the last script ran, or failed in.
 */
int
pb_executor_current_command(PbExecutor *exec)
{
	return exec->pc;
}

/*
 * pb_executor_failed_in_sql
 *		Whether the error the last script raised came from the server's
 *		execution of an SQL command (its parameters, its plan, its commit):
 *		what pgbench's --continue-on-error lets a client go on after, unlike
 *		a meta-command's error or a script's own check.
 */
bool
pb_executor_failed_in_sql(PbExecutor *exec)
{
	return exec->in_sql;
}

/*
 * pb_executor_abort
 *		Roll back whatever transaction is open: after ROLLBACK, or after an
 *		error was caught.  SPI and the active snapshot are cleaned up by the
 *		transaction's abort.
 */
void
pb_executor_abort(PbExecutor *exec)
{
	AbortCurrentTransaction();
	exec->in_xact = false;
	exec->in_block = false;
	MemoryContextSwitchTo(exec->cxt);
}

/*
 * pb_param_value
 *		The value of a variable as a parameter of the given type.  Numbers
 *		go straight into the common numeric types; anything else goes
 *		through the type's input function from the variable's string form,
 *		as the server would read a client's parameter.
 */
static Datum
pb_param_value(PbExecutor *exec, PbPlan *p, int i, int var, bool *isnull)
{
	PbVariable *v = &exec->client->vars[var];
	const char *str;

	*isnull = false;
	if (v->value.type == PB_VAL_NULL)
	{
		*isnull = true;
		return (Datum) 0;
	}
	if (v->value.type == PB_VAL_INT)
	{
		int64		ival = v->value.u.ival;

		switch (p->types[i])
		{
			case INT8OID:
				return Int64GetDatum(ival);
			case INT4OID:
				if (ival >= PG_INT32_MIN && ival <= PG_INT32_MAX)
					return Int32GetDatum((int32) ival);
				break;
			case FLOAT8OID:
				return Float8GetDatum((double) ival);
			default:
				break;
		}
	}
	else if (v->value.type == PB_VAL_DOUBLE && p->types[i] == FLOAT8OID)
		return Float8GetDatum(v->value.u.dval);

	str = pb_var_get_string_ref(exec->client, var, exec->strbuf, sizeof(exec->strbuf));
	if (str == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("undefined variable \"%s\"", exec->set->var_names[var])));
	return InputFunctionCall(&p->input_funcs[i], (char *) str,
							 p->input_params[i], -1);
}

/*
 * pb_store_results
 *		\gset: the one row returned into variables; \aset: every row, the
 *		last one winning, as pgbench does.
 */
static void
pb_store_results(PbExecutor *exec, const PbCommand *cmd, PbPrepared *p)
{
	SPITupleTable *tuptable = SPI_tuptable;
	uint64		ntuples = SPI_processed;

	if (cmd->result_target == PB_RESULT_GSET && ntuples != 1)
		ereport(ERROR,
				(errcode(ERRCODE_CARDINALITY_VIOLATION),
				 errmsg("expected one row, got " UINT64_FORMAT, ntuples)));
	if (ntuples == 0 || tuptable == NULL)
		return;

	for (int col = 0; col < p->nresult_vars && col < tuptable->tupdesc->natts; col++)
	{
		HeapTuple	tuple = tuptable->vals[ntuples - 1];
		Form_pg_attribute attr = TupleDescAttr(tuptable->tupdesc, col);
		bool		isnull;
		Datum		d = SPI_getbinval(tuple, tuptable->tupdesc, col + 1, &isnull);
		PbValue		value;
		PbError		err;

		if (isnull)
		{
			value.type = PB_VAL_NULL;
			pb_var_set_value(exec->client, p->result_vars[col], &value);
			continue;
		}
		switch (attr->atttypid)
		{
			case INT2OID:
				value.type = PB_VAL_INT;
				value.u.ival = DatumGetInt16(d);
				break;
			case INT4OID:
				value.type = PB_VAL_INT;
				value.u.ival = DatumGetInt32(d);
				break;
			case INT8OID:
				value.type = PB_VAL_INT;
				value.u.ival = DatumGetInt64(d);
				break;
			case FLOAT8OID:
				value.type = PB_VAL_DOUBLE;
				value.u.dval = DatumGetFloat8(d);
				break;
			default:
				value.type = PB_VAL_NONE;
				break;
		}
		if (value.type != PB_VAL_NONE)
			pb_var_set_value(exec->client, p->result_vars[col], &value);
		else if (!pb_var_set_string(exec->client, p->result_vars[col],
									SPI_getvalue(tuple, tuptable->tupdesc, col + 1),
									&err))
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("%s", err.message)));
	}
}

/*
 * pb_exec_sql
 *		Run one SQL command and count it.  Transaction control commands
 *		move the executor between autocommit and a transaction block, and
 *		count as other statements.
 */
static void
pb_exec_sql(PbExecutor *exec, const PbCommand *cmd, PbPrepared *p,
			PbTxnCounts *counts)
{
	PbPlan	   *plan = p->plan;
	bool		implicit;
	int			rc;

	switch (cmd->txn)
	{
		case PB_TXN_BEGIN:
			/* a BEGIN inside a block is ignored, as the server warns */
			if (!exec->in_block)
			{
				pb_xact_start(exec, p->begin_options, true);
				exec->in_block = true;
			}
			pb_count_statement(counts, false, 0);
			return;
		case PB_TXN_COMMIT:
			if (exec->in_block)
				pb_xact_end(exec);
			pb_count_statement(counts, false, 0);
			return;
		case PB_TXN_ROLLBACK:
			if (exec->in_block)
				pb_executor_abort(exec);
			pb_count_statement(counts, false, 0);
			return;
		case PB_TXN_NONE:
			break;
	}

	implicit = !exec->in_block;
	if (implicit)
		pb_xact_start(exec, NIL, plan->compound);

	if (exec->activity != cmd->text)
	{
		pgstat_report_activity(STATE_RUNNING, cmd->text);
		exec->activity = cmd->text;
	}

	for (int i = 0; i < plan->nparams; i++)
		plan->params->params[i].value =
			pb_param_value(exec, plan, i, cmd->param_vars[i],
						   &plan->params->params[i].isnull);

	if (cmd->result_target == PB_RESULT_NONE)
	{
		/* nobody reads the rows: they are made and dropped */
		pb_spi_run(plan->plan, plan->params, counts, implicit && plan->read_only);
	}
	else
	{
		rc = SPI_execute_plan_with_paramlist(plan->plan, plan->params,
											 implicit && plan->read_only, 0);
		if (rc < 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("this command cannot run in a benchmark script"),
					 errdetail("SPI refused it with %s.", SPI_result_code_string(rc))));
		/* \gset's count of rows is the client's check, as in pgbench */
		exec->in_sql = false;
		pb_store_results(exec, cmd, p);
		pb_count_statement(counts, SPI_tuptable != NULL, SPI_processed);
		SPI_freetuptable(SPI_tuptable);
	}

	if (implicit)
		pb_xact_end(exec);
}

/*
 * pb_sleep
 *		\sleep: wait, waking for interrupts so that a cancel is not delayed.
 *		Returns false when the run ended (its deadline came, or it was told
 *		to stop) before the sleep did: a sleep never outlasts the run.  In
 *		an open transaction the deadline is the run's cut-off, as for a
 *		statement: the transaction in flight has the run's grace.
 */
static bool
pb_sleep(PbExecutor *exec, int64 usec)
{
	int64		now = pb_now_ns();
	int64		cutoff = pb_run_cutoff(exec->run);
	int64		deadline = exec->in_xact && cutoff > 0 ? cutoff :
		pb_run_deadline(exec->run);
	int64		until;

	/* the script library keeps usec * 1000 within an int64 */
	if (usec > (PG_INT64_MAX - now) / 1000)
		until = PG_INT64_MAX;
	else
		until = now + usec * 1000;
	if (until > deadline)
		until = deadline;
	for (;;)
	{
		int64		left = until - pb_now_ns();

		CHECK_FOR_INTERRUPTS();
		if (pg_atomic_read_u32(&exec->run->stop_reason) != PB_STOP_NONE)
			return false;
		if (left <= 0)
			return until < deadline;
		if (left < 1000000)
		{
			pg_usleep(left / 1000);
			continue;
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 left / 1000000, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/*
 * pb_executor_run_script
 *		Run one script from its first command to its last: one benchmark
 *		transaction.  Counts each command's executions and time into stats
 *		unless it is NULL and, unless NULL too, the commands' histograms that start at hists, and
 *		SQL commands into counts.  *clock_ns is the clock at the start of
 *		the first command; when the commands are timed, it is set to the
 *		clock at the end of the last.  Returns false if the run ended
 *		in a \sleep of the script outside a transaction (the script does
 *		not count); in a transaction, the run's end cancels it, as it
 *		cancels a statement.  Errors propagate; the caller aborts the
 *		transaction with pb_executor_abort().
 */
bool
pb_executor_run_script(PbExecutor *exec, int script_no, PbCommandStats *stats,
					   uint64 *hists, PbTxnCounts *counts, int64 *clock_ns)
{
	PbScript   *script = &exec->set->scripts[script_no];
	PbPrepared *prepared = exec->prepared[script_no];
	int			pc = 0;
	int64		start = *clock_ns;

	exec->in_sql = false;
	while (pc < script->ncommands)
	{
		const PbCommand *cmd = &script->commands[pc];
		int			next = pc + 1;
		int64		end;

		exec->pc = pc;
		if (cmd->kind == PB_CMD_SQL)
		{
			exec->in_sql = true;
			pb_exec_sql(exec, cmd, &prepared[pc], counts);
			exec->in_sql = false;
		}
		else
		{
			int64_t		sleep_us = 0;
			PbError		err;

			memset(&err, 0, sizeof(err));
			if (!pb_exec_meta(script, pc, exec->client, exec->set, &next,
							  &sleep_us, &err))
				pb_script_error(&err, script->name, NULL);
			if (sleep_us > 0 && !pb_sleep(exec, sleep_us))
			{
				/* a transaction in flight the run's end cuts off, as a statement */
				if (exec->in_xact &&
					(pb_run_cutoff(exec->run) > 0 ||
					 pg_atomic_read_u32(&exec->run->stop_reason) != PB_STOP_NONE))
					ereport(ERROR,
							(errcode(ERRCODE_QUERY_CANCELED),
							 errmsg("canceling the \\sleep of an open transaction: the run ended")));
				if (exec->in_xact)
					pb_executor_abort(exec);
				return false;
			}
		}

		if (stats != NULL)
		{
			end = pb_now_ns();
			pb_command_done(&stats[pc], end - start,
							hists ? hists + (Size) pc * PB_HIST_BUCKETS : NULL);
			start = end;
		}
		pc = next;
	}
	if (stats != NULL)
		*clock_ns = start;

	if (exec->in_block)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TRANSACTION_STATE),
				 errmsg("end of script reached without completing the last transaction"),
				 errdetail("Script \"%s\" has a BEGIN without a matching END.",
						   script->name)));
	return true;
}
