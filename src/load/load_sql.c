/*-------------------------------------------------------------------------
 *
 * load_sql.c
 *	  The small SQL helpers the data sets share, and the names a load
 *	  gives its relations: their own, or in a parallel load's workers a
 *	  staging name (see load_staging.c), "pbload_<xid>_" and the name.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "access/table.h"
#include "access/xact.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "load.h"
#include "safe_sql.h"

/*
 * Run one SQL command through SPI (connected by the caller), as the
 * current user.  The command is built like printf, its relations named
 * with their schemas; it runs with polarbench's own search_path
 * (safe_sql.c), so that a type it names (text) or an operator of a
 * constraint is pg_catalog's whatever the caller's path holds.
 */
void
pb_loader_sql(const char *fmt,...)
{
	StringInfoData buf;
	int			ret;

	initStringInfo(&buf);
	for (;;)
	{
		va_list		args;
		int			needed;

		va_start(args, fmt);
		needed = appendStringInfoVA(&buf, fmt, args);
		va_end(args);
		if (needed == 0)
			break;
		enlargeStringInfo(&buf, needed);
	}
	ret = pb_spi_execute_safe(buf.data, 0, NULL, NULL, false, 0);
	if (ret < 0)
		elog(ERROR, "SPI_execute failed with code %d: %s", ret, buf.data);
	pfree(buf.data);
}

/*
 * OID of table name in the load's schema, which must exist.
 */
Oid
pb_loader_relid(const PbLoadOptions *opts, const char *name)
{
	Oid			relid = get_relname_relid(pb_loader_name(opts, name),
										  opts->nspid);

	if (!OidIsValid(relid))
		elog(ERROR, "table \"%s\" was not created", name);
	return relid;
}

/*
 * OID of the primary key index of table relid, which the load gave it.
 * Whether it is the table's only index is pb_bulk_begin()'s to check.
 */
Oid
pb_loader_primary_key(Oid relid)
{
	Relation	rel = table_open(relid, AccessShareLock);
	Oid			index = RelationGetPrimaryKeyIndex(rel);

	if (!OidIsValid(index))
		elog(ERROR, "table \"%s\" has no primary key",
			 RelationGetRelationName(rel));
	table_close(rel, AccessShareLock);
	return index;
}

/*
 * The name a relation of the load gets: its own, or in a parallel load's
 * worker its staging name (see load_staging.c).
 */
const char *
pb_loader_name(const PbLoadOptions *opts, const char *name)
{
	if (opts->staging_prefix[0] == '\0')
		return name;
	return psprintf("%s%s", opts->staging_prefix, name);
}

/*
 * Schema-qualified, quoted name of table name, for SQL commands; a staging
 * name in a parallel load's worker.
 */
char *
pb_loader_qualify(const PbLoadOptions *opts, const char *name)
{
	return quote_qualified_identifier(opts->nspname,
									  pb_loader_name(opts, name));
}

/*
 * A bpchar datum of len times character c.  Used for constant fillers.
 */
char *
pb_loader_bpchar_fill(int len, char c)
{
	char	   *result = palloc(VARHDRSZ + len);

	SET_VARSIZE(result, VARHDRSZ + len);
	memset(VARDATA(result), c, len);
	return result;
}

/*
 * The fillfactor clause for CREATE TABLE: always when asked (pgbench
 * writes it whatever its value), otherwise only for a non-default value.
 */
const char *
pb_loader_with(const PbLoadOptions *opts, bool always)
{
	if (!always && opts->fillfactor == 100)
		return "";
	return psprintf(" with (fillfactor=%d)", opts->fillfactor);
}

/*
 * pb_distributed_table
 *		How a table is laid out on a Citus cluster: distributed by column
 *		(colocated with colocate_with, or in a group of its own when NULL),
 *		or a reference table when column is NULL.
 */
PbDistributedTable *
pb_distributed_table(const char *table, const char *column,
					 const char *colocate_with)
{
	PbDistributedTable *t = palloc0(sizeof(PbDistributedTable));

	t->table = table;
	t->column = column;
	t->colocate_with = colocate_with;
	return t;
}

/*
 * pb_staging_set_prefix
 *		Give opts the staging prefix of the current transaction, which gets
 *		a transaction id if it has none.
 */
void
pb_staging_set_prefix(PbLoadOptions *opts)
{
	FullTransactionId fxid = GetTopFullTransactionId();

	snprintf(opts->staging_prefix, sizeof(opts->staging_prefix),
			 PB_STAGING_PREFIX UINT64_FORMAT "_", U64FromFullTransactionId(fxid));
}

/*
 * pb_staging_parse
 *		The transaction id in a staging name, and where the final name
 *		starts in it; false if relname is not a staging name.
 */
bool
pb_staging_parse(const char *relname, uint64 *fxid, const char **final)
{
	size_t		len = strlen(PB_STAGING_PREFIX);
	char	   *end;

	if (strncmp(relname, PB_STAGING_PREFIX, len) != 0 ||
		!isdigit((unsigned char) relname[len]))
		return false;
	errno = 0;
	*fxid = strtou64(relname + len, &end, 10);
	if (errno != 0 || *end != '_')
		return false;
	*final = end + 1;
	return true;
}

/*
 * pb_staging_final_name
 *		The name a relation will have once its load is done: relname
 *		without its staging prefix.  For messages.
 */
const char *
pb_staging_final_name(const char *relname)
{
	uint64		fxid;
	const char *final;

	return pb_staging_parse(relname, &fxid, &final) ? final : relname;
}
