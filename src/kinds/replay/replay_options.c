/*-------------------------------------------------------------------------
 *
 * replay_options.c
 *	  The replay's one workload and its options, as its kind's backend-free
 *	  descriptor, pb_replay_library: the capture to replay, the speed and
 *	  whether idle time is skipped, as pgreplay's -s and -j.
 *
 *-------------------------------------------------------------------------
 */
#include <stddef.h>
#include <string.h>

#include "replay.h"

/* Its one workload */
static const PbWorkloadDef replay_workloads[] = {
	{"replay", 0, "The sessions of a capture (polarbench_capture_log), each statement at its logged time"},
	{NULL}
};

#define RO(field) offsetof(PbReplayOptions, field)

static const PbOptionDef replay_options[] = {
	{"capture", PB_OPT_INT64, RO(capture), 1, PB_OPT_INT64_MAX, NULL, false,
	"The capture_id of the capture to replay", 0},
	{"speed", PB_OPT_DOUBLE, RO(speed), 0, 1000000, NULL, false,
	"The log's pace times this; \"max\" (or 0) as fast as the sessions go", 0},
	{"skip_idle", PB_OPT_BOOL, RO(skip_idle), 0, 0, NULL, false,
	"Whether a client with no statement due skips ahead to its next one, as pgreplay -j", 0},
	{"roles", PB_OPT_BOOL, RO(roles), 0, 0, NULL, false,
	"Whether each session runs as the role the log shows, of which the run's role must be a member; without, every session's role must have the run's role's privileges", 0},
	{NULL}
};

/* The defaults: the log's own pace, idle time kept */
static void
pb_replay_defaults(void *options, int variant)
{
	PbReplayOptions *o = options;

	memset(o, 0, sizeof(PbReplayOptions));
	o->speed = 1;
}

/* A replay needs its capture. */
static bool
pb_replay_check(void *options, PbError *err)
{
	const PbReplayOptions *o = options;

	if (o->capture <= 0)
		return pb_option_error(err, "Give the capture_id that polarbench_capture_log returned, as in options => '{\"capture\": 1}'.",
							   "a replay needs the option \"capture\"");
	return true;
}

const PbKindLibrary pb_replay_library = {
	.name = "replay",
	.tool = "replay",
	.workloads = replay_workloads,
	.options = replay_options,
	.options_size = sizeof(PbReplayOptions),
	.defaults = pb_replay_defaults,
	.check = pb_replay_check,
};
