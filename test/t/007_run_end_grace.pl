# A run ends when it says it will, even with a client held in a long
# statement: polarbench_cancel() of a background run, the caller's
# statement timeout, a run of a number of transactions canceled, each run
# of a sweep at its duration and grace, a background run at the grace of
# its caller's polarbench.end_grace.  The transactions ended so are rolled
# back and counted in cut_off (the live view counts them as they go), and
# no worker is left.  A client whose statement ignores the cancel is
# terminated, and the run fails saying so.  The client program reports the
# count as pgbench reports failures.
#
# The trigger holds client 1 for 600 s: a run that did not end would hold
# the test past its timeout; the recorded end less start is checked to be
# far below that, which no timing of the machine can make fail.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('end_grace');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$node->start;

# client 1 is held in the trigger of its first row; the others go on.
# stubborn_rows also holds client 2, and has client 1 catch the cancel of
# its sleep and sleep again, as a statement that ignores cancels would.
$node->safe_psql('postgres', q{
	CREATE EXTENSION polarbench;
	CREATE TABLE slow_rows (client text, n int);
	-- a benchmark client's name, as pg_stat_activity shows it
	CREATE FUNCTION client_name() RETURNS text LANGUAGE sql AS $$
		SELECT application_name FROM pg_stat_activity WHERE pid = pg_backend_pid()
	$$;
	CREATE FUNCTION hold_client_1() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		IF client_name() = 'polarbench client 1' THEN
			PERFORM pg_sleep(600);
		END IF;
		RETURN NEW;
	END $$;
	CREATE TRIGGER hold BEFORE INSERT ON slow_rows
		FOR EACH ROW EXECUTE FUNCTION hold_client_1();
	CREATE TABLE stubborn_rows (client text);
	CREATE FUNCTION hold_stubbornly() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		IF client_name() = 'polarbench client 1' THEN
			LOOP
				BEGIN
					PERFORM pg_sleep(600);
				EXCEPTION WHEN query_canceled THEN
					NULL;
				END;
			END LOOP;
		ELSIF client_name() = 'polarbench client 2' THEN
			PERFORM pg_sleep(600);
		END IF;
		RETURN NEW;
	END $$;
	CREATE TRIGGER hold BEFORE INSERT ON stubborn_rows
		FOR EACH ROW EXECUTE FUNCTION hold_stubbornly();
});

my $script = q{BEGIN;
INSERT INTO slow_rows VALUES (client_name(), 1);
END;};
my $workers = q{SELECT count(*) FROM pg_stat_activity
				 WHERE backend_type LIKE 'polarbench%'};
my $held = q{SELECT count(*) = 1 FROM pg_stat_activity
			  WHERE application_name = 'polarbench client 1' AND wait_event = 'PgSleep'};

# The last run as recorded: status, transactions > 0, cut_off, end_grace,
# and whether it ended far sooner than the trigger's sleep.
sub last_run
{
	return $node->safe_psql('postgres', q{
		SELECT status || ' ' || (transactions > 0) || ' ' || cut_off || ' '
			   || coalesce(end_grace::text, '-') || ' '
			   || (ended_at - started_at < interval '300 s')
		  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1});
}

# Nothing of client 1's was committed, and every other row is a counted
# transaction's.
sub rows_of_counted_transactions
{
	my ($what) = @_;
	is($node->safe_psql('postgres', q{
		SELECT count(*) FILTER (WHERE client = 'polarbench client 1') || ' '
			   || (count(*) = (SELECT transactions FROM polarbench_runs
								ORDER BY run_id DESC LIMIT 1))
		  FROM slow_rows}),
		'0 true', "$what: the cut-off transaction is rolled back, the others counted once");
	$node->safe_psql('postgres', 'TRUNCATE slow_rows');
}

# 1. polarbench_cancel() of a background run while client 1 sleeps in the
# trigger: the run ends at once, not after 600 s
my $run = $node->safe_psql('postgres', qq{
	SELECT polarbench_start(script => \$\$$script\$\$, clients => 2, duration => 600)});
$node->poll_query_until('postgres', $held) or die 'client 1 was not held';
$node->poll_query_until('postgres', qq{
	SELECT transactions > 0 FROM polarbench_live WHERE run_id = $run})
  or die 'the run was not seen live';
is($node->safe_psql('postgres', "SELECT polarbench_cancel($run)"), 't',
	'a background run with a client held in a trigger is canceled');
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
# client 2's transaction is cut off too if the cancel came in one
like(last_run(), qr/^canceled true [12] 5 true$/,
	'it ends at once, recorded as canceled, the held transaction cut off');
rows_of_counted_transactions('a cancel');

# 2. the caller's statement timeout (as Ctrl-C) while client 1 is held
my ($ret, $out, $err) = $node->psql('postgres', qq{
	SET statement_timeout = '2s';
	SELECT * FROM polarbench_run(script => \$\$$script\$\$, clients => 2, duration => 600)},
	timeout => $PostgreSQL::Test::Utils::timeout_default);
