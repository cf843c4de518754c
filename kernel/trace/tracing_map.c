// SPDX-License-Identifier: GPL-2.0
/*
 * tracing_map - fixed-capacity lock-free map used by hist triggers
 *
 * A hist trigger looks up (or adds) one key on every event it sees, from
 * whatever context the event fires in, NMI included.  This map is built
 * for that: everything is allocated up front, the hit path takes no lock
 * and never waits for another CPU, and an NMI landing in the middle of
 * an insert on the same CPU simply runs its own insert to completion.
 *
 * Layout
 * ------
 * All memory is allocated by tracing_map_create() and tracing_map_init():
 *
 *  - slots[]: 2 * capacity 64-bit words, open addressing with linear
 *    probing.  A slot is 0 while empty, otherwise it holds the key's
 *    32-bit hash in the upper half and (element index + 1) in the lower
 *    half.  A slot changes exactly once, from 0 to its final value, and
 *    only tracing_map_clear() empties it again.  At most half the slots
 *    are ever used, so probe sequences stay short and every probe
 *    sequence reaches an empty slot.
 *
 *  - keys[]: the key of element i at keys + i * key_stride.  It is
 *    written once when the element is taken for a new key and only read
 *    afterwards, so the lines hits compare against stay shared between
 *    CPUs, and small keys are packed densely.
 *
 *  - elts[]: the elements (struct tracing_map_elt with sums and vars
 *    after it), each rounded up to a cache line so that CPUs hitting
 *    different keys never write to the same line.
 *
 *  - a per-CPU struct tracing_map_cpu: hit, drop and entry counters
 *    (local64_t, so the hit path never writes a shared line except the
 *    sums of the element it hits) and a few spare element indexes.
 *
 * Insert
 * ------
 * tracing_map_insert() hashes the key, then walks the probe sequence:
 *
 *  - a slot whose hash and key match: that is the element, done;
 *  - an empty slot: the key is not in the map.  Take a free element
 *    (a per-CPU spare first, else the next never-used index), copy the
 *    key into it, run ops->elt_init(), and only then publish it with a
 *    single cmpxchg of the slot from 0 to (hash, index).  If the cmpxchg
 *    fails, someone else published into that slot first: look at what
 *    they put there (it may well be our key) and carry on probing,
 *    keeping our element for the next empty slot.
 *
 * Nothing is visible before it is complete, so nobody ever has to wait
 * for a half-made entry, and the only retry is the failed cmpxchg, which
 * moves the walk forward.  A key cannot end up in the map twice: every
 * inserter of a key walks the same sequence, slots never change once
 * set, so all of them meet at the first slot that was empty, and only
 * one cmpxchg on it can succeed; the others then find the key there.
 *
 * An inserter that finds its key published by someone else while it
 * holds an unpublished element parks the element in one of its CPU's
 * spare slots, and the next new key on that CPU reuses it, so race
 * losers do not eat capacity.  Each context on a CPU (task, softirq,
 * hardirq, NMI) holds at most one element at a time and takes a spare
 * before taking a new index, which bounds the parked elements per CPU by
 * the nesting depth; TRACING_MAP_SPARES covers it.  If the spares were
 * ever full anyway, the element would just stay unused until the next
 * clear.  Once no new index is left, an insert takes spares parked on
 * other CPUs too, so a full map really holds capacity keys; n_parked
 * tells it whether looking is worth it, keeping drops cheap.  Spares
 * are handed over with atomic xchg/cmpxchg, which are NMI-safe on every
 * architecture, unlike the generic this_cpu_xchg().
 *
 * When every element is taken, inserting a new key fails and counts a
 * drop, while keys already in the map keep being found and updated.
 *
 * Memory ordering
 * ---------------
 * The successful cmpxchg that publishes a slot is fully ordered, so the
 * key and whatever ops->elt_init() wrote are visible before the slot.
 * Every reader loads a slot with acquire semantics before touching the
 * element it names.  A failed cmpxchg orders nothing, so the slot is
 * reloaded with acquire before it is examined.  Handing an element to
 * a spare and taking it back are likewise fully ordered atomics.
 *
 * Sums are atomic64_t additions and need no ordering.  A variable is
 * written before its bit in var_set is set (smp_mb__before_atomic()),
 * and a consumer clears the bit with test_and_clear_bit(), fully
 * ordered, before reading the value, so a set value is consumed at most
 * once.  A value written while it is being consumed may be returned to
 * that consumer and to the next one; hist does not care, its variables
 * carry the latest value.
 *
 * Rules
 * -----
 *  - tracing_map_create(), the tracing_map_add_*() functions,
 *    tracing_map_init() and tracing_map_destroy(): process context, by
 *    the map's owner, with no other user of the map.
 *  - tracing_map_insert(), tracing_map_insert_u64() and
 *    tracing_map_count_drop(): any context including NMI, with
 *    preemption disabled (true in every tracepoint probe), because they
 *    update per-CPU counters.
 *    tracing_map_lookup(), the sum and variable helpers: any context.
 *  - tracing_map_sort_entries(), tracing_map_sort_snapshot(),
 *    tracing_map_read_stats() and tracing_map_memory_usage(): process
 *    context, concurrently with the hit path.  Entries being added
 *    meanwhile may or may not be seen.
 *  - tracing_map_clear(): process context, and the caller must make sure
 *    that no insert and no sort is running or can start (e.g. by
 *    disabling the trigger and waiting with
 *    tracepoint_synchronize_unregister()) until it returns.  Element
 *    pointers stay valid, their contents are reset.  Lookups may run
 *    meanwhile (a histogram reading another's variables does not wait
 *    for that one's clear): each slot goes from its value to empty in
 *    one atomic write, so a lookup finds its key, nothing, or an element
 *    being reset, never a slot with a hash but no element; a variable
 *    it finds set still holds the value set.  Such lookups must be over
 *    before inserts resume, or one may compare its key against an
 *    element already reused for another key: the hist layer waits for
 *    them with tracepoint_synchronize_unregister().
 *
 * NMI safety assumes atomic64_t operations are NMI-safe, which holds on
 * architectures that have NMIs (not with CONFIG_GENERIC_ATOMIC64).
 */

