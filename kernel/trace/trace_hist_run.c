// SPDX-License-Identifier: GPL-2.0
/*
 * Hist triggers: the hit path.
 *
 * hist_hit() runs from the event's tracepoint, in any context (NMI
 * included), with preemption disabled.  It reads the key into a buffer
 * (a single number needs no buffer work at all), finds or adds it in
 * the map and adds the values to the element's sums.  Fields are read
 * by a switch on the fetch kind chosen at creation: no indirect calls,
 * no lookups, no allocation.  A trigger with variables, references or
 * actions takes the general path: it reads the variables of other
 * histograms it references first, keeps its own variables with the
 * entry after the update, and runs its actions last.
 *
 * The rules this code relies on are under "Locking and lifetimes" in
 * trace_hist.h.
 */
#include <kunit/visibility.h>
#include <linux/jump_label.h>
#include <linux/slab.h>

#include "trace_hist.h"

/* What the snapshot update callback needs from the hit. */
struct hist_snap_cond {
	struct hist_action		*act;
	u64				val;
	const void			*key;
	const struct tracing_map_elt	*elt;
};

/*
 * A string or stack key into its place in the key buffer, which is
 * zeroed: a stack key is its entries, with no count, and its unused
 * entries stay zero.
 */
static __always_inline void hist_key_bytes(const struct hist_field *hf,
					   void *rec, void *dst)
{
	unsigned int len;
	const void *src;

	if (hf->fetch == HIST_FETCH_STACK) {
		hist_stack_save(dst, HIST_STACK_SKIP, HIST_STACKTRACE_DEPTH);
		return;
	}
	src = hist_field_bytes(hf, rec, &len);
	if (hf->fetch == HIST_FETCH_STACK_FIELD)
		hist_copy_stack(dst, src, len);
	else
		hist_copy_str(dst, hf->size, src, len);
}

/* The key parts into @key, which the caller cleared if it has to be. */
static __always_inline void hist_build_key(const struct hist_data *hd,
					   u64 *key, struct hist_hit *hit)
{
	unsigned int i;

	for (i = 0; i < hd->n_keys; i++) {
		const struct hist_field *hf = &hd->keys[i];
		void *dst = (void *)key + hf->key_offset;

		if (hist_field_is_bytes(hf))
			hist_key_bytes(hf, hit->rec, dst);
		else
			*(u64 *)dst = hist_fetch(hd, hf, hit);
	}
}

/* Raise a .min or .max word to @val, if that is a raise. */
static __always_inline void hist_raise(atomic64_t *word, u64 val)
{
	s64 old = atomic64_read(word);

	while ((u64)old < val && !atomic64_try_cmpxchg(word, &old, val))
		;
}

/*
 * Add to a 128-bit sum kept in two words.  Each add carries exactly its
 * own overflow into the high word, so the sum is exact once the hits
 * are done; a reader in between may see the carry late.
 *
 * Return: true if the sum passed 2^128 (wrapped).
 */
static __always_inline bool hist_add128(atomic64_t *word, u64 lo, u64 hi)
{
	u64 old = atomic64_fetch_add(lo, &word[0]);

	hi += old + lo < old;
	if (!hi)
		return false;
	old = atomic64_fetch_add(hi, &word[1]);
	return old + hi < old;
}

/*
 * Add a square to the 128-bit sum of squares, and note for good when
 * that passes 2^128 (the third word), after which the deviation is
 * unknown.  Out of line: a 128-bit product inlined into the hit path
 * makes each of its functions realign the stack, which would cost every
 * hit, not only a stddev's.
 */
static noinline void hist_add_square(atomic64_t *word, u64 mag)
{
	u64 hi, lo = hist_mul128(mag, mag, &hi);

	if (hist_add128(word, lo, hi))
		atomic64_set(&word[2], 1);
}

