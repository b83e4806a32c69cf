#!/bin/bash
#
# bench_init.sh - time polarbench_init() against pgbench -i and sysbench
# prepare on one throwaway server.
#
# Usage: test/bench/bench_init.sh [scale [sysbench_tables [sysbench_table_size]]]
#   defaults: scale 100, 8 sysbench tables of 100000 rows.  Each command
#   runs REPEAT times (default 3) and the median counts, after one untimed
#   warm-up load that creates the WAL segments later runs recycle; every
#   run's time is printed too.  (bench_sysbench.sh times the first load of
#   each tool into a cluster of its own.)
#
# Runs initdb into a temporary directory (as the current user, which must
# not be root: run it as postgres), starts a server on a free port with
# the settings below, and needs polarbench installed for the PostgreSQL
# whose binaries come first in PATH (or PGBIN).  Everything is removed at
# the end.

set -euo pipefail

SCALE=${1:-100}
SB_TABLES=${2:-8}
SB_SIZE=${3:-100000}
REPEAT=${REPEAT:-3}
PGBIN=${PGBIN:-$(dirname "$(command -v pg_ctl)")}
export PATH="$PGBIN:$PATH"

if [ "$(id -u)" = 0 ]; then
	echo "run me as a non-root user (e.g. postgres): initdb refuses root" >&2
	exit 1
fi

TMP=$(mktemp -d /tmp/bench_init.XXXXXX)
PORT=5600
while [ -e "/tmp/.s.PGSQL.$PORT" ] || (ss -ltn 2>/dev/null | grep -q ":$PORT ") ; do
	PORT=$((PORT + 1))
done
export PGHOST=$TMP PGPORT=$PORT PGDATABASE=bench

cleanup()
{
	pg_ctl -D "$TMP/data" -m immediate stop >/dev/null 2>&1 || true
	rm -rf "$TMP"
}
trap cleanup EXIT

initdb -D "$TMP/data" -A trust >/dev/null
cat >> "$TMP/data/postgresql.conf" <<EOF
port = $PORT
listen_addresses = ''
unix_socket_directories = '$TMP'
shared_buffers = 1GB
max_wal_size = 8GB
checkpoint_timeout = 30min
max_worker_processes = 16
max_parallel_workers = 8
max_parallel_maintenance_workers = 2
EOF
pg_ctl -D "$TMP/data" -l "$TMP/log" -w start >/dev/null
createdb bench
psql -XqAt -c "CREATE EXTENSION polarbench"

echo "server: $(psql -XAt -c 'SELECT version()')"
echo "cores: $(nproc)"
psql -XAt -F ' = ' -c "SELECT name, current_setting(name) FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'wal_level', 'full_page_writes', 'shared_buffers', 'max_wal_size', 'checkpoint_timeout', 'max_worker_processes', 'max_parallel_maintenance_workers', 'maintenance_work_mem') ORDER BY 1" | sed 's/^/  /'
echo

# time_it LABEL COMMAND...: run COMMAND $REPEAT times, each after a
# checkpoint; print the median and every wall-clock time and the WAL the
# last run wrote, and remember the median in T_<LABEL>
time_it()
{
	local label=$1
	shift
	local med="" times="" i start end secs lsn wal
	for i in $(seq "$REPEAT"); do
		psql -XqAt -c "CHECKPOINT" >/dev/null
		lsn=$(psql -XqAt -c "SELECT pg_current_wal_lsn()")
		start=$(date +%s.%N)
		"$@" >"$TMP/out.$label" 2>&1 || { cat "$TMP/out.$label"; exit 1; }
		end=$(date +%s.%N)
		wal=$(psql -XqAt -c "SELECT (pg_current_wal_lsn() - '$lsn') / 1048576")
		secs=$(echo "$end - $start" | bc)
		times="$times $(printf '%.2f' "$secs")"
	done
	med=$(echo "$times" | tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR] = $1} END {
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}')
	printf '%-48s %8.2f s   (runs:%s; WAL %.0f MB)\n' "$label" "$med" "$times" "$wal"
	eval "T_$label=$med"
}

ratio()
{
	printf '%-48s %8.2fx\n' "$1" "$(echo "scale=4; $2 / $3" | bc)"
}

# warm-up: WAL segments are created (zero-filled) once, recycled after
pgbench -i -q -s "$SCALE" >/dev/null 2>&1
psql -XqAt -c "SELECT polarbench_init('pgbench', scale => $SCALE)" >/dev/null

echo "== pgbench data set, scale $SCALE (median of $REPEAT)"
time_it pgbench_i pgbench -i -q -s "$SCALE"
time_it pgbench_i_dtGvp pgbench -i -q -I dtGvp -s "$SCALE"
time_it polarbench_pgbench psql -XqAt -c "SELECT polarbench_init('pgbench', scale => $SCALE)"
time_it polarbench_pgbench_p2 psql -XqAt -c "SELECT polarbench_init('pgbench', scale => $SCALE, parallel => 2)"
time_it polarbench_pgbench_nocomp psql -XqAt -c "SELECT polarbench_init('pgbench', scale => $SCALE, wal_compression => false)"
time_it polarbench_pgbench_p4 psql -XqAt -c "SELECT polarbench_init('pgbench', scale => $SCALE, partitions => 4, parallel => 2)"
time_it pgbench_i_p4 pgbench -i -q -s "$SCALE" --partitions=4
echo
ratio "pgbench -i / polarbench_init" "$T_pgbench_i" "$T_polarbench_pgbench"
ratio "pgbench -i -I dtGvp / polarbench_init" "$T_pgbench_i_dtGvp" "$T_polarbench_pgbench"
ratio "pgbench -i / polarbench_init(parallel 2)" "$T_pgbench_i" "$T_polarbench_pgbench_p2"
ratio "pgbench -i / polarbench_init(wal_compression false)" "$T_pgbench_i" "$T_polarbench_pgbench_nocomp"
ratio "pgbench -i / polarbench_init(partitions 4, parallel 2)" "$T_pgbench_i" "$T_polarbench_pgbench_p4"
ratio "pgbench -i --partitions=4 / polarbench_init(partitions 4, parallel 2)" "$T_pgbench_i_p4" "$T_polarbench_pgbench_p4"
echo

echo "== sysbench data set, $SB_TABLES tables x $SB_SIZE rows (median of $REPEAT)"
psql -XqAt -c "DROP TABLE IF EXISTS pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers"
SB="--db-driver=pgsql --pgsql-host=$TMP --pgsql-port=$PORT --pgsql-user=$(id -un) --pgsql-db=bench --tables=$SB_TABLES --table-size=$SB_SIZE"
time_it sysbench_prepare bash -c "sysbench oltp_common $SB cleanup >/dev/null && sysbench oltp_common $SB prepare"
time_it sysbench_prepare_t2 bash -c "sysbench oltp_common $SB cleanup >/dev/null && sysbench oltp_common $SB --threads=2 prepare"
psql -XqAt -c "SELECT 1" >/dev/null
time_it polarbench_sysbench psql -XqAt -c "SELECT polarbench_init('sysbench', tables => $SB_TABLES, table_size => $SB_SIZE)"
time_it polarbench_sysbench_p2 psql -XqAt -c "SELECT polarbench_init('sysbench', tables => $SB_TABLES, table_size => $SB_SIZE, parallel => 2)"
echo
ratio "sysbench prepare / polarbench_init" "$T_sysbench_prepare" "$T_polarbench_sysbench"
ratio "sysbench prepare --threads=2 / polarbench_init(parallel 2)" "$T_sysbench_prepare_t2" "$T_polarbench_sysbench_p2"
