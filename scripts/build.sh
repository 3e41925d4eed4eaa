#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build a guest kernel from build/linux into build/obj-<profile>.
#
#   build.sh [test|bench|vanilla]
#     test     the debug test kernel: guest + debug + hot fragments
#     bench    no debug options: guest + bench + hot fragments
#     vanilla  guest + bench fragments, from the pristine 'base' tree
#              (a worktree)
#     profile  bench with the ftrace function profiler: guest + bench +
#              profile + hot fragments (scripts/profile.sh)
#
# The fragments in configs/ are merged onto tinyconfig; the build fails if any
# option of a fragment did not end up in .config with the value asked for.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

profile=${1:-test}
case $profile in
test) frags=(guest debug hot) src=$TREE ;;
bench) frags=(guest bench hot) src=$TREE ;;
vanilla) frags=(guest bench) src=$BUILD/linux-vanilla ;;
profile) frags=(guest bench profile hot) src=$TREE ;;
*) die "unknown profile $profile" ;;
esac
obj=$BUILD/obj-$profile

if [ "$profile" = vanilla ] && [ ! -d "$src" ]; then
	git -C "$TREE" worktree add -f --detach "$src" base >/dev/null
fi

# Options of ours that the tree does not define yet (a partial series) are
# skipped, not failed: the fragment lists what the whole series provides.
known_symbol() {
	git -C "$src" grep -q --untracked -E "^(menu)?config ${1#CONFIG_}\$" -- '*Kconfig*'
}

mkdir -p "$obj"
files=()
for f in "${frags[@]}"; do
	out=$obj/frag-$f.config
	: > "$out"
	while IFS= read -r line; do
		case $line in CONFIG_*=*) ;; *) continue ;; esac
		known_symbol "${line%%=*}" && echo "$line" >> "$out"
	done < "$TOP/configs/$f.config"
	files+=("$out")
done

export KBUILD_BUILD_TIMESTAMP="2026-01-01" KBUILD_BUILD_USER=hot KBUILD_BUILD_HOST=build
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache} CCACHE_COMPILERCHECK=content
ccache -M 10G >/dev/null 2>&1 || true
mk() { make -s -C "$src" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" "$@"; }

# Regenerate .config only when a fragment changed, so a warm build stays warm.
stamp=$(cat "${files[@]}" | sha1sum | cut -d' ' -f1)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.config-stamp" 2>/dev/null)" != "$stamp" ]; then
	log "configuring $profile kernel"
	mk tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${files[@]}" >/dev/null
	mk olddefconfig >/dev/null
	echo "$stamp" > "$obj/.config-stamp"
else
	mk olddefconfig >/dev/null
fi

# Each option as the last fragment that sets it asks, as merge_config.sh
# merges them
declare -A want=()
order=()
for f in "${files[@]}"; do
	while IFS= read -r line; do
		sym=${line%%=*}
		[ -n "${want[$sym]+x}" ] || order+=("$sym")
		want[$sym]=$line
	done < "$f"
done
bad=0
for sym in "${order[@]}"; do
	line=${want[$sym]} val=${want[$sym]#*=}
	if [ "$val" = n ]; then
		grep -q "^$sym=" "$obj/.config" && { echo "config: $sym=n did not take" >&2; bad=1; }
	else
		grep -qx "$line" "$obj/.config" || {
			echo "config: $line did not take (got: $(grep "^$sym=\|^# $sym " "$obj/.config" || echo unset))" >&2
			bad=1
		}
	fi
done
[ $bad -eq 0 ] || die "config fragments did not apply"

log "building $profile kernel in $obj"
start=$(date +%s)
# The compiler's output (KASAN makes -Wframe-larger-than chatty in code
# that is not ours) goes to a log, shown when the build fails.
if ! mk -j"$(($(nproc) + 1))" bzImage > "$obj/build.log" 2>&1; then
	grep -E -B2 -A3 'error|Error' "$obj/build.log" | tail -60 >&2
	die "kernel build failed; the whole log is $obj/build.log"
fi
mk headers >/dev/null
log "built $profile kernel in $(( $(date +%s) - start ))s"
