# polarbench_init(..., distributed => true) loads sysbench's, YCSB's and
# TPC-C's data sets at the speed of the nodes, as 335_citus_load.pl checks
# for pgbench's: on a Citus coordinator and two workers, polarbench_fill_shards
# runs once on each worker and never on the coordinator, whose distributed
# tables stay empty; every row is in the shard Citus routes its key to; the
# rows are exactly those of a local load of the same arguments (sysbench's and
# YCSB's, against a load into a schema of the coordinator's own, by their
# count and a checksum of every row); the shards' indexes hold every row;
# TPC-C's consistency conditions hold, and item, a reference table, is the
# same on every node, the coordinator's placement (which the coordinator
# fills itself) included.  Each data set, pgbench's too, replaced twice in a
# row by a distributed load (sysbench's sequences once made Citus cancel it
# as a distributed deadlock) passes the same checks.  A failure raised on a worker once it has written
# its rows (YCSB, TPC-C), and a cancel while a worker loads (YCSB), leave the
# old tables as they were on every node, no prepared transaction and no
# backend still loading.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use PolarbenchCitus;

PolarbenchCitus::skip_unless_installed();

my $cluster = PolarbenchCitus->new('citus_kinds');
my $c = $cluster->coordinator;
my ($w1, $w2) = $cluster->workers;

foreach my $node ($cluster->nodes)
{
	$node->append_conf('postgresql.conf', "track_functions = 'all'");
	$node->reload;
}

sub value { return $c->safe_psql('postgres', $_[0]); }

# calls of polarbench_fill_shards each node counted (coordinator, w1, w2)
sub fill_calls
{
	return map {
		$_->safe_psql('postgres', 'SELECT pg_stat_force_next_flush()');
		$_->safe_psql('postgres', q{
			SELECT coalesce(sum(calls), 0) FROM pg_stat_user_functions
			 WHERE funcname = 'polarbench_fill_shards'});
	} $cluster->nodes;
}

# the calls each node counted since those of @before, as "coordinator w1 w2"
sub fill_calls_since
{
	my @before = @_;
	my @now = fill_calls();
	return join ' ', map { $now[$_] - $before[$_] } 0 .. $#now;
}

# the calls since @before once the loading backends reported them (a
# backend reports its calls once idle): polled until they are "0 1 1", the
# load's, or the test's timeout
sub fill_calls_of_load
{
	my @before = @_;
	my $since;
	foreach (1 .. $PostgreSQL::Test::Utils::timeout_default)
	{
		$since = fill_calls_since(@before);
		last if $since eq '0 1 1';
		sleep 1;
	}
	return $since;
}

# the count of rows of a table, and a checksum of them all, in schema
sub checksum
{
	my ($table, $schema) = @_;
	return value(qq{
		SELECT count(*) || ' ' || coalesce(sum(hashtext(t::text)::bigint), 0)
		  FROM $schema.$table t});
}

# each row in the shard Citus routes its key to
sub routed
{
	my ($table, $column) = @_;
	my ($held, $routed) = $cluster->routing($table, $column);
	is($held, $routed, "$table: each shard holds the rows Citus routes to it");
	return;
}

# every shard's index on column holds each of its rows: counted through the
# index, as counted by a scan of the shard
sub indexed
{
	my ($table, $condition) = @_;
	my @pairs = split /\n/, $cluster->on_placements($table, qq{
		SET enable_seqscan = off; SET enable_bitmapscan = off;
		SELECT (SELECT count(*) FROM %s WHERE $condition) || ' ' ||
			   (SELECT count(*) FROM (SELECT * FROM %s OFFSET 0) s)});
	my @bad = grep { my ($i, $n) = split / /; $i != $n } @pairs;
	is("@bad", '', "$table: every shard's index ($condition) holds its rows");
	return;
}

# What a load leaves on every node: its relations named like, with their
# sizes, and prepared transactions
sub state_of
{
	my ($like) = @_;
	my $s = '';
	foreach my $node ($cluster->nodes)
	{
		$s .= ' | ' . $node->safe_psql('postgres', qq{
			SET citus.override_table_visibility = off;
			SELECT count(*) || ' ' || coalesce(sum(pg_relation_size(oid)), 0)
				   || ' ' || (SELECT count(*) FROM pg_prepared_xacts)
			  FROM pg_class
			 WHERE relname LIKE '$like' OR relname LIKE 'polarbench_load_conduct%'});
	}
	return $s;
}

