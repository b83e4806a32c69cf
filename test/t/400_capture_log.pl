# polarbench_capture_log on logs that real pgbench and psql sessions wrote,
# both as csvlog and as stderr with log_line_prefix = '%m|%u|%d|%c|', in
# log_timezone Europe/Vienna: with log_statement = 'all' and
# log_min_duration_statement = 0, then with the durations alone.  Each
# pgbench run has an application name of its own, so that its sessions are
# known: the capture holds what pgbench sent (the simple, extended and
# prepared protocols, the parameters of its binds checked against the rows
# it inserted, its rollbacks, the errors of the clients it aborted), what
# psql sent with its errors, the two formats give the same statements, the
# filters and the time range keep what they say; every refusal and parse
# error, naming the line; a capture private to its role.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use PolarbenchLog;

my $tmp = PostgreSQL::Test::Utils::tempdir;
my $node = PostgreSQL::Test::Cluster->new('capture');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->append_conf('postgresql.conf', q{
logging_collector = on
log_destination = 'stderr,csvlog'
log_directory = 'log'
log_filename = 'capture.log'
log_line_prefix = '%m|%u|%d|%c|'
log_statement = 'all'
log_min_duration_statement = 0
log_connections = on
log_disconnections = on
log_parameter_max_length_on_error = -1
lc_messages = 'C'
log_timezone = 'Europe/Vienna'
});
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION polarbench;
	CREATE TABLE pb_params (client int, a int, note text);
	CREATE TABLE pb_marks (at timestamptz);
	CREATE ROLE alice LOGIN;
	CREATE ROLE bob LOGIN;
	GRANT pg_read_server_files TO bob;
	GRANT EXECUTE ON FUNCTION polarbench_capture_log TO bob;
	CREATE ROLE nofiles;
	GRANT EXECUTE ON FUNCTION polarbench_capture_log TO nofiles;
	CREATE ROLE noexec;
	GRANT pg_read_server_files TO noexec;
	CREATE ROLE carol;
	CREATE ROLE dave;
	GRANT bob TO dave;
	CREATE ROLE erin;
	GRANT pg_read_all_stats TO erin;
	CREATE DATABASE other});

# Wait until every session of the runs has ended, then until the log files
# hold a marker logged after them: the log is then complete.
my $markers = 0;
sub log_complete
{
	my ($file) = @_;
	$markers++;
	$node->poll_query_until('postgres', q{
		SELECT count(*) = 0 FROM pg_stat_activity WHERE application_name LIKE 'pb\_%'})
	  or die 'the sessions of the runs did not end';
	$node->safe_psql('postgres', "SELECT 'capture-marker-$markers'");
	for my $f ("log/$file.log", "log/$file.csv")
	{
		$node->poll_query_until('postgres', qq{
			SELECT pg_read_file('$f') LIKE '%capture-marker-$markers%'})
		  or die "the marker did not reach $f";
	}
}

my ($rc, $err);
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_init', '-i', '-s', '1', 'postgres');
is($rc, 0, 'pgbench -i') or diag($err);
$node->safe_psql('postgres', 'GRANT SELECT ON ALL TABLES IN SCHEMA public TO alice');
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_simple', '-n', '-M', 'simple', '-c', '2', '-t', '10', 'postgres');
is($rc, 0, 'tpcb-like, simple protocol') or diag($err);
my $params = PolarbenchLog::script($tmp, 'params.sql', q{\set a random(1, 1000000)
BEGIN;
INSERT INTO pb_params (client, a, note) VALUES (:client_id, :a, :note);
SELECT count(*) FROM pb_params WHERE a = :a;
END;
});
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_extended', '-n', '-M', 'extended', '-c', '2', '-t', '10',
	'-D', "note=it's, \"quoted\"", '-f', $params, 'postgres');
