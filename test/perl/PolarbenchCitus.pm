# A Citus cluster for polarbench's TAP tests: a coordinator and two workers
# on this machine, each a PostgreSQL::Test::Cluster node with Citus preloaded
# and the citus and polarbench extensions, the workers added to the
# coordinator's metadata.  The nodes talk to each other over TCP on
# 127.0.0.1, as Citus's guides set a cluster up on one machine; the tests
# reach them as any other node.
#
#   PolarbenchCitus::skip_unless_installed();
#   my $cluster = PolarbenchCitus->new('citus_runs');
#   my $c = $cluster->coordinator;              # a PostgreSQL::Test::Cluster
#   $cluster->on_placements('t', $worker_sql);  # on each shard of t, where it is
#   $cluster->inject_failures('t', '40001', '($1).k % 4 = 0');  # on the workers
#   my ($held, $routed) = $cluster->routing('t', 'k');  # equal: rows in their shards
#   $cluster->on_analyze($w, 'f', 'PERFORM pg_sleep(60)', 't_%', 'k');  # a load's shards
#   is($cluster->crashes, '', 'no node crashed');
#   $cluster->refused($c, 'postgres', $sql, qr/ERROR:  .../, $cluster->run_counts, 'name');
#   $cluster->no_worker_left('after the run');
#
# A test that needs Citus calls skip_unless_installed() first: without
# citus.so in pg_config --pkglibdir, it skips the whole test and says why.
package PolarbenchCitus;

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# The host the nodes listen on and name each other by
my $host = '127.0.0.1';

# Where the PostgreSQL that the tests run finds its libraries
sub pkglibdir
{
	my $dir = `pg_config --pkglibdir`;
	chomp $dir if defined $dir;
	return $dir;
}

# Skip the whole test, saying why, when Citus is not installed.
sub skip_unless_installed
{
	my $dir = pkglibdir();

	plan skip_all => 'citus is not installed: pg_config --pkglibdir could not be read'
	  unless defined $dir && $dir ne '';
	plan skip_all => "citus is not installed: no citus.so in $dir"
	  unless -f "$dir/citus.so";
	return;
}

# One node: Citus preloaded, listening on 127.0.0.1 too, with room for a
# run's clients and the transactions Citus prepares for two-phase commits.
sub _node
{
	my ($name) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);

	$node->init;
	$node->append_conf(
		'postgresql.conf', qq{
shared_preload_libraries = 'citus'
listen_addresses = '$host'
citus.local_hostname = '$host'
max_worker_processes = 16
max_prepared_transactions = 32
});
	$node->start;
	$node->safe_psql('postgres',
		'CREATE EXTENSION citus; CREATE EXTENSION polarbench;');
	return $node;
}

# A coordinator ("NAME_coordinator") and two workers ("NAME_worker1" and
# "NAME_worker2"), started, the workers added to the coordinator, the
# coordinator's own host set.
sub new
{
	my ($class, $name) = @_;
	my $self = bless {}, $class;

	$self->{coordinator} = _node("${name}_coordinator");
	$self->{workers} = [ map { _node("${name}_worker$_") } 1 .. 2 ];
	my $c = $self->{coordinator};
	$c->safe_psql('postgres',
		    "SELECT citus_set_coordinator_host('$host', "
		  . $c->port . ');'
		  . join('',
			map { "SELECT citus_add_node('$host', " . $_->port . ');' }
			  @{ $self->{workers} }));
	return $self;
}

# The coordinator, the workers, every node
sub coordinator { return $_[0]->{coordinator}; }
sub workers { return @{ $_[0]->{workers} }; }
sub nodes { my $self = shift; return ($self->{coordinator}, $self->workers); }

# The node listening on a port
sub node_at
{
	my ($self, $port) = @_;

	foreach my $node ($self->nodes)
	{
		return $node if $node->port == $port;
	}
	die "no node of the cluster listens on port $port";
}

# The placements of a distributed table's shards: a list of [node, the
# shard's table name, schema-qualified], in the shards' order.
sub placements
{
	my ($self, $table) = @_;
	my $rows = $self->{coordinator}->safe_psql(
		'postgres', qq{
		SELECT nodeport, shard_name FROM citus_shards
		 WHERE table_name = '$table'::regclass ORDER BY shardid, nodeport});
	return map {
		my ($port, $shard) = split /\|/;
		[ $self->node_at($port), "public.$shard" ]
	} grep { $_ ne '' } split /\n/, $rows;
}

# Run sql on the node of each placement of a table, its shard's name in
# place of every %s (on a worker, the placement is a table like any other),
# and return the results joined by newlines.  With a node (or a list of
# nodes), only the placements there.
sub on_placements
{
	my ($self, $table, $sql, @only) = @_;
	my @results;

	foreach my $p ($self->placements($table))
	{
		my ($node, $shard) = @$p;

		next if @only && !grep { $_ == $node } @only;
		(my $text = $sql) =~ s/%s/$shard/g;
		push @results, $node->safe_psql('postgres', $text);
	}
	return join("\n", @results);
}

