# pgbench scripts through a Citus coordinator, on distributed tables: no
# statement crashes a node, and a transaction is one transaction on every
# node.  The issue's two reproductions as it gives them (a script without
# variables whose empty parameter list crashed the client; a BEGIN ... END
# script whose failed transaction left its first row committed on a
# worker), scripts with and without variables, compound commands, and
# every built-in on pgbench's tables distributed as Citus's benchmarks lay
# them out, each checked by what the tables hold after it: pgbench's
# invariant (the balances of accounts, tellers and branches each add up to
# the deltas of history) and the history rows that the successful
# transactions wrote, no more.  Failures are injected on the workers, into
# the last write of a transaction, after writes to other shards on other
# nodes: retried under max_tries and counted as failed, or failing the
# run; either way nothing of a failed transaction stays on any node.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use PolarbenchCitus;

PolarbenchCitus::skip_unless_installed();

my $cluster = PolarbenchCitus->new('citus_scripts');
my $c = $cluster->coordinator;

# the rows of a distributed table, counted on the workers that hold them
sub rows_on_workers
{
	my ($table) = @_;
	my $sum = 0;

	$sum += $_ foreach split /\n/,
	  $cluster->on_placements($table, 'SELECT count(*) FROM %s');
	return $sum;
}

# the last run's figures, as a hash
sub last_run
{
	my %run;

	@run{qw(run_id status transactions failed retried)} = split /\|/,
	  $c->safe_psql('postgres', q{
		SELECT run_id, status, transactions, failed, retried FROM polarbench_runs
		 ORDER BY run_id DESC LIMIT 1});
	return \%run;
}

$c->safe_psql('postgres', q{
	CREATE TABLE t (k int, v int);
	SELECT create_distributed_table('t', 'k');
});

# ---- the issue's reproductions ----------------------------------------

# a script without variables: its parameter list is empty, which Citus's
# executor copied into NULL and read
my ($ret, $out, $err) = $c->psql('postgres',
	q{SELECT * FROM polarbench_run(script => 'INSERT INTO t VALUES (1, 1);', transactions => 1)});
is($ret, 0, 'a script without variables runs on a distributed table')
  or diag($err);
is($cluster->crashes, '', '... and crashes no node');
my $run = last_run();
is("$run->{status} $run->{transactions} $run->{failed}", 'finished 1 0',
	'... its one transaction recorded');
is($c->safe_psql('postgres', 'SELECT count(*) FROM t'), '1', '... its row inserted');

# a query without variables whose row \gset keeps: executed another way
$c->safe_psql('postgres', q{SELECT * FROM polarbench_run(script => $s$
SELECT count(*) AS n FROM t \gset
INSERT INTO t VALUES (:n + 1, 1);
$s$, transactions => 5)});
is($c->safe_psql('postgres', 'SELECT count(*) || $$ $$ || max(k) FROM t'), '6 6',
	'a \gset of a query without variables reads the distributed table');
is($cluster->crashes, '', '... and crashes no node');

# a failed BEGIN ... END: its first row, on one worker, goes with it
$c->safe_psql('postgres', 'TRUNCATE t');
($ret, $out, $err) = $c->psql('postgres', q{SELECT * FROM polarbench_run(script => $s$\set k 1
BEGIN;
INSERT INTO t VALUES (:k, 1);
INSERT INTO t VALUES (:k + 1, 1/(:k - 1));
END;
$s$, transactions => 1)});
isnt($ret, 0, 'a BEGIN ... END script failing at its second INSERT fails');
like($err, qr/division by zero/, '... with its error');
is($c->safe_psql('postgres', 'SELECT count(*) FROM t'), '0',
	'... and its first row is not committed');
is(rows_on_workers('t'), 0, '... on any worker');

# ---- scripts with and without variables -------------------------------

# two rows of each transaction, on shards of their own: k and k + 1000
# with values 1 and -1, so that a transaction is whole when v sums to 0
my $pair = q{\set k random(1, 1000)
BEGIN;
INSERT INTO t VALUES (:k, 1);
INSERT INTO t VALUES (:k + 1000, -1);
END;
};
my $compound = q{\set k random(1, 1000)
INSERT INTO t VALUES (:k, 1)\; INSERT INTO t VALUES (:k + 1000, -1);
};

# what t holds: rows, sum(v), and the rows of transactions the failures
# below are injected into (k % 4 = 0)
sub t_state
{
	return $c->safe_psql('postgres', q{
		SELECT count(*) || ' ' || coalesce(sum(v), 0) || ' '
			   || count(*) FILTER (WHERE k % 4 = 0 AND v = 1) FROM t});
}

