#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The kernel tree in build/linux: a git repository whose tag 'base' is the
# pristine Debian source and whose commits on top are patches/series.
#
#   tree.sh sync     create the tree if missing, (re)apply patches/ if the
#                    tree does not already hold exactly that series; refuses
#                    to touch commits that were never exported
#   tree.sh export   write base..HEAD to patches/ (and patches/series),
#                    numbered, with the cover letter 0000-cover-letter.patch
#                    (not in series): its subject and text are kept from the
#                    cover letter already in patches/, its shortlog and
#                    diffstat made anew; edit those two in the file itself
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Patch-ids that were applied from or exported to patches/ at some point
STATE=$TREE/.git/hot-known-patches

git_tree() { git -C "$TREE" -c user.name=hot-build -c user.email=hot-build@localhost "$@"; }

# How the tree's git writes patches, for 'make export' and for anyone who
# runs 'git format-patch' there: a blank context line goes out empty, not as
# one space (git am and patch take both; checkpatch, run on a patch file
# that git tracks, checks it as a source file and flags that space as
# trailing whitespace); blob ids of a fixed length and no signature, so that
# the patches do not depend on the git version or the repository's size.
tree_config() {
	git_tree config diff.suppressBlankEmpty true
	git_tree config core.abbrev 12
	git_tree config format.signature ""
}

create_tree() {
	log "extracting $SOURCE_TARBALL into $TREE"
	rm -rf "$TREE" "$TREE.tmp"
	mkdir -p "$TREE.tmp"
	tar -xJf "$SOURCE_TARBALL" -C "$TREE.tmp" --strip-components=1
	# Debian's .gitignore ends in a block ignoring everything at the top
	# level; new files would never reach a patch. Drop that block.
	sed -i '/^# Debian packaging: ignore everything/,$d' "$TREE.tmp/.gitignore"
	sed -i '${/^#$/d}' "$TREE.tmp/.gitignore"
	git -C "$TREE.tmp" init -q -b master
	git -C "$TREE.tmp" add -A
	git -C "$TREE.tmp" -c user.name=hot-build -c user.email=hot-build@localhost \
		commit -q -m "Debian linux-source-6.12 (pristine)"
	git -C "$TREE.tmp" tag base
	mv "$TREE.tmp" "$TREE"
	tree_config
}

series_files() {
	[ -f "$PATCHES/series" ] || return 0
	grep -v -e '^#' -e '^[[:space:]]*$' "$PATCHES/series" | sed "s|^|$PATCHES/|"
}

