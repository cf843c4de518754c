// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace tests for kernel/trace/tracing_map.c, built unchanged against
 * the shim in include/.  Threads play CPUs and signal handlers play NMIs
 * (a handler runs on the interrupted thread, i.e. on the same "CPU").
 *
 * Usage: stress [percent]   (scales the iteration counts; default 100)
 * Prints one "PASS: name" or "FAIL: name" line per test.
 */
#include <linux/types.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include "tracing_map.h"

static unsigned int scale = 100;
static int test_failed;

#define CHECK(cond, fmt, ...) do {					\
	if (!(cond)) {							\
		if (__atomic_fetch_add(&test_failed, 1,			\
				       __ATOMIC_RELAXED) < 5)		\
			printf("  line %d: %s: " fmt "\n", __LINE__,	\
			       #cond, ##__VA_ARGS__);			\
	}								\
} while (0)

static unsigned int scaled(unsigned int n)
{
	n = (unsigned long long)n * scale / 100;
	return n ? n : 1;
}

static u64 xorshift(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Run fn(i, arg) on n threads, thread i being CPU i. */
struct thread_start {
	pthread_t	tid;
	int		cpu;
	void		(*fn)(int cpu, void *arg);
	void		*arg;
};

static void *thread_main(void *p)
{
	struct thread_start *ts = p;

	shim_set_cpu(ts->cpu);
	ts->fn(ts->cpu, ts->arg);
	return NULL;
}

static void run_threads(int n, void (*fn)(int, void *), void *arg)
{
	struct thread_start ts[SHIM_MAX_CPUS];
	int i;

	for (i = 0; i < n; i++) {
		ts[i] = (struct thread_start){ .cpu = i, .fn = fn, .arg = arg };
		if (pthread_create(&ts[i].tid, NULL, thread_main, &ts[i]))
			abort();
	}
	for (i = 0; i < n; i++)
		pthread_join(ts[i].tid, NULL);
}

static struct tracing_map *new_map(unsigned int bits, unsigned int key_size,
				   const struct tracing_map_ops *ops,
				   unsigned int n_vars)
{
	struct tracing_map *map = tracing_map_create(bits, key_size, ops, NULL);

	if (IS_ERR(map))
		abort();
	/* Sum 0 counts hits, sum 1 adds up a value derived from the key. */
	if (tracing_map_add_sum_field(map, TRACING_MAP_UNSIGNED) != 0 ||
	    tracing_map_add_sum_field(map, TRACING_MAP_UNSIGNED) != 1)
		abort();
	while (n_vars--)
		if (tracing_map_add_var(map) < 0)
			abort();
	if (tracing_map_init(map))
		abort();
	return map;
}

static void hit(struct tracing_map_elt *elt, u64 val)
{
	tracing_map_update_sum(elt, 0, 1);
	tracing_map_update_sum(elt, 1, val);
}

/* --- exact sums with overlapping keys, 8-byte and 512-byte keys --- */

struct long_key {
	char	name[256];
	u64	stack[31];
	u64	id;
};

#define SUM_THREADS	4

struct sums_arg {
	struct tracing_map	*map;
	bool			long_keys;
	unsigned int		n_keys;
	unsigned int		rounds;
};

static void make_long_key(struct long_key *k, u64 id)
{
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "task-%llu", (unsigned long long)id);
	k->stack[30] = id;	/* keys also differ at the very end */
	k->id = id;
}

static void sums_worker(int cpu, void *p)
{
	struct sums_arg *a = p;
	struct long_key lk;
	unsigned int r, i;

	for (r = 0; r < a->rounds; r++) {
		for (i = 0; i < a->n_keys; i++) {
			/* Each CPU starts elsewhere, so keys are contended. */
			u64 id = (i + cpu * 7 + r) % a->n_keys;
			struct tracing_map_elt *elt;

			if (a->long_keys) {
				make_long_key(&lk, id);
				elt = tracing_map_insert(a->map, &lk);
			} else {
				elt = tracing_map_insert(a->map, &id);
			}
			if (!elt)
				abort();
			hit(elt, id);
		}
	}
}