/* What a value other than a plain sum does with its number (see trace_hist.h). */
static __always_inline void hist_aggregate(const struct hist_field *hf,
					   struct tracing_map_elt *elt,
					   u64 val)
{
	struct hist_elt_data *ed;
	unsigned int at;

	switch (hf->update) {
	case HIST_UPD_MAX:
		hist_raise(&elt->sums[hf->map_idx], val ^ hf->agg_mask);
		break;
	case HIST_UPD_SQUARES:
		hist_add_square(&elt->sums[hf->map_idx + hist_sum_words(hf)],
				hf->is_signed && (s64)val < 0 ? -val : val);
		fallthrough;
	case HIST_UPD_SUM128:
		/* a negative number adds its magnitude to the second sum */
		at = hf->map_idx;
		if (hf->is_signed && (s64)val < 0) {
			at += 2;
			val = -val;
		}
		hist_add128(&elt->sums[at], val, 0);
		break;
	case HIST_UPD_BUCKETS:
		ed = elt->private_data;
		atomic64_inc((atomic64_t *)(ed->slots + hf->pct_at) +
			     hist_pct_slot(val, hf->is_signed));
		break;
	}
}

/* Count the hit and add each value's number to the entry. */
static __always_inline void hist_update_vals(const struct hist_data *hd,
					     struct tracing_map_elt *elt,
					     struct hist_hit *hit)
{
	unsigned int i;

	tracing_map_update_sum(elt, 0, 1);
	for (i = 1; i < hd->n_vals; i++) {
		const struct hist_field *hf = &hd->vals[i];

		if (likely(hf->update == HIST_UPD_SUM))
			tracing_map_update_sum(elt, hf->map_idx,
					       hist_fetch(hd, hf, hit));
		else if (hf->update != HIST_UPD_NONE)
			hist_aggregate(hf, elt, hist_fetch(hd, hf, hit));
	}
}

/*
 * Keys with a string or a stack in them, keys of more than
 * HIST_KEY_STACK_WORDS numbers, and the keys of the general path but
 * one number, are built in a per-CPU buffer, not on the stack: a stack key or
 * variable is taken by walking the stack, and the simplest unwinder
 * reads every word of it, so a key buffer there would lengthen the walk
 * it is filled by.  A hit can nest in another on the same CPU (an
 * interrupt, an NMI, a synthetic event generated by an action whose own
 * trigger fires), so there is a small stack of buffers; a hit nested
 * deeper than that is dropped, and counted in the map's drops.
 *
 * Only the hits that build their key here take a buffer; numeric keys
 * are built in registers or on the stack at any depth, but a general
 * hit always takes its place on the stack of buffers, used or not, but
 * for a leaf reader (hist_reader_leaf()): its small frame, on top of
 * the hit that took it, nests nothing further.
 * Four buffers is also what bounds a chain of synthetic events traced
 * from hits (an action whose event's trigger traces again): each link
 * nests the ring buffer once more, adding 5 to the shift of its
 * recursion bits (which must stay below 32), and puts about 1.5 KB on
 * the stack, which in an NMI is 8 KB in all.
 */
#define HIST_KEY_PADS	4

/*
 * @stack holds the walk of a general hit that keeps its stack
 * (hist_data.walks_stack), not the hit's own frame: see hist_general()
 * and hist_walk_stack() for its layout.
 */
struct hist_key_pad {
	u64		key[TRACING_MAP_KEY_SIZE_MAX / sizeof(u64)];
	unsigned long	stack[2 + HIST_STACKTRACE_DEPTH];
};

static DEFINE_PER_CPU(struct hist_key_pad[HIST_KEY_PADS], hist_key_pads);
static DEFINE_PER_CPU(int, hist_key_pad_depth);

/* Always paired with hist_key_pad_put(), even when it returns NULL. */
static u64 *hist_key_pad_get(void)
{
	int depth = this_cpu_inc_return(hist_key_pad_depth) - 1;

	if (unlikely(depth >= HIST_KEY_PADS))
		return NULL;
	return this_cpu_ptr(&hist_key_pads[depth])->key;
}

