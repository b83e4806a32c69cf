# polarbench_start(..., nodes => 'all') and polarbench_sweep(..., nodes =>
# 'all') on a Citus coordinator: a background run across the cluster, its
# sum waited for and canceled as any background run; a sweep whose steps
# are runs across the cluster; every refusal before anything starts; and
# a low role's planted operators and functions never running in what the
# runs across the cluster run.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use PolarbenchCitus;

PolarbenchCitus::skip_unless_installed();

my $cluster = PolarbenchCitus->new('citus_background');
my $c = $cluster->coordinator;
my @nodes = $cluster->nodes;
my ($w1, $w2) = $cluster->workers;

sub value { return $c->safe_psql('postgres', $_[0]); }

sub no_worker_left { return $cluster->no_worker_left(@_); }

# the figures of each node's part, as figures->'nodes' keeps them
sub node_statuses
{
	my ($run) = @_;
	return value(qq{
		SELECT string_agg(n ->> 'status', ' ' ORDER BY o)
		  FROM polarbench_runs r, jsonb_array_elements(r.figures -> 'nodes') WITH ORDINALITY e(n, o)
		 WHERE r.run_id = $run});
}

# the clients' waits for a lock held by the test are not timed out
$_->safe_psql('postgres', 'ALTER ROLE postgres SET polarbench.lock_timeout = 0') foreach @nodes;

value(q{SELECT * FROM polarbench_init('pgbench', scale => 1, distributed => true,
									  shard_count => 4)});

# ---- a background run on every node, waited for ----------------------------

my $run = value(q{SELECT polarbench_start('tpcb-like', clients => 2, transactions => 10,
										  nodes => 'all')});
like($run, qr/^\d+$/, 'polarbench_start with nodes => all returns a run id');
is(value(qq{SELECT node || ' ' || clients || ' ' || (status IN ('running', 'finished'))
			  FROM polarbench_runs WHERE run_id = $run}),
	'all 6 true', 'the id is the summed run\'s, recorded once the nodes released their clients');
is(value(qq{SELECT transactions FROM polarbench_wait($run)}), 3 * 2 * 10,
	'polarbench_wait returns the summed run: every client of every node');
is(value(qq{SELECT status || ' ' || transactions FROM polarbench_runs WHERE run_id = $run}),
	'finished ' . value('SELECT count(*) FROM pgbench_history'),
	'the summed run finished, its transactions the history rows of the whole cluster');
is(value(qq{
	SELECT sum((n ->> 'transactions')::bigint) = r.transactions AND count(*) = 3
	   AND bool_and(n ->> 'status' = 'finished')
	  FROM polarbench_runs r, jsonb_array_elements(r.figures -> 'nodes') n
	 WHERE r.run_id = $run GROUP BY r.transactions}),
	't', 'figures->nodes: three nodes\' parts, finished, adding up to the run');
is(value(qq{SELECT sum(transactions) FROM polarbench_histograms WHERE run_id = $run}),
	3 * 2 * 10, 'the merged histogram is recorded with the run');
is(value(q{SELECT count(*) FROM polarbench_runs WHERE node = 'all'}), '1',
	'the end is recorded in the row of the start, not in another');
foreach my $i (0 .. 2)
{
	my $part = value(qq{SELECT figures -> 'nodes' -> $i ->> 'run_id' FROM polarbench_runs WHERE run_id = $run});
	is($nodes[$i]->safe_psql('postgres', qq{SELECT status FROM polarbench_runs WHERE run_id = $part}),
		'finished', 'each node keeps its part: ' . $nodes[$i]->name);
}
no_worker_left('after the background run');

# ---- polarbench_cancel of a background run across the cluster -------------

# every node's clients block on an advisory lock this test holds there
my @holders = map {
	my $h = $_->background_psql('postgres', on_error_stop => 0);
	$h->query_safe('SELECT pg_advisory_lock(4243)');
	$h
} @nodes;
my $blocked = q{SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)
				 WHERE l.locktype = 'advisory' AND NOT l.granted AND a.backend_type = 'polarbench client'};
my $held = value(q{SELECT polarbench_start(script => 'SELECT pg_catalog.pg_advisory_xact_lock(4243);',
										   clients => 1, transactions => 1, nodes => 'all')});
ok($_->poll_query_until('postgres', "SELECT ($blocked) = 1"), 'the clients wait on ' . $_->name)
  foreach @nodes;
