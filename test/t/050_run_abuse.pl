# A hostile role, granted polarbench_run, tries to take the server and to
# read what is not its own: every worker slot, runs started from its own
# scripts, a run too big for memory, more clients than its connection
# limit, another role's run texts, another role's clients.  Each attempt is
# refused before anything starts, or fails alone, and leaves nothing
# behind.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('abuse');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 16
max_parallel_workers = 4
polarbench.max_clients = 6
polarbench.max_run_memory = '64MB'
});
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION polarbench;
	SELECT polarbench_init('pgbench', scale => 1);
	CREATE ROLE mallory LOGIN CONNECTION LIMIT 5;
	CREATE ROLE alice LOGIN;
	CREATE SCHEMA alice AUTHORIZATION alice;
	GRANT EXECUTE ON FUNCTION polarbench_run, polarbench_init, polarbench_start TO mallory, alice;
	GRANT SELECT ON pgbench_accounts, pgbench_branches TO mallory, alice;
	CREATE TABLE alice_secrets (s text);
	INSERT INTO alice_secrets VALUES ('the plans');
	ALTER TABLE alice_secrets OWNER TO alice;
});

my $workers = q{SELECT count(*) FROM pg_stat_activity
				 WHERE backend_type LIKE 'polarbench%'};

# run as a role; returns (exit code, stdout, stderr)
sub as_role
{
	my ($role, $sql) = @_;
	return $node->psql('postgres', $sql, extra_params => [ '-U', $role ]);
}

# start a long run as a role in the background, once its clients run
sub start_run
{
	my ($role, $clients) = @_;
	my $bg = $node->background_psql('postgres', on_error_stop => 0,
		extra_params => [ '-U', $role ]);
	$bg->query_until(qr/started/, qq{\\echo started
SELECT transactions > 0 FROM polarbench_run('select-only', clients => $clients, duration => 600);
});
	$node->poll_query_until('postgres', qq{
		SELECT count(*) = $clients FROM pg_stat_activity
		 WHERE backend_type = 'polarbench client' AND usename = '$role'
		   AND query LIKE 'SELECT abalance%'})
	  or die "clients of $role did not start";
	return $bg;
}

# cancel a run started with start_run, and end its session
sub stop_run
{
	my ($role, $bg) = @_;
	$node->safe_psql('postgres', qq{
		SELECT pg_cancel_backend(pid) FROM pg_stat_activity
		 WHERE backend_type = 'client backend' AND usename = '$role'
		   AND query LIKE '%polarbench_run(%' AND pid <> pg_backend_pid()});
	$bg->query('SELECT 1');
	$bg->quit;
	$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
}

# 1. the limits are the superuser's to set: before the library is loaded
# SET makes a placeholder, which loading the library refuses
my ($ret, $out, $err) = as_role('mallory', q{
	SET polarbench.max_clients = 100;
	SELECT transactions FROM polarbench_run(script => 'SELECT 1;', transactions => 1);
	SHOW polarbench.max_clients;
	SET polarbench.max_clients = 100});
like($err, qr/WARNING:  permission denied to set parameter "polarbench.max_clients"/,
	'a role cannot raise polarbench.max_clients before the library is loaded');
like($out, qr/^6$/m, 'the limit stays');
like($err, qr/ERROR:  permission denied to set parameter "polarbench.max_clients"/,
	'nor after');
($ret, $out, $err) = as_role('mallory', q{ALTER SYSTEM SET polarbench.max_clients = 100});
isnt($ret, 0, 'nor with ALTER SYSTEM');

# 2. more workers than the role's connection limit, counting its session
# and the run's recorder
($ret, $out, $err) = as_role('mallory',
	q{SELECT * FROM polarbench_run('select-only', clients => 4, duration => 600)});
like($err, qr/too many connections for role "mallory"/,
	'4 clients, their recorder and a session exceed a connection limit of 5');

# 3. every polarbench slot: what is left of polarbench.max_clients
my $run = start_run('mallory', 3);
($ret, $out, $err) = as_role('mallory',
	q{SELECT * FROM polarbench_run('select-only', clients => 1, duration => 600)});
like($err, qr/too many connections for role "mallory"/,
	'a second run of the role counts the clients of the first');
($ret, $out, $err) = as_role('alice',
	q{SELECT * FROM polarbench_run('select-only', clients => 2, transactions => 1)});
like($err, qr/ERROR:  too many polarbench workers/, 'all runs together are bounded');
like($err, qr/4 polarbench workers are running, 3 more would exceed polarbench.max_clients \(6\)/,
	'the error says what is running (the recorder counted) and the limit');
is(as_role('alice',
	q{SELECT transactions FROM polarbench_run('select-only', clients => 1, transactions => 5)}),
	0, 'a run that fits in what is left runs');
($ret, $out, $err) = as_role('alice',
	q{SELECT polarbench_init('sysbench', tables => 3, table_size => 10, parallel => 3)});
