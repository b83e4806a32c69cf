#!/usr/bin/env bash
# polarbench's test command: installs the Debian packages the tests need,
# builds and installs the extension, starts a throwaway PostgreSQL 15 server
# with the settings the tests need, runs the unit tests of the backend-free
# libraries, the layer, kind and packaging checks, the package test (the
# Debian packages installed into a Debian 12 root where nothing was built),
# the pg_regress suite and the TAP suite, then checks the demo's output,
# and closes with the line "N passed, N failed" (", N skipped" after it
# when Debian's archive could not be reached for the package test).
# Exits non-zero if anything failed.
#
# Usage: bash test/run_tests.sh          (as root, or a user with sudo)
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/test/setup.sh"

pb_install_packages $PB_DEB_PACKAGES || { echo "could not install packages"; echo "0 passed, 1 failed"; exit 1; }

# Work on a copy the postgres user owns: pg_regress and the TAP tests write
# next to the sources, and run as postgres since initdb refuses root.
work=$(mktemp -d /tmp/polarbench-test.XXXXXX)
cp -a "$repo/." "$work/tree"
pb_as_root chown -R postgres: "$work"
port=${PB_TEST_PORT:-54329}
trap 'pb_stop_server "$work/server-tuned"; pb_stop_server "$work/server-defaults"; pb_as_root rm -rf "$work"' EXIT

cd "$work/tree"
if ! pb_as_postgres make -s PG_CONFIG="$PB_PGBIN/pg_config" >"$work/build.log" 2>&1 ||
   ! pb_as_root make -s PG_CONFIG="$PB_PGBIN/pg_config" install >>"$work/build.log" 2>&1; then
	cat "$work/build.log"
	echo "0 passed, 1 failed"
	exit 1
fi

passed=0
failed=0
skipped=0

# Count a check by its status (0: passed), saying what it found either way.
count_check() {
	if [ "$1" -eq 0 ]; then
		echo "ok - $2"
		passed=$((passed + 1))
	else
		echo "not ok - $3"
		failed=$((failed + 1))
	fi
}

# the client is on a plain shell's PATH after make install, as pgbench is
if env -i PATH=/usr/local/bin:/usr/bin:/bin polarbench --version | grep -q '^polarbench [0-9.]* (PostgreSQL'; then
	echo "ok - polarbench runs from a plain shell's PATH"
	passed=$((passed + 1))
else
	echo "not ok - polarbench is not on a plain shell's PATH after make install"
	failed=$((failed + 1))
fi

# the layers, from the objects' symbols and the headers' includes, and
# each kind of workload named in its folder alone
for check in check_layers check_kind_names; do
	pb_as_postgres bash "test/$check.sh" . 2>&1 | tee "$work/$check.log"
	count_check $? "$check" "$check"
done

# META.json against the PGXN Meta Spec, and the versions of the extension,
# META.json and debian/changelog agreeing
if pb_as_postgres perl test/check_packaging.pl . 2>&1 | tee "$work/check_packaging.log"; then
	echo "ok - check_packaging"
	passed=$((passed + 1))
else
	echo "not ok - check_packaging"
	failed=$((failed + 1))
fi

# the Debian packages, built and installed with apt into a Debian 12 root
# where nothing was built, then used there; skipped when Debian's archive
# cannot be reached
pb_as_root bash test/package/deb_install.sh "$work/tree" 2>&1 | tee "$work/package.log"
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$work/package.log" | tail -n 1)
if [ -n "$summary" ]; then
	passed=$((passed + $(echo "$summary" | awk '{print $1}')))
	failed=$((failed + $(echo "$summary" | awk '{print $3}')))
	n=$(echo "$summary" | sed -n 's/.*, \([0-9]*\) skipped$/\1/p')
	skipped=$((skipped + ${n:-0}))
else
	failed=$((failed + 1))	# the package test did not finish
fi

