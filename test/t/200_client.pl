# The command-line program, src/bin/polarbench/polarbench, run against a node: help and
# version, option errors, -i (pgbench's tables, and any data set with -b and
# its arguments), built-in and custom scripts with -D, pgbench's
# report lines, -r, -P progress on stderr, a script syntax error caught
# before any run, a failed run and a canceled one (exit status 2),
# sysbench's and YCSB's workloads with their tools' options and reports;
# then -i creating the extension (or saying who must), vacuum before runs,
# -R, -L, --max-tries, --failures-detailed, --warmup and --settings, every
# --report style (json and csv checked field by field against the run's
# row), sweeps and their table, csv and json, and --svg charts, checked for
# their structure and drawn by headless Chromium.
use strict;
use warnings;
use IPC::Run;
use JSON::PP;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# the client as built in the build tree
my $bin = "$ENV{TESTDIR}/src/bin/polarbench/polarbench";
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

# -i -b NAME: any data set of the server, with its arguments as
# polarbench_datasets gives them, --name=value or --name value
command_checks_all([ $bin, '-i', '-b', 'tpcc', '--warehouses', '1', '-j', '2' ],
	0, [qr/^$/],
	[ qr/^\d+ of \d+ tuples \(100%\) done/m, qr/^done in \d+\.\d\d s \(10 tables, \d+ rows, /m ],
	'-i -b tpcc --warehouses 1 -j 2');
is($node->safe_psql('postgres', q{
	SELECT warehouses || ' ' || (SELECT count(*) FROM stock) || ' '
	       || (SELECT count(*) FROM polarbench_tpcc_check() WHERE offending > 0)
	  FROM tpcc_load}),
	'1 100000 0', 'TPC-C\'s tables for one warehouse, consistent');
command_fails_like([ $bin, '-i', '-b', 'tpcc', '--warehouses=2', '--foreign-keys' ],
	qr/error: cannot add foreign keys to a TPC-C data set while adding warehouses/,
	'--foreign-keys goes to the data set\'s foreign_keys, and the server checks it');
command_ok([ $bin, '-i', '-b', 'tpcc', '--warehouses=1', '--foreign-keys', '-q' ],
	'-i -b tpcc --foreign-keys');
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND conrelid = 'order_line'::regclass}),
	'2', 'with TPC-C\'s foreign keys');
command_fails_like([ $bin, '-i', '-b', 'tpcc', '--tables=2' ],
	qr/error: option --tables does not apply to data set "tpcc"\n.*hint: The arguments of tpcc are --foreign-keys, --warehouses; "polarbench --list tpcc" describes them/,
	'an argument of another data set');
command_fails_like([ $bin, '-i', '-b', 'tpcc', '-s', '2' ],
	qr/error: option -s\/--scale does not apply to data set "tpcc"/,
	'pgbench\'s -s is the scale argument, which TPC-C does not read');
command_fails_like([ $bin, '-i', '-b', 'nosuch' ],
	qr/error: no data set named "nosuch"\n.*hint: "\S*polarbench --list" lists the server's data sets\./,
	'an unknown data set');
command_fails_like([ $bin, '-i', '-b', 'tpcc', '--warehouses' ],
	qr/error: option --warehouses needs a value/, 'an argument without its value');
command_fails_like([ $bin, '-i', '-b', 'tpcc', '-b', 'ycsb' ],
	qr/error: -i loads one data set, not 2/, 'two data sets');
command_fails_like([ $bin, '-i', '-b', 'tpcc', '--warehouses', '0' ],
	qr/error: warehouses must be between 1 and 100000/, 'the server checks the values');
command_ok([ $bin, '-i', '-b', 'sysbench', '--tables', '2', '--table-size=100' ],
	'-i -b sysbench with its arguments in both spellings');
is($node->safe_psql('postgres', 'SELECT count(*) FROM sbtest2'), '100',
	'sysbench\'s tables');
$node->safe_psql('postgres', q{
	DROP TABLE warehouse, district, customer, history, orders, new_order, order_line,
		item, stock, tpcc_load, sbtest1, sbtest2});

