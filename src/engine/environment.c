/*-------------------------------------------------------------------------
 *
 * environment.c
 *	  Where a run ran, recorded with it: the server's version and the build
 *	  options that bear on a benchmark, polarbench's version, the settings
 *	  whose source is not the default, the extensions, the machine as the
 *	  server sees it, the data set, and who recorded the run and when.  Two
 *	  runs compare alike only when these agree; polarbench_compare and the
 *	  sweep tables say where they do not (polarbench_environment_diff()).
 *
 * It is made once per run, in the caller, just before the launch, as one
 * JSON object that travels with the run's configuration to the recorder,
 * which writes it into the run's row: a few catalog reads, a few small
 * files, no table scan.
 *
 * The settings are those a new session of the run's clients starts with:
 * the server's (configuration files, command line, environment) and the
 * database's and role's (ALTER DATABASE / ROLE ... SET), as the caller's
 * session would RESET them; not the caller's own SETs, nor what its
 * client sent at connection (application_name...), which the clients do
 * not have; the run's own settings are recorded apart.  The values of the
 * parameters only superusers may see are read as the bootstrap superuser,
 * and the views show them as pg_settings would to each role
 * (polarbench_shown_settings()), as they do the run's settings.
 *
 * The machine is what the server's process can read of its host: the
 * CPUs online and the physical memory (sysconf), the CPU's model (Linux's
 * /proc/cpuinfo), and the limits of its cgroup (cgroup v2).  What lies
 * outside (a virtual machine's real host and its neighbours, CPU frequency
 * scaling, the storage and its caches) it cannot see, and says so.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <unistd.h>

#include "catalog/namespace.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "storage/fd.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"
#include "utils/json.h"
#include "utils/lsyscache.h"

#include "compat.h"
#include "engine.h"
#include "safe_sql.h"

/* What the machine's figures come from, and what they cannot show */
#define PB_MACHINE_SOURCE \
	"the server's process: sysconf() for the CPUs online and the physical memory, /proc/cpuinfo for the CPU's model, its cgroup v2 files for its limits"
#define PB_MACHINE_UNSEEN \
	"A virtual machine's real host and its neighbours, CPU frequency scaling, the storage and its caches, and limits other than cgroup v2's are not seen from the server."

/*
 * pb_env_key
 *		Append "key": to a JSON object being written, after a comma when it
 *		is not the first.
 */
static void
pb_env_key(StringInfo out, const char *key)
{
	if (out->len > 0 && out->data[out->len - 1] != '{')
		appendStringInfoString(out, ", ");
	escape_json(out, key);
	appendStringInfoString(out, ": ");
}

/* Append "key": "value" (null for NULL). */
static void
pb_env_text(StringInfo out, const char *key, const char *value)
{
	pb_env_key(out, key);
	if (value == NULL)
		appendStringInfoString(out, "null");
	else
		escape_json(out, value);
}

/*
 * pb_env_read_line
 *		The first line of a small file that starts with prefix (all of the
 *		first line when prefix is ""), without its end of line; NULL when the
 *		file cannot be read or has no such line.
 */
static char *
pb_env_read_line(const char *path, const char *prefix)
{
	FILE	   *file = AllocateFile(path, "r");
	char		line[1024];
	char	   *found = NULL;

	if (file == NULL)
		return NULL;
	while (fgets(line, sizeof(line), file) != NULL)
		if (strncmp(line, prefix, strlen(prefix)) == 0)
		{
			found = pstrdup(line + strlen(prefix));
			found[strcspn(found, "\n")] = '\0';
			break;
		}
	FreeFile(file);
	return found;
}

/*
 * pb_env_cpu_model
 *		The CPU's model as /proc/cpuinfo names it ("model name", or "Model"
 *		on ARM), NULL where there is none.
 */
static char *
pb_env_cpu_model(void)
{
	static const char *const keys[] = {"model name", "Model", "cpu model"};

	for (int i = 0; i < lengthof(keys); i++)
	{
		char	   *line = pb_env_read_line("/proc/cpuinfo", keys[i]);
		char	   *colon;

		if (line == NULL || (colon = strchr(line, ':')) == NULL)
			continue;
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		return colon;
	}
	return NULL;
}

