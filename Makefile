# polarbench: PGXS build of the extension, its regression and TAP tests.
#
# The install script is assembled from one fragment per subsystem in
# sql/install/, so that each subsystem owns its SQL objects.

MODULE_big = polarbench
OBJS = $(patsubst %.c,%.o,$(sort $(wildcard src/*.c)))

EXTENSION = polarbench
# the current version is assembled from sql/install/; earlier ones are kept
# as released, with the upgrade scripts from each to the next
DATA = sql/polarbench--1.0.sql sql/polarbench--1.0--1.1.sql
DATA_built = sql/polarbench--1.1.sql

# pg_regress: every sql/NAME.sql but the install script, in name order.
REGRESS = $(sort $(filter-out polarbench--%,$(basename $(notdir $(wildcard sql/*.sql)))))
REGRESS_OPTS = --inputdir=. --outputdir=test/regress_out

TAP_TESTS = 1
PROVE_TESTS = test/t/*.pl

PG_CPPFLAGS = -I$(srcdir)/src
PG_CFLAGS = -Wall -Wmissing-prototypes -Wpointer-arith -Werror=vla -Wendif-labels \
	-Wmissing-format-attribute -Wformat-security

EXTRA_CLEAN = test/regress_out test/tmp_check tmp_check

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

sql/polarbench--1.1.sql: $(sort $(wildcard sql/install/*.sql))
	cat $^ > $@

installcheck: test/regress_out
test/regress_out:
	mkdir -p $@

# The command-line client (client/) has a PGXS Makefile of its own, since
# one PGXS Makefile builds one kind of target; build, install and clean it
# along with the extension.  The TAP tests run the client from client/.
all: client-all
install: client-install
uninstall: client-uninstall
clean: client-clean
installcheck: client-all

client-all client-install client-uninstall client-clean:
	$(MAKE) -C client PG_CONFIG=$(PG_CONFIG) $(patsubst client-%,%,$@)

.PHONY: client-all client-install client-uninstall client-clean

# PGXS tracks no header dependencies unless the server was configured with
# --enable-depend: rebuild every object when a header changes.
$(OBJS): $(wildcard $(srcdir)/src/*.h)
