#!/usr/bin/env bash
# What a capture through hooks costs: pgbench's tpcb-like over the Unix
# socket, with the simple and the prepared protocol, with and without a
# capture going on (polarbench_capture_start() before the pgbench run,
# polarbench_capture_stop() after, outside its time), on a throwaway server
# with polarbench in shared_preload_libraries.  For each protocol, RUNS
# pairs of runs of SECONDS each, one next to the other so that a drift of
# the machine moves both alike, the pair's order alternating (without then
# with, with then without) and every run starting from the same tables
# (pgbench_branches and pgbench_tellers vacuumed, pgbench_history emptied,
# as pgbench does without -n), for a run made later on tables that grew
# is slower: the median tps of each, their ratio (the target: at least
# 0.95), and what the captures kept and dropped (the capture's memory is
# made large enough to keep everything), and the median of the pairs'
# ratios, which the machine's drift over the script moves less.
#
# Then, as tps on a shared machine moves by more than the cost to measure,
# the instructions a capture adds to a transaction, which do not move: one
# pgbench client of 100 then 600 transactions, each protocol, without and
# with a capture, on a second server run under valgrind --tool=callgrind,
# collecting only inside the capture's hooks (not the executor's and
# ProcessUtility's work they call): the difference over the 500 more
# transactions, per transaction.  BENCH_NO_CALLGRIND=1 leaves it out.
#
# Run it on an otherwise idle machine: it checks the load average first.
#
# Usage: bash test/bench/bench_capture.sh [clients] [seconds] [runs] [scale]
#   defaults: 4 20 5 10
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/test/setup.sh"
clients=${1:-4}
seconds=${2:-20}
runs=${3:-5}
scale=${4:-10}
port=${BENCH_PORT:-54381}

# BENCH_ANY_LOAD=1 runs it anyway, to try the script: its figures then say nothing
load=$(awk '{print $1}' /proc/loadavg)
if awk -v l="$load" 'BEGIN {exit !(l >= 0.5)}' && [ "${BENCH_ANY_LOAD:-0}" != 1 ]; then
	echo "the 1-minute load average is $load: measure on an idle machine" >&2
	exit 2
fi

cd "$repo"
[ "${BENCH_NO_BUILD:-0}" = 1 ] || pb_build_install

dir=$(mktemp -d /tmp/polarbench-capture.XXXXXX)
chmod 755 "$dir"
cleanup() {
	pb_stop_server "$dir/server"
	pb_as_root rm -rf "$dir"
}
trap cleanup EXIT

pb_start_server "$dir/server" $port "shared_preload_libraries = 'polarbench'" \
	"polarbench.capture_memory = '1GB'" "max_connections = $((clients + 20))"
host="$dir/server"
sql() { pb_as_postgres psql -XqAt -h "$host" -p $port -U postgres -d postgres -c "$1"; }

sql "CREATE EXTENSION polarbench"
pb_as_postgres pgbench -h "$host" -p $port -U postgres -i -q -s "$scale" postgres >/dev/null 2>&1
sql "VACUUM ANALYZE" >/dev/null

# tps of one pgbench run of tpcb-like with protocol $1, from the same tables
tps() {
	sql "VACUUM pgbench_branches, pgbench_tellers" >/dev/null
	sql "TRUNCATE pgbench_history" >/dev/null
	pb_as_postgres env PGAPPNAME=bench pgbench -h "$host" -p $port -U postgres -n -M "$1" \
		-c "$clients" -j "$clients" -T "$seconds" postgres 2>/dev/null |
		sed -n 's/^tps = \([0-9.]*\) .*/\1/p'
}

echo "tpcb-like, scale $scale, $clients clients, ${seconds} s a run, $runs runs each, Unix socket"
for protocol in simple prepared; do
	without=""
	with=""
	kept=0
	dropped=0
	ratios=""
	for i in $(seq "$runs"); do
		[ $((i % 2)) = 0 ] || t0=$(tps $protocol)
		sql "SELECT polarbench_capture_start(application => 'bench')" >/dev/null
		t1=$(tps $protocol)
		read -r id n skipped <<<"$(sql "SELECT capture_id, statements, skipped FROM polarbench_capture_stop()" | tr '|' ' ')"
		sql "SELECT polarbench_capture_drop($id)" >/dev/null
		kept=$((kept + n))
		dropped=$((dropped + skipped))
		[ $((i % 2)) = 1 ] || t0=$(tps $protocol)
		without="$without $t0"
		with="$with $t1"
		ratios="$ratios $(pb_ratio "$t1" "$t0" 3)"
	done
	m0=$(echo "$without" | pb_median)
	m1=$(echo "$with" | pb_median)
	echo "-M $protocol: without a capture: median tps $m0 (runs:$without)"
	echo "-M $protocol: with a capture:    median tps $m1 (runs:$with)"
	echo "-M $protocol: ratio of the medians $(pb_ratio "$m1" "$m0" 3); statements kept $kept, dropped $dropped"
	# each pair ran side by side: its ratio is less moved by the machine's drift
	echo "-M $protocol: median of the pairs' ratios $(echo "$ratios" | pb_median) (pairs:$ratios)"
