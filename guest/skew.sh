#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A workload with a known skew, for the demo and the hotstat guest tests:
# in one fio process, NCOLD cold files of COLDSIZE written once
# (MNT/cold/file0..), 3 hot files of 1 MiB (MNT/hot/file0..2) and HOTSIZE at
# HOTOFF of MNT/big.img (BIGSIZE, zeros) read with 4 KiB O_DIRECT reads for
# SECONDS.
#
#   skew.sh MNT NCOLD COLDSIZE BIGSIZE HOTOFF HOTSIZE SECONDS [FIO_OUTPUT]
set -euo pipefail
[ $# -ge 7 ] || { echo "usage: $0 MNT NCOLD COLDSIZE BIGSIZE HOTOFF HOTSIZE SECONDS [FIO_OUTPUT]" >&2; exit 2; }
mnt=$1 ncold=$2 coldsize=$3 bigsize=$4 hotoff=$5 hotsize=$6 secs=$7
out=${8:-/dev/null}

mkdir -p "$mnt/cold" "$mnt/hot"
head -c "$bigsize" /dev/zero > "$mnt/big.img"
sync
job=$(mktemp)
trap 'rm -f "$job"' EXIT
cat > "$job" <<EOF2
[global]
direct=1
thread
filename_format=file\$filenum
[cold]
directory=$mnt/cold
nrfiles=$ncold
filesize=$coldsize
rw=write
bs=64k
[hot]
directory=$mnt/hot
nrfiles=3
filesize=1M
rw=randread
bs=4k
runtime=$secs
time_based
[big]
filename=$mnt/big.img
offset=$hotoff
size=$hotsize
rw=randread
bs=4k
runtime=$secs
time_based
EOF2
fio --output="$out" --eta=never "$job" >/dev/null
sync
