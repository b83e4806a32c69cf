# polarbench_run(..., nodes => 'all') on a Citus coordinator: the run's
# clients on every node, one run recorded on the coordinator with each
# node's figures, and the tables showing every transaction.  A node killed
# mid-run and the caller's cancel end the run everywhere with no worker
# left; every refusal leaves nothing on any node.  A node that never
# answers the coordinator's connection: the caller's cancel and
# statement_timeout end the call at once, citus.node_connection_timeout
# names the node.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IO::Socket::INET;
use PolarbenchCitus;

PolarbenchCitus::skip_unless_installed();

my $cluster = PolarbenchCitus->new('citus_nodes');
my $c = $cluster->coordinator;
my @nodes = $cluster->nodes;
my ($w1, $w2) = $cluster->workers;

sub value { return $c->safe_psql('postgres', $_[0]); }

sub no_worker_left { return $cluster->no_worker_left(@_); }
sub run_counts { return $cluster->run_counts; }

# the clients' waits for a lock held by the test are not timed out
$_->safe_psql('postgres', 'ALTER ROLE postgres SET polarbench.lock_timeout = 0') foreach @nodes;

value(q{SELECT * FROM polarbench_init('pgbench', scale => 1, distributed => true,
									  shard_count => 4)});

# ---- tpcb-like on every node ------------------------------------------------

my $run = value(q{
	SELECT run_id FROM polarbench_run('tpcb-like', clients => 2, transactions => 15,
									  nodes => 'all')});
like($run, qr/^\d+$/, 'tpcb-like with nodes => all returns a run');
is(value(qq{SELECT status || ' ' || node || ' ' || clients FROM polarbench_runs WHERE run_id = $run}),
	'finished all 6', 'one run on the coordinator: finished, node all, clients of every node');
is(value(qq{SELECT transactions FROM polarbench_runs WHERE run_id = $run}),
	value('SELECT count(*) FROM pgbench_history'),
	'the run\'s transactions are the history rows of the whole cluster');
is(value(qq{SELECT transactions = 3 * 2 * 15 FROM polarbench_runs WHERE run_id = $run}),
	't', 'every client of every node ran its transactions');
is(value(qq{
	SELECT sum((n ->> 'transactions')::bigint) = r.transactions
	   AND count(*) = 3 AND bool_and((n ->> 'transactions')::bigint > 0)
	   AND bool_and(n ->> 'status' = 'finished')
	  FROM polarbench_runs r, jsonb_array_elements(r.figures -> 'nodes') n
	 WHERE r.run_id = $run GROUP BY r.transactions}),
	't', 'figures->nodes: three nodes, each ran transactions, and they add up to the run');
is(value(qq{
	SELECT string_agg(n ->> 'node', ' ' ORDER BY o)
	  FROM polarbench_runs r, jsonb_array_elements(r.figures -> 'nodes') WITH ORDINALITY e(n, o)
	 WHERE r.run_id = $run}),
	join(' ', map { '127.0.0.1:' . $_->port } @nodes),
	'figures->nodes names the coordinator and both workers');
is(value(qq{SELECT sum(transactions) = (SELECT transactions FROM polarbench_runs WHERE run_id = $run)
			  FROM polarbench_histograms WHERE run_id = $run}),
	't', 'the merged histogram counts every transaction of every node');
is(value(qq{
	SELECT latency_p50 <= latency_p95 AND latency_p95 <= latency_p99
	   AND latency_min <= latency_avg AND latency_avg <= latency_max
	   AND (figures ->> 'start_spread_ms') IS NOT NULL
	  FROM polarbench_runs WHERE run_id = $run}),
	't', 'its percentiles come from the merged histogram, and the start spread is kept');
is(value(q{
	SELECT (SELECT sum(abalance) FROM pgbench_accounts) = (SELECT sum(bbalance) FROM pgbench_branches)
	   AND (SELECT sum(bbalance) FROM pgbench_branches) = (SELECT sum(tbalance) FROM pgbench_tellers)
	   AND (SELECT sum(tbalance) FROM pgbench_tellers) = (SELECT sum(delta) FROM pgbench_history)}),
	't', 'pgbench\'s invariant holds over the cluster');