# unit tests of the backend-free libraries: the script language, the
# measurements, what the kinds share and each kind's own
if [ -f test/unit/Makefile ]; then
	pb_as_postgres make -s -C test/unit check 2>&1 | tee "$work/unit.log"
	# one "N passed, N failed" line per test program
	lines=$(grep -cE '^[0-9]+ passed, [0-9]+ failed' "$work/unit.log" || true)
	if [ "$lines" -ge 2 ]; then
		passed=$((passed + $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$work/unit.log" | awk '{s += $1} END {print s}')))
		failed=$((failed + $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$work/unit.log" | awk '{s += $3} END {print s}')))
	else
		failed=$((failed + 1))
	fi
fi

# pg_regress against a throwaway server, run as a function: once with
# the settings the tests are tuned for, once at PostgreSQL's defaults (the
# expected outputs must not depend on the server's configuration)
run_regress() {
	local name=$1
	shift
	echo "== pg_regress, $name"
	pb_start_server "$work/server-$name" "$port" "$@"
	pb_as_postgres make -s PG_CONFIG="$PB_PGBIN/pg_config" installcheck TAP_TESTS= \
		PGHOST=127.0.0.1 PGPORT="$port" PGUSER=postgres 2>&1 | tee "$work/regress-$name.log"
	passed=$((passed + $(grep -cE '\.\.\. ok' "$work/regress-$name.log" || true)))
	failed=$((failed + $(grep -cE '\.\.\. (FAILED|failed)' "$work/regress-$name.log" || true)))
	if ! grep -qE '\.\.\. ok' "$work/regress-$name.log"; then
		failed=$((failed + 1))	# pg_regress did not run
	fi
	if [ -f test/regress_out/regression.diffs ]; then
		cat test/regress_out/regression.diffs
	fi
	pb_stop_server "$work/server-$name"
	# a benchmark never takes the server down
	if grep -q 'terminated by signal' "$work/server-$name/server.log"; then
		grep 'terminated by signal' "$work/server-$name/server.log"
		echo "not ok - a process of the pg_regress server ($name) was terminated by a signal"
		failed=$((failed + 1))
	else
		echo "ok - no process of the pg_regress server ($name) was terminated by a signal"
		passed=$((passed + 1))
	fi
}
run_regress tuned "fsync = off" "max_worker_processes = 32" \
	"max_parallel_maintenance_workers = 2"
run_regress defaults

# TAP: each test file makes its own clusters
pb_as_postgres env PATH="$PB_PGBIN:$PATH" make -s PG_CONFIG="$PB_PGBIN/pg_config" \
	installcheck REGRESS= PROVE_FLAGS=--verbose 2>&1 | tee "$work/tap.log"
passed=$((passed + $(grep -cE '^ok [0-9]+' "$work/tap.log" || true)))
failed=$((failed + $(grep -cE '^not ok [0-9]+' "$work/tap.log" || true)))
if grep -qE '^(Result: FAIL|Dubious|Parse errors)' "$work/tap.log"; then
	grep -E '^(Result: FAIL|Dubious|Parse errors)' "$work/tap.log"
	failed=$((failed + 1))
fi

# the Citus suites need citus.so in the server's library directory
# (../shared/peers/citus/install.sh builds it): say which were skipped, and why
citus_skipped=$(grep -E '^test/t/[^ ]*citus[^ ]*\.pl \.+ skipped: ' "$work/tap.log" || true)
if [ -n "$citus_skipped" ]; then
	echo "# the Citus tests were skipped:"
	echo "$citus_skipped" | sed 's/^/#   /'
	skipped=$((skipped + $(echo "$citus_skipped" | wc -l)))
fi

# nor does it take a TAP test's server down: every server log of the TAP
# clusters (PostgreSQL::Test::Cluster's NNN_name_node.log files), for a
# process terminated by a signal other than SIGKILL, which some tests send
# on purpose (SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGFPE are crashes)
tap_logs=$(find "$work/tree" -path '*tmp_check/log/*' -name '*.log' -type f 2>/dev/null | sort)
if [ -z "$tap_logs" ]; then
	echo "not ok - no server log of the TAP clusters was found"
	failed=$((failed + 1))
else
	# shellcheck disable=SC2086
	signaled=$(grep -HE 'terminated by signal [0-9]+' $tap_logs |
		grep -vE 'terminated by signal 9([^0-9]|$)' || true)
	if [ -n "$signaled" ]; then
		echo "$signaled"
		echo "not ok - a process of a TAP cluster was terminated by a signal other than SIGKILL"
		failed=$((failed + 1))
	else
		echo "ok - no process of a TAP cluster was terminated by a signal other than SIGKILL"
		passed=$((passed + 1))
	fi
	# a Citus suite's workers are nodes of their own (NAME_workerN), with
	# logs of their own: the scan must have read them, for each suite that ran
	for t in test/t/*citus*.pl; do
		[ -f "$t" ] || continue
		grep -qE "^$t \.+ skipped" "$work/tap.log" && continue
		base=$(basename "$t" .pl)
		# shellcheck disable=SC2086
		workers=$(printf '%s\n' $tap_logs | grep -cE "/${base}_.*_worker[0-9]+\.log$" || true)
		[ "$workers" -ge 2 ]
		count_check $? "the scan read the logs of $base's $workers Citus workers" \
			"the scan found no log of $base's Citus workers"
	done
fi

# the demo, small, run as root from a folder postgres may not enter (as
# root's home), on a server of its own: nothing in its output a user would
# wonder about, such as a program's "could not change directory"
pb_as_root env PB_PGBIN="$PB_PGBIN" bash test/check_demo_quiet.sh $((port + 1)) >"$work/demo.log" 2>&1
demo_status=$?
grep -E '^(unexpected: |the demo failed)' "$work/demo.log"
count_check $demo_status "the demo prints nothing a user would wonder about" \
	"the demo printed a line a user would wonder about, or failed"

if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
