// SPDX-License-Identifier: GPL-2.0
/*
 * hotstat: formatting. Durations, times and sizes for people; a small JSON
 * emitter and Prometheus label escaping for programs; the map strip; the
 * message of a failure.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "hotstat.h"

char hs_err[512];

/* Set the message of a failure; returns @code, an exit status */
int hs_fail(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(hs_err, sizeof(hs_err), fmt, ap);
	va_end(ap);
	return code;
}

#define NS_US UINT64_C(1000)
#define NS_MS UINT64_C(1000000)
#define NS_S UINT64_C(1000000000)
#define S_MIN UINT64_C(60)
#define S_H UINT64_C(3600)
#define S_D UINT64_C(86400)
#define S_Y (UINT64_C(365) * S_D)

/* 850ns 12.5us 3.2ms 4.0s 3m07s 2h05m 3d04h 546y; "never" for HS_NEVER */
char *hs_fmt_duration(char *buf, size_t n, uint64_t ns)
{
	uint64_t s = ns / NS_S;

	if (ns == HS_NEVER)
		snprintf(buf, n, "never");
	else if (ns < NS_US)
		snprintf(buf, n, "%" PRIu64 "ns", ns);
	else if (ns < NS_MS)
		snprintf(buf, n, "%.1fus", ns / 1e3);
	else if (ns < NS_S)
		snprintf(buf, n, "%.1fms", ns / 1e6);
	else if (s < S_MIN)
		snprintf(buf, n, "%.1fs", ns / 1e9);
	else if (s < S_H)
		snprintf(buf, n, "%" PRIu64 "m%02" PRIu64 "s", s / S_MIN, s % S_MIN);
	else if (s < S_D)
		snprintf(buf, n, "%" PRIu64 "h%02" PRIu64 "m", s / S_H,
			 s % S_H / S_MIN);
	else if (s < S_Y)
		snprintf(buf, n, "%" PRIu64 "d%02" PRIu64 "h", s / S_D,
			 s % S_D / S_H);
	else
		snprintf(buf, n, "%" PRIu64 "y", s / S_Y);
	return buf;
}

/* "3.2s ago"; "never" for 0; "now" for a time not before @now_ns */
char *hs_fmt_ago(char *buf, size_t n, uint64_t then_ns, uint64_t now_ns)
{
	char d[32];

	if (!then_ns)
		snprintf(buf, n, "never");
	else if (then_ns >= now_ns)
		snprintf(buf, n, "now");
	else
		snprintf(buf, n, "%s ago",
			 hs_fmt_duration(d, sizeof(d), now_ns - then_ns));
	return buf;
}

/* "2026-12-03 10:23:40 UTC (3.2s ago)" in local time; "never" for 0 */
char *hs_fmt_time(char *buf, size_t n, uint64_t ns, uint64_t now_ns)
{
	time_t t = ns / NS_S;
	char when[64], ago[48];
	struct tm tm;

	if (!ns || !localtime_r(&t, &tm) ||
	    !strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %Z", &tm))
		return hs_fmt_ago(buf, n, ns, now_ns);
	snprintf(buf, n, "%s (%s)", when, hs_fmt_ago(ago, sizeof(ago), ns, now_ns));
	return buf;
}

/* RFC 3339 in UTC with nanoseconds: 2026-12-03T10:23:40.123456789Z */
char *hs_fmt_iso(char *buf, size_t n, uint64_t ns)
{
	time_t t = ns / NS_S;
	char when[48];
	struct tm tm;

	if (!gmtime_r(&t, &tm) ||
	    !strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm))
		when[0] = 0;
	snprintf(buf, n, "%s.%09" PRIu64 "Z", when, ns % NS_S);
	return buf;
}

/* 512 B, 4 KiB, 1.5 MiB, 64 MiB, 2 GiB */
char *hs_fmt_size(char *buf, size_t n, uint64_t bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB",
					    "PiB", "EiB" };
	unsigned int u = 0;
	uint64_t div = 1;

	while (u < 6 && bytes / div >= 1024) {
		div <<= 10;
		u++;
	}
	if (bytes % div == 0)
		snprintf(buf, n, "%" PRIu64 " %s", bytes / div, unit[u]);
	else
		snprintf(buf, n, "%.1f %s", (double)bytes / div, unit[u]);
	return buf;
}

/* --- JSON: one compact document, written as it is built --- */

void hs_json_init(struct hs_json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->first[0] = true;
}

/* Before a value or a key: the comma between siblings */
static void sep(struct hs_json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
}

static void open_(struct hs_json *j, int c)
{
	sep(j);
	fputc(c, j->f);
	if (j->depth < 63)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_(struct hs_json *j, int c)
{
	fputc(c, j->f);
	if (j->depth > 0)
		j->depth--;
}

void hs_json_begin_obj(struct hs_json *j) { open_(j, '{'); }
void hs_json_end_obj(struct hs_json *j) { close_(j, '}'); }
void hs_json_begin_arr(struct hs_json *j) { open_(j, '['); }
void hs_json_end_arr(struct hs_json *j) { close_(j, ']'); }

/* Length of the valid UTF-8 sequence at @s, 0 if there is none */
static size_t utf8_len(const unsigned char *s)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

/*
 * A string; bytes that are not UTF-8 (file names can hold anything) are
 * written as the code point of the same value, so the document stays valid.
 */
static void json_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	while (*s) {
		size_t len = utf8_len(s);

		if (*s == '"' || *s == '\\') {
			fputc('\\', f);
			fputc(*s, f);
		} else if (*s == '\n') {
			fputs("\\n", f);
		} else if (*s == '\t') {
			fputs("\\t", f);
		} else if (*s < 0x20 || *s == 0x7f || !len) {
			fprintf(f, "\\u%04x", *s);
		} else {
			fwrite(s, 1, len, f);
			s += len;
			continue;
		}
		s++;
	}
	fputc('"', f);
}