static void check_sums(struct sums_arg *a, u64 per_key)
{
	struct tracing_map_stats st;
	struct long_key lk;
	unsigned int i;

	tracing_map_read_stats(a->map, &st);
	CHECK(st.entries == a->n_keys, "%llu", (unsigned long long)st.entries);
	CHECK(st.drops == 0, "%llu", (unsigned long long)st.drops);
	CHECK(st.hits == per_key * a->n_keys, "%llu",
	      (unsigned long long)st.hits);
	for (i = 0; i < a->n_keys; i++) {
		struct tracing_map_elt *elt;
		u64 id = i;

		if (a->long_keys) {
			make_long_key(&lk, id);
			elt = tracing_map_lookup(a->map, &lk);
		} else {
			elt = tracing_map_lookup(a->map, &id);
		}
		CHECK(elt, "key %u missing", i);
		if (!elt)
			continue;
		CHECK(tracing_map_read_sum(elt, 0) == per_key, "key %u", i);
		CHECK(tracing_map_read_sum(elt, 1) == per_key * id, "key %u", i);
	}
}

static int n_cleared;

static void count_clear(struct tracing_map *map, struct tracing_map_elt *elt)
{
	n_cleared++;
}

static void run_sums(bool long_keys)
{
	static const struct tracing_map_ops ops = { .elt_clear = count_clear };
	struct sums_arg a = {
		.long_keys = long_keys,
		.n_keys = long_keys ? 300 : 1500,
		.rounds = scaled(long_keys ? 200 : 600),
	};
	int pass;

	a.map = new_map(11, long_keys ? sizeof(struct long_key) : sizeof(u64),
			&ops, 0);
	/* Second pass: clear must leave a map that works like a new one. */
	for (pass = 0; pass < 2; pass++) {
		run_threads(SUM_THREADS, sums_worker, &a);
		check_sums(&a, (u64)SUM_THREADS * a.rounds);
		n_cleared = 0;
		tracing_map_clear(a.map);
		/* Also elements parked by race losers: they were set up. */
		CHECK(n_cleared >= (int)a.n_keys &&
		      n_cleared <= (int)a.n_keys + 4 * SUM_THREADS, "%d",
		      n_cleared);
	}
	tracing_map_destroy(a.map);
}

static void test_sums_u64(void)
{
	run_sums(false);
}

static void test_sums_long_keys(void)
{
	run_sums(true);
}

/* --- a full map: drops counted, existing keys still hit, no leaks --- */

struct full_arg {
	struct tracing_map	*map;
	unsigned int		n_keys;
	unsigned int		rounds;
	u64			ok[SUM_THREADS];
	u64			dropped[SUM_THREADS];
};

static void full_worker(int cpu, void *p)
{
	struct full_arg *a = p;
	u64 seed = 0x9e3779b97f4a7c15ULL * (cpu + 1);
	unsigned int i, n = a->n_keys * a->rounds;

	for (i = 0; i < n; i++) {
		u64 id = xorshift(&seed) % a->n_keys;
		struct tracing_map_elt *elt = tracing_map_insert(a->map, &id);

		if (elt) {
			hit(elt, id);
			a->ok[cpu]++;
		} else {
			a->dropped[cpu]++;
		}
	}
}

static int cmp_u64_key(const void *a, const void *b)
{
	u64 x = **(const u64 **)a, y = **(const u64 **)b;

	return x < y ? -1 : x > y;
}

