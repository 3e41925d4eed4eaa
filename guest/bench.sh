#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/bench.sh: the workloads on each file system, without
# and with hot_track, interleaved (off on, on off, off on ...: a drift within
# the boot favours neither; a remount before every run), then the scaling
# and memory figures. Raw results go to
# $HOT_RESULTS/bench/; scripts/bench-report.py makes the tables on the host.
#
# Disks: /dev/vda for the files the reads read and the scaling (tracked),
# /dev/vdb for the writes and fsmark (a fresh file system per run: a write
# changes the file system, btrfs's extent tree most, and the next run would
# start from another state), the scaling (untracked) and the memory per
# inode. Before the pairs of each workload, one run untracked, not kept:
# the first run after a layout differs from the others.
#
# Environment (defaults in brackets):
#   BENCH_MODE        ab: both, interleaved; off: untracked only (the
#                     unpatched kernel), no scaling or memory part [ab]
#   BENCH_PAIRS       runs of each mode per workload and fs [6]
#   BENCH_RUNTIME     seconds per time-based fio run [3]
#   BENCH_LONG        FS.WORKLOAD runs three times as long [btrfs.randwrite]:
#                     the work btrfs's own threads do in a run varies from
#                     one run to the next, and a longer run averages it out
#   BENCH_FILES       files per fsmark run [20000]
#   BENCH_FSES        ("" skips the workloads) [btrfs ext4 xfs]
#   BENCH_WORKLOADS   [randread randwrite bufwrite seqread fsmark]
#   BENCH_SIZE        file of the random workloads [256M]
#   BENCH_SEQ_SIZE    file read once by seqread [512M]
#   BENCH_SCALE       tracked range counts of the scaling part, ascending
#                     ("" skips it) [1000 100000 1000000 10000000]
#   BENCH_SCALE_FS    file system of the scaling and memory parts [ext4]
#   BENCH_SCALE_READS timed reads per file and range count [40000]
#   BENCH_SCALE_HOT   ranges of the hot set timed among the N [1000]
#   BENCH_SCALE_RUNS  timed runs of each, for the spread [3]
#   BENCH_MEM_FILES   files of the memory-per-inode part (0 skips) [20000]
#   BENCH_PERSIST_FILES, BENCH_PERSIST_RANGES
#                     files, and ranges per file, whose heat the persistence
#                     part saves and restores (0 files skips it) [100000 10]
#   BENCH_ACT_PAIRS   runs of each case of the warm-up and cached-read
#                     parts (0 skips both) [3]
#   BENCH_WARM_MB     MiB of the hot set the warm-up part re-reads, in
#                     files of 4 MiB, beside 4 times as much cold data [64]
#   BENCH_DEV, BENCH_DEV2
#                     the two disks [/dev/vda /dev/vdb]; /dev/ram0 and
#                     /dev/ram1 (brd) for the instruction-counting clock
#   HOT_GUEST_BIN     where fsmark and hotscale are [build/guest/bench]
set -euo pipefail
TOP=${HOT_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
R=${HOT_RESULTS:-/tmp/results}/bench
BIN=${HOT_GUEST_BIN:-$TOP/build/guest/bench}
mode=${BENCH_MODE:-ab}
pairs=${BENCH_PAIRS:-6}
runtime=${BENCH_RUNTIME:-3}
long=${BENCH_LONG-btrfs.randwrite}
nfiles=${BENCH_FILES:-20000}
fses=${BENCH_FSES-btrfs ext4 xfs}
workloads=${BENCH_WORKLOADS-randread randwrite bufwrite seqread fsmark}
size=${BENCH_SIZE:-256M}
seq_size=${BENCH_SEQ_SIZE:-512M}
scale=${BENCH_SCALE-1000 100000 1000000 10000000}
scale_fs=${BENCH_SCALE_FS:-ext4}
scale_reads=${BENCH_SCALE_READS:-40000}
scale_hot=${BENCH_SCALE_HOT:-1000}
scale_runs=${BENCH_SCALE_RUNS:-3}
mem_files=${BENCH_MEM_FILES:-20000}
persist_files=${BENCH_PERSIST_FILES:-100000}
persist_ranges=${BENCH_PERSIST_RANGES:-10}
act_pairs=${BENCH_ACT_PAIRS:-3}
warm_mb=${BENCH_WARM_MB:-64}
HS=$TOP/build/guest/hotstat
dev=${BENCH_DEV:-/dev/vda} dev2=${BENCH_DEV2:-/dev/vdb}
mnt=/tmp/mnt mnt2=/tmp/mnt2

# shellcheck source=guest/benchlib.sh
. "$TOP/guest/benchlib.sh"
trap 'say "bench: failed at line $LINENO: $BASH_COMMAND"' ERR

mount_mode() { # mount_mode FS DEV DIR on|off
	if [ "$4" = on ]; then
		mount_fs "$1" "$2" "$3" hot_track
	else
		mount_fs "$1" "$2" "$3"
	fi
}

drop_caches() { sync; echo 3 > /proc/sys/vm/drop_caches; }

sysctl_set() { # sysctl_set NAME VALUE: if the sysctl exists; old value to info
	local f=/proc/sys/fs/$1
	[ -e "$f" ] || return 0
	echo "sysctl.$1.before=$(<"$f")" >> "$R/info.txt"
	echo "$2" > "$f"
	echo "sysctl.$1=$(<"$f")" >> "$R/info.txt"
}

# Items are freed after an RCU grace period (and their xarray nodes too):
# wait until the counts of our caches stop moving, at most 10 s.
settle() {
	local prev="" cur
	for _ in $(seq 10); do
		cur=$(grep -E '^(hot_range_item|hot_inode_item) ' /proc/slabinfo || true)
		[ "$cur" != "$prev" ] || return 0
		prev=$cur
		sleep 1
	done
}

slab() { # slab NAME: keep /proc/slabinfo
	cat /proc/slabinfo > "$R/slab/$1.txt" 2>/dev/null || : > "$R/slab/$1.txt"
}

fio_run() { # fio_run OUT ARGS...: fio with JSON output
	local out=$1
	shift
	fio --output-format=json --output="$out" --eta=never --ioengine=psync \
		--randrepeat=1 --norandommap "$@"
}

# The workload WL on FS in mode MODE, run PAIR: output to DIR/ID.out, the
# guest's /proc/stat cpu line and the wall clock before and after to
# DIR/ID.stat; DIR is raw/, or warmup/ for the run not kept.
run_one() { # run_one FS WL PAIR MODE [DIR]
	local fs=$1 wl=$2 pair=$3 m=$4 id=$1.$2.$3.$4 cpu0 cpu1 t0 t1
	local dir=${5:-$R/raw}
	local out=$dir/$id.out d=$dev at=$mnt secs=$runtime
	case " $long " in *" $fs.$wl "*) secs=$((3 * runtime)) ;; esac
	case $wl in
	randwrite|bufwrite)
		d=$dev2 at=$mnt2
		fresh_file "$fs" "$d" "$at" rand.dat "$size" ;;
	fsmark)
		d=$dev2 at=$mnt2
		mkfs_quiet "$fs" "$d" ;;
	esac
	mount_mode "$fs" "$d" "$at" "$m"
	drop_caches
	t0=$EPOCHREALTIME
	read -r cpu0 < /proc/stat
	case $wl in
	randread)
		fio_run "$out" --name=randread --filename="$at/rand.dat" --size="$size" \
			--rw=randread --bs=4k --direct=1 --runtime="$secs" --time_based ;;
	randwrite)
		fio_run "$out" --name=randwrite --filename="$at/rand.dat" --size="$size" \
			--rw=randwrite --bs=4k --direct=1 --runtime="$secs" --time_based ;;
	bufwrite)
		fio_run "$out" --name=bufwrite --filename="$at/rand.dat" --size="$size" \
			--rw=randwrite --bs=4k --direct=0 --fsync=32 --end_fsync=1 \
			--runtime="$secs" --time_based ;;
	seqread)
		fio_run "$out" --name=seqread --filename="$at/seq.dat" --size="$seq_size" \
			--rw=read --bs=1M --direct=0 --invalidate=1 ;;
	fsmark)
		"$BIN/fsmark" "$at/d" "$nfiles" > "$out" ;;
	esac
	read -r cpu1 < /proc/stat
	t1=$EPOCHREALTIME
	printf '%s\n%s\nt0 %s\nt1 %s\n' "$cpu0" "$cpu1" "$t0" "$t1" > "$dir/$id.stat"
	umount "$at"
}

