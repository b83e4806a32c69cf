# TPC-C's data set: a parallel load canceled, or cut by a crash, while its
# workers fill their tables or once they have committed them, leaves the
# TPC-C tables there as they were, sound, and nothing the next load does
# not drop; warehouses added to a data set, in parallel, leave the rows of
# those there untouched and are the rows of the load's seed whoever makes
# them, and an addition canceled or cut short adds nothing.  Each point is
# reached by holding the load there with locks, never by timing.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('load_tpcc');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION amcheck;
	CREATE EXTENSION polarbench;
	-- what amcheck finds wrong in the TPC-C tables: heap and btree
	CREATE FUNCTION problems() RETURNS bigint LANGUAGE plpgsql AS $$
	DECLARE
		rel regclass;
		n bigint = 0;
	BEGIN
		FOR rel IN SELECT c.oid FROM pg_class c
					WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
					  AND c.relname IN ('warehouse', 'district', 'customer', 'history', 'orders',
										'new_order', 'order_line', 'item', 'stock', 'tpcc_load') LOOP
			n := n + (SELECT count(*) FROM verify_heapam(rel));
		END LOOP;
		FOR rel IN SELECT i.indexrelid FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
					WHERE c.relnamespace = 'public'::regnamespace
					  AND c.relname IN ('warehouse', 'district', 'customer', 'history', 'orders',
										'new_order', 'order_line', 'item', 'stock') LOOP
			PERFORM bt_index_parent_check(rel, true, true);
		END LOOP;
		RETURN n;
	END $$;
	-- the rows of warehouses lo .. hi in every table, and the items, as one
	-- checksum
	SET check_function_bodies = off;
	CREATE FUNCTION tpcc_sum(lo int, hi int) RETURNS text LANGUAGE sql AS $$
	SELECT md5(string_agg(s, ',' ORDER BY n)) FROM (
		SELECT 1 AS n, md5(string_agg(t::text, '' ORDER BY w_id)) AS s FROM warehouse t WHERE w_id BETWEEN lo AND hi
		UNION ALL SELECT 2, md5(string_agg(t::text, '' ORDER BY d_w_id, d_id)) FROM district t WHERE d_w_id BETWEEN lo AND hi
		UNION ALL SELECT 3, md5(string_agg(t::text, '' ORDER BY c_w_id, c_d_id, c_id)) FROM customer t WHERE c_w_id BETWEEN lo AND hi
		UNION ALL SELECT 4, md5(string_agg(t::text, '' ORDER BY h_c_w_id, h_c_d_id, h_c_id)) FROM history t WHERE h_w_id BETWEEN lo AND hi
		UNION ALL SELECT 5, md5(string_agg(t::text, '' ORDER BY o_w_id, o_d_id, o_id)) FROM orders t WHERE o_w_id BETWEEN lo AND hi
		UNION ALL SELECT 6, md5(string_agg(t::text, '' ORDER BY no_w_id, no_d_id, no_o_id)) FROM new_order t WHERE no_w_id BETWEEN lo AND hi
		UNION ALL SELECT 7, md5(string_agg(t::text, '' ORDER BY ol_w_id, ol_d_id, ol_o_id, ol_number)) FROM order_line t WHERE ol_w_id BETWEEN lo AND hi
		UNION ALL SELECT 8, md5(string_agg(t::text, '' ORDER BY s_w_id, s_i_id)) FROM stock t WHERE s_w_id BETWEEN lo AND hi
		UNION ALL SELECT 9, md5(string_agg(t::text, '' ORDER BY i_id)) FROM item t) x $$;
});

# what the data set is: its tpcc_load, and the checksum of every row
sub state
{
	return $node->safe_psql('postgres', q{
		SELECT warehouses || ' ' || md5(t::text) || ' ' || tpcc_sum(1, warehouses) FROM tpcc_load t});
}

# the relations of loads (staging names) left in the schema
sub strays
{
	return $node->safe_psql('postgres', q{
		SELECT coalesce(string_agg(relname, ' ' ORDER BY relname), 'none') FROM pg_class
		 WHERE relnamespace = 'public'::regnamespace AND relname LIKE 'pbload%'});
}

# the consistency conditions that do not hold
sub broken
{
	return $node->safe_psql('postgres', q{
		SELECT coalesce(string_agg(condition::text, ' '), 'none')
		  FROM polarbench_tpcc_check() WHERE offending > 0});
}

# start a load in the background and wait until the given query is true
sub start_and_wait
{
	my ($sql, $until) = @_;
	my ($in, $out, $err) = ('', '', '');
	my $h = IPC::Run::start(
		[ 'psql', '-X', '-d', $node->connstr('postgres'), '-c', $sql ],
		'<', \$in, '>', \$out, '2>', \$err);
	$node->poll_query_until('postgres', $until)
	  or die "never: $until\n$out$err";
	return ($h, \$err);
}

