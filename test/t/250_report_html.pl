# The report people publish: polarbench_report_html() of a run, of a
# comparison and of a sweep, and the program's --report html -o FILE, as
# headless Chromium renders and prints them: one self-contained page (no
# script, nothing fetched), every text from the database escaped (a script
# named <script>alert(1)</script>, a setting's value and an error message
# holding markup), no console error, the charts drawn (the rendered DOM's
# SVG series, with their points), and printed on A4 and on Letter with
# their @page size in the page count the layout gives: the first page, then
# the environment and the tool's report on a page of their own.
use strict;
use warnings;
use File::Copy;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $bin = "$ENV{TESTDIR}/src/bin/polarbench/polarbench";
plan skip_all => "client not built: $bin" unless -x $bin;
my $chromium = (grep { -x $_ } '/usr/bin/chromium', '/usr/bin/chromium-browser')[0];
plan skip_all => 'chromium is not installed (Debian\'s chromium renders the reports)'
  unless defined $chromium;
plan skip_all => 'pdfinfo is not installed (poppler-utils counts the printed pages)'
  unless -x '/usr/bin/pdfinfo';

my $node = PostgreSQL::Test::Cluster->new('report_html');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION polarbench;
	SELECT polarbench_init('pgbench', scale => 1);
	ALTER DATABASE postgres SET search_path = "<b>bold</b>", public});
$ENV{PGHOST} = $node->host;
$ENV{PGPORT} = $node->port;
$ENV{PGDATABASE} = 'postgres';
my $tmp = PostgreSQL::Test::Utils::tempdir;

# Chromium, headless, as the brief of this machine says (its connections
# out are refused anyway), with a profile of its own each time
my $profiles = 0;
sub chromium
{
	my (@args) = @_;
	my ($out, $err) = ('', '');
	$profiles++;
	IPC::Run::run([ $chromium, '--headless', '--no-sandbox', '--disable-gpu',
		'--disable-quic', '--no-first-run', '--disable-background-networking',
		'--disable-component-update', '--disable-sync', '--enable-logging=stderr',
		'--v=0', "--user-data-dir=$tmp/profile$profiles", @args ],
		'>', \$out, '2>', \$err, IPC::Run::timeout(180));
	return ($out, $err);
}

