# The command-line program on a Citus cluster: -i --distributed
# [--shard-count=N] loads a data set as Citus tables through the
# coordinator; -h coordinator,worker1,worker2 runs a writing workload on
# every node at once (they are all primaries), each node routing its own
# statements to the shards, and adds the nodes' runs up.  The tables show
# every node's transactions: pgbench's invariant holds and history has a
# row for each.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use JSON::PP;
use PolarbenchCitus;

PolarbenchCitus::skip_unless_installed();
my $bin = "$ENV{TESTDIR}/src/bin/polarbench/polarbench";
plan skip_all => "client not built: $bin" unless -x $bin;

my $cluster = PolarbenchCitus->new('citus_client');
my $c = $cluster->coordinator;
my @nodes = $cluster->nodes;

sub value { return $c->safe_psql('postgres', $_[0]); }

$ENV{PGDATABASE} = 'postgres';

# -i --distributed, with and without --shard-count
command_ok([ $bin, '-i', '-s', '1', '--distributed', '--shard-count=4',
			 '-h', $c->host, '-p', $c->port ],
	'-i --distributed --shard-count=4 loads');
is(value(q{
	SELECT string_agg(table_name || ' ' || distribution_column || ' ' || shard_count, ', '
					  ORDER BY table_name::text COLLATE "C")
	  FROM citus_tables}),
	'pgbench_accounts aid 4, pgbench_branches bid 4, pgbench_history aid 4, '
	  . 'pgbench_tellers tid 4',
	'... pgbench\'s tables distributed, of 4 shards');
command_fails_like([ $bin, '-i', '-s', '1', '--shard-count=4', '-h', $c->host, '-p', $c->port ],
	qr/shard_count requires distributed => true/,
	'--shard-count without --distributed is refused');
is(value(q{SELECT count(*) FROM citus_tables}), '4', '... and the tables stay');
command_fails_like([ $bin, '-i', '--distributed', '-h', $cluster->{workers}[0]->host,
					 '-p', $cluster->{workers}[0]->port ],
	qr/distributed => true needs a Citus coordinator/,
	'-i --distributed on a worker is refused');

# Citus's counters, which it keeps when asked to
$c->safe_psql('postgres', q{
	ALTER SYSTEM SET citus.enable_stat_counters = on;
	SELECT pg_reload_conf();
});

# tpcb-like on every node at once
my $hosts = join(',', map { $_->host } @nodes);
my $ports = join(',', map { $_->port } @nodes);
my ($out, $err) = ('', '');
IPC::Run::run([ $bin, '-h', $hosts, '-p', $ports, '-c', '2', '-t', '20', '--report', 'json' ],
	'>', \$out, '2>', \$err) or die "the run on three nodes failed: $err";
my $doc = decode_json($out);
is(join(' ', map { $_->{role} } @{ $doc->{nodes} }), 'primary primary primary',
	'tpcb-like ran on the coordinator and both workers');
is($doc->{total}{transactions}, 120, 'three nodes of two clients of 20');
my $sum = 0;
foreach my $node (@nodes)
{
	my $t = $node->safe_psql('postgres', q{
		SELECT status || ' ' || transactions FROM polarbench_runs ORDER BY run_id DESC LIMIT 1});
	is($t, 'finished 40', $node->name . ': its run, stored there');
	$sum += (split / /, $t)[1];
}
is($doc->{total}{transactions}, $sum, 'the total is the sum of the nodes\' runs');
cmp_ok(value(q{
	SELECT server_stats->>'citus_single_shard_queries' FROM polarbench_runs
	 ORDER BY run_id DESC LIMIT 1}), '>=', 200,
	'the coordinator\'s run counts the statements Citus sent to one shard (5 a transaction)');
is(value(q{
	SELECT server_stats ?& ARRAY['citus_multi_shard_queries', 'citus_connections_established',
								 'citus_connections_reused']
	  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	't', '... and its other counters');
$c->safe_psql('postgres', 'CREATE DATABASE nocitus');
$c->safe_psql('nocitus', 'CREATE EXTENSION polarbench');
$c->safe_psql('nocitus', q{SELECT run_id FROM polarbench_run(script => 'SELECT 1;', transactions => 2)});
is($c->safe_psql('nocitus', q{
	SELECT server_stats ? 'xact_commit' AND NOT server_stats ? 'citus_single_shard_queries'
	  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	't', 'a database without Citus has no Citus counters');
is(value('SELECT count(*) FROM pgbench_history'), '120',
	'history has a row for each node\'s transactions');
my @s = split / /, value(q{
	SELECT (SELECT sum(abalance) FROM pgbench_accounts) || ' '
		   || (SELECT sum(tbalance) FROM pgbench_tellers) || ' '
		   || (SELECT sum(bbalance) FROM pgbench_branches) || ' '
		   || (SELECT coalesce(sum(delta), 0) FROM pgbench_history)});
ok($s[0] == $s[3] && $s[1] == $s[3] && $s[2] == $s[3],
	"pgbench's invariant holds after the run on every node (@s)");

# Transactions committed in two phases: a transaction that writes a row on
# each worker is prepared on both, and Citus logs each in pg_dist_transaction
my ($w1, $w2) = map { $_->port } @{ $cluster->{workers} };
my ($a1, $a2) = split / /, value(qq{
	SELECT (SELECT min(aid) FROM generate_series(1, 100000) aid, citus_shards s
			 WHERE s.shardid = get_shard_id_for_distribution_column('pgbench_accounts', aid)
			   AND s.nodeport = $w1) || ' ' ||
		   (SELECT min(aid) FROM generate_series(1, 100000) aid, citus_shards s
			 WHERE s.shardid = get_shard_id_for_distribution_column('pgbench_accounts', aid)
			   AND s.nodeport = $w2)});
value(qq{
	SELECT run_id FROM polarbench_run(script => 'BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = $a1;
UPDATE pgbench_accounts SET abalance = abalance - 1 WHERE aid = $a2;
END;', transactions => 5)});
is(value(q{
	SELECT server_stats->>'citus_two_phase_prepares' FROM polarbench_runs
	 ORDER BY run_id DESC LIMIT 1}),
	'10', 'five transactions writing on both workers: ten prepared, counted');
value(qq{
	SELECT run_id FROM polarbench_run(script => 'BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = $a1;
UPDATE pgbench_accounts SET abalance = abalance - 1 WHERE aid = $a1;
END;', transactions => 5)});
is(value(q{
	SELECT server_stats->>'citus_two_phase_prepares' FROM polarbench_runs
	 ORDER BY run_id DESC LIMIT 1}),
	'0', '... and none for transactions on one shard, committed in one phase');

is($cluster->crashes, '', 'no process of any node was terminated by a signal');

$_->stop foreach @nodes;
done_testing();