static void test_full_map(void)
{
	struct full_arg a = { .n_keys = 1000, .rounds = scaled(200) };
	struct tracing_map_elt **entries;
	struct tracing_map_stats st;
	u64 ok = 0, dropped = 0, sum = 0, id;
	const u64 **keys;
	int i, n;

	a.map = new_map(7, sizeof(u64), NULL, 0);
	run_threads(SUM_THREADS, full_worker, &a);
	for (i = 0; i < SUM_THREADS; i++) {
		ok += a.ok[i];
		dropped += a.dropped[i];
	}
	tracing_map_read_stats(a.map, &st);
	CHECK(st.hits == ok && st.drops == dropped, "%llu %llu",
	      (unsigned long long)st.hits, (unsigned long long)st.drops);
	CHECK(ok + dropped == (u64)SUM_THREADS * a.n_keys * a.rounds, "");

	/*
	 * Elements parked by race losers are picked up by the next new key;
	 * after one more pass of new keys the map must hold exactly 128.
	 */
	for (id = 0; id < a.n_keys; id++) {
		struct tracing_map_elt *elt = tracing_map_insert(a.map, &id);

		if (elt)
			hit(elt, id);
	}
	tracing_map_read_stats(a.map, &st);
	CHECK(st.entries == 128, "%llu", (unsigned long long)st.entries);

	n = tracing_map_sort_entries(a.map, NULL, 0, &entries);
	CHECK(n == 128, "%d", n);
	keys = calloc(n > 0 ? n : 1, sizeof(*keys));
	for (i = 0; i < n; i++) {
		keys[i] = tracing_map_elt_key(entries[i]);
		sum += tracing_map_read_sum(entries[i], 0);
	}
	/* Every hit, including the extra pass, landed in a listed entry. */
	CHECK(sum == st.hits, "%llu %llu", (unsigned long long)sum,
	      (unsigned long long)st.hits);
	qsort(keys, n, sizeof(*keys), cmp_u64_key);
	for (i = 1; i < n; i++)
		CHECK(*keys[i - 1] != *keys[i], "duplicate key %llu",
		      (unsigned long long)*keys[i]);
	free(keys);
	tracing_map_free_entries(entries);
	tracing_map_destroy(a.map);
}

/* --- NMI stand-ins --- */

struct nmi_state {
	struct tracing_map	*map;
	int			mode;
	int			depth;
	u64			key;		/* key to use in the handler */
	unsigned int		n_keys;
	u64			*counts;	/* per key, handler only */
	u64			dropped;
	u64			lookups;
};

enum { NMI_OFF, NMI_SAME_KEY, NMI_ASYNC };

static __thread struct nmi_state nmi;

static void nmi_handler(int sig)
{
	struct tracing_map_elt *elt;
	u64 key;

	if (nmi.mode == NMI_OFF || !nmi.map || nmi.depth)
		return;
	nmi.depth++;
	key = nmi.key;
	elt = tracing_map_insert(nmi.map, &key);
	if (elt) {
		hit(elt, key);
		if (nmi.counts)
			nmi.counts[key]++;
	} else {
		nmi.dropped++;
	}
	if (nmi.mode == NMI_ASYNC) {
		/* Also a lookup and an insert of a neighbouring key. */
		key = (key + 1) % nmi.n_keys;
		nmi.lookups += !!tracing_map_lookup(nmi.map, &key);
		elt = tracing_map_insert(nmi.map, &key);
		if (elt) {
			hit(elt, key);
			nmi.counts[key]++;
		} else {
			nmi.dropped++;
		}
	}
	nmi.depth--;
}

static void install_nmi_handler(void)
{
	struct sigaction sa = { .sa_handler = nmi_handler };

	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
}

/*
 * elt_init runs after the key is copied into a still private element and
 * before publication: the worst moment for an NMI inserting the same key.
 */
static void nmi_in_insert(struct tracing_map *map, struct tracing_map_elt *elt)
{
	if (nmi.mode != NMI_SAME_KEY || nmi.depth)
		return;
	nmi.key = *(const u64 *)tracing_map_elt_key(elt);
	raise(SIGUSR1);
}

