// SPDX-License-Identifier: GPL-2.0
/* Print FS_IOC_GET_HEAT_INFO of each file given, live temperature. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/hot_tracking.h>

int main(int argc, char **argv)
{
	int i, ret = 0;

	for (i = 1; i < argc; i++) {
		struct hot_heat_info hi = { .live = 1 };
		int fd = open(argv[i], O_RDONLY);

		if (fd < 0 || ioctl(fd, FS_IOC_GET_HEAT_INFO, &hi)) {
			fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
			ret = 1;
		} else {
			printf("%-40s reads %6u  writes %3u  temp %10u (bucket %3u)\n",
			       argv[i], hi.num_reads, hi.num_writes, hi.temp,
			       hi.temp >> 24);
		}
		if (fd >= 0)
			close(fd);
	}
	return ret;
}
