// SPDX-License-Identifier: GPL-2.0
/*
 * hotstat host unit tests: parsing, formatting, the path cache, the heat
 * file of save and restore, and the command line errors of ./hotstat (caught before it asks the kernel
 * anything). TAP 13 on stdout; exit 1 if a test failed.
 *
 *   unit HOTSTAT_BINARY MAN_PAGE UNIT_DIR
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/hot_tracking.h>

#include "hotstat.h"

static int ntest, nfail;

__attribute__((format(printf, 2, 3)))
static int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	ntest++;
	if (!cond)
		nfail++;
	printf("%s %d - ", cond ? "ok" : "not ok", ntest);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return cond;
}

static void str_is(const char *got, const char *want, const char *what)
{
	if (!ok(!strcmp(got, want), "%s: \"%s\"", what, want))
		printf("#   got \"%s\"\n", got);
}

/* --- parse.c --- */

static void test_parse_numbers(void)
{
	unsigned int u;
	uint64_t v;
	double d;

	ok(!hs_parse_u64("0", &v) && v == 0, "u64 0");
	ok(!hs_parse_u64("18446744073709551615", &v) && v == UINT64_MAX, "u64 max");
	ok(hs_parse_u64("18446744073709551616", &v), "u64 overflow refused");
	ok(hs_parse_u64(" 1", &v) && hs_parse_u64("1 ", &v) &&
	   hs_parse_u64("", &v) && hs_parse_u64("+1", &v), "u64 junk refused");
	ok(!hs_parse_uint("20", 1, 20, &u) && u == 20, "uint at its bound");
	ok(hs_parse_uint("21", 1, 20, &u) && hs_parse_uint("0", 1, 20, &u),
	   "uint out of bounds refused");
	ok(!hs_parse_size("4096", &v) && v == 4096, "size in bytes");
	ok(!hs_parse_size("512M", &v) && v == 512ULL << 20 &&
	   !hs_parse_size("2GiB", &v) && v == 2ULL << 30 &&
	   !hs_parse_size("1K", &v) && v == 1024 &&
	   !hs_parse_size("3T", &v) && v == 3ULL << 40, "size suffixes");
	ok(!hs_parse_size("0", &v) && v == 0, "size 0 parses");
	ok(hs_parse_size("-1", &v) && hs_parse_size("1.5G", &v) &&
	   hs_parse_size("1G ", &v) && hs_parse_size("G", &v) &&
	   hs_parse_size("1Gb", &v) && hs_parse_size("1g", &v) &&
	   hs_parse_size("16384P", &v) && hs_parse_size("", &v),
	   "bad sizes refused");
	ok(!hs_parse_seconds("2", &d) && d == 2, "seconds 2");
	ok(!hs_parse_seconds("0.5", &d) && d == 0.5, "seconds 0.5");
	ok(hs_parse_seconds("0", &d) && hs_parse_seconds("-1", &d) &&
	   hs_parse_seconds("1s", &d) && hs_parse_seconds("nan", &d) &&
	   hs_parse_seconds("inf", &d) && hs_parse_seconds("", &d) &&
	   hs_parse_seconds("100000", &d), "bad seconds refused");
}

