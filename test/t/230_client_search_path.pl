# The client's SQL under a hostile search_path: a role that may CREATE in
# schema public plants there, for every function, aggregate, operator and
# type the client's queries name, an object of the exact argument types
# (so that it would win over pg_catalog's), each raising a WARNING and
# trying to make its owner a superuser; then a superuser runs the client
# with public first in its search_path: -i, a run in every --report style
# with -r, --svg, sweeps, --compare in every form, a failing run, a
# --restart-command run, runs on a primary and its hot standby together and
# on the standby alone; in a second database, whose extension lives in a
# schema of its own after public in the path, with polarbench's own views
# and functions planted in public as well; and with a schema of pgbench's
# tables before public's on the path, where the load, the runs and the
# sweeps find them.  No planted object may run, the planter must stay an
# ordinary role, and the outputs must be right.
use strict;
use warnings;
use IPC::Run;
use JSON::PP;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $bin = "$ENV{TESTDIR}/src/bin/polarbench/polarbench";
plan skip_all => "client not built: $bin" unless -x $bin;
my $tmp = PostgreSQL::Test::Utils::tempdir;
$ENV{POLARBENCH_STATE_DIR} = "$tmp/state";

my $primary = PostgreSQL::Test::Cluster->new('hostile');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$primary->start;
$ENV{PGHOST} = $primary->host;
$ENV{PGPORT} = $primary->port;
$ENV{PGDATABASE} = 'postgres';

# db "postgres": the extension in public, as CREATE EXTENSION puts it by
# default; db "other": in schema pb, which the path names after public
$primary->safe_psql('postgres', q{
	CREATE EXTENSION polarbench;
	CREATE ROLE planter LOGIN;
	GRANT CREATE ON SCHEMA public TO planter;
	CREATE DATABASE other});
$primary->safe_psql('other', q{
	CREATE SCHEMA pb;
	CREATE EXTENSION polarbench SCHEMA pb;
	GRANT CREATE ON SCHEMA public TO planter;
	GRANT USAGE ON SCHEMA pb TO planter});

# what every planted object does when it runs
my $planted = q{
CREATE FUNCTION public.planted(what pg_catalog.text) RETURNS pg_catalog.bool
LANGUAGE plpgsql SET search_path = pg_catalog AS $$
BEGIN
	RAISE WARNING 'planted: %', what;
	BEGIN
		EXECUTE 'ALTER ROLE planter SUPERUSER';
	EXCEPTION WHEN OTHERS THEN
		NULL;
	END;
	RETURN true;
END $$;
};

# [ name, argument types, result type, body after the warning ]; $ext is
# replaced by the extension's schema
my @functions = (
	[ 'current_setting', 'pg_catalog.text', 'pg_catalog.text', 'RETURN pg_catalog.current_setting($1);' ],
	[ 'set_config', 'pg_catalog.text, pg_catalog.text, pg_catalog.bool', 'pg_catalog.text',
	  'RETURN pg_catalog.set_config($1, $2, $3);' ],
	[ 'current_database', '', 'pg_catalog.name', 'RETURN pg_catalog.current_database();' ],
	[ 'pg_is_in_recovery', '', 'pg_catalog.bool', 'RETURN pg_catalog.pg_is_in_recovery();' ],
	[ 'pg_postmaster_start_time', '', 'pg_catalog.timestamptz',
	  'RETURN pg_catalog.pg_postmaster_start_time();' ],
	[ 'pg_control_system', '',
	  'TABLE (pg_control_version pg_catalog.int4, catalog_version_no pg_catalog.int4, system_identifier pg_catalog.int8, pg_control_last_modified pg_catalog.timestamptz)',
	  'RETURN QUERY SELECT * FROM pg_catalog.pg_control_system();' ],
	[ 'extract', 'pg_catalog.text, pg_catalog.timestamptz', 'pg_catalog.numeric',
	  'RETURN pg_catalog.extract($1, $2);' ],
	[ 'lower', 'pg_catalog.text', 'pg_catalog.text', 'RETURN pg_catalog.lower($1);' ],
	[ 'pg_size_pretty', 'pg_catalog.int8', 'pg_catalog.text', 'RETURN pg_catalog.pg_size_pretty($1);' ],
	[ 'jsonb_object', 'pg_catalog.text[]', 'pg_catalog.jsonb', 'RETURN pg_catalog.jsonb_object($1);' ],
	[ 'jsonb_pretty', 'pg_catalog.jsonb', 'pg_catalog.text', 'RETURN pg_catalog.jsonb_pretty($1);' ],
	[ 'jsonb_build_object', 'pg_catalog.text, pg_catalog.text', 'pg_catalog.jsonb',
	  'RETURN pg_catalog.jsonb_build_object($1, $2);' ],
	[ 'to_jsonb', '$ext.polarbench_runs', 'pg_catalog.jsonb', 'RETURN pg_catalog.to_jsonb($1);' ],
	[ 'jsonb_populate_record', '$ext.polarbench_runs, pg_catalog.jsonb', '$ext.polarbench_runs',
	  'RETURN pg_catalog.jsonb_populate_record($1, $2);' ],
	[ 'jsonb_array_elements', 'pg_catalog.jsonb', 'SETOF pg_catalog.jsonb',
	  'RETURN QUERY SELECT pg_catalog.jsonb_array_elements($1);' ],
	[ 'unnest', 'pg_catalog.int8[]', 'SETOF pg_catalog.int8', 'RETURN QUERY SELECT pg_catalog.unnest($1);' ],
	[ 'unnest', 'pg_catalog.text[]', 'SETOF pg_catalog.text', 'RETURN QUERY SELECT pg_catalog.unnest($1);' ]);

