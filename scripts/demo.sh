#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The main job: build what is missing, boot the patched kernel, and show
# what hot data tracking makes of a workload with a known skew on a btrfs
# scratch disk, as hotstat shows it (guest/demo.sh).
#
#   demo.sh          NO_BUILD=1 skips set-up, tree sync and kernel build
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if [ -z "${NO_BUILD:-}" ]; then
	"$TOP/scripts/setup.sh"
	"$TOP/scripts/tree.sh" sync
	"$TOP/scripts/build.sh" test
fi
"$TOP/scripts/build-guest.sh" --demo	# poweroff and hotstat

log "booting the patched kernel (console log in build/run/demo/console.log)"
"$TOP/scripts/boot.sh" --disks 1 --disk-size 1G --timeout 900 \
	--out "$BUILD/run/demo" -- \
	"HOT_GUEST_BIN=$BUILD/guest guest/demo.sh" |
	grep --line-buffered -v -E '^\[ *[0-9]+\.[0-9]+\]|^qemu-system|^$' || true
grep -q '^0$' "$BUILD/run/demo/rc" 2>/dev/null ||
	die "the demo failed; see build/run/demo/console.log"