# A file of SIZE written in 1 MiB blocks, synced: the files the workloads
# read or overwrite
write_file() { # write_file PATH SIZE
	fio --output=/dev/null --eta=never --name=layout --filename="$1" \
		--size="$2" --rw=write --bs=1M --end_fsync=1
}

# A fresh file system FS on DEV with one file, FILE of SIZE, written on an
# untracked mount at DIR
fresh_file() { # fresh_file FS DEV DIR FILE SIZE
	mkfs_quiet "$1" "$2"
	mount_fs "$1" "$2" "$3"
	write_file "$3/$4" "$5"
	umount "$3"
}

# The files the read workloads read, written on an untracked mount
layout() { # layout FS
	mkfs_quiet "$1" "$dev"
	mount_fs "$1" "$dev" "$mnt"
	case " $workloads " in *" randread "*) write_file "$mnt/rand.dat" "$size" ;; esac
	case " $workloads " in *" seqread "*) write_file "$mnt/seq.dat" "$seq_size" ;; esac
	umount "$mnt"
}

throughput() {
	local fs wl pair modes order
	case $mode in
	ab) modes="off on" ;;
	off) modes=off ;;
	*) echo "BENCH_MODE: ab or off" >&2; return 1 ;;
	esac
	for fs in $fses; do
		say "bench: $fs: laying out files"
		layout "$fs"
		for wl in $workloads; do
			say "bench: $fs $wl: a warm-up run, then $pairs x ($modes)"
			run_one "$fs" "$wl" 0 off "$R/warmup"
			for pair in $(seq 1 "$pairs"); do
				order=$modes
				[ "$mode" != ab ] || [ $((pair % 2)) = 1 ] || order="on off"
				for m in $order; do
					run_one "$fs" "$wl" "$pair" "$m"
				done
			done
		done
	done
}

