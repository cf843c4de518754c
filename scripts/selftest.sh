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

# The allocation-failure sweep (drive:faults) makes vmalloc fail on
# purpose, and vmalloc warns with a stack: the debug pass must not take
# it for a report, and must still see a report that follows it.
dmesg injected/guest-0 '[1.0] hist-drive: vmalloc error: size 131072, failed to allocate pages, mode:0xdc0(GFP_KERNEL|__GFP_ZERO)' \
	'[1.0] CPU: 0 UID: 0 PID: 63 Comm: hist-drive Not tainted 6.12.117+' \
	'[1.0] Call Trace:' '[1.0]  <TASK>' '[1.0]  dump_stack_lvl+0x5d/0x80' \
	'[1.0]  </TASK>' '[1.1] Mem-Info:'
got=$(without_injected "$tmp"/injected/guest-*/dmesg | grep -c 'Call Trace' || true)
expect "an injected vmalloc failure is not a report" 0 "$got"
dmesg injected/guest-1 '[1.0] hist-drive: vmalloc error: size 131072, failed to allocate pages' \
	'[1.0] Call Trace:' '[1.0]  </TASK>' '[2.0] BUG: KASAN: slab-use-after-free in hist_show' \
	'[2.0] Call Trace:'
got=$(without_injected "$tmp"/injected/guest-1/dmesg | grep -cE 'BUG:|Call Trace' || true)
expect "a report after an injected failure is one" 2 "$got"
got=$(without_injected "$tmp"/injected/guest-1/dmesg "$tmp"/injected/none/dmesg | head -n 1)
expect "lines named after their file, as grep names them" \
	"$tmp/injected/guest-1/dmesg:[2.0] BUG: KASAN: slab-use-after-free in hist_show" "$got"

# make check KCSAN=1 fails on the data races our functions take part in
# (in the title, or in a stack), not on those between others' code.
printf '%s\n' hist_run_hits tracing_map_insert >"$tmp/syms"
dmesg kcsan/guest-0 '[1.0] ==================================================================' \
	'[1.0] BUG: KCSAN: data-race in do_sys_poll / pipe_write' '[1.0] ' \
	'[1.0] write to 0xffff8880 of 4 bytes by task 1 on cpu 0:' \
	'[1.0]  pipe_write+0x1a2/0x5c0' '[1.0] ' \
	'[1.0] ==================================================================' \
	'[2.0] BUG: KCSAN: data-race in hist_run_hits / tracing_map_clear' \
	'[2.0]  hist_run_hits+0x12/0x80' \
	'[2.0] ==================================================================' \
	'[3.0] BUG: KCSAN: data-race in __memcpy / memset_orig' \
	'[3.0] read to 0xffff8881 of 8 bytes by interrupt on cpu 1:' \
	'[3.0]  tracing_map_insert+0x40/0x200' \
	'[3.0] ==================================================================' \
	'[4.0] BUG: KCSAN: data-race in hist_run_hitsx / other' \
	'[4.0] BUG: KCSAN: data-race in tracing_map_insert / other'
dmesg kcsan/guest-1 '[1.0] BUG: KCSAN: data-race in a / b' '[1.0]  c+0x1/0x2'
printf '[5.0] BUG: KCSAN: data-race in x / hist_run_hits\r\n[5.0] ====\r\n' >"$tmp/kcsan/guest-1/console.log"
got=$(kcsan_reports "$tmp/syms" "$tmp"/kcsan/guest-*/dmesg "$tmp"/kcsan/guest-*/console.log "$tmp/kcsan/none" | grep -c 'BUG: KCSAN' || true)
expect "the KCSAN reports naming our functions, in the title or a stack, on a console too" 4 "$got"
got=$(kcsan_reports "$tmp/syms" "$tmp"/kcsan/guest-*/dmesg | grep -c 'do_sys_poll\|hist_run_hitsx\|in a / b' || true)
expect "not the others, nor a name that only starts like ours" 0 "$got"

# A run killed while it held the tree lock leaves git's locks on the
# private index files; with CI's build directory kept from one run to
# the next, the next run's tree.sh then failed at once.
(
	BUILD=$tmp/locks BASE=$tmp/locks/base
	mkdir -p "$BASE/.git/worktrees/src-ours"
	touch "$BUILD/compose.index.lock" "$BASE/.git/series.index.lock" \
		"$BASE/.git/worktrees/src-ours/index.lock" "$BUILD/compose.index"
	tree_lock
	ls "$BUILD" "$BASE/.git" "$BASE/.git/worktrees/src-ours" | grep -c '\.lock$' || true
) >"$tmp/locks.out"
expect "tree_lock removes the locks a killed run left" 0 "$(cat "$tmp/locks.out")"
expect "and nothing else" yes "$([ -f "$tmp/locks/compose.index" ] && echo yes)"

