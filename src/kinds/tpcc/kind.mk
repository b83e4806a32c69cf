# TPC-C, a kind of workload (see ../kinds.mk): its backend-free sources,
# which the command-line program and the unit tests build too, then its
# server's, each file using only those before it.
PB_KIND_tpcc_LIBRARY = tpcc_rand tpcc_options
PB_KIND_tpcc_SERVER = tpcc_dataset tpcc_check tpcc_driver
# the words besides its name that name it in code (test/check_kind_names.sh)
PB_KIND_tpcc_WORDS = tpc-c
