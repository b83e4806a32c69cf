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
# 2. what the machine allows, to read those ratios by: the select-only
#    simple-protocol log replayed again by both, and the same lookups
#    (pgbench_accounts by aid) made by the barest in-server loop
#    (test/bench/bare_loop: CLIENTS background workers, a kept SPI plan, no
#    measuring) for as long as the first replay took; REPEAT rounds, the
#    three next to each other in each, their order reversed every other
#    round: the median of each's rate, and the ratios polarbench / bare
#    and pgreplay / bare (the median of the rounds' ratios).
# 3. tpcb-like on one branch (every transaction updates the same row),
#    CLIENTS clients, TPCB_TRANSACTIONS each: both replay it from the
#    database as it was before the log (a copy made from a template each
#    time); a replay that has not ended after TIMEOUT seconds is reported
#    as hanging and stopped.
# 4. the tpcb-like log at speed 1: the replay's time against the log's
#    (from its first statement to its last) and the median lag.
# 5. what each costs, in instructions, which a shared machine does not
#    move as it moves rates: on a second server run under valgrind
#    --tool=callgrind, two select-only logs of one pgbench client (simple
#    protocol, a quarter of CG_TRANSACTIONS transactions and
#    CG_TRANSACTIONS, 2000 by default), each replayed by one client; per
#    replayed statement, the difference of the two (what a replay does
#    once, starting and connecting, is in both): polarbench's replay client
#    (collected in its loop, pb_client_loop), pgreplay's process (all of
#    it, under callgrind too: reading the log is its work) and its backends
#    (from PostgresMain on: reading each statement, parsing, planning,
#    running it and sending its result); and per lookup the bare in-server
#    loop doing the same lookups (bare_loop_iterate: what no client can go
#    below); the ratios bare / polarbench (polarbench's own cost in a
#    replay) and polarbench / pgreplay.  BENCH_NO_CALLGRIND=1 leaves it
#    out.
#
# The server runs with PostgreSQL's defaults but for the logging the
# replay needs, the worker slots and synchronous_commit = off; only the
# benchmark's databases log their statements (ALTER DATABASE ... SET
# log_statement), so that the logs hold pgbench's sessions and nothing the
# script itself runs.  pgreplay reads a log the server no longer writes:
# reading one it still writes, it would replay the connections it makes
# itself, logged as it reads, and never reach the end.
#
# No step waits without a bound: a step on the first server still going
# after TIMEOUT + 60 seconds, one on the server under callgrind after
# CG_TIMEOUT seconds (3600), is stopped and named, and the script fails.
# Run it on an otherwise idle machine: it checks the load average first.
#
# Usage: bash test/bench/bench_replay.sh [clients] [transactions] [tpcb_transactions] [timeout] [repeat]
#   defaults: 4 10000 1000 300 5; BENCH_PORT (54380) and the port after it
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/test/setup.sh"
clients=${1:-4}
transactions=${2:-10000}
tpcb_transactions=${3:-1000}
timeout_s=${4:-300}
repeat=${5:-5}
port=${BENCH_PORT:-54380}
scale=10
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
cgdir="$dir/callgrind"
cleanup() {
	pb_stop_server "$dir/server"
	# a server under callgrind takes long to stop: each process writes its profile
	[ ! -d "$cgdir/data" ] || PGCTLTIMEOUT=600 pb_stop_server "$cgdir"
	pb_as_root rm -rf "$dir"
}
trap cleanup EXIT

log_settings=("logging_collector = on" "log_destination = 'csvlog'" "log_directory = 'log'"
	"log_filename = 'bench-%H%M%S.log'" "log_rotation_size = 0" "log_connections = on"
	"log_disconnections = on" "lc_messages = 'C'")
pb_start_server "$dir/server" "$port" "max_worker_processes = $((clients + 8))" \
	"synchronous_commit = off" "${log_settings[@]}"

# The server the functions below talk to, how long a replay may take, and
# one step
host="$dir/server"
run_timeout_s=$timeout_s
wait_s=$((timeout_s + 60))

fail() {
	echo "bench_replay.sh: $*" >&2
	exit 1
}

# Run a command for at most $wait_s seconds: one still going then is
# stopped and named, and fails
bounded() {
	local rc=0
	timeout "$wait_s" "$@" || rc=$?
	[ $rc != 124 ] || echo "bench_replay.sh: stopped after $wait_s s: $*" >&2
	return $rc
}

sql() { bounded psql -XqAt -h "$host" -p "$port" -U postgres -d "${2:-postgres}" -c "$1"; }

