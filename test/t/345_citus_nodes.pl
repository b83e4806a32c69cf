# polarbench_run(..., nodes => 'all') on a Citus coordinator: the run's
# clients on every node, one run recorded on the coordinator with each
# node's figures, and the tables showing every transaction.  A node killed
# mid-run and the caller's cancel end the run everywhere with no worker
# left; every refusal leaves nothing on any node.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use PolarbenchCitus;

PolarbenchCitus::skip_unless_installed();

my $cluster = PolarbenchCitus->new('citus_nodes');
my $c = $cluster->coordinator;
my @nodes = $cluster->nodes;
my ($w1, $w2) = $cluster->workers;

sub value { return $c->safe_psql('postgres', $_[0]); }

my $workers = q{SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'polarbench%'};

# no polarbench worker on any node, once the nodes' backends have ended
sub no_worker_left
{
	my ($name, @on) = @_;
	@on = @nodes unless @on;
	foreach my $node (@on)
	{
		ok($node->poll_query_until('postgres', "SELECT ($workers) = 0"),
			"$name: no polarbench worker left on " . $node->name);
	}
	return;
}

# every node's count of runs, to see that a refusal records nothing
sub run_counts
{
	return join(' ',
		map { $_->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs') } @nodes);
}

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

done_testing();
