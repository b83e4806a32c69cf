# The sources of the backend-free measurement library (latency histograms,
# a latency's average and deviation from its sums,
# the rate limiter's schedule, the statistics that compare runs): the one
# list that the extension, the command-line program and the unit tests
# build from.  Include it with
# PB_MEASURE_DIR set to this folder; it sets PB_MEASURE_SRCS (paths) and
# PB_MEASURE_NAMES (file names without .c).  It needs the script library.
#
# In layers, each file calling only those before it (see pb_measure.h).

PB_MEASURE_NAMES = histogram moments throttle compare_stats chart_svg
PB_MEASURE_SRCS = $(addprefix $(PB_MEASURE_DIR)/,$(addsuffix .c,$(PB_MEASURE_NAMES)))
PB_MEASURE_HEADERS = $(PB_MEASURE_DIR)/pb_measure.h