static void test_parse_mountinfo(void)
{
	struct hs_mountinfo mi;
	char s[] = "a\\040b\\134c\\011";

	ok(!hs_parse_mountinfo("36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n",
			       &mi) && mi.major == 98 && !mi.minor &&
	   !strcmp(mi.root, "/mnt1") && !strcmp(mi.mountpoint, "/mnt/parent") &&
	   !strcmp(mi.fstype, "ext3") && !strcmp(mi.source, "/dev/root") &&
	   !strcmp(mi.superopts, "rw,errors=continue"),
	   "mountinfo line of proc(5)");
	ok(!hs_parse_mountinfo("30 1 0:27 / /tmp/my\\040mnt rw,relatime shared:5 master:2 - btrfs /dev/vda rw,discard=async,hot_track,subvolid=5,subvol=/",
			       &mi) && !mi.major && mi.minor == 27 &&
	   !strcmp(mi.mountpoint, "/tmp/my mnt") && !strcmp(mi.fstype, "btrfs") &&
	   !strcmp(mi.source, "/dev/vda") && hs_opt_has(mi.superopts, "hot_track"),
	   "mountinfo: btrfs, escaped space, two optional fields");
	ok(hs_parse_mountinfo("36 35 98:0 /mnt1 /mnt/parent rw ext3 /dev/root rw", &mi),
	   "mountinfo without separator refused");
	hs_unescape_octal(s);
	str_is(s, "a b\\c\t", "octal escapes");
	ok(hs_opt_has("rw,hot_track", "hot_track") &&
	   hs_opt_has("hot_track=1,rw", "hot_track") &&
	   !hs_opt_has("rw,hot_tracking", "hot_track") &&
	   !hs_opt_has("rw,nohot_track", "hot_track"), "mount option lookup");
}

/* --- format.c --- */

static void test_durations(void)
{
	char b[64];

	str_is(hs_fmt_duration(b, sizeof(b), HS_NEVER), "never", "duration ~0");
	str_is(hs_fmt_duration(b, sizeof(b), 0), "0ns", "duration 0");
	str_is(hs_fmt_duration(b, sizeof(b), 850), "850ns", "duration ns");
	str_is(hs_fmt_duration(b, sizeof(b), 12500), "12.5us", "duration us");
	str_is(hs_fmt_duration(b, sizeof(b), 3200000), "3.2ms", "duration ms");
	str_is(hs_fmt_duration(b, sizeof(b), 4000000000ULL), "4.0s", "duration s");
	str_is(hs_fmt_duration(b, sizeof(b), 187000000000ULL), "3m07s",
	       "duration min");
	str_is(hs_fmt_duration(b, sizeof(b), 7500ULL * 1000000000ULL), "2h05m",
	       "duration h");
	str_is(hs_fmt_duration(b, sizeof(b), (3 * 86400ULL + 4 * 3600) * 1000000000ULL),
	       "3d04h", "duration d");
	str_is(hs_fmt_duration(b, sizeof(b), HS_NEVER - 1), "584y",
	       "duration: an average still near ~0");
	str_is(hs_fmt_interval(b, sizeof(b), HS_NEVER, 1000), "never",
	       "interval: never");
	str_is(hs_fmt_interval(b, sizeof(b), 6500000, 1000000000), "6.5ms",
	       "interval: settled");
	str_is(hs_fmt_interval(b, sizeof(b), 28 * 365 * 86400ULL * 1000000000ULL,
			       1209600ULL * 1000000000ULL),
	       "28y (unsettled: too few I/Os yet)",
	       "interval: longer than an item can idle, still the kernel's seed");
	str_is(hs_fmt_ago(b, sizeof(b), 0, 5), "never", "ago: never");
	str_is(hs_fmt_ago(b, sizeof(b), 9, 5), "now", "ago: in the future");
	str_is(hs_fmt_ago(b, sizeof(b), 1000000000ULL, 4500000000ULL), "3.5s ago",
	       "ago: seconds");
}

static void test_times(void)
{
	char b[96];

	setenv("TZ", "UTC", 1);
	tzset();
	str_is(hs_fmt_iso(b, sizeof(b), 0), "1970-01-01T00:00:00.000000000Z",
	       "ISO time of 0");
	str_is(hs_fmt_iso(b, sizeof(b), 1796293420123456789ULL),
	       "2026-12-03T10:23:40.123456789Z", "ISO time with ns");
	str_is(hs_fmt_time(b, sizeof(b), 1796293420123456789ULL,
			   1796293423323456789ULL),
	       "2026-12-03 10:23:40 UTC (3.2s ago)", "readable time");
	str_is(hs_fmt_time(b, sizeof(b), 0, 1), "never", "readable time: never");
}

