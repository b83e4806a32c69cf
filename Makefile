# polarbench: PGXS build of the extension, its regression and TAP tests.
#
# The sources, by layer, lowest first: what every layer shares (common);
# the backend-free libraries (script, the option machinery the kinds of
# workload share (options), measure, capture: a server log read as a workload, with
# the server's file that stores it); the run model (run); the loader's
# machinery (load); what the drivers share (drivers); each kind's own part, its
# backend-free sources then the server's, read from src/kinds/kind_list.h
# and each kind's kind.mk (src/kinds/kinds.mk), and the list of the kinds;
# the server's registry of the kinds (kinds/registry.c); the run engine (engine); the
# SQL-callable functions (functions).  Each object uses only symbols of the
# objects before it in OBJS, and a folder's files include only headers of
# folders whose first object comes no later: test/check_layers.sh checks
# both and fails the suite on a call or an include upwards.  Adding a kind
# edits nothing here.  The command-line program in src/bin/polarbench has a
# PGXS Makefile of its own.

MODULE_big = polarbench
PB_SCRIPT_DIR = src/script
include $(PB_SCRIPT_DIR)/script.mk
PB_KINDS_DIR = src/kinds
include $(PB_KINDS_DIR)/kinds.mk
PB_MEASURE_DIR = src/measure
include $(PB_MEASURE_DIR)/measure.mk
PB_CAPTURE_DIR = src/capture
include $(PB_CAPTURE_DIR)/capture.mk
PB_COMMON_OBJS = src/common/query_stack.o src/common/args.o src/common/safe_sql.o \
	src/common/alter_system.o src/common/settings_journal.o src/common/settings.o \
	src/common/worker.o src/common/admission.o
PB_RUN_OBJS = src/run/figures.o src/run/segment.o src/run/config.o
PB_LOAD_OBJS = src/load/page_write.o src/load/load_sql.o \
	src/load/load_progress.o src/load/load_wal.o src/load/btree_build.o \
	src/load/page_writers.o src/load/shard_route.o src/load/bulk_insert.o src/load/load_staging.o
PB_DRIVER_OBJS = src/drivers/statement_exec.o src/drivers/driver_options.o \
	src/drivers/report_query.o
PB_REGISTRY_OBJS = src/kinds/registry.o
PB_ENGINE_OBJS = src/engine/lockwait.o \
	src/engine/snapshot.o src/engine/status.o src/engine/profile.o \
	src/engine/document.o src/engine/stats.o \
	src/engine/run_settings.o src/engine/environment.o src/engine/run_server_settings.o \
	src/engine/memory.o src/engine/client_worker.o \
	src/engine/recorder_worker.o src/engine/launcher.o
PB_FUNCTION_OBJS = src/functions/callsite.o src/functions/run_args.o \
	src/functions/views.o src/functions/report.o src/functions/report_html.o \
	src/functions/control.o src/functions/record_check.o \
	src/functions/nodes.o src/functions/node_connect.o \
	src/functions/cluster_run.o src/functions/cluster_start.o \
	src/functions/start.o src/functions/sweep.o src/functions/run.o \
	src/functions/compare.o \
	src/functions/workload_list.o src/functions/init_parallel.o \
	src/functions/init_distributed.o src/functions/shard_options.o \
	src/functions/init_shards.o \
	src/functions/init.o src/functions/dataset_list.o \
	src/functions/capture.o src/functions/module.o
OBJS = $(PB_COMMON_OBJS) $(patsubst %.c,%.o,$(PB_SCRIPT_SRCS)) \
	$(patsubst %.c,%.o,$(PB_KIND_OPTIONS_SRCS)) \
	$(patsubst %.c,%.o,$(PB_MEASURE_SRCS)) \
	$(patsubst %.c,%.o,$(PB_CAPTURE_SRCS)) $(PB_CAPTURE_SERVER_OBJS) \
	$(PB_RUN_OBJS) $(PB_LOAD_OBJS) \
	$(PB_DRIVER_OBJS) $(patsubst %.c,%.o,$(PB_KIND_LIBRARY_SRCS)) \
	$(patsubst %.c,%.o,$(PB_KIND_LIST_SRCS)) \
	$(patsubst %.c,%.o,$(PB_KIND_SERVER_SRCS)) \
	$(PB_REGISTRY_OBJS) $(PB_ENGINE_OBJS) $(PB_FUNCTION_OBJS)

