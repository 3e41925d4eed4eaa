/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Hot data tracking: the user space interface.
 *
 * See Documentation/filesystems/hot_tracking.rst.
 */
#ifndef _UAPI_LINUX_HOT_TRACKING_H
#define _UAPI_LINUX_HOT_TRACKING_H

#include <linux/ioctl.h>
#include <linux/types.h>

/**
 * struct hot_heat_info - I/O frequency of one file
 * @avg_delta_reads: average time between two reads, in nanoseconds
 *	(an exponentially weighted moving average; 0 before two reads)
 * @avg_delta_writes: average time between two writes, in nanoseconds
 * @last_read_time: time of the last read, in nanoseconds since the Epoch
 *	(CLOCK_REALTIME); 0 if the file was never read
 * @last_write_time: time of the last write, as @last_read_time
 * @num_reads: number of reads that reached the storage
 * @num_writes: number of writes that reached the storage
 * @temp: the temperature, 0 (cold) to 2^32 - 1 (hot)
 * @live: in: non-zero to recompute @temp now, zero for the value stored at
 *	the last periodic update
 * @__pad: must be zero
 *
 * The layout is the same on 32-bit and 64-bit user space: 48 bytes.
 */
struct hot_heat_info {
	__u64 avg_delta_reads;
	__u64 avg_delta_writes;
	__u64 last_read_time;
	__u64 last_write_time;
	__u32 num_reads;
	__u32 num_writes;
	__u32 temp;
	__u8 live;
	__u8 __pad[3];
};

/**
 * struct hot_record - the heat of one file or one range of a file
 * @key: the file's key on its filesystem: its inode number, or where inode
 *	numbers repeat (btrfs subvolumes) a value unique among its files
 * @ino: the file's inode number
 * @start: first byte of the range; 0 for a file
 * @len: bytes in the range; 0 for a file
 * @avg_delta_reads: as &struct hot_heat_info
 * @avg_delta_writes: as &struct hot_heat_info
 * @last_read_time: as &struct hot_heat_info (CLOCK_REALTIME), 0 for never
 * @last_write_time: as @last_read_time
 * @read_bytes: bytes read from the storage
 * @write_bytes: bytes written to the storage
 * @gen: the file's generation: a file of the same inode number and another
 *	generation is another file
 * @num_reads: reads that reached the storage
 * @num_writes: writes that reached the storage
 * @temp: the temperature, 0 (cold) to 2^32 - 1 (hot), as of the last
 *	periodic update
 * @flags: %HOT_RECORD_RANGE for a range
 * @__reserved: zero
 *
 * 104 bytes, the same on 32-bit and 64-bit user space. A later version may
 * grow it at the end: see &struct hot_list_args.record_size.
 */
struct hot_record {
	__u64 key;
	__u64 ino;
	__u64 start;
	__u64 len;
	__u64 avg_delta_reads;
	__u64 avg_delta_writes;
	__u64 last_read_time;
	__u64 last_write_time;
	__u64 read_bytes;
	__u64 write_bytes;
	__u32 gen;
	__u32 num_reads;
	__u32 num_writes;
	__u32 temp;
	__u32 flags;
	__u32 __reserved;
};

#define HOT_RECORD_RANGE	(1U << 0)	/* a range, not a file */

#define HOT_RECORD_SIZE_VER0	104	/* sizeof first published struct */

/**
 * struct hot_list_args - the hottest files or ranges of a filesystem
 * @size: sizeof(struct hot_list_args) as the caller knows it, at least
 *	%HOT_LIST_ARGS_SIZE_VER0; the bytes the kernel does not know must
 *	be zero
 * @flags: %HOT_LIST_RANGES to list ranges, not files; other bits must be 0
 * @records: pointer to room for @count records of @record_size bytes
 * @record_size: sizeof(struct hot_record) as the caller knows it, at
 *	least %HOT_RECORD_SIZE_VER0; the kernel fills what it knows of each
 *	record and zeroes the rest
 * @count: in: room in @records, 1 or more (the kernel fills at most
 *	%HOT_LIST_MAX); out: records filled
 * @min_temp: only items at least this hot
 * @__reserved0: must be zero
 * @cursor: in: zero to start, else as the last call left it; out: where
 *	the next call goes on, zero once the walk is done (a call may fill
 *	no record and still leave a cursor). Opaque.
 * @__reserved: must be zero
 *
 * Records come hottest first by temperature bucket, the top 8 bits of
 * @temp; within a bucket in no particular order. Each item comes at most
 * once in a walk; one that appears during the walk may or may not come.
 * 88 bytes, the same on 32-bit and 64-bit user space.
 */
