#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the guest (see run.sh): ftracetest over the given tests, with
# every per-test log kept in /run/io/ftrace for scripts/results.py
# (guest-init.sh then scans for leaks on a kmemleak kernel).
#
#   guest-check.sh FTRACE_SELFTEST_DIR TEST...

ftdir=$1
shift
cd "$ftdir" || exit 2
exec ./ftracetest -K -k -l /run/io/ftrace "$@"
