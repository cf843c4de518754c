// SPDX-License-Identifier: GPL-2.0
/*
 * Microbenchmark: our tracing_map against upstream's, same shim, same run.
 *
 * Each figure is measured REPS times, alternating the two maps so that
 * background noise hits both alike, and the median is reported.  Threads
 * are pinned, thread i to CPU i; "2 threads" figures need two CPUs.
 */
#include <linux/types.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#define REPS		9
#define SORT_REPS	5

static u64 keys[1 << 18];	/* random, distinct */
static u64 vals[1 << 18];
static int n_cpus;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % n_cpus, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	shim_set_cpu(cpu);
}

static u64 xorshift(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Kernel-text-like addresses, as for keys=call_site; all distinct. */
static void make_keys(void)
{
	u64 seed = 88172645463325252ULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		keys[i] = 0xffffffff81000000ULL + i * 64 +
			  (xorshift(&seed) & 63);
		vals[i] = xorshift(&seed) % 4096;
	}
	/* shuffle so that neighbours in the array are unrelated */
	for (i = ARRAY_SIZE(keys) - 1; i > 0; i--) {
		size_t j = xorshift(&seed) % (i + 1);
		u64 t = keys[i];

		keys[i] = keys[j];
		keys[j] = t;
	}
}

static u64 sink;

/* --- single-threaded figures, ns per operation --- */

static double hit_1t(const struct bench_map *bm)
{
	void *map = bm->create(11);
	unsigned long n = 4 << 20;
	double t;

	sink += bm->hits(map, keys, vals, 1023, 1024);
	t = now_ns();
	sink += bm->hits(map, keys, vals, 1023, n);
	t = now_ns() - t;
	bm->destroy(map);
	return t / n;
}

static double insert_1t(const struct bench_map *bm)
{
	static void *map[2];
	const unsigned int n = 1 << 17;
	int which = bm == &bench_ours;
	double t;

	/* one map per implementation, reused: creating one is slow */
	if (!map[which])
		map[which] = bm->create(17);
	bm->clear(map[which]);
	t = now_ns();
	sink += bm->hits(map[which], keys, vals, n - 1, n);
	t = now_ns() - t;
	return t / n;
}

static double miss_1t(const struct bench_map *bm)
{
	void *map = bm->create(11);
	unsigned long n = 4 << 20;
	double t;

	sink += bm->hits(map, keys, vals, 2047, 2048);	/* full */
	t = now_ns();
	sink += bm->lookups(map, keys + 4096, 4095, n);
	t = now_ns() - t;
	bm->destroy(map);
	return t / n;
}

/* --- two threads, ns per operation per thread --- */

struct two_threads {
	const struct bench_map	*bm;
	void			*map;
	pthread_barrier_t	barrier;
	bool			insert;		/* new keys, not hits */
	bool			same_key;
	unsigned long		n;
	double			start[2], end[2];
};

struct two_worker_arg {
	struct two_threads	*tt;
	int			me;
};

static void *two_worker(void *p)
{
	struct two_worker_arg *arg = p;
	struct two_threads *tt = arg->tt;
	int me = arg->me;
	const u64 *k;
	unsigned int mask;

	pin(me);
	if (tt->insert) {
		k = keys + me * tt->n;
		mask = tt->n - 1;
	} else if (tt->same_key) {
		k = keys;
		mask = 0;
	} else {
		k = keys + me * 1024;
		mask = 1023;
	}
	pthread_barrier_wait(&tt->barrier);
	tt->start[me] = now_ns();
	sink += tt->bm->hits(tt->map, k, vals, mask, tt->n);
	tt->end[me] = now_ns();
	return NULL;
}

