// SPDX-License-Identifier: GPL-2.0
/*
 * hotstat: the kernel interfaces of hot data tracking, and nothing else:
 * FS_IOC_GET_HEAT_INFO, debugfs hot_track/<dev>/, /proc/sys/fs/hot-*, and
 * /proc/self/mountinfo to know which mount a path is on.
 *
 * Which debugfs directory belongs to a mount: the kernel names it after the
 * superblock's s_id, which btrfs, ext4 and xfs set to the block device's
 * kernel name ("vda", "sdb1", "dm-0"). The candidates, in order, are the
 * kernel name of the mount source's device number (/sys/dev/block/M:m), the
 * kernel name of the mount's own device number, and the base name of the
 * mount source; the first that exists under hot_track/ is taken.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <linux/hot_tracking.h>

#include "hotstat.h"

char hs_err[512];

__attribute__((format(printf, 2, 3)))
static int fail(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(hs_err, sizeof(hs_err), fmt, ap);
	va_end(ap);
	return code;
}

uint64_t hs_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* An integer sysctl of /proc/sys/fs/; -1 if unknown */
static int sysctl_fs(const char *name)
{
	char path[128];
	FILE *f;
	int v = -1;

	snprintf(path, sizeof(path), "/proc/sys/fs/%s", name);
	f = fopen(path, "re");
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* Seconds between two periodic updates; -1 if unknown */
int hs_update_delay(void)
{
	return sysctl_fs("hot-update-delay");
}

/*
 * The longest real average interval between two I/Os of a tracked item:
 * an item idle for hot-kick-time is forgotten at the next periodic update.
 * Both sysctls are at most a week.
 */
uint64_t hs_interval_limit_ns(void)
{
	int kick = sysctl_fs("hot-kick-time");
	int delay = sysctl_fs("hot-update-delay");

	if (kick <= 0)
		kick = 604800;
	if (delay <= 0)
		delay = 604800;
	return ((uint64_t)kick + delay) * 1000000000ULL;
}

/* Is @mp the path @path or one of its parents? */
static bool under(const char *path, const char *mp)
{
	size_t n = strlen(mp);

	if (!strcmp(mp, "/"))
		return true;
	return !strncmp(path, mp, n) && (path[n] == 0 || path[n] == '/');
}

/* The kernel name of block device @dev ("vda"), from /sys/dev/block */
static int blk_name(dev_t dev, char *buf, size_t n)
{
	char link[64], target[PATH_MAX];
	ssize_t len;
	char *slash;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	len = readlink(link, target, sizeof(target) - 1);
	if (len <= 0)
		return -1;
	target[len] = 0;
	slash = strrchr(target, '/');
	slash = slash ? slash + 1 : target;
	if (strlen(slash) >= n)
		return -1;
	strcpy(buf, slash);
	return 0;
}

/* Where debugfs is mounted: /sys/kernel/debug if it is there */
static int debugfs_path(char *buf, size_t n)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	struct hs_mountinfo mi;
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0) {
		if (hs_parse_mountinfo(line, &mi) || strcmp(mi.fstype, "debugfs"))
			continue;
		if (!found || !strcmp(mi.mountpoint, "/sys/kernel/debug"))
			snprintf(buf, n, "%s", mi.mountpoint);
		found = 1;
	}
	free(line);
	fclose(f);
	return found ? 0 : -1;
}

/*
 * Ask the filesystem with the ioctl: EOPNOTSUPP says it does not track,
 * ENOTTY that the kernel has no hot tracking at all. Anything else (the
 * root directory itself is never tracked: ENODATA) says it tracks.
 */