# Start a new log file; its path, relative to the data directory.  The
# logging collector rotates when it gets to it: wait until it has.
new_log() {
	local old new deadline=$((SECONDS + wait_s))
	old=$(sql "SELECT pg_current_logfile('csvlog')")
	sleep 1.1 # the file's name changes by the second
	sql "SELECT pg_rotate_logfile()" >/dev/null
	while [ $SECONDS -lt $deadline ]; do
		new=$(sql "SELECT pg_current_logfile('csvlog')")
		[ "$new" = "$old" ] || { echo "$new"; return; }
		sleep 0.2
	done
	fail "the logging collector did not start a new log within $wait_s s"
}

# Wait until a marker sent in database $2 reaches the log $1: it is
# complete; then go on in a new log, so that nothing else is in it.
end_log() {
	local log=$1 m="end-of-log-$RANDOM" deadline=$((SECONDS + wait_s))
	sql "SELECT '$m'" "$2" >/dev/null
	until sql "SELECT pg_read_file('$log') LIKE '%$m%'" | grep -q t; do
		[ $SECONDS -lt $deadline ] || fail "the log $log did not get its last statement within $wait_s s"
		sleep 0.2
	done
	new_log >/dev/null
}

# A fresh database $1 from template $2, its statements logged
fresh_db() {
	sql "DROP DATABASE IF EXISTS $1" >/dev/null
	sql "CREATE DATABASE $1 TEMPLATE $2" >/dev/null
	sql "ALTER DATABASE $1 SET log_statement = 'all'" >/dev/null
}

# pgbench's select-only, protocol $1, $2 clients of $3 transactions each,
# on database $4, as the logged application
pgbench_select_only() {
	PGAPPNAME=pgbench bounded pgbench -n -S -M "$1" -c "$2" -t "$3" -h "$host" -p "$port" \
		-U postgres "$4" >/dev/null
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
	timeout "$run_timeout_s" pgreplay -c -j -s 1000 -h "$host" -p "$port" "$host/data/$1" \
		>"$dir/pgreplay.out" 2>&1 || rc=$?
	end=$(date +%s.%N)
	case $rc in
		0) echo "$end - $start" | bc ;;
		124) echo hung ;;
		*) echo failed; cat "$dir/pgreplay.out" >&2 ;;
	esac
}

# polarbench's replay of capture $1 in database $2 at speed $3, by
# $4 clients ($clients): "seconds statements/s lag_p50"
polarbench_run() {
	local run
	run=$(sql "SET statement_timeout = '${run_timeout_s}s';
		SELECT run_id FROM polarbench_run('replay', clients => ${4:-$clients},
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
sql "CREATE EXTENSION bare_loop" sel_base
bounded pgbench -q -i -s $scale -h "$host" -p "$port" -U postgres sel_base >/dev/null 2>&1
fresh_db sel sel_base
for mode in simple extended; do
	log=$(new_log)
	pgbench_select_only $mode "$clients" "$transactions" sel
	end_log "$log" sel
	read -r id statements < <(capture "$log" sel)
	pg=$(pgreplay_run "$log")
	read -r secs sps lag < <(polarbench_run "$id" sel '"max"')
	pg_sps=$(case $pg in hung|failed) echo 0 ;; *) pb_ratio "$statements" "$pg" 1 ;; esac)
	echo "select-only, $mode, $clients clients, $statements statements:" \
		"pgreplay -j -s 1000 $pg_sps/s, polarbench $sps/s," \
		"ratio $([ "$pg_sps" = 0 ] && echo - || pb_ratio "$sps" "$pg_sps" 1)"
	if [ $mode = simple ]; then
		simple_log=$log simple_id=$id simple_statements=$statements simple_secs=$secs
	fi
done

# 2. the same lookups by the bare loop, alternating with both replays
bare_secs=$(awk -v s="$simple_secs" 'BEGIN {print (s > 1 ? s : 1)}')
bare_rates="" pb_rates="" pg_rates="" pb_rounds="" pg_rounds=""
for round in $(seq "$repeat"); do
	order="bare polarbench pgreplay"
	[ $((round % 2)) = 1 ] || order="pgreplay polarbench bare"
	for who in $order; do
		case $who in
			bare) b=$(sql "SELECT round(lookups / $bare_secs::numeric)
			              FROM bare_loop_run($clients, $bare_secs, $((scale * 100000)))" sel) ;;
			polarbench) read -r secs p lag < <(polarbench_run "$simple_id" sel '"max"') ;;
			pgreplay)
				pg=$(pgreplay_run "$simple_log")
				case $pg in hung|failed) fail "pgreplay $pg on the select-only log" ;; esac
				g=$(pb_ratio "$simple_statements" "$pg" 1) ;;
		esac
	done
	[ "$secs" != hung ] || fail "polarbench's replay of the select-only log did not end"
	bare_rates="$bare_rates $b" pb_rates="$pb_rates $p" pg_rates="$pg_rates $g"
	pb_rounds="$pb_rounds $(pb_ratio "$p" "$b" 3)" pg_rounds="$pg_rounds $(pb_ratio "$g" "$b" 3)"
