// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for tracing_map, the map behind hist triggers.
 *
 * Run with:
 *   ./tools/testing/kunit/kunit.py run --arch=x86_64 \
 *	--kconfig_add CONFIG_FTRACE=y \
 *	--kconfig_add CONFIG_ENABLE_DEFAULT_TRACERS=y \
 *	--kconfig_add CONFIG_TRACING_MAP_KUNIT_TEST=y tracing_map
 */

#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "tracing_map.h"

/* Sum fields every test map has, in this order. */
#define HITS	0
#define VALUE	1

static void destroy_map_action(void *map)
{
	tracing_map_destroy(map);
}

/* A map with a hit counter and a signed value sum, destroyed at test end. */
static struct tracing_map *new_map(struct kunit *test, unsigned int bits,
				   unsigned int key_size,
				   const struct tracing_map_ops *ops)
{
	struct tracing_map *map = tracing_map_create(bits, key_size, ops, test);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   destroy_map_action,
							   map));
	KUNIT_ASSERT_EQ(test, HITS,
			tracing_map_add_sum_field(map, TRACING_MAP_UNSIGNED));
	KUNIT_ASSERT_EQ(test, VALUE,
			tracing_map_add_sum_field(map, TRACING_MAP_SIGNED));
	return map;
}

/* The hit path runs with preemption off, as in a tracepoint probe. */
static struct tracing_map_elt *hit(struct tracing_map *map, const void *key,
				   s64 value)
{
	struct tracing_map_elt *elt;

	preempt_disable();
	elt = tracing_map_insert(map, key);
	if (elt) {
		tracing_map_update_sum(elt, HITS, 1);
		tracing_map_update_sum(elt, VALUE, (u64)value);
	}
	preempt_enable();
	return elt;
}

/* hit() through tracing_map_insert_u64(), for a map of u64 keys */
static struct tracing_map_elt *hit_u64(struct tracing_map *map, u64 key,
				       s64 value)
{
	struct tracing_map_elt *elt;

	preempt_disable();
	elt = tracing_map_insert_u64(map, key);
	if (elt) {
		tracing_map_update_sum(elt, HITS, 1);
		tracing_map_update_sum(elt, VALUE, (u64)value);
	}
	preempt_enable();
	return elt;
}

static void tracing_map_test_insert_lookup(struct kunit *test)
{
	struct tracing_map *map = new_map(test, 7, sizeof(u64), NULL);
	struct tracing_map_elt *a, *b;
	struct tracing_map_stats st;
	u64 key = 0x1234, other = 0x1235;

	KUNIT_ASSERT_EQ(test, 0, tracing_map_init(map));
	KUNIT_EXPECT_NULL(test, tracing_map_lookup(map, &key));

	a = hit(map, &key, 5);
	KUNIT_ASSERT_NOT_NULL(test, a);
	b = hit(map, &key, -2);
	KUNIT_EXPECT_PTR_EQ(test, a, b);
	KUNIT_EXPECT_PTR_EQ(test, a, tracing_map_lookup(map, &key));
	KUNIT_EXPECT_NULL(test, tracing_map_lookup(map, &other));
	KUNIT_EXPECT_EQ(test, *(const u64 *)tracing_map_elt_key(a), key);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(a, HITS), 2);
	KUNIT_EXPECT_EQ(test, (s64)tracing_map_read_sum(a, VALUE), 3);

	b = hit(map, &other, 1);
	KUNIT_EXPECT_PTR_NE(test, a, b);
	tracing_map_read_stats(map, &st);
	KUNIT_EXPECT_EQ(test, st.hits, 3);
	KUNIT_EXPECT_EQ(test, st.entries, 2);
	KUNIT_EXPECT_EQ(test, st.drops, 0);
	KUNIT_EXPECT_PTR_EQ(test, tracing_map_private(map), (void *)test);
}

static void tracing_map_test_full_map(struct kunit *test)
{
	struct tracing_map *map = new_map(test, 7, sizeof(u64), NULL);
	struct tracing_map_stats st;
	u64 key;

	KUNIT_ASSERT_EQ(test, 0, tracing_map_init(map));
	for (key = 0; key < 128; key++)
		KUNIT_EXPECT_NOT_NULL(test, hit(map, &key, 1));

	/* A new key is dropped and counted, by either insert... */
	key = 1000;
	KUNIT_EXPECT_NULL(test, hit(map, &key, 1));
	KUNIT_EXPECT_NULL(test, hit_u64(map, key, 1));
	KUNIT_EXPECT_NULL(test, tracing_map_lookup(map, &key));
	/* ...while a key already there still updates. */
	key = 77;
	KUNIT_EXPECT_NOT_NULL(test, hit(map, &key, 1));
	KUNIT_EXPECT_PTR_EQ(test, hit_u64(map, key, 1),
			    tracing_map_lookup(map, &key));
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(tracing_map_lookup(map, &key),
						   HITS), 3);

	tracing_map_read_stats(map, &st);
	KUNIT_EXPECT_EQ(test, st.entries, 128);
	KUNIT_EXPECT_EQ(test, st.drops, 2);
	KUNIT_EXPECT_EQ(test, st.hits, 130);
}

/*
 * An insert that loses the race for its key's slot, to another CPU or to
 * an NMI that hits the same key between the claim of an element and its
 * publication, holds an element it no longer needs: it must return the
 * winner's and park its own for a later new key, or the map would hold
 * one key fewer for each race lost.  ops->elt_init runs in that window,
 * so an insert of the same key from there does what the NMI would.
 */
struct lost_race {
	u64			key[2];		/* 8 or 16 bytes of it */
	struct tracing_map_elt	*inner;
	bool			nested;
};