# Commit 94f41e6 left make bench-hist unable to boot: run.sh asked QEMU
# for a thread per vCPU along with -icount, which it refuses ("No MTTCG
# when icount is enabled"), and the bench measured nothing.
expect "icount guest on one thread" single "$(TCG_THREAD=multi tcg_thread 1)"
expect "icount guest, no thread asked for" single "$(TCG_THREAD='' tcg_thread 1)"
expect "guest without icount as asked" single "$(TCG_THREAD=single tcg_thread 0)"
expect "guest without icount by default" multi "$(TCG_THREAD='' tcg_thread 0)"

# scripts/series.py, on a made-up kernel: one upstream file, two files
# of ours and one patch.  It must end where compose_tree() (lib.sh, the
# tree build/src-ours is built from) ends, and refuse a description that
# leaves a file out, takes one twice, applies patches/ out of order or
# adds a patch whose result differs.
series_repo() { # DIR: pristine and source commits in DIR/.git
	local d=$1 up=$1/up
	git init -q "$d"
	mkdir -p "$up/kernel/trace"
	printf 'Intro\n\nMaintainers List\n\nA FIRST\nF:\tfoo/\n\nZ LAST\nF:\tbar/\n' >"$up/MAINTAINERS"
	printf 'obj-y += old.o\n' >"$up/kernel/trace/Makefile"
	(cd "$up" && GIT_DIR=$d/.git GIT_WORK_TREE=$up git add -A &&
	 GIT_DIR=$d/.git GIT_WORK_TREE=$up git commit -q -m pristine &&
	 GIT_DIR=$d/.git git tag pristine)
}
series_source() { # DIR DESCRIPTION: a source commit holding DESCRIPTION
	local d=$1 src=$1/src
	rm -rf "$src"
	mkdir -p "$src/kernel/trace" "$src/patches" "$src/scripts"
	printf 'int a;\n' >"$src/kernel/trace/a.c"
	printf 'int b;\n' >"$src/kernel/trace/b.c"
	printf 'M MINE\nF:\tkernel/trace/a.c\nF:\tkernel/trace/b.c\n' >"$src/MAINTAINERS"
	cat >"$src/patches/0001-make.patch" <<'PATCH'
From: A <a@b.c>
Subject: [PATCH] tracing: Build a and b

Why.

---
diff --git a/kernel/trace/Makefile b/kernel/trace/Makefile
--- a/kernel/trace/Makefile
+++ b/kernel/trace/Makefile
@@ -1 +1 @@
-obj-y += old.o
+obj-y += a.o b.o
PATCH
	printf '%b' "$2" >"$src/scripts/series"
	(GIT_DIR=$d/.git GIT_WORK_TREE=$src GIT_INDEX_FILE=$d/src.index git add -A &&
	 GIT_DIR=$d/.git GIT_INDEX_FILE=$d/src.index git commit-tree \
		"$(GIT_DIR=$d/.git GIT_INDEX_FILE=$d/src.index git write-tree)" -m source)
}
series_run() { # DESCRIPTION: "ok" or series.py's complaint
	local d=$tmp/series src want out
	[ -d "$d" ] || series_repo "$d" >/dev/null
	src=$(series_source "$d" "$1")
	want=$(BASE=$d BUILD=$tmp compose_tree pristine "$src")
	if out=$(python3 "$TOP/scripts/series.py" "$d/.git" "$src" pristine "$want" 2>&1); then
		echo ok
	else
		echo "$out" | head -n 1 | sed "s/:.*//; s/^series/refused/"
	fi
}
good='patch: tracing: Add a\nfiles: kernel/trace/a.c\n\tWhy a.\n\npatch: tracing: Add b\nfiles: kernel/trace/b.c\napply: patches/0001-make.patch\n\tWhy b.\n'
expect "series.py: a good description" ok "$(series_run "$good")"
expect "series.py: a file left out" refused \
	"$(series_run 'patch: tracing: Add a\nfiles: kernel/trace/a.c\napply: patches/0001-make.patch\n\tWhy.\n')"
expect "series.py: a file taken twice" refused \
	"$(series_run "${good}\npatch: tracing: Again\nfiles: kernel/trace/a.c\n\tWhy.\n")"
