# The one declaration of a run's figures (src/run/run_figures.h) and the
# SQL objects that show them, which the install and upgrade scripts make
# and which stay as they are: each figure a row holds is a column of its
# objects, of its type, and no other figure is; the row polarbench_run()
# returns and the run's row are written from the list, NULL as its rules
# say; the command-line program reads what the list gives it.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use JSON::PP;

# the list, as the C preprocessor reads it: X(name, type, nulls, counter,
# run, progress, live, program)
my $header = "$ENV{TESTDIR}/src/run/run_figures.h";
open(my $fh, '<', $header) or die "could not open $header: $!";
my @figures;
while (<$fh>)
{
	next unless /^\s*X\((\w+),\s*(COUNT|NUMBER),\s*(\w+),\s*([01]),\s*([01]),\s*([01]),\s*([01]),\s*([01])\)/;
	push @figures, {
		name => $1, type => $2 eq 'COUNT' ? 'bigint' : 'double precision', nulls => $3,
		counter => $4, run => $5, progress => $6, live => $7, program => $8 };
}
close $fh;
ok(@figures > 20, 'the list of figures is read: ' . scalar(@figures));

my $node = PostgreSQL::Test::Cluster->new('figures');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION polarbench');

# the columns of a relation or composite type, or a function's OUT arguments,
# as "name type"
sub columns_of
{
	my ($object) = @_;
	my $sql = $object eq 'polarbench_live_runs'
	  ? qq{SELECT a.name || ' ' || format_type(a.type, NULL)
			 FROM pg_proc p,
			 LATERAL unnest(p.proargnames, p.proallargtypes, p.proargmodes) a(name, type, mode)
			WHERE p.proname = '$object' AND a.mode = 'o'}
	  : qq{SELECT attname || ' ' || format_type(atttypid, atttypmod)
			 FROM pg_attribute
			WHERE attrelid = '$object'::regclass AND attnum > 0 AND NOT attisdropped};
	return { map { split(/ /, $_, 2) } split(/\n/, $node->safe_psql('postgres', $sql)) };
}

# each object, the rows of the list it shows, and its columns that are no
# figure of the list (undef: the run's many other columns, not listed here)
my @objects = (
	[ 'polarbench_result', 'run', [qw(run_id workload clients)] ],
	[ 'polarbench_run_data', 'run', undef ],
	[ 'polarbench_runs', 'run', undef ],
	[ 'polarbench_progress_data', 'progress', [qw(run_id elapsed latency_histogram)] ],
	[ 'polarbench_progress', 'progress', [qw(run_id elapsed latency_histogram)] ],
	[ 'polarbench_live_runs', 'live',
		[qw(run_id warming_up elapsed clients failed_per_second retried_per_second)] ],
	[ 'polarbench_live', 'live',
		[qw(run_id workload run_by warming_up elapsed clients failed_per_second retried_per_second)] ]);
my %is_figure = map { $_->{name} => 1 } @figures;
for my $o (@objects)
{
	my ($object, $flag, $others) = @$o;
	my $columns = columns_of($object);
	ok(keys %$columns > 0, "$object has columns");
	for my $f (@figures)
	{
		if ($f->{$flag})
		{
			is($columns->{ $f->{name} }, $f->{type}, "$object shows $f->{name} as $f->{type}");
		}
		else
		{
			ok(!exists $columns->{ $f->{name} }, "$object shows no $f->{name}, which the list gives it not");
		}
	}
	next unless defined $others;
	my %other = map { $_ => 1 } @$others;
	my @unlisted = sort grep { !$is_figure{$_} && !$other{$_} } keys %$columns;
	is("@unlisted", '', "every other column of $object is a figure of the list");
}

# what the program reads of polarbench_result is in it
ok(!(grep { $_->{program} && !$_->{run} } @figures), 'the program reads only columns of polarbench_result');

# a run's row and its result, written from the list: NULL as each figure's
# rule says, for a run that ended transactions, kept histograms and had no
# rate (lags NULL), and for a run that kept counters only (percentiles NULL)
$node->safe_psql('postgres', q{SELECT polarbench_init('pgbench', scale => 1)});
for my $run ([ 'histograms', '', { NO_RATE => 1 } ],
	[ 'counters only', ', counters_only => true', { NO_RATE => 1, NO_PCT => 1 } ])
{
	my ($what, $args, $null) = @$run;
	my @names = map { $_->{name} } grep { $_->{run} } @figures;
	my $list = join(', ', map { "($_ IS NULL)::int" } @names);
	my $result = $node->safe_psql('postgres', qq{
		SELECT $list FROM polarbench_run('select-only', clients => 2, transactions => 20$args)});
	my $recorded = $node->safe_psql('postgres', qq{
		SELECT $list FROM polarbench_runs ORDER BY run_id DESC LIMIT 1});
	my $want = join('|', map { $null->{ $_->{nulls} } ? 1 : 0 } grep { $_->{run} } @figures);
	is($result, $want, "polarbench_run's row has the NULLs of the list's rules ($what)");
	is($recorded, $want, "and so has the run's recorded row ($what)");
}

# the program reads the figures marked for it of each run, and gives them
# for each node and for their total in its reports of several nodes (here
# the one node twice)
my $bin = "$ENV{TESTDIR}/src/bin/polarbench/polarbench";
my @program = map { $_->{name} } grep { $_->{program} } @figures;
my @nodes = ('-h', join(',', $node->host, $node->host), '-p', join(',', $node->port, $node->port));
my ($out, $err) = ('', '');
IPC::Run::run([ $bin, @nodes, '-S', '-c', '1', '-t', '5', '--report', 'json', 'postgres' ],
	'>', \$out, '2>', \$err) or die "the run on two nodes failed: $err";
my $doc = JSON::PP::decode_json($out);
is(join(' ', sort keys %{ $doc->{total} }), join(' ', sort @program),
	'the total of several nodes gives the figures the program reads');
is(join(' ', sort grep { !/^(node|role|run_id|stored_run_id)$/ } keys %{ $doc->{nodes}[0] }),
	join(' ', sort @program), 'and so does each node');
is($doc->{total}{transactions}, 10, 'the program adds up the nodes\' transactions');
IPC::Run::run([ $bin, @nodes, '-S', '-c', '1', '-t', '5', '--report', 'csv', 'postgres' ],
	'>', \$out, '2>', \$err) or die "the run on two nodes failed: $err";
is((split /\r?\n/, $out)[0], join(',', qw(node role run_id stored_run_id), @program),
	'its CSV has a column for each of them');

$node->stop;
done_testing();
