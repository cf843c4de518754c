#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the guest (see guest-check.sh -c): the tests of real
# clients against the kernel's hist triggers and synthetic events, the
# host's own trace-cmd, libtracefs and cyclictest, each a test
# client:NAME of make check (scripts/clients/NAME.sh). Each keeps its
# result in /run/io/client/NAME, laid out as run.sh lays out a guest of
# its own (cmd, output, status), with the versions of the client it ran
# in "version", for scripts/results.py.
#
#   guest-clients.sh BINDIR NAME...
#
# BINDIR holds the programs the harness built on the host for them
# (build/clients: tracefs-client, for client:libtracefs).
#
# A test may not take more than TIMEOUT seconds; each removes what it
# made, so that the guest can go on with ftracetest.

TIMEOUT=300
bindir=$1
shift
dir=$(cd "$(dirname "$0")" && pwd)
status=0
for name in "$@"; do
	out=/run/io/client/$name
	mkdir -p "$out"
	case $name in
	libtracefs) prog=$bindir/tracefs-client ;;
	*) prog=$dir/clients/$name.sh ;;
	esac
	echo "$prog" >"$out/cmd"
	if [ -x "$prog" ]; then
		timeout -k 10 $TIMEOUT "$prog" >"$out/output" 2>&1
		rc=$?
		[ $rc != 124 ] || echo "client:$name: timed out after ${TIMEOUT}s" >>"$out/output"
	else
		echo "client:$name: no $prog (make check builds it)" >"$out/output"
		rc=2
	fi
	sed -n 's/^client: //p' "$out/output" | head -n 1 >"$out/version"
	echo $rc >"$out/status"
	[ $rc = 0 ] || status=1
	cat "$out/output"
done
exit $status
