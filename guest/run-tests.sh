#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/run-tests.sh: run every test program once per file
# system and keep its output in the results directory:
#
#   tap/<fs>.<name>.tap   stdout (TAP 13)
#   tap/<fs>.<name>.err   stderr
#   tap/<fs>.<name>.rc    exit status (124 or 137: killed by the timeout)
#   tap/<fs>.<name>.time  seconds it ran
#   kmemleak.txt          /sys/kernel/debug/kmemleak after the last test
#
# Test programs: the executables in build/guest/selftests/ (scripts/
# build-guest.sh) and guest/tests/*.sh (named without .sh), each run as
#   HOT_FS=<fs> HOT_DEV=/dev/vda HOT_DEV2=/dev/vdb HOT_MNT=/tmp/mnt
#   HOT_MNT2=/tmp/mnt2 <program>
# with /tmp as working directory, stdin from /dev/null, after both disks have
# been wiped of file system signatures; leftover mounts are undone after it.
#
# Knobs (environment): HOT_FSES (default "btrfs ext4 xfs"), HOT_TESTS (glob
# patterns matched against <name> and <fs>/<name>; default all),
# HOT_TEST_TIMEOUT (seconds per program, default 900).
set -euo pipefail
TOP=${HOT_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
R=${HOT_RESULTS:-/tmp/results}
fses=${HOT_FSES:-btrfs ext4 xfs}
tmo=${HOT_TEST_TIMEOUT:-900}
dev=/dev/vda dev2=/dev/vdb mnt=/tmp/mnt mnt2=/tmp/mnt2

say() { echo "hot-guest: $*" 2>/dev/null > /dev/kmsg || echo "hot-guest: $*"; }

selected() { # selected FS NAME
	[ -n "${HOT_TESTS:-}" ] || return 0
	local p pats
	read -ra pats <<<"$HOT_TESTS"	# no pathname expansion
	for p in "${pats[@]}"; do
		# shellcheck disable=SC2053
		[[ $2 == $p || $1/$2 == $p ]] && return 0
	done
	return 1
}

unmount_all() {
	local m
	for m in "$mnt2" "$mnt"; do
		while mountpoint -q "$m"; do
			say "umount $m left mounted by the test"
			umount "$m" 2>/dev/null || umount -l "$m" || break
		done
	done
}

progs=()
shopt -s nullglob
for p in "$TOP"/build/guest/selftests/* "$TOP"/guest/tests/*.sh; do
	[ -f "$p" ] && [ -x "$p" ] && progs+=("$p")
done
mkdir -p "$R/tap" "$mnt" "$mnt2"
say "run-tests: ${#progs[@]} programs x file systems: $fses"

failed=0
for fs in $fses; do
	for p in "${progs[@]}"; do
		name=$(basename "$p" .sh)
		selected "$fs" "$name" || continue
		id=$fs.$name
		for d in "$dev" "$dev2"; do
			if [ -b "$d" ]; then wipefs -a -q "$d" 2>/dev/null || true; fi
		done
		say "run $fs/$name"
		start=$(date +%s)
		rc=0
		(cd /tmp && exec env HOT_FS="$fs" HOT_DEV="$dev" HOT_DEV2="$dev2" \
			HOT_MNT="$mnt" HOT_MNT2="$mnt2" \
			timeout -k 10 "$tmo" "$p") \
			</dev/null >"$R/tap/$id.tap" 2>"$R/tap/$id.err" || rc=$?
		secs=$(( $(date +%s) - start ))
		echo "$rc" > "$R/tap/$id.rc"
		echo "$secs" > "$R/tap/$id.time"
		case $rc in
		0|4) ;;
		124|137) failed=1; say "timeout $fs/$name after ${secs}s" ;;
		*) failed=1 ;;
		esac
		say "done $fs/$name: exit $rc, ${secs}s"
		unmount_all
	done
done

if [ -e /sys/kernel/debug/kmemleak ]; then
	say "kmemleak scan"
	echo scan > /sys/kernel/debug/kmemleak
	sleep 5
	echo scan > /sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak > "$R/kmemleak.txt"
	if [ -s "$R/kmemleak.txt" ]; then
		failed=1
		say "kmemleak reports leaks:"
		cat "$R/kmemleak.txt"
	fi
fi
say "run-tests: done"
exit $failed
