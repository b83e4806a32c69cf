# Server settings for a run: set with ALTER SYSTEM and a reload before the
# clients start, and put back as postgresql.auto.conf had them afterwards,
# after a run that finished, failed or was canceled.  Refused, with nothing
# changed, to a role that may not, and for what a reload does not change.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('server_settings');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION polarbench;
	SELECT polarbench_init('pgbench', scale => 1);
	ALTER SYSTEM SET wal_compression = 'pglz';
	SELECT pg_reload_conf();
});
$node->poll_query_until('postgres', q{SELECT current_setting('wal_compression') = 'pglz'}) or die;

# the server's settings and what postgresql.auto.conf says, in one line
my $state = q{
	SELECT current_setting('wal_compression') || ' ' || current_setting('full_page_writes') || ' '
		   || coalesce((SELECT string_agg(name || '=' || setting, ',' ORDER BY name)
						  FROM pg_file_settings WHERE sourcefile LIKE '%auto.conf'), '')};
my $before = 'pglz on wal_compression=pglz';
is($node->safe_psql('postgres', $state), $before, 'the server before');

my $server = q{'{"wal_compression": "lz4", "full_page_writes": "off"}'};

# 1. a run that finishes: it had them, and they are put back
is($node->safe_psql('postgres', qq{
	SELECT transactions FROM polarbench_run('select-only', transactions => 5,
		server_settings => $server)}), '5', 'a run with server settings');
is($node->safe_psql('postgres', q{
	SELECT (effective_settings->>'wal_compression') || ' ' || (effective_settings->>'full_page_writes')
		   || ' ' || (server_settings->>'full_page_writes')
	  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}), 'lz4 off off',
	'ran with them, as recorded');
$node->poll_query_until('postgres', "SELECT ($state) = '$before'") or die 'not put back';
ok(1, 'and they are put back after it');

# 2. a run that fails
my ($ret, $out, $err) = $node->psql('postgres', qq{
	SELECT * FROM polarbench_run(script => 'SELECT 1 / 0;', transactions => 1,
		server_settings => $server)});
like($err, qr/division by zero/, 'a run with server settings fails');
$node->poll_query_until('postgres', "SELECT ($state) = '$before'") or die 'not put back';
ok(1, 'and they are put back after it');

# 2b. a mistake in the workload is found before the server is touched:
# no ALTER SYSTEM, no reload
my $loaded = $node->safe_psql('postgres', 'SELECT pg_conf_load_time()');
my $auto_conf = q{SELECT string_agg(name || '=' || setting, ',' ORDER BY seqno)
	FROM pg_file_settings WHERE sourcefile LIKE '%postgresql.auto.conf'};
my $auto_before = $node->safe_psql('postgres', $auto_conf);
($ret, $out, $err) = $node->psql('postgres', qq{
	SELECT * FROM polarbench_run(script => 'SELEC 1;', transactions => 1,
		server_settings => $server)});
like($err, qr/syntax error at or near "SELEC"/, 'a run whose script is wrong');
is($node->safe_psql('postgres', 'SELECT pg_conf_load_time()'), $loaded,
	'is refused before the server\'s settings change: no reload');
is($node->safe_psql('postgres', $auto_conf), $auto_before,
	'and postgresql.auto.conf as it was');

# 3. a run canceled by its caller
my $bg = $node->background_psql('postgres', on_error_stop => 0);
$bg->query_until(qr/started/, qq{\\echo started
SELECT * FROM polarbench_run('select-only', duration => 60, server_settings => $server);
});
$node->poll_query_until('postgres', q{SELECT count(*) = 1 FROM polarbench_live}) or die;
$node->safe_psql('postgres', q{
	SELECT pg_cancel_backend(pid) FROM pg_stat_activity
	 WHERE query LIKE '%polarbench_run(%' AND pid <> pg_backend_pid()});
$bg->query('SELECT 1');
like($bg->{stderr}, qr/canceling statement due to user request/, 'a run with server settings canceled');
$node->poll_query_until('postgres', "SELECT ($state) = '$before'") or die 'not put back';
ok(1, 'and they are put back after it');
$bg->quit;

# a background run: its conductor waits for the reload too, and puts back
my $bgrun = $node->safe_psql('postgres', qq{
	SELECT polarbench_start('select-only', transactions => 5, server_settings => $server)});
is($node->safe_psql('postgres', qq{SELECT transactions FROM polarbench_wait($bgrun)}), '5',
	'a background run with server settings');