static void hist_key_pad_put(void)
{
	this_cpu_dec(hist_key_pad_depth);
}

/*
 * A place on the stack of buffers without a buffer, for a general hit
 * whose key is in a register.  Always paired with hist_key_pad_put().
 */
static bool hist_key_pad_enter(void)
{
	return this_cpu_inc_return(hist_key_pad_depth) <= HIST_KEY_PADS;
}

/* The stack room of the place a general hit holds on the stack of pads. */
static unsigned long *hist_key_pad_stack(void)
{
	int depth = this_cpu_read(hist_key_pad_depth) - 1;

	return this_cpu_ptr(&hist_key_pads[depth])->stack;
}

/*
 * The guessing unwinder reports every text address it finds above
 * where it starts, the hit's own frame included: the entries of a walk
 * must not be written there, and the arrays the hit has not written
 * yet, which hold whatever earlier calls left, must not look like
 * frames.  ORC and frame pointers follow frames and are not fooled, but
 * the walk is rare enough to pay for this everywhere.
 */
static __always_inline void hist_walk_stack(struct hist_data *hd,
					    struct hist_hit *hit)
{
	unsigned long *walk = hist_key_pad_stack();
	unsigned int n;

	memset(hit->refs + hd->n_refs, 0,
	       (HIST_REFS_MAX - hd->n_refs) * sizeof(u64));
	memset(hit->vars, 0, HIST_VARS_MAX * sizeof(u64));
	hit->n_stack = 0;
	hit->stack = walk + 2;
	/*
	 * Upstream walks for a trace() parameter from one frame further in
	 * than for a key or a variable, so its stack starts with one more
	 * frame.  One walk serves both: from walk + 1, one frame fewer
	 * skipped; @stack starts after that frame, and walk[0] counts the
	 * entries from walk + 1 on, as a synthetic event reads a stack.
	 */
	n = hist_stack_save(walk + 1, HIST_STACK_SKIP - 1,
			    HIST_STACKTRACE_DEPTH + 1);
	hit->n_stack = n ? n - 1 : 0;
	walk[0] = min_t(unsigned int, n, HIST_STACKTRACE_DEPTH);
}

/*
 * Poll wakeups cost a full barrier per hit (wq_has_sleeper()); a
 * static branch, on while any hist file has been polled, keeps that
 * off the hit path of everyone else.  A poller turns it on before it
 * first waits, then waits for a grace period: hits run with preemption
 * disabled, so every hit that may have missed the branch has ended, and
 * its counts are visible, before the poller reads them; every later
 * hit takes the branch and pairs its wq_has_sleeper() with the
 * poller's smp_mb() after it is queued.
 */
static DEFINE_STATIC_KEY_FALSE(hist_polled);

/**
 * hist_poll_opened - a hist file is polled for the first time
 *
 * Context: process, before the poller first reads the hits; sleeps for
 * a grace period.
 */
void hist_poll_opened(void)
{
	static_branch_inc(&hist_polled);
	synchronize_rcu();
}

/**
 * hist_poll_closed - a hist file that was polled is closed
 *
 * Context: process; may sleep.
 */
void hist_poll_closed(void)
{
	static_branch_dec(&hist_polled);
}

static __always_inline void hist_hit_done(void)
{
	if (static_branch_unlikely(&hist_polled))
		hist_poll_wakeup();
}

/*
 * Each way of taking a hit is a function of its own, which hist_hit()
 * tail-calls: no frame of ours lies between the trigger core and the
 * one that walks the stack for a stack key, which therefore skips the
 * same frames as upstream and keeps the same ones, and the walk, whose
 * cost grows with every frame, has no extra one to unwind.  Each
 * function keeps to the registers and stack it needs: the numeric ones
 * never touch a key buffer.
 */
#define HIST_HIT_ARGS	struct hist_data *hd, void *rec, \
			struct trace_buffer *buffer, \
			struct ring_buffer_event *rbe

