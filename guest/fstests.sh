#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/fstests.sh: run fstests' ./check on each file system,
# once plain and once with every mount -o hot_track, and keep what it wrote
# in the results directory:
#
#   fstests/<fs>.<mode>/check.out   check's stdout and stderr
#   fstests/<fs>.<mode>/rc          its exit status
#   fstests/<fs>.<mode>/time        seconds it ran
#   fstests/<fs>.<mode>/config      the fstests configuration (HOST_OPTIONS)
#   fstests/<fs>.<mode>/results/    fstests' RESULT_BASE: <test>.full,
#                                   .out.bad, .dmesg, .notrun, check.log...
#   fstests/<fs>.<mode>/kmemleak.txt  kmemleak's report after the run
#
# The fstests tree (built on the host) is on the read-only root: check runs
# in it, and RESULT_BASE, its only writable place, is in the results
# directory. TEST_DEV is /dev/vda (made afresh for every run), SCRATCH_DEV
# /dev/vdb; TEST_DIR and SCRATCH_MNT are in /tmp. Mode plain mounts with
# fstests' default options, mode hot_track adds -o hot_track to both
# MOUNT_OPTIONS and TEST_FS_MOUNT_OPTS.
#
# Knobs (environment): FSTESTS (check's arguments: test names, or -g GROUP
# and the like; required), FSTESTS_FSES (default "btrfs ext4 xfs"),
# FSTESTS_MODES (default "plain hot_track"), FSTESTS_DIR (default
# $TOP/build/fstests), FSTESTS_KMEMLEAK=1 (let check fail a test on a
# kmemleak report: USE_KMEMLEAK=yes).
#
# kmemleak: check scans twice after every test (even to throw the report
# away), half a minute each time here. Unless FSTESTS_KMEMLEAK=1, check gets
# /dev/null for the knob, and the real one is scanned once at the end of each
# run: a leak is found per run, not per test.
set -euo pipefail
TOP=${HOT_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
R=${HOT_RESULTS:-/tmp/results}
fst=${FSTESTS_DIR:-$TOP/build/fstests}
fses=${FSTESTS_FSES:-btrfs ext4 xfs}
modes=${FSTESTS_MODES:-plain hot_track}
[ -n "${FSTESTS:-}" ] || { echo "FSTESTS: no tests given" >&2; exit 2; }
read -ra tests <<<"$FSTESTS"	# no pathname expansion
dev=/dev/vda dev2=/dev/vdb
test_dir=/tmp/fstests/test scratch_mnt=/tmp/fstests/scratch

say() { echo "hot-guest: $*" 2>/dev/null > /dev/kmsg || echo "hot-guest: $*"; }
# Progress on the console, not in the kernel log: check's _check_dmesg reads
# the kernel log, and a diff line of a failure must not end up there.
progress() { printf 'hot-guest: fstests %s\n' "$*"; }

if [ ! -x "$fst/check" ] || [ ! -x "$fst/ltp/fsstress" ]; then
	say "fstests: $fst is not built (scripts/fstests.sh builds it)"
	exit 2
fi
for d in "$dev" "$dev2"; do
	[ -b "$d" ] || { say "fstests: no disk $d"; exit 2; }
done

unmount_all() {
	local m
	for m in "$scratch_mnt" "$test_dir"; do
		while mountpoint -q "$m"; do
			umount "$m" 2>/dev/null || umount -l "$m" || break
		done
	done
}

mkfs_test_dev() { # mkfs_test_dev FS
	case $1 in
	btrfs) mkfs.btrfs -q -f "$dev" ;;
	ext4) mkfs.ext4 -q -F "$dev" ;;
	xfs) mkfs.xfs -q -f "$dev" ;;
	*) echo "no mkfs for $1" >&2; return 1 ;;
	esac
}

# The options fstests would use by default (common/config, _common_mount_opts)
default_opts() {
	case $1 in
	ext2|ext3|ext4) echo "-o acl,user_xattr" ;;
	*) echo "" ;;
	esac
}

