# A replay and a capture cut short.  A replay's client killed with SIGKILL
# mid-run (the postmaster restarts every backend): after the restart the
# run shows as failed, no polarbench worker is left, the capture is as it
# was and replays again.  polarbench_capture_log canceled, and its backend
# killed, while it reads a large log keeps nothing of it: no capture row,
# no chunk, no session, no shape.  The log is read through a named pipe
# the test writes into, so that the capture is held in the middle of its
# reading for as long as the test needs, never by timing.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use POSIX qw(mkfifo);
use PolarbenchLog;

my $tmp = PostgreSQL::Test::Utils::tempdir;
my $node = PostgreSQL::Test::Cluster->new('replay_crash');
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
$node->append_conf('postgresql.conf', PolarbenchLog::csvlog_conf('crash', 'log_rotation_size = 0', 'restart_after_crash = on'));
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION polarbench');

sub query { return $node->safe_psql('postgres', $_[0]); }

my $workers = q{SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'polarbench%'};

# what the capture tables hold, all captures together
my $stored = q{SELECT (SELECT count(*) FROM polarbench_capture_data) || ' '
	|| (SELECT count(*) FROM polarbench_capture_chunk_data) || ' '
	|| (SELECT count(*) FROM polarbench_capture_session_data) || ' '
	|| (SELECT count(*) FROM polarbench_capture_shape_data)};

# Wait for the restart after a backend's crash: the pid of the backend
# killed shows in pg_stat_activity until the shared memory is made anew.
sub restarted
{
	my ($pid) = @_;
	$node->poll_query_until('postgres', qq{
		SELECT NOT EXISTS (SELECT FROM pg_stat_activity WHERE pid = $pid)})
	  or die 'the server did not restart';
}

# a capture of a small tpcb-like workload, to replay
my ($rc, $err) = PolarbenchLog::pgbench($node, 'pb_init', '-i', '-s', '1', 'postgres');
is($rc, 0, 'pgbench -i') or diag($err);
my $mark = query('SELECT clock_timestamp()');
($rc, $err) = PolarbenchLog::pgbench($node, 'pb_w', '-n', '-c', '2', '-t', '20', 'postgres');
is($rc, 0, 'the logged workload') or diag($err);
query(q{SELECT 'crash-marker'});
PolarbenchLog::wait_for_marker($node, 'log/crash.csv', 'crash-marker');
my ($capture, $statements) = split /\|/, query(q{
	SELECT capture_id, statements FROM polarbench_capture_log('log/crash.csv', application => 'pb_w')});
my $figures = qq{SELECT sessions || ' ' || statements || ' ' || errors
	  || ' ' || (SELECT count(*) FROM polarbench_capture_statements WHERE capture_id = $capture)
	  FROM polarbench_captures WHERE capture_id = $capture};
my $captured = query($figures);
my $tables = query($stored);

# 1. a replay's client killed: the postmaster restarts every backend
my $run = query(qq{SELECT polarbench_start('replay', clients => 2,
		options => '{"capture": $capture, "speed": 0.001}')});
$node->poll_query_until('postgres', q{
	SELECT count(*) = 2 FROM pg_stat_activity WHERE backend_type = 'polarbench client'})
  or die 'the clients did not start';
my $client = query(q{SELECT min(pid) FROM pg_stat_activity WHERE backend_type = 'polarbench client'});
kill 'KILL', $client;
restarted($client);
$node->poll_query_until('postgres', "SELECT ($workers) = 0")
  or die 'polarbench workers left after the crash';
is(query("SELECT status FROM polarbench_runs WHERE run_id = $run"), 'failed',
	'the replay cut short by the crash shows as failed, not running');
is(query($figures), $captured, 'the capture is as it was');
is(query($stored), $tables, 'and its tables hold what they held');
$run = query(qq{SELECT run_id FROM polarbench_run('replay', clients => 2,
		options => '{"capture": $capture, "speed": "max"}')});
is(query(qq{SELECT status || ' ' || (figures->'replay'->>'statements') FROM polarbench_runs WHERE run_id = $run}),
	"finished $statements", 'it replays again, every statement');
is(query($workers), '0', 'no worker left');

# 2. polarbench_capture_log cut in the middle of a large log.  A large log:
# the log up to the marker, its sessions' statements many times over (each
# copy's sessions with ids of their own), read through a named pipe.
my $log = $node->safe_psql('postgres', q{SELECT pg_read_file('log/crash.csv')});
$log =~ s/(\n[^\n]*crash-marker[^\n]*\n).*/$1/s or die 'no marker in the log';
my $copies = int(12 * 1024 * 1024 / length($log)) + 1;
my $large = '';
for my $copy (1 .. $copies)
{
	(my $part = $log) =~ s/^([^,]*,[^,]*,[^,]*,[^,]*,[^,]*,)([0-9a-f]+\.[0-9a-f]+),/$1$2$copy,/mg;
	$large .= $part;
}
my $fifo = "$tmp/large.csv";
mkfifo($fifo, 0600) or die "mkfifo: $!";

# Start capturing the pipe; write the first half of the large log into it
# (6 MB: the server has read all but what the pipe and its 1 MB read
# buffer hold, several chunks of statements),
# then call cut with the capturing backend's pid, then end the log.  The
# psql's stderr.
sub capture_cut
{
	my ($cut) = @_;
	my ($in, $out, $errout) = ('', '', '');
	my $h = IPC::Run::start(
		[ 'psql', '-X', '-d', $node->connstr('postgres'), '-c',
		  "SELECT * FROM polarbench_capture_log('$fifo', format => 'csvlog')" ],
		'<', \$in, '>', \$out, '2>', \$errout);
	local $SIG{PIPE} = 'IGNORE';
	open my $fh, '>', $fifo or die "open $fifo: $!";
	binmode $fh;
	my $half = int(length($large) / 2);
	syswrite($fh, $large, $half) == $half or die "write: $!";
	my $pid = query(q{SELECT pid FROM pg_stat_activity
		WHERE query LIKE '%polarbench_capture_log(%' AND pid <> pg_backend_pid()});
	$cut->($pid);
	syswrite($fh, $large, length($large) - $half, $half);
	close $fh;
	$h->finish;
	return $errout;
}

ok(length($large) > 8 * 1024 * 1024, 'the large log: ' . int(length($large) / 1024 / 1024) . ' MB');
like(capture_cut(sub { query("SELECT pg_cancel_backend($_[0])") }),
	qr/canceling statement due to user request/, 'the capture canceled in the middle of the log');
is(query($stored), $tables, 'keeps no capture row, chunk, session or shape');

my $killed;
capture_cut(sub { $killed = $_[0]; kill 'KILL', $killed });
restarted($killed);
is(query($stored), $tables, 'the capture cut by a crash keeps nothing either');
is(query($figures), $captured, 'the capture before is as it was');

# the whole large log, read from a file, is captured
open my $fh, '>', "$tmp/whole.csv" or die;
print $fh $large;
close $fh;
is(query(qq{SELECT statements FROM polarbench_capture_log('$tmp/whole.csv', application => 'pb_w')}),
	$copies * $statements, 'the large log read whole holds every copy');

$node->stop;
done_testing();
