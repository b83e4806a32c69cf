/*-------------------------------------------------------------------------
 *
 * alter_system.c
 *	  ALTER SYSTEM SET or RESET of one parameter, and a reload of the
 *	  server's configuration that waits until the postmaster has read it.
 *
 * A value is given as the parameter shows it (SHOW, pg_file_settings):
 * for a list whose elements PostgreSQL quotes (search_path,
 * shared_preload_libraries, session_preload_libraries, ...), that is the
 * list's elements joined by commas, some of them double-quoted.  ALTER
 * SYSTEM takes such a list as one literal per element and quotes each
 * itself; given the whole list as one literal, it would make it one
 * element ('"public, pg_catalog"'), and a list of libraries that no
 * session can load.  So the value is split into its elements first, as
 * the server splits it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <signal.h>

#include "access/xact.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/parsenodes.h"
#include "postmaster/interrupt.h"
#include "storage/latch.h"
#include "utils/guc.h"
#include "utils/resowner.h"
#include "utils/timestamp.h"
#include "utils/varlena.h"
#include "utils/wait_event.h"

#include "alter_system.h"

/* How long the server may take to reload its configuration */
#define PB_RELOAD_TIMEOUT_MS	10000

/* One element of a value, as ALTER SYSTEM's argument. */
static Node *
pb_value_arg(const char *value)
{
	A_Const    *arg = makeNode(A_Const);

	arg->val.sval.type = T_String;
	arg->val.sval.sval = pstrdup(value);
	arg->location = -1;
	return (Node *) arg;
}

/*
 * pb_value_args
 *		A value as ALTER SYSTEM's arguments: one per element of a list the
 *		server quotes, else one.
 */
static List *
pb_value_args(const char *name, const char *value)
{
	List	   *elements = NIL;
	List	   *args = NIL;
	ListCell   *lc;

	if ((GetConfigOptionFlags(name, true) & GUC_LIST_QUOTE) == 0 ||
		!SplitGUCList(pstrdup(value), ',', &elements) || elements == NIL)
		return list_make1(pb_value_arg(value));
	foreach(lc, elements)
		args = lappend(args, pb_value_arg(lfirst(lc)));
	return args;
}

/*
 * pb_alter_system
 *		ALTER SYSTEM SET name = value, or RESET when value is NULL, with the
 *		current role's privileges.
 */
void
pb_alter_system(const char *name, const char *value)
{
	AlterSystemStmt *stmt = makeNode(AlterSystemStmt);
	VariableSetStmt *set = makeNode(VariableSetStmt);

	set->name = pstrdup(name);
	if (value == NULL)
		set->kind = VAR_RESET;
	else
	{
		set->kind = VAR_SET_VALUE;
		set->args = pb_value_args(name, value);
	}
	stmt->setstmt = set;
	AlterSystemSetConfigFile(stmt);
}

/*
 * pb_alter_system_try
 *		pb_alter_system() in a subtransaction of its own: returns false, with
 *		the error's message in *error, if it failed (an error in ALTER SYSTEM
 *		may leave its lock held until the (sub)transaction's abort).
 */
bool
pb_alter_system_try(const char *name, const char *value, char **error)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	volatile bool ok = true;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		pb_alter_system(name, value);
		ReleaseCurrentSubTransaction();
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		*error = edata->message;
		ok = false;
	}
	PG_END_TRY();
	MemoryContextSwitchTo(cxt);
	CurrentResourceOwner = owner;
	return ok;
}

/*
 * pb_reload_signal
 *		Ask the postmaster to reload, as pg_reload_conf() does, without
 *		waiting; false if the signal could not be sent.
 */
bool
pb_reload_signal(void)
{
	return kill(PostmasterPid, SIGHUP) == 0;
}

/*
 * pb_reload_and_wait
 *		pg_reload_conf(), then wait until the postmaster has read the file
 *		again: it tells every backend, this one too, once it has, and the
 *		workers it starts from then on have the new values.
 */
void
pb_reload_and_wait(void)
{
	TimestampTz deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
													   PB_RELOAD_TIMEOUT_MS);

	ConfigReloadPending = false;
	if (!pb_reload_signal())
		ereport(ERROR,
				(errmsg("could not send a reload signal to the postmaster: %m")));
	while (!ConfigReloadPending)
	{
		if (GetCurrentTimestamp() >= deadline)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("the server did not reload its configuration within %d s",
							PB_RELOAD_TIMEOUT_MS / 1000)));
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 10, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	ConfigReloadPending = false;
	ProcessConfigFile(PGC_SIGHUP);
}