static void test_nmi_same_key(void)
{
	static const struct tracing_map_ops ops = { .elt_init = nmi_in_insert };
	struct tracing_map_stats st;
	u64 id, sum = 0;

	install_nmi_handler();
	nmi = (struct nmi_state){ .mode = NMI_SAME_KEY };
	nmi.map = new_map(7, sizeof(u64), &ops, 0);

	/*
	 * Each outer insert loses to its NMI and parks its element, which
	 * the next outer insert takes again.  So every key but the last gets
	 * in with two hits; for the last one the NMI finds no free element
	 * (the outer holds the parked one) and drops, and the outer wins.
	 */
	for (id = 0; id < 128; id++) {
		struct tracing_map_elt *elt = tracing_map_insert(nmi.map, &id);

		CHECK(elt, "key %llu", (unsigned long long)id);
		if (elt)
			hit(elt, id);
	}
	for (id = 0; id < 128; id++) {
		struct tracing_map_elt *elt = tracing_map_lookup(nmi.map, &id);

		CHECK(elt, "key %llu", (unsigned long long)id);
		if (!elt)
			continue;
		CHECK(tracing_map_read_sum(elt, 0) == (id < 127 ? 2 : 1),
		      "key %llu: %llu", (unsigned long long)id,
		      (unsigned long long)tracing_map_read_sum(elt, 0));
		sum += tracing_map_read_sum(elt, 0);
	}
	tracing_map_read_stats(nmi.map, &st);
	CHECK(st.entries == 128, "%llu", (unsigned long long)st.entries);
	CHECK(st.drops == 1 && nmi.dropped == 1, "%llu",
	      (unsigned long long)st.drops);
	CHECK(st.hits == sum && sum == 2 * 128 - 1, "%llu",
	      (unsigned long long)sum);
	id = 1000;
	CHECK(!tracing_map_insert(nmi.map, &id), "map should be full");

	/*
	 * An element parked on one CPU is not lost to the others: leave one
	 * parked on CPU 1, then fill the map from CPU 0.
	 */
	tracing_map_clear(nmi.map);
	shim_set_cpu(1);
	id = 5000;
	tracing_map_insert(nmi.map, &id);
	shim_set_cpu(0);
	nmi.mode = NMI_OFF;
	for (id = 0; id < 200; id++)
		tracing_map_insert(nmi.map, &id);
	tracing_map_read_stats(nmi.map, &st);
	CHECK(st.entries == 128 && st.drops == 200 - 127, "%llu %llu",
	      (unsigned long long)st.entries, (unsigned long long)st.drops);

	tracing_map_destroy(nmi.map);
	nmi = (struct nmi_state){ .mode = NMI_OFF };
}

/* Signals fired at random moments into threads inserting contended keys. */
#define ASYNC_KEYS	2000

struct async_arg {
	struct tracing_map	*map;
	unsigned int		rounds;
	pthread_t		tids[SUM_THREADS];
	int			ready;
	int			done;
	int			release;
	u64			*counts[SUM_THREADS];	/* thread's own hits */
	u64			*nmi_counts[SUM_THREADS];
	u64			n_signals;
};

static void async_worker(int cpu, void *p)
{
	struct async_arg *a = p;
	unsigned int r, i;

	a->tids[cpu] = pthread_self();
	nmi = (struct nmi_state){
		.map = a->map, .mode = NMI_ASYNC, .n_keys = ASYNC_KEYS,
		.counts = a->nmi_counts[cpu],
	};
	__atomic_fetch_add(&a->ready, 1, __ATOMIC_SEQ_CST);
	for (r = 0; r < a->rounds; r++) {
		for (i = 0; i < ASYNC_KEYS; i++) {
			u64 id = (i * 7 + r) % ASYNC_KEYS;
			struct tracing_map_elt *elt;

			/* Mostly the key we are inserting: same-key races. */
			__atomic_store_n(&nmi.key, i & 3 ? id : (id + 5) %
					 ASYNC_KEYS, __ATOMIC_RELAXED);
			__atomic_signal_fence(__ATOMIC_SEQ_CST);
			elt = tracing_map_insert(a->map, &id);
			if (!elt)
				abort();
			hit(elt, id);
			a->counts[cpu][id]++;
		}
	}
	__atomic_fetch_add(&a->done, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&a->release, __ATOMIC_ACQUIRE))
		usleep(100);
	nmi.mode = NMI_OFF;
	CHECK(nmi.dropped == 0, "%llu", (unsigned long long)nmi.dropped);
}

