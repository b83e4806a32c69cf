/*-------------------------------------------------------------------------
 *
 * kind_options.c
 *	  The options of a kind of workload, read, checked and written through
 *	  the kind's options table (kind_options.h): what the server (to read
 *	  polarbench_run()'s options and list them in polarbench_workloads),
 *	  the command-line program and the unit tests share.
 *
 * An option's name is matched without regard to case, dashes and
 * underscores, so that sysbench's spellings (--table-size, table_size)
 * and YCSB's property names (readproportion, read_proportion) all work.
 * Values are given as text, as on their tools' command lines.  A kind's
 * table, its defaults and its rules are the kind's own, in its folder.
 *
 *-------------------------------------------------------------------------
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kind_options.h"

/*
 * pb_option_error
 *		Fill err: an invalid option, with a hint (NULL for none).  Returns
 *		false, for the caller to return.
 */
bool
pb_option_error(PbError *err, const char *hint, const char *fmt,...)
{
	va_list		ap;

	memset(err, 0, sizeof(PbError));
	err->kind = PB_ERROR_INVALID_ARGUMENT;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	if (hint != NULL)
		snprintf(err->detail, sizeof(err->detail), "%s", hint);
	return false;
}

/* An option's name folded for matching: lower case, no '-' or '_'. */
static void
pb_fold_name(const char *name, char *buf, size_t len)
{
	size_t		n = 0;

	for (; *name && n < len - 1; name++)
		if (*name != '-' && *name != '_')
			buf[n++] = (char) tolower((unsigned char) *name);
	buf[n] = '\0';
}

/*
 * pb_option_is
 *		Whether name is a spelling of the option canonical.
 */
bool
pb_option_is(const char *name, const char *canonical)
{
	char		a[64];
	char		b[64];

	pb_fold_name(name, a, sizeof(a));
	pb_fold_name(canonical, b, sizeof(b));
	return strcmp(a, b) == 0;
}

/*
 * pb_kind_workload
 *		The kind's workload of that name (exactly), or NULL.
 */
const PbWorkloadDef *
pb_kind_workload(const PbKindLibrary *kind, const char *name)
{
	for (const PbWorkloadDef *w = kind->workloads; w != NULL && w->name != NULL; w++)
		if (strcmp(w->name, name) == 0)
			return w;
	return NULL;
}

/* How many workloads of its own a kind has in its library. */
int
pb_kind_workload_count(const PbKindLibrary *kind)
{
	int			n = 0;

	while (kind->workloads != NULL && kind->workloads[n].name != NULL)
		n++;
	return n;
}

/*
 * pb_kind_defaults
 *		Fill options (the kind's options_size bytes) with the defaults of a
 *		workload: its tool's, and those of the workload's own file.
 */
void
pb_kind_defaults(const PbKindLibrary *kind, const PbWorkloadDef *def,
				 void *options)
{
	memset(options, 0, kind->options_size);
	if (kind->defaults != NULL)
		kind->defaults(options, def->variant);
}

/*
 * pb_format_option
 *		The value of option d in options, as text (JSON's, strings without
 *		their quotes) in buf.
 */
static void
pb_format_option(const PbOptionDef *d, const void *options, char *buf,
				 size_t len)
{
	const char *field = (const char *) options + d->offset;

	switch (d->type)
	{
		case PB_OPT_INT:
			snprintf(buf, len, "%d", *(const int *) field);
			break;
		case PB_OPT_INT64:
			snprintf(buf, len, "%lld", (long long) *(const int64_t *) field);
			break;
		case PB_OPT_BOOL:
			snprintf(buf, len, "%s", *(const bool *) field ? "true" : "false");
			break;
		case PB_OPT_DOUBLE:
			snprintf(buf, len, "%.17g", *(const double *) field);
			break;
		case PB_OPT_ENUM:
			snprintf(buf, len, "%s", d->values[*(const int *) field]);
			break;
	}
}

/*
 * pb_kind_option_info
 *		What polarbench_workloads says of the i-th option of a workload:
 *		its name, type, range, default (in the workload's own defaults; ""
 *		for one computed at the run, such as the rows of the table) and
 *		description.  Returns false past the last option.
 */
