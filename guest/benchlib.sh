# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What the guest sides of the benchmark and the profile share
# (guest/bench.sh, guest/profile.sh). Sourced, not run.

# say MESSAGE: to the console, where the host's script picks it up
say() { echo "hot-guest: $*" 2>/dev/null > /dev/kmsg || echo "hot-guest: $*"; }

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
