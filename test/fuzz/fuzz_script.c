/*-------------------------------------------------------------------------
 *
 * fuzz_script.c
 *	  libFuzzer harness for the script language: parse arbitrary text as a
 *	  script, then check its variables and run every meta-command of it,
 *	  and the script itself, on a client with variables preset.
 *
 * Built with ASan and UBSan by run.sh; any crash, leak or undefined
 * behaviour is a bug, whatever the input.
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pb_script.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Give variable id a value of a kind chosen by its id, so that
 * expressions meet ints, doubles, booleans, nulls, garbage and unset
 * variables.
 */
static void
preset_variable(PbClientState *client, const PbScriptSet *set, int id)
{
	static const char *const values[] = {
		"12", "2.5", "t", "null", "-7", "1e308", "abc", "", "9223372036854775807",
		"-9223372036854775808", "nan", "off"
	};
	const char *name = set->var_names[id];
	PbError		err;

	if (strcmp(name, "scale") == 0)
		pb_var_set_string(client, id, "1", &err);
	else if (strcmp(name, "range") == 0)
		pb_var_set_string(client, id, "100000", &err);
	else if (id % 13 != 12)
		pb_var_set_string(client, id, values[id % 12], &err);
}

/*
 * Run the script from its first command as the server would, with SQL
 * commands only having their parameters formatted, for a bounded number
 * of steps.
 */
static void
run_script(const PbScript *script, PbClientState *client,
		   const PbScriptSet *set)
{
	int			pc = 0;
	int			steps;

	for (steps = 0; steps < 200 && pc >= 0 && pc < script->ncommands; steps++)
	{
		const PbCommand *cmd = &script->commands[pc];
		PbError		err;
		int			next;
		int64_t		sleep_us;

		if (cmd->kind == PB_CMD_SQL)
		{
			int			i;
			char		buf[64];

			for (i = 0; i < cmd->nparams; i++)
				(void) pb_var_get_string_ref(client, cmd->param_vars[i],
											 buf, sizeof(buf));
			pc++;
			continue;
		}
		if (!pb_exec_meta(script, pc, client, set, &next, &sleep_us, &err))
			return;
		if (next <= pc && cmd->kind != PB_CMD_ENDIF)
			abort();			/* targets only ever go forward */
		pc = next;
	}
}

/*
 * The fuzz target.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	   *text = malloc(size + 1);
	PbScriptSet *set;
	PbError		err;

	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	set = pb_scriptset_create();
	if (set != NULL && pb_script_parse(set, NULL, text, 1, &err))
	{
		PbClientState *client;
		int			i;
		int			s;

		(void) pb_scriptset_check_vars(set, &err);
		client = pb_client_create(set, (uint64_t) size, 42);
		if (client != NULL)
		{
			for (i = 0; i < set->nvars; i++)
				preset_variable(client, set, i);

			/* every meta-command on its own, in order */
			for (s = 0; s < set->nscripts; s++)
			{
				const PbScript *script = &set->scripts[s];

				for (i = 0; i < script->ncommands; i++)
				{
					int			next;
					int64_t		sleep_us;

					if (script->commands[i].kind != PB_CMD_SQL)
						(void) pb_exec_meta(script, i, client, set,
											&next, &sleep_us, &err);
				}
				run_script(script, client, set);
			}
			/* every variable's value and text, into a small buffer */
			for (i = 0; i < set->nvars; i++)
			{
				char		buf[8];
				PbValue		v;

				(void) pb_var_get_string(client, i, buf, sizeof(buf));
				(void) pb_var_get_value(client, set, i, &v, &err);
			}
			pb_client_free(client);
		}

		/* a second script in the same set: the second half of the input */
		(void) pb_script_parse(set, "half", text + size / 2, 2, &err);
		(void) pb_scriptset_check_vars(set, &err);
	}
	pb_scriptset_free(set);
	(void) pb_builtin_script(text, NULL);
	free(text);
	return 0;
}
