# SPDX-License-Identifier: GPL-2.0
# Common settings for the driver scripts; sourced, never run.

set -Eeuo pipefail
shopt -s inherit_errexit
# A script that set -e stops says where, so that a CI log shows why a
# check ended without a failed test.
trap 'echo "error: ${BASH_SOURCE[0]##*/}:$LINENO: \"$BASH_COMMAND\" failed (status $?)" >&2' ERR

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
BASE=$BUILD/base			# pristine tree, a git repository
SRC_OURS=$BUILD/src-ours		# worktree of $BASE with our series on top
BASE_TARBALL=/usr/src/linux-source-6.12.tar.xz
BASE_PKG=linux-source-6.12
BASE_PKG_VERSION=6.12.117-1~deb12u1

# The upstream implementation our series replaces; ours mode removes it.
UPSTREAM_FILES="kernel/trace/tracing_map.c kernel/trace/tracing_map.h
kernel/trace/trace_events_hist.c kernel/trace/trace_events_synth.c
kernel/trace/trace_synth.h Documentation/trace/histogram.rst
Documentation/trace/histogram-design.rst"

# Directories of this repository that are laid over the kernel tree.
OVERLAY_DIRS="kernel include Documentation tools/testing"

JOBS=${JOBS:-$(($(nproc) + 1))}

die() { echo "error: $*" >&2; exit 1; }

# kernel_cc: set KERNEL_CC to the compiler for kernel builds, through
# ccache when there is one. The kernels' builds name their sources
# relative to the tree (see obj_of); the others (lint's sparse pass, the
# bisect and cross checks) pass absolute paths, which ccache hashes
# relative to build/ so that another clone of this repository (CI's)
# hits the same cache entries.
#
# It also takes the harness's own variables (make check REF=1 DEBUG=1
# KCSAN=1 ...) out of the environment of the builds: the kernel's tools
# read some of them. tools/lib/subcmd builds at -O0 when DEBUG=1, with
# other flags when DEBUG=0 than when it is unset; objtool, linked with
# it, is a prerequisite of every object, so each change of DEBUG rebuilt
# the whole kernel (measured: 1,153 objects, 148 s, in CI's debug pass),
# and the debug kernel ran its objtool unoptimised. A variable given on
# make's command line also reaches every sub-make through MAKEFLAGS:
# that goes too (the builds pass -j themselves).
kernel_cc() {
	unset REF DEBUG KCSAN COVERAGE MAKEFLAGS MFLAGS MAKEOVERRIDES
	export CCACHE_BASEDIR=$BUILD
	KERNEL_CC=gcc
	if command -v ccache >/dev/null; then KERNEL_CC="ccache gcc"; fi
}
note() { echo "==> $*" >&2; }

# Progress of the long steps (packages, the kernel tarball, compiling),
# on stderr like note's lines. On a terminal each report replaces the
# last, every two seconds; in a log (CI's) a report is a line of its
# own, one a minute. A step calls progress_start, then progress_due to
# know when to report, and progress, which adds the time the step has
# taken so far; progress_took says how long it took in all.
if [ -t 2 ]; then PROGRESS_EVERY=2; else PROGRESS_EVERY=60; fi
progress_t0=0 progress_last=0
progress_start() { progress_t0=$SECONDS progress_last=$SECONDS; }
progress_due() { # true, and restarts the interval, when a report is due
	[ $((SECONDS - progress_last)) -ge "$PROGRESS_EVERY" ] || return 1
	progress_last=$SECONDS
}
progress_took() {
	local s=$((SECONDS - progress_t0))
	printf '%dm%02ds' $((s / 60)) $((s % 60))
}
progress() {
	if [ -t 2 ]; then
		printf '\r\033[K==> %s, %s' "$*" "$(progress_took)" >&2
	else
		echo "==> $*, $(progress_took)" >&2
	fi
}
progress_end() { [ ! -t 2 ] || printf '\r\033[K' >&2; }

# Kernel arguments of every test guest (make check, make diff-check), not
# of the benchmarks: expedited RCU grace periods. Removing a trigger, and
# the write of "0" to each subsystem's filter with which ftracetest resets
# a guest before every test, wait for a grace period, and a normal one
# leaves the guest idle for some ticks each time. Measured under -icount
# on the debug kernel: ftracetest's reset before a test fell from 1.0 s to
# 0.26 s of guest time, a trigger made and removed from 66 ms to 8 ms.
# The same guarantees, so the same tests.
TEST_GUEST_ARGS="rcupdate.rcu_expedited=1"