void hs_json_key(struct hs_json *j, const char *k)
{
	sep(j);
	json_string(j->f, k);
	fputc(':', j->f);
	j->after_key = true;
}

void hs_json_str(struct hs_json *j, const char *s)
{
	sep(j);
	json_string(j->f, s);
}

void hs_json_u64(struct hs_json *j, uint64_t v)
{
	sep(j);
	fprintf(j->f, "%" PRIu64, v);
}

void hs_json_double(struct hs_json *j, double v)
{
	sep(j);
	fprintf(j->f, "%.3f", v);
}

void hs_json_bool(struct hs_json *j, bool v)
{
	sep(j);
	fputs(v ? "true" : "false", j->f);
}

void hs_json_null(struct hs_json *j)
{
	sep(j);
	fputs("null", j->f);
}

void hs_json_end(struct hs_json *j)
{
	fputc('\n', j->f);
	j->first[0] = true;
	j->depth = 0;
}

/* ,name="value" with \ " and newline escaped (the text exposition format) */
void hs_prom_label(FILE *f, const char *name, const char *value, bool first)
{
	fprintf(f, "%s%s=\"", first ? "" : ",", name);
	for (; *value; value++) {
		if (*value == '\\' || *value == '"')
			fprintf(f, "\\%c", *value);
		else if (*value == '\n')
			fputs("\\n", f);
		else
			fputc(*value, f);
	}
	fputc('"', f);
}

/* --- the map strip --- */

/*
 * The digit of a range: its temperature scaled so that the coldest tracked
 * range of the file is 0 and the hottest 9; if all are equally hot, the
 * bucket scaled from 0-255. -1 (untracked) stays -1.
 */
int hs_temp_digit(int temp, int min, int max)
{
	if (temp < 0)
		return -1;
	if (max <= min)
		return temp * 9 / (HS_BUCKETS - 1);
	if (temp <= min)
		return 0;
	if (temp >= max)
		return 9;
	return ((temp - min) * 9 + (max - min) / 2) / (max - min);
}

/*
 * Squeeze @nranges temperatures into @ncells cells: each cell is the
 * hottest of the ranges it covers, -1 if none of them is tracked. With no
 * more ranges than cells, one cell per range.
 */
void hs_strip_cells(const int *temps, size_t nranges, int *cells,
		    size_t ncells)
{
	size_t i, r;

	for (i = 0; i < ncells; i++) {
		size_t lo = i * nranges / ncells;
		size_t hi = (i + 1) * nranges / ncells;

		if (hi <= lo)
			hi = lo + 1;
		cells[i] = -1;
		for (r = lo; r < hi && r < nranges; r++)
			if (temps[r] > cells[i])
				cells[i] = temps[r];
	}
}

/* Cells for @nranges ranges on a terminal @columns wide (room for "|...|") */
size_t hs_strip_width(size_t nranges, int columns)
{
	size_t room = columns > 12 ? (size_t)columns - 2 : 10;

	if (!nranges)
		return 0;
	return nranges < room ? nranges : room;
}

/* SGR sequence for a digit: dark blue (0) to red (9), on the background */
const char *hs_digit_colour(int digit)
{
	static const char *const c[] = {
		"\033[97;48;5;17m", "\033[97;48;5;19m", "\033[97;48;5;25m",
		"\033[97;48;5;31m", "\033[30;48;5;37m", "\033[30;48;5;71m",
		"\033[30;48;5;142m", "\033[30;48;5;178m", "\033[30;48;5;202m",
		"\033[97;1;48;5;196m",
	};

	return digit >= 0 && digit <= 9 ? c[digit] : "";
}

/* The digits of @n cells, '.' for untracked ones, into @buf (n + 1 bytes) */
void hs_strip_text(char *buf, const int *cells, size_t n, int min, int max)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int d = hs_temp_digit(cells[i], min, max);

		buf[i] = d < 0 ? '.' : '0' + d;
	}
	buf[n] = 0;
}

/*
 * |0012999210..| with a newline; on a terminal each run of a digit on its
 * colour (one escape sequence per run, not per cell)
 */
void hs_print_strip(FILE *f, const int *cells, size_t n, int min, int max,
		    bool colour)
{
	int last = -2;
	size_t i;

	fputc('|', f);
	for (i = 0; i < n; i++) {
		int d = hs_temp_digit(cells[i], min, max);

		if (colour && d != last)
			fputs(d < 0 ? "\033[0m" : hs_digit_colour(d), f);
		last = d;
		fputc(d < 0 ? '.' : '0' + d, f);
	}
	if (colour && last >= 0)
		fputs("\033[0m", f);
	fputs("|\n", f);
}

/*
 * An average interval of FS_IOC_GET_HEAT_INFO. The kernel's moving average
 * starts at "never" (2^64 - 1 ns) and takes each new interval at 1/16, so
 * it needs hundreds of I/Os to come down to real intervals. A real average
 * cannot exceed @limit_ns (hot-kick-time + hot-update-delay: an item idle
 * longer is forgotten); one that does is still the seed: "unsettled".
 */
char *hs_fmt_interval(char *buf, size_t n, uint64_t ns, uint64_t limit_ns)
{
	char d[32];

	hs_fmt_duration(d, sizeof(d), ns);
	if (ns != HS_NEVER && ns > limit_ns)
		snprintf(buf, n, "%s (unsettled: too few I/Os yet)", d);
	else
		snprintf(buf, n, "%s", d);
	return buf;
}
