#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Extract the Debian linux-source-6.12 tree once into build/base and make it
# a git repository whose first commit, tagged "pristine", is the untouched
# tree. Both modes start from that commit.
#
# Extracting and hashing 80,000 files costs a minute, and every fresh clone
# of this repository (CI's) pays it again. So the first extraction on a
# machine also leaves a bare copy of that repository in $BASE_CACHE (by
# default under ~/.cache, like ccache's), keyed by the tarball's package
# version, size and date; later clones check it out from there. Delete the
# directory to force an extraction; BASE_CACHE= (empty) disables it.
. "$(dirname "$0")/lib.sh"

if git -C "$BASE" rev-parse -q --verify pristine >/dev/null 2>&1; then
	exit 0
fi

[ -f "$BASE_TARBALL" ] || die "$BASE_TARBALL missing: run scripts/deps.sh"
have=$(dpkg-query -W -f='${Version}' "$BASE_PKG" 2>/dev/null || echo unknown)
if [ "$have" != "$BASE_PKG_VERSION" ]; then
	note "base: $BASE_PKG $have, not the preferred $BASE_PKG_VERSION"
fi

key=$have-$(stat -c %s-%Y "$BASE_TARBALL")
cache=${BASE_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/hist-series}
cached=${cache:+$cache/linux-base-$key.git}

# The harness's settings of a base repository (config survives no clone).
base_config() {
	git -C "$1" config user.name "hist-series harness"
	git -C "$1" config user.email "harness@localhost"
	git -C "$1" config gc.auto 0
	git -C "$1" config core.autocrlf false
}

# Fill the cache from the new repository $BASE.tmp. Another clone may be
# filling it at the same time: each writes its own directory and renames
# it; the loser's copy is dropped.
base_cache_fill() {
	mkdir -p "$cache"
	rm -rf "$cached.$$"
	if git clone -q --bare --local "$BASE.tmp" "$cached.$$" &&
	   git -C "$cached.$$" config gc.auto 0 &&
	   mv -T "$cached.$$" "$cached" 2>/dev/null; then
		note "base: cached in $cached"
	fi
	rm -rf "$cached.$$"
}

rm -rf "$BASE.tmp"
if [ -n "$cached" ] && git -C "$cached" rev-parse -q --verify pristine >/dev/null 2>&1; then
	note "base: checking out $cached"
	# Local clone: the objects are hard links, so it costs the checkout.
	# git shows how far it is on a terminal, and only there.
	quiet=(-q)
	[ ! -t 2 ] || quiet=()
	git clone "${quiet[@]}" --local --branch base "$cached" "$BASE.tmp"
	base_config "$BASE.tmp"
else
	note "base: extracting $BASE_TARBALL ($BASE_PKG $have)"
	mkdir -p "$BASE.tmp"
	# tar's checkpoints count 10 KiB records; xz's index has the size.
	size=$(xz --robot --list "$BASE_TARBALL" | awk '$1 == "totals" { print $5 }')
	progress_start
	tar -xJf "$BASE_TARBALL" -C "$BASE.tmp" --strip-components=1 \
		--checkpoint=2000 --checkpoint-action=echo=%u 2>&1 |
		while IFS= read -r line; do
			if ! [[ $line =~ ^tar:\ [0-9]+$ ]]; then
				echo "$line" >&2
				continue
			fi
			progress_due || continue
			mib=$((${line#tar: } * 10240 >> 20))
			progress "base: extracting: $mib of $((size >> 20)) MiB"
		done
	progress_end
	note "base: committing the tree to git"
	git -C "$BASE.tmp" init -q -b base
	base_config "$BASE.tmp"
	git -C "$BASE.tmp" add -A -f .
	git -C "$BASE.tmp" commit -q -m \
		"Linux $(make -s -C "$BASE.tmp" kernelversion) ($BASE_PKG $have)"
	git -C "$BASE.tmp" tag pristine
	if [ -n "$cached" ]; then
		base_cache_fill
	fi
fi
rm -rf "$BASE"
mv "$BASE.tmp" "$BASE"
note "base: $(git -C "$BASE" log -1 --format=%s pristine)"
