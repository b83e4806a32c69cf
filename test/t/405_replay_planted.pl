# Nothing a role plants on the search path of the superuser who captures
# and replays a log runs in what polarbench runs for it.  A low role plants,
# in its schema on the superuser's path, what sql/run_planted.sql plants
# (its plant() function, read from that file): an operator for each
# comparison and arithmetic operator over every pair of the data sets'
# types, count, sum, min, max and avg of each, the string functions of
# varchar and bpchar, domains named as the types.  Real pgbench writes a
# log with the simple and the extended protocol; the superuser reads it,
# replays it (as the run's role and as the logged roles), and reads every
# view and report of the capture and the replay: nothing planted ran, and
# the replay ran every statement without an error the log does not show.
# (The logged statements are the application's own: they resolve along the
# run's path as the application's did, pg_catalog first, where pgbench's
# have exact matches.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use PolarbenchLog;

my $node = PostgreSQL::Test::Cluster->new('replay_planted');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->append_conf('postgresql.conf',
	PolarbenchLog::csvlog_conf('planted', 'log_rotation_size = 0', 'log_min_duration_statement = 0'));
$node->start;

sub query { return $node->safe_psql('postgres', $_[0]); }

# the planting function of sql/run_planted.sql, as it is there
open my $fh, '<', 'sql/run_planted.sql' or die "could not read sql/run_planted.sql: $!";
my $planted_sql = do { local $/; <$fh> };
close $fh;
my ($plant) = $planted_sql =~ /(CREATE FUNCTION regress_pb_evil\.plant\(.*?\$plant\$;)/s
  or die 'no plant() in sql/run_planted.sql';

query(q{CREATE EXTENSION polarbench;
	CREATE ROLE regress_pb_mallory;
	CREATE SCHEMA regress_pb_evil AUTHORIZATION regress_pb_mallory});

my ($rc, $err) = PolarbenchLog::pgbench($node, 'pb_init', '-i', '-s', '1', 'postgres');
is($rc, 0, 'pgbench -i') or diag($err);
query('CREATE SCHEMA saved; CREATE TABLE saved.accounts AS SELECT * FROM pgbench_accounts;
	CREATE TABLE saved.branches AS SELECT * FROM pgbench_branches;
	CREATE TABLE saved.tellers AS SELECT * FROM pgbench_tellers');
my $mark = query('SELECT clock_timestamp()');
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_p_simple', '-n', '-M', 'simple', '-c', '2', '-t', '20', 'postgres');
is($rc, 0, 'tpcb-like, simple protocol') or diag($err);
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_p_extended', '-n', '-M', 'extended', '-c', '2', '-t', '10', '-S',
	'postgres');
is($rc, 0, 'select-only, extended protocol') or diag($err);
$node->poll_query_until('postgres', q{
	SELECT count(*) = 0 FROM pg_stat_activity WHERE application_name LIKE 'pb\_p\_%'})
  or die 'the sessions of the workload did not end';
my $end = query('SELECT clock_timestamp()');

is(query("SET ROLE regress_pb_mallory; $plant
	SELECT regress_pb_evil.plant('regress_pb_evil') > 450"), 't', 'planted');
my $ran = q{SELECT (SELECT is_called FROM regress_pb_evil.ran_count) || ' '
	|| COALESCE((SELECT string_agg(DISTINCT what, ', ') FROM regress_pb_evil.ran_log), '')};
is(query($ran), 'false ', 'nothing planted ran yet');

# the superuser's path: the tables, then the planter's schema
my $path = 'SET search_path = public, regress_pb_evil;';
my ($capture) = split /\|/, query(qq{$path
	SELECT capture_id FROM polarbench_capture_log('log/planted.csv',
		since => '$mark', until => '$end')});
is(query(qq{SELECT sessions >= 4 AND statements > 100 FROM polarbench_captures
	WHERE capture_id = $capture}), 't', 'the capture read with the planted path');

query('TRUNCATE pgbench_history; UPDATE pgbench_accounts a SET abalance = s.abalance FROM saved.accounts s
	WHERE a.aid = s.aid; UPDATE pgbench_branches b SET bbalance = s.bbalance FROM saved.branches s
	WHERE b.bid = s.bid; UPDATE pgbench_tellers t SET tbalance = s.tbalance FROM saved.tellers s
	WHERE t.tid = s.tid');
my @runs;
for my $roles ('false', 'true')
{
	push @runs, query(qq{$path
		SELECT run_id FROM polarbench_run('replay', clients => 2,
			options => '{"capture": $capture, "speed": "max", "roles": $roles}')});
	query(qq{$path SELECT polarbench_report($runs[-1])});
}
is(query(qq{SELECT string_agg(status || ' ' || (figures->'replay'->>'errors_not_logged'), ',' ORDER BY run_id)
	FROM polarbench_runs WHERE run_id IN ($runs[0], $runs[1])}), 'finished 0,finished 0',
	'replayed as the run\'s role and as the logged roles, with no error the log does not show');
is(query('SELECT count(*) FROM pgbench_history'), 2 * 40, 'each replay wrote its history rows');

# every view and report of the capture and the runs, with the planted path
query(qq{$path
	SELECT count(*) FROM polarbench_captures;
	SELECT count(*) FROM polarbench_capture_sessions;
	SELECT count(*) FROM polarbench_capture_statements;
	SELECT count(*) FROM polarbench_capture_shapes;
	SELECT count(*) FROM polarbench_operations WHERE run_id IN ($runs[0], $runs[1]);
	SELECT polarbench_report($runs[0], 'replay');
	SELECT count(*) FROM polarbench_compare($runs[0], $runs[1]);
	SELECT length(polarbench_report_html($runs[1])) > 0});
is(query($ran), 'false ', 'nothing planted ran');

is(query(qq{$path SELECT polarbench_capture_drop($capture)}), 't', 'the capture dropped');
is(query($ran), 'false ', 'nothing planted ran in the drop');

# and what is planted runs where a statement resolves to it: the check sees it
query(qq{$path SELECT 'a'::varchar = 'a'::text});
is(query($ran), 'true operator varchar = text', 'a planted operator that runs is seen');

$node->stop;
done_testing();
