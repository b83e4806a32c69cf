# Every wait of a run has an end: clients held up by another session fail
# the run after polarbench.start_timeout; a client that waits behind
# another session for a lock the caller holds ends the run at once; the
# caller's wait for its clients can be canceled.  No worker is left.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('waits');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION polarbench;
	SELECT polarbench_init('pgbench', scale => 1);
	-- a copy the caller sees through its search_path; the clients log in
	-- with the role's own, and use public's
	CREATE SCHEMA shadow;
	CREATE TABLE shadow.pgbench_accounts (LIKE pgbench_accounts);
});

my $workers = q{SELECT count(*) FROM pg_stat_activity
				 WHERE backend_type LIKE 'polarbench%'};

# a session that holds a lock in an open transaction
sub hold
{
	my ($sql) = @_;
	my $s = $node->background_psql('postgres');
	$s->query_safe("BEGIN; $sql");
	return $s;
}

# 1. another session's lock keeps the clients from preparing: the run fails
# after polarbench.start_timeout, with what was ready
my $locker = hold('LOCK TABLE public.pgbench_accounts');
my ($ret, $out, $err) = $node->psql('postgres', q{
	SET polarbench.start_timeout = '500ms';
	SET search_path = shadow, public;
	SELECT * FROM polarbench_run(script => 'SELECT abalance FROM pgbench_accounts WHERE aid = 1;',
								 clients => 2, transactions => 1)});
like($err, qr/ERROR:  the run's clients were not ready within polarbench.start_timeout \(500 ms\)/,
	'clients held up by another session fail the run in time');
like($err, qr/DETAIL:  0 of 2 clients had prepared their statements\./, 'saying how many were ready');
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
ok(1, 'no worker left after the timeout');

# 2. the same wait, canceled by the caller's user
my $bg = $node->background_psql('postgres', on_error_stop => 0);
$bg->query_until(qr/started/, q{\echo started
SET search_path = shadow, public;
SELECT * FROM polarbench_run(script => 'SELECT abalance FROM pgbench_accounts WHERE aid = 1;',
							 clients => 2, transactions => 1);
});
$node->poll_query_until('postgres', q{
	SELECT count(*) = 2 FROM pg_stat_activity
	 WHERE backend_type = 'polarbench client' AND wait_event_type = 'Lock'})
  or die 'clients did not wait';
$node->safe_psql('postgres', q{
	SELECT pg_cancel_backend(pid) FROM pg_stat_activity
	 WHERE backend_type = 'client backend' AND query LIKE '%polarbench_run(%'
	   AND pid <> pg_backend_pid()});
$bg->query('SELECT 1');
like($bg->{stderr}, qr/canceling statement due to user request/, 'the wait for the clients can be canceled');
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
ok(1, 'no worker left after the cancel');
$bg->quit;
$locker->query_safe('COMMIT');

# 3. the caller holds a lock that a third session queues for; a client
# queues behind that session: it waits for the caller, through it
$bg = $node->background_psql('postgres', on_error_stop => 0);
$bg->query_safe('BEGIN; SELECT count(*) FROM pgbench_accounts');
my $queued = $node->background_psql('postgres', on_error_stop => 0);
$queued->query_until(qr/queued/, "\\echo queued\nBEGIN; LOCK TABLE pgbench_accounts;\n");
$node->poll_query_until('postgres', q{
	SELECT count(*) = 1 FROM pg_stat_activity
	 WHERE query LIKE '%LOCK TABLE pgbench_accounts;' AND wait_event_type = 'Lock'})
  or die 'the third session did not queue';
$bg->query(q{SELECT * FROM polarbench_run('select-only', clients => 2, transactions => 10)});
like($bg->{stderr}, qr/ERROR:  benchmark client \d waits for a lock held by the transaction that started the run/,
	'a client waiting behind another session for the caller ends the run');
like($bg->{stderr}, qr/directly or behind other waiters/, 'the detail says how');
$bg->query('ROLLBACK');
$bg->quit;
$queued->query('ROLLBACK');
$queued->quit;
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
ok(1, 'no worker left after the chain is found');

$node->stop;
done_testing();