like($err, qr/too many polarbench workers/, 'parallel loads count too');
# the server's own workers are not taken: a parallel query still gets one
like($node->safe_psql('postgres', q{
	CREATE FUNCTION explained() RETURNS SETOF text LANGUAGE plpgsql AS $$
	BEGIN
		RETURN QUERY EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF) SELECT count(*) FROM pgbench_branches';
	END $$;
	SET force_parallel_mode = on;
	SELECT * FROM explained()}),
	qr/Workers Launched: [1-9]/, 'parallel query still gets a worker');
stop_run('mallory', $run);
ok(1, 'the long run is gone with its session');

# 3b. background runs: each takes a conductor, a client and a recorder, and
# every one of them counts; a start that does not fit is refused at once
my @started;
for my $i (1 .. 3)
{
	($ret, $out, $err) = as_role('alice',
		q{SELECT polarbench_start('select-only', clients => 1, duration => 600)});
	push @started, $out if $ret == 0;
}
is(scalar(@started), 2, 'two one-client background runs fit in polarbench.max_clients of 6');
like($err, qr/too many polarbench workers/, 'the third is refused');
is($node->safe_psql('postgres', $workers), '6', 'six polarbench processes, no more');
$node->safe_psql('postgres', "SELECT polarbench_cancel($_)") for @started;
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
ok(1, 'the background runs are canceled, with their workers');

# 4. runs started from a script: refused in the client, the run fails alone
($ret, $out, $err) = as_role('mallory', q{
	SELECT * FROM polarbench_run(
		script => 'SELECT polarbench_run(''select-only'', clients => 2, duration => 600);',
		transactions => 1)});
like($err, qr/polarbench_run cannot be called by a polarbench worker/,
	'a script cannot start a run');
is($node->safe_psql('postgres', $workers), '0', 'and no nested run is left');
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM polarbench_runs WHERE run_by = 'mallory' AND clients = 2}),
	'0', 'no nested run was recorded');

# 5. a run too big for memory: refused before any worker starts
my $before = $node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs');
($ret, $out, $err) = as_role('mallory', q{
	SELECT * FROM polarbench_run(
		script => (SELECT string_agg(format('SELECT %s;', i), E'\n')
					 FROM generate_series(1, 9000) i),
		clients => 3, transactions => 1)});
like($err, qr/ERROR:  the run's clients would take about [\d.]+ MB of memory, more than polarbench.max_run_memory \(64.0 MB\)/,
	'a run too big for memory is refused');
($ret, $out, $err) = as_role('mallory', q{
	SELECT * FROM polarbench_run(script => repeat(E'\\\\set x 1\n', 10001), transactions => 1)});
like($err, qr/more than polarbench.max_script_commands \(10000\)/, 'so is a script too long');
is($node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs'), $before,
	'nothing was recorded');

# 6. what is not its own: tables, other roles' run texts and clients
($ret, $out, $err) = as_role('mallory', q{
	SELECT * FROM polarbench_run(script => 'SELECT s FROM alice_secrets;', transactions => 1)});
like($err, qr/permission denied for table alice_secrets/, 'clients have only the role\'s rights');
($ret, $out, $err) = as_role('mallory', q{
	SELECT * FROM polarbench_run(script => 'SET ROLE alice;', transactions => 1)});
like($err, qr/permission denied to set role "alice"/, 'and cannot become another role');
is(as_role('alice', q{
	SELECT transactions FROM polarbench_run(script => 'SELECT :pw::text, s FROM alice_secrets;',
											vars => '{"pw": "hunter2"}', transactions => 1)}),
	0, 'alice runs with a secret');
($ret, $out, $err) = as_role('mallory', q{
	SELECT coalesce(vars::text, 'hidden') || ' ' || coalesce(scripts::text, 'hidden') || ' ' ||
	       transactions
	  FROM polarbench_runs WHERE run_by = 'alice' ORDER BY run_id DESC LIMIT 1});
is($out, 'hidden hidden 1', 'another role sees the figures of alice\'s run, not its texts');
($ret, $out, $err) = as_role('mallory', q{
	SELECT count(*) FROM polarbench_statements s JOIN polarbench_runs r USING (run_id)
	 WHERE r.run_by = 'alice' AND s.command IS NOT NULL});
is($out, '0', 'nor its commands');
($ret, $out, $err) = as_role('mallory', q{SELECT vars FROM polarbench_run_data});
like($err, qr/permission denied for table polarbench_run_data/, 'nor the tables behind the views');
$run = start_run('alice', 1);
my $alice_client = $node->safe_psql('postgres', q{
	SELECT pid FROM pg_stat_activity WHERE backend_type = 'polarbench client'});
($ret, $out, $err) = as_role('mallory', "SELECT pg_terminate_backend($alice_client)");
like($err, qr/must be a member of the role whose process is being terminated/, 'nor stop alice\'s clients');
stop_run('alice', $run);
ok(1, 'no worker left');

$node->stop;
done_testing();
