#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Collect the results of one guest run and hold them against the
expected-results file.

Every test that ran must be listed there with exactly the result it got,
and every listed test must have run: a result that changes in either
direction fails the check, so the list can only be moved on purpose.

Results file format, one test a line ('#' starts a comment):
    ID RESULT [-- WHY]
ID is ftrace:PATH (PATH relative to test.d, ':instance' appended for the
instance run), kunit:SUITE.CASE, boot:NAME (a boot of its own, whose
run.sh results check.sh keeps in IO/boot/NAME; it passes if its command
exits 0), client:NAME (a real client's test, guest-clients.sh, kept in
IO/client/NAME the same way, with the client's versions in its "version"
file, which the result line shows) or drive:NAME (a run of
scripts/hist-drive.c, kept in IO/drive/NAME the same way). The tests ran in the guests whose
run.sh results are in
IO/guest-K (several at once), or in IO itself. RESULT is pass, xfail, unsupported or untested; anything but
pass must say why. With --reference (the upstream kernel's file), fail is
allowed too: a test of ours that checks what upstream does not do.

A test that leaves what ftracetest's reset cannot remove (a trigger that
cannot go, an event still in use) fails the reset before every later
test of its guest. --dirty GUEST finds the first reset that failed in
GUEST's logs; the test that ran before it left the mess. It writes
GUEST/ftrace/left-dirty (that test's ID on the first line, then the
failed reset and what the guest's last reset could not remove, which
guest-check.sh keeps in GUEST/ftrace/left-behind), moves the logs of
every later run, and of every other run of the same files, to
GUEST/ftrace/dirty/, and prints those files, which check.sh runs again
in a fresh guest. The results then give that test the result
left-dirty, which no expected file may list.
"""

import argparse
import calendar
import glob
import json
import os
import re
import subprocess
import sys
import time

ALLOWED = {'pass', 'xfail', 'unsupported', 'untested'}
FTRACE_RESULTS = {'PASS': 'pass', 'FAIL': 'fail', 'UNRESOLVED': 'unresolved',
		  'UNTESTED': 'untested', 'UNSUPPORTED': 'unsupported',
		  'XFAIL': 'xfail', 'UNDEFINED': 'undefined'}
KUNIT_RESULTS = {'PASS': 'pass', 'FAIL': 'fail', 'SKIP': 'unsupported',
		 'ERROR': 'error'}
# The kinds of test whose results are kept as run.sh keeps a guest's,
# one directory each under IO/KIND: the extra boots, the clients' tests,
# hist-drive's runs.
RUN_DIRS = ('boot', 'client', 'drive')


def read_expected(path, allowed=ALLOWED):
	expected, errors = {}, []
	with open(path) as f:
		for n, line in enumerate(f, 1):
			body = line.split('#', 1)[0].strip()
			if not body:
				continue
			words, _, why = body.partition(' -- ')
			words = words.split()
			where = f'{path}:{n}'
			if len(words) != 2:
				errors.append(f'{where}: want "ID RESULT [-- WHY]"')
				continue
			tid, res = words
			if res not in allowed:
				errors.append(f'{where}: result "{res}" is not allowed')
			elif res != 'pass' and not why.strip():
				errors.append(f'{where}: {res} without a reason')
			if tid in expected:
				errors.append(f'{where}: {tid} listed twice')
			expected[tid] = res
	return expected, errors


def ftrace_cases(logdir):
	"""Case number -> (id, log), from ftracetest's kept logs."""
	cases = {}
	for log in glob.glob(os.path.join(logdir, '*-log.*')):
		num = int(os.path.basename(log).split('-', 1)[0])
		with open(log, errors='replace') as f:
			first = f.readline()
		m = re.match(r'execute( \(instance\) )?: (.*)', first)
		if not m:
			continue
		path = m.group(2).strip()
		path = path.split('/test.d/', 1)[-1]
		tid = 'ftrace:' + path + (':instance' if m.group(1) else '')
		cases[num] = (tid, log)
	return cases