EXTENSION = polarbench
# the current version is assembled from sql/install/; earlier ones are kept
# as released, with the upgrade scripts from each to the next
DATA = sql/polarbench--1.0.sql sql/polarbench--1.0--1.1.sql \
	sql/polarbench--1.1.sql sql/polarbench--1.1--1.2.sql \
	sql/polarbench--1.2.sql sql/polarbench--1.2--1.3.sql \
	sql/polarbench--1.3.sql sql/polarbench--1.3--1.4.sql \
	sql/polarbench--1.4.sql sql/polarbench--1.4--1.5.sql
DATA_built = sql/polarbench--1.5.sql

# pg_regress: every sql/NAME.sql but the install script, in name order.
REGRESS = $(sort $(filter-out polarbench--%,$(basename $(notdir $(wildcard sql/*.sql)))))
REGRESS_OPTS = --inputdir=. --outputdir=test/regress_out

TAP_TESTS = 1
PROVE_TESTS = test/t/*.pl

PG_CPPFLAGS = -I$(srcdir)/src/common -I$(srcdir)/src/script \
	$(PB_KIND_INCLUDES) -I$(srcdir)/src/measure -I$(srcdir)/src/capture -I$(srcdir)/src/run -I$(srcdir)/src/drivers \
	-I$(srcdir)/src/engine -I$(srcdir)/src/functions -I$(srcdir)/src/load \
	-I$(libpq_srcdir)
PG_CFLAGS = -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare \
	-Wmissing-prototypes -Wpointer-arith -Werror=vla -Wendif-labels \
	-Wmissing-format-attribute -Wformat-security

# libpq: the coordinator of a run across a Citus cluster talks to its nodes
SHLIB_LINK_INTERNAL = $(libpq)

EXTRA_CLEAN = test/regress_out test/tmp_check tmp_check

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# the TAP suites' own Perl modules (test/perl), beside PostgreSQL's; prove
# runs from the source directory
PG_PROVE_FLAGS += -I test/perl

sql/polarbench--1.5.sql: $(sort $(wildcard sql/install/*.sql))
	cat $^ > $@

installcheck: test/regress_out
test/regress_out:
	mkdir -p $@

# The command-line program (src/bin/polarbench/) has a PGXS Makefile of its
# own, since one PGXS Makefile builds one kind of target; build, install and
# clean it along with the extension.  The TAP tests run it from there.
all: program-all
install: program-install
uninstall: program-uninstall
clean: program-clean
installcheck: program-all

program-all program-install program-uninstall program-clean:
	$(MAKE) -C src/bin/polarbench PG_CONFIG=$(PG_CONFIG) $(patsubst program-%,%,$@)

.PHONY: program-all program-install program-uninstall program-clean

# The test tools the TAP suites run (test/tools), built before them.
installcheck: test-tools
clean: test-tools-clean
test-tools:
	$(MAKE) -C test/tools PG_CONFIG=$(PG_CONFIG)
test-tools-clean:
	$(MAKE) -C test/tools clean

.PHONY: test-tools test-tools-clean

# Debian packages (debian/): postgresql-15-polarbench, the extension, and
# polarbench, the program, built by dpkg-buildpackage in a copy of the
# sources without what git ignores (objects of an earlier build), so that
# the .deb files land in DEB_DIR rather than in the parent folder.  Needs
# the build dependencies of debian/control (debhelper,
# postgresql-server-dev-all).
DEB_DIR ?= dist
deb:
	rm -rf $(DEB_DIR)/source
	mkdir -p $(DEB_DIR)/source/polarbench
	tar -C $(srcdir) --exclude-vcs --exclude-vcs-ignores --exclude=./$(DEB_DIR) -cf - . | \
		tar -C $(DEB_DIR)/source/polarbench -xf -
	cd $(DEB_DIR)/source/polarbench && \
		env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS dpkg-buildpackage -b -us -uc
	mv $(DEB_DIR)/source/*.deb $(DEB_DIR)/source/*.buildinfo $(DEB_DIR)/source/*.changes $(DEB_DIR)/
	rm -rf $(DEB_DIR)/source

.PHONY: deb

# PGXS tracks no header dependencies unless the server was configured with
# --enable-depend: rebuild every object when a header changes.
$(OBJS): $(wildcard $(srcdir)/src/*/*.h) $(PB_KIND_HEADERS)
