#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Test client:trace-cmd, run in the guest by guest-clients.sh: trace-cmd
# (with libtraceevent, the parser perf and every trace-cmd user shares)
# reads synthetic events of every field type from a trace.dat, through
# their format files, and must print each value right. The record layout
# is the implementation's own (packed, data_loc words for the tail), so
# this is what proves the format files to a real parser.
#
# The values are known: a kprobe event on prctl() (x86_64: the pt_regs
# offsets below) reads them, one field of each type, from a buffer the
# feeder (perl, under a name of 15 characters) passes with a magic option
# number that prctl() refuses. A hist trigger on the kprobe event keeps
# them in variables, with the kernel stack, and when the feeder exits,
# onmatch() on sched_process_exit traces two synthetic events: client_all,
# with every type (fixed and dynamic strings and a stack included) and
# client_num, the same without the stack. The fixed string is the
# feeder's comm, a char[16] field of sched_process_exit (upstream fills
# a char[N] synthetic field only from a string field of N bytes).
#
# trace-cmd extract writes the trace to the guest's /tmp, and these must
# hold, in trace-cmd report and report -R alike:
# - client_all: libtraceevent 1.7 cannot parse its print fmt (it knows
#   no __get_stacktrace()), so it prints each field from the format file
#   alone, by offset, size and sign: exactly the known values;
# - client_num: printed through the conversions of its print fmt, the
#   known values too, but for the s8 and s16 ones, which a "%d" of
#   libtraceevent 1.7 does not sign-extend whatever the event: they must
#   come out as the kprobe event's fields of the same names do (the
#   kprobe's format is the kernel's own), which carry the same values;
# - the stack of client_all: its entry count and each entry, as
#   trace-cmd reads them, are the frames the kernel's own trace file
#   prints (symbol+offset, through /proc/kallsyms), and they are the
#   feeder's: prctl() called from do_syscall_64().
# Then everything made here is removed, and nothing may be left.

T=/sys/kernel/tracing
W=/tmp/client-trace-cmd
rm -rf $W
mkdir -p $W
cd $T || exit 2
failed=0
: >trace

bad() {
	echo "FAIL: $*"
	echo "$*" | head -n 1 >>$W/failures
	failed=1
}

