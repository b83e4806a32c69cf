# The replay of a capture of a log that real pgbench and psql sessions
# wrote: tpcb-like with 4 clients on one branch (every transaction updates
# the same row: contention), with the simple, extended and prepared
# protocols, a script that rolls back, one whose clients fail, and a psql
# session that goes on after errors in and out of a transaction.  The
# tables are saved before and after the logged workload; put back as they
# were before, the replay of the capture, with fewer clients than the log
# had sessions, changes them exactly as the logged statements did (the
# balances, and pgbench_history's rows with the same values), to its end,
# each statement run once, the log's errors as the log shows them.  Then
# the refusals, the privileges (another role's capture), a replay at a slow
# speed canceled leaves no worker.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use PolarbenchLog;

my $tmp = PostgreSQL::Test::Utils::tempdir;
my $node = PostgreSQL::Test::Cluster->new('replay');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->append_conf('postgresql.conf', PolarbenchLog::csvlog_conf('replay',
	'log_min_duration_statement = 0', 'log_parameter_max_length_on_error = -1'));
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION polarbench;
	CREATE ROLE alice LOGIN;
	CREATE ROLE carol LOGIN;
	GRANT pg_read_server_files TO alice;
	GRANT EXECUTE ON FUNCTION polarbench_capture_log TO alice;
	GRANT EXECUTE ON FUNCTION polarbench_run TO alice, carol;
	CREATE SCHEMA saved});

sub query { return $node->safe_psql('postgres', $_[0]); }
sub status { return query("SELECT status FROM polarbench_runs WHERE run_id = $_[0]"); }

my @tables = qw(pgbench_accounts pgbench_branches pgbench_tellers pgbench_history);

# Save the pgbench tables into saved.<table>_<tag>.
sub save_tables
{
	my ($tag) = @_;
	query(join ';', map { "CREATE TABLE saved.${_}_$tag AS SELECT * FROM $_" } @tables);
}

# Put the tables back as saved.<table>_<tag>.
sub restore_tables
{
	my ($tag) = @_;
	query(join ';', map { "TRUNCATE $_; INSERT INTO $_ SELECT * FROM saved.${_}_$tag" } @tables);
}

# The rows of the tables that differ from saved.<table>_<tag>, history
# without its times (now() at the statement); 0 when the same.
sub differences
{
	my ($tag) = @_;
	my @parts;
	for my $t (@tables)
	{
		my $cols = $t eq 'pgbench_history' ? 'tid, bid, aid, delta' : '*';
		push @parts, "(SELECT $cols FROM $t EXCEPT ALL SELECT $cols FROM saved.${t}_$tag)",
		  "(SELECT $cols FROM saved.${t}_$tag EXCEPT ALL SELECT $cols FROM $t)";
	}
	my @counts = map { "(SELECT count(*) FROM ($_) d)" } @parts;
	return query('SELECT ' . join(' + ', @counts));
}

my ($rc, $err) = PolarbenchLog::pgbench($node, 'pb_init', '-i', '-s', '1', 'postgres');
is($rc, 0, 'pgbench -i') or diag($err);
query('CREATE TABLE marks (note text)');
save_tables('before');
my $mark = query('SELECT clock_timestamp()');

# 1. the logged workload
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_w_simple', '-n', '-M', 'simple', '-c', '4', '-t', '25', 'postgres');
is($rc, 0, 'tpcb-like, simple protocol, 4 clients on one branch') or diag($err);
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_w_extended', '-n', '-M', 'extended', '-c', '2', '-t', '10', 'postgres');
is($rc, 0, 'tpcb-like, extended protocol') or diag($err);
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_w_prepared', '-n', '-M', 'prepared', '-c', '2', '-t', '10', 'postgres');
is($rc, 0, 'tpcb-like, prepared') or diag($err);
my $rollback = PolarbenchLog::script($tmp, 'rollback.sql', q{\set aid random(1, 100000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;
ROLLBACK;
});
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_w_rollback', '-n', '-M', 'extended', '-c', '2', '-t', '5', '-f', $rollback,
	'postgres');
