# A capture through hooks (polarbench in shared_preload_libraries), of
# real pgbench with the simple and the prepared protocol: the statements
# and parameters kept are those pgbench sent (counted by shape, and the
# values of pgbench_history's rows), only the top-level statements of the
# sessions the filter keeps (no statement of a DO block, none of a
# polarbench run's clients, none of another application), errors with
# their SQLSTATE; replayed on the tables as they were before, the capture
# changes them exactly as the captured workload did.  Then the bound hit
# and counted, stop ending the capture, the refusals and privileges, and
# without shared_preload_libraries a clear error.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use PolarbenchLog;

my $node = PostgreSQL::Test::Cluster->new('capture_hooks');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'polarbench'
polarbench.capture_memory = '4MB'
max_worker_processes = 16
lc_messages = 'C'
});
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION polarbench;
	CREATE ROLE alice LOGIN;
	CREATE ROLE carol LOGIN;
	GRANT pg_read_server_files TO alice;
	GRANT EXECUTE ON FUNCTION polarbench_capture_start, polarbench_capture_stop TO alice, carol;
	CREATE SCHEMA saved});

sub query { return $node->safe_psql('postgres', $_[0]); }

my @tables = qw(pgbench_accounts pgbench_branches pgbench_tellers pgbench_history);

sub save_tables
{
	my ($tag) = @_;
	query(join ';', map { "CREATE TABLE saved.${_}_$tag AS SELECT * FROM $_" } @tables);
}

sub restore_tables
{
	my ($tag) = @_;
	query(join ';', map { "TRUNCATE $_; INSERT INTO $_ SELECT * FROM saved.${_}_$tag" } @tables);
}

# The rows that differ from saved.<table>_<tag>, history without its times.
sub differences
{
	my ($tag) = @_;
	my @counts;
	for my $t (@tables)
	{
		my $cols = $t eq 'pgbench_history' ? 'tid, bid, aid, delta' : '*';
		push @counts,
		  "(SELECT count(*) FROM ((SELECT $cols FROM $t EXCEPT ALL SELECT $cols FROM saved.${t}_$tag)"
		  . " UNION ALL (SELECT $cols FROM saved.${t}_$tag EXCEPT ALL SELECT $cols FROM $t)) d)";
	}
	return query('SELECT ' . join(' + ', @counts));
}

sub refused
{
	my ($sql, $pattern, $name) = @_;
	my ($out, $errout);
	$node->psql('postgres', "\\set VERBOSITY verbose\n$sql", stdout => \$out, stderr => \$errout);
	like($errout, $pattern, $name);
}

my ($rc, $err) = PolarbenchLog::pgbench($node, 'pb_init', '-i', '-s', '1', 'postgres');
is($rc, 0, 'pgbench -i') or diag($err);
save_tables('before');

# 1. the captured workload
query(q{SELECT polarbench_capture_start(application => 'pb_h')});
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_h', '-n', '-M', 'simple', '-c', '2', '-t', '20', 'postgres');
is($rc, 0, 'tpcb-like, simple protocol') or diag($err);
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_h', '-n', '-M', 'prepared', '-c', '2', '-t', '20', 'postgres');
is($rc, 0, 'tpcb-like, prepared') or diag($err);
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_other', '-n', '-S', '-c', '1', '-t', '5', 'postgres');
is($rc, 0, 'another application') or diag($err);
{
	local $ENV{PGAPPNAME} = 'pb_h';
	$node->psql('postgres', q{
SELECT 1/0;
DO $$BEGIN PERFORM count(*) FROM pgbench_tellers; END$$;
}, on_error_stop => 0);
}
save_tables('after');
refused(q{SELECT polarbench_capture_start()}, qr/55006: a capture through hooks is already going on/,
	'one capture at a time');
my ($capture, $sessions, $statements, $errors, $skipped) = split /\|/,
  query(q{SELECT capture_id, sessions, statements, errors, skipped FROM polarbench_capture_stop()});
