// SPDX-License-Identifier: GPL-2.0
/*
 * hotstat: the heat file of 'hotstat save' and 'hotstat restore'. All
 * little-endian:
 *
 *   offset  size
 *        0     8  magic "HOTHEAT\0"
 *        8     4  format version, 1
 *       12     4  header size, 64
 *       16     4  record size, 104 (struct hot_record of FS_IOC_HOT_LIST)
 *       20     4  flags, 0
 *       24     8  number of file records
 *       32     8  number of range records
 *       40     8  when it was saved, ns since the Epoch
 *       48    16  the filesystem's UUID (FS_IOC_GETFSUUID; btrfs: its fsid)
 *       64     .  the file records, then the range records
 *      end     4  CRC-32C of everything before it
 *
 * A file is read twice: once to check its size, its checksum and then
 * every record, once to restore, so that a bad file changes nothing.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/hot_tracking.h>

#include "hotstat.h"

#define HS_MAGIC	"HOTHEAT"	/* and its NUL: 8 bytes */
#define HS_HEADER_SIZE	64
#define HS_RECORD_SIZE	HOT_RECORD_SIZE_VER0
#define HS_BATCH	1024		/* records read at a time */

struct hs_heat_header {
	char magic[8];
	uint32_t version;
	uint32_t header_size;
	uint32_t record_size;
	uint32_t flags;
	uint64_t nr_files;
	uint64_t nr_ranges;
	uint64_t saved_at;
	uint8_t uuid[16];
};

_Static_assert(sizeof(struct hs_heat_header) == HS_HEADER_SIZE, "header");

/* CRC-32C (Castagnoli), reflected, as ext4, btrfs and iSCSI use it */
uint32_t hs_crc32c(uint32_t crc, const void *buf, size_t len)
{
	static uint32_t table[256];
	const unsigned char *p = buf;
	uint32_t c;
	int i, k;

	if (!table[1]) {
		for (i = 0; i < 256; i++) {
			c = i;
			for (k = 0; k < 8; k++)
				c = c & 1 ? (c >> 1) ^ 0x82f63b78 : c >> 1;
			table[i] = c;
		}
	}
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/* A record to or from its little-endian form, in place */
static void rec_swap(struct hot_record *r, bool to_le)
{
#define S64(f) (r->f = to_le ? htole64(r->f) : le64toh(r->f))
#define S32(f) (r->f = to_le ? htole32(r->f) : le32toh(r->f))
	S64(key); S64(ino); S64(start); S64(len);
	S64(avg_delta_reads); S64(avg_delta_writes);
	S64(last_read_time); S64(last_write_time);
	S64(read_bytes); S64(write_bytes);
	S32(gen); S32(num_reads); S32(num_writes); S32(temp); S32(flags);
	S32(__reserved);
#undef S64
#undef S32
}

static int write_all(int fd, const void *buf, size_t len, uint32_t *crc)
{
	const char *p = buf;
	ssize_t n;

	if (crc)
		*crc = hs_crc32c(*crc, buf, len);
	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

static int write_records(int fd, const struct hot_record *v, size_t n,
			 uint32_t *crc)
{
	struct hot_record buf[HS_BATCH];
	size_t i, k;

	for (i = 0; i < n; i += k) {
		k = n - i < HS_BATCH ? n - i : HS_BATCH;
		memcpy(buf, v + i, k * sizeof(*buf));
		for (size_t j = 0; j < k; j++)
			rec_swap(&buf[j], true);
		if (write_all(fd, buf, k * sizeof(*buf), crc))
			return -1;
	}
	return 0;
}

/*
 * Write the heat file @path: into a temporary file beside it, flushed to
 * the disk and renamed over @path, so that a crash leaves the old file or
 * the new one, never half of one. HS_OK or HS_ERR.
 */
int hs_heat_save(const char *path, const struct hs_heat *h,
		 const struct hot_record *files, const struct hot_record *ranges)
{
	struct hs_heat_header hdr = { .magic = HS_MAGIC };
	char tmp[PATH_MAX], dir[PATH_MAX];
	uint32_t crc = 0, le;
	int fd, dfd, err;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return hs_fail(HS_ERR, "%s: name too long", path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return hs_fail(HS_ERR, "%s: cannot create a file beside it: %s",
			       path, strerror(errno));
	hdr.version = htole32(HS_HEAT_VERSION);
	hdr.header_size = htole32(HS_HEADER_SIZE);
	hdr.record_size = htole32(HS_RECORD_SIZE);
	hdr.nr_files = htole64(h->nr_files);
	hdr.nr_ranges = htole64(h->nr_ranges);
	hdr.saved_at = htole64(h->saved_at);
	memcpy(hdr.uuid, h->uuid, sizeof(hdr.uuid));
	le = 0;
	if (write_all(fd, &hdr, sizeof(hdr), &crc) ||
	    write_records(fd, files, h->nr_files, &crc) ||
	    write_records(fd, ranges, h->nr_ranges, &crc) ||
	    (le = htole32(crc), write_all(fd, &le, sizeof(le), NULL)) ||
	    fchmod(fd, 0600) || fsync(fd)) {
		err = errno;
		close(fd);
		unlink(tmp);
		return hs_fail(HS_ERR, "%s: %s", tmp, strerror(err ? err : EIO));
	}
	if (close(fd) || rename(tmp, path)) {
		err = errno;
		unlink(tmp);
		return hs_fail(HS_ERR, "%s: %s", path, strerror(err));
	}
	/* The rename itself, on the disk */
	snprintf(dir, sizeof(dir), "%s", path);
	dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return HS_OK;
}

static int read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n) {
			errno = 0;	/* the end of the file */
			return -1;
		}
		p += n;
		len -= n;
	}
	return 0;
}