static void *signal_source(void *p)
{
	struct async_arg *a = p;
	unsigned int i = 0;

	while (__atomic_load_n(&a->ready, __ATOMIC_ACQUIRE) < SUM_THREADS)
		usleep(10);
	while (__atomic_load_n(&a->done, __ATOMIC_ACQUIRE) < SUM_THREADS) {
		pthread_kill(a->tids[i++ % SUM_THREADS], SIGUSR1);
		a->n_signals++;
		if (!(i % 16))
			usleep(1);
	}
	return NULL;
}

static void test_nmi_async(void)
{
	struct async_arg a = { .rounds = scaled(300) };
	struct tracing_map_stats st;
	pthread_t source;
	u64 total = 0;
	int i, k;

	install_nmi_handler();
	a.map = new_map(12, sizeof(u64), NULL, 0);
	for (i = 0; i < SUM_THREADS; i++) {
		a.counts[i] = calloc(ASYNC_KEYS, sizeof(u64));
		a.nmi_counts[i] = calloc(ASYNC_KEYS, sizeof(u64));
	}
	pthread_create(&source, NULL, signal_source, &a);
	{
		struct thread_start ts[SUM_THREADS];

		for (i = 0; i < SUM_THREADS; i++) {
			ts[i] = (struct thread_start){
				.cpu = i, .fn = async_worker, .arg = &a,
			};
			pthread_create(&ts[i].tid, NULL, thread_main, &ts[i]);
		}
		pthread_join(source, NULL);
		__atomic_store_n(&a.release, 1, __ATOMIC_RELEASE);
		for (i = 0; i < SUM_THREADS; i++)
			pthread_join(ts[i].tid, NULL);
	}

	for (k = 0; k < ASYNC_KEYS; k++) {
		u64 id = k, want = 0;
		struct tracing_map_elt *elt = tracing_map_lookup(a.map, &id);

		for (i = 0; i < SUM_THREADS; i++)
			want += a.counts[i][k] + a.nmi_counts[i][k];
		total += want;
		CHECK(elt, "key %d", k);
		if (!elt)
			continue;
		CHECK(tracing_map_read_sum(elt, 0) == want, "key %d: %llu %llu",
		      k, (unsigned long long)tracing_map_read_sum(elt, 0),
		      (unsigned long long)want);
		CHECK(tracing_map_read_sum(elt, 1) == want * id, "key %d", k);
	}
	tracing_map_read_stats(a.map, &st);
	CHECK(st.entries == ASYNC_KEYS, "%llu", (unsigned long long)st.entries);
	CHECK(st.hits == total && !st.drops, "%llu %llu",
	      (unsigned long long)st.hits, (unsigned long long)total);
	CHECK(a.n_signals > 0, "no signals sent");
	printf("  %llu signals, %llu handler hits\n",
	       (unsigned long long)a.n_signals,
	       (unsigned long long)(st.hits - (u64)SUM_THREADS * a.rounds *
				    ASYNC_KEYS));
	for (i = 0; i < SUM_THREADS; i++) {
		free(a.counts[i]);
		free(a.nmi_counts[i]);
	}
	tracing_map_destroy(a.map);
}

/* --- read-once variables: each setting consumed exactly once --- */

struct once_arg {
	struct tracing_map_elt	*elt;
	pthread_barrier_t	barrier;
	unsigned int		rounds;
	int			*wins;
};

static void once_worker(int cpu, void *p)
{
	struct once_arg *a = p;
	unsigned int r;
	u64 val;

	for (r = 0; r < a->rounds; r++) {
		pthread_barrier_wait(&a->barrier);	/* var set by CPU 0 */
		if (tracing_map_read_var_once(a->elt, 3, &val)) {
			CHECK(val == r + 1, "%llu %u", (unsigned long long)val,
			      r);
			__atomic_fetch_add(&a->wins[r], 1, __ATOMIC_RELAXED);
		}
		pthread_barrier_wait(&a->barrier);
		if (cpu == 0) {
			CHECK(!tracing_map_var_is_set(a->elt, 3), "round %u", r);
			tracing_map_set_var(a->elt, 3, r + 2);
		}
	}
}

