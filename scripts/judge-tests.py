#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The judge of a test run (scripts/run-tests.sh).

    judge-tests.py DIR BOOT_RC [FILE_OF_UNCOMPILABLE_SELFTESTS]

Reads the results directory DIR of one boot (tap/*.tap, *.err, *.rc, *.time,
console.log, and the console logs of the boots in DIR/boots/), prints one line per test (ok/FAIL/skip), FAIL lines for kernel
reports in the console log, and ends with 'N passed, M failed'; exits 1 if
anything failed.
"""
import os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kreports import kernel_messages, kernel_reports, read_text as read

out, boot_rc = sys.argv[1], int(sys.argv[2])
build_failed = sys.argv[3] if len(sys.argv) > 3 else ''
npass = nfail = nskip = 0

def report(kind, name, note='', details=()):
    global npass, nfail, nskip
    if kind == 'ok':
        npass += 1
    elif kind == 'FAIL':
        nfail += 1
    else:
        nskip += 1
    print(f'{kind:<5}{name}' + (f' ({note})' if note else ''))
    for d in details:
        print('    ' + d)

def lines(text):
    return [l.rstrip('\r') for l in (text or '').split('\n')]

# --- Build failures of guest programs ---
if build_failed:
    for name in lines(read(build_failed)):
        if name.strip():
            report('FAIL', f'build: selftest {name.strip()} does not compile')

# --- The maintainer's checks (scripts/lint.sh, run on the host) ---
lint = read(os.path.join(out, 'lint.txt'))
if lint is not None:
    # One report per check, its findings under it
    checks = []
    cur = None
    for l in lines(lint):
        m = re.match(r'^(ok|FAIL)\s+(lint: .*)$', l)
        if m:
            cur = [m.group(1), m.group(2), []]
            checks.append(cur)
        elif l.startswith('    ') and cur:
            cur[2].append(l.strip())
    for kind, name, details in checks:
        report(kind, name, details=details if kind == 'FAIL' else ())
    if not checks:
        report('FAIL', 'lint', 'scripts/lint.sh printed no result', lines(lint)[-15:])

# --- Kernel messages of the console log ---
console = read(os.path.join(out, 'console.log'))
kmsgs = kernel_messages(console)

# --- KUnit (KTAP in the kernel log) ---
CASE = re.compile(r'^    (ok|not ok) (\d+) (\S+)(?:\s+#\s*(\S+)\s*(.*))?$')
SUITE = re.compile(r'^(ok|not ok) (\d+) (\S+)(?:\s+#\s*(\S+)\s*(.*))?$')
suites = []
top_plan = None
cur = None
for msg in kmsgs:
    m = re.match(r'^1\.\.(\d+)$', msg)
    if m:
        top_plan = (top_plan or 0) + int(m.group(1))
        continue
    m = re.match(r'^    # Subtest: (\S+)', msg)
    if m:
        cur = {'name': m.group(1), 'plan': None, 'cases': [], 'result': None,
               'diag': []}
        suites.append(cur)
        continue
    if cur is None or cur['result'] is not None:
        continue
    m = re.match(r'^    1\.\.(\d+)$', msg)
    if m and cur['plan'] is None:
        cur['plan'] = int(m.group(1))
        continue
    m = CASE.match(msg)
    if m:
        cur['cases'].append(m.groups() + (cur['diag'],))
        cur['diag'] = []
        continue
    m = SUITE.match(msg)
    if m and m.group(3) == cur['name']:
        cur['result'] = m.groups()
        continue
    # Diagnostics ('    # case: EXPECTATION FAILED...', the lines after
    # it, results of parameters) belong to the case reported next.
    if msg.startswith('    ') and not msg.strip().startswith('KTAP version'):
        cur['diag'].append(msg.strip())

def tap_kind(status, directive):
    d = (directive or '').upper()
    if d.startswith('SKIP') or (status == 'not ok' and d.startswith('TODO')):
        return 'skip'
    return 'ok' if status == 'ok' else 'FAIL'

kunit_cases = 0
for s in suites:
    for status, num, case, directive, reason, diag in s['cases']:
        kunit_cases += 1
        kind = tap_kind(status, directive)
        note = reason if kind == 'skip' else ''
        report(kind, f'kunit {s["name"]}.{case}', note,
               diag[-15:] if kind == 'FAIL' else ())
    got, plan = len(s['cases']), s['plan']
    if s['result'] is None:
        report('FAIL', f'kunit {s["name"]}',
               f'suite did not finish: {got} of {plan if plan is not None else "?"} '
               'results; crashed?', s['diag'][-15:])
    elif plan is not None and got != plan:
        report('FAIL', f'kunit {s["name"]}', f'plan 1..{plan}, {got} results')
    elif (tap_kind(s['result'][0], s['result'][3]) == 'FAIL' and
          all(tap_kind(c[0], c[3]) != 'FAIL' for c in s['cases'])):
        report('FAIL', f'kunit {s["name"]}', 'suite reported not ok',
               s['diag'][-15:])
if top_plan is not None and len(suites) < top_plan:
    report('FAIL', 'kunit', f'{top_plan} suites planned, {len(suites)} started')

# --- Guest test programs (TAP 13 from kselftest_harness and scripts) ---
RESULT = re.compile(r'^(ok|not ok)\b\s*(\d+)?\s*(?:- )?([^#]*?)\s*(?:#\s*(\S+)\s*(.*))?$')
tapdir = os.path.join(out, 'tap')
guest_tests = 0
ids = sorted(f[:-3] for f in os.listdir(tapdir) if f.endswith('.rc')) \
      if os.path.isdir(tapdir) else []
for id in ids:
    fs, prog = id.split('.', 1)
    base = os.path.join(tapdir, id)
    rc = int((read(base + '.rc') or '-1').strip() or -1)
    secs = (read(base + '.time') or '?').strip()
    err = [re.sub(r'/\S*/([^/\s:]+\.[ch]):', r'\1:', l)
           for l in lines(read(base + '.err')) if l.strip()]
    plan = None
    results = []
    bail = None
    for l in lines(read(base + '.tap')):
        m = re.match(r'^1\.\.(\d+)(?:\s*#\s*(.*))?$', l)
        if m:
            plan = int(m.group(1))
            if plan == 0:
                report('skip', f'{fs}/{prog}', m.group(2) or 'no tests')
                guest_tests += 1
            continue
        if l.startswith('Bail out!'):
            bail = l
            continue
        m = RESULT.match(l)
        if m:
            status, num, name, directive, reason = m.groups()
            name = name.strip() or f'#{num}'
            if name.startswith('global.'):
                name = name[len('global.'):]
            results.append((status, name, directive, reason))
    failed = False
    for status, name, directive, reason in results:
        guest_tests += 1
        kind = tap_kind(status, directive)
        failed |= kind == 'FAIL'
        details = ()
        if kind == 'FAIL':
            # kselftest_harness tags its messages '<file>:<line>:<test>:'
            # and '<test>: '; else show the end of stderr.
            short = name.rsplit('.', 1)[-1]
            details = [l for l in err if f':{short}:' in l or
                       l.lstrip('# ').startswith(f'{short}: ')][-15:] or err[-15:]
        report(kind, f'{fs}/{prog}.{name}', reason if kind == 'skip' else '', details)
    tail = err[-15:]
    who = f'{fs}/{prog}'
    if rc in (124, 137):
        report('FAIL', who, f'timed out after {secs}s, {len(results)} results', tail)
    elif bail:
        report('FAIL', who, bail, tail)
    elif plan is None:
        report('FAIL', who, f'no TAP plan; exit {rc}', tail)
    elif plan != len(results):
        report('FAIL', who, f'plan 1..{plan}, {len(results)} results; exit {rc}', tail)
    elif rc not in (0, 4) and not failed:
        what = f'killed by signal {rc - 128}' if rc > 128 else f'exit {rc}'
        report('FAIL', who, f'{what} without a failed test', tail)