is($rc, 0, 'a script of parameters, extended protocol') or diag($err);
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_prepared', '-n', '-M', 'prepared', '-c', '2', '-t', '10', 'postgres');
is($rc, 0, 'tpcb-like, prepared') or diag($err);
my $rollback = PolarbenchLog::script($tmp, 'rollback.sql', q{\set aid random(1, 100000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;
ROLLBACK;
});
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_rollback', '-n', '-M', 'extended', '-c', '2', '-t', '5', '-f', $rollback,
	'postgres');
is($rc, 0, 'a script that rolls back') or diag($err);
my $fails = PolarbenchLog::script($tmp, 'fails.sql', q{\set x random(0, 2)
SELECT 10 / :x;
});
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_errors', '-n', '-M', 'prepared', '-c', '4', '-t', '20',
	'--random-seed=5', '-f', $fails, 'postgres');
my $aborted = () = $err =~ /client \d+ (?:script \d+ )?aborted/g;
ok($rc == 2 && $aborted > 0, "a script that fails sometimes: $aborted clients aborted");
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_alice', '-n', '-S', '-U', 'alice', '-c', '1', '-t', '3', 'postgres');
is($rc, 0, 'select-only as another role') or diag($err);
{
	local $ENV{PGAPPNAME} = 'pb_psql';
	$node->psql('postgres', q{
SELECT 1/0;
SELEC 1;
BEGIN;
SELECT 1/0;
SELECT 'aborted';
ROLLBACK;
COPY pgbench_branches TO STDOUT;
SELECT 'after';
INSERT INTO pb_marks VALUES (clock_timestamp());
}, on_error_stop => 0);
	local $ENV{PGAPPNAME} = 'pb_other';
	$node->safe_psql('other', q{SELECT 'in other'});
}
log_complete('capture');
# the log as it is now: the captures' own statements, logged as they read
# it, come after
my $end = $node->safe_psql('postgres', 'SELECT clock_timestamp()');

# Capture the log as a role (the superuser by default); the query's rows.
sub capture
{
	my ($args, %opts) = @_;
	my $sql = "SELECT capture_id, sessions, statements, errors, skipped FROM polarbench_capture_log($args)";
	$sql = "SET ROLE $opts{role}; $sql" if $opts{role};
	return $node->safe_psql('postgres', $sql);
}
sub query { return $node->safe_psql('postgres', $_[0]); }

my ($csv) = split /\|/, capture(qq{'log/capture.csv', until => '$end'});
my ($stderr) = split /\|/, capture(qq{'log/capture.log', format => 'stderr', until => '$end'});
is(query("SELECT format, sessions > 10, (skipped_by->>'copy')::int >= 2 FROM polarbench_captures WHERE capture_id = $csv"),
	'csvlog|t|t', 'the csvlog, told from its first line; pgbench -i\'s and psql\'s COPY left out');
is(query("SELECT format FROM polarbench_captures WHERE capture_id = $stderr"), 'stderr', 'the stderr log');

# the two formats: the same statements of the same sessions
my $cols = q{s.session_id, t.statement_no, t.at, t.protocol, t.prepared_name, t.statement,
	t.parameters, t.duration, t.error};
my $same = qq{
	SELECT count(*) FROM (
		(SELECT $cols FROM polarbench_capture_statements t JOIN polarbench_capture_sessions s USING (capture_id, session_no) WHERE capture_id = $csv
		 EXCEPT ALL
		 SELECT $cols FROM polarbench_capture_statements t JOIN polarbench_capture_sessions s USING (capture_id, session_no) WHERE capture_id = $stderr)
		UNION ALL
		(SELECT $cols FROM polarbench_capture_statements t JOIN polarbench_capture_sessions s USING (capture_id, session_no) WHERE capture_id = $stderr
		 EXCEPT ALL
		 SELECT $cols FROM polarbench_capture_statements t JOIN polarbench_capture_sessions s USING (capture_id, session_no) WHERE capture_id = $csv)) d};
