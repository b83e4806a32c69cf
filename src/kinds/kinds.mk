# The kinds of workload, one folder each under src/kinds/, read from THE
# list (kind_list.h) and from each folder's kind.mk: the one list of
# sources that the extension, the command-line program and the unit tests
# build from, so that adding a kind edits no Makefile.  Include it with
# PB_KINDS_DIR set to this folder; it sets
#
#   PB_KINDS             the kinds' names, in kind_list.h's order
#   PB_KIND_SRCS         the backend-free sources (paths), each file using
#                        only those before it: the option machinery
#                        (PB_KIND_OPTIONS_SRCS, in src/options:
#                        PB_OPTIONS_DIR), each kind's own (its
#                        kind.mk's PB_KIND_<name>_LIBRARY:
#                        PB_KIND_LIBRARY_SRCS), and the list of them all
#                        (PB_KIND_LIST_SRCS)
#   PB_KIND_NAMES        the same, file names without .c
#   PB_KIND_SERVER_SRCS  each kind's server sources (PB_KIND_<name>_SERVER)
#   PB_KIND_DIRS         the kinds' folders
#   PB_KIND_HEADERS      the headers of all of them
#   PB_KIND_INCLUDES     -I for this folder and each kind's
#
# Each kind.mk also sets PB_KIND_<name>_WORDS: the words besides its name
# that name the kind in code, which test/check_kind_names.sh looks for.
#
# The backend-free sources need the script library.

PB_KINDS := $(shell sed -n 's/^PB_KIND(\([a-z0-9_]*\))$$/\1/p' $(PB_KINDS_DIR)/kind_list.h)
include $(foreach k,$(PB_KINDS),$(PB_KINDS_DIR)/$(k)/kind.mk)

PB_KIND_DIRS = $(addprefix $(PB_KINDS_DIR)/,$(PB_KINDS))
PB_OPTIONS_DIR = $(patsubst %/kinds,%/options,$(PB_KINDS_DIR))
PB_KIND_OPTIONS_SRCS = $(PB_OPTIONS_DIR)/kind_options.c
PB_KIND_LIBRARY_SRCS = \
	$(foreach k,$(PB_KINDS),$(addprefix $(PB_KINDS_DIR)/$(k)/,$(addsuffix .c,$(PB_KIND_$(k)_LIBRARY))))
PB_KIND_LIST_SRCS = $(PB_KINDS_DIR)/kind_library.c
PB_KIND_SRCS = $(PB_KIND_OPTIONS_SRCS) $(PB_KIND_LIBRARY_SRCS) $(PB_KIND_LIST_SRCS)
PB_KIND_NAMES = $(basename $(notdir $(PB_KIND_SRCS)))
PB_KIND_SERVER_SRCS = \
	$(foreach k,$(PB_KINDS),$(addprefix $(PB_KINDS_DIR)/$(k)/,$(addsuffix .c,$(PB_KIND_$(k)_SERVER))))
PB_KIND_HEADERS = $(PB_OPTIONS_DIR)/kind_options.h $(PB_KINDS_DIR)/kind_list.h \
	$(wildcard $(addsuffix /*.h,$(PB_KIND_DIRS)))
PB_KIND_INCLUDES = $(addprefix -I,$(PB_OPTIONS_DIR) $(PB_KINDS_DIR) $(PB_KIND_DIRS))
