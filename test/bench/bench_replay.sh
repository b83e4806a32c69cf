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
# 4. what each costs, in instructions, which a shared machine does not
#    move as it moves rates: on a second server run under valgrind
#    --tool=callgrind, a select-only log of one pgbench client of
#    CG_TRANSACTIONS statements (simple protocol), replayed by one client:
#    instructions per replayed statement of polarbench's replay client
#    (collected in its loop, pb_client_loop), of the bare in-server loop
#    doing the same lookups (test/bench/bare_loop, bare_loop_iterate: what
#    no client can go below), and of pgreplay's process (all of it, under
#    callgrind too: reading the log is its work) plus its backend
#    (exec_simple_query: parsing, planning and running each statement it
#    sends); and the ratios bare / polarbench (polarbench's own cost in a
#    replay) and polarbench / pgreplay.  BENCH_NO_CALLGRIND=1 leaves it
#    out; CG_TRANSACTIONS (default 2000) sets its size.
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
port=${BENCH_PORT:-54380}
cg_transactions=${CG_TRANSACTIONS:-2000}

# BENCH_ANY_LOAD=1 runs it anyway, to try the script: its figures then say nothing
load=$(awk '{print $1}' /proc/loadavg)
if awk -v l="$load" 'BEGIN {exit !(l >= 0.5)}' && [ "${BENCH_ANY_LOAD:-0}" != 1 ]; then
	echo "the 1-minute load average is $load: measure on an idle machine" >&2
	exit 2
fi

pb_install_packages pgreplay valgrind
cd "$repo"
pb_build_install
make -s -C test/bench/bare_loop PG_CONFIG="$PB_PGBIN/pg_config"
pb_as_root make -s -C test/bench/bare_loop PG_CONFIG="$PB_PGBIN/pg_config" install
make -s -C test/bench/bare_loop PG_CONFIG="$PB_PGBIN/pg_config" clean

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

[ "${BENCH_NO_CALLGRIND:-0}" = 1 ] && exit 0

# 4. instructions per replayed statement, one client, under callgrind
cgdir="$dir/callgrind"
cgport=$((port + 1))
pb_as_root mkdir -p "$cgdir/out"
pb_as_root chown -R postgres: "$cgdir"
pb_as_postgres "$PB_PGBIN/initdb" -D "$cgdir/data" -U postgres -A trust >/dev/null
printf '%s\n' "listen_addresses = ''" "port = $cgport" "unix_socket_directories = '$cgdir'" \
	"synchronous_commit = off" "autovacuum = off" "max_worker_processes = 16" \
	"logging_collector = on" "log_destination = 'csvlog'" "log_directory = 'log'" \
	"log_filename = 'cg.log'" "log_connections = on" "log_disconnections = on" "lc_messages = 'C'" |
	pb_as_postgres tee -a "$cgdir/data/postgresql.conf" >/dev/null
pb_as_postgres bash -c "cd '$cgdir' && exec valgrind --tool=callgrind \
	--toggle-collect=pb_client_loop --toggle-collect=bare_loop_iterate --toggle-collect=exec_simple_query \
	--callgrind-out-file='$cgdir/out/cg.%p' '$PB_PGBIN/postgres' -D '$cgdir/data'" \
	>"$cgdir/valgrind.log" 2>&1 &
