// SPDX-License-Identifier: GPL-2.0
/*
 * hotstat: which files, and which parts of them, are hot right now.
 *
 *   hotstat file [--live] PATH...
 *   hotstat top [-n N] [--ranges] [--prometheus] PATH
 *   hotstat map PATH
 *   any of them with --json, --watch SECONDS [--count N]
 *   hotstat save MOUNTPOINT FILE
 *   hotstat restore [--force] MOUNTPOINT FILE
 *   hotstat warm [--bytes N] [--from FILE [--force]] MOUNTPOINT
 *   hotstat advise --fast SIZE MOUNTPOINT
 *
 * See hotstat.8.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/hot_tracking.h>

#include "hotstat.h"

#define VERSION "1.2"

/* The "version" of the JSON documents: 2 has FS_IOC_HOT_LIST's fields */
#define JSON_VERSION 2

static const char usage_text[] =
"Usage: hotstat [OPTIONS] COMMAND ARGS...\n"
"Show what the kernel's hot data tracking (mount -o hot_track) finds hot.\n"
"\n"
"Commands:\n"
"  file [--live] PATH...   heat of each file (FS_IOC_GET_HEAT_INFO): counts,\n"
"                          last read/write, average intervals, temperature\n"
"  top [-n N] [--ranges] [--prometheus] MOUNTPOINT\n"
"                          the hottest files (or 1 MiB ranges) of a mount, with\n"
"                          paths and sizes (FS_IOC_HOT_LIST; root only)\n"
"  map PATH                one cell per range of a file, its temperature as a\n"
"                          digit 0 (coldest) to 9 (hottest), with a legend\n"
"  save MOUNTPOINT FILE    write the heat of the mount's files and ranges to\n"
"                          FILE, atomically (root only)\n"
"  restore [--force] MOUNTPOINT FILE\n"
"                          load the heat FILE holds into the mount, after a\n"
"                          remount or a reboot (root only)\n"
"  warm [--bytes N] [--from FILE] MOUNTPOINT\n"
"                          read the hottest ranges into the page cache, hottest\n"
"                          first, without heating them (root only)\n"
"  advise --fast SIZE MOUNTPOINT\n"
"                          which files and ranges a fast device of SIZE bytes\n"
"                          should hold, and the share of the I/O on record it\n"
"                          would have served (root only)\n"
"\n"
"Options:\n"
"  --live             file: recompute the temperature now, not the value of\n"
"                     the last periodic update\n"
"  -n, --top N        top: show N entries (default 10, 0: all)\n"
"  -r, --ranges       top: ranges instead of files\n"
"  -p, --prometheus   top: node_exporter textfile collector format\n"
"  -j, --json         JSON, one document per line (per refresh with --watch)\n"
"  -w, --watch SECS   refresh every SECS seconds (like top; ^C ends)\n"
"  -c, --count N      with --watch: stop after N refreshes\n"
"      --width COLS   map: terminal width (default: the terminal's, $COLUMNS, 80)\n"
"      --color WHEN   auto (default: on a terminal), always or never\n"
"      --force        restore, warm: from a file of another filesystem too\n"
"      --bytes N      warm: stop once N bytes are cached (K, M, G, T suffixes;\n"
"                     default: half of MemAvailable)\n"
"      --from FILE    warm: the heat of a heat file (save), not the live heat\n"
"      --fast SIZE    advise: the size of the fast device (K, M, G, T)\n"
"  -h, --help         this help\n"
"  -V, --version      the version\n"
"\n"
"Exit status: 0 ok; 1 other failure (e.g. no such file); 2 bad arguments;\n"
"3 not mounted with hot_track (or no hot tracking in the kernel); 4 file never\n"
"tracked; 6 permission denied (top, map, save, restore, warm and advise need\n"
"root); 7 heat\n"
"file corrupt, truncated, of another version or of another filesystem.\n"
"See hotstat(8).\n";

static struct {
	int json, prometheus, ranges, live, colour, width, count, top_set;
	int force;
	uint64_t bytes, fast;
	const char *from;
	unsigned int top;
	double watch;
} opt = { .top = 10, .colour = -1 };

static volatile sig_atomic_t stop;
static struct hs_paths *paths;
static time_t paths_time;
static uint64_t now;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

__attribute__((format(printf, 1, 2), noreturn))
static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("hotstat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'hotstat --help'.\n", stderr);
	exit(HS_EUSAGE);
}

static int report(int code)
{
	if (code)
		fprintf(stderr, "hotstat: %s\n", hs_err);
	return code;
}

static int columns(void)
{
	struct winsize ws;
	const char *c;
	unsigned int v;

	if (opt.width)
		return opt.width;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 0)
		return ws.ws_col;
	c = getenv("COLUMNS");
	if (c && !hs_parse_uint(c, 20, 10000, &v))
		return v;
	return 80;
}

/* --- file --- */

/*
 * The kernel's average interval, HS_NEVER before two I/Os: it is 0 until
 * the second sets it (older kernels reported ~0 before the first)
 */
static uint64_t hs_avg(uint32_t count, uint64_t avg)
{
	return count < 2 ? HS_NEVER : avg;
}

