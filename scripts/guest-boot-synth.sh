#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside a guest of make check booted with "bootconfig" on the kernel
# command line (see run.sh -a), before anything else: checks what
# boot-time tracing (kernel/trace/trace_boot.c, through the synth_event_*
# API) made of scripts/config/boot-synth.bconf, which is embedded in the
# kernel. Every expectation below is written out by hand, so that a change
# on either side fails: the events exist with exactly the given fields (in
# synthetic_events, and in their format files, with a sound layout), the
# filter and the enables took, the kernel log has no error about them, and
# each can be removed with "!name" once disabled, not before. Exits 0 if
# everything holds, 1 otherwise, saying what differs (guest-init.sh then
# scans for leaks on a kmemleak kernel).

T=/sys/kernel/tracing
W=/run/boot-synth
mkdir -p $W
failed=0

bad() {
	echo "FAIL: $*"
	failed=1
}

# same WHAT FILE: FILE's content is exactly stdin.
same() {
	cat >$W/want
	if ! diff -u $W/want "$2" >$W/diff 2>&1; then
		bad "$1 differs (-expected +got):"
		cat $W/diff
	fi
}

# value FILE WANT: FILE's content is exactly the line WANT.
value() {
	got=$(cat "$1" 2>&1)
	[ "$got" = "$2" ] || bad "$1: expected '$2', got '$got'"
}

dmesg >$W/dmesg
grep -qw bootconfig /proc/cmdline || bad "no bootconfig on the kernel command line"
grep -q 'Load bootconfig: ' $W/dmesg || bad "the kernel loaded no bootconfig"
[ $failed = 0 ] || exit 1 # nothing else could hold
# The errors of trace_boot.c and the registration warnings of synthetic
# events (ours: "synthetic event(s)"; upstream's: the last three).
if grep -E 'Failed to (init|parse) bootconfig|Failed to (add synthetic event|find event|apply filter|apply an action|enable event node|get trace instance)|Synthetic event is not supported|synthetic events?[ :]|Failed to register synthetic event|Could not register synth_event_ops|synthetic_events. entry' \
	$W/dmesg >$W/errors; then
	bad "kernel log:"
	cat $W/errors
fi

same "synthetic_events" $T/synthetic_events <<'EOF'
boot_lat	u64 lat; pid_t pid; char[16] comm
boot_str	char[] name; s32 delta; unsigned long[] stack
EOF

# The format files: every field's type and name, in order, with its size
# and sign, and the print format. The record layout is the
# implementation's own (user space reads it from the format file), so the
# offsets are not compared, only checked: no field overlaps the one before
# it, a scalar is naturally aligned. Not compared either: the sign of an
# array and the size of a dynamic (__data_loc) field's slot, where ours
# differs from upstream (which says 1 and 8) without harm.
format() {
	awk -F'\t' '
		/^ID: / { next } # the order of registration
		/^\tfield:/ {
			off = $3; sub(/offset:/, "", off); off += 0
			size = $4; sub(/size:/, "", size); size += 0
			line = "\t" $2
			if ($2 !~ /__data_loc/)
				line = line "\t" $4
			if ($2 !~ /\[/)
				line = line "\t" $5
			print line
			if (off < end)
				print "overlaps the field before: " $2
			if ($2 !~ /\[/ && off % size)
				print "misaligned: " $2 " at " off
			end = off + size
			next
		}
		{ print }' "$T/events/synthetic/$1/format" >"$W/$1.format" 2>&1
	same "$1 format" "$W/$1.format"
}
format boot_lat <<'EOF'
name: boot_lat
format:
	field:unsigned short common_type;	size:2;	signed:0;
	field:unsigned char common_flags;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	size:1;	signed:0;
	field:int common_pid;	size:4;	signed:1;

	field:u64 lat;	size:8;	signed:0;
	field:pid_t pid;	size:4;	signed:1;
	field:char comm[];	size:16;

print fmt: "lat=%llu, pid=%d, comm=%s", REC->lat, REC->pid, REC->comm
EOF
format boot_str <<'EOF'
name: boot_str
format:
	field:unsigned short common_type;	size:2;	signed:0;
	field:unsigned char common_flags;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	size:1;	signed:0;
	field:int common_pid;	size:4;	signed:1;

	field:__data_loc char[] name;
	field:s32 delta;	size:4;	signed:1;
	field:__data_loc unsigned long[] stack;

print fmt: "name=%s, delta=%d, stack=%s", __get_str(name), REC->delta, __get_stacktrace(stack)
EOF

# .filter on boot_lat only; .enable: boot_lat in the top instance, boot_str
# only in instance "boot".
value $T/events/synthetic/boot_lat/filter 'lat > 1000 && comm ~ "kworker*"'
value $T/events/synthetic/boot_str/filter none
value $T/events/synthetic/boot_lat/enable 1
value $T/events/synthetic/boot_str/enable 0
value $T/instances/boot/events/synthetic/boot_lat/enable 0
value $T/instances/boot/events/synthetic/boot_str/enable 1
value $T/set_event synthetic:boot_lat
value $T/instances/boot/set_event synthetic:boot_str

# remove NAME ENABLE-FILE: "!NAME" is refused (EBUSY) while the event is
# enabled, accepted once ENABLE-FILE is 0; then the event is gone,
# directory and all. Here ENABLE-FILE is the only enable of NAME.
remove() {
	grep -q "^$1	" $T/synthetic_events || return # missing: said above
	# coreutils' echo, which says why a write failed
	if /bin/echo "!$1" >>$T/synthetic_events 2>$W/err; then
		bad "removing $1 while it is enabled succeeded"
	elif ! grep -q 'resource busy' $W/err; then
		bad "removing $1 while it is enabled: not EBUSY: $(cat $W/err)"
	fi
	grep -q "^$1	" $T/synthetic_events ||
		bad "$1 is gone after a refused removal"
	echo 0 >"$2" || bad "cannot disable $1"
	echo "!$1" >>$T/synthetic_events || bad "cannot remove $1 once disabled"
	! grep -q "^$1	" $T/synthetic_events || bad "$1 still listed after its removal"
	for d in $T/events/synthetic/$1 $T/instances/boot/events/synthetic/$1; do
		[ ! -e "$d" ] || bad "$d still exists after the removal of $1"
	done
}
remove boot_lat $T/events/synthetic/boot_lat/enable
remove boot_str $T/instances/boot/events/synthetic/boot_str/enable
same "synthetic_events after the removals" $T/synthetic_events </dev/null
# The instance the bootconfig made goes too: the guest may run ftracetest
# next (guest-check.sh -b).
rmdir $T/instances/boot || bad "cannot remove instance boot"

if [ $failed = 0 ]; then
	echo "boot:synthetic-events: ok"
else
	echo "boot:synthetic-events: failed"
fi
exit $failed