/*
 * The hit's state, for hist_fetch(); the general path adds its arrays.
 * The kernel may clear every local on the stack: a hit is declared
 * __uninitialized and set here, as clearing it would cost more than the
 * rest of a one-key hit.
 */
static __always_inline void hist_hit_init(struct hist_hit *hit, void *rec,
					  struct trace_buffer *buffer,
					  struct ring_buffer_event *rbe)
{
	hit->rec = rec;
	hit->buffer = buffer;
	hit->rbe = rbe;
}

static __always_inline void hist_update(struct hist_data *hd,
					const void *key, struct hist_hit *hit)
{
	struct tracing_map_elt *elt;

	elt = tracing_map_insert(hd->map, key);
	if (unlikely(!elt))
		return;
	hist_update_vals(hd, elt, hit);
}

/*
 * One number: the key never leaves a register.  @count_only, a constant
 * in each caller: hitcount is the only value, the commonest histogram,
 * and its function has no loop over values.
 */
static __always_inline void hist_hit_number(HIST_HIT_ARGS, bool count_only)
{
	struct hist_hit hit __uninitialized;
	struct tracing_map_elt *elt;

	hist_hit_init(&hit, rec, buffer, rbe);
	elt = tracing_map_insert_u64(hd->map,
				     hist_fetch(hd, &hd->keys[0], &hit));
	if (likely(elt)) {
		if (count_only)
			tracing_map_update_sum(elt, 0, 1);
		else
			hist_update_vals(hd, elt, &hit);
	}
	hist_hit_done();
}

static noinline void hist_hit_count(HIST_HIT_ARGS)
{
	hist_hit_number(hd, rec, buffer, rbe, true);
}

static noinline void hist_hit_u64(HIST_HIT_ARGS)
{
	hist_hit_number(hd, rec, buffer, rbe, false);
}

/* A few numbers, in a buffer on the stack. */
static noinline void hist_hit_words(HIST_HIT_ARGS)
{
	struct hist_hit hit __uninitialized;
	/* every word is written by hist_build_key() */
	u64 key[HIST_KEY_STACK_WORDS] __uninitialized;

	hist_hit_init(&hit, rec, buffer, rbe);
	hist_build_key(hd, key, &hit);
	hist_update(hd, key, &hit);
	hist_hit_done();
}

/*
 * A key with a string or a stack in it, or of many numbers: a buffer to
 * clear and fill.  A stack key is walked from here.
 */
static noinline void hist_hit_pad(HIST_HIT_ARGS)
{
	struct hist_hit hit __uninitialized;
	u64 *key = hist_key_pad_get();

	hist_hit_init(&hit, rec, buffer, rbe);
	/* a stack key's walk must not find stale words: hist_walk_stack() */
	hit.refs = NULL;
	hit.vars = NULL;
	hit.stack = NULL;
	hit.n_stack = 0;
	if (likely(key)) {
		memset(key, 0, hd->key_size);
		hist_build_key(hd, key, &hit);
		hist_update(hd, key, &hit);
	} else {
		tracing_map_count_drop(hd->map);
	}
	hist_key_pad_put();
	hist_hit_done();
}

static void hist_readers_run(struct hist_data *hd, struct hist_hit *hit);

/*
 * Variables, references or actions: resolve what this hit reads of
 * other histograms, update the entry, keep the variables, act, and take
 * the hits of the triggers keyed by our variables.  @key is built; a
 * trigger keyed by variables had its references filled in first.
 */
static __always_inline void hist_general(struct hist_data *hd, u64 *key,
					 struct hist_hit *hit, bool key64)
{
	struct tracing_map_elt *elt;

	if (hd->n_refs && !hd->same_hit && !hist_refs_resolve(hd, key, hit))
		return;
	if (key64)
		elt = tracing_map_insert_u64(hd->map, *key);
	else
		elt = tracing_map_insert(hd->map, key);
	if (unlikely(!elt))
		return;
	/* here, in the hit function's frame: see struct hist_hit */
	if (hd->walks_stack)
		hist_walk_stack(hd, hit);
	hist_vars_set(hd, elt, hit);
	hist_update_vals(hd, elt, hit);
	if (hd->n_actions)
		hist_actions_run(hd, elt, key, hit);
	if (!list_empty(&hd->readers))
		hist_readers_run(hd, hit);
}

