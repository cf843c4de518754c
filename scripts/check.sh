#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: build the kernel of the mode, boot it once, run our KUnit
# suites (built in, run at boot) and ftracetest over the trigger tests,
# add_remove_synth and every .tc of ours, boot it again with bootconfig to
# check boot-time synthetic events, run real clients against the kernel
# (trace-cmd, libtracefs, cyclictest), hold the results against
# scripts/expected/<mode>.txt, then (ours mode) lint our files and run the
# userspace harnesses and the harness's self-tests. Ends with one line:
# "check: N passed, N failed, N skipped".
#
# Each phase prints "phase: NAME Ns" (.ci/run sums them up).
#
# T=REGEX (the quick loop): only the tests whose ID (as in the expected
# file: ftrace:trigger/trigger-hist.tc, kunit:trace_hist.hist_test_div_const,
# boot:synthetic-events, client:trace-cmd, drive:faults) matches the
# Python regular expression REGEX, with no lint and no userspace
# harnesses. A .tc file
# runs when its ID or its :instance ID matches; KUnit is switched off at
# boot when no kunit: ID matches, and the bootconfig check is skipped when
# boot:synthetic-events does not, a client or drive test when its ID
# does not.
#
# The debug kernel (DEBUG=1) runs the debug set below unless FULL=1, and
# so does the KCSAN kernel (KCSAN=1), which fails on any data race report
# that names a function of ours.
. "$(dirname "$0")/lib.sh"

mode=$(mode_of "${REF:-0}" "${DEBUG:-0}" "${KCSAN:-0}" "${COVERAGE:-0}")
base_mode=${mode%%-*}
expected=$TOP/scripts/expected/$base_mode.txt
results=$BUILD/results-$mode
select=${T:-}
full=${FULL:-0}
start=$(date +%s)

# The debug kernel (unless FULL=1) runs what the debug pass is for, each
# path of ours once under KASAN, lockdep, UBSAN and kmemleak: every .tc
# of ours, every upstream test in trigger/inter-event, our KUnit suites
# and the bootconfig check. It leaves out upstream's other trigger tests
# and add_remove_synth: some test trigger commands that are not ours, and
# what the hist and synthetic event ones reach is reached by ours too.
# It also leaves out the :instance reruns (ftracetest --no-instance,
# patches/0018-*): they take the paths of the first run again, in another
# trace array, and the paths that only an instance takes (its clock, its
# removal with triggers in place) have tests of their own. The ours
# kernel runs them all. A process costs the debug guest ten times what it
# costs the ours guest, and each test starts hundreds: this leaves out 26
# of 79 test runs. The real clients (client:*) are left out too: they
# read what the ftrace tests make, and under the checkers they spend
# their minutes in trace-cmd's parsing of every event format, not in the
# code the checkers are here for.
omit=
no_instance=0

# phase NAME COMMAND...: run COMMAND, then say how long it took.
phase() {
	local name=$1 t0 rc=0
	shift
	t0=$(date +%s)
	"$@" || rc=$?
	echo "phase: $name $(($(date +%s) - t0))s" >&2
	return $rc
}

# wanted: of the lines on stdin, "ID [ID...]", print each whose first word
# is the key of a test ID selected by T= and not left out by the debug set
# (for a .tc, its plain and its :instance ID).
wanted() {
	python3 -c 'import re, sys
sel, omit = sys.argv[1:]
def ok(tid):
	return (not sel or re.search(sel, tid)) and not (omit and re.search(omit, tid))
for line in sys.stdin:
	words = line.split()
	if words and any(ok(w) for w in words[1:] or words):
		print(words[0])' "$select" "$omit"
}

phase deps "$TOP/scripts/deps.sh"
case $mode in
ref*) phase base "$TOP/scripts/base.sh" ;;
*) phase base "$TOP/scripts/tree.sh" >/dev/null ;;
esac
phase "build-$mode" "$TOP/scripts/build.sh" "$mode"
# The tests always come from our tree: upstream's own plus ours, so the
# reference is measured against exactly the same scripts.
[ "$base_mode" = ours ] || "$TOP/scripts/tree.sh" >/dev/null
ftdir=$SRC_OURS/tools/testing/selftests/ftrace

ours_tc=$(overlay_files | grep '^tools/testing/selftests/ftrace/test.d/.*\.tc$' |
	  sed 's|^tools/testing/selftests/ftrace/||' || true)
