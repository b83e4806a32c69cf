# What the TAP tests of captures and replays share to write a server log
# with real clients: the settings of a csvlog that a capture reads, pgbench
# run against a node under an application name of its own (so that its
# sessions are known in the log), a pgbench script written to a file, and
# the wait until the log has a marker.
#
#   $node->append_conf('postgresql.conf', PolarbenchLog::csvlog_conf('replay'));
#   my ($rc, $err) = PolarbenchLog::pgbench($node, 'pb_simple', '-n', '-c', '2', 'postgres');
#   my $file = PolarbenchLog::script($dir, 'fails.sql', "SELECT 1;\n");
#   PolarbenchLog::wait_for_marker($node, 'log/replay.csv', 'replay-marker');
package PolarbenchLog;

use strict;
use warnings;
use IPC::Run;

# The settings of a node whose log log/NAME.csv has every statement of its
# sessions, with their connections, as polarbench_capture_log reads it,
# and the worker slots of a replay; then the settings given, a line each.
sub csvlog_conf
{
	my ($name, @settings) = @_;
	return join("\n", qq{
logging_collector = on
log_destination = 'csvlog'
log_directory = 'log'
log_filename = '$name.log'
log_statement = 'all'
log_connections = on
log_disconnections = on
lc_messages = 'C'
max_worker_processes = 16}, @settings) . "\n";
}

# Wait until the log (a path the server reads) has the marker, a statement
# sent last: the log is then complete up to it.
sub wait_for_marker
{
	my ($node, $log, $marker) = @_;
	$node->poll_query_until('postgres', qq{SELECT pg_read_file('$log') LIKE '%$marker%'})
	  or die "the marker $marker did not reach the log $log";
	return;
}

# Run pgbench on node with application name app; its exit code and stderr.
sub pgbench
{
	my ($node, $app, @args) = @_;
	local $ENV{PGAPPNAME} = $app;
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'pgbench', '-h', $node->host, '-p', $node->port, @args ],
		'>', \$out, '2>', \$err);
	return ($? >> 8, $err);
}

# Write a pgbench script into dir; its path.
sub script
{
	my ($dir, $name, $text) = @_;
	my $file = "$dir/$name";
	open my $fh, '>', $file or die "could not write $file: $!";
	print $fh $text;
	close $fh;
	return $file;
}

1;
