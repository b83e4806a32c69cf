# The replay of a captured workload, a kind of workload (see ../kinds.mk):
# its backend-free sources, which the command-line program and the unit
# tests build too, then its server's, each file using only those before it.
# It reads captures (src/capture), which the Makefiles build below the kinds.
PB_KIND_replay_LIBRARY = replay_options
PB_KIND_replay_SERVER = replay_sessions replay_driver
# the words besides its name that name it in code (test/check_kind_names.sh)
PB_KIND_replay_WORDS =
