# The client's --restart-command, with real restarts of a test cluster:
# settings that only a restart changes (shared_buffers) applied with ALTER
# SYSTEM and the user's own command, for a run and for each setting set of
# a sweep, and put back at the end as postgresql.auto.conf had them; a
# command that fails leaves the configuration as it was.  Then the client
# interrupted in the middle of such a run: SIGTERM cancels the run and puts
# the settings back; after SIGKILL, the pending-restore file it wrote
# before changing anything lets polarbench --restore, or the next run
# against the server, put them back.
use strict;
use warnings;
use IPC::Run;
use POSIX;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $bin = "$ENV{TESTDIR}/src/bin/polarbench/polarbench";
plan skip_all => "client not built: $bin" unless -x $bin;

# the client's pending-restore files: in a directory of the test's own
my $state = PostgreSQL::Test::Utils::tempdir . '/state';
$ENV{POLARBENCH_STATE_DIR} = $state;

my $node = PostgreSQL::Test::Cluster->new('restart');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION polarbench;
	SELECT polarbench_init('pgbench', scale => 1)});
$ENV{PGHOST} = $node->host;
$ENV{PGPORT} = $node->port;
$ENV{PGDATABASE} = 'postgres';

# the user's own restart command: here, pg_ctl on the test cluster
my $restart = join(' ', 'pg_ctl', '-D', $node->data_dir, '-l', $node->logfile, '-w', 'restart');
my $auto_conf = $node->data_dir . '/postgresql.auto.conf';
my $shared_buffers = $node->safe_psql('postgres', 'SHOW shared_buffers');

sub effective
{
	my ($n) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT string_agg(clients || ':' || (effective_settings->>'shared_buffers'), ' ' ORDER BY run_id)
		  FROM (SELECT * FROM polarbench_runs ORDER BY run_id DESC LIMIT $n) r});
}

# a run with a setting that takes a restart
command_checks_all(
	[ $bin, '-n', '-S', '-t', '5', '--settings', 'shared_buffers=24MB',
	  '--restart-command', $restart ],
	0, [qr/^tps = /m],
	[ qr/^restarting the server: \Q$restart\E$/m ],
	'a run with shared_buffers and --restart-command');
is(effective(1), '1:24MB', 'the run ran with the setting');
is($node->safe_psql('postgres', 'SHOW shared_buffers'), $shared_buffers,
	'the setting is put back after the run');
unlike(slurp_file($auto_conf), qr/shared_buffers/, 'postgresql.auto.conf holds it no more');

# a sweep over shared_buffers, with a setting a restart needs not
command_checks_all(
	[ $bin, '-n', '-S', '-c', '1,2', '-t', '5', '--set', 'shared_buffers=16MB',
	  '--set', 'shared_buffers=32MB,work_mem=8MB', '--restart-command', $restart ],
	0, [ qr/^clients \| shared_buffers=16MB +\| shared_buffers=32MB,work_mem=8MB *\n-+\+-+\+-+\n +1 \| .*\n +2 \| .*\n\z/m ],
	[ qr/setting set 1: shared_buffers=16MB\n.*setting set 2: shared_buffers=32MB,work_mem=8MB/s ],
	'a sweep over shared_buffers');
