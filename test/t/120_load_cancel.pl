# Canceling polarbench_init leaves no table and no loader worker behind;
# too few worker slots is a clean error.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('load_cancel');
$node->init;
$node->append_conf('postgresql.conf',
	"max_worker_processes = 8\nmax_parallel_workers = 4\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION polarbench');

# Relation files of the database that belong to no relation, once a
# checkpoint has removed the files of aborted transactions.  A page writer
# that wrote after its producer's transaction aborted would leave one.
sub orphan_files
{
	$node->safe_psql('postgres', 'CHECKPOINT');
	return $node->safe_psql('postgres', q{
SELECT count(*) FROM pg_ls_dir('base/' || (SELECT oid FROM pg_database WHERE datname = current_database())) f
 WHERE f ~ '^[0-9]+$'
   AND f::oid NOT IN (SELECT pg_relation_filenode(oid) FROM pg_class
                       WHERE pg_relation_filenode(oid) IS NOT NULL)});
}

# Wait until no loader worker is left (they exit on their own).
sub wait_no_loader_worker
{
	$node->poll_query_until('postgres',
		q{SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type = 'polarbench loader'})
	  or die 'loader workers stayed';
}

# Start a load in the background, wait until rows are being inserted,
# cancel it and return psql's stderr.
sub cancel_load
{
	my ($call, $progress_query) = @_;
	my ($in, $out, $err) = ('', '', '');
	my $h = IPC::Run::start(
		[ 'psql', '-X', '-d', $node->connstr('postgres'), '-c', $call ],
		'<', \$in, '>', \$out, '2>', \$err);
	$node->poll_query_until('postgres', $progress_query)
	  or die 'the load never showed progress';
	my $pid = $node->safe_psql('postgres',
		q{SELECT pid FROM pg_stat_activity WHERE query LIKE 'SELECT polarbench_init%' AND backend_type = 'client backend'});
	$node->safe_psql('postgres', "SELECT pg_cancel_backend($pid)");
	$h->finish;
	return $err;
}

# serial: the load runs in the caller's transaction
my $err = cancel_load(
	q{SELECT polarbench_init('pgbench', scale => 50)},
	q{SELECT count(*) > 0 FROM pg_stat_progress_copy WHERE tuples_processed > 0});
like($err, qr{canceling statement due to user request}, 'serial load canceled');
is($node->safe_psql('postgres',
		q{SELECT count(*) FROM pg_class WHERE relname LIKE 'pgbench%'}),
	'0', 'no pgbench table left');

# parallel: workers are terminated, their transactions abort
$err = cancel_load(
	q{SELECT polarbench_init('sysbench', tables => 4, table_size => 2000000, parallel => 2)},
	q{SELECT count(*) = 2 FROM pg_stat_progress_copy p JOIN pg_stat_activity a USING (pid) WHERE a.backend_type = 'polarbench loader' AND p.tuples_processed > 0});
like($err, qr{canceling statement due to user request}, 'parallel load canceled');
is($node->safe_psql('postgres',
		q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'polarbench loader'}),
	'0', 'no loader worker left');
is($node->safe_psql('postgres',
		q{SELECT count(*) FROM pg_class WHERE relname LIKE 'sbtest%'}),
	'0', 'no sysbench table left');

is(orphan_files(), '0', 'no file left behind');

# parallel pgbench unpartitioned: the idle worker writes the pages of the
# one loading pgbench_accounts.  Cancel that one: its transaction aborts
# and its files go while the writer still has its pages in hand; the
# writer must not write them afterwards.
{
	my ($in, $out, $err) = ('', '', '');
	my $h = IPC::Run::start(
		[ 'psql', '-X', '-d', $node->connstr('postgres'), '-c',
		  q{SELECT polarbench_init('pgbench', scale => 50, parallel => 2)} ],
		'<', \$in, '>', \$out, '2>', \$err);
	# a load long enough (5M rows) that a loaded machine's poll still sees
	# it going, with its page writer at work
	my $producer = q{SELECT p.pid FROM pg_stat_progress_copy p JOIN pg_stat_activity a USING (pid) WHERE a.backend_type = 'polarbench loader' AND p.tuples_processed > 100000};
	$node->poll_query_until('postgres', "SELECT count(*) = 1 FROM ($producer) s")
	  or die 'the load never showed progress';
	$node->safe_psql('postgres', "SELECT pg_cancel_backend(pid) FROM ($producer) s");
	$h->finish;
	like($err, qr{canceling statement due to user request.*CONTEXT:  polarbench loader worker}s,
		'loader worker with a page writer canceled');
}
wait_no_loader_worker();
is($node->safe_psql('postgres',
		q{SELECT count(*) FROM pg_class WHERE relname LIKE 'pgbench%'}),
	'0', 'no pgbench table left');
is(orphan_files(), '0', 'no file left behind by the page writer');

