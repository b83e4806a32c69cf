#!/usr/bin/env bash
# Runs on a Citus coordinator and two workers on this machine: the same
# number of clients in total (a) all on the coordinator, polarbench_run()
# there, every statement through Citus's executor on the coordinator,
# against (b) clients on every node, the command-line program's
# `-h c,w1,w2` with the clients split evenly among the nodes (each node
# routes its own statements, as Citus lets a node with the metadata do),
# for select-only on pgbench's data set and for TPC-C, both distributed
# (polarbench_init(..., distributed => true)).  For reference, pgbench -S
# through the coordinator with the same clients.  Each way runs REPEATS
# times, alternating; the medians (tps) and the ratio (b) / (a) are
# printed, with every run's figure.
#
# Usage: bash test/bench/bench_citus_runs.sh [clients] [seconds] [repeats] [scale] [warehouses]
#   defaults: 6 clients (a multiple of 3), 30 s, 3 repeats, pgbench scale 10,
#   4 TPC-C warehouses.  PORT (default 55400) and the next two ports are the
#   nodes'; PB_PGBIN the PostgreSQL 15 binaries, with Citus
#   (shared_preload_libraries) and polarbench installed for them, and the
#   polarbench program in PB_CLIENT (default: polarbench on PATH).  Nothing
#   is built or installed here.  Run it on an otherwise idle machine: it
#   checks the load average first (BENCH_ANY_LOAD=1 runs it anyway, to try
#   the script: its figures then say nothing).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/test/setup.sh"
clients=${1:-6}
seconds=${2:-30}
repeats=${3:-3}
scale=${4:-10}
warehouses=${5:-4}
shards=${SHARDS:-32}
client=${PB_CLIENT:-polarbench}

load=$(awk '{print $1}' /proc/loadavg)
if awk -v l="$load" 'BEGIN {exit !(l >= 0.5)}' && [ "${BENCH_ANY_LOAD:-0}" != 1 ]; then
	echo "the 1-minute load average is $load: measure on an idle machine" >&2
	exit 2
fi
if [ $((clients % 3)) -ne 0 ]; then
	echo "bench_citus_runs.sh: clients must be a multiple of 3, split among the three nodes" >&2
	exit 2
fi

. "$repo/test/bench/citus_cluster.sh"
pb_citus_cluster citus-runs
hosts=127.0.0.1,127.0.0.1,127.0.0.1
node_ports=$(IFS=,; echo "${ports[*]}")

# (a): tps of polarbench_run on the coordinator
on_coordinator() {
	psql -At -c "SELECT round(tps::numeric, 1) FROM polarbench_run('$1', clients => $clients, duration => $seconds)"
}

# (b): the nodes' total tps, from the program's JSON report
on_every_node() {
	pb_as_postgres "$client" -h "$hosts" -p "$node_ports" -U postgres -b "$1" \
		-c $((clients / 3)) -T "$seconds" --report json postgres 2>/dev/null |
		python3 -c 'import json, sys; print(round(json.load(sys.stdin)["total"]["tps"], 1))'
}

# pgbench -S through the coordinator
pgbench_select() {
	pgbench -n -S -c "$clients" -j "$clients" -T "$seconds" postgres 2>/dev/null |
		awk '/^tps = / {print $3}'
}

# measure WORKLOAD: REPEATS of (a) and (b), alternating, and for
# select-only pgbench -S; prints every run, the medians and the ratio
measure() {
	local workload=$1 a=() b=() p=() i
	for ((i = 1; i <= repeats; i++)); do
		a+=("$(on_coordinator "$workload")")
		b+=("$(on_every_node "$workload")")
		[ "$workload" = select-only ] && p+=("$(pgbench_select)")
		echo "run $i: coordinator ${a[-1]} tps, every node ${b[-1]} tps${p:+, pgbench -S ${p[-1]} tps}"
	done
	local ma mb
	ma=$(printf '%s\n' "${a[@]}" | pb_median)
	mb=$(printf '%s\n' "${b[@]}" | pb_median)
	echo "median: all $clients clients on the coordinator $ma tps, $((clients / 3)) on each node $mb tps${p:+, pgbench -S through the coordinator $(printf '%s\n' "${p[@]}" | pb_median) tps}"
	echo "ratio: clients on every node $(pb_ratio "$mb" "$ma") x the coordinator's"
}

echo "== select-only, pgbench scale $scale distributed ($shards shards), $clients clients, $seconds s, $repeats repeats"
psql -c "SELECT rows FROM polarbench_init('pgbench', scale => $scale, distributed => true, shard_count => $shards)" >/dev/null
measure select-only

echo "== TPC-C, $warehouses warehouses distributed ($shards shards), $clients clients, $seconds s, $repeats repeats"
psql -c "SELECT rows FROM polarbench_init('tpcc', warehouses => $warehouses, distributed => true, shard_count => $shards)" >/dev/null
measure tpcc
