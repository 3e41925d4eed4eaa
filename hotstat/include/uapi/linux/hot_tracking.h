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

/*
 * Heat of the open file; see struct hot_heat_info. 'f' 0x60 to 0x6f are
 * hot tracking's. (Before 2026-12, _IOR('f', 17), which EXT4_IOC_SWAP_BOOT
 * numbers too: that command was never in a released kernel.)
 */
#define FS_IOC_GET_HEAT_INFO	_IOWR('f', 0x60, struct hot_heat_info)

#endif /* _UAPI_LINUX_HOT_TRACKING_H */
