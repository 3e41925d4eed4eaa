#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# hotstat builds against its own copy of the series' UAPI header
# (hotstat/include/uapi/linux/hot_tracking.h), as tools/include/uapi does
# for the kernel's tools. Check, as TAP 13 on stdout, that the copy is the
# header of the tree's series, so that the two cannot drift apart; exit 1 if
# not. To refresh the copy after a change to the series:
#   cp build/linux/include/uapi/linux/hot_tracking.h hotstat/include/uapi/linux/
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rel=include/uapi/linux/hot_tracking.h
echo "TAP version 13"
echo "1..1"
if diff -u "$TREE/$rel" "$TOP/hotstat/$rel" >&2; then
	echo "ok 1 uapi_copy: hotstat/$rel is the series' header"
else
	echo "not ok 1 uapi_copy: hotstat/$rel differs from the series' (diff above)"
	exit 1
fi
