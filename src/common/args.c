/*-------------------------------------------------------------------------
 *
 * args.c
 *	  Checks of the SQL functions' arguments that polarbench_run() and
 *	  polarbench_init() share, and JSON objects of scalars read as
 *	  name = value pairs (vars, settings, options).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"

#include "args.h"

/*
 * pb_check_range
 *		Argument name must be between min and max (max PB_NO_MAXIMUM: at
 *		least min).  hint, when not NULL, says what the argument is for.
 */
void
pb_check_range(const char *name, int64 value, int64 min, int64 max,
			   const char *hint)
{
	if (value >= min && value <= max)
		return;
	if (max == PB_NO_MAXIMUM)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be at least " INT64_FORMAT, name, min),
				 hint ? errhint("%s", hint) : 0));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("%s must be between " INT64_FORMAT " and " INT64_FORMAT,
					name, min, max),
			 hint ? errhint("%s", hint) : 0));
}

/*
 * pb_json_scalars
 *		Call fn on every member of a JSON object of scalars (numbers,
 *		strings, booleans); what is the argument's name ("vars", "options")
 *		and item what it holds ("variable", "option"), for the errors.
 */
void
pb_json_scalars(Jsonb *jb, const char *what, const char *item, const char *example,
				PbJsonPairFn fn, void *arg)
{
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken tok;
	char	   *key = NULL;
	int			depth = 0;

	if (!JB_ROOT_IS_OBJECT(jb))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be a JSON object", what),
				 errhint("Pass %ss as in '%s'.", item, example)));

	it = JsonbIteratorInit(&jb->root);
	while ((tok = JsonbIteratorNext(&it, &v, false)) != WJB_DONE)
	{
		char	   *value;

		if (tok == WJB_BEGIN_OBJECT || tok == WJB_BEGIN_ARRAY)
		{
			if (++depth > 1)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("value of %s \"%s\" must be a number, a string or a boolean",
								item, key ? key : "")));
			continue;
		}
		if (tok == WJB_END_OBJECT || tok == WJB_END_ARRAY)
		{
			depth--;
			continue;
		}
		if (tok == WJB_KEY)
		{
			key = pnstrdup(v.val.string.val, v.val.string.len);
			continue;
		}
		switch (v.type)
		{
			case jbvString:
				value = pnstrdup(v.val.string.val, v.val.string.len);
				break;
			case jbvNumeric:
				value = DatumGetCString(DirectFunctionCall1(numeric_out,
															NumericGetDatum(v.val.numeric)));
				break;
			case jbvBool:
				value = v.val.boolean ? "true" : "false";
				break;
			default:
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("value of %s \"%s\" must be a number, a string or a boolean",
								item, key ? key : "")));
				value = NULL;	/* keep compiler quiet */
		}
		fn(key, value, arg);
	}
}

/*
 * pb_check_one_dimension
 *		An array argument must be one-dimensional and not empty.
 */
void
pb_check_one_dimension(ArrayType *array, const char *name)
{
	if (ARR_NDIM(array) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("%s must be a one-dimensional array", name)));
	if (ARR_NDIM(array) == 0 || ArrayGetNItems(ARR_NDIM(array), ARR_DIMS(array)) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must not be empty", name)));
}
