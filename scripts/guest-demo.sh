#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make run: runs inside the guest. Shows a histogram made by the kernel's
# hist triggers: system calls counted by name, then a wakeup latency
# histogram built through a synthetic event, and the same one keyed by
# the latency variable itself, with its percentiles. Where the kernel has no hist
# triggers yet, it shows tracefs working and says what is missing.

T=/sys/kernel/tracing
cd $T || exit 1
echo "kernel: $(uname -r), $(nproc) CPUs; tracefs at $T"

workload() {
	for i in 1 2 3; do
		ping -c 2 -i 0.2 -q 127.0.0.1 >/dev/null
		ls -l /usr/bin >/dev/null
		sleep 0.1
	done
}

if [ ! -e events/raw_syscalls/sys_enter/hist ]; then
	echo "hist triggers: not built in this kernel yet (CONFIG_HIST_TRIGGERS=n)"
	if [ -e synthetic_events ]; then
		echo
		echo "### a synthetic event: defined, listed, its format, removed"
		echo 'wakeup_latency u64 lat; pid_t pid; char comm[16]' >synthetic_events
		cat synthetic_events
		sed -n '/^format:/,$p' events/synthetic/wakeup_latency/format
		echo '!wakeup_latency' >>synthetic_events
		echo
	else
		echo "synthetic events: not built in this kernel yet"
	fi
	echo "meanwhile, tracefs and trace events work: sched_process_exec records"
	echo 1 >events/sched/sched_process_exec/enable
	workload
	echo 0 >events/sched/sched_process_exec/enable
	grep -m 8 sched_process_exec trace
	exit 0
fi

echo
# The ten most frequent calls, where the kernel has top= (upstream has
# not, and would take "top=10" for a variable): there, all of them.
trig='hist:keys=id.syscall:vals=hitcount:sort=hitcount.descending:size=256'
if grep -qF '[:top=#entries]' README; then
	trig="$trig:top=10"
fi
echo "$trig" >events/raw_syscalls/sys_enter/trigger
echo "### system calls by name: $trig"
workload
cat events/raw_syscalls/sys_enter/hist
echo "!$trig" >events/raw_syscalls/sys_enter/trigger

if [ ! -e synthetic_events ]; then
	echo "synthetic events: not built in this kernel yet"
	exit 0
fi
echo
echo "### wakeup latency (usecs) through the synthetic event wakeup_latency"
echo 'wakeup_latency u64 lat; pid_t pid' >synthetic_events
echo 'hist:keys=pid:ts0=common_timestamp.usecs' >events/sched/sched_waking/trigger
echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid) if next_comm=="ping"' \
	>events/sched/sched_switch/trigger
echo 'hist:keys=lat.log2:sort=lat' >events/synthetic/wakeup_latency/trigger
# The same histogram with no synthetic event, where the kernel has
# variable keys (upstream has not): keyed by the variable the trigger
# above sets, on its own event, with the median and the 99th percentile.
key='hist:keys=$wakeup_lat.log2:vals=hitcount,$wakeup_lat.p50,$wakeup_lat.p99:sort=$wakeup_lat.log2'
grep -q 'Variable keys' README || key=
[ -z "$key" ] || echo "$key" >>events/sched/sched_switch/trigger
workload
cat events/synthetic/wakeup_latency/hist
if [ -n "$key" ]; then
	echo
	echo "### the same latency keyed by \$wakeup_lat on sched_switch itself: no synthetic event"
	sed -n '/keys=\$wakeup_lat/,$p' events/sched/sched_switch/hist
	echo "!$key" >>events/sched/sched_switch/trigger
fi
echo '!hist:keys=lat.log2:sort=lat' >events/synthetic/wakeup_latency/trigger
echo '!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid) if next_comm=="ping"' \
	>events/sched/sched_switch/trigger
echo '!hist:keys=pid:ts0=common_timestamp.usecs' >events/sched/sched_waking/trigger
echo '!wakeup_latency' >>synthetic_events