static void file_json(struct hs_json *j, const char *path,
		      const struct hot_heat_info *hi, uint64_t ino, int code)
{
	char iso[64];

	hs_json_begin_obj(j);
	hs_json_key(j, "version");
	hs_json_u64(j, JSON_VERSION);
	hs_json_key(j, "path");
	hs_json_str(j, path);
	if (code) {
		hs_json_key(j, "error");
		hs_json_str(j, hs_err);
		hs_json_key(j, "exit");
		hs_json_u64(j, code);
		hs_json_end_obj(j);
		return;
	}
	hs_json_key(j, "inode");
	hs_json_u64(j, ino);
	hs_json_key(j, "reads");
	hs_json_u64(j, hi->num_reads);
	hs_json_key(j, "writes");
	hs_json_u64(j, hi->num_writes);
	hs_json_key(j, "last_read_ns");
	hs_json_u64(j, hi->last_read_time);
	hs_json_key(j, "last_read");
	if (hi->last_read_time)
		hs_json_str(j, hs_fmt_iso(iso, sizeof(iso), hi->last_read_time));
	else
		hs_json_null(j);
	hs_json_key(j, "last_write_ns");
	hs_json_u64(j, hi->last_write_time);
	hs_json_key(j, "last_write");
	if (hi->last_write_time)
		hs_json_str(j, hs_fmt_iso(iso, sizeof(iso), hi->last_write_time));
	else
		hs_json_null(j);
	hs_json_key(j, "avg_read_interval_ns");
	if (hs_avg(hi->num_reads, hi->avg_delta_reads) == HS_NEVER)
		hs_json_null(j);
	else
		hs_json_u64(j, hi->avg_delta_reads);
	hs_json_key(j, "avg_write_interval_ns");
	if (hs_avg(hi->num_writes, hi->avg_delta_writes) == HS_NEVER)
		hs_json_null(j);
	else
		hs_json_u64(j, hi->avg_delta_writes);
	/* false: the kernel's average still carries its seed (hotstat.8) */
	hs_json_key(j, "avg_intervals_settled");
	hs_json_bool(j, (hi->avg_delta_reads == HS_NEVER ||
			 hi->avg_delta_reads <= hs_interval_limit_ns()) &&
			(hi->avg_delta_writes == HS_NEVER ||
			 hi->avg_delta_writes <= hs_interval_limit_ns()));
	hs_json_key(j, "temperature");
	hs_json_u64(j, hi->temp);
	hs_json_key(j, "bucket");
	hs_json_u64(j, hi->temp >> 24);
	hs_json_key(j, "live");
	hs_json_bool(j, hi->live);
	hs_json_end_obj(j);
}

static void file_text(const char *path, const struct hot_heat_info *hi)
{
	uint64_t limit = hs_interval_limit_ns();
	char t[96], d[64];

	printf("%s\n", path);
	printf("  reads        %10u   last %-36s average interval %s\n",
	       hi->num_reads, hs_fmt_time(t, sizeof(t), hi->last_read_time, now),
	       hs_fmt_interval(d, sizeof(d),
			       hs_avg(hi->num_reads, hi->avg_delta_reads),
			       limit));
	printf("  writes       %10u   last %-36s average interval %s\n",
	       hi->num_writes, hs_fmt_time(t, sizeof(t), hi->last_write_time, now),
	       hs_fmt_interval(d, sizeof(d),
			       hs_avg(hi->num_writes, hi->avg_delta_writes),
			       limit));
	printf("  temperature  %10u   heat map bucket %u of 255, %s\n", hi->temp,
	       hi->temp >> 24, hi->live ? "computed now (--live)" :
	       "as of the last periodic update");
}

static int cmd_file(int argc, char **argv)
{
	struct hs_json j;
	int i, ret = 0;

	hs_json_init(&j, stdout);
	if (opt.json)
		hs_json_begin_arr(&j);
	for (i = 0; i < argc; i++) {
		struct hot_heat_info hi;
		struct stat st;
		int code = hs_heat_info(argv[i], opt.live, &hi);

		if (!code && stat(argv[i], &st))
			st.st_ino = 0;
		if (opt.json)
			file_json(&j, argv[i], &hi, st.st_ino, code);
		else if (!code)
			file_text(argv[i], &hi);
		if (code) {
			report(code);
			if (!ret)
				ret = code;
		}
	}
	if (opt.json) {
		hs_json_end_arr(&j);
		hs_json_end(&j);
	}
	return ret;
}

/* --- top --- */

