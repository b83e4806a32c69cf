# A Citus coordinator and two workers on this machine for the Citus bench
# scripts (sourced after test/setup.sh): ports PORT (default 55400) to
# PORT + 2, in a directory of their own removed on exit; the citus extension
# in each node's postgres database, the workers added to the coordinator,
# and polarbench created on every node (CREATE EXTENSION polarbench runs on
# the coordinator, and Citus propagates it to the workers).  Sets ports (the
# nodes' ports, coordinator first), base, and psql and pgbench functions
# that reach the coordinator (PGHOST, PGPORT) as postgres.
#
#   pb_citus_cluster NAME
[ -f "$("$PB_PGBIN/pg_config" --pkglibdir)/citus.so" ] ||
	{ echo "$(basename "$0"): no citus.so for $PB_PGBIN" >&2; exit 1; }

pb_citus_cluster() {
	local name=$1 p
	base=$(mktemp -d "/tmp/polarbench-$name.XXXXXX")
	ports=("${PORT:-55400}" "$((${PORT:-55400} + 1))" "$((${PORT:-55400} + 2))")
	trap pb_citus_cleanup EXIT
	pb_as_root chown postgres: "$base"
	for p in "${ports[@]}"; do
		pb_start_server "$base/$p" "$p" "shared_preload_libraries = 'citus'" \
			"citus.local_hostname = '127.0.0.1'" "max_prepared_transactions = 64" \
			"max_worker_processes = 32" "max_connections = 200" \
			"max_wal_size = 8GB" "checkpoint_timeout = 30min"
		pb_as_postgres "$PB_PGBIN/psql" -Xq -h 127.0.0.1 -p "$p" -U postgres -d postgres \
			-c "CREATE EXTENSION citus"
	done
	export PGHOST=127.0.0.1 PGPORT=${ports[0]} PGUSER=postgres PGDATABASE=postgres
	psql -c "SELECT citus_set_coordinator_host('127.0.0.1', ${ports[0]})" \
		-c "SELECT citus_add_node('127.0.0.1', ${ports[1]})" \
		-c "SELECT citus_add_node('127.0.0.1', ${ports[2]})" \
		-c "CREATE EXTENSION polarbench" >/dev/null
}

pb_citus_cleanup() {
	for p in "${ports[@]}"; do pb_stop_server "$base/$p"; done
	pb_as_root rm -rf "$base"
}

psql() { pb_as_postgres env PGHOST=$PGHOST PGPORT=$PGPORT "$PB_PGBIN/psql" -Xq -v ON_ERROR_STOP=1 "$@"; }
pgbench() { pb_as_postgres env PGHOST=$PGHOST PGPORT=$PGPORT "$PB_PGBIN/pgbench" "$@"; }