is(value(qq{SELECT status || ' ' || node FROM polarbench_runs WHERE run_id = $held}),
	'running all', 'while the clients wait, the summed run shows running, node all');
is(value(qq{SELECT count(*) FROM polarbench_runs r, jsonb_array_elements(r.figures -> 'nodes') n
			 WHERE r.run_id = $held AND (n ->> 'run_id') IS NOT NULL}),
	'3', 'while it runs, figures->nodes names each node\'s part');
is(value(qq{SELECT polarbench_cancel($held)}), 't', 'polarbench_cancel stops the summed run');
ok($c->poll_query_until('postgres', qq{SELECT status <> 'running' FROM polarbench_runs WHERE run_id = $held}),
	'the canceled run ends');
is(value(qq{SELECT status || ' ' || error_sqlstate FROM polarbench_runs WHERE run_id = $held}),
	'canceled 57014', 'the summed run is recorded canceled');
is(node_statuses($held), 'canceled canceled canceled', 'every node\'s part was canceled');
foreach my $i (0 .. 2)
{
	my $part = value(qq{SELECT figures -> 'nodes' -> $i ->> 'run_id' FROM polarbench_runs WHERE run_id = $held});
	is($nodes[$i]->safe_psql('postgres', qq{SELECT status FROM polarbench_runs WHERE run_id = $part}),
		'canceled', 'the part is recorded canceled there: ' . $nodes[$i]->name);
}
{
	my ($ret, $stdout, $stderr) = $c->psql('postgres', "SELECT * FROM polarbench_wait($held)");
	like($stderr, qr/ERROR:  run $held was canceled/, 'polarbench_wait says the run was canceled');
}
no_worker_left('after polarbench_cancel');

# the conductor terminated while every node's clients wait: it stops every
# node's part on its way out, and the sum it recorded running shows failed
my $orphan = value(q{SELECT polarbench_start(script => 'SELECT pg_catalog.pg_advisory_xact_lock(4243);',
											 clients => 1, transactions => 1, nodes => 'all')});
ok($_->poll_query_until('postgres', "SELECT ($blocked) = 1"), 'the clients wait again on ' . $_->name)
  foreach @nodes;
is(value(q{SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE backend_type = 'polarbench conductor'}), '1', 'the conductor is terminated');
no_worker_left('after the conductor was terminated');
is(value(qq{SELECT status FROM polarbench_runs WHERE run_id = $orphan}), 'failed',
	'the summed run of a terminated conductor shows failed');
foreach my $i (0 .. 2)
{
	my $part = value(qq{SELECT figures -> 'nodes' -> $i ->> 'run_id' FROM polarbench_runs WHERE run_id = $orphan});
	is($nodes[$i]->safe_psql('postgres', qq{SELECT status FROM polarbench_runs WHERE run_id = $part}),
		'canceled', 'its part ended, canceled, on ' . $nodes[$i]->name);
}
$_->quit foreach @holders;

# ---- a sweep whose steps run across the cluster -----------------------------

my $sweep = value(q{
	SELECT string_agg(run_id || ':' || run_clients || ':' || run_transactions, ' ' ORDER BY run_id)
	  FROM polarbench_sweep('tpcb-like', clients => ARRAY[1, 2], transactions => 5, nodes => 'all')});
my @steps = map { [ split /:/ ] } split / /, $sweep;
is(scalar(@steps), 2, 'a sweep over clients 1 and 2 gives two runs');
is(join(' ', map { $_->[2] } @steps), (3 * 1 * 5) . ' ' . (3 * 2 * 5),
	'each step ran its clients on every node');
is(value(qq{
	SELECT string_agg(node || ' ' || clients || ' ' || sweep_id || ' ' || sweep_run || ' '
					  || jsonb_array_length(figures -> 'nodes'), ', ' ORDER BY run_id)
	  FROM polarbench_runs WHERE run_id IN ($steps[0][0], $steps[1][0])}),
	"all 3 $steps[0][0] 1 3, all 6 $steps[0][0] 2 3",
	'each step is one summed run of the sweep, with three nodes');
no_worker_left('after the sweep');