foreach my $i (0 .. 2)
{
	my $node = $nodes[$i];
	my $part = value(qq{SELECT figures -> 'nodes' -> $i ->> 'run_id' FROM polarbench_runs WHERE run_id = $run});
	is($node->safe_psql('postgres', qq{SELECT status || ' ' || clients FROM polarbench_runs WHERE run_id = $part}),
		'finished 2', 'each node keeps its part as a run of its own there: ' . $node->name);
}
no_worker_left('after the run');

# ---- a node's part that fails ends the run everywhere -----------------------

# the second worker's clients fail at once; the others would run for ten
# minutes unless stopped
my $w2_port = $w2->port;
my ($ret, $stdout, $stderr) = $c->psql('postgres', qq{
	SELECT * FROM polarbench_run(
		script => 'SELECT 1 / (CASE WHEN pg_catalog.current_setting(''port'') = ''$w2_port'' THEN 0 ELSE 1 END);',
		clients => 1, duration => 600, nodes => 'all')});
like($stderr, qr/WARNING:  run \d+ failed on node 127\.0\.0\.1:$w2_port: .*division by zero/,
	'a node whose part fails ends the run: the caller is warned, naming it');
is(value(qq{SELECT status || ' ' || (error_message LIKE 'node 127.0.0.1:$w2_port: %division by zero%')
			  || ' ' || (SELECT string_agg(n ->> 'status', ' ' ORDER BY o)
						   FROM jsonb_array_elements(figures -> 'nodes') WITH ORDINALITY e(n, o))
			  FROM polarbench_runs WHERE node = 'all' ORDER BY run_id DESC LIMIT 1}),
	'failed true canceled canceled failed',
	'... recorded as failed naming the node, the other nodes\' parts canceled');
no_worker_left('after a node\'s part failed');

# ---- TPC-C on every node ----------------------------------------------------

value(q{SELECT * FROM polarbench_init('tpcc', warehouses => 2, distributed => true,
									  shard_count => 4)});
my $tpcc = value(q{
	SELECT run_id FROM polarbench_run('tpcc', clients => 1, transactions => 10,
									  random_seed => 7, nodes => 'all')});
is(value(qq{SELECT status || ' ' || (transactions = 3 * 10) FROM polarbench_runs WHERE run_id = $tpcc}),
	'finished true', 'TPC-C with nodes => all: every node ran its transactions');
is(value(q{SELECT coalesce(string_agg(condition::text, ' ' ORDER BY condition), 'none')
			 FROM polarbench_tpcc_check() WHERE offending > 0}),
	'none', 'TPC-C: every consistency condition holds after the run on every node');
no_worker_left('after TPC-C');

# ---- refusals: nothing starts on any node -----------------------------------

my $before = run_counts();

# refused: what each case gives, and the error it must say
sub refused
{
	my ($node, $db, $sql, $error, $name) = @_;
	return $cluster->refused($node, $db, $sql, $error, $before, $name);
}

refused($c, 'postgres', q{SELECT * FROM polarbench_run('tpcb-like', transactions => 1, nodes => 'some')},
	qr/ERROR:  invalid value for nodes: "some"/, 'nodes => some');
refused($w1, 'postgres', q{SELECT * FROM polarbench_run('tpcb-like', transactions => 1, nodes => 'all')},
	qr/ERROR:  nodes => 'all' runs on the Citus coordinator only/, 'nodes => all on a worker');
$c->safe_psql('postgres', 'CREATE DATABASE plain');
$c->safe_psql('plain', 'CREATE EXTENSION polarbench');
refused($c, 'plain', q{SELECT * FROM polarbench_run(script => 'SELECT 1;', transactions => 1, nodes => 'all')},
	qr/ERROR:  nodes => 'all' needs a Citus coordinator/, 'nodes => all without Citus');

# a table the workers do not have: the workers' check refuses the run
$c->safe_psql('postgres', 'CREATE TABLE only_here (k int)');
refused($c, 'postgres', q{SELECT * FROM polarbench_run(script => 'SELECT k FROM only_here;', transactions => 1,
								nodes => 'all')},
	qr/ERROR:  node 127\.0\.0\.1:\d+ refused the run: relation "only_here" does not exist/,
	'a script a worker cannot run');

