#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# fstests ('make fstests'): build fstests if needed, boot the test kernel once
# per file system with two scratch disks, run guest/fstests.sh (fstests'
# ./check, plain and with -o hot_track) and compare the two modes.
#
#   fstests.sh               everything
#   fstests.sh --judge       only judge the results of the last run again
#
# Environment:
#   FSTESTS="generic/013 generic/091 ..."
#                       check's arguments (test names; -g GROUP and the
#                       like work too); default: the selection below
#   FSTESTS_FSES        file systems, one boot each ["btrfs ext4 xfs"]
#   FSTESTS_MODES       ["plain hot_track"]
#   FSTESTS_KMEMLEAK=1  check fails a test on a kmemleak report (slower: two
#                       scans after every test)
#   FSTESTS_TARBALL     the fstests source
#                       [/work/shared/fstests/xfstests-63a29724.tar.xz]
#   FSTESTS_KERNEL      the kernel to boot [build/obj-test/arch/x86/boot/
#                       bzImage], copied to /tmp/fstests-bzImage first so that
#                       a rebuild during the run does not change it
#   FSTESTS_DISK_SIZE   size of each of the two disks [5G], sparse, in
#                       /dev/shm if it has room
#   FSTESTS_TIMEOUT     seconds per boot [5400]
#   NO_BUILD=1          skip setup.sh, tree.sh sync and build.sh (fstests is
#                       still built if it is not)
#   V=1                 show the guest console live (it always goes to
#                       build/run/fstests/<fs>/console.log)
#
# fstests is extracted to build/fstests and built there once (the stamp
# build/fstests/.hot-built; remove it, or build/fstests, to build again).
# Results: build/run/fstests/<fs>/fstests/<fs>.<mode>/ (check.out and
# fstests' RESULT_BASE, results/), the table in build/run/fstests/summary.md.
# Prints the table test | fs | plain | hot_track, the tests that did not run
# and why, the tests that fail only with hot_track and kernel reports; exits
# 1 if a test fails only with hot_track or a run did not complete.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# The default selection: the I/O paths the hooks are in, cheap tests only.
# Under TCG with the debug kernel every exec costs ~0.3 s and fsstress/fsx
# ~7 ms per operation: generic/013 (25,000 fsstress ops) takes 280 s,
# generic/091 (60,000 fsx ops) 250 s, generic/615 (8,000 xfs_io runs) far
# longer; those are left out. Per test, check adds ~10-30 s (fsck of the
# test device, remounts), and ~75 s per ./check run.
DEFAULT_TESTS=(
	generic/076	# fsstress on the scratch fs while its device is read raw
	generic/263	# fsx: O_DIRECT against sub-block buffered I/O and mmap
	generic/207	# AIO O_DIRECT extending writes against stat (i_size)
	generic/240	# AIO O_DIRECT sub-block writes into sparse files
	generic/678	# io_uring read over several extents, faulting buffer
	generic/469	# truncate down, punch, zero range, mmap read past EOF
	generic/029	# truncate and mmap writes past EOF, remount
	generic/116	# reflink (btrfs, xfs)
	generic/294	# read-only remount, creations get EEXIST
	generic/392	# fsync/fdatasync, shutdown, log recovery (ext4, xfs)
)

out=$BUILD/run/fstests
fst=$BUILD/fstests
tarball=${FSTESTS_TARBALL:-/work/shared/fstests/xfstests-63a29724.tar.xz}

