#!/usr/bin/env bash
# polarbench against pgbench on one throwaway server, in one go: pgbench
# (-M prepared, the same clients, over the Unix socket: its best case) and
# polarbench_run for select-only and tpcb-like, with synchronous_commit =
# off so that the disk does not hide the engine.  Each pair runs REPEAT
# times (default 3), alternating; prints each side's median tps, every
# run's, and the ratio of the medians polarbench / pgbench.
#
# Then the same for the PolarDB white paper's ro.sql, a custom script, and
# the cost of running a script against the equivalent built-in: select-only
# given as a custom script text, beside the built-in select-only.
#
# Usage: bash test/bench/bench_run.sh [scale] [clients] [seconds] [repeat]
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/test/setup.sh"
scale=${1:-10}
clients=${2:-2}
seconds=${3:-20}
repeat=${4:-3}
port=54360

pb_install_packages
cd "$repo"
pb_build_install

dir=$(mktemp -d /tmp/polarbench-bench.XXXXXX)
trap 'pb_stop_server "$dir"; pb_as_root rm -rf "$dir"' EXIT
pb_start_server "$dir" "$port" "shared_buffers = 1GB" "synchronous_commit = off" \
	"max_worker_processes = 32" \
	"max_wal_size = 8GB" "checkpoint_timeout = 30min" "autovacuum = off"

export PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=postgres
psql -Xq -c "CREATE EXTENSION polarbench"
psql -Xq -c "SELECT polarbench_init('pgbench', scale => $scale)" >/dev/null

echo "scale $scale, $clients clients, $seconds s per run, median of $repeat, synchronous_commit = off"
printf '%-12s %14s %14s %8s\n' workload pgbench_tps polarbench_tps ratio

# $repeat runs of a pgbench command and a polarbench one, alternating: the
# medians and the ratio, then every run's tps
compare() {
	local label=$1 pgargs=$2 pbargs=$3 pg="" pb="" i
	for i in $(seq "$repeat"); do
		pg="$pg $(eval pgbench_tps $pgargs)"
		pb="$pb $(polarbench_tps "$pbargs")"
	done
	local pgm pbm
	pgm=$(echo "$pg" | pb_median)
	pbm=$(echo "$pb" | pb_median)
	printf '%-12s %14.1f %14.1f %8s\n' "$label" "$pgm" "$pbm" "$(pb_ratio "$pbm" "$pgm")"
	echo "  (tps: pgbench$pg; polarbench$pb)"
}

# tps of a polarbench run; $1 is the rest of polarbench_run's arguments
polarbench_tps() {
	psql -XAtq -c "SELECT round(tps::numeric, 1) FROM polarbench_run($1,
		clients => $clients, duration => $seconds)"
}

# tps of a pgbench run; arguments are pgbench's options
pgbench_tps() {
	"$PB_PGBIN/pgbench" -n -M prepared -c "$clients" -j "$clients" -T "$seconds" "$@" \
		2>/dev/null | awk '/^tps = / {print $3; exit}'
}

for workload in select-only tpcb-like; do
	compare "$workload" "-b $workload" "'$workload'"
done

# ro.sql, verbatim from the white paper, with :range the whole table
ro_sql="$dir/ro.sql"
printf '%s\n' '\set aid random_gaussian(1, :range, 10.0)' \
	'SELECT abalance FROM pgbench_accounts WHERE aid = :aid;' >"$ro_sql"
chmod a+r "$ro_sql"
range=$((scale * 100000))
compare "ro.sql" "-f $ro_sql -D range=$range" \
	"script => \$s\$$(cat "$ro_sql")\$s\$, vars => '{\"range\": $range}'"

# a script costs what the built-in costs: select-only as script text
builtin_tps=$(polarbench_tps "'select-only'")
script_tps=$(polarbench_tps "script => \$s\$\\set aid random(1, 100000 * :scale)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\$s\$, scale => $scale")
echo
echo "select-only built-in: $builtin_tps tps; the same as a custom script: $script_tps tps;" \
	"script / built-in = $(pb_ratio "$script_tps" "$builtin_tps")"
