/*-------------------------------------------------------------------------
 *
 * kind_list.h
 *	  THE list of the kinds of workload: one line each, PB_KIND(name), for
 *	  the folder src/kinds/<name>/, which exports pb_<name>_library (its
 *	  backend-free part, kind_options.h) and pb_kind_<name> (its server part,
 *	  driver.h).  Adding a kind is adding its folder and its line here.
 *
 * It is read by kind_library.c (the backend-free list, for the server, the
 * command-line program and the unit tests), by the server's registry
 * (registry.c), and by the Makefiles, which take each kind's
 * sources from its folder's kind.mk (src/kinds/kinds.mk reads the names
 * with sed: keep one PB_KIND(name) a line, alone on it).  The order is
 * the registry's: polarbench_workloads and polarbench_datasets list the
 * kinds in it, and a run names its kind by its place in it, the same in
 * every process of the server.  The first kind runs any workload that no
 * other kind names (pgbench's scripts, which take built-in names).
 *
 * Include it after defining PB_KIND(name); it leaves PB_KIND defined.
 *
 *-------------------------------------------------------------------------
 */
PB_KIND(pgbench)
PB_KIND(sysbench)
PB_KIND(ycsb)
PB_KIND(tpcc)
PB_KIND(replay)
