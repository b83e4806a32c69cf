# polarbench: shell functions shared by the test runner, the demo and the
# benchmark scripts.  Source it; it defines functions and runs nothing.
#
#   pb_install_packages [PACKAGE ...]
#                         Debian packages to build, test and benchmark, and
#                         those named
#   pb_build_install      build the extension and install it into the server
#   pb_start_server DIR PORT [setting=value ...]
#                         a throwaway PostgreSQL 15 cluster in DIR, run as the
#                         postgres user, listening on 127.0.0.1:PORT only,
#                         with PostgreSQL's defaults but for the settings
#                         given
#   pb_start_callgrind_server DIR PORT TOGGLES [setting=value ...]
#                         the same, its postmaster run under valgrind
#                         --tool=callgrind collecting only inside the
#                         functions TOGGLES names (space separated), each
#                         process's profile in DIR/out/cg.PID, written as the
#                         process exits; returns once it answers, or fails
#                         after PB_CALLGRIND_START_TIMEOUT seconds (600)
#   pb_stop_server DIR    stop it
#   pb_median             the median of the numbers on stdin (blank or
#                         newline separated)
#   pb_ratio A B [DIGITS] A / B with DIGITS decimals (2)
#   pb_elapsed CMD...     the seconds CMD takes, its output dropped; exits
#                         with its error output if it fails

PB_PGBIN=${PB_PGBIN:-/usr/lib/postgresql/15/bin}
PB_PACKAGES="make gcc clang libfuzzer-14-dev postgresql-15 postgresql-server-dev-15
	postgresql-client-15 libpq-dev libipc-run-perl sysbench perl postgresql-15-pgaudit
	chromium poppler-utils"
# to build polarbench's Debian packages and test them (test/package)
PB_DEB_PACKAGES="debhelper postgresql-server-dev-all help2man debootstrap wget"

# Run a command as root: directly when we are root, else through sudo.
pb_as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# Run a command as the postgres user (initdb and the server refuse root).
# PostgreSQL's programs go back to the folder they were started in after
# finding their own, and say "could not change directory" when postgres may
# not enter it (root's home): from such a folder, run them from / instead.
pb_as_postgres() {
	if [ "$(id -un)" = postgres ]; then
		"$@"
	elif pb_as_root runuser -u postgres -- test -x "$PWD"; then
		pb_as_root runuser -u postgres -- "$@"
	else
		(cd / && pb_as_root runuser -u postgres -- "$@")
	fi
}

pb_install_packages() {
	local missing=""
	for p in $PB_PACKAGES "$@"; do
		dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		echo "installing:$missing"
		pb_as_root apt-get update -qq
		pb_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
	fi
}

pb_build_install() {
	make -s PG_CONFIG="$PB_PGBIN/pg_config"
	pb_as_root make -s PG_CONFIG="$PB_PGBIN/pg_config" install
}

# The cluster of pb_start_server and pb_start_callgrind_server, not started
pb_init_server() {
	local dir=$1 port=$2
	shift 2
	pb_as_root mkdir -p "$dir"
	pb_as_root chown postgres: "$dir"
	pb_as_postgres "$PB_PGBIN/initdb" -D "$dir/data" -U postgres -A trust >/dev/null
	{
		echo "listen_addresses = '127.0.0.1'"
		echo "port = $port"
		echo "unix_socket_directories = '$dir'"
		for setting in "$@"; do echo "$setting"; done
	} | pb_as_postgres tee -a "$dir/data/postgresql.conf" >/dev/null
}

pb_start_server() {
	pb_init_server "$@"
	pb_as_postgres "$PB_PGBIN/pg_ctl" -D "$1/data" -l "$1/server.log" -w start >/dev/null
}

pb_start_callgrind_server() {
	local dir=$1 port=$2 toggles=$3 fn toggle_args="" deadline
	shift 3
	pb_init_server "$dir" "$port" "$@"
	pb_as_postgres mkdir "$dir/out"
	for fn in $toggles; do toggle_args="$toggle_args --toggle-collect=$fn"; done
	pb_as_postgres bash -c "cd '$dir' && exec valgrind --tool=callgrind $toggle_args \
		--callgrind-out-file='$dir/out/cg.%p' '$PB_PGBIN/postgres' -D '$dir/data'" \
		>"$dir/valgrind.log" 2>&1 &
	# a postmaster under callgrind takes seconds to start, tens on a busy machine
	deadline=$((SECONDS + ${PB_CALLGRIND_START_TIMEOUT:-600}))
	until pb_as_postgres "$PB_PGBIN/pg_isready" -q -h "$dir" -p "$port"; do
		if [ $SECONDS -ge $deadline ]; then
			echo "the server under callgrind in $dir did not start within ${PB_CALLGRIND_START_TIMEOUT:-600} s:" >&2
			tail -5 "$dir/valgrind.log" >&2
			return 1
		fi
		sleep 1
	done
}

pb_stop_server() {
	pb_as_postgres "$PB_PGBIN/pg_ctl" -D "$1/data" -m fast -w stop >/dev/null 2>&1 || true
}

pb_median() {
	tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR] = $1} END {
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

pb_ratio() {
	awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN {printf "%.*f", d, a / b}'
}

pb_elapsed() {
	local start end err
	err=$(mktemp)
	start=$(date +%s.%N)
	"$@" >/dev/null 2>"$err" || { cat "$err"; rm -f "$err"; exit 1; }
	end=$(date +%s.%N)
	rm -f "$err"
	echo "$end - $start" | bc
}