ok($sessions >= 7 && $errors == 1 && $skipped == 0,
	"the capture: $sessions sessions, $statements statements, $errors error, none left out");

sub captured
{
	my ($where) = @_;
	return query(qq{SELECT count(*) FROM polarbench_capture_statements WHERE capture_id = $capture AND ($where)});
}
is(captured(q{statement LIKE 'UPDATE pgbench_branches %'}), '80', 'every update of the branch, both protocols');
is(captured(q{statement = 'BEGIN'}) . ' ' . captured(q{statement = 'END'}), '80 80', 'every BEGIN and END');
is(captured(q{protocol = 'extended' AND cardinality(parameters) > 0}), '200',
	'the prepared protocol\'s five statements a transaction, with their parameters');
is(query(qq{SELECT DISTINCT parameter_types FROM polarbench_capture_statements
	  WHERE capture_id = $capture AND protocol = 'extended' AND statement LIKE 'INSERT INTO pgbench_history%'}),
	'{integer,integer,integer,integer}', 'the parameters\' types, as the bind gave them');
is(captured(q{protocol = 'simple' AND statement LIKE 'UPDATE pgbench_accounts SET abalance = abalance + %'}),
	'40', 'the simple protocol\'s, with their constants');
is(query(qq{SELECT count(*) FROM polarbench_capture_sessions WHERE capture_id = $capture
	  AND application_name IS DISTINCT FROM 'pb_h'}), '0', 'only the application kept');
is(captured(q{statement LIKE 'DO %'}) . ' ' . captured(q{statement LIKE 'SELECT count(*) FROM pgbench_tellers%'}),
	'1 0', 'a DO block, not the statements it runs');
is(query(qq{SELECT sqlstate || ' ' || error FROM polarbench_capture_statements
	  WHERE capture_id = $capture AND statement = 'SELECT 1/0'}), '22012 division by zero',
	'an error with its SQLSTATE');

# the history's rows, from the parameters and the constants captured
is(query(qq{
	WITH inserted AS (
		SELECT parameters[1]::int AS tid, parameters[2]::int AS bid,
			   parameters[3]::int AS aid, parameters[4]::int AS delta
		  FROM polarbench_capture_statements
		 WHERE capture_id = $capture AND protocol = 'extended' AND statement LIKE 'INSERT INTO pgbench_history%'
		UNION ALL
		SELECT m[1]::int, m[2]::int, m[3]::int, m[4]::int
		  FROM polarbench_capture_statements,
			   regexp_match(statement, 'VALUES \\((-?\\d+), (-?\\d+), (-?\\d+), (-?\\d+),') m
		 WHERE capture_id = $capture AND protocol = 'simple' AND statement LIKE 'INSERT INTO pgbench_history%')
	SELECT (SELECT count(*) FROM inserted) || ' ' || (SELECT count(*) FROM (
		(SELECT * FROM inserted EXCEPT ALL SELECT tid, bid, aid, delta FROM pgbench_history)
		UNION ALL (SELECT tid, bid, aid, delta FROM pgbench_history EXCEPT ALL SELECT * FROM inserted)) d)}),
	'80 0', 'pgbench_history\'s rows are the values captured');

# parameters of other types: kept as their bytes (built-in types, by value,
# of fixed length by reference, varlena) or as their text (a type of the
# database's), all written back as their types' output writes them
query(q{CREATE TYPE mood AS ENUM ('sad', 'happy')});
my $typed = PolarbenchLog::script(PostgreSQL::Test::Utils::tempdir(), 'typed.sql',
	"SELECT :num::numeric, :word::text, :num::float8, :ts::timestamptz, :iv::interval, :nm::name, :mood::mood\n");
query(q{SELECT polarbench_capture_start(application => 'pb_typed')});
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_typed', '-n', '-M', 'prepared', '-t', '2', '-f', $typed,
	'-D', 'num=12.50', '-D', 'word=hello', '-D', 'ts=2024-05-01 12:00:00+00', '-D', 'iv=1 day 02:00',
	'-D', 'nm=abc', '-D', 'mood=happy', 'postgres');