# judge DIR...: the table of the runs in DIR/<fs>/, written to
# $out/summary.md too
judge() {
	HOT_SCRIPTS=$TOP/scripts python3 - "$out" "$@" <<'PY'
import os, re, sys

sys.path.insert(0, os.environ['HOT_SCRIPTS'])
from kreports import kernel_messages, REPORT, NOT_REPORT, read_text as read

top, fses = sys.argv[1], sys.argv[2:]
modes = os.environ.get('FSTESTS_MODES', 'plain hot_track').split()
wanted = [t for t in os.environ.get('FSTESTS_LIST', '').split() if not t.startswith('-')]

TEST = re.compile(r'^(\w+/\d+)(?:\s+(.*))?$')
FAILMSG = re.compile(r'- output mismatch|_check_\w+:|\[failed|\[dumped core\]|- no such test')

# results[(test, fs)][mode] = (status, note)
results = {}
order = []
notrun = []     # (test, fs, mode, reason)
fails = {}      # (test, fs, mode) -> lines
incomplete = []
reports = []    # (fs, mode, test, message)
secs = {}

def put(test, fs, mode, status, note=''):
    key = (test, fs)
    if key not in results:
        results[key] = {}
        order.append(key)
    results[key][mode] = (status, note)

for fs in fses:
    boot = os.path.join(top, fs)
    console = read(os.path.join(boot, 'console.log')) or ''
    # Kernel reports, by the run and test they came in (check writes
    # 'run fstests <test> at <date>' into the kernel log before each test)
    current, running, last_test = None, {}, None
    for msg in kernel_messages(console):
        m = re.match(r'^hot-guest: fstests: start (\S+)', msg)
        if m:
            current, last_test = m.group(1), None
            continue
        m = re.match(r'^run fstests (\S+) at ', msg)
        if m:
            last_test = m.group(1)
            if current:
                running[current] = last_test
            continue
        if NOT_REPORT.search(msg) or not REPORT.search(msg):
            continue
        fm = (current or f'{fs}.?').split('.', 1)
        reports.append((fs, fm[1], last_test or '(between tests)', msg))
    for mode in modes:
        rid = f'{fs}.{mode}'
        d = os.path.join(boot, 'fstests', rid)
        text = read(os.path.join(d, 'check.out'))
        rc = (read(os.path.join(d, 'rc')) or '').strip()
        t = (read(os.path.join(d, 'time')) or '').strip()
        if t:
            secs[rid] = int(t)
        seen = {}
        ran = set(); nr = set(); bad = set(); summary = False
        cur = None
        for line in (text or '').split('\n'):
            line = line.rstrip('\r')
            if line.startswith('Ran: '):
                ran = set(line[5:].split()); summary = True; continue
            if line.startswith('Not run: '):
                nr = set(line[9:].split()); continue
            if line.startswith('Failures: '):
                bad = set(line[10:].split()); continue
            m = TEST.match(line)
            if m:
                cur = m.group(1)
                rest = (m.group(2) or '').strip()
                if rest.startswith('[not run]') or rest.startswith('[expunged]'):
                    seen[cur] = ('notrun', rest.split(']', 1)[1].strip())
                elif FAILMSG.search(rest):
                    seen[cur] = ('FAIL', rest)
                    fails.setdefault((cur, fs, mode), []).append(rest)
                else:
                    m2 = re.search(r'(\d+)s$', rest)
                    seen[cur] = ('pass', f'{m2.group(1)}s' if m2 else '')
                continue
            # the lines after a failure (diff, hints) belong to it
            if cur and seen.get(cur, ('',))[0] == 'FAIL' and line.strip():
                fails[(cur, fs, mode)].append(line)
        if summary:
            for test in bad:
                if seen.get(test, ('',))[0] != 'FAIL':
                    seen[test] = ('FAIL', '')
            for test in nr:
                seen.setdefault(test, ('notrun', ''))
        crashed = None
        if rc == '':
            # the run never ended: the test of the last 'run fstests' marker
            # (its result line was never written) was running
            crashed = running.get(rid)
            if crashed and crashed not in seen:
                seen[crashed] = ('CRASH', 'the guest died or timed out in it')
            incomplete.append(f'{rid}: did not finish (guest died or timed out'
                              + (f' in {crashed})' if crashed else ')'))
        elif rc == '125':
            incomplete.append(f'{rid}: not run (mkfs or mount failed, see the console log)')
        elif text is None:
            incomplete.append(f'{rid}: no check output')
        leak = read(os.path.join(d, 'kmemleak.txt'))
        if leak is not None:
            n = len(re.findall(r'(?m)^unreferenced object', leak))
            put('(kmemleak)', fs, mode, f'LEAK {n}' if n else 'none',
                f'{d}/kmemleak.txt' if n else '')
        names = wanted + [x for x in seen if x not in wanted]
        for test in names:
            st, note = seen.get(test, ('-', 'not reached'))
            if st == '-' and rc not in ('', '125'):
                st, note = 'FAIL', 'no result from check'
            put(test, fs, mode, st, note)
            if st == 'notrun':
                notrun.append((test, fs, mode, note))

def cell(r):
    if r is None:
        return '-'
    st, note = r
    if st == 'pass':
        return f'pass {note}'.strip()
    return st

def bad(st):
    return st in ('FAIL', 'CRASH') or st.startswith('LEAK')

table = ['| test | fs | ' + ' | '.join(modes) + ' |',
         '|---|---|' + '---|' * len(modes)]
for key in sorted(order):
    test, fs = key
    table.append(f'| {test} | {fs} | ' +
                 ' | '.join(cell(results[key].get(m)) for m in modes) + ' |')

hot_only = []
if 'hot_track' in modes and 'plain' in modes:
    for key in sorted(order):
        r = results[key]
        p, h = r.get('plain', ('-',))[0], r.get('hot_track', ('-',))[0]
        if bad(h) and not bad(p):
            hot_only.append(key)

lines = list(table)
runs = ', '.join(f'{r} {s // 60}m{s % 60:02d}s' for r, s in sorted(secs.items()))
lines += ['', f'Time of each ./check run: {runs or "none"}.']
if notrun:
    lines += ['', 'Not run (fstests\' reason):', '']
    by_reason = {}
    for test, fs, mode, reason in notrun:
        by_reason.setdefault((test, reason), []).append(f'{fs} {mode}')
    for (test, reason), where in sorted(by_reason.items()):
        lines.append(f'- {test}: {reason or "?"} ({", ".join(where)})')
others = [(t, fs, m) for (t, fs) in sorted(order) if (t, fs) not in hot_only
          for m in modes if bad(results[(t, fs)].get(m, ('-',))[0])]
if others:
    lines += ['', 'Other failures (not hot_track only):', '']
    for test, fs, mode in others:
        st, note = results[(test, fs)][mode]
        first = (fails.get((test, fs, mode)) or [note])[0]
        lines.append(f'- {test} {fs} {mode}: {st}' + (f': {first}' if first else ''))
lines += ['']
if hot_only:
    lines += ['Fails only with hot_track:', '']
    for test, fs in hot_only:
        st, note = results[(test, fs)]['hot_track']
        lines.append(f'- {test} on {fs}: {st}' + (f' ({note})' if note else ''))
        for l in fails.get((test, fs, 'hot_track'), [])[1:16]:
            lines.append(f'      {l}')
        if not test.startswith('('):
            lines.append(f'  see {top}/{fs}/fstests/{fs}.hot_track/results/{test}.*')
else:
    lines.append('Fails only with hot_track: none.')
if reports:
    lines += ['', 'Kernel reports in the console logs:', '']
    seen_r = set()
    for fs, mode, test, msg in reports:
        k = (fs, mode, test, msg)
        if k in seen_r:
            continue
        seen_r.add(k)
        lines.append(f'- {fs} {mode} {test}: {msg}')
if incomplete:
    lines += ['', 'Incomplete runs:', ''] + [f'- {x}' for x in incomplete]

with open(os.path.join(top, 'summary.md'), 'w') as f:
    f.write('\n'.join(lines) + '\n')
print('\n'.join(lines))
sys.exit(1 if hot_only or incomplete else 0)
PY
}

