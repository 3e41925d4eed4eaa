#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The table of scripts/profile.sh from the raw results of guest/profile.sh:

    profile-report.py DIR      (DIR has off.* and on-FUNCTION.*, .stat, .fio)

Each function's calls and time per read, one function profiled per run.
The times come from the ftrace function profiler under the
instruction-counting clock: instructions, with the callees' (graph-time)
and the profiler's part of one call, which the run of a leaf function,
hot_range_span(), shows.
"""
import glob
import json
import os
import sys

LEAF = 'hot_range_span'


def stat(path, func):
    """(hits, ns) of FUNC in a trace_stat/function* dump"""
    hits, ns = 0, 0.0
    for line in open(path):
        tok = line.split()
        if len(tok) >= 4 and tok[0] == func and tok[1].isdigit() and \
                tok[3] == 'us':
            hits += int(tok[1])
            ns += float(tok[2]) * 1000
    return hits, ns


def fio(path):
    """(reads, IOPS) of a fio JSON output"""
    job = json.load(open(path))['jobs'][0]['read']
    return job['total_ios'], job['iops']


def main():
    d = sys.argv[1]
    off_ios, off_iops = fio(os.path.join(d, 'off.fio'))
    off_hits, off_ns = stat(os.path.join(d, 'off.stat'), 'vfs_read')
    runs = []
    for p in sorted(glob.glob(os.path.join(d, 'on-*.stat')),
                    key=os.path.getmtime):
        func = os.path.basename(p)[3:-5]
        ios, iops = fio(p[:-5] + '.fio')
        hits, ns = stat(p, func)
        if hits:
            runs.append((func, ios, iops, hits, ns))
    leaf = [r for r in runs if r[0] == LEAF]
    over = leaf[0][4] / leaf[0][3] if leaf else 0.0

    print('### Profile of a tracked 4 KiB direct read\n')
    print('ext4 unless said otherwise; fio randread, 4 KiB O_DIRECT, psync, '
          'a RAM disk (brd), one vCPU, the instruction-counting clock '
          '(scripts/profile.sh). One function under the ftrace function '
          'profiler per run: its time, with its callees\', is instructions '
          '(1 ns each). The profiler\'s part of each call is what the leaf '
          f'{LEAF}() shows, {over:,.0f} ns; "less the profiler" takes it '
          'off every call.\n')
    print('| function | calls per read | ns per call | ns per call, less '
          'the profiler | ns per read, less the profiler | IOPS of the run |')
    print('|---|---:|---:|---:|---:|---:|')
    print(f'| vfs_read, untracked | {off_hits / off_ios:.3f} | '
          f'{off_ns / off_hits:,.0f} | {off_ns / off_hits - over:,.0f} | '
          f'{(off_ns - over * off_hits) / off_ios:,.0f} | {off_iops:,.0f} |')
    for func, ios, iops, hits, ns in runs:
        name = 'vfs_read, tracked' if func == 'vfs_read' else func
        print(f'| {name} | {hits / ios:.3f} | {ns / hits:,.0f} | '
              f'{ns / hits - over:,.0f} | {(ns - over * hits) / ios:,.0f} '
              f'| {iops:,.0f} |')
    print()
    print('vfs_read() holds the whole read, the hook included; '
          '__hot_track_io() is the I/O path of tracking (hot_sample_add() '
          'appends the sample, hot_range_span() is the leaf); '
          'hot_fold_work() is the worker, hot_samples_count() one buffer\'s '
          'fold, hot_sample_count() one sample\'s, hot_freq_update() the '
          'heat policy\'s count of one I/O in one item.')


if __name__ == '__main__':
    main()
