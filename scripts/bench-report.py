#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The tables of 'make bench' from the results of guest/bench.sh.

  bench-report.py [--results DIR] [--untracked UNPATCHED_RUN PATCHED_RUN]...
                  PATCHED_RUN

The runs are boot.sh results directories (console.log, bench/...): the last
argument the patched kernel's tracked and untracked runs, each --untracked
one pair of boots of the unpatched and the patched kernel, both untracked.
Writes DIR/<date>-<host>.json and .md and DIR/latest.md (DIR defaults to
bench/results), prints the Markdown. Exit status 1 when a boot
failed, a guest run did not finish or the console has kernel reports
(BUG, WARNING, Oops, lockdep, KASAN...); the targets do not change it.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import socket
import statistics
import sys
from kreports import kernel_messages, kernel_reports, read_text as read

WORKLOADS = {
    # name: (description, unit, fio direction or None)
    'randread': ('4 KiB random O_DIRECT read (fio)', 'IOPS', 'read'),
    'randwrite': ('4 KiB random O_DIRECT write (fio)', 'IOPS', 'write'),
    'bufwrite': ('4 KiB random buffered write, fsync every 32 (fio)', 'IOPS', 'write'),
    'seqread': ('1 MiB sequential buffered read, caches dropped (fio)', 'MB/s', 'read'),
    'fsmark': ('create + write 4 KiB + fsync + close (fsmark)', 'files/s', None),
}
TARGET_RATIO = 0.99       # tracked / untracked throughput
TARGET_SCALE = 1.2        # hook cost at the most ranges / at the fewest
TARGET_HOOK_NS = 344      # hook cost at the fewest ranges, below this
TARGET_RANGE_BYTES = 48
TARGET_INODE_BYTES = 96
TARGET_VANILLA = 0.995    # patched untracked / unpatched
TARGET_WORKER = 0.005     # the periodic update's share of one CPU
UPDATE_DELAY_S = 300      # the default hot-update-delay
SPREAD = 0.005            # the spread each ratio should be within



def kv(text):
    """key=value pairs of a line or file"""
    out = {}
    for m in re.finditer(r'(\w+)=(\S+)', text or ''):
        try:
            out[m.group(1)] = float(m.group(2))
        except ValueError:
            out[m.group(1)] = m.group(2)
    return out


def info(run):
    out = {}
    for line in (read(os.path.join(run, 'bench', 'info.txt')) or '').splitlines():
        k, _, v = line.partition('=')
        out[k] = v
    return out


def median(v):
    return statistics.median(v) if v else None


# --- One run of a workload ---
def parse_run(run, name):
    base = os.path.join(run, 'bench', 'raw', name)
    fs, wl, pair, mode = name.split('.')
    text = read(base + '.out')
    if text is None:
        return None
    r = {'fs': fs, 'workload': wl, 'pair': int(pair), 'mode': mode}
    if wl == 'fsmark':
        v = kv(text)
        if 'files' not in v:
            return None
        r['ops'] = v['files']
        r['secs'] = v['secs']
        r['throughput'] = v['files_per_sec']
        r['cpu_us'] = v['cpu_us']
    else:
        try:
            j = json.loads(text[text.index('{'):])
        except (ValueError, json.JSONDecodeError):
            return None
        job = j['jobs'][0]
        d = job[WORKLOADS[wl][2]]
        r['ops'] = d['total_ios']
        r['secs'] = d['runtime'] / 1000.0
        if r['secs'] <= 0 or r['ops'] <= 0:
            return None
        if WORKLOADS[wl][1] == 'MB/s':
            r['throughput'] = d['bw_bytes'] / 1e6
        else:
            r['throughput'] = r['ops'] / r['secs']
        # fio's own CPU use: the job process, over the job's run time
        r['cpu_us'] = (job['usr_cpu'] + job['sys_cpu']) / 100.0 * job['job_runtime'] * 1000.0
    r['cpu_us_per_op'] = r['cpu_us'] / r['ops']
    # The whole guest's CPU time (from /proc/stat) over the run, tool
    # start-up included
    st = (read(base + '.stat') or '').splitlines()
    if len(st) >= 4 and st[0].startswith('cpu'):
        a = [int(x) for x in st[0].split()[1:9]]
        b = [int(x) for x in st[1].split()[1:9]]
        busy = sum(b[i] - a[i] for i in (0, 1, 2, 5, 6, 7))
        hz = float(info(run).get('clk_tck') or 100)
        r['guest_cpu_us_per_op'] = busy / hz * 1e6 / r['ops']
        r['wall_secs'] = float(st[3].split()[1]) - float(st[2].split()[1])
    return r


def runs(run):
    raw = os.path.join(run, 'bench', 'raw')
    names = sorted(f[:-4] for f in os.listdir(raw) if f.endswith('.out')) \
        if os.path.isdir(raw) else []
    out, bad = [], []
    for n in names:
        r = parse_run(run, n)
        (out.append(r) if r else bad.append(n))
    return out, bad


