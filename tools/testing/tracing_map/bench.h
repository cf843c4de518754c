/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interface between the benchmark driver and the two map builds.  The
 * loops live in bench_map.c, built once per map, so that every map call
 * in a timed loop is a direct call, as in the kernel.
 */
#ifndef _TRACING_MAP_BENCH_H
#define _TRACING_MAP_BENCH_H

#include <linux/types.h>

struct bench_map {
	const char *name;
	/* map with sums hitcount (0) and value (1), u64 key field (2) */
	void *(*create)(unsigned int bits);
	void (*destroy)(void *map);
	void (*clear)(void *map);
	/* insert keys[i & mask] for i < n, add 1 and vals[i & mask] */
	u64 (*hits)(void *map, const u64 *keys, const u64 *vals,
		    unsigned int mask, unsigned long n);
	/* look up keys[i & mask] for i < n, return how many were found */
	u64 (*lookups)(void *map, const u64 *keys, unsigned int mask,
		       unsigned long n);
	/* sort by value descending, then by key if two_keys; return count */
	int (*sort)(void *map, bool two_keys);
};

extern const struct bench_map bench_ours, bench_upstream;

#endif
