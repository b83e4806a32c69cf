# Hostile and careless use, end to end, on a real cluster: a trigger that
# allocates while a client holds plans, server settings through an
# immediate stop (with and without shared_preload_libraries), lists written
# back element by element, two runs with server settings at once, a
# superuser's secret setting read by a role without grants, a cursor in an
# extended-protocol pipeline (libpq's pipeline mode), the caller's lock and
# buffer pin that its run's workers wait for (and what the errors say of
# them), and a cursor's scan that must not leak.  Each holds; and the server
# log of the whole suite has no process terminated by a signal.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my $node = PostgreSQL::Test::Cluster->new('hostile');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 16
polarbench.lock_timeout = '1s'
fsync = on
});
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION polarbench;
	SELECT polarbench_init('pgbench', scale => 1);
	SELECT polarbench_init('ycsb', records => 1000);
	CREATE DATABASE other;
	CREATE ROLE nobody LOGIN;
});
$node->safe_psql('other', 'CREATE EXTENSION polarbench');

my $workers = q{SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'polarbench%'};

# What postgresql.auto.conf gives the parameters, one line.
sub auto_conf
{
	return $node->safe_psql('postgres', q{
		SELECT coalesce(string_agg(name || '=' || setting, ',' ORDER BY name), '')
		  FROM pg_file_settings WHERE sourcefile LIKE '%auto.conf'});
}

# Start a background run with server settings; returns its id once its
# clients run.
sub start_with_settings
{
	my ($settings) = @_;
	my $id = $node->safe_psql('postgres', qq{
		SELECT polarbench_start('select-only', duration => 600, server_settings => '$settings')});
	$node->poll_query_until('postgres', qq{
		SELECT count(*) = 1 FROM polarbench_live WHERE run_id = $id}) or die;
	return $id;
}

# 1. a YCSB run on a table with a plpgsql trigger that writes another table
# (the trigger's SPI allocations once reused the freed memory of the
# driver's plans)
$node->safe_psql('postgres', q{
	CREATE TABLE audit_log (k text);
	CREATE FUNCTION audit_f() RETURNS trigger LANGUAGE plpgsql AS
		$$BEGIN INSERT INTO audit_log VALUES (NEW.ycsb_key); RETURN NEW; END$$;
	CREATE TRIGGER audit_t AFTER UPDATE ON usertable FOR EACH ROW EXECUTE FUNCTION audit_f();
});
my $ycsb = $node->safe_psql('postgres', q{
	SELECT run_id FROM polarbench_run('ycsb-a', clients => 1, transactions => 200)});
is($node->safe_psql('postgres', qq{
	SELECT r.status || ' ' || ((SELECT count(*) FROM audit_log) = o.operations)
	  FROM polarbench_runs r JOIN polarbench_operations o USING (run_id)
	 WHERE r.run_id = $ycsb AND o.operation = 'UPDATE'}), 'finished true',
	'a YCSB run under a row trigger finishes, the trigger fired for each update');

# 2. an immediate stop in the middle of a run with fsync off: the next
# call of a polarbench function, in another database, puts it back
is(auto_conf(), '', 'postgresql.auto.conf gives nothing at first');
start_with_settings('{"fsync": "off"}');
is(auto_conf(), 'fsync=off', 'the run has fsync off');
$node->stop('immediate');
$node->start;
is(auto_conf(), 'fsync=off', 'after an immediate stop, fsync is still off until a polarbench call');
my ($ret, $out, $err) = $node->psql('other', 'SELECT count(*) >= 0 FROM polarbench_live');
like($err, qr/WARNING:  server settings of an interrupted polarbench run were put back\n.*DETAIL:  fsync reset \(the run had set 'off'\)/s,
	'the next polarbench call, in another database, puts it back and says so');
is(auto_conf(), '', 'postgresql.auto.conf is as it was');
$node->poll_query_until('postgres', q{SELECT current_setting('fsync') = 'on'}) or die;
ok(1, 'and the server has fsync on again');
($ret, $out, $err) = $node->psql('postgres', 'SELECT count(*) >= 0 FROM polarbench_runs');
unlike($err, qr/WARNING/, 'once put back, no call warns');