static void test_sizes(void)
{
	char b[32];

	str_is(hs_fmt_size(b, sizeof(b), 0), "0 B", "size 0");
	str_is(hs_fmt_size(b, sizeof(b), 1023), "1023 B", "size 1023");
	str_is(hs_fmt_size(b, sizeof(b), 1024), "1 KiB", "size 1 KiB");
	str_is(hs_fmt_size(b, sizeof(b), 1536), "1.5 KiB", "size 1.5 KiB");
	str_is(hs_fmt_size(b, sizeof(b), 1 << 20), "1 MiB", "size 1 MiB");
	str_is(hs_fmt_size(b, sizeof(b), 64ULL << 20), "64 MiB", "size 64 MiB");
	str_is(hs_fmt_size(b, sizeof(b), 3ULL << 29), "1.5 GiB", "size 1.5 GiB");
	str_is(hs_fmt_size(b, sizeof(b), UINT64_MAX), "16.0 EiB", "size max");
}

/* Output of @fn written to a memory stream */
static char *capture(void (*fn)(FILE *f))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f);
	fclose(f);
	return buf;
}

static void json_doc(FILE *f)
{
	struct hs_json j;

	hs_json_init(&j, f);
	hs_json_begin_obj(&j);
	hs_json_key(&j, "q");
	hs_json_str(&j, "a\"b\\c\nd\x01\t");
	hs_json_key(&j, "u");
	hs_json_str(&j, "\xc3\xa9t\xc3\xa9");
	hs_json_key(&j, "bad");
	hs_json_str(&j, "x\xff\xc3y");
	hs_json_key(&j, "n");
	hs_json_begin_arr(&j);
	hs_json_u64(&j, 1);
	hs_json_u64(&j, UINT64_MAX);
	hs_json_begin_obj(&j);
	hs_json_key(&j, "x");
	hs_json_null(&j);
	hs_json_key(&j, "t");
	hs_json_bool(&j, true);
	hs_json_end_obj(&j);
	hs_json_begin_arr(&j);
	hs_json_end_arr(&j);
	hs_json_double(&j, 1.5);
	hs_json_end_arr(&j);
	hs_json_end_obj(&j);
	hs_json_end(&j);
}

static void test_json(void)
{
	char *doc = capture(json_doc), path[] = "/tmp/hotstat-unit-XXXXXX";
	char cmd[512];
	size_t len;
	int fd, rc;

	len = strlen(doc);
	ok(len && doc[len - 1] == '\n', "JSON document ends with a newline");
	if (len)
		doc[len - 1] = 0;
	str_is(doc, "{\"q\":\"a\\\"b\\\\c\\nd\\u0001\\t\",\"u\":\"\xc3\xa9t\xc3\xa9\","
	       "\"bad\":\"x\\u00ff\\u00c3y\",\"n\":[1,18446744073709551615,"
	       "{\"x\":null,\"t\":true},[],1.500]}", "JSON document");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, doc, strlen(doc)) != (ssize_t)strlen(doc)) {
		ok(0, "JSON parses with python3 (cannot write %s)", path);
	} else {
		snprintf(cmd, sizeof(cmd), "python3 -c '"
			 "import json, sys\n"
			 "d = json.load(open(sys.argv[1], encoding=\"utf-8\"))\n"
			 "assert d[\"q\"] == \"a\\\"b\\\\c\\nd\\x01\\t\", d\n"
			 "assert d[\"u\"] == \"\\u00e9t\\u00e9\"\n"
			 "assert d[\"bad\"] == \"x\\u00ff\\u00c3y\"\n"
			 "assert d[\"n\"] == [1, 2**64 - 1, {\"x\": None, \"t\": True}, [], 1.5]\n"
			 "' %s", path);
		rc = system(cmd);
		ok(rc == 0, "JSON parses with python3 and reads back");
	}
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	free(doc);
}

static void prom_doc(FILE *f)
{
	hs_prom_label(f, "path", "/a \"b\"\\c\nd", true);
	hs_prom_label(f, "x", "", false);
}