bool
pb_kind_option_info(const PbKindLibrary *kind, const PbWorkloadDef *def, int i,
					PbOptionInfo *info)
{
	const PbOptionDef *d;
	double		defaults[128];	/* aligned for any field */
	size_t		n = 0;

	if (kind->options == NULL)
		return false;
	for (int j = 0; j <= i; j++)
		if (kind->options[j].name == NULL)
			return false;
	d = &kind->options[i];
	memset(info, 0, sizeof(PbOptionInfo));
	info->name = d->name;
	info->description = d->description;
	info->min = d->min;
	info->max = d->max;
	info->has_range = (d->type != PB_OPT_BOOL && d->type != PB_OPT_ENUM);
	switch (d->type)
	{
		case PB_OPT_INT:
		case PB_OPT_INT64:
			info->type = "integer";
			break;
		case PB_OPT_BOOL:
			info->type = "boolean";
			break;
		case PB_OPT_DOUBLE:
			info->type = "number";
			break;
		case PB_OPT_ENUM:
			info->type = "enum";
			info->values[0] = '\0';
			for (int v = 0; d->values[v] != NULL; v++)
				if (d->values[v][0] != '\0')
					n += snprintf(info->values + n, n < sizeof(info->values) ?
								  sizeof(info->values) - n : 0, "%s%s",
								  n > 0 ? "," : "", d->values[v]);
			break;
	}
	if (kind->options_size <= sizeof(defaults))
	{
		pb_kind_defaults(kind, def, defaults);
		pb_format_option(d, defaults, info->default_value, sizeof(info->default_value));
		/* a value out of range stands for one computed at the run: none */
		if (info->has_range && strtod(info->default_value, NULL) < d->min)
			info->default_value[0] = '\0';
	}
	return true;
}

/*
 * pb_kind_option_at
 *		The name of the i-th option of a kind, or NULL past the last.
 */
const char *
pb_kind_option_at(const PbKindLibrary *kind, int i)
{
	for (int k = 0; kind->options != NULL && kind->options[k].name != NULL; k++)
		if (k == i)
			return kind->options[k].name;
	return NULL;
}

/*
 * pb_kind_has_option
 *		Whether name is a spelling of an option of the kind.
 */
bool
pb_kind_has_option(const PbKindLibrary *kind, const char *name)
{
	for (int i = 0; kind->options != NULL && kind->options[i].name != NULL; i++)
		if (pb_option_is(name, kind->options[i].name))
			return true;
	return false;
}

/*
 * pb_option_names
 *		The options of a kind, comma separated (static buffer).
 */
static const char *
pb_option_names(const PbKindLibrary *kind)
{
	static char buf[448];		/* both lists fit, with the hint's words, in PbError.detail */
	size_t		n = 0;

	buf[0] = '\0';
	for (int i = 0; kind->options != NULL && kind->options[i].name != NULL; i++)
		n += snprintf(buf + n, n < sizeof(buf) ? sizeof(buf) - n : 0, "%s%s",
					  i > 0 ? ", " : "", kind->options[i].name);
	return buf;
}

/* Read a boolean as sysbench and Java do: on/off, true/false, yes/no, 1/0. */
static bool
pb_parse_bool(const char *value, bool *result)
{
	static const char *const yes[] = {"on", "true", "yes", "1"};
	static const char *const no[] = {"off", "false", "no", "0"};

	for (int i = 0; i < 4; i++)
	{
		if (strcasecmp(value, yes[i]) == 0)
		{
			*result = true;
			return true;
		}
		if (strcasecmp(value, no[i]) == 0)
		{
			*result = false;
			return true;
		}
	}
	return false;
}

/* The option d is given: say so where its table says. */
static bool
pb_option_given(const PbOptionDef *d, void *options)
{
	if (d->given > 0)
		*(bool *) ((char *) options + d->given - 1) = true;
	return true;
}

/*
 * pb_set_enum
 *		Set the enum option d to the value of that name (case aside), or
 *		fill err with the names it takes.
 */
static bool
pb_set_enum(const PbKindLibrary *kind, const PbOptionDef *d, void *options,
			const char *value, PbError *err)
{
	char		hint[512];
	size_t		n;

	for (int v = 0; d->values[v] != NULL; v++)
		if (d->values[v][0] != '\0' && strcasecmp(value, d->values[v]) == 0)
		{
			*(int *) ((char *) options + d->offset) = v;
			return pb_option_given(d, options);
		}
	n = snprintf(hint, sizeof(hint), "%s is one of", d->name);
	for (int v = 0, k = 0; d->values[v] != NULL; v++)
		if (d->values[v][0] != '\0')
			n += snprintf(hint + n, n < sizeof(hint) ? sizeof(hint) - n : 0,
						  "%s %s", k++ > 0 ? "," : "", d->values[v]);
	snprintf(hint + n, n < sizeof(hint) ? sizeof(hint) - n : 0, ".");
	return pb_option_error(err, hint,
						   "invalid value for %s option \"%s\": \"%s\"",
						   kind->tool, d->name, value);
}

