# ALTER EXTENSION polarbench UPDATE keeps a user's recorded runs, and the
# updated extension is the one a fresh CREATE EXTENSION makes: the same
# objects, definitions, privileges and dumped tables.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('upgrade');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 8\n");
$node->start;

# Everything the extension is made of, one line per fact, in a stable order.
my $catalog = q{
WITH ext AS (SELECT oid, extconfig FROM pg_extension WHERE extname = 'polarbench'),
members AS (
	SELECT d.classid, d.objid FROM pg_depend d, ext
	 WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid
	   AND d.deptype = 'e')
SELECT line FROM (
	SELECT 'object ' || pg_describe_object(classid, objid, 0) AS line FROM members
	UNION ALL
	SELECT 'function ' || pg_get_functiondef(objid) || ' acl ' || coalesce(p.proacl::text, '-')
	  FROM members m JOIN pg_proc p ON p.oid = m.objid WHERE m.classid = 'pg_proc'::regclass
	UNION ALL
	SELECT 'view ' || c.relname || ' ' || pg_get_viewdef(c.oid) || ' acl ' || coalesce(c.relacl::text, '-')
	  FROM members m JOIN pg_class c ON c.oid = m.objid
	 WHERE m.classid = 'pg_class'::regclass AND c.relkind = 'v'
	UNION ALL
	SELECT 'relation ' || c.relname || ' ' || c.relkind::text || ' acl ' || coalesce(c.relacl::text, '-')
	  FROM members m JOIN pg_class c ON c.oid = m.objid WHERE m.classid = 'pg_class'::regclass
	UNION ALL
	SELECT 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
		   || ' ' || a.attnum || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
		   || coalesce(' default ' || pg_get_expr(ad.adbin, ad.adrelid), '')
	  FROM members m JOIN pg_class c ON c.oid = m.objid
	  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
	  LEFT JOIN pg_attrdef ad ON ad.adrelid = c.oid AND ad.adnum = a.attnum
	 WHERE m.classid = 'pg_class'::regclass
	UNION ALL
	SELECT 'column ' || t.typname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
		   || ' ' || a.attnum
	  FROM members m JOIN pg_type t ON t.oid = m.objid
	  JOIN pg_attribute a ON a.attrelid = t.typrelid AND a.attnum > 0
	 WHERE m.classid = 'pg_type'::regclass
	UNION ALL
	SELECT 'constraint ' || co.conrelid::regclass || ' ' || co.conname || ' ' || pg_get_constraintdef(co.oid)
	  FROM members m JOIN pg_constraint co ON co.conrelid = m.objid
	 WHERE m.classid = 'pg_class'::regclass
	UNION ALL
	SELECT 'index ' || pg_get_indexdef(i.indexrelid)
	  FROM members m JOIN pg_index i ON i.indrelid = m.objid
	 WHERE m.classid = 'pg_class'::regclass
	UNION ALL
	SELECT 'dumped ' || c::regclass FROM ext, unnest(ext.extconfig) c
) facts ORDER BY line};

# an old install, with a run recorded; its description is the one its
# release's polarbench.control gave CREATE EXTENSION, which an update keeps
# unless its script says otherwise
$node->safe_psql('postgres', q{
	CREATE EXTENSION polarbench VERSION '1.0';
	COMMENT ON EXTENSION polarbench IS 'in-database benchmark clients: pgbench, sysbench and YCSB workloads run by background workers';
	SELECT polarbench_init('pgbench', scale => 1);
});
$node->safe_psql('postgres', q{
	SELECT run_id FROM polarbench_run(script => 'SELECT 1;', clients => 2, transactions => 5)});
my $run = $node->safe_psql('postgres', q{
	SELECT run_id || ' ' || transactions || ' ' || status FROM polarbench_runs});
like($run, qr/^\d+ 10 finished$/, 'a run is recorded by version 1.0');
my $statements = $node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_statements');

# a role granted the old polarbench_run, which the update replaces
$node->safe_psql('postgres', q{
	CREATE ROLE alice;
	GRANT EXECUTE ON FUNCTION polarbench_run(text, int, float8, bigint, int, text, int,
		text[], int[], jsonb, bigint, int) TO alice});