static void test_prometheus(void)
{
	char *s = capture(prom_doc);

	str_is(s, "path=\"/a \\\"b\\\"\\\\c\\nd\",x=\"\"", "Prometheus label escapes");
	free(s);
}

static void test_strip(void)
{
	int temps[1000], cells[100], i;
	char buf[1001];
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	ok(hs_temp_digit(64, 64, 135) == 0 && hs_temp_digit(135, 64, 135) == 9 &&
	   hs_temp_digit(100, 64, 135) == 5 && hs_temp_digit(-1, 64, 135) == -1,
	   "digits scale from the coldest (0) to the hottest (9) range");
	ok(hs_temp_digit(255, 70, 70) == 9 && hs_temp_digit(0, 0, 0) == 0 &&
	   hs_temp_digit(128, 128, 128) == 4,
	   "equally hot ranges: the bucket scaled from 0-255");
	ok(hs_strip_width(64, 80) == 64 && hs_strip_width(1000, 80) == 78 &&
	   hs_strip_width(1000, 5) == 10 && hs_strip_width(0, 80) == 0,
	   "strip width: one cell per range, at most the terminal's width");

	for (i = 0; i < 64; i++)
		temps[i] = i >= 16 && i < 18 ? 135 : 64;
	temps[40] = -1;
	hs_strip_cells(temps, 64, cells, 64);
	hs_strip_text(buf, cells, 64, 64, 135);
	str_is(buf, "0000000000000000990000000000000000000000.00000000000000000000000",
	       "64 ranges, one hot stretch, one untracked");

	for (i = 0; i < 1000; i++)
		temps[i] = i < 500 ? -1 : 70;
	temps[700] = 200;
	hs_strip_cells(temps, 1000, cells, 10);
	hs_strip_text(buf, cells, 10, 70, 200);
	str_is(buf, ".....00900", "1000 ranges in 10 cells: the hottest of each");
	hs_strip_cells(temps, 3, cells, 3);
	ok(cells[0] == -1 && cells[2] == -1, "untracked ranges stay untracked");

	f = open_memstream(&out, &len);
	cells[0] = 70;
	cells[1] = 200;
	cells[2] = -1;
	hs_print_strip(f, cells, 3, 70, 200, false);
	hs_print_strip(f, cells, 3, 70, 200, true);
	cells[3] = 200;
	hs_print_strip(f, cells, 4, 70, 200, true);
	fclose(f);
	{
		char want[256];

		snprintf(want, sizeof(want), "|09.|\n|%s0%s9\033[0m.|\n"
			 "|%s0%s9\033[0m.%s9\033[0m|\n",
			 hs_digit_colour(0), hs_digit_colour(9),
			 hs_digit_colour(0), hs_digit_colour(9), hs_digit_colour(9));
		ok(!strcmp(out, want), "strip printed plain and in colour, "
		   "one escape sequence per run of a digit");
	}
	free(out);
}

/* --- paths.c --- */

static void test_paths(void)
{
	char dir[] = "/tmp/hotstat-paths-XXXXXX", p[4][256];
	struct stat st[3], d;
	struct hs_paths *ps;
	int i;

	if (!mkdtemp(dir)) {
		ok(0, "path cache (mkdtemp failed)");
		return;
	}
	snprintf(p[0], sizeof(p[0]), "%s/sub", dir);
	snprintf(p[1], sizeof(p[1]), "%s/sub/b", dir);
	snprintf(p[2], sizeof(p[2]), "%s/sub/z", dir);
	snprintf(p[3], sizeof(p[3]), "%s/sub/a-link", dir);
	mkdir(p[0], 0755);
	for (i = 1; i < 3; i++)
		close(open(p[i], O_CREAT | O_WRONLY, 0644));
	if (link(p[2], p[3]))
		p[3][0] = 0;
	stat(p[1], &st[0]);
	stat(p[2], &st[1]);
	stat(dir, &d);
	ps = hs_paths_new(dir, d.st_dev);
	ok(ps && hs_paths_count(ps) == 2, "path cache: two files, one with two links");
	str_is(hs_paths_lookup(ps, st[0].st_ino) ?: "(none)", p[1],
	       "path cache: a file's path");
	str_is(hs_paths_lookup(ps, st[1].st_ino) ?: "(none)", p[3][0] ? p[3] : p[2],
	       "path cache: the smallest path of a hard-linked file");
	ok(!hs_paths_lookup(ps, d.st_ino), "path cache: directories are not files");
	hs_paths_free(ps);
	for (i = 3; i > 0; i--)
		unlink(p[i]);
	rmdir(p[0]);
	rmdir(dir);
}