# [ aggregate, its argument, state transition's body, state type, initial state ]
my @aggregates = (
	[ 'count', '*', 'RETURN s + 1;', 'pg_catalog.int8', '0' ],
	[ 'max', 'pg_catalog.int8', 'RETURN CASE WHEN s IS NULL OR v > s THEN v ELSE s END;',
	  'pg_catalog.int8', undef ],
	[ 'jsonb_agg', 'pg_catalog.jsonb', 'RETURN s || pg_catalog.jsonb_build_array(v);',
	  'pg_catalog.jsonb', '[]' ]);

# [ operator, left type, right type, result type ]
my @operators = (
	[ '=', 'int8', 'int8', 'bool' ],
	[ '>', 'int8', 'int8', 'bool' ],
	[ '=', 'text', 'text', 'bool' ],
	[ '=', 'text', 'name', 'bool' ],
	[ '=', 'name', 'name', 'bool' ],
	[ '=', 'name', 'text', 'bool' ],
	[ '=', 'oid', 'oid', 'bool' ],
	[ '~~', 'text', 'text', 'bool' ],
	[ '->>', 'jsonb', 'text', 'text' ],
	[ '->', 'jsonb', 'text', 'jsonb' ],
	[ '||', 'jsonb', 'jsonb', 'jsonb' ]);

# types the client's casts name
my @types = qw(jsonb float8 text int4 int8 bool);

sub plant_sql
{
	my ($ext) = @_;
	my $sql = $planted;
	my $n = 0;

	foreach my $f (@functions)
	{
		my ($name, $args, $result, $body) = @$f;
		s/\$ext/$ext/g foreach ($args, $result);
		$sql .= "CREATE FUNCTION public.$name($args) RETURNS $result LANGUAGE plpgsql"
		  . " SET search_path = pg_catalog AS \$\$ BEGIN PERFORM public.planted('$name($args)'); $body END \$\$;\n";
	}
	foreach my $a (@aggregates)
	{
		my ($name, $arg, $body, $stype, $init) = @$a;
		my $step = 'public.planted_step_' . $n++;
		my $params = $arg eq '*' ? "s $stype" : "s $stype, v $arg";
		$sql .= "CREATE FUNCTION $step($params) RETURNS $stype LANGUAGE plpgsql"
		  . " SET search_path = pg_catalog AS \$\$ BEGIN PERFORM public.planted('aggregate $name($arg)'); $body END \$\$;\n"
		  . "CREATE AGGREGATE public.$name($arg) (SFUNC = $step, STYPE = $stype"
		  . (defined $init ? ", INITCOND = '$init'" : '') . ");\n";
	}
	foreach my $o (@operators)
	{
		my ($op, $left, $right, $result) = @$o;
		my $func = 'public.planted_op_' . $n++;
		$sql .= "CREATE FUNCTION $func(a pg_catalog.$left, b pg_catalog.$right) RETURNS pg_catalog.$result"
		  . " LANGUAGE plpgsql SET search_path = pg_catalog AS \$\$ BEGIN"
		  . " PERFORM public.planted('operator $left $op $right');"
		  . " RETURN a OPERATOR(pg_catalog.$op) b; END \$\$;\n"
		  . "CREATE OPERATOR public.$op (LEFTARG = pg_catalog.$left, RIGHTARG = pg_catalog.$right, FUNCTION = $func);\n";
	}
	$sql .= "CREATE DOMAIN public.$_ AS pg_catalog.$_ CHECK (public.planted('type $_'));\n"
	  foreach @types;
	return $sql;
}

