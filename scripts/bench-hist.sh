#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench-hist: the per-hit cost of hist triggers, our kernel against
# the upstream reference, in one run.
#
# A static program (scripts/getppid-loop.c, built here with gcc -O2
# -static) calls getppid() in a loop under a hist trigger on
# syscalls/sys_enter_getppid; scripts/guest-bench-hist.sh sets up each
# scenario in turn and times it (the least of REPS runs). Each kernel boots
# once under QEMU's -icount shift=0, where guest time counts instructions
# (1 ns = 1 instruction; the same to about 0.05% from run to run, whatever
# the host's load), then, unless WALL=0, once more without it for plain
# wall-clock figures (emulated time, as noisy as the host is busy).
#
# Printed per scenario: ns per call in each kernel, the hist work (the
# scenario minus the same event with its trigger paused) and the ratio of
# our hist work to the reference's; then the bars of the issue: hist work
# for 1 numeric key at most 150 instructions, every scenario at most 0.7x
# the reference. The aggregations upstream lacks are measured on ours alone
# (a table of their own): their hist work, and how much it adds to ours
# for 1 key + 1 value (.max, .avg, .stddev, .p99) or for 1 key
# (.loglin=4), against the bars of issue 15 (20, 20, 40, 60 and 20
# instructions). A kernel without hist triggers is said so ("ours: hist
# triggers not built") and the reference's figures are printed all the
# same. The exit status is 1 only if a kernel could not be measured; bars
# that fail are printed, not an error. Everything a guest printed stays in
# build/bench-hist/MODE-PASS/.
#
# The loop does nothing but call: the reference's figures (paused 585.0,
# 1 key 1009.6 instructions a call) are 53 below the issue's (638.0,
# 1065.4), whose loop called glibc's getppid() and read the clock each
# call (63 instructions through the vDSO; that loop gives 637.7 and
# 1061.2 here). The hist work, a difference, agrees within 3 instructions.
#
#   bench-hist.sh      REPS=3 runs per scenario; WALL=0 skips the second pass
. "$(dirname "$0")/lib.sh"

reps=${REPS:-3}
wall=${WALL:-1}
out=$BUILD/bench-hist
loop=$out/getppid-loop
src=$TOP/scripts/getppid-loop.c

mkdir -p "$out"
if [ ! -x "$loop" ] || [ "$src" -nt "$loop" ]; then
	gcc -O2 -static -Wall -Wextra -o "$loop" "$src"
fi

passes=icount
[ "$wall" = 1 ] && passes="icount wall"
rc=0
for pass in $passes; do
	for mode in ref ours; do
		opts=(-q -a kunit.enable=0 -t 900 -o "$out/$mode-$pass")
		[ "$pass" = icount ] && opts+=(-I)
		note "bench-hist: $mode kernel, $pass"
		if ! "$TOP/scripts/run.sh" "${opts[@]}" "$mode" -- \
			"$TOP/scripts/guest-bench-hist.sh" "$loop" "$reps" >/dev/null; then
			echo "bench-hist: the $mode kernel failed, see $out/$mode-$pass/" >&2
			rc=1
		fi
	done
done