# the same when the first call is a view's, of a list or of the runs' texts
# (polarbench_statements asks polarbench_may_read() for each row: one run of
# a script has some)
$node->safe_psql('postgres', q{SELECT run_id FROM polarbench_run('select-only', transactions => 1)});
foreach my $view ('polarbench_workloads', 'polarbench_datasets', 'polarbench_statements')
{
	start_with_settings('{"fsync": "off"}');
	$node->stop('immediate');
	$node->start;
	is(auto_conf(), 'fsync=off', "after an immediate stop, fsync is off until $view is read");
	($ret, $out, $err) = $node->psql('postgres', "SELECT * FROM $view");
	like($err, qr/WARNING:  server settings of an interrupted polarbench run were put back\n.*DETAIL:  fsync reset \(the run had set 'off'\)/s,
		"reading $view first puts fsync back and says so");
	is(auto_conf(), '', "and postgresql.auto.conf is as it was after $view");
}

# the same through a sweep's run, and the next run with server settings
# puts back what was left before it reads what it will put back
$node->safe_psql('postgres', q{ALTER SYSTEM SET full_page_writes = on});
my $bg = $node->background_psql('postgres', on_error_stop => 0);
$bg->query_until(qr/started/, q{\echo started
SELECT * FROM polarbench_sweep('select-only', clients => '{1}', duration => 600,
	server_settings => ARRAY['{"full_page_writes": "off"}']::jsonb[]);
});
$node->poll_query_until('postgres', 'SELECT count(*) = 1 FROM polarbench_live') or die;
is(auto_conf(), 'full_page_writes=off', 'a sweep\'s run has full_page_writes off');
$node->stop('immediate');
eval { $bg->quit };
$node->start;
($ret, $out, $err) = $node->psql('postgres', q{
	SELECT transactions FROM polarbench_run('select-only', transactions => 2,
		server_settings => '{"full_page_writes": "off"}')});
like($err, qr/full_page_writes = 'on' \(the run had set 'off'\)/,
	'the next run with server settings puts back what the sweep left');
is(auto_conf(), 'full_page_writes=on', 'and puts back the value from before the sweep, not the leftover');
$node->safe_psql('postgres', q{ALTER SYSTEM RESET full_page_writes});

# with polarbench in shared_preload_libraries, the server puts it back
# when it starts, before any call
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'polarbench'\n");
$node->restart;
start_with_settings('{"fsync": "off"}');
$node->stop('immediate');
$node->start;
$node->poll_query_until('postgres', q{
	SELECT count(*) = 0 FROM pg_file_settings WHERE sourcefile LIKE '%auto.conf' AND name = 'fsync'})
  or die 'not put back at start';
ok(1, 'preloaded, the server puts fsync back as it starts');
like(slurp_file($node->logfile), qr/WARNING:  server settings of an interrupted polarbench run were put back/,
	'and says so in the log');

# 3. lists are written element by element, and put back so
$node->safe_psql('postgres', q{
	ALTER SYSTEM SET search_path = public, pg_catalog;
	ALTER SYSTEM SET session_preload_libraries = auto_explain, pg_prewarm;
	SELECT pg_reload_conf()});
my $lists = auto_conf();
is($lists, 'search_path=public, pg_catalog,session_preload_libraries=auto_explain, pg_prewarm',
	'two lists in postgresql.auto.conf');
my $run = start_with_settings('{"search_path": "\"$user\", public", "session_preload_libraries": "auto_explain"}');
is($node->safe_psql('postgres', 'SHOW search_path'), '"$user", public',
	'a new session has the run\'s list, element by element');
$node->safe_psql('postgres', "SELECT polarbench_cancel($run)");
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
is(auto_conf(), $lists, 'the lists are put back as they were');
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'and a new session starts');
$node->safe_psql('postgres', q{
	ALTER SYSTEM RESET search_path;
	ALTER SYSTEM RESET session_preload_libraries;
	SELECT pg_reload_conf()});

# 4. one run at a time has server settings
$run = start_with_settings('{"wal_compression": "lz4"}');
($ret, $out, $err) = $node->psql('postgres', q{
	SELECT * FROM polarbench_run('select-only', transactions => 1,
		server_settings => '{"fsync": "off"}')});
like($err, qr/server settings of another polarbench run are in place/,
	'a second run with server settings is refused while one goes on');
