#!/usr/bin/perl
# The packaging check: META.json holds to the PGXN Meta Spec 1.0.0 (the keys
# it requires and allows, and the form of each value: terms, semantic
# versions, version ranges, licenses, paths, URIs), the files it names are
# in the tree, and the versions agree: polarbench.control's default_version
# is the distribution's and the extension's version in META.json (as a
# semantic version, 1.5 -> 1.5.0) and the upstream version of
# debian/changelog's newest entry.  Prints what is wrong and exits 1.
#
# Usage: perl test/check_packaging.pl [repo]
use strict;
use warnings;
use JSON::PP;

my $repo = $ARGV[0] // ($0 =~ m{^(.*)/test/[^/]+$} ? $1 : '.');
my @errors;

sub fail { push @errors, join('', @_); return 0; }

sub slurp
{
	my ($path) = @_;
	open(my $fh, '<', "$repo/$path") or die "could not open $repo/$path: $!\n";
	local $/;
	return <$fh>;
}

# The spec's kinds of value, as its schemas define them.
my $semver = qr/(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)
	(?:-(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?
	(?:\+[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*)?/x;
my %licenses = map { $_ => 1 } qw(agpl_3 apache_1_1 apache_2_0 artistic_1
  artistic_2 bsd freebsd gfdl_1_2 gfdl_1_3 gpl_1 gpl_2 gpl_3 lgpl_2_1
  lgpl_3_0 mit mozilla_1_0 mozilla_1_1 openssl perl_5 postgresql qpl_1_0
  ssleay sun zlib open_source restricted unrestricted unknown);

sub is_string { my ($v) = @_; return defined $v && !ref $v && $v ne ''; }

# A key the spec does not define is allowed only as a custom x_ key.
sub known_keys
{
	my ($where, $obj, @keys) = @_;
	my %known = map { $_ => 1 } @keys;
	for my $k (sort keys %$obj)
	{
		fail("$where: unknown key \"$k\"") unless $known{$k} || $k =~ /^[xX]_./;
	}
}

sub check_object
{
	my ($where, $v) = @_;
	return (ref $v eq 'HASH') || fail("$where: not an object");
}

sub check_term
{
	my ($where, $v) = @_;
	return fail("$where: not a term (a string of at least 2 characters, no slash, backslash, space or control character)")
	  unless is_string($v) && $v =~ /^[^\/\\\s\p{Cntrl}]{2,}$/;
}

sub check_version
{
	my ($where, $v) = @_;
	return fail("$where: \"", $v // 'null', "\" is not a semantic version")
	  unless is_string($v) && $v =~ /^$semver$/;
}

sub check_range
{
	my ($where, $v) = @_;
	return if defined $v && !ref $v && $v =~ /^0$/;
	my $one = qr/(?:(?:[=!]=|[<>]=?)\s*)?$semver/;
	fail("$where: \"", $v // 'null', "\" is not a version range")
	  unless is_string($v) && $v =~ /^(?:$one|0)(?:,\s*$one)*$/;
}

sub check_uri
{
	my ($where, $v) = @_;
	fail("$where: not a URI") unless is_string($v) && $v =~ /^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/;
}

# A path in the distribution, relative, with unix conventions; it must be
# there when $exists.
sub check_path
{
	my ($where, $v, $exists) = @_;
	return fail("$where: not a relative unix path")
	  unless is_string($v) && length($v) >= 2 && $v !~ m{^/} && $v !~ /\\/;
	fail("$where: $v is not in the tree") if $exists && !-e "$repo/$v";
}

sub check_strings
{
	my ($where, $v, $check) = @_;
	my @items = ref $v eq 'ARRAY' ? @$v : ($v);
	return fail("$where: an empty list") unless @items;
	my %seen;
	for my $item (@items)
	{
		$check->($where, $item);
		fail("$where: \"$item\" twice") if is_string($item) && $seen{$item}++;
	}
}

my $meta = eval { JSON::PP->new->decode(slurp('META.json')) };
die "META.json is not JSON: $@" unless $meta;
check_object('META.json', $meta) or die "META.json is not an object\n";

known_keys('META.json', $meta, qw(name version abstract maintainer license
  provides meta-spec description generated_by tags no_index prereqs
  release_status resources));
for my $k (qw(name version abstract maintainer license provides meta-spec))
{
	fail("META.json: no \"$k\", which the spec requires") unless exists $meta->{$k};
}

check_term('name', $meta->{name});
check_version('version', $meta->{version});
for my $k (qw(abstract description generated_by))
{
	fail("$k: not a non-empty string") if exists $meta->{$k} && !is_string($meta->{$k});
}
check_strings('maintainer', $meta->{maintainer},
	sub { fail("$_[0]: not a non-empty string") unless is_string($_[1]) });

my $license = $meta->{license};
if (ref $license eq 'HASH')
{
	fail('license: an empty object') unless %$license;
	check_uri("license $_", $license->{$_}) for sort keys %$license;
}
else
{
	check_strings('license', $license,
		sub { fail("$_[0]: \"", $_[1] // 'null', "\" is none of the spec's licenses") unless is_string($_[1]) && $licenses{$_[1]} });
}

my $spec = $meta->{'meta-spec'};
if (check_object('meta-spec', $spec))
{
	known_keys('meta-spec', $spec, qw(version url));
	fail('meta-spec: version is not 1.0.x')
	  unless is_string($spec->{version}) && $spec->{version} =~ /^1\.0\.\d+$/;
	fail('meta-spec: url is not the spec\'s')
	  if exists $spec->{url} && ($spec->{url} // '') !~ m{^https?://pgxn\.org/meta/spec\.txt$};
}

my $provides = $meta->{provides};
if (check_object('provides', $provides))
{
	fail('provides: no extension') unless %$provides;
	for my $ext (sort keys %$provides)
	{
		my $e = $provides->{$ext};
		check_term("provides: $ext", $ext);
		next unless check_object("provides $ext", $e);
		known_keys("provides $ext", $e, qw(file version abstract docfile docpath));
		fail("provides $ext: no file") unless exists $e->{file};
		fail("provides $ext: no version") unless exists $e->{version};
		check_path("provides $ext file", $e->{file}, 1);
		check_path("provides $ext docfile", $e->{docfile}, 1) if exists $e->{docfile};
		check_version("provides $ext version", $e->{version});
		fail("provides $ext abstract: not a non-empty string")
		  if exists $e->{abstract} && !is_string($e->{abstract});
	}
}

if (exists $meta->{prereqs} && check_object('prereqs', $meta->{prereqs}))
{
	my $prereqs = $meta->{prereqs};
	my @phases = qw(configure build test runtime develop);
	known_keys('prereqs', $prereqs, @phases);
	fail('prereqs: no phase') unless grep { exists $prereqs->{$_} } @phases;
	for my $phase (grep { exists $prereqs->{$_} } @phases)
	{
		next unless check_object("prereqs $phase", $prereqs->{$phase});
		my @relations = qw(requires recommends suggests conflicts);
		known_keys("prereqs $phase", $prereqs->{$phase}, @relations);
		fail("prereqs $phase: no relationship") unless grep { exists $prereqs->{$phase}{$_} } @relations;
		for my $rel (grep { exists $prereqs->{$phase}{$_} } @relations)
		{
			my $set = $prereqs->{$phase}{$rel};
			next unless check_object("prereqs $phase $rel", $set);
			fail("prereqs $phase $rel: empty") unless %$set;
			for my $name (sort keys %$set)
			{
				check_term("prereqs $phase $rel: $name", $name);
				check_range("prereqs $phase $rel $name", $set->{$name});
			}
		}
	}
}

if (exists $meta->{no_index} && check_object('no_index', $meta->{no_index}))
{
	known_keys('no_index', $meta->{no_index}, qw(file directory));
	fail('no_index: neither file nor directory')
	  unless grep { exists $meta->{no_index}{$_} } qw(file directory);
	for my $k (grep { exists $meta->{no_index}{$_} } qw(file directory))
	{
		check_strings("no_index $k", $meta->{no_index}{$k}, sub { check_path($_[0], $_[1], 1) });
	}
}

if (exists $meta->{release_status})
{
	fail('release_status: not stable, testing or unstable')
	  unless ($meta->{release_status} // '') =~ /^(stable|testing|unstable)$/;
}

if (exists $meta->{tags})
{
	fail('tags: not a list') unless ref $meta->{tags} eq 'ARRAY';
	check_strings('tags', $meta->{tags},
		sub { fail("$_[0]: \"", $_[1] // 'null', "\" is not a tag") unless is_string($_[1]) && length($_[1]) <= 255 && $_[1] =~ /^[^\/\\\p{Cntrl}]{2,}$/ });
}

if (exists $meta->{resources} && check_object('resources', $meta->{resources}))
{
	my $r = $meta->{resources};
	known_keys('resources', $r, qw(homepage bugtracker repository));
	fail('resources: no homepage, bugtracker or repository')
	  unless grep { exists $r->{$_} } qw(homepage bugtracker repository);
	check_uri('resources homepage', $r->{homepage}) if exists $r->{homepage};
	if (exists $r->{bugtracker} && check_object('resources bugtracker', $r->{bugtracker}))
	{
		my $b = $r->{bugtracker};
		known_keys('resources bugtracker', $b, qw(web mailto));
		fail('resources bugtracker: neither web nor mailto') unless exists $b->{web} || exists $b->{mailto};
		check_uri('resources bugtracker web', $b->{web}) if exists $b->{web};
		fail('resources bugtracker mailto: not an address')
		  if exists $b->{mailto} && ($b->{mailto} // '') !~ /^[^@\s]+@[^@\s]+$/;
	}
	if (exists $r->{repository} && check_object('resources repository', $r->{repository}))
	{
		my $p = $r->{repository};
		known_keys('resources repository', $p, qw(url web type));
		fail('resources repository: needs url and type, or web')
		  unless (exists $p->{url} && exists $p->{type}) || exists $p->{web};
		check_uri("resources repository $_", $p->{$_}) for grep { exists $p->{$_} } qw(url web);
		fail('resources repository type: not lower-case letters')
		  if exists $p->{type} && ($p->{type} // '') !~ /^\p{Lower}+$/;
	}
}

# The versions agree: the extension's, the distribution's, the packages'.
my ($control_version) = slurp('polarbench.control') =~ /^default_version\s*=\s*'([^']+)'/m
  or die "polarbench.control names no default_version\n";
(my $as_semver = $control_version) =~ s/^(\d+\.\d+)$/$1.0/;
fail("META.json version $meta->{version} is not polarbench.control's $control_version ($as_semver)")
  if is_string($meta->{version}) && $meta->{version} ne $as_semver;
for my $ext (grep { $_ eq 'polarbench' } keys %{ ref $provides eq 'HASH' ? $provides : {} })
{
	my $v = $provides->{$ext}{version} // '';
	fail("META.json provides polarbench version $v is not polarbench.control's $control_version ($as_semver)")
	  if $v ne $as_semver;
}
fail('META.json provides no extension polarbench')
  unless ref $provides eq 'HASH' && exists $provides->{polarbench};
my ($package, $debian_version) = slurp('debian/changelog') =~ /^(\S+) \(([^)]+)\)/
  or die "debian/changelog has no entry\n";
(my $upstream = $debian_version) =~ s/^\d+://;
$upstream =~ s/-[^-]+$//;
fail("debian/changelog's upstream version $upstream is not polarbench.control's $control_version")
  if $upstream ne $control_version;
fail("debian/changelog's source package $package is not META.json's name")
  if $package ne ($meta->{name} // '');

if (@errors)
{
	print "$_\n" for @errors;
	exit 1;
}
print "META.json holds to the PGXN Meta Spec 1.0.0; versions agree ($control_version)\n";
exit 0;