/*
 * pb_env_machine
 *		Append the machine's object: its CPUs, their model, its memory, the
 *		limits of the server's cgroup where there are any, the host's name,
 *		where these come from and what they cannot show.
 */
static void
pb_env_machine(StringInfo out)
{
	long		cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long		pages = sysconf(_SC_PHYS_PAGES);
	long		page_size = sysconf(_SC_PAGESIZE);
	char		host[256];
	char	   *cgroup = pb_env_read_line("/proc/self/cgroup", "0::");

	pb_env_key(out, "machine");
	appendStringInfoChar(out, '{');
	if (gethostname(host, sizeof(host)) == 0)
	{
		host[sizeof(host) - 1] = '\0';
		pb_env_text(out, "host", host);
	}
	pb_env_key(out, "cpus");
	if (cpus > 0)
		appendStringInfo(out, "%ld", cpus);
	else
		appendStringInfoString(out, "null");
	pb_env_text(out, "cpu_model", pb_env_cpu_model());
	pb_env_key(out, "memory");
	if (pages > 0 && page_size > 0)
		appendStringInfo(out, INT64_FORMAT, (int64) pages * page_size);
	else
		appendStringInfoString(out, "null");
	if (cgroup != NULL)
	{
		char	   *cpu_max = pb_env_read_line(psprintf("/sys/fs/cgroup%s/cpu.max", cgroup), "");
		char	   *memory_max = pb_env_read_line(psprintf("/sys/fs/cgroup%s/memory.max", cgroup), "");
		double		quota;
		double		period;

		/* "max 100000" is no limit; "200000 100000" is two CPUs' time */
		if (cpu_max != NULL && sscanf(cpu_max, "%lf %lf", &quota, &period) == 2 &&
			period > 0)
		{
			pb_env_key(out, "cgroup_cpus");
			appendStringInfo(out, "%g", quota / period);
		}
		if (memory_max != NULL && memory_max[0] >= '0' && memory_max[0] <= '9')
		{
			pb_env_key(out, "cgroup_memory");
			appendStringInfoString(out, memory_max);
		}
	}
	pb_env_text(out, "source", PB_MACHINE_SOURCE);
	pb_env_text(out, "unseen", PB_MACHINE_UNSEEN);
	appendStringInfoChar(out, '}');
}

/*
 * pb_env_settings
 *		Append the settings a new session of the run's clients starts with
 *		that do not come from the defaults, as an object of name and value
 *		in SHOW's form.  Those this session changed (the caller's SETs, the
 *		run's settings) are reset for the reading, in a GUC nesting level
 *		popped after it, as a function's SET clause is.
 */
static void
pb_env_settings(StringInfo out)
{
	struct config_generic **vars;
	int			nvars;
	int			nest = NewGUCNestLevel();
	bool		first = true;

	vars = PB_GUC_VARIABLES(&nvars);
	for (int i = 0; i < nvars; i++)
	{
		struct config_generic *record = vars[i];

		if ((record->flags & (GUC_NO_SHOW_ALL | GUC_NO_RESET_ALL | GUC_CUSTOM_PLACEHOLDER)) ||
			record->source <= record->reset_source)
			continue;
		/* as RESET would, whoever the caller: its reset value is no choice of its own */
		(void) set_config_option(record->name, NULL, PGC_SUSET, PGC_S_SESSION,
								 GUC_ACTION_SAVE, true, DEBUG1, false);
	}

	/* the reset may have reordered nothing, but read the list afresh */
	vars = PB_GUC_VARIABLES(&nvars);
	pb_env_key(out, "settings");
	appendStringInfoChar(out, '{');
	for (int i = 0; i < nvars; i++)
	{
		struct config_generic *record = vars[i];
		char	   *value;

		if ((record->flags & (GUC_NO_SHOW_ALL | GUC_CUSTOM_PLACEHOLDER)) ||
			record->source <= PGC_S_DYNAMIC_DEFAULT ||
			record->source == PGC_S_CLIENT || record->source == PGC_S_OVERRIDE ||
			record->source >= PGC_S_INTERACTIVE)
			continue;
		value = pb_setting_shown_value(record->name);
		if (value == NULL)
			continue;
		if (!first)
			appendStringInfoString(out, ", ");
		first = false;
		escape_json(out, record->name);
		appendStringInfoString(out, ": ");
		escape_json(out, value);
	}
	appendStringInfoChar(out, '}');
	AtEOXact_GUC(true, nest);
}