candidates=$( (cd "$ftdir" && find test.d/trigger -name '*.tc' | sort
	       echo test.d/dynevent/add_remove_synth.tc
	       echo "$ours_tc" | grep -v '^test.d/trigger/') | awk 'NF && !seen[$0]++')
# in_debug_set TEST: whether the debug pass runs TEST (test.d/...)
in_debug_set() {
	case $1 in */inter-event/*) return 0 ;; esac
	echo "$ours_tc" | grep -qxF "$1"
}

# ids_alternation: the test names on stdin, escaped, as one alternation
# of a regular expression (empty for none)
ids_alternation() {
	python3 -c 'import re, sys
print("|".join(re.escape(l.strip()) for l in sys.stdin if l.strip()))'
}

case $mode in
*-debug | *-kcsan)
	if [ "$full" != 1 ]; then
		ids=$(for t in $candidates; do
			in_debug_set "$t" || echo "${t#test.d/}"
		done | ids_alternation)
		if [ -n "$ids" ]; then
			omit="^(ftrace:(($ids)(:instance)?|.*:instance)|client:.*)$"
		else
			omit="^(ftrace:.*:instance|client:.*)$"
		fi
		[ "$mode" = ours-debug ] || omit="$omit|^drive:"
		no_instance=1
	fi
	;;
ours)
	# .ci/run says DEBUG_SET_LATER=1: the debug pass it runs next takes
	# the same code through the plain run of every test of its set,
	# under the checkers, so this pass leaves those out and runs the
	# rest (upstream's other trigger tests, the :instance reruns, the
	# clients, KUnit with its long fuzz, the bootconfig check). A test
	# with an :instance rerun still runs whole here, and so do the
	# tracefs fuzzer and the lifetime stress, which the debug pass runs
	# with a fraction of their volume (see stress_args).
	if [ "${DEBUG_SET_LATER:-0}" = 1 ]; then
		ids=$(for t in $candidates; do
			case $t in
			*/trigger-hist-fuzz-tracefs.tc | */trigger-hist-lifetime-stress.tc)
				continue ;;
			esac
			in_debug_set "$t" || continue
			grep -q '^#[ 	]*flags:.*instance' "$ftdir/$t" && continue
			echo "${t#test.d/}"
		done | ids_alternation)
		omit=${ids:+^ftrace:($ids)(:instance)?\$}
	fi
	omit="${omit:+$omit|}^drive:"
	;;
ours-cov) ;; # make coverage: everything, hist-drive too
*) omit="^drive:" ;;
esac
tests=$(for t in $candidates; do
	echo "$t ftrace:${t#test.d/} ftrace:${t#test.d/}:instance"
done | wanted)

kunit_on=1
if [ -n "$select" ] &&
   [ -z "$(grep -o '^kunit:[^ ]*' "$expected" | wanted)" ]; then
	kunit_on=0
fi
# The guests: the tests are split into SHARDS parts (default: one per host
# core), each booted as a guest of its own, all at once. A test runs
# mostly on one CPU and spends its time in processes and file operations
# that cannot overlap within one tracefs, so separate guests are what
# keeps every core busy. KUnit runs in part 0 only, and the bootconfig
# check (see below) in the last part.
#
# The parts are balanced by time: scripts/expected/MODE.times says how
# long each test, KUnit and the extra boot took on the kernel of the mode
# (the reference's: as long as ours), and the longest go first, each to
# the part with the least so far. A test it does not list counts as long
# as the median one, twice with its :instance run.
shards=${SHARDS:-$(nproc)}
# A guest per core: each gets one host thread (run.sh).
[ "$shards" -le 1 ] || export TCG_THREAD=single
timeout_s=2400
boot_timeout=300
case $mode in *-debug | *-kcsan | *-cov) timeout_s=4800 boot_timeout=1200 ;; esac
boot_on=0
[ -z "$(echo boot:synthetic-events | wanted)" ] || boot_on=1
# The tests that are programs (guest-clients.sh): the real clients'
# (client:NAME, scripts/clients/), each in the last part's guest, and on
# the ours-debug kernel hist-drive's volume run and allocation-failure
# sweep (drive:NAME, scripts/hist-drive.c), which exist for its checkers
# and take minutes each: they are dealt out to the parts as the test
# files are. Each runs before its guest's ftracetest. The libtracefs
# client and hist-drive are built here.
drives=
case $mode in ours-debug | ours-cov) drives='drive:volume drive:faults' ;; esac
# shellcheck disable=SC2086 # words
clients=$(printf '%s\n' client:trace-cmd client:libtracefs client:cyclictest \
	  $drives | wanted | paste -sd ' ' -)
