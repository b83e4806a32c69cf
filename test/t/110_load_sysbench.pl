# The real sysbench runs its OLTP workloads against polarbench_init's
# sysbench tables.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

if (system('sysbench --version >/dev/null 2>&1') != 0)
{
	plan skip_all => 'sysbench is not installed';
}

my $node = PostgreSQL::Test::Cluster->new('load_sysbench');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION polarbench');
$node->safe_psql('postgres', 'CREATE EXTENSION pageinspect');
$node->safe_psql('postgres', 'CREATE EXTENSION amcheck');

# Pages of an index, but for their LSN and checksum.
sub index_pages
{
	my ($index) = @_;
	return $node->safe_psql('postgres', qq{
SELECT count(*), md5(string_agg(substring(get_raw_page('$index', b::int) from 11), '' ORDER BY b))
  FROM generate_series(0, pg_relation_size('$index') / 8192 - 1) b});
}

foreach my $parallel (1, 2)
{
	$node->safe_psql('postgres',
		"SELECT polarbench_init('sysbench', tables => 3, table_size => 2000, parallel => $parallel)");
	is($node->safe_psql('postgres',
			'SELECT count(*) FROM sbtest1'),
		'2000', "sbtest1 loaded, parallel $parallel");

	# the primary key, built as the rows were written, is the one
	# PostgreSQL builds from the table, page for page
	is($node->safe_psql('postgres',
			"SELECT count(bt_index_parent_check('sbtest2_pkey', true, true))"),
		'1', "sbtest2_pkey passes amcheck, parallel $parallel");
	my $built = index_pages('sbtest2_pkey');
	$node->safe_psql('postgres', 'REINDEX INDEX sbtest2_pkey');
	is(index_pages('sbtest2_pkey'), $built,
		"sbtest2_pkey as REINDEX builds it, parallel $parallel");

	foreach my $workload (qw(oltp_read_write oltp_read_only oltp_write_only))
	{
		my ($stdout, $stderr);
		my $ok = IPC::Run::run(
			[ 'sysbench', $workload, '--db-driver=pgsql',
			  '--pgsql-host=' . $node->host, '--pgsql-port=' . $node->port,
			  '--pgsql-user=' . scalar(getpwuid($<)),
			  '--pgsql-db=postgres', '--tables=3', '--table-size=2000',
			  '--threads=2', '--events=200', '--time=0', 'run' ],
			'>', \$stdout, '2>', \$stderr);
		ok($ok, "sysbench $workload exits 0, parallel $parallel")
		  or diag($stdout . $stderr);
		like($stdout, qr{transactions:\s+200\s}, "sysbench $workload ran 200 events");
		unlike($stdout . $stderr, qr{FATAL}, "sysbench $workload no fatal error");
	}
}

$node->stop;
done_testing();