done
echo "select-only, simple, $clients clients, against the bare in-server loop's lookups" \
	"($bare_secs s a run), medians of $repeat rounds, alternating:"
printf '  %-28s %10s/s   %s\n' "bare in-server loop" "$(echo "$bare_rates" | pb_median)" "runs:$bare_rates" \
	"polarbench's replay" "$(echo "$pb_rates" | pb_median)" "runs:$pb_rates" \
	"pgreplay -j -s 1000" "$(echo "$pg_rates" | pb_median)" "runs:$pg_rates"
echo "  polarbench / bare = $(echo "$pb_rounds" | pb_median) (rounds:$pb_rounds)"
echo "  pgreplay / bare = $(echo "$pg_rounds" | pb_median) (rounds:$pg_rounds)"

# 3. tpcb-like on one branch, from the database as it was before the log
sql "CREATE DATABASE tpcb_base" >/dev/null
sql "CREATE EXTENSION polarbench" tpcb_base
bounded pgbench -q -i -s 1 -h "$host" -p "$port" -U postgres tpcb_base >/dev/null 2>&1
fresh_db tpcb tpcb_base
log=$(new_log)
PGAPPNAME=pgbench bounded pgbench -n -M simple -c "$clients" -t "$tpcb_transactions" -h "$host" \
	-p "$port" -U postgres tpcb >/dev/null
end_log "$log" tpcb
fresh_db tpcb tpcb_base
pg=$(pgreplay_run "$log")
fresh_db tpcb tpcb_base
read -r id statements < <(capture "$log" tpcb)
read -r secs sps lag < <(polarbench_run "$id" tpcb '"max"')
echo "tpcb-like, one branch, $clients clients, $statements statements:" \
	"pgreplay -j -s 1000 $(case $pg in hung) echo "hung (stopped after $timeout_s s)" ;; failed) echo failed ;; *) echo "$(pb_ratio "$statements" "$pg" 1)/s" ;; esac)," \
	"polarbench $([ "$secs" = hung ] && echo hung || echo "$sps/s, to its end")"

# 4. the same log at speed 1
fresh_db tpcb tpcb_base
read -r id statements < <(capture "$log" tpcb)
span=$(sql "SELECT extract(epoch FROM last_at - first_at) FROM polarbench_captures WHERE capture_id = $id" tpcb)
read -r secs sps lag < <(polarbench_run "$id" tpcb 1)
echo "tpcb-like at speed 1: the log ${span} s, the replay ${secs} s" \
	"($(pb_ratio "$secs" "$span" 3) of it), median lag ${lag} ms"

[ "${BENCH_NO_CALLGRIND:-0}" = 1 ] && exit 0

# 5. instructions per replayed statement, one client, under callgrind.
# Everything runs some 50 times slower there: a worker's start too, hence
# polarbench.start_timeout.  The backend's collection starts in
# PostgresMain: exec_simple_query is static, and the server's binary is
# stripped of the names of its static functions.
pb_stop_server "$dir/server"
wait_s=${CG_TIMEOUT:-3600}
PB_CALLGRIND_START_TIMEOUT=$wait_s pb_start_callgrind_server "$cgdir" $((port + 1)) \
	"pb_client_loop bare_loop_iterate PostgresMain" "synchronous_commit = off" \
	"autovacuum = off" "max_worker_processes = 16" "polarbench.start_timeout = '${wait_s}s'" \
	"${log_settings[@]}"
# from here on the functions above talk to the server under callgrind
host=$cgdir port=$((port + 1)) run_timeout_s=$((wait_s - 60))
sql "CREATE DATABASE cg" >/dev/null
sql "CREATE EXTENSION polarbench" cg
sql "CREATE EXTENSION bare_loop" cg
bounded pgbench -q -i -s 1 -h "$host" -p "$port" -U postgres cg >/dev/null 2>&1
sql "VACUUM ANALYZE" cg
sql "ALTER DATABASE cg SET log_statement = 'all'" >/dev/null