is($rc, 0, 'a script that rolls back') or diag($err);
my $fails = PolarbenchLog::script($tmp, 'fails.sql', q{\set x random(0, 2)
\set aid random(1, 100000)
UPDATE pgbench_accounts SET abalance = abalance + 10 / :x WHERE aid = :aid;
});
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_w_errors', '-n', '-M', 'prepared', '-c', '3', '-t', '20',
	'--random-seed=5', '-f', $fails, 'postgres');
my $aborted = () = $err =~ /client \d+ (?:script \d+ )?aborted/g;
ok($rc == 2 && $aborted > 0, "a script that fails sometimes: $aborted clients aborted");
{
	local $ENV{PGAPPNAME} = 'pb_w_psql';
	$node->psql('postgres', q{
SELECT 1/0;
UPDATE pgbench_tellers SET tbalance = tbalance + 7 WHERE tid = 2;
BEGIN;
UPDATE pgbench_tellers SET tbalance = tbalance + 1000 WHERE tid = 1;
SELECT 1/0;
UPDATE pgbench_tellers SET tbalance = tbalance + 2000 WHERE tid = 1;
ROLLBACK;
BEGIN;
INSERT INTO marks VALUES ('in a transaction');
COMMIT;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (3, 1, 3, -3, now());
}, on_error_stop => 0);
}
$node->poll_query_until('postgres', q{
	SELECT count(*) = 0 FROM pg_stat_activity WHERE application_name LIKE 'pb\_w\_%'})
  or die 'the sessions of the workload did not end';
my $end = query('SELECT clock_timestamp()');
save_tables('after');
query("INSERT INTO marks VALUES ('replay-marker')");
PolarbenchLog::wait_for_marker($node, 'log/replay.csv', 'replay-marker');
isnt(differences('before'), '0', 'the workload changed the tables');

# the workload's time range: the psql sessions' polls for its end (which
# only read) are in it too
my ($capture, $sessions, $statements, $errors) = split /\|/, query(qq{
	SELECT capture_id, sessions, statements, errors
	  FROM polarbench_capture_log('log/replay.csv', since => '$mark', until => '$end')});
ok($sessions >= 14 && $errors >= $aborted + 3, "the capture: $sessions sessions, $statements statements, $errors errors");

# 2. the replay, with fewer clients than sessions, as fast as it goes
restore_tables('before');
query("TRUNCATE marks");
is(differences('before'), '0', 'the tables put back as before the workload');
my $run = query(qq{
	SELECT run_id FROM polarbench_run('replay', clients => 3,
		options => '{"capture": $capture, "speed": "max"}')});
is(status($run), 'finished', 'the replay completes: the contended log replayed to its end');
is(differences('after'), '0', 'the tables changed exactly as the logged statements changed them');
is(query(q{SELECT string_agg(note, ',') FROM marks}), 'in a transaction',
	'a session that failed in a transaction went on as logged');
is(query(qq{SELECT (figures->'replay'->>'statements') || ' ' || (figures->'replay'->>'sessions')
	  || ' ' || (figures->'replay'->>'errors_as_logged') || ' ' || (figures->'replay'->>'errors_not_logged')
	  || ' ' || (figures->'replay'->>'logged_errors_missing')
	  FROM polarbench_runs WHERE run_id = $run}),
	"$statements $sessions $errors 0 0",
	'every statement and session replayed; the errors as in the log, none other');
is(query(qq{SELECT count(*) > 3 AND bool_and(operation ~ '^(shape \\d+|other)\$')
	  FROM polarbench_operations WHERE run_id = $run}), 't', 'the latency of each shape');
