/*-------------------------------------------------------------------------
 *
 * module.c
 *	  The library's entry when it is loaded: the settings (common/settings.c)
 *	  and, preloaded, the hooks of captures (capture/capture_live.c).
 *
 * It is the last object of the library, so that the lower layers it
 * starts need not call each other.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"

#include "capture_live.h"
#include "settings.h"

void		_PG_init(void);

/*
 * _PG_init
 *		Define the settings (polarbench.capture_memory before the prefix is
 *		reserved) and, preloaded, take what the server gives only then.
 */
void
_PG_init(void)
{
	pb_capture_live_init();
	pb_settings_init();
}
