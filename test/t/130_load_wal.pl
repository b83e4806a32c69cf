# Tables loaded with pages written past shared buffers are rebuilt from WAL
# alone: on a streaming standby and after a crash.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('load_wal_primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION polarbench');
$primary->safe_psql('postgres', 'CREATE EXTENSION amcheck');
$primary->safe_psql('postgres', 'CREATE EXTENSION pg_visibility');
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('load_wal_standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->start;

my $check = q{
SELECT 'accounts', count(*), md5(string_agg(format('%s|%s|%s|%s', aid, bid, abalance, filler), ',' ORDER BY aid)) FROM pgbench_accounts;
SELECT 'sbtest1', count(*), md5(string_agg(format('%s|%s|%s|%s', id, k, c, pad), ',' ORDER BY id)) FROM sbtest1;
SELECT 'sbtest2', count(*), md5(string_agg(format('%s|%s|%s|%s', id, k, c, pad), ',' ORDER BY id)) FROM sbtest2;
SELECT 'heap', count(*) FROM verify_heapam('pgbench_accounts');
SELECT 'heap', count(*) FROM verify_heapam('sbtest2');
SELECT 'vm', all_visible = (SELECT pg_relation_size('pgbench_accounts') / 8192), all_frozen = all_visible FROM pg_visibility_map_summary('pgbench_accounts');
SELECT 'frozen', count(*) FROM pg_check_frozen('pgbench_accounts');
SELECT 'index', bt_index_check('pgbench_accounts_pkey', true), bt_index_check('sbtest2_pkey', true), bt_index_check('k_2', true);
SELECT 'index size', pg_relation_size('pgbench_accounts_pkey'), pg_relation_size('sbtest2_pkey');
};

# parallel loads (pgbench's pages written by the idle worker), some pages
# and their visibility map logged
$primary->safe_psql('postgres',
	"SELECT polarbench_init('pgbench', scale => 2, fillfactor => 80, parallel => 2)");
$primary->safe_psql('postgres',
	"SELECT polarbench_init('sysbench', tables => 2, table_size => 5000, parallel => 2)");
my $expected = $primary->safe_psql('postgres', $check);
like($expected, qr/^accounts\|200000\|/m, 'accounts loaded');
like($expected, qr/^heap\|0$/m, 'heap verified');
like($expected, qr/^vm\|t\|t$/m, 'every page all-visible and all-frozen');

$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $check), $expected,
	'the standby has the same tables, rebuilt from WAL');

# a crash right after serial loads: recovery replays from before them
$primary->safe_psql('postgres', 'CHECKPOINT');
$primary->safe_psql('postgres',
	"SELECT polarbench_init('pgbench', scale => 2, fillfactor => 80)");
$primary->safe_psql('postgres',
	"SELECT polarbench_init('sysbench', tables => 2, table_size => 5000)");
$expected = $primary->safe_psql('postgres', $check);
$primary->stop('immediate');
$primary->start;
is($primary->safe_psql('postgres', $check), $expected,
	'the tables survive a crash');

$standby->stop;
$primary->stop;
done_testing();
