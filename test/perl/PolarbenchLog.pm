# What the TAP tests of captures and replays share to write a server log
# with real clients: pgbench run against a node under an application name
# of its own (so that its sessions are known in the log), and a pgbench
# script written to a file.
#
#   my ($rc, $err) = PolarbenchLog::pgbench($node, 'pb_simple', '-n', '-c', '2', 'postgres');
#   my $file = PolarbenchLog::script($dir, 'fails.sql', "SELECT 1;\n");
package PolarbenchLog;

use strict;
use warnings;
use IPC::Run;

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