like($err, qr/canceling statement due to statement timeout/,
	'the caller\'s statement timeout ends a run whose client is held');
is($node->safe_psql('postgres', $workers), '0', 'no worker is left when it returns');
like(last_run(), qr/^canceled true [12] 5 true$/, 'and the held transaction is cut off');
rows_of_counted_transactions('a statement timeout');

# 3. a run of a number of transactions has no end to bound, but a cancel
$run = $node->safe_psql('postgres', qq{
	SELECT polarbench_start(script => \$\$$script\$\$, clients => 2,
							transactions => 100000000)});
$node->poll_query_until('postgres', $held) or die 'client 1 was not held';
$node->safe_psql('postgres', "SELECT polarbench_cancel($run)");
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
like(last_run(), qr/^canceled true [12] - true$/,
	'a run of a number of transactions is canceled with a client held');
rows_of_counted_transactions('a canceled run of transactions');

# 4. each run of a sweep ends at its duration and grace
my $sweep = $node->safe_psql('postgres', qq{
	SELECT min(sweep_id)
	  FROM polarbench_sweep(script => \$\$$script\$\$, clients => '{2,3}',
							duration => 1, end_grace => 0.5)},
	timeout => $PostgreSQL::Test::Utils::timeout_default);
is($node->safe_psql('postgres', qq{
	SELECT string_agg(clients || ':' || (transactions > 0) || ':' || cut_off || ':'
					  || end_grace || ':' || status, ' ' ORDER BY run_id)
	  FROM polarbench_runs WHERE sweep_id = $sweep}),
	'2:true:1:0.5:finished 3:true:1:0.5:finished',
	'every run of a sweep ends, client 1\'s transaction cut off');
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM slow_rows WHERE client = 'polarbench client 1'}),
	'0', 'and rolled back');
$node->safe_psql('postgres', 'TRUNCATE slow_rows');

# 5. a background run takes its caller's polarbench.end_grace
$run = $node->safe_psql('postgres', qq{
	SET polarbench.end_grace = '1s';
	SELECT polarbench_start(script => \$\$$script\$\$, clients => 2, duration => 1)});
$node->poll_query_until('postgres', qq{
	SELECT status <> 'running' FROM polarbench_runs WHERE run_id = $run})
  or die 'the background run did not end';
is(last_run(), 'finished true 1 1 true',
	'a background run ends at its duration and its caller\'s grace');
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
rows_of_counted_transactions('a background run');

# 6. a statement that ignores the cancel: client 2 is cut off at the end of
# the grace (the live view counts it while the run goes on), client 1 is
# terminated some seconds later, and the run fails saying why
$run = $node->safe_psql('postgres', q{
	SELECT polarbench_start(script => 'INSERT INTO stubborn_rows VALUES (client_name());',
							clients => 3, duration => 1, end_grace => 0.5)});
$node->poll_query_until('postgres', qq{
	SELECT cut_off = 1 AND clients = 1 FROM polarbench_live WHERE run_id = $run})
  or die 'the live view did not show client 2 cut off';
ok(1, 'the live view counts the transaction cut off while client 1 holds on');
($ret, $out, $err) = $node->psql('postgres', "SELECT * FROM polarbench_wait($run)",
	timeout => $PostgreSQL::Test::Utils::timeout_default);
like($err, qr/ERROR:  benchmark client 1 did not stop when its statement was canceled at the end of the run/,
	'a client that ignores the cancel is terminated, and the run fails');
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
is(last_run(), 'failed true 1 0.5 true', 'the run is recorded as failed, with client 2\'s cut-off');
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM stubborn_rows WHERE client IN ('polarbench client 1', 'polarbench client 2')}),
	'0', 'and neither held transaction is committed');

# 7. the client program reports the count, as pgbench reports failures
my $bin = "$ENV{TESTDIR}/src/bin/polarbench/polarbench";
SKIP:
{
	skip "client not built: $bin", 2 unless -x $bin;
	my $file = PostgreSQL::Test::Utils::tempdir . '/held.sql';
	open(my $fh, '>', $file) or die "could not write $file: $!";
	print $fh $script;
	close($fh);
	local $ENV{PGHOST} = $node->host;
	local $ENV{PGPORT} = $node->port;
	local $ENV{PGDATABASE} = 'postgres';
	($out, $err) = ('', '');
	IPC::Run::run([ $bin, '-n', '-f', $file, '-c', '2', '-T', '1', '--end-grace', '0.5' ],
		'>', \$out, '2>', \$err,
		IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
	is($? >> 8, 0, 'the client program runs with --end-grace') or diag("stderr: $err");
	like($out, qr/^number of failed transactions: 0 \(0\.000%\)\nnumber of transactions cut off at the end: 1 \([0-9.]+%\)$/m,
		'and reports the transaction cut off after the failures');
}

$node->stop;
done_testing();
