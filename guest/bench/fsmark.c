// SPDX-License-Identifier: GPL-2.0
/*
 * fs_mark-like small-file workload for the benchmark (guest/bench.sh):
 * create, write SIZE bytes, fsync and close NFILES files in DIR.
 *
 *   fsmark [-n] [-s SIZE] DIR NFILES
 *     -n   no fsync (just create the files, for the memory measurement)
 *
 * Prints one line: files=N secs=S files_per_sec=F cpu_us=C
 * (cpu_us: user + system time of this process during the loop).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_us(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 +
	       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
}

int main(int argc, char **argv)
{
	size_t size = 4096;
	int opt, nosync = 0;
	long i, n;
	char *buf, path[4096];
	double t0, t1, c0, c1;

	while ((opt = getopt(argc, argv, "ns:")) != -1) {
		switch (opt) {
		case 'n': nosync = 1; break;
		case 's': size = strtoul(optarg, NULL, 0); break;
		default: goto usage;
		}
	}
	if (argc - optind != 2)
		goto usage;
	n = atol(argv[optind + 1]);
	if (mkdir(argv[optind], 0755) && errno != EEXIST) {
		perror(argv[optind]);
		return 1;
	}
	buf = malloc(size);
	if (!buf)
		return 1;
	for (i = 0; i < (long)size; i++)
		buf[i] = (char)(i * 7 + 1);

	c0 = cpu_us();
	t0 = now();
	for (i = 0; i < n; i++) {
		int fd;

		snprintf(path, sizeof(path), "%s/f%07ld", argv[optind], i);
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0) {
			perror(path);
			return 1;
		}
		if (write(fd, buf, size) != (ssize_t)size) {
			perror("write");
			return 1;
		}
		if (!nosync && fsync(fd)) {
			perror("fsync");
			return 1;
		}
		close(fd);
	}
	t1 = now();
	c1 = cpu_us();
	printf("files=%ld secs=%.6f files_per_sec=%.1f cpu_us=%.0f\n",
	       n, t1 - t0, n / (t1 - t0), c1 - c0);
	return 0;
usage:
	fprintf(stderr, "usage: fsmark [-n] [-s SIZE] DIR NFILES\n");
	return 2;
}