/*
 * pb_env_dataset
 *		Append the data set the run works on, as its driver describes it
 *		(its name, size and tables), with what the catalogs say of the
 *		tables the run's search_path finds: their size on disk (of every
 *		partition, with indexes and TOAST; pg_partition_tree() lists no
 *		table that is not partitioned), their partitions and how they are
 *		partitioned, and, on a Citus coordinator, how they are distributed.
 *		null when the driver does not say.
 */
static void
pb_env_dataset(StringInfo out, const PbRunConfig *config)
{
	const PbDriver *driver = pb_driver(config->kind);
	char	   *described;
	Jsonb	   *jb;
	JsonbValue *tables;
	Oid		   *relids;
	int			nrels = 0;
	Datum		args[2];
	Oid			types[2] = {OIDARRAYOID, TEXTOID};

	pb_env_key(out, "dataset");
	if (driver->dataset == NULL || (described = driver->dataset(config)) == NULL)
	{
		appendStringInfoString(out, "null");
		return;
	}
	jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(described)));
	tables = getKeyJsonValueFromContainer(&jb->root, "table_names", 11, NULL);
	relids = palloc(sizeof(Oid) * 64);
	if (tables != NULL && tables->type == jbvBinary &&
		JsonContainerIsArray(tables->val.binary.data))
	{
		JsonbIterator *it = JsonbIteratorInit(tables->val.binary.data);
		JsonbValue	v;
		JsonbIteratorToken tok;

		while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
		{
			Oid			relid;

			if (tok != WJB_ELEM || v.type != jbvString)
				continue;
			/* found as the clients will find it, with the run's search_path */
			relid = RangeVarGetRelid(makeRangeVar(NULL, pnstrdup(v.val.string.val,
																 v.val.string.len), -1),
									 NoLock, true);
			if (OidIsValid(relid))
			{
				if (nrels > 0 && nrels % 64 == 0)
					relids = repalloc(relids, sizeof(Oid) * (nrels + 64));
				relids[nrels++] = relid;
			}
		}
	}
	{
		Datum	   *elems = palloc(sizeof(Datum) * Max(nrels, 1));

		for (int i = 0; i < nrels; i++)
			elems[i] = ObjectIdGetDatum(relids[i]);
		args[0] = PointerGetDatum(construct_array(elems, nrels, OIDOID, sizeof(Oid),
												  true, TYPALIGN_INT));
	}
	args[1] = CStringGetTextDatum(described);
	if (pb_spi_execute_safe("WITH found AS ("
							"  SELECT c.oid, c.relname, n.nspname"
							"    FROM pg_catalog.pg_class c"
							"    JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace"
							"   WHERE c.oid OPERATOR(pg_catalog.=) ANY ($1)),"
							" leaves AS ("
							"  SELECT f.oid AS top, coalesce(t.relid, f.oid) AS relid"
							"    FROM found f LEFT JOIN LATERAL pg_catalog.pg_partition_tree(f.oid) t ON true"
							"   WHERE t.isleaf OR t.relid IS NULL)"
							" SELECT ($2::pg_catalog.jsonb OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object("
							"   'table_names', (SELECT coalesce(pg_catalog.jsonb_agg(f.relname ORDER BY f.relname), '[]') FROM found f),"
							"   'schemas', (SELECT coalesce(pg_catalog.jsonb_agg(DISTINCT f.nspname), '[]') FROM found f),"
							"   'bytes', (SELECT coalesce(pg_catalog.sum(pg_catalog.pg_total_relation_size(l.relid)), 0) FROM leaves l),"
							"   'partitions', (SELECT pg_catalog.count(*) FROM leaves l WHERE l.relid OPERATOR(pg_catalog.<>) l.top),"
							"   'partitioned', (SELECT coalesce(pg_catalog.jsonb_object_agg(f.relname,"
							"         CASE p.partstrat WHEN 'r' THEN 'range' WHEN 'h' THEN 'hash' WHEN 'l' THEN 'list' END), '{}')"
							"       FROM found f JOIN pg_catalog.pg_partitioned_table p"
							"         ON p.partrelid OPERATOR(pg_catalog.=) f.oid)))::pg_catalog.text",
							2, types, args, true, 1) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not read the data set's tables");
	described = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);

	/* on a Citus coordinator, how each table is spread over the nodes */
	if (OidIsValid(get_relname_relid("pg_dist_partition", PG_CATALOG_NAMESPACE)))
	{
		args[1] = CStringGetTextDatum(described);
		if (pb_spi_execute_safe("SELECT ($2::pg_catalog.jsonb OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object("
								"   'distribution', (SELECT coalesce(pg_catalog.jsonb_object_agg(c.relname,"
								"         CASE WHEN d.partmethod OPERATOR(pg_catalog.=) 'h' THEN 'distributed by hash'"
								"              WHEN d.repmodel OPERATOR(pg_catalog.=) 't' THEN 'reference'"
								"              ELSE 'Citus local' END), '{}')"
								"       FROM pg_catalog.pg_dist_partition d"
								"       JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) d.logicalrelid"
								"      WHERE d.logicalrelid OPERATOR(pg_catalog.=) ANY ($1))))::pg_catalog.text",
								2, types, args, true, 1) == SPI_OK_SELECT && SPI_processed == 1)
			described = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	}
	appendStringInfoString(out, described);
}

