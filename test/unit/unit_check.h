/*-------------------------------------------------------------------------
 *
 * unit_check.h
 *	  The counting checks the unit test programs share: each check that
 *	  fails prints one line, and the program ends with "N passed, N failed".
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_UNIT_CHECK_H
#define PB_UNIT_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int	npassed;
static int	nfailed;

/* Count a check, printing it when it failed. */
static void
check(bool ok, const char *fmt,...)
{
	va_list		ap;

	if (ok)
	{
		npassed++;
		return;
	}
	nfailed++;
	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* Check that x lies in [lo, hi]. */
static inline void
check_between(double x, double lo, double hi, const char *what)
{
	check(x >= lo && x <= hi, "%s: %g not in [%g, %g]", what, x, lo, hi);
}

/* Print the tally; the program's exit status. */
static int
check_summary(void)
{
	printf("%d passed, %d failed\n", npassed, nfailed);
	return nfailed > 0 ? 1 : 0;
}

#endif							/* PB_UNIT_CHECK_H */