# without_injected FILE...: the kernel logs, each line after its file's
# name as grep prints it, less what the allocation-failure sweep
# (drive:faults) makes the kernel say on purpose: a vmalloc whose pages
# it failed warns with a stack ("hist-drive: vmalloc error: ..." to the
# stack's "</TASK>"), which is not a report.
without_injected() {
	local f
	for f in "$@"; do
		[ -f "$f" ] || continue
		awk -v f="$f" '
			/ hist-drive: (vmalloc error|page allocation failure):/ { skip = 1; n = 0 }
			!skip { print f ":" $0 }
			skip && (/<\/TASK>/ || ++n > 100) { skip = 0 }' "$f"
	done
}

# embed_name OBJ: the name, relative to the object directory OBJ, that a
# kernel's config gives the bootconfig it embeds (base.config). The name
# lands in autoconf.h, which every compile includes, so it must not say
# where the repository is, or each clone of it would miss ccache's direct
# mode on every file. It is the file's place under BUILD's parent: that
# is the repository itself when BUILD is build/, and a copy kept there
# when BUILD is elsewhere (.ci/run's, which outlives its clones).
embed_name() {
	local file=$BUILD/../scripts/config/boot-synth.bconf
	if [ "$(realpath -m "$BUILD/..")" != "$(realpath "$TOP")" ]; then
		# not the file of another checkout
		[ ! -e "$BUILD/../.git" ] ||
			die "BUILD=$BUILD is the build directory of another checkout"
		mkdir -p "$(dirname "$file")"
		cmp -s "$TOP/scripts/config/boot-synth.bconf" "$file" ||
			cp "$TOP/scripts/config/boot-synth.bconf" "$file"
	fi
	realpath --relative-to="$1" "$file"
}

# tree_lock: take the lock that makes the scripts which compose trees
# and series (tree.sh, patches.sh) wait for each other: they share
# private index files, and the worktree build/src-ours. Whatever lock
# git left on those is then stale, a run killed half-way (CI's build
# directory outlives its runs, .ci/run): remove it, or git would refuse
# to start until someone does.
tree_lock() {
	mkdir -p "$BUILD"
	exec 9>"$BUILD/.tree.lock"
	flock 9
	rm -f "$BUILD/compose.index.lock" "$BUILD/removal.index.lock" \
		"$BASE/.git/series.index.lock" "$BASE/.git/worktrees/src-ours/index.lock" \
		"$BASE/.git/worktrees/src-ours/HEAD.lock" \
		"$BASE/.git/refs/heads/series.lock" "$BASE/.git/refs/ours/head.lock"
}

# jiffy_clock_guests DMESG...: the kernel logs, of those that exist, whose
# last clocksource switch went to jiffies (the TSC failed to calibrate).
jiffy_clock_guests() {
	local d
	for d in "$@"; do
		[ -f "$d" ] || continue
		if grep -o 'Switched to clocksource [^ ]*' "$d" | tail -n 1 |
			grep -q '^Switched to clocksource jiffies$'; then
			echo "$d"
		fi
	done
}

# tcg_thread ICOUNT: QEMU's TCG threading for a guest, "single" or
# "multi" (TCG_THREAD, default multi). A guest timed with -icount
# (ICOUNT=1) counts the instructions of one thread that runs every vCPU
# in turn: QEMU refuses it a thread per vCPU, whatever was asked for.
tcg_thread() {
	if [ "$1" = 1 ]; then
		echo single
	else
		echo "${TCG_THREAD:-multi}"
	fi
}

# mode_of REF DEBUG [KCSAN [COVERAGE]] -> ours | ref | ours-debug |
# ref-debug | ours-kcsan | ours-cov. KCSAN cannot share a kernel with
# KASAN, and upstream keeps it out of kernel/trace/, so there is no
# ref-kcsan to compare with; ours-cov is make coverage's.
mode_of() {
	local m=ours
	[ "${1:-0}" = 1 ] && m=ref
	[ "${2:-0}" = 1 ] && m=$m-debug
	if [ "${3:-0}" = 1 ]; then
		[ "$m" = ours ] || die "KCSAN=1 is a mode of its own: ours, without REF or DEBUG"
		m=ours-kcsan
	fi
	if [ "${4:-0}" = 1 ]; then
		[ "$m" = ours ] || die "COVERAGE=1 is a mode of its own: ours, without REF, DEBUG or KCSAN"
		m=ours-cov
	fi
	echo "$m"
}