/* --- heatfile.c --- */

#define NOW	(1800000000ULL * 1000000000ULL)	/* 2027 */

static struct hot_record rec(bool range, uint64_t ino, uint32_t reads)
{
	struct hot_record r = {
		.key = ino, .ino = ino, .gen = 3,
		.num_reads = reads, .read_bytes = reads * 4096ULL,
		.last_read_time = NOW - 5000000000ULL,
		.avg_delta_reads = reads > 1 ? 1000000 : 0,
		.num_writes = 1, .write_bytes = 4096,
		.last_write_time = NOW - 9000000000ULL,
		.temp = 77u << 24,
	};

	if (range) {
		r.flags = HOT_RECORD_RANGE;
		r.start = 2ULL << 20;
		r.len = 1ULL << 20;
	}
	return r;
}

static struct hs_heat heat(uint64_t nf, uint64_t nr)
{
	struct hs_heat h = { .nr_files = nf, .nr_ranges = nr,
			     .saved_at = NOW - 60000000000ULL };

	for (int i = 0; i < 16; i++)
		h.uuid[i] = 0x10 + i;
	return h;
}

/* Open @path as a heat file; its exit status, the message in @why */
static int open_heat(const char *path, const char **why)
{
	struct hs_heat h;
	int ret = hs_heat_open(path, &h, NOW);

	if (!ret)
		hs_heat_close(&h);
	*why = hs_err;
	return ret;
}

/* Change @len bytes at @off of @path; truncate to @size if not -1 */
static void poke(const char *path, off_t off, const void *buf, size_t len,
		 off_t size)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return;
	if (len && pwrite(fd, buf, len, off) != (ssize_t)len)
		printf("# poke %s failed\n", path);
	if (size >= 0 && ftruncate(fd, size))
		printf("# truncate %s failed\n", path);
	close(fd);
}

