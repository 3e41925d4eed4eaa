#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# hotstat against a tracked mount (see guest/run-tests.sh for the
# environment): a workload with a known skew, then hotstat's output and exit
# statuses; on ext4, hot_track as a default mount option of the superblock.
# TAP 13 on stdout.
#
#   HOT_DEV on HOT_MNT with hot_track: cold/file0..11 written once (O_DIRECT),
#   hot/file0..2 read over and over (O_DIRECT), big.img (16 MiB) of which
#   only 8-9 MiB is read over and over. Every exec costs seconds in the
#   guest (TCG, KASAN): one fio, one python3 for all the JSON.
set -uo pipefail
TOP=${HOT_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
HS=$TOP/build/guest/hotstat
fs=${HOT_FS:?} dev=${HOT_DEV:?} mnt=${HOT_MNT:?}
W=$(mktemp -d /tmp/hotstat-test.XXXXXX)
delay_file=/proc/sys/fs/hot-update-delay
old_delay=$(cat "$delay_file" 2>/dev/null || echo 300)

. "$TOP/guest/testlib.sh"

finish() {
	echo "$old_delay" > "$delay_file" 2>/dev/null
	exec 3<&- 2>/dev/null
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
mkfs_ "$dev" || bail "mkfs.$fs $dev failed"
mount -t "$fs" -o hot_track "$dev" "$mnt" || bail "mount -o hot_track $dev failed"

# --- the workload: one fio process, three jobs ---
echo "# ${SECONDS}s: the workload: one fio process, three jobs"
"$TOP/guest/skew.sh" "$mnt" 12 256k 16M 8M 1M 2 "$W/fio.out"
ok $? "fio workload: 12 cold files written, 3 hot files and 1 MiB of big.img read for 2 s"
# Maps are sorted by the periodic update: make it every second, let it run.
echo 1 > "$delay_file"
sleep 3

hot="$mnt/hot/file0 $mnt/hot/file1 $mnt/hot/file2 $mnt/big.img"

# --- top ---
echo "# ${SECONDS}s: top"
check "top lists the hottest files" 0 "$HS" --color never top -n 0 "$mnt"
cp "$W/out" "$W/top.txt"
first=$(awk 'NR == 3 { print $NF }' "$W/top.txt")
ok $(( $(grep -c -x -F "$first" <<<"${hot// /$'\n'}") != 1 )) \
	"top: a hot file first ($first)" "$(cat "$W/top.txt")"
# every hot file above every cold one
last_hot=0 first_cold=99999
while read -r rank path; do
	case $path in
	"$mnt"/hot/*|"$mnt"/big.img) [ "$rank" -gt "$last_hot" ] && last_hot=$rank ;;
	"$mnt"/cold/*) [ "$rank" -lt "$first_cold" ] && first_cold=$rank ;;
	esac
done <<<"$(awk 'NR > 2 { print $1, $NF }' "$W/top.txt")"	# no /dev/fd here
ok $(( !(last_hot == 4 && first_cold == 5) )) \
	"top: the 4 hot files rank 1-4, the cold ones below (last hot $last_hot, first cold $first_cold)" \
	"$(cat "$W/top.txt")"
ino=$(stat -c %i "$mnt/hot/file1")
ok $(( $(awk -v p="$mnt/hot/file1" '$NF == p' "$W/top.txt" | wc -l) != 1 )) \
	"top: hot/file1 listed under its full path" "$(cat "$W/top.txt")"
ok $(( $(grep -c "$mnt/cold/file" "$W/top.txt") != 12 )) \
	"top: the 12 cold files listed with their paths"
check "top --json" 0 "$HS" --json top -n 0 "$mnt"
cp "$W/out" "$W/top.json"
check "top --ranges --json" 0 "$HS" --json top --ranges -n 0 "$mnt"
cp "$W/out" "$W/ranges.json"
check "top --prometheus" 0 "$HS" top --prometheus -n 5 "$mnt"
cp "$W/out" "$W/top.prom"

# --- map ---
echo "# ${SECONDS}s: map"
check "map of big.img" 0 "$HS" --color never --width 60 map "$mnt/big.img"
cp "$W/out" "$W/map.txt"
strip=$(sed -n 's/^|\(.*\)|$/\1/p' "$W/map.txt")
ok $(( ${#strip} != 16 )) "map: one cell per 1 MiB range of 16 MiB ($strip)" "$(cat "$W/map.txt")"
ok $(( $(grep -o 9 <<<"$strip" | wc -l) != 1 )) "map: one range of digit 9" "$(cat "$W/map.txt")"
ok $(( ${strip:8:1} != 9 )) "map: the hottest cell is 8-9 MiB" "$(cat "$W/map.txt")"
grep -q '^hot: 8 MiB\.\.9 MiB (1 range)' "$W/map.txt"
ok $? "map: legend names the hot stretch 8 MiB..9 MiB" "$(cat "$W/map.txt")"
check "map --json" 0 "$HS" --json map "$mnt/big.img"
cp "$W/out" "$W/map.json"
check "map --color always --width 12" 0 "$HS" --color always --width 12 map "$mnt/big.img"
ok $(( $(grep -c $'\033\\[' "$W/out") < 2 )) "map: colours on request" "$(cat -v "$W/out")"
strip=$(sed -n 's/^|\(.*\)|$/\1/p' "$W/out" | sed 's/\x1b\[[0-9;]*m//g')
ok $(( ${#strip} != 10 )) "map: 16 ranges squeezed into 10 cells ($strip)" "$(cat -v "$W/out")"

# --- file ---
echo "# ${SECONDS}s: file"
check "file: a hot and a cold file" 0 "$HS" file "$mnt/hot/file0" "$mnt/cold/file0"
cp "$W/out" "$W/file.txt"
grep -q '^  reads  .*last 20[0-9-]* [0-9:]* .* ago).*average interval' "$W/file.txt"
ok $? "file: readable last read time and average interval" "$(cat "$W/file.txt")"
grep -q 'average interval never' "$W/file.txt"
ok $? "file: a never read file's read interval is 'never'" "$(cat "$W/file.txt")"
check "file --live --json" 0 "$HS" --json file --live "$mnt/hot/file0" "$mnt/cold/file0"
cp "$W/out" "$W/file.json"
check "--watch 1 --count 2" 0 "$HS" --watch 1 --count 2 --json top -n 1 "$mnt"
ok $(( $(wc -l < "$W/out") != 2 )) "--watch --count 2 --json: two documents"

# --- one python3 for the JSON and the Prometheus format ---
echo "# ${SECONDS}s: one python3 for the JSON and the Prometheus format"
python3 - "$W" "$mnt" "$ino" <<'PY' > "$W/py.out" 2>&1
import json, os, re, sys
w, mnt, ino = sys.argv[1], sys.argv[2], int(sys.argv[3])
hot = {f'{mnt}/hot/file{i}' for i in range(3)} | {f'{mnt}/big.img'}
def t(cond, name, diag=None):
    print(('ok - ' if cond else 'not ok - ') + name)
    if not cond and diag is not None:
        print(json.dumps(diag, indent=1))
def load(f):
    try:
        return json.load(open(os.path.join(w, f)))
    except Exception as e:
        print(f'{f}: {e}')
        return None
d = load('top.json')
t(d is not None, 'top --json parses')
if d:
    it = d['items']
    t(it and it[0]['path'] in hot and it[0]['rank'] == 1, 'top --json: a hot file first')
    t({i['path'] for i in it[:4]} == hot, 'top --json: the 4 hot files first')
    t(any(i['inode'] == ino and i['path'] == f'{mnt}/hot/file1' for i in it),
      'top --json: inode and path of hot/file1 agree')
    t(d['mountpoint'] == mnt and d['tracked'] == 16 and d['kind'] == 'files',
      f'top --json: mount and 16 tracked files ({d["tracked"]})')
    t(all(i['size'] == (16 << 20 if i['path'].endswith('big.img') else
                        1 << 20 if '/hot/' in i['path'] else 256 << 10) for i in it),
      'top --json: file sizes')
d = load('ranges.json')
t(d is not None, 'top --ranges --json parses')
if d:
    big = [i for i in d['items'] if i['path'] == f'{mnt}/big.img']
    t(len(big) == 16 and big[0]['offset'] == 8 << 20 and big[0]['length'] == 1 << 20,
      'top --ranges --json: the hottest range of big.img is 8 MiB')
    t(d['items'][0]['path'] in hot, 'top --ranges --json: a hot range first')
d = load('map.json')
t(d is not None, 'map --json parses')
if d:
    t(d['ranges'] == 16 and d['range_size'] == 1 << 20 and d['strip'][8] == '9'
      and d['hot'] and d['hot'][0]['offset'] == 8 << 20 and d['min_temp'] < d['max_temp'],
      'map --json: strip, range size and hot stretch', d)
d = load('file.json')
t(d is not None, 'file --json parses')
if d:
    h, c = d
    t(h['path'].endswith('/hot/file0') and h['reads'] > 10 and h['live'] and
      h['last_read'] and c['reads'] == 0 and c['writes'] >= 1 and
      c['avg_read_interval_ns'] is None and c['last_read'] is None and h['temperature'] > c['temperature'],
      'file --json: hot file hotter than cold, intervals, live', d)
# Prometheus text exposition format
lines = open(os.path.join(w, 'top.prom')).read().splitlines()
label = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*"'
sample = re.compile(rf'^(hotstat_[a-z_]+)\{{{label}(?:,{label})*\}} [0-9]+$')
meta = re.compile(r'^# (HELP|TYPE) (hotstat_[a-z_]+) .+$')
bad = [l for l in lines if not (sample.match(l) or meta.match(l))]
t(lines and not bad, 'top --prometheus: every line a sample or HELP/TYPE' + (f' (bad: {bad[:3]})' if bad else ''))
types = [l.split()[2] for l in lines if l.startswith('# TYPE')]
t(len(types) == len(set(types)) == 4, f'top --prometheus: 4 metric families, each once ({types})')
t(any(l.startswith('hotstat_file_temperature{') and f'path="{mnt}/' in l for l in lines),
  'top --prometheus: temperature with a path label')
PY
tap_py "$W/py.out"

# --- exit statuses ---
echo "# ${SECONDS}s: exit statuses"
check "bad arguments: top without mount" 2 "$HS" top
check "bad arguments: -n x" 2 "$HS" top -n x "$mnt"
check "no such file" 1 "$HS" file "$mnt/nonexistent"
: > "$mnt/never"
check "file never tracked" 4 "$HS" file "$mnt/never"
grep -q 'never tracked' "$W/err"
ok $? "file never tracked: says so" "$(cat "$W/err")"
check "map of a never tracked file" 4 "$HS" map "$mnt/never"
echo data > "$W/untracked"
check "file on a mount without hot_track (tmpfs)" 3 "$HS" file "$W/untracked"
check "top of a mount without hot_track (tmpfs)" 3 "$HS" top /tmp
# FS_IOC_HOT_LIST, not debugfs: the same lists with debugfs unmounted
nodebugfs() { unshare -m sh -c 'umount /sys/kernel/debug 2>/dev/null; ! [ -d /sys/kernel/debug/hot_track ] && exec "$@"' sh "$@"; }
check "top -n 3 with debugfs not mounted (own mount namespace)" 0 \
	nodebugfs "$HS" --color never top -n 3 "$mnt"
first=$(awk 'NR == 3 { print $NF }' "$W/out")
ok $(( $(grep -c -x -F "$first" <<<"${hot// /$'\n'}") != 1 )) \
	"top without debugfs: a hot file first ($first)" "$(cat "$W/out")"
check "top --ranges with debugfs not mounted" 0 \
	nodebugfs "$HS" --color never top --ranges -n 3 "$mnt"
grep -q "$mnt/" "$W/out"
ok $? "top --ranges without debugfs: ranges with their paths" "$(cat "$W/out")"
check "top --json: version 2" 0 nodebugfs "$HS" --json top -n 1 "$mnt"
grep -q '"version":2' "$W/out"
ok $? "top --json has \"version\":2" "$(cat "$W/out")"
nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
check "top as nobody" 6 "${nobody[@]}" "$HS" top "$mnt"
grep -q 'root only' "$W/err"
ok $? "not root: says so" "$(cat "$W/err")"
check "map as nobody" 6 "${nobody[@]}" "$HS" map "$mnt/big.img"
check "file as nobody works (the ioctl needs no root)" 0 "${nobody[@]}" "$HS" file "$mnt/hot/file0"
check "file: several files, first failure's status" 4 "$HS" file "$mnt/hot/file0" "$mnt/never" "$mnt/nonexistent"

# --- an unlinked file keeps its heat but has no path ---
echo "# ${SECONDS}s: an unlinked file keeps its heat but has no path"
uino=$(stat -c %i "$mnt/cold/file3")
exec 3<"$mnt/cold/file3"
rm "$mnt/cold/file3"
check "top with an unlinked file" 0 "$HS" --color never top -n 0 "$mnt"
grep -q "(inode $uino, no path)" "$W/out"
ok $? "top: the unlinked file shows its inode number" "$(cat "$W/out")"
exec 3<&-

# --- ext4: hot_track among the superblock's default mount options ---
if [ "$fs" = ext4 ]; then
	echo "# ${SECONDS}s: ext4: hot_track as a default mount option"
	umount "$mnt"
	tune2fs -E mount_opts=hot_track "$dev" > "$W/out" 2>&1
	ok $? "tune2fs -E mount_opts=hot_track" "$(cat "$W/out")"
	mount -t ext4 "$dev" "$mnt"
	ok $? "mount with no options"
	grep -q "^$dev $mnt ext4 .*\bhot_track\b" /proc/mounts
	ok $? "/proc/mounts says hot_track" "$(grep " $mnt " /proc/mounts)"
	cat "$mnt/hot/file1" > /dev/null
	check "top: the default option tracks" 0 "$HS" --json top -n 0 "$mnt"
	grep -q '"tracked":[1-9]' "$W/out"
	ok $? "top: the file read is tracked" "$(cat "$W/out")"
	umount "$mnt"
	mount -t ext4 -o nohot_track "$dev" "$mnt"
	ok $? "mount -o nohot_track"
	check "top: nohot_track wins over the default" 3 "$HS" top "$mnt"
	umount "$mnt"
	tune2fs -E mount_opts= "$dev" > /dev/null 2>&1
	mount -t ext4 "$dev" "$mnt"
	check "top: the default cleared" 3 "$HS" top "$mnt"
fi
