# TPC-C through a Citus coordinator, on its tables distributed by hand as
# HammerDB's Citus mode and Citus's benchmarks lay them out: the eight
# warehouse tables by warehouse id, colocated, item a reference table; two
# warehouses, so that remote order lines and payments of another
# warehouse's customers make transactions of both workers.  A run's
# New-Orders update Stock with a statement Citus can send to a worker, and
# its transactions are whole on every node: after each run, clause
# 3.3.2's consistency conditions 1-10 and 12 hold (11 holds only until the
# first Delivery), and the tables hold the committed New-Orders' orders and
# the Payments' history rows, no more.  Failures are injected on the
# workers into the last writes of New-Order (an order line, after the
# district, order and stock writes) and of Payment (the history row, after
# the warehouse, district and customer updates): tried again under
# max_tries, then counted as failed; or failing the run.  Nothing of a
# failed transaction stays on any node.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use PolarbenchCitus;

PolarbenchCitus::skip_unless_installed();

my $cluster = PolarbenchCitus->new('citus_tpcc');
my $c = $cluster->coordinator;

sub value { return $c->safe_psql('postgres', $_[0]); }

value(q{
	SELECT * FROM polarbench_init('tpcc', warehouses => 2);
	SET citus.shard_count = 4;
	SELECT create_reference_table('item');
	SELECT create_distributed_table('warehouse', 'w_id');
	SELECT create_distributed_table('district', 'd_w_id', colocate_with => 'warehouse');
	SELECT create_distributed_table('customer', 'c_w_id', colocate_with => 'warehouse');
	SELECT create_distributed_table('history', 'h_w_id', colocate_with => 'warehouse');
	SELECT create_distributed_table('new_order', 'no_w_id', colocate_with => 'warehouse');
	SELECT create_distributed_table('orders', 'o_w_id', colocate_with => 'warehouse');
	SELECT create_distributed_table('order_line', 'ol_w_id', colocate_with => 'warehouse');
	SELECT create_distributed_table('stock', 's_w_id', colocate_with => 'warehouse');
});
is(value(q{SELECT count(DISTINCT nodeport) FROM citus_shards WHERE table_name = 'stock'::regclass}),
	2, 'the warehouses are on both workers');

# the conditions that do not hold (11 aside)
my $broken = q{SELECT coalesce(string_agg(condition::text, ' ' ORDER BY condition), 'none')
				 FROM polarbench_tpcc_check() WHERE offending > 0 AND condition <> 11};
is(value($broken), 'none', 'after the load, every condition holds');

# what the tables hold: orders and history rows
sub counts
{
	return split / /, value(q{
		SELECT (SELECT count(*) FROM orders) || ' ' || (SELECT count(*) FROM history)});
}

# one run; returns its figures, and the New-Orders that committed and the
# Payments, as its operations count them
sub run
{
	my ($args) = @_;
	my %run;

	my ($ret, $out, $err) = $c->psql('postgres',
		qq{SELECT * FROM polarbench_run('tpcc', clients => 2, random_seed => 4, $args)});
	$run{error} = $err;
	@run{qw(status transactions failed)} = split /\|/, value(q{
		SELECT status, transactions, failed FROM polarbench_runs
		 ORDER BY run_id DESC LIMIT 1});
	@run{qw(new_orders payments)} = split /\|/, value(q{
		SELECT sum(operations - rollbacks) FILTER (WHERE operation = 'NEW_ORDER'),
			   sum(operations) FILTER (WHERE operation = 'PAYMENT')
		  FROM polarbench_operations
		 WHERE run_id = (SELECT max(run_id) FROM polarbench_runs)});
	return \%run;
}

my @before = counts();
my $r = run('transactions => 40');
is($r->{error}, '', 'a run through the coordinator ends without an error');
# (a deadlock across the nodes, rare, fails a transaction without failing
# the run)
is("$r->{status} " . ($r->{transactions} + $r->{failed}), 'finished 80',
	'a run through the coordinator: every transaction ended');
cmp_ok($r->{new_orders}, '>', 0, '... New-Orders committed');
is(value($broken), 'none', '... and every condition holds');
my @after = counts();
is($after[0] - $before[0], $r->{new_orders}, '... an order for each New-Order committed');
is($after[1] - $before[1], $r->{payments}, '... a history row for each Payment');

# failures on the workers in New-Order's lines and Payment's history rows
$cluster->inject_failures('order_line', '40001', '($1).ol_i_id % 7 = 0', 'INSERT');
$cluster->inject_failures('history', '40001', '($1).h_c_id % 7 = 0', 'INSERT');
@before = counts();
$r = run('transactions => 40, max_tries => 2');
is($r->{error}, '', 'with failures injected, the run ends without an error');
is($r->{status}, 'finished', 'with failures injected, the run goes on');
cmp_ok($r->{failed}, '>', 0, '... some transactions failed');
is(value($broken), 'none', '... and every condition holds');
@after = counts();
is($after[0] - $before[0], $r->{new_orders},
	'... an order for each New-Order committed, none of a failed one');
is($after[1] - $before[1], $r->{payments},
	'... a history row for each Payment, none of a failed one');

# an error no retry covers fails the run, and leaves nothing of it
$cluster->inject_failures('order_line', 'P0001', 'true', 'INSERT');
@before = counts();
my ($ret, $out, $err) = $c->psql('postgres',
	q{SELECT * FROM polarbench_run('tpcc', clients => 2, transactions => 40, random_seed => 4)});
like($err, qr/failure injected into order_line_/, 'a failure on a worker fails the run');
is(value($broken), 'none', '... every condition holds');
@after = counts();
is($after[0], $before[0], '... and no order of a failed New-Order is there');
$cluster->clear_failures('order_line');
$cluster->clear_failures('history');

is($cluster->crashes, '', 'no process of any node was terminated by a signal');

$_->stop foreach $cluster->nodes;
done_testing();
