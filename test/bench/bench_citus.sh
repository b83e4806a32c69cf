#!/usr/bin/env bash
# A distributed pgbench load on a Citus coordinator and two workers on this
# machine: polarbench_init('pgbench', scale => S, distributed => true),
# where each node writes its own shards, against pgbench's own way through
# the coordinator (pgbench -i -I dt; create_distributed_table on its four
# tables, colocated as polarbench lays them out; pgbench -i -I gvp, whose
# rows Citus copies through the coordinator to the shards).  Each way runs
# REPEATS times on the same cluster, alternating, the old tables dropped
# first each time; the median of each and their ratio are printed, with
# every run's time.
#
# Usage: bash test/bench/bench_citus.sh [scale] [repeats]
#   defaults: scale 20, 3 repeats.  PORT (default 55400) and the next two
#   ports are the nodes'; PB_PGBIN the PostgreSQL 15 binaries, with Citus
#   (shared_preload_libraries) and polarbench installed for them.  Nothing
#   is built or installed here.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/test/setup.sh"
scale=${1:-20}
repeats=${2:-3}
shards=${SHARDS:-32}

. "$repo/test/bench/citus_cluster.sh"
pb_citus_cluster citus

drop_tables() {
	psql -c "DROP TABLE IF EXISTS pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers"
}

polarbench_way() {
	drop_tables
	psql -c "SELECT rows FROM polarbench_init('pgbench', scale => $scale, distributed => true, shard_count => $shards)" >/dev/null
}

pgbench_way() {
	drop_tables
	pgbench -i -I dt -s "$scale" postgres
	psql -c "SET citus.shard_count = $shards" \
		-c "SELECT create_distributed_table('pgbench_accounts', 'aid')" \
		-c "SELECT create_distributed_table('pgbench_history', 'aid', colocate_with => 'pgbench_accounts')" \
		-c "SELECT create_distributed_table('pgbench_branches', 'bid', colocate_with => 'pgbench_accounts')" \
		-c "SELECT create_distributed_table('pgbench_tellers', 'tid', colocate_with => 'pgbench_accounts')" >/dev/null
	pgbench -i -I gvp -s "$scale" postgres
}

echo "== pgbench scale $scale into a coordinator and two workers ($shards shards), $repeats repeats"
ours=() theirs=()
for ((i = 1; i <= repeats; i++)); do
	t=$(pb_elapsed polarbench_way); ours+=("$t")
	t=$(pb_elapsed pgbench_way); theirs+=("$t")
	echo "run $i: polarbench_init ${ours[-1]} s, pgbench's way ${theirs[-1]} s"
done
# both loads leave the same rows
psql -At -c "SELECT count(*), sum(abalance) FROM pgbench_accounts" | sed 's/^/pgbench way: accounts, sum of abalance: /'
polarbench_way
psql -At -c "SELECT count(*), sum(abalance) FROM pgbench_accounts" | sed 's/^/polarbench: accounts, sum of abalance: /'

m_ours=$(printf '%s\n' "${ours[@]}" | pb_median)
m_theirs=$(printf '%s\n' "${theirs[@]}" | pb_median)
echo "median: polarbench_init $m_ours s, pgbench's way $m_theirs s"
echo "ratio: $(pb_ratio "$m_theirs" "$m_ours") x faster"
