#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: build the kernel of the mode, boot it once, run our KUnit
# suites (built in, run at boot) and ftracetest over the trigger tests,
# add_remove_synth and every .tc of ours, boot it again with bootconfig to
# check boot-time synthetic events, hold the results against
# scripts/expected/<mode>.txt, then (ours mode) lint our files and run the
# userspace harnesses. Ends with one line: "check: N passed, N failed, N skipped".
. "$(dirname "$0")/lib.sh"

mode=$(mode_of "${REF:-0}" "${DEBUG:-0}")
base_mode=${mode%-debug}
expected=$TOP/scripts/expected/$base_mode.txt
results=$BUILD/results-$mode
start=$(date +%s)

"$TOP/scripts/deps.sh"
"$TOP/scripts/build.sh" "$mode"
# The tests always come from our tree: upstream's own plus ours, so the
# reference is measured against exactly the same scripts.
[ "$base_mode" = ours ] || "$TOP/scripts/tree.sh" >/dev/null
ftdir=$SRC_OURS/tools/testing/selftests/ftrace

tests="test.d/trigger test.d/dynevent/add_remove_synth.tc"
for t in $(overlay_files | grep '^tools/testing/selftests/ftrace/test.d/.*\.tc$' |
	   grep -v '/test.d/trigger/' || true); do
	tests="$tests ${t#tools/testing/selftests/ftrace/}"
done

note "check $mode: booting, running KUnit and ftracetest"
timeout_s=2400
case $mode in *-debug) timeout_s=4800 ;; esac
guest_rc=0
# shellcheck disable=SC2086
"$TOP/scripts/run.sh" -q -t "$timeout_s" -o "$results" "$mode" -- \
	"$TOP/scripts/guest-check.sh" "$ftdir" $tests >/dev/null || guest_rc=$?
note "check $mode: guest finished with status $guest_rc after $(($(date +%s) - start))s"

# Boot-time tracing: synthetic events that a bootconfig defines at boot
# cannot be checked above (ftracetest removes every dynamic event before
# each test), so the same kernel boots a second time, briefly, with
# "bootconfig" on its command line: the bootconfig embedded in it
# (scripts/config/boot-synth.bconf) is applied, and guest-boot-synth.sh
# checks the outcome, test boot:synthetic-events (results.py). The KUnit
# suites ran in the main boot already: kunit.enable=0.
boot_start=$(date +%s)
boot_timeout=300
case $mode in *-debug) boot_timeout=1200 ;; esac
"$TOP/scripts/run.sh" -q -a "bootconfig kunit.enable=0" -t "$boot_timeout" \
	-o "$results/boot/synthetic-events" "$mode" -- \
	"$TOP/scripts/guest-boot-synth.sh" >/dev/null || true
note "check $mode: boot with bootconfig done after $(($(date +%s) - boot_start))s"

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

guest_died=0
if [ ! -f "$results/status" ]; then
	echo "guest: no result (status $guest_rc); console log: $results/console.log"
	tail -n 40 "$results/console.log" 2>/dev/null || true
	failed=$((failed + 1))
	guest_died=1
fi

# The reference may fail a test of ours that checks what only ours does.
ref_flag=
[ "$base_mode" = ref ] && ref_flag=--reference
# shellcheck disable=SC2086
count < <(python3 "$TOP/scripts/results.py" --io "$results" $ref_flag \
	--expected "$expected" \
	--kunit-py "$(src_of "$mode")/tools/testing/kunit/kunit.py" || true)

# A debug kernel's checkers speak through the kernel log, of both boots.
case $mode in
*-debug)
	reports=$(grep -E 'BUG:|WARNING:|KASAN|UBSAN|possible recursive locking|possible circular locking|inconsistent lock state|sleeping function called from invalid context|Call Trace' \
		"$results/dmesg" "$results/console.log" \
		"$results"/boot/*/dmesg "$results"/boot/*/console.log 2>/dev/null || true)
	leaks=$(cat "$results/kmemleak" "$results"/boot/*/kmemleak 2>/dev/null || true)
	if [ -n "$reports" ] || [ -n "$leaks" ]; then
		echo "debug: kernel reports found:"
		echo "$reports" | head -n 60
		echo "$leaks" | head -n 60
		echo "debug: 0 passed, 1 failed"
		failed=$((failed + 1))
	else
		echo "debug: 1 passed, 0 failed"
		passed=$((passed + 1))
	fi
	;;
esac

if [ "$mode" = ours ]; then
	count < <("$TOP/scripts/lint.sh" 2>&1 || true)
	count < <("$TOP/scripts/userspace.sh" 2>&1 || true)
fi

# A guest that died takes most results with it, and the reason scrolls
# far up, before the lint and userspace output: repeat its last words
# here, next to the summary, where a truncated CI log still shows them.
if [ $guest_died = 1 ]; then
	echo "check $mode: the guest died (status $guest_rc); its console ended:"
	grep -v '^ok \|^not ok \|^#' "$results/console.log" 2>/dev/null |
		tail -n 25 || true
fi
echo "check $mode: done in $(($(date +%s) - start))s"
echo "check: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
