#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of 'make demo': a btrfs scratch disk mounted with hot_track, a
# workload with a known skew, and what the kernel makes of it.
set -euo pipefail
dev=/dev/vda mnt=/tmp/mnt
dbg=/sys/kernel/debug/hot_track/${dev#/dev/}

step() { printf '\n==> %s\n' "$*"; }

step "mkfs.btrfs $dev; mount -o hot_track $dev $mnt"
mkfs.btrfs -q -f "$dev" 2>/dev/null
mount -o hot_track "$dev" "$mnt"
grep " $mnt " /proc/mounts

step "workload: 20 cold files written once, 3 hot files and one 2 MiB stretch of a 64 MiB file read over and over (fio, O_DIRECT)"
mkdir -p "$mnt/cold" "$mnt/hot"
for i in $(seq -w 1 20); do
	head -c 1M /dev/urandom > "$mnt/cold/file$i"
done
for i in 1 2 3; do
	head -c 1M /dev/urandom > "$mnt/hot/file$i"
done
head -c 64M /dev/zero > "$mnt/big.img"
sync
fio --output=/dev/null --eta=never --name=hot --directory="$mnt/hot" \
	--filename=file1:file2:file3 --rw=randread --bs=4k --direct=1 \
	--size=1M --runtime=4 --time_based
fio --output=/dev/null --eta=never --name=range --filename="$mnt/big.img" \
	--offset=16M --size=2M --rw=randread --bs=4k --direct=1 \
	--runtime=4 --time_based

step "let the periodic update sort the heat maps: hot-update-delay 300 -> 1 s"
echo 1 > /proc/sys/fs/hot-update-delay
sleep 3

names=$(mktemp)
find "$mnt" -xdev -type f -printf '%i %P\n' > "$names"
with_names() {
	awk -v names="$names" '
		BEGIN { while ((getline l < names) > 0) {
				split(l, f, " "); path[f[1]] = substr(l, length(f[1]) + 2) } }
		{ ino = $2; sub(",", "", ino); print $0 "   " (ino in path ? path[ino] : "?") }'
}

step "hottest files: $dbg/hot_spots_inode (temp = heat bucket 0-255)"
head -n 8 "$dbg/hot_spots_inode" | with_names
step "hottest 1 MiB ranges: $dbg/hot_spots_range"
head -n 6 "$dbg/hot_spots_range" | with_names

step "one hot and one cold file through FS_IOC_GET_HEAT_INFO (live temperature)"
for f in hot/file1 cold/file01; do
	"${HOT_GUEST_BIN:-build/guest}/heatinfo" "$mnt/$f"
done
umount "$mnt"
