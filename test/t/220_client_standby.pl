# Runs across a primary and its streaming standby, on loopback: the
# extension runs read-only workloads on a hot standby without storing them
# (negative run ids, the run's document kept by the session) and refuses
# writing ones before they start; the client runs on both nodes at once,
# stores the standby's run on the primary marked with its node, and adds
# the nodes up: totals equal to the sum of the nodes' runs, and the merged
# p99 equal to the p99 of the merged histograms.
use strict;
use warnings;
use IPC::Run;
use JSON::PP;
use POSIX qw(ceil);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $bin = "$ENV{TESTDIR}/src/bin/polarbench/polarbench";
plan skip_all => "client not built: $bin" unless -x $bin;
my $tmp = PostgreSQL::Test::Utils::tempdir;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$primary->start;
$primary->safe_psql('postgres', q{
	CREATE EXTENSION polarbench;
	SELECT polarbench_init('pgbench', scale => 1);
	SELECT polarbench_init('ycsb', records => 200)});
$primary->backup('backup');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'backup', has_streaming => 1);
$standby->start;
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', 'SELECT pg_is_in_recovery()'), 't', 'a hot standby');

# 1. the extension on a hot standby
is($standby->safe_psql('postgres', q{
	SELECT run_id < 0, transactions, clients
	  FROM polarbench_run('select-only', clients => 2, transactions => 10)}),
	't|20|2', 'a read-only run on the standby, with a negative id');
is($standby->safe_psql('postgres', q{
	SELECT run_id FROM polarbench_run('select-only', transactions => 7) \gset
	SELECT d->'run'->>'status', d->'run'->>'transactions', d->'run'->>'workload',
	       (SELECT sum((h->>'transactions')::bigint) FROM jsonb_array_elements(d->'histogram') h),
	       jsonb_array_length(d->'statements'), (d->'run'->>'run_id')::bigint = :run_id
	  FROM polarbench_run_document(:run_id) d}),
	'finished|7|select-only|7|2|t', 'its document: the run, its histogram and statements');
is($standby->safe_psql('postgres', q{
	SELECT transactions FROM polarbench_run(script => E'SET enable_seqscan = off;\nSHOW work_mem;\nSELECT 1;', transactions => 3)}),
	'3', 'a script with SET and SHOW, which a standby runs');
is($standby->safe_psql('postgres', q{
	SELECT transactions FROM polarbench_run('ycsb-c', transactions => 5)}),
	'5', 'YCSB\'s read-only workload C on the standby');
my ($ret, $out, $err) = $standby->psql('postgres', q{SELECT polarbench_run('tpcb-like', transactions => 1)});
like($err, qr/ERROR:  script "tpcb-like" writes, and a hot standby runs only read-only workloads\nDETAIL:  Line \d+: UPDATE pgbench_accounts/,
	'a writing built-in is refused before it starts');
($ret, $out, $err) = $standby->psql('postgres', q{SELECT polarbench_run(script => 'SELECT 1; UPDATE pgbench_branches SET bbalance = 0;', transactions => 1)});
like($err, qr/ERROR:  script .* writes, and a hot standby runs only read-only workloads/,
	'a writing custom script is refused');
($ret, $out, $err) = $standby->psql('postgres', q{SELECT polarbench_run('ycsb-a', transactions => 1)});
like($err, qr/ERROR:  workload "ycsb-a" writes, and a hot standby runs only read-only workloads/,
	'a writing YCSB workload is refused');
($ret, $out, $err) = $standby->psql('postgres', q{SELECT polarbench_start('select-only', transactions => 1)});
like($err, qr/ERROR:  polarbench_start cannot run on a hot standby/, 'no background run on a standby');
($ret, $out, $err) = $standby->psql('postgres', q{SELECT polarbench_run_document(-1)});
like($err, qr/ERROR:  unstored run -1 is not kept in this session/, 'an unknown unstored run');
($ret, $out, $err) = $standby->psql('postgres', q{SELECT polarbench_record('{}', 'x')});
like($err, qr/ERROR:  cannot store a run on a hot standby/, 'nothing is stored on a standby');
ok($standby->poll_query_until('postgres', q{
	SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type LIKE 'polarbench%'}),
	'no worker left on the standby');