is(query(qq{SELECT (count(*) <= 2) || ' ' || sum(o.operations) FROM polarbench_operations o
	  JOIN polarbench_capture_shapes s ON o.operation = 'shape ' || s.shape_no
	 WHERE o.run_id = $run AND s.capture_id = $capture AND s.shape LIKE 'UPDATE pgbench\\_branches %'}),
	'true 140', 'the branch\'s updates of every protocol: one shape for all the simple ones, 140 in all');
like(query("SELECT polarbench_report($run)"),
	qr/statements: $statements, .* per second.*errors: $errors as in the log, 0 not in the log/s,
	'the report');

# 3. at the log's pace, sessions shifted by their idle time
restore_tables('before');
query("TRUNCATE marks");
$run = query(qq{
	SELECT run_id FROM polarbench_run('replay', clients => 2,
		options => '{"capture": $capture, "speed": 4, "skip_idle": true}')});
is(status($run), 'finished', 'a replay at a speed of 4, idle time skipped');
is(differences('after'), '0', 'the same changes');
is(query(qq{SELECT figures->'replay'->'lag_ms' ? 'p50' FROM polarbench_runs WHERE run_id = $run}),
	't', 'the lag behind the schedule');

# a sweep over speed: a run per option set, each to its end (the second
# on the tables the first left, which the logged statements change alike)
my $swept = query(qq{
	SELECT string_agg(run_id::text, ',' ORDER BY run_id) FROM polarbench_sweep('replay', clients => '{2}',
		options => ARRAY['{"capture": $capture, "speed": "max"}',
						 '{"capture": $capture, "speed": 8, "skip_idle": true}']::jsonb[])});
is(query(qq{SELECT string_agg(status || ' ' || (figures->'replay'->>'speed') || ' '
		  || (figures->'replay'->>'statements'), ',' ORDER BY run_id)
	  FROM polarbench_runs WHERE run_id IN ($swept)}),
	"finished max $statements,finished 8 $statements", 'a sweep over speed: each run replays the capture');

# 4. refusals, and what they leave: no run
my $runs = query('SELECT count(*) FROM polarbench_runs');
sub refused
{
	my ($sql, $pattern, $name) = @_;
	my ($out, $errout);
	$node->psql('postgres', "\\set VERBOSITY verbose\n$sql", stdout => \$out, stderr => \$errout);
	like($errout, $pattern, $name);
}
refused(q{SELECT * FROM polarbench_run('replay', clients => 1)},
	qr/22023: a replay needs the option "capture"/, 'no capture');
refused(q{SELECT * FROM polarbench_run('replay', clients => 1, options => '{"capture": 999999}')},
	qr/42704: capture 999999 does not exist/, 'a capture that does not exist');
refused(qq{SELECT * FROM polarbench_run('replay', clients => 1, options => '{"capture": $capture, "speed": "fast"}')},
	qr/22023: invalid value for replay option "speed": "fast"/, 'a speed that is not one');
refused(qq{SELECT * FROM polarbench_run('replay', clients => 1, options => '{"capture": $capture, "speed": -1}')},
	qr/22023: invalid value for replay option "speed"/, 'a negative speed');
refused(qq{SELECT * FROM polarbench_run('replay', clients => 1, rate => 100, options => '{"capture": $capture}')},
	qr/22023: rate cannot be used with a replay/, 'a rate');
refused(qq{SELECT * FROM polarbench_run('replay', clients => 1, script => 'SELECT 1', options => '{"capture": $capture}')},
	qr/22023: workload "replay" cannot be combined with scripts/, 'a script');
refused(qq{SET ROLE carol; SELECT * FROM polarbench_run('replay', clients => 1, options => '{"capture": $capture}')},
	qr/42501: permission denied for capture $capture/, 'another role\'s capture');
is(query('SELECT count(*) FROM polarbench_runs'), $runs, 'no refusal left a run');

# a capture of alice's, replayed by her
query('GRANT ALL ON ALL TABLES IN SCHEMA public TO alice');
my ($alices) = split /\|/, query(qq{SET ROLE alice;
	SELECT capture_id FROM polarbench_capture_log('log/replay.csv', application => 'pb_w_psql')});
