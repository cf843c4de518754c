#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Configure and build the kernel of one mode (ours, ref, ours-debug,
# ref-debug, ours-kcsan, ours-cov, ours-bench, ref-bench) into
# build/obj-MODE.
#
# The config is tinyconfig + scripts/config/base.config, + ours.config in
# ours modes, + debug.config in debug modes, + kcsan.config in
# ours-kcsan, + coverage.config in ours-cov, + bench.config in the bench
# modes (what make bench-hist measures). Every option the fragments ask
# for is then checked against the final .config: an option that a missing
# dependency silently dropped would otherwise turn tests into "unsupported".
. "$(dirname "$0")/lib.sh"

mode=${1:?usage: build.sh MODE}
src=$(src_of "$mode")
obj=$(obj_of "$mode")

case $mode in
ref*) "$TOP/scripts/base.sh" ;;
*) "$TOP/scripts/tree.sh" >/dev/null ;;
esac

frags=$TOP/scripts/config/base.config
case $mode in ours*) frags="$frags $TOP/scripts/config/ours.config" ;; esac
case $mode in *-debug) frags="$frags $TOP/scripts/config/debug.config" ;; esac
case $mode in *-kcsan) frags="$frags $TOP/scripts/config/kcsan.config" ;; esac
case $mode in *-cov) frags="$frags $TOP/scripts/config/coverage.config" ;; esac
case $mode in *-bench) frags="$frags $TOP/scripts/config/bench.config" ;; esac

kernel_cc
kmake() {
	make -C "$src" O="$obj" ARCH=x86_64 CC="$KERNEL_CC" HOSTCC="$KERNEL_CC" -j"$JOBS" "$@"
}

real=$(obj_dir_of "$mode")
mkdir -p "$real"
link=$(realpath --relative-to="$BUILD" "$real")
if [ "$(readlink "$obj" 2>/dev/null)" != "$link" ]; then
	rm -rf "$obj"
	ln -s "$link" "$obj"
