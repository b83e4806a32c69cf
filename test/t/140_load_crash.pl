# The server crashes (immediate stop) in a serial partitioned load that
# has written its rows but not committed, in a parallel one while its
# workers fill their tables and after they have committed them, and in a
# run.  Each point is reached by holding the load there, never by timing.  After the restart: the tables
# the load would have replaced are there as they were, amcheck finds them
# sound, no relation of the load is left once the next load has run, no
# run shows as running, and the next load and run work.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $node = PostgreSQL::Test::Cluster->new('load_crash');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION amcheck;
	CREATE EXTENSION polarbench;
	-- what amcheck finds wrong in the pgbench tables: heap and btree
	CREATE FUNCTION problems() RETURNS bigint LANGUAGE plpgsql AS $$
	DECLARE
		rel regclass;
		n bigint = 0;
	BEGIN
		FOR rel IN SELECT c.oid FROM pg_class c
					WHERE c.relname LIKE 'pgbench%' AND c.relkind = 'r' LOOP
			n := n + (SELECT count(*) FROM verify_heapam(rel));
		END LOOP;
		FOR rel IN SELECT c.oid FROM pg_class c JOIN pg_am a ON a.oid = c.relam
					WHERE c.relname LIKE 'pgbench%' AND c.relkind = 'i'
					  AND a.amname = 'btree' LOOP
			PERFORM bt_index_parent_check(rel, true, true);
		END LOOP;
		RETURN n;
	END $$;
});

# the old data set, told apart from any new one by its balances
sub old_tables
{
	$node->safe_psql('postgres', q{
		SELECT polarbench_init('pgbench', scale => 1, partitions => 2);
		UPDATE pgbench_branches SET bbalance = 42;
		UPDATE pgbench_accounts SET abalance = 7 WHERE aid % 1000 = 0;
		CHECKPOINT;
	});
}

# what the tables hold now
sub state
{
	return $node->safe_psql('postgres', q{
		SELECT (SELECT count(*) FROM pgbench_accounts) || ' ' ||
			   (SELECT sum(abalance) FROM pgbench_accounts) || ' ' ||
			   (SELECT sum(bbalance) FROM pgbench_branches) || ' ' ||
			   (SELECT count(*) FROM pg_inherits
				 WHERE inhparent = 'pgbench_accounts'::regclass)});
}

# relations that are not those of the data set: a load's staging, or a
# partition of pgbench_accounts that is not attached to it
sub strays
{
	return $node->safe_psql('postgres', q{
		SELECT coalesce(string_agg(relname, ' ' ORDER BY relname), 'none') FROM pg_class
		 WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p', 'i', 'S')
		   AND (relname LIKE 'pbload%'
				OR (relname ~ '^pgbench_accounts_\d+$' AND NOT relispartition))});
}

# The README's query of the staging tables that loads no longer running
# left, in every schema.
my $left_staging = q{
SELECT c.oid::regclass AS staging_table, c.relowner::regrole AS owner
  FROM pg_class c, CAST(substring(c.relname from '^pbload_(\d+)_') AS bigint) AS x
 WHERE x IS NOT NULL AND c.relkind IN ('r', 'p') AND NOT c.relispartition
   AND NOT EXISTS (SELECT FROM pg_locks l
                    WHERE l.locktype = 'transactionid'
                      AND l.transactionid::text::bigint = x % 4294967296)};
my $all_staging = q{
SELECT coalesce(string_agg(relname || ' postgres', E'\n' ORDER BY relname), '') FROM pg_class
 WHERE relname LIKE 'pbload%' AND relkind IN ('r', 'p') AND NOT relispartition};

# start a load in the background; wait until the given query is true, and
# fail at once with what the load said if it ends before
sub start_and_wait
{
	my ($sql, $until) = @_;
	my ($in, $out, $err) = ('', '', '');
	my $h = IPC::Run::start(
		[ 'psql', '-X', '-d', $node->connstr('postgres'), '-c', $sql ],
		'<', \$in, '>', \$out, '2>', \$err);
	for (my $waited = 0;; $waited++)
	{
		last if $node->safe_psql('postgres', $until) eq 't';
		$h->pump_nb;
		die "the load ended before: $until\n$out$err" unless $h->pumpable;
		die "never: $until"
		  if $waited > 10 * $PostgreSQL::Test::Utils::timeout_default;
		usleep(100_000);
	}
	return $h;
}

sub crash_and_restart
{
	my ($h) = @_;
	$node->stop('immediate');
	$h->finish;
	$node->start;
}

# 1. a serial partitioned load, in a transaction block, that has written
# all its rows: everything it did is in its open transaction
old_tables();
my $before = state();
my $open = $node->background_psql('postgres');
$open->query_safe(q{BEGIN; SELECT polarbench_init('pgbench', scale => 20, partitions => 4)});
is($open->query_safe('SELECT count(*) FROM pgbench_accounts'), '2000000',
	'the serial load has written its rows');