# Two logs of one pgbench client, of a quarter of CG_TRANSACTIONS and of
# CG_TRANSACTIONS: what each replay does once (starting, connecting, the
# backends' start) is in both, and their difference is per statement
cg_logs=() cg_ids=() cg_statements=()
for n in $((cg_transactions / 4)) "$cg_transactions"; do
	log=$(new_log)
	pgbench_select_only simple 1 "$n" cg
	end_log "$log" cg
	read -r id statements < <(capture "$log" cg)
	cg_logs+=("$log") cg_ids+=("$id") cg_statements+=("$statements")
done

# The server's processes now, a pid a line
server_children() { pgrep -P "$(pb_as_root head -1 "$host/data/postmaster.pid")" | sort || true; }

# The profiles written so far, a name a line
profiles() { ls "$host/out" | sort; }

# The instructions in the profiles written since the listing $1 of those
# that collected in function $2, once the server's processes started since
# the listing $3 have exited (callgrind writes a process's profile as it
# exits)
instructions_since() {
	local deadline=$((SECONDS + wait_s)) f ir total=0
	while [ -n "$(comm -13 <(echo "$3") <(server_children))" ]; do
		[ $SECONDS -lt $deadline ] || fail "the server's processes under callgrind did not exit within $wait_s s"
		sleep 1
	done
	for f in $(comm -13 <(echo "$1") <(profiles)); do
		grep -qE "^c?fn=\([0-9]+\) $2\$" "$host/out/$f" || continue
		ir=$(awk '/^totals:/ {print $2}' "$host/out/$f")
		[ -n "$ir" ] || fail "the profile $f has no totals"
		total=$((total + ir))
	done
	[ $total -gt 0 ] || fail "no profile collected in $2"
	echo $total
}

# The instructions of polarbench's replay of capture $1 by one client, in its loop
polarbench_ir() {
	local before children secs sps lag
	before=$(profiles) children=$(server_children)
	read -r secs sps lag < <(polarbench_run "$1" cg '"max"' 1)
	[ "$secs" != hung ] || fail "polarbench's replay under callgrind did not end"
	instructions_since "$before" pb_client_loop "$children"
}

# The instructions of pgreplay's replay of log $1: "process backends"
pgreplay_ir() {
	local before children
	before=$(profiles) children=$(server_children)
	bounded valgrind --tool=callgrind --callgrind-out-file="$dir/pgreplay.cg" \
		pgreplay -c -j -s 1000 -h "$host" -p "$port" "$host/data/$1" >"$dir/pgreplay.out" 2>&1 ||
		{ cat "$dir/pgreplay.out" >&2; fail "pgreplay failed under callgrind"; }
	echo "$(awk '/^totals:/ {print $2}' "$dir/pgreplay.cg")" \
		"$(instructions_since "$before" PostgresMain "$children")"
}

pb_ir=() client_ir=() backend_ir=()
for i in 0 1; do
	pb_ir+=("$(polarbench_ir "${cg_ids[$i]}")")
	read -r client backend < <(pgreplay_ir "${cg_logs[$i]}")
	[ -n "$backend" ] || fail "no instructions of pgreplay's backends"
	client_ir+=("$client") backend_ir+=("$backend")
done
before=$(profiles) children=$(server_children)
lookups=$(sql "SELECT lookups FROM bare_loop_run(1, 10, 100000)" cg)
bare_ir=$(instructions_since "$before" bare_loop_iterate "$children")

# $1 (the instructions of the small log and the large one) per statement
per_statement() {
	awk -v a="$1" -v b="$2" -v n="${cg_statements[0]}" -v m="${cg_statements[1]}" \
		'BEGIN {printf "%.0f", (b - a) / (m - n)}'
}
bare_per=$(awk -v ir="$bare_ir" -v n="$lookups" 'BEGIN {printf "%.0f", ir / n}')
pb_per=$(per_statement "${pb_ir[@]}")
client_per=$(per_statement "${client_ir[@]}")
backend_per=$(per_statement "${backend_ir[@]}")
echo
echo "instructions per replayed statement under callgrind, select-only, simple protocol," \
	"one client: the difference of a log of ${cg_statements[1]} statements and one of ${cg_statements[0]}"
printf '  %-36s %10s\n' "bare in-server loop (per lookup)" "$bare_per" \
	"polarbench's replay client" "$pb_per" \
	"pgreplay, its process" "$client_per" \
	"pgreplay, its backends" "$backend_per" \
	"pgreplay, both" "$((client_per + backend_per))"
echo "  bare / polarbench = $(pb_ratio "$bare_per" "$pb_per" 3) (the replay client's own cost: 1 would be none)"
echo "  polarbench / pgreplay = $(pb_ratio "$pb_per" $((client_per + backend_per)) 3)"
