#!/usr/bin/env bash
# The reference reports' tables from one call each, on a throwaway server:
#  - Tencent Cloud's PostgreSQL sysbench report: oltp_read_write queries per second by concurrency (8, 16,
#    32, 64) by audit setting (none, pgaudit.log = 'write', pgaudit.log =
#    'all'), with pgaudit loaded, on 8 sbtest tables;
#  - the Japan PostgreSQL Users Group's 1999 pgbench test on a Cobalt RaQ2:
#    tps by clients (1 .. 32) by synchronous_commit (on, off),
#    for TPC-B (tpcb-like) and SELECT (select-only).
# Each is one command of the command-line program, which runs a
# polarbench_sweep() per setting set and prints the table (with repeat > 1,
# the median of each cell and its spread).
#
# Usage: bash test/bench/bench_reference_tables.sh [seconds] [repeat]
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/test/setup.sh"
seconds=${1:-10}
repeat=${2:-1}
port=54363

pb_install_packages
cd "$repo"
pb_build_install

dir=$(mktemp -d /tmp/polarbench-reference.XXXXXX)
trap 'pb_stop_server "$dir"; pb_as_root rm -rf "$dir"' EXIT
# 64 clients and their run's recorder are 65 of polarbench's workers, more than
# polarbench.max_clients allows by default
pb_start_server "$dir" "$port" "shared_buffers = 1GB" "max_worker_processes = 80" "polarbench.max_clients = 72" \
	"shared_preload_libraries = 'pgaudit'" "max_wal_size = 8GB" "checkpoint_timeout = 30min" \
	"pgaudit.log_parameter = off" "log_destination = 'stderr'" "logging_collector = off"

export PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=postgres
psql -Xq -c "CREATE EXTENSION pgaudit" -c "CREATE EXTENSION polarbench"
psql -Xq -c "SELECT polarbench_init('sysbench', tables => 8, table_size => 100000)" >/dev/null
psql -Xq -c "SELECT polarbench_init('pgbench', scale => 10)" >/dev/null
psql -Xq -c "VACUUM ANALYZE"

echo "== Tencent Cloud's PostgreSQL sysbench report: oltp_read_write q/s by concurrency by audit ($seconds s per run, repeat $repeat)"
polarbench -b oltp_read_write --tables=8 --table-size=100000 -T "$seconds" -c 8,16,32,64 \
	--repeat "$repeat" --set pgaudit.log=none --set pgaudit.log=write --set pgaudit.log=all

for workload in tpcb-like select-only; do
	echo
	echo "== the JPUG 1999 pgbench test on a Cobalt RaQ2: $workload tps by clients by synchronous_commit ($seconds s per run, repeat $repeat)"
	polarbench -b "$workload" -T "$seconds" -c 1,2,4,8,16,32 --repeat "$repeat" \
		--set synchronous_commit=on --set synchronous_commit=off
done
echo
echo "server log: $(pb_as_root grep -c 'AUDIT:' "$dir/server.log") audit lines"
