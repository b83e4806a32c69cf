#!/usr/bin/env bash
# polarbench's TPC-C against Percona-Lab's sysbench-tpcc, run by Debian's
# sysbench 1.0.20 over the Unix socket (its best case), on throwaway
# servers, in one go:
#
# 1. The load of WAREHOUSES warehouses: polarbench_init('tpcc', ...)
#    against sysbench-tpcc's prepare of the same number (--scale), both
#    with PARALLEL workers or threads.  The first load of each into a new
#    cluster (what a user meets), then REPEAT loads of each, alternating, on
#    one cluster: their median; the load's MB/s beside what the disk writes
#    with O_DIRECT (dd oflag=direct).
# 2. Runs of CLIENTS clients for SECONDS seconds, REPEAT times each,
#    alternating, each tool on its own tables of the same size: NOPM
#    measured the same way on both sides, as HammerDB measures it (the
#    change of sum(d_next_o_id) over the run, per minute of the run's
#    time), at READ COMMITTED on both (sysbench-tpcc's --trx_level=RC; its
#    default, REPEATABLE READ, spends most of its time on serialization
#    failures on PostgreSQL).  The first run, the median and the ratio.
# 3. polarbench_tpcc_check() after both, on polarbench's tables and, through
#    views of the spec's names, on sysbench-tpcc's.
#
# The servers run with PostgreSQL's defaults but for what a benchmark of
# this size needs (shared_buffers, max_wal_size, worker slots) and
# synchronous_commit = off, fsync on.
#
# Usage: bash test/bench/bench_tpcc.sh SYSBENCH_TPCC_DIR [warehouses] [clients]
#            [seconds] [repeat] [parallel]
#   defaults: 4 4 30 3 2
# SYSBENCH_TPCC_DIR is a checkout of https://github.com/Percona-Lab/sysbench-tpcc
# (tpcc.lua and its modules); the script needs it and says so without it.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/test/setup.sh"
sbtpcc=${1:-}
if [ -z "$sbtpcc" ] || [ ! -f "$sbtpcc/tpcc.lua" ] || [ ! -f "$sbtpcc/tpcc_common.lua" ]; then
	echo "usage: bash test/bench/bench_tpcc.sh SYSBENCH_TPCC_DIR [warehouses] [clients] [seconds] [repeat] [parallel]" >&2
	echo "SYSBENCH_TPCC_DIR must be a checkout of Percona-Lab/sysbench-tpcc (tpcc.lua, tpcc_common.lua):" >&2
	echo "  git clone https://github.com/Percona-Lab/sysbench-tpcc" >&2
	exit 2
fi
sbtpcc=$(cd "$sbtpcc" && pwd)
warehouses=${2:-4}
clients=${3:-4}
seconds=${4:-30}
repeat=${5:-3}
parallel=${6:-2}
port=54380

pb_install_packages
cd "$repo"
pb_build_install

dir=$(mktemp -d /tmp/polarbench-tpcc.XXXXXX)
chmod 755 "$dir"
servers=""
cleanup() {
	for s in $servers; do pb_stop_server "$s"; done
	pb_as_root rm -rf "$dir"
}
trap cleanup EXIT

settings=("shared_buffers = 1GB" "max_wal_size = 8GB" "checkpoint_timeout = 30min"
	"max_worker_processes = $((clients + parallel + 8))" "synchronous_commit = off")

# a fresh cluster in $dir/$1 on port $2, with the extension
fresh_server() {
	pb_start_server "$dir/$1" "$2" "${settings[@]}"
	servers="$servers $dir/$1"
	psql -Xq -h "$dir/$1" -p "$2" -U postgres -d postgres -c "CREATE EXTENSION polarbench"
}




q() {
	psql -XqAt -h "$1" -p "$2" -U postgres -d postgres -c "$3"
}

# the loads on the server at $1 (socket dir) and $2 (port)
pb_load() {
	q "$1" "$2" "SELECT polarbench_init('tpcc', warehouses => $warehouses, parallel => $parallel)"
}
sb_args() {
	echo "--db-driver=pgsql --pgsql-host=$1 --pgsql-port=$2 --pgsql-user=postgres --pgsql-db=postgres --tables=1 --scale=$warehouses --use_fk=0 --trx_level=RC"
}
sb() {
	(cd "$sbtpcc" && sysbench ./tpcc.lua "$@")
}
sb_load() {
	sb $(sb_args "$1" "$2") cleanup >/dev/null 2>&1 || true
	sb $(sb_args "$1" "$2") --threads="$parallel" prepare
}

echo "polarbench's TPC-C against sysbench-tpcc on sysbench $(sysbench --version | awk '{print $2}'), $(nproc) cores"
echo "settings: ${settings[*]}"
echo

# what the disk writes, for the loads' MB/s
disk=$(dd if=/dev/zero of="$dir/dd" bs=1M count=512 oflag=direct 2>&1 |
	awk '/copied/ {print $(NF-1), $NF}')
rm -f "$dir/dd"

