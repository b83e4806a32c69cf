# Runs started, watched and stopped from any session: canceling
# polarbench_start() while it waits leaves no worker; a run started in the
# foreground is canceled from a second session, which watches it live; a
# background write run started and waited for from transaction blocks, as
# psycopg and JDBC open them, holds back no dead-row removal.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('background');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION polarbench;
	SELECT polarbench_init('pgbench', scale => 1);
});

my $workers = q{SELECT count(*) FROM pg_stat_activity
				 WHERE backend_type LIKE 'polarbench%'};

# 1. polarbench_start waits for clients held up by a lock; canceled by a
# statement timeout, it stops its conductor and with it the run
my $locker = $node->background_psql('postgres');
$locker->query_safe('BEGIN; LOCK TABLE pgbench_accounts');
my ($ret, $out, $err) = $node->psql('postgres', q{
	SET statement_timeout = '1s';
	SELECT polarbench_start('select-only', clients => 2, duration => 60)});
like($err, qr/canceling statement due to statement timeout/,
	'polarbench_start can be canceled while it waits for the start');
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
ok(1, 'no conductor, client or recorder is left');
$locker->query_safe('COMMIT');
is($node->safe_psql('postgres', q{SELECT count(*) FROM polarbench_runs WHERE status = 'running'}),
	'0', 'and no run is left running');

# 2. a foreground run, watched live and canceled from a second session
my $fg = $node->background_psql('postgres', on_error_stop => 0);
$fg->query_until(qr/started/, q{\echo started
SELECT * FROM polarbench_run('select-only', clients => 2, duration => 60);
});
$node->poll_query_until('postgres', q{SELECT count(*) = 1 FROM polarbench_live WHERE tps > 0})
  or die 'the run was not seen live';
my $live = $node->safe_psql('postgres', q{
	SELECT workload || ' ' || clients || ' ' || (latency_p50 <= latency_p999)
	  FROM polarbench_live});
is($live, 'select-only 2 true', 'a second session sees the run live');
is($node->safe_psql('postgres', q{
	SELECT polarbench_cancel(run_id) FROM polarbench_live}), 't',
	'and cancels it');
$fg->query('SELECT 1');
like($fg->{stderr}, qr/ERROR:  run \d+ was canceled/, 'the caller learns that its run was canceled');
is($node->safe_psql('postgres', q{
	SELECT status || ' ' || (seconds < 60) FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	'canceled true', 'the run is recorded as canceled, cut short');
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
ok(1, 'no worker is left after the cancel');
$fg->quit;

# 3. a write run from transaction blocks: started in one, waited for in the
# next, as a driver that opens a block before every statement does
my $app = $node->background_psql('postgres', on_error_stop => 0);
$app->query_safe(q{SET application_name = 'app'});
$app->query_safe('BEGIN');
my $run = $app->query_safe(q{SELECT polarbench_start('tpcb-like', clients => 2, duration => 60)});
$app->query_safe('COMMIT');
like($run, qr/^\d+$/, 'a background run starts from a transaction block');
$app->query_until(qr/waiting/, qq{\\echo waiting
BEGIN;
SELECT transactions FROM polarbench_wait($run);
});
$node->poll_query_until('postgres', q{
	SELECT count(*) = 1 FROM pg_stat_activity
	 WHERE application_name = 'app' AND query LIKE '%polarbench_wait(%'
	   AND wait_event = 'Extension'}) or die 'the application did not wait';
# the run's own updates need pruning; nobody outside the clients holds them back
my $xmins = q{
	SELECT string_agg(coalesce(backend_type, '?') || '=' || coalesce(backend_xmin::text, 'none'), ' '
					  ORDER BY backend_type)
	  FROM pg_stat_activity
	 WHERE application_name = 'app' OR backend_type = 'polarbench conductor'};
$node->poll_query_until('postgres', qq{SELECT ($xmins) = 'client backend=none polarbench conductor=none'})
  or die 'an xmin is held: ' . $node->safe_psql('postgres', $xmins);
ok(1, 'neither the waiting application nor the conductor holds back the xmin horizon');
# and the horizon moves: rows the run made dead are removable while it goes on
my $xid = $node->safe_psql('postgres', 'SELECT txid_current()');
$node->poll_query_until('postgres', qq{
	SELECT count(*) = 0 FROM pg_stat_activity
	 WHERE backend_xmin IS NOT NULL AND backend_xmin::text::bigint <= $xid
	   AND backend_type <> 'polarbench client'}) or die 'the horizon did not move';
ok(1, 'no backend but the clients keeps an xmin older than the run');
is($node->safe_psql('postgres', qq{SELECT polarbench_cancel($run)}), 't', 'the background run is canceled');
$app->query('SELECT 1');
like($app->{stderr}, qr/ERROR:  run $run was canceled/, 'and its waiter told so');
$app->query('ROLLBACK');
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
ok(1, 'no worker is left');
$app->quit;

# 4. a sweep canceled in its first run: that run is recorded as canceled,
# and no other starts
my $sweeper = $node->background_psql('postgres', on_error_stop => 0);
$sweeper->query_until(qr/started/, q{\echo started
SELECT * FROM polarbench_sweep('select-only', clients => '{1,2,1}', duration => 60);
});
$node->poll_query_until('postgres', q{
	SELECT count(*) = 1 FROM polarbench_live l JOIN polarbench_runs r USING (run_id)
	 WHERE r.sweep_run = 1}) or die 'the sweep did not start';
$node->safe_psql('postgres', q{
	SELECT pg_cancel_backend(pid) FROM pg_stat_activity
	 WHERE query LIKE '%polarbench_sweep(%' AND pid <> pg_backend_pid()});
$sweeper->query('SELECT 1');
like($sweeper->{stderr}, qr/canceling statement due to user request/, 'a sweep can be canceled');
is($node->safe_psql('postgres', q{
	SELECT string_agg(sweep_run || ' ' || status, ', ' ORDER BY sweep_run)
	  FROM polarbench_runs WHERE sweep_id IS NOT NULL}),
	'1 canceled', 'the run in progress is recorded as canceled, and no other starts');
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
ok(1, 'no worker is left after the sweep');
$sweeper->quit;

$node->stop;
done_testing();
