# The replay of a logged workload against tables with a row trigger that
# writes to another table, a rule (DO ALSO) and a deferred unique
# constraint that fails at the commit of one logged transaction: put back
# as they were before, the tables are changed by the replay exactly as by
# the logged workload (the trigger's and the rule's rows too), and the
# failed commit is counted as the log showed it (an error as logged, none
# that the log did not have).  Then a replay whose trigger sleeps (600 s
# in a replay's client) with a duration shorter than the replay: the run
# ends at its duration and polarbench.end_grace, the transaction held is
# rolled back and counted cut off, no worker is left.  The sleep is far
# longer than the test's timeout, so a run that did not end makes the test
# fail whatever the machine's speed; nothing else depends on timing.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use PolarbenchLog;

my $node = PostgreSQL::Test::Cluster->new('replay_triggers');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->append_conf('postgresql.conf', PolarbenchLog::csvlog_conf('replay'));
$node->start;

sub query { return $node->safe_psql('postgres', $_[0]); }

query(q{
	CREATE EXTENSION polarbench;
	CREATE TABLE orders (id int PRIMARY KEY, amount int);
	CREATE TABLE audit (order_id int, amount int, doubled int);
	CREATE FUNCTION audit_order() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		INSERT INTO audit VALUES (NEW.id, NEW.amount, NEW.amount * 2);
		RETURN NEW;
	END $$;
	CREATE TRIGGER audit_order AFTER INSERT OR UPDATE ON orders
		FOR EACH ROW EXECUTE FUNCTION audit_order();
	CREATE TABLE notes (id int, body text);
	CREATE TABLE notes_copy (id int, body text);
	CREATE RULE copy_note AS ON INSERT TO notes DO ALSO
		INSERT INTO notes_copy VALUES (NEW.id, upper(NEW.body));
	CREATE TABLE keys (k int UNIQUE DEFERRABLE INITIALLY DEFERRED);
	CREATE TABLE slow (n int);
	CREATE TABLE marks (note text)});

my @tables = qw(orders audit notes notes_copy keys slow);

# Every table's rows, in one text.
sub contents
{
	return query(join ' UNION ALL ',
		map { "SELECT '$_', string_agg(t::text, ',' ORDER BY t::text) FROM $_ t" } @tables);
}

# 1. the logged workload: the trigger's, the rule's and the deferred
# constraint's, whose check fails at the commit of the second transaction
my $mark = query('SELECT clock_timestamp()');
{
	local $ENV{PGAPPNAME} = 'pb_trig';
	$node->psql('postgres', q{
INSERT INTO orders VALUES (1, 10), (2, 20);
UPDATE orders SET amount = amount + 5 WHERE id = 2;
INSERT INTO notes VALUES (1, 'first'), (2, 'second');
BEGIN;
INSERT INTO keys VALUES (1);
INSERT INTO orders VALUES (3, 30);
COMMIT;
BEGIN;
INSERT INTO keys VALUES (2);
INSERT INTO keys VALUES (2);
INSERT INTO orders VALUES (4, 40);
COMMIT;
INSERT INTO keys VALUES (3);
INSERT INTO slow VALUES (1);
}, on_error_stop => 0);
}
my $after = contents();
like($after, qr/^orders\|\(1,10\),\(2,25\),\(3,30\)$/m,
	'the workload: the transaction that failed at its commit left nothing');
like($after, qr/^keys\|\(1\),\(3\)$/m, 'the deferred constraint failed at the commit');
my $end = query('SELECT clock_timestamp()');
query("INSERT INTO marks VALUES ('replay-marker')");
PolarbenchLog::wait_for_marker($node, 'log/replay.csv', 'replay-marker');

my ($capture, $statements, $errors) = split /\|/, query(qq{
	SELECT capture_id, statements, errors FROM polarbench_capture_log('log/replay.csv',
		application => 'pb_trig', since => '$mark', until => '$end')});
is("$statements $errors", '14 1', 'the capture: every statement, the failed commit its error');
is(query(qq{SELECT statement || ' ' || sqlstate FROM polarbench_capture_statements
	  WHERE capture_id = $capture AND error IS NOT NULL}), 'COMMIT; 23505',
	'the commit failed on the deferred unique constraint');

# 2. the replay on the tables as they were before
query('TRUNCATE ' . join(', ', @tables));
my $run = query(qq{SELECT run_id FROM polarbench_run('replay', clients => 1,
	options => '{"capture": $capture, "speed": "max"}')});
is(query(qq{SELECT status || ' ' || (figures->'replay'->>'statements') || ' '
	  || (figures->'replay'->>'errors_as_logged') || ' ' || (figures->'replay'->>'errors_not_logged')
	  FROM polarbench_runs WHERE run_id = $run}),
	'finished 14 1 0', 'the replay: every statement, the failed commit counted as the log showed it');
is(contents(), $after, 'the tables, the trigger\'s and the rule\'s rows changed as the workload changed them');

# 3. a slow trigger: in a replay's client, it sleeps 600 s
query(q{
	CREATE FUNCTION hold_replay() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		IF (SELECT application_name FROM pg_stat_activity WHERE pid = pg_backend_pid())
			 LIKE 'polarbench client%' THEN
			PERFORM pg_sleep(600);
		END IF;
		RETURN NEW;
	END $$;
	CREATE TRIGGER hold BEFORE INSERT ON slow FOR EACH ROW EXECUTE FUNCTION hold_replay();
	TRUNCATE orders, audit, notes, notes_copy, keys, slow});
my ($ret, $out, $err) = $node->psql('postgres', qq{
	SET polarbench.end_grace = '1s';
	SELECT run_id FROM polarbench_run('replay', clients => 1, duration => 2,
		options => '{"capture": $capture, "speed": "max"}') \\gset
	SELECT status || ' ' || coalesce(cut_off::text, '-') || ' ' || coalesce(end_grace::text, '-') || ' '
		   || (ended_at - started_at < interval '300 s')
	  FROM polarbench_runs WHERE run_id = :run_id},
	timeout => $PostgreSQL::Test::Utils::timeout_default);
is($out, 'finished 1 1 true',
	'a replay held in a slow trigger ends at its duration and grace, the held transaction cut off')
  or diag($err);
is(query(q{SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'polarbench%'}), '0',
	'no worker is left');
is(query('SELECT count(*) FROM slow'), '0', 'the held transaction is rolled back');
like(contents(), qr/^orders\|\(1,10\),\(2,25\),\(3,30\)$/m, 'what ran before it is kept');
$node->stop;
done_testing();
