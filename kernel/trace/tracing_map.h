/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracing_map - fixed-capacity lock-free map used by hist triggers
 *
 * See the comment at the top of tracing_map.c for the design and for
 * the rules on who may call what from which context.
 */
#ifndef __TRACING_MAP_H
#define __TRACING_MAP_H

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/types.h>

/* Capacity is 1 << map_bits elements. */
#define TRACING_MAP_BITS_MIN		7
#define TRACING_MAP_BITS_DEFAULT	11
#define TRACING_MAP_BITS_MAX		20

/* Largest key: two 256-byte strings, or a stack and some numbers. */
#define TRACING_MAP_KEY_SIZE_MAX	512

/*
 * Sum words of an element: enough for hist's hitcount and fifteen
 * values that take the most words each, a signed .stddev's seven (106)
 */
#define TRACING_MAP_SUMS_MAX		112
#define TRACING_MAP_KEYS_MAX		8
#define TRACING_MAP_FIELDS_MAX		(TRACING_MAP_SUMS_MAX + \
					 TRACING_MAP_KEYS_MAX)
#define TRACING_MAP_VARS_MAX		16
#define TRACING_MAP_SORT_KEYS_MAX	4

struct tracing_map;

/**
 * enum tracing_map_field_type - how a field is interpreted when sorting
 * @TRACING_MAP_UNSIGNED: unsigned integer (sum, or 1/2/4/8-byte key field)
 * @TRACING_MAP_SIGNED: two's complement integer, same sizes as above
 * @TRACING_MAP_STRING: key field holding a string, NUL-terminated unless
 *	it fills the whole field
 * @TRACING_MAP_BYTES: key field compared byte by byte (e.g. a stack trace)
 */
enum tracing_map_field_type {
	TRACING_MAP_UNSIGNED,
	TRACING_MAP_SIGNED,
	TRACING_MAP_STRING,
	TRACING_MAP_BYTES,
};

/**
 * struct tracing_map_elt - one entry of the map
 * @key: the entry's key, key_size bytes; stable for the life of the map
 * @private_data: owned by the map's client, see &struct tracing_map_ops
 * @vars: the entry's variables, see tracing_map_set_var()
 * @var_set: bit i is set while @vars[i] holds a value not yet consumed
 * @sums: one counter per sum field, indexed by the sum field's index
 *
 * Elements live in one array allocated by tracing_map_init() and are
 * never freed or moved until tracing_map_destroy(), so a pointer
 * returned by the map stays valid (clearing only resets contents).
 */
struct tracing_map_elt {
	const void		*key;
	void			*private_data;
	atomic64_t		*vars;
	unsigned long		var_set;
	atomic64_t		sums[];
};

/**
 * struct tracing_map_ops - callbacks for a client's per-element data
 * @elt_alloc: called for every element by tracing_map_init(); may sleep
 *	and allocate.  A non-zero return makes tracing_map_init() fail.
 * @elt_free: called by tracing_map_destroy() for each element whose
 *	@elt_alloc succeeded
 * @elt_clear: called by tracing_map_clear() for each element taken for a
 *	key since the last clear (including a few race losers never shown)
 * @elt_init: called on the hit path when an element is taken for a new
 *	key, after its key is written and before any other CPU can see it.
 *	Runs in the caller's context (possibly NMI): must not sleep, lock
 *	or allocate.  It may run more than once for the same element.
 *
 * Every callback is optional.
 */
struct tracing_map_ops {
	int	(*elt_alloc)(struct tracing_map *map,
			     struct tracing_map_elt *elt);
	void	(*elt_free)(struct tracing_map *map,
			    struct tracing_map_elt *elt);
	void	(*elt_clear)(struct tracing_map *map,
			     struct tracing_map_elt *elt);
	void	(*elt_init)(struct tracing_map *map,
			    struct tracing_map_elt *elt);
};

/**
 * struct tracing_map_sort_key - one level of ordering for a sort
 * @field_idx: index returned by tracing_map_add_sum_field() or
 *	tracing_map_add_key_field(), or with @from_snapshot the number of
 *	a word of the snapshot
 * @descending: largest first instead of smallest first
 * @from_snapshot: order by a word the client's snapshot wrote
 *	(tracing_map_sort_snapshot()), e.g. a maximum or a percentile
 *	worked out from what the element keeps
 * @snapshot_signed: with @from_snapshot, the word is an s64
 */
struct tracing_map_sort_key {
	unsigned int	field_idx;
	bool		descending;
	bool		from_snapshot;
	bool		snapshot_signed;
};

#define TRACING_MAP_SNAPSHOT_WORDS_MAX	64

/**
 * struct tracing_map_snapshot - what a sort copies of every element first
 * @n_words: words per element, 1 to TRACING_MAP_SNAPSHOT_WORDS_MAX
 * @take: writes the @n_words words of @elt; called once per element per
 *	sort, in process context, while hits may still update @elt
 * @arg: passed to @take
 *
 * The words are taken before any element is ordered, the order is
 * worked out from them alone, and they are handed back with the sorted
 * elements: a reader that prints them prints the values the order was
 * made from, however the elements change meanwhile.
 */
struct tracing_map_snapshot {
	unsigned int	n_words;
	void		(*take)(const struct tracing_map_elt *elt, u64 *words,
				const void *arg);
	const void	*arg;
};

/**
 * struct tracing_map_stats - totals since creation or the last clear
 * @hits: tracing_map_insert() calls that returned an element
 * @drops: tracing_map_insert() calls that found the map full, and the
 *	hits the caller lost before it could insert
 *	(tracing_map_count_drop())
 * @entries: keys present in the map
 */
struct tracing_map_stats {
	u64	hits;
	u64	drops;
	u64	entries;
};

