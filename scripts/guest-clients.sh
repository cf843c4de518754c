#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the guest (see guest-check.sh -c): the tests that are a
# program of their own rather than a .tc file, each kept in
# /run/io/KIND/NAME, laid out as run.sh lays out a guest of its own (cmd,
# output, status), for scripts/results.py:
#
#  - client:NAME, the tests of real clients against the kernel's hist
#    triggers and synthetic events: the host's own trace-cmd, libtracefs
#    and cyclictest (scripts/clients/NAME.sh, or for libtracefs a program
#    of ours built against it), with the versions of the client it ran
#    in "version";
#  - drive:volume and drive:faults, scripts/hist-drive.c's volume run
#    and allocation-failure sweep, for the debug kernel. DRIVE_N (default
#    10000 triggers) and DRIVE_SEED (default 1) reach the volume run from
#    the kernel's command line.
#
#   guest-clients.sh BINDIR ID...
#
# BINDIR holds the programs the harness built on the host for them
# (build/clients: tracefs-client, hist-drive).
#
# A test may not take more than TIMEOUT seconds (a drive test, DRIVE_TIMEOUT);
# each removes what it made, so that the guest can go on with ftracetest.

TIMEOUT=300
DRIVE_TIMEOUT=1200
bindir=$1
shift
dir=$(cd "$(dirname "$0")" && pwd)
status=0
for id in "$@"; do
	kind=${id%%:*} name=${id#*:}
	out=/run/io/$kind/$name
	mkdir -p "$out"
	limit=$TIMEOUT args=
	case $id in
	client:libtracefs) prog=$bindir/tracefs-client ;;
	client:*) prog=$dir/clients/$name.sh ;;
	drive:volume)
		prog=$bindir/hist-drive limit=$DRIVE_TIMEOUT
		args="volume $dir/hist-drive.corpus ${DRIVE_N:-10000} ${DRIVE_SEED:-1}" ;;
	drive:faults)
		prog=$bindir/hist-drive limit=$DRIVE_TIMEOUT
		args="faults $dir/hist-drive.corpus" ;;
	*) prog=/nonexistent/$id ;;
	esac
	echo "$prog $args" >"$out/cmd"
	if [ -x "$prog" ]; then
		# shellcheck disable=SC2086 # args: words
		timeout -k 10 "$limit" "$prog" $args >"$out/output" 2>&1
		rc=$?
		[ $rc != 124 ] || echo "$id: timed out after ${limit}s" >>"$out/output"
	else
		echo "$id: no $prog (make check builds it)" >"$out/output"
		rc=2
	fi
	[ "$kind" != client ] ||
		sed -n 's/^client: //p' "$out/output" | head -n 1 >"$out/version"
	echo $rc >"$out/status"
	[ $rc = 0 ] || status=1
	cat "$out/output"
done
exit $status
