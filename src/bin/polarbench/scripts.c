/*-------------------------------------------------------------------------
 *
 * scripts.c
 *	  The scripts of a run as the command line gives them, pgbench's way:
 *	  built-in scripts by name or unique prefix (-b, -S, -N), files (-f),
 *	  each with an optional @weight, and variables (-D); and their check,
 *	  with the same script library the server uses, so that a syntax error
 *	  is reported with its file and line before anything is sent.
 *
 * A -b name that is no built-in script of the client's is kept aside: it
 * may name a workload of the server's, which catalog.c looks up once the
 * client is connected.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include "common/logging.h"
#include "pqexpbuffer.h"

#include "pb_script.h"
#include "pgbench.h"
#include "polarbench.h"

/*
 * parse_weight
 *		Split "name@weight" as pgbench does: the weight follows the last '@'.
 *		Returns the weight (1 when none is given) and cuts it off the name;
 *		exits on a bad weight.
 */
static int
parse_weight(char *option)
{
	char	   *sep = strrchr(option, '@');
	int			weight;
	PbError		err;

	if (sep == NULL)
		return 1;
	if (!pb_parse_weight(sep, &weight, &err))
	{
		pg_log_error("%s", err.message);
		exit(1);
	}
	*sep = '\0';
	return weight;
}

/*
 * add_builtin
 *		Add the built-in script an -b argument names, by unique prefix, as
 *		pgbench does.  Any other name is kept, without its weight, for
 *		resolve_workload() to find among the server's workloads (or to
 *		report as no script found).
 */
void
add_builtin(ClientOptions *opts, const char *arg)
{
	char	   *name = pg_strdup(arg);
	int			weight = parse_weight(name);
	const char *canonical = NULL;
	ClientScript *s;

	if (pb_builtin_matches(name) != 1 || pb_builtin_script(name, &canonical) == NULL)
	{
		opts->workload_names = pg_realloc(opts->workload_names,
										  sizeof(char *) * (opts->nworkload_names + 1));
		opts->workload_names[opts->nworkload_names++] = name;
		return;
	}

	opts->scripts = pg_realloc(opts->scripts,
							   sizeof(ClientScript) * (opts->nscripts + 1));
	s = &opts->scripts[opts->nscripts++];
	opts->nbuiltins++;
	s->builtin = canonical;
	s->desc = NULL;
	for (int i = 0; i < pb_builtin_count(); i++)
		if (strcmp(pb_builtin_name(i), canonical) == 0)
			s->desc = pg_strdup(pb_builtin_desc(i));
	s->text = NULL;
	s->weight = weight;
	free(name);
}

/*
 * read_file_contents
 *		The whole of a file, or of stdin for "-"; exits if it cannot be read.
 */
static char *
read_file_contents(const char *filename)
{
	FILE	   *fd;
	PQExpBufferData buf;
	char		block[8192];
	size_t		n;

	if (strcmp(filename, "-") == 0)
		fd = stdin;
	else if ((fd = fopen(filename, "r")) == NULL)
	{
		pg_log_error("could not open file \"%s\": %m", filename);
		exit(1);
	}
	initPQExpBuffer(&buf);
	while ((n = fread(block, 1, sizeof(block), fd)) > 0)
		appendBinaryPQExpBuffer(&buf, block, n);
	if (ferror(fd))
	{
		pg_log_error("could not read file \"%s\": %m", filename);
		exit(1);
	}
	if (PQExpBufferBroken(&buf))
	{
		pg_log_error("out of memory");
		exit(1);
	}
	if (fd != stdin)
		fclose(fd);
	return buf.data;
}

/*
 * read_script_file
 *		The script an -f argument names, read now, named by its file name as
 *		pgbench names it.
 */
ClientScript
read_script_file(const char *arg)
{
	char	   *filename = pg_strdup(arg);
	ClientScript s;

	s.weight = parse_weight(filename);
	s.builtin = NULL;
	s.desc = filename;
	s.text = read_file_contents(filename);
	return s;
}

/*
 * add_define
 *		Record a -D name=value; exits on a malformed definition.
 */
