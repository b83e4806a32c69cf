#!/usr/bin/env bash
# polarbench's own cost, side by side on one throwaway server: pgbench's
# select-only lookup run by
#   bare:      the barest in-server loop (test/bench/bare_loop, a module of
#              its own: StartTransactionCommand, one kept read-only SPI
#              plan, commit, one counter);
#   full:      polarbench_run('select-only') with every measurement on
#              (transaction and per-command histograms, per-command
#              figures, the live view's figures every second);
#   counters:  polarbench_run('select-only', counters_only => true).
# The three alternate, REPEAT times (default 5), the same clients and
# seconds each.  Prints each one's median lookups per second and every
# run's, then the ratios full / bare (polarbench's own cost) and full /
# counters (what measuring costs): the median of each round's ratio (the
# three runs of a round are next to each other in time, so a machine whose
# speed drifts, as a shared VM's does, moves them together), and the ratio
# of the medians.
#
# On a shared machine those ratios move by several percent from one round
# to the next, more than the costs to measure.  So the script then counts
# instructions, which do not move: the same three, one client each, on a
# second throwaway server run under valgrind --tool=callgrind, collecting
# only inside the loop of each client (bare_loop_iterate, pb_client_loop),
# and prints the instructions per lookup and the same two ratios.  (Under
# callgrind a clock read is a system call it does not count: the loop of
# the full run reads the clock twice per lookup, the others once, some
# 40 ns here, under 0.5% of a lookup.)
#
# Usage: bash test/bench/bench_own_cost.sh [scale] [clients] [seconds] [repeat]
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/test/setup.sh"
scale=${1:-10}
clients=${2:-2}
seconds=${3:-10}
repeat=${4:-5}
port=54361

pb_install_packages
dpkg -s valgrind >/dev/null 2>&1 || {
	pb_as_root apt-get update -qq
	pb_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
}
cd "$repo"
pb_build_install
make -s -C test/bench/bare_loop PG_CONFIG="$PB_PGBIN/pg_config"
pb_as_root make -s -C test/bench/bare_loop PG_CONFIG="$PB_PGBIN/pg_config" install
make -s -C test/bench/bare_loop PG_CONFIG="$PB_PGBIN/pg_config" clean

dir=$(mktemp -d /tmp/polarbench-cost.XXXXXX)
cgdir=$(mktemp -d /tmp/polarbench-callgrind.XXXXXX)
trap 'pb_stop_server "$dir"; pb_stop_server "$cgdir"; pb_as_root rm -rf "$dir" "$cgdir"' EXIT
pb_start_server "$dir" "$port" "shared_buffers = 1GB" "synchronous_commit = off" \
	"max_worker_processes = 32" "autovacuum = off"

export PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=postgres
psql -Xq -c "CREATE EXTENSION polarbench" -c "CREATE EXTENSION bare_loop"
psql -Xq -c "SELECT polarbench_init('pgbench', scale => $scale)" >/dev/null
psql -Xq -c "VACUUM ANALYZE"


bare="" full="" counters="" own="" measuring=""
for i in $(seq "$repeat"); do
	b=$(psql -XAtq -c "SELECT round(lookups / $seconds::numeric) FROM bare_loop_run($clients, $seconds, $((scale * 100000)))")
	f=$(psql -XAtq -c "SELECT round(tps) FROM polarbench_run('select-only', clients => $clients, duration => $seconds)")
	c=$(psql -XAtq -c "SELECT round(tps) FROM polarbench_run('select-only', clients => $clients, duration => $seconds, counters_only => true)")
	bare="$bare $b" full="$full $f" counters="$counters $c"
	own="$own $(pb_ratio "$f" "$b" 3)" measuring="$measuring $(pb_ratio "$f" "$c" 3)"