# Does a mount of the test device with OPTIONS track hot data? Yes if the
# mount has a hot_track debugfs directory (named after the device).
tracking() { # tracking FS OPTIONS...
	local fs=$1 yes=1
	shift
	# shellcheck disable=SC2068 # options are words
	mount -t "$fs" $@ "$dev" "$test_dir" || return 2
	[ -d "/sys/kernel/debug/hot_track/${dev#/dev/}" ] || yes=0
	umount "$test_dir"
	[ $yes = 1 ]
}

kmemleak=/sys/kernel/debug/kmemleak knob=
if [ -w "$kmemleak" ] && [ "${FSTESTS_KMEMLEAK:-0}" != 1 ]; then
	knob=/run/kmemleak
	touch "$knob"
	mount --bind "$kmemleak" "$knob"
	mount --bind /dev/null "$kmemleak"
fi
leaks() { # leaks FILE: scan, write the report to FILE, clear
	[ -n "$knob" ] || return 0
	echo scan > "$knob"
	sleep 5
	echo scan > "$knob"
	cat "$knob" > "$1"
	echo clear > "$knob"
	[ ! -s "$1" ] || say "fstests: kmemleak reports leaks, see $1"
}

mkdir -p "$R/fstests" "$test_dir" "$scratch_mnt"
say "fstests: ${#tests[@]} tests x ($fses) x ($modes)"
failed=0
for fs in $fses; do
	for mode in $modes; do
		id=$fs.$mode
		out=$R/fstests/$id
		mkdir -p "$out/results"
		opts=$(default_opts "$fs")
		case $mode in
		plain) ;;
		hot_track) opts="${opts:+$opts }-o hot_track" ;;
		*) say "fstests: unknown mode $mode"; exit 2 ;;
		esac
		cat > "$out/config" <<-EOF
		# fstests configuration of $id, written by guest/fstests.sh
		export FSTYP=$fs
		export TEST_DEV=$dev
		export TEST_DIR=$test_dir
		export SCRATCH_DEV=$dev2
		export SCRATCH_MNT=$scratch_mnt
		export MOUNT_OPTIONS="$opts"
		export TEST_FS_MOUNT_OPTS="$opts"
		export RESULT_BASE=$out/results
		export USE_KMEMLEAK=$([ "${FSTESTS_KMEMLEAK:-0}" = 1 ] && echo yes || echo no)
		EOF
		unmount_all
		for d in "$dev" "$dev2"; do wipefs -a -q "$d" 2>/dev/null || true; done
		say "fstests: start $id (mkfs.$fs $dev, options '$opts')"
		if ! mkfs_test_dev "$fs" > "$out/mkfs.log" 2>&1; then
			say "fstests: mkfs.$fs failed: $(tail -n1 "$out/mkfs.log")"
			echo 125 > "$out/rc"
			failed=1
			continue
		fi
		# The option must really be on (or off): else the comparison
		# compares nothing.
		trc=0
		# shellcheck disable=SC2086 # options are words
		tracking "$fs" $opts || trc=$?
		if [ $trc = 2 ] || { [ "$mode" = hot_track ] && [ $trc != 0 ]; } ||
			{ [ "$mode" = plain ] && [ $trc = 0 ]; }; then
			say "fstests: $id: mount $opts of $dev does not give the expected tracking state ($trc)"
			echo 125 > "$out/rc"
			failed=1
			continue
		fi
		[ -z "$knob" ] || echo clear > "$knob"
		start=$(date +%s)
		set +e
		(cd "$fst" && exec env HOST_OPTIONS="$out/config" ./check "${tests[@]}") \
			</dev/null 2>&1 |
			while IFS= read -r line; do
				printf '%s\n' "$line" >> "$out/check.out"
				progress "$id: $line"
			done
		rc=${PIPESTATUS[0]}
		set -e
		secs=$(( $(date +%s) - start ))
		echo "$rc" > "$out/rc"
		echo "$secs" > "$out/time"
		[ "$rc" = 0 ] || failed=1
		say "fstests: done $id: exit $rc, ${secs}s"
		unmount_all
		leaks "$out/kmemleak.txt"
	done
done
say "fstests: done"
exit $failed
