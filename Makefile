# SPDX-License-Identifier: GPL-2.0
#
# Driver for the hist-trigger series: lays our files over a Linux 6.12 base,
# builds it, boots it under QEMU and tests it. See README.md.
#
#   make [run]          build, boot, show a histogram made by our code
#   make check          the test command (REF=1: the upstream reference,
#                       DEBUG=1: KASAN, lockdep, kmemleak and UBSAN kernel,
#                       KCSAN=1: the data race detector's kernel)
#   make shell [CMD=f]  interactive guest shell, or run host script f inside
#   make lint           checkpatch, kernel-doc, sparse, W=1, coccicheck
#   make patches        the series as git format-patch files in build/patches
#   make bench-map      tracing_map microbenchmark, ours against upstream
#   make diff-check     the same seeded tracefs steps on ours and on the
#                       reference, every difference explained (N=, SEED=)
#   make coverage       lines and branches of our kernel files the tests reach
#                       (gcov kernel, lcov; report in build/coverage/html)
#   make bench-hist     hist-trigger cost per hit in QEMU, ours against upstream
#                       (builds both kernels; WALL=0: no wall-clock pass)
#   make build          just build the kernel of the mode
#   make clean          remove kernels and results, keep the base tree

REF ?= 0
DEBUG ?= 0
KCSAN ?= 0
# Where the trees, kernels and results go (.ci/run moves it out of the
# clone, see there).
BUILD ?= $(CURDIR)/build
export REF DEBUG KCSAN BUILD

MODE := $(if $(filter 1,$(REF)),ref,ours)$(if $(filter 1,$(DEBUG)),-debug)$(if $(filter 1,$(KCSAN)),-kcsan)
ifneq ($(filter 1,$(KCSAN)),)
ifneq ($(filter 1,$(REF) $(DEBUG)),)
$(error KCSAN=1 is a mode of its own: ours, without REF or DEBUG)
endif
endif

.PHONY: all run check shell lint patches series-check bisect-check cross-check build deps \
	clean distclean bench-map bench-hist diff-check coverage

all: run

deps:
	@scripts/deps.sh

build: deps
	@scripts/build.sh $(MODE)

run: build
	@scripts/run.sh -t 900 $(MODE) -- $(CURDIR)/scripts/guest-demo.sh

shell: build
ifeq ($(CMD),)
	@scripts/run.sh -i -t 86400 $(MODE) -- sh -c 'cd /sys/kernel/tracing && exec setsid -c bash -i </dev/ttyS0 >/dev/ttyS0 2>&1'
else
	@scripts/run.sh -t 3600 -s $(abspath $(CMD)) $(MODE)
endif

check:
	@scripts/check.sh

lint: deps
	@scripts/build.sh ours
	@scripts/lint.sh

patches: deps
	@scripts/patches.sh

series-check: deps
	@scripts/series-check.sh

# The differential tester: N steps (default 20000) from SEED (default 1)
# on ours and on the reference. make check runs a sample of it.
diff-check: deps
	@scripts/diff-check.sh

# Not in make check: a kernel of its own, and its report is for reading.
coverage: deps
	@scripts/coverage.sh

# Not in make check: minutes per patch or per architecture.
bisect-check: deps
	@scripts/bisect-check.sh

cross-check: deps
	@scripts/cross-check.sh

bench-map: deps
	@scripts/tree.sh >/dev/null
	@$(MAKE) --no-print-directory -C $(BUILD)/src-ours/tools/testing/tracing_map \
		bench UPSTREAM=$(BUILD)/base/kernel/trace

# Always ours against the reference, both non-debug: REF and DEBUG do not
# apply. REPS (runs per scenario, default 3) and WALL reach the script
# through the environment, as every command-line variable does.
bench-hist: deps
	@scripts/build.sh ours-bench
	@scripts/build.sh ref-bench
	@scripts/bench-hist.sh

clean:
	rm -rf $(BUILD)/obj-* $(BUILD)/src-ours/.obj-* $(BUILD)/base/.obj-* \
		$(BUILD)/results-* $(BUILD)/io.* $(BUILD)/patches $(BUILD)/bench-hist \
		$(BUILD)/series-am $(BUILD)/bisect $(BUILD)/bisect.config \
		$(BUILD)/coverage

distclean:
	rm -rf $(BUILD)