# polarbench_record's checks, on the primary
($ret, $out, $err) = $primary->psql('postgres', q{SELECT polarbench_record('{"run": {}}', 'x')});
like($err, qr/ERROR:  the document holds no run/, 'a document without a run');
($ret, $out, $err) = $primary->psql('postgres', q{SELECT polarbench_record('{"run": ["status", "finished"]}', 'x')});
like($err, qr/ERROR:  the document holds no run/, 'a run that is no object');
($ret, $out, $err) = $primary->psql('postgres', q{
	SELECT polarbench_record('{"run": {"workload": "w", "status": "running"}}', 'x')});
like($err, qr/ERROR:  the document's run is "running", not ended/, 'a run that has not ended');
($ret, $out, $err) = $primary->psql('postgres', q{SELECT polarbench_record('{}', '')});
like($err, qr/ERROR:  node must not be empty/, 'no node');
$primary->safe_psql('postgres', 'CREATE ROLE carol LOGIN');
($ret, $out, $err) = $primary->psql('postgres', q{SELECT polarbench_record('{}', 'x')},
	extra_params => [ '-U', 'carol' ]);
like($err, qr/permission denied for function polarbench_record/, 'only for roles granted it');

# 2. the client on both nodes at once
my $hosts = join(',', $primary->host, $standby->host);
my $ports = join(',', $primary->port, $standby->port);
my $standby_label = $standby->host . ':' . $standby->port;
$ENV{PGDATABASE} = 'postgres';
my $runs_before = $primary->safe_psql('postgres', 'SELECT coalesce(max(run_id), 0) FROM polarbench_runs');
($out, $err) = ('', '');
IPC::Run::run([ $bin, '-h', $hosts, '-p', $ports, '-S', '-c', '2', '-t', '50', '--report', 'json' ],
	'>', \$out, '2>', \$err) or die "the run on two nodes failed: $err";
my $doc = decode_json($out);
is(join(' ', map { $_->{role} } @{ $doc->{nodes} }), 'primary standby', 'both nodes ran');
my $stored = decode_json($primary->safe_psql('postgres', qq{
	SELECT json_agg(json_build_object('run_id', run_id, 'node', node, 'transactions', transactions,
	                                  'tps', tps, 'qps', qps, 'statements', statements) ORDER BY run_id)
	  FROM polarbench_runs WHERE run_id > $runs_before}));
is(scalar(@$stored), 2, 'the primary stored both runs');
is($stored->[1]{node}, $standby_label, 'the standby\'s run, marked with its node');
is($stored->[1]{run_id}, $stored->[0]{run_id} + 1, 'stored with the next run id, none used up');
is($stored->[0]{node}, undef, 'the primary\'s own run, unmarked');
is($doc->{nodes}[1]{stored_run_id}, $stored->[1]{run_id}, 'the client says where it stored it');
is($doc->{total}{transactions}, $stored->[0]{transactions} + $stored->[1]{transactions},
	'total transactions: the sum of the nodes\' runs');
is($doc->{total}{transactions}, 200, 'two nodes of two clients of 50');
ok(abs($doc->{total}{tps} - ($stored->[0]{tps} + $stored->[1]{tps})) < 1e-6 * $doc->{total}{tps},
	'total tps: the sum of the nodes\' runs');
ok(abs($doc->{total}{qps} - ($stored->[0]{qps} + $stored->[1]{qps})) < 1e-6 * $doc->{total}{qps},
	'total qps: the sum of the nodes\' runs');
is($doc->{total}{statements}, $stored->[0]{statements} + $stored->[1]{statements},
	'total statements: the sum');

# the p99 of the merged histograms: nearest rank, a bucket's middle
my @buckets = split /\n/, $primary->safe_psql('postgres', qq{
	SELECT latency_from, latency_to, sum(transactions) FROM polarbench_histograms
	 WHERE run_id IN ($stored->[0]{run_id}, $stored->[1]{run_id})
	 GROUP BY 1, 2 ORDER BY 1});
my $count = 0;
$count += (split /\|/)[2] foreach @buckets;
is($count, 200, 'the merged histogram holds every transaction');
my $rank = ceil(0.99 * $count);
my ($seen, $p99) = (0, undef);
foreach (@buckets)
{
	my ($from, $to, $n) = split /\|/;
	$seen += $n;
	if ($seen >= $rank)
	{
		my $width_ns = sprintf('%.0f', ($to - $from) * 1e6);
		$p99 = $width_ns == 1 ? $from : $from + ($to - $from) / 2;
		last;
	}
}
ok(abs($doc->{total}{latency_p99} - $p99) <= 1e-9 * $p99,
	"merged p99 ($doc->{total}{latency_p99} ms) is the p99 of the merged histogram ($p99 ms)");

# the text report, with the nodes' progress named
command_checks_all(
	[ $bin, '-h', $hosts, '-p', $ports, '-S', '-c', '1', '-T', '2', '-P', '1' ],
	0,
	[ qr/^node \Q$standby_label\E \(standby\): run -\d+, not stored there; stored on the primary as run \d+$/m,
	  qr/^number of nodes: 2$/m,
	  qr/^latency percentiles \(merged histograms\): p50 = [\d.]+ ms, p90 = [\d.]+ ms, p95 = [\d.]+ ms, p99 = [\d.]+ ms, p99\.9 = [\d.]+ ms, max = [\d.]+ ms$/m ],
	[ qr/^\Q$standby_label\E: progress: 1\.0 s, /m ],
	'two nodes, in pgbench\'s words, with each node\'s progress');

# the standby alone: its run reported from its document
($out, $err) = ('', '');
IPC::Run::run([ $bin, '-h', $standby->host, '-p', $standby->port, '-S', '-t', '5',
	'--report', 'json' ], '>', \$out, '2>', \$err) or die "a run on the standby failed: $err";
$doc = decode_json($out);
ok($doc->{run}{run_id} < 0 && $doc->{run}{transactions} == 5 && @{ $doc->{histogram} } > 0,
	'a standby\'s run, as json: its unstored id, figures and histogram');
command_like([ $bin, '-h', $standby->host, '-p', $standby->port, '-S', '-t', '5', '--report', 'csv' ],
	qr/^run_id,workload,.*\r\n-\d+,select-only,1,/s, 'as csv: the row of polarbench_runs it would have');
command_ok([ $bin, '-h', $standby->host, '-p', $standby->port, '-S', '-T', '2',
	'--svg', "$tmp/standby.svg" ], 'and drawn');
like(slurp_file("$tmp/standby.svg"), qr/<polyline class="series" data-label="tps" [^>]*points="[\d.]+,[\d.]+/,
	'from its progress');
command_checks_all([ $bin, '-h', $standby->host, '-p', $standby->port, '-b', 'ycsb-c', '-t', '5' ],
	0, [ qr/"operations": \[/ ],
	[ qr/ran on a hot standby, which stores no run: its document follows/ ],
	'a YCSB run on the standby: its document, in place of YCSB\'s report');
command_fails_like([ $bin, '-h', $standby->host, '-p', $standby->port, '-S', '-t', '5', '--report', 'sysbench' ],
	qr/ran on a hot standby, which stores no run, and has no sysbench report/,
	'no report of another tool\'s style for it');

# a writing workload goes to the primary only
my $before = $primary->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs');
command_checks_all(
	[ $bin, '-h', $hosts, '-p', $ports, '-c', '1', '-t', '5' ],
	0, [ qr/^node \S+ \(primary\): run \d+$/m, qr/^number of transactions actually processed: 5$/m ],
	[ qr/^node \Q$standby_label\E: script "tpcb-like" writes, and a hot standby runs only read-only workloads; it runs on the primary only$/m ],
	'a writing workload runs on the primary only');
is($primary->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs'), $before + 1,
	'one run stored');
command_fails_like([ $bin, '-h', $hosts, '-p', "$ports,1" ],
	qr/2 hosts and 3 ports given/, 'ports that do not match the hosts');
command_fails_like([ $bin, '-h', $hosts, '-p', $ports, '-S', '-c', '1,2' ],
	qr/a sweep cannot be used with several hosts/, 'no sweep across nodes');
command_fails_like([ $bin, '-h', $hosts, '-p', $ports, '-S', '--settings', 'fsync=off' ],
	qr/parameter "fsync" is the server's, and cannot be set for a run on several hosts/,
	'no server setting across nodes');

$standby->stop;
$primary->stop;
done_testing();
