#!/usr/bin/env bash
# The seeds' tables from one call each, on a throwaway server:
#  - seed 001's: oltp_read_write queries per second by concurrency (8, 16,
#    32, 64) by audit setting (none, pgaudit.log = 'write', pgaudit.log =
#    'all'), with pgaudit loaded, on 8 sbtest tables;
#  - seed 003's: tps by clients (1 .. 32) by synchronous_commit (on, off),
#    for TPC-B (tpcb-like) and SELECT (select-only).
# Each is one polarbench_sweep() and one polarbench_sweep_table().
#
# Usage: bash test/bench/bench_seed_tables.sh [seconds] [repeat]
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/test/setup.sh"
seconds=${1:-10}
repeat=${2:-1}
port=54363

pb_install_packages
cd "$repo"
pb_build_install

dir=$(mktemp -d /tmp/polarbench-seeds.XXXXXX)
trap 'pb_stop_server "$dir"; pb_as_root rm -rf "$dir"' EXIT
pb_start_server "$dir" "$port" "shared_buffers = 1GB" "max_worker_processes = 80" \
	"shared_preload_libraries = 'pgaudit'" "max_wal_size = 8GB" "checkpoint_timeout = 30min" \
	"pgaudit.log_parameter = off" "log_destination = 'stderr'" "logging_collector = off"

export PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=postgres
psql -Xq -c "CREATE EXTENSION pgaudit" -c "CREATE EXTENSION polarbench"
psql -Xq -c "SELECT polarbench_init('sysbench', tables => 8, table_size => 100000)" >/dev/null
psql -Xq -c "SELECT polarbench_init('pgbench', scale => 10)" >/dev/null
psql -Xq -c "VACUUM ANALYZE"

echo "== seed 001: oltp_read_write q/s by concurrency by audit ($seconds s per run, repeat $repeat)"
id=$(psql -XAtq -c "SELECT sweep_id FROM polarbench_sweep('oltp_read_write',
	clients => '{8,16,32,64}', duration => $seconds, repeat => $repeat,
	settings => ARRAY['{\"pgaudit.log\": \"none\"}', '{\"pgaudit.log\": \"write\"}',
	                  '{\"pgaudit.log\": \"all\"}']::jsonb[])" | sed -n 1p)
psql -XAtq -c "SELECT * FROM polarbench_sweep_table($id, 'qps')"

for workload in tpcb-like select-only; do
	echo
	echo "== seed 003: $workload tps by clients by synchronous_commit ($seconds s per run, repeat $repeat)"
	id=$(psql -XAtq -c "SELECT sweep_id FROM polarbench_sweep('$workload',
		clients => '{1,2,4,8,16,32}', duration => $seconds, repeat => $repeat,
		settings => ARRAY['{\"synchronous_commit\": \"on\"}',
		                  '{\"synchronous_commit\": \"off\"}']::jsonb[])" | sed -n 1p)
	psql -XAtq -c "SELECT * FROM polarbench_sweep_table($id, 'tps')"
done
echo
echo "server log: $(pb_as_root grep -c 'AUDIT:' "$dir/server.log") audit lines"
