#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The benchmark ('make bench'): build the patched kernel without debug
# options (build/obj-bench) and the unpatched one (build/obj-vanilla), boot
# each once with its scratch disks in host RAM (/dev/shm), run guest/bench.sh
# (the patched kernel: every workload without and with hot_track,
# interleaved, then scaling and memory), then compare the untracked patched
# kernel with the unpatched one: BENCH_BOOTS pairs of boots, each running
# every workload untracked, in the order U P, P U, U P... (unpatched,
# patched) so that a drift of the host favours neither. A boot is a sample:
# two boots of the same kernel differ by more than the runs within one.
# Then write the tables with scripts/bench-report.py to
# bench/results/<date>-<host>.{md,json} and bench/results/latest.md.
# The guests keep their TSC clock (boot.sh --clock tsc): the tests' HPET
# clock turns every clock_gettime() of fio into an emulated MMIO read.
#
# Clock: by default the guests run with QEMU's instruction-counting clock
# (boot.sh --icount): their time is the instructions they execute, 1 ns
# each, so that two runs of the same work take the same time within a few
# parts in 10,000 whatever the host does; the wall clock of a TCG guest
# spreads by 10-20%. Their disks are then RAM disks in the guest (brd): a
# virtio disk's I/O is a wait, which that clock skips to the next timer,
# a RAM disk's is work. What the figures leave out is memory latency: a
# cache miss costs no more than a hit. The guest has one vCPU then: the
# vCPUs of one TCG thread take turns, and a vCPU that spins on a lock the
# other holds spins for the whole turn, which would count as work. The
# reading thread's CPU time then tells the I/O path's cost from the
# workers' (scaling part). BENCH_CLOCK=wall boots as before (virtio disks
# in host RAM, the host's clock, two vCPUs).
#
# Environment:
#   NO_BUILD=1 or BENCH_SKIP_BUILD=1
#                       skip setup.sh, tree.sh sync and the kernel builds
#   BENCH_KERNELS       which parts ["bench vanilla"]: bench, the tracked and
#                       untracked runs; vanilla, the alternated boots of the
#                       unpatched and the patched kernel; the report needs bench
#   BENCH_BOOTS         pairs of alternated boots [2 with icount, 3 with wall]
#   BENCH_BOOT_RUNS     runs of each workload in each of those boots [2]
#   BENCH_PROFILE       the patched kernel's build profile [bench] (test: the
#                       debug kernel, to try the scripts: slow, figures
#                       meaningless)
#   BENCH_OUT           results of the boots [build/run/bench]: OUT/patched,
#                       OUT/vanilla
#   BENCH_CLOCK         icount (instruction counting, RAM disks) or wall
#                       [icount]
#   BENCH_CPUS          guest vCPUs [1 with icount, 2 with wall]
#   BENCH_DISK_DIR      where the disk images go, wall clock only [/dev/shm
#                       if it has room]
#   BENCH_DISK_SIZE     size of each of the two disks [4G]
#   BENCH_MEM           guest memory [2G; 8G with the RAM disks; 4G more
#                       for the test profile]
#   BENCH_TIMEOUT       seconds per boot [5400]
#   BENCH_RESULTS       where the report goes [bench/results]
#   V=1                 show the guest console live
#   BENCH_PAIRS, BENCH_RUNTIME, BENCH_LONG, BENCH_FILES, BENCH_FSES, BENCH_WORKLOADS,
#   BENCH_SIZE, BENCH_SEQ_SIZE, BENCH_SCALE, BENCH_SCALE_FS,
#   BENCH_SCALE_READS, BENCH_SCALE_HOT, BENCH_MEM_FILES, BENCH_PERSIST_FILES,
#   BENCH_PERSIST_RANGES, BENCH_ACT_PAIRS, BENCH_WARM_MB
#                       passed to the guest, see guest/bench.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernels=${BENCH_KERNELS:-bench vanilla}
profile=${BENCH_PROFILE:-bench}
out=${BENCH_OUT:-$BUILD/run/bench}
disk_size=${BENCH_DISK_SIZE:-4G}
timeout=${BENCH_TIMEOUT:-5400}
clock=${BENCH_CLOCK:-icount}
case $clock in
# Under the instruction-counting clock three pairs of runs keep every
# on/off ratio within +-0.5% (measured: +-0.1 to 0.4%), two boots the
# patched/unpatched ones; the wall clock needs more of both
icount)
	mem=${BENCH_MEM:-8G} cpus=${BENCH_CPUS:-1} boots=${BENCH_BOOTS:-2}
	export BENCH_PAIRS=${BENCH_PAIRS:-3} ;;
wall) mem=${BENCH_MEM:-2G} cpus=${BENCH_CPUS:-2} boots=${BENCH_BOOTS:-3} ;;
*) die "BENCH_CLOCK: icount or wall" ;;
esac
boot_runs=${BENCH_BOOT_RUNS:-2}
[[ $boots =~ ^[1-9][0-9]*$ ]] || die "BENCH_BOOTS: a number of boot pairs, at least 1"
[[ $boot_runs =~ ^[1-9][0-9]*$ ]] || die "BENCH_BOOT_RUNS: a number of runs, at least 1"
[ "$profile" != test ] || [ -n "${BENCH_MEM:-}" ] ||
	mem=$(( $(numfmt --from=iec "$mem") / 1073741824 + 4 ))G