static void test_heatfile(void)
{
	char dir[] = "/tmp/hotstat-heat-XXXXXX", path[256], copy[300];
	struct hot_record files[2], ranges[3], got[8], bad;
	struct hs_heat h = heat(2, 3), o;
	const char *why;
	struct stat st;
	uint32_t v;
	long n;
	int ret;

	ok(hs_crc32c(0, "123456789", 9) == 0xe3069283,
	   "CRC-32C of the standard check string");
	if (!mkdtemp(dir)) {
		ok(0, "heat file (mkdtemp failed)");
		return;
	}
	snprintf(path, sizeof(path), "%s/mnt.heat", dir);
	files[0] = rec(false, 12, 300);
	files[1] = rec(false, 13, 1);
	for (int i = 0; i < 3; i++) {
		ranges[i] = rec(true, 12, 10 - i);
		ranges[i].start = (uint64_t)i << 20;
	}
	ok(hs_heat_save(path, &h, files, ranges) == HS_OK &&
	   !stat(path, &st) && st.st_size == 64 + 5 * 104 + 4 &&
	   (st.st_mode & 0777) == 0600,
	   "heat file: saved, 64 + 5 * 104 + 4 bytes, mode 0600");
	{
		DIR *d = opendir(dir);
		struct dirent *e;
		int others = 0;

		while (d && (e = readdir(d)))
			others += e->d_name[0] != '.' && strcmp(e->d_name, "mnt.heat");
		if (d)
			closedir(d);
		ok(!others, "heat file: no temporary file left beside it");
	}
	ret = hs_heat_open(path, &o, NOW);
	ok(ret == HS_OK && o.nr_files == 2 && o.nr_ranges == 3 &&
	   o.saved_at == h.saved_at && !memcmp(o.uuid, h.uuid, 16) &&
	   o.version == 1, "heat file: the header read back");
	n = ret ? -1 : hs_heat_next(&o, got, 8);
	ok(n == 5 && !memcmp(got, files, sizeof(files)) &&
	   !memcmp(got + 2, ranges, sizeof(ranges)) &&
	   hs_heat_next(&o, got, 8) == 0,
	   "heat file: the records read back, files first, then the end");
	if (!ret)
		hs_heat_close(&o);

	/* Saved again over it: still one file */
	ok(hs_heat_save(path, &h, files, ranges) == HS_OK &&
	   open_heat(path, &why) == HS_OK, "heat file: saved over the old one");
	snprintf(copy, sizeof(copy), "%s/nodir/x.heat", dir);
	ok(hs_heat_save(copy, &h, files, ranges) == HS_ERR &&
	   stat(copy, &st), "heat file: a directory that is not there: "
	   "exit 1, nothing written");

#define BAD_FILE(what, want, setup) do {				\
		hs_heat_save(path, &h, files, ranges);			\
		setup;							\
		ret = open_heat(path, &why);				\
		if (!ok(ret == HS_EBADFILE && strstr(why, want),	\
			"heat file refused, exit 7: %s", what))		\
			printf("#   exit %d: %s\n", ret, why);		\
	} while (0)

	BAD_FILE("empty", "empty", poke(path, 0, NULL, 0, 0));
	BAD_FILE("truncated in the header", "not a heat file",
		 poke(path, 0, NULL, 0, 30));
	BAD_FILE("truncated in a record", "truncated",
		 poke(path, 0, NULL, 0, 64 + 104 + 50));
	BAD_FILE("no checksum", "truncated",
		 poke(path, 0, NULL, 0, 64 + 5 * 104));
	BAD_FILE("trailing bytes", "trailing bytes",
		 poke(path, 64 + 5 * 104 + 4, "x", 1, -1));
	BAD_FILE("not a heat file", "not a heat file",
		 poke(path, 0, "#!/bin/sh\n", 10, -1));
	v = 2;
	BAD_FILE("a future format version", "format version 2",
		 poke(path, 8, &v, 4, -1));
	BAD_FILE("a byte flipped in a record", "checksum mismatch",
		 poke(path, 64 + 104 + 40, "\x5a", 1, -1));
	BAD_FILE("a byte flipped in a count", "checksum mismatch",
		 poke(path, 64 + 2 * 104 + 84, "\x5a", 1, -1));
	BAD_FILE("a byte flipped in the header's UUID", "checksum mismatch",
		 poke(path, 50, "\x5a", 1, -1));
	v = 0;
	BAD_FILE("a byte flipped in the checksum", "checksum mismatch",
		 poke(path, 64 + 5 * 104, &v, 1, -1));

	/* Absurd records, checksummed all the same */