/*
 * The general path's two ways to build a key, for a hit its caller set
 * up (the trigger core's call, or the hit of the trigger whose variables
 * we read).  One number needs no buffer, but still counts as one on its
 * CPU's stack of them, which is what bounds a chain of synthetic events
 * traced from hits (see HIST_KEY_PADS); other keys are built in a
 * per-CPU buffer, cleared as far as a referenced map compares.
 */
static __always_inline void hist_general_number(struct hist_data *hd,
						struct hist_hit *hit)
{
	u64 key;

	if (likely(hist_key_pad_enter())) {
		key = hist_fetch(hd, &hd->keys[0], hit);
		hist_general(hd, &key, hit, true);
	} else {
		tracing_map_count_drop(hd->map);
	}
	hist_key_pad_put();
}

static __always_inline void hist_general_buffer(struct hist_data *hd,
						struct hist_hit *hit)
{
	u64 *key = hist_key_pad_get();

	if (likely(key)) {
		memset(key, 0, hd->lookup_size);
		hist_build_key(hd, key, hit);
		hist_general(hd, key, hit, false);
	} else {
		tracing_map_count_drop(hd->map);
	}
	hist_key_pad_put();
}

/*
 * The general path from the trigger core, with the arrays of its
 * references and variables; @number, a constant in each caller: the key
 * is one number.
 */
static __always_inline void hist_hit_general_any(HIST_HIT_ARGS, bool number)
{
	/* written before they are read: no need to clear them */
	u64 refs[HIST_REFS_MAX] __uninitialized;
	u64 vars[HIST_VARS_MAX] __uninitialized;
	struct hist_hit hit __uninitialized;

	hist_hit_init(&hit, rec, buffer, rbe);
	hit.refs = refs;
	hit.vars = vars;
	if (number)
		hist_general_number(hd, &hit);
	else
		hist_general_buffer(hd, &hit);
	hist_hit_done();
}

static noinline void hist_hit_general_u64(HIST_HIT_ARGS)
{
	hist_hit_general_any(hd, rec, buffer, rbe, true);
}

static noinline void hist_hit_general(HIST_HIT_ARGS)
{
	hist_hit_general_any(hd, rec, buffer, rbe, false);
}

/*
 * Variables as keys
 * -----------------
 * A trigger whose keys name variables of another trigger on the same
 * event ("keys=$lat.log2") counts the values that trigger set in this
 * hit, and does not count a hit in which it set none.  The trigger core
 * calls the triggers of an event one after the other and skips those
 * that are paused or whose filter fails, so a reader called by the core
 * could not tell a value of this hit from one left by an earlier hit.
 * The defining trigger therefore takes the hit of each reader itself,
 * right after it set its variables, from this hit's own state: nothing
 * is stored between the two, and the order of the triggers on the
 * event's list does not matter.  The core does not call the reader at
 * all: its trigger stays paused for the core, and the pause the user
 * sets is kept beside it (hist_set_paused()); a call that comes anyway
 * does nothing (HIST_PATH_SAME_HIT).
 *
 * The readers are on the definer's list (hist_data.readers), an RCU
 * list that the life cycle changes under event_mutex: a reader is put
 * on it once attached, and taken off before the wait that precedes its
 * freeing (hist_reader_unlink()), so a hit walking the list never meets
 * a freed reader.  The definer cannot go first: a reader holds it
 * (hist_data.users).  A reader checks its own pause flag, clear and
 * filter.  One that may nest further (it has actions, or readers of its
 * own) counts as one more on its CPU's stack of key buffers, which
 * bounds a chain of readers of readers as it bounds nested hits.
 */
static noinline void hist_reader_leaf(struct hist_data *hd,
				      const struct hist_hit *from);