static void lost_race_init(struct tracing_map *map,
			   struct tracing_map_elt *elt)
{
	struct kunit *test = tracing_map_private(map);
	struct lost_race *race = test->priv;

	if (!race || race->nested)
		return;
	race->nested = true;
	race->inner = tracing_map_insert(map, race->key);
}

static void lost_race_case(struct kunit *test, unsigned int key_size)
{
	static const struct tracing_map_ops ops = { .elt_init = lost_race_init };
	struct tracing_map *map = new_map(test, 7, key_size, &ops);
	struct lost_race race = { .key = { 42, 43 } };
	struct tracing_map_elt *outer;
	struct tracing_map_stats st;
	u64 key[2] = { 0, 0 };

	KUNIT_ASSERT_EQ(test, 0, tracing_map_init(map));
	test->priv = &race;
	outer = hit(map, race.key, 5);
	KUNIT_ASSERT_NOT_NULL(test, race.inner);
	KUNIT_EXPECT_PTR_EQ(test, outer, race.inner);
	KUNIT_EXPECT_PTR_EQ(test, outer, tracing_map_lookup(map, race.key));
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(outer, HITS), 1);

	/* The parked element is the last one handed out: 127 more keys fit. */
	for (key[0] = 1000; key[0] < 1127; key[0]++)
		KUNIT_EXPECT_NOT_NULL(test, hit(map, key, 1));
	KUNIT_EXPECT_NULL(test, hit(map, key, 1));
	tracing_map_read_stats(map, &st);
	KUNIT_EXPECT_EQ(test, st.entries, 128);
	KUNIT_EXPECT_EQ(test, st.drops, 1);
	/* the race's key kept its element, with the one hit it had */
	KUNIT_EXPECT_PTR_EQ(test, outer, tracing_map_lookup(map, race.key));
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(outer, HITS), 1);
	test->priv = NULL;
}

static void tracing_map_test_lost_insert_race(struct kunit *test)
{
	lost_race_case(test, sizeof(u64));
	lost_race_case(test, 2 * sizeof(u64));
}

static int n_cleared;

static void count_clear(struct tracing_map *map, struct tracing_map_elt *elt)
{
	n_cleared++;
}

static void tracing_map_test_clear(struct kunit *test)
{
	static const struct tracing_map_ops ops = { .elt_clear = count_clear };
	struct tracing_map *map = new_map(test, 8, sizeof(u64), &ops);
	struct tracing_map_elt *zero, *three, *elt;
	struct tracing_map_stats st;
	u64 key, val;
	int var;

	var = tracing_map_add_var(map);
	KUNIT_ASSERT_GE(test, var, 0);
	KUNIT_ASSERT_EQ(test, 0, tracing_map_init(map));
	for (key = 0; key < 200; key++)
		hit(map, &key, key);
	key = 0;
	zero = tracing_map_lookup(map, &key);
	key = 3;
	three = tracing_map_lookup(map, &key);
	tracing_map_set_var(three, var, 99);

	n_cleared = 0;
	tracing_map_clear(map);
	KUNIT_EXPECT_EQ(test, n_cleared, 200);
	tracing_map_read_stats(map, &st);
	KUNIT_EXPECT_EQ(test, st.hits + st.drops + st.entries, 0);
	for (key = 0; key < 200; key++)
		KUNIT_EXPECT_NULL(test, tracing_map_lookup(map, &key));

	/*
	 * The map is as good as new: the same elements are handed out again
	 * in the same order, with their contents reset, up to full capacity.
	 */
	for (key = 1000; key < 1256; key++)
		KUNIT_EXPECT_NOT_NULL(test, hit(map, &key, 1));
	key = 1000;
	elt = tracing_map_lookup(map, &key);
	KUNIT_EXPECT_PTR_EQ(test, elt, zero);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, HITS), 1);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, VALUE), 1);
	KUNIT_EXPECT_EQ(test, *(const u64 *)tracing_map_elt_key(three), 1003);
	KUNIT_EXPECT_FALSE(test, tracing_map_var_is_set(three, var));
	KUNIT_EXPECT_FALSE(test, tracing_map_read_var_once(three, var, &val));
	KUNIT_EXPECT_EQ(test, tracing_map_read_var(three, var), 0);
	key = 5000;
	KUNIT_EXPECT_NULL(test, hit(map, &key, 1));
}

/* Key used by the sort tests; field indexes follow the two sums. */
struct sort_test_key {
	u32	id;		/* field 2, unsigned */
	s16	delta;		/* field 3, signed */
	u8	pad[2];
	char	name[8];	/* field 4, string */
};

#define SORT_N	200

static struct tracing_map *sort_map(struct kunit *test)
{
	struct tracing_map *map;
	struct sort_test_key k;
	u32 seed = 1;
	int i, ret;

	map = new_map(test, 8, sizeof(k), NULL);
	ret = tracing_map_add_key_field(map, offsetof(struct sort_test_key, id),
					4, TRACING_MAP_UNSIGNED);
	KUNIT_ASSERT_EQ(test, ret, 2);
	ret = tracing_map_add_key_field(map,
					offsetof(struct sort_test_key, delta),
					2, TRACING_MAP_SIGNED);
	KUNIT_ASSERT_EQ(test, ret, 3);
	ret = tracing_map_add_key_field(map,
					offsetof(struct sort_test_key, name),
					8, TRACING_MAP_STRING);
	KUNIT_ASSERT_EQ(test, ret, 4);
	KUNIT_ASSERT_EQ(test, 0, tracing_map_init(map));

