# Every wait of a run has an end: clients held up by another session fail
# the run after polarbench.start_timeout, and a recorder held up with them
# is stopped too; a client that waits behind another session for a lock
# the caller holds ends the run at once; the caller's wait for its clients
# can be canceled.  No worker is left.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $node = PostgreSQL::Test::Cluster->new('waits');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION polarbench;
	SELECT polarbench_init('pgbench', scale => 1);
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

# Poll a query in an open session until it returns true, as
# poll_query_until does in new sessions, which the lock below keeps out.
sub poll_in
{
	my ($session, $sql) = @_;
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;

	while (time < $deadline)
	{
		return 1 if $session->query_safe($sql) eq 't';
		usleep(100_000);
	}
	return 0;
}

# Every login reads pg_db_role_setting: a session that locks it keeps the
# clients from logging in, while the caller's session, open before, checks
# the run as ever (it and its clients see the same tables, so no lock on
# those could hold up the clients alone).
my $caller = $node->background_psql('postgres', on_error_stop => 0);
my $canceled = $node->background_psql('postgres', on_error_stop => 0);
my $locker = hold('LOCK TABLE pg_catalog.pg_db_role_setting');
my $logins_waiting = q{SELECT count(*) FROM pg_locks
						WHERE relation = 'pg_catalog.pg_db_role_setting'::regclass AND NOT granted};

# 1. the clients held up: the run fails after polarbench.start_timeout, with
# what was ready, and its workers go, though they wait
$caller->query(q{
	SET polarbench.start_timeout = '500ms';
	SELECT * FROM polarbench_run(script => 'SELECT abalance FROM pgbench_accounts WHERE aid = 1;',
								 clients => 2, transactions => 1)});
like($caller->{stderr}, qr/ERROR:  the run's clients were not ready within polarbench.start_timeout \(500 ms\)/,
	'clients held up by another session fail the run in time');
like($caller->{stderr}, qr/DETAIL:  0 of 2 clients had prepared their statements, and the run was not recorded yet\./,
	'saying how many were ready');
ok(poll_in($locker, "SELECT ($logins_waiting) = 0"), 'no worker left after the timeout');
$caller->quit;

# 2. the same wait, canceled by the caller's user (the lock waits of the
# clients and the recorder are not timed out)
$canceled->query_until(qr/started/, q{\echo started
SET polarbench.lock_timeout = 0;
SELECT * FROM polarbench_run(script => 'SELECT abalance FROM pgbench_accounts WHERE aid = 1;',
							 clients => 2, transactions => 1);
});
ok(poll_in($locker, "SELECT ($logins_waiting) = 3"), 'the clients and the recorder wait to log in');
$locker->query_safe(q{
	SELECT pg_cancel_backend(pid) FROM pg_stat_activity
	 WHERE backend_type = 'client backend' AND query LIKE '%polarbench_run(%'
	   AND pid <> pg_backend_pid()});
$canceled->query('SELECT 1');
like($canceled->{stderr}, qr/canceling statement due to user request/, 'the wait for the clients can be canceled');
ok(poll_in($locker, "SELECT ($logins_waiting) = 0"), 'no worker left after the cancel');
$canceled->quit;
$locker->query_safe('COMMIT');
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
ok(1, 'and none once logins go on');

# 3. the caller holds a lock that a third session queues for; a client
# queues behind that session: it waits for the caller, through it
my $bg = $node->background_psql('postgres', on_error_stop => 0);
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