# --- Kernel reports in the console log, and in those of later boots ---
seen = kernel_reports(kmsgs)
boots = os.path.join(out, 'boots')
for b in sorted(os.listdir(boots)) if os.path.isdir(boots) else []:
    log = read(os.path.join(boots, b, 'console.log'))
    if log is not None:
        for k, msg in kernel_reports(kernel_messages(log)).items():
            seen.setdefault(k, f'{b}: {msg}')
CAP = 20
for msg in list(seen.values())[:CAP]:
    report('FAIL', f'console: {msg}')
if len(seen) > CAP:
    report('FAIL', f'console: {len(seen) - CAP} more distinct reports, see {out}/console.log')

# --- kmemleak (read by guest/run-tests.sh after the last test) ---
leaks = read(os.path.join(out, 'kmemleak.txt'))
if leaks and leaks.strip():
    ALLOCATOR = re.compile(r'(kmemleak_|__?kmalloc|kmalloc|__?kmem_cache|kmem_cache_|'
                           r'_*slab_|kvmalloc|__kvmalloc|krealloc|kstrdup|kmemdup|'
                           r'kzalloc|__alloc_pages|alloc_pages|__kmem)')
    objs = [o for o in re.split(r'(?m)^(?=unreferenced object)', leaks) if o.strip()]
    details = []
    for o in objs[:5]:
        ol = o.strip().split('\n')
        bt = next((i for i, x in enumerate(ol) if 'backtrace' in x), len(ol))
        frames = [re.sub(r'^\s*(\[<[0-9a-f]+>\]\s*)?', '', f).strip() for f in ol[bt + 1:]]
        # The caller matters, not the allocator.
        frames = [f for f in frames if f and not ALLOCATOR.match(f)]
        details.append(ol[0].strip() + ' ' + ' < '.join(frames[:5]))
    if any('suspected memory leaks' in k for k in seen.values()):
        # Already counted as a console report; show where they come from.
        print(f'    kmemleak: {len(objs)} objects, {out}/kmemleak.txt:')
        for d in details:
            print('      ' + d)
    else:
        report('FAIL', 'kmemleak', f'{len(objs)} unreferenced objects, see {out}/kmemleak.txt',
               details)

# --- The boot itself ---
if boot_rc in (124, 137):
    report('FAIL', 'boot: QEMU timed out')
elif boot_rc == 125:
    report('FAIL', 'boot: the guest reported no exit status (panic? see console.log)')
elif boot_rc == 130:
    report('FAIL', 'boot: interrupted')
if console is None:
    report('FAIL', 'boot: no console log')
elif not any(m == 'hot-guest: init' for m in kmsgs) and 'hot-guest: init' not in console:
    report('FAIL', 'boot: guest init never ran')
elif boot_rc not in (124, 137, 130) and 'hot-guest: run-tests: done' not in console:
    report('FAIL', 'boot: guest/run-tests.sh did not finish')
if kunit_cases + guest_tests == 0:
    report('FAIL', 'no test ran at all')

print(f'{npass} passed, {nfail} failed')
sys.exit(1 if nfail else 0)