is(query($same), '0', 'csvlog and stderr give the same statements, times, parameters, durations, errors');
is(query("SELECT count(*) FILTER (WHERE sqlstate IS NOT NULL) || ' ' || count(*) FILTER (WHERE error IS NOT NULL) FROM polarbench_capture_statements WHERE capture_id = $stderr"),
	'0 ' . query("SELECT count(*) FROM polarbench_capture_statements WHERE capture_id = $csv AND error IS NOT NULL"),
	'stderr has the errors, without their SQLSTATEs');

# a run's sessions: its clients', and pgbench's main session (for the
# built-in scripts, which checks pgbench_accounts' partitions)
sub app_capture
{
	my ($app, $log) = @_;
	$log //= 'log/capture.csv';
	my ($id) = split /\|/, capture("'$log', application => '$app'");
	return $id;
}
sub client_sessions
{
	my ($id) = @_;
	return query(qq{
		SELECT string_agg(s.statements::text, ',' ORDER BY s.session_no)
		  FROM polarbench_capture_sessions s WHERE s.capture_id = $id
		   AND NOT EXISTS (SELECT FROM polarbench_capture_statements t
							WHERE t.capture_id = s.capture_id AND t.session_no = s.session_no
							  AND t.statement LIKE 'select o.n, p.partstrat%')});
}
my $simple = app_capture('pb_simple');
is(query("SELECT sessions || ' ' || errors FROM polarbench_captures WHERE capture_id = $simple"),
	'3 0', 'tpcb-like: its main session and two clients');
is(client_sessions($simple), '70,70', 'each client: 10 transactions of 7 statements');
is(query(qq{SELECT string_agg(DISTINCT protocol, ',') || ' ' || count(*) FILTER (WHERE duration IS NULL)
	  FROM polarbench_capture_statements WHERE capture_id = $simple}),
	'simple 0', 'simple protocol statements, each with its duration');
is(query(qq{SELECT string_agg(h.statements || ' ' || h.parameterized || ' ' || h.shape, E'\n' ORDER BY h.shape)
	  FROM polarbench_capture_shapes h
	 WHERE h.capture_id = $simple AND h.logged_p50 IS NOT NULL AND h.logged_avg <= h.logged_max
	   AND h.shape NOT LIKE 'select%'}),
	join("\n", '20 false BEGIN;', '20 false END;',
		'20 true INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP);',
		'20 true SELECT abalance FROM pgbench_accounts WHERE aid = $1;',
		'20 true UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2;',
		'20 true UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2;',
		'20 true UPDATE pgbench_tellers SET tbalance = tbalance + $1 WHERE tid = $2;'),
	'the simple protocol\'s statements have the shapes of their constants made parameters, with the log\'s durations');
is(query(qq{SELECT count(*) FROM polarbench_capture_statements t JOIN polarbench_capture_shapes h USING (capture_id, shape_no)
	 WHERE t.capture_id = $simple AND t.statement <> h.shape AND NOT h.parameterized}),
	'0', 'a shape without parameters is its statements\' text');
is(query(qq{SELECT string_agg(DISTINCT application_name || '/' || role_name || '/' || database_name, ','),
		  bool_and(connected_at IS NOT NULL AND disconnected_at IS NOT NULL)
	  FROM polarbench_capture_sessions WHERE capture_id = $simple}),
	'pb_simple/' . query('SELECT current_user') . '/postgres|t', 'the sessions\' application, role, database, connection and end');

