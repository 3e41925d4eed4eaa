#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the programs the guest runs from the shared root, into build/guest:
#   build/guest/poweroff             from guest/poweroff.c
#   build/guest/hotstat              from hotstat/ (its Makefile; objects in
#       build/guest/hotstat.obj), against the same UAPI headers
#   build/guest/selftests/<name>     from each
#       build/linux/tools/testing/selftests/filesystems/hot_tracking/<name>.c
#       (kselftest_harness programs), against the UAPI headers installed by
#       scripts/build.sh in build/obj-<profile>/usr/include
#   build/guest/kselftest            the same target installed by the
#       kernel's selftests Makefile, with its run_kselftest.sh
#
#   build-guest.sh [--profile P] [--poweroff-only | --demo]
#
# --demo builds poweroff and hotstat only. A selftest (or hotstat) that does
# not compile is reported, listed in build/guest/selftests.failed, and makes
# the exit status 1; the others are still built. Stale binaries of removed or
# broken tests are deleted.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

profile=test only_poweroff=0 demo=0
while [ $# -gt 0 ]; do
	case $1 in
	--profile) profile=$2; shift 2 ;;
	--poweroff-only) only_poweroff=1; shift ;;
	--demo) demo=1; shift ;;
	*) die "usage: $0 [--profile P] [--poweroff-only | --demo]" ;;
	esac
done

out=$BUILD/guest
mkdir -p "$out"
gcc -O2 -Wall -Werror -o "$out/poweroff.tmp" "$TOP/guest/poweroff.c"
mv "$out/poweroff.tmp" "$out/poweroff"
[ $only_poweroff = 0 ] || exit 0

src=$TREE/tools/testing/selftests/filesystems/hot_tracking
hdrs=$BUILD/obj-$profile/usr/include
[ -d "$hdrs/linux" ] || die "no UAPI headers in $hdrs (scripts/build.sh $profile installs them)"

# hotstat, the user-space tool (hotstat/Makefile; -Werror); static: every
# exec in the guest costs, the fewer files to map the better. Replaced only
# when it changed, by a rename: a guest of another run may be using it.
if make -s -C "$TOP/hotstat" O="$out/hotstat.obj" HDRS="$hdrs" LDFLAGS=-static \
	> "$out/hotstat.log" 2>&1; then
	if ! cmp -s "$out/hotstat.obj/hotstat" "$out/hotstat"; then
		cp "$out/hotstat.obj/hotstat" "$out/hotstat.tmp"
		mv "$out/hotstat.tmp" "$out/hotstat"
	fi
	hotstat_ok=1
else
	echo "error: hotstat does not compile:" >&2
	sed 's/^/    /' "$out/hotstat.log" >&2
	rm -f "$out/hotstat"
	hotstat_ok=0
fi
if [ $demo = 1 ]; then
	[ $hotstat_ok = 1 ] || exit 1
	exit 0
fi

rm -rf "$out/selftests" "$out/selftests.failed"
mkdir -p "$out/selftests"
: > "$out/selftests.failed"
[ $hotstat_ok = 1 ] || echo hotstat >> "$out/selftests.failed"
shopt -s nullglob
files=("$src"/*.c)
if [ ${#files[@]} -eq 0 ]; then
	log "no selftests in ${src#"$TOP"/}"
	exit $(( 1 - hotstat_ok ))
fi

# As the selftests' lib.mk does: kernel UAPI headers before the system's,
# selftests/ for kselftest_harness.h and friends.
cflags=(-O2 -g -Wall -pthread -isystem "$hdrs" -I"$TREE/tools/testing/selftests")
bad=$(( 1 - hotstat_ok ))
# build NAME SOURCE [GCC FLAGS...]
build() {
	local name=$1 f=$2
	shift 2
	if gcc "${cflags[@]}" "$@" -o "$out/selftests/$name" "$f" 2> "$out/selftests/$name.log"; then
		[ -s "$out/selftests/$name.log" ] && cat "$out/selftests/$name.log" >&2
		rm -f "$out/selftests/$name.log"
	else
		echo "error: selftest $name does not compile:" >&2
		sed 's/^/    /' "$out/selftests/$name.log" >&2
		rm -f "$out/selftests/$name" "$out/selftests/$name.log"
		echo "$name" >> "$out/selftests.failed"
		bad=1
	fi
}
# The programs the selftests' Makefile builds 32-bit too (gcc-multilib)
m32=(hot_list_test hot_restore_test hot_logical_test)
nr=${#files[@]}
for f in "${files[@]}"; do
	name=$(basename "$f" .c)
	build "$name" "$f"
	if [[ " ${m32[*]} " == *" $name "* ]]; then
		build "${name}_32" "$f" -m32
		nr=$((nr + 1))
	fi
done
log "built $(( nr - $(grep -c -v -x hotstat "$out/selftests.failed" || true) )) of $nr selftests into ${out#"$TOP"/}/selftests"

# The same target as the kernel's own runner installs it (make -C
# tools/testing/selftests TARGETS=filesystems/hot_tracking install), for
# guest/tests/kselftest.sh
rm -rf "$out/kselftest" "$out/kselftest.obj"
if make -s -C "$TREE/tools/testing/selftests" TARGETS=filesystems/hot_tracking \
	KHDR_INCLUDES="-isystem $hdrs" O="$out/kselftest.obj" \
	INSTALL_PATH="$out/kselftest" install > "$out/kselftest.log" 2>&1; then
	rm -rf "$out/kselftest.obj"
else
	echo "error: the kselftest target does not install:" >&2
	sed 's/^/    /' "$out/kselftest.log" >&2
	rm -rf "$out/kselftest"
	echo kselftest-install >> "$out/selftests.failed"
	bad=1
fi
exit $bad