static int by_key(const void *a, const void *b)
{
	const struct hs_item *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Hottest first; equal buckets by I/O count, then by key */
static int by_heat(const void *a, const void *b)
{
	const struct hs_item *x = a, *y = b;
	uint64_t ix = (uint64_t)x->reads + x->writes;
	uint64_t iy = (uint64_t)y->reads + y->writes;

	if (x->temp != y->temp)
		return x->temp > y->temp ? -1 : 1;
	if (ix != iy)
		return ix > iy ? -1 : 1;
	return by_key(a, b);
}

/* The tracked files or ranges of a mount, each once, hottest first */
static int hot_spots(const struct hs_mount *m, bool ranges,
		     struct hs_item **items, size_t *n)
{
	int ret;

	ret = hs_list_items(m, ranges, items, n);
	if (ret || !*n)
		return ret;
	qsort(*items, *n, sizeof(**items), by_heat);
	return 0;
}

/* The path of inode @ino: walk the mount once, again if a name is missing */
static const char *path_of(const struct hs_mount *m, uint64_t ino)
{
	const char *p = hs_paths_lookup(paths, ino);
	time_t t = time(NULL);

	if (p)
		return p;
	if (paths && t - paths_time < 30)
		return NULL;
	hs_paths_free(paths);
	paths = hs_paths_new(m->path, m->dev);
	paths_time = t;
	return hs_paths_lookup(paths, ino);
}

static void prom_metric(const struct hs_mount *m, const struct hs_item *v,
			size_t n, const char *name, const char *help,
			const char *type, int what)
{
	char num[32];
	size_t i;

	printf("# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
	for (i = 0; i < n; i++) {
		const char *p = path_of(m, v[i].ino);

		printf("%s{", name);
		hs_prom_label(stdout, "mountpoint", m->path, true);
		hs_prom_label(stdout, "device", m->devname, false);
		snprintf(num, sizeof(num), "%" PRIu64, v[i].ino);
		hs_prom_label(stdout, "inode", num, false);
		hs_prom_label(stdout, "path", p ? p : "", false);
		if (opt.ranges) {
			snprintf(num, sizeof(num), "%" PRIu64, v[i].start);
			hs_prom_label(stdout, "offset", num, false);
			snprintf(num, sizeof(num), "%" PRIu64, v[i].len);
			hs_prom_label(stdout, "length", num, false);
		}
		printf("} %" PRIu64 "\n", what == 0 ? (uint64_t)v[i].temp :
		       what == 1 ? (uint64_t)v[i].reads : (uint64_t)v[i].writes);
	}
}

static void top_prometheus(const struct hs_mount *m, const struct hs_item *v,
			   size_t shown, size_t total)
{
	const char *what = opt.ranges ? "range" : "file";
	char name[64], help[160];

	snprintf(name, sizeof(name), "hotstat_%s_temperature", what);
	snprintf(help, sizeof(help), "Heat map bucket (0-255, hotter is higher) "
		 "of a tracked %s at the last periodic update.", what);
	prom_metric(m, v, shown, name, help, "gauge", 0);
	snprintf(name, sizeof(name), "hotstat_%s_reads_total", what);
	snprintf(help, sizeof(help), "Reads of a tracked %s that reached the "
		 "storage.", what);
	prom_metric(m, v, shown, name, help, "counter", 1);
	snprintf(name, sizeof(name), "hotstat_%s_writes_total", what);
	snprintf(help, sizeof(help), "Writes of a tracked %s that reached the "
		 "storage.", what);
	prom_metric(m, v, shown, name, help, "counter", 2);
	snprintf(name, sizeof(name), "hotstat_tracked_%ss", what);
	printf("# HELP %s Number of %ss hot data tracking keeps on the mount.\n"
	       "# TYPE %s gauge\n%s{", name, what, name, name);
	hs_prom_label(stdout, "mountpoint", m->path, true);
	hs_prom_label(stdout, "device", m->devname, false);
	printf("} %zu\n", total);
}

static void top_json(const struct hs_mount *m, const struct hs_item *v,
		     size_t shown, size_t total, int delay)
{
	struct hs_json j;
	char iso[64];
	size_t i;

	hs_json_init(&j, stdout);
	hs_json_begin_obj(&j);
	hs_json_key(&j, "version");
	hs_json_u64(&j, JSON_VERSION);
	hs_json_key(&j, "mountpoint");
	hs_json_str(&j, m->path);
	hs_json_key(&j, "fstype");
	hs_json_str(&j, m->fstype);
	hs_json_key(&j, "source");
	hs_json_str(&j, m->source);
	hs_json_key(&j, "time");
	hs_json_str(&j, hs_fmt_iso(iso, sizeof(iso), now));
	hs_json_key(&j, "update_delay_s");
	if (delay < 0)
		hs_json_null(&j);
	else
		hs_json_u64(&j, delay);
	hs_json_key(&j, "kind");
	hs_json_str(&j, opt.ranges ? "ranges" : "files");
	hs_json_key(&j, "tracked");
	hs_json_u64(&j, total);
	hs_json_key(&j, "items");
	hs_json_begin_arr(&j);
	for (i = 0; i < shown; i++) {
		const char *p = path_of(m, v[i].ino);
		struct stat st;

		hs_json_begin_obj(&j);
		hs_json_key(&j, "rank");
		hs_json_u64(&j, i + 1);
		hs_json_key(&j, "inode");
		hs_json_u64(&j, v[i].ino);
		hs_json_key(&j, "path");
		if (p)
			hs_json_str(&j, p);
		else
			hs_json_null(&j);
		if (opt.ranges) {
			hs_json_key(&j, "offset");
			hs_json_u64(&j, v[i].start);
			hs_json_key(&j, "length");
			hs_json_u64(&j, v[i].len);
		} else {
			hs_json_key(&j, "size");
			if (p && !stat(p, &st))
				hs_json_u64(&j, st.st_size);
			else
				hs_json_null(&j);
		}
		hs_json_key(&j, "generation");
		hs_json_u64(&j, v[i].gen);
		hs_json_key(&j, "reads");
		hs_json_u64(&j, v[i].reads);
		hs_json_key(&j, "writes");
		hs_json_u64(&j, v[i].writes);
		hs_json_key(&j, "read_bytes");
		hs_json_u64(&j, v[i].read_bytes);
		hs_json_key(&j, "write_bytes");
		hs_json_u64(&j, v[i].write_bytes);
		hs_json_key(&j, "temp");
		hs_json_u64(&j, v[i].temp);
		hs_json_end_obj(&j);
	}
	hs_json_end_arr(&j);
	hs_json_end_obj(&j);
	hs_json_end(&j);
}

static void top_text(const struct hs_mount *m, const struct hs_item *v,
		     size_t shown, size_t total, int delay)
{
	char a[32], b[32], when[64];
	time_t t = now / 1000000000ULL;
	struct tm tm;
	size_t i;

	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	printf("%s: %s on %s, %zu %s tracked, heat maps updated every ",
	       m->path, m->fstype, m->source, total,
	       opt.ranges ? "ranges" : "files");
	if (delay < 0)
		printf("? s  %s\n", when);
	else
		printf("%ds  %s\n", delay, when);
	if (opt.ranges)
		printf("%4s %4s %8s %7s %10s %8s  %s\n", "RANK", "TEMP", "READS",
		       "WRITES", "OFFSET", "LENGTH", "PATH");
	else
		printf("%4s %4s %8s %7s %10s  %s\n", "RANK", "TEMP", "READS",
		       "WRITES", "SIZE", "PATH");
	for (i = 0; i < shown; i++) {
		const char *p = path_of(m, v[i].ino);
		char name[48];
		struct stat st;

		snprintf(name, sizeof(name), "(inode %" PRIu64 ", no path)",
			 v[i].ino);
		printf("%4zu %4u %8u %7u ", i + 1, v[i].temp, v[i].reads,
		       v[i].writes);
		if (opt.ranges)
			printf("%10s %8s", hs_fmt_size(a, sizeof(a), v[i].start),
			       hs_fmt_size(b, sizeof(b), v[i].len));
		else
			printf("%10s", p && !stat(p, &st) ?
			       hs_fmt_size(a, sizeof(a), st.st_size) : "-");
		printf("  %s\n", p ? p : name);
	}
	if (!total)
		printf("(nothing tracked yet: no I/O has reached the storage)\n");
}

static int cmd_top(const char *path)
{
	struct hs_mount m;
	struct hs_item *v;
	size_t n, shown;
	int ret;

	ret = hs_find_mount(path, &m);
	if (ret)
		return report(ret);
	ret = hot_spots(&m, opt.ranges, &v, &n);
	if (ret)
		return report(ret);
	shown = opt.top && opt.top < n ? opt.top : n;
	if (opt.prometheus)
		top_prometheus(&m, v, shown, n);
	else if (opt.json)
		top_json(&m, v, shown, n, hs_update_delay());
	else
		top_text(&m, v, shown, n, hs_update_delay());
	free(v);
	return 0;
}

/* --- map --- */

/* What --watch saw of each range: when its counts last changed */
static struct {
	uint64_t ino;
	size_t n;
	uint64_t *ios;
	uint64_t *changed;	/* ns; 0: not seen changing */
} seen;

static void seen_update(uint64_t ino, const struct hs_item *r, size_t nr,
			size_t nranges, uint64_t range)
{
	size_t i;

	if (seen.ino != ino || seen.n < nranges) {
		uint64_t *a = calloc(nranges, sizeof(*a));
		uint64_t *b = calloc(nranges, sizeof(*b));

		if (!a || !b) {
			free(a);
			free(b);
			return;
		}
		if (seen.ino == ino && seen.n) {
			memcpy(a, seen.ios, seen.n * sizeof(*a));
			memcpy(b, seen.changed, seen.n * sizeof(*b));
		}
		free(seen.ios);
		free(seen.changed);
		seen.ios = a;
		seen.changed = b;
		seen.n = nranges;
		seen.ino = ino;
		for (i = 0; i < nr; i++)	/* the first look: a baseline */
			a[r[i].start / range] = (uint64_t)r[i].reads + r[i].writes + 1;
		return;
	}
	for (i = 0; i < nr; i++) {
		size_t k = r[i].start / range;
		uint64_t io = (uint64_t)r[i].reads + r[i].writes + 1;

		if (seen.ios[k] && seen.ios[k] != io)
			seen.changed[k] = now;
		seen.ios[k] = io;
	}
}

struct stretch {
	size_t first, last;	/* range indexes */
	int temp;
	uint64_t reads, writes, changed;
};

static int by_stretch_heat(const void *a, const void *b)
{
	const struct stretch *x = a, *y = b;

	if (x->temp != y->temp)
		return x->temp > y->temp ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static int cmd_map(const char *path)
{
	struct hs_item *v = NULL, *r;
	struct hot_heat_info hi;
	struct stretch *hot = NULL;
	size_t n, nr = 0, i, k, nranges, ncells, nhot = 0;
	int *temps = NULL, *cells = NULL, min = 255, max = 0, ret, hiret;
	uint64_t range = HS_RANGE_DEFAULT, maxend = 0;
	uint64_t *rd = NULL, *wr = NULL;
	bool colour;
	struct hs_mount m;
	struct stat st;
	char a[32], b[32], c[96];

	if (stat(path, &st)) {
		snprintf(hs_err, sizeof(hs_err), "%s: %s", path, strerror(errno));
		return report(HS_ERR);
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(hs_err, sizeof(hs_err), "%s: not a regular file: only "
			 "regular files are tracked", path);
		return report(HS_ENODATA);
	}
	ret = hs_find_mount(path, &m);
	if (ret)
		return report(ret);
	hiret = hs_heat_info(path, 0, &hi);
	if (hiret && hiret != HS_ENODATA)
		return report(hiret);
	ret = hs_list_items(&m, true, &v, &n);
	if (ret)
		return report(ret);
	qsort(v, n, sizeof(*v), by_key);
	for (i = 0; i < n && v[i].ino != st.st_ino; i++)
		;
	r = v + i;
	while (i + nr < n && v[i + nr].ino == st.st_ino)
		nr++;
	if (!nr) {
		free(v);
		if (hiret)
			return report(hiret);
		snprintf(hs_err, sizeof(hs_err), "%s: no range tracked (the "
			 "file's ranges were forgotten or never had I/O)", path);
		return report(HS_ENODATA);
	}
	range = r[0].len;
	for (i = 0; i < nr; i++) {
		if (r[i].len != range || r[i].start % range) {
			free(v);
			snprintf(hs_err, sizeof(hs_err), "%s: ranges of "
				 "different sizes", path);
			return report(HS_ERR);
		}
		if (r[i].start + range > maxend)
			maxend = r[i].start + range;
	}
	nranges = (st.st_size + range - 1) / range;
	if (maxend / range > nranges)
		nranges = maxend / range;
	ncells = hs_strip_width(nranges, columns());
	temps = malloc(nranges * sizeof(*temps));
	rd = calloc(nranges, sizeof(*rd));
	wr = calloc(nranges, sizeof(*wr));
	cells = malloc(ncells * sizeof(*cells));
	hot = calloc(nranges, sizeof(*hot));
	if (!temps || !cells || !hot || !rd || !wr) {
		ret = HS_ERR;
		snprintf(hs_err, sizeof(hs_err), "out of memory");
		goto out;
	}
	for (i = 0; i < nranges; i++)
		temps[i] = -1;
	for (i = 0; i < nr; i++) {
		k = r[i].start / range;
		temps[k] = r[i].temp;
		rd[k] = r[i].reads;
		wr[k] = r[i].writes;
		if ((int)r[i].temp < min)
			min = r[i].temp;
		if ((int)r[i].temp > max)
			max = r[i].temp;
	}
	if (opt.watch)
		seen_update(st.st_ino, r, nr, nranges, range);
	hs_strip_cells(temps, nranges, cells, ncells);

	/* Hot stretches: runs of ranges of digit 7 or more */
	for (i = 0; max > min && i < nranges; i++) {
		struct stretch *s;

		if (hs_temp_digit(temps[i], min, max) < 7)
			continue;
		if (nhot && hot[nhot - 1].last + 1 == i) {
			s = &hot[nhot - 1];
		} else {
			s = &hot[nhot++];
			s->first = i;
		}
		s->last = i;
		if (temps[i] > s->temp)
			s->temp = temps[i];
		s->reads += rd[i];
		s->writes += wr[i];
		if (seen.ino == st.st_ino && i < seen.n &&
		    seen.changed[i] > s->changed)
			s->changed = seen.changed[i];
	}
	qsort(hot, nhot, sizeof(*hot), by_stretch_heat);

	if (opt.json) {
		struct hs_json j;
		char *strip = malloc(ncells + 1);

		if (!strip) {
			ret = HS_ERR;
			snprintf(hs_err, sizeof(hs_err), "out of memory");
			goto out;
		}
		hs_strip_text(strip, cells, ncells, min, max);
		hs_json_init(&j, stdout);
		hs_json_begin_obj(&j);
		hs_json_key(&j, "version");
		hs_json_u64(&j, JSON_VERSION);
		hs_json_key(&j, "path");
		hs_json_str(&j, path);
		hs_json_key(&j, "inode");
		hs_json_u64(&j, st.st_ino);
		hs_json_key(&j, "size");
		hs_json_u64(&j, st.st_size);
		hs_json_key(&j, "range_size");
		hs_json_u64(&j, range);
		hs_json_key(&j, "ranges");
		hs_json_u64(&j, nranges);
		hs_json_key(&j, "tracked");
		hs_json_u64(&j, nr);
		hs_json_key(&j, "min_temp");
		hs_json_u64(&j, min);
		hs_json_key(&j, "max_temp");
		hs_json_u64(&j, max);
		hs_json_key(&j, "ranges_per_cell");
		hs_json_double(&j, (double)nranges / ncells);
		hs_json_key(&j, "strip");
		hs_json_str(&j, strip);
		hs_json_key(&j, "hot");
		hs_json_begin_arr(&j);
		for (i = 0; i < nhot; i++) {
			hs_json_begin_obj(&j);
			hs_json_key(&j, "offset");
			hs_json_u64(&j, hot[i].first * range);
			hs_json_key(&j, "length");
			hs_json_u64(&j, (hot[i].last - hot[i].first + 1) * range);
			hs_json_key(&j, "temp");
			hs_json_u64(&j, hot[i].temp);
			hs_json_key(&j, "reads");
			hs_json_u64(&j, hot[i].reads);
			hs_json_key(&j, "writes");
			hs_json_u64(&j, hot[i].writes);
			hs_json_end_obj(&j);
		}
		hs_json_end_arr(&j);
		hs_json_key(&j, "range_list");
		hs_json_begin_arr(&j);
		for (i = 0; i < nr; i++) {
			hs_json_begin_obj(&j);
			hs_json_key(&j, "offset");
			hs_json_u64(&j, r[i].start);
			hs_json_key(&j, "reads");
			hs_json_u64(&j, r[i].reads);
			hs_json_key(&j, "writes");
			hs_json_u64(&j, r[i].writes);
			hs_json_key(&j, "temp");
			hs_json_u64(&j, r[i].temp);
			hs_json_key(&j, "digit");
			hs_json_u64(&j, hs_temp_digit(r[i].temp, min, max));
			hs_json_end_obj(&j);
		}
		hs_json_end_arr(&j);
		hs_json_key(&j, "file");
		if (hiret) {
			hs_json_null(&j);
		} else {
			file_json(&j, path, &hi, st.st_ino, 0);
		}
		hs_json_end_obj(&j);
		hs_json_end(&j);
		free(strip);
		goto out;
	}

	colour = opt.colour;
	printf("%s: %s, %zu ranges of %s, %zu tracked", path,
	       hs_fmt_size(a, sizeof(a), st.st_size), nranges,
	       hs_fmt_size(b, sizeof(b), range), nr);
	if (ncells < nranges)
		printf("; one cell = %.1f ranges (the hottest of them)",
		       (double)nranges / ncells);
	else
		printf("; one cell = one range");
	printf("\n");
	hs_print_strip(stdout, cells, ncells, min, max, colour);
	hs_fmt_size(a, sizeof(a), nranges * range);
	printf(" 0%*s\n", (int)(ncells > strlen(a) ? ncells - 1 : strlen(a) + 1), a);
	if (max > min)
		printf("temperature (heat map bucket 0-255): 0 = %d, the coldest "
		       "range .. 9 = %d, the hottest", min, max);
	else
		printf("temperature (heat map bucket 0-255): every range %d, "
		       "digit = bucket * 9 / 255", min);
	printf("; '.' = not tracked\n");
	if (colour) {
		printf("colours:");
		for (i = 0; i < 10; i++)
			printf(" %s%zu\033[0m", hs_digit_colour(i), i);
		printf("\n");
	}
	if (!nhot && max > min)
		printf("no hot stretch\n");
	for (i = 0; i < nhot && i < 5; i++) {
		size_t len = hot[i].last - hot[i].first + 1;

		printf("hot: %s..%s (%zu range%s), bucket %d, %" PRIu64 " reads, %"
		       PRIu64 " writes", hs_fmt_size(a, sizeof(a), hot[i].first * range),
		       hs_fmt_size(b, sizeof(b), (hot[i].last + 1) * range), len,
		       len == 1 ? "" : "s", hot[i].temp, hot[i].reads, hot[i].writes);
		if (opt.watch && hot[i].changed)
			printf(", touched %s", hs_fmt_ago(c, sizeof(c),
							  hot[i].changed, now));
		else if (opt.watch)
			printf(", untouched while watched");
		printf("\n");
	}
	if (nhot > 5)
		printf("... and %zu more hot stretches (--json lists all)\n", nhot - 5);
	if (!hiret) {
		uint64_t last = hi.last_read_time > hi.last_write_time ?
				hi.last_read_time : hi.last_write_time;

		printf("file: %u reads, %u writes, last I/O %s, bucket %u",
		       hi.num_reads, hi.num_writes,
		       hs_fmt_ago(c, sizeof(c), last, now), hi.temp >> 24);
		if (nhot && !opt.watch)
			printf(" (the kernel shows no time per range: "
			       "--watch tells which stretch changes)");
		printf("\n");
	}
out:
	free(v);
	free(temps);
	free(cells);
	free(hot);
	free(rd);
	free(wr);
	return ret ? report(ret) : 0;
}

/* --- save and restore --- */

static void uuid_text(char *buf, const uint8_t u[16])
{
	static const int dash = 0x2a8;	/* after bytes 3, 5, 7, 9 */
	int i;

	for (i = 0; i < 16; i++)
		buf += sprintf(buf, "%02x%s", u[i], dash >> i & 1 ? "-" : "");
}

static int cmd_save(const char *path, const char *file)
{
	struct hot_record *files = NULL, *ranges = NULL;
	struct hs_heat h = { 0 };
	struct hs_mount m;
	char size[32], uuid[40];
	struct stat st;
	int ret;

	ret = hs_find_mount(path, &m);
	if (!ret)
		ret = hs_fs_uuid(&m, h.uuid);
	if (!ret)
		ret = hs_list_records(&m, false, &files, &h.nr_files);
	if (!ret)
		ret = hs_list_records(&m, true, &ranges, &h.nr_ranges);
	if (!ret) {
		h.saved_at = hs_now_ns();
		ret = hs_heat_save(file, &h, files, ranges);
	}
	free(files);
	free(ranges);
	if (ret)
		return report(ret);
	if (stat(file, &st))
		st.st_size = 0;
	uuid_text(uuid, h.uuid);
	if (opt.json) {
		struct hs_json j;

		hs_json_init(&j, stdout);
		hs_json_begin_obj(&j);
		hs_json_key(&j, "version");
		hs_json_u64(&j, JSON_VERSION);
		hs_json_key(&j, "mount");
		hs_json_str(&j, m.path);
		hs_json_key(&j, "file");
		hs_json_str(&j, file);
		hs_json_key(&j, "uuid");
		hs_json_str(&j, uuid);
		hs_json_key(&j, "files");
		hs_json_u64(&j, h.nr_files);
		hs_json_key(&j, "ranges");
		hs_json_u64(&j, h.nr_ranges);
		hs_json_key(&j, "bytes");
		hs_json_u64(&j, st.st_size);
		hs_json_end_obj(&j);
		hs_json_end(&j);
	} else {
		printf("saved %" PRIu64 " files and %" PRIu64 " ranges of %s "
		       "(filesystem %s) to %s, %s\n", h.nr_files, h.nr_ranges,
		       m.path, uuid, file,
		       hs_fmt_size(size, sizeof(size), st.st_size));
	}
	return 0;
}

/* Records of a batch by file, so that the kernel finds each file once */
static int by_file(const void *a, const void *b)
{
	const struct hot_record *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	/* A file before its ranges: its item is there for them to join */
	if ((x->flags ^ y->flags) & HOT_RECORD_RANGE)
		return x->flags & HOT_RECORD_RANGE ? 1 : -1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static void restore_report(const struct hs_mount *m, const char *file,
			   const struct hs_heat *h,
			   const struct hs_restore_counts *c)
{
	char when[64], ago[64];

	if (opt.json) {
		struct hs_json j;

		hs_json_init(&j, stdout);
		hs_json_begin_obj(&j);
		hs_json_key(&j, "version");
		hs_json_u64(&j, JSON_VERSION);
		hs_json_key(&j, "mount");
		hs_json_str(&j, m->path);
		hs_json_key(&j, "file");
		hs_json_str(&j, file);
		hs_json_key(&j, "saved_at");
		hs_json_str(&j, hs_fmt_iso(when, sizeof(when), h->saved_at));
		hs_json_key(&j, "records");
		hs_json_u64(&j, h->nr_files + h->nr_ranges);
		hs_json_key(&j, "applied");
		hs_json_u64(&j, c->applied);
		hs_json_key(&j, "stale");
		hs_json_u64(&j, c->stale);
		hs_json_key(&j, "expired");
		hs_json_u64(&j, c->expired);
		hs_json_key(&j, "dropped");
		hs_json_u64(&j, c->dropped);
		hs_json_end_obj(&j);
		hs_json_end(&j);
		return;
	}
	printf("restored %s from %s (saved %s, %s): %" PRIu64 " of %" PRIu64
	       " records applied; %" PRIu64 " stale (file gone or replaced), %"
	       PRIu64 " expired (idle longer than hot-kick-time), %" PRIu64
	       " dropped (at hot-max-items or hot-max-kbytes)\n", m->path,
	       file, hs_fmt_iso(when, sizeof(when), h->saved_at),
	       hs_fmt_ago(ago, sizeof(ago), h->saved_at, now), c->applied,
	       h->nr_files + h->nr_ranges, c->stale, c->expired, c->dropped);
	if (c->expired)
		printf("hint: heat idle for longer than fs.hot-kick-time (%ds) "
		       "is forgotten; raise it to keep heat across a downtime\n",
		       hs_kick_time());
}

static int cmd_restore(const char *path, const char *file)
{
	static struct hot_record v[HOT_LIST_MAX];
	struct hs_restore_counts c = { 0 };
	char ours[40], theirs[40];
	uint8_t uuid[16];
	struct hs_mount m;
	struct hs_heat h;
	int fd, ret;
	long n;

	ret = hs_find_mount(path, &m);
	if (ret)
		return report(ret);
	ret = hs_fs_uuid(&m, uuid);
	if (ret)
		return report(ret);
	ret = hs_heat_open(file, &h, now);
	if (ret)
		return report(ret);
	if (memcmp(uuid, h.uuid, sizeof(uuid)) && !opt.force) {
		uuid_text(ours, uuid);
		uuid_text(theirs, h.uuid);
		hs_heat_close(&h);
		return report(hs_fail(HS_EBADFILE, "%s was saved from filesystem "
				      "%s, not %s's (%s): --force restores it "
				      "all the same", file, theirs, m.path,
				      ours));
	}
	fd = open(m.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		hs_heat_close(&h);
		return report(hs_fail(HS_ERR, "%s: %s", m.path, strerror(errno)));
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	while (!stop && (n = hs_heat_next(&h, v, HOT_LIST_MAX)) > 0) {
		qsort(v, n, sizeof(v[0]), by_file);
		ret = hs_restore(&m, fd, v, n, &c);
		if (ret)
			break;
	}
	if (!ret && n < 0)
		ret = HS_EBADFILE;
	if (!ret && stop)
		ret = hs_fail(HS_ERR, "interrupted");
	close(fd);
	hs_heat_close(&h);
	if (ret) {
		fprintf(stderr, "hotstat: %s (%" PRIu64 " records applied, %"
			PRIu64 " skipped before that)\n", hs_err, c.applied,
			c.stale + c.expired + c.dropped);
		return ret;
	}
	restore_report(&m, file, &h, &c);
	return 0;
}

/* --- main --- */

static int run(const char *cmd, int argc, char **argv)
{
	now = hs_now_ns();
	if (!strcmp(cmd, "file"))
		return cmd_file(argc, argv);
	if (!strcmp(cmd, "top"))
		return cmd_top(argv[0]);
	if (!strcmp(cmd, "save"))
		return cmd_save(argv[0], argv[1]);
	if (!strcmp(cmd, "restore"))
		return cmd_restore(argv[0], argv[1]);
	if (!strcmp(cmd, "warm")) {
		struct hs_warm_opts w = {
			.mount = argv[0], .from = opt.from, .bytes = opt.bytes,
			.force = opt.force, .json = opt.json,
			.progress = !opt.json && isatty(STDERR_FILENO),
		};

		signal(SIGINT, on_signal);
		signal(SIGTERM, on_signal);
		return report(hs_warm(&w, &stop));
	}
	if (!strcmp(cmd, "advise"))
		return report(hs_advise(argv[0], opt.fast, opt.json));
	return cmd_map(argv[0]);
}

static void sleep_secs(double secs)
{
	struct timespec ts = { (time_t)secs,
			       (long)((secs - (time_t)secs) * 1e9) };

	while (!stop && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	enum { O_LIVE = 256, O_WIDTH, O_COLOUR, O_NOCOLOUR, O_FORCE, O_BYTES,
	       O_FROM, O_FAST };
	static const struct option longopts[] = {
		{ "live", no_argument, NULL, O_LIVE },
		{ "top", required_argument, NULL, 'n' },
		{ "ranges", no_argument, NULL, 'r' },
		{ "prometheus", no_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "watch", required_argument, NULL, 'w' },
		{ "count", required_argument, NULL, 'c' },
		{ "width", required_argument, NULL, O_WIDTH },
		{ "color", required_argument, NULL, O_COLOUR },
		{ "colour", required_argument, NULL, O_COLOUR },
		{ "no-color", no_argument, NULL, O_NOCOLOUR },
		{ "force", no_argument, NULL, O_FORCE },
		{ "bytes", required_argument, NULL, O_BYTES },
		{ "from", required_argument, NULL, O_FROM },
		{ "fast", required_argument, NULL, O_FAST },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd;
	unsigned int u;
	int c, ret, tty, persist, iter = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":n:rpjw:c:hV", longopts, NULL)) != -1) {
		switch (c) {
		case O_LIVE:
			opt.live = 1;
			break;
		case 'n':
			if (hs_parse_uint(optarg, 0, 1000000, &opt.top))
				usage_error("-n wants a number of entries, not '%s'",
					    optarg);
			opt.top_set = 1;
			break;
		case 'r':
			opt.ranges = 1;
			break;
		case 'p':
			opt.prometheus = 1;
			break;
		case 'j':
			opt.json = 1;
			break;
		case 'w':
			if (hs_parse_seconds(optarg, &opt.watch))
				usage_error("--watch wants seconds (0.1 to 86400), "
					    "not '%s'", optarg);
			break;
		case 'c':
			if (hs_parse_uint(optarg, 1, 1000000000, &u))
				usage_error("--count wants a positive number, not '%s'",
					    optarg);
			opt.count = u;
			break;
		case O_WIDTH:
			if (hs_parse_uint(optarg, 12, 10000, &u))
				usage_error("--width wants 12 to 10000 columns, not '%s'",
					    optarg);
			opt.width = u;
			break;
		case O_COLOUR:
			if (!strcmp(optarg, "always"))
				opt.colour = 1;
			else if (!strcmp(optarg, "never"))
				opt.colour = 0;
			else if (!strcmp(optarg, "auto"))
				opt.colour = -1;
			else
				usage_error("--color wants auto, always or never, "
					    "not '%s'", optarg);
			break;
		case O_NOCOLOUR:
			opt.colour = 0;
			break;
		case O_FORCE:
			opt.force = 1;
			break;
		case O_BYTES:
			if (hs_parse_size(optarg, &opt.bytes) || !opt.bytes)
				usage_error("--bytes wants a size above 0 (4096, "
					    "512M, 2G), not '%s'", optarg);
			break;
		case O_FROM:
			opt.from = optarg;
			break;
		case O_FAST:
			if (hs_parse_size(optarg, &opt.fast) || !opt.fast)
				usage_error("--fast wants a size above 0 (4096, "
					    "512M, 10G), not '%s'", optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case 'V':
			printf("hotstat " VERSION "\n");
			return 0;
		case ':':
			usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		usage_error("no command: file, top, map, save, restore, warm or "
			    "advise");
	cmd = argv[optind++];
	argc -= optind;
	argv += optind;
	if (strcmp(cmd, "file") && strcmp(cmd, "top") && strcmp(cmd, "map") &&
	    strcmp(cmd, "save") && strcmp(cmd, "restore") &&
	    strcmp(cmd, "warm") && strcmp(cmd, "advise"))
		usage_error("unknown command '%s': file, top, map, save, "
			    "restore, warm or advise", cmd);
	persist = !strcmp(cmd, "save") || !strcmp(cmd, "restore");
	if (persist ? argc != 2 : !strcmp(cmd, "file") ? argc < 1 : argc != 1)
		usage_error("%s wants %s", cmd, persist ?
			    "a mount point and a heat file" :
			    !strcmp(cmd, "file") ? "one or more files" :
			    !strcmp(cmd, "map") ? "one file" :
			    "one mount point");
	if (opt.force && strcmp(cmd, "restore") && strcmp(cmd, "warm"))
		usage_error("--force is for 'restore' and 'warm'");
	if ((opt.bytes || opt.from) && strcmp(cmd, "warm"))
		usage_error("--bytes and --from are for 'warm'");
	if (opt.force && !strcmp(cmd, "warm") && !opt.from)
		usage_error("--force goes with --from");
	if (!strcmp(cmd, "advise") != !!opt.fast)
		usage_error(opt.fast ? "--fast is for 'advise'" :
			    "advise wants --fast SIZE");
	if ((persist || !strcmp(cmd, "warm") || !strcmp(cmd, "advise")) &&
	    opt.watch)
		usage_error("--watch is not for '%s'", cmd);
	if (opt.live && strcmp(cmd, "file"))
		usage_error("--live is for 'file'");
	if ((opt.ranges || opt.prometheus || opt.top_set) && strcmp(cmd, "top"))
		usage_error("-n, --ranges and --prometheus are for 'top'");
	if (opt.prometheus && opt.json)
		usage_error("--json or --prometheus, not both");
	if (opt.count && !opt.watch)
		usage_error("--count goes with --watch");

	tty = isatty(STDOUT_FILENO);
	if (opt.colour < 0) {
		const char *term = getenv("TERM");

		opt.colour = tty && !getenv("NO_COLOR") && term &&
			     strcmp(term, "dumb");
	}
	if (!opt.watch)
		return run(cmd, argc, argv);

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	ret = 0;
	while (!stop) {
		if (tty && !opt.json && !opt.prometheus)
			fputs("\033[H\033[2J", stdout);
		else if (iter && !opt.json)
			fputc('\n', stdout);
		ret = run(cmd, argc, argv);
		fflush(stdout);
		/* a file may have no I/O yet; anything else will not pass */
		if (ret && ret != HS_ENODATA)
			break;
		if (opt.count && ++iter >= opt.count)
			break;
		iter = iter ? iter : 1;
		sleep_secs(opt.watch);
	}
	hs_paths_free(paths);
	return ret;
}