# a step whose part fails on the second worker ends the sweep there: its
# sum is recorded failed in the caller's transaction, so no error
my $w2_port = $w2->port;
{
	my ($ret, $stdout, $stderr) = $c->psql('postgres', qq{
		SELECT run_id FROM polarbench_sweep(NULL, ARRAY[1, 2], transactions => 1, nodes => 'all',
			script => 'SELECT 1 / (CASE WHEN pg_catalog.current_setting(''port'') = ''$w2_port'' THEN 0 ELSE 1 END);')});
	is($ret, 0, 'a sweep whose step fails on a worker ends without an error');
	like($stderr, qr/WARNING:  run \d+ failed on node 127\.0\.0\.1:$w2_port: .*division by zero/,
		'... warned that the step failed, naming the node');
	like($stderr, qr/WARNING:  sweep \d+ ends at its run $stdout, which did not finish/,
		'... and that the sweep ends there');
	like($stdout, qr/^\d+$/, '... its failed step the sweep\'s only row');
	is(value(qq{SELECT status || ' ' || node || ' ' || sweep_run || ' ' || (sweep_id = run_id)
				  FROM polarbench_runs WHERE run_id = $stdout}),
		'failed all 1 true', '... recorded failed as the sweep\'s first run');
	no_worker_left('after the failed sweep');
}

# ---- refusals: nothing starts on any node -----------------------------------

my $before = $cluster->run_counts;

# refused: what each case gives, and the error it must say
sub refused
{
	my ($node, $db, $sql, $error, $name) = @_;
	return $cluster->refused($node, $db, $sql, $error, $before, $name);
}

refused($c, 'postgres', q{SELECT polarbench_start('tpcb-like', transactions => 1, nodes => 'some')},
	qr/ERROR:  invalid value for nodes: "some"/, 'start with nodes => some');
refused($c, 'postgres', q{SELECT * FROM polarbench_sweep('tpcb-like', ARRAY[1], transactions => 1, nodes => 'some')},
	qr/ERROR:  invalid value for nodes: "some"/, 'sweep with nodes => some');
refused($w1, 'postgres', q{SELECT polarbench_start('tpcb-like', transactions => 1, nodes => 'all')},
	qr/ERROR:  nodes => 'all' runs on the Citus coordinator only/, 'start on a worker');
refused($w1, 'postgres', q{SELECT * FROM polarbench_sweep('tpcb-like', ARRAY[1], transactions => 1, nodes => 'all')},
	qr/ERROR:  nodes => 'all' runs on the Citus coordinator only/, 'sweep on a worker');
$c->safe_psql('postgres', 'CREATE DATABASE plain');
$c->safe_psql('plain', 'CREATE EXTENSION polarbench');
refused($c, 'plain', q{SELECT polarbench_start(script => 'SELECT 1;', transactions => 1, nodes => 'all')},
	qr/ERROR:  nodes => 'all' needs a Citus coordinator/, 'start without Citus');

# a table the workers do not have: their check refuses every step
$c->safe_psql('postgres', 'CREATE TABLE only_here (k int)');
refused($c, 'postgres', q{SELECT polarbench_start(script => 'SELECT k FROM only_here;', transactions => 1,
												  nodes => 'all')},
	qr/ERROR:  node 127\.0\.0\.1:\d+ refused the run: relation "only_here" does not exist/,
	'start of a script a worker cannot run');
refused($c, 'postgres', q{SELECT * FROM polarbench_sweep(NULL, ARRAY[1, 2], transactions => 1,
														 script => 'SELECT k FROM only_here;', nodes => 'all')},
	qr/ERROR:  node 127\.0\.0\.1:\d+ refused the run: relation "only_here" does not exist/,
	'sweep of a script a worker cannot run');

# a worker with another version of polarbench
$w2->safe_psql('postgres', q{UPDATE pg_extension SET extversion = '1.4' WHERE extname = 'polarbench'});
refused($c, 'postgres', q{SELECT polarbench_start('tpcb-like', transactions => 1, nodes => 'all')},
	qr/ERROR:  node 127\.0\.0\.1:${\ $w2->port} has polarbench 1\.4, not 1\.5 as this coordinator/,
	'start with a worker of another version');
refused($c, 'postgres', q{SELECT * FROM polarbench_sweep('tpcb-like', ARRAY[1], transactions => 1, nodes => 'all')},
	qr/ERROR:  node 127\.0\.0\.1:${\ $w2->port} has polarbench 1\.4, not 1\.5 as this coordinator/,
	'sweep with a worker of another version');
$w2->safe_psql('postgres', q{UPDATE pg_extension SET extversion = '1.5' WHERE extname = 'polarbench'});

# ---- a low role's planted objects never run ---------------------------------

