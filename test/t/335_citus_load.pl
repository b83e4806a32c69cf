# polarbench_init('pgbench', distributed => true) loads at the speed of the
# nodes: on a Citus coordinator and two workers, each worker's polarbench
# fills the shards it holds (polarbench_fill_shards runs once on each
# worker, never on the coordinator, whose tables stay empty), in the
# caller's distributed transaction.  A failure raised on a worker after it
# has written its rows, and a cancel of the caller while a worker is
# loading, leave the old tables as they were on every node, no prepared
# transaction and no backend still loading anywhere.  A table in the way of
# the conducting table is refused before anything is written; every
# refusal of polarbench_fill_shards itself, called by hand on a worker with
# the options a load sent it, is tested.  The rows and layout themselves
# are checked by 330_citus_init.pl.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use PolarbenchCitus;

PolarbenchCitus::skip_unless_installed();

my $cluster = PolarbenchCitus->new('citus_load');
my $c = $cluster->coordinator;
my ($w1, $w2) = $cluster->workers;

# calls of C functions counted; worker1 logs what Citus sends it
foreach my $node ($cluster->nodes)
{
	$node->append_conf('postgresql.conf', "track_functions = 'all'");
	$node->append_conf('postgresql.conf', "log_statement = 'all'")
	  if $node == $w1;
	$node->reload;
}

sub value { return $c->safe_psql('postgres', $_[0]); }

# calls of polarbench_fill_shards a node counted
sub fill_calls
{
	my ($node) = @_;
	return $node->safe_psql('postgres', q{
		SELECT coalesce(sum(calls), 0) FROM pg_stat_user_functions
		 WHERE funcname = 'polarbench_fill_shards'});
}

# ---- the load runs on the workers -----------------------------------------

is(value(q{
	SELECT rows || ' ' || (bytes > 0)
	  FROM polarbench_init('pgbench', scale => 2, distributed => true, shard_count => 4)}),
	'200022 true', 'pgbench distributed: its rows, and their size on the workers');
foreach my $w ($w1, $w2)
{
	ok($w->poll_query_until('postgres', q{
		SELECT sum(calls) = 1 FROM pg_stat_user_functions
		 WHERE funcname = 'polarbench_fill_shards'}),
		$w->name . ': polarbench_fill_shards ran once there');
	ok($w->safe_psql('postgres', q{
		SET citus.override_table_visibility = off;
		SELECT sum(pg_relation_size(c.oid)) > 0 FROM pg_class c
		 WHERE c.relname LIKE 'pgbench_accounts_%' AND c.relkind = 'r'}) eq 't',
		$w->name . ': its shards of pgbench_accounts hold the rows it wrote');
}
$c->safe_psql('postgres', 'SELECT pg_stat_force_next_flush()');
is(fill_calls($c), '0', 'the coordinator loaded no shard');
is(value(q{
	SELECT pg_relation_size('pgbench_accounts') + pg_relation_size('pgbench_branches')
		   + pg_relation_size('pgbench_tellers') + pg_relation_size('pgbench_history')}),
	'0', 'no row ever written on the coordinator');
is(value(q{SELECT count(*) || ' ' || sum(abalance) FROM pgbench_accounts}),
	'200000 0', 'the accounts through the coordinator');

# What a load leaves on a node: its relations named like the data set's or
# the conducting table, with their sizes, and prepared transactions.
sub state_of
{
	my $s = value(q{
		SELECT string_agg(table_name || ' ' || shard_count, ', '
						  ORDER BY table_name::text COLLATE "C")
		  FROM citus_tables WHERE table_name::text LIKE 'pgbench%'});
	foreach my $node ($cluster->nodes)
	{
		$s .= ' | ' . $node->safe_psql('postgres', q{
			SET citus.override_table_visibility = off;
			SELECT count(*) || ' ' || coalesce(sum(pg_relation_size(oid)), 0)
				   || ' ' || (SELECT count(*) FROM pg_prepared_xacts)
			  FROM pg_class
			 WHERE relname LIKE 'pgbench%' OR relname LIKE 'polarbench_load_conduct%'});
	}
	return $s;
}
my $before = state_of();
my $sums_sql = q{
	SELECT (SELECT count(*) || ' ' || sum(abalance) FROM pgbench_accounts) || ' '
		   || (SELECT count(*) FROM pgbench_branches) || ' '
		   || (SELECT count(*) FROM pgbench_tellers)};
my $sums = value($sums_sql);
is($sums, '200000 0 2 20', 'the data set before the failures');

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

