// SPDX-License-Identifier: GPL-2.0
/*
 * The scaling and memory helpers of the benchmark (guest/bench.sh).
 *
 *   hotscale touch FILE FROM TO
 *       one 4 KiB O_DIRECT read at offset i MiB for i in [FROM, TO): makes
 *       ranges FROM..TO-1 tracked on a hot_track mount (1 MiB ranges)
 *   hotscale time TRACKED UNTRACKED N READS BATCH [HOT]
 *       READS random 4 KiB O_DIRECT reads at offsets i MiB, i < N, on each
 *       file, in batches of BATCH alternating between the two files; prints
 *       the median ns per read of each and the median of the per-batch
 *       differences (the hook cost), in the guest's time (all the work the
 *       guest does meanwhile: diff_ns) and in the CPU time of the reading
 *       thread (the I/O path's own: diff_cpu_ns). With HOT, the reads go to
 *       HOT ranges spread evenly over the N (a hot set among many tracked
 *       ranges)
 *   hotscale readall DIR
 *       read every regular file of DIR once (buffered); also prints how many
 *       nodes an xarray indexed by their inode numbers has (xa_nodes)
 *   hotscale spread DIR FILES RANGES
 *       create FILES sparse files of RANGES MiB in DIR (100 a directory)
 *       and read 4 KiB O_DIRECT at the start of each MiB: FILES inodes and
 *       FILES * RANGES ranges tracked, for the cost of saving and restoring
 *       heat
 *
 * Output: one line of key=value pairs.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#define BS 4096
#define RANGE (1ULL << 20)

static uint64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint64_t ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static int open_direct(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECT);

	if (fd < 0) {
		perror(path);
		exit(1);
	}
	return fd;
}

static void *buffer(void)
{
	void *buf;

	if (posix_memalign(&buf, BS, BS))
		exit(1);
	return buf;
}

static void rd(int fd, void *buf, uint64_t idx)
{
	if (pread(fd, buf, BS, idx * RANGE) != BS) {
		perror("pread");
		exit(1);
	}
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int touch(char **argv)
{
	uint64_t from = strtoull(argv[1], NULL, 0), to = strtoull(argv[2], NULL, 0);
	int fd = open_direct(argv[0]);
	void *buf = buffer();
	uint64_t t0 = ns(), i;

	for (i = from; i < to; i++)
		rd(fd, buf, i);
	printf("touched=%llu ns_per_read=%.0f\n", (unsigned long long)(to - from),
	       to > from ? (double)(ns() - t0) / (to - from) : 0.0);
	return 0;
}

/* ns per read of a batch, in the guest's time; *cpu in the thread's CPU time */
static double batch(int fd, void *buf, uint64_t n, uint64_t hot, int count,
		    double *cpu)
{
	uint64_t c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), t0 = ns();
	uint64_t step = n / hot;
	int i;

	for (i = 0; i < count; i++)
		rd(fd, buf, next() % hot * step);
	t0 = ns() - t0;
	*cpu = (double)(clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / count;
	return (double)t0 / count;
}

