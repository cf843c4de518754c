#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make patches: the series as a maintainer would receive it, in
# build/patches: a cover letter (scripts/cover-letter.txt), the removal of
# the upstream implementation, then one patch per commit of this repository
# that changed the kernel side (overlay, patches/, MAINTAINERS), with that
# commit's author, date and message. The same series is left in build/base
# as branch "series".
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/base.sh"
git -C "$BASE" fetch -q --no-tags "$TOP" +HEAD:refs/ours/head
removed=$(harness_identity && removal_commit)
prev=$removed
prev_tree=$(git -C "$BASE" rev-parse "$removed^{tree}")
n=0
# shellcheck disable=SC2086
for c in $(git -C "$TOP" rev-list --reverse HEAD -- $OVERLAY_DIRS patches MAINTAINERS); do
	tree=$(compose_tree "$removed" "$c")
	[ "$tree" = "$prev_tree" ] && continue
	git -C "$TOP" log -1 --format=%B "$c" >"$BUILD/series.msg"
	IFS=$'\x1f' read -r an ae ad cn ce cd < <(git -C "$TOP" log -1 --date=raw \
		--format='%an%x1f%ae%x1f%ad%x1f%cn%x1f%ce%x1f%cd' "$c")
	prev=$(GIT_AUTHOR_NAME=$an GIT_AUTHOR_EMAIL=$ae GIT_AUTHOR_DATE=$ad \
		GIT_COMMITTER_NAME=$cn GIT_COMMITTER_EMAIL=$ce GIT_COMMITTER_DATE=$cd \
		GIT_DIR=$BASE/.git git commit-tree "$tree" -p "$prev" -F "$BUILD/series.msg")
	prev_tree=$tree
	n=$((n + 1))
done
git -C "$BASE" branch -f series "$prev"

out=$BUILD/patches
rm -rf "$out"
git -C "$BASE" format-patch -q --cover-letter -o "$out" pristine..series
cover=$(ls "$out"/0000-*)
subject=$(head -n 1 "$TOP/scripts/cover-letter.txt")
tail -n +3 "$TOP/scripts/cover-letter.txt" >"$BUILD/cover.blurb"
sed -i -e "s/\*\*\* SUBJECT HERE \*\*\*/$subject/" \
	-e "/\*\*\* BLURB HERE \*\*\*/{r $BUILD/cover.blurb
d}" "$cover"
note "patches: $((n + 1)) patches and a cover letter in $out"
ls "$out"