my ($stdout, $stderr);
$node->psql('postgres', "ALTER EXTENSION polarbench UPDATE TO '1.1'",
	stdout => \$stdout, stderr => \$stderr, on_error_die => 1);
like($stderr, qr/polarbench_run is replaced: grant EXECUTE on it again to alice/,
	'the update to 1.1 says whose grant on polarbench_run to give again');
$node->safe_psql('postgres', q{
	GRANT EXECUTE ON FUNCTION polarbench_run(text, int, float8, bigint, int, text, int,
		text[], int[], jsonb, bigint, int, jsonb) TO alice});
is($node->safe_psql('postgres', q{
	SELECT run_id FROM polarbench_run(script => 'SELECT 1;', transactions => 2)}) > 0,
	1, 'version 1.1 records runs with the new library');
$node->psql('postgres', "ALTER EXTENSION polarbench UPDATE TO '1.2'",
	stdout => \$stdout, stderr => \$stderr, on_error_die => 1);
like($stderr, qr/polarbench_run is replaced: grant EXECUTE on it again to alice, and on polarbench_start and polarbench_sweep/,
	'the update to 1.2 says whose grants to give again');
is($node->safe_psql('postgres', q{SELECT extversion FROM pg_extension WHERE extname = 'polarbench'}),
	'1.2', 'ALTER EXTENSION UPDATE goes to 1.2');
$node->safe_psql('postgres', q{
	GRANT EXECUTE ON FUNCTION polarbench_run(text, int, float8, bigint, int, text, int,
		text[], int[], jsonb, bigint, int, jsonb, float8, float8, int, float8, boolean, jsonb, jsonb) TO alice;
	GRANT EXECUTE ON FUNCTION polarbench_start(text, int, float8, bigint, int, text, int,
		text[], int[], jsonb, bigint, int, jsonb, float8, float8, int, float8, boolean, jsonb, jsonb) TO alice;
	GRANT EXECUTE ON FUNCTION polarbench_sweep(text, int[], jsonb[], jsonb[], jsonb[],
		float8, bigint, int, float8, text, bigint, int, float8, float8, int, jsonb[]) TO alice});
is($node->safe_psql('postgres', q{
	SELECT run_id || ' ' || transactions || ' ' || status FROM polarbench_runs
	 ORDER BY run_id LIMIT 1}),
	$run, 'the recorded run is still there');
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM polarbench_runs r WHERE status = 'finished'
	   AND polarbench_report(r.run_id) LIKE '%tps = %'}),
	'2', 'and the runs of 1.0 and 1.1 are reported on');
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM polarbench_statements WHERE run_id = (SELECT min(run_id) FROM polarbench_runs)}),
	$statements,
	'with its per-command figures');
is($node->safe_psql('postgres', q{
	SELECT scripts FROM polarbench_runs ORDER BY run_id LIMIT 1}),
	'{"SELECT 1;"}', 'and its texts, to its role');
is($node->safe_psql('postgres', q{
	SELECT transactions FROM polarbench_run(script => 'SELECT 1;', transactions => 3)}),
	'3', 'runs go on being recorded');
is($node->safe_psql('postgres', q{
	SELECT transactions || ' ' || retried || ' ' || (latency_p999 IS NOT NULL)
	  FROM polarbench_run(script => 'SELECT 1;', transactions => 3, max_tries => 2)}),
	'3 0 true', 'with the figures of 1.2');
$node->safe_psql('postgres', q{SELECT polarbench_init('sysbench', table_size => 100)});
is($node->safe_psql('postgres', q{
	SELECT reads || ' ' || writes || ' ' || others
	  FROM polarbench_run('oltp_read_write', transactions => 2)}),
	'28 8 4', 'and the workloads of the new version run');

# 1.2 to 1.3: a run kept, and the runs of other nodes stored after it
my $runs12 = $node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs');
$node->safe_psql('postgres', "ALTER EXTENSION polarbench UPDATE TO '1.3'");
is($node->safe_psql('postgres', q{SELECT extversion FROM pg_extension WHERE extname = 'polarbench'}),
	'1.3', 'ALTER EXTENSION UPDATE goes on to 1.3');