my $extended = app_capture('pb_extended');
is(client_sessions($extended), '40,40', 'the script of parameters: 10 transactions of 4 statements a client');
is(query(qq{
	SELECT count(*) FROM (
		(SELECT parameters FROM polarbench_capture_statements
		  WHERE capture_id = $extended AND statement LIKE 'INSERT INTO pb_params%'
		 EXCEPT ALL SELECT ARRAY[client::text, a::text, note] FROM pb_params)
		UNION ALL
		(SELECT ARRAY[client::text, a::text, note] FROM pb_params
		 EXCEPT ALL SELECT parameters FROM polarbench_capture_statements
		  WHERE capture_id = $extended AND statement LIKE 'INSERT INTO pb_params%')) d}),
	'0', 'the parameters of every bind are the values pgbench inserted, quotes and commas kept');
is(query(qq{SELECT count(*) || ' ' || string_agg(DISTINCT protocol || ':' || prepared_name, ',')
	  FROM polarbench_capture_statements WHERE capture_id = $extended AND statement LIKE 'INSERT INTO pb_params%'}),
	'20 extended:', 'the unnamed statement of the extended protocol');

my $prepared = app_capture('pb_prepared');
is(client_sessions($prepared), '70,70', 'tpcb-like prepared: 70 statements a client');
is(query(qq{SELECT string_agg(DISTINCT prepared_name, ',' ORDER BY prepared_name)
	  FROM polarbench_capture_statements WHERE capture_id = $prepared AND protocol = 'extended'}),
	'P_0,P_1,P_2,P_3,P_4,P_5,P_6', 'each prepared statement by its name');
is(query(qq{SELECT count(DISTINCT shape_no) || ' ' || bool_or(parameterized)
	  FROM polarbench_capture_statements JOIN polarbench_capture_shapes USING (capture_id, shape_no)
	 WHERE capture_id = $prepared AND protocol = 'extended'}),
	'7 false', 'the prepared statements\' shapes are their texts');
is(query(qq{SELECT count(*) FROM polarbench_capture_statements
	  WHERE capture_id = $prepared AND statement LIKE 'UPDATE pgbench_accounts%'
	    AND cardinality(parameters) = 2 AND parameters[2]::int BETWEEN 1 AND 100000}),
	'20', 'the accounts\' updates with their delta and account');

my $rolled = app_capture('pb_rollback');
is(query(qq{SELECT count(*) FILTER (WHERE statement = 'ROLLBACK;') || ' ' || count(*)
	  FROM polarbench_capture_statements WHERE capture_id = $rolled}),
	'10 30', 'the rollbacks');

my $errors = app_capture('pb_errors');
is(query("SELECT errors FROM polarbench_captures WHERE capture_id = $errors"), $aborted,
	'an error for each client pgbench aborted');
is(query(qq{SELECT string_agg(DISTINCT sqlstate || ' ' || error || ' ' || statement || ' ' || parameters::text, ',')
	  FROM polarbench_capture_statements WHERE capture_id = $errors AND error IS NOT NULL}),
	'22012 division by zero SELECT 10 / $1; {0}',
	'the failed binds, with the parameter the CONTEXT shows');
is(query(qq{SELECT bool_and(s.statements = s.errors + (SELECT count(*) FROM polarbench_capture_statements t
		 WHERE t.capture_id = s.capture_id AND t.session_no = s.session_no AND t.error IS NULL))
	  FROM polarbench_capture_sessions s WHERE capture_id = $errors}),
	't', 'the sessions count their statements and errors');

my $psql = app_capture('pb_psql');
is(query(qq{SELECT string_agg(statement || ' ' || coalesce(sqlstate, '-'), E'\n' ORDER BY statement_no)
	  FROM polarbench_capture_statements WHERE capture_id = $psql}),
	join("\n", 'SELECT 1/0; 22012', 'SELEC 1; 42601', 'BEGIN; -', 'SELECT 1/0; 22012',
		"SELECT 'aborted'; 25P02", 'ROLLBACK; -', "SELECT 'after'; -",
		'INSERT INTO pb_marks VALUES (clock_timestamp()); -'),
	'psql\'s session as it went on after its errors, the COPY left out');
