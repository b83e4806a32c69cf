# sysbench's and YCSB's workloads through a Citus coordinator, on their
# tables distributed by their keys (sbtest1 by id, usertable by ycsb_key):
# every one runs without crashing a node, and the tables show what the run
# says it did.  sysbench: a table's rows stay as many through the workloads
# that delete and insert a row again in one transaction (oltp_read_write,
# oltp_write_only), grow by oltp_insert's events and shrink by the rows
# oltp_delete deleted; sum(k) grows by the rows oltp_update_index updated.
# YCSB: the load phase inserts its records, the workloads' inserts add
# theirs.  Failures are injected on the workers: errors the tools go on
# after (a serialization failure) are rolled back whole and the workload
# goes on, counting them; one they do not go on after fails the run; either
# way nothing of a failed transaction stays on any node.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use PolarbenchCitus;

PolarbenchCitus::skip_unless_installed();

my $cluster = PolarbenchCitus->new('citus_sb_ycsb');
my $c = $cluster->coordinator;

sub value { return $c->safe_psql('postgres', $_[0]); }

# one run of 10 transactions per client (or as args say); returns its
# figures
sub run
{
	my ($workload, $args) = @_;
	my %run;

	$args //= 'transactions => 10';
	value(qq{SELECT * FROM polarbench_run('$workload', clients => 2, random_seed => 3,
										 $args)});
	@run{qw(status transactions failed errors writes)} = split /\|/, value(q{
		SELECT status, transactions, failed, errors, writes FROM polarbench_runs
		 ORDER BY run_id DESC LIMIT 1});
	return \%run;
}

# ---- sysbench ----------------------------------------------------------

value(q{
	SELECT * FROM polarbench_init('sysbench', tables => 1, table_size => 1000);
	SET citus.shard_count = 4;
	SELECT create_distributed_table('sbtest1', 'id');
});
my $rows = q{SELECT count(*) FROM sbtest1};
my $sum_k = q{SELECT sum(k) FROM sbtest1};

foreach my $w (qw(oltp_read_only oltp_point_select oltp_read_write oltp_write_only))
{
	my $r = run($w);
	is("$r->{status} $r->{transactions}", 'finished 20', "$w: every event");
	is(value($rows), 1000, "$w: as many rows as loaded");
}
foreach my $w (qw(oltp_update_index oltp_update_non_index))
{
	my $before = value($sum_k);
	my $r = run($w);
	is("$r->{status} $r->{transactions}", 'finished 20', "$w: every event");
	is(value($sum_k) - $before, $w eq 'oltp_update_index' ? $r->{writes} : 0,
		"$w: k moved by the rows it updated");
}

# a delete and the insert of the same row, in one transaction: the insert
# fails on its worker for a third of the ids, and the delete goes with it
$cluster->inject_failures('sbtest1', '40001', '($1).id % 3 = 0', 'INSERT');
foreach my $w (qw(oltp_read_write oltp_write_only))
{
	my $r = run($w);
	is("$r->{status} $r->{transactions}", 'finished 20',
		"$w with failures injected: every event, in the end");
	cmp_ok($r->{errors}, '>', 0, "$w: errors it went on after");
	is(value($rows), 1000, "$w: as many rows as loaded, none lost to a failed event");
}

# an error sysbench does not go on after fails the run, and leaves nothing
$cluster->inject_failures('sbtest1', 'P0001', '($1).id % 3 = 0', 'INSERT');
my ($ret, $out, $err) = $c->psql('postgres',
	q{SELECT * FROM polarbench_run('oltp_write_only', clients => 2, transactions => 10,
		random_seed => 3)});
like($err, qr/failure injected into sbtest1_/, 'oltp_write_only: a failure on a worker fails the run');
is(value($rows), 1000, 'oltp_write_only: no row lost to the failed run');

# single statements: what failed is not there, what succeeded is
$cluster->inject_failures('sbtest1', '40001', '($1).id % 3 = 0',
	'INSERT OR UPDATE OR DELETE');
