#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make patches: the series as a maintainer receives it, in build/patches:
# a cover letter (scripts/cover-letter.txt) and the patches that
# scripts/series describes, built by scripts/series.py from the
# committed state of this repository (HEAD) on the pristine tree.  The
# same series is left in build/base as branch "series".
#
# Rewritten files (ours replacing upstream's under the same name) are
# shown as a deletion and an addition (format-patch -B): read as a diff
# of one against the other they would be noise.
. "$(dirname "$0")/lib.sh"

# The same private index files as scripts/tree.sh: one at a time.
tree_lock
"$TOP/scripts/base.sh"
git -C "$BASE" fetch -q --no-tags "$TOP" +HEAD:refs/ours/head
removed=$(harness_identity && removal_commit)
expected=$(compose_tree "$removed" refs/ours/head)
series=$(python3 "$TOP/scripts/series.py" "$BASE/.git" refs/ours/head pristine "$expected")
git -C "$BASE" branch -f series "$series"

out=$BUILD/patches
rm -rf "$out"
# The cover letter is the committer's: the same identity and date as
# every patch, so that the same HEAD gives the same files.
harness_identity
git -C "$BASE" format-patch -q -B --zero-commit --no-signature --cover-letter \
	-o "$out" pristine..series
cover=$(ls "$out"/0000-*)
subject=$(head -n 1 "$TOP/scripts/cover-letter.txt")
# The letter's list of what the differential tester lets differ from
# 6.12 is made from scripts/diff-intended.txt, in place of the line
# "@DIFF_INTENDED@": one item per entry, its name and its reason, so
# that the letter lists every difference the tester allows.
python3 - "$TOP/scripts/cover-letter.txt" "$TOP/scripts/diff-intended.txt" \
	>"$BUILD/cover.blurb" <<'EOF'
import sys, textwrap
letter, intended = sys.argv[1:]
items, name = [], None
for line in open(intended):
	if line.startswith("["):
		name = line.strip()[1:-1]
	elif line.startswith("reason:") and name:
		items.append(textwrap.fill("%s: %s" % (name, line[7:].strip()),
					   width=72, initial_indent=" - ",
					   subsequent_indent="   ",
					   break_on_hyphens=False))
		name = None
lines = open(letter).read().split("\n")[2:]
if "@DIFF_INTENDED@" not in lines:
	sys.exit("cover-letter.txt: no @DIFF_INTENDED@ line")
print("\n".join("\n".join(items) if l == "@DIFF_INTENDED@" else l
		for l in lines), end="")
EOF
sed -i -e "s/\*\*\* SUBJECT HERE \*\*\*/$subject/" \
	-e "/\*\*\* BLURB HERE \*\*\*/{r $BUILD/cover.blurb
d}" "$cover"
note "patches: $(($(ls "$out" | wc -l) - 1)) patches and a cover letter in $out"
