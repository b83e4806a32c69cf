/*-------------------------------------------------------------------------
 *
 * ycsb_options.c
 *	  YCSB's workloads and CoreWorkload's properties: names, types, ranges
 *	  and defaults in one table, the rules no single property shows, and
 *	  the YCSB kind's backend-free descriptor, pb_ycsb_library.
 *
 * The defaults are YCSB's (CoreWorkload, and the workloads/workloada..f
 * files, whose recordcount and operationcount of 1000 apply here only to
 * operationcount, as the tables are already loaded).
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "ycsb.h"

/* YCSB's core workloads, by the letter of their file, and its load phase */
static const PbWorkloadDef ycsb_workloads[] = {
	{"ycsb-a", 'a', "YCSB workload A: 50% reads, 50% updates, zipfian"},
	{"ycsb-b", 'b', "YCSB workload B: 95% reads, 5% updates, zipfian"},
	{"ycsb-c", 'c', "YCSB workload C: reads only, zipfian"},
	{"ycsb-d", 'd', "YCSB workload D: 95% reads of the latest, 5% inserts"},
	{"ycsb-e", 'e', "YCSB workload E: 95% short scans, 5% inserts"},
	{"ycsb-f", 'f', "YCSB workload F: 50% reads, 50% read-modify-writes"},
	{"ycsb-load", 'l', "YCSB load phase: inserts of whole records"},
	{NULL}
};

static const char *const ycsb_request_dists[] = {"uniform", "zipfian", "latest", "hotspot", NULL};
static const char *const ycsb_length_dists[] = {"uniform", "zipfian", NULL};
static const char *const ycsb_field_dists[] = {"uniform", "zipfian", "", "", "constant", NULL};
static const char *const ycsb_insert_orders[] = {"hashed", "ordered", NULL};

#define YC(field) offsetof(PbYcsbOptions, field)

static const PbOptionDef ycsb_options[] = {
	{"recordcount", PB_OPT_INT64, YC(recordcount), 1, PB_OPT_INT64_MAX, NULL, false,
	"Number of records in the table (by default the rows of usertable)", 0},
	{"operationcount", PB_OPT_INT64, YC(operationcount), 0, PB_OPT_INT_MAX, NULL, false,
	"Number of operations to run", 0},
	{"insertstart", PB_OPT_INT64, YC(insertstart), 0, PB_OPT_INT64_MAX, NULL, false,
	"First record of the key range the requests go to", 0},
	{"insertcount", PB_OPT_INT64, YC(insertcount), 0, PB_OPT_INT64_MAX, NULL, false,
	"Number of records in that key range (by default recordcount - insertstart)", 0},
	{"fieldcount", PB_OPT_INT, YC(fieldcount), 1, 1000, NULL, false,
	"Number of fields in a record", 0},
	{"fieldlength", PB_OPT_INT, YC(fieldlength), 1, 1000000, NULL, false,
	"Length of a field (its largest, when the length varies)", 0},
	{"minfieldlength", PB_OPT_INT, YC(minfieldlength), 1, 1000000, NULL, false,
	"Smallest length of a field, when the length varies", 0},
	{"fieldlengthdistribution", PB_OPT_ENUM, YC(fieldlengthdistribution), 0, 0, ycsb_field_dists, false,
	"Distribution of the field lengths", 0},
	{"readallfields", PB_OPT_BOOL, YC(readallfields), 0, 0, NULL, false,
	"Whether a read reads every field", 0},
	{"writeallfields", PB_OPT_BOOL, YC(writeallfields), 0, 0, NULL, false,
	"Whether an update writes every field (else one)", 0},
	{"readproportion", PB_OPT_DOUBLE, YC(proportions[PB_YCSB_READ]), 0, 1, NULL, false,
	"Share of the operations that are reads", 0},
	{"updateproportion", PB_OPT_DOUBLE, YC(proportions[PB_YCSB_UPDATE]), 0, 1, NULL, false,
	"Share of the operations that are updates", 0},
	{"insertproportion", PB_OPT_DOUBLE, YC(proportions[PB_YCSB_INSERT]), 0, 1, NULL, false,
	"Share of the operations that are inserts", 0},
	{"scanproportion", PB_OPT_DOUBLE, YC(proportions[PB_YCSB_SCAN]), 0, 1, NULL, false,
	"Share of the operations that are scans", 0},
	{"readmodifywriteproportion", PB_OPT_DOUBLE, YC(proportions[PB_YCSB_RMW]), 0, 1, NULL, false,
	"Share of the operations that read a record and write it back", 0},
	{"requestdistribution", PB_OPT_ENUM, YC(requestdistribution), 0, 0, ycsb_request_dists, false,
	"Distribution of the requested records", 0},
	{"minscanlength", PB_OPT_INT, YC(minscanlength), 1, PB_OPT_INT_MAX, NULL, false,
	"Fewest records a scan reads", 0},
	{"maxscanlength", PB_OPT_INT, YC(maxscanlength), 1, PB_OPT_INT_MAX, NULL, false,
	"Most records a scan reads", 0},
	{"scanlengthdistribution", PB_OPT_ENUM, YC(scanlengthdistribution), 0, 0, ycsb_length_dists, false,
	"Distribution of the scan lengths", 0},
	{"insertorder", PB_OPT_ENUM, YC(orderedinserts), 0, 0, ycsb_insert_orders, false,
	"Whether the keys are hashed or ordered", 0},
	{"zeropadding", PB_OPT_INT, YC(zeropadding), 1, 20, NULL, false,
	"Number of digits a key's number is padded to with zeros", 0},
	{"hotspotdatafraction", PB_OPT_DOUBLE, YC(hotspotdatafraction), 0, 1, NULL, false,
	"Share of the records in the hot set, for the hotspot distribution", 0},
	{"hotspotopnfraction", PB_OPT_DOUBLE, YC(hotspotopnfraction), 0, 1, NULL, false,
	"Share of the operations on the hot set, for the hotspot distribution", 0},
	{NULL}
};

