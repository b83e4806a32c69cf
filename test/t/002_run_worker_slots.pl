# Too few free background worker slots for a run: the check before start
# (more clients than max_worker_processes allows), and the failure to
# register a worker when other workers hold the slots.  Either way: a clear
# error, no run recorded, no worker left.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('slots');
$node->init;
# the logical replication launcher takes one of these three slots
$node->append_conf('postgresql.conf', "max_worker_processes = 3\n");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION polarbench;
	CREATE TABLE t (a int);
});

my $workers = q{SELECT count(*) FROM pg_stat_activity
				 WHERE backend_type LIKE 'polarbench%'};

my ($ret, $out, $err) = $node->psql('postgres',
	q{SELECT * FROM polarbench_run(script => 'SELECT 1;', clients => 3)});
isnt($ret, 0, 'more clients than max_worker_processes allows fails');
like($err, qr/ERROR:  3 clients need 4 background workers, more than max_worker_processes allows/,
	'the error says how many workers are needed');
like($err, qr/HINT:  Raise max_worker_processes/, 'the hint names the setting');

# two clients and the recorder need three slots, but only two are free
($ret, $out, $err) = $node->psql('postgres',
	q{SELECT * FROM polarbench_run(script => 'SELECT 1;', clients => 2)});
isnt($ret, 0, 'a run without enough free slots fails');
like($err, qr/ERROR:  not enough background worker slots for 2 clients/,
	'the error says slots are missing');
is($node->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs'), '0',
	'nothing is recorded');
$node->poll_query_until('postgres', "SELECT ($workers) = 0") or die;
ok(1, 'no worker left');

# one client fits
is($node->safe_psql('postgres', q{
	SELECT transactions FROM polarbench_run(script => 'SELECT 1;', clients => 1,
											transactions => 5)}),
	'5', 'one client and the recorder fit in two slots');

$node->stop;
done_testing();
