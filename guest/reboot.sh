#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/reboot-test.sh: heat saved before a reboot comes
# back after it. One disk per filesystem, /dev/vda, vdb, ... in the order
# given, each mounted on /tmp/mnt-<fs>:
#
#   reboot.sh save FS...          mkfs, mount -o hot_track, guest/heat.sh,
#                                 the lists of hotstat top, hotstat save;
#                                 all into the results directory
#   reboot.sh restore DIR FS...   mount, hotstat restore of DIR's heat file,
#                                 the lists compared with DIR's
#
# TAP 13 per filesystem in the results directory: tap/<fs>.reboot-save.*
# and tap/<fs>.reboot.* (.tap, .err, .rc, .time), as guest/run-tests.sh
# writes them.
set -uo pipefail
TOP=${HOT_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
R=${HOT_RESULTS:-/tmp/results}
HS=$TOP/build/guest/hotstat
phase=${1:?save or restore}
shift
from=
if [ "$phase" = restore ]; then
	from=${1:?the results directory of the save}
	shift
fi
echo 1 > /proc/sys/fs/hot-update-delay
# The heat must outlive the boot in between
echo 3600 > /proc/sys/fs/hot-kick-time

# One filesystem's part of the phase; TAP on stdout
run() { # run FS DEV
	fs=$1
	local dev=$2 mnt=/tmp/mnt-$1
	W=$(mktemp -d "/tmp/reboot-$fs.XXXXXX")
	. "$TOP/guest/testlib.sh"
	mkdir -p "$mnt"
	if [ "$phase" = save ]; then
		mkfs_ "$dev"
		ok $? "mkfs.$fs $dev"
		mount -t "$fs" -o hot_track "$dev" "$mnt"
		ok $? "mount -o hot_track"
		"$TOP/guest/heat.sh" "$mnt" "$W/fio.out"
		ok $? "the workload"
		sleep 3
		check "top" 0 "$HS" --json top -n 0 "$mnt"
		cp "$W/out" "$R/$fs.before.files.json"
		check "top --ranges" 0 "$HS" --json top --ranges -n 0 "$mnt"
		cp "$W/out" "$R/$fs.before.ranges.json"
		check "save" 0 "$HS" save "$mnt" "$R/$fs.heat"
		umount "$mnt"
		ok $? "unmount"
	else
		mount -t "$fs" -o hot_track "$dev" "$mnt"
		ok $? "mount -o hot_track after the reboot"
		check "top after the reboot: nothing" 0 "$HS" --json top -n 0 "$mnt"
		grep -q '"tracked":0' "$W/out"
		ok $? "the heat is gone with the reboot" "$(cat "$W/out")"
		check "restore" 0 "$HS" restore "$mnt" "$from/$fs.heat"
		grep -q "records applied; 0 stale" "$W/out"
		ok $? "restore: every record applied" "$(cat "$W/out")"
		check "top" 0 "$HS" --json top -n 0 "$mnt"
		cp "$W/out" "$W/after.files.json"
		check "top --ranges" 0 "$HS" --json top --ranges -n 0 "$mnt"
		cp "$W/out" "$W/after.ranges.json"
		for what in files ranges; do
			python3 "$TOP/guest/heat-compare.py" "$what" \
				"$from/$fs.before.$what.json" \
				"$W/after.$what.json"
		done > "$W/cmp.out" 2>&1
		tap_py "$W/cmp.out"
		umount "$mnt"
		ok $? "unmount"
	fi
	rm -rf "$W"
	tap_plan
	[ "$failed" = 0 ]
}

mkdir -p "$R/tap"
letters=abcdefghijklmnopqrstuvwxyz
i=0 status=0
for fs in "$@"; do
	id=$fs.reboot
	[ "$phase" = restore ] || id=$fs.reboot-save
	start=$(date +%s)
	rc=0
	( run "$fs" "/dev/vd${letters:i:1}" ) > "$R/tap/$id.tap" \
		2> "$R/tap/$id.err" || rc=$?
	echo "$rc" > "$R/tap/$id.rc"
	echo $(( $(date +%s) - start )) > "$R/tap/$id.time"
	[ "$rc" = 0 ] || status=1
	i=$((i + 1))
done
exit $status