is(query(qq{SELECT abs(extract(epoch FROM t.at - m.at)) < 1
	  FROM polarbench_capture_statements t, pb_marks m
	 WHERE t.capture_id = $psql AND t.statement LIKE 'INSERT INTO pb_marks%'}),
	't', 'a statement\'s time read in log_timezone: within a second of clock_timestamp()');

# the filters
my ($alice) = split /\|/, capture(q{'log/capture.csv', role => 'alice'});
is(query(qq{SELECT string_agg(DISTINCT role_name || ' ' || application_name, ',') || ' ' || sum(statements)
	  FROM polarbench_capture_sessions WHERE capture_id = $alice}),
	'alice pb_alice 5', 'by role: alice\'s sessions alone (pgbench\'s two checks and 3 selects)');
is(query(qq{SELECT count(*) FROM polarbench_capture_statements WHERE capture_id = $alice
	   AND statement LIKE 'SELECT abalance FROM pgbench_accounts WHERE aid = %;'}),
	'3', 'her select-only transactions, their account in their text');
my ($other) = split /\|/, capture(q{'log/capture.log', database => 'other'});
is(query(qq{SELECT string_agg(database_name || ' ' || statement, ',')
	  FROM polarbench_capture_statements t JOIN polarbench_capture_sessions s USING (capture_id, session_no)
	 WHERE capture_id = $other AND application_name = 'pb_other'}),
	"other SELECT 'in other'", 'by database');

# the time range keeps transactions whole
my ($since, $until) = split /\|/, query(qq{
	SELECT (SELECT at FROM polarbench_capture_statements WHERE capture_id = $simple AND session_no = 2 AND statement_no = 24),
	       (SELECT at FROM polarbench_capture_statements WHERE capture_id = $simple AND session_no = 2 AND statement_no = 47)});
my ($ranged) = split /\|/, capture(qq{'log/capture.csv', application => 'pb_simple', since => '$since', until => '$until'});
is(query(qq{
	SELECT bool_and(first_statement = 'BEGIN;' AND last_statement = 'END;' AND n % 7 = 0)
		   AND count(*) >= 1
	  FROM (SELECT session_no, count(*) AS n,
				   (array_agg(statement ORDER BY statement_no))[1] AS first_statement,
				   (array_agg(statement ORDER BY statement_no DESC))[1] AS last_statement
			  FROM polarbench_capture_statements WHERE capture_id = $ranged GROUP BY session_no) s}),
	't', 'a range keeps whole transactions: each session from a BEGIN to an END');
is(query(qq{SELECT count(*) FILTER (WHERE at < '$since') || ' ' ||
		   count(*) FILTER (WHERE at >= '$until' AND statement = 'BEGIN;')
	  FROM polarbench_capture_statements WHERE capture_id = $ranged}),
	'0 0', 'none before since, no transaction begun from until');
is(query("SELECT (skipped_by->>'outside_range')::int > 0 FROM polarbench_captures WHERE capture_id = $ranged"),
	't', 'what the range left out is counted');

# 2. log_min_duration_statement = 0 alone: statements logged as they end
$node->safe_psql('postgres', q{
	ALTER SYSTEM SET log_statement = 'none';
	ALTER SYSTEM SET log_filename = 'durations.log';
	SELECT pg_reload_conf()});
$node->poll_query_until('postgres', q{SELECT current_setting('log_filename') = 'durations.log'})
  or die 'log_filename not reloaded';
$node->safe_psql('postgres', 'SELECT pg_rotate_logfile()');
$node->poll_query_until('postgres', q{SELECT pg_current_logfile() LIKE '%durations.log'})
  or die 'the log did not rotate';
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_dur', '-n', '-M', 'extended', '-c', '2', '-t', '5',
	'-D', 'note=n', '-f', $params, 'postgres');
is($rc, 0, 'the script of parameters again') or diag($err);
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_dur_errors', '-n', '-M', 'extended', '-c', '4', '-t', '20',
	'--random-seed=5', '-f', $fails, 'postgres');