/**
 * struct tracing_map_memory - memory used by a map, in bytes
 * @per_elt: one element, its key storage and its share of the slot table
 * @elts: all elements and their key storage
 * @slots: the hash slot table
 * @percpu: per-CPU counters and spare elements, summed over all CPUs
 * @total: everything above plus the map itself; excludes client data
 */
struct tracing_map_memory {
	size_t	per_elt;
	size_t	elts;
	size_t	slots;
	size_t	percpu;
	size_t	total;
};

struct tracing_map *tracing_map_create(unsigned int map_bits,
				       unsigned int key_size,
				       const struct tracing_map_ops *ops,
				       void *private_data);
int tracing_map_add_sum_field(struct tracing_map *map,
			      enum tracing_map_field_type type);
int tracing_map_add_key_field(struct tracing_map *map, unsigned int offset,
			      unsigned int size,
			      enum tracing_map_field_type type);
int tracing_map_add_var(struct tracing_map *map);
int tracing_map_init(struct tracing_map *map);
void tracing_map_destroy(struct tracing_map *map);
void tracing_map_clear(struct tracing_map *map);

struct tracing_map_elt *tracing_map_insert(struct tracing_map *map,
					   const void *key);
struct tracing_map_elt *tracing_map_insert_u64(struct tracing_map *map,
					       u64 key);
struct tracing_map_elt *tracing_map_lookup(struct tracing_map *map,
					   const void *key);

int tracing_map_sort_entries(struct tracing_map *map,
			     const struct tracing_map_sort_key *keys,
			     unsigned int n_keys,
			     struct tracing_map_elt ***entries);
int tracing_map_sort_snapshot(struct tracing_map *map,
			      const struct tracing_map_sort_key *keys,
			      unsigned int n_keys,
			      const struct tracing_map_snapshot *snap,
			      struct tracing_map_elt ***entries, u64 **words);
void tracing_map_free_entries(struct tracing_map_elt **entries);
void tracing_map_free_snapshot(u64 *words);

void tracing_map_count_drop(struct tracing_map *map);
void tracing_map_read_stats(const struct tracing_map *map,
			    struct tracing_map_stats *stats);
void tracing_map_memory_usage(const struct tracing_map *map,
			      struct tracing_map_memory *mem);
void *tracing_map_private(const struct tracing_map *map);

/**
 * tracing_map_update_sum - add to one of an element's sum fields
 * @elt: element returned by tracing_map_insert()
 * @i: index returned by tracing_map_add_sum_field()
 * @n: amount to add; a negative s64 cast to u64 subtracts
 *
 * Safe from any context, concurrently with any other update.  Always
 * inlined: it is one instruction on the hit path, which a kernel built
 * for size would otherwise call.
 */
static __always_inline void
tracing_map_update_sum(struct tracing_map_elt *elt, unsigned int i, u64 n)
{
	atomic64_add(n, &elt->sums[i]);
}

/**
 * tracing_map_read_sum - read one of an element's sum fields
 * @elt: element of the map
 * @i: index returned by tracing_map_add_sum_field()
 *
 * Return: the current total; cast to s64 for a signed field.
 */
static inline u64 tracing_map_read_sum(const struct tracing_map_elt *elt,
				       unsigned int i)
{
	return atomic64_read(&elt->sums[i]);
}

/**
 * tracing_map_elt_key - the key an element was inserted with
 * @elt: element of the map
 *
 * Return: pointer to key_size bytes, valid until the map is destroyed.
 */
static inline const void *tracing_map_elt_key(const struct tracing_map_elt *elt)
{
	return elt->key;
}

/*
 * The variable helpers are inlined into the hit path: each is one or two
 * atomic operations, which a kernel built for size would otherwise call.
 */

/**
 * tracing_map_set_var - give one of an element's variables a value
 * @elt: element of the map
 * @i: index returned by tracing_map_add_var()
 * @val: the value
 *
 * Marks the variable set; safe in any context.
 */
static __always_inline void
tracing_map_set_var(struct tracing_map_elt *elt, unsigned int i, u64 val)
{
	atomic64_set(&elt->vars[i], val);
	/* Whoever sees the bit must see the value. */
	smp_mb__before_atomic();
	set_bit(i, &elt->var_set);
}

/**
 * tracing_map_var_is_set - does a variable hold an unconsumed value
 * @elt: element of the map
 * @i: index returned by tracing_map_add_var()
 *
 * Return: true if set since the last consuming read or clear.
 */
static __always_inline bool
tracing_map_var_is_set(const struct tracing_map_elt *elt, unsigned int i)
{
	return test_bit(i, &elt->var_set);
}

/**
 * tracing_map_read_var - read a variable, leaving it set
 * @elt: element of the map
 * @i: index returned by tracing_map_add_var()
 *
 * Return: the last value set, or 0 if it was never set.
 */
static __always_inline u64
tracing_map_read_var(const struct tracing_map_elt *elt, unsigned int i)
{
	return atomic64_read(&elt->vars[i]);
}

/**
 * tracing_map_read_var_once - consume a variable's value
 * @elt: element of the map
 * @i: index returned by tracing_map_add_var()
 * @val: where to store the value
 *
 * Atomically clears the variable's set state; of several concurrent
 * readers only one gets a given setting.  Safe in any context.
 *
 * Return: true and the value in @val if the variable was set, else false.
 */
static __always_inline bool
tracing_map_read_var_once(struct tracing_map_elt *elt, unsigned int i, u64 *val)
{
	if (!test_and_clear_bit(i, &elt->var_set))
		return false;
	*val = atomic64_read(&elt->vars[i]);
	return true;
}

#endif /* __TRACING_MAP_H */
