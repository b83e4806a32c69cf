# polarbench_init('pgbench') makes what pgbench -i makes, down to the
# pages of the indexes (the primary key of pgbench_accounts is built as
# the rows are written), and the real pgbench runs against it.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('load_pgbench');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION polarbench');
$node->safe_psql('postgres', 'CREATE EXTENSION pageinspect');
$node->safe_psql('postgres', 'CREATE EXTENSION amcheck');

# Content and catalog description of the pgbench tables, to compare.
my $describe = q{
SELECT 'accounts', count(*), md5(string_agg(format('%s|%s|%s|%s', aid, bid, abalance, filler), ',' ORDER BY aid)) FROM pgbench_accounts;
SELECT 'branches', count(*), md5(string_agg(format('%s|%s|%s', bid, bbalance, coalesce(filler, '<null>')), ',' ORDER BY bid)) FROM pgbench_branches;
SELECT 'tellers', count(*), md5(string_agg(format('%s|%s|%s|%s', tid, bid, tbalance, coalesce(filler, '<null>')), ',' ORDER BY tid)) FROM pgbench_tellers;
SELECT 'history', count(*) FROM pgbench_history;
SELECT c.relname, c.relkind, c.relpersistence, c.reloptions,
       pg_get_partkeydef(c.oid), pg_get_expr(c.relpartbound, c.oid)
  FROM pg_class c WHERE c.relname LIKE 'pgbench%' ORDER BY 1;
SELECT attrelid::regclass::text, attnum, attname,
       format_type(atttypid, atttypmod), attnotnull, atthasdef
  FROM pg_attribute WHERE attrelid::regclass::text LIKE 'pgbench%'
   AND attnum > 0 AND NOT attisdropped ORDER BY 1, 2;
SELECT conrelid::regclass::text, conname, contype, pg_get_constraintdef(oid)
  FROM pg_constraint WHERE conrelid::regclass::text LIKE 'pgbench%'
 ORDER BY 1, 2;
SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid)
  FROM pg_index WHERE indrelid::regclass::text LIKE 'pgbench%' ORDER BY 1;
SELECT indexrelid::regclass::text, count(*),
       md5(string_agg(substring(get_raw_page(indexrelid::regclass::text, b::int) from 11), '' ORDER BY b))
  FROM pg_index, generate_series(0, pg_relation_size(indexrelid) / 8192 - 1) b
 WHERE indrelid::regclass::text LIKE 'pgbench%' GROUP BY 1 ORDER BY 1;
};

# Every btree of the pgbench tables is sound and points at every row.
my $amcheck = q{
SELECT count(*), count(bt_index_parent_check(indexrelid, true, true))
  FROM pg_index JOIN pg_class ON oid = indexrelid
 WHERE relkind = 'i' AND indrelid::regclass::text LIKE 'pgbench%';
};

my @cases = (
	[ '-s 1', q{scale => 1} ],
	[ '-s 2', q{scale => 2} ],
	[ '-s 2', q{scale => 2, parallel => 2} ],
	[ '-s 2 -F 90 --foreign-keys', q{scale => 2, fillfactor => 90, foreign_keys => true} ],
	[ '-s 2 --partitions=3', q{scale => 2, partitions => 3} ],
	[ '-s 1 --partitions=4 --partition-method=hash --unlogged-tables',
	  q{scale => 1, partitions => 4, partition_method => 'hash', unlogged => true} ],
	[ '-s 2 --partitions=3 --foreign-keys',
	  q{scale => 2, partitions => 3, foreign_keys => true, parallel => 2} ],
);

foreach my $case (@cases)
{
	my ($pgbench_opts, $init_args) = @$case;

	$node->command_ok(
		[ 'pgbench', '-i', '-q', split(/ /, $pgbench_opts),
		  '-p', $node->port, '-h', $node->host, 'postgres' ],
		"pgbench -i $pgbench_opts");
	my $expected = $node->safe_psql('postgres', $describe);

	$node->safe_psql('postgres',
		"SELECT polarbench_init('pgbench', $init_args)");
	my $got = $node->safe_psql('postgres', $describe);
	is($got, $expected, "polarbench_init($init_args) = pgbench -i $pgbench_opts");
	like($node->safe_psql('postgres', $amcheck), qr/^(\d+)\|\1$/,
		"indexes pass amcheck after polarbench_init($init_args)");
}

# The real pgbench runs against the loaded tables.
$node->safe_psql('postgres', "SELECT polarbench_init('pgbench', scale => 2)");
$node->command_like(
	[ 'pgbench', '-n', '-S', '-t', '50', '-p', $node->port, '-h', $node->host,
	  'postgres' ],
	qr{number of transactions actually processed: 50/50},
	'pgbench -S -n runs');
$node->command_like(
	[ 'pgbench', '-n', '-t', '10', '-p', $node->port, '-h', $node->host,
	  'postgres' ],
	qr{number of transactions actually processed: 10/10},
	'pgbench -n -t 10 runs');
is($node->safe_psql('postgres', 'SELECT count(*) FROM pgbench_history'),
	'10', 'pgbench wrote its history');

# progress => true sends pgbench -i's progress lines
my ($ret, $stdout, $stderr) = $node->psql('postgres',
	"SELECT rows FROM polarbench_init('pgbench', scale => 2, progress => true)");
is($ret, 0, 'load with progress');
like($stderr,
	qr{NOTICE:  \d+ of 200022 tuples \(\d+%\) done \(elapsed \d+\.\d\d s, remaining \d+\.\d\d s\)},
	'progress lines');
like($stderr, qr{200022 of 200022 tuples \(100%\) done}, 'last progress line');

$node->stop;
done_testing();
