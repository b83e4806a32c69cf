# The client's comparisons and the sweeps' intervals: --compare A,B C,D
# prints polarbench_compare() as a table (its rows, then each row's method
# and notes), as JSON and CSV with --report, and draws both sides' runs on
# the same axes with --svg; a sweep with --repeat shows each cell's 95%
# interval and its mark against the first setting set, in the table, in
# JSON and in the chart.  The runs compared are synthetic (stored with
# polarbench_record, their progress known) or compared only as far as
# timing cannot change the answer; the marks of a real sweep are checked
# against the server's own polarbench_compare_figures() of the same runs.
use strict;
use warnings;
use IPC::Run;
use JSON::PP;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $bin = "$ENV{TESTDIR}/src/bin/polarbench/polarbench";
plan skip_all => "client not built: $bin" unless -x $bin;

my $node = PostgreSQL::Test::Cluster->new('compare');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION polarbench;
	SELECT polarbench_init('pgbench', scale => 1)});
$ENV{PGHOST} = $node->host;
$ENV{PGPORT} = $node->port;
$ENV{PGDATABASE} = 'postgres';
my $tmp = PostgreSQL::Test::Utils::tempdir;

# A synthetic run of n one-second intervals at tps (1% noise), latencies
# in four buckets around latency ms, stored as this server's run.
sub synthetic
{
	my ($tps, $latency, $n) = @_;
	return $node->safe_psql('postgres', qq{
	SELECT polarbench_record(jsonb_build_object(
		'run', jsonb_build_object(
			'workload', 'select-only', 'scripts', jsonb_build_array('SELECT 1;'),
			'weights', jsonb_build_array(1), 'clients', 1, 'duration', $n,
			'progress_interval', 1, 'random_seed', 1, 'status', 'finished',
			'started_at', '2024-01-01 00:00:00+00', 'ended_at', '2024-01-01 01:00:00+00',
			'seconds', $n, 'transactions', $tps * $n, 'tps', $tps, 'qps', $tps,
			'latency_avg', $latency, 'latency_p50', $latency, 'latency_p95', 2 * $latency,
			'latency_p99', 5 * $latency, 'counters_only', false, 'warmup', 0),
		'progress', (SELECT jsonb_agg(jsonb_build_object(
				'elapsed', i, 'transactions', round($tps * f), 'tps', $tps * f, 'qps', $tps * f,
				'failed', 0, 'latency_avg', $latency / f,
				'latency_histogram', jsonb_build_array(
					round($latency / f * 0.5e6), round($tps * f * 0.40),
					round($latency / f * 1e6), round($tps * f * 0.45),
					round($latency / f * 2e6), round($tps * f * 0.13),
					round($latency / f * 5e6), round($tps * f * 0.02))) ORDER BY i)
			  FROM generate_series(1, $n) i,
				   LATERAL (SELECT 1 + 0.01 * sin(1.7 * i) AS f) x)), 'synthetic')});
}

my $run_a = synthetic(1000, 1, 30);
my $run_b = synthetic(1100, 1 / 1.1, 30);

# 1. a table: a row per metric, B 10% faster, then methods and notes
my ($out, $err) = ('', '');
IPC::Run::run([ $bin, '--compare', $run_a, $run_b ], '>', \$out, '2>', \$err)
  or die "--compare failed: $err";
like($out, qr/^comparison of runs $run_a \(A\) with runs $run_b \(B\): the ratio B\/A with its 95% interval\n/,
	'--compare: says what it compares');
like($out, qr/^metric +\| of +\| A +\| B +\| B\/A +\| 95% interval +\| verdict\n-+\+/m,
	'--compare: the table\'s header');
like($out, qr/^tps +\| +\| +1000\.\d \| +1100\.\d \| +1\.100 \| +1\.0\d\d \.\. 1\.1\d\d \| faster$/m,
	'--compare: B is faster, about 1.10 times');
like($out, qr/^latency_p99 +\| +\| +[\d.]+ \| +[\d.]+ \| +0\.9\d\d \| +0\.\d+ \.\. 0\.\d+ \| faster$/m,
	'--compare: and its p99 latency shorter');
like($out, qr/^tps: batch means: run $run_a in \d+ batches of \d+ intervals \(\d+ s\), run $run_b in \d+ of \d+ \(\d+ s\), [\d.]+ df\.$/m,
	'--compare: each row\'s method under the table');
like($out, qr/^latency_p50: block bootstrap of the intervals' histograms: 1000 resamples/m,
	'--compare: percentiles from the bootstrap');

# 2. as data
($out, $err) = ('', '');
IPC::Run::run([ $bin, '--compare', $run_a, $run_b, '--report', 'json', '--threshold', '0.2' ], '>', \$out, '2>', \$err)
  or die "--compare --report json failed: $err";
my $doc = decode_json($out);
is(join(' ', @{ $doc->{a} }, '|', @{ $doc->{b} }, '|', $doc->{threshold}), "$run_a | $run_b | 0.2",
	'json: the sides and the threshold');
is(join(' ', map { $_->{metric} } grep { !defined $_->{part} } @{ $doc->{rows} }),
	'tps qps latency_avg latency_p50 latency_p95 latency_p99', 'json: a row per metric, in order');
