# SPDX-License-Identifier: GPL-2.0
"""Kernel messages and kernel reports in a guest's console log.

Shared by the test judge (scripts/judge-tests.py), the fstests judge
(scripts/fstests.sh) and the benchmark report (scripts/bench-report.py): all
fail on the same reports. read_text() is their way to read a result file.
"""
import re


def read_text(path, default=None):
    """The text of the file at path, default if it cannot be read."""
    try:
        with open(path, 'rb') as f:
            return f.read().decode('utf-8', 'replace')
    except OSError:
        return default

# A kernel line carries a printk timestamp; user space output does not. The
# timestamp is searched anywhere in the line: user space output without a
# newline may precede it.
TS = re.compile(r'\[\s*\d+\.\d{6}\] ')

ANCHORED = (r'BUG:|WARNING:|Oops|Kernel panic|kernel BUG at|UBSAN:|ODEBUG:|'
            r'INFO: |general protection fault|unreferenced object')
ANYWHERE = (r'KASAN|possible recursive locking|'
            r'possible circular locking dependency|inconsistent lock state|'
            r'suspicious RCU usage|INFO: lockdep|DEBUG_LOCKS_WARN_ON|'
            r'sleeping function called from invalid context|'
            r'blocked for more than|list_add corruption|list_del corruption|'
            r'suspected memory leaks')
REPORT = re.compile(rf'^(?:[\w.-]+: )?(?:{ANCHORED})|{ANYWHERE}')
# Kernel lines that are no report: KUnit's KTAP, our own markers.
NOT_REPORT = re.compile(r'^\s|^(?:ok|not ok) \d|^# |^KTAP version|^hot-guest: '
                        r'|^ODEBUG: selftest passed$')


def kernel_messages(console):
    """The kernel messages of a console log, without their timestamps."""
    msgs = []
    for line in (console or '').split('\n'):
        m = None
        for m in TS.finditer(line):
            pass                    # the last timestamp of the line
        if m:
            msgs.append(line[m.end():].rstrip('\r'))
    return msgs


def kernel_reports(msgs):
    """The distinct kernel reports among msgs, in order: {key: message}."""
    seen = {}
    for msg in msgs:
        if NOT_REPORT.search(msg) or not REPORT.search(msg):
            continue
        key = re.sub(r'CPU: \d+ (UID: \d+ )?PID: \d+', 'CPU PID', msg)
        key = re.sub(r'0x[0-9a-f]+|\b[0-9a-f]{16}\b|#\d+', 'N', key)
        seen.setdefault(key, msg)
    return seen
