# polarbench_init(..., distributed => true) on a Citus coordinator and two
# workers: each data set's tables become Citus tables laid out as Citus's
# guides and HammerDB's Citus mode lay them out (pgbench's accounts and
# history by aid, branches and tellers by their keys, all colocated;
# sysbench's sbtestN by id; usertable by ycsb_key; TPC-C's eight warehouse
# tables by warehouse id colocated with warehouse, item and tpcc_load
# reference tables), of shard_count shards or citus.shard_count's, their
# shards on both workers, each row in the shard Citus routes its key to,
# nothing left on the coordinator.  The rows are a local load's: the
# checks of one server hold (pgbench's invariant after tpcb-like through the
# coordinator, the sysbench and YCSB contents, TPC-C's consistency
# conditions after the load and after a run through the coordinator).
# Every refusal (no Citus, a worker, a role that may not call Citus's
# functions, foreign keys, shard_count without distributed, adding
# warehouses) comes before anything is written: nothing is left on any
# node.  A load that fails on a worker, or is canceled while Citus creates
# its shards, leaves the old tables as they were on every node; functions
# planted on the search_path take no part.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use PolarbenchCitus;

PolarbenchCitus::skip_unless_installed();

my $cluster = PolarbenchCitus->new('citus_init');
my $c = $cluster->coordinator;
my ($w1, $w2) = $cluster->workers;

sub value { return $c->safe_psql('postgres', $_[0]); }

# What a data set's tables are on each node: on the coordinator, its Citus
# tables (type, column, shards) and every relation named like them; on each
# worker, the relations named like them (shell tables and shards).  Equal
# before and after a refusal when it left nothing behind.
sub state_of
{
	my ($like) = @_;
	my $s = value(qq{
		SELECT coalesce(string_agg(table_name || ' ' || citus_table_type || ' '
								   || distribution_column || ' ' || shard_count, ', '
								   ORDER BY table_name::text COLLATE "C"), '')
		  FROM citus_tables WHERE table_name::text LIKE '$like'});
	foreach my $node ($cluster->nodes)
	{
		$s .= ' | ' . $node->safe_psql('postgres', qq{
			SELECT count(*) || ' ' || coalesce(sum(pg_relation_size(oid)), 0)
			  FROM pg_class WHERE relname LIKE '$like' OR relname LIKE 'pbload%'});
	}
	return $s;
}

# ---- refusals, each leaving nothing on any node --------------------------

my $nothing = state_of('pgbench%');
is($nothing, ' | 0 0 | 0 0 | 0 0', 'no pgbench table on any node yet');

sub refused
{
	my ($node, $db, $sql, $sqlstate, $message, $name, $role) = @_;
	my ($ret, $out, $err) = $node->psql($db,
		"\\set VERBOSITY verbose\nSELECT * FROM $sql",
		extra_params => defined $role ? [ '-U', $role ] : []);
	like($err, qr/ERROR:  $sqlstate: \Q$message\E/, "$name: refused");
	is(state_of('pgbench%'), $nothing, "$name: nothing left on any node");
	return $err;
}

# a database without the citus extension, on the coordinator's server
$c->safe_psql('postgres', 'CREATE DATABASE nocitus');
$c->safe_psql('nocitus', 'CREATE EXTENSION polarbench');
my $err = refused($c, 'nocitus', q{polarbench_init('pgbench', distributed => true)},
	'0A000', 'distributed => true needs a Citus coordinator', 'without Citus');
like($err, qr/citus extension is not installed in database "nocitus"/,
	'without Citus: the detail says why');
is($c->safe_psql('nocitus', q{SELECT count(*) FROM pg_class WHERE relname LIKE 'pgbench%'}),
	'0', 'without Citus: no table in that database');

$err = refused($w1, 'postgres', q{polarbench_init('pgbench', distributed => true)},
	'55000', 'distributed => true needs a Citus coordinator', 'on a worker');
like($err, qr/HINT:  Call polarbench_init on the coordinator/,
	'on a worker: the hint says where to call it');

refused($c, 'postgres', q{polarbench_init('pgbench', distributed => true, foreign_keys => true)},
	'0A000', 'distributed => true cannot be combined with foreign_keys => true',
	'foreign keys');
refused($c, 'postgres', q{polarbench_init('pgbench', shard_count => 4)},
	'22023', 'shard_count requires distributed => true', 'shard_count alone');
refused($c, 'postgres', q{polarbench_init('pgbench', distributed => true, shard_count => 0)},
	'22023', 'shard_count must be between 1 and 64000', 'no shards');