# no backend of any node still running a load
sub no_loader_left
{
	my ($what) = @_;
	foreach my $node ($cluster->nodes)
	{
		ok($node->poll_query_until('postgres', q{
			SELECT count(*) = 0 FROM pg_stat_activity
			 WHERE state <> 'idle' AND pid <> pg_backend_pid()
			   AND (query LIKE '%polarbench_fill_shards%' OR query LIKE '%polarbench_init%')}),
			"$what: no backend of " . $node->name . ' loading');
	}
	return;
}

# A load made to fail on worker2 once it wrote its rows leaves every node
# as it was
sub fails_on_worker2
{
	my ($what, $load, $table_like, $column, $sums_sql, $like) = @_;
	my $before = state_of($like);
	my $sums = value($sums_sql);
	$cluster->on_analyze($w2, 'pb_fails', q{RAISE EXCEPTION 'worker2 fails once loaded'},
		$table_like, $column);
	my ($ret, $out, $err) = $c->psql('postgres', "SELECT * FROM $load");
	like($err, qr/worker2 fails once loaded/, "$what: a load failing on a worker fails");
	no_loader_left("$what, failed");
	is(state_of($like), $before, "$what, failed: every node as it was, nothing prepared");
	is(value($sums_sql), $sums, "$what, failed: the old tables with their rows");
	$w2->safe_psql('postgres',
		'DROP EVENT TRIGGER pb_fails_trigger; DROP FUNCTION pb_fails_trigger(); DROP FUNCTION pb_fails(anyelement)');
	return;
}

$c->safe_psql('postgres', 'CREATE SCHEMA loc');

# ---- pgbench, replaced -------------------------------------------------------

# a distributed load of pgbench's data set, and the checks of a fresh one
# (330_citus_init.pl and 335_citus_load.pl check the rest)
sub pgbench_loaded
{
	my ($what) = @_;
	my @calls = fill_calls();
	is(value(q{
		SELECT rows FROM polarbench_init('pgbench', scale => 1, distributed => true, shard_count => 4)}),
		'100011', "pgbench distributed$what: its rows");
	is(fill_calls_of_load(@calls), "0 1 1", "pgbench$what: loaded once on each worker, never on the coordinator");
	is(value(q{
		SELECT (SELECT count(*) || ' ' || sum(abalance) FROM pgbench_accounts) || ' '
			   || (SELECT count(*) FROM pgbench_branches) || ' ' || (SELECT count(*) FROM pgbench_tellers)
			   || ' ' || (SELECT count(*) FROM pgbench_history)
			   || ' ' || (SELECT count(*) FROM citus_tables WHERE table_name::text LIKE 'pgbench%')}),
		'100000 0 1 10 0 4', "pgbench$what: its rows, four distributed tables");
	routed('pgbench_accounts', 'aid');
	indexed('pgbench_accounts', 'aid > 0');
	return;
}
pgbench_loaded('');
pgbench_loaded(', replaced');
pgbench_loaded(', replaced again');

# ---- sysbench ------------------------------------------------------------

my $sb_args = 'tables => 2, table_size => 3000';
value(qq{SET search_path = loc, public; SELECT * FROM polarbench_init('sysbench', $sb_args)});

# a distributed load of sysbench's data set, and the checks of a fresh one
sub sysbench_loaded
{
	my ($what) = @_;
	my @calls = fill_calls();
	is(value(qq{
		SELECT rows || ' ' || (bytes > 0)
		  FROM polarbench_init('sysbench', $sb_args, distributed => true, shard_count => 4)}),
		'6000 true', "sysbench distributed$what: its rows, and their size on the workers");
	is(fill_calls_of_load(@calls), "0 1 1",
		"sysbench$what: loaded once on each worker, never on the coordinator");
	is(value(q{SELECT pg_relation_size('sbtest1') + pg_relation_size('sbtest2')}),
		'0', "sysbench$what: no row written on the coordinator");
	foreach my $t (qw(sbtest1 sbtest2))
	{
		is(checksum($t, 'public'), checksum($t, 'loc'), "$t$what: the rows of a local load");
		routed($t, 'id');
		indexed($t, 'k > 0');
		indexed($t, 'id > 0');
	}
	is(value(q{SELECT nextval('sbtest1_id_seq')}), '3001', "sysbench$what: the id sequence after the rows");
	is(value(q{SELECT pg_get_serial_sequence('sbtest2', 'id') || ' ' || pg_get_expr(adbin, adrelid)
				 FROM pg_attrdef WHERE adrelid = 'sbtest2'::regclass AND adnum = 1}),
		q{public.sbtest2_id_seq nextval('sbtest2_id_seq'::regclass)},
		"sysbench$what: id a serial column, as sysbench makes it");
	return;
}
sysbench_loaded('');
isnt(checksum('sbtest1', 'loc'), checksum('sbtest2', 'loc'), 'sysbench: each table its own rows');