# The cost of one tracked I/O with N tracked ranges: a sparse file on a
# tracked mount (vda) gets ranges 0..N-1 touched, then hotscale times random
# O_DIRECT reads of those ranges against the same reads of the same sparse
# file on an untracked mount (vdb). Slab snapshots around each touch give
# the memory per range.
scaling() {
	local n prev=0 max=0
	for n in $scale; do max=$n; done
	say "bench: scaling on $scale_fs: $scale ranges"
	mkfs_quiet "$scale_fs" "$dev"
	mkfs_quiet "$scale_fs" "$dev2"
	mount_fs "$scale_fs" "$dev" "$mnt" hot_track
	mount_fs "$scale_fs" "$dev2" "$mnt2"
	truncate -s "$((max + 1))M" "$mnt/sparse" "$mnt2/sparse"
	settle
	slab scale-0
	for n in $scale; do
		"$BIN/hotscale" touch "$mnt/sparse" "$prev" "$n" > "$R/scale/touch-$n.txt"
		slab "scale-$n"
		for i in $(seq 1 "$scale_runs"); do
			"$BIN/hotscale" time "$mnt/sparse" "$mnt2/sparse" "$n" "$scale_reads" 1000 \
				> "$R/scale/time-$n-$i.txt"
			say "bench: scaling: $n ranges: $(<"$R/scale/time-$n-$i.txt")"
			# The same with the reads on a hot set of ranges among the N
			"$BIN/hotscale" time "$mnt/sparse" "$mnt2/sparse" "$n" "$scale_reads" 1000 \
				"$((n < scale_hot ? n : scale_hot))" > "$R/scale/hot-$n-$i.txt"
			say "bench: scaling: $n ranges, hot set: $(<"$R/scale/hot-$n-$i.txt")"
		done
		update_time "$n"
		prev=$n
	done
	umount "$mnt" "$mnt2"
}

# One periodic update of the items of N ranges, timed by its hot_map_update
# trace event: the worker's CPU time per update
update_time() { # update_time N
	local t=/sys/kernel/tracing
	[ -e $t/trace ] || mount -t tracefs nodev $t 2>/dev/null || return 0
	[ -e $t/events/hot_track/hot_map_update/enable ] || return 0
	echo > $t/trace
	echo 1 > $t/events/hot_track/hot_map_update/enable
	sysctl_set hot-update-delay 1
	for _ in $(seq 120); do
		! grep -q duration_ns $t/trace || break
		sleep 1
	done
	sysctl_set hot-update-delay 604800
	echo 0 > $t/events/hot_track/hot_map_update/enable
	grep -m1 -o 'inodes [0-9]* ranges [0-9]* bytes [0-9]* duration_ns [0-9]*' $t/trace |
		sed -E 's/([a-z_]+) ([0-9]+)/\1=\2/g' > "$R/scale/update-$1.txt" || true
	say "bench: scaling: $1 ranges, one update: $(<"$R/scale/update-$1.txt")"
}

