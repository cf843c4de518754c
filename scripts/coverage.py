#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Coverage of our kernel files, from the lcov tracefile of make coverage.

usage: coverage.py ALL.INFO SRC OURS.INFO FILE...

ALL.INFO is lcov's tracefile of every profiled object (all of
kernel/trace/), SRC the source tree the kernel was built from, FILE...
our kernel files relative to SRC.  Writes the records of those files
to OURS.INFO (for genhtml), prints a table of lines, branches and
functions per file, in three groups: our .c files, our headers, the
KUnit suites; then the functions that no test reached, and last the
line

    coverage: lines N.N%, branches N.N%

over the first group.  The headers' figures are apart because gcc
counts an inline function's branches in each file that includes it,
with those that cannot happen there (a switch on a field's kind, where
each caller passes one kind): their lines and functions say more.
"""

import os
import sys


def records(path):
    """Yield (source file, [lines]) for each record of a tracefile."""
    src, lines = None, []
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('SF:'):
                src, lines = line[3:], [line]
            elif line == 'end_of_record':
                if src is not None:
                    yield src, lines + [line]
                src, lines = None, []
            elif src is not None:
                lines.append(line)


class Counts:
    """What one file's records say, merged (a file can have several)."""

    def __init__(self):
        self.lines = {}      # line -> count
        self.branches = {}   # (line, block, branch) -> taken
        self.funcs = {}      # name -> [first line, count]

    def add(self, lines):
        for line in lines:
            tag, _, val = line.partition(':')
            if tag == 'DA':
                n, c = val.split(',')[:2]
                self.lines[int(n)] = self.lines.get(int(n), 0) + int(c)
            elif tag == 'BRDA':
                n, b, br, taken = val.split(',')
                key = (int(n), b, br)
                t = 0 if taken == '-' else int(taken)
                self.branches[key] = self.branches.get(key, 0) + t
            elif tag == 'FN':
                n, name = val.split(',', 1)
                self.funcs.setdefault(name, [int(n), 0])
            elif tag == 'FNDA':
                c, name = val.split(',', 1)
                self.funcs.setdefault(name, [0, 0])[1] += int(c)

    def totals(self):
        return (sum(1 for c in self.lines.values() if c), len(self.lines),
                sum(1 for c in self.branches.values() if c),
                len(self.branches),
                sum(1 for _, c in self.funcs.values() if c), len(self.funcs))


def pct(hit, found):
    return 100.0 * hit / found if found else 100.0


def main():
    all_info, src, ours_info = sys.argv[1:4]
    files = sys.argv[4:]
    wanted = {os.path.realpath(os.path.join(src, f)): f for f in files}
    counts = {f: Counts() for f in files}
    with open(ours_info, 'w') as out:
        for sf, lines in records(all_info):
            f = wanted.get(os.path.realpath(sf))
            if f is None:
                continue
            counts[f].add(lines)
            out.write('\n'.join(lines) + '\n')

    fmt = '%-36s %6s %13s %6s %13s %13s'
    print(fmt % ('file', 'lines', '', 'branch', '', 'functions'))

    def group(f):
        if 'kunit' in f:
            return 'kunit'
        return 'code' if f.endswith('.c') else 'headers'

    total = [0] * 6
    for g in ('code', 'headers', 'kunit'):
        for f in sorted(files):
            if group(f) != g:
                continue
            t = counts[f].totals()
            if not t[1]:
                print('%-36s no counts (no code, or not built)' %
                      os.path.basename(f))
                continue
            print(fmt % (os.path.basename(f),
                         '%.1f%%' % pct(t[0], t[1]), '%d/%d' % t[0:2],
                         '%.1f%%' % pct(t[2], t[3]), '%d/%d' % t[2:4],
                         '%d/%d' % t[4:6]))
            if g == 'code':
                total = [a + b for a, b in zip(total, t)]
        if g == 'code':
            print(fmt % ('(our .c files, KUnit suites apart)',
                         '%.1f%%' % pct(total[0], total[1]),
                         '%d/%d' % tuple(total[0:2]),
                         '%.1f%%' % pct(total[2], total[3]),
                         '%d/%d' % tuple(total[2:4]),
                         '%d/%d' % tuple(total[4:6])))
        print()

    print('functions no test reached:')
    for f in sorted(files):
        if group(f) == 'kunit':
            continue
        for name, (line, c) in sorted(counts[f].funcs.items(),
                                      key=lambda x: x[1][0]):
            if not c:
                print('  %s:%d %s' % (f, line, name))
    print('coverage: lines %.1f%%, branches %.1f%%' %
          (pct(total[0], total[1]), pct(total[2], total[3])))
    return 0 if total[1] else 1


if __name__ == '__main__':
    sys.exit(main())
