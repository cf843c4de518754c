#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench-hist: runs inside the guest (scripts/bench-hist.sh boots it).
#
#   guest-bench-hist.sh LOOP [REPS [KSRC KBUILD]]
#
# (LOOP's directory also holds hist-bigread, scripts/hist-bigread.c.)
#
# Times LOOP (scripts/getppid-loop.c: getppid() in a loop, ns per call)
# under each hist-trigger scenario, REPS times (default 3), pinned to the
# last CPU, and prints one line per scenario:
#
#   bench-hist: ID BASE MIN MAX CALLS HITS
#
# MIN and MAX are the least and the most ns per call over the REPS runs;
# BASE is the scenario to subtract to get the hist work (the same event
# with its hist trigger paused), "-" for none; HITS is the hist's "Hits:"
# total after the runs ("-" without a trigger): every call, warm-up
# included, or none if the trigger is paused; if not, a line
# "bench-hist: ID warning: ..." says so. A scenario that cannot be set up
# prints "bench-hist: ID failed: WHY". Without hist triggers in the kernel
# only the scenario without a trigger runs, then "bench-hist: no-hist".
#
# The scenarios, on syscalls/sys_enter_getppid (fields: __syscall_nr and
# the common ones):
#   none         no trigger: the system call alone
#   paused       hist:keys=common_pid:pause, the trigger machinery and the
#                event record, without the hist work (not ours)
#   key1         hist:keys=common_pid
#   key1val1     hist:keys=common_pid:vals=__syscall_nr
#   key2         hist:keys=common_pid,__syscall_nr
#   stacktrace   hist:keys=common_stacktrace
#   lat-paused   the latency pipeline below, its three triggers paused
#   latency      the latency pipeline: on sys_enter_getppid
#                hist:keys=common_pid:ts0=common_timestamp, on
#                sys_exit_getppid lat=common_timestamp-$ts0 traced by
#                onmatch() to a synthetic event bench_lat, keyed there
#                by lat.log2 (HITS: the synthetic event's hist)
#   lat-vars     of that pipeline, the two variables only (no action)
#   lat-key      the same histogram without the synthetic event: the two
#                variables, and on sys_exit_getppid hist:keys=$lat.log2,
#                keyed by the variable set in the same hit (ours only)
#   lat-key-paused  those three triggers paused
#   lat-emit     the two variables and the action, with no trigger on
#                bench_lat (so nothing is written)
# and, where the kernel has them (ours), the aggregations:
#   key1max      hist:keys=common_pid:vals=__syscall_nr.max
#   key1avg      hist:keys=common_pid:vals=__syscall_nr.avg
#   key1stddev   hist:keys=common_pid:vals=__syscall_nr.stddev
#   key1p99      hist:keys=common_pid:vals=__syscall_nr.p99
#   key1loglin   hist:keys=common_pid.loglin=4
# (a kernel without them prints "bench-hist: aggregations: none")
# and, since a syscall event has no string field to key on in 6.12
# (common_comm is no hist field there; .execname only changes how
# common_pid is printed), on a kprobe event of the same call,
# hist_bench/getppid: __x64_sys_getppid with comm=$comm, a string field
# (__data_loc char[]):
#   kp-paused    hist:keys=comm:pause
#   string       hist:keys=comm
# and the time to read a big histogram, once the rest is done:
#   hist-read    hist:keys=offset:vals=fd,whence:size=131072 on
#                syscalls/sys_enter_lseek, filled with 131072 keys by
#                hist-bigread (filtered on its comm), then read whole
#                REPS times by hist-bigread as cat would (128 KiB reads):
#                "bench-hist: hist-read - MIN MAX ENTRIES BYTES", MIN and
#                MAX the ns of one whole read
# and the time it takes to remove hist triggers (wall clock in the guest:
# removal mostly waits, for the hits in flight to end):
#   rm-each      hist:keys=common_pid on each of 200 syscall events, then
#                removed with "echo > trigger" on each, as a script does:
#                "bench-hist: rm-each - MIN MAX EVENTS -", MIN and MAX the
#                ns of the whole loop of removals
#   rm-rmdir     the same 200 triggers in an instance, removed with its
#                rmdir: "bench-hist: rm-rmdir - MIN MAX EVENTS EMPTY",
#                EMPTY the least ns of the rmdir of the same instance
#                without triggers
# and, where bpftrace is installed and the kernel runs its programs (the
# bench kernels: BPF and no BTF, so bpftrace reads the kernel's headers
# from KSRC and KBUILD), the same answers from bpftrace, measured
# against no tracing at all (base "none"):
#   bpf-count    tracepoint:syscalls:sys_enter_getppid { @[pid] = count(); }
#                (HITS: the sum of the counts)
#   bpf-latency  @start[tid] = nsecs at the enter tracepoint, at the exit
#                @lat = hist(nsecs - @start[tid]) and the start deleted,
#                as onmatch() consumes $ts0 (HITS: the sum of the buckets)

