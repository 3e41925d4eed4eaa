#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# hotstat save and restore (FS_IOC_HOT_RESTORE) against a tracked mount
# (see guest/run-tests.sh for the environment): heat saved before an
# unmount comes back after it, the same files and ranges in the same order
# with the same counts; a file deleted and replaced gets none of it; bad
# heat files, another filesystem's, callers without root and mounts without
# tracking are refused with the documented exit status. TAP 13 on stdout.
set -uo pipefail
TOP=${HOT_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
HS=$TOP/build/guest/hotstat
fs=${HOT_FS:?} dev=${HOT_DEV:?} mnt=${HOT_MNT:?}
dev2=${HOT_DEV2:?} mnt2=${HOT_MNT2:?}
W=$(mktemp -d /tmp/persist-test.XXXXXX)
delay_file=/proc/sys/fs/hot-update-delay
old_delay=$(cat "$delay_file" 2>/dev/null || echo 300)
. "$TOP/guest/testlib.sh"

finish() {
	echo "$old_delay" > "$delay_file" 2>/dev/null
	umount "$mnt2" 2>/dev/null
	umount "$mnt" 2>/dev/null
	rm -rf "$W"
	echo "# ${SECONDS}s: done"
	tap_plan
	exit $(( failed ? 1 : 0 ))
}
trap finish EXIT
SECONDS=0
bail() { echo "Bail out! $*"; exit 1; }
# lists NAME: the files and the ranges of the mount as hotstat shows them
lists() {
	"$HS" --json top -n 0 "$mnt" > "$W/$1.files.json" &&
		"$HS" --json top --ranges -n 0 "$mnt" > "$W/$1.ranges.json"
}
compare() { # compare BEFORE AFTER
	python3 "$TOP/guest/heat-compare.py" files "$W/$1.files.json" \
		"$W/$2.files.json" > "$W/cmp.out" 2>&1
	python3 "$TOP/guest/heat-compare.py" ranges "$W/$1.ranges.json" \
		"$W/$2.ranges.json" >> "$W/cmp.out" 2>&1
	tap_py "$W/cmp.out"
}

[ -x "$HS" ] || bail "no $HS (scripts/build-guest.sh builds it)"
mkfs_ "$dev" || bail "mkfs.$fs $dev failed"
mount -t "$fs" -o hot_track "$dev" "$mnt" || bail "mount -o hot_track $dev failed"

echo "# ${SECONDS}s: the workload"
"$TOP/guest/heat.sh" "$mnt" "$W/fio.out"
ok $? "fio workload: 6 files, 3 ranges of big, each level hotter than the next"
echo 1 > "$delay_file"
sleep 3
lists before || bail "hotstat top failed"

# --- save ---
echo "# ${SECONDS}s: save"
check "save" 0 "$HS" save "$mnt" "$W/mnt.heat"
grep -q "^saved [0-9]* files and [0-9]* ranges of $mnt" "$W/out"
ok $? "save: says what it saved" "$(cat "$W/out")"
ok $(( $(find "$W" -name 'mnt.heat.*' | wc -l) != 0 )) \
	"save: no temporary file left" "$(ls -la "$W")"
check "save again over the file" 0 "$HS" --json save "$mnt" "$W/mnt.heat"
grep -q '"files":[1-9]' "$W/out"
ok $? "save --json: the counts" "$(cat "$W/out")"
check "save into a directory that is not there" 1 "$HS" save "$mnt" "$W/no/such.heat"

# --- unmount, mount, restore ---
echo "# ${SECONDS}s: unmount, mount, restore"
umount "$mnt" && mount -t "$fs" -o hot_track "$dev" "$mnt"
ok $? "unmount and mount again"
check "top after the remount: nothing" 0 "$HS" --json top -n 0 "$mnt"
grep -q '"tracked":0' "$W/out"
ok $? "the heat is gone with the unmount" "$(cat "$W/out")"
check "restore" 0 "$HS" restore "$mnt" "$W/mnt.heat"
grep -q "records applied; 0 stale" "$W/out"
ok $? "restore: every record applied" "$(cat "$W/out")"
lists after
compare before after

# --- a deleted file, its inode number reused ---
echo "# ${SECONDS}s: a file deleted, its inode number reused"
ino=$(stat -c %i "$mnt/p/b")
rm "$mnt/p/b"
sync
reused=""
for i in $(seq 1 20); do
	head -c 4k /dev/zero > "$mnt/p/new$i"
	if [ "$(stat -c %i "$mnt/p/new$i")" = "$ino" ]; then
		reused=$mnt/p/new$i
		break
	fi
done
sync
check "restore after the delete" 0 "$HS" --json restore "$mnt" "$W/mnt.heat"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["stale"] >= 1 else 1)' "$W/out"
ok $? "restore: the deleted file's records are stale" "$(cat "$W/out")"
if [ -n "$reused" ]; then
	check "file: the file of the reused number" 0 "$HS" --json file "$reused"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))[0]; sys.exit(0 if d["reads"] == 0 else 1)' "$W/out"
	ok $? "the new file of inode $ino has none of the old one's reads" "$(cat "$W/out")"