# Make writes to a distributed table fail on the workers: a trigger on each
# of its placements raises an error of SQLSTATE sqlstate for every row that
# one of events ('INSERT OR UPDATE' unless given) writes there and that
# meets condition, an SQL expression of the row as $1 (its new version, or
# the old one that a DELETE removes), like "($1).k % 4 = 0".  The error
# comes from the node that holds the row, as a constraint's or a conflict's
# would.
sub inject_failures
{
	my ($self, $table, $sqlstate, $condition, $events) = @_;

	$events //= 'INSERT OR UPDATE';

	# on a worker, a node's own objects: not a distributed one, which Citus
	# would make from the coordinator only
	$_->safe_psql(
		'postgres', q{
		SET citus.enable_ddl_propagation = off;
		CREATE OR REPLACE FUNCTION pb_injected_failure() RETURNS trigger
		LANGUAGE plpgsql AS $$
		DECLARE
			hit boolean;
		BEGIN
			IF TG_OP = 'DELETE' THEN
				EXECUTE 'SELECT ' || TG_ARGV[1] INTO hit USING OLD;
			ELSE
				EXECUTE 'SELECT ' || TG_ARGV[1] INTO hit USING NEW;
			END IF;
			IF hit THEN
				RAISE EXCEPTION 'failure injected into %', TG_TABLE_NAME
					USING ERRCODE = TG_ARGV[0];
			END IF;
			IF TG_OP = 'DELETE' THEN
				RETURN OLD;
			END IF;
			RETURN NEW;
		END $$}) foreach $self->workers;
	(my $arg = $condition) =~ s/'/''/g;
	$self->on_placements($table,
		    'SET citus.enable_ddl_propagation = off;'
		  . ' DROP TRIGGER IF EXISTS pb_injected ON %s;'
		  . " CREATE TRIGGER pb_injected BEFORE $events ON %s"
		  . " FOR EACH ROW EXECUTE FUNCTION pb_injected_failure('$sqlstate', '$arg')"
	);
	return;
}

# Where a distributed table's rows are, against where Citus routes them: a
# pair of strings "shardid:rows ..." (the rows each shard's placement holds,
# and the rows whose column Citus routes to each shard), equal when every
# row is in the shard Citus routes its key to.
sub routing
{
	my ($self, $table, $column) = @_;
	my $routed = $self->{coordinator}->safe_psql(
		'postgres', qq{
		SELECT string_agg(shard || ':' || n, ' ' ORDER BY shard)
		  FROM (SELECT get_shard_id_for_distribution_column('$table', $column) AS shard,
					   count(*) AS n
				  FROM $table GROUP BY 1) s});
	my @held;
	foreach my $p ($self->placements($table))
	{
		my ($node, $shard) = @$p;
		my ($id) = $shard =~ /_(\d+)$/;
		my $n = $node->safe_psql('postgres', "SELECT count(*) FROM $shard");
		push @held, "$id:$n" if $n > 0;
	}
	return (join(' ', sort @held), $routed);
}

# Make a distributed load's ANALYZE of its new shards on node call function
# fn (made there, of body): each new table named like table_like gets a
# statistics object on fn(column), which the ANALYZE that ends the shards'
# load there, once all its rows are written, computes.  The event trigger
# is named fn_trigger.
sub on_analyze
{
	my ($self, $node, $fn, $body, $table_like, $column) = @_;
	$node->safe_psql(
		'postgres', qq{
		SET citus.enable_ddl_propagation = off;
		CREATE FUNCTION $fn(anyelement) RETURNS int IMMUTABLE LANGUAGE plpgsql AS \$\$
		BEGIN
			$body;
			RETURN 1;
		END \$\$;
		CREATE FUNCTION ${fn}_trigger() RETURNS event_trigger LANGUAGE plpgsql AS \$\$
		DECLARE
			r record;
		BEGIN
			FOR r IN SELECT objid::regclass AS t FROM pg_event_trigger_ddl_commands()
					  WHERE command_tag = 'CREATE TABLE'
						AND objid::regclass::text LIKE '$table_like'
			LOOP
				EXECUTE format('CREATE STATISTICS %I ON ($fn($column)) FROM %s',
							   'pb_stat_' || r.t::text, r.t);
			END LOOP;
		END \$\$;
		CREATE EVENT TRIGGER ${fn}_trigger ON ddl_command_end WHEN TAG IN ('CREATE TABLE')
			EXECUTE FUNCTION ${fn}_trigger();
	});
	return;
}

# Take the failures injected into a table away
sub clear_failures
{
	my ($self, $table) = @_;

	$self->on_placements($table,
		'SET citus.enable_ddl_propagation = off; DROP TRIGGER IF EXISTS pb_injected ON %s'
	);
	return;
}

# What every node's log says of a process terminated by a signal, '' if
# nothing: a crash of any node, coordinator or worker.
sub crashes
{
	my ($self) = @_;
	my @lines;

	foreach my $node ($self->nodes)
	{
		push @lines, map { $node->name . ": $_" }
		  grep { /terminated by signal/ } split /\n/,
		  slurp_file($node->logfile);
	}
	return join("\n", @lines);
}

# Check that no polarbench worker (client, recorder, conductor) is left on
# any of the nodes given (every node if none), once the nodes' backends
# have ended.
sub no_worker_left
{
	my ($self, $name, @on) = @_;
	my $workers = q{SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'polarbench%'};

	@on = $self->nodes unless @on;
	foreach my $node (@on)
	{
		ok($node->poll_query_until('postgres', "SELECT ($workers) = 0"),
			"$name: no polarbench worker left on " . $node->name);
	}
	return;
}

# Every node's count of runs, to see that a refusal records nothing.
sub run_counts
{
	my ($self) = @_;

	return join(' ',
		map { $_->safe_psql('postgres', 'SELECT count(*) FROM polarbench_runs') }
		  $self->nodes);
}

# Check that sql, run on node in database db, is refused with the error
# (a regexp), leaving on every node the runs counted before ($before, from
# run_counts()) and no worker.
sub refused
{
	my ($self, $node, $db, $sql, $error, $before, $name) = @_;
	my ($ret, $stdout, $stderr) = $node->psql($db, $sql);

	isnt($ret, 0, "$name: refused");
	like($stderr, $error, "$name: says why");
	is($self->run_counts, $before, "$name: no run recorded on any node");
	$self->no_worker_left($name);
	return;
}

1;
