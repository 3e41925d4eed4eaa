#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare two 'hotstat --json top -n 0' lists, files or ranges, of the
same mount before an unmount (or a reboot) and after 'hotstat restore':

    heat-compare.py WHAT BEFORE.json AFTER.json

Prints 'ok - ...' or 'not ok - ...' lines: the same items, in the same
order (of those in different temperature buckets), with the same counts
and bytes, and none warmer than it was.
"""
import json, sys

what, before, after = sys.argv[1], sys.argv[2], sys.argv[3]

def t(cond, name, diag=None):
    print(('ok - ' if cond else 'not ok - ') + f'{what}: {name}')
    if not cond and diag is not None:
        for k, v in (diag.items() if isinstance(diag, dict)
                     else [('diag', diag)]):
            print(f'{k}: {json.dumps(v)}')

def load(f):
    try:
        return json.load(open(f))['items']
    except Exception as e:
        print(f'{f}: {e}')
        return None

b, a = load(before), load(after)
t(b is not None and a is not None, 'both lists parse')
if b is not None and a is not None:
    key = lambda i: (i['inode'], i.get('offset', 0))
    t(len(b) > 0, f'{len(b)} items before the unmount')
    # The kernel lists by temperature bucket, the top 8 bits of the
    # temperature; the items of one bucket (written once each, say) come
    # in no particular order (include/uapi/linux/hot_tracking.h)
    bucket = lambda i: i['temp'] >> 24
    pos = {key(i): n for n, i in enumerate(a)}
    swapped = [(x['path'], x.get('offset'), x['temp'],
                y['path'], y.get('offset'), y['temp'])
               for x in b for y in b
               if bucket(x) > bucket(y) and key(x) in pos and key(y) in pos
               and pos[key(x)] > pos[key(y)]]
    t(sorted(map(key, b)) == sorted(map(key, a)) and not swapped,
      f'the same {len(b)} items in the same order',
      {'swapped': swapped[:5],
       'before': [(i['path'], i.get('offset'), i['temp']) for i in b],
       'after': [(i['path'], i.get('offset'), i['temp']) for i in a]})
    count = lambda i: (i['reads'], i['writes'], i['read_bytes'],
                       i['write_bytes'], i['generation'])
    am = {key(i): i for i in a}
    diff = [(i['path'], i.get('offset'), count(i), count(am[key(i)]))
            for i in b if key(i) in am and count(i) != count(am[key(i)])]
    t(not diff, 'the same counts, bytes and generations', diff)
    warmer = [(i['path'], i.get('offset'), i['temp'], am[key(i)]['temp'])
              for i in b if key(i) in am and am[key(i)]['temp'] > i['temp']]
    t(not warmer, 'none warmer than before', warmer)