is($rc, 0, 'parameters of several types') or diag($err);
my ($typed_capture) = split /\|/, query(q{SELECT capture_id FROM polarbench_capture_stop()});
is(query(qq{SELECT parameters[1] || ' ' || parameters[2] || ' ' || parameters[3] || ' '
	  || (parameters[4]::timestamptz = '2024-05-01 12:00:00+00') || ' ' || parameters[5] || ' '
	  || parameters[6] || ' ' || parameters[7] || ' ' || array_to_string(parameter_types, ',')
	  FROM polarbench_capture_statements WHERE capture_id = $typed_capture AND statement LIKE 'SELECT \$1%' LIMIT 1}),
	'12.50 hello 12.5 true 1 day 02:00:00 abc happy numeric,text,double precision,timestamp with time zone,interval,name,mood',
	'each parameter\'s text, as its type writes it, with its type');

# 2. the replay changes the tables as the captured workload did
restore_tables('before');
my $run = query(qq{SELECT run_id FROM polarbench_run('replay', clients => 2,
	options => '{"capture": $capture, "speed": "max"}')});
is(query(qq{SELECT status || ' ' || (figures->'replay'->>'statements') || ' ' || (figures->'replay'->>'errors_as_logged')
	  || ' ' || (figures->'replay'->>'errors_not_logged') FROM polarbench_runs WHERE run_id = $run}),
	"finished $statements 1 0", 'the replay of the capture: every statement, the error as captured');
is(differences('after'), '0', 'the tables changed exactly as the captured workload changed them');

# 3. the bound: statements past max_size are counted, the sessions go on
query(q{SELECT polarbench_capture_start(application => 'pb_h', max_size => 4000)});
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_h', '-n', '-c', '1', '-t', '20', 'postgres');
is($rc, 0, 'pgbench goes on past the bound') or diag($err);
my ($out, $errout);
$node->psql('postgres', q{SELECT statements || ' ' || skipped FROM polarbench_capture_stop()},
	stdout => \$out, stderr => \$errout);
my ($kept, $over) = split / /, $out;
ok($kept > 0 && $over > 0 && $kept + $over >= 140, "the bound: $kept kept, $over counted past it");
like($errout, qr/NOTICE:  statements past the capture's bound left out: $over/, 'and said');
is(query(q{SELECT skipped_by->>'over_bound' FROM polarbench_captures ORDER BY capture_id DESC LIMIT 1}),
	$over, 'and recorded');

# several backends at once past the bound, each record in its backend's
# chunk of the buffer: four pgbench clients, each transaction a statement
# with a small parameter, one with a parameter and one with a text larger
# than a chunk (32 kB), each numbered by its client (k); under a bound of
# 1 MB most are dropped.  Every statement kept is as its client sent it,
# each session's in the order it sent them, and kept + dropped = sent.
my $clients = 4;
my $transactions = 40;
my $big_param = '0123456789' x 4000;
my $big_text = '9876543210' x 4000;
my $chunked = PolarbenchLog::script(PostgreSQL::Test::Utils::tempdir(), 'chunked.sql', qq{\\set k :k + 1
SELECT :client_id AS c, :k AS k, 1 AS part, :small AS pad;
SELECT :client_id AS c, :k AS k, 2 AS part, :big AS pad;
SELECT :client_id AS c, :k AS k, 3 AS part, '$big_text' AS pad;
});
query(q{SELECT polarbench_capture_start(application => 'pb_chunks', max_size => 1000000)});
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_chunks', '-n', '-M', 'prepared', '-c', $clients, '-j', $clients,
	'-t', $transactions, '-f', $chunked, '-D', 'k=0', '-D', 'small=small', '-D', "big=$big_param", 'postgres');
is($rc, 0, 'concurrent clients with statements larger than a chunk') or diag($err);
my ($chunks, $chunks_kept, $chunks_dropped) = split /\|/,
  query(q{SELECT capture_id, statements, skipped FROM polarbench_capture_stop()});
