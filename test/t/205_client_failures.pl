# The command-line program's --continue-on-error and --exit-on-abort, as
# pgbench 19 and 17 take them: with --continue-on-error a script whose
# INSERT fails on a unique key for some transactions runs to its end, and
# the report says how many failed, by kind, in pgbench's words, for the run
# and for each of several scripts, with the failing statement's failures
# under -r, in a sweep too; without it, or with --exit-on-abort, the first
# such error fails the run (exit status 2); with --exit_on_abort=false a
# client's error stops it alone and the run is aborted (exit status 2); under
# -R and -L each script's skipped transactions; a workload of another tool
# takes neither.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my $bin = "$ENV{TESTDIR}/src/bin/polarbench/polarbench";
plan skip_all => "client not built: $bin" unless -x $bin;

my $node = PostgreSQL::Test::Cluster->new('client_failures');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION polarbench');
$ENV{PGHOST} = $node->host;
$ENV{PGPORT} = $node->port;
$ENV{PGDATABASE} = 'postgres';

my $tmp = PostgreSQL::Test::Utils::tempdir;

# Every try takes the next number, which a rolled-back insert does not give
# back; one number in four is already in the table: those tries fail with a
# unique violation, whatever the clients' interleaving.
sub reset_keys
{
	$node->safe_psql('postgres', q{
		DROP TABLE IF EXISTS keys, given; DROP SEQUENCE IF EXISTS keys_seq;
		CREATE TABLE keys (k int PRIMARY KEY);
		CREATE SEQUENCE keys_seq;
		INSERT INTO keys SELECT k FROM generate_series(4, 400, 4) k;
		CREATE TABLE given AS SELECT k FROM keys});
}

# how many tries the table says failed: the given keys among the numbers taken
sub failed_by_table
{
	return $node->safe_psql('postgres', q{
		SELECT count(*) FROM given WHERE k <= (SELECT last_value FROM keys_seq)});
}

my $insert = "$tmp/insert.sql";
append_to_file($insert, "INSERT INTO keys VALUES (nextval('keys_seq'));\n");
my $select = "$tmp/select.sql";
append_to_file($select, "SELECT 1;\n");

# 1. one script: the run ends, failures counted apart from tps
reset_keys();
my ($out, $err) = run_command([ $bin, '-n', '-c', '2', '-t', '20', '-f', $insert,
	'--continue-on-error', '--failures-detailed' ]);
my $failed = failed_by_table();
is($failed, 10, 'the table says 10 of the 40 tries failed');
like($out, qr/^number of transactions actually processed: 30\/40$/m,
	'--continue-on-error: the failed transactions are not processed ones');
like($out, qr/^number of failed transactions: 10 \(25\.000%\)\nnumber of serialization failures: 0 \(0\.000%\)\nnumber of deadlock failures: 0 \(0\.000%\)\nnumber of other failures: 10 \(25\.000%\)$/m,
	'--continue-on-error: the failures by kind, in pgbench 19\'s words');
my ($tps) = $out =~ /^tps = ([0-9.]+) \(without initial connection time\)$/m;
my $recorded = $node->safe_psql('postgres', q{
	SELECT transactions || ' ' || failed_other || ' ' || (round((tps * seconds)::numeric) = transactions)
	  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1});
is($recorded, '30 10 true', 'the run recorded 30 transactions, 10 other failures, tps of the 30');
ok(defined $tps && $tps > 0, 'tps is printed');

# 2. several scripts: each one's figures, and -r's failures per statement
reset_keys();
($out, $err) = run_command([ $bin, '-n', '-c', '2', '-t', '20', '-f', "$insert\@1",
	'-f', "$select\@1", '--continue-on-error', '--failures-detailed', '-r' ]);