selection=()
if [ -n "${FSTESTS:-}" ]; then
	read -ra selection <<<"$FSTESTS"
else
	selection=("${DEFAULT_TESTS[@]}")
fi
read -ra fses <<<"${FSTESTS_FSES:-btrfs ext4 xfs}"
export FSTESTS_LIST="${selection[*]}"

if [ "${1:-}" = --judge ]; then
	[ $# -eq 1 ] || die "usage: $0 [--judge]"
	judge "${fses[@]}"
	exit
fi
[ $# -eq 0 ] || die "usage: $0 [--judge]"

start=$(date +%s)
if [ "${NO_BUILD:-0}" != 1 ]; then
	"$TOP/scripts/setup.sh" fstests
	"$TOP/scripts/tree.sh" sync
	"$TOP/scripts/build.sh" test
fi

# fstests, built in its own tree under build/ (check runs there, in the
# guest, read-only)
if [ ! -e "$fst/.hot-built" ]; then
	"$TOP/scripts/setup.sh" fstests
	if [ ! -e "$fst/check" ]; then
		[ -f "$tarball" ] || die "no fstests source at $tarball (FSTESTS_TARBALL)"
		log "extracting $tarball to ${fst#"$TOP"/}"
		mkdir -p "$fst"
		tar -xJf "$tarball" -C "$fst" --strip-components=1
	fi
	log "building fstests in ${fst#"$TOP"/}"
	nice -n 10 make -s -C "$fst" -j"$(nproc)" >"$BUILD/fstests-build.log" 2>&1 ||
		die "fstests did not build, see build/fstests-build.log"
	[ -x "$fst/ltp/fsstress" ] && [ -x "$fst/ltp/fsx" ] ||
		die "fstests built without ltp/fsstress or ltp/fsx, see build/fstests-build.log"
	basename "$tarball" > "$fst/.hot-built"
fi

# The kernel is copied first: build/obj-test may be rebuilt during the run.
kernel_src=${FSTESTS_KERNEL:-$BUILD/obj-test/arch/x86/boot/bzImage}
kernel=/tmp/fstests-bzImage
[ -f "$kernel_src" ] || die "no kernel at $kernel_src (make kernel)"
cp "$kernel_src" "$kernel.tmp"
mv "$kernel.tmp" "$kernel"
"$TOP/scripts/build-guest.sh" --poweroff-only

disk_size=${FSTESTS_DISK_SIZE:-5G}
disk_dir=
need_kb=$(( $(numfmt --from=iec "$disk_size") * 2 / 1024 ))
avail_kb=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 {print $4}')
if [ -n "$avail_kb" ] && [ "$avail_kb" -ge "$need_kb" ]; then
	disk_dir=/dev/shm
fi

guest=(env "FSTESTS=${selection[*]}")
for v in FSTESTS_MODES FSTESTS_KMEMLEAK; do
	[ -z "${!v:-}" ] || guest+=("$v=${!v}")
done

# Only this run's results in the summary
rm -rf "$out"
mkdir -p "$out"
log "fstests: ${#selection[@]} tests on ${fses[*]}, $(cat "$fst/.hot-built"), kernel ${kernel_src#"$TOP"/} (copied to $kernel)"
for fs in "${fses[@]}"; do
	boot=("$TOP/scripts/boot.sh" --kernel "$kernel" --disks 2 --disk-size "$disk_size"
		--append "kunit.enable=0" --timeout "${FSTESTS_TIMEOUT:-5400}"
		--out "$out/$fs")
	[ -z "$disk_dir" ] || boot+=(--disk-dir "$disk_dir")
	boot+=(-- "${guest[@]}" "FSTESTS_FSES=$fs" guest/fstests.sh)
	log "$fs: console log in ${out#"$TOP"/}/$fs/console.log"
	rc=0
	if [ "${V:-0}" = 1 ]; then
		nice -n 10 "${boot[@]}" </dev/null || rc=$?
	else
		set +e
		nice -n 10 "${boot[@]}" </dev/null | guest_progress fstests strip
		rc=${PIPESTATUS[0]}
		set -e
	fi
	echo "$rc" > "$out/$fs/boot-rc"
done
log "fstests took $(( $(date +%s) - start ))s; judging ${out#"$TOP"/}"
judge "${fses[@]}"