ok($chunks_kept > 0 && $chunks_dropped > 0, "kept $chunks_kept, dropped $chunks_dropped past the bound");
is($chunks_kept + $chunks_dropped, $clients * $transactions * 3, 'kept + dropped = the statements sent');
is(query(qq{SELECT count(*) FILTER (WHERE
		  CASE parameters[3]
		  WHEN 'small' THEN statement = 'SELECT \$1 AS c, \$2 AS k, 1 AS part, \$3 AS pad'
		  WHEN '$big_param' THEN statement = 'SELECT \$1 AS c, \$2 AS k, 2 AS part, \$3 AS pad'
		  ELSE statement = 'SELECT \$1 AS c, \$2 AS k, 3 AS part, ''$big_text'' AS pad'
			   AND cardinality(parameters) = 2 END
		  AND parameters[1]::int BETWEEN 0 AND $clients - 1
		  AND parameters[2]::int BETWEEN 1 AND $transactions) || ' ' || count(*)
		  FROM polarbench_capture_statements WHERE capture_id = $chunks}),
	"$chunks_kept $chunks_kept", 'every statement kept is intact, as its client sent it');
is(query(qq{SELECT count(*) FILTER (WHERE length(statement) > 32768 OR length(parameters[3]) > 32768) > 0
		  FROM polarbench_capture_statements WHERE capture_id = $chunks}),
	't', 'statements larger than a chunk are among those kept');
is(query(qq{SELECT count(*) FROM (
		SELECT parameters[1] AS c, parameters[2]::int AS k, substring(statement FROM ', (\\d) AS part')::int AS part,
			   lag(parameters[1]) OVER w AS prev_c, lag(parameters[2]::int) OVER w AS prev_k,
			   lag(substring(statement FROM ', (\\d) AS part')::int) OVER w AS prev_part
		  FROM polarbench_capture_statements WHERE capture_id = $chunks
		WINDOW w AS (PARTITION BY session_no ORDER BY statement_no)) s
	  WHERE prev_c IS NOT NULL AND (c <> prev_c OR (k, part) <= (prev_k, prev_part))}),
	'0', 'each session\'s statements of one client, in the order it sent them');
is(query(qq{SELECT count(DISTINCT parameters[1]) = count(DISTINCT session_no)
		  FROM polarbench_capture_statements WHERE capture_id = $chunks}),
	't', 'a session per client');

# a commit that fails on a deferred constraint, in a block and of a
# statement outside one: each statement kept once, the commit's error its own
query(q{CREATE TABLE deferred_k (k int UNIQUE DEFERRABLE INITIALLY DEFERRED);
		INSERT INTO deferred_k VALUES (1)});
query(q{SELECT polarbench_capture_start(application => 'pb_commit')});
{
	local $ENV{PGAPPNAME} = 'pb_commit';
	$node->psql('postgres', q{BEGIN; INSERT INTO deferred_k VALUES (1); COMMIT;});
	$node->psql('postgres', q{INSERT INTO deferred_k VALUES (1)});
	$node->psql('postgres', q{INSERT INTO deferred_k VALUES (2)});
}
my ($commits) = split /\|/, query(q{SELECT capture_id FROM polarbench_capture_stop()});
is(query(qq{SELECT string_agg(statement || ' ' || coalesce(sqlstate, 'ok'), ' / '
								ORDER BY session_no, statement_no)
			  FROM polarbench_capture_statements WHERE capture_id = $commits}),
	'BEGIN ok / INSERT INTO deferred_k VALUES (1) ok / COMMIT 23505 / '
	  . 'INSERT INTO deferred_k VALUES (1) 23505 / INSERT INTO deferred_k VALUES (2) ok',
	'a commit that fails: the COMMIT and the statement outside a block kept once, with the error');
is(query(qq{SELECT count(*) FROM polarbench_capture_statements
			 WHERE capture_id = $commits AND duration >= 0}),
	'5', '... each with its duration');