	for (i = 0; i < SORT_N; i++) {
		seed = seed * 1103515245 + 12345;
		memset(&k, 0, sizeof(k));
		k.id = (seed >> 4) % 1000 * 4096 + i;	/* unique */
		k.delta = (s16)((seed >> 8) % 41) - 20;
		snprintf(k.name, sizeof(k.name), "n%u", (seed >> 12) % 9);
		KUNIT_ASSERT_NOT_NULL(test, hit(map, &k, 0));
		/* 1..4 hits, value in -300..299: ties on every field */
		tracing_map_update_sum(tracing_map_lookup(map, &k), HITS,
				       (seed >> 16) % 4);
		tracing_map_update_sum(tracing_map_lookup(map, &k), VALUE,
				       (u64)((s64)((seed >> 18) % 600) - 300));
	}
	return map;
}

/* Compare two elements on one field, independently of the map's code. */
static int field_cmp(const struct tracing_map_elt *a,
		     const struct tracing_map_elt *b, unsigned int field)
{
	const struct sort_test_key *ka = tracing_map_elt_key(a);
	const struct sort_test_key *kb = tracing_map_elt_key(b);
	s64 va, vb;

	switch (field) {
	case HITS:
		va = tracing_map_read_sum(a, HITS);
		vb = tracing_map_read_sum(b, HITS);
		return va < vb ? -1 : va > vb;
	case VALUE:
		va = tracing_map_read_sum(a, VALUE);
		vb = tracing_map_read_sum(b, VALUE);
		return va < vb ? -1 : va > vb;
	case 2:
		return ka->id < kb->id ? -1 : ka->id > kb->id;
	case 3:
		return ka->delta < kb->delta ? -1 : ka->delta > kb->delta;
	default:
		return strncmp(ka->name, kb->name, sizeof(ka->name));
	}
}

/* The snapshot of the tests: word 0 the key's delta, word 1 the hits. */
#define SNAP_WORDS	2

static void snap_delta_hits(const struct tracing_map_elt *elt, u64 *words,
			    const void *arg)
{
	const struct sort_test_key *k = tracing_map_elt_key(elt);

	atomic_inc((atomic_t *)arg);
	words[0] = (u64)(s64)k->delta;
	words[1] = tracing_map_read_sum(elt, HITS);
}

static int words_cmp(const u64 *a, const u64 *b,
		     const struct tracing_map_sort_key *key)
{
	u64 va = a[key->field_idx], vb = b[key->field_idx];

	if (key->snapshot_signed)
		return (s64)va < (s64)vb ? -1 : (s64)va > (s64)vb;
	return va < vb ? -1 : va > vb;
}

/*
 * Sort, with @snap or without, and check the order against the
 * fields (or, for keys of the snapshot, the words handed back) and that
 * every entry's words are its own.
 */
static void expect_sorted_snap(struct kunit *test, struct tracing_map *map,
			       const struct tracing_map_sort_key *keys,
			       unsigned int n_keys,
			       const struct tracing_map_snapshot *snap)
{
	struct tracing_map_elt **e;
	u64 *w = NULL;
	unsigned int k;
	int n, i, r = 0;

	if (snap)
		n = tracing_map_sort_snapshot(map, keys, n_keys, snap, &e, &w);
	else
		n = tracing_map_sort_entries(map, keys, n_keys, &e);
	KUNIT_ASSERT_EQ(test, n, SORT_N);
	for (i = 0; snap && i < n; i++) {
		const struct sort_test_key *key = tracing_map_elt_key(e[i]);

		if (w[i * SNAP_WORDS] != (u64)(s64)key->delta ||
		    w[i * SNAP_WORDS + 1] != tracing_map_read_sum(e[i], HITS)) {
			KUNIT_FAIL(test, "entry %d: words not its own", i);
			break;
		}
	}
	for (i = 1; i < n; i++) {
		for (k = 0; k < n_keys; k++) {
			if (keys[k].from_snapshot)
				r = words_cmp(w + (i - 1) * SNAP_WORDS,
					      w + i * SNAP_WORDS, &keys[k]);
			else
				r = field_cmp(e[i - 1], e[i],
					      keys[k].field_idx);
			if (keys[k].descending)
				r = -r;
			if (r)
				break;
		}
		/* Full ties keep insertion order, i.e. element order. */
		if (r > 0 || (!r && e[i - 1] > e[i])) {
			KUNIT_FAIL(test, "field %u%s%s, position %d",
				   keys[0].field_idx,
				   keys[0].from_snapshot ? " of the snapshot" : "",
				   keys[0].descending ? " desc" : "", i);
			break;
		}
	}
	tracing_map_free_entries(e);
	tracing_map_free_snapshot(w);
}

static void expect_sorted(struct kunit *test, struct tracing_map *map,
			  const struct tracing_map_sort_key *keys,
			  unsigned int n_keys)
{
	expect_sorted_snap(test, map, keys, n_keys, NULL);
}

static void tracing_map_test_sort_directions(struct kunit *test)
{
	struct tracing_map *map = sort_map(test);
	struct tracing_map_sort_key key;
	unsigned int field;

	for (field = 0; field <= 4; field++) {
		key.field_idx = field;
		key.descending = false;
		expect_sorted(test, map, &key, 1);
		key.descending = true;
		expect_sorted(test, map, &key, 1);
	}
}

static void tracing_map_test_sort_two_keys(struct kunit *test)
{
	static const struct tracing_map_sort_key cases[][2] = {
		{ { 4, false }, { HITS, true } },
		{ { 3, true }, { VALUE, false } },
		{ { HITS, false }, { 4, true } },
		{ { VALUE, true }, { 2, false } },
	};
	struct tracing_map *map = sort_map(test);
	struct tracing_map_sort_key bad = { .field_idx = 5 };
	struct tracing_map_elt **e;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		expect_sorted(test, map, cases[i], 2);
	KUNIT_EXPECT_EQ(test, -EINVAL,
			tracing_map_sort_entries(map, &bad, 1, &e));
}