# --- Slab caches ---
def slabinfo(path):
    caches = {}
    for line in (read(path) or '').splitlines():
        f = line.split()
        if len(f) < 16 or f[0] in ('#', 'slabinfo'):
            continue
        try:
            caches[f[0]] = {'active_objs': int(f[1]), 'num_objs': int(f[2]),
                            'objsize': int(f[3]), 'objperslab': int(f[4]),
                            'pagesperslab': int(f[5]), 'num_slabs': int(f[14])}
        except (ValueError, IndexError):
            pass
    return caches


def slab_delta(a, b, names):
    """per cache: objects added, their bytes, slab page bytes added"""
    out = {}
    for n in names:
        x, y = a.get(n), b.get(n)
        if not x or not y:
            continue
        objs = y['active_objs'] - x['active_objs']
        out[n] = {'objsize': y['objsize'], 'objs': objs,
                  'bytes': objs * y['objsize'],
                  'slab_bytes': (y['num_slabs'] - x['num_slabs']) * y['pagesperslab'] * 4096}
    return out


CACHES = ('hot_range_item', 'hot_inode_item', 'radix_tree_node')


def xa_nodes_dense(n):
    """nodes of an xarray holding indices 0..n-1 (64 slots a node)"""
    if n <= 1:
        return 0
    nodes, shift = 0, 6
    while True:
        nodes += ((n - 1) >> shift) + 1
        if not (n - 1) >> shift:
            return nodes
        shift += 6


def scaling(run):
    d = os.path.join(run, 'bench')
    inf = info(run)
    ns = [int(x) for x in inf.get('scale', '').split()]
    rows = []
    nruns = int(inf.get('scale_runs') or 1)

    def timed(kind, n):
        """the runs of one timing: a file per run, or one of an older bench"""
        names = [f'{kind}-{n}-{i}.txt' for i in range(1, nruns + 1)]
        if not os.path.exists(os.path.join(d, 'scale', names[0])):
            names = [f'{kind}-{n}.txt']
        got = [kv(read(os.path.join(d, 'scale', x))) for x in names]
        return [g for g in got if 'diff_ns' in g]

    for n in ns:
        tt, hh = timed('time', n), timed('hot', n)
        touch = kv(read(os.path.join(d, 'scale', f'touch-{n}.txt')))
        if not tt:
            continue
        upd = kv(read(os.path.join(d, 'scale', f'update-{n}.txt')))
        # The hook: the reading thread's own CPU time where hotscale gives
        # it (the I/O path), else the guest's time; total: the guest's
        # time, the work of every CPU meanwhile (the folds in the worker)
        key = 'diff_cpu_ns' if 'diff_cpu_ns' in tt[0] else 'diff_ns'
        diffs = [t[key] for t in tt]
        hdiffs = [h.get(key, h['diff_ns']) for h in hh]
        totals = [t['diff_ns'] for t in tt]
        rows.append({'ranges': n,
                     'untracked_ns': median([t['untracked_ns'] for t in tt]),
                     'tracked_ns': median([t['tracked_ns'] for t in tt]),
                     'hook_ns': median(diffs), 'hook_ns_runs': diffs,
                     'hook_clock': 'thread' if key == 'diff_cpu_ns' else 'guest',
                     'total_ns': median(totals), 'total_ns_runs': totals,
                     'batches': int(tt[0]['batches']), 'batch': int(tt[0]['batch']),
                     'touch_ns_per_new_range': touch.get('ns_per_read'),
                     'hot_set': hh[0].get('hot') if hh else None,
                     'hot_hook_ns': median(hdiffs), 'hot_hook_ns_runs': hdiffs,
                     'update_ns': upd.get('duration_ns'),
                     'update_items': (upd['inodes'] + upd['ranges']) if 'ranges' in upd else None})
    mem = {'fs': inf.get('scale_fs')}
    if ns and os.path.exists(os.path.join(d, 'slab', f'scale-{ns[-1]}.txt')):
        s0 = slabinfo(os.path.join(d, 'slab', 'scale-0.txt'))
        s1 = slabinfo(os.path.join(d, 'slab', f'scale-{ns[-1]}.txt'))
        delta = slab_delta(s0, s1, CACHES)
        if 'hot_range_item' in delta and 'radix_tree_node' in delta:
            n = ns[-1]
            nodes = xa_nodes_dense(n)
            xa = nodes * delta['radix_tree_node']['objsize'] / n
            mem['range'] = {
                'ranges': n, 'slab': delta,
                'objsize': delta['hot_range_item']['objsize'],
                'range_objs': delta['hot_range_item']['objs'],
                'xarray_nodes': nodes,
                # the item and its share of the ranges' xarray nodes
                'bytes_per_range': delta['hot_range_item']['objsize'] + xa,
                'xarray_bytes_per_range': xa,
                # what /proc/slabinfo shows (radix_tree_node is shared with
                # the page cache: noisy)
                'slabinfo_bytes_per_range': sum(v['bytes'] for v in delta.values()) / n,
                'slab_page_bytes_per_range': sum(v['slab_bytes'] for v in delta.values()) / n,
            }
    files = int(inf.get('mem_files') or 0)
    paths = [os.path.join(d, 'slab', f'mem-{m}-{i}.txt') for m in ('off', 'on') for i in (0, 1)]
    if files and all(os.path.exists(p) for p in paths):
        off = slab_delta(slabinfo(paths[0]), slabinfo(paths[1]), CACHES)
        on = slab_delta(slabinfo(paths[2]), slabinfo(paths[3]), CACHES)
        nodes = kv(read(os.path.join(d, 'scale', 'mem-read-on.txt'))).get('xa_nodes')
        if 'hot_inode_item' in on and 'radix_tree_node' in on and nodes is not None:
            xa = nodes * on['radix_tree_node']['objsize'] / files
            rsize = on.get('hot_range_item', {}).get('objsize', 0)
            # what /proc/slabinfo shows: the nodes the file system allocated
            # itself (the untracked run) taken off; noisy, the page cache
            # shares radix_tree_node
            measured = (on['hot_inode_item']['bytes'] + on['radix_tree_node']['bytes'] -
                        off.get('radix_tree_node', {}).get('bytes', 0)) / files
            mem['inode'] = {
                'files': files, 'slab_untracked': off, 'slab_tracked': on,
                'objsize': on['hot_inode_item']['objsize'],
                'inode_objs': on['hot_inode_item']['objs'],
                'range_objs': on.get('hot_range_item', {}).get('objs'),
                'xarray_nodes': int(nodes),
                # the inode item and its share of the superblock's inode
                # xarray (node count from the files' inode numbers)
                'bytes_per_inode': on['hot_inode_item']['objsize'] + xa,
                'xarray_bytes_per_inode': xa,
                'slabinfo_bytes_per_inode': measured,
                'bytes_per_file_with_range': on['hot_inode_item']['objsize'] + xa + rsize,
            }
    return rows, mem