# On every node: a role that owns nothing but its schema, first on its own
# search_path, where it plants operators, aggregates and functions of the
# exact types of those polarbench's SQL calls (the nodes' commands, the
# merge of the nodes' documents and histograms, the record), and better
# matches than pg_catalog's polymorphic ones (unnest, jsonb_agg); each one
# counts in a sequence, which no rollback undoes, and raises.  The role's
# sessions on the nodes (polarbench's connections to them, and Citus's
# between them) have its own path, low, public: pg_catalog is searched
# first there, as Citus's shard queries need (it deparses pg_catalog's
# functions and operators unqualified, polarbench's pg_catalog.count(*)
# as count(*)).  The calling session puts its schema before pg_catalog.
my $plant = q{
CREATE SEQUENCE low.ran;
GRANT ALL ON SEQUENCE low.ran TO PUBLIC;
CREATE FUNCTION low.ran() RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog AS $r$
BEGIN
	PERFORM pg_catalog.nextval('low.ran');
	RAISE EXCEPTION 'a planted object ran';
END $r$;
CREATE FUNCTION low.plant(what text, result text) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog AS $p$
BEGIN
	EXECUTE pg_catalog.format('CREATE FUNCTION low.%s RETURNS %s LANGUAGE plpgsql AS $b$ BEGIN PERFORM low.ran(); RETURN%s; END $b$',
							  what, result, CASE WHEN result LIKE 'SETOF %' THEN '' ELSE ' NULL' END);
END $p$;
CREATE FUNCTION low.plant_op(op text, l text, r text, result text) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog AS $p$
DECLARE
	fn text := 'op_' || pg_catalog.md5(op || l || r);
BEGIN
	PERFORM low.plant(pg_catalog.format('%I(%s, %s)', fn, l, r), result);
	EXECUTE pg_catalog.format('CREATE OPERATOR low.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = low.%I)',
							  op, l, r, fn);
END $p$;
DO $d$
DECLARE
	t text;
	o text;
	m text[];
BEGIN
	FOREACH t IN ARRAY ARRAY['int4', 'int8', 'float8', 'numeric'] LOOP
		FOREACH o IN ARRAY ARRAY['=', '<>', '<', '<=', '>', '>=', '+', '-', '*', '/', '^'] LOOP
			PERFORM low.plant_op(o, t, t, CASE WHEN o IN ('+', '-', '*', '/', '^') THEN t ELSE 'bool' END);
		END LOOP;
	END LOOP;
	FOREACH m SLICE 1 IN ARRAY ARRAY[
		['=', 'text', 'text', 'bool'], ['<>', 'text', 'text', 'bool'], ['||', 'text', 'text', 'text'],
		['->', 'jsonb', 'text', 'jsonb'], ['->>', 'jsonb', 'text', 'text'],
		['->', 'jsonb', 'int4', 'jsonb'], ['->>', 'jsonb', 'int4', 'text'],
		['||', 'jsonb', 'jsonb', 'jsonb'], ['-', 'jsonb', 'text', 'jsonb'],
		['-', 'jsonb', 'text[]', 'jsonb'], ['=', 'oid', 'oid', 'bool'],
		['=', 'name', 'name', 'bool'], ['<', 'timestamptz', 'timestamptz', 'bool']] LOOP
		PERFORM low.plant_op(m[1], m[2], m[3], m[4]);
	END LOOP;
	FOREACH m SLICE 1 IN ARRAY ARRAY[
		['now()', 'timestamptz'], ['clock_timestamp()', 'timestamptz'],
		['statement_timestamp()', 'timestamptz'], ['sqrt(float8)', 'float8'],
		['split_part(text, text, int4)', 'text'], ['substr(text, int4)', 'text'],
		['nextval(regclass)', 'int8'], ['current_setting(text)', 'text'],
		['quote_ident(text)', 'text'], ['jsonb_array_elements(jsonb)', 'SETOF jsonb'],
		['unnest(jsonb[])', 'SETOF jsonb'], ['unnest(text[])', 'SETOF text'],
		['unnest(int8[])', 'SETOF int8'], ['unnest(float8[])', 'SETOF float8'],
		['jsonb_typeof(jsonb)', 'text'], ['jsonb_array_length(jsonb)', 'int4'],
		['jsonb_populate_record(anyelement, jsonb)', 'anyelement'],
		['step(int8, int8)', 'int8'], ['step(numeric, numeric)', 'numeric'],
		['step(float8, float8)', 'float8'], ['step(timestamptz, timestamptz)', 'timestamptz'],
		['step(jsonb, jsonb)', 'jsonb'], ['count_step(int8)', 'int8']] LOOP
		PERFORM low.plant(m[1], m[2]);
	END LOOP;
	FOREACH t IN ARRAY ARRAY['int8', 'numeric', 'float8'] LOOP
		EXECUTE pg_catalog.format('CREATE AGGREGATE low.sum(%s) (SFUNC = low.step, STYPE = %s)', t, t);
	END LOOP;
	FOREACH t IN ARRAY ARRAY['float8', 'timestamptz'] LOOP
		EXECUTE pg_catalog.format('CREATE AGGREGATE low.max(%s) (SFUNC = low.step, STYPE = %s)', t, t);
		EXECUTE pg_catalog.format('CREATE AGGREGATE low.min(%s) (SFUNC = low.step, STYPE = %s)', t, t);
	END LOOP;
	CREATE AGGREGATE low.jsonb_agg(jsonb) (SFUNC = low.step, STYPE = jsonb);
	CREATE AGGREGATE low.count(*) (SFUNC = low.count_step, STYPE = int8);
END $d$;
};
foreach my $node (@nodes)
{
	$node->safe_psql('postgres', q{
		SET citus.enable_ddl_propagation = off;
		DO $$BEGIN CREATE ROLE regress_low LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END$$;
		CREATE SCHEMA IF NOT EXISTS low AUTHORIZATION regress_low;
		ALTER ROLE regress_low SET search_path = low, public;
		ALTER ROLE regress_low SET polarbench.lock_timeout = 0;
		GRANT pg_read_all_data, pg_write_all_data TO regress_low;
		GRANT EXECUTE ON FUNCTION polarbench_run, polarbench_start, polarbench_sweep TO regress_low;
	});
	$node->safe_psql('postgres', "SET citus.enable_ddl_propagation = off; SET ROLE regress_low; $plant");
}
my $planted = q{SELECT count(*) FROM pg_operator WHERE oprnamespace = 'low'::regnamespace};
ok($c->safe_psql('postgres', $planted) > 50, 'the role planted its operators on the coordinator');
is(join(' ', map { $_->safe_psql('postgres', 'SELECT is_called FROM low.ran') } @nodes), 'f f f',
	'nothing planted has run yet');

