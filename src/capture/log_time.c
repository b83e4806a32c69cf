/*-------------------------------------------------------------------------
 *
 * log_time.c
 *	  The times of a server log, as %m writes them ("2024-05-01
 *	  12:00:00.123 UTC", in log_timezone), made into microseconds since
 *	  2000-01-01 UTC, PostgreSQL's epoch; and how the capture library
 *	  reports an error.
 *
 * The time zone is written as an abbreviation, which alone does not say
 * its offset (IST is India's, Israel's or Ireland's): UTC, GMT and numeric
 * ones (+03, -0530) are read here, others by the caller's resolver, which
 * the server answers from log_timezone's rules.  Backend-free: see
 * pb_capture.h.
 *
 *-------------------------------------------------------------------------
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pb_capture_int.h"

/*
 * Fill err with the line it is about, a formatted message and an optional
 * detail.  err may be NULL.
 */
void
pb_capture_error(PbCaptureError *err, long line, const char *detail,
				 const char *fmt,...)
{
	va_list		ap;

	if (err == NULL)
		return;
	err->line = line;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	snprintf(err->detail, sizeof(err->detail), "%s", detail != NULL ? detail : "");
}

/* n digits at s as a number, or -1 if they are not all digits */
static int
digits(const char *s, int n)
{
	int			v = 0;

	for (int i = 0; i < n; i++)
	{
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/*
 * Parse text[0..len) as "YYYY-MM-DD HH:MM:SS[.f...] [ZONE]": fields gets
 * year, month, day, hour, minute, second and microsecond; zone_start and
 * zone_len the zone's abbreviation (zone_len 0 when there is none).
 * Returns false when the text is not such a time.
 */
bool
pb_log_time_parse(const char *text, size_t len, int *fields,
				  const char **zone_start, size_t *zone_len)
{
	static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	size_t		p = 19;
	int			scale = 100000;

	if (len < 19 || text[4] != '-' || text[7] != '-' || text[10] != ' ' ||
		text[13] != ':' || text[16] != ':')
		return false;
	fields[0] = digits(text, 4);
	fields[1] = digits(text + 5, 2);
	fields[2] = digits(text + 8, 2);
	fields[3] = digits(text + 11, 2);
	fields[4] = digits(text + 14, 2);
	fields[5] = digits(text + 17, 2);
	fields[6] = 0;
	for (int i = 0; i < 6; i++)
		if (fields[i] < 0)
			return false;
	if (fields[1] < 1 || fields[1] > 12 || fields[2] < 1 ||
		fields[2] > mdays[fields[1] - 1] || fields[3] > 23 || fields[4] > 59 ||
		fields[5] > 60)
		return false;
	if (p < len && text[p] == '.')
	{
		p++;
		if (p >= len || text[p] < '0' || text[p] > '9')
			return false;
		while (p < len && text[p] >= '0' && text[p] <= '9')
		{
			fields[6] += (text[p] - '0') * scale;
			scale /= 10;
			p++;
		}
	}
	*zone_start = text + len;
	*zone_len = 0;
	if (p == len)
		return true;
	if (text[p] != ' ' || p + 1 >= len)
		return false;
	p++;
	for (size_t q = p; q < len; q++)
		if (text[q] == ' ')
			return false;
	*zone_start = text + p;
	*zone_len = len - p;
	return true;
}

/* Days from 2000-01-01 to the date (proleptic Gregorian). */
static int64_t
days_from_2000(int year, int month, int day)
{
	int64_t		y = year - (month <= 2);
	int64_t		era = (y >= 0 ? y : y - 399) / 400;
	int64_t		yoe = y - era * 400;
	int64_t		doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
	int64_t		doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	/* days since 1970-01-01, less those from 1970 to 2000 */
	return era * 146097 + doe - 719468 - 10957;
}

/*
 * The fields of pb_log_time_parse() as microseconds since 2000-01-01, as
 * if they were UTC: the caller subtracts the zone's offset.
 */
PbLogTime
pb_log_time_from_fields(const int *fields)
{
	int64_t		days = days_from_2000(fields[0], fields[1], fields[2]);

	return ((days * 24 + fields[3]) * 60 + fields[4]) * INT64_C(60000000) +
		(int64_t) fields[5] * 1000000 + fields[6];
}