clients_dir=$BUILD/clients
times=$TOP/scripts/expected/${mode/ref/ours}.times
# A gcov kernel runs at about the plain kernel's speed.
[ "$mode" != ours-cov ] || times=$TOP/scripts/expected/ours.times

plan=$(for t in $tests; do
	n=1
	[ $no_instance = 1 ] ||
		! grep -q '^#[ \t]*flags:.*instance' "$ftdir/$t" || n=2
	echo "$t $n"
done | python3 -c 'import os, statistics, sys
shards, kunit, boot = map(int, sys.argv[1:4])
clients = sys.argv[5].split()
secs = {}
if os.path.exists(sys.argv[4]):
	with open(sys.argv[4]) as f:
		for line in f:
			w = line.split("#", 1)[0].split()
			if len(w) == 2:
				secs[w[0]] = float(w[1])
runs = [v for k, v in secs.items() if k.startswith("ftrace:")]
usual = statistics.median(runs) if runs else 1.0
def cost(t, n):
	tid = "ftrace:" + t.split("test.d/", 1)[-1]
	return sum(secs.get(i, usual) for i in [tid, tid + ":instance"][:n])
tests = [(t, cost(t, int(n))) for t, n in
	 (l.split() for l in sys.stdin if l.strip())]
tests += [(c, secs.get(c, usual)) for c in clients if c.startswith("drive:")]
shards = max(1, min(shards, len(tests) or 1))
load = [0.0] * shards
load[0] += kunit * secs.get("kunit:*", 2 * usual)
load[-1] += boot * secs.get("boot:synthetic-events", 3 * usual)
load[-1] += sum(secs.get(c, usual) for c in clients if c.startswith("client:"))
parts = [[] for _ in range(shards)]
for t, c in sorted(tests, key=lambda x: -x[1]):
	k = load.index(min(load))
	parts[k].append(t)
	load[k] += c
for k, p in enumerate(parts):
	print(k, *sorted(p))' "$shards" "$kunit_on" "$boot_on" "$times" "$clients")

# One part: its ftracetest run (and KUnit in part 0), and in the last
# part the bootconfig check and the clients' tests.
#
# Boot-time tracing: synthetic events that a bootconfig defines at boot
# cannot be checked by ftracetest (it removes every dynamic event before
# each test), so the last part's guest boots with "bootconfig" on its
# command line: the bootconfig embedded in the kernel
# (scripts/config/boot-synth.bconf) is applied, and guest-boot-synth.sh
# checks the outcome before ftracetest starts, test boot:synthetic-events
# (results.py). When the last part is part 0 (one guest), KUnit's, the
# same kernel boots once more instead, briefly, for that check alone.
#
# DRIVE_N and DRIVE_SEED, for drive:volume (guest-clients.sh), reach
# the guest the same way; the seed is the commit's, so that every landing
# tries other picks.
#
# FUZZ_N and FUZZ_SEED set how many texts KUnit's grammar fuzzer tries
# and which (hist_test_fuzz_grammar, trace_hist_kunit.c).
#
# STRESS_S, how long trigger-hist-lifetime-stress.tc runs, and
# TRACEFS_FUZZ_N and TRACEFS_FUZZ_SEED, for trigger-hist-fuzz-tracefs.tc,
# reach the tests as environment variables: the kernel hands a
# NAME=VALUE it does not know to init.
# A debug kernel runs the tracefs fuzzer at a third of a second a
# command: it gets 60 commands (the volume there is hist-drive's) and
# 15 s of stress unless told otherwise.
# Its KUnit grammar fuzzer took 136 s for the ours kernel's 100,000
# texts: it tries 20,000, other ones than the ours kernel's (seed 2), so
# that the two passes together see more of the grammar.
# The KCSAN kernel is there for the races: it runs the stress and the
# tracefs fuzzer at their full volume, and the grammar fuzzer, which
# races nothing, as the debug kernel does.
case $mode in
*-debug)
	: "${TRACEFS_FUZZ_N:=60}" "${STRESS_S:=15}"
	: "${FUZZ_N:=20000}" "${FUZZ_SEED:=2}" ;;
