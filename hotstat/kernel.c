// SPDX-License-Identifier: GPL-2.0
/*
 * hotstat: the kernel interfaces of hot data tracking, and nothing else:
 * FS_IOC_GET_HEAT_INFO, FS_IOC_HOT_LIST, FS_IOC_HOT_RESTORE,
 * /proc/sys/fs/hot-*, /proc/self/mountinfo to know which mount a path is
 * on, and the filesystem's UUID (FS_IOC_GETFSUUID, BTRFS_IOC_FS_INFO). Never debugfs:
 * hot_track/<dev>/ there is the kernel's debugging view, root only, and
 * not always mounted.
 *
 * The device name of a mount (the "device" label of --prometheus) is the
 * kernel name of the mount source's device number (/sys/dev/block/M:m),
 * else of the mount's own device number, else the base name of the mount
 * source.
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
#include <linux/btrfs.h>
#include <linux/fs.h>
#include <linux/hot_tracking.h>

#include "hotstat.h"

/* FS_IOC_GETFSUUID is of Linux 6.6; the system's headers may be older */
#ifndef FS_IOC_GETFSUUID
struct fsuuid2 {
	__u8 len;
	__u8 uuid[16];
};
#define FS_IOC_GETFSUUID	_IOR(0x15, 0, struct fsuuid2)
#endif

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

/* Seconds an item may stay idle before it is forgotten; -1 if unknown */
int hs_kick_time(void)
{
	return sysctl_fs("hot-kick-time");
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
		return 0;	/* unreadable: FS_IOC_HOT_LIST will tell */
	err = ioctl(fd, FS_IOC_GET_HEAT_INFO, &hi) ? errno : 0;
	close(fd);
	if (err == EOPNOTSUPP)
		return hs_fail(HS_ENOTRACK, "%s is not mounted with hot_track "
			    "(mount -o remount,hot_track %s)", mp, mp);
	if (err == ENOTTY)
		return hs_fail(HS_ENOTRACK, "this kernel has no hot data tracking "
			    "(FS_IOC_GET_HEAT_INFO: %s)", strerror(err));
	return 0;
}

/* The device name of the mount of @mi, from @source, into @m->devname */
static void dev_name(const struct hs_mountinfo *mi, struct hs_mount *m)
{
	char cand[3][256], *src;
	struct stat st;
	int i;

	for (i = 0; i < 3; i++)
		cand[i][0] = 0;
	if (!stat(m->source, &st) && S_ISBLK(st.st_mode))
		blk_name(st.st_rdev, cand[0], sizeof(cand[0]));
	if (mi->major)
		blk_name(makedev(mi->major, mi->minor), cand[1], sizeof(cand[1]));
	src = strdup(m->source);
	if (src) {
		snprintf(cand[2], sizeof(cand[2]), "%s", basename(src));
		free(src);
	}
	for (i = 0; i < 3; i++)
		if (cand[i][0]) {
			memcpy(m->devname, cand[i], sizeof(m->devname));
			return;
		}
}

/*
 * The mount @path is on, checked to track. Returns HS_OK or an exit
 * status, message in hs_err.
 */
int hs_find_mount(const char *path, struct hs_mount *m)
{
	struct hs_mountinfo mi, best;
	size_t cap = 0, bestlen = 0;
	char real[PATH_MAX], *line = NULL;
	struct stat st;
	int found = 0;
	FILE *f;

	memset(m, 0, sizeof(*m));
	if (!realpath(path, real))
		return hs_fail(HS_ERR, "%s: %s", path, strerror(errno));
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return hs_fail(HS_ERR, "/proc/self/mountinfo: %s", strerror(errno));
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
		return hs_fail(HS_ERR, "%s: on no mount in /proc/self/mountinfo", path);
	snprintf(m->path, sizeof(m->path), "%s", best.mountpoint);
	snprintf(m->fstype, sizeof(m->fstype), "%s", best.fstype);
	snprintf(m->source, sizeof(m->source), "%s", best.source);
	if (stat(m->path, &st))
		return hs_fail(HS_ERR, "%s: %s", m->path, strerror(errno));
	m->dev = st.st_dev;
	dev_name(&best, m);
	return check_tracking(real, m->path);
}

/* Walks FS_IOC_HOT_LIST starts again when the heat map moved under it */
#define HS_LIST_TRIES	8