# a worker with another version of polarbench, and one without it
$w2->safe_psql('postgres', q{UPDATE pg_extension SET extversion = '1.4' WHERE extname = 'polarbench'});
refused($c, 'postgres', q{SELECT * FROM polarbench_run('tpcb-like', transactions => 1, nodes => 'all')},
	qr/ERROR:  node 127\.0\.0\.1:${\ $w2->port} has polarbench 1\.4, not 1\.5 as this coordinator/,
	'a worker with another version');
$w2->safe_psql('postgres', q{UPDATE pg_extension SET extversion = '1.5' WHERE extname = 'polarbench'});
my $w2_runs = $w2->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs');
$w2->safe_psql('postgres', 'SET citus.enable_ddl_propagation = off; DROP EXTENSION polarbench');
$before = join(' ', (split / /, $before)[0 .. 1]);
{
	my ($ret, $stdout, $stderr) = $c->psql('postgres',
		q{SELECT * FROM polarbench_run('tpcb-like', transactions => 1, nodes => 'all')});
	isnt($ret, 0, 'a worker without polarbench: refused');
	like($stderr, qr/ERROR:  node 127\.0\.0\.1:${\ $w2->port} has no polarbench/,
		'a worker without polarbench: says which');
	is(join(' ', map { $_->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs') } ($c, $w1)),
		$before, 'a worker without polarbench: no run recorded on the others');
	no_worker_left('a worker without polarbench');
}
$w2->safe_psql('postgres', 'SET citus.enable_ddl_propagation = off; CREATE EXTENSION polarbench');

# ---- the caller's cancel: no worker left on any node ------------------------

# every node's clients block on an advisory lock this test holds there
my @holders = map {
	my $h = $_->background_psql('postgres', on_error_stop => 0);
	$h->query_safe('SELECT pg_advisory_lock(4242)');
	$h
} @nodes;
my $blocked = q{SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)
				 WHERE l.locktype = 'advisory' AND NOT l.granted AND a.backend_type LIKE 'polarbench%'};
my $blocking_run = q{SELECT * FROM polarbench_run(script => 'SELECT pg_catalog.pg_advisory_xact_lock(4242);',
								  clients => 1, transactions => 1, nodes => 'all');};
my $cluster_runs = q{SELECT count(*) FROM polarbench_runs WHERE node = 'all'};
my $cluster_runs_before = value($cluster_runs);

# statement_timeout ends the run on every node as a cancel does
my $timed = $c->background_psql('postgres', on_error_stop => 0);
$timed->query("SET statement_timeout = '3s'; $blocking_run");
like($timed->{stderr}, qr/canceling statement due to statement timeout/,
	'statement_timeout ends the run while every node\'s clients wait');
no_worker_left('after statement_timeout');
$timed->quit;

my $caller = $c->background_psql('postgres', on_error_stop => 0);
$caller->query_until(qr/started/, "\\echo started\n$blocking_run\n");
ok($_->poll_query_until('postgres', "SELECT ($blocked) = 1"), 'the clients wait on ' . $_->name)
  foreach @nodes;
value(q{SELECT pg_cancel_backend(pid) FROM pg_stat_activity
		 WHERE backend_type = 'client backend' AND query LIKE '%nodes => ''all''%'
		   AND application_name <> 'polarbench cluster run' AND pid <> pg_backend_pid()});
$caller->query('SELECT 1');
like($caller->{stderr}, qr/canceling statement due to user request/, 'the caller\'s cancel ends the run');
no_worker_left('after the caller\'s cancel');
is(value($cluster_runs), $cluster_runs_before, 'a canceled run across the cluster is not recorded');

# ---- a worker killed mid-run: the run ends everywhere, recorded failed -----

$caller->{stderr} = '';
$caller->query_until(qr/started/, "\\echo started\n$blocking_run\n");
ok($_->poll_query_until('postgres', "SELECT ($blocked) = 1"), 'the clients wait again on ' . $_->name)
  foreach @nodes;
$w1->stop('immediate');
$caller->query('SELECT 1');
my $killed = '127.0.0.1:' . $w1->port;
like($caller->{stderr}, qr/WARNING:  run \d+ failed on node \Q$killed\E: /,
	'the caller is warned that the run failed on the killed worker');
is(value(qq{SELECT status || ' ' || (error_message LIKE 'node $killed: %')
			  FROM polarbench_runs WHERE node = 'all' ORDER BY run_id DESC LIMIT 1}),
	'failed true', 'the run is recorded as failed, naming the node');
is(value(qq{SELECT string_agg(n ->> 'status', ' ' ORDER BY o)
			  FROM (SELECT figures FROM polarbench_runs WHERE node = 'all' ORDER BY run_id DESC LIMIT 1) r,
				   jsonb_array_elements(r.figures -> 'nodes') WITH ORDINALITY e(n, o)}),
	'canceled failed canceled', 'the killed worker failed, the other nodes\' parts were canceled');
no_worker_left('after a worker was killed', $c, $w2);
$caller->quit;
foreach my $h (@holders)
{
	$h->quit;
}
$w1->start;

# ---- a node that never answers the coordinator's connection ---------------

# a listener that takes TCP connections (the kernel completes them) and
# never says a word: the coordinator's entry in pg_dist_node points at it,
# as citus_set_coordinator_host() moves it, so that nodes => 'all' connects
# there first (Citus's own connections to it, its two-phase commit
# recovery's, wait there too, harmlessly)
my $silent = IO::Socket::INET->new(
	LocalAddr => '127.0.0.1',
	LocalPort => 0,
	Listen => 8,
	Proto => 'tcp',
	ReuseAddr => 1) or die "could not listen: $!";
my $silent_port = $silent->sockport;
value("SELECT citus_set_coordinator_host('127.0.0.1', $silent_port)");
my $unanswered = q{SELECT * FROM polarbench_run('tpcb-like', transactions => 1, nodes => 'all');};
my $connections = q{SELECT count(*) FROM pg_stat_activity WHERE application_name = 'polarbench cluster run'};
$before = run_counts();

# nothing of the call left on any node: no run, no worker, no connection
sub nothing_left
{
	my ($name) = @_;
	is(run_counts(), $before, "$name: no run recorded on any node");
	no_worker_left($name);
	foreach my $node (@nodes)
	{
		ok($node->poll_query_until('postgres', "SELECT ($connections) = 0"),
			"$name: no connection of the coordinator left on " . $node->name);
	}
	return;
}

# statement_timeout: its own error, long before citus.node_connection_timeout
($ret, $stdout, $stderr) = $c->psql('postgres', "SET statement_timeout = '1s'; $unanswered");
like($stderr, qr/ERROR:  canceling statement due to statement timeout/,
	'a node that never answers: statement_timeout ends the connecting call');
nothing_left('statement_timeout while connecting');

# the caller's cancel, once the coordinator is connecting: its first wait
# (the silent node comes first, and nothing else runs before it answers)
$caller = $c->background_psql('postgres', on_error_stop => 0);
$caller->query_until(qr/started/, "\\echo started\n$unanswered\n");
my $connecting = q{SELECT pid FROM pg_stat_activity
		 WHERE backend_type = 'client backend' AND query LIKE '%nodes => ''all''%'
		   AND wait_event = 'Extension' AND pid <> pg_backend_pid()};
ok($c->poll_query_until('postgres', "SELECT count(*) = 1 FROM ($connecting) p"),
	'the coordinator waits for the node that never answers');
value("SELECT pg_cancel_backend(pid) FROM ($connecting) p");
$caller->query('SELECT 1');
like($caller->{stderr}, qr/ERROR:  canceling statement due to user request/,
	'the caller\'s cancel ends the call while it connects');
$caller->quit;
nothing_left('a cancel while connecting');

# citus.node_connection_timeout: the connection given up, naming the node
($ret, $stdout, $stderr) = $c->psql('postgres', "SET citus.node_connection_timeout = '200ms'; $unanswered");
like($stderr,
	qr/ERROR:  could not connect to node 127\.0\.0\.1:$silent_port as role "postgres": no answer within 200 ms \(citus\.node_connection_timeout\)/,
	'citus.node_connection_timeout: the node that never answered is named');
nothing_left('citus.node_connection_timeout');
value("SELECT citus_set_coordinator_host('127.0.0.1', ${\ $c->port})");
close($silent);

done_testing();