start=$(date +%s)

if [ "${NO_BUILD:-0}" != 1 ] && [ "${BENCH_SKIP_BUILD:-0}" != 1 ]; then
	"$TOP/scripts/setup.sh"
	# A tree under development stays as it is; only a missing one is made.
	[ -d "$TREE/.git" ] || "$TOP/scripts/tree.sh" sync
	for k in $kernels; do
		case $k in
		bench) "$TOP/scripts/build.sh" "$profile" ;;
		vanilla) "$TOP/scripts/build.sh" vanilla ;;
		esac
	done
fi

log "building the benchmark's guest programs"
"$TOP/scripts/build-guest.sh" --poweroff-only
mkdir -p "$BUILD/guest/bench"
for p in fsmark hotscale; do
	gcc -O2 -Wall -Werror -o "$BUILD/guest/bench/$p" "$TOP/guest/bench/$p.c"
done

# The disks live in host RAM, if there is room for two of them
disk_dir=${BENCH_DISK_DIR:-}
if [ "$clock" = icount ]; then
	disk_dir=
elif [ -z "$disk_dir" ]; then
	need_kb=$(( $(numfmt --from=iec "$disk_size") * 2 / 1024 ))
	avail_kb=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 {print $4}')
	if [ -n "$avail_kb" ] && [ "$avail_kb" -ge "$need_kb" ]; then
		disk_dir=/dev/shm
	else
		log "warning: /dev/shm has ${avail_kb:-no} KiB free, two $disk_size disks need $need_kb: disks go to $out (slower, noisier)"
	fi
fi

guest_env=(env)
for v in BENCH_PAIRS BENCH_RUNTIME BENCH_LONG BENCH_FILES BENCH_FSES BENCH_WORKLOADS \
	 BENCH_SIZE BENCH_SEQ_SIZE BENCH_SCALE BENCH_SCALE_FS BENCH_SCALE_READS \
	 BENCH_SCALE_HOT BENCH_SCALE_RUNS \
	 BENCH_MEM_FILES BENCH_PERSIST_FILES BENCH_PERSIST_RANGES \
	 BENCH_ACT_PAIRS BENCH_WARM_MB; do
	[ -z "${!v+x}" ] || guest_env+=("$v=${!v}")
done

boot() { # boot NAME PROFILE MODE [VAR=VALUE...]: VARs for the guest
	local dir=$out/$1 rc=0
	local cmd=("$TOP/scripts/boot.sh" --profile "$2" --mem "$mem" --cpus "$cpus"
		--timeout "$timeout" --out "$dir") disks=()
	if [ "$clock" = icount ]; then
		cmd+=(--icount --append "slab_nomerge kunit.enable=0 brd.rd_nr=2 brd.rd_size=$(( $(numfmt --from=iec "$disk_size") / 1024 ))")
		disks=(BENCH_DEV=/dev/ram0 BENCH_DEV2=/dev/ram1)
	else
		cmd+=(--disks 2 --disk-size "$disk_size" --clock tsc
			--append "slab_nomerge kunit.enable=0")
		[ -z "$disk_dir" ] || cmd+=(--disk-dir "$disk_dir")
	fi
	cmd+=(-- "${guest_env[@]}" "${disks[@]}" "BENCH_MODE=$3" "${@:4}"
		"HOT_GUEST_BIN=$BUILD/guest/bench" guest/bench.sh)
	mkdir -p "$dir"
	log "$1 kernel (build/obj-$2), mode $3: console log in ${dir#"$TOP"/}/console.log"
	# boot.sh's own messages (the acceleration used) for the report
	if [ "${V:-0}" = 1 ]; then
		"${cmd[@]}" </dev/null 2> >(tee "$dir.boot.log" >&2) || rc=$?
	else
		set +e
		"${cmd[@]}" </dev/null 2> >(tee "$dir.boot.log" >&2) |
			guest_progress bench
		rc=${PIPESTATUS[0]}
		set -e
	fi
	echo "$rc" > "$dir/boot-rc"
	[ "$rc" = 0 ] || log "$1 boot: exit status $rc (see ${dir#"$TOP"/}/console.log)"
}

mkdir -p "$out"
runs=()
for k in $kernels; do
	case $k in
	bench) boot patched "$profile" ab; runs+=("$out/patched") ;;
	vanilla)
		for i in $(seq 1 "$boots"); do
			order="vanilla $profile"
			[ $((i % 2)) = 1 ] || order="$profile vanilla"
			for p in $order; do
				boot "alt$i-$p" "$p" off "BENCH_PAIRS=$boot_runs"
			done
			runs+=(--untracked "$out/alt$i-vanilla" "$out/alt$i-$profile")
		done ;;
	*) die "BENCH_KERNELS: bench and/or vanilla" ;;
	esac
done

log "report (the whole bench took $(( $(date +%s) - start ))s)"
python3 "$TOP/scripts/bench-report.py" --results "${BENCH_RESULTS:-$TOP/bench/results}" \
	--profile "$profile" --clock "$clock" --seconds "$(( $(date +%s) - start ))" "${runs[@]}"
