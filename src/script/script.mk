# The sources of the backend-free script library, the one list that the
# extension, the command-line program, the unit tests and the fuzzer build
# from.  Include it with PB_SCRIPT_DIR set to this folder; it sets
# PB_SCRIPT_SRCS (paths) and PB_SCRIPT_NAMES (file names without .c).
#
# In layers, each file calling only those before it (see pb_script_int.h).

PB_SCRIPT_NAMES = script_error expr_node random_dist \
	script_set \
	expr_parse script_parse \
	script_check client_vars expr_eval meta_exec script_choice
PB_SCRIPT_SRCS = $(addprefix $(PB_SCRIPT_DIR)/,$(addsuffix .c,$(PB_SCRIPT_NAMES)))
PB_SCRIPT_HEADERS = $(PB_SCRIPT_DIR)/pb_script.h $(PB_SCRIPT_DIR)/pb_script_int.h