done

[ "${BENCH_NO_CALLGRIND:-0}" = 1 ] && exit 0

# ---- instructions the capture adds to a transaction, under callgrind -------
cgdir="$dir/callgrind"
cgport=$((port + 1))
pb_as_root mkdir -p "$cgdir/out"
pb_as_root chown -R postgres: "$cgdir"
pb_as_postgres "$PB_PGBIN/initdb" -D "$cgdir/data" -U postgres -A trust >/dev/null
printf '%s\n' "listen_addresses = ''" "port = $cgport" "unix_socket_directories = '$cgdir'" \
	"shared_buffers = 128MB" "synchronous_commit = off" "autovacuum = off" \
	"shared_preload_libraries = 'polarbench'" "polarbench.capture_memory = '256MB'" |
	pb_as_postgres tee -a "$cgdir/data/postgresql.conf" >/dev/null
# collect inside each hook, not inside what it calls (a toggle on entry and
# exit of each: the hook's turns it on, the standard function's off again)
toggles=""
for hook in ExecutorStart ExecutorRun ExecutorFinish ExecutorEnd; do
	name=$(echo "$hook" | sed 's/Executor\(.*\)/executor_\L\1/')
	toggles="$toggles --toggle-collect=live_$name --toggle-collect=standard_$hook"
done
toggles="$toggles --toggle-collect=live_process_utility --toggle-collect=standard_ProcessUtility"
toggles="$toggles --toggle-collect=live_emit_log --toggle-collect=live_xact_callback"
pb_as_postgres bash -c "cd '$cgdir' && exec valgrind --tool=callgrind $toggles \
	--callgrind-out-file='$cgdir/out/cg.%p' '$PB_PGBIN/postgres' -D '$cgdir/data'" \
	>"$cgdir/valgrind.log" 2>&1 &
trap 'pb_stop_server "$cgdir"; cleanup' EXIT
cg() { pb_as_postgres psql -XqAt -h "$cgdir" -p $cgport -U postgres -d postgres -c "$1"; }
for i in $(seq 300); do cg 'SELECT 1' >/dev/null 2>&1 && break; sleep 1; done
cg "CREATE EXTENSION polarbench"
pb_as_postgres pgbench -h "$cgdir" -p $cgport -U postgres -i -q -s 1 postgres >/dev/null 2>&1
cg "VACUUM ANALYZE" >/dev/null

# the instructions the hooks took in the backend of one pgbench client of
# $2 transactions with protocol $1: its profile, written as it exits, is
# the newest
hooks_ir() {
	local before f
	before=$(ls "$cgdir"/out | wc -l)
	pb_as_postgres env PGAPPNAME=bench pgbench -h "$cgdir" -p $cgport -U postgres -n -M "$1" \
		-c 1 -t "$2" postgres >/dev/null 2>&1
	for i in $(seq 30); do
		f=$(ls -t "$cgdir"/out/cg.* | head -1)
		[ "$(ls "$cgdir"/out | wc -l)" -gt "$before" ] && grep -q '^totals:' "$f" && break
		sleep 1
	done
	sleep 1
	f=$(ls -t "$cgdir"/out/cg.* | head -1)
	awk '/^totals:/ {print $2}' "$f"
}
echo
echo "instructions of the capture's hooks per tpcb-like transaction, under callgrind, one client, scale 1"
for protocol in simple prepared; do
	for capture in without with; do
		[ $capture = with ] && cg "SELECT polarbench_capture_start(application => 'bench')" >/dev/null
		a=$(hooks_ir $protocol 100)
		b=$(hooks_ir $protocol 600)
		[ $capture = with ] && cg "SELECT polarbench_capture_drop(capture_id) FROM polarbench_capture_stop()" >/dev/null
		echo "-M $protocol, $capture a capture: $(((b - a) / 500))"
	done
done