def persistence(run):
    """hotstat save and restore of many files and ranges: None if not run"""
    d = os.path.join(run, 'bench', 'scale')
    p = kv(read(os.path.join(d, 'persist.txt')))
    if 'save_s' not in p:
        return None
    try:
        rest = json.load(open(os.path.join(d, 'persist-restore.json')))
        save = json.load(open(os.path.join(d, 'persist-save.json')))
    except (OSError, ValueError):
        rest = save = {}
    p.update({'saved_files': save.get('files'), 'saved_ranges': save.get('ranges'),
              'applied': rest.get('applied'), 'records': rest.get('records'),
              'stale': rest.get('stale'), 'expired': rest.get('expired'),
              'dropped': rest.get('dropped')})
    return p


def fio_read(path):
    """(ios, seconds) of the read side of a fio JSON output, or None"""
    text = read(path)
    if not text:
        return None
    try:
        d = json.loads(text[text.index('{'):])['jobs'][0]['read']
    except (ValueError, KeyError, IndexError):
        return None
    return (d['total_ios'], d['runtime'] / 1000.0) if d['runtime'] > 0 else None


def acting(run):
    """The warm-up and cached-read parts: None if not run"""
    d = os.path.join(run, 'bench', 'act')
    if not os.path.isdir(d):
        return None
    out = {'warm': [], 'cached': {}}
    i = 1
    while True:
        cold = fio_read(os.path.join(d, f'reread-cold-{i}.json'))
        warm = fio_read(os.path.join(d, f'reread-warm-{i}.json'))
        if not cold or not warm:
            break
        t = kv(read(os.path.join(d, f'time-warm-{i}.txt')))
        try:
            w = json.load(open(os.path.join(d, f'warm-{i}.json')))
        except (OSError, ValueError):
            w = {}
        out['warm'].append({'cold_s': cold[1], 'warmed_s': warm[1],
                            'warm_s': t.get('warm_s'), 'ios': cold[0],
                            'warm_read_bytes': w.get('read_bytes'),
                            'warm_cached_bytes': w.get('cached_bytes')})
        i += 1
    for m in ('off', 'plain', 'logical'):
        ns = []
        for f in sorted(os.listdir(d)):
            if f.startswith(f'cached-{m}-'):
                r = fio_read(os.path.join(d, f))
                if r and r[0]:
                    ns.append(r[1] * 1e9 / r[0])
        if ns:
            out['cached'][m] = ns
    return out if out['warm'] or out['cached'] else None