static int list_error(const struct hs_mount *m, int err)
{
	switch (err) {
	case EPERM:
		return hs_fail(HS_EPERM, "%s: permission denied: the hot files of "
			    "a mount are for root only (CAP_SYS_ADMIN)", m->path);
	case EOPNOTSUPP:
		return hs_fail(HS_ENOTRACK, "%s is not mounted with hot_track "
			    "(mount -o remount,hot_track %s)", m->path, m->path);
	case ENOTTY:
	case EINVAL:
		return hs_fail(HS_ENOTRACK, "%s: this kernel has no FS_IOC_HOT_LIST "
			    "(%s)", m->path, strerror(err));
	default:
		return hs_fail(HS_ERR, "%s: FS_IOC_HOT_LIST: %s", m->path,
			    strerror(err));
	}
}

/* One walk of the heat map into @v; 0, or an errno (ESTALE: walk again) */
static int list_walk(int fd, bool ranges, struct hot_record **v, size_t *len,
		     size_t *vcap)
{
	struct hot_list_args a;
	static const __u64 zero[sizeof(a.cursor) / sizeof(__u64)];

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.flags = ranges ? HOT_LIST_RANGES : 0;
	a.record_size = sizeof(**v);
	do {
		if (*vcap - *len < HOT_LIST_MAX) {
			struct hot_record *nv;
			size_t ncap = *vcap ? 2 * *vcap : 4 * HOT_LIST_MAX;

			nv = realloc(*v, ncap * sizeof(**v));
			if (!nv)
				return ENOMEM;
			*v = nv;
			*vcap = ncap;
		}
		a.records = (uintptr_t)(*v + *len);
		a.count = HOT_LIST_MAX;
		if (ioctl(fd, FS_IOC_HOT_LIST, &a))
			return errno;
		*len += a.count;
	} while (memcmp(a.cursor, zero, sizeof(zero)));
	return 0;
}

/*
 * Every tracked file (or range with @ranges) of the mount, hottest bucket
 * first, each once, as FS_IOC_HOT_LIST fills them on the mount's root
 */
int hs_list_records(const struct hs_mount *m, bool ranges,
		    struct hot_record **recs, size_t *n)
{
	struct hot_record *v = NULL;
	size_t len, vcap = 0;
	int fd, err = ESTALE, tries;

	*recs = NULL;
	*n = 0;
	fd = open(m->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return hs_fail(HS_ERR, "%s: %s", m->path, strerror(errno));
	for (tries = 0; tries < HS_LIST_TRIES && err == ESTALE; tries++) {
		len = 0;
		err = list_walk(fd, ranges, &v, &len, &vcap);
	}
	close(fd);
	if (err) {
		free(v);
		if (err == ENOMEM)
			return hs_fail(HS_ERR, "out of memory");
		if (err == ESTALE)
			return hs_fail(HS_ERR, "%s: the heat map changed under %d "
				       "walks in a row", m->path, HS_LIST_TRIES);
		return list_error(m, err);
	}
	*recs = v;
	*n = len;
	return HS_OK;
}

/* hs_list_records(), as the items hotstat shows */
int hs_list_items(const struct hs_mount *m, bool ranges,
		  struct hs_item **items, size_t *n)
{
	struct hot_record *recs;
	struct hs_item *v;
	size_t i;
	int ret;

