#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run the check target of every userspace harness of ours
# (tools/testing/<name>/Makefile, selftests aside) inside our kernel tree.
# Each harness ends its output with "N passed, N failed".
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/tree.sh" >/dev/null
rc=0
for mk in $(overlay_files | grep -E '^tools/testing/[^/]+/Makefile$' |
	    grep -v '^tools/testing/selftests/' || true); do
	dir=$(dirname "$mk")
	note "userspace: $dir"
	name=$(basename "$dir")
	out=$(make -C "$SRC_OURS/$dir" check 2>&1) || rc=1
	echo "$out" | tail -n 30 | sed -E "s/^([0-9]+ passed, [0-9]+ failed)/$name: \1/"
	if ! echo "$out" | grep -qE '^[0-9]+ passed, [0-9]+ failed'; then
		echo "$name: 0 passed, 1 failed (no result line)"
		rc=1
	fi
done
exit $rc