my $aborted2 = () = $err =~ /client \d+ (?:script \d+ )?aborted/g;
log_complete('durations');
my $dur = app_capture('pb_dur', 'log/durations.csv');
is(client_sessions($dur), '20,20', 'logged as they end: 20 statements a client');
is(query(qq{SELECT count(*) FILTER (WHERE duration IS NULL) || ' ' || count(*) FILTER (WHERE parameters IS NULL)
	  FROM polarbench_capture_statements WHERE capture_id = $dur}),
	'0 0', 'each with its duration and parameters');
is(query(qq{SELECT count(*) FROM polarbench_capture_statements t
	  WHERE capture_id = $dur AND statement LIKE 'INSERT INTO pb_params%'
	    AND NOT EXISTS (SELECT FROM pb_params p WHERE ARRAY[p.client::text, p.a::text, p.note] = t.parameters)}),
	'0', 'its parameters, the rows inserted');
my $dur_errors = app_capture('pb_dur_errors', 'log/durations.log');
is(query("SELECT errors FROM polarbench_captures WHERE capture_id = $dur_errors"), $aborted2,
	'the errors, which only the ERROR lines show');

# 3. refusals and parse errors, and what they leave: nothing
my $captures = query('SELECT count(*) FROM polarbench_captures');
sub refused
{
	my ($args, $role, $pattern, $name) = @_;
	my ($out, $errout);
	my $sql = ($role ? "SET ROLE $role; " : '') . "SELECT * FROM polarbench_capture_log($args)";
	$node->psql('postgres', "\\set VERBOSITY verbose\n$sql", stdout => \$out, stderr => \$errout);
	like($errout, $pattern, $name);
}
refused('NULL', undef, qr/22004: path must not be null/, 'a null path');
refused(q{'log/capture.csv'}, 'nofiles',
	qr/42501: must be superuser or have privileges of the pg_read_server_files role to capture a server log/,
	'a role without pg_read_server_files');
refused(q{'log/capture.csv'}, 'noexec', qr/42501: permission denied for function polarbench_capture_log/,
	'a role not granted the function');
refused(q{'log/capture.csv', format => 'xml'}, undef, qr/22023: unrecognized log format "xml"/, 'an unknown format');
refused(q{'log/capture.csv', since => '2030-01-02', until => '2030-01-01'}, undef,
	qr/22023: since must be before until/, 'an empty range');
refused(q{'log/capture.csv', time_zone => 'Mars/Base'}, undef, qr/22023: time zone "Mars\/Base" not recognized/,
	'an unknown time zone');
refused(q{'log/capture.csv', time_zone => 'UTC'}, undef,
	qr/22P04: the time zone "CES?T" of line \d+ is not known/, 'a log written in another time zone than the one given');
refused(q{'log/no_such.csv'}, undef, qr/58P01: could not open file ".*log\/no_such.csv" for reading/, 'a file that is not there');
refused(q{'log'}, undef, qr/42809: ".*log" is a directory/, 'a directory');
refused(q{'postgresql.conf'}, undef,
	qr/22P04: line 1 is not the start of a csvlog record nor of a stderr log line/, 'a file that is no log');
refused(q{'log/capture.log', format => 'csvlog'}, undef,
	qr/22P04: line 1 is not the start of a csvlog record/, 'a stderr log read as csvlog');
refused(q{'log/capture.csv', application => 'nobody'}, undef,
	qr/P0002: the log holds no statement to capture/, 'a filter that leaves nothing');

