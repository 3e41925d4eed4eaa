/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hotstat: what hot data tracking says is hot. Shared declarations.
 *
 *   parse.c    mountinfo lines, numbers and options
 *   format.c   durations, times, sizes, JSON, Prometheus, the map strip
 *   paths.c    inode number -> path, by walking a mount once
 *   heatfile.c the heat file of save and restore
 *   act.c      warm and advise: acting on the heat
 *   kernel.c   the kernel interfaces: mounts, FS_IOC_GET_HEAT_INFO,
 *              FS_IOC_HOT_LIST, FS_IOC_HOT_RESTORE
 *   main.c     the command line and the commands
 */
#ifndef HOTSTAT_H
#define HOTSTAT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit statuses (documented in hotstat.8 and --help) */
enum {
	HS_OK = 0,
	HS_ERR = 1,		/* anything else: I/O error, no such file */
	HS_EUSAGE = 2,		/* bad arguments */
	HS_ENOTRACK = 3,	/* not mounted with hot_track / kernel lacks it */
	HS_ENODATA = 4,		/* file never tracked */
	/* 5 was "debugfs not mounted": hotstat no longer reads debugfs */
	HS_EPERM = 6,		/* not root (mount-wide views are root only) */
	HS_EBADFILE = 7,	/* a heat file corrupt, truncated, of another
				   version or of another filesystem */
};

#define HS_NEVER UINT64_MAX	/* avg_delta_* before any interval */
#define HS_BUCKETS 256		/* heat map buckets: the top 8 bits of temp */
#define HS_RANGE_DEFAULT (1ULL << 20)

/* One record of FS_IOC_HOT_LIST */
struct hs_item {
	uint64_t ino;
	uint64_t start, len;	/* ranges only; len 0 for a file */
	uint64_t read_bytes, write_bytes;
	uint32_t gen;
	uint32_t reads, writes;
	unsigned int temp;	/* heat map bucket, 0-255 */
};

struct hot_record;

/* parse.c */
int hs_parse_u64(const char *s, uint64_t *v);
int hs_parse_uint(const char *s, unsigned int min, unsigned int max,
		  unsigned int *v);
int hs_parse_seconds(const char *s, double *secs);
int hs_parse_size(const char *s, uint64_t *bytes);

struct hs_mountinfo {
	unsigned int major, minor;
	char root[4096];
	char mountpoint[4096];
	char fstype[64];
	char source[4096];
	char superopts[1024];
};
int hs_parse_mountinfo(const char *line, struct hs_mountinfo *mi);
void hs_unescape_octal(char *s);
bool hs_opt_has(const char *opts, const char *opt);

/* format.c */
extern char hs_err[512];	/* the message of the last failure */
__attribute__((format(printf, 2, 3)))
int hs_fail(int code, const char *fmt, ...);
char *hs_fmt_duration(char *buf, size_t n, uint64_t ns);
char *hs_fmt_ago(char *buf, size_t n, uint64_t then_ns, uint64_t now_ns);
char *hs_fmt_time(char *buf, size_t n, uint64_t ns, uint64_t now_ns);
char *hs_fmt_iso(char *buf, size_t n, uint64_t ns);
char *hs_fmt_size(char *buf, size_t n, uint64_t bytes);
char *hs_fmt_interval(char *buf, size_t n, uint64_t ns, uint64_t limit_ns);

struct hs_json {
	FILE *f;
	int depth;
	bool first[64];
	bool after_key;
};
void hs_json_init(struct hs_json *j, FILE *f);
void hs_json_begin_obj(struct hs_json *j);
void hs_json_end_obj(struct hs_json *j);
void hs_json_begin_arr(struct hs_json *j);
void hs_json_end_arr(struct hs_json *j);
void hs_json_key(struct hs_json *j, const char *k);
void hs_json_str(struct hs_json *j, const char *s);
void hs_json_u64(struct hs_json *j, uint64_t v);
void hs_json_double(struct hs_json *j, double v);
void hs_json_bool(struct hs_json *j, bool v);
void hs_json_null(struct hs_json *j);
void hs_json_end(struct hs_json *j);	/* newline after the document */

void hs_prom_label(FILE *f, const char *name, const char *value, bool first);

/* The map strip: @n cells from @nranges range temperatures (-1: untracked) */
int hs_temp_digit(int temp, int min, int max);
void hs_strip_cells(const int *temps, size_t nranges, int *cells,
		    size_t ncells);
size_t hs_strip_width(size_t nranges, int columns);
const char *hs_digit_colour(int digit);
void hs_strip_text(char *buf, const int *cells, size_t n, int min, int max);
void hs_print_strip(FILE *f, const int *cells, size_t n, int min, int max,
		    bool colour);

/* paths.c */
struct hs_paths;
struct hs_paths *hs_paths_new(const char *root, unsigned long long dev);
const char *hs_paths_lookup(struct hs_paths *p, uint64_t ino);
size_t hs_paths_count(const struct hs_paths *p);
void hs_paths_free(struct hs_paths *p);

/* heatfile.c */
#define HS_HEAT_VERSION 1
struct hs_heat {
	char path[4096];
	int fd;
	uint32_t version, record_size;
	uint64_t nr_files, nr_ranges;
	uint64_t saved_at;	/* ns since the Epoch */
	uint64_t pos;		/* records read by hs_heat_next() */
	uint8_t uuid[16];
};
uint32_t hs_crc32c(uint32_t crc, const void *buf, size_t len);
const char *hs_heat_check_record(const struct hot_record *r, bool range,
				 uint64_t now);
int hs_heat_save(const char *path, const struct hs_heat *h,
		 const struct hot_record *files,
		 const struct hot_record *ranges);
int hs_heat_open(const char *path, struct hs_heat *h, uint64_t now);
long hs_heat_next(struct hs_heat *h, struct hot_record *v, size_t max);
void hs_heat_close(struct hs_heat *h);

/* kernel.c */
struct hs_mount {
	char path[4096];	/* the mount point */
	char fstype[64];
	char source[4096];
	char devname[256];	/* the device's kernel name ("vda") */
	unsigned long long dev;	/* st_dev of the mount root */
};
int hs_find_mount(const char *path, struct hs_mount *m);
int hs_list_records(const struct hs_mount *m, bool ranges,
		    struct hot_record **recs, size_t *n);
int hs_list_items(const struct hs_mount *m, bool ranges,
		  struct hs_item **items, size_t *n);
int hs_fs_uuid(const struct hs_mount *m, uint8_t uuid[16]);
struct hs_restore_counts {
	uint64_t applied, stale, expired, dropped;
};
int hs_restore(const struct hs_mount *m, int fd, const struct hot_record *v,
	       size_t n, struct hs_restore_counts *c);
int hs_heat_info(const char *path, int live, void *info);
uint64_t hs_now_ns(void);
int hs_update_delay(void);
int hs_kick_time(void);
uint64_t hs_interval_limit_ns(void);

/* act.c */
struct hs_warm_opts {
	const char *mount;
	const char *from;	/* a heat file, or NULL for the live heat */
	uint64_t bytes;		/* the budget; 0: half of MemAvailable */
	bool force;		/* --from a file of another filesystem */
	bool json;
	bool progress;		/* a progress line on stderr */
};
int hs_warm(const struct hs_warm_opts *o, volatile sig_atomic_t *stop);
int hs_advise(const char *mount, uint64_t fast, bool json);

#endif