else
	echo "# $fs did not reuse inode $ino in 20 files"
fi

# --- bad heat files ---
echo "# ${SECONDS}s: bad heat files"
size=$(stat -c %s "$W/mnt.heat")
bad() { # bad NAME WANT_MESSAGE: restore $W/bad.heat, exit 7
	check "restore: $1" 7 "$HS" restore "$mnt" "$W/bad.heat"
	grep -q "$2" "$W/err"
	ok $? "restore: $1: says '$2'" "$(cat "$W/err")"
}
cp "$W/mnt.heat" "$W/bad.heat"; truncate -s $((size - 50)) "$W/bad.heat"
bad "truncated" "truncated"
: > "$W/bad.heat"
bad "empty" "empty"
cp "$W/mnt.heat" "$W/bad.heat"
printf '\x5a' | dd of="$W/bad.heat" bs=1 seek=$((64 + 104 + 64)) conv=notrunc status=none
bad "a byte flipped" "checksum mismatch"
cp "$W/mnt.heat" "$W/bad.heat"
printf '\x09' | dd of="$W/bad.heat" bs=1 seek=8 conv=notrunc status=none
bad "a future format version" "format version 9"
echo "not heat" > "$W/bad.heat"
bad "not a heat file" "not a heat file"
check "restore: no such file" 1 "$HS" restore "$mnt" "$W/none.heat"

# --- another filesystem ---
echo "# ${SECONDS}s: another filesystem"
mkfs_ "$dev2" && mount -t "$fs" -o hot_track "$dev2" "$mnt2"
ok $? "a second $fs with hot_track"
check "restore into another filesystem" 7 "$HS" restore "$mnt2" "$W/mnt.heat"
grep -q "was saved from filesystem .*--force" "$W/err"
ok $? "another filesystem: says so, names --force" "$(cat "$W/err")"
check "restore --force into another filesystem" 0 "$HS" --json restore --force "$mnt2" "$W/mnt.heat"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["applied"] == 0 and d["stale"] == d["records"] else 1)' "$W/out"
ok $? "--force: every record stale, none applied to files it does not name" "$(cat "$W/out")"
umount "$mnt2"

# --- callers and mounts ---
echo "# ${SECONDS}s: callers and mounts"
nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
chmod 644 "$W/mnt.heat"
chmod 755 "$W"
check "restore as nobody" 6 "${nobody[@]}" "$HS" restore "$mnt" "$W/mnt.heat"
grep -q "root only" "$W/err"
ok $? "restore as nobody: says root only" "$(cat "$W/err")"
check "save as nobody" 6 "${nobody[@]}" "$HS" save "$mnt" /tmp/nobody.heat
mount -t "$fs" "$dev2" "$mnt2"
check "restore into a mount without hot_track" 3 "$HS" restore --force "$mnt2" "$W/mnt.heat"
umount "$mnt2"
check "restore into an unmounted directory (tmpfs)" 3 "$HS" restore "$mnt2" "$W/mnt.heat"
check "bad arguments: restore without a file" 2 "$HS" restore "$mnt"
