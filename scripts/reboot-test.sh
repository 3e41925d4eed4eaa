#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Heat across a real reboot: boot the test kernel, heat a disk per file
# system and 'hotstat save' it (guest/reboot.sh save); boot again on the same
# disk images and 'hotstat restore' it (guest/reboot.sh restore), comparing
# the lists. Run by scripts/run-tests.sh after the main boot.
#
#   reboot-test.sh OUT   the main run's results directory: the two boots go
#                        to OUT/boots/reboot-save and OUT/boots/reboot-restore
#                        (their console logs are judged with the rest), the
#                        TAP files to OUT/tap/<fs>.reboot-save.* and
#                        <fs>.reboot.*, the disk images to OUT/boots/disks
#
# Environment: HOT_FSES (default "btrfs ext4 xfs"), as for the main run.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 OUT"
out=$1
read -ra fses <<<"${HOT_FSES:-btrfs ext4 xfs}"
boots=$out/boots
rm -rf "$boots"
mkdir -p "$boots/disks" "$out/tap"
images=()
for fs in "${fses[@]}"; do
	truncate -s 1G "$boots/disks/$fs.img"
	images+=(--disk-image "$boots/disks/$fs.img")
done
# No KUnit in these boots: the main boot ran it
boot() { # boot NAME GUEST_ARGS...
	local name=$1
	shift
	"$TOP/scripts/boot.sh" --profile test "${images[@]}" \
		--append "slab_nomerge kunit.enable=0" --timeout 900 \
		--out "$boots/$name" -- guest/reboot.sh "$@" </dev/null \
		> "$boots/$name.log" 2>&1
}
log "reboot test: boot 1, heat and save (${fses[*]})"
boot reboot-save save "${fses[@]}" || true
log "reboot test: boot 2 on the same disks, restore and compare"
boot reboot-restore restore "$boots/reboot-save" "${fses[@]}" || true
for b in reboot-save reboot-restore; do
	cp "$boots/$b"/tap/* "$out/tap/" 2>/dev/null || true
done
# A boot that crashed or never ran a filesystem's part: a failure all the same
for fs in "${fses[@]}"; do
	for id in "$fs.reboot-save" "$fs.reboot"; do
		[ -e "$out/tap/$id.rc" ] && continue
		echo "Bail out! no result: see $boots/*/console.log" > "$out/tap/$id.tap"
		echo 125 > "$out/tap/$id.rc"
		echo 0 > "$out/tap/$id.time"
	done
done
rm -rf "$boots/disks"