$node->stop('immediate');
eval { $open->quit };
$node->start;
is(state(), $before, 'serial load cut by a crash: the old tables are as they were');
is($node->safe_psql('postgres', 'SELECT problems()'), '0', 'and sound');
is(strays(), 'none', 'no relation of the load is left');

# 2. a parallel partitioned load, while its workers fill their tables.
# Another session's open transaction has created tables by the staging
# name of partition 2 for the transaction ids the load may get: the worker
# that takes partition 2 waits at its CREATE TABLE for that transaction
# (pg_class's unique index), the other fills the other partitions.
my $holder = $node->background_psql('postgres');
my $xid = $holder->query_safe('BEGIN; SELECT pg_current_xact_id()');
$holder->query_safe(join '', map { "CREATE TABLE pbload_${_}_pgbench_accounts_2 ();" }
	($xid + 1 .. $xid + 20));
my $h = start_and_wait(
	q{SELECT polarbench_init('pgbench', scale => 20, partitions => 4, parallel => 2)},
	q{SELECT count(*) = 2 AND count(*) FILTER (WHERE wait_event = 'transactionid') = 1
			 AND NOT EXISTS (SELECT FROM pg_stat_progress_copy p WHERE p.pid IN
							 (SELECT pid FROM pg_stat_activity WHERE backend_type = 'polarbench loader'))
	  FROM pg_stat_activity WHERE backend_type = 'polarbench loader'});
$node->stop('immediate');
$h->finish;
eval { $holder->quit };
$node->start;
is(state(), $before, 'parallel load cut while loading: the old tables are as they were');
is($node->safe_psql('postgres', 'SELECT problems()'), '0', 'and sound');
is(strays(), 'none', 'nothing of the load is left');

# 3. a parallel partitioned load whose workers have committed, cut before
# the caller's transaction replaces the tables: another session's lock on
# an old table holds the caller there
my $reader = $node->background_psql('postgres');
$reader->query_safe('BEGIN; SELECT count(*) FROM pgbench_branches');
$h = start_and_wait(
	q{SELECT polarbench_init('pgbench', scale => 2, partitions => 4, parallel => 2)},
	q{SELECT count(*) = 1 FROM pg_stat_activity
	   WHERE backend_type = 'client backend' AND query LIKE 'SELECT polarbench_init%'
		 AND wait_event_type = 'Lock'});
like($node->safe_psql('postgres', q{SELECT count(*) FROM pg_class WHERE relname LIKE 'pbload%' AND relkind = 'r'}),
	qr/^[1-9]/, 'the workers have committed their tables');
is($node->safe_psql('postgres', "SELECT count(*) FROM ($left_staging) s"), '0',
	'the README\'s query lists none of a load in progress');
eval { $reader->quit };
crash_and_restart($h);
is(state(), $before, 'parallel load cut after its workers committed: the old tables are as they were');
is($node->safe_psql('postgres', 'SELECT problems()'), '0', 'and sound');
like(strays(), qr/pbload_\d+_pgbench_accounts_1/, 'the committed staging tables are left');
is($node->safe_psql('postgres', "SELECT string_agg(staging_table || ' ' || owner, E'\n' ORDER BY staging_table::text) FROM ($left_staging) s"),
	$node->safe_psql('postgres', $all_staging),
	'the README\'s query lists every one of them, after the crash');

# the next load drops them and completes
is($node->safe_psql('postgres',
	q{SELECT rows FROM polarbench_init('pgbench', scale => 2, partitions => 4, parallel => 2)}),
	'200022', 'the next load works');
is(strays(), 'none', 'and dropped what the interrupted one left');
is(state(), '200000 0 0 4', 'its tables are complete');
is($node->safe_psql('postgres', 'SELECT problems()'), '0', 'and sound');

# 4. a run
my $bg = $node->background_psql('postgres', on_error_stop => 0);
$bg->query_until(qr/started/, q{\echo started
SELECT * FROM polarbench_run('tpcb-like', clients => 2, duration => 600);
});
$node->poll_query_until('postgres', q{
	SELECT count(*) = 1 FROM polarbench_runs WHERE status = 'running'})
  or die 'the run did not start';
$node->stop('immediate');
eval { $bg->quit };
$node->start;
is($node->safe_psql('postgres', q{SELECT count(*) FROM polarbench_runs WHERE status = 'running'}),
	'0', 'after the crash no run shows as running');
is($node->safe_psql('postgres', q{SELECT status FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	'failed', 'the run cut short shows as failed');
is($node->safe_psql('postgres', 'SELECT problems()'), '0', 'the tables it wrote are sound');
is($node->safe_psql('postgres',
	q{SELECT transactions FROM polarbench_run('tpcb-like', clients => 2, transactions => 50)}),
	'100', 'the next run works');

$node->stop;
done_testing();
