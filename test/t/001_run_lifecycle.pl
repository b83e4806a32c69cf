# A run seen from outside while it goes on, and ended from outside: live
# progress and history from another session, cancel, statement timeout and
# termination of the caller, a client error mid-run.  After each, no worker
# is left and the run is recorded with the right status.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('lifecycle');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 16\nrestart_after_crash = on\n");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION polarbench;
	SELECT polarbench_init('pgbench', scale => 1);
});

my $workers = q{SELECT count(*) FROM pg_stat_activity
				 WHERE backend_type LIKE 'polarbench%'};

# Start a long run in the background; return the session once its clients
# are running their statement.
sub start_run
{
	my ($sql, $pattern) = @_;
	my $bg = $node->background_psql('postgres', on_error_stop => 0);
	$bg->query_until(qr/started/, "\\echo started\n$sql;\n");
	$node->poll_query_until('postgres', qq{
		SELECT count(*) = 2 FROM pg_stat_activity
		 WHERE backend_type = 'polarbench client' AND query LIKE '$pattern'})
	  or die "clients did not start";
	return $bg;
}

sub launcher_pid
{
	return $node->safe_psql('postgres', q{
		SELECT pid FROM pg_stat_activity
		 WHERE backend_type = 'client backend' AND query LIKE '%polarbench_run(%'
		   AND pid <> pg_backend_pid()});
}

sub last_run
{
	return $node->safe_psql('postgres', q{
		SELECT status || ' ' || coalesce(error_sqlstate, '-')
		  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1});
}

# 1. live progress and history from another session, then cancel
my $bg = start_run(
	q{SELECT * FROM polarbench_run('select-only', clients => 2, duration => 600, progress => 1)},
	'SELECT abalance FROM pgbench_accounts%');
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM pg_stat_activity
	 WHERE backend_type = 'polarbench recorder'}), '1', 'recorder shows in pg_stat_activity');
is(last_run(), 'running -', 'another session sees the run as running');
$node->poll_query_until('postgres', q{
	SELECT count(*) >= 2 FROM polarbench_progress
	 WHERE run_id = (SELECT max(run_id) FROM polarbench_runs)})
  or die "no progress rows";
ok(1, 'progress rows are committed while the run goes on');
pump_until($bg->{run}, $bg->{timeout}, \$bg->{stderr}, qr/progress: .* failed/);
like($bg->{stderr}, qr/NOTICE:  progress: \d+\.\d s, \d+\.\d tps, lat \d+\.\d{3} ms stddev \d+\.\d{3}, \d+ failed/,
	'progress notices in pgbench format');

my $pid = launcher_pid();
$node->safe_psql('postgres', "SELECT pg_cancel_backend($pid)");
$bg->query('SELECT 1');
like($bg->{stderr}, qr/canceling statement due to user request/, 'cancel reaches the caller');
is($node->safe_psql('postgres', $workers), '0', 'no worker left after cancel');
is(last_run(), 'canceled -', 'canceled run is recorded as canceled');
is($node->safe_psql('postgres', q{
	SELECT transactions > 0 AND ended_at IS NOT NULL FROM polarbench_runs
	 ORDER BY run_id DESC LIMIT 1}), 't', 'canceled run keeps its figures');
$bg->quit;

# 2. statement_timeout
$bg = $node->background_psql('postgres', on_error_stop => 0);
$bg->query(q{SET statement_timeout = '3s'});
$bg->query(q{SELECT * FROM polarbench_run('select-only', clients => 2, duration => 600)});
like($bg->{stderr}, qr/canceling statement due to statement timeout/, 'statement timeout stops the run');
is($node->safe_psql('postgres', $workers), '0', 'no worker left after statement timeout');
is(last_run(), 'canceled -', 'timed out run is recorded as canceled');
$bg->quit;

# 3. the caller is terminated
$bg = start_run(
	q{SELECT * FROM polarbench_run('select-only', clients => 2, duration => 600)},
	'SELECT abalance FROM pgbench_accounts%');
$pid = launcher_pid();
$node->safe_psql('postgres', "SELECT pg_terminate_backend($pid)");
$node->poll_query_until('postgres', "SELECT ($workers) = 0")
  or die "workers left";
ok(1, 'no worker left after the caller is terminated');
$node->poll_query_until('postgres', q{
	SELECT status = 'canceled' FROM polarbench_runs ORDER BY run_id DESC LIMIT 1})
  or die "run not canceled";
ok(1, 'terminated run is recorded as canceled');
eval { $bg->quit };

# 4. a client error mid-run: the table goes away under the clients
$bg = start_run(
	q{SELECT * FROM polarbench_run('select-only', clients => 2, duration => 600)},
	'SELECT abalance FROM pgbench_accounts%');
$node->safe_psql('postgres', 'DROP TABLE pgbench_accounts');
$bg->query('SELECT 1');
like($bg->{stderr}, qr/ERROR:  relation "pgbench_accounts" does not exist/,
	'the client error reaches the caller');
is($node->safe_psql('postgres', $workers), '0', 'no worker left after a client error');
is(last_run(), 'failed 42P01', 'failed run is recorded with its SQLSTATE');
$bg->quit;

