# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What the guest sides of the benchmark and the profile share
# (guest/bench.sh, guest/profile.sh). Sourced, not run.

# say MESSAGE: to the console, where the host's script picks it up
say() { echo "hot-guest: $*" 2>/dev/null > /dev/kmsg || echo "hot-guest: $*"; }

# mount_fs FS DEV DIR [OPTIONS]: mount, btrfs without its online discard:
# on a disk that can discard (the RAM disks) btrfs turns on discard=async,
# whose worker frees the blocks' pages at times of its own, in the runs or
# not, and the next writes there allocate them again
mount_fs() {
	local opts=${4:-}
	[ "$1" != btrfs ] || opts=nodiscard${opts:+,$opts}
	mount -t "$1" ${opts:+-o "$opts"} "$2" "$3"
}

mkfs_quiet() { # mkfs_quiet FS DEV
	wipefs -a -q "$2" 2>/dev/null || true
	case $1 in
	btrfs) mkfs.btrfs -q -f "$2" >/dev/null ;;
	# No lazy init: its kernel thread would write during the runs
	ext4) mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$2" ;;
	xfs) mkfs.xfs -q -f "$2" ;;
	*) echo "unknown fs $1" >&2; return 1 ;;
	esac
}