# The pages a PDF has, and its page size in points
sub pdf_pages
{
	my ($pdf) = @_;
	my $info = `pdfinfo '$pdf'`;
	my ($pages) = $info =~ /^Pages:\s+(\d+)/m;
	my ($w, $h) = $info =~ /^Page size:\s+([\d.]+) x ([\d.]+) pts/m;
	return ($pages // 0, sprintf('%.0fx%.0f', $w // 0, $h // 0));
}

# What every page must be: self-contained, escaped, rendered without a
# console error, its charts drawn; returns the rendered DOM.
sub check_page
{
	my ($file, $what, $series) = @_;
	my $html = slurp_file($file);
	like($html, qr/^<!DOCTYPE html>/, "$what: an HTML page");
	unlike($html, qr/<script|\bsrc=|\bhref=|\@import|url\(/i, "$what: no script, nothing fetched");
	my @external = $html =~ m{(https?://[^"\s<]+)}g;
	is_deeply([ grep { $_ ne 'http://www.w3.org/2000/svg' } @external ], [],
		"$what: no address but SVG's namespace");
	like($html, qr/\@page\{size:(A4|letter);/, "$what: a print stylesheet with its paper");
	my ($dom, $err) = chromium('--dump-dom', "file://$file");
	unlike($err, qr/CONSOLE|Uncaught|Refused to/, "$what: rendered with no console error");
	my @polylines = $dom =~ /<polyline class="series"[^>]* points="([^"]+)"/g;
	cmp_ok(scalar(@polylines), '>=', $series, "$what: its charts' series are in the rendered page");
	ok(!grep({ split(/ /, $_) < 1 } @polylines), "$what: each series has its points");
	return $dom;
}

# a run with progress rows, by the program, of a script whose name is markup
my $script = "$tmp/script.sql";
open(my $fh, '>', $script) or die;
print $fh "SELECT abalance FROM pgbench_accounts WHERE aid = 1;\n";
close($fh);
# a file name holds no slash: the markup's "/" is a folder's
mkdir("$tmp/<script>alert(1)<") or die;
copy($script, "$tmp/<script>alert(1)<\/script>") or die;
my $run_html = "$tmp/run.html";
my ($out, $err);
IPC::Run::run([ $bin, '-n', '-f', "$tmp/<script>alert(1)<\/script>", '-T', '2', '-P', '1',
	'--report', 'html', '-o', $run_html ], '>', \$out, '2>', \$err);
like($out, qr/^number of transactions actually processed: \d+/m,
	'--report html prints the run\'s report as well');
ok(-s $run_html, '--report html -o writes the page');
my $run_id = $node->safe_psql('postgres', 'SELECT max(run_id) FROM polarbench_runs');
is(slurp_file($run_html),
	$node->safe_psql('postgres', "SELECT polarbench_report_html($run_id)"),
	'the program writes what polarbench_report_html() returns: one implementation');
my $html = slurp_file($run_html);
like($html, qr/&lt;script&gt;alert\(1\)&lt;\/script&gt;/, 'the script\'s name is escaped');
like($html, qr/&quot;&lt;b&gt;bold&lt;\/b&gt;&quot;, public/, 'a setting\'s value is escaped');
like($html, qr/<h2>Environment<\/h2>/, 'the page has the environment');
like($html, qr/<pre class="tool-report">transaction type: /, 'and the report in pgbench\'s words');
like($html, qr/<th>p99<\/th>/, 'and the percentiles');
like($html, qr/<p class="method">polarbench ran workload [^<]+ with 1 client, for 2 s/, 'and the method');
my $dom = check_page($run_html, 'a run', 2);
like($dom, qr/<svg class="chart"/, 'the chart is inline SVG');

# printed: A4 and Letter, each at its size, in two pages
for my $paper ([ 'A4', '595x842' ], [ 'letter', '612x792' ])
{
	my $file = "$tmp/run-$paper->[0].html";
	open(my $page, '>', $file) or die;
	print $page $node->safe_psql('postgres', "SELECT polarbench_report_html($run_id, '$paper->[0]')");
	close($page);
	chromium('--no-pdf-header-footer', "--print-to-pdf=$tmp/run-$paper->[0].pdf", "file://$file");
	my ($pages, $size) = pdf_pages("$tmp/run-$paper->[0].pdf");
	is($size, $paper->[1], "printed on $paper->[0] at its size");
	is($pages, 2, "printed on $paper->[0]: the first page, then the environment and the tool's report");
}

# a screenshot shows the charts (the README's, when PB_REPORT_SCREENSHOT
# names where to keep it)
my $png = $ENV{PB_REPORT_SCREENSHOT} // "$tmp/run.png";
chromium('--hide-scrollbars', '--window-size=900,1100', "--screenshot=$png", "file://$run_html");
ok(-s $png, 'a screenshot of the page');

# a failed run's error message is escaped
$node->psql('postgres', q{
	SELECT run_id FROM polarbench_run(script => $$DO 'BEGIN RAISE EXCEPTION ''<img src=x onerror=alert(2)>''; END';$$,
									  transactions => 1)});
my $failed = $node->safe_psql('postgres', q{SELECT max(run_id) FROM polarbench_runs WHERE status = 'failed'});
my $failed_html = $node->safe_psql('postgres', "SELECT polarbench_report_html($failed)");
unlike($failed_html, qr/<img/, 'an error message is no markup');
like($failed_html, qr/&lt;img src=x onerror=alert\(2\)&gt;/, 'it is shown escaped');

# a comparison: its ratios with their intervals (two runs a side: the runs
# are the unit), and the runs over time
my @side = map {
	$node->safe_psql('postgres',
		q{SELECT run_id FROM polarbench_run('select-only', transactions => 50)})
} 1 .. 4;
my $compare_html = "$tmp/compare.html";
IPC::Run::run([ $bin, '--compare', "$run_id,$side[0],$side[1]", "$side[2],$side[3]",
	'--report', 'html', '-o', $compare_html ], '>', \$out, '2>', \$err);
like($out, qr/^metric +\| of/m, '--compare --report html prints the table as well');
like(slurp_file($compare_html), qr/<figure class="chart ratios">/, 'a comparison draws its ratios');
check_page($compare_html, 'a comparison', 3);

# a sweep: its metric against concurrency, with intervals over repetitions
my $sweep_html = "$tmp/sweep.html";
IPC::Run::run([ $bin, '-S', '-c', '1,2', '-t', '5', '--repeat', '2', '--report', 'html',
	'-o', $sweep_html ], '>', \$out, '2>', \$err);
like($out, qr/^ *clients \|/m, 'a sweep with --report html prints its table as well');
my $sweep = slurp_file($sweep_html);
like($sweep, qr/<path class="interval"/, 'a sweep\'s cells have their intervals drawn');
like($sweep, qr/<pre class="sweep-table">/, 'and its table');
check_page($sweep_html, 'a sweep', 1);

# bad arguments
command_fails_like([ $bin, '-S', '--report', 'html' ], qr/--report html writes a file: give it with -o FILE/,
	'--report html without -o');
command_fails_like([ $bin, '-S', '-o', "$tmp/x.html" ], qr/-o is used with --report html/,
	'-o without --report html');
my ($rc, $stdout, $stderr) = $node->psql('postgres', "SELECT polarbench_report_html($run_id, 'A5')");
like($stderr, qr/unrecognized paper "A5"/, 'a paper neither A4 nor letter');
($rc, $stdout, $stderr) = $node->psql('postgres', 'SELECT polarbench_report_html(999999)');
like($stderr, qr/run 999999 does not exist/, 'a run that does not exist');
($rc, $stdout, $stderr) = $node->psql('postgres', "SELECT polarbench_report_html(ARRAY[]::bigint[], ARRAY[$run_id])");
like($stderr, qr/a must name at least one run/, 'a comparison with an empty side');
($rc, $stdout, $stderr) = $node->psql('postgres', "SELECT polarbench_sweep_report_html(ARRAY[999999])");
like($stderr, qr/sweep 999999 does not exist/, 'a sweep that does not exist');
($rc, $stdout, $stderr) = $node->psql('postgres', "SELECT polarbench_sweep_report_html(ARRAY[$run_id], 'speed')");
like($stderr, qr/unrecognized sweep metric "speed"/, 'a metric no sweep has');

$node->safe_psql('postgres', 'ALTER DATABASE postgres RESET search_path');
$node->stop;
done_testing();