is($node->safe_psql('postgres', 'SELECT count(*) || \' \' || count(node) FROM polarbench_runs'),
	"$runs12 0", 'every run of 1.2 is kept, none of them from another node');
is($node->safe_psql('postgres', q{
	SELECT polarbench_record(polarbench_run_document((SELECT max(run_id) FROM polarbench_runs)), 'other:5432') AS id \gset
	SELECT r.transactions || ' ' || r.node || ' ' || ((SELECT count(*) FROM polarbench_histograms h WHERE h.run_id = r.run_id) > 0)
	  FROM polarbench_runs r WHERE run_id = :id}),
	'2 other:5432 true', 'a run of another node is stored, with its histogram');
$node->safe_psql('postgres', 'GRANT EXECUTE ON FUNCTION polarbench_record(jsonb, text) TO alice');

# 1.3 to 1.4: the runs kept; a superuser-only parameter's value shown only
# to those who may read it, as pg_settings shows it
$node->safe_psql('postgres', q{
	SELECT run_id FROM polarbench_run(script => 'SELECT 1;', transactions => 2,
		settings => '{"dynamic_library_path": "$libdir"}')});
my $runs13 = $node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs');
# polarbench_init of 1.3, granted; 1.4 replaces it (warehouses, for TPC-C)
$node->safe_psql('postgres', q{
	GRANT EXECUTE ON FUNCTION polarbench_init(text, int, int, int, bigint, int, int, int, int,
		boolean, int, text, boolean, boolean, boolean, boolean) TO alice});
$node->psql('postgres', "ALTER EXTENSION polarbench UPDATE TO '1.4'",
	stdout => \$stdout, stderr => \$stderr, on_error_die => 1);
is($node->safe_psql('postgres', q{SELECT extversion FROM pg_extension WHERE extname = 'polarbench'}),
	'1.4', 'ALTER EXTENSION UPDATE goes on to 1.4');
like($stderr, qr/the privileges granted on polarbench_run and polarbench_start are dropped with them.*GRANT EXECUTE ON FUNCTION public\.polarbench_run TO alice;.*GRANT EXECUTE ON FUNCTION public\.polarbench_start TO alice;/s,
	'the update to 1.4 gives the grants to make again');
like($stderr, qr/the privileges granted on polarbench_init are dropped with it.*GRANT EXECUTE ON FUNCTION public\.polarbench_init TO alice;/s,
	'and those on polarbench_init');
is($node->safe_psql('postgres', q{
	SELECT string_agg(name, ' ' ORDER BY name) FROM polarbench_datasets}),
	'pgbench sysbench tpcc ycsb', 'the data sets of 1.4, TPC-C\'s among them');
$node->safe_psql('postgres', 'GRANT EXECUTE ON FUNCTION polarbench_init TO alice');
is($node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs'), $runs13,
	'every run of 1.3 is kept');
like($node->safe_psql('postgres', q{
	SELECT polarbench_report(max(run_id)) FROM polarbench_runs}),
	qr/^transaction type: custom$/m,
	'a run of an earlier version is reported on with its scripts\' names');
$node->safe_psql('postgres', q{
	CREATE ROLE carol;
	GRANT alice TO carol;
	GRANT pg_read_all_stats TO carol});
