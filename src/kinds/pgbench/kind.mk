# pgbench's scripts, a kind of workload (see ../kinds.mk): its backend-free
# sources, which the command-line program and the unit tests build too,
# then its server's, each file using only those before it.
PB_KIND_pgbench_LIBRARY = builtin_scripts pgbench_options
PB_KIND_pgbench_SERVER = pgbench_dataset script_exec script_config script_stats script_driver
# the words besides its name that name it in code (test/check_kind_names.sh)
PB_KIND_pgbench_WORDS =
