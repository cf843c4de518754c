#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the guest (see run.sh): ftracetest over the given tests, with
# every per-test log kept in /run/io/ftrace for scripts/results.py
# (guest-init.sh then scans for leaks on a kmemleak kernel), and in
# /run/io/ftrace/left-behind what ftracetest's last reset could not
# remove (see left_behind below).
#
# ftracetest traces every shell command of a test into its log, one write
# per line, and /run/io is 9p: each write a round trip to QEMU on the
# host, which with every host core running a guest waits for a core. So
# the logs are written to the guest's tmpfs and copied out every half
# minute, and at the end; a guest that dies loses at most the last half
# minute of them, and its console log has the KTAP line of every test
# that ended.
#
#   guest-check.sh [-b] [-n] [-c ID]... [-B BINDIR] FTRACE_SELFTEST_DIR [TEST...]
#
# -n: no :instance reruns (ftracetest --no-instance).
#
# -c ID: run the test ID, client:NAME or drive:NAME (guest-clients.sh,
# with the programs the harness built in BINDIR) before ftracetest, which
# then starts from what the test left: nothing, or what its reset removes.
#
# -b: the guest was booted with "bootconfig": first run
# guest-boot-synth.sh, before ftracetest removes the dynamic events it
# checks, and keep its result in /run/io/boot/synthetic-events, laid out
# as run.sh lays out a guest of its own (cmd, output, status). This saves
# the check a boot, which with the debug kernel costs a minute.

boot_synth=0 opts=
clients='' bindir=''
while :; do
	case $1 in
	-b) boot_synth=1 ;;
	-n) opts=--no-instance ;;
	-c) clients="$clients $2" && shift ;;
	-B) bindir=$2 && shift ;;
	*) break ;;
	esac
	shift
done
ftdir=$1
shift
if [ $boot_synth = 1 ]; then
	b=/run/io/boot/synthetic-events
	mkdir -p $b
	echo "$(dirname "$0")/guest-boot-synth.sh" >$b/cmd
	"$(dirname "$0")/guest-boot-synth.sh" >$b/output 2>&1
	echo $? >$b/status
	cat $b/output
fi
if [ -n "$clients" ]; then
	# shellcheck disable=SC2086 # one word each
	"$(dirname "$0")/guest-clients.sh" "$bindir" $clients
fi
[ $# -gt 0 ] || exit 0 # ftracetest without a test runs them all
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
# What ftracetest's last reset (finish_ftrace) could not remove: dynamic
# events, instances, and the triggers of the events set_event lists (the
# only ones that can hold one: see reset_trigger in test.d/functions),
# at the top and in each instance. Nothing, when every test cleaned up.
# When a test left a mess that failed the reset of the tests after it,
# check.sh names it with this (results.py --dirty).
left_behind() {
	t=/sys/kernel/tracing
	if [ -r $t/dynamic_events ]; then
		while IFS= read -r line; do
			case $line in \#* | '') ;; *) echo "dynamic_events: $line" ;; esac
		done <$t/dynamic_events
	fi
	for d in "$t" "$t"/instances/*; do
		[ -r "$d/set_event" ] || continue
		p=
		[ "$d" = $t ] || p=instances/${d##*/}/
		[ -z "$p" ] || echo "instance: ${d##*/}"
		while IFS= read -r ev; do
			while IFS= read -r line; do
				case $line in
				\#* | '') ;;
				*) echo "${p}events/${ev%%:*}/${ev#*:}/trigger: $line" ;;
				esac
			done <"$d/events/${ev%%:*}/${ev#*:}/trigger"
		done <"$d/set_event"
	done
}
# shellcheck disable=SC2086
./ftracetest -K -k -l "$logs" $opts "$@"
status=$?
left_behind >"$logs/left-behind" 2>&1
kill "$copier" 2>/dev/null
wait "$copier" 2>/dev/null
copy_logs
exit $status
