#!/usr/bin/env bash
# What a capture through hooks costs: pgbench's tpcb-like over the Unix
# socket, with the simple and the prepared protocol, with and without a
# capture going on (polarbench_capture_start() before the pgbench run,
# polarbench_capture_stop() after, outside its time), on a throwaway server
# with polarbench in shared_preload_libraries.  For each protocol, RUNS
# pairs of runs of SECONDS each, without then with, one after the other so
# that a drift of the machine moves both alike: the median tps of each,
# their ratio (the target: at least 0.95), and what the captures kept and
# dropped (the capture's memory is made large enough to keep everything).
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

# tps of one pgbench run of tpcb-like with protocol $1
tps() {
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
	for i in $(seq "$runs"); do
		without="$without $(tps $protocol)"
		sql "SELECT polarbench_capture_start(application => 'bench')" >/dev/null
		with="$with $(tps $protocol)"
		read -r id n skipped <<<"$(sql "SELECT capture_id, statements, skipped FROM polarbench_capture_stop()" | tr '|' ' ')"
		sql "SELECT polarbench_capture_drop($id)" >/dev/null
		kept=$((kept + n))
		dropped=$((dropped + skipped))
	done
	m0=$(echo "$without" | pb_median)
	m1=$(echo "$with" | pb_median)
	echo "-M $protocol: without a capture: median tps $m0 (runs:$without)"
	echo "-M $protocol: with a capture:    median tps $m1 (runs:$with)"
	echo "-M $protocol: ratio $(pb_ratio "$m1" "$m0" 3); statements kept $kept, dropped $dropped"
done