#include <linux/align.h>
#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/cache.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/hash.h>
#include <linux/jhash.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <asm/local64.h>

#include "tracing_map.h"

/* An element index that names no element. */
#define NO_ELT			(-1)

/* Parked elements per CPU: one per context that can nest on a CPU. */
#define TRACING_MAP_SPARES	4

struct tracing_map_cpu {
	local64_t	hits;
	local64_t	drops;
	local64_t	entries;
	atomic_t	spare[TRACING_MAP_SPARES];
};

struct tracing_map_field {
	enum tracing_map_field_type	type;
	bool				is_key;
	unsigned int			offset;	/* key fields: byte offset */
	unsigned int			size;	/* key fields: byte size */
};

struct tracing_map {
	/* Read by every hit; written only by init and destroy. */
	atomic64_t			*slots;
	u8				*keys;
	u8				*elts;
	unsigned int			key_size;
	unsigned int			key_stride;
	unsigned int			elt_size;
	unsigned int			slot_mask;
	unsigned int			slot_shift;
	int				max_elts;
	struct tracing_map_cpu __percpu	*cpu;
	const struct tracing_map_ops	*ops;

	/* Written for new keys only, so kept off the line above. */
	atomic_t			next_elt ____cacheline_aligned_in_smp;
	atomic_t			n_parked;

	/* Set up before tracing_map_init(), then read-only. */
	void				*private_data;
	unsigned int			n_sums;
	unsigned int			n_keys;
	unsigned int			n_vars;
	int				n_allocated;
	struct tracing_map_field	fields[TRACING_MAP_FIELDS_MAX];
};

static inline struct tracing_map_elt *elt_at(const struct tracing_map *map,
					     int idx)
{
	return (struct tracing_map_elt *)(map->elts +
					  (size_t)idx * map->elt_size);
}

static inline void *key_at(const struct tracing_map *map, int idx)
{
	return map->keys + (size_t)idx * map->key_stride;
}

/*
 * Keys a whole number of 8-byte words long (every hist key is) are
 * hashed a word at a time: each word is multiplied in and the high half
 * folded back, a few instructions a word where jhash() spends about
 * three times as many on its 12-byte rounds.  A 256-byte string key is
 * the case that matters.
 */
static u32 hash_words(const void *key, unsigned int size)
{
	u64 h = size;
	unsigned int i;

	for (i = 0; i < size; i += sizeof(u64)) {
		h = (h ^ get_unaligned((const u64 *)(key + i))) *
		    GOLDEN_RATIO_64;
		h ^= h >> 32;
	}
	return (u32)((h * GOLDEN_RATIO_64) >> 32);
}

/*
 * Keys of exactly 8 bytes (a single numeric hist key) get a multiplicative
 * hash; folding the high half in first lets every bit reach the top bits,
 * which pick the home slot.  Other multiples of 8 bytes go through
 * hash_words(), anything else through jhash(), which takes any length.
 */
static __always_inline u32 map_hash(const struct tracing_map *map,
				    const void *key, bool key64)
{
	if (key64) {
		u64 k = get_unaligned((const u64 *)key);

		return (u32)(((k ^ (k >> 32)) * GOLDEN_RATIO_64) >> 32);
	}
	if (!(map->key_size % sizeof(u64)))
		return hash_words(key, map->key_size);
	return jhash(key, map->key_size, 0);
}

/*
 * A key of whole words, the usual case (hist keys are), is compared a
 * word at a time inline: memcmp() is a call, then a byte-order compare
 * that an equality test does not need.
 */