# replaced in one call, twice: no distributed deadlock over the sequences
sysbench_loaded(', replaced');
sysbench_loaded(', replaced again');

# a replace with a new table, failing on a worker once loaded: every node
# as it was
fails_on_worker2('sysbench',
	q{polarbench_init('sysbench', tables => 3, table_size => 3000, distributed => true, shard_count => 4)},
	q{sbtest%\_%}, 'k',
	q{SELECT count(*) || ' ' || sum(hashtext(t::text)::bigint) FROM sbtest1 t}, 'sbtest%');

# Citus keeps on the workers the sequences it made for the new tables (all
# three) over connections of its own, under their names meanwhile; the
# next load takes them again
my $distributing = q{SELECT count(*) FROM pg_class WHERE relname LIKE 'pb\_distributing\_%'};
is(join(' ', map { $_->safe_psql('postgres', $distributing) } $cluster->nodes), '0 3 3',
	'sysbench, failed: the new tables\' sequences left on the workers under their names meanwhile');
is(value(q{
	SELECT rows FROM polarbench_init('sysbench', tables => 3, table_size => 3000, distributed => true,
									 shard_count => 4)}),
	'9000', 'sysbench: the load after the failed one');
is(join(' ', map { $_->safe_psql('postgres', $distributing) } $cluster->nodes), '0 0 0',
	'... took those sequences again');
is(value(q{SELECT nextval('sbtest3_id_seq')}), '3001', '... sbtest3 with its id sequence');

# ---- YCSB ------------------------------------------------------------------

my $ycsb_args = 'records => 3000, fields => 3, field_length => 30';
value(qq{SET search_path = loc, public; SELECT * FROM polarbench_init('ycsb', $ycsb_args)});

# a distributed load of YCSB's data set, and the checks of a fresh one
sub ycsb_loaded
{
	my ($what) = @_;
	my @calls = fill_calls();
	is(value(qq{
		SELECT rows FROM polarbench_init('ycsb', $ycsb_args, distributed => true, shard_count => 4)}),
		'3000', "YCSB distributed$what: its rows");
	is(fill_calls_of_load(@calls), "0 1 1", "YCSB$what: loaded once on each worker, never on the coordinator");
	is(value(q{SELECT pg_relation_size('usertable')}), '0', "YCSB$what: no row written on the coordinator");
	is(checksum('usertable', 'public'), checksum('usertable', 'loc'), "usertable$what: the rows of a local load");
	routed('usertable', 'ycsb_key');
	indexed('usertable', q{ycsb_key >= ''});
	return;
}
ycsb_loaded('');
ycsb_loaded(', replaced');
ycsb_loaded(', replaced again');

# a cancel while worker2 loads
my $ycsb_sums = q{SELECT count(*) || ' ' || sum(hashtext(t::text)::bigint) FROM usertable t};
my $before = state_of('usertable%');
my $sums = value($ycsb_sums);
$cluster->on_analyze($w2, 'pb_slow', 'PERFORM pg_sleep(60)', 'usertable_%', 'field0');
my ($in, $bg_out, $bg_err) = ('', '', '');
my $h = IPC::Run::start(
	[ 'psql', '-X', '-d', $c->connstr('postgres'), '-c',
	  qq{SELECT * FROM polarbench_init('ycsb', $ycsb_args, distributed => true, shard_count => 4)} ],
	'<', \$in, '>', \$bg_out, '2>', \$bg_err);
$w2->poll_query_until('postgres', q{
	SELECT count(*) > 0 FROM pg_stat_activity
	 WHERE wait_event = 'PgSleep' AND query LIKE '%polarbench_fill_shards%'})
  or die 'the load never reached the ANALYZE on worker2';
$c->safe_psql('postgres', q{
	SELECT pg_cancel_backend(pid) FROM pg_stat_activity
	 WHERE query LIKE 'SELECT * FROM polarbench_init%' AND backend_type = 'client backend'});