# a role that may load but not call Citus's functions
$c->safe_psql('postgres', q{
	CREATE ROLE bob LOGIN;
	GRANT CREATE ON SCHEMA public TO bob;
	GRANT EXECUTE ON FUNCTION polarbench_init(text, int, int, int, bigint, int, int, int, int,
		boolean, int, text, boolean, boolean, boolean, boolean, int, boolean, int) TO bob;
	REVOKE EXECUTE ON FUNCTION create_distributed_table(regclass, text, citus.distribution_type, text, int)
		FROM PUBLIC;
});
$err = refused($c, 'postgres', q{polarbench_init('pgbench', distributed => true)},
	'42501', 'permission denied for function create_distributed_table',
	'a role that may not distribute', 'bob');
like($err, qr/HINT:  Grant the role EXECUTE on them/, '... the hint says what to grant');
$c->safe_psql('postgres', q{
	GRANT EXECUTE ON FUNCTION create_distributed_table(regclass, text, citus.distribution_type, text, int)
		TO PUBLIC;
});

# ---- pgbench -------------------------------------------------------------

my $r = value(q{
	SELECT rows || ' ' || (bytes > 0)
	  FROM polarbench_init('pgbench', scale => 2, distributed => true, shard_count => 4)});
is($r, '200022 true', 'pgbench distributed: its rows, and their size as loaded');
is(value(q{
	SELECT string_agg(table_name || ' ' || citus_table_type || ' ' || distribution_column
					  || ' ' || shard_count, ', ' ORDER BY table_name::text COLLATE "C")
	  FROM citus_tables WHERE table_name::text LIKE 'pgbench%'}),
	'pgbench_accounts distributed aid 4, pgbench_branches distributed bid 4, '
	  . 'pgbench_history distributed aid 4, pgbench_tellers distributed tid 4',
	'pgbench: each table distributed by its key, of shard_count shards');
is(value(q{
	SELECT count(DISTINCT colocation_id) FROM citus_tables
	 WHERE table_name::text LIKE 'pgbench%'}),
	'1', 'pgbench: its tables colocated');
is(value(q{
	SELECT count(DISTINCT nodeport) || ' ' || bool_and(nodeport <> } . $c->port . q{)
	  FROM citus_shards WHERE table_name = 'pgbench_accounts'::regclass}),
	'2 true', 'pgbench: the shards on both workers, none on the coordinator');
is(value(q{
	SELECT pg_relation_size('pgbench_accounts') + pg_relation_size('pgbench_branches')
		   + pg_relation_size('pgbench_tellers')}),
	'0', 'pgbench: no local rows left on the coordinator');

# each row in the shard Citus routes its key to
sub routed
{
	my ($table, $column) = @_;
	my ($held, $routed) = $cluster->routing($table, $column);
	is($held, $routed, "$table: each shard holds the rows Citus routes to it");
	return;
}
routed('pgbench_accounts', 'aid');

is(value(q{
	SELECT count(*) || ' ' || count(DISTINCT aid) || ' ' || min(aid) || ' ' || max(aid)
		   || ' ' || sum(abalance) || ' ' || bool_and(bid = (aid - 1) / 100000 + 1)
	  FROM pgbench_accounts}),
	'200000 200000 1 200000 0 true', 'pgbench_accounts: as pgbench -i fills it');
is(value(q{
	SELECT (SELECT count(*) || ' ' || sum(bbalance) FROM pgbench_branches) || ' '
		   || (SELECT count(*) || ' ' || sum(tbalance) FROM pgbench_tellers) || ' '
		   || (SELECT count(*) FROM pgbench_history)}),
	'2 0 20 0 0', 'pgbench: branches, tellers and an empty history');

value(q{SELECT * FROM polarbench_run('tpcb-like', clients => 2, transactions => 50)});
my @s = split / /, value(q{
	SELECT (SELECT sum(abalance) FROM pgbench_accounts) || ' '
		   || (SELECT sum(tbalance) FROM pgbench_tellers) || ' '
		   || (SELECT sum(bbalance) FROM pgbench_branches) || ' '
		   || (SELECT coalesce(sum(delta), 0) FROM pgbench_history) || ' '
		   || (SELECT count(*) FROM pgbench_history)});
ok($s[0] == $s[3] && $s[1] == $s[3] && $s[2] == $s[3] && $s[4] == 100,
	"tpcb-like through the coordinator: pgbench's invariant holds (@s)");

# ---- a load failing on a worker leaves the old tables as they were ------

# the balances and history's rows through the coordinator
my $sums_sql = q{
	SELECT (SELECT sum(abalance) FROM pgbench_accounts) || ' '
		   || (SELECT count(*) FROM pgbench_history)};
my $before = state_of('pgbench%');
my $sums = value($sums_sql);