# 5. a crash cuts a run short: the next run marks it failed, not running
$node->safe_psql('postgres', q{SELECT polarbench_init('pgbench', scale => 1)});
$bg = start_run(
	q{SELECT * FROM polarbench_run('select-only', clients => 2, duration => 600)},
	'SELECT abalance FROM pgbench_accounts%');
my $run_id = $node->safe_psql('postgres', 'SELECT max(run_id) FROM polarbench_runs');
my $recorder = $node->safe_psql('postgres', q{
	SELECT pid FROM pg_stat_activity WHERE backend_type = 'polarbench recorder'});
kill 'KILL', $recorder;
eval { $bg->quit };
$node->poll_query_until('postgres', 'SELECT true') or die;
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
is($node->safe_psql('postgres', qq{
	SELECT status || ' ' || error_sqlstate FROM polarbench_runs WHERE run_id = $run_id}),
	'failed 57P01', 'the run cut short by the crash shows as failed before any run starts');
is($node->safe_psql('postgres', q{
	SELECT transactions FROM polarbench_run('select-only', transactions => 3)}),
	'3', 'runs work after the crash');
is($node->safe_psql('postgres', qq{
	SELECT status || ' ' || error_sqlstate FROM polarbench_runs WHERE run_id = $run_id}),
	'failed 57P01', 'the run cut short by the crash is marked failed');

# 6. a client is terminated: the run fails and the other client stops
$bg = start_run(
	q{SELECT * FROM polarbench_run('select-only', clients => 2, duration => 600)},
	'SELECT abalance FROM pgbench_accounts%');
$node->safe_psql('postgres', q{
	SELECT pg_terminate_backend(pid) FROM pg_stat_activity
	 WHERE backend_type = 'polarbench client' LIMIT 1});
$bg->query('SELECT 1');
like($bg->{stderr}, qr/ERROR:  benchmark client \d was terminated/,
	'a terminated client fails the run');
is($node->safe_psql('postgres', $workers), '0', 'no worker left after a client is terminated');
is(last_run(), 'failed 57P01', 'the run is recorded as failed');
$bg->quit;

# 7. the recorder fails (here its progress row is refused): the run stops
$node->safe_psql('postgres', q{
	ALTER TABLE polarbench_progress_data ADD CONSTRAINT refuse CHECK (false) NOT VALID});
my ($ret, $out, $err) = $node->psql('postgres', q{
	SELECT * FROM polarbench_run('select-only', clients => 2, duration => 600, progress => 1)});
like($err, qr/ERROR:  new row for relation "polarbench_progress_data" violates check constraint "refuse".*CONTEXT:  .*the recorder of run \d+; the run could not be recorded to its end, and polarbench_runs shows it as failed/s,
	'a failed recorder stops the run with its error, and says what became of the run');
is(last_run(), 'failed 57P01', 'the run whose recorder failed shows as failed at once');
is($node->safe_psql('postgres', $workers), '0', 'no worker left after the recorder failed');
$node->safe_psql('postgres', q{
	ALTER TABLE polarbench_progress_data DROP CONSTRAINT refuse});

# 8. the recorder is terminated: the caller is told the truth, and the run
# shows as failed, before any other run starts
$bg = start_run(
	q{SELECT * FROM polarbench_run('select-only', clients => 2, duration => 600)},
	'SELECT abalance FROM pgbench_accounts%');
$node->safe_psql('postgres', q{
	SELECT pg_terminate_backend(pid) FROM pg_stat_activity
	 WHERE backend_type = 'polarbench recorder'});
$bg->query('SELECT 1');
like($bg->{stderr}, qr/the run could not be recorded to its end, and polarbench_runs shows it as failed/,
	'the caller hears that the run is not recorded to its end');
unlike($bg->{stderr}, qr/recorded as failed/, 'and not that it is recorded as failed');
is($node->safe_psql('postgres', $workers), '0', 'no worker left after the recorder is terminated');
is(last_run(), 'failed 57P01', 'the run shows as failed');
$bg->quit;

# 9. DROP EXTENSION while a run goes on waits for the run to be recorded
$bg = start_run(
	q{SELECT transactions > 0 AS ran FROM polarbench_run('select-only', clients => 2, duration => 3)},
	'SELECT abalance FROM pgbench_accounts%');
my $drop = $node->background_psql('postgres', on_error_stop => 0);
$drop->query_until(qr/dropping/, "\\echo dropping\nDROP EXTENSION polarbench;\n");
$node->poll_query_until('postgres', q{
	SELECT count(*) = 1 FROM pg_stat_activity
	 WHERE query = 'DROP EXTENSION polarbench;' AND wait_event_type = 'Lock'})
  or die 'DROP EXTENSION did not wait';
pass('DROP EXTENSION waits for the run');
my $result = $bg->query('SELECT 1');
like($result, qr/^t$/m, 'the run ends and returns its result');
unlike($bg->{stderr}, qr/ERROR/, 'without an error');
$drop->quit;
is($node->safe_psql('postgres', q{SELECT count(*) FROM pg_extension WHERE extname = 'polarbench'}),
	'0', 'then the extension is dropped');
$bg->quit;

$node->stop;
done_testing();
