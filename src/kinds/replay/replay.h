/*-------------------------------------------------------------------------
 *
 * replay.h
 *	  The replay of a capture (a server log's workload, src/capture): its
 *	  options and descriptor (replay_options.c, backend-free), and in the
 *	  server the sessions a client replays (replay_sessions.c) and the
 *	  driver (replay_driver.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_REPLAY_H
#define PB_REPLAY_H

#include "kind_options.h"

/* A session whose statements start later than this behind the log fell behind */
#define PB_REPLAY_BEHIND_MS		100.0

/* The options of a replay */
typedef struct PbReplayOptions
{
	int64_t		capture;		/* the capture's id */
	double		speed;			/* the log's pace times this; 0: as fast as
								 * the sessions go ("max") */
	bool		skip_idle;		/* a client with nothing to run skips ahead */
	bool		roles;			/* each session runs as its logged role */
	/* set by the caller, not options: the shapes counted apart, and */
	int			shapes;
	bool		read_only;		/* whether the capture only reads */
} PbReplayOptions;

/* replay_options.c */
extern const PbKindLibrary pb_replay_library;

#endif							/* PB_REPLAY_H */
