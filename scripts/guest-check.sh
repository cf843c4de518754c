#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the guest (see run.sh): ftracetest over the given tests, with
# every per-test log kept in /run/io/ftrace for scripts/results.py, then,
# on a kmemleak kernel, a final leak scan into /run/io/kmemleak.
#
#   guest-check.sh FTRACE_SELFTEST_DIR TEST...

ftdir=$1
shift
cd "$ftdir" || exit 2
./ftracetest -K -k -l /run/io/ftrace "$@"
rc=$?

leaks=/sys/kernel/debug/kmemleak
if [ -e $leaks ]; then
	# Two scans: an object must look unreferenced twice to be reported.
	echo scan >$leaks
	sleep 6
	echo scan >$leaks
	cat $leaks >/run/io/kmemleak
fi
exit $rc