def health(run):
    problems = []
    console = read(os.path.join(run, 'console.log'))
    if console is None:
        return ['no console log']
    seen = kernel_reports(kernel_messages(console))
    problems += [f'console: {m}' for m in list(seen.values())[:20]]
    m = re.search(r'hot-guest: bench: failed at (.*)', console)
    if m:
        problems.append('guest/bench.sh failed at ' + m.group(1).strip())
    elif 'hot-guest: bench: done' not in console:
        problems.append('guest/bench.sh did not finish')
    rc = (read(os.path.join(run, 'boot-rc')) or '').strip()
    if rc and rc != '0':
        problems.append(f'boot.sh exit status {rc}')
    return problems


def machine():
    cpu = '?'
    for line in (read('/proc/cpuinfo') or '').splitlines():
        if line.startswith('model name'):
            cpu = line.split(':', 1)[1].strip()
            break
    mem = kv(re.sub(r'MemTotal:\s+', 'MemTotal=', read('/proc/meminfo') or '')).get('MemTotal', 0)
    return {'host': socket.gethostname(), 'cpu': cpu, 'cpus': os.cpu_count(),
            'mem_gib': round(mem / 1024 / 1024), 'os': platform.platform()}


def fmt(x, digits=0):
    if x is None:
        return '–'
    if digits == 0:
        return f'{x:,.0f}'
    return f'{x:,.{digits}f}'


def spread(values, mid):
    """the largest distance of a value from the median, relative to it"""
    if not values or not mid:
        return None
    return max(abs(v - mid) for v in values) / abs(mid)


def pm(s):
    """a spread as text"""
    return f'±{s * 100:.2f}%' if s is not None else '±?'