static noinline void hist_reader_hit(struct hist_data *hd,
				     const struct hist_hit *from)
{
	u64 refs[HIST_REFS_MAX] __uninitialized;
	u64 vars[HIST_VARS_MAX] __uninitialized;
	struct event_trigger_data *data = hd->trigger;
	struct hist_hit hit __uninitialized;
	struct event_filter *filter;
	unsigned int i;

	if (READ_ONCE(hd->reader_paused) ||
	    READ_ONCE(hd->hit_path) == HIST_PATH_OFF)
		return;
	filter = rcu_dereference_sched(data->filter);
	if (filter && !filter_match_preds(filter, from->rec))
		return;
	if (hd->reader_leaf) {
		hist_reader_leaf(hd, from);
		return;
	}
	hist_hit_init(&hit, from->rec, from->buffer, from->rbe);
	hit.refs = refs;
	hit.vars = vars;
	/* every reference is to the histogram that called us */
	for (i = 0; i < hd->n_refs; i++)
		refs[i] = from->vars[hd->refs[i].var];
	if (hd->single_u64_key)
		hist_general_number(hd, &hit);
	else
		hist_general_buffer(hd, &hit);
}

/*
 * The commonest reader, "keys=$lat.log2": one number, and a leaf: no
 * variables (so no readers of its own) and no actions, nothing that
 * nests further, so it holds no place on the stack of key buffers.
 */
static noinline void hist_reader_leaf(struct hist_data *hd,
				      const struct hist_hit *from)
{
	u64 refs[HIST_REFS_MAX] __uninitialized;
	struct hist_hit hit __uninitialized;
	struct tracing_map_elt *elt;
	unsigned int i;

	hist_hit_init(&hit, from->rec, from->buffer, from->rbe);
	hit.refs = refs;
	/* no variable of ours to read: hist_fetch() never looks here */
	hit.vars = NULL;
	for (i = 0; i < hd->n_refs; i++)
		refs[i] = from->vars[hd->refs[i].var];
	elt = tracing_map_insert_u64(hd->map,
				     hist_fetch(hd, &hd->keys[0], &hit));
	if (likely(elt))
		hist_update_vals(hd, elt, &hit);
}

/* Take the hits of the triggers keyed by our variables, set by @hit. */
static noinline void hist_readers_run(struct hist_data *hd,
				      struct hist_hit *hit)
{
	struct hist_data *reader;

	list_for_each_entry_rcu(reader, &hd->readers, reader_node)
		hist_reader_hit(reader, hit);
}

/**
 * hist_reader_link - let the histogram a reader reads take its hits
 * @hd: a histogram keyed by another one's variables (hist_data.same_hit),
 *	its trigger set (hist_data.trigger)
 *
 * Context: event_mutex held.
 */
void hist_reader_link(struct hist_data *hd)
{
	lockdep_assert_held(&event_mutex);
	if (!hd->same_hit || hd->reading || WARN_ON_ONCE(!hd->n_refs))
		return;
	/* a leaf has no variables: nobody can read it */
	WARN_ON_ONCE(hd->refs[0].hd->reader_leaf);
	list_add_tail_rcu(&hd->reader_node, &hd->refs[0].hd->readers);
	hd->reading = true;
}

/**
 * hist_reader_unlink - undo hist_reader_link(), if it was done
 * @hd: the histogram
 *
 * Hits of the histogram it read may still be taking ours until
 * tracepoint_synchronize_unregister() has returned.
 *
 * Context: event_mutex held.
 */
void hist_reader_unlink(struct hist_data *hd)
{
	lockdep_assert_held(&event_mutex);
	if (!hd->reading)
		return;
	list_del_rcu(&hd->reader_node);
	hd->reading = false;
}

/**
 * hist_hit_path_of - the way a histogram's hits are taken
 * @hd: the histogram, made
 *
 * Return: its enum hist_hit_path, never HIST_PATH_OFF.
 */