is($doc->{rows}[0]{verdict}, 'equivalent', 'json: within 20%, equivalent');
ok(abs($doc->{rows}[0]{ratio} - 1.1) < 0.001 && $doc->{rows}[0]{ratio_low} < 1.1
	  && $doc->{rows}[0]{ratio_high} > 1.1, 'json: the ratio and its interval');
is(scalar(grep { ($_->{part} // '') eq '1.1: SELECT 1;' } @{ $doc->{rows} }), 0,
	'json: no statement of synthetic runs, which have none');
($out, $err) = ('', '');
IPC::Run::run([ $bin, '--compare', "$run_a", "$run_b", '--report', 'csv' ], '>', \$out, '2>', \$err)
  or die "--compare --report csv failed: $err";
like($out, qr/^metric,part,value_a,value_b,ratio,ratio_low,ratio_high,verdict,method,runs_needed,note\r\ntps,,1000/,
	'csv: the rows with a header');

# 3. drawn: every run of both sides, throughput and p99, the same axes
my $c = synthetic(900, 1.2, 20);
command_ok([ $bin, '--compare', "$run_a,$c", $run_b, '--svg', "$tmp/compare.svg" ], '--compare --svg');
my $svg = slurp_file("$tmp/compare.svg");
is(join(', ', $svg =~ /<polyline class="series" data-label="([^"]*)"/g),
	"A: run $run_a, A: run $c, B: run $run_b, A: run $run_a, A: run $c, B: run $run_b",
	'svg: a line per run in each panel');
like($svg, qr/class="y-label"[^>]*>transactions per second \(tps\)<.*class="y-label"[^>]*>p99 latency \(ms\)</s,
	'svg: throughput and p99 latency');
my ($points) = $svg =~ /<polyline class="series" data-label="B: run $run_b"[^>]*points="([^"]*)"/;
is(scalar(() = $points =~ /,/g), 30, 'svg: a point per progress row');

# 4. real runs: one against itself, select-only against tpcb-like; runs on
# both sides refused
my @s = map { $node->safe_psql('postgres',
	q{SELECT run_id FROM polarbench_run('select-only', duration => 1)}) } 1 .. 3;
my @t = map { $node->safe_psql('postgres',
	q{SELECT run_id FROM polarbench_run('tpcb-like', duration => 1)}) } 1 .. 3;
($out, $err) = ('', '');
IPC::Run::run([ $bin, '--compare', $s[0], $s[0] ], '>', \$out, '2>', \$err)
  or die "--compare of a run with itself failed: $err";
like($out, qr/^comparison of runs $s[0] \(A\) with runs $s[0] \(B\)/,
	'a run against itself alone is compared');
unlike($out, qr/\| (faster|slower|no difference shown|equivalent)$/m,
	'with no verdict, as it has no progress rows');
like($out, qr/run $s[0] has no progress rows: with one run a side, the runs need progress => 1 or more/,
	'and the note says why');
command_fails_like([ $bin, '--compare', join(',', @s[0, 1]), join(',', @s[1, 2]) ],
	qr/^polarbench: error: run $s[1] is on both sides$/m, 'a run on both sides: the server\'s error');
($out, $err) = ('', '');
IPC::Run::run([ $bin, '--compare', join(',', @s), join(',', @t) ], '>', \$out, '2>', \$err)
  or die "--compare of select-only and tpcb-like failed: $err";
like($out, qr/^tps +\| +\| .* \| slower$/m, 'tpcb-like is slower than select-only');
like($err, qr/NOTICE:  the statements' and operations' figures are left out: the runs are of different workloads/,
	'the statements of different workloads left out, and said so');

# 5. a sweep with repetitions: intervals, marks, against the server's
($out, $err) = ('', '');
IPC::Run::run([ $bin, '-n', '-S', '-c', '1,2', '-t', '50', '--set', 'work_mem=4MB',
	'--set', 'work_mem=8MB', '--repeat', '3' ], '>', \$out, '2>', \$err)
  or die "sweep failed: $err";
like($out, qr/^tps by clients \(rows\) and setting set \(columns\): <builtin: select only>, 50 transactions per client, geometric mean of 3 and its 95% interval, marked against the first setting set\n/,
	'sweep: its cells are intervals, marked');
like($out, qr/^ +1 \| +\d+\.\d \[\d+\.\d, \d+\.\d\] \| +\d+\.\d \[\d+\.\d, \d+\.\d\] (faster|slower|no difference shown)$/m,
	'sweep: each cell\'s interval, the second set\'s marked');
my ($mark) = $out =~ /^ +2 \|[^|]+\|.*\] (faster|slower|no difference shown)$/m;
my $server_mark = $node->safe_psql('postgres', q{
	WITH r AS (SELECT * FROM polarbench_runs ORDER BY run_id DESC LIMIT 12)
	SELECT verdict FROM polarbench_compare_figures(
		(SELECT array_agg(tps) FROM r WHERE clients = 2 AND settings->>'work_mem' = '4MB'),
		(SELECT array_agg(tps) FROM r WHERE clients = 2 AND settings->>'work_mem' = '8MB'))});
