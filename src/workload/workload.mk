# The sources of the backend-free workload library (sysbench's, YCSB's and
# TPC-C's workloads, options and generators): the one list that the extension, the
# command-line client and the unit tests build from.  Include it with
# PB_WORKLOAD_DIR set to this folder; it sets PB_WORKLOAD_SRCS (paths) and
# PB_WORKLOAD_NAMES (file names without .c).  It needs the script library.
#
# In layers, each file calling only those before it (see pb_workload.h).

PB_WORKLOAD_NAMES = sysbench_rand ycsb_gen tpcc_rand workload_options
PB_WORKLOAD_SRCS = $(addprefix $(PB_WORKLOAD_DIR)/,$(addsuffix .c,$(PB_WORKLOAD_NAMES)))
PB_WORKLOAD_HEADERS = $(PB_WORKLOAD_DIR)/pb_workload.h
