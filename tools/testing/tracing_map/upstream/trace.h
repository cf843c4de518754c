/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands in for kernel/trace/trace.h when upstream's tracing_map.c is
 * built for the benchmark: that file needs nothing from it beyond what
 * the shim already provides (WARN_ONCE() among others).
 */
#include <shim.h>