/*
 * Keys of the snapshot sort as the words the client wrote, signed or
 * not, either way, first or after other keys, with up to four keys; the
 * snapshot is taken once per element and sort, not once per comparison,
 * and comes back in the order of the entries.  A key of the snapshot
 * needs a snapshot that has its word.
 */
static void tracing_map_test_sort_snapshot(struct kunit *test)
{
	struct tracing_map *map = sort_map(test);
	struct tracing_map_sort_key keys[TRACING_MAP_SORT_KEYS_MAX] = {
		{ .field_idx = 0, .from_snapshot = true,
		  .snapshot_signed = true },
		{ .field_idx = 4 },
		{ .field_idx = 1, .from_snapshot = true, .descending = true },
		{ .field_idx = 2 },
	};
	atomic_t calls = ATOMIC_INIT(0);
	struct tracing_map_snapshot snap = {
		.n_words = SNAP_WORDS,
		.take = snap_delta_hits,
		.arg = &calls,
	};
	struct tracing_map_elt **e;
	unsigned int n;
	u64 *w;

	for (n = 1; n <= TRACING_MAP_SORT_KEYS_MAX; n++) {
		atomic_set(&calls, 0);
		expect_sorted_snap(test, map, keys, n, &snap);
		KUNIT_EXPECT_EQ(test, atomic_read(&calls), SORT_N);
		keys[0].descending = !keys[0].descending;
	}
	/* of the snapshot second, after a string; then none of it */
	swap(keys[0], keys[1]);
	atomic_set(&calls, 0);
	expect_sorted_snap(test, map, keys, 2, &snap);
	KUNIT_EXPECT_EQ(test, atomic_read(&calls), SORT_N);
	expect_sorted_snap(test, map, &keys[0], 1, &snap);

	KUNIT_EXPECT_EQ(test, -EINVAL,
			tracing_map_sort_entries(map, &keys[1], 1, &e));
	keys[1].field_idx = SNAP_WORDS;
	KUNIT_EXPECT_EQ(test, -EINVAL,
			tracing_map_sort_snapshot(map, &keys[1], 1, &snap,
						  &e, &w));
	KUNIT_EXPECT_NULL(test, w);
	snap.n_words = 0;
	KUNIT_EXPECT_EQ(test, -EINVAL,
			tracing_map_sort_snapshot(map, NULL, 0, &snap, &e, &w));
}

static void tracing_map_test_insertion_order(struct kunit *test)
{
	struct tracing_map *map = new_map(test, 9, sizeof(u64), NULL);
	struct tracing_map_elt **e;
	u64 key;
	int n, i;

	KUNIT_ASSERT_EQ(test, 0, tracing_map_init(map));
	KUNIT_EXPECT_EQ(test, 0, tracing_map_sort_entries(map, NULL, 0, &e));
	KUNIT_EXPECT_NULL(test, e);
	for (i = 0; i < 300; i++) {
		key = (u64)i * 7919 % 1000;
		hit(map, &key, 0);
	}
	n = tracing_map_sort_entries(map, NULL, 0, &e);
	KUNIT_ASSERT_EQ(test, n, 300);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, *(const u64 *)tracing_map_elt_key(e[i]),
				(u64)i * 7919 % 1000);
	tracing_map_free_entries(e);
}

static void tracing_map_test_vars(struct kunit *test)
{
	struct tracing_map *map = new_map(test, 7, sizeof(u64), NULL);
	struct tracing_map_elt *elt;
	u64 key = 1, val = 0;
	int i;

	for (i = 0; i < TRACING_MAP_VARS_MAX; i++)
		KUNIT_EXPECT_EQ(test, i, tracing_map_add_var(map));
	KUNIT_EXPECT_EQ(test, -E2BIG, tracing_map_add_var(map));
	KUNIT_ASSERT_EQ(test, 0, tracing_map_init(map));
	elt = hit(map, &key, 0);
	KUNIT_ASSERT_NOT_NULL(test, elt);

	KUNIT_EXPECT_FALSE(test, tracing_map_var_is_set(elt, 5));
	KUNIT_EXPECT_FALSE(test, tracing_map_read_var_once(elt, 5, &val));

	tracing_map_set_var(elt, 5, 123);
	tracing_map_set_var(elt, 15, (u64)-1);
	KUNIT_EXPECT_TRUE(test, tracing_map_var_is_set(elt, 5));
	KUNIT_EXPECT_FALSE(test, tracing_map_var_is_set(elt, 4));
	/* A plain read leaves the value set... */
	KUNIT_EXPECT_EQ(test, tracing_map_read_var(elt, 5), 123);
	KUNIT_EXPECT_TRUE(test, tracing_map_var_is_set(elt, 5));
	/* ...a read-once consumes it. */
	KUNIT_EXPECT_TRUE(test, tracing_map_read_var_once(elt, 5, &val));
	KUNIT_EXPECT_EQ(test, val, 123);
	KUNIT_EXPECT_FALSE(test, tracing_map_var_is_set(elt, 5));
	KUNIT_EXPECT_FALSE(test, tracing_map_read_var_once(elt, 5, &val));
	KUNIT_EXPECT_TRUE(test, tracing_map_var_is_set(elt, 15));

	tracing_map_set_var(elt, 5, 7);
	tracing_map_set_var(elt, 5, 8);
	KUNIT_EXPECT_TRUE(test, tracing_map_read_var_once(elt, 5, &val));
	KUNIT_EXPECT_EQ(test, val, 8);
	KUNIT_EXPECT_TRUE(test, tracing_map_read_var_once(elt, 15, &val));
	KUNIT_EXPECT_EQ(test, val, (u64)-1);
}