foreach my $s ([ 'BEGIN ... END', $pair ], [ 'a compound command', $compound ])
{
	my ($what, $script) = @$s;

	$c->safe_psql('postgres', 'TRUNCATE t');
	$c->safe_psql('postgres',
		qq{SELECT * FROM polarbench_run(script => \$s\$$script\$s\$, clients => 2,
			transactions => 20, random_seed => 1)});
	$run = last_run();
	my $rows = 2 * $run->{transactions};
	like(t_state(), qr/^$rows 0 /,
		"$what: both rows of each of its $run->{transactions} transactions");
	is($run->{transactions}, 40, "$what: every transaction succeeded");

	# the second row of transactions with k % 4 = 0 fails on its worker,
	# as a serialization failure: tried again, then counted as failed
	$cluster->inject_failures('t', '40001', '($1).v = -1 AND ($1).k % 4 = 0');
	$c->safe_psql('postgres', 'TRUNCATE t');
	$c->safe_psql('postgres',
		qq{SELECT * FROM polarbench_run(script => \$s\$$script\$s\$, clients => 2,
			transactions => 20, max_tries => 2, random_seed => 1)});
	$run = last_run();
	$rows = 2 * $run->{transactions};
	is($run->{status}, 'finished', "$what with failures injected: the run goes on");
	cmp_ok($run->{failed}, '>', 0, "$what: some of its transactions failed");
	cmp_ok($run->{retried}, '>', 0, "$what: and were tried again");
	is(t_state(), "$rows 0 0",
		"$what: the rows of the successful transactions only, none of a failed one");
	is(rows_on_workers('t'), $rows, "$what: on the workers too");

	# an error no retry covers fails the run: nothing of it is left
	$cluster->inject_failures('t', 'P0001', '($1).v = -1');
	$c->safe_psql('postgres', 'TRUNCATE t');
	($ret, $out, $err) = $c->psql('postgres',
		qq{SELECT * FROM polarbench_run(script => \$s\$$script\$s\$, clients => 2,
			transactions => 20)});
	like($err, qr/failure injected into t_/, "$what: a failure on a worker fails the run");
	is(t_state(), '0 0 0', "$what: and leaves no row of it");
	is(rows_on_workers('t'), 0, "$what: on any worker");
	$cluster->clear_failures('t');
}

# a script's own ROLLBACK takes back its writes on every node
$c->safe_psql('postgres', 'TRUNCATE t');
$c->safe_psql('postgres', q{SELECT * FROM polarbench_run(script => $s$\set k random(1, 1000)
BEGIN;
INSERT INTO t VALUES (:k, 1);
INSERT INTO t VALUES (:k + 1000, -1);
ROLLBACK;
$s$, clients => 2, transactions => 10)});
$run = last_run();
is("$run->{status} $run->{transactions}", 'finished 20',
	'BEGIN ... ROLLBACK: every transaction');
is(t_state(), '0 0 0', 'BEGIN ... ROLLBACK: no row of it');
is(rows_on_workers('t'), 0, 'BEGIN ... ROLLBACK: on any worker');

# ---- a deadlock across nodes ------------------------------------------

# a row on each worker; each client updates one, then, once both have (an
# advisory lock the test holds keeps them there), the other's: a deadlock
# no worker sees, which Citus's detection breaks by canceling one client's
# statement.  The client receives a deadlock, and tries its transaction
# again, as any client would.
my ($w1, $w2) = map { $_->port } $cluster->workers;
my ($k1, $k2) = split /\|/, $c->safe_psql('postgres', qq{
	SELECT min(k) FILTER (WHERE s.nodeport = $w1), min(k) FILTER (WHERE s.nodeport = $w2)
	  FROM generate_series(1, 100) k
	  JOIN citus_shards s ON s.shardid = get_shard_id_for_distribution_column('t', k)
	 WHERE s.table_name = 't'::regclass});
$c->safe_psql('postgres', "TRUNCATE t; INSERT INTO t VALUES ($k1, 0), ($k2, 0)");
my $holder = $c->background_psql('postgres');
$holder->query_safe('SELECT pg_advisory_lock(4242)');
my $runner = $c->background_psql('postgres', on_error_stop => 0);
$runner->query_until(qr/started/, qq{\\echo started
SELECT * FROM polarbench_run(script => \$s\$\\set first :k1 + :client_id * (:k2 - :k1)
\\set second :k2 - :client_id * (:k2 - :k1)
BEGIN;
UPDATE t SET v = v + 1 WHERE k = :first;
SELECT pg_advisory_xact_lock_shared(4242);
UPDATE t SET v = v + 1 WHERE k = :second;
END;
\$s\$, clients => 2, transactions => 1, max_tries => 2,
	vars => '{"k1": $k1, "k2": $k2}');
});
$c->poll_query_until('postgres', q{
	SELECT count(*) = 2 FROM pg_locks WHERE locktype = 'advisory' AND objid = 4242
	   AND NOT granted})
  or die 'the clients did not reach the advisory lock';
$holder->query_safe('SELECT pg_advisory_unlock(4242)');
$runner->query('SELECT 1');
$runner->quit;
$holder->quit;
$run = last_run();
is("$run->{status} $run->{transactions} $run->{failed} $run->{retried}", 'finished 2 0 1',
	'a deadlock across nodes: one transaction tried again, both done');
like(slurp_file($c->logfile), qr/canceling the transaction since it was involved in a distributed deadlock/,
	'a deadlock across nodes: Citus broke it');