expect "series.py: a patch not applied" refused \
	"$(series_run 'patch: tracing: Add a and b\nfiles: kernel/trace/\n\tWhy.\n')"
expect "series.py: a patch without a message" refused \
	"$(series_run 'patch: tracing: Add a and b\nfiles: kernel/trace/\napply: patches/0001-make.patch\n')"
expect "series.py: a description that misses a file of patches/" refused \
	"$(series_run 'patch: -\napply: patches/0002-none.patch\n\npatch: tracing: Add\nfiles: kernel/trace/\napply: patches/0001-make.patch\n\tWhy.\n')"

# results.py: a client test (guest-clients.sh) is kept as an extra boot
# is, IO/client/NAME with cmd, output and status, plus the versions of
# the client in "version", which its result line shows; it passes if its
# status is 0, and its time counts from cmd to status.
client_io() { # NAME STATUS
	local d=$tmp/clients/client/$1
	mkdir -p "$d"
	echo "/x/$1.sh" >"$d/cmd"
	printf 'client: %s 1.2\nclient:%s: ...\n' "$1" "$1" >"$d/output"
	echo "$1 1.2" >"$d/version"
	echo "$2" >"$d/status"
}
client_io trace-cmd 0
client_io cyclictest 1
printf 'client:cyclictest pass\nclient:trace-cmd pass\n' >"$tmp/clients.txt"
got=$(python3 "$TOP/scripts/results.py" --io "$tmp/clients" \
	--expected "$tmp/clients.txt" --kunit-py /dev/null |
	grep -E '^  [a-z]|^MISMATCH|^tests' || true)
expect "client tests: their results, with the clients' versions" \
	"  fail         client:cyclictest (cyclictest 1.2)
  pass         client:trace-cmd (trace-cmd 1.2)
MISMATCH client:cyclictest: got fail, expected pass
tests: 1 passed, 1 failed, 0 skipped" "$got"
expect "client tests: their times" "client:cyclictest 0
client:trace-cmd 0" "$(python3 "$TOP/scripts/results.py" --io "$tmp/clients" --times)"

# make diff-check's verdict (diff-compare.py) on made-up records: a
# difference no entry explains fails, one an entry explains does not,
# what follows a parted write in its episode is not judged again, the
# next episode is, and a full run fails on an entry that matched nothing.
rec() { # FILE JSON...: a record of steps
	local f=$1
	shift
	printf '%s\n' "$@" >"$f"
}
cat >"$tmp/intended.txt" <<'INTENDED'
[new-keyword]
item: ^rc$
ours: ^ok$
ref: ^EINVAL$
text: :frob
reason: made up: only ours knows :frob

[never-seen]
item: ^trace$
reason: made up: nothing differs there
INTENDED
step() { # N EP TEXT RC [ITEM VALUE]
	printf '{"n": %d, "ep": %d, "op": "write", "path": "p", "text": "%s", "out": {"rc": "%s"%s}}' \
		"$1" "$2" "$3" "$4" "${5:+, \"$5\": \"$6\"}"
}
diffcmp() { # ARGS...: the last line of diff-compare.py and its status
	local out rc=0
	out=$(python3 "$TOP/scripts/diff-compare.py" --seed 7 --show 0 \
		--intended "$tmp/intended.txt" "$@") || rc=$?
	echo "${out##*$'\n'} [$rc]"
}
rec "$tmp/o1" "$(step 1 0 hist:a:frob ok)" "$(step 2 0 hist:b EINVAL)" \
	"$(step 3 1 hist:c ok hist:e '{ x: 1 }')"
rec "$tmp/r1" "$(step 1 0 hist:a:frob EINVAL)" "$(step 2 0 hist:b ok)" \
	"$(step 3 1 hist:c ok hist:e '{ x: 2 }')"
expect "diff: an intended root, a follower, an unexplained difference" \
	"diff-check: 3 steps, 1 differences explained, 1 unexplained (seed 7) [1]" \
	"$(diffcmp "$tmp/o1" "$tmp/r1")"
rec "$tmp/r2" "$(step 1 0 hist:a:frob EINVAL)" "$(step 2 0 hist:b ok)" \
	"$(step 3 1 hist:c ok hist:e '{ x: 1 }')"
expect "diff: every difference explained" \
	"diff-check: 3 steps, 1 differences explained, 0 unexplained (seed 7) [0]" \
	"$(diffcmp "$tmp/o1" "$tmp/r2")"