static void test_read_once(void)
{
	struct once_arg a = { .rounds = scaled(3000) };
	struct tracing_map *map = new_map(7, sizeof(u64), NULL, 4);
	u64 key = 42, val = 0;
	unsigned int r;

	a.elt = tracing_map_insert(map, &key);
	a.wins = calloc(a.rounds, sizeof(int));
	CHECK(!tracing_map_read_var_once(a.elt, 3, &val), "unset var read");
	tracing_map_set_var(a.elt, 3, 1);
	CHECK(tracing_map_var_is_set(a.elt, 3) && !tracing_map_var_is_set(a.elt, 2),
	      "");
	pthread_barrier_init(&a.barrier, NULL, SUM_THREADS);
	run_threads(SUM_THREADS, once_worker, &a);
	for (r = 0; r < a.rounds; r++)
		CHECK(a.wins[r] == 1, "round %u: %d winners", r, a.wins[r]);
	/* The last round's setting is still there, readable repeatedly. */
	CHECK(tracing_map_read_var(a.elt, 3) == a.rounds + 1, "");
	CHECK(tracing_map_read_var(a.elt, 3) == a.rounds + 1, "");
	CHECK(tracing_map_read_var_once(a.elt, 3, &val) && val == a.rounds + 1,
	      "");
	CHECK(!tracing_map_read_var_once(a.elt, 3, &val), "consumed twice");
	pthread_barrier_destroy(&a.barrier);
	free(a.wins);
	tracing_map_destroy(map);
}

/* --- sorting while other CPUs insert --- */

#define SORT_KEYS	4000

struct sort_live_arg {
	struct tracing_map	*map;
	int			writers_done;
	unsigned int		rounds;
	unsigned int		sorts;
};

static void sort_live_worker(int cpu, void *p)
{
	struct sort_live_arg *a = p;
	const struct tracing_map_sort_key by_key = { .field_idx = 2 };
	const struct tracing_map_sort_key by_hits[2] = {
		{ .field_idx = 0, .descending = true }, { .field_idx = 2 },
	};
	u64 seed = cpu + 1;
	unsigned int i;

	if (cpu == SUM_THREADS - 1) {		/* the reader */
		while (__atomic_load_n(&a->writers_done, __ATOMIC_ACQUIRE) <
		       SUM_THREADS - 1 || !a->sorts) {
			struct tracing_map_elt **e;
			int n, j;

			n = tracing_map_sort_entries(a->map, &by_key, 1, &e);
			CHECK(n >= 0 && n <= SORT_KEYS, "%d", n);
			for (j = 1; j < n; j++)
				CHECK(*(const u64 *)e[j - 1]->key <
				      *(const u64 *)e[j]->key, "order/dup");
			tracing_map_free_entries(e);
			n = tracing_map_sort_entries(a->map, by_hits, 2, &e);
			CHECK(n >= 0, "%d", n);
			tracing_map_free_entries(e);
			a->sorts++;
		}
		return;
	}
	for (i = 0; i < SORT_KEYS * a->rounds; i++) {
		u64 id = xorshift(&seed) % SORT_KEYS;
		struct tracing_map_elt *elt = tracing_map_insert(a->map, &id);

		if (!elt)
			abort();
		hit(elt, id);
	}
	__atomic_fetch_add(&a->writers_done, 1, __ATOMIC_RELEASE);
}

static void test_sort_while_inserting(void)
{
	struct sort_live_arg a = { .rounds = scaled(150) };
	struct tracing_map_elt **e;
	int n, i;

	a.map = new_map(12, sizeof(u64), NULL, 0);
	if (tracing_map_add_key_field(a.map, 0, 8, TRACING_MAP_UNSIGNED) >= 0)
		abort();	/* fields cannot change after init */
	tracing_map_destroy(a.map);

	a.map = tracing_map_create(12, sizeof(u64), NULL, NULL);
	tracing_map_add_sum_field(a.map, TRACING_MAP_UNSIGNED);
	tracing_map_add_sum_field(a.map, TRACING_MAP_UNSIGNED);
	if (tracing_map_add_key_field(a.map, 0, 8, TRACING_MAP_UNSIGNED) != 2 ||
	    tracing_map_init(a.map))
		abort();
	run_threads(SUM_THREADS, sort_live_worker, &a);
	n = tracing_map_sort_entries(a.map, NULL, 0, &e);
	CHECK(n == SORT_KEYS, "%d", n);
	tracing_map_free_entries(e);
	n = tracing_map_sort_entries(a.map,
				     &(struct tracing_map_sort_key){ 2, 0 },
				     1, &e);
	for (i = 0; i < n; i++)
		CHECK(*(const u64 *)e[i]->key == (u64)i, "%d", i);
	tracing_map_free_entries(e);
	printf("  %u sorts ran during the inserts\n", a.sorts);
	tracing_map_destroy(a.map);
}

