#!/usr/bin/env bash
# polarbench's main job, from a fresh machine: installs the packages, builds
# and installs the extension, and runs a real benchmark, pgbench's
# select-only and TPC-B-like workloads, with per-second progress, then
# sysbench's oltp_read_write, YCSB's workload A and TPC-C on one warehouse,
# each with its tool's report, and last a sweep with the command-line program.
#
# With no server named, it runs on a throwaway local PostgreSQL 15 server it
# starts and removes.  To use your own server, name it the libpq way
# (PGHOST, PGPORT, PGUSER, PGDATABASE): the extension must be installable
# there (this machine's PostgreSQL 15, or built against that server).
#
# Usage: bash test/bench/demo.sh [scale] [clients] [seconds]
# (PB_DEMO_PORT: the throwaway server's port, 54350 unless given)
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/test/setup.sh"
scale=${1:-10}
clients=${2:-2}
seconds=${3:-10}
port=${PB_DEMO_PORT:-54350}

pb_install_packages
cd "$repo"
pb_build_install

# -q: no word from psql on its display settings (\x, \pset) between the reports
psql_cmd=(psql -X -q -v ON_ERROR_STOP=1)
client_cmd=(polarbench)
if [ -z "${PGHOST:-}${PGDATABASE:-}${PGPORT:-}" ]; then
	dir=$(mktemp -d /tmp/polarbench-demo.XXXXXX)
	trap 'pb_stop_server "$dir"; pb_as_root rm -rf "$dir"' EXIT
	pb_start_server "$dir" "$port" "shared_buffers = 512MB" "synchronous_commit = off" \
		"max_worker_processes = 32"
	psql_cmd+=(-h 127.0.0.1 -p "$port" -U postgres -d postgres)
	client_cmd+=(-h 127.0.0.1 -p "$port" -U postgres -d postgres)
	echo "throwaway server on 127.0.0.1:$port"
fi

"${psql_cmd[@]}" <<SQL
CREATE EXTENSION IF NOT EXISTS polarbench;
\echo '== polarbench_init(''pgbench'', scale => $scale)'
SELECT * FROM polarbench_init('pgbench', scale => $scale);
\echo '== select-only, $clients clients, $seconds s'
\x on
\pset null '(no rate)'
SELECT * FROM polarbench_run('select-only', clients => $clients, duration => $seconds, progress => 1);
\echo '== tpcb-like, $clients clients, $seconds s'
SELECT * FROM polarbench_run('tpcb-like', clients => $clients, duration => $seconds, progress => 1);
\pset null ''
\x off
\echo '== polarbench_init(''sysbench'', tables => 4, table_size => 10000), oltp_read_write, $clients clients, $seconds s'
SELECT * FROM polarbench_init('sysbench', tables => 4, table_size => 10000);
SELECT run_id FROM polarbench_run('oltp_read_write', clients => $clients, duration => $seconds, progress => 1) \gset
\pset tuples_only on
\pset format unaligned
SELECT polarbench_report(:run_id);
\pset format aligned
\pset tuples_only off
\echo '== polarbench_init(''ycsb'', records => 100000), ycsb-a, $clients clients, $seconds s'
SELECT * FROM polarbench_init('ycsb', records => 100000);
SELECT run_id FROM polarbench_run('ycsb-a', clients => $clients, duration => $seconds) \gset
\pset tuples_only on
\pset format unaligned
SELECT polarbench_report(:run_id);
\pset format aligned
\pset tuples_only off
\echo '== polarbench_init(''tpcc'', warehouses => 1), tpcc, $clients clients, $seconds s'
SELECT * FROM polarbench_init('tpcc', warehouses => 1);
SELECT run_id FROM polarbench_run('tpcc', clients => $clients, duration => $seconds) \gset
\pset tuples_only on
\pset format unaligned
SELECT polarbench_report(:run_id);
\pset format aligned
\pset tuples_only off
\echo '== TPC-C''s consistency conditions that the run broke (none; condition 11 is left out: it holds only until the first Delivery)'
SELECT condition, statement FROM polarbench_tpcc_check() WHERE offending > 0 AND condition <> 11;
\echo '== run history'
SELECT run_id, workload, clients, status, round(seconds::numeric, 1) AS seconds,
       transactions, round(tps::numeric, 1) AS tps,
       round(latency_avg::numeric, 3) AS lat_ms, round(latency_p99::numeric, 3) AS p99_ms
  FROM polarbench_runs ORDER BY run_id;
SQL

# the command-line program, from the PATH as pgbench is: a sweep of the
# select-only workload over client counts, printed as the reference
# reports tabulate it
counts="1,$clients"
[ "$clients" -gt 1 ] || counts="1,2"
echo "== polarbench -S -T $seconds -c $counts (the command-line program, a sweep)"
"${client_cmd[@]}" -S -T "$seconds" -c "$counts"
