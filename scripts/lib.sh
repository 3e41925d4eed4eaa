# SPDX-License-Identifier: GPL-2.0
# Shared paths and helpers for the harness scripts. Sourced, not run.
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$TOP/build
TREE=$BUILD/linux
PATCHES=$TOP/patches
SOURCE_TARBALL=/usr/src/linux-source-6.12.tar.xz

log() { printf '>> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The guest's progress markers in a console stream, the lines of
# "hot-guest: TAG", as ">> guest: " lines; the console log has the rest.
# With strip, the tag goes too.
guest_progress() { # guest_progress TAG [strip]
	local drop=
	[ "${2:-}" != strip ] || drop="$1:* *"
	grep -a --line-buffered "hot-guest: $1" |
		sed -u -e 's/\r$//' -e "s/.*hot-guest: $drop/>> guest: /"
}

# Patch-ids of a stream of patches, sorted, one per line.
# Blank context lines may be empty (see tree.sh export): patch-id needs the space
patch_ids() { sed 's/^$/ /' | git patch-id --stable | cut -d' ' -f1 | sort; }