is(effective(4), '1:16MB 2:16MB 1:32MB 2:32MB', 'each setting set ran with its shared_buffers');
is($node->safe_psql('postgres', q{
	SELECT settings::text FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	'{"work_mem": "8MB"}', 'and with its other settings, as the clients\' own');
is($node->safe_psql('postgres', 'SHOW shared_buffers'), $shared_buffers,
	'the setting is put back after the sweep');

# a value that postgresql.auto.conf held before is the one put back
$node->safe_psql('postgres', q{ALTER SYSTEM SET shared_buffers = '20MB'});
command_ok([ $bin, '-n', '-S', '-t', '2', '--settings', 'shared_buffers=28MB',
	'--restart-command', $restart ], 'over a value of postgresql.auto.conf');
is(effective(1), '1:28MB', 'the run ran with its value');
like(slurp_file($auto_conf), qr/^shared_buffers = '20MB'$/m, 'and the earlier value is back');
$node->safe_psql('postgres', 'ALTER SYSTEM RESET shared_buffers');
$node->restart;

# a restart command that fails: no run, the configuration as it was
my $runs = $node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs');
command_fails_like(
	[ $bin, '-n', '-S', '-t', '2', '--settings', 'shared_buffers=24MB',
	  '--restart-command', 'exit 3' ],
	qr/restart command failed with exit status 3/, 'a failing restart command');
is($node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs'), $runs, 'no run');
unlike(slurp_file($auto_conf), qr/shared_buffers/, 'postgresql.auto.conf is as it was');
is($node->safe_psql('postgres', 'SELECT pending_restart FROM pg_settings WHERE name = \'shared_buffers\''),
	'f', 'and nothing waits for a restart');
command_fails_like(
	[ $bin, '-n', '-S', '-t', '2', '--settings', 'shared_buffers=24MB',
	  '--restart-command', 'true' ],
	qr/the restart command did not restart the server/, 'a restart command that restarts nothing');
unlike(slurp_file($auto_conf), qr/shared_buffers/, 'leaves postgresql.auto.conf as it was');
is($node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs'), $runs, 'and runs nothing');

# a list: one literal per element, or the server would look for one library
# "pg_stat_statements,auto_explain" and not start (the client checks that each
# setting came from postgresql.auto.conf after the restart)
command_ok(
	[ $bin, '-n', '-S', '-t', '2', '--settings', 'shared_preload_libraries=pg_stat_statements,auto_explain',
	  '--restart-command', $restart ],
	'a list-valued setting that takes a restart');
is($node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs'), $runs + 1,
	'the run ran, on a server that started with both libraries');
is($node->safe_psql('postgres', 'SHOW shared_preload_libraries'), '', 'and the list is put back');
unlike(slurp_file($auto_conf), qr/shared_preload_libraries/, 'out of postgresql.auto.conf');

command_fails_like([ $bin, '-S', '--restart-command', '' ],
	qr/--restart-command must not be empty/, 'an empty restart command');

# the pending-restore files: made before the first ALTER SYSTEM, gone after
ok(-d $state && ((stat($state))[2] & 07777) == 0700, 'the state directory, mode 0700');
sub pending { my @files = glob("$state/pending-restore-*"); return @files }
is(scalar(my @none = pending()), 0, 'no pending restore after runs that ended');

# 5. SIGTERM in the middle of a run with a restart setting
my $max_prepared = $node->safe_psql('postgres', 'SHOW max_prepared_transactions');
my @long_run = ($bin, '-n', '-S', '-T', '600', '--settings', 'max_prepared_transactions=7',
	'--restart-command', $restart);

# Start the long run in the background, with more settings if given;
# return once it goes on.
sub start_long_run
{
	my ($out, $err, @more) = @_;
	my $h = IPC::Run::start([ @long_run, @more ], '>', $out, '2>', $err,
		IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
	$node->poll_query_until('postgres', 'SELECT count(*) = 1 FROM polarbench_live')
	  or die "the run did not start: $$err";
	return $h;
}

my ($out, $err) = ('', '');
my $h = start_long_run(\$out, \$err);
is($node->safe_psql('postgres', 'SHOW max_prepared_transactions'), '7', 'the run has the setting');
my @files = pending();
is(scalar(@files), 1, 'a pending restore while the run goes on');
my $record = @files ? slurp_file($files[0]) : '';
like($record, qr/^setting\tmax_prepared_transactions\nvalue\t7\nno_previous\t$/m,
	'it names the setting, its value and that it had none');
like($record, qr/^restart_command\t\Q$restart\E$/m, 'and the restart command');
ok(@files && ((stat($files[0]))[2] & 07777) == 0600, 'the file is the user\'s only');
command_checks_all([ $bin, '--restore' ], 0, [qr/^$/],
	[ qr/warning: another polarbench is running with settings of server .* that it puts back when it ends/ ],
	'--restore leaves the settings of a client that runs');
is(scalar(my @held = pending()), 1, 'and its file');
$h->signal('TERM');
$h->finish;
is($h->result(0), 2, 'SIGTERM: exit status 2');
like($err, qr/Cancel request sent/, 'SIGTERM: a cancel request, as for Ctrl-C');
like($err, qr/recorded as canceled/, 'SIGTERM: the run is canceled');
is($node->safe_psql('postgres', 'SHOW max_prepared_transactions'), $max_prepared,
	'SIGTERM: the setting is put back');
unlike(slurp_file($auto_conf), qr/max_prepared_transactions/, 'SIGTERM: out of postgresql.auto.conf');
is(scalar(my @left = pending()), 0, 'SIGTERM: no pending restore left');

# SIGTERM while the restart command runs: no run, the setting put back.  The
# command's Nth invocation says it started (started.N), then waits for a line
# on FIFO go.N, which the test writes once the client has its signal, and for
# the restart that puts the setting back.
my $held = PostgreSQL::Test::Utils::tempdir;
foreach my $n (0, 1)
{
	POSIX::mkfifo("$held/go.$n", 0600) or die "mkfifo: $!";
}
append_to_file("$held/restart.sh", <<"EOS");
n=0
while [ -e $held/started.\$n ]; do n=\$((n + 1)); done
touch $held/started.\$n
read line < $held/go.\$n
exec $restart
EOS
my $held_restart = "sh $held/restart.sh";

# Wait until the held restart command's invocation n runs, and let it go on.
sub release_restart
{
	my ($n) = @_;
	$node->poll_query_until('postgres', "SELECT (pg_stat_file('$held/started.$n', true)).size IS NOT NULL")
	  or die "the restart command did not start: $err";
	open(my $fh, '>', "$held/go.$n") or die "open $held/go.$n: $!";
	print $fh "go\n";
	close($fh);
}
my $runs = $node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs');
($out, $err) = ('', '');
$h = IPC::Run::start([ $bin, '-n', '-S', '-t', '5', '--settings', 'max_prepared_transactions=7',
	'--restart-command', $held_restart ], '>', \$out, '2>', \$err,
	IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
$node->poll_query_until('postgres', "SELECT (pg_stat_file('$held/started.0', true)).size IS NOT NULL")
  or die "the restart command did not start: $err";
$h->signal('TERM');
release_restart(0);
release_restart(1);
$h->finish;
is($h->result(0), 2, 'SIGTERM during the restart: exit status 2');
like($err, qr/^The run was canceled before it started\.$/m, 'SIGTERM during the restart: no run');
is($node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs'), $runs,
	'SIGTERM during the restart: none recorded');
is($node->safe_psql('postgres', 'SHOW max_prepared_transactions'), $max_prepared,
	'SIGTERM during the restart: the setting is put back');
is(scalar(my @after = pending()), 0, 'SIGTERM during the restart: no pending restore left');

# 6. SIGKILL in the middle of the run: the setting stays, and the file says so
sub kill_long_run
{
	my (@more) = @_;
	my ($out, $err) = ('', '');
	my $h = start_long_run(\$out, \$err, @more);
	$h->signal('KILL');
	$h->finish;
	# the killed client's session ends its run
	$node->safe_psql('postgres', q{
		SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		 WHERE query LIKE '%polarbench_run(%' AND pid <> pg_backend_pid()});
	$node->poll_query_until('postgres', 'SELECT count(*) = 0 FROM polarbench_live')
	  or die 'the killed client\'s run did not end';
}
kill_long_run('--settings', 'shared_preload_libraries=pg_stat_statements,auto_explain');
is(scalar(my @stays = pending()), 1, 'SIGKILL: the pending restore stays');
is($node->safe_psql('postgres', 'SHOW max_prepared_transactions'), '7', 'SIGKILL: and the settings');
like(slurp_file($auto_conf), qr/^max_prepared_transactions = '7'\nshared_preload_libraries = 'pg_stat_statements, auto_explain'$/m,
	'SIGKILL: in postgresql.auto.conf');
# (the restart command's own output on stdout)
command_checks_all([ $bin, '--restore' ], 0, [qr/.*/s],
	[ qr/^polarbench: warning: put back server settings that an interrupted run with --restart-command changed: max_prepared_transactions reset, shared_preload_libraries reset\n.*detail: The restart command was: \Q$restart\E$/m,
	  qr/^restarting the server: \Q$restart\E$/m ],
	'--restore puts it back, and says so');
is($node->safe_psql('postgres', 'SHOW max_prepared_transactions') . '|'
	  . $node->safe_psql('postgres', 'SHOW shared_preload_libraries'), "$max_prepared|",
	'--restore: the settings are back, the list\'s elements each');
unlike(slurp_file($auto_conf), qr/max_prepared_transactions|shared_preload_libraries/,
	'--restore: out of postgresql.auto.conf');
is(scalar(my @removed = pending()), 0, '--restore: the file is removed');
command_checks_all([ $bin, '--restore' ], 0, [qr/^$/],
	[ qr/^polarbench: no settings to put back on server /m ], '--restore with nothing pending');
command_fails_like([ $bin, '--restore', '-S' ], qr/--restore cannot be used with other options/,
	'--restore does only that');

# 7. SIGKILL over a value of postgresql.auto.conf; the next run puts it back
$node->safe_psql('postgres', 'ALTER SYSTEM SET max_prepared_transactions = 3');
$node->restart;
kill_long_run();
command_checks_all([ $bin, '-n', '-S', '-t', '2' ], 0, [qr/^tps = /m],
	[ qr/^polarbench: warning: put back server settings that an interrupted run with --restart-command changed: max_prepared_transactions = '3'$/m ],
	'the next run puts the setting back first, and says so');
is($node->safe_psql('postgres', 'SHOW max_prepared_transactions'), '3', 'the earlier value is back');
like(slurp_file($auto_conf), qr/^max_prepared_transactions = '3'$/m, 'in postgresql.auto.conf');
is(scalar(my @gone = pending()), 0, 'and the file is removed');
$node->safe_psql('postgres', 'ALTER SYSTEM RESET max_prepared_transactions');
$node->restart;

$node->stop;
done_testing();