/* Hist's largest key: a 256-byte string, a 31-entry stack trace and more. */
struct long_test_key {
	char		comm[256];
	unsigned long	stack[31];
	u8		rest[TRACING_MAP_KEY_SIZE_MAX - 256 -
			     31 * sizeof(unsigned long)];
};

static void tracing_map_test_long_keys(struct kunit *test)
{
	struct tracing_map *map;
	struct long_test_key *k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	struct tracing_map_sort_key by_comm = { .field_idx = 2 };
	struct tracing_map_elt *elt, **e;
	int i, n, ret;

	BUILD_BUG_ON(sizeof(*k) != TRACING_MAP_KEY_SIZE_MAX);
	KUNIT_ASSERT_NOT_NULL(test, k);
	map = new_map(test, 10, sizeof(*k), NULL);
	ret = tracing_map_add_key_field(map, 0, 256, TRACING_MAP_STRING);
	KUNIT_ASSERT_EQ(test, ret, 2);
	ret = tracing_map_add_key_field(map,
					offsetof(struct long_test_key, stack),
					sizeof(k->stack), TRACING_MAP_BYTES);
	KUNIT_ASSERT_EQ(test, ret, 3);
	KUNIT_ASSERT_EQ(test, 0, tracing_map_init(map));

	/* Keys differing only in the first byte, or only in the last. */
	for (i = 0; i < 500; i++) {
		memset(k, 0, sizeof(*k));
		if (i < 250) {
			snprintf(k->comm, sizeof(k->comm), "%c-task", 'A' + i % 26);
			k->comm[200] = (char)(i / 26);	/* after the NUL */
		} else {
			k->rest[sizeof(k->rest) - 1] = (u8)(i - 250);
		}
		KUNIT_EXPECT_NOT_NULL(test, hit(map, k, i));
		KUNIT_EXPECT_NOT_NULL(test, hit(map, k, i));
	}
	for (i = 0; i < 500; i++) {
		memset(k, 0, sizeof(*k));
		if (i < 250) {
			snprintf(k->comm, sizeof(k->comm), "%c-task", 'A' + i % 26);
			k->comm[200] = (char)(i / 26);
		} else {
			k->rest[sizeof(k->rest) - 1] = (u8)(i - 250);
		}
		elt = tracing_map_lookup(map, k);
		KUNIT_ASSERT_NOT_NULL(test, elt);
		KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, VALUE), 2 * i);
		KUNIT_EXPECT_EQ(test, memcmp(tracing_map_elt_key(elt), k,
					     sizeof(*k)), 0);
	}

	n = tracing_map_sort_entries(map, &by_comm, 1, &e);
	KUNIT_ASSERT_EQ(test, n, 500);
	for (i = 1; i < n; i++)
		KUNIT_EXPECT_LE(test, strcmp(tracing_map_elt_key(e[i - 1]),
					     tracing_map_elt_key(e[i])), 0);
	tracing_map_free_entries(e);
}

struct priv_counts {
	int	alloc, free, init;
};

static int priv_alloc(struct tracing_map *map, struct tracing_map_elt *elt)
{
	struct priv_counts *c = tracing_map_private(map);

	elt->private_data = kzalloc(sizeof(u64), GFP_KERNEL);
	if (!elt->private_data)
		return -ENOMEM;
	c->alloc++;
	return 0;
}

static void priv_free(struct tracing_map *map, struct tracing_map_elt *elt)
{
	struct priv_counts *c = tracing_map_private(map);

	kfree(elt->private_data);
	c->free++;
}

static void priv_init(struct tracing_map *map, struct tracing_map_elt *elt)
{
	struct priv_counts *c = tracing_map_private(map);

	memcpy(elt->private_data, tracing_map_elt_key(elt), sizeof(u64));
	c->init++;
}

static void tracing_map_test_private_data(struct kunit *test)
{
	static const struct tracing_map_ops ops = {
		.elt_alloc = priv_alloc,
		.elt_free = priv_free,
		.elt_init = priv_init,
	};
	struct priv_counts counts = { };
	struct tracing_map_elt *elt;
	struct tracing_map *map;
	u64 key;

	map = tracing_map_create(7, sizeof(u64), &ops, &counts);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
	KUNIT_ASSERT_EQ(test, 0,
			tracing_map_add_sum_field(map, TRACING_MAP_UNSIGNED));
	KUNIT_ASSERT_EQ(test, 0, tracing_map_init(map));
	KUNIT_EXPECT_EQ(test, counts.alloc, 128);
	for (key = 10; key < 20; key++) {
		elt = hit(map, &key, 0);
		KUNIT_ASSERT_NOT_NULL(test, elt);
		KUNIT_EXPECT_EQ(test, *(u64 *)elt->private_data, key);
		hit(map, &key, 0);
	}
	KUNIT_EXPECT_EQ(test, counts.init, 10);
	tracing_map_destroy(map);
	KUNIT_EXPECT_EQ(test, counts.free, 128);
}

