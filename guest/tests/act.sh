#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Acting on the heat (see guest/run-tests.sh for the environment), TAP 13 on
# stdout:
#
#   logical  hot_track=logical counts cached buffered reads and mmap faults,
#            plain hot_track does not
#   warm     hotstat warm fills the page cache with the hottest ranges,
#            hottest first, within its budget, from the live heat and from a
#            heat file, without changing any count; bad input and callers
#            are refused with the documented exit status
#   advise   on a workload with a known answer: 4 MiB of fast storage holds
#            hot.img, which got 40 of the 44 reads on record
#
# The files are written on a mount without tracking: only the reads that
# follow make heat (btrfs writes a file with data checksums back a folio at a
# time even with O_DIRECT, and 256 writes a MiB would outweigh the reads).
# Workloads are dd and fio, a handful of processes: every exec costs seconds
# in a debug guest.
set -uo pipefail
TOP=${HOT_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
HS=$TOP/build/guest/hotstat
fs=${HOT_FS:?} dev=${HOT_DEV:?} mnt=${HOT_MNT:?}
W=$(mktemp -d /tmp/act-test.XXXXXX)
chmod 755 "$W"
delay_file=/proc/sys/fs/hot-update-delay
old_delay=$(cat "$delay_file" 2>/dev/null || echo 300)
. "$TOP/guest/testlib.sh"

finish() {
	echo "$old_delay" > "$delay_file" 2>/dev/null
	umount "$mnt" 2>/dev/null
	rm -rf "$W"
	echo "# ${SECONDS}s: done"
	tap_plan
	exit $(( failed ? 1 : 0 ))
}
trap finish EXIT
SECONDS=0
bail() { echo "Bail out! $*"; exit 1; }
[ -x "$HS" ] || bail "no $HS (scripts/build-guest.sh builds it)"

MiB=1048576
# reads NAME: the read count of $mnt/NAME in hotstat top, "none" if untracked
reads() {
	"$HS" --json top -n 0 "$mnt" | python3 -c '
import json, sys
want = sys.argv[1]
for it in json.load(sys.stdin)["items"]:
    if it.get("path") == want:
        print(it["reads"]); break
else:
    print("none")' "$mnt/$1"
}
# resident NAME: bytes of $mnt/NAME in the page cache
resident() {
	fincore -b -n -o RES "$mnt/$1" | tr -d ' '
}
mkfile() { # mkfile NAME MiB: written with O_DIRECT, so nothing is cached
	dd if=/dev/urandom of="$mnt/$1" bs=1M count="$2" oflag=direct \
		status=none
}
# dread NAME TIMES: TIMES direct reads of every MiB of NAME, in one fio
dread() {
	fio --name=r --filename="$mnt/$1" --rw=read --bs=1M --direct=1 \
		--loops="$2" --output=/dev/null
}
drop_caches() {
	sync
	echo 1 > /proc/sys/vm/drop_caches
}

mkfs_ "$dev" || bail "mkfs.$fs $dev failed"

# --- logical mode ---
echo "# ${SECONDS}s: logical mode"
for mode in plain logical; do
	opts=hot_track
	[ $mode = logical ] && opts=hot_track=logical
	mount -t "$fs" -o "$opts" "$dev" "$mnt" || bail "mount -o $opts failed"
	mkfile m.img 4
	drop_caches
	# All of it cached by one read; then 6 reads of 4 KiB and a read
	# fault on each MiB (a fault maps 64 KiB around it at most), all
	# served by the page cache
	python3 -c 'import os,sys; fd = os.open(sys.argv[1], os.O_RDONLY); os.pread(fd, 4 << 20, 0)' "$mnt/m.img"
	r1=$(reads m.img)
	python3 - "$mnt/m.img" <<-'EOF'
	import mmap, os, sys
	fd = os.open(sys.argv[1], os.O_RDONLY)
	for _ in range(6):
	    os.pread(fd, 4096, 0)
	m = mmap.mmap(fd, 0, prot=mmap.PROT_READ)
	for off in range(0, 4 << 20, 1 << 20):
	    m[off]
	m.close()
	os.close(fd)
	EOF
	r2=$(reads m.img)
	if [ $mode = logical ]; then
		ok $(( r1 != 1 || r2 != 11 )) "logical: the first read once, then 6 cached reads and 4 faults (got $r1, then $r2)"
	else
		ok $(( r1 < 1 || r2 != r1 )) "plain: the first read's readahead, cached reads and faults not counted (got $r1, then $r2)"
	fi
	umount "$mnt"
	mkfs_ "$dev" || bail "mkfs.$fs $dev failed"
done

# --- warm ---
echo "# ${SECONDS}s: warm"
mount -t "$fs" "$dev" "$mnt" || bail "mount $dev failed"
mkdir "$mnt/d"
mkfile d/hot1.img 4
mkfile d/hot2.img 4
mkfile d/cold.img 8
mkfile d/mid.img 4
umount "$mnt"
mount -t "$fs" -o hot_track=logical "$dev" "$mnt" || bail "mount -o hot_track=logical failed"
# cold.img first: the temperature weighs recency too, and a cold read last
# could outrank mid.img on a slow guest
dread d/cold.img 1
dread d/hot1.img 8
dread d/hot2.img 8
dread d/mid.img 2
# The heat maps are sorted by the periodic update: every second
echo 1 > "$delay_file"
sleep 3
"$HS" --json top -n 0 "$mnt" > "$W/before.json" || bail "hotstat top failed"
check "save the heat" 0 "$HS" save "$mnt" "$W/heat"
chmod 644 "$W/heat"
drop_caches

check "warm --bytes 8M (live heat)" 0 "$HS" warm --bytes 8M "$mnt"
cp "$W/out" "$W/warm.out"
ok $(( $(resident d/hot1.img) != 4 * MiB || $(resident d/hot2.img) != 4 * MiB )) \
	"warm: the two hot files are in the page cache" \
	"$(fincore "$mnt"/d/*)" "$(cat "$W/warm.out")"
ok $(( $(resident d/cold.img) + $(resident d/mid.img) > MiB / 4 )) \
	"warm: within its budget, nothing colder read" "$(fincore "$mnt"/d/*)"
ok $(( $(grep -c "8 MiB of 8 MiB cached" "$W/warm.out") != 1 )) \
	"warm: the summary says 8 MiB cached" "$(cat "$W/warm.out")"
ok $(( $(wc -l < "$W/err") != 0 )) "warm: quiet when not on a terminal" \
	"$(cat "$W/err")"
"$HS" --json top -n 0 "$mnt" > "$W/after.json"
python3 - "$W/before.json" "$W/after.json" > "$W/cmp" 2>&1 <<-'EOF'
import json, sys
def counts(p):
    return {it["path"]: (it["reads"], it["writes"])
            for it in json.load(open(p))["items"]}
a, b = counts(sys.argv[1]), counts(sys.argv[2])
print("before", a)
print("after ", b)
sys.exit(a != b)
EOF
ok $? "warm: no count changed (hot_track=logical counts every read)" "$(cat "$W/cmp")"

check "warm again: all of it cached already" 0 "$HS" --json warm --bytes 8M "$mnt"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d["cached_bytes"] == 8 << 20 and d["read_bytes"] == 0 and d["resident_bytes"] == 8 << 20))' "$W/out"
ok $? "warm --json: what was cached already is not read again" "$(cat "$W/out")"