void
add_define(ClientOptions *opts, const char *arg)
{
	char	   *copy = pg_strdup(arg);
	char	   *value = strchr(copy, '=');

	if (value == NULL || value == copy || value[1] == '\0')
	{
		pg_log_error("invalid variable definition: \"%s\"", arg);
		exit(1);
	}
	*value++ = '\0';
	for (const unsigned char *p = (const unsigned char *) copy; *p; p++)
		if (!(IS_HIGHBIT_SET(*p) || isalnum(*p) || *p == '_'))
		{
			pg_log_error("invalid variable name: \"%s\"", copy);
			exit(1);
		}
	opts->var_names = pg_realloc(opts->var_names, sizeof(char *) * (opts->nvars + 1));
	opts->var_values = pg_realloc(opts->var_values, sizeof(char *) * (opts->nvars + 1));
	opts->var_names[opts->nvars] = copy;
	opts->var_values[opts->nvars] = value;
	opts->nvars++;
}

/*
 * finish_scripts
 *		Put the files after the built-ins, as the server numbers them, and
 *		run pgbench's default, tpcb-like, when nothing names what to run.
 *		Exits when the weights add up to zero.
 */
void
finish_scripts(ClientOptions *opts, const ClientScript *files, int nfiles)
{
	long long	total_weight = 0;

	if (nfiles > 0)
	{
		opts->scripts = pg_realloc(opts->scripts,
								   sizeof(ClientScript) * (opts->nscripts + nfiles));
		memcpy(opts->scripts + opts->nscripts, files, sizeof(ClientScript) * nfiles);
		opts->nscripts += nfiles;
	}
	if (opts->nscripts == 0 && opts->nworkload_names == 0)
		add_builtin(opts, "tpcb-like");
	for (int i = 0; i < opts->nscripts; i++)
		total_weight += opts->scripts[i].weight;
	if (opts->nscripts > 0 && total_weight == 0)
	{
		pg_log_error("total script weight must not be zero");
		exit(1);
	}
}

/*
 * mark_known_variables
 *		Mark as assigned the variables the server sets before a client runs
 *		a script: -D definitions and pgbench's predefined ones.
 */
static void
mark_known_variables(PbScriptSet *set, const ClientOptions *opts)
{
	for (int i = 0; i < opts->nvars; i++)
		pb_var_mark_assigned(set, pb_var_id(set, opts->var_names[i], true));
	for (int i = 0; i < PB_PREDEFINED_VARIABLES; i++)
		pb_var_mark_assigned(set, pb_var_id(set, pb_predefined_variables[i], true));
}

/*
 * check_scripts
 *		Parse every script as the server will, so that mistakes are found
 *		before contacting it: syntax errors with the file and line, empty
 *		scripts, variables that nothing sets.  Exits on the first one.
 */
void
check_scripts(const ClientOptions *opts)
{
	PbScriptSet *all;
	PbError		err;

	if (opts->nscripts == 0)
		return;
	all = pb_scriptset_create();
	if (all == NULL)
	{
		pg_log_error("out of memory");
		exit(1);
	}
	for (int i = 0; i < opts->nscripts; i++)
	{
		const ClientScript *s = &opts->scripts[i];
		const char *text = s->builtin ? pb_builtin_script(s->builtin, NULL) : s->text;

		memset(&err, 0, sizeof(err));
		if (!pb_script_parse(all, s->desc, text, s->weight, &err))
		{
			if (err.line > 0)
				pg_log_error("%s:%d: %s", s->desc, err.line, err.message);
			else
				pg_log_error("%s: %s", s->desc, err.message);
			if (err.detail[0] != '\0')
				pg_log_error_detail("%s", err.detail);
			exit(1);
		}
		if (all->scripts[all->nscripts - 1].ncommands == 0)
		{
			pg_log_error("empty command list for script \"%s\"", s->desc);
			exit(1);
		}
	}
	mark_known_variables(all, opts);
	memset(&err, 0, sizeof(err));
	if (!pb_scriptset_check_vars(all, &err))
	{
		pg_log_error("%s:%d: %s", all->scripts[err.script_no].name, err.line,
					 err.message);
		if (err.detail[0] != '\0')
			pg_log_error_detail("%s", err.detail);
		pg_log_error_hint("Set the variable with \\set in the script or with -D.");
		exit(1);
	}
	pb_scriptset_free(all);
}
