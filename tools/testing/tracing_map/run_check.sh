#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run stress test binaries given as "binary:percent", count their PASS and
# FAIL lines.  A binary that exits non-zero without a FAIL line (crash,
# sanitizer report) counts as one more failure.

passed=0
failed=0
for spec in "$@"; do
	bin=${spec%%:*}
	pct=${spec#*:}
	echo "== $bin ($pct%)"
	out=$(./"$bin" "$pct" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed 's/^/   /'
	p=$(printf '%s\n' "$out" | grep -c '^PASS: ')
	f=$(printf '%s\n' "$out" | grep -c '^FAIL: ')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "   $bin exited with status $rc"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