static __always_inline bool key_equal(const struct tracing_map *map,
				      const void *stored, const void *key,
				      bool key64)
{
	const u64 *a = stored;
	unsigned int i;

	if (key64)
		return *a == get_unaligned((const u64 *)key);
	if (map->key_size % sizeof(u64))
		return !memcmp(stored, key, map->key_size);
	for (i = 0; i < map->key_size / sizeof(u64); i++)
		if (a[i] != get_unaligned((const u64 *)key + i))
			return false;
	return true;
}

static int take_spare(struct tracing_map *map, struct tracing_map_cpu *cpu)
{
	int i, idx;

	for (i = 0; i < TRACING_MAP_SPARES; i++) {
		if (atomic_read(&cpu->spare[i]) == NO_ELT)
			continue;
		idx = atomic_xchg(&cpu->spare[i], NO_ELT);
		if (idx != NO_ELT) {
			atomic_dec(&map->n_parked);
			return idx;
		}
	}
	return NO_ELT;
}

/* Take an element nobody else can see: a parked one, else a fresh one. */
static int claim_elt(struct tracing_map *map)
{
	int cpu, idx;

	idx = take_spare(map, this_cpu_ptr(map->cpu));
	if (idx != NO_ELT)
		return idx;

	/*
	 * Check before incrementing so that a full map costs no atomic
	 * operation and next_elt overshoots max_elts by at most the number
	 * of inserts in flight.
	 */
	if (atomic_read(&map->next_elt) < map->max_elts) {
		idx = atomic_inc_return(&map->next_elt) - 1;
		if (idx < map->max_elts)
			return idx;
	}

	/* Full: the last free elements may be parked on other CPUs. */
	if (atomic_read(&map->n_parked) <= 0)
		return NO_ELT;
	for_each_possible_cpu(cpu) {
		idx = take_spare(map, per_cpu_ptr(map->cpu, cpu));
		if (idx != NO_ELT)
			return idx;
	}
	return NO_ELT;
}

static void park_elt(struct tracing_map *map, int idx)
{
	struct tracing_map_cpu *cpu = this_cpu_ptr(map->cpu);
	int i;

	for (i = 0; i < TRACING_MAP_SPARES; i++) {
		if (atomic_cmpxchg(&cpu->spare[i], NO_ELT, idx) == NO_ELT) {
			atomic_inc(&map->n_parked);
			return;
		}
	}
	/* Cannot happen (see the top of this file); idx idles until clear. */
}

static __always_inline void prepare_elt(struct tracing_map *map, int idx,
					const void *key, bool key64)
{
	struct tracing_map_elt *elt = elt_at(map, idx);
	void *stored = key_at(map, idx);
	unsigned int i;

	if (key64)
		*(u64 *)stored = get_unaligned((const u64 *)key);
	else
		memcpy(stored, key, map->key_size);
	/* reset_elt() leaves them for lookups that overlap a clear */
	for (i = 0; i < map->n_vars; i++)
		atomic64_set(&elt->vars[i], 0);
	if (map->ops && map->ops->elt_init)
		map->ops->elt_init(map, elt);
}

/*
 * The rest of an insert, from the empty slot where the walk of
 * map_find() ended: the key is not in the map, or is being published
 * by someone else.  Taken once per new key (and by the losers of a
 * race), so it stays out of line, out of the registers of the walk
 * every hit makes.
 */
static noinline struct tracing_map_elt *
map_insert_from(struct tracing_map *map, const void *key, u32 hash, u32 pos,
		u32 probes)
{
	bool key64 = map->key_size == sizeof(u64);
	int mine = NO_ELT;

	for (; probes <= map->slot_mask; probes++) {
		atomic64_t *slot = &map->slots[pos];
		u64 val = atomic64_read_acquire(slot);
		int idx;

		if (!val) {
			if (mine == NO_ELT) {
				mine = claim_elt(map);
				if (mine == NO_ELT)
					break;
				prepare_elt(map, mine, key, key64);
			}
			val = ((u64)hash << 32) | (u32)(mine + 1);
			if (!atomic64_cmpxchg(slot, 0, val)) {
				struct tracing_map_cpu *cpu;

				cpu = this_cpu_ptr(map->cpu);
				local64_inc(&cpu->entries);
				local64_inc(&cpu->hits);
				return elt_at(map, mine);
			}
			val = atomic64_read_acquire(slot);
		}

		if ((u32)(val >> 32) == hash) {
			idx = (int)(u32)val - 1;
			if (key_equal(map, key_at(map, idx), key, key64)) {
				if (mine != NO_ELT)
					park_elt(map, mine);
				local64_inc(&this_cpu_ptr(map->cpu)->hits);
				return elt_at(map, idx);
			}
		}
		pos = (pos + 1) & map->slot_mask;
	}

	/* Only a full map gets here; the probe bound is a backstop. */
	if (mine != NO_ELT)
		park_elt(map, mine);
	local64_inc(&this_cpu_ptr(map->cpu)->drops);
	return NULL;
}

/* The same for tracing_map_insert_u64(), whose key is in a register. */
static noinline struct tracing_map_elt *
map_insert_from_u64(struct tracing_map *map, u64 key, u32 hash, u32 pos,
		    u32 probes)
{
	return map_insert_from(map, &key, hash, pos, probes);
}

