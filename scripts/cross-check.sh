#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make cross-check: compile our kernel files for the architectures a
# build bot would try first after x86_64: 32-bit x86 (i386: pointers and
# longs of 32 bits, 64-bit divisions that need helpers) and arm64
# (Debian's gcc-aarch64-linux-gnu: a weakly ordered architecture, other
# alignment rules, its own atomics).  The config is tinyconfig plus the
# test fragments (scripts/config/base.config and ours.config, without
# what only an x86_64 kernel can take), built with W=1 up to
# kernel/trace/ in build/obj-ARCH.  A test per architecture: it fails if
# the build fails, if an option of the fragments about tracing did not
# survive the config of the architecture, if one of our .c files was not
# compiled, or on any warning from our files.  Too slow for make check
# (a few minutes per architecture from nothing); its result goes into
# the closing note of every change of kernel code.
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/tree.sh" >/dev/null
kernel_cc
mapfile -t ours < <(overlay_files | grep -E '^kernel/.*\.c$')

for arch in i386 arm64; do
	obj=$BUILD/obj-$arch
	args=(ARCH="$arch")
	cc=$KERNEL_CC
	if [ "$arch" = arm64 ]; then
		args+=(CROSS_COMPILE=aarch64-linux-gnu-)
		cc="${KERNEL_CC% gcc} aarch64-linux-gnu-gcc"
		cc=${cc# }
	fi
	kmake() {
		make -C "$SRC_OURS" O="$obj" "${args[@]}" CC="$cc" \
			HOSTCC="$KERNEL_CC" -j"$JOBS" "$@"
	}
	mkdir -p "$obj"
	frag=$obj/cross.config
	# 64-bit is a choice of x86 alone; the embedded bootconfig needs a
	# file that only the x86_64 builds generate.
	grep -hvE '^CONFIG_(64BIT|BOOT_CONFIG_EMBED)=' \
		"$TOP/scripts/config/base.config" "$TOP/scripts/config/ours.config" >"$frag"
	note "cross-check: $arch: configuring"
	kmake -s tinyconfig >/dev/null
	(cd "$obj" && "$SRC_OURS/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/.config" "$frag" >/dev/null)
	kmake -s olddefconfig >/dev/null
	lost=$(grep -E '^CONFIG_(HIST|SYNTH|TRACING_MAP|FTRACE|KPROBE_EVENTS|USER_EVENTS)[A-Z_]*=y' "$frag" |
		while read -r want; do
			grep -qx "$want" "$obj/.config" || echo "$want did not survive the config"
		done)
	note "cross-check: $arch: building kernel/trace/ with W=1"
	log=$(kmake -s W=1 kernel/trace/ 2>&1) || log="$log
build failed"
	problems=$lost
	problems+=$(echo "$log" | our_file_lines)
	problems+=$(echo "$log" | grep -E '^build failed$|error:' | head -n 20 || true)
	for f in "${ours[@]}"; do
		[ -f "$obj/${f%.c}.o" ] || problems+="
$f was not compiled"
	done
	check_verdict cross-check "$arch ($("${cc##* }" --version 2>/dev/null | head -n 1 || true))" "$problems"
done
check_finish cross-check