# on worker2, an event trigger of body on every CREATE TABLE (a shard's)
sub on_new_tables
{
	my ($name, $body) = @_;
	$w2->safe_psql('postgres', qq{
		SET citus.enable_ddl_propagation = off;
		CREATE FUNCTION $name() RETURNS event_trigger LANGUAGE plpgsql AS \$\$
		BEGIN
			$body;
		END \$\$;
		CREATE EVENT TRIGGER $name ON ddl_command_start WHEN TAG IN ('CREATE TABLE')
			EXECUTE FUNCTION $name();
	});
	return;
}

# every node as it was before the load, the old tables with their rows
sub unchanged
{
	my ($what) = @_;
	is(state_of('pgbench%'), $before, "$what: every node as it was");
	is(value($sums_sql), $sums, "$what: the old tables with their rows");
	return;
}

on_new_tables('pb_no_tables', q{RAISE EXCEPTION 'no new table on this worker'});
my ($ret, $out);
($ret, $out, $err) = $c->psql('postgres',
	q{SELECT * FROM polarbench_init('pgbench', scale => 1, distributed => true)});
like($err, qr/no new table on this worker/, 'a load failing on a worker fails');
unchanged('a load failing on a worker');
$w2->safe_psql('postgres', 'DROP EVENT TRIGGER pb_no_tables');

# ---- a load canceled while Citus creates the shards ---------------------

on_new_tables('pb_slow_tables', 'PERFORM pg_sleep(30)');
my ($in, $bg_out, $bg_err) = ('', '', '');
my $h = IPC::Run::start(
	[ 'psql', '-X', '-d', $c->connstr('postgres'), '-c',
	  q{SELECT * FROM polarbench_init('pgbench', scale => 1, distributed => true)} ],
	'<', \$in, '>', \$bg_out, '2>', \$bg_err);
$w2->poll_query_until('postgres',
	q{SELECT count(*) > 0 FROM pg_stat_activity WHERE wait_event = 'PgSleep'})
  or die 'the load never reached the second worker';
$c->safe_psql('postgres', q{
	SELECT pg_cancel_backend(pid) FROM pg_stat_activity
	 WHERE query LIKE 'SELECT * FROM polarbench_init%' AND backend_type = 'client backend'});
$h->finish;
like($bg_err, qr/canceling statement due to user request/, 'a load canceled on the coordinator ends');
unchanged('a load canceled');
$w2->safe_psql('postgres', 'DROP EVENT TRIGGER pb_slow_tables');

# ---- what a role plants on its search_path takes no part -----------------

$c->safe_psql('postgres', q{
	CREATE FUNCTION public.create_distributed_table(regclass, text, colocate_with text,
													shard_count int)
	RETURNS void LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'planted'; END $$;
	CREATE FUNCTION public.truncate_local_data_after_distributing_table(regclass)
	RETURNS void LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'planted'; END $$;
	CREATE FUNCTION public.citus_is_coordinator()
	RETURNS boolean LANGUAGE sql AS 'SELECT false';
});
is($c->safe_psql('postgres', q{
	SET search_path = public, pg_catalog;
	SELECT rows FROM polarbench_init('ycsb', records => 10, distributed => true)}),
	'10', 'functions planted before pg_catalog on search_path are not called');
$c->safe_psql('postgres', q{
	DROP FUNCTION public.create_distributed_table(regclass, text, text, int);
	DROP FUNCTION public.truncate_local_data_after_distributing_table(regclass);
	DROP FUNCTION public.citus_is_coordinator();
});

# ---- pgbench's partitions, distributed with their table ---------------

value(q{SELECT * FROM polarbench_init('pgbench', scale => 1, partitions => 2,
									  distributed => true, shard_count => 2)});
is(value(q{
	SELECT string_agg(table_name || ' ' || distribution_column || ' ' || shard_count, ', '
					  ORDER BY table_name::text COLLATE "C") || ' ' || count(DISTINCT colocation_id)
	  FROM citus_tables WHERE table_name::text LIKE 'pgbench_accounts%'}),
	'pgbench_accounts aid 2, pgbench_accounts_1 aid 2, pgbench_accounts_2 aid 2 1',
	'pgbench with partitions: the partitions distributed with their table');
is(value(q{
	SELECT count(*) || ' ' || count(DISTINCT aid) || ' ' || max(aid) FROM pgbench_accounts}),
	'100000 100000 100000', '... with every account');
is(value(q{SELECT count(*) FROM pgbench_accounts_2}), '50000', '... each partition its own');

# ---- sysbench, loaded in parallel ----------------------------------------

value(q{SELECT * FROM polarbench_init('sysbench', tables => 2, table_size => 1000,
									  parallel => 2, distributed => true)});