/*
 * The walk described at the top of this file, up to the key or the
 * first empty slot; an insert goes on from there in map_insert_from().
 * Always inlined into its callers so that both @insert and @key64 are
 * compile-time constants.
 */
static __always_inline struct tracing_map_elt *
map_find(struct tracing_map *map, const void *key, bool insert, bool key64)
{
	u32 hash = map_hash(map, key, key64);
	u32 pos = hash >> map->slot_shift;
	u32 probes;

	for (probes = 0; probes <= map->slot_mask; probes++) {
		u64 val = atomic64_read_acquire(&map->slots[pos]);
		int idx;

		if (!val) {
			if (!insert)
				return NULL;
			/* by value: a u64 key then never has to be in memory */
			if (key64)
				return map_insert_from_u64(map,
					get_unaligned((const u64 *)key),
					hash, pos, probes);
			return map_insert_from(map, key, hash, pos, probes);
		}
		if ((u32)(val >> 32) == hash) {
			idx = (int)(u32)val - 1;
			if (key_equal(map, key_at(map, idx), key, key64)) {
				if (insert)
					local64_inc(&this_cpu_ptr(map->cpu)->hits);
				return elt_at(map, idx);
			}
		}
		pos = (pos + 1) & map->slot_mask;
	}

	/* Every slot taken: cannot happen, there are twice as many. */
	if (insert)
		local64_inc(&this_cpu_ptr(map->cpu)->drops);
	return NULL;
}

/**
 * tracing_map_insert - find the element for a key, adding it if needed
 * @map: initialized map
 * @key: key_size bytes, any alignment
 *
 * This is the hit path of a hist trigger.  It never sleeps, locks or
 * allocates, and is safe in any context including NMI; the caller must
 * have preemption disabled.  Counts a hit when an element is returned
 * and a drop when the key is new and the map is full.
 *
 * Return: the key's element, or NULL if the map is full.
 */
struct tracing_map_elt *tracing_map_insert(struct tracing_map *map,
					   const void *key)
{
	lockdep_assert_preemption_disabled();

	if (map->key_size == sizeof(u64))
		return map_find(map, key, true, true);
	return map_find(map, key, true, false);
}

/**
 * tracing_map_insert_u64 - tracing_map_insert() for a key of one u64
 * @map: initialized map whose key_size is sizeof(u64)
 * @key: the key, by value
 *
 * The same as tracing_map_insert(), without the key's size to test or a
 * key in memory to load: the hit path of a histogram keyed by one
 * number.  A map of another key size is the caller's bug, not checked
 * here, on the hit path.
 *
 * Return: the key's element, or NULL if the map is full.
 */
struct tracing_map_elt *tracing_map_insert_u64(struct tracing_map *map,
					       u64 key)
{
	lockdep_assert_preemption_disabled();

	return map_find(map, &key, true, true);
}

/**
 * tracing_map_count_drop - count a hit that could not be inserted
 * @map: initialized map
 *
 * For a caller that loses a hit before it can call tracing_map_insert(),
 * so that the map's drops say so.  Safe in any context, with preemption
 * disabled.
 */
void tracing_map_count_drop(struct tracing_map *map)
{
	local64_inc(&this_cpu_ptr(map->cpu)->drops);
}

/**
 * tracing_map_lookup - find the element for a key without adding it
 * @map: initialized map
 * @key: key_size bytes, any alignment
 *
 * Safe in any context.  Counts neither hits nor drops.
 *
 * Return: the key's element, or NULL if the key is not in the map.
 */
struct tracing_map_elt *tracing_map_lookup(struct tracing_map *map,
					   const void *key)
{
	if (map->key_size == sizeof(u64))
		return map_find(map, key, false, true);
	return map_find(map, key, false, false);
}

static void reset_elt(struct tracing_map *map, struct tracing_map_elt *elt)
{
	unsigned int i;

	/*
	 * A lookup may read the variables meanwhile: unset them in one
	 * atomic step, and leave their values for prepare_elt() to zero
	 * once the element is out of everyone's sight, so that a reader
	 * who saw a bit still set reads the value that went with it.
	 */
	xchg(&elt->var_set, 0);
	for (i = 0; i < map->n_sums; i++)
		atomic64_set(&elt->sums[i], 0);
	if (map->ops && map->ops->elt_clear)
		map->ops->elt_clear(map, elt);
}

static void reset_cpus(struct tracing_map *map)
{
	int cpu, i;

	for_each_possible_cpu(cpu) {
		struct tracing_map_cpu *c = per_cpu_ptr(map->cpu, cpu);

		local64_set(&c->hits, 0);
		local64_set(&c->drops, 0);
		local64_set(&c->entries, 0);
		for (i = 0; i < TRACING_MAP_SPARES; i++)
			atomic_set(&c->spare[i], NO_ELT);
	}
}