trap 'pb_stop_server "$cgdir"; cleanup' EXIT
cg() { psql -XqAt -h "$cgdir" -p $cgport -U postgres -d cg -c "$1"; }
for i in $(seq 300); do psql -XqAt -h "$cgdir" -p $cgport -U postgres -d postgres -c 'SELECT 1' >/dev/null 2>&1 && break; sleep 1; done
psql -XqAt -h "$cgdir" -p $cgport -U postgres -d postgres -c 'CREATE DATABASE cg'
cg "CREATE EXTENSION polarbench"
cg "CREATE EXTENSION bare_loop"
pgbench -q -i -s 1 -h "$cgdir" -p $cgport -U postgres cg >/dev/null 2>&1
cg "VACUUM ANALYZE"
# only pgbench's session logs its statements: pgreplay replays every session of a log
PGOPTIONS="-c log_statement=all" PGAPPNAME=pgbench pgbench -n -S -M simple -c 1 -t "$cg_transactions" -h "$cgdir" -p $cgport -U postgres cg >/dev/null
m="end-of-log-$RANDOM"
PGOPTIONS="-c log_statement=all" cg "SELECT '$m'" >/dev/null
until cg "SELECT pg_read_file('log/cg.csv') LIKE '%$m%'" | grep -q t; do sleep 0.5; done
read -r cg_id cg_statements < <(cg "SELECT capture_id || ' ' || statements
	FROM polarbench_capture_log('log/cg.csv', application => 'pgbench')")

# the instructions of the newest profile holding function $1 (each client's
# written as its process exits)
newest_with() {
	local f
	for i in $(seq 60); do
		for f in $(ls -t "$cgdir"/out/cg.*); do
			if grep -q "^fn=.* $1\$" "$f" && grep -q '^totals:' "$f"; then
				awk '/^totals:/ {print $2}' "$f"
				return
			fi
		done
		sleep 1
	done
	echo 0
}
n=$(cg "SELECT transactions FROM polarbench_run('replay', clients => 1,
	options => '{\"capture\": $cg_id, \"speed\": \"max\"}')")
pb_ir=$(newest_with pb_client_loop)
n=$(cg "SELECT lookups FROM bare_loop_run(1, 10, 100000)")
bare_ir=$(awk -v ir="$(newest_with bare_loop_iterate)" -v n="$n" 'BEGIN {printf "%.0f", ir / n}')
# pgreplay and its backend: of the profiles that appear, the largest (the
# log's other sessions connect and run nothing)
before=$(ls "$cgdir"/out | sort)
pb_as_postgres valgrind --tool=callgrind --callgrind-out-file="$cgdir/pgreplay.cg" \
	pgreplay -c -j -s 1000 -h "$cgdir" -p $cgport "$cgdir/data/log/cg.csv" >/dev/null 2>&1
client_ir=$(awk '/^totals:/ {print $2}' "$cgdir/pgreplay.cg")
backend_ir=0
for i in $(seq 60); do
	for f in $(comm -13 <(echo "$before") <(ls "$cgdir"/out | sort)); do
		ir=$(awk '/^totals:/ {print $2}' "$cgdir/out/$f")
		[ -n "$ir" ] && [ "$ir" -gt "$backend_ir" ] && backend_ir=$ir
	done
	[ "$backend_ir" != 0 ] && break
	sleep 1
done
sleep 2
for f in $(comm -13 <(echo "$before") <(ls "$cgdir"/out | sort)); do
	ir=$(awk '/^totals:/ {print $2}' "$cgdir/out/$f")
	[ -n "$ir" ] && [ "$ir" -gt "$backend_ir" ] && backend_ir=$ir
done
per() { awk -v ir="$1" -v n="$cg_statements" 'BEGIN {printf "%.0f", ir / n}'; }
pb_per=$(per "$pb_ir")
echo
echo "instructions per replayed statement under callgrind, select-only, simple protocol, one client, $cg_statements statements"
printf '%-36s %10s\n' "bare in-server loop (per lookup)" "$bare_ir" \
	"polarbench's replay client" "$pb_per" \
	"pgreplay, its process" "$(per "$client_ir")" \
	"pgreplay, its backend" "$(per "$backend_ir")" \
	"pgreplay, both" "$(per $((client_ir + backend_ir)))"
echo "bare / polarbench = $(pb_ratio "$bare_ir" "$pb_per" 3) (the replay client's own cost)"
echo "polarbench / pgreplay = $(pb_ratio "$pb_per" "$(per $((client_ir + backend_ir)))" 3)"