def ftrace_results(logdir):
	"""ID -> (result, log), from ftracetest's kept logs."""
	cases = {num: [tid, None, log]
		 for num, (tid, log) in ftrace_cases(logdir).items()}
	mainlog = os.path.join(logdir, 'ftracetest.log')
	if os.path.exists(mainlog):
		with open(mainlog, errors='replace') as f:
			for line in f:
				m = re.match(r'\[(\d+)\].*\t\[(\w+)\]\s*$', line)
				if m and int(m.group(1)) in cases:
					res = FTRACE_RESULTS.get(m.group(2), 'undefined')
					cases[int(m.group(1))][1] = res
	return {tid: (res or 'unfinished', log) for tid, res, log in cases.values()}


def reset_failed(log, path):
	"""True if the case whose log is LOG failed in ftracetest's reset
	(initialize_ftrace, under set -e), before it sourced its test file
	PATH, which the set -x trace shows as "+ . PATH"."""
	with open(log, errors='replace') as f:
		return f'+ . {path}\n' not in f


def test_file(path):
	"""test.d/... of a test file's path as ftracetest's log names it."""
	return 'test.d/' + path.split('/test.d/', 1)[-1]


def left_dirty(guest):
	"""--dirty: see the top. Returns the test files to run again."""
	logdir = os.path.join(guest, 'ftrace')
	cases = ftrace_cases(logdir)
	results = ftrace_results(logdir)
	first = None
	for num in sorted(cases):
		tid, log = cases[num]
		if results.get(tid, ('',))[0] != 'fail':
			continue
		with open(log, errors='replace') as f:
			path = f.readline().split(': ', 1)[-1].strip()
		if reset_failed(log, path):
			first = num
			break
	if first is None:
		return []

	def file_of(num):
		with open(cases[num][1], errors='replace') as f:
			return test_file(f.readline().split(': ', 1)[-1].strip())

	culprit = cases[first - 1][0] if first - 1 in cases else '-'
	culprit_file = file_of(first - 1) if first - 1 in cases else None
	rerun = []
	for num in sorted(cases):
		if num >= first and file_of(num) not in rerun + [culprit_file]:
			rerun.append(file_of(num))
	moved = [num for num in cases if num >= first or file_of(num) in rerun]
	gone = os.path.join(logdir, 'dirty')
	os.makedirs(gone, exist_ok=True)
	try:
		with open(os.path.join(logdir, 'left-behind'), errors='replace') as f:
			left = f.read().splitlines()
	except OSError:
		left = []
	guest_name = os.path.basename(os.path.normpath(guest))
	with open(os.path.join(logdir, 'left-dirty'), 'w') as f:
		f.write(f'{culprit}\n')
		if culprit == '-':
			f.write(f'The tracing state was dirty before the first test of {guest_name}.\n')
		else:
			f.write(f'{culprit} left the tracing state dirty.\n')
		f.write(f'The reset before {cases[first][0]} failed; its log ends:\n')
		f.write(''.join('    ' + l for l in tail(cases[first][1], 4).splitlines(True)))
		f.write('Left at the end of the guest, after ftracetest\'s last reset:\n')
		f.write(''.join(f'    {l}\n' for l in left) or '    (nothing)\n')
		f.write(f'Not counted here, run again in a fresh guest ({len(moved)} runs, logs in ftrace/dirty/):\n')
		f.write(''.join(f'    {t}\n' for t in rerun) or '    (nothing)\n')
	for num in moved:
		log = cases[num][1]
		os.rename(log, os.path.join(gone, os.path.basename(log)))
	return rerun


def dirty_guests(io):
	"""(ID, note file) for each guest that a test left dirty: the
	ID of that test, or harness:clean-start-GUEST when the guest was
	dirty before its first test."""
	found = []
	for g in guest_dirs(io):
		note = os.path.join(g, 'ftrace', 'left-dirty')
		if not os.path.exists(note):
			continue
		with open(note, errors='replace') as f:
			culprit = f.readline().strip()
		if culprit == '-':
			culprit = 'harness:clean-start-' + \
				os.path.basename(os.path.normpath(g))
		found.append((culprit, note))
	return found