def untracked_vs_vanilla(alt, fs, wl):
    """The alternated boots of one workload: a ratio per pair of boots"""
    def tp(rr):
        return [r['throughput'] for r in rr
                if r['fs'] == fs and r['workload'] == wl and r['mode'] == 'off']
    van, pat, ratios = [], [], []
    for v_runs, p_runs in alt:
        v, p = tp(v_runs), tp(p_runs)
        van += v
        pat += p
        if v and p:
            ratios.append(median(p) / median(v))
    return {
        'vanilla': van, 'vanilla_median': median(van),
        'untracked_patched': pat, 'untracked_patched_median': median(pat),
        'boot_ratios': ratios,
        'off_vs_vanilla': median(ratios),
        'off_vs_vanilla_min': min(ratios) if ratios else None,
        'off_vs_vanilla_max': max(ratios) if ratios else None,
        'off_vs_vanilla_spread': spread(ratios, median(ratios)),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('patched')
    ap.add_argument('--untracked', nargs=2, action='append', default=[],
                    metavar=('UNPATCHED_RUN', 'PATCHED_RUN'))
    ap.add_argument('--results', default=os.path.join(os.path.dirname(__file__), '..', 'bench', 'results'))
    ap.add_argument('--profile', default='bench')
    ap.add_argument('--clock', default='wall', choices=('icount', 'wall'))
    ap.add_argument('--seconds', type=int)
    ap.add_argument('--date')
    a = ap.parse_args()

    pinf = info(a.patched)
    pruns, pbad = runs(a.patched)
    problems = [f'patched: {p}' for p in health(a.patched)]
    problems += [f'patched: unreadable result {n}' for n in pbad]
    # The alternated boots: [(unpatched runs, patched untracked runs)]
    alt = []
    for pair in a.untracked:
        got = []
        for run in pair:
            name = os.path.basename(os.path.normpath(run))
            problems += [f'{name}: {p}' for p in health(run)]
            rr, bad = runs(run)
            problems += [f'{name}: unreadable result {n}' for n in bad]
            got.append(rr)
        alt.append(tuple(got))

    # --- Throughput ---
    table = []
    order = [w for w in pinf.get('workloads', '').split() if w in WORKLOADS] or list(WORKLOADS)
    for fs in pinf.get('fses', '').split():
        for wl in order:
            sel = [r for r in pruns if r['fs'] == fs and r['workload'] == wl]
            off = {r['pair']: r for r in sel if r['mode'] == 'off'}
            on = {r['pair']: r for r in sel if r['mode'] == 'on'}
            if not sel:
                continue
            ratios = [on[p]['throughput'] / off[p]['throughput'] for p in sorted(off) if p in on]
            row = {
                'fs': fs, 'workload': wl, 'unit': WORKLOADS[wl][1],
                'pairs': len(ratios),
                'off': [off[p]['throughput'] for p in sorted(off)],
                'on': [on[p]['throughput'] for p in sorted(on)],
                'ratios': ratios,
                'off_median': median([r['throughput'] for r in off.values()]),
                'on_median': median([r['throughput'] for r in on.values()]),
                'ratio_median': median(ratios),
                'ratio_min': min(ratios) if ratios else None,
                'ratio_max': max(ratios) if ratios else None,
                'ratio_spread': spread(ratios, median(ratios)),
                'cpu_us_per_op_off': median([r['cpu_us_per_op'] for r in off.values()]),
                'cpu_us_per_op_on': median([r['cpu_us_per_op'] for r in on.values()]),
                'guest_cpu_us_per_op_off': median([r['guest_cpu_us_per_op'] for r in off.values()
                                                   if 'guest_cpu_us_per_op' in r]),
                'guest_cpu_us_per_op_on': median([r['guest_cpu_us_per_op'] for r in on.values()
                                                  if 'guest_cpu_us_per_op' in r]),
            }
            row.update(untracked_vs_vanilla(alt, fs, wl))
            row['met'] = row['ratio_median'] is not None and row['ratio_median'] >= TARGET_RATIO
            table.append(row)

    scale_rows, mem = scaling(a.patched)
    persist = persistence(a.patched)
    act = acting(a.patched)

    # --- Targets ---
    targets = []
    rated = [r for r in table if r['ratio_median'] is not None]
    if rated:
        worst = min(rated, key=lambda r: r['ratio_median'])
        nmet = sum(r['met'] for r in rated)
        wide = max(rated, key=lambda r: r['ratio_spread'] or 0)
        targets.append({
            'target': f'tracked/untracked throughput >= {TARGET_RATIO} (median of pairs), every workload and fs',
            'figure': f'worst {worst["ratio_median"]:.3f} {pm(worst["ratio_spread"])} '
                      f'({worst["fs"]} {worst["workload"]}); {nmet} of {len(rated)} met; '
                      f'widest spread {pm(wide["ratio_spread"])} ({wide["fs"]} {wide["workload"]})',
            'met': nmet == len(rated)})
        nspread = sum(r['ratio_spread'] is not None and r['ratio_spread'] <= SPREAD
                      for r in rated)
        targets.append({
            'target': f'spread of each on/off ratio <= ±{SPREAD:.1%}',
            'figure': f'{nspread} of {len(rated)} within; widest {pm(wide["ratio_spread"])} '
                      f'({wide["fs"]} {wide["workload"]})',
            'met': nspread == len(rated)})
    if scale_rows:
        lo = scale_rows[0]
        targets.append({'target': f'hook cost at {lo["ranges"]:,} ranges < {TARGET_HOOK_NS} ns',
                        'figure': f'{lo["hook_ns"]:.0f} ns {pm(spread(lo["hook_ns_runs"], lo["hook_ns"]))}',
                        'met': lo['hook_ns'] < TARGET_HOOK_NS})
    if len(scale_rows) >= 2:
        lo, hi = scale_rows[0], scale_rows[-1]
        if lo['hook_ns'] > 0 and hi['hook_ns'] <= 0:
            fig, met = (f'{hi["hook_ns"]:.0f} ns at {hi["ranges"]:,} ranges (below the noise), '
                        f'{lo["hook_ns"]:.0f} ns at {lo["ranges"]:,}'), True
        elif lo['hook_ns'] > 0:
            ratio = hi['hook_ns'] / lo['hook_ns']
            fig, met = (f'{ratio:.2f}x ({hi["hook_ns"]:.0f} ns {pm(spread(hi["hook_ns_runs"], hi["hook_ns"]))} '
                        f'at {hi["ranges"]:,} ranges, {lo["hook_ns"]:.0f} ns '
                        f'{pm(spread(lo["hook_ns_runs"], lo["hook_ns"]))} at {lo["ranges"]:,})'), ratio <= TARGET_SCALE
        else:
            fig, met = (f'n/a: hook cost at {lo["ranges"]:,} ranges is {lo["hook_ns"]:.0f} ns '
                        f'(below the noise); {hi["hook_ns"]:.0f} ns at {hi["ranges"]:,}'), None
        targets.append({'target': f'hook cost at {hi["ranges"]:,} ranges <= {TARGET_SCALE}x its cost at {lo["ranges"]:,}',
                        'figure': fig, 'met': met})
        if lo.get('hot_hook_ns') and hi.get('hot_hook_ns') and lo['hot_hook_ns'] > 0:
            ratio = hi['hot_hook_ns'] / lo['hot_hook_ns']
            targets.append({
                'target': f'the same, reads on a hot set of {int(hi["hot_set"]):,} ranges among the tracked ones',
                'figure': f'{ratio:.2f}x ({hi["hot_hook_ns"]:.0f} ns at {hi["ranges"]:,} ranges, '
                          f'{lo["hot_hook_ns"]:.0f} ns at {lo["ranges"]:,})',
                'met': ratio <= TARGET_SCALE})
    upd = [r for r in scale_rows if r.get('update_ns') is not None]
    at = [r for r in upd if r['ranges'] == 1000000] or upd[-1:]
    if at:
        r = at[0]
        share = r['update_ns'] / (UPDATE_DELAY_S * 1e9)
        targets.append({
            'target': f'periodic update\'s CPU time at {r["ranges"]:,} ranges <= {TARGET_WORKER:.1%} '
                      f'of one CPU at the default hot-update-delay ({UPDATE_DELAY_S} s)',
            'figure': f'{share:.3%} ({r["update_ns"] / 1e6:,.0f} ms per update of '
                      f'{int(r["update_items"] or 0):,} items)',
            'met': share <= TARGET_WORKER})
    if 'range' in mem:
        b = mem['range']['bytes_per_range']
        targets.append({'target': f'<= {TARGET_RANGE_BYTES} bytes per tracked range',
                        'figure': f'{b:.1f} bytes (item {mem["range"]["objsize"]} + xarray '
                                  f'{mem["range"]["xarray_bytes_per_range"]:.1f}); slabinfo '
                                  f'{mem["range"]["slabinfo_bytes_per_range"]:.1f}',
                        'met': b <= TARGET_RANGE_BYTES})
    if 'inode' in mem:
        b = mem['inode']['bytes_per_inode']
        targets.append({'target': f'<= {TARGET_INODE_BYTES} bytes per tracked inode',
                        'figure': f'{b:.1f} bytes (item {mem["inode"]["objsize"]} + xarray '
                                  f'{mem["inode"]["xarray_bytes_per_inode"]:.1f}); slabinfo '
                                  f'{mem["inode"]["slabinfo_bytes_per_inode"]:.1f}',
                        'met': b <= TARGET_INODE_BYTES})
    vrated = [r for r in table if r['off_vs_vanilla'] is not None]
    if vrated:
        worst = min(vrated, key=lambda r: r['off_vs_vanilla'])
        nmet = sum(r['off_vs_vanilla'] >= TARGET_VANILLA for r in vrated)
        nwithin = sum(r['off_vs_vanilla_min'] <= 1 <= r['off_vs_vanilla_max'] for r in vrated)
        targets.append({
            'target': f'untracked patched kernel vs unpatched >= {TARGET_VANILLA} '
                      '(median of the alternated boot pairs), every workload and fs',
            'figure': f'worst {worst["off_vs_vanilla"]:.3f} {pm(worst["off_vs_vanilla_spread"])} '
                      f'({worst["fs"]} {worst["workload"]}); '
                      f'{nmet} of {len(vrated)} met; 1.0 within the boot pairs\' '
                      f'min–max on {nwithin} of {len(vrated)}',
            'met': nmet == len(vrated)})

    date = a.date or datetime.date.today().isoformat()
    mach = machine()
    m = re.search(r'\(-accel (\w+)', read(os.path.abspath(a.patched) + '.boot.log') or '')
    accel = m.group(1).upper() if m else '?'
    if a.clock == 'icount':
        clock = ('instruction-counting clock (-icount shift=0,sleep=off, one vCPU thread): '
                 'guest time is instructions executed, 1 ns each, memory latency left out; '
                 'disks: RAM disks in the guest (brd)')
    else:
        clock = 'wall clock of the host; disks in host RAM (virtio)'
    result = {
        'date': date, 'machine': mach, 'accel': accel, 'clock': a.clock,
        'profile': a.profile,
        'seconds': a.seconds, 'settings': pinf,
        'untracked_settings': [info(v) for v, _ in a.untracked],
        'throughput': table, 'scaling': scale_rows, 'memory': mem,
        'persistence': persist,
        'acting': act,
        'targets': targets, 'problems': problems,
        'runs': {'patched': pruns,
                 'alternated': [{'unpatched': v, 'patched': p} for v, p in alt]},
    }

    # --- Markdown ---
    md = []
    p = md.append
    p(f'### Benchmark {date}, {mach["host"]}')
    p('')
    p(f'Host: {mach["cpu"]}, {mach["cpus"]} CPUs, {mach["mem_gib"]} GiB. Guest: '
      f'{pinf.get("nproc", "?")} vCPUs, {int(pinf.get("memtotal_kb") or 0) // 1024} MiB, '
      f'QEMU {accel}, kernel {pinf.get("kernel", "?")} (profile {a.profile}), '
      f'{clock}. {pinf.get("pairs")} pairs (untracked and tracked, '
      f'which first swapped every pair; remount before each run), {pinf.get("runtime")} s per timed fio run'
      + (f' ({", ".join(x.replace(".", " ") for x in pinf["long"].split())}: three times as long)'
         if pinf.get("long") else '')
      + f', fsmark {pinf.get("files")} files, fio {pinf.get("fio", "?")}.'
      + (f' Whole run: {a.seconds // 60} min.' if a.seconds else ''))
    if a.profile != 'bench':
        p('')
        p(f'**Not a benchmark kernel (profile {a.profile}): the figures only show the harness works.**')
    p('')
    p('| fs | workload | unit | off | on | on/off (min–max) | CPU µs/op off / on | unpatched | '
      f'patched/unpatched, untracked (min–max) | on/off ≥ {TARGET_RATIO} |')
    p('|---|---|---|---:|---:|---|---|---:|---:|---|')
    for r in table:
        dig = 1 if r['unit'] == 'MB/s' else 0
        rng = (f'{r["ratio_median"]:.3f} {pm(r["ratio_spread"])} ({r["ratio_min"]:.3f}–{r["ratio_max"]:.3f})'
               if r['ratio_median'] is not None else '–')
        cpu = f'{fmt(r["cpu_us_per_op_off"], 1)} / {fmt(r["cpu_us_per_op_on"], 1)}'
        ov = (f'{r["off_vs_vanilla"]:.3f} {pm(r["off_vs_vanilla_spread"])} ({r["off_vs_vanilla_min"]:.3f}–'
              f'{r["off_vs_vanilla_max"]:.3f})' if r['off_vs_vanilla'] is not None else '–')
        p(f'| {r["fs"]} | {r["workload"]} | {r["unit"]} | {fmt(r["off_median"], dig)} | '
          f'{fmt(r["on_median"], dig)} | {rng} | {cpu} | {fmt(r["vanilla_median"], dig)} | {ov} | '
          f'{"met" if r["met"] else "**not met**"} |')
    p('')
    p('Medians over the runs; on/off is the median of the per-pair ratios. CPU µs/op: '
      'user + system time of the workload process (fio job, fsmark) per I/O or file; '
      'the JSON also has the whole guest\'s CPU time per op (/proc/stat, tool start-up included). '
      + (f'Unpatched: median of the unpatched kernel\'s runs in {len(alt)} boots; '
         f'patched/unpatched: median over {len(alt)} pairs of alternated boots (unpatched '
         'and patched, both untracked, order swapped every pair) of the ratio of their '
         'medians. ' if alt else '') +
      'Workloads: ' + '; '.join(f'{k}: {v[0]}' for k, v in WORKLOADS.items()) + '.')
    if scale_rows:
        p('')
        p(f'Cost of one tracked I/O ({mem.get("fs")}, 4 KiB O_DIRECT reads of a sparse file, '
          'random among the tracked 1 MiB ranges, alternating batches with the same reads '
          'on an untracked mount; medians of the batches):')
        p('')
        p('| tracked ranges | untracked ns/read | tracked ns/read | hook cost ns (spread) | '
          'hook cost ns, hot set (spread) | all work ns (spread) | first read of a range ns | '
          'one periodic update |')
        p('|---:|---:|---:|---:|---:|---:|---:|---:|')
        for r in scale_rows:
            hs = (f'{fmt(r["hot_hook_ns"])} {pm(spread(r["hot_hook_ns_runs"], r["hot_hook_ns"]))} '
                  f'({int(r["hot_set"]):,} ranges)'
                  if r.get('hot_hook_ns') is not None else '–')
            up = (f'{r["update_ns"] / 1e6:,.1f} ms' if r.get('update_ns') is not None else '–')
            p(f'| {r["ranges"]:,} | {fmt(r["untracked_ns"])} | {fmt(r["tracked_ns"])} | '
              f'{fmt(r["hook_ns"])} {pm(spread(r["hook_ns_runs"], r["hook_ns"]))} | {hs} | '
              f'{fmt(r["total_ns"])} {pm(spread(r["total_ns_runs"], r["total_ns"]))} | '
              f'{fmt(r["touch_ns_per_new_range"])} | {up} |')
        p('')
        p(f'{len(scale_rows[0]["hook_ns_runs"])} timed runs of each; the spread is the '
          'largest distance of a run from the median. '
          + ('Hook cost: the difference in the reading thread\'s own CPU time '
             '(CLOCK_THREAD_CPUTIME_ID), the I/O path\'s cost; all work: the difference in the '
             'guest\'s time, which counts the folds of the samples in the worker too. '
             if scale_rows[0].get('hook_clock') == 'thread' else '') +
          'One periodic update: its duration (hot_map_update trace event) over all the items. '
          'Hot set: the same reads on 1,000 ranges spread evenly over the tracked ones. '
          'Uniformly random reads over N ranges touch a working set that grows with N '
          '(an item and an xarray leaf per range); '
          + ('under the instruction-counting clock a cache or TLB miss costs nothing, so only '
             'the instructions of a deeper xarray show. '
             if a.clock == 'icount' else 'their cost grows with cache and TLB misses; ') +
          'A hot set among N shows what the size of the structure costs.')
    if 'range' in mem or 'inode' in mem:
        p('')
        p('Memory (object sizes from /proc/slabinfo with slab_nomerge; xarray nodes counted from the indices):')
        p('')
        if 'range' in mem:
            m = mem['range']
            p(f'- per tracked range: **{m["bytes_per_range"]:.1f} bytes**: hot_range_item '
              f'{m["objsize"]} bytes + {m["xarray_bytes_per_range"]:.1f} bytes of xarray nodes '
              f'({m["xarray_nodes"]:,} nodes for {m["ranges"]:,} ranges of one file). '
              f'/proc/slabinfo over those ranges: {m["range_objs"]:,} hot_range_item objects, '
              f'{m["slabinfo_bytes_per_range"]:.1f} bytes per range with radix_tree_node, '
              f'{m["slab_page_bytes_per_range"]:.1f} in whole slab pages')
        if 'inode' in mem:
            m = mem['inode']
            p(f'- per tracked inode: **{m["bytes_per_inode"]:.1f} bytes**: hot_inode_item '
              f'{m["objsize"]} bytes + {m["xarray_bytes_per_inode"]:.1f} bytes of xarray nodes '
              f'({m["xarray_nodes"]:,} nodes for the inode numbers of {m["files"]:,} small files); '
              f'with the file\'s one range {m["bytes_per_file_with_range"]:.1f} bytes. '
              f'/proc/slabinfo after reading each once: {m["inode_objs"]:,} hot_inode_item objects, '
              f'{m["slabinfo_bytes_per_inode"]:.1f} bytes per inode with radix_tree_node '
              f'(less the untracked run\'s)')
    if persist:
        q = persist
        num = lambda x: f'{int(x):,}' if x is not None else '?'
        p('')
        p(f'Heat across a reboot ({mem.get("fs")}: {int(q["files"]):,} files with '
          f'{int(q["ranges"]):,} ranges tracked; hotstat save, unmount, caches dropped, '
          'mount, hotstat restore; wall clock of the guest):')
        p('')
        p('| files | ranges | heat file | save | restore | records applied |')
        p('|---:|---:|---:|---:|---:|---:|')
        p(f'| {int(q["files"]):,} | {int(q["ranges"]):,} | '
          f'{int(q["bytes"]) / 1e6:.1f} MB | {float(q["save_s"]):.1f} s | '
          f'{float(q["restore_s"]):.1f} s | '
          f'{num(q["applied"])} of {num(q["records"])} |')
    if act and act['warm']:
        w = act['warm']
        pinfo = pinf
        p('')
        p(f'Warm-up after a remount ({mem.get("fs") or pinfo.get("scale_fs")}, hot_track=logical: '
          f'{pinfo.get("warm_mb")} MiB hot set in 4 MiB files beside 4 times as much cold '
          'data, its heat saved; caches dropped, mount, then every 4 KiB block of the hot set '
          'read once in random order, buffered (fio); with `hotstat warm --from` the saved '
          'heat first; medians of the runs, guest wall clock):')
        p('')
        p('| runs | re-read, cold cache | hotstat warm | re-read after it | warm + re-read |')
        p('|---:|---:|---:|---:|---:|')
        cold = median([x['cold_s'] for x in w])
        warm = median([float(x['warm_s']) for x in w if x['warm_s'] is not None])
        after = median([x['warmed_s'] for x in w])
        p(f'| {len(w)} | {cold:.2f} s | {warm:.2f} s | {after:.2f} s | '
          f'{warm + after:.2f} s ({(warm + after) / cold:.0%} of cold) |')
    if act and act['cached']:
        c = act['cached']
        p('')
        p('A read the page cache serves (4 KiB random buffered reads of a cached 64 MiB '
          'file, fio, ns per read; median and min–max of the runs):')
        p('')
        p('| mount | ns per read | vs untracked |')
        p('|---|---:|---:|')
        base = median(c.get('off', []))
        for m, name in (('off', 'untracked'), ('plain', 'hot_track'),
                        ('logical', 'hot_track=logical')):
            if m not in c:
                continue
            v = c[m]
            rel = f'{median(v) / base:.3f}' if base else '?'
            p(f'| {name} | {median(v):.0f} ({min(v):.0f}–{max(v):.0f}) | {rel} |')
    p('')
    p('| target | figure | met |')
    p('|---|---|---|')
    for t in targets:
        met = {True: 'met', False: '**not met**', None: 'unclear'}[t['met']]
        p(f'| {t["target"]} | {t["figure"]} | {met} |')
    p('')
    if problems:
        p('**Problems:**')
        p('')
        for x in problems:
            p(f'- {x}')
    else:
        p('Guests healthy: no BUG, WARNING, Oops, lockdep or KASAN report in the console logs.')
    text = '\n'.join(md) + '\n'

    os.makedirs(a.results, exist_ok=True)
    base = os.path.join(a.results, f'{date}-{mach["host"]}')
    with open(base + '.json', 'w') as f:
        json.dump(result, f, indent=1)
        f.write('\n')
    with open(base + '.md', 'w') as f:
        f.write(text)
    shutil.copyfile(base + '.md', os.path.join(a.results, 'latest.md'))
    print(text, end='')
    print(f'>> wrote {base}.md, .json and latest.md', file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
