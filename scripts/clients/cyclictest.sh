#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Test client:cyclictest, run in the guest by guest-clients.sh: cyclictest
# (rt-tests), the latency test real-time users run, under the latency
# recipe of Documentation/trace/histogram.rst ("A latency between two
# writes to trace_marker"): two triggers keyed by common_pid take the
# start and the end of each piece of work, onmatch() traces a synthetic
# event with the latency, and a hist groups the latencies in buckets.
#
# cyclictest --tracemark writes to trace_marker only once, when a loop
# exceeds the -b latency (then it stops, and turns tracing off), so the
# start and the end of its loops are its timer thread's own system
# calls: each loop sleeps in clock_nanosleep() until the next period.
# - cyclic_lat: the time each sleep took (sys_enter_clock_nanosleep to
#   sys_exit_clock_nanosleep), keyed by common_pid and lat.buckets=1000.
#   The timer thread's rows must add up to exactly the loops cyclictest
#   says it ran (C:), one sleep each.
# - cyclic_mark: from the thread's last wake-up (sys_exit_clock_nanosleep)
#   to its --tracemark write, an ftrace/print event that a trigger picks
#   out by its text ("hit latency threshold ..."), keyed by common_pid.
#   It must fire exactly as often as cyclictest wrote the marker: never
#   in a run without -b, once, for the thread that broke, with -b 1 (the
#   first loop breaks, after one loop).
# cyclictest looks for tracefs in debugfs (/sys/kernel/debug/tracing);
# a kernel without debugfs gets one in a mount namespace of its own.

# shellcheck disable=SC2016 # the $ of the triggers' variable references
T=/sys/kernel/tracing
W=/tmp/client-cyclictest
LOOPS=200
rm -rf $W
mkdir -p $W
cd $T || exit 2
failed=0

bad() {
	echo "FAIL: $*"
	failed=1
}

ver=$(dpkg-query -W -f='${Version}' rt-tests 2>/dev/null)
echo "client: cyclictest $(cyclictest --help 2>&1 | sed -n 's/^cyclictest V *//p' | head -n 1), rt-tests ${ver%-*}"

enter=events/syscalls/sys_enter_clock_nanosleep/trigger
exit_=events/syscalls/sys_exit_clock_nanosleep/trigger
print=events/ftrace/print/trigger
t_enter='hist:keys=common_pid:ts0=common_timestamp.usecs if comm == "cyclictest"'
t_exit='hist:keys=common_pid:lat=common_timestamp.usecs-$ts0,tw=common_timestamp.usecs:onmatch(syscalls.sys_enter_clock_nanosleep).cyclic_lat($lat) if comm == "cyclictest"'
t_print='hist:keys=common_pid:mlat=common_timestamp.usecs-$tw:onmatch(syscalls.sys_exit_clock_nanosleep).cyclic_mark($mlat) if buf ~ "hit latency threshold*"'
t_lat='hist:keys=common_pid,lat.buckets=1000:sort=common_pid,lat'
t_mark='hist:keys=common_pid,lat:sort=common_pid'

setup() {
	echo 'cyclic_lat u64 lat' >>synthetic_events &&
		echo 'cyclic_mark u64 lat' >>synthetic_events &&
		echo "$t_enter" >>$enter &&
		echo "$t_exit" >>$exit_ &&
		echo "$t_print" >>$print &&
		echo "$t_lat" >>events/synthetic/cyclic_lat/trigger &&
		echo "$t_mark" >>events/synthetic/cyclic_mark/trigger
}

teardown() {
	echo "!$t_print" >>$print
	echo "!$t_mark" >>events/synthetic/cyclic_mark/trigger
	echo "!$t_exit" >>$exit_
	echo "!$t_lat" >>events/synthetic/cyclic_lat/trigger
	echo "!$t_enter" >>$enter
	echo '!cyclic_mark' >>synthetic_events
	echo '!cyclic_lat' >>synthetic_events
} 2>/dev/null