struct hot_list_args {
	__u64 size;
	__u64 flags;
	__u64 records;
	__u32 record_size;
	__u32 count;
	__u32 min_temp;
	__u32 __reserved0;
	__u64 cursor[5];
	__u64 __reserved;
};

#define HOT_LIST_RANGES		(1ULL << 0)	/* ranges, not files */

#define HOT_LIST_ARGS_SIZE_VER0	88	/* sizeof first published struct */

#define HOT_LIST_MAX		1024	/* most records one call fills */

/**
 * struct hot_restore_args - bring back the heat of files and ranges
 * @size: sizeof(struct hot_restore_args) as the caller knows it, at least
 *	%HOT_RESTORE_ARGS_SIZE_VER0; the bytes the kernel does not know must
 *	be zero
 * @flags: must be 0
 * @records: pointer to @count records of @record_size bytes, as
 *	FS_IOC_HOT_LIST filled them (@temp is not read: the kernel computes
 *	the temperature anew)
 * @record_size: sizeof(struct hot_record) as the caller knows it, at
 *	least %HOT_RECORD_SIZE_VER0; the bytes of a record the kernel does
 *	not know must be zero
 * @count: records at @records, 1 to %HOT_LIST_MAX
 * @applied: out: records whose heat the kernel now holds
 * @stale: out: records skipped because their file is gone, or its inode
 *	number is another file's now (another generation), or the
 *	filesystem does not track it
 * @expired: out: records skipped because their last I/O is older than
 *	hot-kick-time: the kernel would forget them at its next update
 * @dropped: out: records skipped at the caps on items
 *	(hot-max-items, hot-max-kbytes) or for want of memory
 * @error_index: out: the index of the record a call failed on with
 *	-EINVAL or -E2BIG, before it applied any; else %U32_MAX
 * @__reserved0: must be zero
 * @__reserved: must be zero
 *
 * The kernel ignores what @applied to @error_index hold on entry. It
 * checks every record before it applies any. A call that fails later, on
 * a fatal signal or an error of the filesystem, still says in @applied,
 * @stale, @expired and @dropped what it did: the records before the sum
 * of the four were done, the others not. 64 bytes, the same on 32-bit and
 * 64-bit user space.
 */
struct hot_restore_args {
	__u64 size;
	__u64 flags;
	__u64 records;
	__u32 record_size;
	__u32 count;
	__u32 applied;
	__u32 stale;
	__u32 expired;
	__u32 dropped;
	__u32 error_index;
	__u32 __reserved0;
	__u64 __reserved;
};

#define HOT_RESTORE_ARGS_SIZE_VER0 64	/* sizeof first published struct */

/*
 * Flags of an open file for FS_IOC_HOT_SET_FILE_FLAGS and
 * FS_IOC_HOT_GET_FILE_FLAGS. HOT_FILE_UNTRACKED: the reads, faults and
 * direct writes issued through this open file are not counted (a tool
 * that warms the page cache reads without heating). Buffered writes count
 * at writeback, whichever file dirtied the pages.
 */
#define HOT_FILE_UNTRACKED	(1ULL << 0)

/*
 * Heat of the open file; see struct hot_heat_info. 'f' 0x60 to 0x6f are
 * hot tracking's. (Before 2026-12, _IOR('f', 17), which EXT4_IOC_SWAP_BOOT
 * numbers too: that command was never in a released kernel.)
 */
#define FS_IOC_GET_HEAT_INFO	_IOWR('f', 0x60, struct hot_heat_info)

/*
 * The hottest files or ranges of the filesystem of the file, a page at a
 * time; see struct hot_list_args. Needs CAP_SYS_ADMIN. The number keeps
 * the size of version 0: later versions grow @size, not the number.
 */
#define FS_IOC_HOT_LIST		_IOWR('f', 0x61, struct hot_list_args)

/*
 * Bring back saved heat into the filesystem of the file; see struct
 * hot_restore_args. Needs CAP_SYS_ADMIN. Sized as FS_IOC_HOT_LIST is.
 */
#define FS_IOC_HOT_RESTORE	_IOWR('f', 0x62, struct hot_restore_args)

/*
 * Set the hot tracking flags (HOT_FILE_*) of the open file to the __u64
 * pointed to; other bits must be 0. The flags belong to the open file, not
 * to the inode, and go with it at the last close.
 */
#define FS_IOC_HOT_SET_FILE_FLAGS _IOW('f', 0x63, __u64)

/* The hot tracking flags (HOT_FILE_*) of the open file, into the __u64 */
#define FS_IOC_HOT_GET_FILE_FLAGS _IOR('f', 0x64, __u64)

#endif /* _UAPI_LINUX_HOT_TRACKING_H */