expect "diff: a full run fails on an entry that matched nothing" \
	"diff-check: 3 steps, 1 differences explained, 0 unexplained (seed 7) [1]" \
	"$(diffcmp --strict "$tmp/o1" "$tmp/r2")"
rec "$tmp/r3" "$(step 1 0 hist:a:frob EINVAL)"
expect "diff: a record that stops early is a difference" \
	"diff-check: 1 steps, 1 differences explained, 1 unexplained (seed 7) [1]" \
	"$(diffcmp "$tmp/o1" "$tmp/r3")"

# results.py --dirty: a test left what ftracetest's reset cannot remove,
# and the reset failed before each run after it (c.tc left it: d.tc's
# reset failed, b.tc failed by itself). The runs from d.tc on, and the
# earlier run of a.tc, whose instance run came after, are set aside and
# their files run again, in order, but not c.tc: it gets the result
# left-dirty, and its instance run, set aside, did not run.
ft_case() { # DIR N RESULT [instance] TEST: a case's log and result
	local d=$1/ftrace n=$2 res=$3 inst='' t
	shift 3
	[ "$1" != instance ] || { inst=' (instance) '; shift; }
	t=/x/ftrace/test.d/trigger/$1
	mkdir -p "$d"
	[ -f "$d/ftracetest.log" ] || printf 'Thu Jan  1 00:00:00 UTC 2026\n' >"$d/ftracetest.log"
	printf '[%s]%s%s\t[%s]\n' "$n" "$inst" "$1" "$res" >>"$d/ftracetest.log"
	{
		echo "execute$inst: $t"
		echo "+ initialize_ftrace"
		if [ "$res" = RESET ]; then
			echo "sh: 1: echo: echo: I/O error"
		else
			echo "+ . $t"
		fi
	} >"$d/$n-$1-log.x"
	[ "$res" != RESET ] || sed -i "\$s/\[RESET\]/[FAIL]/" "$d/ftracetest.log"
}
g=$tmp/dirty/guest-0
ft_case "$g" 1 PASS a.tc
ft_case "$g" 2 FAIL b.tc
ft_case "$g" 3 PASS c.tc
ft_case "$g" 4 RESET d.tc
ft_case "$g" 5 RESET instance a.tc
ft_case "$g" 6 RESET instance c.tc
echo 'dynamic_events: s:synthetic/left u64 lat' >"$g/ftrace/left-behind"
expect "results.py --dirty: the files to run again" \
	"test.d/trigger/d.tc
test.d/trigger/a.tc" "$(python3 "$TOP/scripts/results.py" --dirty "$g")"
expect "results.py --dirty: what is set aside" "1-a.tc-log.x 4-d.tc-log.x 5-a.tc-log.x 6-c.tc-log.x" \
	"$(cd "$g/ftrace/dirty" && echo *)"
expect "results.py --dirty: once" "" "$(python3 "$TOP/scripts/results.py" --dirty "$g")"
ft_case "$tmp/dirty/guest-0-r1" 1 PASS d.tc
ft_case "$tmp/dirty/guest-0-r1" 2 PASS a.tc
ft_case "$tmp/dirty/guest-0-r1" 3 PASS instance a.tc
printf 'ftrace:trigger/%s pass\n' a.tc a.tc:instance c.tc c.tc:instance d.tc >"$tmp/dirty.txt"
echo 'ftrace:trigger/b.tc fail -- made up' >>"$tmp/dirty.txt"
got=$(python3 "$TOP/scripts/results.py" --io "$tmp/dirty" --reference \
	--expected "$tmp/dirty.txt" --kunit-py /dev/null |
	grep -E '^  [a-z]|^MISMATCH|^tests|^(ftrace:.* dirty|    dyn)' || true)
expect "results.py: the test that left its guest dirty" \
	"  pass         ftrace:trigger/a.tc
  pass         ftrace:trigger/a.tc:instance
  fail         ftrace:trigger/b.tc
  left-dirty   ftrace:trigger/c.tc
  did-not-run  ftrace:trigger/c.tc:instance
  pass         ftrace:trigger/d.tc
MISMATCH ftrace:trigger/c.tc: got left-dirty, expected pass
ftrace:trigger/c.tc left the tracing state dirty.
    dynamic_events: s:synthetic/left u64 lat
MISMATCH ftrace:trigger/c.tc:instance: got did-not-run, expected pass
tests: 3 passed, 2 failed, 1 skipped" "$got"

echo "selftest: $passed passed, $failed failed"
[ "$failed" = 0 ] || exit 1
