#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Lay our series, as it is in this working tree, over the pristine base in
# build/src-ours (a git worktree of build/base): one commit removes the
# upstream implementation, one adds our overlay and applies patches/. The
# tree is composed in a private index and checked out at the end, so a file
# whose content did not change keeps its timestamp and the kernel rebuild
# stays incremental. Prints the commit id.
. "$(dirname "$0")/lib.sh"

# One at a time: two makes at once (a build and a check) would share the
# index files and the worktree.
tree_lock
"$TOP/scripts/base.sh"
harness_identity
removed=$(removal_commit)
tree=$(compose_tree "$removed" worktree)
series=$(GIT_DIR=$BASE/.git git commit-tree "$tree" -p "$removed" \
	-m "tracing: hist-trigger series (working tree of the overlay)")

if [ ! -e "$SRC_OURS/.git" ]; then
	rm -rf "$SRC_OURS"
	git -C "$BASE" worktree prune
	git -C "$BASE" worktree add -q --detach "$SRC_OURS" pristine
fi
git -C "$SRC_OURS" checkout -q -f --detach "$series"
git -C "$SRC_OURS" clean -q -fdx -e "/.obj-*"
echo "$series"
