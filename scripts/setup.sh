#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install, from Debian's archive, everything the build, the guest and the
# tests need. Quiet and quick when everything is already there.
#
#   setup.sh [fstests]   fstests: also what building and running fstests
#                        needs (scripts/fstests.sh)
set -euo pipefail
pkgs=(linux-source-6.12 qemu-system-x86 ccache build-essential flex bison bc
      libelf-dev libssl-dev dwarves cpio kmod git python3 rsync
      btrfs-progs xfsprogs e2fsprogs fio util-linux sparse python3-ply python3-git
      gcc-multilib python3-sphinx)
case ${1:-} in
'') ;;
fstests)
	pkgs+=(autoconf automake libtool xfslibs-dev uuid-dev libaio-dev
	       libacl1-dev libattr1-dev libgdbm-dev libgdbm-compat-dev
	       liburing-dev attr acl bc psmisc xz-utils) ;;
*) echo "usage: $0 [fstests]" >&2; exit 2 ;;
esac
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo ">> installing: ${missing[*]}" >&2
[ "$(id -u)" -eq 0 ] || SUDO=sudo
${SUDO:-} apt-get update -qq
DEBIAN_FRONTEND=noninteractive ${SUDO:-} apt-get install -y -qq --no-install-recommends \
	"${missing[@]}" >/dev/null