is($node->safe_psql('postgres', qq{
	SELECT (effective_settings->>'full_page_writes') FROM polarbench_runs WHERE run_id = $bgrun}),
	'off', 'ran with them');
$node->poll_query_until('postgres', "SELECT ($state) = '$before'") or die 'not put back';
ok(1, 'and they are put back after it');

# 4. refused before anything changes
my $runs = $node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs');
($ret, $out, $err) = $node->psql('postgres', q{
	SELECT polarbench_run('select-only', server_settings => '{"server_version": "1"}')});
like($err, qr/parameter "server_version" cannot be changed/, 'an internal parameter is refused');
($ret, $out, $err) = $node->psql('postgres', q{
	SELECT polarbench_run('select-only', server_settings => '{"shared_buffers": "1GB"}')});
like($err, qr/parameter "shared_buffers" cannot be set for a run: it takes a server restart/,
	'a parameter that takes a restart is refused');
like($err, qr/HINT:  The command-line program applies it for a run with a restart of your own: polarbench --settings shared_buffers=VALUE --restart-command/,
	'with a hint that names the client\'s restart option');
($ret, $out, $err) = $node->psql('postgres', q{
	SELECT polarbench_run('select-only', server_settings => '{"fsync": "maybe"}')});
like($err, qr/parameter "fsync" requires a Boolean value/, 'a bad value is refused');
$node->safe_psql('postgres', q{
	CREATE ROLE bob LOGIN;
	GRANT EXECUTE ON FUNCTION polarbench_run TO bob;
	GRANT SELECT ON pgbench_accounts, pgbench_branches TO bob});
($ret, $out, $err) = $node->psql('postgres', qq{
	SELECT polarbench_run('select-only', server_settings => $server)}, extra_params => ['-U', 'bob']);
like($err, qr/permission denied to change server settings for a run/, 'refused to a role');
$node->safe_psql('postgres', q{
	GRANT SELECT ON pg_file_settings TO bob;
	GRANT EXECUTE ON FUNCTION pg_show_all_file_settings() TO bob});
($ret, $out, $err) = $node->psql('postgres', qq{
	SELECT polarbench_run('select-only', server_settings => $server)}, extra_params => ['-U', 'bob']);
like($err, qr/permission denied to set parameter "wal_compression" for a run/,
	'refused for a parameter it may not ALTER SYSTEM');
is($node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs'), $runs, 'none of them ran');
is($node->safe_psql('postgres', $state), $before, 'and the server is as it was');
$node->safe_psql('postgres', q{
	GRANT ALTER SYSTEM ON PARAMETER wal_compression, full_page_writes TO bob});
is($node->psql('postgres', qq{
	SELECT transactions FROM polarbench_run('select-only', transactions => 2,
		server_settings => $server)}, extra_params => ['-U', 'bob']), 0,
	'granted ALTER SYSTEM on them, the role may');
$node->poll_query_until('postgres', "SELECT ($state) = '$before'") or die 'not put back';
ok(1, 'and they are put back after its run');

# 5. a sweep over server setting sets: each run had its set, the server is
# put back after each, and the table has a column per set
my $fsync = $node->safe_psql('postgres', q{SELECT current_setting('fsync')});
is($node->safe_psql('postgres', q{
	SELECT string_agg(setting_set || ':' || run_clients, ' ')
	  FROM polarbench_sweep('select-only', clients => '{1,2}', transactions => 2,
		server_settings => ARRAY['{"fsync": "on"}', '{"fsync": "off"}']::jsonb[])}),
	'1:1 1:2 2:1 2:2', 'a sweep over server setting sets, in order');
is($node->safe_psql('postgres', q{
	SELECT string_agg(effective_settings->>'fsync', ' ' ORDER BY sweep_run)
	  FROM polarbench_runs WHERE sweep_id = (SELECT max(sweep_id) FROM polarbench_runs)}),
	'on on off off', 'each run had its set');
like($node->safe_psql('postgres', q{
	SELECT * FROM polarbench_sweep_table((SELECT max(sweep_id) FROM polarbench_runs), 'failed')
	 LIMIT 1}), qr/set 1 server \{"fsync": "on"\} \| set 2 server \{"fsync": "off"\}/,
	'a column per server setting set');
is($node->safe_psql('postgres', q{SELECT current_setting('fsync')}), $fsync,
	'and fsync is as postgresql.conf has it again');
$node->poll_query_until('postgres', "SELECT ($state) = '$before'") or die 'not put back';
ok(1, 'with the server as it was');

$node->stop;
done_testing();
