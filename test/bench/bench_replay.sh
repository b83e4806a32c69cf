#!/usr/bin/env bash
# polarbench's replay against pgreplay 1.2.0 (Debian's), on a throwaway
# server, in one go, on logs that real pgbench writes (csvlog,
# log_statement = 'all', connections and disconnections logged):
#
# 1. select-only, CLIENTS clients, TRANSACTIONS each, with the simple and
#    the extended protocol: `pgreplay -c -j -s 1000` against
#    polarbench_run('replay', clients => CLIENTS, options => '{"speed":
#    "max"}') on the same server, one after the other: the statements
#    replayed per second of each and their ratio (pgreplay's: the
#    capture's statements over its wall-clock time, its connections'
#    start included; polarbench's: over the run's measured seconds, from
#    the clients' release, as every run's figures).
# 2. tpcb-like on one branch (every transaction updates the same row),
#    CLIENTS clients, TPCB_TRANSACTIONS each: both replay it from the
#    database as it was before the log (a copy made from a template each
#    time); a replay that has not ended after TIMEOUT seconds is reported
#    as hanging and stopped.
# 3. the tpcb-like log at speed 1: the replay's time against the log's
#    (from its first statement to its last) and the median lag.
#
# The server runs with PostgreSQL's defaults but for the logging the
# replay needs, the worker slots and synchronous_commit = off; only the
# benchmark's databases log their statements (ALTER DATABASE ... SET
# log_statement), so that the logs hold pgbench's sessions and nothing the
# script itself runs.  Run it on
# an otherwise idle machine: it checks the load average first.
#
# Usage: bash test/bench/bench_replay.sh [clients] [transactions] [tpcb_transactions] [timeout]
#   defaults: 4 10000 1000 300
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/test/setup.sh"
clients=${1:-4}
transactions=${2:-10000}
tpcb_transactions=${3:-1000}
timeout_s=${4:-300}
port=54380

# BENCH_ANY_LOAD=1 runs it anyway, to try the script: its figures then say nothing
load=$(awk '{print $1}' /proc/loadavg)
if awk -v l="$load" 'BEGIN {exit !(l >= 0.5)}' && [ "${BENCH_ANY_LOAD:-0}" != 1 ]; then
	echo "the 1-minute load average is $load: measure on an idle machine" >&2
	exit 2
fi

pb_install_packages pgreplay
cd "$repo"
pb_build_install

dir=$(mktemp -d /tmp/polarbench-replay.XXXXXX)
chmod 755 "$dir"
cleanup() {
	pb_stop_server "$dir/server"
	pb_as_root rm -rf "$dir"
}
trap cleanup EXIT

pb_start_server "$dir/server" $port "max_worker_processes = $((clients + 8))" \
	"synchronous_commit = off" "logging_collector = on" "log_destination = 'csvlog'" \
	"log_directory = 'log'" "log_filename = 'bench-%H%M%S.log'" \
	"log_rotation_size = 0" "log_connections = on" "log_disconnections = on" "lc_messages = 'C'"
host="$dir/server"
sql() { psql -XqAt -h "$host" -p $port -U postgres -d "${2:-postgres}" -c "$1"; }

# Start a new log file; its path, relative to the data directory.
new_log() {
	sql "SELECT pg_rotate_logfile()" >/dev/null
	sleep 1.1
	sql "SELECT 'new log'" >/dev/null
	sql "SELECT pg_current_logfile('csvlog')"
}

# Wait until a marker sent in database $2 reaches the log $1: it is
# complete; then go on in a new log, so that nothing else is in it.
end_log() {
	local log=$1 m="end-of-log-$RANDOM"
	sql "SELECT '$m'" "$2" >/dev/null
	until sql "SELECT pg_read_file('$log') LIKE '%$m%'" | grep -q t; do sleep 0.2; done
	new_log >/dev/null
}

# A fresh database $1 from template $2, its statements logged
fresh_db() {
	sql "DROP DATABASE IF EXISTS $1" >/dev/null
	sql "CREATE DATABASE $1 TEMPLATE $2" >/dev/null
	sql "ALTER DATABASE $1 SET log_statement = 'all'" >/dev/null
}

# Capture the log $1 of database $2's sessions into database $2; "id statements"
capture() {
	sql "SELECT capture_id || ' ' || statements FROM polarbench_capture_log('$1', database => '$2',
		application => 'pgbench')" "$2"
}

