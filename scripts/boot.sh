#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot a guest kernel in QEMU with the host's / as read-only root (virtio-9p,
# like virtme) and run one command in it as guest/init.sh's child.
#
#   boot.sh [options] [--] GUEST_COMMAND...
#     --profile P      kernel build/obj-P/arch/x86/boot/bzImage (default test)
#     --kernel FILE    boot FILE instead
#     --timeout SEC    kill QEMU after SEC seconds, exit 124 (default 1800;
#                      none when interactive; 0: none)
#     --disks N        N scratch disks, /dev/vda.. in the guest (default 0)
#     --disk-size SZ   size of each, sparse (default 2G)
#     --disk-image IMG attach the existing image IMG as the next disk, after
#                      the --disks ones (repeatable; kept as it is)
#     --disk-dir DIR   put the disk images in a new directory under DIR (e.g.
#                      /dev/shm: disks in host RAM), removed when QEMU is done
#                      (default: DIR/disks of --out, kept)
#     --mem SIZE       guest memory (default 4G: KASAN)
#     --cpus N         vCPUs (default 2)
#     --out DIR        results directory, wiped first (default build/run/last)
#     --append ARGS    extra kernel command line
#     --clock tsc      under TCG, let the guest keep its TSC clocksource
#                      (default: tsc=unstable, see below)
#     --icount         TCG with an instruction-counting clock: one vCPU
#                      thread, -icount shift=0,sleep=off (implies --clock
#                      tsc), see below
#
# One GUEST_COMMAND word is a shell command line ('cat /proc/version; ls');
# several words are run as they are. The guest runs it with $TOP as working
# directory, /tmp/results = DIR (writable, also $HOT_RESULTS), /tmp/mnt and
# /tmp/mnt2 as empty mount points, and powers off when it ends.
#
# DIR gets console.log (the whole serial console), qemu.log (QEMU's own
# stderr), cmd.sh, rc (the command's exit status), disks/, and whatever the
# command writes to /tmp/results. The console is shown on stdout too. When
# stdin is a terminal the session is interactive: the console is the guest
# command's stdin, ^C goes to the guest, ^A x quits QEMU, ^A c is the monitor.
#
# Exit status: the guest command's; 124 on timeout; 125 when the guest did
# not report one (panic, QEMU failure); 130 when interrupted.
#
# Guest clock: under TCG the guest's TSC is the host's raw TSC, and this
# host (a microVM that is snapshotted and restored) marks its own TSC
# unstable: a restore made the guest's clock leap 5 days forward in the
# middle of a test, which the test's timeout took for a hang. Under TCG the
# guest therefore boots with tsc=unstable and keeps time with the emulated
# HPET, which QEMU drives from the host's CLOCK_MONOTONIC. --clock tsc keeps
# the TSC (cheaper clock reads, for the benchmark).
#
# Instruction-counting clock (--icount): the guest's clocks advance 1 ns per
# instruction executed (-icount shift=0), and jump to the next timer when
# every vCPU is idle (sleep=off), whatever the host does meanwhile. A run's
# guest time then measures the instructions it took, not the host's noise.
# The vCPUs share one host thread (icount needs single-threaded TCG), and
# the TSC follows the same clock. Cache misses cost nothing in that time:
# it counts work, not memory latency.
#
# Acceleration: KVM when /dev/kvm is usable and a boot probe (once, cached in
# build/accel; delete it to probe again) reaches guest init within 60 s,
# otherwise TCG (-cpu max). HOT_ACCEL=kvm|tcg forces one, HOT_ACCEL=probe
# probes again (even without a usable /dev/kvm) and caches the result.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

profile=test kernel="" timeout="" ndisks=0 disk_size=2G mem=4G
out=$BUILD/run/last append='' disk_dir='' clock='' images=() icount=0 cpus=2
while [ $# -gt 0 ]; do
	case $1 in
	--profile) profile=$2; shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--disks) ndisks=$2; shift 2 ;;
	--disk-size) disk_size=$2; shift 2 ;;
	--disk-dir) disk_dir=$2; shift 2 ;;
	--disk-image) images+=("$2"); shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--clock) clock=$2; shift 2 ;;
	--icount) icount=1; clock=tsc; shift ;;
	--) shift; break ;;
	-h|--help) sed -n '3,/^set -e/{/^set -e/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	-*) die "unknown option $1 (see $0 --help)" ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || die "no guest command (see $0 --help)"
