// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark loops over one tracing_map build: ours (BENCH_OURS) or
 * upstream's.  Both are driven the way a hist trigger drives them: look
 * the key up or add it, then update the hitcount and one value.
 */
#include <linux/types.h>

#include "bench.h"
#include "tracing_map.h"

static void *map_create(unsigned int bits)
{
	struct tracing_map *map = tracing_map_create(bits, sizeof(u64), NULL,
						     NULL);

	if (IS_ERR(map))
		abort();
#ifdef BENCH_OURS
	tracing_map_add_sum_field(map, TRACING_MAP_UNSIGNED);
	tracing_map_add_sum_field(map, TRACING_MAP_UNSIGNED);
	tracing_map_add_key_field(map, 0, sizeof(u64), TRACING_MAP_UNSIGNED);
#else
	tracing_map_add_sum_field(map);
	tracing_map_add_sum_field(map);
	tracing_map_add_key_field(map, 0, tracing_map_cmp_num(8, 0));
#endif
	if (tracing_map_init(map))
		abort();
	return map;
}

static void map_destroy(void *map)
{
	tracing_map_destroy(map);
}

static void map_clear(void *map)
{
	tracing_map_clear(map);
}

static u64 map_hits(void *map, const u64 *keys, const u64 *vals,
		    unsigned int mask, unsigned long n)
{
	unsigned long i;
	u64 dropped = 0;

	for (i = 0; i < n; i++) {
		struct tracing_map_elt *elt;

		elt = tracing_map_insert(map, (void *)&keys[i & mask]);
		if (likely(elt)) {
			tracing_map_update_sum(elt, 0, 1);
			tracing_map_update_sum(elt, 1, vals[i & mask]);
		} else {
			dropped++;
		}
	}
	return dropped;
}

static u64 map_lookups(void *map, const u64 *keys, unsigned int mask,
		       unsigned long n)
{
	unsigned long i;
	u64 found = 0;

	for (i = 0; i < n; i++)
		found += !!tracing_map_lookup(map, (void *)&keys[i & mask]);
	return found;
}

static int map_sort(void *map, bool two_keys)
{
	struct tracing_map_sort_key keys[2] = {
		{ .field_idx = 1, .descending = true },
		{ .field_idx = 2 },
	};
#ifdef BENCH_OURS
	struct tracing_map_elt **entries;
	int n = tracing_map_sort_entries(map, keys, two_keys ? 2 : 1,
					 &entries);

	tracing_map_free_entries(entries);
#else
	struct tracing_map_sort_entry **entries;
	int n = tracing_map_sort_entries(map, keys, two_keys ? 2 : 1,
					 &entries);

	if (n > 0)
		tracing_map_destroy_sort_entries(entries, n);
#endif
	return n;
}

#ifdef BENCH_OURS
const struct bench_map bench_ours = {
	.name = "ours",
#else
const struct bench_map bench_upstream = {
	.name = "upstream",
#endif
	.create = map_create,
	.destroy = map_destroy,
	.clear = map_clear,
	.hits = map_hits,
	.lookups = map_lookups,
	.sort = map_sort,
};