# Another session's open transaction creates tables by the staging name of
# stock for the transaction ids the next load may get: the worker that
# takes the stock job waits at its CREATE TABLE for that transaction, the
# other one goes on with the other tables.  Returns the session.
sub hold_stock
{
	my $holder = $node->background_psql('postgres');
	my $xid = $holder->query_safe('BEGIN; SELECT pg_current_xact_id()');
	$holder->query_safe(join '', map { "CREATE TABLE pbload_${_}_stock ();" }
		($xid + 1 .. $xid + 20));
	return $holder;
}

# one loader worker waits for the holder, the other loads or writes pages
my $stock_held = q{
	SELECT count(*) = 2 AND count(*) FILTER (WHERE wait_event = 'transactionid') = 1
	  FROM pg_stat_activity WHERE backend_type = 'polarbench loader'};

sub leader_pid
{
	return $node->safe_psql('postgres', q{
		SELECT pid FROM pg_stat_activity
		 WHERE backend_type = 'client backend' AND query LIKE 'SELECT polarbench_init%'});
}

sub wait_no_loader_worker
{
	$node->poll_query_until('postgres',
		q{SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type = 'polarbench loader'})
	  or die 'loader workers stayed';
}

$node->safe_psql('postgres', q{SELECT polarbench_init('tpcc', warehouses => 1)});
$node->safe_psql('postgres', 'CHECKPOINT');
my $before = state();
like($before, qr/^1 [0-9a-f]{32} [0-9a-f]{32}$/, 'a data set of one warehouse');
is(broken(), 'none', 'consistent');

# 1. a parallel load over it, canceled while its workers fill their tables
my $holder = hold_stock();
my ($h, $err) = start_and_wait(
	q{SELECT polarbench_init('tpcc', warehouses => 1, parallel => 2)}, $stock_held);
$node->safe_psql('postgres', 'SELECT pg_cancel_backend(' . leader_pid() . ')');
$h->finish;
$holder->quit;
like($$err, qr/canceling statement due to user request/, 'a parallel TPC-C load canceled part way');
wait_no_loader_worker();
is(state(), $before, 'the tables are as they were');
is(strays(), 'none', 'nothing of the load is left');

# 2. the same, cut by a crash
$holder = hold_stock();
($h, $err) = start_and_wait(
	q{SELECT polarbench_init('tpcc', warehouses => 1, parallel => 2)}, $stock_held);
$node->stop('immediate');
$h->finish;
eval { $holder->quit };
$node->start;
is(state(), $before, 'a parallel TPC-C load cut by a crash while loading: the tables are as they were');
is($node->safe_psql('postgres', 'SELECT problems()'), '0', 'and sound');
is(strays(), 'none', 'nothing of the load is left');

# 3. cut by a crash once its workers have committed, before the caller's
# transaction replaces the tables: another session's lock on an old table
# holds the caller there
my $reader = $node->background_psql('postgres');
$reader->query_safe('BEGIN; SELECT count(*) FROM warehouse');
($h, $err) = start_and_wait(
	q{SELECT polarbench_init('tpcc', warehouses => 1, parallel => 2)},
	q{SELECT count(*) = 1 FROM pg_stat_activity
	   WHERE backend_type = 'client backend' AND query LIKE 'SELECT polarbench_init%'
		 AND wait_event_type = 'Lock'});
like($node->safe_psql('postgres', q{SELECT count(*) FROM pg_class WHERE relname LIKE 'pbload%' AND relkind = 'r'}),
	qr/^9$/, 'the workers have committed their nine tables');
$node->stop('immediate');
$h->finish;
eval { $reader->quit };
$node->start;
is(state(), $before, 'a parallel TPC-C load cut after its workers committed: the tables are as they were');
is($node->safe_psql('postgres', 'SELECT problems()'), '0', 'and sound');
like(strays(), qr/pbload_\d+_stock/, 'the committed staging tables are left');

# 4. warehouses added, canceled while the workers fill their tables (a
# load drops what earlier ones left in its own transaction: canceled, it
# leaves them)
my $left = strays();
$holder = hold_stock();
($h, $err) = start_and_wait(
	q{SELECT polarbench_init('tpcc', warehouses => 2, parallel => 2)}, $stock_held);
$node->safe_psql('postgres', 'SELECT pg_cancel_backend(' . leader_pid() . ')');
$h->finish;
$holder->quit;
like($$err, qr/canceling statement due to user request/, 'an addition of warehouses canceled part way');
wait_no_loader_worker();
is(state(), $before, 'the data set is as it was');
is(strays(), $left, 'nothing of the addition is left');