sub unchanged
{
	my ($what) = @_;
	no_loader_left($what);
	is(state_of(), $before, "$what: every node as it was, nothing prepared");
	is(value($sums_sql), $sums, "$what: the old tables with their rows");
	return;
}

# On worker2, each new shard of pgbench_accounts gets a statistics object on
# an expression of fn: the ANALYZE that ends the shards' load there, once
# all its rows are written, calls fn (written by hand on the worker, as its
# own object).
sub on_worker2_analyze
{
	my ($fn, $body) = @_;
	$cluster->on_analyze($w2, $fn, $body, 'pgbench_accounts_%', 'aid');
	return;
}

# ---- a failure on a worker after it wrote its rows ----------------------

on_worker2_analyze('pb_fails', q{RAISE EXCEPTION 'worker2 fails once loaded'});
my ($ret, $out, $err) = $c->psql('postgres',
	q{SELECT * FROM polarbench_init('pgbench', scale => 2, distributed => true, shard_count => 4)});
like($err, qr/worker2 fails once loaded/, 'a load failing on a worker fails');
unchanged('a load failing on a worker');
$w2->safe_psql('postgres', 'DROP EVENT TRIGGER pb_fails_trigger');

# ---- a cancel while a worker loads ------------------------------------------

on_worker2_analyze('pb_slow', 'PERFORM pg_sleep(60)');
my ($in, $bg_out, $bg_err) = ('', '', '');
my $h = IPC::Run::start(
	[ 'psql', '-X', '-d', $c->connstr('postgres'), '-c',
	  q{SELECT * FROM polarbench_init('pgbench', scale => 2, distributed => true, shard_count => 4)} ],
	'<', \$in, '>', \$bg_out, '2>', \$bg_err);
$w2->poll_query_until('postgres', q{
	SELECT count(*) > 0 FROM pg_stat_activity
	 WHERE wait_event = 'PgSleep' AND query LIKE '%polarbench_fill_shards%'})
  or die 'the load never reached the ANALYZE on worker2';
$c->safe_psql('postgres', q{
	SELECT pg_cancel_backend(pid) FROM pg_stat_activity
	 WHERE query LIKE 'SELECT * FROM polarbench_init%' AND backend_type = 'client backend'});
$h->finish;
like($bg_err, qr/canceling statement due to user request/, 'a load canceled on the coordinator ends');
unchanged('a load canceled while a worker loads');
$w2->safe_psql('postgres', 'DROP EVENT TRIGGER pb_slow_trigger');

# ---- the conducting table's name taken ------------------------------------

$c->safe_psql('postgres', 'CREATE TABLE polarbench_load_conduct(x int)');
$before = state_of();
($ret, $out, $err) = $c->psql('postgres',
	"\\set VERBOSITY verbose\nSELECT * FROM polarbench_init('pgbench', scale => 1, distributed => true)");
like($err, qr/ERROR:  42P07: table "public.polarbench_load_conduct" is in the way of a distributed load/,
	'a table named as the conducting one: refused');
is(state_of(), $before, '... nothing changed on any node');
is(value($sums_sql), $sums, '... the old tables with their rows');
$c->safe_psql('postgres', 'DROP TABLE polarbench_load_conduct');

# ---- a load failed on the coordinator, its error caught ---------------------

# the rows of a later load in the same transaction are not dropped as the
# coordinator's rows of the failed distributed load were
$c->safe_psql('postgres', q{
	CREATE FUNCTION pb_no_alter() RETURNS event_trigger LANGUAGE plpgsql AS $$
	BEGIN
		RAISE EXCEPTION 'no ALTER TABLE on the coordinator';
	END $$;
	CREATE EVENT TRIGGER pb_no_alter ON ddl_command_start WHEN TAG IN ('ALTER TABLE')
		EXECUTE FUNCTION pb_no_alter();
});
is($c->safe_psql('postgres', q{
	BEGIN;
	DO $$
	BEGIN
		PERFORM polarbench_init('pgbench', scale => 1, distributed => true, shard_count => 4);
	EXCEPTION WHEN raise_exception THEN
		RAISE NOTICE 'caught';
	END $$;
	DROP EVENT TRIGGER pb_no_alter;
	SELECT rows FROM polarbench_init('ycsb', records => 100);
	SELECT count(*) FROM usertable;
	ROLLBACK;}),
	"100\n100", 'a load after a distributed one that failed and was caught keeps its rows');

# ---- polarbench_fill_shards by hand -----------------------------------------

