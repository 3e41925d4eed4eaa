#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# PID 1 of the test guest (see scripts/boot.sh). The root file system is the
# host's /, shared read-only over virtio-9p; everything writable is tmpfs,
# except the results share (the host's results directory, 9p tag 'results').
#
# Runs $RESULTS/cmd.sh (written by boot.sh) with $TOP as working directory,
# stores its exit status in $RESULTS/rc, syncs and powers off. Lines starting
# with 'hot-guest:' are markers the host looks for.
set -euo pipefail
# Markers go through /dev/kmsg (devtmpfs is mounted by the kernel already) so
# that they carry a kernel timestamp in the console log.
say() { echo "hot-guest: $*" 2>/dev/null > /dev/kmsg || echo "hot-guest: $*"; }
say init

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp LANG=C.UTF-8 TERM=${TERM:-linux}
TOP=$(cd "$(dirname "$0")/.." && pwd)
RESULTS=/tmp/results
export HOT_RESULTS=$RESULTS HOT_TOP=$TOP

poweroff_now() {
	trap - ERR EXIT
	say poweroff
	sync
	umount "$RESULTS" 2>/dev/null || true
	# Falls through (and PID 1 exits: panic, and QEMU quits thanks to
	# panic=-1 -no-reboot) only if the helper is missing or fails.
	"$TOP/build/guest/poweroff"
	say "poweroff failed"
	exit 1
}
trap 'say "init failed at line $LINENO: $BASH_COMMAND"; poweroff_now' ERR
trap poweroff_now EXIT

# Every exec costs ~0.3 s under TCG: test for mount points without one.
mounted() {
	local _ where rest
	while read -r _ where rest; do
		[ "$where" = "$1" ] && return 0
	done < /proc/mounts
	return 1
}
mnt() { # mnt TYPE WHERE [OPTIONS]
	mounted "$2" || mount -t "$1" ${3:+-o "$3"} "$1" "$2"
}

mount -t proc proc /proc
mnt sysfs /sys
mnt devtmpfs /dev
mnt tmpfs /run mode=755
# A checkout under /tmp (CI clones can live there) would vanish under the
# tmpfs: keep the host's copy visible at the same path.
case $TOP in
/tmp/*)
	mkdir -p /run/host-tmp
	mount --bind /tmp /run/host-tmp
	mnt tmpfs /tmp mode=1777
	mkdir -p "$TOP"
	mount --bind "/run/host-tmp/${TOP#/tmp/}" "$TOP"
	;;
*)
	mnt tmpfs /tmp mode=1777
	;;
esac
mkdir -p /dev/pts /dev/shm "$RESULTS" /tmp/mnt /tmp/mnt2
mnt devpts /dev/pts gid=5,mode=620,ptmxmode=666
mnt tmpfs /dev/shm mode=1777
mnt debugfs /sys/kernel/debug || true
# Writable spots some tools expect.
mount --bind /tmp /var/tmp 2>/dev/null || true
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 results "$RESULTS"
echo hot-guest > /proc/sys/kernel/hostname

# Forget objects allocated during boot: only leaks from the tests count.
if [ -e /sys/kernel/debug/kmemleak ]; then
	echo clear > /sys/kernel/debug/kmemleak
fi

say "running $RESULTS/cmd.sh in $TOP"
cd "$TOP"
# A session of its own with the console as controlling terminal, so an
# interactive shell gets job control and ^C.
rc=0
setsid --ctty --wait bash "$RESULTS/cmd.sh" || rc=$?
echo "$rc" > "$RESULTS/rc"
say "exit $rc"
cd /
poweroff_now