def ftrace_times(logdir):
	"""ID -> seconds, for every case that finished.

	A case's log is written to its last line, so its time of last
	change is when the case ended (guest-check.sh copies the logs with
	their times); it began when the one before it ended, the first when
	ftracetest began, which is the date on ftracetest.log's first line.
	"""
	mainlog = os.path.join(logdir, 'ftracetest.log')
	try:
		with open(mainlog, errors='replace') as f:
			began = calendar.timegm(time.strptime(
				f.readline().strip(), '%a %b %d %H:%M:%S UTC %Y'))
	except (OSError, ValueError):
		return {}
	times = {}
	for _, (tid, log) in sorted(ftrace_cases(logdir).items()):
		ended = os.path.getmtime(log)
		times[tid] = max(0, ended - began)
		began = ended
	return times


def dmesg_stamps(dmesg, pattern):
	"""Kernel log times of the lines of DMESG that match PATTERN."""
	stamps = []
	try:
		with open(dmesg, errors='replace') as f:
			for line in f:
				m = re.match(r'\[\s*(\d+\.\d+)\]', line)
				if m and re.search(pattern, line):
					stamps.append(float(m.group(1)))
	except OSError:
		pass
	return stamps


def guest_dirs(io):
	"""The run.sh results dirs of a check.sh run in IO.

	check.sh runs the tests in several guests at once, each keeping its
	run.sh results in IO/guest-K; a single run's IO is one of them.
	"""
	return sorted(glob.glob(os.path.join(io, 'guest-*', ''))) or [io]


def run_times(io):
	"""ID -> seconds for each test of a check.sh run in IO, with
	'kunit:*' for all the KUnit suites (from the first KTAP header to
	the last suite's result line) and, for an extra boot, how long its
	guest ran: from run.sh's writing the command to the guest's writing
	its status."""
	times = {}
	for g in guest_dirs(io):
		times.update(ftrace_times(os.path.join(g, 'ftrace')))
		kunit = dmesg_stamps(os.path.join(g, 'dmesg'),
				     r'\] (KTAP version|(not )?ok \d+ )')
		if len(kunit) > 1:
			times['kunit:*'] = kunit[-1] - kunit[0]
	for kind in RUN_DIRS:
		for d in sorted(glob.glob(os.path.join(io, kind, '*', ''))):
			try:
				secs = os.path.getmtime(os.path.join(d, 'status')) - \
					os.path.getmtime(os.path.join(d, 'cmd'))
			except OSError:
				continue
			times[kind + ':' + os.path.basename(os.path.dirname(d))] = secs
	return times


def kunit_results(dmesg, kunit_py):
	if not os.path.exists(dmesg):
		return {}
	with open(dmesg, errors='replace') as f:
		if 'KTAP version' not in f.read():
			return {}
	out = subprocess.run([sys.executable, kunit_py, 'parse', '--json=stdout',
			      os.path.abspath(dmesg)],
			     capture_output=True, text=True)
	start = out.stdout.find('{')
	if start < 0:
		return {'kunit:parse': ('error', None)}
	tree = json.loads(out.stdout[start:])
	found = {}

	def walk(group, prefix):
		for case in group.get('test_cases', []):
			res = KUNIT_RESULTS.get(case.get('status'), 'error')
			found[f'kunit:{prefix}.{case["name"]}'] = (res, None)
		for sub in group.get('sub_groups', []):
			walk(sub, sub['name'])

	for sub in tree.get('sub_groups', []):
		walk(sub, sub['name'])
	return found


def boot_results(bootdir, kind='boot'):
	"""KIND:NAME -> result, from the status of each extra boot's command
	(or each client test's, with kind 'client')."""
	found = {}
	for d in sorted(glob.glob(os.path.join(bootdir, '*', ''))):
		d = os.path.dirname(d)
		try:
			with open(os.path.join(d, 'status')) as f:
				status = f.read().strip()
		except OSError:
			status = None
		res = 'unfinished' if status is None else \
			'pass' if status == '0' else 'fail'
		log = os.path.join(d, 'output')
		if res == 'unfinished' or not os.path.exists(log):
			log = os.path.join(d, 'console.log')
		found[kind + ':' + os.path.basename(d)] = \
			(res, log if os.path.exists(log) else None)
	return found