is($node->safe_psql('postgres', q{
	SET ROLE carol;
	SELECT settings->>'dynamic_library_path' FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	'<insufficient privilege>', 'a superuser-only value of 1.3\'s run is hidden from a role that may read its texts');
is($node->safe_psql('postgres', q{
	SELECT settings->>'dynamic_library_path' FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	'$libdir', 'and shown to a superuser');
$node->safe_psql('postgres', q{
	GRANT EXECUTE ON FUNCTION polarbench_run TO alice;
	GRANT EXECUTE ON FUNCTION polarbench_start TO alice;
	ALTER ROLE alice LOGIN});
$node->safe_psql('postgres', q{
	SET ROLE alice;
	SELECT run_id FROM polarbench_run(scripts => ARRAY['SELECT 1', 'SELECT 2'],
		script_names => ARRAY['one.sql', 'two.sql'], transactions => 2)});
like($node->safe_psql('postgres', q{
	SELECT polarbench_report(max(run_id)) FROM polarbench_runs}),
	qr/^SQL script 1: one\.sql\n.*^SQL script 2: two\.sql$/ms,
	'granted again, the role runs scripts named for the report');

# 1.4 to 1.5: the runs kept; they have no grace and counted no cut-off
# transaction, which the reports and documents take as none (a run with a
# duration recorded by the new library into 1.4's tables, before the
# update); polarbench_init replaced in place (its grant kept), its data
# sets' defaults shown as before, though the signature's are NULL now; a
# grant on polarbench_datasets, which is made again, named to be given
# again; a pgbench run recorded without the scale it read (as 1.4's
# library recorded them: no figures) reported with the scale it was given
my $scaled = $node->safe_psql('postgres', q{
	SELECT run_id FROM polarbench_run(script => 'SELECT :scale;', vars => '{"scale": 3}',
									  transactions => 1)});
$node->safe_psql('postgres', "UPDATE polarbench_run_data SET figures = NULL WHERE run_id = $scaled");
$node->safe_psql('postgres', q{
	SELECT run_id FROM polarbench_run(script => 'SELECT 1;', duration => 0.2)});
# an aborted run (exit_on_abort false) goes into 1.4's table, which knows
# no status 'aborted', as failed, with its error (then it goes: the tests
# below compare the last run of 1.4, a finished one)
my $aborted = $node->safe_psql('postgres', q{
	SELECT run_id FROM polarbench_run(script => 'SELECT 1 / 0;', transactions => 2,
									  options => '{"exit_on_abort": false}')});
is($node->safe_psql('postgres', qq{
	SELECT status || ' ' || error_sqlstate FROM polarbench_runs WHERE run_id = $aborted}),
	'failed 22012', 'an aborted run is recorded failed in the table of 1.4');
$node->safe_psql('postgres', "DELETE FROM polarbench_run_data WHERE run_id = $aborted");
my $runs14 = $node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs');
my $datasets = q{SELECT string_agg(name || ' ' || options::text, E'\n' ORDER BY name) FROM polarbench_datasets};
my $datasets14 = $node->safe_psql('postgres', $datasets);
$node->safe_psql('postgres', 'GRANT SELECT ON polarbench_datasets TO alice');
$node->psql('postgres', 'ALTER EXTENSION polarbench UPDATE',
	stdout => \$stdout, stderr => \$stderr, on_error_die => 1);
is($node->safe_psql('postgres', q{SELECT extversion FROM pg_extension WHERE extname = 'polarbench'}),
	'1.5', 'ALTER EXTENSION UPDATE goes on to 1.5');
like($stderr, qr/the privileges granted on polarbench_run, polarbench_start and polarbench_sweep are dropped with them.*GRANT EXECUTE ON FUNCTION public\.polarbench_run TO alice;.*GRANT EXECUTE ON FUNCTION public\.polarbench_start TO alice;.*GRANT EXECUTE ON FUNCTION public\.polarbench_sweep TO alice;/s,
	'the update to 1.5 gives the grants to make again (the three take end_grace)');
$node->safe_psql('postgres', q{
	GRANT EXECUTE ON FUNCTION polarbench_run TO alice;
	GRANT EXECUTE ON FUNCTION polarbench_start TO alice;
	GRANT EXECUTE ON FUNCTION polarbench_sweep TO alice});
is($node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs'), $runs14,
	'every run of 1.4 is kept');
like($stderr, qr/the privileges granted on polarbench_dataset_list and polarbench_datasets are dropped with them.*GRANT SELECT ON public\.polarbench_datasets TO alice;/s,
	'the update to 1.5 gives the grant on polarbench_datasets to make again');
is($node->safe_psql('postgres', $datasets), $datasets14,
	'the data sets\' arguments have the defaults they had, from the library now');
like($datasets14, qr/"name": "partition_method", "type": "text", "default": "range"/,
	'a default, as 1.4 showed it');
like($stderr, qr/the privileges granted on polarbench_init are dropped with it.*GRANT EXECUTE ON FUNCTION public\.polarbench_init TO alice;/s,
	'the update to 1.5 gives the grant on polarbench_init to make again (it takes distributed and shard_count)');
$node->safe_psql('postgres', 'GRANT EXECUTE ON FUNCTION polarbench_init TO alice');
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM polarbench_runs WHERE cut_off IS NULL AND end_grace IS NULL}),
	$runs14, 'the runs of 1.4 have no grace nor cut-off count of their own');
my $run14 = $node->safe_psql('postgres', q{SELECT max(run_id) FROM polarbench_runs});
unlike($node->safe_psql('postgres', "SELECT polarbench_report($run14)"), qr/cut off/,
	'a run of 1.4 is reported on with nothing cut off');
is($node->safe_psql('postgres', qq{
	SELECT polarbench_record(polarbench_run_document($run14), 'other:5432') AS stored \\gset
	SELECT cut_off IS NULL FROM polarbench_runs WHERE run_id = :stored}),
	't', 'and its document is stored again as it is');
like($node->safe_psql('postgres', q{
	SELECT run_id || ' ' || cut_off
	  FROM polarbench_run(script => 'SELECT 1;', duration => 0.2, end_grace => 2)}),
	qr/^\d+ 0$/, 'a run of 1.5 returns what it cut off');
is($node->safe_psql('postgres', q{
	SELECT end_grace || ' ' || cut_off FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	'2 0', 'and records it with its grace');
like($node->safe_psql('postgres', "SELECT polarbench_report($scaled)"), qr/^scaling factor: 3$/m,
	'a run of 1.4 is reported with the scale it was given');

# the runs of 1.4 recorded no environment, and say so, in the view, the
# reports and the comparisons; a run of 1.5 records one
is($node->safe_psql('postgres', qq{
	SELECT count(*) FROM polarbench_environments
	 WHERE run_id <= $run14 AND NOT recorded
	   AND note LIKE 'not recorded: the run was recorded before polarbench 1.5%'}),
	$runs14, 'the runs of 1.4 have no environment, and the view says so');
like($node->safe_psql('postgres', qq{SELECT polarbench_report($run14, NULL, '{"environment": true}')}),
	qr/^environment:\n  environment: not recorded: the run was recorded before polarbench 1\.5/m,
	'a report of a run of 1.4 says it has no environment');
my $run15 = $node->safe_psql('postgres', q{
	SELECT run_id FROM polarbench_run(script => 'SELECT 1;', transactions => 1)});
is($node->safe_psql('postgres', qq{
	SELECT recorded AND server_version = current_setting('server_version')
	  FROM polarbench_environments WHERE run_id = $run15}),
	't', 'a run of 1.5 records its environment');
is($node->safe_psql('postgres', qq{
	SELECT item || ': ' || value_a || ' / ' || value_b
	  FROM polarbench_environment_diff(ARRAY[$run14], ARRAY[$run15])}),
	'environment: not recorded / recorded', 'a comparison with a run of 1.4 says which side has none');
is($node->safe_psql('postgres', qq{
	SELECT part || ': ' || note FROM polarbench_compare($run14, $run15) WHERE metric = 'environment'}),
	'environment: A: not recorded; B: recorded', 'and so does polarbench_compare');

# a fresh install of the newest version, in another database
$node->safe_psql('postgres', 'CREATE DATABASE fresh');
$node->safe_psql('fresh', q{
	CREATE EXTENSION polarbench;
	GRANT EXECUTE ON FUNCTION polarbench_run TO alice;
	GRANT EXECUTE ON FUNCTION polarbench_start TO alice;
	GRANT EXECUTE ON FUNCTION polarbench_sweep TO alice;
	GRANT EXECUTE ON FUNCTION polarbench_record(jsonb, text) TO alice;
	GRANT EXECUTE ON FUNCTION polarbench_init TO alice});
my $updated = $node->safe_psql('postgres', $catalog);
my $fresh = $node->safe_psql('fresh', $catalog);
ok(length($fresh) > 1000, 'the catalog description is not empty');
is($updated, $fresh, 'the updated extension is the same as a fresh install');
my $description = q{SELECT obj_description(oid, 'pg_extension') FROM pg_extension WHERE extname = 'polarbench'};
is($node->safe_psql('postgres', $description), $node->safe_psql('fresh', $description),
	'the updated extension has the description of a fresh install');

$node->stop;
done_testing();