# polarbench's own objects, where the extension's schema follows public in
# the path: views over the extension's, functions of the same signatures
my $plant_polarbench = q{
CREATE VIEW public.polarbench_runs AS
	SELECT * FROM pb.polarbench_runs WHERE public.planted('view polarbench_runs');
CREATE VIEW public.polarbench_statements AS
	SELECT * FROM pb.polarbench_statements WHERE public.planted('view polarbench_statements');
CREATE VIEW public.polarbench_progress AS
	SELECT * FROM pb.polarbench_progress WHERE public.planted('view polarbench_progress');
DO $$
DECLARE
	f record;
BEGIN
	FOR f IN
		SELECT p.proname, pg_catalog.pg_get_function_arguments(p.oid) AS args,
			   pg_catalog.pg_get_function_result(p.oid) AS result, p.proretset
		  FROM pg_catalog.pg_proc p
		 WHERE p.pronamespace OPERATOR(pg_catalog.=) 'pb'::pg_catalog.regnamespace
		   AND p.proname OPERATOR(pg_catalog.=) ANY (ARRAY['polarbench_run', 'polarbench_sweep',
				'polarbench_init', 'polarbench_report', 'polarbench_run_document',
				'polarbench_record', 'polarbench_compare']::pg_catalog.name[])
	LOOP
		EXECUTE pg_catalog.format(
			'CREATE FUNCTION public.%I(%s) RETURNS %s LANGUAGE plpgsql SET search_path = pg_catalog AS %L',
			f.proname, f.args, f.result,
			pg_catalog.format('BEGIN PERFORM public.planted(%L); %s END', 'function ' || f.proname,
							  CASE WHEN f.proretset THEN 'RETURN;' ELSE 'RETURN NULL;' END));
	END LOOP;
END $$;
};

sub plant
{
	my ($db, $sql) = @_;
	$primary->safe_psql($db, "SET search_path = pg_catalog;\n$sql",
		extra_params => [ '-U', 'planter' ]);
}
plant('postgres', plant_sql('public'));
plant('other', plant_sql('pb'));
plant('other', $plant_polarbench);
is($primary->safe_psql('postgres', q{
	SELECT count(*) FROM pg_proc WHERE pronamespace = 'public'::regnamespace
	   AND proowner = 'planter'::regrole}),
	1 + @functions + 2 * @aggregates + @operators, 'every object is planted');

my $standby = PostgreSQL::Test::Cluster->new('hostile_standby');
$primary->backup('backup');
$standby->init_from_backup($primary, 'backup', has_streaming => 1);
$standby->start;

# what fired: planted object => the client runs it fired in
my %fired;