u8 hist_hit_path_of(const struct hist_data *hd)
{
	if (hd->same_hit)
		return HIST_PATH_SAME_HIT;
	if (hd->general)
		/* a referenced histogram may compare more than our key */
		return hd->single_u64_key && hd->lookup_size == sizeof(u64) ?
		       HIST_PATH_GENERAL_U64 : HIST_PATH_GENERAL;
	if (hd->single_u64_key)
		return hd->n_vals == 1 ? HIST_PATH_COUNT : HIST_PATH_U64;
	return hd->key_in_pad ? HIST_PATH_PAD : HIST_PATH_WORDS;
}

/**
 * hist_hit - the hit path: the "trigger" of the hist command
 * @data: the trigger
 * @buffer: the ring buffer the event is in
 * @rec: the event record
 * @rbe: the ring buffer event
 *
 * Hands the hit to the function made for the histogram's shape, chosen
 * when it was created (hist_hit_path_of()), as a tail call.  KUnit calls
 * it directly, from process and hard interrupt context at once.
 *
 * Context: any, NMI included; preemption disabled.
 */
void hist_hit(struct event_trigger_data *data, struct trace_buffer *buffer,
	      void *rec, struct ring_buffer_event *rbe)
{
	struct hist_data *hd = data->private_data;
	u8 path = READ_ONCE(hd->hit_path);

	/*
	 * The core calls triggers without a record while a trigger that
	 * needs none is alone on the event (TRIGGER_COND clear); a hist
	 * trigger can be seen there in the moment it is added or removed.
	 */
	if (unlikely(!rec))
		return;
	/* the commonest first: a switch would test the others before it */
	if (likely(path == HIST_PATH_COUNT)) {
		hist_hit_count(hd, rec, buffer, rbe);
		return;
	}
	switch (path) {
	case HIST_PATH_U64:
		hist_hit_u64(hd, rec, buffer, rbe);
		break;
	case HIST_PATH_WORDS:
		hist_hit_words(hd, rec, buffer, rbe);
		break;
	case HIST_PATH_PAD:
		hist_hit_pad(hd, rec, buffer, rbe);
		break;
	case HIST_PATH_GENERAL_U64:
		hist_hit_general_u64(hd, rec, buffer, rbe);
		break;
	case HIST_PATH_GENERAL:
		hist_hit_general(hd, rec, buffer, rbe);
		break;
	}
}

/**
 * hist_refs_resolve - read the variables of other histograms for a hit
 * @hd: the histogram hit
 * @key: its key; the referenced maps compare their own key size of it
 * @hit: receives the values in ->refs[]
 *
 * Context: the hit path.
 * Return: false if a variable is not set for this key: the hit is
 * dropped.
 */
bool hist_refs_resolve(const struct hist_data *hd, const void *key,
		       struct hist_hit *hit)
{
	unsigned int i, idx;
	struct tracing_map_elt *elt;

	for (i = 0; i < hd->n_refs; i++) {
		const struct hist_ref *ref = &hd->refs[i];

		elt = tracing_map_lookup(ref->hd->map, key);
		if (!elt)
			return false;
		idx = ref->hd->vars[ref->var].map_idx;
		if (ref->read_once) {
			if (!tracing_map_read_var_once(elt, idx, &hit->refs[i]))
				return false;
		} else {
			if (!tracing_map_var_is_set(elt, idx))
				return false;
			hit->refs[i] = tracing_map_read_var(elt, idx);
		}
	}
	return true;
}

/**
 * hist_vars_set - compute this hit's variables and keep them in @elt
 * @hd: the histogram
 * @elt: the entry of the hit's key
 * @hit: the hit; its ->vars[] are filled in
 *
 * Context: the hit path.
 */
void hist_vars_set(const struct hist_data *hd, struct tracing_map_elt *elt,
		   struct hist_hit *hit)
{
	unsigned int i;
	u64 val;

