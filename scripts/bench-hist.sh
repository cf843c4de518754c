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
# The kernels measured are the bench kernels (modes ref-bench and
# ours-bench: the test config plus scripts/config/bench.config, i.e. the
# ORC unwinder that distributions use, and BPF for bpftrace).
#
# Printed per scenario: ns per call in each kernel, the hist work (the
# scenario minus the same event with its trigger paused) and the ratio of
# our hist work to the reference's. Then the same answers from bpftrace
# (Debian's, run in each kernel): what counting calls per pid and the
# latency histogram cost over no tracing at all, in hist triggers and in
# bpftrace, and their ratio. Then the time to read a hist of 131072
# entries whole, as cat does. Then the time to remove the hist triggers
# of 200 events, one write each and by an instance's rmdir (in the
# guest's clock: removal waits for the hits in flight, it hardly
# computes), with its bars of issue 32 (at most 0.2x the reference), in
# each pass. Then the bars of issue 16: hist work for
# 1 numeric key at most 110 instructions, 2 keys at most 0.4x the
# reference, the latency pipeline at most 0.6x, the stacktrace key at
# most 0.9x, reading at most 0.5x, and hist triggers below bpftrace for
# both answers; and of issue 32, the latency histogram keyed by the
# variable set in the same hit (no synthetic event, ours only) below
# bpftrace (over no tracing at all), and its hist work at most 0.5x that
# of the reference's synthetic-event pipeline (the ratio over no tracing
# printed beside it). The aggregations upstream lacks are measured on ours alone
# (a table of their own): their hist work, and how much it adds to ours
# for 1 key + 1 value (.max, .avg, .stddev, .p99) or for 1 key
# (.loglin=4), against the bars of issue 15 (20, 20, 40, 60 and 20
# instructions). A kernel without hist triggers is said so ("ours: hist
# triggers not built") and the reference's figures are printed all the
# same. The exit status is 1 only if a kernel could not be measured; bars
# that fail are printed, not an error. Everything a guest printed stays in
# build/bench-hist/MODE-PASS/.
#
# The loop does nothing but call: on the test kernels the reference's
# figures (paused 585.0, 1 key 1009.6 instructions a call) were 53 below
# issue 14's (638.0, 1065.4), whose loop called glibc's getppid() and
# read the clock each call (63 instructions through the vDSO; that loop
# gave 637.7 and 1061.2). The hist work, a difference, agreed within 3
# instructions. The bench kernels give the reference paused 582.0 and
# 1 key 1006.5.
#
#   bench-hist.sh      REPS=3 runs per scenario; WALL=0 skips the second pass;
#                      ONLY=ours (or ref) boots that kernel alone and takes
#                      the other's figures from its last run, for quick turns
. "$(dirname "$0")/lib.sh"

reps=${REPS:-3}
wall=${WALL:-1}
out=$BUILD/bench-hist
loop=$out/getppid-loop

mkdir -p "$out"
for prog in getppid-loop hist-bigread; do
	if [ ! -x "$out/$prog" ] || [ "$TOP/scripts/$prog.c" -nt "$out/$prog" ]; then
		gcc -O2 -static -Wall -Wextra -o "$out/$prog" "$TOP/scripts/$prog.c"
	fi
done