foreach my $w (qw(oltp_update_index oltp_insert oltp_delete))
{
	my ($count, $k) = (value($rows), value($sum_k));
	my $r = run($w);

	is("$r->{status} $r->{transactions}", 'finished 20',
		"$w with failures injected: every event, in the end");
	cmp_ok($r->{errors}, '>', 0, "$w: errors it went on after");
	if ($w eq 'oltp_update_index')
	{
		is(value($sum_k) - $k, $r->{writes}, "$w: k moved by the rows it updated");
	}
	elsif ($w eq 'oltp_insert')
	{
		is(value($rows) - $count, $r->{transactions}, "$w: a row for each event");
		is(value(q{SELECT count(*) FROM sbtest1 WHERE id > 1000 AND id % 3 = 0}), 0,
			"$w: none of an insert that failed");
	}
	else
	{
		is($count - value($rows), $r->{writes}, "$w: the rows it deleted are gone");
	}
}
$cluster->clear_failures('sbtest1');

# ---- YCSB --------------------------------------------------------------

# the load phase into an empty usertable, then with the inserts of keys
# ending in 3 failing on their workers
value(q{
	SELECT * FROM polarbench_init('ycsb', records => 0);
	SET citus.shard_count = 4;
	SELECT create_distributed_table('usertable', 'ycsb_key');
});
my $r = run('ycsb-load', q{options => '{"recordcount": 100}'});
is("$r->{status} $r->{transactions}", 'finished 100', 'ycsb-load: its records');
is(value('SELECT count(*) FROM usertable'), 100, 'ycsb-load: a row for each');

$cluster->inject_failures('usertable', '40001', q{($1).ycsb_key LIKE '%3'});
my $ending_in_3 = q{SELECT count(*) FROM usertable WHERE ycsb_key LIKE '%3'};
my $before = value($ending_in_3);
$r = run('ycsb-load', q{options => '{"recordcount": 300, "insertstart": 100}'});
is("$r->{status} $r->{transactions}", 'finished 200',
	'ycsb-load with failures injected: its records, the run going on');
cmp_ok($r->{errors}, '>', 0, 'ycsb-load: errors of inserts');
is(value('SELECT count(*) FROM usertable') - 100, 200 - $r->{errors},
	'ycsb-load: a row for each insert that did not fail');
is(value($ending_in_3), $before, 'ycsb-load: none of an insert that failed');
$cluster->clear_failures('usertable');

# every workload on a loaded usertable, with the writes of keys ending in 3
# failing: those rows stay as they were
value(q{
	SELECT * FROM polarbench_init('ycsb', records => 1000);
	SET citus.shard_count = 4;
	SELECT create_distributed_table('usertable', 'ycsb_key');
});
$cluster->inject_failures('usertable', '40001', q{($1).ycsb_key LIKE '%3'});
my $failing = q{SELECT md5(string_agg(u::text, '' ORDER BY ycsb_key)) FROM usertable u
				 WHERE ycsb_key LIKE '%3'};
my $inserted = q{SELECT coalesce(sum(operations - errors), 0) FROM polarbench_operations
				  WHERE run_id = (SELECT max(run_id) FROM polarbench_runs)
					AND operation = 'INSERT'};
foreach my $w (qw(ycsb-a ycsb-b ycsb-c ycsb-d ycsb-e ycsb-f))
{
	my ($count, $before) = (value('SELECT count(*) FROM usertable'), value($failing));
	$r = run($w, 'transactions => 50');
	is("$r->{status} $r->{transactions}", 'finished 100', "$w: its operations");
	cmp_ok($r->{errors}, '>', 0, "$w: errors of the writes injected with failures")
	  if $w eq 'ycsb-a';
	is(value('SELECT count(*) FROM usertable') - $count, value($inserted),
		"$w: a row for each insert that did not fail");
	is(value($failing), $before, "$w: the rows whose writes fail are as they were");
}
$cluster->clear_failures('usertable');

is($cluster->crashes, '', 'no process of any node was terminated by a signal');

$_->stop foreach $cluster->nodes;
done_testing();