static int bad_file(const struct hs_heat *h, const char *fmt, const char *what)
{
	return hs_fail(HS_EBADFILE, "%s: %s", h->path, what ? what : fmt);
}

/*
 * Whether @r can be a record FS_IOC_HOT_LIST filled, as of @now: NULL, or
 * what is wrong with it. The kernel checks the same, and more it alone
 * knows (the range size, the largest file): it refuses a batch with a bad
 * record, and hotstat refuses the whole file before it applies any.
 */
const char *hs_heat_check_record(const struct hot_record *r, bool range,
				 uint64_t now)
{
	if (r->flags & ~HOT_RECORD_RANGE || r->__reserved)
		return "unknown flags or reserved bits set";
	if (!!(r->flags & HOT_RECORD_RANGE) != range)
		return range ? "a file's record among the ranges" :
			       "a range's record among the files";
	if (!r->key || !r->ino)
		return "inode number 0";
	if (range) {
		if (!r->len || r->len & (r->len - 1) || r->start & (r->len - 1))
			return "a range of no size, or not aligned to its size";
		if (r->start > (uint64_t)LLONG_MAX)
			return "a range beyond the largest file";
	} else if (r->start || r->len) {
		return "a file's record with a range";
	}
	if (r->last_read_time > now || r->last_write_time > now)
		return "a time in the future (was the clock set back?)";
	if ((!r->num_reads && (r->last_read_time || r->avg_delta_reads)) ||
	    (!r->num_writes && (r->last_write_time || r->avg_delta_writes)))
		return "times without I/O";
	if ((r->num_reads && !r->last_read_time) ||
	    (r->num_writes && !r->last_write_time))
		return "I/O without a time";
	if ((r->num_reads == 1 && r->avg_delta_reads) ||
	    (r->num_writes == 1 && r->avg_delta_writes) ||
	    r->avg_delta_reads > now || r->avg_delta_writes > now)
		return "an average interval that cannot be";
	return NULL;
}

/* The next @n records of @h into @v: HS_OK or HS_EBADFILE */
static int read_records(struct hs_heat *h, struct hot_record *v, size_t n,
			uint32_t *crc)
{
	char buf[4096];
	size_t i;

	for (i = 0; i < n; i++) {
		if (read_all(h->fd, buf, h->record_size))
			return bad_file(h, NULL, errno ? strerror(errno) :
					"truncated: it ends inside a record");
		if (crc)
			*crc = hs_crc32c(*crc, buf, h->record_size);
		memcpy(&v[i], buf, sizeof(v[i]));
		rec_swap(&v[i], false);
	}
	return HS_OK;
}

/*
 * Open the heat file @path and check it all: the header, the size, the
 * checksum, every record as of @now. HS_OK, with @h ready for
 * hs_heat_next(); HS_ERR if it cannot be read, HS_EBADFILE if it is not a
 * good heat file.
 */
