#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot the kernel of a mode under QEMU and run one command in the guest.
#
#   run.sh [options] MODE [--] COMMAND...
#     -t SECONDS  time limit for the whole boot (default 1800)
#     -i          interactive: the console is this terminal
#     -o DIR      keep the guest's results in DIR (cmd, output, status,
#                 dmesg, console.log) instead of a temporary directory
#     -q          quiet kernel console (warnings and errors only)
#     -I          -icount shift=0: guest time counts instructions
#     -s FILE     copy the host script FILE into the guest and run it (with
#                 COMMAND... as its arguments): any host path works, even
#                 under /tmp, which the guest hides behind its own tmpfs
#     -a ARGS     append ARGS to the kernel command line (e.g. bootconfig)
#
# The command runs in the guest as root, in the directory run.sh was called
# from (the host's root filesystem is the guest's, read-only; /tmp, /run and
# /root are tmpfs; the modules build.sh installed for the kernel are on
# /lib/modules, for modprobe). The console streams to stdout; the exit
# status of run.sh is the command's, 124 on time-out, 125 if the guest died
# first.
. "$(dirname "$0")/lib.sh"

timeout_s=1800 interactive=0 keep="" quiet=0 icount=0 script="" extra=""
while getopts "t:io:qIs:a:" opt; do
	case $opt in
	t) timeout_s=$OPTARG ;;
	i) interactive=1 ;;
	o) keep=$OPTARG ;;
	q) quiet=1 ;;
	I) icount=1 ;;
	s) script=$OPTARG ;;
	a) extra+=" $OPTARG" ;;
	*) die "usage: run.sh [-t S] [-i] [-o DIR] [-q] [-I] [-s FILE] [-a ARGS] MODE [--] COMMAND..." ;;
	esac
done
shift $((OPTIND - 1))
mode=${1:?usage: run.sh [options] MODE COMMAND...}
shift
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || [ -n "$script" ] || die "run.sh: no command"

# The guest sees the host's files, except where it mounts a tmpfs of its
# own (guest-init.sh): the tests, the modules and the clients must not
# be there.
for d in "$TOP" "$BUILD"; do
	case $(realpath -m "$d")/ in
	/tmp/* | /run/* | /root/* | /var/tmp/*)
		die "$d is under a directory the guest covers with a tmpfs" ;;
	esac
done

kernel=$(obj_of "$mode")/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no kernel for $mode: run scripts/build.sh $mode"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing: run scripts/deps.sh"

if [ -n "$keep" ]; then
	io=$keep
	rm -rf "$io"
	mkdir -p "$io"
else
	io=$(mktemp -d "$BUILD/io.XXXXXX")
	trap 'rm -rf "$io"' EXIT
fi

if [ -n "$script" ]; then
	[ -f "$script" ] || die "run.sh: no script $script"
	cp "$script" "$io/script"
	chmod +x "$io/script"
	set -- /run/io/script "$@"
fi

# The guest's command: the caller's words, quoted, in the caller's cwd.
{
	printf 'cd %q || exit 126\n' "$PWD"
	if [ $interactive = 1 ]; then
		printf '%q ' "$@"
		echo
	else
		printf '( '
		printf '%q ' "$@"
		printf '; echo $? >/run/io/cmd.status ) 2>&1 | tee /run/io/output\n'
		echo 'exit $(cat /run/io/cmd.status)'
	fi
} >"$io/cmd"

append="console=ttyS0 root=/dev/root rootfstype=9p ro"
append+=" rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose"
append+=" init=$TOP/scripts/guest-init.sh panic=-1 oops=panic"
# PCI interrupt routing from the BIOS table: a debug kernel runs ACPI's
# _PRT method so slowly that it hits the AML loop time-out and leaves the
# virtio devices (the root filesystem) without an interrupt.
append+=" acpi=noirq"
[ $quiet = 1 ] && append+=" quiet"
# The modules build.sh installed for this kernel: guest-init.sh mounts this
# directory on /lib/modules. A dotted name, so the kernel keeps it out of
# init's environment (as with systemd.*); guest-init reads /proc/cmdline.
mods=$(modroot_of "$mode")/lib/modules
[ -d "$mods" ] && append+=" guest.modules=$mods"
append+=$extra

# TCG_THREAD=single: one host thread runs all the guest's CPUs in turn
# (always with -I: see tcg_thread in lib.sh).
# check.sh asks for it when it boots a guest per host core: with more vCPU
# threads than cores, the guest's cross-CPU work (a TLB shootdown at
# every exit and munmap) waits for a vCPU thread the host has
# descheduled, and the guests run several times slower, not faster.
# 1 GiB: with kmemleak, each of the scans at the end of a debug guest
# walks every page's struct page, and took 13.5 s with 2 GiB, 8.5 s with
# 1 GiB.
qemu=(qemu-system-x86_64 -machine pc -accel "tcg,thread=$(tcg_thread $icount)"
	-cpu max -smp 2 -m 1024
	-no-reboot -display none -monitor none
	-kernel "$kernel" -append "$append"
	-fsdev "local,id=rootfs,path=/,readonly=on,security_model=none,multidevs=remap"
	-device virtio-9p-pci,fsdev=rootfs,mount_tag=/dev/root
	-fsdev "local,id=io,path=$io,security_model=none"
	-device virtio-9p-pci,fsdev=io,mount_tag=io)
[ $icount = 1 ] && qemu+=(-icount shift=0)

rc=0
if [ $interactive = 1 ]; then
	timeout --foreground -k 5 "$timeout_s" "${qemu[@]}" -serial mon:stdio || rc=$?
else
	set +e +o pipefail
	timeout -k 5 "$timeout_s" "${qemu[@]}" -serial stdio </dev/null |
		tee "$io/console.log"
	rc=${PIPESTATUS[0]}
	set -e -o pipefail
fi

if [ -s "$io/status" ]; then
	status=$(cat "$io/status")
elif [ "$rc" = 124 ]; then
	echo "guest: time limit of ${timeout_s}s reached" >&2
	status=124
else
	echo "guest: died before the command finished (qemu exit $rc)" >&2
	status=125
fi
exit "$status"