/* --- sort orders, checked against an independent qsort --- */

struct rec_key {
	u32	id;
	s16	delta;
	u8	pad[2];
	char	name[8];
};

struct rec {
	struct rec_key	key;
	s64		value;
	u64		hits;
	int		order;		/* insertion order */
};

static const struct tracing_map_sort_key *want_keys;
static unsigned int want_n;

/* Field indexes: 0 hits, 1 value (signed), 2 id, 3 delta, 4 name. */
static int cmp_rec_field(const struct rec *a, const struct rec *b,
			 unsigned int f)
{
	switch (f) {
	case 0:
		return a->hits < b->hits ? -1 : a->hits > b->hits;
	case 1:
		return a->value < b->value ? -1 : a->value > b->value;
	case 2:
		return a->key.id < b->key.id ? -1 : a->key.id > b->key.id;
	case 3:
		return a->key.delta < b->key.delta ? -1 :
		       a->key.delta > b->key.delta;
	default:
		return strncmp(a->key.name, b->key.name, 8);
	}
}

static int cmp_rec(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;
	unsigned int i;
	int r;

	for (i = 0; i < want_n; i++) {
		r = cmp_rec_field(a, b, want_keys[i].field_idx);
		if (r)
			return want_keys[i].descending ? -r : r;
	}
	return a->order - b->order;
}

static void test_sort_orders(void)
{
	static const struct tracing_map_sort_key cases[][2] = {
		{ { 0, false } }, { { 0, true } }, { { 1, false } },
		{ { 1, true } }, { { 2, false } }, { { 2, true } },
		{ { 3, false } }, { { 3, true } }, { { 4, false } },
		{ { 4, true } }, { { 4, false }, { 0, true } },
		{ { 3, true }, { 1, false } }, { { 0, false }, { 4, true } },
	};
	static const unsigned int n_case_keys[] = {
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2,
	};
	enum { N = 300 };
	struct rec *recs = calloc(N, sizeof(*recs));
	struct tracing_map *map;
	u64 seed = 12345;
	unsigned int c;
	int i, j;

	map = tracing_map_create(9, sizeof(struct rec_key), NULL, NULL);
	tracing_map_add_sum_field(map, TRACING_MAP_UNSIGNED);
	tracing_map_add_sum_field(map, TRACING_MAP_SIGNED);
	tracing_map_add_key_field(map, offsetof(struct rec_key, id), 4,
				  TRACING_MAP_UNSIGNED);
	tracing_map_add_key_field(map, offsetof(struct rec_key, delta), 2,
				  TRACING_MAP_SIGNED);
	tracing_map_add_key_field(map, offsetof(struct rec_key, name), 8,
				  TRACING_MAP_STRING);
	if (tracing_map_init(map))
		abort();

	for (i = 0; i < N; i++) {
		struct rec *r = &recs[i];
		struct tracing_map_elt *elt;
		u64 x = xorshift(&seed);

		/* Small ranges, so that every field has ties. */
		r->key.id = (x % 50) * 0x1000000u;
		r->key.delta = (s16)((x >> 8) % 40) - 20;
		/* name fills all 8 bytes sometimes: no NUL to rely on */
		snprintf(r->key.name, 8, "n%u", (unsigned int)(x >> 16) % 30);
		if (!((x >> 24) & 7))
			memcpy(r->key.name, "zzzzzzzz", 8);
		r->key.id += i;		/* unique keys */
		r->order = i;
		r->hits = 1 + (x >> 32) % 5;
		r->value = (s64)((x >> 40) % 1000) - 500;
		elt = tracing_map_insert(map, &r->key);
		if (!elt)
			abort();
		tracing_map_update_sum(elt, 0, r->hits);
		tracing_map_update_sum(elt, 1, (u64)r->value);
	}

	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		struct tracing_map_elt **e;
		int n;

		want_keys = cases[c];
		want_n = n_case_keys[c];
		qsort(recs, N, sizeof(*recs), cmp_rec);
		n = tracing_map_sort_entries(map, cases[c], want_n, &e);
		CHECK(n == N, "case %u: %d", c, n);
		for (j = 0; j < n && j < N; j++)
			CHECK(!memcmp(e[j]->key, &recs[j].key,
				      sizeof(struct rec_key)),
			      "case %u: position %d", c, j);
		tracing_map_free_entries(e);
	}
	/* No sort keys: insertion order. */
	{
		struct tracing_map_elt **e;
		int n = tracing_map_sort_entries(map, NULL, 0, &e);

		want_n = 0;
		qsort(recs, N, sizeof(*recs), cmp_rec);
		for (j = 0; j < n; j++)
			CHECK(!memcmp(e[j]->key, &recs[j].key,
				      sizeof(struct rec_key)), "%d", j);
		tracing_map_free_entries(e);
	}
	free(recs);
	tracing_map_destroy(map);
}

