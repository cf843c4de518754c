#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# PID 1 of the test guest. The root is the host's filesystem, read-only over
# virtio-9p; the host's command and our results go through a second,
# writable 9p share ("io"), mounted at /run/io. The command to run is
# /run/io/cmd; its exit status is written to /run/io/status and the kernel
# log to /run/io/dmesg. Then the guest reboots, which QEMU (-no-reboot)
# turns into an exit. If the kernel has modules, run.sh names their host
# directory with guest.modules=DIR on the kernel command line and they are
# mounted on /lib/modules.

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# The plain C locale: with C.UTF-8, every cat, grep and sed of the tests
# first loads the locale's files (7.6M guest instructions a process, more
# than the fork and exec of the process itself).
export HOME=/root LANG=C TERM=${TERM:-linux}

mountpoint -q /proc || mount -t proc proc /proc
mountpoint -q /sys || mount -t sysfs sysfs /sys
mountpoint -q /dev || mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm 2>/dev/null
mount -t devpts devpts /dev/pts
for d in /run /tmp /var/tmp /root /dev/shm; do
	mount -t tmpfs -o mode=1777 tmpfs "$d"
done
mount -t tracefs tracefs /sys/kernel/tracing
if [ -d /sys/kernel/debug ]; then
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
fi
ip link set lo up
hostname guest 2>/dev/null

# This kernel's modules go where modprobe looks for them, /lib/modules. The
# root is read-only: if the host has no /lib/modules to mount on, an overlay
# with a tmpfs upper layer over /lib's directory provides one.
mods=
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case $arg in guest.modules=*) mods=${arg#guest.modules=} ;; esac
done
if [ -n "$mods" ]; then
	lib=$(readlink -f /lib)
	if [ ! -d "$lib/modules" ]; then
		mkdir -p /run/lib-overlay/upper/modules /run/lib-overlay/work
		mount -t overlay overlay -o "lowerdir=$lib,upperdir=/run/lib-overlay/upper,workdir=/run/lib-overlay/work" "$lib"
	fi
	mount --bind "$mods" "$lib/modules"
fi

mkdir -p /run/io
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 io /run/io

status=125
if [ -f /run/io/cmd ]; then
	sh /run/io/cmd
	status=$?
fi
# On a kmemleak kernel, what the command leaked: two scans, since an
# object must look unreferenced twice to be reported, and only once it
# is older than 5 s when a scan starts. A scan of the debug kernel takes
# about 7 s, so the second one rarely has to wait.
leaks=/sys/kernel/debug/kmemleak
if [ -e $leaks ]; then
	read -r up _ </proc/uptime
	ready=$((${up%.*} + 6))
	echo scan >$leaks
	read -r up _ </proc/uptime
	while [ "${up%.*}" -lt $ready ]; do
		sleep 1
		read -r up _ </proc/uptime
	done
	echo scan >$leaks
	cat $leaks >/run/io/kmemleak
fi
# On a gcov kernel (make coverage), the counts of every profiled object,
# for scripts/coverage.sh. debugfs gives the .gcda files no size, so
# each is read whole with cat rather than copied.
gcov=/sys/kernel/debug/gcov
if [ -d $gcov ]; then
	(cd $gcov && find . -name '*.gcda') | while read -r f; do
		mkdir -p "/run/io/gcov/${f%/*}"
		cat "$gcov/$f" >"/run/io/gcov/$f"
	done
fi
dmesg >/run/io/dmesg
echo "$status" >/run/io/status
sync
umount /run/io
echo b >/proc/sysrq-trigger
sleep 10