loop=${1:?usage: guest-bench-hist.sh LOOP [REPS]}
reps=${2:-3}
ksrc=${3:-}
kbuild=${4:-}
warmup=10000
T=/sys/kernel/tracing
SYS=events/syscalls/sys_enter_getppid
KP=events/hist_bench/getppid
cd $T || exit 1
cpu=$(($(nproc) - 1))
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
echo "bench-hist: kernel $(uname -r), clocksource $cs, loop on CPU $cpu"

# runs ID CALLS: time the loop REPS times; the ns per call in $vals, or
# nothing if the loop failed
runs() {
	vals=""
	i=0
	while [ $i -lt "$reps" ]; do
		if ! v=$(taskset -c $cpu "$loop" "$2" $warmup); then
			echo "bench-hist: $1 failed: $loop exited with an error"
			vals=""
			return
		fi
		vals="$vals $v"
		i=$((i + 1))
	done
}

# report ID BASE CALLS HITS: the line of a scenario, from $vals
report() {
	[ -n "$vals" ] || return
	echo "$vals" | awk -v id="$1" -v base="$2" -v n="$3" -v hits="${4:--}" '{
		min = max = $1
		for (i = 2; i <= NF; i++) {
			if ($i < min)
				min = $i
			if ($i > max)
				max = $i
		}
		printf "bench-hist: %s %s %.1f %.1f %d %s\n", id, base, min, max, n, hits
	}'
}

# check_hits ID HITS WANT: say so if a hist did not count what it should
check_hits() {
	[ -z "$vals" ] || [ "$2" = "$3" ] ||
		echo "bench-hist: $1 warning: the hist counted ${2:-no} hits, $3 expected"
}

# measure ID BASE EVENT TRIGGER CALLS
measure() {
	id=$1 base=$2 ev=$3 trig=$4 calls=$5
	if [ -n "$trig" ] && ! echo "$trig" >"$ev/trigger" 2>/dev/null; then
		echo "bench-hist: $id failed: '$trig' refused: $(tail -n 3 error_log | tr -s '\n\t' '  ')"
		return
	fi
	runs "$id" "$calls"
	hits=-
	if [ -n "$trig" ]; then
		hits=$(sed -n 's/^ *Hits: *//p' "$ev/hist")
		case $trig in
		*:pause) want=0 ;;
		*) want=$((reps * (calls + warmup))) ;;
		esac
		check_hits "$id" "$hits" "$want"
		echo "!$trig" >>"$ev/trigger"
		if grep -q '^hist' "$ev/trigger"; then
			echo "bench-hist: $id failed: '!$trig' left the trigger in place"
			return
		fi
	fi
	report "$id" "$base" "$calls" "$hits"
}

# The latency pipeline of histogram.rst, per getppid() call: the enter
# event saves a timestamp per pid, the exit event computes the latency
# and traces it to a synthetic event, whose hist keys it by log2.
LAT_ENTER='hist:keys=common_pid:ts0=common_timestamp'
LAT_EXIT='hist:keys=common_pid:lat=common_timestamp-$ts0:onmatch(syscalls.sys_enter_getppid).trace(bench_lat,$lat)'
LAT_HIST='hist:keys=lat.log2'
LAT_VARS='hist:keys=common_pid:lat=common_timestamp-$ts0'
EXIT=events/syscalls/sys_exit_getppid
SYN=events/synthetic/bench_lat

# The same histogram keyed by $lat on the exit event itself.
LAT_KEY='hist:keys=$lat.log2'

