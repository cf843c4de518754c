#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make diff-check: the differential tester. The same seeded stream of
# tracefs steps (scripts/guest-diff.py: trigger, synthetic and dynamic
# event writes, instances, controls, removals, workload runs) is carried
# out on our kernel and on the untouched upstream kernel, each in a guest
# of its own, at the same time; scripts/diff-compare.py then holds the two
# records against each other, step by step, and every difference against
# scripts/diff-intended.txt. Ends with one line:
#
#   diff-check: N steps, N differences explained, N unexplained (seed S)
#
# N=steps (default 20000), SEED=S (default 1); STEPS=FILE carries out
# the steps of FILE instead ("OP<tab>PATH<tab>TEXT" lines, a blank line
# between episodes: to replay a difference). STRICT=1 (the default from
# 100000 steps on) also fails on an entry of diff-intended.txt that no
# difference matched, so that the list cannot rot. Records and the
# comparison are left in build/diff/.
. "$(dirname "$0")/lib.sh"

n=${N:-20000}
seed=${SEED:-1}
show=3
if [ -n "${STEPS:-}" ]; then
	seed=steps=$(realpath "$STEPS") n=0 show=1000
fi
strict=${STRICT:-$([ "$n" -ge 100000 ] && echo 1 || echo 0)}
out=$BUILD/diff
start=$(date +%s)

# make check has built both kernels already (DIFF_BUILT=1).
if [ "${DIFF_BUILT:-0}" != 1 ]; then
	"$TOP/scripts/build.sh" ours
	"$TOP/scripts/build.sh" ref
fi
mkdir -p "$out"
gcc -O2 -static -Wall -Wextra -Werror -o "$out/diff-load" \
	"$TOP/scripts/diff-load.c"

# A guest per kernel, each on one host thread, both at once. A step
# costs a few milliseconds of guest time; the limit leaves room for the
# slowest machine.
timeout_s=$((600 + n / 5))
export TCG_THREAD=single
pids=
for mode in ours ref; do
	"$TOP/scripts/run.sh" -q -t "$timeout_s" -a "kunit.enable=0 $TEST_GUEST_ARGS" \
		-o "$out/$mode" "$mode" -- python3 "$TOP/scripts/guest-diff.py" \
		"$seed" "$n" /run/io/diff.jsonl "$out/diff-load" \
		>"$out/$mode.log" 2>&1 &
	pids="$pids $!"
done
rc=0
for p in $pids; do
	wait "$p" || rc=1
done
for mode in ours ref; do
	if [ ! -s "$out/$mode/diff.jsonl" ]; then
		echo "diff-check: no record from the $mode guest; its console ended:"
		tail -n 30 "$out/$mode/console.log" 2>/dev/null || true
	fi
done
note "diff-check: guests finished after $(($(date +%s) - start))s"
args=()
[ "$strict" = 1 ] && args+=(--strict)
python3 "$TOP/scripts/diff-compare.py" --seed "$seed" \
	--intended "$TOP/scripts/diff-intended.txt" \
	--report "$out/report.txt" --show "$show" "${args[@]}" \
	"$out/ours/diff.jsonl" "$out/ref/diff.jsonl" || rc=1
exit $rc