# cyclictest ARGS...: run it, where it finds tracefs, into $W/out.
cyclictest_run() {
	if [ -d /sys/kernel/debug/tracing ]; then
		cyclictest "$@"
	else
		# shellcheck disable=SC2016 # for the inner shell
		unshare -m sh -c 'mount -t tmpfs tmpfs /sys/kernel &&
			mkdir -p /sys/kernel/debug/tracing &&
			mount -t tracefs tracefs /sys/kernel/debug/tracing &&
			exec cyclictest "$@"' cyclictest "$@"
	fi >$W/out 2>&1
}

# sum HIST PID: the hits of the rows of HIST whose common_pid is PID.
sum() {
	awk -v pid="$2" '
		/^\{ common_pid: / {
			p = $3
			sub(/,$/, "", p)
			if (p == pid)
				n += $NF
		}
		END { print n + 0 }' "$1"
}

# run NAME MARKS ARGS...: a run of cyclictest with ARGS, which must write
# MARKS markers; its hists are kept as $W/NAME.lat and $W/NAME.mark.
run() {
	name=$1 marks=$2
	shift 2
	if ! cyclictest_run "$@"; then
		bad "$name: cyclictest $* failed: $(cat $W/out)"
		return
	fi
	cat $W/out
	echo 1 >tracing_on # the --tracemark run turned it off
	cp events/synthetic/cyclic_lat/hist "$W/$name.lat"
	cp events/synthetic/cyclic_mark/hist "$W/$name.mark"
	# the timer thread: "T: 0 ( TID) P: 0 I:1000 C:    200 Min: ..."
	# shellcheck disable=SC2046 # two words
	set -- $(sed -n 's/^T: *0 *( *\([0-9]*\)) .* C: *\([0-9]*\) .*/\1 \2/p' $W/out)
	tid=${1:-} loops=${2:-}
	if [ -z "$tid" ] || [ -z "$loops" ]; then
		bad "$name: no thread line in cyclictest's output"
		return
	fi
	got=$(sum "$W/$name.lat" "$tid")
	if [ "$got" != "$loops" ] || [ "$loops" = 0 ]; then
		bad "$name: the timer thread $tid ran $loops loops, its rows of cyclic_lat count $got sleeps:"
		cat "$W/$name.lat"
	else
		echo "$name: the timer thread $tid ran $loops loops; cyclic_lat: $got sleeps"
	fi
	hits=$(sed -n 's/^ *Hits: *//p' "$W/$name.mark")
	if [ "$marks" = 0 ]; then
		[ "$hits" = 0 ] || bad "$name: cyclic_mark fired $hits times, without a marker"
	else
		breaker=$(sed -n 's/^# Break thread: *//p' $W/out)
		got=$(sum "$W/$name.mark" "$breaker")
		if [ "$hits" != "$marks" ] || [ "$got" != "$marks" ] ||
		   [ "$loops" != 1 ]; then
			bad "$name: $loops loops, $marks marker by thread '$breaker'; cyclic_mark fired $hits times, $got for that thread:"
			cat "$W/$name.mark"
		else
			echo "$name: the marker of thread $breaker: cyclic_mark fired $hits time"
		fi
	fi
	echo "$name: cyclic_lat:"
	grep '^{' "$W/$name.lat"
}

if setup; then
	run plain 0 -q -l $LOOPS -i 1000
	# the hists start again from zero
	teardown
	if setup; then
		run tracemark 1 -q -l $LOOPS -i 1000 --tracemark -b 1
	else
		bad "the triggers refused, again: $(tail -n 3 error_log)"
	fi
else
	bad "the triggers refused: $(tail -n 3 error_log)"
fi
teardown
echo 1 >tracing_on
grep -v '^#' $enter $exit_ $print >$W/left
grep '^cyclic_' synthetic_events >>$W/left
[ ! -s $W/left ] || bad "left behind: $(cat $W/left)"

if [ $failed = 0 ]; then
	echo "client:cyclictest: ok"
else
	echo "client:cyclictest: failed"
fi
exit $failed