# After a remount the live heat is gone: warm from the saved heat
umount "$mnt"
mount -t "$fs" -o hot_track=logical "$dev" "$mnt" || bail "remount failed"
check "warm --from the heat file after a remount" 0 "$HS" warm --from "$W/heat" --bytes 12M "$mnt"
cp "$W/out" "$W/warm2.out"
ok $(( $(resident d/hot1.img) != 4 * MiB || $(resident d/hot2.img) != 4 * MiB ||
       $(resident d/mid.img) != 4 * MiB || $(resident d/cold.img) > MiB / 4 )) \
	"warm --from: the hot files, then mid.img, not cold.img" \
	"$(fincore "$mnt"/d/*)" "$(cat "$W/warm2.out")"
r=$("$HS" --json top -n 0 "$mnt" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["items"]))')
ok $(( r != 0 )) "warm --from: nothing tracked, nothing heated ($r items)"

# A file replaced since the save is skipped; one unreadable to the caller too
rm "$mnt/d/mid.img"
sync
mkfile d/mid.img 4
chmod 600 "$mnt/d/hot2.img"
drop_caches
check "warm as nobody from a heat file" 0 setpriv --reuid=65534 --regid=65534 \
	--clear-groups "$HS" --json warm --from "$W/heat" --bytes 64M "$mnt"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d["skipped_unreadable"] == 4 and d["skipped_gone"] == 4 and d["read_bytes"] == 12 << 20))' "$W/out"
ok $? "warm: 4 ranges unreadable (hot2.img), 4 of a replaced file (mid.img) skipped, hot1.img and cold.img read" "$(cat "$W/out")"
ok $(( $(resident d/mid.img) != 0 || $(resident d/hot2.img) != 0 ||
       $(resident d/hot1.img) != 4 * MiB )) \
	"warm: the replaced and the unreadable file not read, hot1.img read" \
	"$(fincore "$mnt"/d/*)"