# Memory per tracked inode: MEM_FILES small files, each read once on an
# untracked and then on a tracked mount; the untracked run gives what the
# file system itself allocates from the shared caches (radix_tree_node).
memory() {
	say "bench: memory per inode on $scale_fs: $mem_files files"
	mkfs_quiet "$scale_fs" "$dev2"
	mount_fs "$scale_fs" "$dev2" "$mnt2"
	"$BIN/fsmark" -n "$mnt2/m" "$mem_files" > "$R/scale/mem-create.txt"
	umount "$mnt2"
	local m
	for m in off on; do
		mount_mode "$scale_fs" "$dev2" "$mnt2" "$m"
		settle
		slab "mem-$m-0"
		"$BIN/hotscale" readall "$mnt2/m" > "$R/scale/mem-read-$m.txt"
		slab "mem-$m-1"
		umount "$mnt2"
	done
}

# The cost of keeping heat across a reboot: PERSIST_FILES files with
# PERSIST_RANGES ranges each, tracked; hotstat save, a remount with the
# caches dropped, hotstat restore. Times of the whole commands, the file's
# size, and what the restore applied.
persist() {
	local f=/tmp/persist.heat t0 t1 t2
	say "bench: persistence on $scale_fs: $persist_files files x $persist_ranges ranges"
	mkfs_quiet "$scale_fs" "$dev2"
	mount_fs "$scale_fs" "$dev2" "$mnt2" hot_track
	"$BIN/hotscale" spread "$mnt2" "$persist_files" "$persist_ranges" \
		> "$R/scale/persist-spread.txt"
	t0=$EPOCHREALTIME
	"$HS" --json save "$mnt2" "$f" > "$R/scale/persist-save.json"
	t1=$EPOCHREALTIME
	umount "$mnt2"
	drop_caches
	mount_fs "$scale_fs" "$dev2" "$mnt2" hot_track
	t2=$EPOCHREALTIME
	"$HS" --json restore "$mnt2" "$f" > "$R/scale/persist-restore.json"
	{
		echo "files=$persist_files"
		echo "ranges=$((persist_files * persist_ranges))"
		echo "bytes=$(stat -c %s "$f")"
		echo "save_s=$(echo "$t1 - $t0" | bc -l)"
		echo "restore_s=$(echo "$EPOCHREALTIME - $t2" | bc -l)"
	} > "$R/scale/persist.txt"
	say "bench: persistence: $(tr '\n' ' ' < "$R/scale/persist.txt")"
	rm -f "$f"
	umount "$mnt2"
}

# The first minutes after a reboot: a hot set of WARM_MB in 4 MiB files
# among 4 times as much cold data, on a hot_track=logical mount, its heat
# saved; then, after a remount with the caches dropped, every 4 KiB block
# of the hot set read once in random order (fio, buffered), without and
# with a hotstat warm --from the saved heat first: how long the reads take,
# and the warm-up itself.
warmup() {
	local fs=$scale_fs heat=/tmp/warm.heat nhot=$((warm_mb / 4)) i m t0 t1
	say "bench: warm-up on $fs: ${warm_mb} MiB hot, $((4 * warm_mb)) MiB cold"
	mkfs_quiet "$fs" "$dev2"
	mount_fs "$fs" "$dev2" "$mnt2" hot_track=logical
	mkdir "$mnt2/hot" "$mnt2/cold"
	fio --output=/dev/null --eta=never --name=hot --directory="$mnt2/hot" \
		--nrfiles="$nhot" --filesize=4M --size="${warm_mb}M" --rw=write \
		--bs=1M --direct=1 --filename_format='f$filenum'
	fio --output=/dev/null --eta=never --name=cold --directory="$mnt2/cold" \
		--nrfiles="$((4 * nhot))" --filesize=4M --size="$((4 * warm_mb))M" \
		--rw=write --bs=1M --direct=1 --filename_format='f$filenum'
	# The heat: the hot set read over and over, the cold data once
	fio --output=/dev/null --eta=never --name=heat --directory="$mnt2/hot" \
		--nrfiles="$nhot" --filesize=4M --size="${warm_mb}M" --rw=read \
		--bs=1M --direct=1 --loops=8 --filename_format='f$filenum'
	sysctl_set hot-update-delay 1
	sleep 3
	"$HS" save "$mnt2" "$heat" > /dev/null
	sysctl_set hot-update-delay 604800
	umount "$mnt2"
	for i in $(seq 1 "$act_pairs"); do
		for m in cold warm; do
			drop_caches
			mount_fs "$fs" "$dev2" "$mnt2" hot_track=logical
			t0=$EPOCHREALTIME
			[ $m = cold ] ||
				"$HS" --json warm --from "$heat" --bytes "${warm_mb}M" \
					"$mnt2" > "$R/act/warm-$i.json"
			t1=$EPOCHREALTIME
			# fio must not drop the cache first (--invalidate)
			fio_run "$R/act/reread-$m-$i.json" --name=reread \
				--directory="$mnt2/hot" --nrfiles="$nhot" --filesize=4M \
				--size="${warm_mb}M" --rw=randread --bs=4k --direct=0 \
				--filename_format='f$filenum' --norandommap=0 --invalidate=0
			echo "warm_s=$(echo "$t1 - $t0" | bc -l)" > "$R/act/time-$m-$i.txt"
			umount "$mnt2"
		done
	done
	rm -f "$heat"
}