static void tracing_map_test_bad_args(struct kunit *test)
{
	const unsigned int too_few = TRACING_MAP_BITS_MIN - 1;
	const unsigned int too_many = TRACING_MAP_BITS_MAX + 1;
	const unsigned int too_long = TRACING_MAP_KEY_SIZE_MAX + 1;
	struct tracing_map *map;
	int ret;

	KUNIT_EXPECT_TRUE(test, IS_ERR(tracing_map_create(too_few, 8, NULL,
							  NULL)));
	KUNIT_EXPECT_TRUE(test, IS_ERR(tracing_map_create(too_many, 8, NULL,
							  NULL)));
	KUNIT_EXPECT_TRUE(test, IS_ERR(tracing_map_create(7, 0, NULL, NULL)));
	KUNIT_EXPECT_TRUE(test, IS_ERR(tracing_map_create(7, too_long, NULL,
							  NULL)));

	map = new_map(test, 7, 16, NULL);
	ret = tracing_map_add_sum_field(map, TRACING_MAP_STRING);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	/* past the end of the key */
	ret = tracing_map_add_key_field(map, 12, 8, TRACING_MAP_UNSIGNED);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	/* no 3-byte integers */
	ret = tracing_map_add_key_field(map, 0, 3, TRACING_MAP_UNSIGNED);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	ret = tracing_map_add_key_field(map, 8, 8, TRACING_MAP_SIGNED);
	KUNIT_EXPECT_EQ(test, ret, 2);
	/* All sums come before the first key field. */
	ret = tracing_map_add_sum_field(map, TRACING_MAP_UNSIGNED);
	KUNIT_EXPECT_EQ(test, ret, -EBUSY);

	KUNIT_ASSERT_EQ(test, 0, tracing_map_init(map));
	KUNIT_EXPECT_EQ(test, -EBUSY, tracing_map_init(map));
	KUNIT_EXPECT_EQ(test, -EBUSY, tracing_map_add_var(map));
	ret = tracing_map_add_key_field(map, 0, 8, TRACING_MAP_BYTES);
	KUNIT_EXPECT_EQ(test, ret, -EBUSY);
}

static void tracing_map_test_memory(struct kunit *test)
{
	struct tracing_map *map = new_map(test, 11, 24, NULL);
	struct tracing_map_memory mem;

	tracing_map_add_var(map);
	KUNIT_ASSERT_EQ(test, 0, tracing_map_init(map));
	tracing_map_memory_usage(map, &mem);
	/* element header, 2 sums and a var; 24-byte key; 2 slots of 8 */
	KUNIT_EXPECT_GE(test, mem.per_elt,
			sizeof(struct tracing_map_elt) + 3 * 8 + 24 + 16);
	KUNIT_EXPECT_EQ(test, mem.elts, 2048 * (mem.per_elt - 16));
	KUNIT_EXPECT_EQ(test, mem.slots, 4096 * 8);
	KUNIT_EXPECT_GT(test, mem.percpu, 0);
	KUNIT_EXPECT_GT(test, mem.total, mem.elts + mem.slots + mem.percpu);
	kunit_info(test, "%zu bytes per element, %zu in all\n", mem.per_elt,
		   mem.total);
}

/*
 * Kthreads on every CPU insert overlapping keys at the same time, every
 * other hit through tracing_map_insert_u64(): both inserts race for
 * the same slots and must meet at the same elements.
 */
struct worker {
	struct tracing_map	*map;
	struct completion	*start;
	struct completion	done;
	unsigned int		cpu;
	unsigned int		n_keys;
	unsigned int		rounds;
	bool			random;
	u64			hits;
	u64			drops;
};

static int worker_fn(void *data)
{
	struct worker *w = data;
	u32 seed = w->cpu + 1;
	unsigned int r, i;
	u64 key;

	wait_for_completion(w->start);
	for (r = 0; r < w->rounds; r++) {
		for (i = 0; i < w->n_keys; i++) {
			seed = seed * 1103515245 + 12345;
			/* Different starting points, so keys collide. */
			key = w->random ? (seed >> 8) % w->n_keys :
			      (i + w->cpu * 7 + r) % w->n_keys;
			if (i & 1 ? hit_u64(w->map, key, key) :
				    hit(w->map, &key, key))
				w->hits++;
			else
				w->drops++;
		}
		cond_resched();
	}
	complete(&w->done);
	return 0;
}

static void run_workers(struct kunit *test, struct tracing_map *map,
			unsigned int n_keys, unsigned int rounds, bool random,
			u64 *hits, u64 *drops)
{
	struct worker *workers;
	struct completion start;
	unsigned int cpu, n = 0, i;

	workers = kunit_kcalloc(test, nr_cpu_ids, sizeof(*workers),
				GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, workers);
	init_completion(&start);
	*hits = 0;
	*drops = 0;

	for_each_online_cpu(cpu) {
		struct worker *w = &workers[n];
		struct task_struct *task;

		if (n == nr_cpu_ids)
			break;
		*w = (struct worker){
			.map = map, .start = &start, .cpu = cpu,
			.n_keys = n_keys, .rounds = rounds, .random = random,
		};
		init_completion(&w->done);
		task = kthread_run_on_cpu(worker_fn, w, cpu,
					  "tracing_map_test/%u");
		if (IS_ERR(task)) {
			KUNIT_FAIL(test, "no kthread on CPU %u", cpu);
			break;
		}
		n++;
	}
	complete_all(&start);
	for (i = 0; i < n; i++) {
		wait_for_completion(&workers[i].done);
		*hits += workers[i].hits;
		*drops += workers[i].drops;
	}
	kunit_info(test, "%u CPUs, %llu hits, %llu drops\n", n, *hits, *drops);
}