# 3. a built-in run, reported in pgbench's words
command_like(
	[ $bin, '-n', '-c', '2', '-t', '20', '-S' ],
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
	   latency\ percentiles:\ p50\ =\ [\d.]+\ ms,\ p90\ =\ [\d.]+\ ms,\ p95\ =\ [\d.]+\ ms,\ p99\ =\ [\d.]+\ ms,\ p99\.9\ =\ [\d.]+\ ms,\ max\ =\ [\d.]+\ ms\n$/x,
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
	[qr/^starting vacuum\.\.\.end\.\n\z/],
	'-f with -D');
is($node->safe_psql('postgres', q{
	SELECT vars->>'range' || '|' || (vars->>'word')
	  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	q{5|it's "quoted"}, '-D values recorded as given');

# 5. -r: per-command report, several scripts, each with its figures
command_checks_all(
	[ $bin, '-b', 'select-only@1', '-f', $script, '-D', 'range=5', '-D', 'word=a', '-t', '5', '-r' ],
	0,
	[
		qr/^transaction type: multiple scripts$/m,
		qr/^SQL script 1: <builtin: select only>\n - weight: 1 \(targets 50\.0% of total\)\n - \d+ transactions \([0-9.]+% of total\)\n(?: - (?!statement).+\n)* - statement latencies in milliseconds and failures:\n +\d+\.\d{3} +0  \\set aid random\(1, 100000 \* :scale\)\n +\d+\.\d{3} +0  SELECT abalance FROM pgbench_accounts WHERE aid = :aid;$/m,
		qr/^SQL script 2: \Q$script\E\n - weight: 1 \(targets 50\.0% of total\)\n - \d+ transactions \([0-9.]+% of total\)\n(?: - (?!statement).+\n)* - statement latencies in milliseconds and failures:\n +\d+\.\d{3} +0  \\set x random\(1, :range\)\n +\d+\.\d{3} +0  SELECT :x AS x, :word::text AS w;$/m
	],
	[qr/^starting vacuum\.\.\.end\.\n\z/],
	'-r with two scripts');
command_like([ $bin, '-n', '-N', '-t', '2', '-r' ],
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
	qr/unrecognized option "--readproportion" for workload "oltp_read_only".*\n.*hint: The options of oltp_read_only are tables, table_size,/,
	'a YCSB option for sysbench');
command_fails_like([ $bin, '-S', '--tables=2' ],
	qr/option --tables applies to a workload chosen with -b, not to scripts\n.*hint: "\S*polarbench --list" lists the workloads, and "\S*polarbench --list NAME" the options of one\.$/m,
	'a sysbench option for pgbench');
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
	[ qr/^ +oltp_read_write: sysbench OLTP read\/write$/m, qr/^ +ycsb-load: YCSB load phase/m ],
	'-b list names the sysbench and YCSB workloads');

# --list: the server's workloads and data sets, from its views; a workload's
# options and a data set's arguments are the views' own, name for name
command_checks_all([ $bin, '--list' ], 0,
	[ qr/^  oltp_read_write +sysbench +yes +sysbench OLTP read\/write$/m,
	  qr/^  ycsb-c +ycsb +no +YCSB workload C/m, qr/^  select-only +pgbench +no /m,
	  qr/^Data sets .*\n(?:.*\n)*  ycsb +YCSB's usertable/m ],
	[ qr/^$/ ], '--list: every workload with its kind and whether it writes, and the data sets');
{
	my ($out, $err);
	IPC::Run::run([ $bin, '--list', 'oltp_read_write' ], '>', \$out, '2>', \$err);
	my @printed = ($out =~ /^Options .*\n  option .*\n((?:  \S.*\n)+)/m)
	  ? map { (split ' ', $_)[0] } split /\n/, $1 : ();
	my @view = split /\n/, $node->safe_psql('postgres', q{
		SELECT o->>'name' FROM polarbench_workloads w,
		       jsonb_array_elements(w.options) o
		 WHERE w.name = 'oltp_read_write'});
	is_deeply(\@printed, \@view, '--list NAME: the options polarbench_workloads gives, in order');
	like($out, qr/^  rand_type +enum +special +uniform, gaussian, special, pareto +/m,
		'--list NAME: an option\'s type, default and values');
	IPC::Run::run([ $bin, '--list', 'ycsb' ], '>', \$out, '2>', \$err);
	my @args = ($out =~ /^  argument .*\n((?:  \S.*\n)+)/m)
	  ? map { (split ' ', $_)[0] } split /\n/, $1 : ();
	ok(@args > 0 && (grep { $_ eq 'records' } @args),
		'--list DATASET: the data set\'s arguments') or diag($out);
}
command_fails_like([ $bin, '--list', 'nosuch' ],
	qr/no workload or data set named "nosuch"/, '--list: an unknown name');
command_fails_like([ $bin, '--list', '-S' ],
	qr/--list cannot be used with other options than the connection's/,
	'--list with a run\'s option');

# 12. first contact: -i creates the extension, or says who must
$node->safe_psql('postgres', 'CREATE DATABASE fresh');
command_checks_all([ $bin, '-i', '-s', '1', '-d', 'fresh' ],
	0, [qr/^$/], [qr/^created extension polarbench in database "fresh"$/m],
	'-i creates the extension');
is($node->safe_psql('fresh', q{
	SELECT (e.extversion = a.default_version) || ' ' || (SELECT count(*) FROM pgbench_branches)
	  FROM pg_extension e JOIN pg_available_extensions a ON a.name = e.extname
	 WHERE e.extname = 'polarbench'}),
	'true 1', '-i made the extension, at its default version, and the tables');
$node->safe_psql('postgres', q{
	CREATE DATABASE bare;
	CREATE ROLE bob LOGIN;
	GRANT CREATE ON DATABASE bare TO bob});
command_fails_like([ $bin, '-S', '-t', '1', '-d', 'bare' ],
	qr/error: extension "polarbench" is not created in database "bare"\n.*hint: Run "polarbench -i" to create it/s,
	'a run without the extension says how to create it');
command_checks_all([ $bin, '-i', '-U', 'bob', '-d', 'bare' ],
	1, [qr/^$/],
	[ qr/error: role "bob" may not create extension "polarbench" in database "bare"/,
	  qr/hint: As a superuser, run "psql -d bare -c 'CREATE EXTENSION polarbench'"/ ],
	'-i by a role that may not create the extension says who must, and how');
is($node->safe_psql('bare', q{SELECT count(*) FROM pg_extension WHERE extname = 'polarbench'}),
	'0', 'and creates nothing');

# 13. vacuum before a run, as pgbench: history emptied unless -n, -v for accounts
sub history { return $node->safe_psql('postgres', 'SELECT count(*) FROM pgbench_history') }
sub accounts_vacuums {
	return $node->safe_psql('postgres', q{
		SELECT vacuum_count FROM pg_stat_user_tables WHERE relname = 'pgbench_accounts'});
}
$node->safe_psql('postgres', q{SELECT polarbench_init('pgbench', scale => 1)});
command_checks_all([ $bin, '-c', '1', '-t', '5' ], 0, [qr/^transaction type: <builtin: TPC-B/m],
	[qr/^starting vacuum\.\.\.end\.$/m], 'a TPC-B run vacuums first');
command_ok([ $bin, '-c', '1', '-t', '5' ], 'and again');
is(history(), '5', 'each run starts with an empty pgbench_history');
command_checks_all([ $bin, '-n', '-c', '1', '-t', '5' ], 0, [qr/^tps = /m], [qr/^$/],
	'-n: no vacuum');
is(history(), '10', '-n keeps pgbench_history');
my $vacuums = accounts_vacuums();
command_checks_all([ $bin, '-v', '-c', '1', '-t', '1' ], 0, [qr/^tps = /m],
	[qr/^starting vacuum\.\.\.end\.\nstarting vacuum pgbench_accounts\.\.\.end\.$/m],
	'-v vacuums pgbench_accounts too');
is(accounts_vacuums(), $vacuums + 1, '-v vacuumed pgbench_accounts once');

# 14. pgbench's other run options, and settings for the run
command_checks_all(
	[ $bin, '-n', '-S', '-c', '1', '-t', '20', '-R', '1000', '-L', '1000',
	  '--max-tries', '2', '--failures-detailed' ],
	0,
	[ qr/^maximum number of tries: 2$/m,
	  qr/^number of failed transactions: 0 \(0\.000%\)\nnumber of serialization failures: 0 \(0\.000%\)\nnumber of deadlock failures: 0 \(0\.000%\)\nnumber of other failures: 0 \(0\.000%\)\nnumber of transactions retried: 0 \(0\.000%\)\ntotal number of retries: 0\nnumber of transactions skipped: 0 \(0\.000%\)\nnumber of transactions above the 1000\.0 ms latency limit: 0\/20 \(0\.000 %\)\nlatency average = /m,
	  qr/^rate limit schedule lag: avg \d+\.\d{3} \(max \d+\.\d{3}\) ms$/m ],
	[qr/^$/],
	'-R, -L, --max-tries, --failures-detailed: pgbench\'s lines');
is($node->safe_psql('postgres', q{
	SELECT rate || ' ' || latency_limit || ' ' || max_tries FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	'1000 1000 2', 'and the run has them');
command_ok([ $bin, '-n', '-S', '-c', '1', '-T', '1', '--warmup', '0.5' ], '--warmup');
is($node->safe_psql('postgres', q{SELECT warmup FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	'0.5', 'the run has its warm-up');
my $fsync = $node->safe_psql('postgres', 'SHOW fsync');
command_ok([ $bin, '-n', '-S', '-t', '2', '--settings', 'work_mem=7MB',
	'--settings', 'fsync=' . ($fsync eq 'on' ? 'off' : 'on') ],
	'--settings: one for the clients, one for the server');
is($node->safe_psql('postgres', q{
	SELECT settings::text || ' ' || server_settings::text FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	'{"work_mem": "7MB"} {"fsync": "' . ($fsync eq 'on' ? 'off' : 'on') . '"}',
	'each went where it takes effect');
is($node->safe_psql('postgres', 'SHOW fsync'), $fsync, 'and the server\'s is put back');
$before = run_count();
command_fails_like([ $bin, '-S', '--settings', 'work_mem' ],
	qr/invalid setting "work_mem"/, 'a setting without a value');
command_fails_like([ $bin, '-S', '--settings', 'shared_buffers=64MB' ],
	qr/parameter "shared_buffers" takes a server restart\n.*hint: Give the command that restarts the server with --restart-command/s,
	'a restart setting without --restart-command');
command_fails_like([ $bin, '-S', '-R', '0' ], qr/invalid value "0" for option -R\/--rate/,
	'a bad rate');
command_fails_like([ $bin, '-S', '--max-tries=-1' ], qr/--max-tries must be in range/,
	'a bad --max-tries');
command_fails_like([ $bin, '-S', '--report', 'xml' ],
	qr/invalid report style "xml"\n.*hint: The styles are json, csv, html and each workload's report style, which "\S*polarbench --list NAME" shows\./,
	'a bad report style: the styles are the server\'s workloads\'');
is(run_count(), $before, 'a bad report style is refused before the run');
command_fails_like([ $bin, '-S', '--settings', 'no_such_setting=1', '-t', '1' ],
	qr/unrecognized configuration parameter "no_such_setting"/, 'an unknown setting');
is(run_count(), $before, 'no run for bad settings');

# 15. every report style; json and csv checked field by field against the row
sub run_row {
	my ($run_id) = @_;
	return decode_json($node->safe_psql('postgres',
		"SELECT row_to_json(r) FROM polarbench_runs r WHERE run_id = $run_id"));
}
($out, $err) = ('', '');
IPC::Run::run([ $bin, '-n', '-S', '-c', '2', '-t', '10', '--report', 'json' ],
	'>', \$out, '2>', \$err) or die "--report json failed: $err";
my $doc = decode_json($out);
my $row = run_row($doc->{run}{run_id});
is($doc->{run}{transactions}, 20, 'json: the run\'s transactions');
# values as canonical JSON, so that arrays and objects compare by content
my $canonical = JSON::PP->new->canonical->allow_nonref;
my @differ = grep { $canonical->encode($doc->{run}{$_}) ne $canonical->encode($row->{$_}) }
  grep { $_ ne 'started_at' && $_ ne 'ended_at' } keys %$row;
is("@differ", '', 'json: every field of the run equals its row');
is(scalar(keys %{ $doc->{run} }), scalar(keys %$row), 'json: and has every column');
is(scalar(@{ $doc->{histogram} }) > 0 && scalar(@{ $doc->{statements} }), 2,
	'json: with its histogram and statements');

sub parse_csv {
	my ($text) = @_;
	my @rows;
	my @fields;
	my $field = '';
	my $quoted = 0;
	for (my $i = 0; $i < length($text); $i++) {
		my $c = substr($text, $i, 1);
		if ($quoted) {
			if ($c eq '"' && substr($text, $i + 1, 1) eq '"') { $field .= '"'; $i++; }
			elsif ($c eq '"') { $quoted = 0; }
			else { $field .= $c; }
		}
		elsif ($c eq '"') { $quoted = 1; }
		elsif ($c eq ',') { push @fields, $field; $field = ''; }
		elsif ($c eq "\r") { }
		elsif ($c eq "\n") { push @fields, $field; push @rows, [@fields]; @fields = (); $field = ''; }
		else { $field .= $c; }
	}
	return @rows;
}
($out, $err) = ('', '');
IPC::Run::run([ $bin, '-n', '-S', '-c', '2', '-t', '10', '--report', 'csv' ],
	'>', \$out, '2>', \$err) or die "--report csv failed: $err";
my @csv = parse_csv($out);
is(scalar(@csv), 2, 'csv: a header and one row');
my %got;
@got{ @{ $csv[0] } } = @{ $csv[1] };
my @want = parse_csv($node->safe_psql('postgres',
	"COPY (SELECT * FROM polarbench_runs WHERE run_id = $got{run_id}) TO STDOUT WITH (FORMAT csv, HEADER)") . "\n");
my %expect;
@expect{ @{ $want[0] } } = @{ $want[1] };
is(join(',', @{ $csv[0] }), join(',', @{ $want[0] }), 'csv: the columns of polarbench_runs');
@differ = grep { $got{$_} ne $expect{$_} } keys %expect;
is("@differ", '', 'csv: every field equals the run\'s row');
is($got{transactions}, '20', 'csv: the transactions');
command_like([ $bin, '-n', '-S', '-t', '5', '--report', 'sysbench' ],
	qr/^SQL statistics:\n.*^    transactions:\s+5\s+\(/ms, '--report sysbench for a pgbench script');
command_like([ $bin, '-n', '-S', '-t', '5', '--report', 'ycsb' ],
	qr/^\[OVERALL\], Throughput\(ops\/sec\), [0-9.]+$/m, '--report ycsb for a pgbench script');
command_like([ $bin, '-b', 'oltp_point_select', '--threads=1', '-t', '5', '--report', 'pgbench' ],
	qr/^transaction type: oltp_point_select\n.*^tps = \d+\.\d+ \(without initial connection time\)$/ms,
	'--report pgbench for a sysbench workload');

# 16. sweeps: every client count with every setting set, one table
$before = run_count();
command_checks_all(
	[ $bin, '-n', '-S', '-c', '1,2', '-t', '5', '--set', 'work_mem=4MB',
	  '--set', 'work_mem=8MB,enable_seqscan=off', '--repeat', '2' ],
	0,
	[ qr/^tps by clients \(rows\) and setting set \(columns\): <builtin: select only>, 5 transactions per client, geometric mean of 2 and its 95% interval, marked against the first setting set\nclients \| work_mem=4MB +\| work_mem=8MB,enable_seqscan=off *\n-{8}\+-+\+-+\n +1 \| +\d+\.\d \[\d+\.\d, \d+\.\d\] \| +\d+\.\d \[\d+\.\d, \d+\.\d\] (?:faster|slower|no difference shown)\n +2 \| +\d+\.\d \[\d+\.\d, \d+\.\d\] \| +\d+\.\d \[\d+\.\d, \d+\.\d\] (?:faster|slower|no difference shown)\n\z/ ],
	[ qr/setting set 1: work_mem=4MB\n.*setting set 2: work_mem=8MB,enable_seqscan=off/s ],
	'a sweep prints the reference reports\' table');
is($node->safe_psql('postgres', qq{
	SELECT string_agg(clients || ':' || settings::text, ' ' ORDER BY run_id), count(DISTINCT sweep_id)
	  FROM polarbench_runs WHERE run_id > (SELECT max(run_id) FROM polarbench_runs) - 8}),
	'1:{"work_mem": "4MB"} 2:{"work_mem": "4MB"} 1:{"work_mem": "4MB"} 2:{"work_mem": "4MB"} '
	. '1:{"work_mem": "8MB", "enable_seqscan": "off"} 2:{"work_mem": "8MB", "enable_seqscan": "off"} '
	. '1:{"work_mem": "8MB", "enable_seqscan": "off"} 2:{"work_mem": "8MB", "enable_seqscan": "off"}|2',
	'every combination ran, in order, with its settings');
is(run_count(), $before + 8, 'eight runs');
($out, $err) = ('', '');
IPC::Run::run([ $bin, '-n', '-S', '-c', '1,2', '-t', '5', '--set', 'work_mem=4MB',
	'--set', 'work_mem=8MB', '--report', 'json' ], '>', \$out, '2>', \$err)
  or die "sweep json failed: $err";
$doc = decode_json($out);
is(join(' ', $doc->{metric}, @{ $doc->{clients} }, @{ $doc->{setting_sets} }),
	'tps 1 2 work_mem=4MB work_mem=8MB', 'sweep json: its axes');
is(scalar(@{ $doc->{table} }) . 'x' . scalar(@{ $doc->{table}[0] }), '2x2', 'sweep json: a 2x2 table');
my @runs = @{ $doc->{runs} };
is(scalar(@runs), 4, 'sweep json: every run');
is($doc->{table}[1][1], $runs[3]{tps}, 'sweep json: a cell is its run\'s tps');
ok(!grep({ defined } map { @$_ } @{ $doc->{intervals} }, @{ $doc->{marks} }),
	'sweep json: a cell of one run has no interval and no mark');
is($runs[3]{setting_set} . ' ' . $runs[3]{clients} . ' ' . $runs[3]{transactions},
	'work_mem=8MB 2 10', 'sweep json: each run with its setting set');
($out, $err) = ('', '');
IPC::Run::run([ $bin, '-n', '-S', '-c', '1,2', '-t', '5', '--set', 'work_mem=4MB',
	'--report', 'csv' ], '>', \$out, '2>', \$err) or die "sweep csv failed: $err";
@csv = parse_csv($out);
is(scalar(@csv) . ' ' . $csv[0][0] . ' ' . $csv[0][1] . ' ' . $csv[1][0], '3 setting_set run_id work_mem=4MB',
	'sweep csv: a line per run, with its setting set first');
$before = run_count();
command_fails_like([ $bin, '-S', '-c', '1,2', '--set', 'work_mem=4MB', '--set', 'work_mem=4MB' ],
	qr/setting set 2 \("work_mem=4MB"\) is the same as setting set 1/, 'a setting set twice');
command_fails_like([ $bin, '-S', '-c', '1,2', '-P', '1' ],
	qr/-P\/--progress cannot be used with a sweep/, 'progress with a sweep');
command_fails_like([ $bin, '-f', $script, '-f', $script, '-D', 'range=5', '-D', 'word=a', '-c', '1,2' ],
	qr/a sweep runs built-in scripts or one script file, not 2 files/, 'two files in a sweep');
command_fails_like([ $bin, '-S', '-c', '1,x' ], qr/-c\/--clients/, 'a bad client count');
command_fails_like([ $bin, '-S', '-c', '1,2', '--set', 'shared_buffers=64MB' ],
	qr/parameter "shared_buffers" takes a server restart\n.*--restart-command/s,
	'a restart setting in a sweep without --restart-command');
command_fails_like([ $bin, '-S', '-c', '1,2', '--set', 'x' ],
	qr/invalid setting "x"/, 'a bad setting set');
command_fails_like([ $bin, '-S', '-c', '1,2', '-t', '1', '--set', 'work_mem=banana' ],
	qr/invalid value for parameter "work_mem": "banana"/, 'a value the setting refuses');
is(run_count(), $before, 'no run for a bad sweep');

# 17. charts: the run's progress, the sweep's curves; drawn by Chromium
sub svg_series {
	my ($file) = @_;
	my $svg = slurp_file($file);
	return ($svg, [ $svg =~ /<polyline class="series" data-label="([^"]*)"/g ]);
}
command_ok([ $bin, '-n', '-S', '-c', '1', '-T', '2', '--svg', "$tmp/run.svg" ], '--svg for a run');
my ($svg, $series) = svg_series("$tmp/run.svg");
is("@$series", 'tps p99 latency', 'run chart: tps and p99 over time');
like($svg, qr/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="960" height="800"/,
	'run chart: a self-contained SVG');
is(scalar(() = $svg =~ /class="x-label"[^>]*>elapsed time \(s\)</g), 2, 'run chart: time axes labelled with their unit');
like($svg, qr/class="y-label"[^>]*>transactions per second \(tps\)<.*class="y-label"[^>]*>p99 latency \(ms\)</s,
	'run chart: value axes labelled with their units');
my $points = () = ($svg =~ /<polyline class="series" data-label="tps"[^>]*points="([^"]*)"/)[0] =~ /,/g;
is($points, $node->safe_psql('postgres', q{
	SELECT count(*) FROM polarbench_progress WHERE run_id = (SELECT max(run_id) FROM polarbench_runs)}),
	'run chart: a point per progress row');
command_ok([ $bin, '-n', '-S', '-c', '1,2,4', '-t', '5', '--set', 'work_mem=4MB',
	'--set', 'work_mem=8MB', '--set', 'work_mem=16MB', '--svg', "$tmp/sweep.svg" ], '--svg for a sweep');
($svg, $series) = svg_series("$tmp/sweep.svg");
is("@$series", 'work_mem=4MB work_mem=8MB work_mem=16MB', 'sweep chart: one series per setting set');
like($svg, qr/class="x-label"[^>]*>clients \(concurrent connections\)<.*class="y-label"|class="y-label".*class="x-label"[^>]*>clients/s,
	'sweep chart: clients against tps');
is(join(' ', $svg =~ /class="x-tick"[^>]*>([^<]*)</g), '1 2 4', 'sweep chart: a tick per client count');
is(scalar(() = $svg =~ /<circle /g), 9, 'sweep chart: a point per cell');

my ($chromium) = grep { -x $_ } ('/usr/bin/chromium', '/usr/bin/chromium-browser');
ok(defined $chromium, 'headless Chromium is installed');
SKIP:
{
	skip 'no chromium', 2 unless defined $chromium;
	foreach my $chart ('run', 'sweep')
	{
		my $png = "$tmp/$chart.png";
		IPC::Run::run([ $chromium, '--headless', '--no-sandbox', '--disable-gpu',
			"--user-data-dir=$tmp/chromium", "--screenshot=$png", '--window-size=960,800',
			"file://$tmp/$chart.svg" ], '>', \my $cout, '2>', \my $cerr,
			IPC::Run::timeout(120));
		my $bytes = -f $png ? slurp_file($png) : '';
		# a PNG of the window's size, with more than a blank page in it
		my ($w, $h) = length($bytes) > 24 ? unpack('NN', substr($bytes, 16, 8)) : (0, 0);
		ok(substr($bytes, 0, 8) eq "\x89PNG\r\n\x1a\n" && $w == 960 && $h == 800 && length($bytes) > 10000,
			"Chromium draws the $chart chart");
	}
}

$node->stop;
done_testing();
