# The command-line client, src/client/polarbench, run against a node: help and
# version, option errors, -i, built-in and custom scripts with -D, pgbench's
# report lines, -r, -P progress on stderr, a script syntax error caught
# before any run, a failed run and a canceled one (exit status 2), and
# sysbench's and YCSB's workloads with their tools' options and reports.
use strict;
use warnings;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# the client as built in the build tree
my $bin = "$ENV{TESTDIR}/src/client/polarbench";
plan skip_all => "client not built: $bin" unless -x $bin;

my $node = PostgreSQL::Test::Cluster->new('client');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION polarbench');

# the client finds the node through libpq's environment
$ENV{PGHOST} = $node->host;
$ENV{PGPORT} = $node->port;
$ENV{PGDATABASE} = 'postgres';

my $tmp = PostgreSQL::Test::Utils::tempdir;

sub run_count
{
	return $node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs');
}

sub last_run
{
	return $node->safe_psql('postgres', q{
		SELECT status FROM polarbench_runs ORDER BY run_id DESC LIMIT 1});
}

# pgbench's progress line
my $progress_re =
  qr/^progress: \d+\.\d s, \d+\.\d tps, lat \d+\.\d{3} ms stddev \d+\.\d{3}, \d+ failed$/m;

# 1. help, version, option errors
program_help_ok($bin);
program_version_ok($bin);
program_options_handling_ok($bin);
command_like([ $bin, '--help' ], qr/^Usage:\n  polarbench \[OPTION\]\.\.\. \[DBNAME\]$/m,
	'--help shows usage');