# as the role, its schema before pg_catalog: a run, a background run, a sweep
sub as_low
{
	return $c->safe_psql('postgres', "SET search_path = low, pg_catalog, public; $_[0]",
		extra_params => [ '-U', 'regress_low' ]);
}

value('TRUNCATE pgbench_history');
is(as_low('SHOW search_path'), 'low, pg_catalog, public', 'the caller\'s search_path puts the role\'s schema first');
my $low_run = as_low(q{SELECT run_id FROM polarbench_run('tpcb-like', clients => 1, transactions => 5,
														nodes => 'all')});
my $low_start = as_low(q{SELECT polarbench_start('tpcb-like', clients => 1, transactions => 5, nodes => 'all')});
is(as_low(qq{SELECT transactions FROM polarbench_wait($low_start)}), 15,
	'the role\'s background run across the cluster: every node\'s transactions');
my $low_sweep = as_low(q{SELECT string_agg(run_id::text, ' ') FROM polarbench_sweep('tpcb-like', ARRAY[1],
																				   transactions => 5, nodes => 'all')});
is(value(qq{SELECT string_agg(status || ' ' || node || ' ' || run_by || ' ' || transactions, ', ' ORDER BY run_id)
			  FROM polarbench_runs WHERE run_id IN ($low_run, $low_start, $low_sweep)}),
	'finished all regress_low 15, finished all regress_low 15, finished all regress_low 15',
	'the role\'s run, background run and sweep across the cluster finished, as the role');
is(value('SELECT count(*) FROM pgbench_history'), 45,
	'their transactions are the history rows of the whole cluster');
is(value(qq{
	SELECT bool_and(s.t = r.transactions)
	  FROM polarbench_runs r,
		   LATERAL (SELECT sum((n ->> 'transactions')::bigint) t
					  FROM jsonb_array_elements(r.figures -> 'nodes') n) s
	 WHERE r.run_id IN ($low_run, $low_start, $low_sweep)}),
	't', 'each run\'s transactions are its nodes\' sum');
is(join(' ', map { $_->safe_psql('postgres', 'SELECT is_called FROM low.ran') } @nodes), 'f f f',
	'nothing the role planted ran, on any node');
no_worker_left('after the role\'s runs');

done_testing();