# 4. stop ends it
refused(q{SELECT * FROM polarbench_capture_stop()}, qr/55000: no capture through hooks is going on/,
	'stopped, there is none to stop');
{
	local $ENV{PGAPPNAME} = 'pb_h';
	query(q{SELECT 'not captured'});
}
query(q{SELECT polarbench_capture_start(application => 'pb_h')});
{
	local $ENV{PGAPPNAME} = 'pb_h';
	query(q{SELECT 'captured'});
	query(q{SELECT transactions FROM polarbench_run('select-only', clients => 1, transactions => 5)});
}
my ($last) = split /\|/, query(q{SELECT capture_id FROM polarbench_capture_stop()});
is(query(qq{SELECT string_agg(statement, ' / ' ORDER BY session_no) FROM polarbench_capture_statements WHERE capture_id = $last}),
	q{SELECT 'captured' / SELECT transactions FROM polarbench_run('select-only', clients => 1, transactions => 5)},
	'a capture keeps what ran between its start and its stop, not the statements of a run\'s clients');

# the filters by role (the session's) and database
query('CREATE DATABASE other');
query(q{SELECT polarbench_capture_start(database => 'postgres', role => 'alice')});
$node->safe_psql('postgres', q{SELECT 'alice here'}, extra_params => [ '-U', 'alice' ]);
$node->safe_psql('other', q{SELECT 'alice elsewhere'}, extra_params => [ '-U', 'alice' ]);
query(q{SELECT 'not alice'});
($last) = split /\|/, query(q{SELECT capture_id FROM polarbench_capture_stop()});
is(query(qq{SELECT string_agg(statement, ' / ') FROM polarbench_capture_statements WHERE capture_id = $last}),
	q{SELECT 'alice here'}, 'only the sessions of the role and the database given');
is(query(qq{SELECT filters FROM polarbench_captures WHERE capture_id = $last}),
	'{"role": "alice", "database": "postgres", "max_size": 4194304}', 'the filters recorded');

# 5. refusals and privileges
refused(q{SELECT polarbench_capture_start(max_size => 0)}, qr/22023: max_size must be positive/,
	'a bound that is none');
refused(q{SELECT polarbench_capture_start(database => 'nosuch')}, qr/3D000: database "nosuch" does not exist/,
	'a database that does not exist');
refused(q{SELECT polarbench_capture_start(role => 'nosuch')}, qr/42704: role "nosuch" does not exist/,
	'a role that does not exist');
refused(q{SET ROLE carol; SELECT polarbench_capture_start()},
	qr/42501: must be superuser or have privileges of the pg_read_server_files role to capture statements through hooks/,
	'without pg_read_server_files');
query(q{SET ROLE alice; SELECT polarbench_capture_start(application => 'pb_h')});
refused(q{SET ROLE carol; SELECT * FROM polarbench_capture_stop()},
	qr/42501: permission denied to stop the capture of role "alice"/, 'another role\'s capture');
{
	local $ENV{PGAPPNAME} = 'pb_h';
	query(q{SELECT 'alice captures'});
}
my ($alices) = split /\|/, query(q{SET ROLE alice; SELECT capture_id FROM polarbench_capture_stop()});
is(query(qq{SELECT captured_by || ' ' || format FROM polarbench_captures WHERE capture_id = $alices}),
	'alice hooks', 'a capture is its starter\'s');
refused(q{SET ROLE alice; SELECT * FROM polarbench_capture_stop()}, qr/55000: no capture through hooks is going on/,
	'and it is stopped');
$node->stop;

# 6. without shared_preload_libraries
my $plain = PostgreSQL::Test::Cluster->new('capture_plain');
$plain->init;
$plain->start;
$plain->safe_psql('postgres', 'CREATE EXTENSION polarbench');
$plain->psql('postgres', "\\set VERBOSITY verbose\nSELECT polarbench_capture_start()", stderr => \$errout);
like($errout, qr/55000: a capture through hooks needs polarbench in shared_preload_libraries.*HINT:  Add polarbench to shared_preload_libraries/s,
	'without shared_preload_libraries: a clear error with a hint');
$plain->stop;
done_testing();
