#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make series-check: take the series as a maintainer does.  make patches,
# then, on the pristine tree, git am every patch in turn and run
# checkpatch.pl --strict on each; the tree the series ends in must be the
# one build/src-ours is built from.  Tests: "series: git am", one
# "series: checkpatch FILE" per file (the cover letter too: no error,
# warning or check), "series: tree".  Last line "series: N passed, N failed".
. "$(dirname "$0")/lib.sh"

verdict() { check_verdict series "$@"; }

if ! log=$("$TOP/scripts/patches.sh" 2>&1); then
	verdict "make patches" "$log"
	check_finish series
fi
out=$BUILD/patches
mapfile -t files < <(cd "$out" && ls ./*.patch | sed 's|^\./||')

# A worktree holding only the files the series touches: git am needs
# one, and the whole kernel would take longer to check out than the
# checks take.
am=$BUILD/series-am
if [ ! -e "$am/.git" ]; then
	rm -rf "$am"
	git -C "$BASE" worktree prune
	git -C "$BASE" worktree add -q --no-checkout --detach "$am" pristine
fi
# What a run killed half-way left (CI's build directory outlives it):
# git's locks and the am session. Only this script uses the worktree.
rm -f "$BASE/.git/worktrees/series-am/index.lock" \
	"$BASE/.git/worktrees/series-am/HEAD.lock" \
	"$BASE/.git/worktrees/series-am/info/sparse-checkout.lock"
git -C "$BASE" diff --name-only pristine series | sed 's|^|/|' |
	git -C "$am" sparse-checkout set --no-cone --stdin
git -C "$am" am --abort >/dev/null 2>&1 || true
git -C "$am" checkout -q -f --detach pristine
git -C "$am" clean -q -fdx
verdict "git am" "$(cd "$am" && for f in "${files[@]}"; do
	[ "$f" = 0000-cover-letter.patch ] && continue
	git -c user.name="Hist Series Team" -c user.email=hist-series@localhost \
		am -q "$out/$f" 2>&1 || { echo "$f does not apply"; git am --abort; break; }
done)"

# The kernel's python helpers (checkpatch's spdxcheck.py) want Debian's
# python3 with python3-ply and python3-git.  checkpatch is one perl
# process and most of this script's time: two at once, the verdicts
# then in the series' order.
cp_out=$(mktemp -d)
trap 'rm -rf "$cp_out"' EXIT
printf '%s\n' "${files[@]}" | (cd "$BASE" && PATH=/usr/bin:$PATH \
	xargs -P 2 -I{} sh -c 'perl scripts/checkpatch.pl --strict --terse \
		--show-types "$1/$2" >"$3/$2.out" 2>&1; echo $? >"$3/$2.rc"' \
		_ "$out" {} "$cp_out")
for f in "${files[@]}"; do
	if [ -f "$cp_out/$f.rc" ]; then
		res=$(grep -v '^total: 0 errors, 0 warnings, 0 checks,' \
			"$cp_out/$f.out" || true)
	else
		res="checkpatch did not run"
	fi
	verdict "checkpatch $f" "$res"
done

# The tree build/src-ours is built from is this working tree's (check.sh
# composed it already when it says TREE_READY=1); with uncommitted
# changes of the kernel side, only HEAD's can be compared.
[ "${TREE_READY:-0}" = 1 ] || "$TOP/scripts/tree.sh" >/dev/null
got=$(git -C "$am" rev-parse HEAD^{tree})
want=$(git -C "$SRC_OURS" rev-parse HEAD^{tree})
# shellcheck disable=SC2086
if [ "$got" != "$want" ] &&
   [ -n "$(git -C "$TOP" status --porcelain -- $OVERLAY_DIRS patches MAINTAINERS)" ]; then
	note "series: uncommitted changes: compared with the tree of HEAD"
	want=$(git -C "$BASE" rev-parse series^{tree})
fi
verdict "tree" "$([ "$got" = "$want" ] ||
	git -C "$BASE" diff --stat "$want" "$got" 2>&1 || true)"
check_finish series
