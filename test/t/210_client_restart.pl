# The client's --restart-command, with real restarts of a test cluster:
# settings that only a restart changes (shared_buffers) applied with ALTER
# SYSTEM and the user's own command, for a run and for each setting set of
# a sweep, and put back at the end as postgresql.auto.conf had them; a
# command that fails leaves the configuration as it was.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $bin = "$ENV{TESTDIR}/src/client/polarbench";
plan skip_all => "client not built: $bin" unless -x $bin;

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

$node->stop;
done_testing();