$run = query(qq{SET ROLE alice;
	SELECT run_id FROM polarbench_run('replay', clients => 1,
		options => '{"capture": $alices, "speed": "max"}')});
is(status($run), 'finished', 'a role replays its own capture');
refused(qq{SET ROLE carol; SELECT * FROM polarbench_run('replay', clients => 1, options => '{"capture": $alices}')},
	qr/42501: permission denied for capture $alices/, 'which another role cannot');

# each session as its logged role: alice's session writes her name, and
# tries to become another role (which succeeds for her, as it goes back to
# her own); replayed by a superuser, each of its statements runs as alice,
# and none of them gets the superuser's rights back
{
	local $ENV{PGAPPNAME} = 'pb_r_alice';
	$node->safe_psql('postgres', q{
		INSERT INTO marks VALUES (current_user);
		BEGIN;
		RESET ROLE;
		INSERT INTO marks VALUES ('in a transaction: ' || current_user);
		COMMIT;
		SET SESSION AUTHORIZATION DEFAULT;
		INSERT INTO marks VALUES (current_user);
		SELECT set_config('role', 'none', false);
		INSERT INTO marks VALUES (current_user)},
		extra_params => [ '-U', 'alice' ]);
}
query(q{SELECT 'roles-marker'});
PolarbenchLog::wait_for_marker($node, 'log/replay.csv', 'roles-marker');
my ($by_alice) = split /\|/, query(q{
	SELECT capture_id FROM polarbench_capture_log('log/replay.csv', application => 'pb_r_alice')});
query('TRUNCATE marks');
$run = query(qq{SELECT run_id FROM polarbench_run('replay', clients => 1,
	options => '{"capture": $by_alice, "speed": "max", "roles": true}')});
my $superuser = query('SELECT current_user');
is(query(q{SELECT string_agg(note, ',' ORDER BY note) FROM marks}), 'alice,alice,alice',
	'with roles, every statement of the session ran as its logged role');
is(query(qq{SELECT (figures->'replay'->'errors_by_sqlstate'->>'42501') || ' '
		  || (figures->'replay'->'errors_by_sqlstate'->>'25P02')
	  FROM polarbench_runs WHERE run_id = $run}), '3 1',
	'its RESET ROLE (and the rest of its transaction), SET SESSION AUTHORIZATION and set_config(role) failed, as in a SECURITY DEFINER function');
refused(qq{SELECT * FROM polarbench_run('replay', clients => 1, options => '{"capture": $by_alice, "speed": "max"}')},
	qr/42501: permission denied to replay the sessions of role "alice" as role "$superuser"/,
	'without roles, a session of a role without the run\'s role\'s rights is refused');
is(query(q{SELECT count(*) FROM marks}), '3', 'and nothing of it ran');
refused(qq{SET ROLE alice; SELECT * FROM polarbench_run('replay', clients => 1, options => '{"capture": $alices, "roles": true}')},
	qr/42501: permission denied to replay the sessions of role "$superuser"/,
	'only as roles the run\'s role is a member of');

# 5. a replay canceled leaves no worker
my $slow = query(qq{SELECT polarbench_start('replay', clients => 2,
		options => '{"capture": $capture, "speed": 0.001}')});
$node->poll_query_until('postgres', q{
	SELECT count(*) = 2 FROM pg_stat_activity WHERE backend_type = 'polarbench client'})
  or die 'the clients did not start';
is(query("SELECT polarbench_cancel($slow)"), 't', 'the slow replay is canceled');
$node->poll_query_until('postgres', q{
	SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type LIKE 'polarbench%'})
  or die 'workers left';
is(query("SELECT status FROM polarbench_runs WHERE run_id = $slow"), 'canceled',
	'recorded as canceled, no worker left');

$node->stop;
done_testing();