# the same, but the page writer is killed: the load fails, its producer
# does not wait for it forever, and nothing stays
{
	my ($in, $out, $err) = ('', '', '');
	my $h = IPC::Run::start(
		[ 'psql', '-X', '-d', $node->connstr('postgres'), '-c',
		  q{SELECT polarbench_init('pgbench', scale => 50, parallel => 2)} ],
		'<', \$in, '>', \$out, '2>', \$err);
	# a load long enough (5M rows) that a loaded machine's poll still sees
	# it going, with its page writer at work
	my $producer = q{SELECT p.pid FROM pg_stat_progress_copy p JOIN pg_stat_activity a USING (pid) WHERE a.backend_type = 'polarbench loader' AND p.tuples_processed > 100000};
	$node->poll_query_until('postgres', "SELECT count(*) = 1 FROM ($producer) s")
	  or die 'the load never showed progress';
	$node->safe_psql('postgres', "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE backend_type = 'polarbench loader' AND pid NOT IN ($producer)");
	$h->finish;
	like($err, qr{polarbench loader worker \d exited before finishing its load|failed while writing pages of this worker},
		'killing the page writer fails the load');
}
wait_no_loader_worker();
is($node->safe_psql('postgres',
		q{SELECT count(*) FROM pg_class WHERE relname LIKE 'pgbench%'}),
	'0', 'no pgbench table left');
is(orphan_files(), '0', 'no file left behind');

# parallel pgbench, canceled while loading partitions
$err = cancel_load(
	q{SELECT polarbench_init('pgbench', scale => 50, partitions => 4, parallel => 2)},
	q{SELECT count(*) > 0 FROM pg_stat_progress_copy p JOIN pg_stat_activity a USING (pid) WHERE a.backend_type = 'polarbench loader' AND p.tuples_processed > 0});
like($err, qr{canceling statement due to user request}, 'parallel pgbench load canceled');
is($node->safe_psql('postgres',
		q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'polarbench loader'}),
	'0', 'no loader worker left');
is($node->safe_psql('postgres',
		q{SELECT count(*) FROM pg_class WHERE relname LIKE 'pgbench%'}),
	'0', 'no pgbench table left');

is(orphan_files(), '0', 'no file left behind');

# a type in the way of a table's name is found before anything starts
$node->safe_psql('postgres', q{CREATE TYPE sbtest3 AS ENUM ('x')});
my ($ret, $stdout, $stderr) = $node->psql('postgres',
	q{SELECT polarbench_init('sysbench', tables => 4, table_size => 1000, parallel => 2)});
isnt($ret, 0, 'a type in the way fails the load');
like($stderr, qr{ERROR:  type "public.sbtest3" already exists\n(?!CONTEXT)}s,
	'before any worker starts');
$node->safe_psql('postgres', 'DROP TYPE sbtest3');

# a loader worker that fails makes the load fail, and nothing stays
$node->safe_psql('postgres', q{
CREATE FUNCTION fail_sbtest3() RETURNS event_trigger LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (SELECT FROM pg_event_trigger_ddl_commands()
				WHERE object_identity LIKE '%sbtest3') THEN
		RAISE EXCEPTION 'sbtest3 refused for the test';
	END IF;
END $$;
CREATE EVENT TRIGGER fail_sbtest3 ON ddl_command_end
	WHEN TAG IN ('CREATE TABLE') EXECUTE FUNCTION fail_sbtest3();
});
($ret, $stdout, $stderr) = $node->psql('postgres',
	q{SELECT polarbench_init('sysbench', tables => 4, table_size => 1000, parallel => 2)});
isnt($ret, 0, 'failing worker fails the load');
like($stderr, qr{sbtest3 refused for the test.*CONTEXT:  .*polarbench loader worker \d}s,
	'the worker error is reported');
is($node->safe_psql('postgres',
		q{SELECT count(*) FROM pg_class WHERE relname LIKE 'sbtest%' OR relname LIKE 'pbload%'}),
	'0', 'no sysbench table left');
$node->safe_psql('postgres', 'DROP EVENT TRIGGER fail_sbtest3');

# an error after the workers committed (here in attaching the partitions,
# which the caller does): worker 0 drops everything they committed
$node->safe_psql('postgres', q{
CREATE FUNCTION fail_attach() RETURNS event_trigger LANGUAGE plpgsql AS $$
BEGIN
	IF (SELECT backend_type FROM pg_stat_activity
		 WHERE pid = pg_backend_pid()) = 'client backend' THEN
		RAISE EXCEPTION 'attach refused for the test';
	END IF;
END $$;
CREATE EVENT TRIGGER fail_attach ON ddl_command_start
	WHEN TAG IN ('ALTER TABLE') EXECUTE FUNCTION fail_attach();
});
($ret, $stdout, $stderr) = $node->psql('postgres',
	q{SELECT polarbench_init('pgbench', scale => 2, partitions => 2, parallel => 2)});
isnt($ret, 0, 'error in the finishing step fails the load');
like($stderr, qr{attach refused for the test}, 'its error is reported');
$node->poll_query_until('postgres',
	q{SELECT count(*) = 0 FROM pg_class
	   WHERE relname LIKE 'pgbench%' OR relname LIKE 'pbload%'})
  or die 'committed tables stayed';
wait_no_loader_worker();
pass('committed tables dropped, workers gone');
$node->safe_psql('postgres', 'DROP EVENT TRIGGER fail_attach');

# too few background worker slots
$node->append_conf('postgresql.conf', "max_worker_processes = 2\n");
$node->restart;
($ret, $stdout, $stderr) = $node->psql('postgres',
	q{SELECT polarbench_init('sysbench', tables => 8, table_size => 1000, parallel => 8)});
isnt($ret, 0, 'too many workers fails');
like($stderr, qr{not enough background worker slots for 8 loader workers}, 'clear error');
like($stderr, qr{HINT:  Load with a lower parallel, or raise max_worker_processes}, 'hint');
wait_no_loader_worker();
is($node->safe_psql('postgres',
		q{SELECT count(*) FROM pg_class WHERE relname LIKE 'sbtest%'}),
	'0', 'no sysbench table left');

$node->stop;
done_testing();