$failed = failed_by_table();
my $taken = $node->safe_psql('postgres', 'SELECT last_value FROM keys_seq');
my $inserts_ok = $taken - $failed;
like($out,
	qr/^SQL script 1: \Q$insert\E\n - weight: 1 \(targets 50\.0% of total\)\n - $taken transactions \([0-9.]+% of total\)\n - number of transactions actually processed: $inserts_ok \(tps = [0-9.]+\)\n - number of failed transactions: $failed \([0-9.]+%\)\n - number of serialization failures: 0 \(0\.000%\)\n - number of deadlock failures: 0 \(0\.000%\)\n - number of other failures: $failed \([0-9.]+%\)\n - latency average = [0-9.]+ ms\n - latency stddev = [0-9.]+ ms\n - statement latencies in milliseconds and failures:\n +[0-9.]+ +$failed  INSERT INTO keys/m,
	'the inserting script: its tries, failures and the statement\'s failures, as the table says');
my $selects = 40 - $taken;
like($out,
	qr/^SQL script 2: \Q$select\E\n - weight: 1 \(targets 50\.0% of total\)\n - $selects transactions \([0-9.]+% of total\)\n - number of transactions actually processed: $selects \(tps = [0-9.]+\)\n - number of failed transactions: 0 \(0\.000%\)\n/m,
	'the other script: the rest of the transactions, none failed');

# 3. without --continue-on-error, or with --exit-on-abort, the first such
# error fails the run
reset_keys();
$node->safe_psql('postgres', q{SELECT setval('keys_seq', 3)});
command_checks_all([ $bin, '-n', '-t', '5', '-f', $insert ], 2, [qr/^polarbench /],
	[ qr/error: duplicate key value violates unique constraint "keys_pkey"/, qr/recorded as failed/ ],
	'without --continue-on-error, the unique violation fails the run');
$node->safe_psql('postgres', q{SELECT setval('keys_seq', 3)});
command_checks_all([ $bin, '-n', '-t', '5', '-f', $insert, '--exit-on-abort' ], 2, [qr/^polarbench /],
	[ qr/error: duplicate key value violates unique constraint "keys_pkey"/, qr/recorded as failed/ ],
	'--exit-on-abort: the first client\'s abort ends the run');