# What a read the page cache serves costs: 4 KiB buffered random reads of
# a cached 64 MiB file for RUNTIME seconds (fio), untracked, hot_track and
# hot_track=logical, in a rotating order
cached_reads() {
	local fs=$scale_fs i m order
	say "bench: cached 4 KiB reads on $fs: untracked, hot_track, hot_track=logical"
	fresh_file "$fs" "$dev2" "$mnt2" c.dat 64M
	for i in $(seq 1 "$act_pairs"); do
		case $((i % 3)) in
		1) order="off plain logical" ;;
		2) order="plain logical off" ;;
		0) order="logical off plain" ;;
		esac
		for m in $order; do
			case $m in
			off) mount_fs "$fs" "$dev2" "$mnt2" ;;
			plain) mount_fs "$fs" "$dev2" "$mnt2" hot_track ;;
			logical) mount_fs "$fs" "$dev2" "$mnt2" hot_track=logical ;;
			esac
			cat "$mnt2/c.dat" > /dev/null
			fio_run "$R/act/cached-$m-$i.json" --name=cached \
				--filename="$mnt2/c.dat" --size=64M --rw=randread --bs=4k \
				--direct=0 --invalidate=0 --runtime="$runtime" --time_based
			umount "$mnt2"
		done
	done
}

max_scale=0
for n in $scale; do max_scale=$n; done
mkdir -p "$R/raw" "$R/warmup" "$R/slab" "$R/scale" "$R/act" "$mnt" "$mnt2"
{
	echo "mode=$mode"
	echo "kernel=$(uname -r)"
	echo "version=$(cat /proc/version)"
	echo "cmdline=$(cat /proc/cmdline)"
	echo "nproc=$(nproc)"
	echo "memtotal_kb=$(awk '/MemTotal/ {print $2}' /proc/meminfo)"
	echo "clk_tck=$(getconf CLK_TCK)"
	echo "pairs=$pairs"
	echo "runtime=$runtime"
	echo "long=$long"
	echo "files=$nfiles"
	echo "fses=$fses"
	echo "workloads=$workloads"
	echo "size=$size"
	echo "seq_size=$seq_size"
	echo "scale=$scale"
	echo "scale_fs=$scale_fs"
	echo "scale_reads=$scale_reads"
	echo "scale_runs=$scale_runs"
	echo "dev=$dev $dev2"
	echo "mem_files=$mem_files"
	echo "persist_files=$persist_files"
	echo "persist_ranges=$persist_ranges"
	echo "act_pairs=$act_pairs"
	echo "warm_mb=$warm_mb"
	echo "fio=$(fio --version)"
	echo "start=$EPOCHREALTIME"
} > "$R/info.txt"
slab boot
throughput
if [ "$mode" = ab ]; then
	# Nothing is forgotten or re-sorted while the scaling runs: no periodic
	# update, no cap below the largest range count
	sysctl_set hot-update-delay 604800
	sysctl_set hot-kick-time 604800
	sysctl_set hot-max-items $((max_scale * 2 > 4194304 ? max_scale * 2 : 4194304))
	sysctl_set hot-max-kbytes 1073741824
	# Memory first: the scaling's million items are freed slowly (RCU)
	[ "$mem_files" -eq 0 ] || memory
	[ "$persist_files" -eq 0 ] || persist
	if [ "$act_pairs" -gt 0 ]; then
		warmup
		cached_reads
	fi
	[ -z "$scale" ] || scaling
fi
echo "end=$EPOCHREALTIME" >> "$R/info.txt"
say "bench: done"
