#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The test command: set up, sync the tree, build the test kernel and the
# guest programs, boot once running guest/run-tests.sh, judge the results.
#
#   run-tests.sh               everything (what 'make test' runs), and on
#                              the host hotstat's unit tests (make -C hotstat
#                              check), scripts/check-uapi-copy.sh and
#                              scripts/lint.sh without the prefix builds
#   run-tests.sh --judge DIR   only judge the results directory of a run
#
# Environment:
#   NO_BUILD=1          skip setup.sh, tree.sh sync and build.sh (the guest
#                       programs are still rebuilt)
#   V=1                 show the guest console live (it always goes to
#                       OUT/console.log)
#   OUT=DIR             results directory (default build/run/last)
#   TIMEOUT=SEC         whole guest run (default 2400)
#   HOT_FSES, HOT_TESTS, HOT_TEST_TIMEOUT
#                       passed to the guest, see guest/run-tests.sh; the
#                       reboot test (scripts/reboot-test.sh, two more boots)
#                       runs when HOT_TESTS is empty or has the word reboot
#
# Prints one line per test (ok/FAIL/skip), FAIL lines for kernel reports in
# the console log (BUG, WARNING, lockdep, KASAN, kmemleak, hung tasks...),
# ends with 'N passed, M failed'; exits 1 if anything failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# judge DIR BOOT_RC [FILE_OF_UNCOMPILABLE_SELFTESTS]: scripts/judge-tests.py
judge() {
	python3 "$TOP/scripts/judge-tests.py" "$@"
}

if [ "${1:-}" = --judge ]; then
	[ $# -eq 2 ] || die "usage: $0 --judge DIR"
	rc=$(cat "$2/boot-rc" 2>/dev/null || echo 0)
	judge "$2" "$rc" "$2/selftests.failed"
	exit
fi
[ $# -eq 0 ] || die "usage: $0 [--judge DIR]"

out=${OUT:-$BUILD/run/last}
# A step that fails ends the run with a verdict line all the same.
step() { # step WHAT COMMAND...
	local what=$1
	shift
	"$@" && return 0
	echo "FAIL $what"
	echo "0 passed, 1 failed"
	exit 1
}
if [ "${NO_BUILD:-0}" != 1 ]; then
	step setup "$TOP/scripts/setup.sh"
	step "tree: scripts/tree.sh sync" "$TOP/scripts/tree.sh" sync
	step "build: test kernel" "$TOP/scripts/build.sh" test
fi
log "building guest programs"
"$TOP/scripts/build-guest.sh" --profile test || true

guest=(env)
for v in HOT_FSES HOT_TESTS HOT_TEST_TIMEOUT; do
	[ -z "${!v:-}" ] || guest+=("$v=${!v}")
done
guest+=(guest/run-tests.sh)
# slab_nomerge: the tracking caches stay apart, so that hot_fault_test can
# aim failslab at them (/sys/kernel/slab/<cache>/failslab).
boot=("$TOP/scripts/boot.sh" --profile test --disks 2 --disk-size 2G
	--append slab_nomerge
	--timeout "${TIMEOUT:-2400}" --out "$out" -- "${guest[@]}")
rc=0
if [ "${V:-0}" = 1 ]; then
	"${boot[@]}" </dev/null || rc=$?
else
	# Only the guest's progress markers, not the console.
	set +e
	"${boot[@]}" </dev/null | guest_progress ''
	rc=${PIPESTATUS[0]}
	set -e
fi
mkdir -p "$out"	# boot.sh may have failed before making it
echo "$rc" > "$out/boot-rc"
# Heat across a real reboot, on disk images of its own, as <fs>/reboot
selected_reboot() {
	[ -z "${HOT_TESTS:-}" ] || [[ " $HOT_TESTS " == *" reboot "* ]]
}
if selected_reboot; then
	"$TOP/scripts/reboot-test.sh" "$out" || true
fi
# hotstat's host unit tests (no kernel), judged with the guest's as host/hotstat
log "hotstat host unit tests"
mkdir -p "$out/tap"
start=$(date +%s) trc=0
make -s -C "$TOP/hotstat" O="$BUILD/hotstat-check" check \
	> "$out/tap/host.hotstat.tap" 2> "$out/tap/host.hotstat.err" || trc=$?
echo "$trc" > "$out/tap/host.hotstat.rc"
echo $(( $(date +%s) - start )) > "$out/tap/host.hotstat.time"
# hotstat's copy of the UAPI header against the series', as host/uapi
trc=0
"$TOP/scripts/check-uapi-copy.sh" > "$out/tap/host.uapi.tap" \
	2> "$out/tap/host.uapi.err" || trc=$?
echo "$trc" > "$out/tap/host.uapi.rc"
echo 0 > "$out/tap/host.uapi.time"
# The maintainer's checks of the series but the prefix builds (make lint
# does those too), judged as lint: ...
log "lint: checkpatch, sparse, W=1, kernel-doc (scripts/lint.sh)"
LINT_PREFIXES=0 "$TOP/scripts/lint.sh" > "$out/lint.txt" 2>&1 || true
cp "$BUILD/guest/selftests.failed" "$out/selftests.failed" 2>/dev/null || true
log "judging $out"
judge "$out" "$rc" "$out/selftests.failed"