is(auto_conf(), 'wal_compression=lz4', 'and changed nothing');
$node->safe_psql('postgres', "SELECT polarbench_cancel($run)");
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
is(auto_conf(), '', 'the first puts its settings back');

# 5. a superuser's server settings, a password in them: not shown to a
# role that may not read the run's texts, and the value of a superuser-only
# parameter not to one that may read them but not examine it
$node->safe_psql('postgres', q{
	CREATE ROLE watcher LOGIN IN ROLE pg_read_all_stats});
$run = $node->safe_psql('postgres', q{
	SELECT run_id FROM polarbench_run('select-only', transactions => 1,
		server_settings => '{"archive_command": "curl -u admin:hunter2 ...",
		                     "primary_conninfo": "host=x password=hunter2"}')});
is($node->safe_psql('postgres', qq{
	SET ROLE nobody;
	SELECT coalesce(server_settings::text, 'hidden') || ' ' ||
	       coalesce(polarbench_report($run, 'json')::jsonb->'run'->>'server_settings', 'hidden')
	  FROM polarbench_runs WHERE run_id = $run}),
	'hidden hidden', 'a role without grants reads neither in the view nor in the report');
is($node->safe_psql('postgres', qq{
	SET ROLE watcher;
	SELECT (server_settings->>'archive_command') || ' ' || (server_settings->>'primary_conninfo') || ' ' ||
	       (polarbench_report($run, 'json')::jsonb->'run'->'server_settings'->>'primary_conninfo')
	  FROM polarbench_runs WHERE run_id = $run}),
	'curl -u admin:hunter2 ... <insufficient privilege> <insufficient privilege>',
	'a role that reads every run\'s texts does not read a superuser-only value');
is($node->safe_psql('postgres', qq{
	SELECT server_settings->>'primary_conninfo' FROM polarbench_runs WHERE run_id = $run}),
	'host=x password=hunter2', 'a superuser does');

# 6. a cursor of an extended-protocol pipeline: the run keeps its snapshot,
# and the cursor reads every row it was opened on
$node->safe_psql('postgres', q{
	CREATE TABLE t AS SELECT g AS id FROM generate_series(1, 1000) g});
my $lock = $node->background_psql('postgres');
$lock->query_safe('SELECT pg_advisory_lock(42)');
my $connstr = $node->connstr('postgres');
my ($pout, $perr) = ('', '');
my $pipeline = IPC::Run::start(
	[ 'test/tools/pb_pipeline', $connstr,
	  'DECLARE c CURSOR WITH HOLD FOR SELECT id FROM t',
	  'FETCH 10 FROM c',
	  "SELECT run_id > 0 FROM polarbench_run(script => E'DELETE FROM t;\\nSELECT count(*) FROM t;', transactions => 1)",
	  'SELECT pg_advisory_lock(42)',
	  '--then', 'FETCH ALL FROM c' ],
	'>', \$pout, '2>', \$perr);
$node->poll_query_until('postgres', q{
	SELECT count(*) = 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted}) or die;
# the run has deleted every row: a VACUUM removes what no snapshot needs
$node->safe_psql('postgres', 'VACUUM t');
$lock->query_safe('SELECT pg_advisory_unlock(42)');
$pipeline->finish;
like($perr, qr/NOTICE:  this run holds back the removal of dead rows until it ends/,
	'in a pipeline with a cursor open, the run keeps the caller\'s snapshot');
like($pout, qr/^5: PGRES_TUPLES_OK 990$/m, 'and the cursor reads all of the 990 rows left to it');
$lock->quit;

# 7. the caller's lock, which a background run's conductor waits for: an
# error at once, not a wait for ever
($ret, $out, $err) = $node->psql('postgres', q{
	\set VERBOSITY verbose
	BEGIN;
	LOCK TABLE pgbench_history IN SHARE MODE;
	SELECT polarbench_start('tpcb-like', clients => 1, duration => 2);
	ROLLBACK});
like($err, qr/ERROR:  40P01: the background run's conductor waits for a lock held by the transaction that called polarbench_start/,
	'polarbench_start fails with 40P01 when its conductor waits for the caller\'s lock');
like($err, qr/DETAIL:  Process \d+ waits for a lock of type relation that this session \(process \d+\) holds, directly or behind other waiters, while this session waits for the run\./,
	'and the detail names the lock\'s type');
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
ok(1, 'and leaves no worker');

# 8. a cycle through a buffer pin: the caller's cursor pins a page, a
# VACUUM (FREEZE) waits for the pin, the run's client waits for the
# VACUUM's lock; polarbench.lock_timeout ends it
$node->safe_psql('postgres', q{
	CREATE TABLE acc AS SELECT g AS id, 0 AS bal FROM generate_series(1, 10000) g});
my $caller = $node->background_psql('postgres', on_error_stop => 0);
$caller->query_safe('BEGIN');
$caller->query_safe('DECLARE cur CURSOR FOR SELECT * FROM acc');
$caller->query_safe('FETCH 1 FROM cur');
my $vacuum = $node->background_psql('postgres', on_error_stop => 0);
$vacuum->query_until(qr/started/, q{\echo started
VACUUM (FREEZE) acc;
});
$node->poll_query_until('postgres', q{
	SELECT count(*) = 1 FROM pg_stat_activity WHERE wait_event = 'BufferPin'}) or die;
$caller->query(q{SELECT * FROM polarbench_run(script => 'BEGIN; LOCK TABLE acc IN SHARE MODE; END;', transactions => 1)});
like($caller->{stderr}, qr/ERROR:  benchmark client 1 has waited for a lock longer than polarbench.lock_timeout \(1000 ms\)/,
	'a run whose client waits behind a VACUUM that waits for the caller\'s pin fails');
like($caller->{stderr}, qr/DETAIL:  .*waiting for BufferPin/, 'with the chain in the detail');
$caller->query('ROLLBACK');
$caller->quit;
$vacuum->quit;
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
ok(1, 'no worker is left');

# the same errors, of an advisory lock: a client waits for the caller's,
# then for another session's longer than polarbench.lock_timeout
($ret, $out, $err) = $node->psql('postgres', q{
	BEGIN;
	SELECT pg_advisory_xact_lock(7);
	SELECT * FROM polarbench_run(script => 'SELECT pg_advisory_xact_lock(7);', transactions => 1);
	ROLLBACK});
like($err, qr/ERROR:  benchmark client 1 waits for a lock held by the transaction that started the run\nDETAIL:  Process \d+ waits for a lock of type advisory that this session \(process \d+\) holds, directly or behind other waiters, while this session waits for the run\./,
	'a client that waits for the caller\'s advisory lock: the detail says "a lock of type advisory"');
my $holder = $node->background_psql('postgres');
$holder->query_safe('SELECT pg_advisory_lock(8)');
($ret, $out, $err) = $node->psql('postgres', q{
	SELECT * FROM polarbench_run(script => 'SELECT pg_advisory_xact_lock(8);', transactions => 1)});
like($err, qr/ERROR:  benchmark client 1 has waited for a lock longer than polarbench.lock_timeout \(1000 ms\)\nDETAIL:  Process \d+ has waited \d+\.\d s for a lock of type advisory; it waits for process \d+ \(client backend[^)]*\)\./,
	'one that waits for another session\'s longer than polarbench.lock_timeout: the same words');
$holder->query_safe('SELECT pg_advisory_unlock(8)');
$holder->quit;
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;

# 9. a cursor open in the caller's transaction block: the check of other
# portals ends its scan, in polarbench_run and in polarbench_wait
($ret, $out, $err) = $node->psql('postgres', q{
	BEGIN;
	DECLARE c CURSOR FOR SELECT 1;
	SELECT run_id > 0 FROM polarbench_run('select-only', transactions => 1);
	COMMIT});
unlike($err, qr/leaked hash_seq_search scan/, 'no scan of the portals leaks');
($ret, $out, $err) = $node->psql('postgres', q{
	SELECT polarbench_start('select-only', transactions => 1) AS id \gset
	BEGIN;
	DECLARE c CURSOR FOR SELECT 1;
	SELECT transactions FROM polarbench_wait(:id);
	COMMIT});
is($out, '1', 'polarbench_wait with a cursor open waits for the run') or diag($err);
unlike($err, qr/leaked hash_seq_search scan/, 'and its scan of the portals does not leak');

# the whole suite: no process was terminated by a signal
unlike(slurp_file($node->logfile), qr/terminated by signal/,
	'the server log has no process terminated by a signal');

$node->stop;
done_testing();
