#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The hot tracking selftests through the kernel's own runner: the
# run_kselftest.sh of the collection scripts/build-guest.sh installs in
# build/guest/kselftest, whose run.sh runs every program on the file system
# of this run. On ext4 only: the programs run on all three on their own
# already; this checks the runner's way (TEST_PROGS, settings, exit codes).
# The runner's TAP goes to stdout, its result is the one line judged.
set -u
TOP=${HOT_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
k=$TOP/build/guest/kselftest

echo "TAP version 13"
if [ "${HOT_FS:-}" != ext4 ]; then
	echo "1..0 # SKIP the kernel's runner is tried on ext4 only"
	exit 0
fi
if [ ! -x "$k/run_kselftest.sh" ]; then
	echo "Bail out! no kselftest collection in $k (scripts/build-guest.sh)"
	exit 1
fi
echo "1..1"
log=/tmp/kselftest.out
(cd /tmp && HOT_FSES=$HOT_FS "$k/run_kselftest.sh" \
	-t filesystems/hot_tracking:run.sh) > "$log" 2>&1
rc=$?
sed 's/^/# /' "$log" >&2
if [ $rc -eq 0 ] && grep -q '^ok 1 selftests: filesystems/hot_tracking: run.sh' "$log"; then
	echo "ok 1 run_kselftest.sh -t filesystems/hot_tracking:run.sh"
else
	grep -E '^(not )?ok |failed|SKIP' "$log" | tail -n 5 | sed 's/^/# /'
	echo "not ok 1 run_kselftest.sh -t filesystems/hot_tracking:run.sh (exit $rc)"
fi
exit 0