# The versions: trace-cmd's own, and the libtraceevent it runs with
ver=$(dpkg-query -W -f='${Version}' libtraceevent1 2>/dev/null)
ver=${ver#*:}
echo "client: $(trace-cmd --version 2>&1 | sed -n 's/^trace-cmd version \([^ ]*\).*/trace-cmd \1/p'), libtraceevent ${ver%-*}"

[ "$(uname -m)" = x86_64 ] || { echo "FAIL: the kprobe reads x86_64 pt_regs"; exit 1; }

# The known values, one per field, and their bytes: the buffer's layout
# (offsets 0, 1, 2, 4, then 8 after two bytes of padding, 12, 16, 24,
# 32, 36, 40 and 48) is the kprobe's, below. Each value has its top bit
# set or is negative, and its bytes differ, so that a wrong size, sign
# or offset shows.
U8=254 S8=-3 U16=65244 S16=-12345 U32=4275878552 S32=-1234567890
U64=18364758544493064720 S64=-1234567890123456789 PID=-7654321
INT=-2147483648 LONG=-9223372036854775807 ULONG=18446744073709551615
FEEDER=tracecmd-feeder # 15 characters: the whole comm
DYN="a dynamic string of 200 characters, well past the fixed one:"
while [ ${#DYN} -lt 200 ]; do
	DYN="$DYN 0123456789"
done
DYN=$(printf '%.200s' "$DYN")
MAGIC=0x1234abcd

# Registers of __x64_sys_prctl(regs): di (+112) is the option, si
# (+104) the buffer of numbers, dx (+96) the string.
buf='+104(%di)'
echo "p:clients/feed __x64_sys_prctl magic=+112(%di):u32" \
	"f_u8=+u0($buf):u8 f_s8=+u1($buf):s8 f_u16=+u2($buf):u16" \
	"f_s16=+u4($buf):s16 f_u32=+u8($buf):u32 f_s32=+u12($buf):s32" \
	"f_u64=+u16($buf):u64 f_s64=+u24($buf):s64 f_pid=+u32($buf):s32" \
	"f_int=+u36($buf):s32 f_long=+u40($buf):s64 f_ulong=+u48($buf):u64" \
	"f_dyn=+0(+96(%di)):ustring" >>kprobe_events ||
	bad "kprobe event refused: $(tail -n 3 error_log)"

nums='u8 f_u8; s8 f_s8; u16 f_u16; s16 f_s16; u32 f_u32; s32 f_s32; u64 f_u64; s64 f_s64; pid_t f_pid; int f_int; long f_long; unsigned long f_ulong; char f_fix[16]; char f_dyn[]'
if ! echo "client_all $nums; unsigned long[] f_stack" >>synthetic_events ||
   ! echo "client_num $nums" >>synthetic_events; then
	bad "synthetic events refused: $(tail -n 3 error_log)"
fi

# shellcheck disable=SC2016 # the $ of variable references
vars='$v_u8,$v_s8,$v_u16,$v_s16,$v_u32,$v_s32,$v_u64,$v_s64,$v_pid,$v_int,$v_long,$v_ulong,comm,$v_dyn'
feed_trig="hist:keys=common_pid:v_u8=f_u8,v_s8=f_s8,v_u16=f_u16,v_s16=f_s16,v_u32=f_u32,v_s32=f_s32,v_u64=f_u64,v_s64=f_s64,v_pid=f_pid,v_int=f_int,v_long=f_long,v_ulong=f_ulong,v_dyn=f_dyn,v_st=common_stacktrace if magic == $MAGIC"
exit_trig="hist:keys=pid:onmatch(clients.feed).trace(client_all,$vars,\$v_st):onmatch(clients.feed).trace(client_num,$vars)"
if [ $failed = 0 ]; then
	if ! echo "$feed_trig" >>events/clients/feed/trigger ||
	   ! echo "$exit_trig" >>events/sched/sched_process_exit/trigger; then
		bad "triggers refused: $(tail -n 3 error_log)"
	fi
fi

if [ $failed = 0 ]; then
	echo "magic == $MAGIC" >events/clients/feed/filter
	echo 1 >events/clients/feed/enable
	echo 1 >events/synthetic/client_all/enable
	echo 1 >events/synthetic/client_num/enable
	ln -s "$(command -v perl)" $W/$FEEDER
	# shellcheck disable=SC2016 # perl's own variables
	$W/$FEEDER -e '
		my $nums = pack("C c S s x2 L l Q q l l q Q", @ARGV[0 .. 11]);
		my $dyn = $ARGV[12];
		syscall(157, hex($ARGV[13]), $nums, $dyn, 0, 0) == -1 or
			die "prctl() took the magic option\n";' \
		$U8 $S8 $U16 $S16 $U32 $S32 $U64 $S64 $PID $INT $LONG $ULONG \
		"$DYN" $MAGIC || bad "the feeder failed"
	echo 0 >events/synthetic/client_all/enable
	echo 0 >events/synthetic/client_num/enable
	echo 0 >events/clients/feed/enable
	cp trace $W/trace
	n=$(grep -c ': client_all: ' $W/trace)
	[ "$n" = 1 ] || bad "the kernel traced client_all $n times, not once"
	n=$(grep -c ': client_num: ' $W/trace)
	[ "$n" = 1 ] || bad "the kernel traced client_num $n times, not once"
	trace-cmd extract -o $W/trace.dat >$W/extract.log 2>&1 ||
		bad "trace-cmd extract failed: $(tail -n 5 $W/extract.log)"
	trace-cmd report -R -i $W/trace.dat >$W/report-raw 2>&1 ||
		bad "trace-cmd report -R failed: $(tail -n 5 $W/report-raw)"
	trace-cmd report -i $W/trace.dat >$W/report 2>&1 ||
		bad "trace-cmd report failed: $(tail -n 5 $W/report)"
fi

# fields EVENT REPORT: the fields of EVENT's one line in REPORT, one
# "name=value" a line (the values may hold blanks, the names do not),
# without the commas of a synthetic event's print fmt.
fields() {
	grep -m 1 " $1: " "$2" | sed -e "s/^.* $1: *//" -e 's/^\[FAILED TO PARSE\] //' |
		sed -E -e 's/ ([a-z_0-9]+)=/\n\1=/g' | sed 's/,$//'
}

# same WHAT FILE: FILE is exactly stdin.
same() {
	cat >$W/want
	if ! diff -u $W/want "$2" >$W/diff 2>&1; then
		bad "$1 differs (-expected +got):"
		cat $W/diff
	fi
}

# known S8 S16 ULONG: the known values, with these renderings of the s8,
# s16 and unsigned long ones.
known() {
	cat <<EOF
f_u8=$U8
f_s8=$1
f_u16=$U16
f_s16=$2
f_u32=$U32
f_s32=$S32
f_u64=$U64
f_s64=$S64
f_pid=$PID
f_int=$INT
f_long=$LONG
f_ulong=$3
f_fix=$FEEDER
f_dyn=$DYN
EOF
}

if [ $failed = 0 ]; then
	# client_all, whose print fmt libtraceevent cannot parse: each field
	# as its format file says, signed by size (an unsigned long in hex).
	known $S8 $S16 0xffffffffffffffff >$W/want-raw
	fields client_all $W/report-raw | grep -v '^f_stack=' >$W/all-raw
	same "client_all in trace-cmd report -R" $W/all-raw <$W/want-raw
	fields client_all $W/report | grep -v '^f_stack=' >$W/all
	same "client_all in trace-cmd report" $W/all <$W/want-raw
	# client_num: each field through its conversion in the print fmt,
	# with -R too. A "%d" of an s8 or s16 comes out as its unsigned
	# bits: so it does for the kprobe event, whose fields of the same
	# names carry the same values.
	known $((S8 + 256)) $((S16 + 65536)) $ULONG >$W/want-fmt
	fields client_num $W/report-raw >$W/num-raw
	same "client_num in trace-cmd report -R" $W/num-raw <$W/want-fmt
	fields client_num $W/report >$W/num
	same "client_num in trace-cmd report" $W/num <$W/want-fmt
	fields feed $W/report | sed -e 's/^f_dyn="\(.*\)"$/f_dyn=\1/' >$W/feed
	grep '^f_' $W/feed | while IFS= read -r f; do
		grep -qxF "$f" $W/num ||
			echo "trace-cmd prints the kprobe event's $f, but client_num's ${f%%=*} otherwise"
	done >$W/feed.diff
	[ ! -s $W/feed.diff ] || bad "$(cat $W/feed.diff)"
fi

# The stack: trace-cmd shows it as bytes, ARRAY[..], a count then the
# entries, each little-endian; the kernel's trace file as lines of
# "=> symbol+offset/size". Kernel text addresses share their top 32 bits,
# so the low 32 are compared (awk's numbers are doubles).
if [ $failed = 0 ]; then
	fields client_all $W/report-raw | sed -n 's/^f_stack=ARRAY\[\(.*\)\]$/\1/p' | tr -d ' ' | tr , '\n' |
		awk 'function hex(s,  i, v) {
			v = 0
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v
		}
		{ b[NR - 1] = $1 }
		END {
			for (i = 0; i + 7 < NR; i += 8)
				printf "%.0f\n", hex(b[i + 3] b[i + 2] b[i + 1] b[i])
		}' >$W/stack.client
	awk '/: client_all: /{ on = 1; next } on && /^=> /{ print $2; next } { on = 0 }' \
		$W/trace >$W/stack.kernel
	sed -n 's/+0x.*//p' $W/stack.kernel | sort -u >$W/stack.syms
	grep -wFf $W/stack.syms /proc/kallsyms >$W/kallsyms
	awk 'function hex(s,  i, v) {
		s = tolower(s)
		sub(/^0x/, "", s)
		s = substr(s, length(s) - 7)
		v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	FILENAME == ARGV[1] { at[$3] = at[$3] " " sprintf("%.0f", hex($1)); next }
	FILENAME == ARGV[2] { if (FNR == 1) count = $1; got[FNR - 1] = $1; ngot = FNR - 1; next }
	{
		n++
		want = $1
		if (want ~ /^0x/) {
			ok = hex(want) == got[n]
		} else {
			sym = want
			sub(/\+.*/, "", sym)
			off = want
			sub(/^[^+]*\+/, "", off)
			sub(/\/.*/, "", off)
			k = split(at[sym], cand, " ")
			ok = 0
			for (i = 1; i <= k; i++)
				if (cand[i] + hex(off) == got[n])
					ok = 1
		}
		if (!ok)
			printf "entry %d: the trace file says %s, trace-cmd reads %.0f (low 32 bits)\n",
			       n, want, got[n]
	}
	END {
		if (count != n)
			printf "trace-cmd reads %d entries, the trace file shows %d\n", count, n
		if (ngot != count)
			printf "the stack has room for %d entries, its count says %d\n", ngot, count
	}' $W/kallsyms $W/stack.client $W/stack.kernel >$W/stack.diff
	if [ ! -s $W/stack.kernel ]; then
		bad "client_all's stack is empty in the trace file"
	elif [ -s $W/stack.diff ]; then
		bad "client_all's stack, trace-cmd against the trace file: $(cat $W/stack.diff)"
	fi
	if ! grep -q '^__x64_sys_prctl+' $W/stack.kernel ||
	   ! grep -q '^do_syscall_64+' $W/stack.kernel; then
		bad "client_all's stack is not the feeder's prctl() from do_syscall_64():"
		sed 's/^/    /' $W/stack.kernel
	else
		echo "client_all's stack, as trace-cmd and the trace file read it:"
		sed 's/^/    /' $W/stack.kernel
	fi
fi

# Tear down, triggers first, and check that nothing is left.
echo "!$exit_trig" >>events/sched/sched_process_exit/trigger 2>/dev/null
echo "!$feed_trig" >>events/clients/feed/trigger 2>/dev/null
echo '!client_all' >>synthetic_events 2>/dev/null
echo '!client_num' >>synthetic_events 2>/dev/null
echo '-:clients/feed' >>kprobe_events 2>/dev/null
grep -v '^#' events/sched/sched_process_exit/trigger >$W/left
grep -e '^client_' synthetic_events >>$W/left
grep -e 'clients/feed' kprobe_events >>$W/left
[ ! -s $W/left ] || bad "left behind: $(cat $W/left)"
: >trace

if [ $failed = 0 ]; then
	echo "client:trace-cmd: ok ($(($(wc -l <$W/all-raw) + 1)) fields of client_all, $(wc -l <$W/stack.kernel) stack entries)"
else
	echo "the kernel's trace file:"
	grep -v '^#' $W/trace 2>/dev/null | head -n 60
	echo "client:trace-cmd: failed:"
	sed 's/^/    /' $W/failures
fi
exit $failed