[[ ${timeout:-0} =~ ^[0-9]+$ ]] || die "--timeout wants seconds"
case $clock in ''|tsc) ;; *) die "--clock: only tsc" ;; esac
[[ $ndisks =~ ^[0-9]+$ ]] && [ "$ndisks" -le 20 ] || die "--disks wants 0..20"
[[ $cpus =~ ^[1-9][0-9]*$ ]] || die "--cpus wants a number of vCPUs"
kernel=${kernel:-$BUILD/obj-$profile/arch/x86/boot/bzImage}
[ -f "$kernel" ] || die "no kernel at $kernel (build it: scripts/build.sh $profile)"
[ -x "$BUILD/guest/poweroff" ] || "$TOP/scripts/build-guest.sh" --poweroff-only
case ${HOT_ACCEL:-} in ''|kvm|tcg|probe) ;; *) die "HOT_ACCEL: kvm, tcg or probe" ;; esac
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (scripts/setup.sh)"

interactive=0
[ -t 0 ] && [ -t 1 ] && interactive=1

# The results directory is wiped: refuse anything that does not look like one
# of ours.
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -n "$(ls -A "$out")" ] && [ ! -e "$out/.hot-run" ]; then
	die "$out is not empty and not a results directory; not wiping it"
fi
find "$out" -mindepth 1 -delete
touch "$out/.hot-run"

# The root is mounted cache=loose: the host's / is not supposed to change
# under a running guest, and without a page cache every exec reads its
# binary and libraries over 9p again (~10x slower under TCG).
#
# Under TCG (-cpu max emulates LA57) the guest boots with 4-level paging,
# no5lvl: with 5-level paging, an interrupt that comes while identify_cpu()
# has cleared the boot CPU's capabilities makes KASAN take the 5-level
# direct map for addresses without shadow, and report a wild-memory-access
# in handle_edge_irq() (seen twice in early boot, before any of the
# series runs; the race is x86's, not the series'). The icount boots of
# the benchmark (no KASAN) keep the CPU as they were measured.
cmdline() { # cmdline ACCEL_ARGS... -> the kernel command line
	local tsc='' paging=''
	[[ " $* " != *" tcg "* ]] || [ "$clock" = tsc ] || tsc=tsc=unstable
	[[ " $* " != *" tcg "* ]] || paging=no5lvl
	echo "console=ttyS0 root=/dev/root rootfstype=9p" \
		"rootflags=trans=virtio,version=9p2000.L,msize=512000,cache=loose ro" \
		"init=$TOP/guest/init.sh pci=noacpi panic=-1 loglevel=7" \
		"printk.devkmsg=on $tsc $paging $append"
}

# qemu DIR TIMEOUT ACCEL_ARGS... -- EXTRA_ARGS...: run QEMU with DIR shared
# as 'results' and its console logged to DIR/console.log; non-interactive
# runs go to the background so that a signal to us stops QEMU too. Sets rc.
qemu() {
	local dir=$1 secs=$2 accel=() extra=()
	shift 2
	while [ "$1" != -- ]; do accel+=("$1"); shift; done
	shift
	extra=("$@")
	local chardev=stdio,id=con,logfile=$dir/console.log
	# shellcheck disable=SC2054 # commas belong to QEMU options
	local args=(-machine pc -smp "$cpus" -m "$mem" "${accel[@]}"
		-kernel "$kernel" -append "$(cmdline "${accel[@]}")"
		-nodefaults -no-user-config -display none -vga none -no-reboot
		-fsdev "local,id=root,path=/,security_model=none,readonly=on,multidevs=remap"
		-device "virtio-9p-pci,fsdev=root,mount_tag=/dev/root"
		-fsdev "local,id=results,path=$dir,security_model=none"
		-device "virtio-9p-pci,fsdev=results,mount_tag=results"
		"${extra[@]}")
	if [ "$interactive" = 1 ]; then
		rc=0
		timeout --foreground -k 10 "$secs" qemu-system-x86_64 "${args[@]}" \
			-chardev "$chardev,mux=on,signal=off" -serial chardev:con \
			-mon chardev=con,mode=readline \
			2> >(tee -a "$dir/qemu.log" >&2) || rc=$?
		return 0
	fi
	timeout -k 10 "$secs" qemu-system-x86_64 "${args[@]}" \
		-chardev "$chardev,signal=off" -serial chardev:con \
		</dev/null 2> >(tee -a "$dir/qemu.log" >&2) &
	local pid=$! interrupted=0
	trap 'interrupted=1; kill -TERM $pid 2>/dev/null || true' INT TERM HUP
	while :; do
		rc=0
		wait "$pid" || rc=$?
		kill -0 "$pid" 2>/dev/null || break
	done
	trap - INT TERM HUP
	[ $interrupted = 0 ] || rc=130
}