/**
 * tracing_map_clear - remove every entry and reset the statistics
 * @map: initialized map
 *
 * Calls ops->elt_clear() for each element taken since the last clear.
 * The caller must guarantee that no insert or sort on @map runs until
 * this returns; lookups may (see the rules at the top of tracing_map.c).
 */
void tracing_map_clear(struct tracing_map *map)
{
	int used = min(atomic_read(&map->next_elt), map->max_elts);
	u32 pos;
	int idx;

	for (idx = 0; idx < used; idx++)
		reset_elt(map, elt_at(map, idx));
	/* not memset(): it may store a slot a byte at a time */
	for (pos = 0; pos <= map->slot_mask; pos++)
		atomic64_set(&map->slots[pos], 0);
	atomic_set(&map->next_elt, 0);
	atomic_set(&map->n_parked, 0);
	reset_cpus(map);
}

/**
 * tracing_map_create - allocate a map and its slot table
 * @map_bits: log2 of the capacity, TRACING_MAP_BITS_MIN..TRACING_MAP_BITS_MAX
 * @key_size: key length in bytes, 1..TRACING_MAP_KEY_SIZE_MAX
 * @ops: optional per-element callbacks, must outlive the map
 * @private_data: returned by tracing_map_private()
 *
 * Add fields and variables next, then call tracing_map_init().
 *
 * Return: the map, or an ERR_PTR() on bad arguments or lack of memory.
 */
struct tracing_map *tracing_map_create(unsigned int map_bits,
				       unsigned int key_size,
				       const struct tracing_map_ops *ops,
				       void *private_data)
{
	struct tracing_map *map;

	if (map_bits < TRACING_MAP_BITS_MIN ||
	    map_bits > TRACING_MAP_BITS_MAX ||
	    !key_size || key_size > TRACING_MAP_KEY_SIZE_MAX)
		return ERR_PTR(-EINVAL);

	map = kzalloc(sizeof(*map), GFP_KERNEL);
	if (!map)
		return ERR_PTR(-ENOMEM);

	map->key_size = key_size;
	map->key_stride = ALIGN(key_size, sizeof(u64));
	map->max_elts = 1 << map_bits;
	map->slot_mask = (2U << map_bits) - 1;
	map->slot_shift = 32 - (map_bits + 1);
	map->ops = ops;
	map->private_data = private_data;

	map->slots = kvcalloc(map->slot_mask + 1, sizeof(*map->slots),
			      GFP_KERNEL);
	map->cpu = alloc_percpu(struct tracing_map_cpu);
	if (!map->slots || !map->cpu) {
		tracing_map_destroy(map);
		return ERR_PTR(-ENOMEM);
	}
	reset_cpus(map);
	return map;
}

/**
 * tracing_map_add_sum_field - add a counter to every element
 * @map: map not yet initialized
 * @type: %TRACING_MAP_UNSIGNED or %TRACING_MAP_SIGNED, for sorting
 *
 * Sum fields must all be added before the first key field, so that a
 * sum field's index is also its place in &tracing_map_elt.sums.
 *
 * Return: the field's index (for updating, reading and sorting), or
 * -EINVAL, -E2BIG or -EBUSY.
 */
int tracing_map_add_sum_field(struct tracing_map *map,
			      enum tracing_map_field_type type)
{
	if (type != TRACING_MAP_UNSIGNED && type != TRACING_MAP_SIGNED)
		return -EINVAL;
	if (map->n_keys)
		return -EBUSY;
	if (map->n_sums >= TRACING_MAP_SUMS_MAX)
		return -E2BIG;
	if (map->elts)
		return -EBUSY;
	map->fields[map->n_sums].type = type;
	map->fields[map->n_sums].is_key = false;
	return map->n_sums++;
}

/**
 * tracing_map_add_key_field - describe a part of the key, for sorting
 * @map: map not yet initialized
 * @offset: where the field starts in the key
 * @size: its length; 1, 2, 4 or 8 for numeric types
 * @type: how to compare it
 *
 * Return: the field's index (for sort keys), or -EINVAL, -E2BIG or
 * -EBUSY.
 */
int tracing_map_add_key_field(struct tracing_map *map, unsigned int offset,
			      unsigned int size,
			      enum tracing_map_field_type type)
{
	bool numeric = type == TRACING_MAP_UNSIGNED ||
		       type == TRACING_MAP_SIGNED;
	struct tracing_map_field *field;

	if (!size || offset >= map->key_size ||
	    size > map->key_size - offset || type > TRACING_MAP_BYTES)
		return -EINVAL;
	if (numeric && (size > sizeof(u64) || (size & (size - 1))))
		return -EINVAL;
	if (map->n_keys >= TRACING_MAP_KEYS_MAX)
		return -E2BIG;
	if (map->elts)
		return -EBUSY;
	field = &map->fields[map->n_sums + map->n_keys];
	field->type = type;
	field->is_key = true;
	field->offset = offset;
	field->size = size;
	return map->n_sums + map->n_keys++;
}