# kcsan_reports SYMBOLS FILE...: the KCSAN reports in the kernel logs or
# console logs FILE... that name one of the functions listed in the file
# SYMBOLS (one name a line) in their title or in one of their stacks:
# the races our code takes part in. The others, between two pieces of code that are
# not ours, are the business of those pieces' maintainers.
kcsan_reports() {
	local syms=$1 f logs=()
	shift
	for f in "$@"; do
		[ ! -f "$f" ] || logs+=("$f")
	done
	[ ${#logs[@]} -gt 0 ] || return 0
	# A report ends with a line of "="; one that a log's end cut short
	# counts all the same.
	awk 'function flush() {
		if (inside && hit)
			printf "%s", text
		inside = 0
	     }
	     FNR == NR { ours[$1] = 1; next }
	     { sub(/\r$/, "") }
	     FNR == 1 { flush() }
	     /BUG: KCSAN: / { flush(); inside = 1; text = ""; hit = 0 }
	     inside {
		text = text FILENAME ":" $0 "\n"
		n = split($0, w, /[ \t\/]+/)
		for (i = 1; i <= n; i++) {
			f = w[i]
			sub(/\+0x.*/, "", f)
			if (f in ours)
				hit = 1
		}
		if (/==========/)
			flush()
	     }
	     END { flush() }' "$syms" "${logs[@]}"
}

# Source tree and object directory of a mode.
src_of() { case $1 in ref*) echo "$BASE" ;; *) echo "$SRC_OURS" ;; esac; }
# build/obj-MODE is a link to the directory the objects are in,
# .obj-MODE inside the mode's source tree: kbuild then names the sources
# "../kernel/fork.c" and the headers "-I../include", the same for every
# tree, and ccache finds what it compiled for one tree (ours) when it
# compiles the same file for another (the reference). From nothing, the
# reference then costs the preprocessor, not the compiler, for every
# file our series does not touch.
obj_of() { echo "$BUILD/obj-$1"; }
obj_dir_of() { echo "$(src_of "$1")/.obj-$1"; }
# Where build.sh installs the modules of a mode: DIR/lib/modules/RELEASE.
modroot_of() { echo "$(obj_of "$1")/modroot"; }

# The overlay files of this repository's working tree (tracked and new),
# relative to the top.
overlay_files() {
	# shellcheck disable=SC2086
	(cd "$TOP" && env -u GIT_DIR -u GIT_INDEX_FILE \
		git ls-files -co --exclude-standard -- $OVERLAY_DIRS)
}

# A check script's tests (series-check, cross-check, bisect-check): a
# line per test, "LABEL: NAME: pass" or "LABEL: NAME: FAIL" and what
# failed, indented; then check_finish's "LABEL: N passed, N failed",
# which check.sh counts.
check_passed=0 check_failed=0
check_verdict() { # LABEL NAME PROBLEMS (none: pass)
	if [ -z "$3" ]; then
		check_passed=$((check_passed + 1))
		echo "$1: $2: pass"
	else
		check_failed=$((check_failed + 1))
		echo "$1: $2: FAIL"
		echo "$3" | sed 's/^/    /' | head -n 60
	fi
}
check_finish() { # LABEL: the summary, and exit 1 if a test failed
	echo "$1: $check_passed passed, $check_failed failed"
	if [ "$check_failed" = 0 ]; then exit 0; fi
	exit 1
}

# our_file_lines: the lines of stdin (a compiler's output) that name one
# of our kernel files with a line number.
our_file_lines() {
	local rx
	rx=$(overlay_files | grep -E '^kernel/.*\.[ch]$' | sed 's/\./\\./g' | paste -sd '|')
	grep -E "(^|/)($rx):[0-9]+" || true
}

# Commits made in $BASE by the harness carry a fixed identity and date, so
# the same input gives the same commit ids.
harness_identity() {
	export GIT_AUTHOR_NAME="Hist Series Team" GIT_AUTHOR_EMAIL=hist-series@localhost
	export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
	export GIT_AUTHOR_DATE="2024-11-17 00:00:00 +0000"
	export GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
}