# pgreplay of log $1 as fast as it goes: its seconds, "hung" when the
# timeout stopped it, "failed" when it failed
pgreplay_run() {
	local start end rc=0
	start=$(date +%s.%N)
	timeout "$timeout_s" pgreplay -c -j -s 1000 -h "$host" -p $port "$dir/server/data/$1" \
		>"$dir/pgreplay.out" 2>&1 || rc=$?
	end=$(date +%s.%N)
	case $rc in
		0) echo "$end - $start" | bc ;;
		124) echo hung ;;
		*) echo failed; cat "$dir/pgreplay.out" >&2 ;;
	esac
}

# polarbench's replay of capture $1 in database $2 at speed $3: "seconds statements/s lag_p50"
polarbench_run() {
	local run
	run=$(sql "SET statement_timeout = '${timeout_s}s';
		SELECT run_id FROM polarbench_run('replay', clients => $clients,
		                                  options => '{\"capture\": $1, \"speed\": $3}')" "$2" 2>/dev/null) ||
		{ echo "hung - -"; return; }
	sql "SELECT seconds || ' ' || (figures->'replay'->>'statements_per_second') || ' '
		        || coalesce(figures->'replay'->'lag_ms'->>'p50', '-')
		   FROM polarbench_runs WHERE run_id = $run" "$2"
}

echo "polarbench's replay against pgreplay $(dpkg-query -W -f='${Version}' pgreplay), $(nproc) cores"
echo

# 1. select-only, both protocols
sql "CREATE DATABASE sel_base" >/dev/null
sql "CREATE EXTENSION polarbench" sel_base
pgbench -q -i -s 10 -h "$host" -p $port -U postgres sel_base >/dev/null 2>&1
fresh_db sel sel_base
for mode in simple extended; do
	log=$(new_log)
	PGAPPNAME=pgbench pgbench -n -S -M $mode -c "$clients" -t "$transactions" -h "$host" -p $port \
		-U postgres sel >/dev/null
	end_log "$log" sel
	read -r id statements < <(capture "$log" sel)
	pg=$(pgreplay_run "$log")
	read -r secs sps lag < <(polarbench_run "$id" sel '"max"')
	pg_sps=$(case $pg in hung|failed) echo 0 ;; *) pb_ratio "$statements" "$pg" 1 ;; esac)
	echo "select-only, $mode, $clients clients, $statements statements:" \
		"pgreplay -j -s 1000 $pg_sps/s, polarbench $sps/s," \
		"ratio $([ "$pg_sps" = 0 ] && echo - || pb_ratio "$sps" "$pg_sps" 1)"
done

# 2. tpcb-like on one branch, from the database as it was before the log
sql "CREATE DATABASE tpcb_base" >/dev/null
sql "CREATE EXTENSION polarbench" tpcb_base
pgbench -q -i -s 1 -h "$host" -p $port -U postgres tpcb_base >/dev/null 2>&1
fresh_db tpcb tpcb_base
log=$(new_log)
PGAPPNAME=pgbench pgbench -n -M simple -c "$clients" -t "$tpcb_transactions" -h "$host" -p $port \
	-U postgres tpcb >/dev/null
end_log "$log" tpcb
fresh_db tpcb tpcb_base
pg=$(pgreplay_run "$log")
fresh_db tpcb tpcb_base
read -r id statements < <(capture "$log" tpcb)
read -r secs sps lag < <(polarbench_run "$id" tpcb '"max"')
echo "tpcb-like, one branch, $clients clients, $statements statements:" \
	"pgreplay -j -s 1000 $(case $pg in hung) echo "hung (stopped after $timeout_s s)" ;; failed) echo failed ;; *) echo "$(pb_ratio "$statements" "$pg" 1)/s" ;; esac)," \
	"polarbench $([ "$secs" = hung ] && echo hung || echo "$sps/s, to its end")"

# 3. the same log at speed 1
fresh_db tpcb tpcb_base
read -r id statements < <(capture "$log" tpcb)
span=$(sql "SELECT extract(epoch FROM last_at - first_at) FROM polarbench_captures WHERE capture_id = $id" tpcb)
read -r secs sps lag < <(polarbench_run "$id" tpcb 1)
echo "tpcb-like at speed 1: the log ${span} s, the replay ${secs} s" \
	"($(pb_ratio "$secs" "$span" 3) of it), median lag ${lag} ms"