is($node->safe_psql('postgres', q{
	SELECT status || ' ' || (options->>'exit_on_abort') FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	'failed true', 'the run is recorded failed, with exit_on_abort');

# a sweep's runs take it too: each ends, its failures counted
reset_keys();
my $before = $node->safe_psql('postgres', 'SELECT coalesce(max(run_id), 0) FROM polarbench_runs');
command_ok([ $bin, '-n', '-c', '1,2', '-t', '10', '-f', $insert, '--continue-on-error' ],
	'a sweep with --continue-on-error');
is($node->safe_psql('postgres', qq{
	SELECT string_agg(status || ' ' || (options->>'continue_on_error'), ',' ORDER BY run_id)
	  || ' ' || sum(failed_other) FROM polarbench_runs WHERE run_id > $before}),
	'finished true,finished true ' . failed_by_table(),
	'its runs finished with continue_on_error, their failures the table\'s');

# the option by the name polarbench_workloads and --list give it, as any
# workload's option
command_ok([ $bin, '-n', '-t', '1', '-f', $select, '--continue_on_error=true' ],
	'--continue_on_error=true, as --list names it');
is($node->safe_psql('postgres', q{
	SELECT options->>'continue_on_error' FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	'true', 'the run took it');

# 4. --exit_on_abort=false, pgbench's default: client 0's error stops it
# alone, the others run their transactions to the end; pgbench's lines on
# stderr, its report on stdout, exit status 2
$node->safe_psql('postgres', 'CREATE TABLE rows (client int)');
my $abort = "$tmp/abort.sql";
append_to_file($abort, "\\if :client_id = 0\nSELECT 1 / 0;\n\\endif\nINSERT INTO rows VALUES (:client_id);\n");
IPC::Run::run([ $bin, '-n', '-c', '3', '-t', '10', '-f', $abort, '--exit_on_abort=false' ],
	'>', \$out, '2>', \$err);
is($? >> 8, 2, '--exit_on_abort=false: a client aborted, exit status 2');
like($err, qr/error: client 0 aborted in command at line 2 of script "\Q$abort\E": division by zero/,
	'the abort in pgbench\'s words, on stderr');
like($err, qr/error: Run was aborted; the above results are incomplete\.\n\z/,
	'pgbench\'s last words, on stderr, after the report');
like($out, qr/^number of transactions actually processed: 20\/30$/m,
	'the report counts the other clients\' transactions');
is($node->safe_psql('postgres', q{SELECT string_agg(client || ':' || n, ',' ORDER BY client)
	FROM (SELECT client, count(*) n FROM rows GROUP BY client) c}),
	'1:10,2:10', 'the other clients ran every transaction, client 0 none');
is($node->safe_psql('postgres', q{
	SELECT status || ' ' || error_sqlstate || ' ' || transactions FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	'aborted 22012 20', 'the run is recorded aborted, with the error and the others\' transactions');
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM pg_stat_activity WHERE backend_type IN ('polarbench client', 'polarbench recorder')}),
	'0', 'no worker is left');

# a sweep ends at an aborted run, as at a failed one
command_checks_all([ $bin, '-n', '-c', '2,3', '-t', '2', '-f', $abort, '--exit_on_abort=false' ], 2, [qr/^/],
	[ qr/of the sweep was aborted/ ], 'a sweep ends at an aborted run');

# 5. under a rate with a latency limit, each script's skipped transactions
# under it, after its failures: they add up to the run's, and the script of
# weight 0 has none
my ($slow1, $slow2, $never) = ("$tmp/slow1.sql", "$tmp/slow2.sql", "$tmp/never.sql");
append_to_file($slow1, "SELECT pg_sleep(0.01);\n");
append_to_file($slow2, "SELECT pg_sleep(0.01), 2;\n");
append_to_file($never, "SELECT 3;\n");
($out, $err) = run_command([ $bin, '-n', '-c', '2', '-t', '20', '-R', '600', '-L', '5',
	'-f', "$slow1\@1", '-f', "$slow2\@1", '-f', "$never\@0" ]);
my ($run_skipped) = $out =~ /^number of transactions skipped: (\d+) /m;
my @script_skipped = $out =~ /^ - number of failed transactions: \d+ \([0-9.]+%\)\n - number of transactions skipped: (\d+) \([0-9.]+%\)$/mg;
ok(defined $run_skipped && $run_skipped > 0, 'transactions were skipped');
my $sum = 0;
$sum += $_ for @script_skipped;
is($sum, $run_skipped, 'the scripts\' skipped, each after its failures, add up to the run\'s');
like($out, qr/^SQL script 3: \Q$never\E\n - weight: 0 \(targets 0\.0% of total\)\n - 0 transactions \(0\.0% of total\)$/m,
	'the script of weight 0 ran and skipped nothing');

# 6. a workload of another tool takes neither, before anything runs
my $runs = $node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs');
command_fails_like([ $bin, '-b', 'oltp_point_select', '-t', '1', '--continue-on-error' ],
	qr/option --continue-on-error applies to pgbench scripts, not to workload "oltp_point_select"/,
	'--continue-on-error with a sysbench workload is refused');
command_fails_like([ $bin, '-b', 'ycsb-c', '-t', '1', '--exit-on-abort' ],
	qr/option --exit-on-abort applies to pgbench scripts, not to workload "ycsb-c"/,
	'--exit-on-abort with a YCSB workload is refused');
command_fails_like([ $bin, '-b', 'oltp_point_select', '-t', '1', '--exit_on_abort=false' ],
	qr/exit_on_abort/,
	'--exit_on_abort=false with a sysbench workload is refused');
is($node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs'), $runs,
	'no run was started');

$node->stop;
done_testing();