int hs_heat_open(const char *path, struct hs_heat *h, uint64_t now)
{
	struct hot_record v[64];
	struct hs_heat_header hdr;
	uint32_t crc = 0, want;
	uint64_t total, i, k, bad = 0;
	const char *why = NULL;
	struct stat st;
	int ret;

	memset(h, 0, sizeof(*h));
	h->fd = -1;
	snprintf(h->path, sizeof(h->path), "%s", path);
	h->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (h->fd < 0)
		return hs_fail(errno == EACCES ? HS_EPERM : HS_ERR, "%s: %s",
			       path, strerror(errno));
	if (fstat(h->fd, &st) || !S_ISREG(st.st_mode)) {
		ret = bad_file(h, NULL, "not a regular file");
		goto fail;
	}
	if (!st.st_size) {
		ret = bad_file(h, NULL, "empty: not a heat file");
		goto fail;
	}
	if (st.st_size < HS_HEADER_SIZE + 4 || read_all(h->fd, &hdr, sizeof(hdr)) ||
	    memcmp(hdr.magic, HS_MAGIC, sizeof(hdr.magic))) {
		ret = bad_file(h, NULL, "not a heat file of 'hotstat save'");
		goto fail;
	}
	h->version = le32toh(hdr.version);
	h->record_size = le32toh(hdr.record_size);
	h->nr_files = le64toh(hdr.nr_files);
	h->nr_ranges = le64toh(hdr.nr_ranges);
	h->saved_at = le64toh(hdr.saved_at);
	memcpy(h->uuid, hdr.uuid, sizeof(h->uuid));
	if (h->version > HS_HEAT_VERSION || !h->version) {
		ret = hs_fail(HS_EBADFILE, "%s: format version %u; this hotstat "
			      "reads version %d (a newer hotstat wrote it?)",
			      path, h->version, HS_HEAT_VERSION);
		goto fail;
	}
	if (le32toh(hdr.header_size) != HS_HEADER_SIZE || hdr.flags ||
	    h->record_size < HS_RECORD_SIZE || h->record_size > 4096 ||
	    h->nr_files > ((uint64_t)1 << 40) ||
	    h->nr_ranges > ((uint64_t)1 << 40)) {
		ret = bad_file(h, NULL, "a corrupt header");
		goto fail;
	}
	total = HS_HEADER_SIZE + (h->nr_files + h->nr_ranges) * h->record_size
		+ 4;
	if ((uint64_t)st.st_size != total) {
		ret = hs_fail(HS_EBADFILE, "%s: %s: %lld bytes, its header says "
			      "%llu", path, (uint64_t)st.st_size < total ?
			      "truncated" : "trailing bytes",
			      (long long)st.st_size, (unsigned long long)total);
		goto fail;
	}
	crc = hs_crc32c(0, &hdr, sizeof(hdr));
	for (i = 0; i < h->nr_files + h->nr_ranges; i += k) {
		k = h->nr_files + h->nr_ranges - i;
		if (k > 64)
			k = 64;
		ret = read_records(h, v, k, &crc);
		if (ret)
			goto fail;
		for (uint64_t j = 0; j < k && !why; j++) {
			why = hs_heat_check_record(&v[j], i + j >= h->nr_files,
						   now);
			bad = i + j;
		}
	}
	if (read_all(h->fd, &want, sizeof(want))) {
		ret = bad_file(h, NULL, "truncated");
		goto fail;
	}
	if (le32toh(want) != crc) {
		ret = bad_file(h, NULL, "checksum mismatch: the file is corrupt");
		goto fail;
	}
	/* Checksummed, so written so: by a broken or hostile writer */
	if (why) {
		ret = hs_fail(HS_EBADFILE, "%s: record %llu: %s", path,
			      (unsigned long long)bad, why);
		goto fail;
	}
	if (lseek(h->fd, HS_HEADER_SIZE, SEEK_SET) != HS_HEADER_SIZE) {
		ret = hs_fail(HS_ERR, "%s: %s", path, strerror(errno));
		goto fail;
	}
	return HS_OK;
fail:
	hs_heat_close(h);
	return ret;
}

/*
 * The next up to @max records of an open heat file, the files' first: the
 * number read (0 at the end), or -1 with the message in hs_err
 */
long hs_heat_next(struct hs_heat *h, struct hot_record *v, size_t max)
{
	uint64_t left = h->nr_files + h->nr_ranges - h->pos;
	size_t n = left < max ? left : max;

	if (read_records(h, v, n, NULL))
		return -1;
	h->pos += n;
	return n;
}

void hs_heat_close(struct hs_heat *h)
{
	if (h->fd >= 0)
		close(h->fd);
	h->fd = -1;
}
