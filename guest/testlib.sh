# SPDX-License-Identifier: GPL-2.0
# What the guest's shell tests share, sourced: TAP 13 (ok, check, tap_py,
# tap_plan) and mkfs_. The sourcing script sets W (its scratch directory)
# and fs (the filesystem) first.

n=0 failed=0
echo "TAP version 13"
ok() { # ok COND_STATUS NAME [DIAG...]
	local st=$1 name=$2
	shift 2
	n=$((n + 1))
	if [ "$st" = 0 ]; then
		echo "ok $n - $name"
	else
		failed=$((failed + 1))
		echo "not ok $n - $name"
		local d
		for d in "$@"; do
			printf '%s\n' "$d" | sed 's/^/# /'
		done
	fi
}
# check NAME WANT_EXIT COMMAND...: runs it, output in $W/out, $W/err
check() {
	local name=$1 want=$2 rc=0
	shift 2
	"$@" >"$W/out" 2>"$W/err" || rc=$?
	ok $(( rc != want )) "$name (exit $want)" "command: $*" "exit $rc" \
		"stdout: $(head -c 1500 "$W/out")" "stderr: $(head -c 500 "$W/err")"
}
# tap_py FILE: the 'ok - NAME' and 'not ok - NAME' lines of FILE as results
tap_py() {
	local l
	while IFS= read -r l; do
		case $l in
		"ok - "*) ok 0 "${l#ok - }" ;;
		"not ok - "*) ok 1 "${l#not ok - }" ;;
		*) echo "# $l" ;;
		esac
	done < "$1"
}
tap_plan() {
	echo "1..$n"
}
mkfs_() { # mkfs_ DEV: a new $fs on DEV, quietly
	case $fs in
	btrfs) mkfs.btrfs -f -q "$1" ;;
	xfs) mkfs.xfs -f -q "$1" ;;
	*) mkfs."$fs" -F -q -E lazy_itable_init=1,lazy_journal_init=1 "$1" ;;
	esac >/dev/null 2>&1
}
