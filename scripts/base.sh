#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Extract the Debian linux-source-6.12 tree once into build/base and make it
# a git repository whose first commit, tagged "pristine", is the untouched
# tree. Both modes start from that commit.
. "$(dirname "$0")/lib.sh"

if git -C "$BASE" rev-parse -q --verify pristine >/dev/null 2>&1; then
	exit 0
fi

[ -f "$BASE_TARBALL" ] || die "$BASE_TARBALL missing: run scripts/deps.sh"
have=$(dpkg-query -W -f='${Version}' "$BASE_PKG" 2>/dev/null || echo unknown)
if [ "$have" != "$BASE_PKG_VERSION" ]; then
	note "base: $BASE_PKG $have, not the preferred $BASE_PKG_VERSION"
fi

note "base: extracting $BASE_TARBALL ($BASE_PKG $have)"
rm -rf "$BASE.tmp"
mkdir -p "$BASE.tmp"
tar -xJf "$BASE_TARBALL" -C "$BASE.tmp" --strip-components=1
cd "$BASE.tmp"
git init -q -b base
git config user.name "hist-series harness"
git config user.email "harness@localhost"
git config gc.auto 0
git config core.autocrlf false
git add -A -f .
git commit -q -m "Linux $(make -s kernelversion) ($BASE_PKG $have)"
git tag pristine
cd "$TOP"
rm -rf "$BASE"
mv "$BASE.tmp" "$BASE"
note "base: $(git -C "$BASE" log -1 --format=%s pristine)"
