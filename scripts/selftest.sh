#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Tests of the harness itself, on made-up result directories: the pieces
# of check.sh that decide a verdict after the guests have run. A bug there
# fails CI with no failed test to point at, so each one found gets a case
# here. Runs under the same set -e as check.sh. Ends with
# "selftest: N passed, N failed".
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

# expect NAME WANT GOT
expect() {
	if [ "$2" = "$3" ]; then
		passed=$((passed + 1))
	else
		echo "selftest: $1: want [$2], got [$3]"
		failed=$((failed + 1))
	fi
}

# dmesg DIR LINE...: a guest's kernel log made of LINEs
dmesg() {
	local dir=$tmp/$1
	shift
	mkdir -p "$dir"
	printf '%s\n' "$@" >"$dir/dmesg"
}

# Stop 22's CI: the clock check ran last over guests that all kept the
# TSC, its loop ended on a failed grep, and set -e ended check.sh there,
# before lint, with "0 failed" printed.
dmesg tsc-only/guest-0 '[0.1] clocksource: Switched to clocksource tsc-early' \
	'[1.2] clocksource: Switched to clocksource tsc'
dmesg tsc-only/guest-1 '[1.0] clocksource: Switched to clocksource tsc'
dmesg tsc-only/boot/synth '[1.0] clocksource: Switched to clocksource tsc'
got=$(jiffy_clock_guests "$tmp"/tsc-only/guest-*/dmesg "$tmp"/tsc-only/boot/*/dmesg)
expect "every guest on the TSC" "" "$got"

dmesg mixed/guest-0 '[1.0] clocksource: Switched to clocksource tsc'
dmesg mixed/guest-1 '[0.1] clocksource: Switched to clocksource tsc-early' \
	'[2.0] clocksource: Switched to clocksource jiffies'
dmesg mixed/boot/synth '[1.0] clocksource: Switched to clocksource jiffies' \
	'[3.0] clocksource: Switched to clocksource hpet'
dmesg mixed/guest-2 '[1.0] no clocksource line at all'
got=$(jiffy_clock_guests "$tmp"/mixed/guest-*/dmesg "$tmp"/mixed/boot/*/dmesg)
expect "only the guest whose last switch went to jiffies" \
	"$tmp/mixed/guest-1/dmesg" "$got"

got=$(jiffy_clock_guests "$tmp"/none/guest-*/dmesg)
expect "no guest directories" "" "$got"

# Commit 94f41e6 left make bench-hist unable to boot: run.sh asked QEMU
# for a thread per vCPU along with -icount, which it refuses ("No MTTCG
# when icount is enabled"), and the bench measured nothing.
expect "icount guest on one thread" single "$(TCG_THREAD=multi tcg_thread 1)"
expect "icount guest, no thread asked for" single "$(TCG_THREAD='' tcg_thread 1)"
expect "guest without icount as asked" single "$(TCG_THREAD=single tcg_thread 0)"
expect "guest without icount by default" multi "$(TCG_THREAD='' tcg_thread 0)"

echo "selftest: $passed passed, $failed failed"
[ "$failed" = 0 ] || exit 1