cmd_sync() {
	[ -d "$TREE/.git" ] && git_tree rev-parse -q --verify refs/tags/base >/dev/null ||
		create_tree
	tree_config
	local want have files
	mapfile -t files < <(series_files)
	want=$( ( [ ${#files[@]} -eq 0 ] || cat "${files[@]}" ) | patch_ids)
	have=$(git_tree format-patch --stdout base..HEAD | patch_ids)
	if [ "$want" = "$have" ]; then
		return 0
	fi
	# Every commit in the tree must be in patches/ or have been applied
	# from or exported to it before (patches/ changed under a pull);
	# otherwise resetting would lose work.
	local lost
	lost=$(comm -23 <(echo "$have") <({ echo "$want"; cat "$STATE" 2>/dev/null; } | sort -u) |
		grep -c . || true)
	if [ "$lost" -gt 0 ] || [ -n "$(git_tree status --porcelain --untracked-files=no)" ]; then
		die "$TREE has $lost commit(s) or changes not in patches/; run 'make export' (or reset the tree yourself) first"
	fi
	# Keep the commits that match the head of the series: files they
	# touch keep their mtimes and are not rebuilt.
	local commits keep=0 onto=base
	mapfile -t commits < <(git_tree rev-list --reverse base..HEAD)
	while [ $keep -lt ${#files[@]} ] && [ $keep -lt ${#commits[@]} ] &&
	      [ "$(patch_ids < "${files[$keep]}")" = \
		"$(git_tree format-patch --stdout -1 "${commits[$keep]}" | patch_ids)" ]; do
		onto=${commits[$keep]}
		keep=$((keep + 1))
	done
	if [ $keep -eq 0 ]; then
		log "applying ${#files[@]} patches onto base"
	else
		log "applying $((${#files[@]} - keep)) patches onto the first $keep of the series"
	fi
	git_tree am --abort >/dev/null 2>&1 || true
	git_tree checkout -q -B master "$onto"
	[ $keep -eq ${#files[@]} ] ||
		git_tree am -q --whitespace=nowarn "${files[@]:$keep}"
	remember
}

# Patch-ids of base..HEAD, added to those known to be in patches/ history
remember() {
	{
		git_tree format-patch --stdout base..HEAD | patch_ids
		cat "$STATE" 2>/dev/null || true
	} | sort -u > "$STATE.new"
	mv "$STATE.new" "$STATE"
}

# The subject and the text of a cover letter, as a branch description for
# 'git format-patch --cover-from-description=subject': the subject without
# its [PATCH 0/N], a blank line, the text up to the shortlog
cover_description() {
	python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], encoding='utf-8').read()
head, _, body = text.partition('\n\n')
m = re.search(r'^Subject: (.*(?:\n[ \t].*)*)', head, re.M)
subject = re.sub(r'\s+', ' ', m.group(1)) if m else ''
subject = re.sub(r'^\[[^]]*\]\s*', '', subject).strip()
lines = []
for line in body.split('\n'):
    if re.match(r'^\S.* \(\d+\):$', line):
        break
    lines.append(line)
blurb = '\n'.join(lines).strip('\n')
if subject and blurb and '*** ' not in subject + blurb:
    print(subject + '\n\n' + blurb)
PY
}

cmd_export() {
	[ -d "$TREE/.git" ] || die "no tree at $TREE"
	[ -z "$(git_tree status --porcelain)" ] ||
		die "uncommitted changes in $TREE: commit them first"
	local tmp desc branch cover=$PATCHES/0000-cover-letter.patch
	local args=(--numbered --zero-commit)
	tmp=$(mktemp -d)
	tree_config
	if [ -f "$cover" ]; then
		desc=$(cover_description "$cover")
		[ -n "$desc" ] || die "$cover: no subject or text (or a *** placeholder ***) to keep"
		branch=$(git_tree symbolic-ref -q --short HEAD) || die "$TREE: HEAD is detached"
		git_tree config "branch.$branch.description" "$desc"
		args+=(--cover-letter --cover-from-description=subject)
	fi
	# The cover letter's From: the author of the newest commit
	git_tree -c user.name="$(git_tree log -1 --format=%an HEAD)" \
		-c user.email="$(git_tree log -1 --format=%ae HEAD)" \
		format-patch -q "${args[@]}" -o "$tmp" base..HEAD >/dev/null
	if [ -f "$tmp/0000-cover-letter.patch" ]; then
		# The date of the newest commit, not of the export
		sed -i "0,/^Date: .*/s//Date: $(git_tree log -1 --format=%aD HEAD)/" \
			"$tmp/0000-cover-letter.patch"
	fi
	rm -f "$PATCHES"/*.patch
	mkdir -p "$PATCHES"
	( cd "$tmp" && ls ) | grep '\.patch$' | grep -v '^0000-cover-letter\.patch$' \
		> "$PATCHES/series" || true
	[ -s "$PATCHES/series" ] && cp "$tmp"/*.patch "$PATCHES/"
	rm -rf "$tmp"
	remember
	log "exported $(grep -c . "$PATCHES/series" || true) patches to $PATCHES"
}

case "${1:-}" in
sync) cmd_sync ;;
export) cmd_export ;;
*) die "usage: $0 sync|export" ;;
esac
