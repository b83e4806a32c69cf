#!/usr/bin/env bash
# The package test: polarbench's Debian packages installed where nothing was
# built.  It builds them with `make deb`, makes a Debian 12 root with
# debootstrap from Debian's archive, and installs them there with apt, which
# resolves their dependencies from the archive; in that root it starts
# PostgreSQL 15 as Debian's packages set it up, creates the extension, loads
# pgbench's tables and runs a short benchmark with the polarbench program
# found on the PATH, and checks their output; and it checks that the root
# has no compiler, no server headers and none of polarbench's sources.
#
# Usage: bash test/package/deb_install.sh [repo]     (as root)
#
# It prints "ok - ..." or "not ok - ..." per check and ends with the line
# "N passed, N failed", or, when Debian's archive cannot be reached, says so
# and ends with "N passed, 0 failed, 1 skipped" (the packages built, not
# installed).
#
# PB_DEBIAN_MIRROR names the archive (http://deb.debian.org/debian).  The
# root debootstrap makes is kept for 30 days as a tarball, and the packages
# apt downloads into it are kept too, under PB_DEB_CACHE
# (/var/cache/polarbench/deb-test), so that a later run neither runs
# debootstrap nor downloads them again.  Runs of the test on one machine take
# turns.
set -uo pipefail

