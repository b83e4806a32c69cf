# The sources of the capture library: the backend-free reading of a server
# log into sessions and statements (PB_CAPTURE_SRCS: what the extension,
# the unit tests and the fuzzer build from), and the server's file that
# stores a capture and the one that captures statements through hooks
# (PB_CAPTURE_SERVER_OBJS); the SQL entry points are
# src/functions/capture.c.  Include it
# with PB_CAPTURE_DIR set to this folder.
#
# In layers, each file calling only those before it (see pb_capture_int.h).

PB_CAPTURE_NAMES = sql_scan sql_shape log_time log_entry log_capture
PB_CAPTURE_SRCS = $(addprefix $(PB_CAPTURE_DIR)/,$(addsuffix .c,$(PB_CAPTURE_NAMES)))
PB_CAPTURE_HEADERS = $(PB_CAPTURE_DIR)/pb_capture.h $(PB_CAPTURE_DIR)/pb_capture_int.h
PB_CAPTURE_SERVER_OBJS = $(PB_CAPTURE_DIR)/capture_store.o $(PB_CAPTURE_DIR)/capture_live.o