done
bm=$(echo "$bare" | pb_median)
fm=$(echo "$full" | pb_median)
cm=$(echo "$counters" | pb_median)
echo "select-only lookups per second, scale $scale, $clients clients, $seconds s per run, median of $repeat, alternating"
printf '%-10s %12s   %s\n' bare "$bm" "runs:$bare"
printf '%-10s %12s   %s\n' full "$fm" "runs:$full"
printf '%-10s %12s   %s\n' counters "$cm" "runs:$counters"
echo "full / bare = $(echo "$own" | pb_median) median of the rounds' ratios, $(pb_ratio "$fm" "$bm" 3) of the medians (polarbench's own cost; target at least 0.95)"
echo "  (rounds:$own)"
echo "full / counters = $(echo "$measuring" | pb_median) median of the rounds' ratios, $(pb_ratio "$fm" "$cm" 3) of the medians (the cost of every measurement; target above 0.97)"
echo "  (rounds:$measuring)"

# ---- instructions per lookup, under callgrind ------------------------------
cgport=$((port + 1))
pb_as_root chown postgres: "$cgdir"
pb_as_postgres "$PB_PGBIN/initdb" -D "$cgdir/data" -U postgres -A trust >/dev/null
printf '%s\n' "listen_addresses = ''" "port = $cgport" "unix_socket_directories = '$cgdir'" \
	"shared_buffers = 256MB" "synchronous_commit = off" "autovacuum = off" \
	"max_worker_processes = 16" | pb_as_postgres tee -a "$cgdir/data/postgresql.conf" >/dev/null
pb_as_postgres mkdir "$cgdir/out"
pb_as_postgres bash -c "cd '$cgdir' && exec valgrind --tool=callgrind \
	--toggle-collect=pb_client_loop --toggle-collect=bare_loop_iterate \
	--callgrind-out-file='$cgdir/out/cg.%p' '$PB_PGBIN/postgres' -D '$cgdir/data'" \
	>"$cgdir/valgrind.log" 2>&1 &
cg() { psql -XAtq -h "$cgdir" -p "$cgport" -U postgres "$@"; }
for i in $(seq 300); do cg -c 'SELECT 1' >/dev/null 2>&1 && break; sleep 1; done
cg -c "CREATE EXTENSION polarbench" -c "CREATE EXTENSION bare_loop"
cg -c "SELECT polarbench_init('pgbench', scale => 1)" >/dev/null
cg -c "VACUUM ANALYZE"

# the instructions the loop of the client that ran last took: the newest
# profile that collected any
last_loop_ir() {
	local f ir
	for f in $(ls -t "$cgdir"/out/cg.*); do
		ir=$(callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}')
		# a process that never entered a loop shows "."
		if [[ "$ir" =~ ^[0-9]+$ ]] && [ "$ir" -gt 0 ]; then echo "$ir"; return; fi
	done
}
n=$(cg -c "SELECT lookups FROM bare_loop_run(1, 20, 100000)")
bare_ir=$(awk -v ir="$(last_loop_ir)" -v n="$n" 'BEGIN {printf "%.0f", ir / n}')
n=$(cg -c "SELECT transactions FROM polarbench_run('select-only', duration => 20)")
full_ir=$(awk -v ir="$(last_loop_ir)" -v n="$n" 'BEGIN {printf "%.0f", ir / n}')
n=$(cg -c "SELECT transactions FROM polarbench_run('select-only', duration => 20, counters_only => true)")
counters_ir=$(awk -v ir="$(last_loop_ir)" -v n="$n" 'BEGIN {printf "%.0f", ir / n}')
echo
echo "instructions per select-only lookup under callgrind, one client, scale 1, the loop alone"
printf '%-10s %12s\n' bare "$bare_ir" full "$full_ir" counters "$counters_ir"
echo "bare / full = $(pb_ratio "$bare_ir" "$full_ir" 3) (polarbench's own cost in instructions; target at least 0.95)"
echo "counters / full = $(pb_ratio "$counters_ir" "$full_ir" 3) (the cost of every measurement in instructions; target above 0.97)"