/*
 * pb_set_value
 *		Set option d in options to value (its text); false with err set for
 *		a value of the wrong type or out of the option's range.
 */
static bool
pb_set_value(const PbKindLibrary *kind, const PbOptionDef *d, void *options,
			 const char *value, PbError *err)
{
	char	   *field = (char *) options + d->offset;
	char		hint[512];
	char	   *end;
	double		dv;
	long long	iv;

	switch (d->type)
	{
		case PB_OPT_INT:
		case PB_OPT_INT64:
			errno = 0;
			iv = strtoll(value, &end, 10);
			if (errno != 0 || end == value || *end != '\0' ||
				iv < d->min || (double) iv > d->max)
			{
				snprintf(hint, sizeof(hint), "%s is a whole number from %.0f to %.0f.",
						 d->name, d->min, d->max);
				break;
			}
			if (d->type == PB_OPT_INT)
				*(int *) field = (int) iv;
			else
				*(int64_t *) field = (int64_t) iv;
			return pb_option_given(d, options);
		case PB_OPT_BOOL:
			if (!pb_parse_bool(value, (bool *) field))
			{
				snprintf(hint, sizeof(hint), "%s is on or off (true or false).", d->name);
				break;
			}
			return pb_option_given(d, options);
		case PB_OPT_DOUBLE:
			errno = 0;
			dv = strtod(value, &end);
			if (errno != 0 || end == value || *end != '\0' || isnan(dv) ||
				dv < d->min || dv > d->max ||
				(d->open && (dv == d->min || dv == d->max)))
			{
				snprintf(hint, sizeof(hint), "%s is a number from %g to %g%s.",
						 d->name, d->min, d->max, d->open ? ", both excluded" : "");
				break;
			}
			*(double *) field = dv;
			return pb_option_given(d, options);
		case PB_OPT_ENUM:
			return pb_set_enum(kind, d, options, value, err);
	}
	return pb_option_error(err, hint,
						   "invalid value for %s option \"%s\": \"%s\"",
						   kind->tool, d->name, value);
}

/*
 * pb_kind_set_option
 *		Set the option name of a kind to value (its text).  Returns false
 *		with err set for an unknown name or a bad value.
 */
bool
pb_kind_set_option(const PbKindLibrary *kind, void *options, const char *name,
				   const char *value, PbError *err)
{
	char		hint[512];

	for (int i = 0; kind->options != NULL && kind->options[i].name != NULL; i++)
		if (pb_option_is(name, kind->options[i].name))
			return pb_set_value(kind, &kind->options[i], options, value, err);
	snprintf(hint, sizeof(hint), "The options of %s workloads are %s.",
			 kind->tool, pb_option_names(kind));
	return pb_option_error(err, hint, "unrecognized %s option \"%s\"",
						   kind->tool, name);
}

/*
 * pb_kind_check_options
 *		What no single option shows, by the rules of the kind.
 */
bool
pb_kind_check_options(const PbKindLibrary *kind, void *options, PbError *err)
{
	return kind->check == NULL || kind->check(options, err);
}

/*
 * pb_kind_options_json
 *		Every option of the kind with its value, as a JSON object
 *		(malloc'd), under the names of the option table.
 */
char *
pb_kind_options_json(const PbKindLibrary *kind, const void *options)
{
	size_t		size = 4096;
	size_t		n = 0;
	char	   *buf = malloc(size);

	if (buf == NULL)
		return NULL;
	n += snprintf(buf + n, size - n, "{");
	for (int i = 0; kind->options != NULL && kind->options[i].name != NULL; i++)
	{
		const PbOptionDef *d = &kind->options[i];
		char		value[128];

		pb_format_option(d, options, value, sizeof(value));
		n += snprintf(buf + n, n < size ? size - n : 0,
					  d->type == PB_OPT_ENUM ? "%s\"%s\": \"%s\"" : "%s\"%s\": %s",
					  i > 0 ? ", " : "", d->name, value);
	}
	if (n < size)
		snprintf(buf + n, size - n, "}");
	return buf;
}