# measure_latency ID BASE PAUSE CALLS [PARTS]: PAUSE is ":pause" for the
# base. PARTS (default "vars emit hist") says how much of the pipeline
# to set up: "vars" the two triggers without the action, "vars emit"
# with onmatch().trace() to bench_lat but no trigger there (nothing
# listens: the event is not written), all three the whole pipeline;
# "vars key" the two triggers and LAT_KEY, no synthetic event.
measure_latency() {
	id=$1 base=$2 pause=$3 calls=$4 parts=${5:-vars emit hist}
	exit_trig=$LAT_EXIT
	hist_ev=$SYN
	case $parts in
	*emit*) ;;
	*) exit_trig=$LAT_VARS hist_ev=$EXIT ;;
	esac
	case $parts in
	*hist*) ;;
	*emit*) hist_ev=$EXIT ;;
	esac
	if ! echo 'bench_lat u64 lat' >>synthetic_events ||
	   { [ "$hist_ev" = $SYN ] && ! echo "$LAT_HIST$pause" >"$SYN/trigger"; } ||
	   ! echo "$LAT_ENTER$pause" >"$SYS/trigger" ||
	   ! echo "$exit_trig$pause" >"$EXIT/trigger" ||
	   { [ "$parts" = "vars key" ] &&
	     ! echo "$LAT_KEY$pause" >>"$EXIT/trigger"; }; then
		echo "bench-hist: $id failed: refused: $(tail -n 3 error_log | tr -s '\n\t' '  ')"
	else
		runs "$id" "$calls"
		# the table of the trigger made last
		hits=$(sed -n 's/^ *Hits: *//p' "$hist_ev/hist" | tail -n 1)
		want=$((reps * (calls + warmup)))
		[ -n "$pause" ] && want=0
		check_hits "$id" "$hits" "$want"
		report "$id" "$base" "$calls" "$hits"
	fi
	echo "!$LAT_KEY" >>"$EXIT/trigger" 2>/dev/null
	echo "!$exit_trig" >>"$EXIT/trigger" 2>/dev/null
	echo "!$LAT_ENTER" >>"$SYS/trigger" 2>/dev/null
	echo "!$LAT_HIST" >>"$SYN/trigger" 2>/dev/null
	echo '!bench_lat u64 lat' >>synthetic_events 2>/dev/null
	if grep -q '^hist' "$SYS/trigger" "$EXIT/trigger" ||
	   grep -q bench_lat synthetic_events; then
		echo "bench-hist: $id failed: its triggers or event were left in place"
	fi
}

# measure_bpf ID PROGRAM CALLS: the loop while bpftrace runs PROGRAM.
# bpftrace says "Attaching N probes..." before it attaches: give it two
# seconds more, and check the hits it counted afterwards.
measure_bpf() {
	id=$1 prog=$2 calls=$3
	out=/tmp/bench-$id.out
	BPFTRACE_KERNEL_SOURCE=$ksrc BPFTRACE_KERNEL_BUILD=$kbuild \
		bpftrace -e "$prog" >$out 2>&1 &
	bpf=$!
	i=0
	while ! grep -q '^Attaching' $out && kill -0 $bpf 2>/dev/null &&
	      [ $i -lt 300 ]; do
		sleep 1
		i=$((i + 1))
	done
	if ! kill -0 $bpf 2>/dev/null || ! grep -q '^Attaching' $out; then
		kill -KILL $bpf 2>/dev/null
		wait $bpf
		echo "bench-hist: $id failed: bpftrace: $(tr -s '\n\t' '  ' <$out | cut -c1-300)"
		return
	fi
	sleep 2
	runs "$id" "$calls"
	kill -INT $bpf
	wait $bpf
	# @[pid]: N lines of a count, "[lo, hi)  N |@@@|" lines of a hist
	hits=$(awk '/^@\[/ { n += $2 } /^\[/ { sub(/^[^)]*\) */, ""); n += $1 }
		    END { print n + 0 }' $out)
	check_hits "$id" "$hits" $((reps * (calls + warmup)))
	report "$id" none "$calls" "$hits"
}

# measure_read: a hist of 131072 entries, 1 key and 2 values, read whole
measure_read() {
	trig='hist:keys=offset:vals=fd,whence:size=131072'
	filt='if comm == "hist-bigread"'
	tool=$(dirname "$loop")/hist-bigread
	lseek=events/syscalls/sys_enter_lseek
	if ! echo "$trig $filt" >$lseek/trigger; then
		echo "bench-hist: hist-read failed: refused: $(tail -n 3 error_log | tr -s '\n\t' '  ')"
		return
	fi
	$tool fill 131072
	entries=$(sed -n 's/^ *Entries: *//p' $lseek/hist)
	[ "$entries" = 131072 ] ||
		echo "bench-hist: hist-read warning: $entries entries, 131072 expected"
	vals=""
	i=0
	while [ $i -lt "$reps" ]; do
		vals="$vals $($tool read $lseek/hist)"
		i=$((i + 1))
	done
	echo "!$trig" >>$lseek/trigger
	echo "$vals" | awk -v n="$entries" '{
		min = max = $1
		for (i = 3; i <= NF; i += 2) {
			if ($i < min)
				min = $i
			if ($i > max)
				max = $i
		}
		printf "bench-hist: hist-read - %.0f %.0f %s %s\n", min, max, n, $2
	}'
}