echo "== load: $warehouses warehouses, $parallel workers (sysbench-tpcc: threads)"
fresh_server first-pb $port
pb_first=$(pb_elapsed pb_load "$dir/first-pb" $port)
pb_bytes=$(q "$dir/first-pb" $port "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c
	WHERE relname IN ('warehouse','district','customer','history','new_order','orders','order_line','item','stock') AND relkind = 'r'")
fresh_server first-sb $((port + 1))
sb_first=$(pb_elapsed sb_load "$dir/first-sb" $((port + 1)))
pb_stop_server "$dir/first-pb"
pb_stop_server "$dir/first-sb"
servers=""

fresh_server main $port
host="$dir/main"
pb_times=""
sb_times=""
for i in $(seq "$repeat"); do
	pb_times="$pb_times $(pb_elapsed pb_load "$host" $port)"
	sb_times="$sb_times $(pb_elapsed sb_load "$host" $port)"
done
pb_med=$(echo "$pb_times" | pb_median)
sb_med=$(echo "$sb_times" | pb_median)
printf '%-34s %12s %12s %8s\n' "" sysbench-tpcc polarbench ratio
printf '%-34s %11.2fs %11.2fs %7.2fx\n' "first load into a new cluster" "$sb_first" "$pb_first" "$(pb_ratio "$sb_first" "$pb_first")"
printf '%-34s %11.2fs %11.2fs %7.2fx\n' "median of $repeat loads" "$sb_med" "$pb_med" "$(pb_ratio "$sb_med" "$pb_med")"
echo "  (loads, s: sysbench-tpcc$sb_times; polarbench$pb_times)"
awk -v b="$pb_bytes" -v s="$pb_med" -v d="$disk" 'BEGIN {
	printf "polarbench wrote %.0f MB of tables and indexes at %.0f MB/s (median load); dd oflag=direct writes %s\n",
		b / 1048576, b / 1048576 / s, d }'
echo

# NOPM: the change of sum(d_next_o_id) per minute of the run's own time
next_o_ids() {
	q "$host" $port "SELECT sum(d_next_o_id) FROM $1"
}
echo "== runs: $clients clients, $seconds s each, NOPM from sum(d_next_o_id), first and median of $repeat"
pb_nopm=""
sb_nopm=""
for i in $(seq "$repeat"); do
	before=$(next_o_ids district1)
	sb_secs=$(sb $(sb_args "$host" $port) --threads="$clients" --time="$seconds" run |
		awk '/total time:/ {gsub(/s/, "", $3); print $3}')
	after=$(next_o_ids district1)
	sb_nopm="$sb_nopm $(awk -v a="$after" -v b="$before" -v s="$sb_secs" 'BEGIN {printf "%.1f", (a - b) * 60 / s}')"

	before=$(next_o_ids district)
	pb_secs=$(q "$host" $port "SELECT seconds FROM polarbench_run('tpcc', clients => $clients, duration => $seconds)")
	after=$(next_o_ids district)
	pb_nopm="$pb_nopm $(awk -v a="$after" -v b="$before" -v s="$pb_secs" 'BEGIN {printf "%.1f", (a - b) * 60 / s}')"
done
sb_first_nopm=$(echo "$sb_nopm" | awk '{print $1}')
pb_first_nopm=$(echo "$pb_nopm" | awk '{print $1}')
sb_med=$(echo "$sb_nopm" | pb_median)
pb_med=$(echo "$pb_nopm" | pb_median)
printf '%-34s %12s %12s %8s\n' "" sysbench-tpcc polarbench ratio
printf '%-34s %12.1f %12.1f %7.2fx\n' "NOPM, first run" "$sb_first_nopm" "$pb_first_nopm" "$(pb_ratio "$pb_first_nopm" "$sb_first_nopm")"
printf '%-34s %12.1f %12.1f %7.2fx\n' "NOPM, median of $repeat" "$sb_med" "$pb_med" "$(pb_ratio "$pb_med" "$sb_med")"
echo "  (NOPM: sysbench-tpcc$sb_nopm; polarbench$pb_nopm)"
echo

# consistency after both: sysbench-tpcc's tables seen under the spec's names
echo "== polarbench_tpcc_check(): conditions with offending rows (11 holds only while deliveries keep up)"
echo "polarbench's tables:"
q "$host" $port "SELECT coalesce(string_agg(condition || ': ' || offending, ', '), 'none')
	FROM polarbench_tpcc_check() WHERE offending > 0"
q "$host" $port "CREATE SCHEMA sbtpcc;
	CREATE VIEW sbtpcc.warehouse AS SELECT * FROM public.warehouse1;
	CREATE VIEW sbtpcc.district AS SELECT * FROM public.district1;
	CREATE VIEW sbtpcc.customer AS SELECT * FROM public.customer1;
	CREATE VIEW sbtpcc.history AS SELECT * FROM public.history1;
	CREATE VIEW sbtpcc.new_order AS SELECT * FROM public.new_orders1;
	CREATE VIEW sbtpcc.orders AS SELECT * FROM public.orders1;
	CREATE VIEW sbtpcc.order_line AS SELECT * FROM public.order_line1;
	CREATE VIEW sbtpcc.item AS SELECT * FROM public.item1;
	CREATE VIEW sbtpcc.stock AS SELECT * FROM public.stock1;" >/dev/null
echo "sysbench-tpcc's tables:"
psql -XqAt -h "$host" -p $port -U postgres -d postgres -c "SET search_path = sbtpcc, public" -c \
	"SELECT coalesce(string_agg(condition || ': ' || offending, ', '), 'none')
	FROM polarbench_tpcc_check() WHERE offending > 0"