is($mark, $server_mark, 'sweep: the client\'s mark is the server\'s');
($out, $err) = ('', '');
IPC::Run::run([ $bin, '-n', '-S', '-c', '1', '-t', '50', '--set', 'work_mem=4MB',
	'--set', 'work_mem=8MB', '--repeat', '2', '--report', 'json' ], '>', \$out, '2>', \$err)
  or die "sweep json failed: $err";
$doc = decode_json($out);
ok(ref $doc->{intervals}[0][0] eq 'ARRAY' && $doc->{intervals}[0][0][0] <= $doc->{table}[0][0]
	  && $doc->{table}[0][0] <= $doc->{intervals}[0][0][1], 'sweep json: a cell\'s interval holds its center');
ok(!defined $doc->{marks}[0][0] && $doc->{marks}[0][1] =~ /^(faster|slower|no difference shown)$/,
	'sweep json: the marks against the first set');
command_ok([ $bin, '-n', '-S', '-c', '1,2', '-t', '50', '--set', 'work_mem=4MB', '--set', 'work_mem=8MB',
	'--repeat', '2', '--svg', "$tmp/sweep.svg" ], 'sweep --svg with repetitions');
$svg = slurp_file("$tmp/sweep.svg");
is(scalar(() = $svg =~ /<path class="interval" data-label="work_mem=\dMB" d="M[\d.]+ [\d.]+V[\d.]+/g), 4,
	'sweep chart: each point drawn with its interval');

# 6. what --compare refuses
command_fails_like([ $bin, '--compare', '1,x', '2' ], qr/invalid run id "x" in --compare/, 'a bad run id');
command_fails_like([ $bin, '--compare', '1,,2', '3' ], qr/^polarbench: error: empty run id in --compare "1,,2"$/m,
	'an empty run id between two');
command_fails_like([ $bin, '--compare', '1', '2,' ], qr/empty run id in --compare "2,"/,
	'an empty run id at the end');
command_fails_like([ $bin, '--compare', ',1', '2' ], qr/empty run id in --compare ",1"/,
	'an empty run id at the start');
command_fails_like([ $bin, '--compare', '1' ], qr/--compare needs the run ids of two sides/, 'one side');
command_fails_like([ $bin, '--compare', '1', '2', '-c', '4' ],
	qr/--compare cannot be used with options of a run, a load or a list/, 'a run\'s option');
command_fails_like([ $bin, '--compare', '1', '2', '--report', 'pgbench' ],
	qr/--compare reports as a table, json, csv or html, not as pgbench/, 'a report style of a run');
command_fails_like([ $bin, '--compare', '1', '2', '--threshold', '2' ],
	qr/invalid value "2" for option --threshold/, 'a threshold of 200%');
command_fails_like([ $bin, '-S', '--threshold', '0.05' ], qr/--threshold is used with --compare/,
	'a threshold without --compare');
command_fails_like([ $bin, '-h', "$ENV{PGHOST},$ENV{PGHOST}", '--compare', '1', '2' ],
	qr/--compare compares the runs of one node/, 'several nodes');
command_fails_like([ $bin, '--compare', '999999', $run_a ], qr/run 999999 does not exist/,
	'a run that does not exist: the server\'s error');
command_fails_like([ $bin, '--compare', "$run_a,$run_a", $run_b ], qr/run $run_a is on side A twice/,
	'a run twice on a side');

# where the runs ran: --environment prints it after the report, and a
# comparison of runs whose environments differ says where
$node->safe_psql('postgres', q{ALTER DATABASE postgres SET work_mem = '3MB'});
my ($env_out, $env_err);
IPC::Run::run([ $bin, '-n', '-S', '-t', '2', '--environment' ], '>', \$env_out, '2>', \$env_err);
like($env_out, qr/^environment:\n  server: PostgreSQL \d+/m, '--environment prints where the run ran');
like($env_out, qr/^  data set: pgbench scale 1; tables pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers; /m,
	'with its data set');
like($env_out, qr/^  settings: .*work_mem = 3MB/m, 'and the database\'s settings');
my $env_a = $node->safe_psql('postgres', 'SELECT max(run_id) FROM polarbench_runs');
$node->safe_psql('postgres', q{ALTER DATABASE postgres SET work_mem = '7MB'});
IPC::Run::run([ $bin, '-n', '-S', '-t', '2' ], '>', \$env_out, '2>', \$env_err);
unlike($env_out, qr/^environment:/m, 'not without --environment');
my $env_b = $node->safe_psql('postgres', 'SELECT max(run_id) FROM polarbench_runs');
$node->safe_psql('postgres', q{ALTER DATABASE postgres RESET work_mem});
IPC::Run::run([ $bin, '--compare', $env_a, $env_b ], '>', \$env_out, '2>', \$env_err);
like($env_out, qr/^environment \| settings\.work_mem +\|/m, '--compare has a row where the environments differ');
like($env_out, qr/^environment of settings\.work_mem: Note: A: 3MB; B: 7MB\.$/m, 'with both sides\' values');

$node->stop;
done_testing();
