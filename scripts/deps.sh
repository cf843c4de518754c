#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install what the harness needs from Debian's archive, if anything is
# missing: with apt-get when run as root, otherwise say what to install.
. "$(dirname "$0")/lib.sh"

# Build the kernel, run it under QEMU, lint it; the guest runs the host's
# own userland, so what the tests call (bash, ping, ip) is listed too, and
# bpftrace, which make bench-hist times beside hist triggers; the clients
# make check runs against the kernel (trace-cmd with libtraceevent, a
# libtracefs program, cyclictest); Sphinx for the documentation build of
# make lint; the cross compiler of make cross-check (arm64); lcov for
# make coverage.
pkgs="build-essential flex bison bc libelf-dev libssl-dev cpio xz-utils lz4 kmod
perl python3 python3-ply python3-git git ccache sparse coccinelle qemu-system-x86 util-linux procps
iputils-ping iproute2 hostname dash bash coreutils
bpftrace
trace-cmd libtraceevent-dev libtracefs-dev pkg-config rt-tests
python3-sphinx python3-sphinx-rtd-theme
gcc-aarch64-linux-gnu
lcov"

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -f "$BASE_TARBALL" ] || missing="$missing $BASE_PKG"
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	die "missing packages; run as root: apt-get install$missing"
fi
note "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
want=""
for p in $missing; do
	if [ "$p" = "$BASE_PKG" ]; then
		if apt-cache show "$BASE_PKG=$BASE_PKG_VERSION" >/dev/null 2>&1; then
			p="$BASE_PKG=$BASE_PKG_VERSION"
		else
			note "deps: $BASE_PKG $BASE_PKG_VERSION is gone from the archive; taking the newest"
		fi
	fi
	want="$want $p"
done
# apt's status lines (APT::Status-Fd) say how far the download and the
# installation are.
progress_start
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends -o APT::Status-Fd=3 $want 3>&1 >/dev/null |
	while IFS=: read -r kind _ percent what; do
		case $kind in
		dlstatus) kind=downloading ;;
		pmstatus) kind=installing ;;
		*) continue ;;
		esac
		progress_due || continue
		progress "deps: $kind, ${percent%%.*}%: $what"
	done
progress_end
note "deps: installed in $(progress_took)"
