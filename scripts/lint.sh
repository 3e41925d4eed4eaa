#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What a maintainer runs over the series, on the commits base..HEAD of
# build/linux (make export writes the same to patches/):
#
#   checkpatch   scripts/checkpatch.pl --strict on every patch: no error,
#                warning or check at all
#   prefixes     every prefix of the series builds: the test kernel, one
#                commit after the other in build/obj-test (make and ccache
#                keep that incremental); skipped with LINT_PREFIXES=0
#   sparse, W=1  the objects the series touches, built with C=2 W=1 at the
#                last commit: no finding in the series' own files, none on a
#                line the series added to the others
#   kernel-doc   scripts/kernel-doc -none -Wall on every C file and header the
#                series touches, with the same rule
#   htmldocs     make SPHINXDIRS="admin-guide filesystems userspace-api"
#                htmldocs (in build/obj-docs): no warning on the series'
#                documents or the kernel-doc they pull in
#
#   lint.sh      (make lint; make test runs it with LINT_PREFIXES=0)
#
# Prints one ok/FAIL line per check with the findings under it, ends with
# 'N passed, M failed', exits 1 if anything failed. The tree must have no
# uncommitted changes; it is back at its branch afterwards. Needs sparse
# and python3-sphinx (scripts/setup.sh installs them).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$BUILD/run/lint
rm -rf "$out"
mkdir -p "$out"
git -C "$TREE" diff --quiet HEAD -- || die "$TREE has uncommitted changes"
branch=$(git -C "$TREE" symbolic-ref -q --short HEAD) || die "$TREE: HEAD is detached"
head=$(git -C "$TREE" rev-parse HEAD)
mapfile -t commits < <(git -C "$TREE" rev-list --reverse base..HEAD)
[ ${#commits[@]} -gt 0 ] || die "no commits on base in $TREE"

npass=0 nfail=0
result() { # result ok|FAIL WHAT [FINDINGS_FILE]
	if [ "$1" = ok ]; then
		npass=$((npass + 1))
	else
		nfail=$((nfail + 1))
	fi
	printf '%-5s%s\n' "$1" "lint: $2"
	if [ -n "${3:-}" ] && [ -s "$3" ]; then
		head -n 20 "$3" | sed 's/^/    /'
	fi
	return 0
}

# --- checkpatch, patch by patch ---
# What checkpatch says that follows the code around it, each with its
# reason: TYPE and a text of the finding's block. Anything else fails.
CHECKPATCH_ALLOWED='
CAMELCASE <Opt_	the enums of fs_parser tables: every filesystem names them Opt_*
SPACING FILE: fs/ext4/super.c	ext4 aligns the ( of its parameter table with tabs
PARENTHESIS_ALIGNMENT FILE: fs/hot_tracking/trace.h	TRACE_EVENT(name, TP_PROTO(...)...): the layout of every trace header
OPEN_ENDED_LINE FILE: fs/hot_tracking/trace.h	TP_STRUCT__entry( and TP_fast_assign( open their blocks
'
# checkpatch asks about MAINTAINERS for every patch that adds a file: fine
# when the series' MAINTAINERS entry (HOT DATA TRACKING) covers them all.
# uncovered COMMIT: the files COMMIT adds that no F: line of it covers
uncovered() {
	git -C "$TREE" show --diff-filter=A --name-only --format= "$1" | python3 -c '
import re, subprocess, sys
text = subprocess.run(["git", "-C", sys.argv[1], "show", sys.argv[2] + ":MAINTAINERS"],
                      capture_output=True, text=True).stdout
m = re.search(r"^HOT DATA TRACKING\n((?:[A-Z]:.*\n)+)", text, re.M)
pats = [l[3:].strip() for l in m.group(1).splitlines() if l.startswith("F:")] if m else []
for f in sys.stdin.read().split():
    if not any(f == p or (p.endswith("/") and f.startswith(p)) for p in pats):
        print(f)
' "$TREE" "$1"
}
checkpatch_findings() { # COMMIT; stdin: checkpatch output; stdout: what is left
	ALLOWED=$CHECKPATCH_ALLOWED UNCOVERED=$(uncovered "$1") python3 -c '
import os, re, sys
allowed = [l.split("\t")[0].split(" ", 1) for l in os.environ["ALLOWED"].split("\n") if l.strip()]
text = sys.stdin.read()
for block in re.split(r"\n\s*\n", text):
    first = block.strip().split("\n")[0] if block.strip() else ""
    m = re.match(r"^(ERROR|WARNING|CHECK):(\w+):", first)
    if not m:
        if re.search(r"Traceback|rror:", block):
            print(block.strip() + "\n")
        continue
    if any(m.group(2) == t and what in block for t, what in allowed):
        continue
    if m.group(2) == "FILE_PATH_CHANGES" and not os.environ["UNCOVERED"].strip():
        continue
    print(block.strip() + "\n")
'
}
n=0
for c in "${commits[@]}"; do
	n=$((n + 1))
	subj=$(git -C "$TREE" log -1 --format=%s "$c")
	f=$out/checkpatch-$n.txt
	# From the top of the tree, as a maintainer runs it: checkpatch looks
	# at the files there (CamelCase names a file already uses pass). Its
	# spdxcheck.py needs Debian's python3 (python3-ply), not another first
	# in PATH.
	(cd "$TREE" && git format-patch --stdout -1 "$c" |
		PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict --quiet \
			--no-summary --show-types -) > "$f" 2>&1 || true
	checkpatch_findings "$c" < "$f" > "$f.left"
	if [ -s "$f.left" ]; then
		result FAIL "checkpatch $n/${#commits[@]} $subj" "$f.left"
	else
		result ok "checkpatch $n/${#commits[@]} $subj"
	fi
done

# --- every prefix builds ---
restore() { git -C "$TREE" checkout -q "$branch"; }
if [ "${LINT_PREFIXES:-1}" = 1 ]; then
	trap restore EXIT
	n=0
	for c in "${commits[@]}"; do
		n=$((n + 1))
		subj=$(git -C "$TREE" log -1 --format=%s "$c")
		git -C "$TREE" checkout -q --detach "$c"
		start=$(date +%s)
		if "$TOP/scripts/build.sh" test > "$out/build-$n.txt" 2>&1; then
			result ok "prefix $n/${#commits[@]} builds ($(( $(date +%s) - start ))s) $subj"
		else
			tail -n 20 "$out/build-$n.txt" > "$out/build-$n.tail"
			result FAIL "prefix $n/${#commits[@]} does not build: $subj" "$out/build-$n.tail"
		fi
	done
	restore
	trap - EXIT
fi
[ "$(git -C "$TREE" rev-parse HEAD)" = "$head" ] || die "the tree is not back at $head"

# Files of the series: new ones (every finding counts) and touched ones (a
# finding counts on a line the series added)
git -C "$TREE" diff --name-only --diff-filter=A base..HEAD > "$out/new-files"
git -C "$TREE" diff --name-only base..HEAD -- '*.c' '*.h' |
	grep -v -e '^tools/' -e '^Documentation/' > "$out/c-files" || true
# file:line of every added line
git -C "$TREE" diff -U0 base..HEAD -- $(cat "$out/c-files") | awk '
	/^\+\+\+ b\// { file = substr($0, 7) }
	/^@@/ {
		split($3, a, ",")
		start = substr(a[1], 2); len = (a[2] == "") ? 1 : a[2]
		for (i = 0; i < len; i++) print file ":" start + i
	}' > "$out/added-lines"

# Keep the findings (file:line: ...) on the series' lines; paths made
# relative to the tree. The script goes as an argument: a here-document
# would take the place of stdin, where the findings come.
ours() {
	python3 -c "$ours_py" "$TREE" "$out/new-files" "$out/added-lines"
}
ours_py=$(cat <<'PY'
import re, sys
tree, new, added = sys.argv[1], sys.argv[2], sys.argv[3]
new = set(open(new).read().split())
added = set(open(added).read().split())
seen = set()
for line in sys.stdin:
    m = re.match(r'^(?:\S*?/)?((?:fs|mm|include|kernel|lib|block)/[^:\s]+):(\d+):(?:\d+:)?\s*(.*)$', line.rstrip())
    if not m or not re.match(r'(warning|error)', m.group(3)):
        continue
    f, l, msg = m.groups()
    if f in new or f'{f}:{l}' in added:
        key = (f, l, msg)
        if key not in seen:
            seen.add(key)
            print(f'{f}:{l}: {msg}')
PY
)

# --- sparse and W=1 on the objects the series touches ---
objs=()
while read -r f; do
	case $f in *.c) objs+=("${f%.c}.o") ;; esac
done < "$out/c-files"
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache} CCACHE_COMPILERCHECK=content
make -s -C "$TREE" O="$BUILD/obj-test" CC="ccache gcc" C=2 W=1 "${objs[@]}" \
	> "$out/sparse-w1.log" 2>&1 || true
ours < "$out/sparse-w1.log" > "$out/sparse-w1.txt"
# The objects as the test kernel builds them again (no W=1 flags)
make -s -C "$TREE" O="$BUILD/obj-test" CC="ccache gcc" "${objs[@]}" > /dev/null 2>&1 || true
if [ -s "$out/sparse-w1.txt" ]; then
	result FAIL "sparse and W=1 on ${#objs[@]} objects" "$out/sparse-w1.txt"
elif grep -q 'Error [0-9]' "$out/sparse-w1.log"; then
	grep -B5 'Error [0-9]' "$out/sparse-w1.log" | tail -n 20 > "$out/sparse-w1.err"
	result FAIL "sparse and W=1: make failed" "$out/sparse-w1.err"
else
	result ok "sparse and W=1 on ${#objs[@]} objects"
fi

# --- kernel-doc ---
: > "$out/kernel-doc.log"
while read -r f; do
	(cd "$TREE" && scripts/kernel-doc -none -Wall "$f") >> "$out/kernel-doc.log" 2>&1 || true
done < "$out/c-files"
ours < "$out/kernel-doc.log" > "$out/kernel-doc.txt"
if [ -s "$out/kernel-doc.txt" ]; then
	result FAIL "kernel-doc on $(wc -l < "$out/c-files") files" "$out/kernel-doc.txt"
else
	result ok "kernel-doc on $(wc -l < "$out/c-files") files"
fi

# --- htmldocs ---
# The documents the series adds or changes, and the files their kernel-doc
# directives pull in: a warning that names one of them is ours
docs_re='hot_tracking|hot-data-tracking'
if (cd "$TREE" && make -s O="$BUILD/obj-docs" \
	SPHINXDIRS="admin-guide filesystems userspace-api" htmldocs) \
	> "$out/htmldocs.log" 2>&1; then
	grep -E "$docs_re" "$out/htmldocs.log" | grep -iE 'warning|error' \
		> "$out/htmldocs.txt" || true
	if [ -s "$out/htmldocs.txt" ]; then
		result FAIL "htmldocs: warnings on our documents" "$out/htmldocs.txt"
	else
		result ok "htmldocs of admin-guide, filesystems, userspace-api"
	fi
else
	tail -n 20 "$out/htmldocs.log" > "$out/htmldocs.txt"
	result FAIL "htmldocs: the build failed" "$out/htmldocs.txt"
fi

echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