# summary PASS: one table from build/bench-hist/{ref,ours}-PASS/output.
summary() {
	local pass=$1 f
	for f in ref ours; do
		if [ -f "$out/$f-$pass/output" ]; then
			sed -n "s/^bench-hist: /$f /p" "$out/$f-$pass/output"
		fi
	done | awk -v pass="$pass" -v reps="$reps" '
	BEGIN {
		n = split("none paused key1 key1val1 key2 stacktrace lat-paused latency kp-paused string", order)
		label["none"] = "no trigger"
		label["paused"] = "paused (machinery)"
		label["key1"] = "1 key"
		label["key1val1"] = "1 key + 1 value"
		label["key2"] = "2 keys"
		label["string"] = "string key"
		label["stacktrace"] = "stacktrace key"
		label["kp-paused"] = "kprobe, paused"
		label["lat-paused"] = "latency, paused"
		label["latency"] = "latency pipeline"
		label["key1max"] = "1 key + .max"
		label["key1avg"] = "1 key + .avg"
		label["key1stddev"] = "1 key + .stddev"
		label["key1p99"] = "1 key + .p99"
		label["key1loglin"] = "1 key .loglin=4"
	}
	$2 == "kernel" { next }
	$2 == "no-hist" { nohist[$1] = 1; next }
	$2 == "aggregations:" { next }
	$3 == "failed:" || $3 == "warning:" {
		line = $0
		sub(/^[a-z]+ /, "", line)
		notes = notes sprintf("  %s: %s\n", $1, line)
		next
	}
	NF == 7 {
		seen[$1] = 1
		base[$2] = $3
		v[$1, $2] = $4
		if ($5 - $4 >= spread[$1]) {
			spread[$1] = $5 - $4
			spread_id[$1] = $2
			spread_rel[$1] = 100 * ($5 - $4) / $4
		}
	}
	function fig(x) { return x == "" ? "-" : sprintf("%.1f", x) }
	# the aggregations, ours only: work, and what each adds to its base
	function aggs(bars,    m, ids, over, lim, i, id, wo, wb, extra, bar) {
		m = split("key1max key1avg key1stddev key1p99 key1loglin", ids)
		split("key1val1 key1val1 key1val1 key1val1 key1", over)
		split("20 20 40 60 20", lim)
		if (v["ours", "key1max"] == "")
			return
		print "aggregations (ours only): hist work, and what it adds to the scenario it extends"
		printf "  %-20s %9s %9s %-16s %9s %s\n", "scenario", "ours", "our work",
			"over", "added", bars ? "bar" : ""
		for (i = 1; i <= m; i++) {
			id = ids[i]
			wo = work("ours", id)
			wb = work("ours", over[i])
			extra = (wo != "" && wb != "") ? wo - wb : ""
			bar = ""
			if (bars && extra == "")
				bar = "n/a"
			else if (bars)
				bar = sprintf("<= %d: %s", lim[i], extra <= lim[i] ? "PASS" : "FAIL")
			printf "  %-20s %9s %9s %-16s %9s %s\n", label[id], fig(v["ours", id]),
				fig(wo), label[over[i]], fig(extra), bar
		}
	}
	function work(k, id) {
		if (v[k, id] == "" || base[id] == "-" || v[k, base[id]] == "")
			return ""
		return v[k, id] - v[k, base[id]]
	}
	END {
		if (pass == "icount")
			print "hist triggers, per getppid() call: instructions (QEMU -icount shift=0," \
				" 1 ns = 1 instruction), least of " reps " runs"
		else
			print "the same in wall-clock ns (no -icount: emulated time, noisy)," \
				" least of " reps " runs"
		printf "  %-20s %9s %9s %9s %9s %8s\n", "scenario", "reference", "ours",
			"ref work", "our work", "ours/ref"
		worst = 0
		for (i = 1; i <= n; i++) {
			id = order[i]
			if (v["ref", id] == "" && v["ours", id] == "")
				continue
			wr = work("ref", id)
			wo = work("ours", id)
			ratio = (wr != "" && wo != "" && wr > 0) ? sprintf("%.2f", wo / wr) : "-"
			printf "  %-20s %9s %9s %9s %9s %8s\n", label[id], fig(v["ref", id]),
				fig(v["ours", id]), fig(wr), fig(wo), ratio
			if (base[id] != "none" && base[id] != "-") {
				if (ratio == "-")
					missing = missing (missing == "" ? "" : ", ") label[id]
				else if (ratio + 0 > worst) {
					worst = ratio + 0
					worst_id = id
				}
			}
		}
		print "  work: the scenario minus the same event with its trigger paused; for the"
		print "  paused rows, minus no trigger: the trigger machinery and event record (not ours)"
		name["ref"] = "reference"
		name["ours"] = "ours"
		for (j = 1; j <= 2; j++) {
			k = j == 1 ? "ref" : "ours"
			if (nohist[k])
				printf "  %s: hist triggers not built\n", name[k]
			if (seen[k])
				printf "  %s: the %d runs of a scenario differ by at most %.1f (%.2f%%, %s)\n",
					name[k], reps, spread[k], spread_rel[k], label[spread_id[k]]
		}
		printf "%s", notes
		aggs(pass == "icount")
		if (pass != "icount")
			exit
		if (nohist["ours"] || !seen["ours"] || work("ours", "key1") == "") {
			print "  bar: hist work for 1 key <= 150 instructions: n/a (not measured)"
			print "  bar: every scenario <= 0.7x the reference: n/a (not measured)"
			exit
		}
		wo = work("ours", "key1")
		printf "  bar: hist work for 1 key <= 150 instructions: %.1f, %s\n", wo,
			wo <= 150 ? "PASS" : "FAIL"
		wo = work("ours", "latency")
		wr = work("ref", "latency")
		if (wo == "" || wr == "" || wr <= 0)
			print "  bar: latency pipeline <= 0.6x the reference: n/a (not measured)"
		else
			printf "  bar: latency pipeline <= 0.6x the reference: %.2fx, %s\n",
				wo / wr, wo / wr <= 0.6 ? "PASS" : "FAIL"
		printf "  bar: every scenario <= 0.7x the reference: worst %.2fx (%s)%s, %s\n",
			worst, label[worst_id], missing == "" ? "" : "; not measured: " missing,
			worst <= 0.7 && missing == "" ? "PASS" : "FAIL"
	}'
}

echo
summary icount
if [ "$wall" = 1 ]; then
	echo
	summary wall
fi
exit $rc
