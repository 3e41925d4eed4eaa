#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A workload of heat levels far apart, for the tests of save and restore:
# in one fio process, 4 KiB O_DIRECT reads of MNT/p/a 600 times, b 80, c 16,
# d 4, e once (64 KiB files), and of MNT/p/big (8 MiB) at 2 MiB 200 times, at
# 5 MiB 40 and at 7 MiB 8. Each level is at least twice as hot as the next,
# so that the order of the lists outlives the aging of a remount or reboot.
#
#   heat.sh MNT [FIO_OUTPUT]
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 MNT [FIO_OUTPUT]" >&2; exit 2; }
mnt=$1 out=${2:-/dev/null}

mkdir -p "$mnt/p"
for f in a b c d e; do
	head -c 64k /dev/zero > "$mnt/p/$f"
done
head -c 8M /dev/zero > "$mnt/p/big"
sync
job=$(mktemp)
trap 'rm -f "$job"' EXIT
{
	printf '[global]\ndirect=1\nthread\nrw=read\nbs=4k\nsize=4k\n'
	for j in a:600 b:80 c:16 d:4 e:1; do
		printf '[%s]\nfilename=%s\nloops=%s\n' "${j%:*}" "$mnt/p/${j%:*}" "${j#*:}"
	done
	for j in 2:200 5:40 7:8; do
		printf '[big%s]\nfilename=%s\noffset=%sM\nloops=%s\n' "${j%:*}" \
			"$mnt/p/big" "${j%:*}" "${j#*:}"
	done
} > "$job"
fio --output="$out" "$job"
