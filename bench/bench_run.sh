#!/usr/bin/env bash
# polarbench against pgbench on one throwaway server, in one go: pgbench
# (-M prepared, the same clients) and polarbench_run for select-only and
# tpcb-like, with synchronous_commit = off so that the disk does not hide
# the engine.  Prints each pair's tps and the ratio polarbench / pgbench.
#
# Usage: bash bench/bench_run.sh [scale] [clients] [seconds]
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/test/setup.sh"
scale=${1:-10}
clients=${2:-2}
seconds=${3:-20}
port=54360

pb_install_packages
cd "$repo"
pb_build_install

dir=$(mktemp -d /tmp/polarbench-bench.XXXXXX)
trap 'pb_stop_server "$dir"; pb_as_root rm -rf "$dir"' EXIT
pb_start_server "$dir" "$port" "shared_buffers = 1GB" "synchronous_commit = off" \
	"max_wal_size = 8GB" "checkpoint_timeout = 30min" "autovacuum = off"

export PGHOST=127.0.0.1 PGPORT=$port PGUSER=postgres PGDATABASE=postgres
psql -Xq -c "CREATE EXTENSION polarbench"
psql -Xq -c "SELECT polarbench_init('pgbench', scale => $scale)" >/dev/null

echo "scale $scale, $clients clients, $seconds s per run, synchronous_commit = off"
printf '%-12s %14s %14s %8s\n' workload pgbench_tps polarbench_tps ratio
for workload in select-only tpcb-like; do
	pg_tps=$("$PB_PGBIN/pgbench" -n -M prepared -b "$workload" -c "$clients" -j "$clients" \
		-T "$seconds" 2>/dev/null | awk '/^tps = / {print $3; exit}')
	pb_tps=$(psql -XAtq -c "SELECT round(tps::numeric, 1) FROM polarbench_run('$workload',
		clients => $clients, duration => $seconds)")
	ratio=$(awk -v a="$pb_tps" -v b="$pg_tps" 'BEGIN {printf "%.2f", a / b}')
	printf '%-12s %14s %14s %8s\n' "$workload" "$pg_tps" "$pb_tps" "$ratio"
done
