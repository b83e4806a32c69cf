/*-------------------------------------------------------------------------
 *
 * load_wal.c
 *	  Compression of the page images a load writes to WAL, for the load
 *	  only.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/guc.h"

#include "load.h"

/*
 * How the load's page images are compressed in WAL when it compresses
 * them: lz4 is fast enough to cost less CPU than the writes it saves.
 */
#ifdef USE_LZ4
#define PB_WAL_COMPRESSION		"lz4"
#else
#define PB_WAL_COMPRESSION		"pglz"
#endif

/*
 * The direct path writes whole pages to WAL as full-page images (see
 * bulk_insert.c), and the rows of a benchmark's tables compress well.
 * When opts ask for it, wal_compression is off and the current role may
 * set it (as SET would check), turn it on until
 * pb_loader_compress_wal_end(): for this backend only, and only for the
 * load.  Returns the GUC nesting level to close, or -1 when nothing was
 * set.  An error unwinds the setting with the (sub)transaction.
 */
int
pb_loader_compress_wal_begin(const PbLoadOptions *opts)
{
	int			nest_level;

	if (!opts->wal_compression ||
		strcmp(GetConfigOption("wal_compression", false, false), "off") != 0)
		return -1;
	nest_level = NewGUCNestLevel();
	if (set_config_option("wal_compression", PB_WAL_COMPRESSION,
						  superuser() ? PGC_SUSET : PGC_USERSET,
						  PGC_S_SESSION, GUC_ACTION_SAVE, true, DEBUG1,
						  false) <= 0)
	{
		/* not allowed: the load runs with the server's setting */
		AtEOXact_GUC(true, nest_level);
		return -1;
	}
	return nest_level;
}

/*
 * Restore wal_compression as pb_loader_compress_wal_begin() found it.
 */
void
pb_loader_compress_wal_end(int nest_level)
{
	if (nest_level >= 0)
		AtEOXact_GUC(true, nest_level);
}
