#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Where the time of a tracked I/O goes: boot the profiling kernel
# (build/obj-profile: the benchmark kernel with the ftrace function
# profiler) under the instruction-counting clock, one vCPU, a RAM disk, and
# run guest/profile.sh; the table goes to build/run/profile/profile.md and,
# with PROFILE_SAVE=1, to bench/results/profile-latest.md.
#
#   NO_BUILD=1       do not build the kernel first
#   PROFILE_FS, PROFILE_RUNTIME, PROFILE_FUNCS   see guest/profile.sh
#
# Exit status: 0, or that of the step that failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$BUILD/run/profile
[ "${NO_BUILD:-0}" = 1 ] || "$TOP/scripts/build.sh" profile
[ -f "$BUILD/obj-profile/arch/x86/boot/bzImage" ] ||
	die "no profiling kernel: scripts/build.sh profile"

env=(env)
for v in PROFILE_FS PROFILE_RUNTIME PROFILE_FUNCS; do
	[ -z "${!v+x}" ] || env+=("$v=${!v}")
done
"$TOP/scripts/boot.sh" --profile profile --icount --cpus 1 --mem 4G \
	--timeout 1200 --out "$out" \
	--append "kunit.enable=0 brd.rd_nr=1 brd.rd_size=2097152" \
	-- "${env[@]}" PROFILE_DEV=/dev/ram0 guest/profile.sh </dev/null |
	guest_progress profile || true
[ "$(cat "$out/rc" 2>/dev/null)" = 0 ] ||
	die "the profiling guest failed; see ${out#"$TOP"/}/console.log"
python3 "$TOP/scripts/profile-report.py" "$out/profile" > "$out/profile.md"
cat "$out/profile.md"
if [ "${PROFILE_SAVE:-0}" = 1 ]; then
	cp "$out/profile.md" "$TOP/bench/results/profile-latest.md"
	log "wrote bench/results/profile-latest.md"
fi
