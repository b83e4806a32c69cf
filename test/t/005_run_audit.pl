# The audit columns of Tencent Cloud's PostgreSQL sysbench report: with pgaudit loaded, a run's settings turn its
# audit logging on for the clients only, and the server log gets an audit
# line for the statements the clients run through SPI; with pgaudit.log
# 'none' it gets none.  log_statement, which does not see SPI statements,
# is refused with the reason.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('audit');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 16
shared_preload_libraries = 'pgaudit'
});
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION pgaudit;
	CREATE EXTENSION polarbench;
	SELECT polarbench_init('pgbench', scale => 1);
});

# count the audit lines of the clients' lookup, written since offset
sub audit_lines
{
	my ($offset) = @_;
	my $log = slurp_file($node->logfile, $offset);
	my @lines = grep { /AUDIT: SESSION,\d+,\d+,READ,SELECT,.*SELECT abalance FROM pgbench_accounts WHERE aid = \$1/ }
	  split /\n/, $log;
	return scalar @lines;
}

my $offset = -s $node->logfile;
is($node->safe_psql('postgres', q{
	SELECT transactions FROM polarbench_run('select-only', clients => 2, transactions => 5,
		settings => '{"pgaudit.log": "read"}')}), '10', 'a run with pgaudit.log = read');
is(audit_lines($offset), 10, 'writes an audit line for each of its clients\' statements');

$offset = -s $node->logfile;
$node->safe_psql('postgres', q{
	SELECT transactions FROM polarbench_run('select-only', clients => 2, transactions => 5,
		settings => '{"pgaudit.log": "none"}')});
is(audit_lines($offset), 0, 'with pgaudit.log = none, none');
is($node->safe_psql('postgres', 'SHOW pgaudit.log'), 'none', 'the caller\'s own setting is untouched');

my ($ret, $out, $err) = $node->psql('postgres', q{
	SELECT polarbench_run('select-only', settings => '{"log_statement": "all"}')});
like($err, qr/parameter "log_statement" does not act on benchmark clients.*pgaudit/s,
	'log_statement is refused, pointing to pgaudit');

$node->stop;
done_testing();
