#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the guest (see run.sh): ftracetest over the given tests, with
# every per-test log kept in /run/io/ftrace for scripts/results.py
# (guest-init.sh then scans for leaks on a kmemleak kernel).
#
# ftracetest traces every shell command of a test into its log, one write
# per line, and /run/io is 9p: each write a round trip to QEMU on the
# host, which with every host core running a guest waits for a core. So
# the logs are written to the guest's tmpfs and copied out every half
# minute, and at the end; a guest that dies loses at most the last half
# minute of them, and its console log has the KTAP line of every test
# that ended.
#
#   guest-check.sh FTRACE_SELFTEST_DIR TEST...

ftdir=$1
shift
cd "$ftdir" || exit 2
logs=/tmp/ftrace-logs
out=/run/io/ftrace
mkdir -p "$logs" "$out"
# Only the logs that changed since the last copy: -p keeps their times,
# and -u skips those whose copy is as new.
copy_logs() {
	cp -pu "$logs"/* "$out"/ 2>/dev/null
}
# The copier waits in a copy of sleep by another name: the tests filter
# their own events on comm "sleep", and a stray sleep of ours broke them.
cp /bin/sleep /tmp/ftlog-wait
(
	while /tmp/ftlog-wait 30; do
		copy_logs
	done
) &
copier=$!
./ftracetest -K -k -l "$logs" "$@"
status=$?
kill "$copier" 2>/dev/null
wait "$copier" 2>/dev/null
copy_logs
exit $status