passes=icount
[ "$wall" = 1 ] && passes="icount wall"
rc=0
for pass in $passes; do
	for k in ref ours; do
		[ -n "${ONLY:-}" ] && [ "$ONLY" != "$k" ] && continue
		mode=$k-bench
		opts=(-q -a kunit.enable=0 -t 1800 -o "$out/$k-$pass")
		[ "$pass" = icount ] && opts+=(-I)
		note "bench-hist: $mode kernel, $pass"
		if ! "$TOP/scripts/run.sh" "${opts[@]}" "$mode" -- \
			"$TOP/scripts/guest-bench-hist.sh" "$loop" "$reps" \
			"$(src_of "$mode")" "$(obj_of "$mode")" >/dev/null; then
			echo "bench-hist: the $mode kernel failed, see $out/$k-$pass/" >&2
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
		n = split("none paused key1 key1val1 key2 stacktrace lat-paused lat-vars lat-emit latency lat-key-paused lat-key kp-paused string", order)
		label["lat-vars"] = "latency, 2 vars only"
		label["bpf-count"] = "bpftrace, count"
		label["bpf-latency"] = "bpftrace, latency"
		label["lat-emit"] = "latency, no 3rd hist"
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
		label["lat-key-paused"] = "latency key, paused"
		label["lat-key"] = "latency, variable key"
		label["key1max"] = "1 key + .max"
		label["key1avg"] = "1 key + .avg"
		label["key1stddev"] = "1 key + .stddev"
		label["key1p99"] = "1 key + .p99"
		label["key1loglin"] = "1 key .loglin=4"
	}
	$2 == "kernel" { next }
	$2 == "no-hist" { nohist[$1] = 1; next }
	$2 == "aggregations:" || $2 == "variable" { next }
	$3 == "failed:" || $3 == "warning:" {
		line = $0
		sub(/^[a-z]+ /, "", line)
		notes = notes sprintf("  %s: %s\n", $1, line)
		next
	}
	$2 == "rm-each" || $2 == "rm-rmdir" {
		v[$1, $2] = $4
		rm_n[$1] = $6
		if ($7 != "-")
			rm_empty[$1] = $7
		next
	}
	$2 == "hist-read" {
		v[$1, "hist-read"] = $4
		rd_n[$1] = $6
		rd_b[$1] = $7
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
	# the same answers from bpftrace: cost over no tracing, per kernel
	function over_none(k, id) {
		if (v[k, id] == "" || v[k, "none"] == "")
			return ""
		return v[k, id] - v[k, "none"]
	}
	function bpf(    m, ids, bids, descr, i, k, h, b, r) {
		m = split("key1 latency lat-key", ids)
		split("bpf-count bpf-latency bpf-latency", bids)
		descr[1] = "calls per pid"
		descr[2] = "latency histogram"
		descr[3] = "latency, variable key"
		if (v["ours", "bpf-count"] == "" && v["ref", "bpf-count"] == "")
			return
		print "the same answer from bpftrace: cost over no tracing at all, per call"
		printf "  %-20s %-9s %11s %11s %8s\n", "answer", "kernel", "hist trigger",
			"bpftrace", "hist/bpf"
		for (i = 1; i <= m; i++) {
			for (j = 1; j <= 2; j++) {
				k = j == 1 ? "ref" : "ours"
				h = over_none(k, ids[i])
				b = over_none(k, bids[i])
				if (h == "" && ids[i] == "lat-key")
					continue
				r = (h != "" && b != "" && b > 0) ? sprintf("%.3f", h / b) : "-"
				printf "  %-20s %-9s %11s %11s %8s\n", descr[i],
					k == "ref" ? "reference" : "ours", fig(h), fig(b), r
				ratio_bpf[k, i] = r
			}
		}
		print "  hist trigger: 1 key (calls per pid), the latency pipeline, and the same"
		print "  histogram keyed by $lat on the exit event; bpftrace: @[pid] = count(), and"
		print "  @start[tid] = nsecs / hist(nsecs - @start[tid])"
	}
	function bigread(    k, j, r) {
		if (v["ours", "hist-read"] == "" && v["ref", "hist-read"] == "")
			return
		print "reading a hist of 131072 entries (1 key, 2 values) whole, in 128 KiB reads"
		printf "  %-20s %14s %14s %8s\n", "", "reference", "ours", "ours/ref"
		r = "-"
		if (v["ref", "hist-read"] > 0 && v["ours", "hist-read"] != "")
			r = sprintf("%.3f", v["ours", "hist-read"] / v["ref", "hist-read"])
		printf "  %-20s %14s %14s %8s\n", pass == "icount" ? "instructions" : "ns",
			v["ref", "hist-read"] == "" ? "-" : sprintf("%.0f", v["ref", "hist-read"]),
			v["ours", "hist-read"] == "" ? "-" : sprintf("%.0f", v["ours", "hist-read"]), r
		printf "  %-20s %14s %14s\n", "entries, bytes", rd_n["ref"] ", " rd_b["ref"],
			rd_n["ours"] ", " rd_b["ours"]
		read_ratio = r
	}
	# removing the triggers of 200 events: wall clock in the guest, ms
	function removal(    m, ids, descr, i, r, k) {
		if (v["ours", "rm-each"] == "" && v["ref", "rm-each"] == "")
			return
		print "removing hist:keys=common_pid from " rm_n[v["ours", "rm-each"] == "" ? "ref" : "ours"] \
			" events, in ms of the guest clock (it waits, mostly)"
		printf "  %-20s %14s %14s %8s\n", "", "reference", "ours", "ours/ref"
		m = split("rm-each rm-rmdir", ids)
		descr[1] = "echo > trigger, each"
		descr[2] = "instance rmdir"
		for (i = 1; i <= m; i++) {
			r = "-"
			if (v["ref", ids[i]] > 0 && v["ours", ids[i]] != "")
				r = sprintf("%.3f", v["ours", ids[i]] / v["ref", ids[i]])
			printf "  %-20s %14s %14s %8s\n", descr[i],
				v["ref", ids[i]] == "" ? "-" : sprintf("%.1f", v["ref", ids[i]] / 1e6),
				v["ours", ids[i]] == "" ? "-" : sprintf("%.1f", v["ours", ids[i]] / 1e6), r
			rm_ratio[i] = r
		}
		printf "  %-20s %14s %14s\n", "rmdir, no trigger",
			rm_empty["ref"] == "" ? "-" : sprintf("%.1f", rm_empty["ref"] / 1e6),
			rm_empty["ours"] == "" ? "-" : sprintf("%.1f", rm_empty["ours"] / 1e6)
		bar("removing 200 triggers, each", rm_ratio[1], "0.2", "x the reference")
		bar("removing 200 triggers, rmdir", rm_ratio[2], "0.2", "x the reference")
	}
	function bar(what, x, lim, unit) {
		if (x == "" || x == "-")
			printf "  bar: %s <= %s%s: n/a (not measured)\n", what, lim, unit
		else
			printf "  bar: %s <= %s%s: %s%s, %s\n", what, lim, unit, x, unit,
				x + 0 <= lim + 0 ? "PASS" : "FAIL"
	}
	function wratio(id,    wo, wr) {
		wo = work("ours", id)
		wr = work("ref", id)
		return (wo == "" || wr == "" || wr <= 0) ? "" : sprintf("%.3f", wo / wr)
	}
	function work(k, id) {
		if (v[k, id] == "" || base[id] == "-" || v[k, base[id]] == "")
			return ""
		return v[k, id] - v[k, base[id]]
	}
	END {
		descr_bar[1] = "calls per pid"
		descr_bar[2] = "latency histogram (synthetic event)"
		descr_bar[3] = "latency histogram (variable key)"
		if (pass == "icount")
			print "hist triggers, per getppid() call: instructions (QEMU -icount shift=0," \
				" 1 ns = 1 instruction), least of " reps " runs"
		else
			print "the same in wall-clock ns (no -icount: emulated time, noisy)," \
				" least of " reps " runs"
		printf "  %-20s %9s %9s %9s %9s %8s\n", "scenario", "reference", "ours",
			"ref work", "our work", "ours/ref"
		for (i = 1; i <= n; i++) {
			id = order[i]
			if (v["ref", id] == "" && v["ours", id] == "")
				continue
			wr = work("ref", id)
			wo = work("ours", id)
			ratio = (wr != "" && wo != "" && wr > 0) ? sprintf("%.2f", wo / wr) : "-"
			printf "  %-20s %9s %9s %9s %9s %8s\n", label[id], fig(v["ref", id]),
				fig(v["ours", id]), fig(wr), fig(wo), ratio
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
		bpf()
		bigread()
		removal()
		if (pass != "icount")
			exit
		wo = work("ours", "key1")
		bar("hist work for 1 key", wo == "" ? "" : sprintf("%.1f", wo), 110, " instructions")
		bar("2 keys", wratio("key2"), "0.4", "x the reference")
		bar("latency pipeline", wratio("latency"), "0.6", "x the reference")
		bar("stacktrace key", wratio("stacktrace"), "0.9", "x the reference")
		bar("reading 131072 entries", read_ratio, "0.5", "x the reference")
		for (i = 1; i <= 3; i++) {
			r = ratio_bpf["ours", i]
			if (r == "" || r == "-")
				r = "n/a (not measured)"
			else
				r = r "x, " (r + 0 < 1 ? "PASS" : "FAIL")
			printf "  bar: %s, hist trigger < bpftrace: %s\n", descr_bar[i], r
		}
		# the histogram keyed by $lat against the recipe the reference
		# needs for it, the synthetic event: hist work against hist work,
		# as the bars above; the whole cost over no tracing beside it
		wo = work("ours", "lat-key")
		wr = work("ref", "latency")
		bar("latency, variable key (ours)",
		    (wo != "" && wr != "" && wr > 0) ? sprintf("%.3f", wo / wr) : "",
		    "0.5", "x the synthetic-event pipeline of the reference")
		h = over_none("ours", "lat-key")
		b = over_none("ref", "latency")
		if (h != "" && b != "" && b > 0)
			printf "       (over no tracing, machinery included: %.3fx)\n", h / b
	}'
}

echo
summary icount
if [ "$wall" = 1 ]; then
	echo
	summary wall
fi
exit $rc