/* --- per-element private data callbacks --- */

static int n_alloc, n_free, n_init;

static int priv_alloc(struct tracing_map *map, struct tracing_map_elt *elt)
{
	elt->private_data = malloc(16);
	n_alloc++;
	return elt->private_data ? 0 : -ENOMEM;
}

static void priv_free(struct tracing_map *map, struct tracing_map_elt *elt)
{
	free(elt->private_data);
	n_free++;
}

static void priv_init(struct tracing_map *map, struct tracing_map_elt *elt)
{
	memcpy(elt->private_data, elt->key, 8);
	n_init++;
}

static void test_private_data(void)
{
	static const struct tracing_map_ops ops = {
		.elt_alloc = priv_alloc, .elt_free = priv_free,
		.elt_init = priv_init,
	};
	struct tracing_map *map = new_map(8, sizeof(u64), &ops, 0);
	struct tracing_map_memory mem;
	u64 id;

	CHECK(n_alloc == 256, "%d", n_alloc);
	for (id = 0; id < 100; id++) {
		struct tracing_map_elt *elt = tracing_map_insert(map, &id);

		CHECK(elt && !memcmp(elt->private_data, &id, 8), "");
		tracing_map_insert(map, &id);
	}
	CHECK(n_init == 100, "%d", n_init);
	tracing_map_memory_usage(map, &mem);
	CHECK(mem.per_elt >= 64 + 8 && mem.elts == 256 * (mem.per_elt - 16) &&
	      mem.total > mem.elts + mem.slots, "%zu %zu", mem.per_elt,
	      mem.elts);
	tracing_map_destroy(map);
	CHECK(n_free == 256, "%d", n_free);
}

static const struct {
	const char	*name;
	void		(*fn)(void);
} tests[] = {
	{ "sort_orders",		test_sort_orders },
	{ "private_data",		test_private_data },
	{ "sums_exact_u64",		test_sums_u64 },
	{ "sums_exact_512_byte_keys",	test_sums_long_keys },
	{ "full_map_drops",		test_full_map },
	{ "nmi_same_key_mid_insert",	test_nmi_same_key },
	{ "nmi_async_signals",		test_nmi_async },
	{ "read_once_vars",		test_read_once },
	{ "sort_while_inserting",	test_sort_while_inserting },
};

int main(int argc, char **argv)
{
	unsigned int i, failed = 0;

	if (argc > 1)
		scale = atoi(argv[1]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		test_failed = 0;
		tests[i].fn();
		printf("%s: %s\n", test_failed ? "FAIL" : "PASS", tests[i].name);
		failed += !!test_failed;
	}
	return failed ? 1 : 0;
}