static double two_threads(const struct bench_map *bm, bool insert,
			  bool same_key)
{
	struct two_threads tt = {
		.bm = bm, .insert = insert, .same_key = same_key,
		.n = insert ? 65536 : 2 << 20,
	};
	struct two_worker_arg arg[2] = { { &tt, 0 }, { &tt, 1 } };
	pthread_t tid[2];
	double t;
	int i;

	tt.map = bm->create(insert ? 17 : 11);
	if (!insert)
		sink += bm->hits(tt.map, keys, vals, 2047, 2048);
	pthread_barrier_init(&tt.barrier, NULL, 2);
	for (i = 0; i < 2; i++)
		pthread_create(&tid[i], NULL, two_worker, &arg[i]);
	for (i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	pthread_barrier_destroy(&tt.barrier);
	bm->destroy(tt.map);
	t = max(tt.end[0], tt.end[1]) - min(tt.start[0], tt.start[1]);
	return t / tt.n;
}

static double hit_2t_same(const struct bench_map *bm)
{
	return two_threads(bm, false, true);
}

static double hit_2t_distinct(const struct bench_map *bm)
{
	return two_threads(bm, false, false);
}

static double insert_2t(const struct bench_map *bm)
{
	return two_threads(bm, true, false);
}

/* --- sorting a full 2^17 map, milliseconds --- */

static void *sort_map[2];

static double sort_128k(const struct bench_map *bm, bool two_keys)
{
	int which = bm == &bench_ours;
	double t;
	int n;

	if (!sort_map[which]) {
		u64 seed = 1;
		size_t i;

		sort_map[which] = bm->create(17);
		/* few distinct values, so the second key matters */
		for (i = 0; i < 1 << 17; i++)
			vals[i] = xorshift(&seed) % 1000;
		sink += bm->hits(sort_map[which], keys, vals, (1 << 17) - 1,
				 1 << 17);
	}
	t = now_ns();
	n = bm->sort(sort_map[which], two_keys);
	t = now_ns() - t;
	if (n != 1 << 17) {
		fprintf(stderr, "%s: sorted %d entries\n", bm->name, n);
		exit(1);
	}
	return t / 1e6;
}

static double sort_1key(const struct bench_map *bm)
{
	return sort_128k(bm, false);
}

static double sort_2keys(const struct bench_map *bm)
{
	return sort_128k(bm, true);
}

static const struct {
	const char	*name;
	const char	*unit;
	double		(*fn)(const struct bench_map *bm);
	int		reps;
	bool		two_cpus;
} figures[] = {
	{ "hit, existing key, 1 thread", "ns", hit_1t, REPS },
	{ "insert, new key, 1 thread", "ns", insert_1t, REPS },
	{ "lookup miss, 1 thread", "ns", miss_1t, REPS },
	{ "hit, same key, 2 threads", "ns", hit_2t_same, REPS, true },
	{ "hit, distinct keys, 2 threads", "ns", hit_2t_distinct, REPS, true },
	{ "insert, new keys, 2 threads", "ns", insert_2t, REPS, true },
	{ "sort 128K entries, 1 key", "ms", sort_1key, SORT_REPS },
	{ "sort 128K entries, 2 keys", "ms", sort_2keys, SORT_REPS },
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

int main(void)
{
	bool all_ok = true, same_key_ok = false;
	double load[3] = { 0 };
	unsigned int f;

	n_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	make_keys();
	pin(0);
	getloadavg(load, 3);
	printf("%d CPUs, load average %.2f; median of %d runs (sort: %d)\n",
	       n_cpus, load[0], REPS, SORT_REPS);
	printf("%-32s %10s %10s %14s\n", "figure", "ours", "upstream",
	       "ours/upstream");

	for (f = 0; f < ARRAY_SIZE(figures); f++) {
		double ours[REPS], up[REPS], o, u;
		int r;

		if (figures[f].two_cpus && n_cpus < 2) {
			printf("%-32s skipped: needs 2 CPUs\n", figures[f].name);
			continue;
		}
		pin(0);
		for (r = 0; r < figures[f].reps; r++) {
			ours[r] = figures[f].fn(&bench_ours);
			up[r] = figures[f].fn(&bench_upstream);
		}
		o = median(ours, figures[f].reps);
		u = median(up, figures[f].reps);
		printf("%-32s %7.2f %s %7.2f %s %14.2f\n", figures[f].name,
		       o, figures[f].unit, u, figures[f].unit, o / u);
		if (o > u)
			all_ok = false;
		if (figures[f].fn == hit_2t_same)
			same_key_ok = o * 1.5 <= u;
	}
	printf("bar: ours no slower on every figure: %s; "
	       "same-key 2-thread hit >= 1.5x faster: %s\n",
	       all_ok ? "yes" : "NO", same_key_ok ? "yes" : "NO");
	return sink == 42;	/* keep the work observable */
}