command_like([ $bin, '-V' ], qr/^polarbench \d+\.\d+ \(PostgreSQL /, '-V shows version');
command_fails_like([ $bin, '--no-such-option' ],
	qr/Try "polarbench --help" for more information/, 'unknown option: hint');
command_fails_like([ $bin, '-c', '0' ], qr/-c\/--clients must be in range/,
	'clients out of range');
command_fails_like([ $bin, '-t', '10', '-T', '10' ],
	qr/specify either a number of transactions \(-t\) or a duration \(-T\), not both/,
	'-t and -T together');
command_fails_like([ $bin, '-b', 'no-such-script' ],
	qr/no builtin script found for name "no-such-script"/, 'unknown built-in');
command_fails_like([ $bin, '-b', 's' ], qr/ambiguous builtin name/,
	'ambiguous built-in prefix');
command_fails_like([ $bin, '-D', 'novalue' ],
	qr/invalid variable definition: "novalue"/, 'bad -D');
command_fails_like([ $bin, '-S', '-b', 'select-only@x' ],
	qr/invalid weight specification/, 'bad weight');
command_fails_like([ $bin, '-i', '-c', '2' ],
	qr/cannot be used in initialization \(-i\) mode/, 'run option with -i');
command_fails_like([ $bin, '-S', '--foreign-keys' ],
	qr/cannot be used in benchmarking mode/, 'init option without -i');
command_fails_like([ $bin, '-i', '-F', '5' ],
	qr/-F\/--fillfactor must be in range 10\.\.100/, 'bad fillfactor');
command_fails_like([ $bin, '-i', '--partitions=2', '--partition-method=list' ],
	qr/invalid partition method, expecting "range" or "hash", got: "list"/,
	'bad partition method');
command_fails_like([ $bin, '-i', '--partition-method=hash' ],
	qr/--partition-method requires greater than zero --partitions/,
	'partition method without partitions');
command_fails_like([ $bin, '-f', "$tmp/missing.sql" ],
	qr/could not open file ".*missing\.sql"/, 'missing script file');
command_fails_like([ $bin, 'db1', 'db2' ], qr/too many command-line arguments/,
	'extra arguments');
is(run_count(), '0', 'no run for bad options');

# 2. -i: pgbench's tables through polarbench_init
command_checks_all([ $bin, '-i', '-s', '1' ],
	0, [qr/^$/], [ qr/\d+ of \d+ tuples \(100%\) done/, qr/^done in \d+\.\d\d s/m ],
	'-i -s 1');
is($node->safe_psql('postgres', 'SELECT count(*) FROM pgbench_branches'), '1',
	'-i made pgbench_branches');

# pgbench -i's options, and -j for loader workers
command_ok(
	[ $bin, '-i', '-s', '1', '-F', '90', '--foreign-keys', '--partitions=2',
	  '--partition-method=hash', '--unlogged-tables', '-j', '2' ],
	'-i with pgbench -i options');
is($node->safe_psql('postgres', q{
SELECT string_agg(format('%s:%s:%s', relname, relpersistence, coalesce(array_to_string(reloptions, ','), '')), ' ' ORDER BY relname)
  FROM pg_class WHERE relname LIKE 'pgbench_accounts%' AND relkind IN ('r', 'p')}),
	'pgbench_accounts:u: pgbench_accounts_1:u:fillfactor=90 pgbench_accounts_2:u:fillfactor=90',
	'fillfactor, unlogged tables, two partitions');
is($node->safe_psql('postgres', q{
SELECT partstrat, (SELECT count(*) FROM pgbench_accounts),
       (SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND conparentid = 0 AND conrelid::regclass::text LIKE 'pgbench%')
  FROM pg_partitioned_table WHERE partrelid = 'pgbench_accounts'::regclass}),
	'h|100000|5', 'hash partitions, rows, foreign keys');

# -q: progress every 5 seconds and at the end, as pgbench -i -q
my ($out, $err);
IPC::Run::run([ $bin, '-i', '-q', '-s', '1' ], '>', \$out, '2>', \$err)
  or die "-i -q failed: $err";
like($err, qr/^100011 of 100011 tuples \(100%\) done/m, '-q prints the last line');
unlike($err, qr/\(\d\d?%\) done \(elapsed [0-4]\./,
	'-q prints no line before 5 seconds but the last');

# 3. a built-in run, reported in pgbench's words
command_like(
	[ $bin, '-c', '2', '-t', '20', '-S' ],
	qr/^polarbench\ \(\d+\.\d+,\ server\ .+\)\n
	   transaction\ type:\ <builtin:\ select\ only>\n
	   scaling\ factor:\ 1\n
	   query\ mode:\ prepared\n
	   number\ of\ clients:\ 2\n
	   number\ of\ threads:\ 2\b.*\n
	   maximum\ number\ of\ tries:\ 1\n
	   number\ of\ transactions\ per\ client:\ 20\n
	   number\ of\ transactions\ actually\ processed:\ 40\/40\n
	   number\ of\ failed\ transactions:\ 0\ \(0\.000%\)\n
	   latency\ average\ =\ \d+\.\d{3}\ ms\n
	   latency\ stddev\ =\ \d+\.\d{3}\ ms\n
	   tps\ =\ \d+\.\d{6}\ \(without\ initial\ connection\ time\)\n
	   run\ id:\ \d+\n
	   statements:\ 40\ \(qps\ =\ \d+\.\d+\)\n
	   latency\ percentiles:\ p50\ =\ [\d.]+\ ms,\ p95\ =\ [\d.]+\ ms,\ p99\ =\ [\d.]+\ ms,\ max\ =\ [\d.]+\ ms\n$/x,
	'-c 2 -t 20 -S');
is($node->safe_psql('postgres', q{
	SELECT status || ' ' || clients || ' ' || transactions || ' ' || workload
	  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	'finished 2 40 select-only', 'the run is recorded');

# 4. a custom script with -D; values reach the server as they were typed
my $script = "$tmp/custom.sql";
append_to_file($script, "\\set x random(1, :range)\nSELECT :x AS x, :word::text AS w;\n");
command_checks_all(
	[ $bin, '-f', "$script\@2", '-D', 'range=5', '-D', q{word=it's "quoted"}, '-t', '3' ],
	0,
	[
		qr/^transaction type: \Q$script\E$/m,
		qr/^scaling factor: 1$/m,
		qr/^number of transactions actually processed: 3\/3$/m
	],
	[qr/^$/],
	'-f with -D');
is($node->safe_psql('postgres', q{
	SELECT vars->>'range' || '|' || (vars->>'word')
	  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	q{5|it's "quoted"}, '-D values recorded as given');

# 5. -r: per-command report, several scripts
command_checks_all(
	[ $bin, '-b', 'select-only@1', '-f', $script, '-D', 'range=5', '-D', 'word=a', '-t', '5', '-r' ],
	0,
	[
		qr/^transaction type: multiple scripts$/m,
		qr/^SQL script 1: <builtin: select only>\n - weight: 1 \(targets 50\.0% of total\)\n - statement latencies in milliseconds and failures:\n +\d+\.\d{3} +0  \\set aid random\(1, 100000 \* :scale\)\n +\d+\.\d{3} +0  SELECT abalance FROM pgbench_accounts WHERE aid = :aid;$/m,
		qr/^SQL script 2: \Q$script\E\n - weight: 1 \(targets 50\.0% of total\)\n - statement latencies in milliseconds and failures:\n +\d+\.\d{3} +0  \\set x random\(1, :range\)\n +\d+\.\d{3} +0  SELECT :x AS x, :word::text AS w;$/m
	],
	[qr/^$/],
	'-r with two scripts');
command_like([ $bin, '-N', '-t', '2', '-r' ],
	qr/^statement latencies in milliseconds and failures:\n(?: +\d+\.\d{3} +\d+  .+\n){9}\z/m,
	'-r with one script');

# 6. -P: pgbench's progress lines on stderr; at least one in 2 s
command_checks_all([ $bin, '-S', '-c', '2', '-T', '2', '-P', '1' ],
	0, [ qr/^duration: 2 s$/m, qr/^number of transactions actually processed: \d+$/m ],
	[$progress_re], '-P 1 -T 2');

# 7. a syntax error is reported with file and line before any run
my $bad = "$tmp/bad.sql";
append_to_file($bad, "SELECT 1;\n\\set x random(1,\nSELECT 2;\n");
my $before = run_count();
command_fails_like([ $bin, '-f', $bad, '-t', '1' ], qr/\Q$bad\E:2: syntax error/,
	'syntax error with file:line');
my $unset = "$tmp/unset.sql";
append_to_file($unset, "SELECT 1;\nSELECT :nowhere;\n");
command_fails_like([ $bin, '-f', $unset, '-t', '1' ],
	qr/\Q$unset\E:2: .*"nowhere"/, 'variable never set, with file:line');
is(run_count(), $before, 'no run started for a bad script');

# 8. a run that fails: the server's message, exit status 2
my $div = "$tmp/div.sql";
append_to_file($div, "SELECT 1/0;\n");
command_checks_all([ $bin, '-f', $div, '-t', '1' ],
	2, [qr/^polarbench \(\d+\.\d+, server /], [ qr/error: division by zero/, qr/recorded as failed/ ],
	'failed run');
is(last_run(), 'failed', 'failed run recorded');

# a server error before any run: exit status 1
command_checks_all([ $bin, '-f', $script, '-t', '1', '-D', 'range=5', '-D', 'word=a', '-c', '100' ],
	1, [qr/^polarbench \(\d+\.\d+, server /], [qr/max_worker_processes/], 'refused run');

# 9. Ctrl-C: a cancel request, the run recorded as canceled, exit status 2
($out, $err) = ('', '');
my $h = IPC::Run::start([ $bin, '-S', '-c', '2', '-T', '600' ],
	'>', \$out, '2>', \$err,
	IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
$node->poll_query_until('postgres',
	q{SELECT count(*) = 1 FROM polarbench_runs WHERE status = 'running'})
  or die 'the run did not start';
$h->signal('INT');
$h->finish;
is($h->result(0), 2, 'canceled run: exit status 2');
like($err, qr/Cancel request sent/, 'canceled run: cancel request sent');
like($err, qr/recorded as canceled/, 'canceled run: told how it ended');
is(last_run(), 'canceled', 'canceled run recorded');
ok($node->poll_query_until('postgres', q{
	SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type LIKE 'polarbench%'}),
	'no worker left');

# 10. sysbench's workloads with sysbench's spellings, and its report
$node->safe_psql('postgres',
	q{SELECT polarbench_init('sysbench', tables => 2, table_size => 500)});
command_checks_all(
	[ $bin, '-b', 'oltp_read_only', '--tables=2', '--table-size=500', '--threads=2',
	  '-t', '5', '--rand-type=uniform' ],
	0,
	[ qr/^SQL statistics:$/m, qr/^        read:\s+140$/m, qr/^        other:\s+20$/m,
	  qr/^    transactions:\s+10\s+\(/m, qr/^Threads fairness:$/m ],
	[ qr/^$/ ],
	'oltp_read_only: sysbench\'s report');
is($node->safe_psql('postgres', q{
	SELECT options->>'rand_type' || ' ' || (options->>'table_size')
	  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	'uniform 500', 'the options reached the run');
command_checks_all(
	[ $bin, '-b', 'oltp_point_select', '--threads=1', '-T', '2', '--report-interval=1' ],
	0, [ qr/^SQL statistics:$/m ],
	[ qr/^\[ 1s \] thds: 1 tps: [0-9.]+ qps: [0-9.]+ \(r\/w\/o: [0-9.]+\/0\.00\/0\.00\) lat \(ms,95%\): [0-9.]+ err\/s: 0\.00 reconn\/s: 0\.00$/m ],
	'--report-interval: sysbench\'s progress lines');
command_fails_like([ $bin, '-b', 'oltp_read_only', '--tables=x' ],
	qr/invalid value for sysbench option "tables": "x"/, 'a bad sysbench option value');
command_fails_like([ $bin, '-b', 'oltp_read_only', '--readproportion=1' ],
	qr/unrecognized sysbench option "readproportion"/, 'a YCSB option for sysbench');
command_fails_like([ $bin, '-S', '--tables=2' ],
	qr/option --tables applies to sysbench and YCSB workloads/, 'a sysbench option for pgbench');
command_fails_like([ $bin, '-b', 'oltp_read_only', '-S' ],
	qr/cannot be combined with other scripts/, 'a sysbench workload with a built-in');

# 11. YCSB's workloads with its property names, and its report
$node->safe_psql('postgres', q{SELECT polarbench_init('ycsb', records => 500)});
command_checks_all(
	[ $bin, '-b', 'ycsb-a', '-c', '2', '-t', '20', '--readproportion=0.5',
	  '--updateproportion=0.5', '--requestdistribution=uniform' ],
	0,
	[ qr/^\[OVERALL\], RunTime\(ms\), \d+$/m, qr/^\[OVERALL\], Throughput\(ops\/sec\), [0-9.]+$/m,
	  qr/^\[(READ|UPDATE)\], 99thPercentileLatency\(us\), \d+$/m ],
	[ qr/^$/ ],
	'ycsb-a: YCSB\'s report');
command_checks_all([ $bin, '-b', 'list' ], 0, [ qr/^$/ ],
	[ qr/^ +oltp_read_write  sysbench OLTP read\/write$/m, qr/^ +ycsb-load  YCSB load phase/m ],
	'-b list names the sysbench and YCSB workloads');

$node->stop;
done_testing();