	*items = NULL;
	ret = hs_list_records(m, ranges, &recs, n);
	if (ret)
		return ret;
	v = calloc(*n ? *n : 1, sizeof(*v));
	if (!v) {
		free(recs);
		return hs_fail(HS_ERR, "out of memory");
	}
	for (i = 0; i < *n; i++) {
		v[i].ino = recs[i].ino;
		v[i].gen = recs[i].gen;
		v[i].start = recs[i].start;
		v[i].len = recs[i].len;
		v[i].reads = recs[i].num_reads;
		v[i].writes = recs[i].num_writes;
		v[i].read_bytes = recs[i].read_bytes;
		v[i].write_bytes = recs[i].write_bytes;
		v[i].temp = recs[i].temp >> 24;
	}
	free(recs);
	*items = v;
	return HS_OK;
}

/*
 * The UUID of the filesystem of @m: FS_IOC_GETFSUUID, or for btrfs, which
 * does not answer it, the fsid of BTRFS_IOC_FS_INFO
 */
int hs_fs_uuid(const struct hs_mount *m, uint8_t uuid[16])
{
	struct fsuuid2 u = { 0 };
	int fd, err = 0;

	fd = open(m->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return hs_fail(HS_ERR, "%s: %s", m->path, strerror(errno));
	if (!ioctl(fd, FS_IOC_GETFSUUID, &u) && u.len == 16) {
		memcpy(uuid, u.uuid, 16);
	} else if (!strcmp(m->fstype, "btrfs")) {
		struct btrfs_ioctl_fs_info_args fi = { 0 };

		if (ioctl(fd, BTRFS_IOC_FS_INFO, &fi))
			err = errno;
		else
			memcpy(uuid, fi.fsid, 16);
	} else {
		err = errno ? errno : EINVAL;
	}
	close(fd);
	if (err)
		return hs_fail(HS_ERR, "%s: cannot tell its filesystem's UUID: %s",
			       m->path, strerror(err));
	return HS_OK;
}

/*
 * FS_IOC_HOT_RESTORE of @n records on the mount's root @fd. HS_OK, the
 * counts added to @c; else an exit status and the message, @c still
 * counting what the call did.
 */
int hs_restore(const struct hs_mount *m, int fd, const struct hot_record *v,
	       size_t n, struct hs_restore_counts *c)
{
	struct hot_restore_args a;
	int err;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.records = (uintptr_t)v;
	a.record_size = sizeof(*v);
	a.count = n;
	/* Not a record's index, unless the kernel names one */
	a.error_index = UINT32_MAX;
	err = ioctl(fd, FS_IOC_HOT_RESTORE, &a) ? errno : 0;
	/* Zero unless the kernel did something, even if it failed later */
	c->applied += a.applied;
	c->stale += a.stale;
	c->expired += a.expired;
	c->dropped += a.dropped;
	switch (err) {
	case 0:
		return HS_OK;
	case EPERM:
		return hs_fail(HS_EPERM, "%s: permission denied: restoring heat "
			       "is for root only (CAP_SYS_ADMIN)", m->path);
	case EOPNOTSUPP:
		return hs_fail(HS_ENOTRACK, "%s is not mounted with hot_track, or "
			       "its filesystem cannot restore heat", m->path);
	case ENOTTY:
		return hs_fail(HS_ENOTRACK, "%s: this kernel has no "
			       "FS_IOC_HOT_RESTORE", m->path);
	case EINVAL:
	case E2BIG:
		if (a.error_index < n)
			return hs_fail(HS_EBADFILE, "%s: the kernel refused record "
				       "%u of this batch (%s): another range "
				       "size, or past the largest file?",
				       m->path, a.error_index, strerror(err));
		return hs_fail(HS_ERR, "%s: FS_IOC_HOT_RESTORE: %s", m->path,
			       strerror(err));
	default:
		return hs_fail(HS_ERR, "%s: FS_IOC_HOT_RESTORE: %s", m->path,
			       strerror(err));
	}
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
			return hs_fail(HS_EPERM, "%s: %s", path, strerror(err));
		return hs_fail(HS_ERR, "%s: %s", path, strerror(err));
	}
	err = ioctl(fd, FS_IOC_GET_HEAT_INFO, hi) ? errno : 0;
	if (err == ENODATA && !fstat(fd, &st) && !S_ISREG(st.st_mode)) {
		close(fd);
		return hs_fail(HS_ENODATA, "%s: not a regular file: only regular "
			    "files are tracked", path);
	}
	close(fd);
	switch (err) {
	case 0:
		return HS_OK;
	case ENODATA:
		return hs_fail(HS_ENODATA, "%s: never tracked: no I/O of it has "
			    "reached the storage since the mount (or it was "
			    "idle for hot-kick-time and forgotten)", path);
	case EOPNOTSUPP:
		return hs_fail(HS_ENOTRACK, "%s: its filesystem is not mounted "
			    "with hot_track", path);
	case ENOTTY:
		return hs_fail(HS_ENOTRACK, "%s: this kernel has no hot data "
			    "tracking (FS_IOC_GET_HEAT_INFO: %s)", path,
			    strerror(err));
	default:
		return hs_fail(HS_ERR, "%s: FS_IOC_GET_HEAT_INFO: %s", path,
			    strerror(err));
	}
}
