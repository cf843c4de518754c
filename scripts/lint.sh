#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make lint: the kernel's own checkers over the files of this series.
#   checkpatch.pl --strict   every .c/.h of ours, every patch in patches/
#   kernel-doc -none -Wall   every .c/.h of ours
#   sparse (C=2) and W=1     the directories holding our .c files, built in
#                            build/obj-lint; only warnings from our files count
#   coccicheck MODE=report   the same directories; only our files count
#   make htmldocs            Documentation/trace (SPHINXDIRS=trace) with
#                            Debian's Sphinx, in build/obj-docs: no warning
#                            about our documents, and their pages show no
#                            markup Sphinx could not render
# Each file and checker is one test; the last line is
# "lint: N passed, N failed".
. "$(dirname "$0")/lib.sh"

# check.sh composed the tree already when it says TREE_READY=1.
[ "${TREE_READY:-0}" = 1 ] || "$TOP/scripts/tree.sh" >/dev/null
cd "$SRC_OURS"
# The kernel's python helpers (checkpatch's spdxcheck.py) want Debian's
# python3 with python3-ply and python3-git, not another python3 on PATH.
export PATH=/usr/bin:$PATH
mapfile -t files < <(overlay_files | grep -E '^(kernel|include)/.*\.[ch]$' || true)
mapfile -t patches < <(cd "$TOP" && ls patches/*.patch 2>/dev/null || true)
passed=0 failed=0
verdict() { # name output
	if [ -z "$2" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "lint: $1:"
		echo "$2" | sed 's/^/    /' | head -n 40
	fi
}

for f in "${files[@]}"; do
	verdict "checkpatch $f" "$(perl scripts/checkpatch.pl --strict --terse \
		--no-summary --show-types -f "$f" 2>&1 || true)"
	verdict "kernel-doc $f" "$(perl scripts/kernel-doc -none -Wall "$f" 2>&1 || true)"
done
for p in "${patches[@]}"; do
	verdict "checkpatch $p" "$(perl scripts/checkpatch.pl --strict --terse \
		--no-summary --show-types "$TOP/$p" 2>&1 || true)"
done

# The documents: Sphinx names the file and line of what it could not
# take; a page that rendered with a fault carries a "problematic" or
# "system-message" element.  The other documents of the directory are
# upstream's: their warnings (cross references into directories that
# SPHINXDIRS leaves out) are not ours to count.
mapfile -t docs < <(overlay_files | grep -E '^Documentation/.*\.rst$' || true)
if [ ${#docs[@]} -gt 0 ]; then
	obj=$BUILD/obj-docs
	mkdir -p "$obj"
	# -E: read every document again, so that the warnings of one that
	# did not change are printed again too (CI's build directory is
	# kept from one run to the next, .ci/run).
	log=$(make -C "$SRC_OURS" O="$obj" SPHINXDIRS=trace SPHINXOPTS=-E htmldocs 2>&1 ||
		echo "make htmldocs failed")
	for f in "${docs[@]}"; do
		html=$obj/Documentation/output/${f#Documentation/}
		html=${html%.rst}.html
		problems=$(echo "$log" | grep -E "$f:[0-9]*:? *\(?(WARNING|ERROR|SEVERE|CRITICAL)" || true)
		if [ ! -f "$html" ]; then
			problems+="$html was not written$(echo "$log" | tail -n 5)"
		elif grep -qE 'class="(problematic|system-message)' "$html"; then
			problems+="$html shows markup Sphinx could not render"
		fi
		verdict "htmldocs $f" "$problems"
	done
fi

mapfile -t dirs < <(printf '%s\n' "${files[@]}" | grep '\.c$' | xargs -r -n1 dirname | sort -u)
if [ ${#dirs[@]} -gt 0 ]; then
	obj=$BUILD/obj-lint
	# ccache for the compiles (W=1 is part of the hash); sparse runs on
	# every file regardless.
	kernel_cc
	mkdir -p "$obj"
	# ours' config, with the embedded bootconfig named from here: ours
	# names it relative to its own objects (build.sh), a level deeper
	embed=$(embed_name "$obj")
	sed "s|^CONFIG_BOOT_CONFIG_EMBED_FILE=.*|CONFIG_BOOT_CONFIG_EMBED_FILE=\"$embed\"|" \
		"$BUILD/obj-ours/.config" >"$obj/.config.want"
	cmp -s "$obj/.config.want" "$obj/.config" ||
		cp "$obj/.config.want" "$obj/.config"
	# Our objects are compiled again each time, so that W=1 says again
	# what it said of a file that did not change (ccache replays it).
	for f in "${files[@]}"; do
		case $f in *.c) rm -f "$obj/${f%.c}.o" ;; esac
	done
	for d in "${dirs[@]}"; do
		log=$(make -C "$SRC_OURS" O="$obj" ARCH=x86_64 -j"$JOBS" -s \
			CC="$KERNEL_CC" HOSTCC="$KERNEL_CC" W=1 C=2 CHECK="sparse" "$d/" 2>&1 ||
			echo "build of $d failed")
		for f in "${files[@]}"; do
			[ "$(dirname "$f")" = "$d" ] || continue
			case $f in
			*.c) [ -f "$obj/${f%.c}.o" ] || log="$log
$f: not compiled by this config, so sparse and W=1 never saw it" ;;
			esac
			verdict "sparse+W=1 $f" "$(echo "$log" | grep -E "(^|/)$f:" || true)"
		done
		if echo "$log" | grep -q 'build of .* failed'; then
			verdict "build $d with W=1" "$(echo "$log" | tail -n 20)"
		fi
		cocci=$(make -C "$SRC_OURS" O="$obj" ARCH=x86_64 -s coccicheck \
			CC="$KERNEL_CC" HOSTCC="$KERNEL_CC" \
			MODE=report M="$d" J="$JOBS" 2>&1 || true)
		for f in "${files[@]}"; do
			[ "$(dirname "$f")" = "$d" ] || continue
			verdict "coccicheck $f" "$(echo "$cocci" | grep -E "(^|/)$f:" || true)"
		done
	done
fi
echo "lint: $passed passed, $failed failed"
[ "$failed" = 0 ] || exit 1