#define BAD_REC(what, i, field, value) do {				\
		struct hot_record f[2] = { files[0], files[1] };	\
		struct hot_record r[3] = { ranges[0], ranges[1], ranges[2] }; \
		bad = (i) < 2 ? f[i] : r[(i) - 2];			\
		bad.field = (value);					\
		if ((i) < 2)						\
			f[i] = bad;					\
		else							\
			r[(i) - 2] = bad;				\
		hs_heat_save(path, &h, f, r);				\
		ret = open_heat(path, &why);				\
		if (!ok(ret == HS_EBADFILE && strstr(why, "record " #i ":"), \
			"heat file refused, exit 7: %s", what))		\
			printf("#   exit %d: %s\n", ret, why);		\
	} while (0)

	BAD_REC("a time in the future", 1, last_read_time, NOW + 1);
	BAD_REC("inode number 0", 0, ino, 0);
	BAD_REC("key 0", 3, key, 0);
	BAD_REC("a range not aligned", 2, start, (1ULL << 20) + 4096);
	BAD_REC("a range of no size", 4, len, 0);
	BAD_REC("a range beyond the largest file", 4, start, 1ULL << 63);
	BAD_REC("reads without a time", 0, last_read_time, 0);
	BAD_REC("a time without reads", 0, num_reads, 0);
	BAD_REC("an average of one write", 1, avg_delta_writes, 7);
	BAD_REC("an average longer than the Epoch", 0, avg_delta_reads, ~0ULL);
	BAD_REC("unknown flags", 1, flags, 2);
	BAD_REC("reserved bits", 3, __reserved, 1);
	BAD_REC("a range among the files", 1, flags, HOT_RECORD_RANGE);
	BAD_REC("a file among the ranges", 2, flags, 0);
#undef BAD_REC
#undef BAD_FILE
	unlink(path);
	rmdir(dir);
}

/* --- the command line --- */