static int timing(char **argv)
{
	int ft = open_direct(argv[0]), fu = open_direct(argv[1]);
	uint64_t n = strtoull(argv[2], NULL, 0);
	long reads = atol(argv[3]), size = atol(argv[4]);
	uint64_t hot = argv[5] ? strtoull(argv[5], NULL, 0) : n;
	int nb = reads / size, i;
	double *t = calloc(nb, sizeof(double)), *u = calloc(nb, sizeof(double));
	double *d = calloc(nb, sizeof(double));
	double *tc = calloc(nb, sizeof(double)), *uc = calloc(nb, sizeof(double));
	double *dc = calloc(nb, sizeof(double)), cpu;
	void *buf = buffer();
	uint64_t seed;

	if (nb < 1 || !t || !u || !d || !tc || !uc || !dc || hot < 1 || hot > n)
		return 2;
	/* Warm up both: the first batches pay for cold caches */
	batch(ft, buf, n, hot, size, &cpu);
	batch(fu, buf, n, hot, size, &cpu);
	for (i = 0; i < nb; i++) {
		/* The same offsets on both files; which goes first alternates */
		seed = rng;
		if (i % 2) {
			u[i] = batch(fu, buf, n, hot, size, &uc[i]);
			rng = seed;
			t[i] = batch(ft, buf, n, hot, size, &tc[i]);
		} else {
			t[i] = batch(ft, buf, n, hot, size, &tc[i]);
			rng = seed;
			u[i] = batch(fu, buf, n, hot, size, &uc[i]);
		}
		d[i] = t[i] - u[i];
		dc[i] = tc[i] - uc[i];
	}
	printf("n=%llu hot=%llu batches=%d batch=%ld diff_ns=%.1f",
	       (unsigned long long)n, (unsigned long long)hot, nb, size,
	       median(d, nb));
	printf(" tracked_ns=%.1f untracked_ns=%.1f", median(t, nb), median(u, nb));
	printf(" diff_cpu_ns=%.1f tracked_cpu_ns=%.1f untracked_cpu_ns=%.1f\n",
	       median(dc, nb), median(tc, nb), median(uc, nb));
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Nodes of an xarray holding these indices: 64 slots a node, one node per
 * distinct index >> 6k on each level k up to the root; none for a lone
 * index 0.
 */
static long xa_nodes(uint64_t *v, long n)
{
	long nodes = 0, i, distinct;
	int shift;

	if (!n || (n == 1 && !v[0]))
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	for (shift = 6; shift < 70; shift += 6) {
		distinct = 0;
		for (i = 0; i < n; i++)
			if (!i || (v[i] >> shift) != (v[i - 1] >> shift))
				distinct++;
		nodes += distinct;
		if (shift >= 64 || !(v[n - 1] >> shift))
			break;
	}
	return nodes;
}

static int readall(char **argv)
{
	DIR *dir = opendir(argv[0]);
	struct dirent *de;
	char buf[65536];
	long files = 0, cap = 1024;
	uint64_t *inos = malloc(cap * sizeof(*inos));

	if (!dir) {
		perror(argv[0]);
		return 1;
	}
	while ((de = readdir(dir))) {
		int fd;

		if (de->d_type != DT_REG)
			continue;
		fd = openat(dirfd(dir), de->d_name, O_RDONLY);
		if (fd < 0) {
			perror(de->d_name);
			return 1;
		}
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
		if (files == cap) {
			cap *= 2;
			inos = realloc(inos, cap * sizeof(*inos));
		}
		if (!inos)
			return 1;
		inos[files++] = de->d_ino;
	}
	printf("files=%ld xa_nodes=%ld\n", files, xa_nodes(inos, files));
	return 0;
}

static int spread(char **argv)
{
	long files = atol(argv[1]), ranges = atol(argv[2]), f, r;
	void *buf = buffer();
	char path[4096];
	uint64_t t0 = ns();
	int fd;

	for (f = 0; f < files; f++) {
		if (f % 100 == 0) {
			snprintf(path, sizeof(path), "%s/d%ld", argv[0], f / 100);
			if (mkdir(path, 0755)) {
				perror(path);
				return 1;
			}
		}
		snprintf(path, sizeof(path), "%s/d%ld/f%ld", argv[0], f / 100, f);
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_DIRECT, 0644);
		if (fd < 0 || ftruncate(fd, ranges * RANGE)) {
			perror(path);
			return 1;
		}
		for (r = 0; r < ranges; r++)
			rd(fd, buf, r);
		close(fd);
	}
	printf("files=%ld ranges=%ld ns=%llu\n", files, files * ranges,
	       (unsigned long long)(ns() - t0));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "touch"))
		return touch(argv + 2);
	if ((argc == 7 || argc == 8) && !strcmp(argv[1], "time"))
		return timing(argv + 2);
	if (argc == 3 && !strcmp(argv[1], "readall"))
		return readall(argv + 2);
	if (argc == 5 && !strcmp(argv[1], "spread"))
		return spread(argv + 2);
	fprintf(stderr, "usage: hotscale touch FILE FROM TO | time TRACKED UNTRACKED N READS BATCH [HOT] | readall DIR | spread DIR FILES RANGES\n");
	return 2;
}
