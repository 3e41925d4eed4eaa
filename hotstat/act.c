// SPDX-License-Identifier: GPL-2.0
/*
 * hotstat: acting on the heat.
 *
 *   warm    read the hottest ranges into the page cache, hottest first, up
 *           to a budget, through files set HOT_FILE_UNTRACKED so that the
 *           warm-up does not heat them (FS_IOC_HOT_SET_FILE_FLAGS)
 *   advise  which files and ranges a fast device of a given size should
 *           hold, by temperature per byte, and the share of the I/O on
 *           record that placement would have served
 *
 * Files are found by the walk of paths.c and opened beneath the mount
 * root with openat2(RESOLVE_BENEATH | RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS):
 * a path that leads out of the mount is never followed. A file whose inode
 * number or generation is not the record's any more is skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/hot_tracking.h>
#include <linux/openat2.h>

#include "hotstat.h"

/* cachestat(2) is of Linux 6.5, the same number on every architecture */
#ifndef SYS_cachestat
#define SYS_cachestat	451
#endif

#define CHUNK		(1U << 20)	/* bytes one pread() of warm asks for */
#define PROGRESS_NS	250000000ULL	/* between two progress lines */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Hottest first; then by file and offset, so a file is read in order */
static int by_heat(const void *a, const void *b)
{
	const struct hot_record *x = a, *y = b;

	if (x->temp != y->temp)
		return x->temp > y->temp ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Bytes of MemAvailable in /proc/meminfo; 0 if unknown */
static uint64_t mem_available(void)
{
	char line[256];
	uint64_t kb = 0;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

/* The open files of warm and advise: the last one stays open */
struct hs_opener {
	int root;		/* the mount root, O_PATH */
	const struct hs_mount *m;
	struct hs_paths *paths;
	uint64_t ino;		/* of @fd; 0: none */
	int fd, err;		/* @fd's, or why there is none (errno) */
	struct stat st;
};

static long sys_openat2(int dirfd, const char *path, struct open_how *how)
{
	return syscall(SYS_openat2, dirfd, path, how, sizeof(*how));
}

/*
 * Open the file of record @r read-only beneath the mount root, never out
 * of it: o->fd, or -1 with o->err ENOENT (no such file any more, or
 * another one: other inode number or generation), EACCES or EPERM
 * (unreadable) or another errno
 */
static int opener_get(struct hs_opener *o, const struct hot_record *r)
{
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC | O_NOATIME,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_XDEV |
			   RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	const char *path;
	unsigned int gen;
	size_t n;

	if (o->ino == r->ino)
		return o->fd;
	if (o->fd >= 0)
		close(o->fd);
	o->ino = r->ino;
	o->fd = -1;
	o->err = ENOENT;
	path = hs_paths_lookup(o->paths, r->ino);
	n = strlen(o->m->path);
	if (!path || strncmp(path, o->m->path, n))
		return -1;
	path += n;
	while (*path == '/')
		path++;
	o->fd = sys_openat2(o->root, path, &how);
	if (o->fd < 0 && errno == EPERM) {
		/* O_NOATIME is for the owner (or CAP_FOWNER) */
		how.flags &= ~O_NOATIME;
		o->fd = sys_openat2(o->root, path, &how);
	}
	if (o->fd < 0) {
		o->err = errno == ENOENT || errno == EXDEV || errno == ELOOP ?
			 ENOENT : errno;
		return -1;
	}
	if (fstat(o->fd, &o->st) || !S_ISREG(o->st.st_mode) ||
	    (uint64_t)o->st.st_ino != r->ino ||
	    (unsigned long long)o->st.st_dev != o->m->dev ||
	    (!ioctl(o->fd, FS_IOC_GETVERSION, &gen) && gen != r->gen)) {
		close(o->fd);
		o->fd = -1;
		o->err = ENOENT;
		return -1;
	}
	return o->fd;
}

static int opener_init(struct hs_opener *o, const struct hs_mount *m)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->m = m;
	o->root = open(m->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (o->root < 0)
		return hs_fail(HS_ERR, "%s: %s", m->path, strerror(errno));
	o->paths = hs_paths_new(m->path, m->dev);
	if (!o->paths) {
		close(o->root);
		return hs_fail(HS_ERR, "out of memory");
	}
	return HS_OK;
}

static void opener_free(struct hs_opener *o)
{
	if (o->fd >= 0)
		close(o->fd);
	close(o->root);
	hs_paths_free(o->paths);
}

/* --- warm --- */

static int by_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* Distinct values of @v (sorted in place) */
static uint64_t distinct(uint64_t *v, size_t n)
{
	uint64_t d = 0;
	size_t i;

	qsort(v, n, sizeof(*v), by_u64);
	for (i = 0; i < n; i++)
		d += !i || v[i] != v[i - 1];
	return d;
}

struct warm_counts {
	uint64_t cached, read, resident;	/* bytes */
	uint64_t ranges, files, gone, unreadable, failed;
	uint64_t start_ns;
};

/*
 * Bytes of [@off, @off + @len) of @fd, of owner @uid, in the page cache,
 * by cachestat(2), else by mincore(2) on a mapping no page of which is
 * touched (no fault, nothing counted); 0 if neither can tell. mincore()
 * says every page is there unless the caller owns the file or is root.
 */
static uint64_t resident_bytes(int fd, uid_t uid, uint64_t off, uint64_t len)
{
	struct { uint64_t off, len; } range = { off, len };
	struct { uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted,
		 nr_recently_evicted; } cs;
	uint64_t page = sysconf(_SC_PAGESIZE), n = 0, i, skip, pages;
	unsigned char *vec;
	void *p;

	if (!syscall(SYS_cachestat, fd, &range, &cs, 0))
		return cs.nr_cache * page;
	/* A kernel without it (CONFIG_CACHESTAT_SYSCALL=n) */
	if (geteuid() && geteuid() != uid)
		return 0;
	skip = off % page;
	pages = (skip + len + page - 1) / page;
	p = mmap(NULL, skip + len, PROT_READ, MAP_SHARED, fd, off - skip);
	if (p == MAP_FAILED)
		return 0;
	vec = malloc(pages);
	if (vec && !mincore(p, skip + len, vec))
		for (i = 0; i < pages; i++)
			n += vec[i] & 1;
	free(vec);
	munmap(p, skip + len);
	n *= page;
	return n < len ? n : len;
}

static void warm_progress(const struct warm_counts *c, uint64_t budget,
			  bool last)
{
	char a[32], b[32], r[32];
	double secs = (mono_ns() - c->start_ns) / 1e9;

	hs_fmt_size(a, sizeof(a), c->cached);
	hs_fmt_size(b, sizeof(b), budget);
	hs_fmt_size(r, sizeof(r), secs > 0 ? (uint64_t)(c->read / secs) : 0);
	fprintf(stderr, "\rwarm: %s of %s cached, %" PRIu64 " ranges, %s/s   %s",
		a, b, c->ranges, r, last ? "\n" : "");
}

/* Read [@off, @off + @len) of @fd with @buf; 0, or an errno */
static int warm_read(int fd, char *buf, uint64_t off, uint64_t len,
		     struct warm_counts *c, volatile sig_atomic_t *stop)
{
	while (len && !*stop) {
		size_t n = len < CHUNK ? len : CHUNK;
		ssize_t got = pread(fd, buf, n, off);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return errno;
		if (!got)	/* truncated meanwhile */
			break;
		off += got;
		len -= got;
		c->read += got;
		c->cached += got;
	}
	return 0;
}

static void warm_report(const struct hs_warm_opts *o,
			const struct hs_mount *m, const struct warm_counts *c,
			uint64_t budget, bool stopped)
{
	double secs = (mono_ns() - c->start_ns) / 1e9;
	char a[32], b[32], d[32], r[32];

	if (o->json) {
		struct hs_json j;

		hs_json_init(&j, stdout);
		hs_json_begin_obj(&j);
		hs_json_key(&j, "version");
		hs_json_u64(&j, 2);
		hs_json_key(&j, "mount");
		hs_json_str(&j, m->path);
		hs_json_key(&j, "budget_bytes");
		hs_json_u64(&j, budget);
		hs_json_key(&j, "cached_bytes");
		hs_json_u64(&j, c->cached);
		hs_json_key(&j, "read_bytes");
		hs_json_u64(&j, c->read);
		hs_json_key(&j, "resident_bytes");
		hs_json_u64(&j, c->resident);
		hs_json_key(&j, "ranges");
		hs_json_u64(&j, c->ranges);
		hs_json_key(&j, "files");
		hs_json_u64(&j, c->files);
		hs_json_key(&j, "skipped_gone");
		hs_json_u64(&j, c->gone);
		hs_json_key(&j, "skipped_unreadable");
		hs_json_u64(&j, c->unreadable);
		hs_json_key(&j, "skipped_errors");
		hs_json_u64(&j, c->failed);
		hs_json_key(&j, "seconds");
		hs_json_double(&j, secs);
		hs_json_key(&j, "interrupted");
		hs_json_bool(&j, stopped);
		hs_json_end_obj(&j);
		hs_json_end(&j);
		return;
	}
	hs_fmt_size(a, sizeof(a), c->cached);
	hs_fmt_size(b, sizeof(b), budget);
	hs_fmt_size(d, sizeof(d), c->resident);
	hs_fmt_size(r, sizeof(r), secs > 0 ? (uint64_t)(c->read / secs) : 0);
	printf("%s: %s of %s cached: %" PRIu64 " ranges of %" PRIu64
	       " files, %s already in the cache, read at %s/s in %.1f s\n",
	       m->path, a, b, c->ranges, c->files, d, r, secs);
	if (c->gone || c->unreadable || c->failed)
		printf("skipped: %" PRIu64 " ranges of files gone or replaced, %"
		       PRIu64 " unreadable, %" PRIu64 " read errors\n",
		       c->gone, c->unreadable, c->failed);
}

/* The ranges to warm: of the heat file @o->from, or of the mount now */
static int warm_records(const struct hs_warm_opts *o, const struct hs_mount *m,
			struct hot_record **out, size_t *n)
{
	struct hot_record *v = NULL, *nv;
	struct hs_heat h;
	size_t cap = 0, len = 0;
	uint8_t uuid[16];
	long got;
	int ret;

	if (!o->from)
		return hs_list_records(m, true, out, n);
	ret = hs_fs_uuid(m, uuid);
	if (ret)
		return ret;
	ret = hs_heat_open(o->from, &h, hs_now_ns());
	if (ret)
		return ret;
	if (memcmp(uuid, h.uuid, sizeof(uuid)) && !o->force) {
		hs_heat_close(&h);
		return hs_fail(HS_EBADFILE, "%s was saved from another "
			       "filesystem than %s's: --force warms from it all "
			       "the same", o->from, m->path);
	}
	for (;;) {
		if (cap - len < HOT_LIST_MAX) {
			cap = cap ? 2 * cap : 4 * HOT_LIST_MAX;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				hs_heat_close(&h);
				return hs_fail(HS_ERR, "out of memory");
			}
			v = nv;
		}
		got = hs_heat_next(&h, v + len, HOT_LIST_MAX);
		if (got <= 0)
			break;
		len += got;
	}
	hs_heat_close(&h);
	if (got < 0) {
		free(v);
		return HS_EBADFILE;
	}
	*out = v;
	*n = len;
	return HS_OK;
}

int hs_warm(const struct hs_warm_opts *o, volatile sig_atomic_t *stop)
{
	struct warm_counts c = { 0 };
	struct hot_record *v;
	struct hs_opener op;
	struct hs_mount m;
	uint64_t budget, last_ino = 0, shown = 0, u = HOT_FILE_UNTRACKED;
	uint64_t *inos;		/* of the ranges warmed, for c.files */
	size_t n, i;
	char *buf;
	int ret;

	ret = hs_find_mount(o->mount, &m);
	if (ret)
		return ret;
	budget = o->bytes ? o->bytes : mem_available() / 2;
	if (!budget)
		return hs_fail(HS_ERR, "no MemAvailable in /proc/meminfo: say "
			       "how much to warm with --bytes");
	ret = warm_records(o, &m, &v, &n);
	if (ret)
		return ret;
	buf = malloc(CHUNK);
	inos = malloc((n ? n : 1) * sizeof(*inos));
	ret = buf && inos ? opener_init(&op, &m) :
	      hs_fail(HS_ERR, "out of memory");
	if (ret) {
		free(inos);
		free(buf);
		free(v);
		return ret;
	}
	qsort(v, n, sizeof(*v), by_heat);
	c.start_ns = mono_ns();
	for (i = 0; i < n && c.cached < budget && !*stop; i++) {
		const struct hot_record *r = &v[i];
		uint64_t end, len, res;
		int fd, err;

		if (!(r->flags & HOT_RECORD_RANGE))
			continue;
		fd = opener_get(&op, r);
		if (fd < 0) {
			if (op.err == ENOENT)
				c.gone++;
			else if (op.err == EACCES || op.err == EPERM)
				c.unreadable++;
			else
				c.failed++;
			continue;
		}
		if (op.ino != last_ino) {
			/* The warm-up must not heat what it warms */
			if (ioctl(fd, FS_IOC_HOT_SET_FILE_FLAGS, &u)) {
				ret = hs_fail(HS_ENOTRACK, "this kernel cannot "
					      "read without counting the reads "
					      "(FS_IOC_HOT_SET_FILE_FLAGS: %s)",
					      strerror(errno));
				break;
			}
			last_ino = op.ino;
		}
		end = r->start + r->len;
		if (end > (uint64_t)op.st.st_size)
			end = op.st.st_size;
		if (r->start >= end)
			continue;
		len = end - r->start;
		if (len > budget - c.cached)
			len = budget - c.cached;
		res = resident_bytes(fd, op.st.st_uid, r->start, len);
		if (res >= len) {
			/* Cached already: it counts, nothing to read */
			c.resident += len;
			c.cached += len;
		} else {
			err = warm_read(fd, buf, r->start, len, &c, stop);
			if (err) {
				c.failed++;
				continue;
			}
		}
		inos[c.ranges++] = op.ino;
		if (o->progress && mono_ns() - shown > PROGRESS_NS) {
			warm_progress(&c, budget, false);
			shown = mono_ns();
		}
	}
	if (o->progress && shown)
		warm_progress(&c, budget, true);
	c.files = distinct(inos, c.ranges);
	opener_free(&op);
	free(inos);
	free(buf);
	free(v);
	if (ret)
		return ret;
	warm_report(o, &m, &c, budget, *stop);
	if (*stop)
		return hs_fail(HS_ERR, "interrupted");
	return HS_OK;
}

/* --- advise --- */

static int by_place(const void *a, const void *b)
{
	const struct hot_record *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

struct unit {
	const struct hot_record *r;
	uint64_t bytes;		/* of the range, within the file */
	uint64_t size;		/* of the file; 0 if it cannot be opened */
	double score;		/* temperature per byte */
	bool chosen;
};

static int by_score(const void *a, const void *b)
{
	const struct unit *x = a, *y = b;
	uint64_t ix = (uint64_t)x->r->num_reads + x->r->num_writes;
	uint64_t iy = (uint64_t)y->r->num_reads + y->r->num_writes;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	if (ix != iy)
		return ix > iy ? -1 : 1;
	return by_heat(x->r, y->r);
}

/* The chosen units of one file, in the order the first was chosen */
struct pick {
	uint64_t ino, bytes, reads, writes, size, nranges, chosen, range;
	size_t first;		/* index of its first unit in units[] */
	const char *path;
};

static double share(uint64_t part, uint64_t all)
{
	return all ? (double)part / all : 0;
}

static void advise_ranges_text(const struct unit *u, size_t n, uint64_t ino,
			       char *buf, size_t len)
{
	uint64_t *starts = malloc(n * sizeof(*starts)), s, e;
	size_t k = 0, i, j, used = 0;
	char a[32], b[32];

	buf[0] = 0;
	if (!starts)
		return;
	for (i = 0; i < n; i++)
		if (u[i].chosen && u[i].r->ino == ino)
			starts[k++] = i;
	/* @starts holds unit indexes; sort them by offset */
	for (i = 1; i < k; i++)
		for (j = i; j && u[starts[j - 1]].r->start >
				 u[starts[j]].r->start; j--) {
			uint64_t t = starts[j];

			starts[j] = starts[j - 1];
			starts[j - 1] = t;
		}
	for (i = 0; i < k && used + 1 < len; i = j) {
		s = u[starts[i]].r->start;
		e = s + u[starts[i]].bytes;
		for (j = i + 1; j < k && u[starts[j]].r->start == e; j++)
			e += u[starts[j]].bytes;
		hs_fmt_size(a, sizeof(a), s);
		hs_fmt_size(b, sizeof(b), e);
		used += snprintf(buf + used, len - used, "%s%s-%s",
				 i ? ", " : "", a, b);
	}
	free(starts);
}

int hs_advise(const char *mount, uint64_t fast, bool json)
{
	uint64_t fs_bytes, used = 0, reads = 0, writes = 0;
	uint64_t got_reads = 0, got_writes = 0;
	struct pick *picks = NULL;
	struct hot_record *v;
	struct hs_opener op;
	struct statvfs sv;
	struct hs_mount m;
	struct unit *u;
	size_t n, i, j, nu = 0, np = 0;
	int ret;

	ret = hs_find_mount(mount, &m);
	if (ret)
		return ret;
	if (statvfs(m.path, &sv))
		return hs_fail(HS_ERR, "%s: %s", m.path, strerror(errno));
	fs_bytes = (uint64_t)sv.f_blocks * sv.f_frsize;
	if (fast > fs_bytes) {
		char a[32], b[32];

		hs_fmt_size(a, sizeof(a), fast);
		hs_fmt_size(b, sizeof(b), fs_bytes);
		return hs_fail(HS_EUSAGE, "--fast %s is more than %s holds (%s): "
			       "all of it would fit", a, m.path, b);
	}
	ret = hs_list_records(&m, true, &v, &n);
	if (ret)
		return ret;
	/* By file: each opened once */
	qsort(v, n, sizeof(*v), by_place);
	u = calloc(n ? n : 1, sizeof(*u));
	picks = calloc(n ? n : 1, sizeof(*picks));
	ret = u && picks ? opener_init(&op, &m) :
	      hs_fail(HS_ERR, "out of memory");
	if (ret)
		goto out;
	for (i = 0; i < n; i++) {
		const struct hot_record *r = &v[i];
		uint64_t bytes = r->len, size = 0;

		reads += r->num_reads;
		writes += r->num_writes;
		if (opener_get(&op, r) >= 0) {
			size = op.st.st_size;
			if (r->start >= size)
				continue;	/* truncated since */
			if (bytes > size - r->start)
				bytes = size - r->start;
		} else if (op.err == ENOENT) {
			continue;	/* gone: nothing to place */
		}
		u[nu].r = r;
		u[nu].bytes = bytes;
		u[nu].size = size;
		u[nu].score = (double)r->temp / bytes;
		nu++;
	}
	qsort(u, nu, sizeof(*u), by_score);
	for (i = 0; i < nu; i++) {
		if (used + u[i].bytes > fast)
			continue;
		u[i].chosen = true;
		used += u[i].bytes;
		got_reads += u[i].r->num_reads;
		got_writes += u[i].r->num_writes;
		for (j = 0; j < np && picks[j].ino != u[i].r->ino; j++)
			;
		if (j == np) {
			picks[np].ino = u[i].r->ino;
			picks[np].first = i;
			picks[np].range = u[i].r->len;
			picks[np].path = hs_paths_lookup(op.paths, u[i].r->ino);
			/* The size the first loop saw: no second open */
			picks[np].size = u[i].size;
			picks[np].nranges = (u[i].size + u[i].r->len - 1) /
					    u[i].r->len;
			np++;
		}
		picks[j].bytes += u[i].bytes;
		picks[j].reads += u[i].r->num_reads;
		picks[j].writes += u[i].r->num_writes;
		picks[j].chosen++;
	}

	if (json) {
		struct hs_json js;

		hs_json_init(&js, stdout);
		hs_json_begin_obj(&js);
		hs_json_key(&js, "version");
		hs_json_u64(&js, 2);
		hs_json_key(&js, "mount");
		hs_json_str(&js, m.path);
		hs_json_key(&js, "fast_bytes");
		hs_json_u64(&js, fast);
		hs_json_key(&js, "placed_bytes");
		hs_json_u64(&js, used);
		hs_json_key(&js, "reads");
		hs_json_u64(&js, reads);
		hs_json_key(&js, "reads_served");
		hs_json_u64(&js, got_reads);
		hs_json_key(&js, "read_share");
		hs_json_double(&js, share(got_reads, reads));
		hs_json_key(&js, "writes");
		hs_json_u64(&js, writes);
		hs_json_key(&js, "writes_served");
		hs_json_u64(&js, got_writes);
		hs_json_key(&js, "write_share");
		hs_json_double(&js, share(got_writes, writes));
		hs_json_key(&js, "files");
		hs_json_begin_arr(&js);
		for (i = 0; i < np; i++) {
			const struct pick *p = &picks[i];

			hs_json_begin_obj(&js);
			hs_json_key(&js, "path");
			if (p->path)
				hs_json_str(&js, p->path);
			else
				hs_json_null(&js);
			hs_json_key(&js, "ino");
			hs_json_u64(&js, p->ino);
			hs_json_key(&js, "bytes");
			hs_json_u64(&js, p->bytes);
			hs_json_key(&js, "whole");
			hs_json_bool(&js, p->nranges && p->chosen == p->nranges);
			hs_json_key(&js, "reads");
			hs_json_u64(&js, p->reads);
			hs_json_key(&js, "writes");
			hs_json_u64(&js, p->writes);
			hs_json_key(&js, "ranges");
			hs_json_begin_arr(&js);
			for (j = 0; j < nu; j++) {
				if (!u[j].chosen || u[j].r->ino != p->ino)
					continue;
				hs_json_begin_obj(&js);
				hs_json_key(&js, "start");
				hs_json_u64(&js, u[j].r->start);
				hs_json_key(&js, "len");
				hs_json_u64(&js, u[j].bytes);
				hs_json_end_obj(&js);
			}
			hs_json_end_arr(&js);
			hs_json_end_obj(&js);
		}
		hs_json_end_arr(&js);
		hs_json_end_obj(&js);
		hs_json_end(&js);
	} else {
		char a[32], b[32], what[256];

		hs_fmt_size(a, sizeof(a), fast);
		hs_fmt_size(b, sizeof(b), used);
		printf("%s of fast storage for %s: %zu files or parts of them "
		       "(%s) would have served %.1f%% of the reads and %.1f%% "
		       "of the writes on record (%" PRIu64 " of %" PRIu64
		       " reads, %" PRIu64 " of %" PRIu64 " writes)\n",
		       a, m.path, np, b, 100 * share(got_reads, reads),
		       100 * share(got_writes, writes), got_reads, reads,
		       got_writes, writes);
		if (np)
			printf("%-5s %10s %8s %8s  %-24s %s\n", "RANK", "SIZE",
			       "READS", "WRITES", "WHAT", "PATH");
		for (i = 0; i < np; i++) {
			const struct pick *p = &picks[i];
			char ino[40];

			hs_fmt_size(b, sizeof(b), p->bytes);
			if (p->nranges && p->chosen == p->nranges)
				snprintf(what, sizeof(what), "whole file");
			else
				advise_ranges_text(u, nu, p->ino, what,
						   sizeof(what));
			snprintf(ino, sizeof(ino), "(inode %" PRIu64 ")",
				 p->ino);
			printf("%-5zu %10s %8" PRIu64 " %8" PRIu64 "  %-24s %s\n",
			       i + 1, b, p->reads, p->writes, what,
			       p->path ? p->path : ino);
		}
	}
	opener_free(&op);
out:
	free(picks);
	free(u);
	free(v);
	return ret;
}