*-kcsan)
	: "${FUZZ_N:=20000}" "${FUZZ_SEED:=2}" ;;
esac
guest_args=" $TEST_GUEST_ARGS" # see lib.sh
fuzz_args=${FUZZ_N:+ trace_hist_kunit.fuzz_n=$FUZZ_N}
fuzz_args+=${FUZZ_SEED:+ trace_hist_kunit.fuzz_seed=$FUZZ_SEED}
stress_args=$guest_args${STRESS_S:+ STRESS_S=$STRESS_S}
stress_args+=${TRACEFS_FUZZ_N:+ TRACEFS_FUZZ_N=$TRACEFS_FUZZ_N}
stress_args+=${TRACEFS_FUZZ_SEED:+ TRACEFS_FUZZ_SEED=$TRACEFS_FUZZ_SEED}
if [ -n "$drives" ]; then
	: "${DRIVE_SEED:=$((16#$(git -C "$TOP" rev-parse -q --short=8 --verify HEAD || echo 1)))}"
	stress_args+=${DRIVE_N:+ DRIVE_N=$DRIVE_N}" DRIVE_SEED=$DRIVE_SEED"
fi
run_part() { # K LAST TEST-OR-DRIVE-ID...
	local k=$1 last=$2 t0 args="kunit.enable=0$stress_args" kunit=0
	local boot_here=0 clients_here=0 flags=() c files=()
	shift 2
	for c in "$@"; do
		case $c in
		drive:*) flags+=(-c "$c") clients_here=1 ;;
		*) files+=("$c") ;;
		esac
	done
	set -- "${files[@]}"
	t0=$(date +%s)
	if [ "$k" = 0 ] && [ $kunit_on = 1 ]; then
		kunit=1 args=$fuzz_args$stress_args
		args=${args# }
	fi
	# The bootconfig check runs first in the last part's guest, unless
	# that is also KUnit's: the suites at boot would meet the boot-time
	# synthetic events and their log would meet the check's scan.
	if [ "$last" = 1 ] && [ $boot_on = 1 ] && [ $kunit = 0 ]; then
		boot_here=1 flags+=(-b) args="bootconfig $args"
	fi
	[ $no_instance = 0 ] || flags+=(-n)
	if [ "$last" = 1 ]; then
		for c in $clients; do
			case $c in
			client:*) flags+=(-c "$c") clients_here=1 ;;
			esac
		done
	fi
	[ $clients_here = 0 ] || flags+=(-B "$clients_dir")
	if [ $# -gt 0 ] || [ $kunit = 1 ] || [ $boot_here = 1 ] ||
	   [ $clients_here = 1 ]; then
		# With no test file, ftracetest would run them all: KUnit only.
		local cmd=("$TOP/scripts/guest-check.sh" "${flags[@]}" "$ftdir" "$@")
		[ $# -gt 0 ] || [ $boot_here = 1 ] || [ $clients_here = 1 ] ||
			cmd=(true)
		# shellcheck disable=SC2086
		"$TOP/scripts/run.sh" -q -t "$timeout_s" ${args:+-a "$args"} \
			-o "$results/guest-$k" "$mode" -- "${cmd[@]}" >/dev/null ||
			echo "$?" >"$results/guest-$k.rc"
		for d in boot client drive; do
			[ -d "$results/guest-$k/$d" ] || continue
			mkdir -p "$results/$d"
			mv "$results/guest-$k/$d"/* "$results/$d/"
		done
		rerun_dirty "$k"
	fi
	if [ "$last" = 1 ] && [ $boot_on = 1 ] && [ $boot_here = 0 ]; then
		"$TOP/scripts/run.sh" -q -a "bootconfig kunit.enable=0$guest_args" \
			-t "$boot_timeout" -o "$results/boot/synthetic-events" \
			"$mode" -- "$TOP/scripts/guest-boot-synth.sh" >/dev/null || true
	fi
	note "check $mode: part $k ($# files) done in $(($(date +%s) - t0))s"
}

# A test that leaves what ftracetest's reset cannot remove (a trigger
# that cannot go, an event still in use) fails the reset, and so every
# test after it in its guest. results.py --dirty names that test (its
# result: left-dirty, always a failure, with what it left) and sets the
# runs after it aside; the test files of those go on in a fresh guest,
# guest-K-rN, up to three times a part.
rerun_dirty() { # K
	local k=$1 dir=$results/guest-$1 try=0 rerun flags=()
	[ $no_instance = 0 ] || flags=(-n)
	while rerun=$(python3 "$TOP/scripts/results.py" --dirty "$dir") &&
	      [ -n "$rerun" ]; do
		note "check $mode: part $k: $(sed -n 2p "$dir/ftrace/left-dirty")" \
		     "$(echo "$rerun" | wc -l) test files go on in a fresh guest"
		try=$((try + 1))
		if [ $try -gt 3 ]; then
			note "check $mode: part $k: dirty again after 3 fresh guests; the rest does not run"
			break
		fi
		dir=$results/guest-$k-r$try
		# shellcheck disable=SC2086 # stress_args: words
		"$TOP/scripts/run.sh" -q -t "$timeout_s" -a "kunit.enable=0$stress_args" \
			-o "$dir" "$mode" -- "$TOP/scripts/guest-check.sh" "${flags[@]}" \
			"$ftdir" $rerun >/dev/null || echo "$?" >"$dir.rc"
	done
}

# The programs of the client and drive tests, built for the host's
# userland, which the guests run: the libtracefs client, against the
# host's libtracefs and libtraceevent, whose versions it is told, and
# hist-drive. A failed build is said here, and its test then fails in
# the guest.
build_drive() {
	local out=$clients_dir/hist-drive
	mkdir -p "$clients_dir"
	rm -f "$out"
	gcc -O2 -Wall -Wextra -Werror -o "$out" "$TOP/scripts/hist-drive.c" ||
		note "check $mode: hist-drive did not build"
}
build_clients() {
	local v out=$clients_dir/tracefs-client
	mkdir -p "$clients_dir"
	rm -f "$out"
	v="libtracefs $(pkg-config --modversion libtracefs)"
	v+=", libtraceevent $(pkg-config --modversion libtraceevent)"
	# shellcheck disable=SC2046 # pkg-config's flags, one word each
	gcc -O2 -Wall -Wextra -Werror -o "$out" \
		"$TOP/scripts/clients/tracefs-client.c" -DCLIENT_VERSIONS="\"$v\"" \
		$(pkg-config --cflags --libs libtracefs libtraceevent) ||
		note "check $mode: the libtracefs client did not build"
}

run_parts() {
	local k last n pids=""
	n=$(echo "$plan" | grep -c .)
	while read -r k rest; do
		last=0
		[ "$k" = $((n - 1)) ] && last=1
		# shellcheck disable=SC2086
		run_part "$k" "$last" $rest &
		pids="$pids $!"
	done <<<"$plan"
	# shellcheck disable=SC2086
	wait $pids
}

if [ -z "$tests" ] && [ $kunit_on = 0 ] && [ $boot_on = 0 ] && [ -z "$clients" ]; then
	die "T='$select' matches no test of $expected"
fi
rm -rf "$results"
mkdir -p "$results"
if [[ " $clients " == *" client:libtracefs "* ]]; then
	build_clients
fi
if [[ " $clients " == *" drive:"* ]]; then
	build_drive
fi
note "check $mode: $(echo $tests | wc -w) test files in $(echo "$plan" | grep -c .) guests$([ $kunit_on = 1 ] || echo ", no KUnit")${clients:+, clients: $clients}"
phase "guest-$mode" run_parts
note "check $mode: guests finished after $(($(date +%s) - start))s"
# How long each test took this time: after a full run, copy it over
# scripts/expected/MODE.times when the tests have changed much.
python3 "$TOP/scripts/results.py" --io "$results" --times >"$results/times" || true

passed=0 failed=0 skipped=0
count() { # "<label>: N passed, N failed[, N skipped]" lines on stdin
	local line p f s
	while read -r line; do
		echo "$line"
		if [[ $line =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)? ]]; then
			p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]} s=${BASH_REMATCH[4]:-0}
			passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
		fi
	done
}

guest_died=""
for g in "$results"/guest-*/; do
	g=${g%/}
	[ ! -f "$g/status" ] || continue
	echo "guest: no result from ${g##*/} (status $(cat "$g.rc" 2>/dev/null || echo unknown)); console log: $g/console.log"
	tail -n 40 "$g/console.log" 2>/dev/null || true
	failed=$((failed + 1))
	guest_died="$guest_died $g"
done

# The reference may fail a test of ours that checks what only ours does.
ref_flag=
[ "$base_mode" = ref ] && ref_flag=--reference
# shellcheck disable=SC2086
count < <(python3 "$TOP/scripts/results.py" --io "$results" $ref_flag \
	--expected "$expected" --select "$select" --omit "$omit" \
	--kunit-py "$(src_of "$mode")/tools/testing/kunit/kunit.py" || true)

# What the fuzzers, the nesting test and the stress test did, for the
# CI log.
grep -hE '# hist_test_(fuzz_grammar: (seed|.*tried)|(nested|nmi)_hits: keys=)' \
	"$results"/guest-*/dmesg 2>/dev/null |
	sed 's/^\[[ 0-9.]*\] *# /numbers: /' || true
grep -hE '^(hist stress|fuzz): ' "$results"/guest-*/ftrace/*-log.* 2>/dev/null |
	sed 's/^/numbers: /' || true
grep -hE '^(hist drive|faults): ' "$results"/drive/*/output 2>/dev/null |
	sed 's/^/numbers: /' || true

# A guest that could not calibrate its TSC keeps time by the jiffy, and
# every latency it measures is 0 or a whole tick: say so, rather than
# leave it to the tests that happen to notice.
jiffy_clock=$(jiffy_clock_guests "$results"/guest-*/dmesg "$results"/boot/*/dmesg)
if [ -n "$jiffy_clock" ]; then
	echo "clock: a guest kept time in jiffies:" $jiffy_clock
	echo "clock: 0 passed, 1 failed"
	failed=$((failed + 1))
fi

# checker_verdict LABEL FINDINGS...: the test LABEL, which passes when
# every FINDINGS text is empty and otherwise shows the start of each.
checker_verdict() {
	local label=$1 f found=0
	shift
	for f in "$@"; do
		[ -z "$f" ] || found=1
	done
	if [ $found = 1 ]; then
		echo "$label: kernel reports found:"
		for f in "$@"; do
			[ -z "$f" ] || echo "$f" | head -n 100
		done
		echo "$label: 0 passed, 1 failed"
		failed=$((failed + 1))
	else
		echo "$label: 1 passed, 0 failed"
		passed=$((passed + 1))
	fi
}

# A debug kernel's checkers speak through the kernel log, of both boots.
case $mode in
*-debug)
	reports=$(without_injected "$results"/guest-*/dmesg "$results"/guest-*/console.log \
		"$results"/boot/*/dmesg "$results"/boot/*/console.log |
		grep -E 'BUG:|WARNING:|KASAN|UBSAN|possible recursive locking|possible circular locking|inconsistent lock state|sleeping function called from invalid context|Call Trace' || true)
	leaks=$(cat "$results"/guest-*/kmemleak "$results"/boot/*/kmemleak 2>/dev/null || true)
	checker_verdict debug "$reports" "$leaks"
	;;
*-kcsan)
	# KCSAN's reports of races our functions (the symbols of our kernel
	# files' objects) take part in, and anything else that says a
	# kernel went wrong. KCSAN's other reports are counted, for the log.
	# A name that other objects define as well (a header's inline
	# function, a compiler's clone of it) is not ours to answer for.
	syms=$results/our-symbols
	objdir=$(obj_of "$mode")
	overlay_files | sed -n 's|^\(kernel/trace/.*\)\.c$|\1.o|p' |
		(cd "$objdir" && xargs -r nm --defined-only 2>/dev/null || true) |
		awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u |
		join - <(awk '$2 ~ /^[tT]$/ { n[$3]++ }
			      END { for (f in n) if (n[f] == 1) print f }' \
			"$objdir/System.map" | sort) >"$syms" || true
	# The kernel log has each report whole, but its buffer may have
	# wrapped; the console has every report's title (KCSAN prints it at
	# KERN_ERR, above the quiet level) but not its stacks. Both, then,
	# and each report counted once. (cat /dev/null first: with no log
	# at all, cat would read check.sh's standard input.)
	logs=()
	for f in "$results"/guest-*/dmesg "$results"/guest-*/console.log \
		 "$results"/boot/*/dmesg "$results"/boot/*/console.log; do
		[ ! -f "$f" ] || logs+=("$f")
	done
	races=
	if [ -s "$syms" ]; then
		races=$(kcsan_reports "$syms" "${logs[@]}")
	else
		races="kcsan: no symbols of ours in $objdir"
	fi
	reports=$(cat /dev/null "${logs[@]}" | grep -v 'BUG: KCSAN: ' |
		grep -E 'BUG:|WARNING:|UBSAN|Call Trace' || true)
	titles() { tr -d '\r' | grep -o '\[ *[0-9.]*\] BUG: KCSAN: .*' | sort -u | grep -c . || true; }
	echo "numbers: kcsan: $(cat /dev/null "${logs[@]}" | titles) reports, $(echo "$races" | titles) naming our functions"
	checker_verdict kcsan "$races" "$reports"
	;;
esac

# The differential tester's sample (make diff-check): DIFF_N steps
# (default 2000) on ours and on the reference, from a seed that is the
# commit's, so that every landing tries new inputs and a failure replays
# with make diff-check N=... SEED=... (the reference kernel is built for
# it beside lint and series-check, below).
diff_sample() {
	local seed
	seed=${DIFF_SEED:-$(git -C "$TOP" rev-parse --short=12 HEAD 2>/dev/null || echo 1)}
	cat "$ref_log" >&2
	[ "$ref_built" = 1 ] || {
		echo "diff: 0 passed, 1 failed"
		return
	}
	if DIFF_BUILT=1 N=${DIFF_N:-2000} SEED=$seed "$TOP/scripts/diff-check.sh"; then
		echo "diff: 1 passed, 0 failed"
	else
		echo "diff: 0 passed, 1 failed"
	fi
}

if [ "$mode" = ours ] && [ -z "$select" ]; then
	# lint and series-check are mostly one perl process at a time
	# (checkpatch over files and patches): run together they keep both
	# cores busy. The tree they read was composed above, so neither
	# composes it again under the other (TREE_READY).
	#
	# The reference kernel, which the differential sample below runs on,
	# is built beside them: from nothing, ccache holds nearly every object
	# of it already (build.sh). Measured from nothing, the three took
	# 533 s together where lint and series-check took 262 s, then the
	# reference 414 s.
	#
	# Jobs started with & ignore a Ctrl-C: kill_tree takes them, and the
	# makes they started, down with this script.
	kill_tree() {
		local child
		for child in $(pgrep -P "$1" || true); do kill_tree "$child"; done
		kill "$1" 2>/dev/null || true
	}
	lint_log=$results/lint.log series_log=$results/series.log
	ref_log=$results/build-ref.log ref_built=1
	phase build-ref "$TOP/scripts/build.sh" ref >"$ref_log" 2>&1 &
	ref_pid=$!
	TREE_READY=1 phase lint "$TOP/scripts/lint.sh" >"$lint_log" 2>&1 &
	lint_pid=$!
	trap 'kill_tree "$ref_pid"; kill_tree "$lint_pid"; exit 130' INT TERM
	TREE_READY=1 phase series "$TOP/scripts/series-check.sh" >"$series_log" 2>&1 || true
	wait "$lint_pid" || true
	wait "$ref_pid" || ref_built=0
	trap - INT TERM
	# a script that died before its summary line failed, whatever it
	# printed before
	for log in "$lint_log" "$series_log"; do
		count <"$log"
		name=$(basename "$log" .log)
		grep -qE "^$name: [0-9]+ passed, [0-9]+ failed" "$log" || {
			echo "$name: ended without its summary line"
			failed=$((failed + 1))
		}
	done
	count < <(phase diff diff_sample 2>&1 || true)
	count < <(phase userspace "$TOP/scripts/userspace.sh" 2>&1 || true)
	count < <(phase selftest "$TOP/scripts/selftest.sh" 2>&1 || true)
fi

# A guest that died takes most results with it, and the reason scrolls
# far up, before the lint and userspace output: repeat its last words
# here, next to the summary, where a truncated CI log still shows them.
for g in $guest_died; do
	echo "check $mode: the guest ${g##*/} died; its console ended:"
	grep -v '^ok \|^not ok \|^#' "$g/console.log" 2>/dev/null |
		tail -n 25 || true
done
echo "check $mode: done in $(($(date +%s) - start))s"
echo "check: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ] || exit 1