# Run the client with public first in the path, in database db: its exit
# status, stdout and stderr; no planted object may have run.
sub client
{
	my ($name, $path, $status, $args) = @_;
	my ($out, $err) = ('', '');
	local $ENV{PGOPTIONS} = "-c search_path=$path";

	IPC::Run::run([ $bin, @$args ], '>', \$out, '2>', \$err,
		IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
	my $rc = $? >> 8;
	my @plants = $err =~ /planted: ([^\n]*)/g;
	push @{ $fired{$_} }, $name foreach @plants;
	is($rc, $status, "$name: exit status $status") or diag("stderr: $err");
	is(join(', ', sort keys %{ { map { $_ => 1 } @plants } }), '', "$name: no planted object ran");
	return ($out, $err);
}

my $pub = 'public,pg_catalog';
my $pbpath = 'public,pb,pg_catalog';

# 1. -i, and a run in pgbench's words with -r
my ($out, $err) = client('-i', $pub, 0, [ '-i', '-s', '1' ]);
like($err, qr/^done in \d+\.\d\d s/m, '-i: loaded');
($out, $err) = client('-S -r', $pub, 0, [ '-S', '-t', '5', '-r' ]);
like($out, qr/^scaling factor: 1\n.*^number of transactions actually processed: 5\/5$/ms,
	'-S -r: the scale from pgbench_branches, every transaction');
like($out, qr/^statement latencies in milliseconds and failures:\n +\d+\.\d{3} +0  \\set aid/m,
	'-S -r: the statements\' latencies');
like($err, qr/^starting vacuum\.\.\.end\.$/m, '-S -r: vacuumed first');

# 2. every other --report style
($out, $err) = client('--report sysbench', $pub, 0, [ '-n', '-S', '-t', '5', '--report', 'sysbench' ]);
like($out, qr/^    transactions:\s+5\s+\(/m, '--report sysbench');
($out, $err) = client('--report ycsb', $pub, 0, [ '-n', '-S', '-t', '5', '--report', 'ycsb' ]);
like($out, qr/^\[OVERALL\], Throughput\(ops\/sec\), [0-9.]+$/m, '--report ycsb');
($out, $err) = client('--report json', $pub, 0, [ '-n', '-S', '-t', '5', '--report', 'json' ]);
my $doc = eval { decode_json($out) } // {};
is($doc->{run}{transactions}, 5, '--report json');
($out, $err) = client('--report csv', $pub, 0, [ '-n', '-S', '-t', '5', '--report', 'csv' ]);
like($out, qr/^run_id,workload,.*\r\n\d+,select-only,1,/s, '--report csv');

# 3. --svg, a failing run, a sweep in every form
($out, $err) = client('--svg', $pub, 0, [ '-n', '-S', '-T', '2', '--svg', "$tmp/run.svg" ]);
like(-f "$tmp/run.svg" ? slurp_file("$tmp/run.svg") : '',
	qr/<polyline class="series" data-label="tps" [^>]*points="[\d.]+,[\d.]+/, '--svg: drawn');
my $div = "$tmp/div.sql";
append_to_file($div, "SELECT 1/0;\n");
($out, $err) = client('a failing run', $pub, 2, [ '-n', '-f', $div, '-t', '1' ]);
like($err, qr/Run \d+ was aborted; it is recorded as failed\./, 'a failing run: told how it ended');
my @sweep = ('-n', '-S', '-c', '1,2', '-t', '5', '--set', 'work_mem=4MB', '--set', 'work_mem=8MB');
($out, $err) = client('a sweep', $pub, 0, [@sweep]);
like($out, qr/^clients \| work_mem=4MB \| work_mem=8MB\n-+\+-+\+-+\n +1 \| .*\n +2 \| .*\n\z/m,
	'a sweep: its table');
($out, $err) = client('a sweep --report csv', $pub, 0, [ @sweep, '--report', 'csv' ]);
is(scalar(() = $out =~ /\r\nwork_mem=\dMB,\d+,select-only,/g), 4, 'a sweep as csv: every run');
($out, $err) = client('a sweep --report json', $pub, 0, [ @sweep, '--report', 'json' ]);
$doc = eval { decode_json($out) } // {};
is(scalar(@{ $doc->{runs} // [] }), 4, 'a sweep as json: every run');
($out, $err) = client('a sweep --svg', $pub, 0, [ @sweep, '--svg', "$tmp/sweep.svg" ]);
is(scalar(() = (-f "$tmp/sweep.svg" ? slurp_file("$tmp/sweep.svg") : '') =~ /<polyline class="series"/g),
	2, 'a sweep drawn: a line per setting set');

# 3b. --compare in every form: a table, json, csv and a chart
sub last_runs
{
	my ($db, $schema) = @_;
	return split /\n/, $primary->safe_psql($db, qq{
		SELECT run_id FROM $schema.polarbench_runs
		 WHERE status OPERATOR(pg_catalog.=) 'finished' AND node IS NULL
		 ORDER BY run_id DESC LIMIT 3});
}
my @ids = last_runs('postgres', 'public');
my @compare = ('--compare', "$ids[0],$ids[1]", $ids[2]);
($out, $err) = client('--compare', $pub, 0, [@compare]);
like($out, qr/^tps +\| +\| [^\n]*\n(?s:.*)^latency_p99: Student's t on the logs of 2 and 1 runs/m, '--compare: its table');
($out, $err) = client('--compare --report json', $pub, 0, [ @compare, '--report', 'json' ]);
$doc = eval { decode_json($out) } // {};
is(join(' ', map { $_->{metric} } grep { !defined $_->{part} } @{ $doc->{rows} // [] }),
	'tps qps latency_avg latency_p50 latency_p95 latency_p99', '--compare as json');
($out, $err) = client('--compare --report csv', $pub, 0, [ @compare, '--report', 'csv' ]);
like($out, qr/^metric,part,value_a,value_b,ratio,.*\r\ntps,/s, '--compare as csv');
($out, $err) = client('--compare --svg', $pub, 0, [ @compare, '--svg', "$tmp/compare.svg" ]);
is(scalar(() = (-f "$tmp/compare.svg" ? slurp_file("$tmp/compare.svg") : '') =~ /<polyline class="series"/g),
	6, '--compare drawn: a line per run in each panel');

# 4. a setting that takes a restart, with the user's restart command
my $restart = join(' ', 'pg_ctl', '-D', $primary->data_dir, '-l', $primary->logfile, '-w', 'restart');
my $shared_buffers = $primary->safe_psql('postgres', 'SHOW shared_buffers');
($out, $err) = client('--restart-command', $pub, 0,
	[ '-n', '-S', '-t', '5', '--settings', 'shared_buffers=24MB', '--restart-command', $restart ]);
is($primary->safe_psql('postgres', q{
	SELECT effective_settings->>'shared_buffers' FROM polarbench_runs ORDER BY run_id DESC LIMIT 1}),
	'24MB', '--restart-command: the run had the setting');
is($primary->safe_psql('postgres', 'SHOW shared_buffers'), $shared_buffers,
	'--restart-command: and it is put back');

# 5. the primary and its hot standby together, the standby alone
$primary->wait_for_catchup($standby);
my $hosts = join(',', $primary->host, $standby->host);
my $ports = join(',', $primary->port, $standby->port);
($out, $err) = client('two nodes', $pub, 0,
	[ '-h', $hosts, '-p', $ports, '-S', '-c', '1', '-t', '5', '--report', 'json' ]);
$doc = eval { decode_json($out) } // {};
is(join(' ', map { $_->{role} . ':' . $_->{transactions} } @{ $doc->{nodes} // [] }),
	'primary:5 standby:5', 'two nodes: both ran');
ok(defined $doc->{nodes} && defined $doc->{nodes}[1]{stored_run_id}
	  && $doc->{nodes}[1]{stored_run_id} =~ /^\d+$/,
	'two nodes: the standby\'s run stored on the primary');
is($doc->{total}{transactions}, 10, 'two nodes: added up');
my @standby = ('-h', $standby->host, '-p', $standby->port, '-S', '-t', '5');
($out, $err) = client('the standby, --report csv', $pub, 0, [ @standby, '--report', 'csv' ]);
like($out, qr/^run_id,workload,.*\r\n-\d+,select-only,1,/s, 'the standby as csv: its row');
($out, $err) = client('the standby, --report json', $pub, 0, [ @standby, '--report', 'json' ]);
$doc = eval { decode_json($out) } // {};
ok(($doc->{run}{run_id} // 0) < 0 && $doc->{run}{transactions} == 5, 'the standby as json');
($out, $err) = client('the standby, --svg', $pub, 0,
	[ '-h', $standby->host, '-p', $standby->port, '-S', '-T', '2', '--svg', "$tmp/standby.svg" ]);
like(-f "$tmp/standby.svg" ? slurp_file("$tmp/standby.svg") : '',
	qr/<polyline class="series" data-label="tps" [^>]*points="[\d.]+,[\d.]+/, 'the standby drawn');

# 6. the extension in a schema of its own, after public in the path
($out, $err) = client('-i, its own schema', $pbpath, 0, [ '-i', '-s', '1', '-d', 'other' ]);
like($err, qr/^done in \d+\.\d\d s/m, '-i in database other');
is($primary->safe_psql('other', q{
	SELECT count(*) FROM pg_class WHERE relname = 'pgbench_branches' AND relnamespace = 'public'::regnamespace}),
	'1', 'its tables where the user\'s path creates them');
($out, $err) = client('-S -r, its own schema', $pbpath, 0, [ '-S', '-t', '5', '-r', '-d', 'other' ]);
like($out, qr/^number of transactions actually processed: 5\/5\n.*^statement latencies/ms,
	'-S -r in database other');
($out, $err) = client('--report json, its own schema', $pbpath, 0,
	[ '-n', '-S', '-t', '5', '--report', 'json', '-d', 'other' ]);
$doc = eval { decode_json($out) } // {};
is($doc->{run}{transactions}, 5, '--report json in database other');
($out, $err) = client('--report csv, its own schema', $pbpath, 0,
	[ '-n', '-S', '-t', '5', '--report', 'csv', '-d', 'other' ]);
like($out, qr/^run_id,workload,.*\r\n\d+,select-only,1,/s, '--report csv in database other');
($out, $err) = client('--svg, its own schema', $pbpath, 0,
	[ '-n', '-S', '-T', '2', '--svg', "$tmp/other.svg", '-d', 'other' ]);
like(-f "$tmp/other.svg" ? slurp_file("$tmp/other.svg") : '',
	qr/<polyline class="series" data-label="tps" [^>]*points="[\d.]+,[\d.]+/, '--svg in database other');
($out, $err) = client('a sweep, its own schema', $pbpath, 0, [ @sweep, '--report', 'json', '-d', 'other' ]);
$doc = eval { decode_json($out) } // {};
is(scalar(@{ $doc->{runs} // [] }), 4, 'a sweep in database other');
@ids = last_runs('other', 'pb');
($out, $err) = client('--compare, its own schema', $pbpath, 0,
	[ '--compare', "$ids[0],$ids[1]", $ids[2], '--report', 'json', '-d', 'other' ]);
$doc = eval { decode_json($out) } // {};
is(scalar(grep { !defined $_->{part} } @{ $doc->{rows} // [] }), 6, '--compare in database other');
($out, $err) = client('--compare --svg, its own schema', $pbpath, 0,
	[ '--compare', "$ids[0],$ids[1]", $ids[2], '--svg', "$tmp/compare-other.svg", '-d', 'other' ]);
is(scalar(() = (-f "$tmp/compare-other.svg" ? slurp_file("$tmp/compare-other.svg") : '') =~ /<polyline class="series"/g),
	6, '--compare drawn in database other');

# 7. the session's own search_path says which tables a load and a run use:
# pgbench's tables of scale 2 in a schema first on the path, those of scale
# 1 in public after it; the load, the run's vacuum, its clients, its scale
# and a sweep's runs are all of the first schema's
$primary->safe_psql('postgres', 'CREATE SCHEMA client_s2');
my $s2path = 'client_s2,public,pg_catalog';
sub histories
{
	return $primary->safe_psql('postgres', q{
		SELECT (SELECT count(*) FROM client_s2.pgbench_history) || ' '
			   || (SELECT count(*) FROM public.pgbench_history)});
}
($out, $err) = client('-i, the path\'s schema', $s2path, 0, [ '-i', '-s', '2' ]);
is($primary->safe_psql('postgres', q{SELECT count(*) FROM client_s2.pgbench_branches}),
	'2', '-i: loaded into the first schema of the path');
my (undef, $public_history) = split / /, histories();
($out, $err) = client('tpcb-like, the path\'s tables', $s2path, 0, [ '-t', '5' ]);
like($out, qr/^scaling factor: 2\n.*^number of transactions actually processed: 5\/5$/ms,
	'a run: the scale of the path\'s tables');
is(histories(), "5 $public_history", 'a run: its history rows in the path\'s tables only');
($out, $err) = client('a sweep, the path\'s tables', $s2path, 0, [ '-n', '-c', '1,2', '-t', '3' ]);
is(histories(), "14 $public_history", 'a sweep: every run\'s history rows in the path\'s tables');
is($primary->safe_psql('postgres', q{
	SELECT string_agg(DISTINCT effective_settings->>'search_path', '; ')
	  FROM polarbench_runs WHERE run_id >= (SELECT max(run_id) - 2 FROM polarbench_runs)}),
	'client_s2, public, pg_temp', 'the clients\' search_path is recorded, pg_catalog first');

# nothing ran anywhere: not in the client's sessions, not in the servers'
is($primary->safe_psql('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'planter'}),
	'f', 'the planter is no superuser');
foreach my $node ($primary, $standby)
{
	my @logged = slurp_file($node->logfile) =~ /WARNING:  planted: ([^\n]*)/g;
	push @{ $fired{$_} }, 'server log of ' . $node->name foreach @logged;
	is(scalar(@logged), 0, 'no planted object ran on ' . $node->name);
}
foreach my $plant (sort keys %fired)
{
	my %in = map { $_ => 1 } @{ $fired{$plant} };
	diag("planted $plant ran in: " . join('; ', sort keys %in));
}

$standby->stop;
$primary->stop;
done_testing();