# 5. canceled and cut by a crash while the caller appends the new rows: a
# trigger of the user's on warehouse waits for an advisory lock
$node->safe_psql('postgres', q{
	CREATE FUNCTION wait_for_test() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		PERFORM pg_advisory_xact_lock(42);
		RETURN NEW;
	END $$;
	CREATE TRIGGER wait_for_test BEFORE INSERT ON warehouse
		FOR EACH ROW EXECUTE FUNCTION wait_for_test();
});
my $appending = q{
	SELECT count(*) = 1 FROM pg_stat_activity
	 WHERE backend_type = 'client backend' AND query LIKE 'SELECT polarbench_init%'
	   AND wait_event = 'advisory'};
my $locker = $node->background_psql('postgres');
$locker->query_safe('SELECT pg_advisory_lock(42)');
($h, $err) = start_and_wait(
	q{SELECT polarbench_init('tpcc', warehouses => 2, parallel => 2)}, $appending);
$node->safe_psql('postgres', 'SELECT pg_cancel_backend(' . leader_pid() . ')');
$h->finish;
like($$err, qr/canceling statement due to user request/, 'an addition canceled while it appends');
wait_no_loader_worker();
$node->poll_query_until('postgres', q{
	SELECT coalesce(string_agg(relname, ' ' ORDER BY relname), 'none') FROM pg_class
	 WHERE relnamespace = 'public'::regnamespace AND relname LIKE 'pbload%'}, $left)
  or die 'the committed staging tables stayed';
is(state(), $before, 'the data set is as it was, and the staging tables are dropped');

($h, $err) = start_and_wait(
	q{SELECT polarbench_init('tpcc', warehouses => 2, parallel => 2)}, $appending);
$node->stop('immediate');
$h->finish;
eval { $locker->quit };
$node->start;
is(state(), $before, 'an addition cut by a crash while it appends: the data set is as it was');
is($node->safe_psql('postgres', 'SELECT problems()'), '0', 'and sound');
like(strays(), qr/pbload_\d+_warehouse/, 'the committed staging tables are left');
$node->safe_psql('postgres', 'DROP TRIGGER wait_for_test ON warehouse');

# 6. warehouses added in parallel: the first one's rows untouched
my $first = $node->safe_psql('postgres', 'SELECT tpcc_sum(1, 1)');
like($node->safe_psql('postgres', q{
	SELECT rows FROM polarbench_init('tpcc', warehouses => 3, parallel => 2)}),
	qr/^\d+$/, 'warehouses 2 and 3 added in parallel');
is(strays(), 'none', 'dropping what the interrupted loads left');
is($node->safe_psql('postgres', 'SELECT tpcc_sum(1, 1)'), $first,
	'the rows of warehouse 1 are as they were, in every table');
is($node->safe_psql('postgres', q{
	SELECT warehouses || ' ' || (SELECT count(*) FROM warehouse) || ' ' || (SELECT count(*) FROM stock)
	       || ' ' || (SELECT count(*) FROM item) FROM tpcc_load}),
	'3 3 300000 100000', 'every table but item has the new warehouses');
is(broken(), 'none', 'the data set is consistent');
is($node->safe_psql('postgres', 'SELECT problems()'), '0', 'and sound');

# the rows added are those of the load's seed, whoever makes them: warehouse
# 3 taken out and added again, serially, is the same
my $third = $node->safe_psql('postgres', 'SELECT tpcc_sum(3, 3)');
$node->safe_psql('postgres', q{
	DELETE FROM order_line WHERE ol_w_id = 3; DELETE FROM new_order WHERE no_w_id = 3;
	DELETE FROM orders WHERE o_w_id = 3; DELETE FROM history WHERE h_w_id = 3;
	DELETE FROM customer WHERE c_w_id = 3; DELETE FROM stock WHERE s_w_id = 3;
	DELETE FROM district WHERE d_w_id = 3; DELETE FROM warehouse WHERE w_id = 3;
	UPDATE tpcc_load SET warehouses = 2});
$node->safe_psql('postgres', q{SELECT polarbench_init('tpcc', warehouses => 3)});
is($node->safe_psql('postgres', 'SELECT tpcc_sum(3, 3)'), $third,
	'a warehouse added again serially has the same rows as added in parallel');
is($node->safe_psql('postgres', 'SELECT tpcc_sum(1, 1)'), $first,
	'and warehouse 1 is still as it was');

# 7. then a new load: the staging tables are gone, the data set replaced
is($node->safe_psql('postgres', q{
	SELECT tables FROM polarbench_init('tpcc', warehouses => 1, parallel => 2)}),
	'10', 'a new load over it replaces it');
is($node->safe_psql('postgres', 'SELECT warehouses FROM tpcc_load'), '1',
	'with its own warehouses');
is(broken(), 'none', 'consistent');

$node->stop;
done_testing();
