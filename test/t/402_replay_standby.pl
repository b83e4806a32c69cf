# The replay on a hot standby: a capture of pgbench's select-only sessions
# only reads, and the standby replays it, every statement, keeping no row;
# a capture that writes is refused there before anything starts, and
# replayed on the primary.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use PolarbenchLog;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1, extra => [ '--encoding=UTF8', '--locale=C' ]);
$primary->append_conf('postgresql.conf', PolarbenchLog::csvlog_conf('standby'));
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION polarbench');

my ($rc, $err) = PolarbenchLog::pgbench($primary, 'pb_init', '-i', '-s', '1', 'postgres');
is($rc, 0, 'pgbench -i') or diag($err);
($rc, $err) = PolarbenchLog::pgbench($primary, 'pb_reads', '-n', '-S', '-M', 'extended', '-c', '2', '-t', '20', 'postgres');
is($rc, 0, 'select-only, 2 clients') or diag($err);
($rc, $err) = PolarbenchLog::pgbench($primary, 'pb_writes', '-n', '-M', 'simple', '-c', '1', '-t', '5', 'postgres');
is($rc, 0, 'tpcb-like, 1 client') or diag($err);
$primary->poll_query_until('postgres', q{
	SELECT count(*) = 0 FROM pg_stat_activity WHERE application_name LIKE 'pb\_%'})
  or die 'the sessions did not end';
$primary->safe_psql('postgres', q{SELECT 'standby-marker'});
PolarbenchLog::wait_for_marker($primary, 'log/standby.csv', 'standby-marker');
my ($reads, $read_statements) = split /\|/, $primary->safe_psql('postgres', q{
	SELECT capture_id, statements FROM polarbench_capture_log('log/standby.csv', application => 'pb_reads')});
my ($writes) = split /\|/, $primary->safe_psql('postgres', q{
	SELECT capture_id FROM polarbench_capture_log('log/standby.csv', application => 'pb_writes')});

$primary->backup('backup');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'backup', has_streaming => 1);
$standby->start;
$primary->wait_for_catchup($standby);

is($standby->safe_psql('postgres', qq{
	SELECT run_id < 0, statements FROM polarbench_run('replay', clients => 2,
		options => '{"capture": $reads, "speed": "max"}')}),
	"t|$read_statements", 'the standby replays the capture that only reads: every statement');
my ($ret, $out, $stderr) = $standby->psql('postgres', qq{\\set VERBOSITY verbose
	SELECT * FROM polarbench_run('replay', clients => 1, options => '{"capture": $writes}')});
like($stderr, qr/25006: workload "replay" writes, and a hot standby runs only read-only workloads/,
	'the capture that writes is refused there');
my $before = $primary->safe_psql('postgres', 'SELECT count(*) FROM pgbench_history');
my $run = $primary->safe_psql('postgres', qq{
	SELECT run_id FROM polarbench_run('replay', clients => 1,
		options => '{"capture": $writes, "speed": "max"}')});
is($primary->safe_psql('postgres', "SELECT count(*) - $before FROM pgbench_history"), '5',
	'and replayed on the primary: its 5 transactions\' history rows');

$standby->stop;
$primary->stop;
done_testing();
