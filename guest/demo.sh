#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of 'make demo': a btrfs scratch disk mounted with hot_track, a
# workload with a known skew, and what hotstat makes of it.
set -euo pipefail
dev=/dev/vda mnt=/tmp/mnt
hs=${HOT_GUEST_BIN:-build/guest}/hotstat

step() { printf '\n==> %s\n' "$*"; }
# Show a command, then run it.
run() { printf '$ %s\n' "${*//"$hs"/hotstat}"; "$@"; }

step "mkfs.btrfs $dev; mount -o hot_track $dev $mnt"
mkfs.btrfs -q -f "$dev" >/dev/null 2>&1
mount -o hot_track "$dev" "$mnt"
grep " $mnt " /proc/mounts

step "workload (one fio, O_DIRECT, 4 s): 20 cold files written once; 3 hot files, and 2 MiB at 16 MiB of the 64 MiB big.img, read over and over"
"$(dirname "$0")/skew.sh" "$mnt" 20 1M 64M 16M 2M 4

step "let the periodic update sort the heat maps: hot-update-delay 300 -> 1 s"
echo 1 > /proc/sys/fs/hot-update-delay
sleep 3

step "the hottest files of the mount (TEMP: heat map bucket 0-255)"
run "$hs" top -n 8 "$mnt"
step "the hottest 1 MiB ranges"
run "$hs" top --ranges -n 6 "$mnt"
step "big.img, one digit per 1 MiB range: 0 coldest .. 9 hottest"
run "$hs" map "$mnt/big.img"
step "one hot and one cold file through FS_IOC_GET_HEAT_INFO"
run "$hs" file --live "$mnt/hot/file0" "$mnt/cold/file0"
step "which files and ranges 8 MiB of fast storage should hold"
run "$hs" advise --fast 8M "$mnt"

step "hot_track=logical counts the reads the page cache serves too"
run mount -o remount,hot_track=logical "$mnt"
before=$("$hs" --json file "$mnt/cold/file1" | sed -n 's/.*"reads":\([0-9]*\).*/\1/p')
cat "$mnt/cold/file1" "$mnt/cold/file1" "$mnt/cold/file1" > /dev/null
after=$("$hs" --json file "$mnt/cold/file1" | sed -n 's/.*"reads":\([0-9]*\).*/\1/p')
printf 'cold/file1: %s reads before, %s after three cat of it\n' "$before" "$after"

step "save the heat, remount with a cold page cache, warm it up without heating it"
run "$hs" save "$mnt" /tmp/demo.heat
umount "$mnt"
echo 3 > /proc/sys/vm/drop_caches
mount -o hot_track=logical "$dev" "$mnt"
run "$hs" warm --from /tmp/demo.heat --bytes 6M "$mnt"
run fincore "$mnt/hot/file0" "$mnt/hot/file1" "$mnt/hot/file2" "$mnt/big.img" "$mnt/cold/file0"
printf '\n(man -l hotstat/hotstat.8; hotstat --help; --json, --prometheus, --watch)\n'
umount "$mnt"
