/*-------------------------------------------------------------------------
 *
 * script_choice.c
 *	  The weighted choice of the script a client runs next.
 *
 *-------------------------------------------------------------------------
 */
#include "pb_script_int.h"

/*
 * Choose a script by weight, as pgbench's chooseScript(): a single script
 * is chosen without drawing a number.
 */
int
pb_choose_script(const PbScriptSet *set, PbPrng *prng)
{
	int			i = 0;
	int64_t		w;

	if (set->nscripts <= 1 || set->total_weight <= 0)
		return 0;

	w = pb_rand_uniform(prng, 0, set->total_weight - 1);
	do
	{
		w -= set->scripts[i++].weight;
	} while (w >= 0 && i < set->nscripts);

	return i - 1;
}