# measure_removal: see rm-each and rm-rmdir above
measure_removal() {
	trig='hist:keys=common_pid'
	evs=$(ls -d events/syscalls/sys_enter_* | head -n 200)
	n=$(echo "$evs" | wc -l)
	each="" rmdirs="" empty=""
	i=0
	while [ $i -lt "$reps" ]; do
		for e in $evs; do
			if ! echo "$trig" >"$e/trigger"; then
				echo "bench-hist: rm-each failed: refused on $e"
				return
			fi
		done
		t0=$(date +%s%N)
		# the newline is refused (no command), after the open removed all
		for e in $evs; do echo >"$e/trigger" 2>/dev/null; done
		t1=$(date +%s%N)
		each="$each $((t1 - t0))"
		mkdir instances/bench_rm
		t0=$(date +%s%N)
		rmdir instances/bench_rm
		t1=$(date +%s%N)
		empty="$empty $((t1 - t0))"
		mkdir instances/bench_rm
		for e in $evs; do
			if ! echo "$trig" >"instances/bench_rm/$e/trigger"; then
				echo "bench-hist: rm-rmdir failed: refused on $e"
				rmdir instances/bench_rm
				return
			fi
		done
		t0=$(date +%s%N)
		rmdir instances/bench_rm
		t1=$(date +%s%N)
		rmdirs="$rmdirs $((t1 - t0))"
		i=$((i + 1))
	done
	if grep -q '^hist' $(echo "$evs" | sed 's|$|/trigger|'); then
		echo "bench-hist: rm-each failed: triggers were left in place"
		return
	fi
	for id in rm-each rm-rmdir; do
		case $id in
		rm-each) v=$each x=- ;;
		*) v=$rmdirs x=$(echo $empty | tr ' ' '\n' | sort -n | head -n 1) ;;
		esac
		echo "$v" | awk -v id=$id -v n="$n" -v x="$x" '{
			min = max = $1
			for (i = 2; i <= NF; i++) {
				if ($i < min)
					min = $i
				if ($i > max)
					max = $i
			}
			printf "bench-hist: %s - %.0f %.0f %d %s\n", id, min, max, n, x
		}'
	done
}

measure none - $SYS "" 200000
# the sysctl is there when the kernel has the bpf() system call
if command -v bpftrace >/dev/null &&
   [ -e /proc/sys/kernel/unprivileged_bpf_disabled ]; then
	measure_bpf bpf-count \
		'tracepoint:syscalls:sys_enter_getppid { @[pid] = count(); }' 200000
	measure_bpf bpf-latency \
		'tracepoint:syscalls:sys_enter_getppid { @start[tid] = nsecs; }
		 tracepoint:syscalls:sys_exit_getppid /@start[tid]/ {
			@lat = hist(nsecs - @start[tid]); delete(@start[tid]); }' 100000
else
	echo "bench-hist: bpftrace: none"
fi
if [ ! -e $SYS/hist ]; then
	echo "bench-hist: no-hist"
	exit 0
fi
measure paused none $SYS 'hist:keys=common_pid:pause' 200000
measure key1 paused $SYS 'hist:keys=common_pid' 200000
measure key1val1 paused $SYS 'hist:keys=common_pid:vals=__syscall_nr' 200000
measure key2 paused $SYS 'hist:keys=common_pid,__syscall_nr' 200000
# About 11,000 instructions a call upstream (the stack walk): fewer calls.
measure stacktrace paused $SYS 'hist:keys=common_stacktrace' 20000
measure_latency lat-paused none :pause 100000
measure_latency lat-vars lat-paused "" 100000 vars
measure_latency lat-emit lat-paused "" 100000 "vars emit"
measure_latency latency lat-paused "" 100000
if grep -q 'Variable keys' README; then
	measure_latency lat-key-paused none :pause 100000 "vars key"
	measure_latency lat-key lat-key-paused "" 100000 "vars key"
else
	echo "bench-hist: variable keys: none"
fi
if echo 'hist:keys=common_pid:vals=__syscall_nr.max:pause' >$SYS/trigger 2>/dev/null; then
	echo '!hist:keys=common_pid:vals=__syscall_nr.max' >>$SYS/trigger
	for agg in max avg stddev p99; do
		measure key1$agg paused $SYS "hist:keys=common_pid:vals=__syscall_nr.$agg" 200000
	done
	measure key1loglin paused $SYS 'hist:keys=common_pid.loglin=4' 200000
else
	echo "bench-hist: aggregations: none"
fi

measure_removal

# shellcheck disable=SC2016 # $comm is the kprobe's, not the shell's
if ! echo 'p:hist_bench/getppid __x64_sys_getppid comm=$comm' >>kprobe_events; then
	echo "bench-hist: kp-paused failed: kprobe on __x64_sys_getppid refused"
	echo "bench-hist: string failed: kprobe on __x64_sys_getppid refused"
	exit 0
fi
measure_read
measure kp-paused none $KP 'hist:keys=comm:pause' 50000
measure string kp-paused $KP 'hist:keys=comm' 50000
echo '-:hist_bench/getppid' >>kprobe_events