/**
 * tracing_map_add_var - add a variable to every element
 * @map: map not yet initialized
 *
 * Return: the variable's index, or -E2BIG or -EBUSY.
 */
int tracing_map_add_var(struct tracing_map *map)
{
	if (map->elts)
		return -EBUSY;
	if (map->n_vars >= TRACING_MAP_VARS_MAX)
		return -E2BIG;
	return map->n_vars++;
}

/**
 * tracing_map_init - allocate the elements once the fields are known
 * @map: map returned by tracing_map_create()
 *
 * Calls ops->elt_alloc() for every element.  On failure the map must
 * still be destroyed with tracing_map_destroy().
 *
 * Return: 0, or -EBUSY if already initialized, -ENOMEM, or the error
 * returned by ops->elt_alloc().
 */
int tracing_map_init(struct tracing_map *map)
{
	size_t vals = map->n_sums + map->n_vars;
	int idx, err;

	if (map->elts)
		return -EBUSY;

	map->elt_size = ALIGN(sizeof(struct tracing_map_elt) +
			      vals * sizeof(atomic64_t), SMP_CACHE_BYTES);
	map->keys = kvcalloc(map->max_elts, map->key_stride, GFP_KERNEL);
	map->elts = kvcalloc(map->max_elts, map->elt_size, GFP_KERNEL);
	if (!map->keys || !map->elts) {
		kvfree(map->keys);
		kvfree(map->elts);
		map->keys = NULL;
		map->elts = NULL;
		return -ENOMEM;
	}

	for (idx = 0; idx < map->max_elts; idx++) {
		struct tracing_map_elt *elt = elt_at(map, idx);

		elt->key = key_at(map, idx);
		elt->vars = &elt->sums[map->n_sums];
		if (map->ops && map->ops->elt_alloc) {
			err = map->ops->elt_alloc(map, elt);
			if (err)
				return err;
		}
		map->n_allocated = idx + 1;
	}
	return 0;
}

/**
 * tracing_map_destroy - free a map and everything it allocated
 * @map: map from tracing_map_create(), initialized or not; may be NULL
 *
 * Calls ops->elt_free() for each element ops->elt_alloc() succeeded on.
 * Nothing may use the map any more.
 */
void tracing_map_destroy(struct tracing_map *map)
{
	int idx;

	if (IS_ERR_OR_NULL(map))
		return;
	if (map->ops && map->ops->elt_free)
		for (idx = 0; idx < map->n_allocated; idx++)
			map->ops->elt_free(map, elt_at(map, idx));
	kvfree(map->elts);
	kvfree(map->keys);
	kvfree(map->slots);
	free_percpu(map->cpu);
	kfree(map);
}

/* A sort key resolved against the map's fields or the snapshot. */
struct sort_field {
	enum tracing_map_field_type	type;
	bool				is_key;
	bool				descending;
	bool				ranked;	/* compared by rank[] */
	bool				from_snapshot;
	unsigned int			index;	/* sum, key offset or word */
	unsigned int			size;
};

struct sort_ctx {
	unsigned int		n_fields;
	struct sort_field	fields[TRACING_MAP_SORT_KEYS_MAX];
};

/*
 * What gets sorted: the element, where its snapshot words are, and for
 * every key but strings and bytes its rank, worked out once per element
 * rather than once per comparison.
 */
struct sort_pair {
	u64			rank[TRACING_MAP_SORT_KEYS_MAX];
	struct tracing_map_elt	*elt;
	unsigned int		at;
};

static u64 read_key_number(const u8 *p, unsigned int size, bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? (u64)(s8)*p : *p;
	case 2:
		return is_signed ? (u64)(s16)get_unaligned((const u16 *)p) :
				   get_unaligned((const u16 *)p);
	case 4:
		return is_signed ? (u64)(s32)get_unaligned((const u32 *)p) :
				   get_unaligned((const u32 *)p);
	default:
		return get_unaligned((const u64 *)p);
	}
}

/*
 * Map a numeric field, or a word of the snapshot, to a u64 whose
 * unsigned ascending order is the requested order: flip the sign bit of
 * signed values, invert the whole word for descending.
 */
static u64 field_rank(const struct sort_field *f,
		      const struct tracing_map_elt *elt, const u64 *words)
{
	bool is_signed = f->type == TRACING_MAP_SIGNED;
	u64 v;

	if (f->from_snapshot)
		v = words[f->index];
	else if (f->is_key)
		v = read_key_number((const u8 *)elt->key + f->index, f->size,
				    is_signed);
	else
		v = atomic64_read(&elt->sums[f->index]);
	if (is_signed)
		v ^= BIT_ULL(63);
	return f->descending ? ~v : v;
}

static int cmp_field(const struct sort_field *f,
		     const struct tracing_map_elt *a,
		     const struct tracing_map_elt *b)
{
	const char *ka = (const char *)a->key + f->index;
	const char *kb = (const char *)b->key + f->index;
	int ret;

	if (f->type == TRACING_MAP_STRING)
		ret = strncmp(ka, kb, f->size);
	else
		ret = memcmp(ka, kb, f->size);
	return f->descending ? -ret : ret;
}