# the options the coordinator sent worker1 in its last load, from its log:
# named, as a reader of the log sees them
my @sent = slurp_file($w1->logfile) =~
  /INSERT INTO public\.polarbench_load_conduct_\d+ \(k, dataset, options, [^)]*\) VALUES \(\d+, 'pgbench'::text, '(\{[^']*\})'::jsonb/g;
ok(@sent > 0, 'worker1 received the options of the load');
like($sent[-1], qr/"scale": \d+, .*"schema": "public"/, 'the options name the data set\'s arguments');
# the same, written by hand
my $json = q{{"schema": "public", "scale": 2, "partitions": 0, "partition_method": "range",
	"fillfactor": 100, "unlogged": false, "progress": false, "wal_compression": true,
	"seed": 0, "load_time": "2000-01-01T00:00:00+00:00", "row_time": "2000-01-01T00:00:00",
	"first_warehouse": 0, "c_load": 0}};
my $opts = "'pgbench', '$json'::jsonb";
my $tables = q{'{pgbench_accounts,pgbench_branches,pgbench_history,pgbench_tellers}'};
my $columns = q{'{aid,bid,aid,tid}'};
my $ranges = q{'{0,0,0,0}', '{1,1,1,1}'};

sub fill_refused
{
	my ($sql, $sqlstate, $message, $name) = @_;
	my ($ret, $out, $err) = $w1->psql('postgres', "\\set VERBOSITY verbose\n$sql");
	like($err, qr/ERROR:  $sqlstate: \Q$message\E/, "polarbench_fill_shards: $name");
	return;
}

# options changed: jsonb's operators on the options above
sub with_options
{
	my ($change) = @_;
	return "'pgbench', '$json'::jsonb $change";
}

fill_refused(q{SELECT polarbench_fill_shards('pgbench', NULL, '{}', '{}', '{}', '{}', '{}')},
	'22004', 'polarbench_fill_shards takes no NULL argument', 'a NULL argument');
fill_refused(q{SELECT polarbench_fill_shards('nosuch', '{}', '{}', '{}', '{}', '{}', '{}')},
	'22023', 'unknown data set "nosuch"', 'an unknown data set');
fill_refused(q{SELECT polarbench_fill_shards('pgbench', '[1]', '{}', '{}', '{}', '{}', '{}')},
	'22023', 'the options of polarbench_fill_shards must be a JSON object', 'options not an object');
fill_refused(q{SELECT polarbench_fill_shards('pgbench', '{"a": {"b": 1}}', '{}', '{}', '{}', '{}', '{}')},
	'22023', 'value of option "a" must be a number, a string or a boolean', 'an option not a scalar');
fill_refused(qq{SELECT polarbench_fill_shards(@{[with_options(q{|| '{"nosuch": 1}'})]}, '{}', '{}', '{}', '{}', '{}')},
	'22023', 'unknown option "nosuch" of polarbench_fill_shards for data set "pgbench"', 'an unknown option');
fill_refused(qq{SELECT polarbench_fill_shards(@{[with_options(q{|| '{"records": 1}'})]}, '{}', '{}', '{}', '{}', '{}')},
	'22023', 'unknown option "records" of polarbench_fill_shards for data set "pgbench"', 'an option of another data set');
fill_refused(qq{SELECT polarbench_fill_shards(@{[with_options(q{- 'scale'})]}, '{}', '{}', '{}', '{}', '{}')},
	'22023', 'option "scale" of polarbench_fill_shards is missing', 'an option missing');
fill_refused(qq{SELECT polarbench_fill_shards(@{[with_options(q{|| '{"scale": "two"}'})]}, '{}', '{}', '{}', '{}', '{}')},
	'22023', 'option "scale" of polarbench_fill_shards must be an integer', 'an integer option not an integer');
fill_refused(qq{SELECT polarbench_fill_shards(@{[with_options(q{|| '{"unlogged": "maybe"}'})]}, '{}', '{}', '{}', '{}', '{}')},
	'22023', 'option "unlogged" of polarbench_fill_shards must be a boolean', 'a boolean option not a boolean');
fill_refused(qq{SELECT polarbench_fill_shards(@{[with_options(q{|| '{"partition_method": "list"}'})]}, '{}', '{}', '{}', '{}', '{}')},
	'22023', 'option "partition_method" of polarbench_fill_shards must be "range" or "hash"', 'an unknown partition method');