# a log broken in its middle, one of bytes not of the database's encoding,
# one with a zero byte
my $lines = query(q{SELECT pg_read_file('log/capture.log')});
my @lines = split /\n/, $lines, -1;
open my $fh, '>', "$tmp/broken.log" or die;
print $fh join("\n", @lines[0 .. 29], 'a line that is no log line', @lines[30 .. $#lines]);
close $fh;
refused(qq{'$tmp/broken.log'}, undef, qr/22P04: line 31 does not start with log_line_prefix/,
	'a line in the middle that does not read, named');
open $fh, '>', "$tmp/encoding.log" or die;
print $fh "2024-05-01 12:00:00.000 UTC|alice|shop|662d0000.1|LOG:  statement: SELECT 1\n",
  "2024-05-01 12:00:00.001 UTC|alice|shop|662d0000.1|LOG:  statement: SELECT '\xff\xfe'\n";
close $fh;
refused(qq{'$tmp/encoding.log'}, undef,
	qr/22021: line 2 of the log holds a byte sequence that is not valid in encoding "UTF8"/,
	'bytes not of the database\'s encoding');
open $fh, '>', "$tmp/zero.log" or die;
print $fh "2024-05-01 12:00:00.000 UTC|alice|shop|662d0000.1|LOG:  statement: SELECT 1\n\0\n";
close $fh;
refused(qq{'$tmp/zero.log'}, undef, qr/22P04: the log holds a zero byte/, 'a zero byte');
is(query('SELECT count(*) FROM polarbench_captures'), $captures, 'no refusal left a capture');
is(query(q{SELECT count(*) FROM polarbench_capture_chunk_data c
	  WHERE NOT EXISTS (SELECT FROM polarbench_capture_data d WHERE d.capture_id = c.capture_id)}),
	'0', 'nor chunks of one');

# 4. a capture is its role's
my ($bobs) = split /\|/, capture(q{'log/capture.csv', application => 'pb_extended'}, role => 'bob');
my $bob_statements = query("SELECT statements FROM polarbench_captures WHERE capture_id = $bobs");
is(query("SET ROLE carol; SELECT captured_by, source IS NULL, filters IS NULL, statements FROM polarbench_captures WHERE capture_id = $bobs"),
	"bob|t|t|$bob_statements", 'another role sees a capture\'s figures, not its file and filters');
is(query("SET ROLE carol; SELECT count(*) || ' ' || count(statement) || ' ' || count(parameters) || ' ' || count(role_name) FROM polarbench_capture_statements t JOIN polarbench_capture_sessions s USING (capture_id, session_no) WHERE capture_id = $bobs"),
	"$bob_statements 0 0 0", 'nor its statements, parameters and sessions\' roles');
is(query("SET ROLE dave; SELECT count(statement) FROM polarbench_capture_statements WHERE capture_id = $bobs"),
	$bob_statements, 'a role with its role\'s privileges reads them');
is(query("SET ROLE erin; SELECT count(parameters) > 0 FROM polarbench_capture_statements WHERE capture_id = $bobs"),
	't', 'and pg_read_all_stats');
refused_drop();
sub refused_drop
{
	my ($out, $errout);
	$node->psql('postgres', "\\set VERBOSITY verbose\nSET ROLE carol; SELECT polarbench_capture_drop($bobs)",
		stdout => \$out, stderr => \$errout);
	like($errout, qr/42501: permission denied to drop capture $bobs/, 'another role cannot drop it');
	$node->psql('postgres', "\\set VERBOSITY verbose\nSELECT polarbench_capture_drop(999999)",
		stdout => \$out, stderr => \$errout);
	like($errout, qr/42704: capture 999999 does not exist/, 'a capture that does not exist');
}
is(query("SET ROLE bob; SELECT polarbench_capture_drop($bobs)"), 't', 'its role drops it');
is(query(qq{SELECT (SELECT count(*) FROM polarbench_capture_data WHERE capture_id = $bobs)
		+ (SELECT count(*) FROM polarbench_capture_session_data WHERE capture_id = $bobs)
		+ (SELECT count(*) FROM polarbench_capture_chunk_data WHERE capture_id = $bobs)}),
	'0', 'with its sessions and statements');

$node->stop;
done_testing();