is($c->safe_psql('postgres', 'SELECT string_agg(v::text, $$ $$) FROM t'), '2 2',
	'a deadlock across nodes: each row updated by each transaction once');

# ---- pgbench's built-ins ----------------------------------------------

# pgbench's tables distributed as Citus's benchmarks (citus-benchmark)
# distribute them
$c->safe_psql('postgres', q{
	SELECT * FROM polarbench_init('pgbench', scale => 1);
	SELECT create_distributed_table('pgbench_accounts', 'aid');
	SELECT create_distributed_table('pgbench_branches', 'bid');
	SELECT create_distributed_table('pgbench_history', 'tid');
	SELECT create_distributed_table('pgbench_tellers', 'tid');
});

# the sums of the balances and of history's deltas, and history's rows
sub pgbench_sums
{
	return $c->safe_psql('postgres', q{
		SELECT (SELECT sum(abalance) FROM pgbench_accounts) || ' '
			   || (SELECT sum(tbalance) FROM pgbench_tellers) || ' '
			   || (SELECT sum(bbalance) FROM pgbench_branches) || ' '
			   || (SELECT coalesce(sum(delta), 0) FROM pgbench_history)});
}
sub history { return $c->safe_psql('postgres', 'SELECT count(*) FROM pgbench_history'); }

# one run of a built-in; returns its figures and history's new rows
sub builtin
{
	my ($workload, $extra) = @_;
	my $before = history();

	$c->safe_psql('postgres',
		qq{SELECT * FROM polarbench_run('$workload', clients => 2, transactions => 30,
			random_seed => 2 $extra)});
	return (last_run(), history() - $before);
}

foreach my $w ('select-only', 'polardb-ro')
{
	my ($r, $new) = builtin($w, '');
	is("$r->{status} $r->{transactions} $new", 'finished 60 0',
		"$w: every transaction through the coordinator");
}
foreach my $w ('tpcb-like', 'polardb-rw')
{
	my ($r, $new) = builtin($w, '');
	is("$r->{status} $r->{transactions} $new", 'finished 60 60',
		"$w: every transaction, a history row each");
	my @s = split / /, pgbench_sums();
	ok($s[0] == $s[3] && $s[1] == $s[3] && $s[2] == $s[3],
		"$w: pgbench's invariant holds (@s)");
}

# the history row, last, fails for some accounts: the account's, teller's
# and branch's updates before it, on other shards and nodes, go with it
$cluster->inject_failures('pgbench_history', '40001', '($1).aid % 5 = 0');
foreach my $w ('tpcb-like', 'polardb-rw')
{
	my ($r, $new) = builtin($w, ', max_tries => 2');
	is($r->{status}, 'finished', "$w with failures injected: the run goes on");
	cmp_ok($r->{failed}, '>', 0, "$w: some of its transactions failed");
	is($new, $r->{transactions},
		"$w: a history row for each successful transaction, none for a failed one");
	my @s = split / /, pgbench_sums();
	ok($s[0] == $s[3] && $s[1] == $s[3] && $s[2] == $s[3],
		"$w: pgbench's invariant holds (@s)");
}

# an error no retry covers fails the run, and leaves nothing of it
$cluster->inject_failures('pgbench_history', 'P0001', '($1).aid % 5 = 0');
my $failing = q{SELECT count(*) FROM pgbench_history WHERE aid % 5 = 0};
my $before = $c->safe_psql('postgres', $failing);
($ret, $out, $err) = $c->psql('postgres',
	q{SELECT * FROM polarbench_run('tpcb-like', clients => 2, transactions => 30,
		random_seed => 2)});
like($err, qr/failure injected into pgbench_history_/,
	'tpcb-like: a failure on a worker fails the run');
my @s = split / /, pgbench_sums();
ok($s[0] == $s[3] && $s[1] == $s[3] && $s[2] == $s[3],
	"tpcb-like: pgbench's invariant holds after the failed run (@s)");
is($c->safe_psql('postgres', $failing), $before,
	'tpcb-like: the failed run left no history row of a failing account');
$cluster->clear_failures('pgbench_history');

# simple-update moves accounts and history only
my @t = split / /, pgbench_sums();
my ($r, $new) = builtin('simple-update', '');
is("$r->{status} $r->{transactions} $new", 'finished 60 60',
	'simple-update: every transaction, a history row each');
@s = split / /, pgbench_sums();
ok($s[0] == $s[3] && $s[1] == $t[1] && $s[2] == $t[2],
	"simple-update: accounts add up to history, tellers and branches untouched (@s)");
$cluster->inject_failures('pgbench_history', '40001', '($1).aid % 5 = 0');
($r, $new) = builtin('simple-update', ', max_tries => 2');
cmp_ok($r->{failed}, '>', 0, 'simple-update with failures injected: some failed');
is($new, $r->{transactions},
	'simple-update: a history row for each successful transaction only');
@s = split / /, pgbench_sums();
ok($s[0] == $s[3], "simple-update: accounts add up to history (@s)");
$cluster->clear_failures('pgbench_history');

is($cluster->crashes, '', 'no process of any node was terminated by a signal');

$_->stop foreach $cluster->nodes;
done_testing();