static int check_tracking(const char *path, const char *mp)
{
	struct hot_heat_info hi = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	int err;

	if (fd < 0)
		return 0;	/* unreadable: debugfs will tell */
	err = ioctl(fd, FS_IOC_GET_HEAT_INFO, &hi) ? errno : 0;
	close(fd);
	if (err == EOPNOTSUPP)
		return fail(HS_ENOTRACK, "%s is not mounted with hot_track "
			    "(mount -o remount,hot_track %s)", mp, mp);
	if (err == ENOTTY)
		return fail(HS_ENOTRACK, "this kernel has no hot data tracking "
			    "(FS_IOC_GET_HEAT_INFO: %s)", strerror(err));
	return 0;
}

/*
 * The mount @path is on, checked to track, and with @need_debugfs its
 * debugfs directory. Returns HS_OK or an exit status, message in hs_err.
 */
int hs_find_mount(const char *path, struct hs_mount *m, bool need_debugfs)
{
	char real[PATH_MAX], dbg[PATH_MAX], cand[3][256], top[PATH_MAX + 16];
	struct hs_mountinfo mi, best;
	char *line = NULL, *src;
	size_t cap = 0, bestlen = 0;
	struct stat st;
	int found = 0, i, j, ret;
	FILE *f;

	memset(m, 0, sizeof(*m));
	if (!realpath(path, real))
		return fail(HS_ERR, "%s: %s", path, strerror(errno));
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return fail(HS_ERR, "/proc/self/mountinfo: %s", strerror(errno));
	while (getline(&line, &cap, f) > 0) {
		if (hs_parse_mountinfo(line, &mi) || !under(real, mi.mountpoint))
			continue;
		/* the deepest mount point; the last of equals (over-mounts) */
		if (!found || strlen(mi.mountpoint) >= bestlen) {
			best = mi;
			bestlen = strlen(mi.mountpoint);
			found = 1;
		}
	}
	free(line);
	fclose(f);
	if (!found)
		return fail(HS_ERR, "%s: on no mount in /proc/self/mountinfo", path);
	snprintf(m->path, sizeof(m->path), "%s", best.mountpoint);
	snprintf(m->fstype, sizeof(m->fstype), "%s", best.fstype);
	snprintf(m->source, sizeof(m->source), "%s", best.source);
	if (stat(m->path, &st))
		return fail(HS_ERR, "%s: %s", m->path, strerror(errno));
	m->dev = st.st_dev;

	ret = check_tracking(real, m->path);
	if (ret || !need_debugfs)
		return ret;

	if (debugfs_path(dbg, sizeof(dbg)))
		return fail(HS_ENODEBUGFS, "debugfs is not mounted "
			    "(mount -t debugfs none /sys/kernel/debug)");
	snprintf(top, sizeof(top), "%s/hot_track", dbg);
	if (stat(top, &st)) {
		if (errno == EACCES)
			return fail(HS_EPERM, "%s: permission denied: the hot "
				    "tracking statistics are for root only", top);
		if (errno == ENOENT)
			return fail(HS_ENOTRACK, "%s does not exist: this "
				    "kernel has no hot data tracking", top);
		return fail(HS_ERR, "%s: %s", top, strerror(errno));
	}

	for (i = 0; i < 3; i++)
		cand[i][0] = 0;
	if (!stat(m->source, &st) && S_ISBLK(st.st_mode))
		blk_name(st.st_rdev, cand[0], sizeof(cand[0]));
	if (best.major)
		blk_name(makedev(best.major, best.minor), cand[1], sizeof(cand[1]));
	src = strdup(m->source);
	if (src) {
		snprintf(cand[2], sizeof(cand[2]), "%s", basename(src));
		free(src);
	}
	for (i = 0; i < 3; i++) {
		if (!cand[i][0] || strchr(cand[i], '/') || !strcmp(cand[i], "..") ||
		    !strcmp(cand[i], "."))
			continue;
		for (j = 0; j < i && strcmp(cand[i], cand[j]); j++)
			;
		if (j < i)
			continue;
		if (snprintf(m->dir, sizeof(m->dir), "%s/%s", top, cand[i]) >=
		    (int)sizeof(m->dir))
			continue;
		if (!stat(m->dir, &st) && S_ISDIR(st.st_mode)) {
			memcpy(m->devname, cand[i], sizeof(m->devname));
			return HS_OK;
		}
		if (errno == EACCES)
			return fail(HS_EPERM, "%s: permission denied: the hot "
				    "tracking statistics are for root only", m->dir);
	}
	m->dir[0] = 0;
	return fail(HS_ENOTRACK, "%s (%s on %s) is not mounted with hot_track: "
		    "no %s/%s", m->path, m->fstype, m->source, top,
		    cand[0][0] ? cand[0] : cand[2]);
}

