#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bisect-check: build every patch of the series (make patches), as
# git bisect would stop on it, in a worktree of build/base
# (build/bisect): the kernel with the test config (made as build.sh
# makes ours mode's, on the last patch, then run through olddefconfig at
# each patch, so options that do not exist yet or are switched off fall
# away), bzImage and
# modules, in build/obj-bisect; then kernel/trace/ again with W=1, in
# build/obj-bisect-w1.  A patch fails if either build fails or if W=1
# warns about one of our files.  Each line also says which of
# SYNTH_EVENTS and HIST_TRIGGERS the patch's config has: none may be on
# before all its parts are in.  Too slow for make check (a few minutes
# for the first patch, about a minute for each of the others once ccache
# is warm); its result goes into the closing note.
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/patches.sh" >/dev/null
kernel_cc
wt=$BUILD/bisect
if [ ! -e "$wt/.git" ]; then
	rm -rf "$wt"
	git -C "$BASE" worktree prune
	git -C "$BASE" worktree add -q --detach "$wt" pristine
fi
kmake() { # TREE OBJ ARGS...
	local tree=$1 obj=$2
	shift 2
	make -C "$tree" O="$obj" ARCH=x86_64 CC="$KERNEL_CC" HOSTCC="$KERNEL_CC" \
		-j"$JOBS" "$@"
}
git -C "$wt" checkout -q -f --detach series
obj=$BUILD/obj-bisect
mkdir -p "$obj"
embed=$(embed_name "$obj")
echo "CONFIG_BOOT_CONFIG_EMBED_FILE=\"$embed\"" >"$obj/embed.config"
kmake "$wt" "$obj" -s tinyconfig >/dev/null
KCONFIG_CONFIG=$obj/.config "$wt/scripts/kconfig/merge_config.sh" -m -O "$obj" \
	"$obj/.config" "$TOP/scripts/config/base.config" \
	"$TOP/scripts/config/ours.config" "$obj/embed.config" >/dev/null
kmake "$wt" "$obj" -s olddefconfig >/dev/null
cp "$obj/.config" "$BUILD/bisect.config"

n=0
for c in $(git -C "$BASE" rev-list --reverse pristine..series); do
	n=$((n + 1))
	t0=$(date +%s)
	git -C "$wt" checkout -q -f --detach "$c"
	git -C "$wt" clean -q -fdx
	subject=$(git -C "$BASE" log -1 --format=%s "$c")
	problems=""
	for obj in "$BUILD/obj-bisect" "$BUILD/obj-bisect-w1"; do
		mkdir -p "$obj"
		cp "$BUILD/bisect.config" "$obj/.config"
		kmake "$wt" "$obj" -s olddefconfig >/dev/null 2>&1 ||
			problems+="olddefconfig failed in $obj
"
	done
	state=$(grep -oE '^CONFIG_(SYNTH_EVENTS|HIST_TRIGGERS)=y' "$BUILD/obj-bisect/.config" |
		sed 's/^CONFIG_//' | tr '\n' ' ' || true)
	state=${state% }
	log=$(kmake "$wt" "$BUILD/obj-bisect" -s bzImage modules 2>&1) ||
		problems+="build failed:
$(echo "$log" | grep -E 'error|Error' | head -n 20)
"
	log=$(kmake "$wt" "$BUILD/obj-bisect-w1" -s W=1 kernel/trace/ 2>&1) ||
		problems+="W=1 build of kernel/trace/ failed:
$(echo "$log" | grep -E 'error|Error' | head -n 20)
"
	problems+=$(echo "$log" | our_file_lines)
	check_verdict bisect-check \
		"$(printf '%02d' $n) $subject [${state:-neither on}] $(($(date +%s) - t0))s" \
		"$problems"
done
check_finish bisect-check