chmod 644 "$mnt/d/hot2.img"

# Another file system mounted over d/: its files are not the records' and
# are not read, nor are the hidden ones
drop_caches
mount -t tmpfs -o size=64m tmpfs "$mnt/d" || bail "mount tmpfs on $mnt/d failed"
cp /dev/null "$mnt/d/hot1.img"
check "warm: a directory mounted over" 0 "$HS" --json warm --from "$W/heat" --bytes 64M "$mnt"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d["read_bytes"] == 0 and d["skipped_gone"] == 20))' "$W/out"
ok $? "warm: nothing read out of the mount or under another one (20 ranges gone)" "$(cat "$W/out")"
umount "$mnt/d"
ok $(( $(resident d/hot1.img) != 0 )) "warm: the hidden files stayed out of the cache"

# ^C: a warm-up of 1 GiB (of holes: fast, but not a second's work in a
# debug guest) stopped after a second says what it did and exits 1
truncate -s 1G "$mnt/sparse.img"
fio --name=touch --filename="$mnt/sparse.img" --rw=read:1020k --bs=4k \
	--direct=1 --size=1G --output=/dev/null
sleep 2
drop_caches
rc=0
timeout --preserve-status -s INT 1 "$HS" warm --bytes 1G "$mnt" > "$W/out" 2> "$W/err" || rc=$?
ok $(( rc != 1 || $(grep -c "interrupted" "$W/err") != 1 ||
       $(grep -c " of 1 GiB cached" "$W/out") != 1 )) \
	"warm: ^C stops it, with the summary of what it did and exit 1" \
	"exit $rc" "$(cat "$W/out")" "$(cat "$W/err")"
rm "$mnt/sparse.img"

check "warm --bytes 0" 2 "$HS" warm --bytes 0 "$mnt"
check "warm --bytes -5" 2 "$HS" warm --bytes -5 "$mnt"
check "warm --bytes garbage" 2 "$HS" warm --bytes lots "$mnt"
check "warm as nobody from the live heat" 6 setpriv --reuid=65534 \
	--regid=65534 --clear-groups "$HS" warm "$mnt"
head -c 100 "$W/heat" > "$W/short"
check "warm --from a truncated heat file" 7 "$HS" warm --from "$W/short" "$mnt"
check "warm --from a missing heat file" 1 "$HS" warm --from "$W/none" "$mnt"
umount "$mnt"

# --- advise ---
echo "# ${SECONDS}s: advise"
mkfs_ "$dev" || bail "mkfs.$fs $dev failed"
mount -t "$fs" "$dev" "$mnt" || bail "mount $dev failed"
mkfile hot.img 4
mkfile cold.img 4
umount "$mnt"
mount -t "$fs" -o hot_track "$dev" "$mnt" || bail "mount -o hot_track failed"
dread hot.img 10
dread cold.img 1
sleep 3
check "advise --fast 4M" 0 "$HS" --json advise --fast 4M "$mnt"
python3 - "$W/out" "$mnt" > "$W/cmp" 2>&1 <<-'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print(d)
f = d["files"]
sys.exit(not (len(f) == 1 and f[0]["path"] == sys.argv[2] + "/hot.img" and
              f[0]["whole"] and d["reads"] == 44 and d["reads_served"] == 40 and
              abs(d["read_share"] - 40 / 44) < 0.001 and
              d["placed_bytes"] == 4 << 20))
EOF
ok $? "advise: hot.img whole, 40 of 44 reads (90.9%)" "$(cat "$W/cmp")"
check "advise --fast 6M, text" 0 "$HS" advise --fast 6M "$mnt"
ok $(( $(grep -c "90.9% of the reads\|95.5% of the reads" "$W/out") != 1 ||
       $(grep -c "whole file .*/hot.img" "$W/out") != 1 )) \
	"advise: text output, hot.img first as a whole file" "$(cat "$W/out")"
big=$(( $(stat -f -c '%b * %S' "$mnt") + MiB ))
check "advise --fast larger than the file system" 2 "$HS" advise --fast "$big" "$mnt"
check "advise --fast 0" 2 "$HS" advise --fast 0 "$mnt"
check "advise as nobody" 6 setpriv --reuid=65534 --regid=65534 \
	--clear-groups "$HS" advise --fast 4M "$mnt"
umount "$mnt"

mount -t "$fs" "$dev" "$mnt" || bail "mount without hot_track failed"
check "warm: a mount without hot_track" 3 "$HS" warm "$mnt"
check "advise: a mount without hot_track" 3 "$HS" advise --fast 1M "$mnt"
umount "$mnt"