static int cmp_pairs(const void *pa, const void *pb, const void *priv)
{
	const struct sort_pair *a = pa, *b = pb;
	const struct sort_ctx *ctx = priv;
	unsigned int i;
	int ret;

	for (i = 0; i < ctx->n_fields; i++) {
		if (ctx->fields[i].ranked) {
			if (a->rank[i] != b->rank[i])
				return a->rank[i] < b->rank[i] ? -1 : 1;
			continue;
		}
		ret = cmp_field(&ctx->fields[i], a->elt, b->elt);
		if (ret)
			return ret;
	}
	/* Ties keep insertion order: elements are allocated in that order. */
	return a->elt < b->elt ? -1 : a->elt > b->elt;
}

static int resolve_sort_keys(const struct tracing_map *map,
			     const struct tracing_map_sort_key *keys,
			     unsigned int n_keys,
			     const struct tracing_map_snapshot *snap,
			     struct sort_ctx *ctx)
{
	unsigned int i;

	if (n_keys > TRACING_MAP_SORT_KEYS_MAX)
		return -EINVAL;
	if (snap && (!snap->n_words ||
		     snap->n_words > TRACING_MAP_SNAPSHOT_WORDS_MAX ||
		     !snap->take))
		return -EINVAL;
	for (i = 0; i < n_keys; i++) {
		const struct tracing_map_field *field;
		struct sort_field *f = &ctx->fields[i];

		memset(f, 0, sizeof(*f));
		f->descending = keys[i].descending;
		f->ranked = true;
		if (keys[i].from_snapshot) {
			if (!snap || keys[i].field_idx >= snap->n_words)
				return -EINVAL;
			f->from_snapshot = true;
			f->index = keys[i].field_idx;
			f->type = keys[i].snapshot_signed ? TRACING_MAP_SIGNED :
							    TRACING_MAP_UNSIGNED;
			continue;
		}
		if (keys[i].field_idx >= map->n_sums + map->n_keys)
			return -EINVAL;
		field = &map->fields[keys[i].field_idx];
		f->type = field->type;
		f->is_key = field->is_key;
		f->index = field->is_key ? field->offset : keys[i].field_idx;
		f->size = field->size;
		f->ranked = field->type == TRACING_MAP_UNSIGNED ||
			    field->type == TRACING_MAP_SIGNED;
	}
	ctx->n_fields = n_keys;
	return 0;
}

/**
 * tracing_map_sort_snapshot - collect the map's entries in a given order,
 *	with a copy of what the order was made from
 * @map: initialized map
 * @keys: up to TRACING_MAP_SORT_KEYS_MAX sort keys, most significant first
 * @n_keys: number of @keys; 0 gives insertion order
 * @snap: what to copy of every element before ordering, or NULL; keys
 *	with &tracing_map_sort_key.from_snapshot need it
 * @entries: set to an array of element pointers, NULL if there are none
 * @words: with @snap, set to @snap->n_words words per entry, in the order
 *	of @entries (NULL if there are none); unused without @snap
 *
 * Runs concurrently with the hit path and takes nothing it needs.  Sums
 * compared directly that change during the sort may leave their entries
 * slightly out of order; words of the snapshot cannot.  Entries that
 * compare equal on every key stay in insertion order.  Free the arrays
 * with tracing_map_free_entries() and tracing_map_free_snapshot().
 *
 * Return: the number of entries, or -EINVAL or -ENOMEM.
 */
int tracing_map_sort_snapshot(struct tracing_map *map,
			      const struct tracing_map_sort_key *keys,
			      unsigned int n_keys,
			      const struct tracing_map_snapshot *snap,
			      struct tracing_map_elt ***entries, u64 **words)
{
	unsigned int nw = snap ? snap->n_words : 0;
	u64 *taken = NULL, *sorted = NULL;
	struct tracing_map_elt **out;
	struct sort_pair *pairs = NULL;
	unsigned long *present;
	struct sort_ctx ctx;
	unsigned int pos, k;
	int n = 0, i = 0, idx;

	*entries = NULL;
	if (snap)
		*words = NULL;
	if (resolve_sort_keys(map, keys, n_keys, snap, &ctx))
		return -EINVAL;

	/* Walking the slots finds exactly the published elements. */
	present = kvcalloc(BITS_TO_LONGS(map->max_elts), sizeof(long),
			   GFP_KERNEL);
	if (!present)
		return -ENOMEM;
	for (pos = 0; pos <= map->slot_mask; pos++) {
		u64 val = atomic64_read_acquire(&map->slots[pos]);

		if (val) {
			__set_bit((u32)val - 1, present);
			n++;
		}
	}
	if (!n) {
		kvfree(present);
		return 0;
	}
	/* charged to the reader, who may keep them while it reads */
	pairs = kvmalloc_array(n, sizeof(*pairs), GFP_KERNEL_ACCOUNT);
	if (pairs && nw) {
		/* taken in map order, handed back in sorted order */
		taken = kvmalloc_array(n, nw * sizeof(u64), GFP_KERNEL_ACCOUNT);
		sorted = kvmalloc_array(n, nw * sizeof(u64),
					GFP_KERNEL_ACCOUNT);
	}
	if (!pairs || (nw && (!taken || !sorted))) {
		kvfree(sorted);
		kvfree(taken);
		kvfree(pairs);
		kvfree(present);
		return -ENOMEM;
	}