# removal_commit: pristine minus the upstream implementation (in $BASE).
removal_commit() {
	local idx=$BUILD/removal.index
	GIT_DIR=$BASE/.git GIT_INDEX_FILE=$idx git read-tree pristine
	# shellcheck disable=SC2086
	GIT_DIR=$BASE/.git GIT_INDEX_FILE=$idx git rm -q --cached -- $UPSTREAM_FILES
	(harness_identity
	 GIT_DIR=$BASE/.git git commit-tree \
		"$(GIT_DIR=$BASE/.git GIT_INDEX_FILE=$idx git write-tree)" -p pristine \
		-m "tracing: remove the upstream hist-trigger implementation" \
		-m "The series below replaces tracing_map, hist triggers and synthetic
events with a new implementation; the old files go first.")
}

# compose_tree FROM SOURCE: print the id of a tree (in $BASE) that is the
# tree of commit FROM plus our overlay and patches as they are in SOURCE:
# "worktree" (this checkout's files, committed or not) or a commit of this
# repository already fetched into $BASE. The overlay only adds files: one
# that the base tree still has is a mistake (that change is a patch).
compose_tree() {
	local from=$1 source=$2 f mode blob p
	export GIT_DIR=$BASE/.git GIT_INDEX_FILE=$BUILD/compose.index
	git read-tree "$from"
	{
		if [ "$source" = worktree ]; then
			overlay_files | while read -r f; do
				mode=100644
				[ -x "$TOP/$f" ] && mode=100755
				blob=$(git hash-object -w --no-filters -- "$TOP/$f")
				printf '%s %s\t%s\n' "$mode" "$blob" "$f"
			done
		else
			# shellcheck disable=SC2086
			git ls-tree -r "$source" -- $OVERLAY_DIRS |
				sed 's/ blob / /'
		fi
	} | while read -r mode blob f; do
		if git cat-file -e "$from:$f" 2>/dev/null; then
			echo "error: overlay file $f exists in the base tree; use a patch" >&2
			exit 1
		fi
		printf '%s %s\t%s\n' "$mode" "$blob" "$f"
	done | git update-index --add --index-info
	for p in $(source_patches "$source"); do
		source_file "$source" "$p" | git apply --cached - ||
			die "patch $p does not apply"
	done
	source_file "$source" MAINTAINERS >"$BUILD/maintainers.entry" 2>/dev/null || true
	if [ -s "$BUILD/maintainers.entry" ]; then
		git cat-file blob "$from:MAINTAINERS" |
			insert_maintainers_entry "$BUILD/maintainers.entry" >"$BUILD/MAINTAINERS"
		printf '100644 %s\tMAINTAINERS\n' \
			"$(git hash-object -w "$BUILD/MAINTAINERS")" | git update-index --index-info
	fi
	git write-tree
	unset GIT_DIR GIT_INDEX_FILE
}

source_patches() { # SOURCE -> patches/*.patch, in order
	if [ "$1" = worktree ]; then
		(cd "$TOP" && ls patches/*.patch 2>/dev/null || true)
	else
		git ls-tree --name-only "$1" patches/ | grep '\.patch$' || true
	fi
}

source_file() { # SOURCE PATH
	if [ "$1" = worktree ]; then cat "$TOP/$2"; else git cat-file blob "$1:$2"; fi
}

# Put the entry (file $1) into the kernel's MAINTAINERS (stdin) before the
# first entry whose title sorts after its own.
insert_maintainers_entry() {
	awk -v entry="$1" '
		BEGIN {
			while ((getline l < entry) > 0)
				if (l !~ /^#/) text = text l "\n"
			split(text, first, "\n"); title = first[1]
		}
		{ line[NR] = $0 }
		END {
			at = 0
			for (i = 2; i < NR && !at; i++)
				if (seen_list && line[i - 1] == "" && line[i + 1] ~ /^[A-Z]:\t/ &&
				    toupper(line[i]) > toupper(title))
					at = i
				else if (line[i] ~ /^Maintainers List/)
					seen_list = 1
			for (i = 1; i <= NR; i++) {
				if (i == at)
					printf "%s\n", text
				print line[i]
			}
		}'
}