static const char *const ycsb_op_names[PB_YCSB_NOPS] = {
	"READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE"
};

/*
 * pb_ycsb_op_name
 *		An operation's name as YCSB prints it.
 */
const char *
pb_ycsb_op_name(int op)
{
	return (op >= 0 && op < PB_YCSB_NOPS) ? ycsb_op_names[op] : "?";
}

/*
 * pb_ycsb_defaults
 *		CoreWorkload's defaults with those of workloads/workload<letter>;
 *		'l' is the load phase.
 */
void
pb_ycsb_defaults(PbYcsbOptions *o, int letter)
{
	memset(o, 0, sizeof(PbYcsbOptions));
	o->recordcount = -1;
	o->operationcount = 1000;
	o->insertstart = 0;
	o->insertcount = -1;
	o->fieldcount = 10;
	o->fieldlength = 100;
	o->minfieldlength = 1;
	o->fieldlengthdistribution = PB_YCSB_DIST_CONSTANT;
	o->readallfields = true;
	o->writeallfields = false;
	o->requestdistribution = PB_YCSB_DIST_ZIPFIAN;
	o->minscanlength = 1;
	o->maxscanlength = 1000;
	o->scanlengthdistribution = PB_YCSB_DIST_UNIFORM;
	o->orderedinserts = false;
	o->zeropadding = 1;
	o->hotspotdatafraction = 0.2;
	o->hotspotopnfraction = 0.8;
	switch (letter)
	{
		case 'a':
			o->proportions[PB_YCSB_READ] = 0.5;
			o->proportions[PB_YCSB_UPDATE] = 0.5;
			break;
		case 'b':
			o->proportions[PB_YCSB_READ] = 0.95;
			o->proportions[PB_YCSB_UPDATE] = 0.05;
			break;
		case 'c':
			o->proportions[PB_YCSB_READ] = 1;
			break;
		case 'd':
			o->proportions[PB_YCSB_READ] = 0.95;
			o->proportions[PB_YCSB_INSERT] = 0.05;
			o->requestdistribution = PB_YCSB_DIST_LATEST;
			break;
		case 'e':
			o->proportions[PB_YCSB_SCAN] = 0.95;
			o->proportions[PB_YCSB_INSERT] = 0.05;
			o->maxscanlength = 100;
			break;
		case 'f':
			o->proportions[PB_YCSB_READ] = 0.5;
			o->proportions[PB_YCSB_RMW] = 0.5;
			break;
		case 'l':
			o->load = true;
			o->proportions[PB_YCSB_INSERT] = 1;
			break;
	}
}

/* YCSB's defaults, as the kind's defaults callback. */
static void
pb_ycsb_defaults_of(void *options, int variant)
{
	pb_ycsb_defaults(options, variant);
}

/*
 * pb_ycsb_check
 *		YCSB's rules, a kind's check callback: its proportions must add up
 *		to 1, the scan and field length bounds be in order, and insertstart
 *		and insertcount fit in the records (once recordcount is known).
 */
static bool
pb_ycsb_check(void *options, PbError *err)
{
	PbYcsbOptions *o = options;
	double		sum = 0;

	if (o->load)
	{
		for (int op = 0; op < PB_YCSB_NOPS; op++)
			if (op != PB_YCSB_INSERT && o->proportions[op] != 0)
				return pb_option_error(err, "ycsb-load inserts records; run the other operations with ycsb-a .. ycsb-f.",
									   "the load phase has only inserts");
		o->proportions[PB_YCSB_INSERT] = 1;
	}
	for (int op = 0; op < PB_YCSB_NOPS; op++)
		sum += o->proportions[op];
	if (fabs(sum - 1.0) > 1e-9)
		return pb_option_error(err, "Give readproportion, updateproportion, insertproportion, scanproportion and readmodifywriteproportion that add up to 1; set the others of the workload to 0.",
							   "YCSB operation proportions add up to %g, not 1", sum);
	if (o->minscanlength > o->maxscanlength)
		return pb_option_error(err, NULL,
							   "minscanlength (%d) is greater than maxscanlength (%d)",
							   o->minscanlength, o->maxscanlength);
	if (o->fieldlengthdistribution != PB_YCSB_DIST_CONSTANT &&
		o->minfieldlength > o->fieldlength)
		return pb_option_error(err, NULL,
							   "minfieldlength (%d) is greater than fieldlength (%d)",
							   o->minfieldlength, o->fieldlength);
	if (o->recordcount >= 0)
	{
		if (o->insertstart >= o->recordcount && !o->load)
			return pb_option_error(err, "insertstart is the first record the requests go to; keep it below recordcount.",
								   "insertstart (%lld) is not below recordcount (%lld)",
								   (long long) o->insertstart, (long long) o->recordcount);
		if (o->insertcount < 0)
			o->insertcount = o->recordcount - o->insertstart;
		if (!o->load && o->insertstart + o->insertcount > o->recordcount)
			return pb_option_error(err, "recordcount must be at least insertstart + insertcount, as YCSB requires.",
								   "invalid combination of insertstart, insertcount and recordcount");
		if (o->insertcount < 1)
			return pb_option_error(err, NULL, "insertcount must be at least 1");
	}
	return true;
}

const PbKindLibrary pb_ycsb_library = {
	.name = "ycsb",
	.tool = "YCSB",
	.workloads = ycsb_workloads,
	.options = ycsb_options,
	.options_size = sizeof(PbYcsbOptions),
	.defaults = pb_ycsb_defaults_of,
	.check = pb_ycsb_check,
};