def versions(io):
	"""client:NAME -> the versions of the client its test ran."""
	found = {}
	for f in sorted(glob.glob(os.path.join(io, 'client', '*', 'version'))):
		with open(f, errors='replace') as fh:
			v = fh.read().strip()
		if v:
			found['client:' + os.path.basename(os.path.dirname(f))] = v
	return found


def tail(path, lines=40):
	if not path:
		return ''
	with open(path, errors='replace') as f:
		return ''.join(f.readlines()[-lines:])


def main():
	ap = argparse.ArgumentParser()
	ap.add_argument('--io', help='the guest run results dir')
	ap.add_argument('--expected')
	ap.add_argument('--kunit-py')
	ap.add_argument('--reference', action='store_true',
			help='the expected file is the reference kernel\'s: '
			'fail is allowed')
	ap.add_argument('--select', default='',
			help='a regex: listed tests whose ID it does not match '
			'were not asked to run (make check T=)')
	ap.add_argument('--omit', default='',
			help='a regex: listed tests whose ID it matches were '
			'not asked to run (the debug set)')
	ap.add_argument('--write', action='store_true',
			help='print the results in the expected-file format')
	ap.add_argument('--dirty', metavar='GUEST',
			help='find the test that left GUEST dirty, set aside '
			'the runs after it and print the files to run again')
	ap.add_argument('--times', action='store_true',
			help='print how long each test took, "ID SECONDS" '
			'(check.sh balances its guests by them)')
	args = ap.parse_args()

	if args.dirty:
		for t in left_dirty(args.dirty):
			print(t)
		return 0
	if not args.io:
		ap.error('--io is needed unless --dirty')
	if args.times:
		for tid, secs in sorted(run_times(args.io).items()):
			print(f'{tid} {secs:.0f}')
		return 0
	if not args.expected or not args.kunit_py:
		ap.error('--expected and --kunit-py are needed unless --times')

	got = {}
	for g in guest_dirs(args.io):
		got.update(ftrace_results(os.path.join(g, 'ftrace')))
		got.update(kunit_results(os.path.join(g, 'dmesg'),
					 args.kunit_py))
	for kind in RUN_DIRS:
		got.update(boot_results(os.path.join(args.io, kind), kind))
	notes = versions(args.io)

	if args.write:
		for tid in sorted(got):
			print(f'{tid} {got[tid][0]}')
		return 0

	allowed = ALLOWED | {'fail'} if args.reference else ALLOWED
	expected, errors = read_expected(args.expected, allowed)
	for e in errors:
		print(f'expected-results: {e}')

	def asked(tid):
		if args.select and not re.search(args.select, tid):
			return False
		return not (args.omit and re.search(args.omit, tid))

	# A test that left its guest dirty gets a result of its own, which
	# no expected file can list: it always fails the check, and its
	# MISMATCH shows what it left. A run of its file that came after
	# it was set aside, and did not run.
	for culprit, note in dirty_guests(args.io):
		got[culprit] = ('left-dirty', note)

	passed = skipped = 0
	bad = []
	for tid in sorted(set(got) | set(expected)):
		if tid not in got and not asked(tid):
			continue
		res, log = got.get(tid, ('did-not-run', None))
		want = expected.get(tid, 'unlisted')
		if res != want:
			bad.append((tid, res, want, log))
		elif res in ('pass', 'xfail'):
			passed += 1
		else:
			skipped += 1
		note = f' ({notes[tid]})' if tid in notes else ''
		print(f'  {res:<12} {tid}{note}')

	for tid, res, want, log in bad:
		print(f'\nMISMATCH {tid}: got {res}, expected {want}')
		if log and res not in ('pass', 'xfail'):
			print(tail(log))
	failed = len(bad) + len(errors)
	print(f'tests: {passed} passed, {failed} failed, {skipped} skipped')
	return 1 if failed else 0


if __name__ == '__main__':
	sys.exit(main())