/*
 * pb_environment
 *		In the caller, just before the launch, with the run's settings
 *		applied: the run's environment as a JSON object (see the file's
 *		header).
 */
char *
pb_environment(const PbRunConfig *config)
{
	StringInfoData out;
	Oid			types[1] = {BOOLOID};
	Datum		args[1];

	/* whether the server was built with LLVM, for JIT: as this library was */
#ifdef USE_LLVM
	args[0] = BoolGetDatum(true);
#else
	args[0] = BoolGetDatum(false);
#endif
	initStringInfo(&out);
	SPI_connect();
	if (pb_spi_execute_safe("SELECT pg_catalog.jsonb_build_object("
							"  'server', pg_catalog.jsonb_build_object("
							"    'version', pg_catalog.current_setting('server_version'),"
							"    'version_num', pg_catalog.current_setting('server_version_num')::pg_catalog.int4,"
							"    'build', pg_catalog.version(),"
							"    'block_size', pg_catalog.current_setting('block_size')::pg_catalog.int4,"
							"    'wal_block_size', pg_catalog.current_setting('wal_block_size')::pg_catalog.int4,"
							"    'segment_size', pg_catalog.current_setting('segment_size'),"
							"    'wal_segment_size', pg_catalog.current_setting('wal_segment_size'),"
							"    'assertions', pg_catalog.current_setting('debug_assertions')::pg_catalog.bool,"
							"    'data_checksums', pg_catalog.current_setting('data_checksums')::pg_catalog.bool,"
							"    'jit', pg_catalog.current_setting('jit')::pg_catalog.bool,"
							"    'jit_available', pg_catalog.pg_jit_available(),"
							"    'in_recovery', pg_catalog.pg_is_in_recovery(),"
							"    'llvm', $1),"
							"  'polarbench', pg_catalog.jsonb_build_object('version',"
							"    (SELECT e.extversion FROM pg_catalog.pg_extension e"
							"      WHERE e.extname OPERATOR(pg_catalog.=) 'polarbench')),"
							"  'extensions', (SELECT pg_catalog.jsonb_object_agg(e.extname, e.extversion)"
							"                  FROM pg_catalog.pg_extension e),"
							"  'database', pg_catalog.current_database(),"
							"  'recorded_by', CURRENT_USER,"
							"  'recorded_at', pg_catalog.now())::pg_catalog.text",
							1, types, args, true, 1) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not read the run's environment");
	appendStringInfoString(&out, SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1));
	/* the object's closing brace comes off: the rest go in after */
	out.data[--out.len] = '\0';
	pb_env_settings(&out);
	pb_env_machine(&out);
	pb_env_dataset(&out, config);
	appendStringInfoChar(&out, '}');
	SPI_finish();
	return out.data;
}
