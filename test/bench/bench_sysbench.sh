#!/usr/bin/env bash
# polarbench against the real sysbench 1.0.20 (Debian's), on throwaway
# servers, in one go:
#
# 1. Loading the data set of Tencent Cloud's PostgreSQL sysbench report, TABLES tables of TABLE_SIZE rows:
#    polarbench_init('sysbench', ...) against sysbench's prepare.  The first
#    load of each tool into a new cluster (what a user meets: WAL segments
#    are made, not recycled) on a cluster of its own, then REPEAT loads of
#    each, alternating, on one cluster: their median.
# 2. Running oltp_read_only and oltp_read_write with CLIENTS clients for
#    SECONDS seconds on sysbench's own tables: sysbench --threads=CLIENTS
#    over the Unix socket (its best case) against polarbench_run, REPEAT
#    times each, alternating; the median queries per second of each and
#    their ratio.
#
# The servers run with PostgreSQL's defaults but for what a benchmark of
# this size needs (shared_buffers, max_wal_size, worker slots) and
# synchronous_commit = off, so that the disk's flush does not hide what
# the clients cost.
#
# Usage: bash test/bench/bench_sysbench.sh [tables] [table_size] [clients] [seconds] [repeat]
#   defaults: 64 25000 8 10 3
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/test/setup.sh"
tables=${1:-64}
table_size=${2:-25000}
clients=${3:-8}
seconds=${4:-10}
repeat=${5:-3}
port=54370

pb_install_packages
cd "$repo"
pb_build_install

dir=$(mktemp -d /tmp/polarbench-sysbench.XXXXXX)
chmod 755 "$dir"
servers=""
cleanup() {
	for s in $servers; do pb_stop_server "$s"; done
	pb_as_root rm -rf "$dir"
}
trap cleanup EXIT

settings=("shared_buffers = 1GB" "max_wal_size = 8GB" "checkpoint_timeout = 30min"
	"max_worker_processes = $((clients + 8))" "synchronous_commit = off")

# start a fresh cluster in $dir/$1 on port $2, with the extension
fresh_server() {
	pb_start_server "$dir/$1" "$2" "${settings[@]}"
	servers="$servers $dir/$1"
	psql -Xq -h "$dir/$1" -p "$2" -U postgres -d postgres -c "CREATE EXTENSION polarbench"
}




# the two loads on the server at $1 (socket dir) and $2 (port)
pb_load() {
	psql -XqAt -h "$1" -p "$2" -U postgres -d postgres -c \
		"SELECT polarbench_init('sysbench', tables => $tables, table_size => $table_size)"
}
sb_args() {
	echo "--db-driver=pgsql --pgsql-host=$1 --pgsql-port=$2 --pgsql-user=postgres --pgsql-db=postgres --tables=$tables --table-size=$table_size"
}
sb_load() {
	sysbench oltp_common $(sb_args "$1" "$2") cleanup >/dev/null
	sysbench oltp_common $(sb_args "$1" "$2") prepare
}

echo "polarbench against sysbench $(sysbench --version | awk '{print $2}'), $(nproc) cores"
echo "settings: ${settings[*]}"
echo
echo "== load: $tables tables of $table_size rows"

# first loads, each into a cluster of its own
fresh_server first-pb $port
pb_first=$(pb_elapsed pb_load "$dir/first-pb" $port)
fresh_server first-sb $((port + 1))
sb_first=$(pb_elapsed sb_load "$dir/first-sb" $((port + 1)))
pb_stop_server "$dir/first-pb"
pb_stop_server "$dir/first-sb"
servers=""

# then repeated loads, alternating, on one cluster
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
printf '%-34s %10s %10s %8s\n' "" sysbench polarbench ratio
printf '%-34s %9.2fs %9.2fs %7.2fx\n' "first load into a new cluster" "$sb_first" "$pb_first" "$(pb_ratio "$sb_first" "$pb_first")"
printf '%-34s %9.2fs %9.2fs %7.2fx\n' "median of $repeat loads" "$sb_med" "$pb_med" "$(pb_ratio "$sb_med" "$pb_med")"
echo "  (loads, s: sysbench$sb_times; polarbench$pb_times)"
echo

# runs on sysbench's own tables (the last load was sysbench's)
echo "== runs: $clients clients, $seconds s each, median of $repeat"
printf '%-18s %14s %14s %8s\n' workload sysbench_qps polarbench_qps ratio
for workload in oltp_read_only oltp_read_write; do
	sb_qps=""
	pb_qps=""
	for i in $(seq "$repeat"); do
		sb_qps="$sb_qps $(sysbench "$workload" $(sb_args "$host" $port) --threads="$clients" \
			--time="$seconds" run | awk '/queries:/ && /per sec/ {gsub(/\(/, "", $3); print $3; exit}')"
		pb_qps="$pb_qps $(psql -XqAt -h "$host" -p $port -U postgres -d postgres -c \
			"SELECT round(qps::numeric, 2) FROM polarbench_run('$workload', clients => $clients,
				duration => $seconds, options => '{\"tables\": $tables, \"table_size\": $table_size}')")"
	done
	sb_med=$(echo "$sb_qps" | pb_median)
	pb_med=$(echo "$pb_qps" | pb_median)
	printf '%-18s %14.2f %14.2f %7.2fx\n' "$workload" "$sb_med" "$pb_med" "$(pb_ratio "$pb_med" "$sb_med")"
	echo "  (q/s: sysbench$sb_qps; polarbench$pb_qps)"
done