$h->finish;
like($bg_err, qr/canceling statement due to user request/, 'YCSB: a load canceled on the coordinator ends');
no_loader_left('YCSB, canceled');
is(state_of('usertable%'), $before, 'YCSB, canceled: every node as it was, nothing prepared');
is(value($ycsb_sums), $sums, 'YCSB, canceled: the old tables with their rows');
$w2->safe_psql('postgres', 'DROP EVENT TRIGGER pb_slow_trigger');

fails_on_worker2('YCSB',
	qq{polarbench_init('ycsb', $ycsb_args, distributed => true, shard_count => 4)},
	'usertable_%', 'field0', $ycsb_sums, 'usertable%');

# ---- TPC-C -------------------------------------------------------------------

my $broken = q{SELECT coalesce(string_agg(condition::text, ' ' ORDER BY condition), 'none')
				 FROM polarbench_tpcc_check() WHERE offending > 0};

# a distributed load of TPC-C's data set, and the checks of a fresh one
sub tpcc_loaded
{
	my ($what) = @_;
	my @calls = fill_calls();
	my $rows = value(q{
		SELECT rows FROM polarbench_init('tpcc', warehouses => 2, distributed => true, shard_count => 4)});
	is(fill_calls_of_load(@calls), "0 1 1", "TPC-C$what: loaded once on each worker, never through the coordinator");
	is($rows, value(q{
		SELECT (SELECT count(*) FROM warehouse) + (SELECT count(*) FROM district)
			   + (SELECT count(*) FROM customer) + (SELECT count(*) FROM history)
			   + (SELECT count(*) FROM orders) + (SELECT count(*) FROM new_order)
			   + (SELECT count(*) FROM item) + (SELECT count(*) FROM stock)
			   + (SELECT count(*) FROM order_line)}),
		"TPC-C$what: the rows it reports are the tables'");
	is(value(q{
		SELECT (SELECT count(*) FROM warehouse) || ' ' || (SELECT count(*) FROM district) || ' '
			   || (SELECT count(*) FROM customer) || ' ' || (SELECT count(*) FROM stock) || ' '
			   || (SELECT count(*) FROM item) || ' ' || (SELECT count(*) FROM tpcc_load)}),
		'2 20 60000 200000 100000 1', "TPC-C$what: two warehouses' rows");
	is(value(q{
		SELECT pg_relation_size('stock') + pg_relation_size('customer') + pg_relation_size('order_line')
			   + pg_relation_size('item')}),
		'0', "TPC-C$what: no row written in the coordinator's tables");
	is(value($broken), 'none', "TPC-C$what: every consistency condition holds");
	routed($_->[0], $_->[1]) foreach ([ 'stock', 's_w_id' ], [ 'order_line', 'ol_w_id' ],
		[ 'customer', 'c_w_id' ], [ 'history', 'h_w_id' ]);
	indexed('customer', q{c_w_id > 0 AND c_last > ''});
	indexed('orders', 'o_c_id > 0');
	my @item = split /\n/, $cluster->on_placements('item', q{
		SELECT count(*) || ' ' || sum(hashtext(t::text)::bigint) FROM %s t});
	is(scalar(@item), 3, "item$what: a placement on every node");
	is(scalar(grep { $_ eq $item[0] } @item), 3, "item$what: the same rows on every node");
	like($item[0], qr/^100000 /, "item$what: every item");
	return;
}
tpcc_loaded('');
tpcc_loaded(', replaced');
tpcc_loaded(', replaced again');

# a node with a placement of item but no warehouse: refused, nothing left
my $tpcc_before = state_of('%order%');
my ($ret, $out, $err) = $c->psql('postgres', "\\set VERBOSITY verbose\nSELECT * FROM polarbench_init('tpcc', warehouses => 1, distributed => true, shard_count => 1)");
like($err, qr/ERROR:  0A000: a node of the cluster holds no shard of the distributed tables of data set "tpcc"/,
	'TPC-C: a node holding item but no warehouse is refused');
is(state_of('%order%'), $tpcc_before, '... every node as it was');
is(value(q{SELECT count(*) FROM warehouse}), '2', '... the old tables with their rows');

fails_on_worker2('TPC-C',
	q{polarbench_init('tpcc', warehouses => 2, distributed => true, shard_count => 4)},
	'item_%', 'i_id',
	q{SELECT (SELECT count(*) || ' ' || sum(hashtext(t::text)::bigint) FROM stock t) || ' '
			 || (SELECT seed FROM tpcc_load)},
	'%order%');

is($cluster->crashes, '', 'no process of any node was terminated by a signal');

$_->stop foreach $cluster->nodes;
done_testing();