# Prints the QEMU acceleration arguments.
accel_args() {
	local cache=$BUILD/accel kvm_ok=0
	case ${HOT_ACCEL:-} in
	kvm) echo "-accel kvm -cpu host"; return ;;
	tcg) tcg_args; return ;;
	probe) rm -f "$cache"; kvm_ok=1 ;;
	*) [ -r /dev/kvm ] && [ -w /dev/kvm ] && (exec 3<>/dev/kvm) 2>/dev/null && kvm_ok=1 ;;
	esac
	if [ $kvm_ok = 1 ]; then
		[ -s "$cache" ] || probe_kvm > "$cache"
		if [ "$(cat "$cache")" = kvm ]; then
			echo "-accel kvm -cpu host"
			return
		fi
	fi
	tcg_args
}

tcg_args() {
	# -cpu max: every feature TCG emulates (the default qemu64 lacks e.g.
	# SSE4 and x2APIC); only if this QEMU accepts it.
	if timeout 20 qemu-system-x86_64 -machine pc -accel tcg -cpu max -nodefaults \
		-no-user-config -display none -S -monitor stdio <<<quit >/dev/null 2>&1; then
		echo "-accel tcg -cpu max"
	else
		echo "-accel tcg"
	fi
}

# Boot with KVM once; prints kvm if guest init was reached within 60 s.
probe_kvm() {
	local dir
	dir=$(mktemp -d "$BUILD/accel-probe.XXXXXX")
	echo true > "$dir/cmd.sh"
	log "probing KVM (one time; result cached in $BUILD/accel)"
	# shellcheck disable=SC2030,SC2031
	(
		ulimit -c 0
		interactive=0
		qemu "$dir" 60 -accel kvm -cpu host -- >/dev/null 2>&1
	) || true
	if grep -q 'hot-guest: init' "$dir/console.log" 2>/dev/null; then
		log "KVM works"
		echo kvm
	else
		log "KVM probe failed: $(grep -m1 . "$dir/qemu.log" 2>/dev/null ||
			echo 'no guest init within 60 s'); using TCG"
		echo tcg
	fi
	rm -rf "$dir"
}

# The guest command, as a script in the results directory.
{
	echo "# boot.sh guest command"
	[ $interactive = 1 ] || echo "exec </dev/null"
	if [ $# -eq 1 ]; then
		printf '%s\n' "$1"
	else
		printf 'exec'
		printf ' %q' "$@"
		printf '\n'
	fi
} > "$out/cmd.sh"

disks=()
if [ "$ndisks" -gt 0 ]; then
	imgdir=$out/disks
	if [ -n "$disk_dir" ]; then
		[ -d "$disk_dir" ] || die "--disk-dir: no directory $disk_dir"
		imgdir=$(mktemp -d "$disk_dir/hot-disks.XXXXXX")
		# shellcheck disable=SC2064 # expand now
		trap "rm -rf '$imgdir'" EXIT
	fi
	mkdir -p "$imgdir"
	letters=abcdefghijklmnopqrstuvwxyz
	for i in $(seq 0 $((ndisks - 1))); do
		img=$imgdir/vd${letters:i:1}.img
		truncate -s "$disk_size" "$img"
		disks+=(-drive "file=$img,if=virtio,format=raw,cache=unsafe")
	done
fi

for img in "${images[@]}"; do
	[ -f "$img" ] || die "--disk-image: no file $img"
	disks+=(-drive "file=$img,if=virtio,format=raw,cache=unsafe")
done

mkdir -p "$BUILD"
if [ $icount = 1 ]; then
	# shellcheck disable=SC2054 # commas belong to QEMU options
	accel=(-accel tcg,thread=single -cpu max -icount shift=0,sleep=off)
else
	read -ra accel <<<"$(accel_args)"
fi
[ -n "$timeout" ] || { [ $interactive = 1 ] && timeout=0 || timeout=1800; }
log "booting ${kernel#"$TOP"/} (${accel[*]}), console log in ${out#"$TOP"/}/console.log"
start=$(date +%s)
rc=0
qemu "$out" "$timeout" "${accel[@]}" -- "${disks[@]}"
secs=$(( $(date +%s) - start ))

if [ "$rc" = 130 ]; then
	log "interrupted after ${secs}s"
	exit 130
elif [ "$rc" = 124 ] || { [ "$rc" = 137 ] && [ "$timeout" -gt 0 ] && [ "$secs" -ge "$timeout" ]; }; then
	log "timeout: guest killed after ${secs}s"
	exit 124
elif [ -s "$out/rc" ]; then
	guest_rc=$(cat "$out/rc")
	log "guest command exited with $guest_rc; QEMU ran ${secs}s"
	exit "$guest_rc"
else
	log "guest reported no exit status (QEMU exit $rc after ${secs}s); see ${out#"$TOP"/}/console.log"
	exit 125
fi