	/* Index order is insertion order. */
	for_each_set_bit(idx, present, map->max_elts) {
		u64 *w = NULL;

		if (i == n)
			break;
		pairs[i].elt = elt_at(map, idx);
		pairs[i].at = i;
		if (nw) {
			w = taken + (size_t)i * nw;
			snap->take(pairs[i].elt, w, snap->arg);
		}
		for (k = 0; k < ctx.n_fields; k++)
			if (ctx.fields[k].ranked)
				pairs[i].rank[k] = field_rank(&ctx.fields[k],
							      pairs[i].elt, w);
		/* a snapshot may walk buckets: a big map takes a while */
		if (!(++i % 1024))
			cond_resched();
	}
	kvfree(present);
	n = i;

	if (n_keys)
		sort_r(pairs, n, sizeof(*pairs), cmp_pairs, NULL, &ctx);

	for (i = 0; nw && i < n; i++)
		memcpy(sorted + (size_t)i * nw, taken + (size_t)pairs[i].at * nw,
		       nw * sizeof(u64));
	kvfree(taken);

	/*
	 * Compact the pairs into the array of pointers we return, in place:
	 * entry i is written over bytes of pairs already read.
	 */
	out = (struct tracing_map_elt **)pairs;
	for (i = 0; i < n; i++) {
		struct tracing_map_elt *elt = pairs[i].elt;

		out[i] = elt;
	}
	*entries = out;
	if (snap)
		*words = sorted;
	return n;
}

/**
 * tracing_map_sort_entries - collect the map's entries in a given order
 * @map: initialized map
 * @keys: up to TRACING_MAP_SORT_KEYS_MAX sort keys, most significant first;
 *	none may be &tracing_map_sort_key.from_snapshot
 * @n_keys: number of @keys; 0 gives insertion order
 * @entries: set to an array of element pointers, NULL if there are none
 *
 * tracing_map_sort_snapshot() without a snapshot.
 *
 * Return: the number of entries, or -EINVAL or -ENOMEM.
 */
int tracing_map_sort_entries(struct tracing_map *map,
			     const struct tracing_map_sort_key *keys,
			     unsigned int n_keys,
			     struct tracing_map_elt ***entries)
{
	return tracing_map_sort_snapshot(map, keys, n_keys, NULL, entries,
					 NULL);
}

/**
 * tracing_map_free_entries - free an array from tracing_map_sort_entries()
 * @entries: the array; may be NULL
 */
void tracing_map_free_entries(struct tracing_map_elt **entries)
{
	kvfree(entries);
}

/**
 * tracing_map_free_snapshot - free the words from tracing_map_sort_snapshot()
 * @words: the words; may be NULL
 */
void tracing_map_free_snapshot(u64 *words)
{
	kvfree(words);
}

/**
 * tracing_map_read_stats - read the hit, drop and entry totals
 * @map: map from tracing_map_create()
 * @stats: filled with exact totals of the per-CPU counters
 */
void tracing_map_read_stats(const struct tracing_map *map,
			    struct tracing_map_stats *stats)
{
	int cpu;

	memset(stats, 0, sizeof(*stats));
	for_each_possible_cpu(cpu) {
		struct tracing_map_cpu *c = per_cpu_ptr(map->cpu, cpu);

		stats->hits += local64_read(&c->hits);
		stats->drops += local64_read(&c->drops);
		stats->entries += local64_read(&c->entries);
	}
}

/**
 * tracing_map_memory_usage - report the memory a map uses
 * @map: map from tracing_map_create(); element sizes are known once it is
 *	initialized
 * @mem: filled in, in bytes
 */
void tracing_map_memory_usage(const struct tracing_map *map,
			      struct tracing_map_memory *mem)
{
	size_t n_slots = (size_t)map->slot_mask + 1;
	size_t n_elts = map->elts ? map->max_elts : 0;

	mem->per_elt = map->elt_size + map->key_stride +
		       n_slots / map->max_elts * sizeof(*map->slots);
	mem->elts = n_elts * (map->elt_size + map->key_stride);
	mem->slots = n_slots * sizeof(*map->slots);
	mem->percpu = num_possible_cpus() * sizeof(struct tracing_map_cpu);
	mem->total = sizeof(*map) + mem->elts + mem->slots + mem->percpu;
}

/**
 * tracing_map_private - the private_data given to tracing_map_create()
 * @map: the map
 *
 * Return: the pointer.
 */
void *tracing_map_private(const struct tracing_map *map)
{
	return map->private_data;
}
