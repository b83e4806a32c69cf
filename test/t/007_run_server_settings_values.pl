# Server settings of any length and of any characters a value may hold
# (quotes, backslashes, tabs, non-ASCII, empty, thousands of bytes): a run
# sets them and puts them back as postgresql.auto.conf had them, after a
# normal end, a cancel, and a client killed with kill -9 (then the next
# polarbench call does), and leaves no journal behind.  A value ALTER
# SYSTEM cannot write is refused before anything changes.  A journal that
# cannot be read is reported with its path and the way out, which works.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('settings_values');
$node->init(extra => [ '--encoding=UTF8', '--no-locale' ]);
$node->append_conf('postgresql.conf', "max_worker_processes = 16\nrestart_after_crash = on\n");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION polarbench;
	SELECT polarbench_init('pgbench', scale => 1);
	ALTER SYSTEM SET log_line_prefix = '';
	ALTER SYSTEM SET application_name = 'it''s "q" \ déjà ✓ -';
	SELECT pg_reload_conf();
});
# (the file is not read as UTF-8: its strings are bytes, as psql's are)
my $quoted = q{it's "q" \ déjà ✓ -};

my $journal = $node->data_dir . '/polarbench_server_settings.journal';
my $workers = q{SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'polarbench%'};

# What postgresql.auto.conf gives the parameters, one line.
sub auto_conf
{
	return $node->safe_psql('postgres', q{
		SELECT coalesce(string_agg(name || '=' || setting, ',' ORDER BY name), '')
		  FROM pg_file_settings WHERE sourcefile LIKE '%auto.conf'});
}

my $before = auto_conf();
is($before, "application_name=$quoted,log_line_prefix=",
	'postgresql.auto.conf before: a value of awkward characters, and an empty one');

# 1. the issue's reproduction: a value of 3000 characters, then a run with
# server settings again, which a journal left behind would refuse
my $long = q{jsonb_build_object('log_line_prefix', repeat('x', 3000))};
my ($ret, $out, $err) = $node->psql('postgres', qq{
	SELECT transactions > 0 FROM polarbench_run('select-only', duration => 1,
		server_settings => $long)});
is($out, 't', 'a run with a value of 3000 characters');
is($err, '', 'with no warning');
ok(!-e $journal, 'and no journal left behind');
is(auto_conf(), $before, 'postgresql.auto.conf as before');
($ret, $out, $err) = $node->psql('postgres', qq{
	SELECT transactions FROM polarbench_run('select-only', transactions => 3,
		server_settings => $long)});
is($out . $err, '3', 'the next run with it runs, warning of nothing');

# 2. every awkward character (in archive_command, which no archiver runs
# here), a value of none, and a parameter that postgresql.auto.conf did not
# give (reset afterwards)
my $awkward = q{repeat('y', 3000) || ' ''q'' "d" \ ' || chr(9) || chr(13) || ' déjà ✓ %m -'};
my $server = qq{jsonb_build_object('archive_command', $awkward,
	'application_name', '', 'log_statement', 'none')};
my $during = $node->safe_psql('postgres', qq{
	SELECT 'application_name=,archive_command=' || $awkward || ',log_line_prefix=,log_statement=none'});
my $run = $node->safe_psql('postgres', qq{
	SELECT run_id FROM polarbench_run('select-only', transactions => 5, server_settings => $server)});
is($node->safe_psql('postgres', qq{
	SELECT server_settings = $server FROM polarbench_runs WHERE run_id = $run}),
	't', 'a run with awkward values has them as given');
ok(!-e $journal, 'no journal left behind');
is(auto_conf(), $before, 'postgresql.auto.conf as before');

# 3. the same, canceled
my $bg = $node->background_psql('postgres', on_error_stop => 0);
$bg->query_until(qr/started/, qq{\\echo started
SELECT * FROM polarbench_run('select-only', duration => 600, server_settings => $server);
});
$node->poll_query_until('postgres', q{SELECT count(*) = 1 FROM polarbench_live}) or die;
is(auto_conf(), $during, 'while the run goes on, postgresql.auto.conf has its values');
ok(-e $journal, 'and the journal names them');
$node->safe_psql('postgres', q{
	SELECT pg_cancel_backend(pid) FROM pg_stat_activity
	 WHERE query LIKE '%polarbench_run(%' AND pid <> pg_backend_pid()});
$bg->query('SELECT 1');
like($bg->{stderr}, qr/canceling statement due to user request/, 'the run is canceled');
$bg->quit;
ok(!-e $journal, 'no journal left behind');
is(auto_conf(), $before, 'postgresql.auto.conf as before');

# 4. the same, a client killed with kill -9: the server restarts, the
# settings stay until the next polarbench call, which puts them back
$bg = $node->background_psql('postgres', on_error_stop => 0);
$bg->query_until(qr/started/, qq{\\echo started
SELECT * FROM polarbench_run('select-only', duration => 600, server_settings => $server);
});
$node->poll_query_until('postgres', q{SELECT count(*) = 1 FROM polarbench_live}) or die;
my $client = $node->safe_psql('postgres', q{
	SELECT pid FROM pg_stat_activity WHERE backend_type = 'polarbench client'});
my $offset = -s $node->logfile;
kill 'KILL', $client;
$node->wait_for_log(qr/all server processes terminated; reinitializing/, $offset);
eval { $bg->quit };
$node->poll_query_until('postgres', 'SELECT true') or die;
is(auto_conf(), $during, 'after a client is killed, the run\'s values stay until a polarbench call');
($ret, $out, $err) = $node->psql('postgres', 'SELECT count(*) > 0 FROM polarbench_runs');
like($err, qr/WARNING:  server settings of an interrupted polarbench run were put back\nDETAIL:  application_name = '\Q$quoted\E' \(the run had set ''\), archive_command reset \(the run had set 'y{64}\.\.\. \(3029 bytes\)'\), log_statement reset \(the run had set 'none'\)\./,
	'the next polarbench call puts them back and says so, long values cut short');
ok(!-e $journal, 'no journal left behind');
is(auto_conf(), $before, 'postgresql.auto.conf as before');

# 5. a value with a newline, which ALTER SYSTEM does not write, is refused
# before anything changes: no run, no reload, no journal
my $runs = $node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs');
my $loaded = $node->safe_psql('postgres', 'SELECT pg_conf_load_time()');
($ret, $out, $err) = $node->psql('postgres', q{
	SELECT * FROM polarbench_run('select-only', transactions => 1,
		server_settings => jsonb_build_object('log_statement', 'all', 'log_line_prefix', E'a\nb'))});
like($err, qr/ERROR:  value of server setting "log_line_prefix" must not contain a newline/,
	'a value with a newline is refused');
is($node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs'), $runs, 'no run is recorded');
is($node->safe_psql('postgres', 'SELECT pg_conf_load_time()'), $loaded, 'no reload');
ok(!-e $journal, 'no journal');
is(auto_conf(), $before, 'postgresql.auto.conf as before');

# 6. a journal that cannot be read: every polarbench call says so, with
# the file's path and the way out; a run with server settings is refused,
# changing nothing; one without runs
foreach my $case ('garbage', 'unreadable')
{
	if ($case eq 'garbage')
	{
		append_to_file($journal, "polarbench server settings journal 1\nwriter 12 34\nparam zz\n");
	}
	else
	{
		append_to_file($journal, '');
		chmod 0, $journal;
	}
	my $why = $case eq 'garbage'
	  ? qr/file "\Q$journal\E" is not a polarbench server settings journal/
	  : qr/could not open polarbench server settings journal "\Q$journal\E": Permission denied/;
	my $hint = qr/HINT:  Make postgresql.auto.conf give what it should with ALTER SYSTEM \(.*\), then remove the file\./;
	($ret, $out, $err) = $node->psql('postgres', 'SELECT count(*) > 0 FROM polarbench_runs');
	like($err, qr/WARNING:  $why\nDETAIL:  .*no run may change server settings\.\n$hint/,
		"$case journal: a polarbench call warns, with the path and the way out");
	($ret, $out, $err) = $node->psql('postgres', q{
		SELECT * FROM polarbench_run('select-only', transactions => 1,
			server_settings => '{"log_statement": "all"}')});
	like($err, qr/ERROR:  $why\nDETAIL:  .*\n$hint/,
		"$case journal: a run with server settings is refused, saying so");
	is($node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs'), $runs,
		"$case journal: no run is recorded");
	is(auto_conf(), $before, "$case journal: postgresql.auto.conf as before");
	($ret, $out, $err) = $node->psql('postgres', q{
		SELECT transactions FROM polarbench_run('select-only', transactions => 2)});
	is($out, '2', "$case journal: a run without server settings runs");
	like($err, qr/WARNING:  $why/, "$case journal: and warns");
	$runs++;

	# the way out: postgresql.auto.conf is as it should be; remove the file
	unlink $journal or die "could not remove $journal: $!";
	($ret, $out, $err) = $node->psql('postgres', q{
		SELECT transactions FROM polarbench_run('select-only', transactions => 2,
			server_settings => '{"log_statement": "all"}')});
	is($out . $err, '2', "$case journal removed: a run with server settings runs, warning of nothing");
	$runs++;
	ok(!-e $journal, "$case journal removed: no journal left behind");
	is(auto_conf(), $before, "$case journal removed: postgresql.auto.conf as before");
}

# 7. a value to put back that has a newline (postgresql.auto.conf edited by
# hand): it could not be put back, so the run is refused
$node->safe_psql('postgres', 'ALTER SYSTEM RESET log_line_prefix');
$node->append_conf('postgresql.auto.conf', "log_line_prefix = 'a\\nb'\n");
$node->reload;
$before = auto_conf();
like($before, qr/log_line_prefix=a\nb$/, 'postgresql.auto.conf gives a value with a newline');
($ret, $out, $err) = $node->psql('postgres', q{
	SELECT * FROM polarbench_run('select-only', transactions => 1,
		server_settings => '{"log_line_prefix": "%m "}')});
like($err, qr/ERROR:  parameter "log_line_prefix" cannot be set for a run: its value in postgresql.auto.conf contains a newline/,
	'a parameter whose value to put back has a newline is refused');
is($node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs'), $runs, 'no run is recorded');
ok(!-e $journal, 'no journal');
is(auto_conf(), $before, 'postgresql.auto.conf as before');

$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
unlike(slurp_file($node->logfile), qr/terminated by signal 11|terminated by signal 6/,
	'no process crashed');
$node->stop;
done_testing();