fill_refused(qq{SELECT polarbench_fill_shards(@{[with_options(q{|| '{"load_time": "soon"}'})]}, '{}', '{}', '{}', '{}', '{}')},
	'22007', 'invalid input syntax for type timestamp with time zone: "soon"', 'a time that is not one');
fill_refused(qq{SELECT polarbench_fill_shards(@{[with_options(q{|| '{"schema": "nosuch"}'})]}, '{}', '{}', '{}', '{}', '{}')},
	'3F000', 'schema "nosuch" does not exist', 'a schema that does not exist');
fill_refused(qq{SELECT polarbench_fill_shards(@{[with_options(q{|| '{"fillfactor": 5}'})]}, '{}', '{}', '{}', '{}', '{}')},
	'22023', 'fillfactor must be between 10 and 100', 'a fillfactor out of range');
fill_refused(qq{SELECT polarbench_fill_shards(@{[with_options(q{|| '{"scale": 0}'})]}, '{}', '{}', '{}', '{}', '{}')},
	'22023', 'scale must be between 1 and', 'a value the data set refuses');
fill_refused(qq{SELECT polarbench_fill_shards(@{[with_options(q{|| '{"partitions": 2}'})]}, '{}', '{}', '{}', '{}', '{}')},
	'0A000', 'data set "pgbench" is not loaded on the nodes', 'a load not made on the nodes');
fill_refused(qq{SELECT polarbench_fill_shards($opts, '{a}', '{}', '{}', '{}', '{}')},
	'2202E', 'the arrays of polarbench_fill_shards are not of the same length', 'arrays of unequal length');
fill_refused(qq{SELECT polarbench_fill_shards($opts, '{pgbench_accounts}', '{aid}', '{x}', '{0}', '{1}')},
	'22023', 'polarbench_fill_shards has no shards of table "pgbench_history"', 'a table of the data set left out');

# shards of the committed tables: not created in the caller's transaction
my ($shard) = $w1->safe_psql('postgres', q{
	SET citus.override_table_visibility = off;
	SELECT relname FROM pg_class WHERE relname ~ '^pgbench_accounts_[0-9]+$' LIMIT 1});
my $names = "'{$shard,$shard,$shard,$shard}'";
fill_refused(qq{SELECT polarbench_fill_shards($opts, $tables, $columns, $names, $ranges)},
	'55000', 'polarbench_fill_shards fills only shards created in its transaction',
	'a shard not created in its transaction');
fill_refused(qq{SELECT polarbench_fill_shards($opts, $tables, $columns, '{x,x,x,x}', $ranges)},
	'42P01', 'relation "public.x" does not exist', 'a shard that does not exist');
fill_refused(qq{SELECT polarbench_fill_shards($opts, '{nosuch,pgbench_accounts,pgbench_branches,pgbench_history,pgbench_tellers}', '{x,aid,bid,aid,tid}', '{x,x,x,x,x}', '{0,0,0,0,0}', '{1,1,1,1,1}')},
	'42P01', 'relation "public.nosuch" does not exist', 'a table that does not exist');
fill_refused(qq{SELECT polarbench_fill_shards($opts, $tables, '{nosuch,bid,aid,tid}', '{x,x,x,x}', $ranges)},
	'42703', 'column "nosuch" of relation "pgbench_accounts" does not exist', 'a column that does not exist');
fill_refused(qq{BEGIN; SET citus.enable_ddl_propagation = off; CREATE TABLE other(x int);
	SELECT polarbench_fill_shards($opts, $tables, $columns, '{other,other,other,other}', $ranges)},
	'42804', 'relation "public.other" does not have the columns of table "pgbench_accounts"',
	'a shard of other columns');
$c->safe_psql('postgres', 'CREATE ROLE carol; GRANT CREATE ON SCHEMA public TO carol');
fill_refused(qq{BEGIN; SET ROLE carol; SET citus.enable_ddl_propagation = off;
	CREATE TABLE other(aid int, bid int, abalance int, filler char(84));
	REVOKE INSERT ON other FROM carol;
	SELECT polarbench_fill_shards($opts, $tables, $columns, '{other,other,other,other}', $ranges)},
	'42501', 'permission denied for table other', 'a shard the caller may not insert into');
is($w1->safe_psql('postgres', q{SELECT count(*) FROM pg_class WHERE relname = 'other'}), '0',
	'polarbench_fill_shards refused: nothing left');
is(value($sums_sql), $sums, '... the data set as it was');

is($cluster->crashes, '', 'no process of any node was terminated by a signal');

$_->stop foreach $cluster->nodes;
done_testing();