	for (i = 0; i < hd->n_vars; i++) {
		const struct hist_var *var = &hd->vars[i];

		if (var->str_slot >= 0)
			val = hist_slot_store(hd, &var->value, hit, elt,
					      var->str_slot);
		else
			val = hist_fetch(hd, &var->value, hit);
		tracing_map_set_var(elt, var->map_idx, val);
		hit->vars[i] = val;
	}
}

static void hist_emit(struct hist_data *hd, struct hist_action *act,
		      struct hist_hit *hit)
{
	/* every one of the event's fields is written before it is read */
	u64 vals[HIST_PARAMS_MAX] __uninitialized;
	unsigned int i;

	for (i = 0; i < act->n_params; i++)
		vals[i] = hist_fetch(hd, &act->params[i], hit);
	synth_event_emit(act->synth, vals);
}

static void hist_save(struct hist_data *hd, struct hist_action *act,
		      struct tracing_map_elt *elt, struct hist_hit *hit)
{
	unsigned int i;
	u64 val;

	for (i = 0; i < act->n_params; i++) {
		const struct hist_field *hf = &act->params[i];

		if (act->save_slot[i] >= 0)
			val = hist_slot_store(hd, hf, hit, elt,
					      act->save_slot[i]);
		else
			val = hist_fetch(hd, hf, hit);
		tracing_map_set_var(elt, act->save_var[i], val);
	}
}

/**
 * hist_snapshot_update - is this snapshot one to keep?
 * @tr: the trace array
 * @data: the struct hist_snap_cond of the hit
 *
 * The conditional snapshot callback of snapshot(): onmax() keeps a new
 * maximum only, onchange() every change.  A snapshot asked for by
 * anything else (a "snapshot" trigger) comes with no condition and is
 * not taken: the snapshot buffer is the histogram's while it is armed.
 *
 * Context: the hit path, under the snapshot code's lock.
 * Return: true to take the snapshot.
 */
bool hist_snapshot_update(struct trace_array *tr, void *data)
{
	struct hist_snap_cond *cond = data;
	struct hist_action *act;
	const struct hist_elt_data *ed;

	if (!cond)
		return false;
	act = cond->act;
	ed = cond->elt->private_data;

	if (act->handler == HIST_ONMAX && act->snap_taken &&
	    cond->val <= act->snap_val)
		return false;
	act->snap_val = cond->val;
	memcpy(act->snap_key, cond->key, act->hd->key_size);
	if (ed)
		memcpy(act->snap_comm, ed->comm, TASK_COMM_LEN);
	act->snap_taken = true;
	return true;
}

/* Out of line: its condition would be cleared on every action's stack. */
static noinline void hist_snapshot(struct hist_data *hd, struct hist_action *act,
				   u64 val, const void *key,
				   const struct tracing_map_elt *elt)
{
	struct hist_snap_cond cond = { act, val, key, elt };

	tracing_snapshot_cond(hd->tr, &cond);
}

/**
 * hist_actions_run - run the handler.action pairs after an update
 * @hd: the histogram
 * @elt: the entry updated
 * @key: its key
 * @hit: the hit, with its references and variables
 *
 * Context: the hit path.
 */
void hist_actions_run(struct hist_data *hd, struct tracing_map_elt *elt,
		      const void *key, struct hist_hit *hit)
{
	unsigned int i;
	u64 val = 0;

	for (i = 0; i < hd->n_actions; i++) {
		struct hist_action *act = hd->actions[i];

		if (act->handler != HIST_ONMATCH) {
			u64 old = tracing_map_read_var(elt, act->track_var);

			val = hit->vars[act->tracked];
			if (act->handler == HIST_ONMAX ? val <= old : val == old)
				continue;
			tracing_map_set_var(elt, act->track_var, val);
		}
		switch (act->kind) {
		case HIST_ACT_TRACE:
			hist_emit(hd, act, hit);
			break;
		case HIST_ACT_SAVE:
			hist_save(hd, act, elt, hit);
			break;
		case HIST_ACT_SNAPSHOT:
			hist_snapshot(hd, act, val, key, elt);
			break;
		}
	}
}
