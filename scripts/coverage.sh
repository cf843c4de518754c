#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make coverage: which lines and branches of our kernel files the tests
# reach. Builds the ours-cov kernel (gcov counts for kernel/trace/,
# scripts/config/coverage.config), runs make check's tests on it (KUnit,
# ftracetest, the clients, and hist-drive's volume run and
# allocation-failure sweep: COVERAGE=1), collects the counts each guest
# wrote (guest-init.sh) and writes, under build/coverage:
#   ours.info    lcov's tracefile of our files
#   html/        genhtml's report of it
#   table.txt    lines, branches and functions per file, and the
#                functions no test reached (scripts/coverage.py)
# The table is printed too; its last line is
# "coverage: lines N.N%, branches N.N%" for our files, KUnit suites
# apart. Not in make check: a kernel build of its own.
. "$(dirname "$0")/lib.sh"

mode=ours-cov
results=$BUILD/results-$mode
out=$BUILD/coverage
lcov_rc=(--rc lcov_branch_coverage=1)

command -v lcov >/dev/null || die "lcov missing: run scripts/deps.sh"

# Counts from an earlier run must not be taken for this one's.
rm -rf "$results" "$out"
mkdir -p "$out"

# The volume run only has to take every case of the corpus a few
# times here, not 10,000 triggers.
export COVERAGE=1 REF=0 DEBUG=0 KCSAN=0 DRIVE_N=${DRIVE_N:-600}
rc=0
"$TOP/scripts/check.sh" 2>&1 | tee "$out/check.log" || rc=$?
# A failed test still leaves its guest's counts; a check.sh that stopped
# before running the tests (no "check:" line) leaves nothing to measure.
grep -q '^check: ' "$out/check.log" ||
	die "coverage: the tests did not run (see $out/check.log)"
[ "$rc" = 0 ] ||
	note "coverage: some tests failed (above); their counts are taken all the same"

obj=$(realpath "$(obj_of "$mode")")
# Each guest's counts, beside a copy of the objects' notes (.gcno), in a
# tree shaped like the object directory, whose sources gcov then finds
# at the names kbuild compiled them by ("../kernel/trace/x.c").
infos=()
n=0
while read -r dir; do
	n=$((n + 1))
	w=$out/guest$n/kernel/trace
	mkdir -p "$w"
	cp "$dir"/*.gcda "$w/"
	for f in "$w"/*.gcda; do
		cp "$obj/kernel/trace/$(basename "${f%.gcda}").gcno" "$w/"
	done
	lcov -q "${lcov_rc[@]}" --capture --directory "$out/guest$n" \
		--base-directory "$obj" --output-file "$out/guest$n.info" ||
		die "coverage: lcov could not read the counts of $dir"
	infos+=(--add-tracefile "$out/guest$n.info")
done < <(find "$results" -type d -path '*/gcov/*/kernel/trace' | sort)
[ $n -gt 0 ] || die "coverage: no guest wrote gcov counts under $results"
# A guest that ended without writing its counts (it crashed, or was
# killed at its timeout) makes the figures below too low: say which.
# (A guest's directory is the one run.sh wrote its console log to.)
while read -r log; do
	g=$(dirname "$log")
	[ -d "$g/gcov" ] || note "coverage: no counts from ${g#"$results"/} (its tests are missing from the figures)"
done < <(find "$results" -name console.log -type f | sort)
lcov -q "${lcov_rc[@]}" "${infos[@]}" --output-file "$out/all.info"

mapfile -t files < <(overlay_files | grep -E '^kernel/trace/.*\.[ch]$')
python3 "$TOP/scripts/coverage.py" "$out/all.info" "$SRC_OURS" \
	"$out/ours.info" "${files[@]}" | tee "$out/table.txt"
genhtml -q "${lcov_rc[@]}" --branch-coverage --output-directory "$out/html" \
	"$out/ours.info" >/dev/null
note "coverage: $n guests' counts; the report is $out/html/index.html"
