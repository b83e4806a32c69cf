# sysbench's OLTP workloads, a kind of workload (see ../kinds.mk): its
# backend-free sources, which the command-line program and the unit tests
# build too, then its server's, each file using only those before it.
PB_KIND_sysbench_LIBRARY = sysbench_rand sysbench_options
PB_KIND_sysbench_SERVER = sysbench_dataset sysbench_driver
# the words besides its name that name it in code (test/check_kind_names.sh)
PB_KIND_sysbench_WORDS = oltp