/* All items of debugfs listing @file of the mount, in the kernel's order */
int hs_read_items(const struct hs_mount *m, const char *file,
		  struct hs_item **items, size_t *n)
{
	char path[PATH_MAX + 64], *line = NULL;
	struct hs_item *v = NULL, it;
	size_t cap = 0, len = 0, vcap = 0;
	int ret = HS_OK;
	FILE *f;

	*items = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "%s/%s", m->dir, file);
	f = fopen(path, "re");
	if (!f) {
		if (errno == EACCES || errno == EPERM)
			return fail(HS_EPERM, "%s: permission denied: the hot "
				    "tracking statistics are for root only", path);
		if (errno == ENOENT)
			return fail(HS_ENOTRACK, "%s: gone: %s is no longer "
				    "mounted with hot_track", path, m->path);
		return fail(HS_ERR, "%s: %s", path, strerror(errno));
	}
	errno = 0;
	while (getline(&line, &cap, f) > 0) {
		if (hs_parse_item(line, &it)) {
			line[strcspn(line, "\n")] = 0;
			ret = fail(HS_ERR, "%s: unexpected line \"%.80s\"", path, line);
			break;
		}
		if (len == vcap) {
			struct hs_item *nv;

			vcap = vcap ? 2 * vcap : 256;
			nv = realloc(v, vcap * sizeof(*v));
			if (!nv) {
				ret = fail(HS_ERR, "out of memory");
				break;
			}
			v = nv;
		}
		v[len++] = it;
	}
	if (!ret && ferror(f))
		ret = fail(HS_ERR, "%s: %s", path, strerror(errno ? errno : EIO));
	free(line);
	fclose(f);
	if (ret) {
		free(v);
		return ret;
	}
	*items = v;
	*n = len;
	return HS_OK;
}

/* FS_IOC_GET_HEAT_INFO of @path into @info (a struct hot_heat_info) */
int hs_heat_info(const char *path, int live, void *info)
{
	struct hot_heat_info *hi = info;
	struct stat st;
	int fd, err;

	memset(hi, 0, sizeof(*hi));
	hi->live = !!live;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		err = errno;
		if (err == EACCES || err == EPERM)
			return fail(HS_EPERM, "%s: %s", path, strerror(err));
		return fail(HS_ERR, "%s: %s", path, strerror(err));
	}
	err = ioctl(fd, FS_IOC_GET_HEAT_INFO, hi) ? errno : 0;
	if (err == ENODATA && !fstat(fd, &st) && !S_ISREG(st.st_mode)) {
		close(fd);
		return fail(HS_ENODATA, "%s: not a regular file: only regular "
			    "files are tracked", path);
	}
	close(fd);
	switch (err) {
	case 0:
		return HS_OK;
	case ENODATA:
		return fail(HS_ENODATA, "%s: never tracked: no I/O of it has "
			    "reached the storage since the mount (or it was "
			    "idle for hot-kick-time and forgotten)", path);
	case EOPNOTSUPP:
		return fail(HS_ENOTRACK, "%s: its filesystem is not mounted "
			    "with hot_track", path);
	case ENOTTY:
		return fail(HS_ENOTRACK, "%s: this kernel has no hot data "
			    "tracking (FS_IOC_GET_HEAT_INFO: %s)", path,
			    strerror(err));
	default:
		return fail(HS_ERR, "%s: FS_IOC_GET_HEAT_INFO: %s", path,
			    strerror(err));
	}
}