repo=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
mirror=${PB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=${PB_DEB_CACHE:-/var/cache/polarbench/deb-test}
suite=bookworm

passed=0
failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
not_ok() { echo "not ok - $1"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }

if [ "$(id -u)" != 0 ]; then
	not_ok "the package test runs as root (debootstrap, chroot)"
	finish
fi

work=$(mktemp -d /tmp/polarbench-deb.XXXXXX)
chmod 755 "$work"
trap 'rm -rf --one-file-system "$work"' EXIT

# 1. the packages, as a user builds them
SECONDS=0
if make -s -C "$repo" deb DEB_DIR="$work/debs" >"$work/build.log" 2>&1; then
	ok "make deb builds the packages ($SECONDS s)"
else
	tail -30 "$work/build.log"
	not_ok "make deb builds the packages"
	finish
fi
version=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$repo/polarbench.control")
debs=()
for p in postgresql-15-polarbench polarbench; do
	f=$(ls "$work/debs/${p}_${version}"-*_*.deb 2>/dev/null | head -n 1)
	if [ -n "$f" ]; then
		ok "$p's package is built, version $version"
		debs+=("$f")
	else
		ls "$work/debs"
		not_ok "$p's package is built, version $version"
	fi
done
[ "$failed" -eq 0 ] || finish

# 2. a Debian 12 root, from the archive
if ! wget -q -T 20 -t 2 -O /dev/null "$mirror/dists/$suite/InRelease"; then
	echo "skip - Debian's archive ($mirror) cannot be reached: the packages are built but not installed"
	echo "$passed passed, $failed failed, 1 skipped"
	exit 0
fi
mkdir -p "$cache/debootstrap" "$cache/apt-archives/partial"
tarball=$cache/$suite-minbase.tar
root=$work/root
mkdir "$root"
SECONDS=0
if [ -n "$(find "$tarball" -mtime -30 2>/dev/null)" ]; then
	tar -C "$root" --numeric-owner -xpf "$tarball"
elif debootstrap --variant=minbase --cache-dir="$cache/debootstrap" "$suite" "$root" "$mirror" \
		>"$work/debootstrap.log" 2>&1; then
	# kept as it is now, before anything is installed into it
	tar -C "$root" --numeric-owner -cf "$tarball.$$" . && mv "$tarball.$$" "$tarball"
else
	tail -20 "$work/debootstrap.log"
	not_ok "debootstrap makes a Debian 12 root"
	finish
fi

# no service starts while packages install (the test starts the server);
# the archive with its updates, as a Debian 12 machine has it
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb ${mirror%/debian}/debian-security $suite-security main
EOF
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -m 755 "$root/tmp/debs" "$root/tmp/out"
cp "${debs[@]}" "$root/tmp/debs/"
chmod 644 "$root"/tmp/debs/*.deb

# 3. in the root: what a user does after copying the two .deb files there
cat >"$root/tmp/in_root.sh" <<'EOF'
out=/tmp/out
chown _apt:root /var/cache/apt/archives/partial
apt-get update >$out/apt-update.log 2>&1 || exit 10
apt-get install -y --no-install-recommends /tmp/debs/*.deb >$out/apt-install.log 2>&1 || exit 11
# the kept packages: none that the archive has replaced since
apt-get autoclean >/dev/null 2>&1
dpkg-query -W -f '${Package} ${Version} ${db:Status-Status}\n' \
	postgresql-15-polarbench polarbench >$out/installed 2>&1
# the server on a Unix socket only: the host's network is shared
echo "listen_addresses = ''" >/etc/postgresql/15/main/conf.d/polarbench-test.conf
pg_ctlcluster 15 main start >$out/start.log 2>&1 || exit 12
cd /
as_postgres() { runuser -u postgres -- "$@"; }
as_postgres psql -X -At -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION polarbench' \
	-c "SELECT extversion FROM pg_extension WHERE extname = 'polarbench'" >$out/create.out 2>&1
echo $? >$out/create.rc
command -v polarbench >$out/which 2>&1
readlink -f "$(command -v polarbench)" >>$out/which 2>&1
as_postgres polarbench --version >$out/version.out 2>&1
as_postgres polarbench -i -s 1 postgres >$out/init.out 2>&1
echo $? >$out/init.rc
as_postgres polarbench -c 2 -t 50 postgres >$out/run.out 2>&1
echo $? >$out/run.rc
as_postgres psql -X -At -c 'SELECT count(*), sum(transactions) FROM polarbench_runs' >$out/runs.out 2>&1
pg_ctlcluster 15 main stop >>$out/start.log 2>&1
# what is not there
for tool in gcc cc clang c99 make; do command -v $tool; done >$out/tools 2>&1
dpkg-query -W -f '${Package} ${db:Status-Status}\n' 'postgresql-server-dev-*' libpq-dev 2>/dev/null |
	grep ' installed$' >$out/devpkgs
ls -d /usr/include/postgresql/15/server >$out/headers 2>/dev/null
find / -xdev \( -name '*.c' -o -name '*.h' -o -name 'Makefile' -o -name '*.mk' \) \
	\( -path '*polarbench*' -o -name 'kind_list.h' -o -name 'pb_script.h' \) >$out/sources 2>/dev/null
exit 0
EOF

# the root's mounts and processes live in namespaces of their own, so that
# nothing is left mounted or running when the test ends, whatever happens
(
	flock -w 1200 9 || { echo "another package test holds $cache/lock"; exit 20; }
	unshare --mount --pid --fork bash -c '
		root=$1 cache=$2
		mount -t proc proc "$root/proc" &&
		mount --rbind /dev "$root/dev" &&
		mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm" &&
		mount --bind "$cache/apt-archives" "$root/var/cache/apt/archives" &&
		chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive /bin/bash /tmp/in_root.sh' \
		in_root "$root" "$cache"
) 9>"$cache/lock"
rc=$?
out=$root/tmp/out

case $rc in
	0) ok "apt installs the packages and their dependencies from the archive (the root made and the steps in it run in $SECONDS s)" ;;
	10) tail -20 "$out/apt-update.log"
		not_ok "apt-get update in the root" ;;
	11) tail -30 "$out/apt-install.log"
		not_ok "apt installs the packages and their dependencies from the archive" ;;
	12) cat "$out/start.log" "$root"/var/log/postgresql/*.log 2>/dev/null | tail -20
		not_ok "PostgreSQL 15's cluster starts" ;;
	*) not_ok "the steps in the root ran (exit status $rc)" ;;
esac
[ "$rc" -eq 0 ] || finish

if grep -qx "postgresql-15-polarbench $version-[^ ]* installed" "$out/installed" &&
   grep -qx "polarbench $version-[^ ]* installed" "$out/installed"; then
	ok "both packages are installed, version $version"
else
	cat "$out/installed"
	not_ok "both packages are installed, version $version"
fi
if [ "$(cat "$out/create.rc")" = 0 ] && [ "$(tail -n 1 "$out/create.out")" = "$version" ]; then
	ok "CREATE EXTENSION polarbench makes version $version"
else
	cat "$out/create.out"
	not_ok "CREATE EXTENSION polarbench makes version $version"
fi
if [ "$(sed -n 1p "$out/which")" = /usr/bin/polarbench ] &&
   [ "$(sed -n 2p "$out/which")" = /usr/share/postgresql-common/pg_wrapper ] &&
   grep -q "^polarbench $version (PostgreSQL" "$out/version.out"; then
	ok "polarbench is on the PATH through pg_wrapper, as pgbench is, and says $version"
else
	cat "$out/which" "$out/version.out"
	not_ok "polarbench is on the PATH through pg_wrapper, as pgbench is, and says $version"
fi
if [ "$(cat "$out/init.rc")" = 0 ] && grep -q '^done in .* (4 tables, 100011 rows' "$out/init.out"; then
	ok "polarbench -i -s 1 loads pgbench's tables"
else
	cat "$out/init.out"
	not_ok "polarbench -i -s 1 loads pgbench's tables"
fi
if [ "$(cat "$out/run.rc")" = 0 ] &&
   grep -qx 'transaction type: <builtin: TPC-B (sort of)>' "$out/run.out" &&
   grep -qx 'number of clients: 2' "$out/run.out" &&
   grep -qx 'number of transactions actually processed: 100/100' "$out/run.out" &&
   grep -qx 'number of failed transactions: 0 (0.000%)' "$out/run.out" &&
   grep -qE '^tps = [0-9]+\.[0-9]+ \(without initial connection time\)$' "$out/run.out" &&
   [ "$(cat "$out/runs.out")" = "1|100" ]; then
	ok "polarbench -c 2 -t 50 runs 100 transactions in the server and records the run"
else
	cat "$out/run.out" "$out/runs.out"
	not_ok "polarbench -c 2 -t 50 runs 100 transactions in the server and records the run"
fi
if [ ! -s "$out/tools" ] && [ ! -s "$out/devpkgs" ] && [ ! -s "$out/headers" ]; then
	ok "the root has no compiler, no make, no server headers and no development packages"
else
	cat "$out/tools" "$out/devpkgs" "$out/headers"
	not_ok "the root has no compiler, no make, no server headers and no development packages"
fi
if [ ! -s "$out/sources" ]; then
	ok "the root has none of polarbench's sources"
else
	cat "$out/sources"
	not_ok "the root has none of polarbench's sources"
fi
finish