is(value(q{
	SELECT string_agg(table_name || ' ' || distribution_column || ' ' || shard_count, ', '
					  ORDER BY table_name::text COLLATE "C") || ' ' || count(DISTINCT colocation_id)
	  FROM citus_tables WHERE table_name::text LIKE 'sbtest%'}),
	'sbtest1 id 32, sbtest2 id 32 1',
	'sysbench: each table by id, colocated, of citus.shard_count shards');
foreach my $t (qw(sbtest1 sbtest2))
{
	is(value(qq{
		SELECT count(*) || ' ' || min(id) || ' ' || max(id) || ' ' || count(DISTINCT id) || ' '
			   || (min(k) >= 1 AND max(k) <= 1000) || ' '
			   || bool_and(c ~ '^([0-9]{11}-){9}[0-9]{11} \$') || ' '
			   || bool_and(pad ~ '^([0-9]{11}-){4}[0-9]{11} \$')
		  FROM $t}),
		'1000 1 1000 1000 true true true', "$t: sysbench's rows");
}
routed('sbtest2', 'id');

# ---- YCSB ----------------------------------------------------------------

value(q{SELECT * FROM polarbench_init('ycsb', records => 1000, fields => 3,
									  field_length => 20, distributed => true)});
is(value(q{
	SELECT citus_table_type || ' ' || distribution_column FROM citus_tables
	 WHERE table_name = 'usertable'::regclass}),
	'distributed ycsb_key', 'YCSB: usertable by ycsb_key');
is(value(q{
	SELECT count(*) || ' ' || count(DISTINCT ycsb_key) || ' '
		   || bool_and(ycsb_key ~ '^user[0-9]+$') || ' '
		   || bool_and(length(field0) = 20 AND length(field2) = 20)
	  FROM usertable}),
	'1000 1000 true true', "usertable: YCSB's records");
is(value(q{
	SELECT count(*) FROM usertable
	 WHERE ycsb_key IN ('user6284781860667377211', 'user8517097267634966620')}),
	'2', "usertable: YCSB's keys");
routed('usertable', 'ycsb_key');

# ---- TPC-C ---------------------------------------------------------------

value(q{SELECT * FROM polarbench_init('tpcc', warehouses => 2, distributed => true,
									  shard_count => 4)});
is(value(q{
	SELECT string_agg(table_name || ' ' || citus_table_type || ' '
					  || distribution_column, ', ' ORDER BY table_name::text COLLATE "C")
	  FROM citus_tables
	 WHERE table_name::text NOT LIKE 'pgbench%' AND table_name::text NOT LIKE 'sbtest%'
	   AND table_name::text <> 'usertable'}),
	'customer distributed c_w_id, district distributed d_w_id, history distributed h_w_id, '
	  . 'item reference <none>, new_order distributed no_w_id, order_line distributed ol_w_id, '
	  . 'orders distributed o_w_id, stock distributed s_w_id, '
	  . 'tpcc_load reference <none>, warehouse distributed w_id',
	'TPC-C: the warehouse tables by warehouse id, item and tpcc_load reference tables');
is(value(q{
	SELECT count(DISTINCT colocation_id) || ' ' || min(shard_count) || ' ' || max(shard_count)
	  FROM citus_tables WHERE distribution_column LIKE '%w_id'}),
	'1 4 4', 'TPC-C: the warehouse tables colocated');
is(value(q{SELECT count(DISTINCT nodeport) FROM citus_shards WHERE table_name = 'stock'::regclass}),
	'2', 'TPC-C: the warehouses on both workers');
routed('stock', 's_w_id');

my $broken = q{SELECT coalesce(string_agg(condition::text, ' ' ORDER BY condition), 'none')
				 FROM polarbench_tpcc_check() WHERE offending > 0};
is(value($broken), 'none', 'TPC-C: after the load, every condition holds');
is(value(q{SELECT count(*) FROM stock}), '200000', 'TPC-C: stock of two warehouses');

value(q{SELECT * FROM polarbench_run('tpcc', clients => 2, transactions => 20, random_seed => 5)});
is(value(q{SELECT status FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}), 'finished',
	'TPC-C through the coordinator: the run ends');
is(value($broken . ' AND condition <> 11'), 'none',
	'... and every condition holds (11 aside, as after any Delivery)');

# adding warehouses to a distributed data set is refused, and changes nothing
my $tpcc = state_of('%order%');
($ret, $out, $err) = $c->psql('postgres',
	q{SELECT * FROM polarbench_init('tpcc', warehouses => 3, distributed => true)});
like($err, qr/distributed => true cannot add to the data set in schema "public"/,
	'adding warehouses with distributed => true is refused');
is(state_of('%order%'), $tpcc, '... and leaves every node as it was');
is(value(q{SELECT count(*) FROM warehouse}), '2', '... two warehouses still');

is($cluster->crashes, '', 'no process of any node was terminated by a signal');

$_->stop foreach $cluster->nodes;
done_testing();
