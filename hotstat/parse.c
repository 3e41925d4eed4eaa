// SPDX-License-Identifier: GPL-2.0
/*
 * hotstat: parsing. Strict: a line or a number that is not exactly what the
 * kernel (or the user) is expected to write is refused, not half-read.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hotstat.h"

/* Digits only, no sign, no blanks, no overflow */
static const char *num(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (!isdigit((unsigned char)*s))
		return NULL;
	for (; isdigit((unsigned char)*s); s++) {
		unsigned int d = *s - '0';

		if (x > (UINT64_MAX - d) / 10)
			return NULL;
		x = x * 10 + d;
	}
	*v = x;
	return s;
}

static const char *lit(const char *s, const char *want)
{
	size_t n = strlen(want);

	return s && !strncmp(s, want, n) ? s + n : NULL;
}

int hs_parse_u64(const char *s, uint64_t *v)
{
	const char *e = num(s, v);

	return e && !*e ? 0 : -1;
}

int hs_parse_uint(const char *s, unsigned int min, unsigned int max,
		  unsigned int *v)
{
	uint64_t x;

	if (hs_parse_u64(s, &x) || x < min || x > max)
		return -1;
	*v = x;
	return 0;
}

/* A positive number of seconds, "2" or "0.5"; at most a day */
int hs_parse_seconds(const char *s, double *secs)
{
	char *end;
	double d;

	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	errno = 0;
	d = strtod(s, &end);
	if (errno || *end || end == s || !(d >= 0.1) || d > 86400)
		return -1;
	*secs = d;
	return 0;
}

/*
 * A size in bytes: digits, then nothing (bytes) or one of K, M, G, T, P
 * (powers of 1024), alone or followed by "iB"; no sign, no fraction, no
 * overflow. 0 parses: the caller says whether it may be 0.
 */
int hs_parse_size(const char *s, uint64_t *bytes)
{
	static const char units[] = "KMGTP";
	const char *e = num(s, bytes), *u;
	unsigned int shift;

	if (!e)
		return -1;
	if (!*e)
		return 0;
	u = strchr(units, *e);
	if (!u || (e[1] && strcmp(e + 1, "iB")))
		return -1;
	shift = 10 * (unsigned int)(u - units + 1);
	if (*bytes > UINT64_MAX >> shift)
		return -1;
	*bytes <<= shift;
	return 0;
}

/* In place: the \ooo escapes of /proc/self/mountinfo */
void hs_unescape_octal(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0');
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = 0;
}

static int field(char **p, char *dst, size_t n)
{
	char *s = *p, *e;
	size_t len;

	while (*s == ' ')
		s++;
	e = s + strcspn(s, " \n");
	len = e - s;
	if (!len || len >= n)
		return -1;
	memcpy(dst, s, len);
	dst[len] = 0;
	*p = e;
	return 0;
}

/*
 * One line of /proc/self/mountinfo (proc(5)):
 *   36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw
 */
int hs_parse_mountinfo(const char *line, struct hs_mountinfo *mi)
{
	char buf[8192], tmp[4096], *p = buf;
	uint64_t maj, min;
	const char *s;

	if (strlen(line) >= sizeof(buf))
		return -1;
	strcpy(buf, line);
	memset(mi, 0, sizeof(*mi));
	if (field(&p, tmp, sizeof(tmp)) || field(&p, tmp, sizeof(tmp)) ||
	    field(&p, tmp, sizeof(tmp)))
		return -1;
	s = num(tmp, &maj);
	s = s ? lit(s, ":") : NULL;
	s = s ? num(s, &min) : NULL;
	if (!s || *s || maj > UINT32_MAX || min > UINT32_MAX)
		return -1;
	mi->major = maj;
	mi->minor = min;
	if (field(&p, mi->root, sizeof(mi->root)) ||
	    field(&p, mi->mountpoint, sizeof(mi->mountpoint)))
		return -1;
	/* mount options, then optional fields up to "-" */
	do {
		if (field(&p, tmp, sizeof(tmp)))
			return -1;
	} while (strcmp(tmp, "-"));
	if (field(&p, mi->fstype, sizeof(mi->fstype)) ||
	    field(&p, mi->source, sizeof(mi->source)))
		return -1;
	if (field(&p, mi->superopts, sizeof(mi->superopts)))
		mi->superopts[0] = 0;
	hs_unescape_octal(mi->root);
	hs_unescape_octal(mi->mountpoint);
	hs_unescape_octal(mi->source);
	return 0;
}

/* Is @opt one of the comma-separated options @opts (or opt=value)? */
bool hs_opt_has(const char *opts, const char *opt)
{
	size_t n = strlen(opt);
	const char *s = opts;

	while (*s) {
		size_t len = strcspn(s, ",");

		if (len >= n && !strncmp(s, opt, n) && (len == n || s[n] == '='))
			return true;
		s += len;
		if (*s)
			s++;
	}
	return false;
}