static void tracing_map_test_concurrent(struct kunit *test)
{
	struct tracing_map *map = new_map(test, 10, sizeof(u64), NULL);
	const unsigned int n_keys = 700, rounds = 100;
	struct tracing_map_stats st;
	u64 hits, drops, key;

	KUNIT_ASSERT_EQ(test, 0, tracing_map_init(map));
	run_workers(test, map, n_keys, rounds, false, &hits, &drops);
	KUNIT_EXPECT_EQ(test, drops, 0);
	tracing_map_read_stats(map, &st);
	KUNIT_EXPECT_EQ(test, st.hits, hits);
	KUNIT_EXPECT_EQ(test, st.drops, 0);
	KUNIT_EXPECT_EQ(test, st.entries, n_keys);

	/* Every CPU hit every key once per round: sums must be exact. */
	for (key = 0; key < n_keys; key++) {
		struct tracing_map_elt *elt = tracing_map_lookup(map, &key);

		KUNIT_ASSERT_NOT_NULL(test, elt);
		KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, HITS) * n_keys,
				hits);
		KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, VALUE),
				hits / n_keys * key);
	}
}

static void tracing_map_test_concurrent_full(struct kunit *test)
{
	struct tracing_map *map = new_map(test, 7, sizeof(u64), NULL);
	struct tracing_map_elt **e;
	struct tracing_map_stats st;
	u64 hits, drops, sum = 0, key;
	int n, i, j;

	KUNIT_ASSERT_EQ(test, 0, tracing_map_init(map));
	run_workers(test, map, 1000, 30, true, &hits, &drops);
	tracing_map_read_stats(map, &st);
	KUNIT_EXPECT_EQ(test, st.hits, hits);
	KUNIT_EXPECT_EQ(test, st.drops, drops);
	KUNIT_EXPECT_LE(test, st.entries, 128);

	/* Elements parked by race losers go to the next new keys. */
	for (key = 0; key < 1000; key++)
		hit(map, &key, 0);
	tracing_map_read_stats(map, &st);
	KUNIT_EXPECT_EQ(test, st.entries, 128);

	n = tracing_map_sort_entries(map, NULL, 0, &e);
	KUNIT_ASSERT_EQ(test, n, 128);
	for (i = 0; i < n; i++) {
		sum += tracing_map_read_sum(e[i], HITS);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE(test,
					*(const u64 *)tracing_map_elt_key(e[i]),
					*(const u64 *)tracing_map_elt_key(e[j]));
	}
	KUNIT_EXPECT_EQ(test, sum, st.hits);
	tracing_map_free_entries(e);
}

/*
 * The largest map a hist trigger may ask for (size=131072), filled to
 * the last element while a reader on another CPU sorts it over and
 * over, as reads of the hist file do beside the hit path.  Each sort
 * must hand out distinct elements whose keys are keys we inserted; at
 * the end the map must hold every key exactly, and the keys that found
 * no room must be counted as drops, one per hit.
 */
#define LARGEST_BITS	17
#define LARGEST_KEYS	BIT(LARGEST_BITS)
#define LARGEST_EXTRA	100

struct largest_sorter {
	struct tracing_map	*map;
	struct completion	done;
	unsigned long		*seen;		/* bitmap over the keys */
	bool			stop;
	unsigned int		sorts;
	unsigned int		largest;
	unsigned int		bad;
};

static int largest_sorter_fn(void *data)
{
	static const struct tracing_map_sort_key by_hits = {
		.field_idx = HITS, .descending = true,
	};
	struct largest_sorter *r = data;

	while (!READ_ONCE(r->stop)) {
		struct tracing_map_elt **e;
		int n, i;

		n = tracing_map_sort_entries(r->map, &by_hits, 1, &e);
		if (n < 0) {
			r->bad++;
			break;
		}
		bitmap_zero(r->seen, LARGEST_KEYS + LARGEST_EXTRA);
		for (i = 0; i < n; i++) {
			u64 key = *(const u64 *)tracing_map_elt_key(e[i]);

			/* out of range, or the same key handed out twice */
			if (key >= LARGEST_KEYS + LARGEST_EXTRA ||
			    __test_and_set_bit(key, r->seen))
				r->bad++;
		}
		if (n)
			tracing_map_free_entries(e);
		r->largest = max_t(unsigned int, r->largest, n);
		r->sorts++;
		cond_resched();
	}
	complete(&r->done);
	return 0;
}

