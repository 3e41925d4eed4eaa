#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/profile.sh: where the time of a tracked I/O goes.
# 4 KiB O_DIRECT random reads (fio) of a file on PROFILE_FS, on a RAM disk,
# untracked and then tracked, under the ftrace function profiler limited
# to one function per run: vfs_read() for scale, then those of hot
# tracking. The profiler keeps the function's calls and their time with
# the callees' (graph-time); under the instruction-counting clock that
# time is instructions, with the profiler's part of one call.
# Results: $HOT_RESULTS/profile/{off,on-FUNCTION}.{stat,fio}.
#
#   PROFILE_FS       file system [ext4]
#   PROFILE_DEV      its disk [/dev/ram0]
#   PROFILE_RUNTIME  seconds of each fio run [3]
#   PROFILE_FUNCS    the functions, one run each [see below]
set -euo pipefail
TOP=${HOT_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
R=${HOT_RESULTS:-/tmp/results}/profile
fs=${PROFILE_FS:-ext4} dev=${PROFILE_DEV:-/dev/ram0}
runtime=${PROFILE_RUNTIME:-3} mnt=/tmp/mnt
t=/sys/kernel/tracing
# shellcheck source=guest/benchlib.sh
. "$TOP/guest/benchlib.sh"
trap 'say "profile: failed at line $LINENO: $BASH_COMMAND"' ERR

mkdir -p "$R"
[ -e $t/trace ] || mount -t tracefs nodev $t
[ -e $t/function_profile_enabled ] || {
	say "profile: no function profiler in this kernel (configs/profile.config)"
	exit 1
}
mkfs_quiet "$fs" "$dev"
mount_fs "$fs" "$dev" "$mnt"
fio --output=/dev/null --eta=never --name=layout --filename="$mnt/rand.dat" \
	--size=1g --rw=write --bs=1m
umount "$mnt"

# One function profiled per run, so that no profiled call nests in another
# and each time is the function's own with its callees, plus the
# profiler's part of one call (a leaf, hot_range_span(), shows it)
funcs=${PROFILE_FUNCS:-vfs_read __hot_track_io hot_sample_add hot_range_span hot_fold_work hot_samples_count hot_sample_count hot_freq_update}
echo 1 > $t/options/graph-time

run() { # run NAME FUNCTION [MOUNT-OPTIONS]
	echo "$2" > $t/set_ftrace_filter 2>/dev/null || {
		say "profile: $2 cannot be profiled, skipped"
		return 0
	}
	mount_fs "$fs" "$dev" "$mnt" "${3:-}"
	echo 0 > $t/function_profile_enabled
	echo 1 > $t/function_profile_enabled
	fio --output-format=json --output="$R/$1.fio" --eta=never \
		--ioengine=psync --name=randread --filename="$mnt/rand.dat" \
		--size=1g --rw=randread --bs=4k --direct=1 \
		--runtime="$runtime" --time_based
	echo 0 > $t/function_profile_enabled
	cat $t/trace_stat/function* > "$R/$1.stat"
	umount "$mnt"
}

run off vfs_read
for f in $funcs; do
	run "on-$f" "$f" hot_track
	say "profile: $f done"
done