fi
# The bootconfig embedded in the kernel (see base.config), named as
# embed_name says.
embed=$(embed_name "$obj")
echo "CONFIG_BOOT_CONFIG_EMBED_FILE=\"$embed\"" >"$obj/embed.config"
frags="$frags $obj/embed.config"
# Regenerate the config only when a fragment or a patch of ours changed
# (patches/ holds our Kconfig changes: in a kept build directory, CI's,
# kbuild would otherwise give a new symbol its Kconfig default where a
# fresh tinyconfig turns it off), so an unchanged config never costs a
# rebuild.
stamp=$obj/.fragments
# shellcheck disable=SC2086
want=$(cat $frags "$TOP"/patches/*.patch | sha1sum)
if [ ! -f "$obj/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	note "build $mode: configuring"
	kmake -s tinyconfig >/dev/null
	# shellcheck disable=SC2086
	KCONFIG_CONFIG=$obj/.config "$src/scripts/kconfig/merge_config.sh" \
		-m -O "$obj" "$obj/.config" $frags >/dev/null
	kmake -s olddefconfig >/dev/null
	echo "$want" >"$stamp"
fi
# autoconf.h, which ccache's key below needs before the first compile;
# it may also settle .config (the compiler's answers to cc-option),
# which the check below then sees as the build will.
kmake -s syncconfig

# Last fragment wins; "=n" and "is not set" both mean: must be off.
# shellcheck disable=SC2086
awk '
	FNR == NR {
		if (match($0, /^CONFIG_[A-Za-z0-9_]+=/)) {
			k = substr($0, 1, RLENGTH - 1); v = substr($0, RLENGTH + 1)
			want[k] = (v == "n") ? "off" : v
		} else if (match($0, /^# CONFIG_[A-Za-z0-9_]+ is not set/)) {
			split($0, w, " "); want[w[2]] = "off"
		}
		next
	}
	/^CONFIG_/ { i = index($0, "="); have[substr($0, 1, i - 1)] = substr($0, i + 1) }
	END {
		bad = 0
		for (k in want) {
			h = (k in have) ? have[k] : "off"
			if (h != want[k]) {
				printf "config: %s=%s requested, got %s\n", k, want[k], h
				bad = 1
			}
		}
		exit bad
	}' <(cat $frags) "$obj/.config" >&2 || die "config of $mode lost options (see above)"

# KCSAN: upstream keeps it out of kernel/trace/ (KCSAN_SANITIZE := n:
# code the function tracer calls must not call out to KCSAN). The KCSAN
# kernel lets it into each file of ours from the command line, which
# the series then leaves as it is: our files are reached from trace
# events, but also from kprobes on ftrace, and a maintainer should weigh
# that before the tree instruments them.
kbuild_args=()
case $mode in
*-kcsan)
	for f in $(overlay_files | sed -n 's|^kernel/trace/\(.*\)\.c$|\1|p'); do
		kbuild_args+=("KCSAN_SANITIZE_$f.o=y")
	done
	;;
esac

# One compile, one ccache entry for every tree. Our series adds Kconfig
# symbols (the KUnit suites') that only Makefiles read, so ours' and the
# reference's autoconf.h differ by lines no compile reads. ccache's
# direct mode hashes every header a compile includes, autoconf.h too, so
# the reference found nothing in it that ours had compiled: it fell back
# to running the preprocessor on each of its files, 414 s of a CI run
# from nothing. Each build therefore keeps autoconf.h out of ccache's
# manifests and hashes instead a copy of it without those symbols'
# lines. A symbol that a .c, .h or .S file of the tree names (as
# CONFIG_NAME or as a bare NAME, for token pasting) on a line that is
# not a comment keeps its line, so that two compiles with the same key
# always saw the same definitions. git grep sees every file: base.sh and
# tree.sh commit the trees; a grep that fails stops the build.
autoconf=$obj/include/generated/autoconf.h
[ -s "$autoconf" ] || die "build $mode: no $autoconf after syncconfig"
unread=
mapfile -t series_syms < <(sed -n 's/^+config \([A-Z0-9_]*\)$/\1/p' "$TOP"/patches/*.patch | sort -u)
for sym in "${series_syms[@]}"; do
	rc=0
	named=$(git -C "$src" grep -h -w -E "(CONFIG_)?${sym}(_MODULE)?" -- \
		'*.c' '*.h' '*.S') || rc=$?
	[ "$rc" -le 1 ] || die "build $mode: git grep in $src failed ($rc)"
	named=$(echo "$named" | grep -vE '^[[:space:]]*(/\*|//|\*([[:space:]]|/|$))' || true)
	[ -n "$named" ] || unread="$unread${unread:+|}$sym"
done
rc=0
grep -vE "^#define CONFIG_(${unread:-$^})(_MODULE)? " "$autoconf" \
	>"$obj/.ccache-autoconf.h" || rc=$?
[ "$rc" -le 1 ] || die "build $mode: could not filter $autoconf"
export CCACHE_EXTRAFILES=$obj/.ccache-autoconf.h
export CCACHE_IGNOREHEADERS=include/generated/autoconf.h

# kbuild's short lines ("  CC      kernel/fork.o") on stdout count the
# objects; its warnings and errors, on stderr, pass. A build from nothing
# gives as the total to expect the number of objects a build from
# nothing of this mode made last, or else of another mode.
compile_progress() {
	local n=0 total=$1 line of
	progress_start
	while IFS= read -r line; do
		case $line in *' CC '* | *' AS '*) n=$((n + 1)) ;; *) continue ;; esac
		progress_due || continue
		of=
		[ -z "$total" ] || [ "$n" -gt "$total" ] || of=" of about $total"
		progress "build $mode: compiling: $n objects$of"
	done
	progress_end
	[ "$n" = 0 ] || note "build $mode: $n objects compiled in $(progress_took)"
}
total='' from_nothing=0
if [ -z "$(find "$obj/" -name '*.o' -print -quit)" ]; then
	from_nothing=1
	total=$(cat "$obj/.objects" "$BUILD"/obj-*/.objects 2>/dev/null | head -n 1 || true)
	case $total in *[!0-9]*) total='' ;; esac
fi
note "build $mode: compiling (-j$JOBS)"
kmake all "${kbuild_args[@]}" | compile_progress "$total"
if [ "$from_nothing" = 1 ]; then
	find "$obj/" -name '*.o' 2>/dev/null | wc -l >"$obj/.objects" || true
fi
release=$(cat "$obj/include/config/kernel.release")

# "all" builds the modules too; install them as a real system has them,
# lib/modules/RELEASE with depmod's index, under a per-mode root (ours and
# ref share RELEASE). The guest mounts it on /lib/modules (run.sh), so that
# plain modprobe works there. Reinstalled each time: no stale modules.
modroot=$(modroot_of "$mode")
rm -rf "$modroot"
if [ -s "$obj/modules.order" ]; then
	note "build $mode: installing modules into $modroot"
	# depmod lives in /sbin, which a user's PATH may lack.
	depmod=$(PATH=$PATH:/usr/sbin:/sbin command -v depmod) ||
		die "depmod missing: run scripts/deps.sh"
	kmake -s modules_install INSTALL_MOD_PATH="$modroot" DEPMOD="$depmod"
	[ -s "$modroot/lib/modules/$release/modules.dep" ] ||
		die "modules_install of $mode left no modules.dep"
fi
note "build $mode: $release ready"