/* Run hotstat with @args; its exit status, stdout and stderr in @out */
static int run(const char *bin, char *out, size_t n, const char *const *args)
{
	char path[] = "/tmp/hotstat-cli-XXXXXX";
	const char *argv[16];
	int fd = mkstemp(path), status, i;
	ssize_t len;
	pid_t pid;

	out[0] = 0;
	if (fd < 0)
		return -1;
	unlink(path);
	argv[0] = bin;
	for (i = 0; args[i] && i < 14; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	len = pread(fd, out, n - 1, 0);
	out[len > 0 ? len : 0] = 0;
	close(fd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void test_cli(const char *bin)
{
	static const struct {
		const char *why;
		const char *args[8];
	} bad[] = {
		{ "no command", { NULL } },
		{ "unknown command", { "hot", "/" } },
		{ "top without a mount", { "top" } },
		{ "top with two", { "top", "/", "/tmp" } },
		{ "map without a file", { "map" } },
		{ "file without a file", { "file" } },
		{ "-n not a number", { "-n", "x", "top", "/" } },
		{ "-n negative", { "top", "-n", "-1", "/" } },
		{ "--watch 0", { "--watch", "0", "top", "/" } },
		{ "--watch junk", { "--watch", "1x", "top", "/" } },
		{ "--watch without seconds", { "top", "/", "--watch" } },
		{ "--json and --prometheus", { "--json", "--prometheus", "top", "/" } },
		{ "--live for top", { "--live", "top", "/" } },
		{ "--ranges for file", { "--ranges", "file", "/" } },
		{ "--prometheus for map", { "--prometheus", "map", "/" } },
		{ "--count without --watch", { "--count", "2", "top", "/" } },
		{ "--color junk", { "--color", "pink", "map", "/" } },
		{ "unknown option", { "--bogus", "top", "/" } },
		{ "save without a file", { "save", "/" } },
		{ "restore without a file", { "restore", "/" } },
		{ "restore with three", { "restore", "/", "a", "b" } },
		{ "--force for save", { "--force", "save", "/", "/tmp/x" } },
		{ "--watch for save", { "--watch", "1", "save", "/", "/tmp/x" } },
		{ "warm without a mount", { "warm" } },
		{ "warm with two", { "warm", "/", "/tmp" } },
		{ "--bytes 0", { "warm", "--bytes", "0", "/" } },
		{ "--bytes negative", { "warm", "--bytes", "-1", "/" } },
		{ "--bytes junk", { "warm", "--bytes", "lots", "/" } },
		{ "--bytes bad suffix", { "warm", "--bytes", "1X", "/" } },
		{ "--bytes overflow", { "warm", "--bytes", "99999999P", "/" } },
		{ "--bytes without a size", { "warm", "/", "--bytes" } },
		{ "--bytes for top", { "--bytes", "1M", "top", "/" } },
		{ "--from for restore", { "--from", "x", "restore", "/", "x" } },
		{ "--force for warm without --from", { "--force", "warm", "/" } },
		{ "--watch for warm", { "--watch", "1", "warm", "/" } },
		{ "advise without --fast", { "advise", "/" } },
		{ "--fast 0", { "advise", "--fast", "0", "/" } },
		{ "--fast junk", { "advise", "--fast", "1.5G", "/" } },
		{ "--fast for warm", { "--fast", "1G", "warm", "/" } },
		{ "advise without a mount", { "advise", "--fast", "1G" } },
	};
	char out[8192];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = run(bin, out, sizeof(out), bad[i].args);

		if (!ok(rc == HS_EUSAGE && strstr(out, "hotstat: ") &&
			strstr(out, "Try 'hotstat --help'"),
			"bad arguments, exit 2: %s", bad[i].why))
			printf("#   exit %d: %s", rc, out);
	}
	ok(run(bin, out, sizeof(out), (const char *[]){ "--help", NULL }) == 0 &&
	   strstr(out, "Usage: hotstat") && strstr(out, "Exit status"),
	   "--help");
	ok(run(bin, out, sizeof(out), (const char *[]){ "-V", NULL }) == 0 &&
	   !strncmp(out, "hotstat ", 8), "--version");
}

static void test_man(const char *man)
{
	char cmd[1024];
	int rc;

	if (system("command -v groff >/dev/null 2>&1")) {
		printf("ok %d - man page renders # SKIP no groff\n", ++ntest);
		return;
	}
	/* -ww: every warning; -z: no output; any message fails */
	snprintf(cmd, sizeof(cmd), "out=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "
		 "'%s' 2>&1) && [ -z \"$out\" ] || { echo \"$out\" | sed 's/^/#   /'; "
		 "exit 1; }", man);
	rc = system(cmd);
	ok(rc == 0, "man page renders without warnings");
}

/*
 * The systemd units, with this hotstat for @SBINDIR@, instantiated for
 * /srv, as systemd-analyze verify sees them: any message fails
 */
static void test_units(const char *bin, const char *dir)
{
	char cmd[2048];
	int rc;

	if (system("command -v systemd-analyze >/dev/null 2>&1")) {
		printf("ok %d - systemd units verify # SKIP no systemd-analyze\n",
		       ++ntest);
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "t=$(mktemp -d) && trap 'rm -rf \"$t\"' EXIT && "
		 "b=$(cd \"$(dirname '%s')\" && pwd) && "
		 "for u in '%s'/*@.*; do n=$(basename \"$u\"); "
		 "sed \"s|@SBINDIR@|$b|g\" \"$u\" > \"$t/${n%%@.*}@srv.${n##*.}\"; done && "
		 "grep -q '^ExecStart=.*hotstat restore \"/%%I\"' \"$t/hotstat@srv.service\" && "
		 "grep -q '^ExecStop=.*hotstat save /%%I ' \"$t/hotstat@srv.service\" && "
		 "out=$(cd \"$t\" && systemd-analyze verify --man=no ./*.service ./*.timer 2>&1) && "
		 "[ -z \"$out\" ] || { echo \"$out\" | sed 's/^/#   /'; exit 1; }",
		 bin, dir);
	rc = system(cmd);
	ok(rc == 0, "systemd units verify clean, restore at start, save at stop");
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s HOTSTAT MAN_PAGE UNIT_DIR\n", argv[0]);
		return 2;
	}
	printf("TAP version 13\n");
	test_parse_numbers();
	test_parse_mountinfo();
	test_durations();
	test_times();
	test_sizes();
	test_json();
	test_prometheus();
	test_strip();
	test_paths();
	test_heatfile();
	test_cli(argv[1]);
	test_man(argv[2]);
	test_units(argv[1], argv[3]);
	printf("1..%d\n", ntest);
	if (nfail)
		printf("# %d of %d failed\n", nfail, ntest);
	return nfail ? 1 : 0;
}