static void tracing_map_test_largest_map(struct kunit *test)
{
	struct tracing_map *map = new_map(test, LARGEST_BITS, sizeof(u64),
					  NULL);
	struct largest_sorter *r;
	struct task_struct *task;
	struct tracing_map_elt **e;
	struct tracing_map_stats st;
	unsigned int other;
	u64 key, round;
	int n, i;

	KUNIT_ASSERT_EQ(test, 0, tracing_map_init(map));
	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->seen = kunit_kcalloc(test, BITS_TO_LONGS(LARGEST_KEYS + LARGEST_EXTRA),
				sizeof(long), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->seen);
	r->map = map;
	init_completion(&r->done);
	other = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (other >= nr_cpu_ids)
		other = raw_smp_processor_id();
	task = kthread_run_on_cpu(largest_sorter_fn, r, other,
				  "tracing_map_sort/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));

	/* every key twice, then keys that find the map full */
	for (round = 0; round < 2; round++) {
		for (key = 0; key < LARGEST_KEYS; key++) {
			KUNIT_EXPECT_NOT_NULL(test, hit(map, &key, key));
			if (!(key & 1023))
				cond_resched();
		}
	}
	for (key = LARGEST_KEYS; key < LARGEST_KEYS + LARGEST_EXTRA; key++)
		KUNIT_EXPECT_NULL(test, hit(map, &key, 1));
	WRITE_ONCE(r->stop, true);
	wait_for_completion(&r->done);
	kunit_info(test, "%u sorts beside the hits, the largest of %u entries\n",
		   r->sorts, r->largest);
	KUNIT_EXPECT_EQ(test, r->bad, 0);
	KUNIT_EXPECT_GT(test, r->sorts, 0);

	tracing_map_read_stats(map, &st);
	KUNIT_EXPECT_EQ(test, st.entries, LARGEST_KEYS);
	KUNIT_EXPECT_EQ(test, st.hits, 2ULL * LARGEST_KEYS);
	KUNIT_EXPECT_EQ(test, st.drops, LARGEST_EXTRA);
	n = tracing_map_sort_entries(map, NULL, 0, &e);
	KUNIT_ASSERT_EQ(test, n, LARGEST_KEYS);
	bitmap_zero(r->seen, LARGEST_KEYS + LARGEST_EXTRA);
	for (i = 0; i < n; i++) {
		key = *(const u64 *)tracing_map_elt_key(e[i]);
		if (key >= LARGEST_KEYS || __test_and_set_bit(key, r->seen) ||
		    tracing_map_read_sum(e[i], HITS) != 2 ||
		    tracing_map_read_sum(e[i], VALUE) != 2 * key) {
			KUNIT_FAIL(test, "entry %d: key %llu, %llu hits, sum %llu",
				   i, key, tracing_map_read_sum(e[i], HITS),
				   tracing_map_read_sum(e[i], VALUE));
			break;
		}
	}
	tracing_map_free_entries(e);
}

/*
 * A histogram that reads another's variable looks its key up in the
 * other's map with no regard for that histogram's pause: the owner's
 * clear can run under such a lookup.  The lookup must then find the key,
 * nothing, or an element being reset; never an element outside the map,
 * which a slot cleared one byte at a time (hash left, index gone) would
 * give it.  A reader kthread on another CPU looks keys up while this
 * one clears and refills the map over and over; each element it gets
 * must hold the key it asked for, or a reset (zero) key.
 */
struct clear_reader {
	struct tracing_map	*map;
	struct completion	done;
	bool			stop;
	u64			lookups;
	u64			found;
	u64			wrong;
};

static int clear_reader_fn(void *data)
{
	struct clear_reader *r = data;
	u64 key = 0;

	while (!READ_ONCE(r->stop)) {
		struct tracing_map_elt *elt;
		u64 stored;

		preempt_disable();
		elt = tracing_map_lookup(r->map, &key);
		if (elt) {
			stored = READ_ONCE(*(const u64 *)tracing_map_elt_key(elt));
			r->found++;
			if (stored != key && stored)
				r->wrong++;
		}
		preempt_enable();
		r->lookups++;
		key = (key + 1) & 255;
		if (!(r->lookups & 1023))
			cond_resched();
	}
	complete(&r->done);
	return 0;
}

static void tracing_map_test_lookup_during_clear(struct kunit *test)
{
	struct tracing_map *map = new_map(test, 8, sizeof(u64), NULL);
	struct clear_reader *r;
	struct task_struct *task;
	unsigned int round, cpu;
	u64 key;

	KUNIT_ASSERT_EQ(test, 0, tracing_map_init(map));
	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->map = map;
	init_completion(&r->done);
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu >= nr_cpu_ids)
		kunit_skip(test, "needs two CPUs");
	task = kthread_run_on_cpu(clear_reader_fn, r, cpu, "tracing_map_clr/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));

	/*
	 * The keys are inserted in the same order every round, so an
	 * element the reader holds across a clear is refilled with the
	 * same key: a reader that outlives the clear is the caller's to
	 * wait for (see the rules in tracing_map.c), not this test's.
	 */
	for (round = 0; round < 2000; round++) {
		for (key = 0; key < 128; key++)
			if (!hit(map, &key, key))
				break;
		KUNIT_EXPECT_EQ(test, key, 128);
		tracing_map_clear(map);
		if (key != 128)
			break;
		cond_resched();
	}
	/* no ASSERT before this point: the reader uses the map and @r */
	WRITE_ONCE(r->stop, true);
	wait_for_completion(&r->done);
	kunit_info(test, "%u clears, %llu lookups, %llu found\n", round,
		   r->lookups, r->found);
	KUNIT_EXPECT_GT(test, r->lookups, 0);
	KUNIT_EXPECT_EQ(test, r->wrong, 0);
}

static struct kunit_case tracing_map_test_cases[] = {
	KUNIT_CASE(tracing_map_test_insert_lookup),
	KUNIT_CASE(tracing_map_test_full_map),
	KUNIT_CASE(tracing_map_test_lost_insert_race),
	KUNIT_CASE(tracing_map_test_clear),
	KUNIT_CASE(tracing_map_test_sort_directions),
	KUNIT_CASE(tracing_map_test_sort_two_keys),
	KUNIT_CASE(tracing_map_test_sort_snapshot),
	KUNIT_CASE(tracing_map_test_insertion_order),
	KUNIT_CASE(tracing_map_test_vars),
	KUNIT_CASE(tracing_map_test_long_keys),
	KUNIT_CASE(tracing_map_test_private_data),
	KUNIT_CASE(tracing_map_test_bad_args),
	KUNIT_CASE(tracing_map_test_memory),
	KUNIT_CASE_SLOW(tracing_map_test_concurrent),
	KUNIT_CASE_SLOW(tracing_map_test_concurrent_full),
	KUNIT_CASE_SLOW(tracing_map_test_largest_map),
	KUNIT_CASE_SLOW(tracing_map_test_lookup_during_clear),
	{}
};

static struct kunit_suite tracing_map_test_suite = {
	.name = "tracing_map",
	.test_cases = tracing_map_test_cases,
};

kunit_test_suite(tracing_map_test_suite);

MODULE_DESCRIPTION("KUnit tests for tracing_map");
MODULE_LICENSE("GPL");
