// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the arithmetic of aggregated hist values
 * (trace_hist_agg.c and the inline helpers of trace_hist.h), each held
 * against a brute-force or differently computed reference:
 *
 *  - percentile buckets: every number falls in the bucket it indexes,
 *    the buckets are in the order of the numbers, and the number printed
 *    for a bucket is exact below 32 and within 1/32 above, for edge and
 *    pseudo-random numbers, signed ones included;
 *  - percentiles of whole distributions against the nearest-rank
 *    percentile of the sorted numbers;
 *  - means and standard deviations from 128-bit sums against a long
 *    division and an integer square root of sums computed another way,
 *    and exact values at the ends of the range;
 *  - .loglin bucket bounds, the masks of .min and .max, and the words
 *    of aggregations and percentiles.
 */

#include <kunit/test.h>
#include <linux/math.h>
#include <linux/limits.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "trace_hist.h"

/* Knuth's MMIX generator, as the hist suite uses. */
static u64 agg_rand(u64 *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return *state ^ (*state >> 31);
}

/* A pseudo-random number of pseudo-random magnitude. */
static u64 agg_rand_mag(u64 *state)
{
	u64 x = agg_rand(state);

	return x >> (agg_rand(state) >> 58);
}

#define AGG_EDGES	(2 + 3 * 63 + 1)

/*
 * 0, 1, each power of two and its neighbours, U64_MAX.  Allocated, not
 * on the stack: the array alone is over the frame size a 32-bit kernel
 * warns about.  KUnit frees it after the test.
 */
static const u64 *agg_edges(struct kunit *test, unsigned int *count)
{
	u64 *out = kunit_kmalloc_array(test, AGG_EDGES, sizeof(*out),
				       GFP_KERNEL);
	unsigned int n = 0, i;

	KUNIT_ASSERT_NOT_NULL(test, out);
	out[n++] = 0;
	out[n++] = 1;
	for (i = 1; i < 64; i++) {
		out[n++] = BIT_ULL(i) - 1;
		out[n++] = BIT_ULL(i);
		out[n++] = BIT_ULL(i) + 1;
	}
	out[n++] = U64_MAX;
	*count = n;
	return out;
}

/* The bucket of @v by counting, not by fls64(): lowest number, width. */
static void agg_ref_bucket(u64 v, unsigned int bits, u64 *low, u64 *width)
{
	unsigned int top = 0;

	while (top < 63 && (v >> (top + 1)))
		top++;
	/* numbers below 2 << bits are buckets of one */
	*width = top > bits ? BIT_ULL(top - bits) : 1;
	*low = v - v % *width;
}

/* @printed is @v exactly below 32, else within 1/32 of it. */
static void agg_expect_near(struct kunit *test, u64 printed, u64 v,
			    const char *what)
{
	u64 d = printed > v ? printed - v : v - printed;

	if (v < 32)
		KUNIT_EXPECT_EQ_MSG(test, printed, v, "%s", what);
	else
		KUNIT_EXPECT_LE_MSG(test, d, v / 32, "%s: %llu for %llu",
				    what, printed, v);
}

static void agg_check_pct_number(struct kunit *test, u64 v)
{
	unsigned int idx = hist_pct_index(v);
	u64 low, width, printed;

	KUNIT_ASSERT_LT(test, idx, HIST_PCT_BUCKETS);
	agg_ref_bucket(v, HIST_PCT_SUB_BITS, &low, &width);
	printed = hist_pct_bucket_value(idx, false);
	KUNIT_EXPECT_GE_MSG(test, printed, low, "v=%llu", v);
	KUNIT_EXPECT_LE_MSG(test, printed - low, width - 1, "v=%llu", v);
	agg_expect_near(test, printed, v, "bucket value");
	/* the neighbours of the bucket are other buckets */
	if (low)
		KUNIT_EXPECT_EQ_MSG(test, hist_pct_index(low - 1), idx - 1,
				    "v=%llu", v);
	if (low + width - 1 != U64_MAX)
		KUNIT_EXPECT_EQ_MSG(test, hist_pct_index(low + width), idx + 1,
				    "v=%llu", v);
	else
		KUNIT_EXPECT_EQ(test, idx, HIST_PCT_BUCKETS - 1);
}

static void agg_test_pct_index(struct kunit *test)
{
	u64 state = 1;
	unsigned int i, n;
	const u64 *edges = agg_edges(test, &n);

	for (i = 0; i < n; i++)
		agg_check_pct_number(test, edges[i]);
	for (i = 0; i < 100000 && test->status != KUNIT_FAILURE; i++)
		agg_check_pct_number(test, agg_rand_mag(&state));
	/* every index is used: the array has no hole and no spare */
	KUNIT_EXPECT_EQ(test, hist_pct_index(U64_MAX), HIST_PCT_BUCKETS - 1);
	KUNIT_EXPECT_EQ(test, hist_pct_index(31), 31);
	KUNIT_EXPECT_EQ(test, hist_pct_index(32), 32);
	KUNIT_EXPECT_EQ(test, hist_pct_index(33), 32);
}

static void agg_test_pct_signed(struct kunit *test)
{
	u64 state = 2;
	unsigned int i, n;
	const u64 *edges = agg_edges(test, &n);
	s64 prev = S64_MIN;

	/* the slots are in the order of the numbers, negative ones first */
	KUNIT_EXPECT_EQ(test, hist_pct_slot((u64)S64_MIN, true),
			HIST_PCT_BUCKETS - 1 - hist_pct_index(BIT_ULL(63)));
	i = hist_pct_slot((u64)S64_MIN, true);
	KUNIT_EXPECT_EQ(test, hist_pct_bucket_value(i, true), (u64)S64_MIN);
	KUNIT_EXPECT_EQ(test, hist_pct_slot(-1ULL, true), HIST_PCT_BUCKETS - 2);
	KUNIT_EXPECT_EQ(test, hist_pct_slot(0, true), HIST_PCT_BUCKETS);
	KUNIT_EXPECT_EQ(test, hist_pct_slot((u64)S64_MAX, true),
			HIST_PCT_BUCKETS + hist_pct_index(S64_MAX));
	for (i = 0; i < 20000 && test->status != KUNIT_FAILURE; i++) {
		s64 v = i < n ? (s64)edges[i] : (s64)agg_rand_mag(&state);
		s64 w = i < n ? -(s64)edges[i] : -v;
		unsigned int sv = hist_pct_slot(v, true);
		unsigned int sw = hist_pct_slot(w, true);
		s64 pv = hist_pct_bucket_value(sv, true);
		u64 mag = v < 0 ? -(u64)v : v;
		u64 pmag = pv < 0 ? -(u64)pv : pv;

		KUNIT_ASSERT_LT(test, sv, 2 * HIST_PCT_BUCKETS);
		if (v < w)
			KUNIT_EXPECT_LE_MSG(test, sv, sw, "v=%lld", v);
		else
			KUNIT_EXPECT_GE_MSG(test, sv, sw, "v=%lld", v);
		KUNIT_EXPECT_EQ_MSG(test, pv < 0, v < 0 && pmag, "v=%lld", v);
		agg_expect_near(test, pmag, mag, "signed bucket value");
	}
	/*
	 * Walking the slots a signed number can reach (the top of the
	 * second half is for u64s past S64_MAX), the numbers printed only
	 * grow.
	 */
	for (i = 0; i <= HIST_PCT_BUCKETS + hist_pct_index(S64_MAX); i++) {
		s64 pv = hist_pct_bucket_value(i, true);

		KUNIT_EXPECT_GE_MSG(test, pv, prev, "slot %u", i);
		prev = pv;
	}
}

static int agg_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int agg_cmp_s64(const void *a, const void *b)
{
	s64 x = *(const s64 *)a, y = *(const s64 *)b;

	return x < y ? -1 : x > y;
}

#define AGG_SAMPLES	2000

/* The distributions: how sample @i of @n is made. */
static u64 agg_sample(unsigned int kind, unsigned int i, u64 *state)
{
	switch (kind) {
	case 0:		/* uniform over all of u64 */
		return agg_rand(state);
	case 1:		/* uniform magnitudes, as latencies look */
		return agg_rand_mag(state);
	case 2:		/* a few small numbers, exact */
		return agg_rand(state) % 30;
	case 3:		/* one number */
		return 1000003;
	case 4:		/* two clusters far apart */
		return i & 1 ? 5000 + agg_rand(state) % 100 :
			       1ULL << 40 | agg_rand(state) % 1000;
	case 5:		/* the ends of the range */
		return i & 1 ? U64_MAX - i : i;
	default:	/* signed, around zero */
		return (u64)((s64)(agg_rand(state) % 200001) - 100000) *
		       (1 + agg_rand(state) % 1000);
	}
}

static void agg_test_pct_value(struct kunit *test)
{
	static const u32 pcts[] = { 0, 10000, 250000, 500000, 900000, 990000,
				    999000, 999999 };
	atomic64_t *buckets;
	u64 *samples, state = 3;
	unsigned int kind, i, j;

	buckets = kunit_kcalloc(test, 2 * HIST_PCT_BUCKETS, sizeof(*buckets),
				GFP_KERNEL);
	samples = kunit_kcalloc(test, AGG_SAMPLES, sizeof(*samples),
				GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buckets);
	KUNIT_ASSERT_NOT_NULL(test, samples);
	/* nothing counted: 0 */
	KUNIT_EXPECT_EQ(test, hist_pct_value(buckets, false, 500000), 0);

	for (kind = 0; kind <= 6; kind++) {
		bool is_signed = kind == 6;
		unsigned int n = 1 + agg_rand(&state) % AGG_SAMPLES;

		memset(buckets, 0, 2 * HIST_PCT_BUCKETS * sizeof(*buckets));
		for (i = 0; i < n; i++) {
			samples[i] = agg_sample(kind, i, &state);
			j = hist_pct_slot(samples[i], is_signed);
			atomic64_inc(&buckets[j]);
		}
		sort(samples, n, sizeof(u64),
		     is_signed ? agg_cmp_s64 : agg_cmp_u64, NULL);
		for (j = 0; j < ARRAY_SIZE(pcts); j++) {
			/* nearest rank: the ceil(n * p)-th smallest, at least the first */
			u64 rank = DIV_ROUND_UP((u64)n * pcts[j], 1000000);
			u64 want = samples[rank ? rank - 1 : 0];
			u64 got = hist_pct_value(buckets, is_signed, pcts[j]);

			if (is_signed) {
				KUNIT_EXPECT_EQ_MSG(test, (s64)got < 0,
						    (s64)want < 0 && got,
						    "kind %u p %u", kind, pcts[j]);
				if ((s64)want < 0) {
					want = -want;
					got = -got;
				}
			}
			agg_expect_near(test, got, want, "percentile");
		}
	}
}

/* Add @v to a 128-bit sum and its square to a 128-bit sum of squares. */
static void agg_add(u64 *sum, u64 *squares, u64 v, bool is_signed)
{
	u64 mag = is_signed && (s64)v < 0 ? -v : v, hi, lo, old;

	old = sum[0];
	sum[0] += v;
	sum[1] += (sum[0] < old) + (is_signed && (s64)v < 0 ? ~0ULL : 0);
	lo = hist_mul128(mag, mag, &hi);
	old = squares[0];
	squares[0] += lo;
	squares[1] += hi + (squares[0] < old);
}

/* The quotient of a 128-bit number by a u64, by long division. */
static u64 agg_ref_div(u64 hi, u64 lo, u64 d)
{
	u64 rem = 0, q = 0;
	int bit;

	for (bit = 127; bit >= 0; bit--) {
		bool top = rem >> 63;

		rem = rem << 1 | ((bit >= 64 ? hi >> (bit - 64) : lo >> bit) & 1);
		if (top || rem >= d) {
			rem -= d;
			if (bit < 64)
				q |= BIT_ULL(bit);
		}
	}
	return q;
}

static void agg_test_mul_avg(struct kunit *test)
{
	u64 hi, lo, state = 4, sum[2], sq[2];
	unsigned int i, j, n;

	lo = hist_mul128(U64_MAX, U64_MAX, &hi);
	KUNIT_EXPECT_EQ(test, hi, U64_MAX - 1);
	KUNIT_EXPECT_EQ(test, lo, 1);
	lo = hist_mul128(BIT_ULL(32), BIT_ULL(32), &hi);
	KUNIT_EXPECT_EQ(test, hi, 1);
	KUNIT_EXPECT_EQ(test, lo, 0);

	/* a mean needs all 128 bits: twice U64_MAX averages to it */
	sum[0] = U64_MAX - 1;
	sum[1] = 1;
	KUNIT_EXPECT_EQ(test, hist_avg128(sum, 2, false), U64_MAX);
	KUNIT_EXPECT_EQ(test, hist_avg128(sum, 0, false), 0);
	/* signed means truncate toward zero */
	sum[0] = -7;
	sum[1] = ~0ULL;
	KUNIT_EXPECT_EQ(test, (s64)hist_avg128(sum, 2, true), -3);
	sum[0] = 7;
	sum[1] = 0;
	KUNIT_EXPECT_EQ(test, (s64)hist_avg128(sum, 2, true), 3);

	for (i = 0; i < 2000 && test->status != KUNIT_FAILURE; i++) {
		n = 1 + agg_rand(&state) % 300;
		memset(sum, 0, sizeof(sum));
		memset(sq, 0, sizeof(sq));
		for (j = 0; j < n; j++)
			agg_add(sum, sq, agg_rand_mag(&state), false);
		KUNIT_EXPECT_EQ_MSG(test, hist_avg128(sum, n, false),
				    agg_ref_div(sum[1], sum[0], n), "n=%u", n);
	}
}

/*
 * The deviation another way: n * (n * Q - S^2) is the sum of the
 * squares of n * x - S, which fits a u64 for small numbers; the
 * deviation is then int_sqrt64() of that over n^3, computed as
 * int_sqrt64(sum / n) / n.
 */
static void agg_test_stddev(struct kunit *test)
{
	static const struct {
		u64 v[4];
		unsigned int n;
		bool is_signed;
		u64 want;
	} cases[] = {
		{ { 0, U64_MAX }, 2, false, BIT_ULL(63) - 1 },
		{ { U64_MAX, U64_MAX, U64_MAX }, 3, false, 0 },
		{ { 1000000, 3000000 }, 2, false, 1000000 },
		{ { 1, 2, 4 }, 3, false, 1 },
		{ { -5ULL, 3, -100ULL, 7 }, 4, true, 44 },
		{ { (u64)S64_MIN, (u64)S64_MAX }, 2, true, BIT_ULL(63) - 1 },
		{ { (u64)S64_MIN, (u64)S64_MIN }, 2, true, 0 },
		{ { 42 }, 1, false, 0 },
	};
	u64 state = 5, sum[2], sq[2], x[64];
	unsigned int i, j, n;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(sum, 0, sizeof(sum));
		memset(sq, 0, sizeof(sq));
		for (j = 0; j < cases[i].n; j++)
			agg_add(sum, sq, cases[i].v[j], cases[i].is_signed);
		KUNIT_EXPECT_EQ_MSG(test, hist_stddev128(sum, sq, cases[i].n,
							 cases[i].is_signed),
				    cases[i].want, "case %u", i);
	}
	KUNIT_EXPECT_EQ(test, hist_stddev128(sum, sq, 0, false), 0);

	for (i = 0; i < 5000 && test->status != KUNIT_FAILURE; i++) {
		bool is_signed = i & 1;
		u64 total = 0, s = 0, ref;

		n = 1 + agg_rand(&state) % ARRAY_SIZE(x);
		memset(sum, 0, sizeof(sum));
		memset(sq, 0, sizeof(sq));
		for (j = 0; j < n; j++) {
			x[j] = agg_rand(&state) % BIT_ULL(20);
			if (is_signed && (agg_rand(&state) & 1))
				x[j] = -x[j];
			s += x[j];
			agg_add(sum, sq, x[j], is_signed);
		}
		for (j = 0; j < n; j++) {
			s64 d = (s64)(n * x[j] - s);

			total += (u64)(d * d);
		}
		ref = int_sqrt64(total / n) / n;
		KUNIT_EXPECT_EQ_MSG(test, hist_stddev128(sum, sq, n, is_signed),
				    ref, "n=%u", n);
	}
}

static void agg_test_loglin(struct kunit *test)
{
	u64 state = 6, low, width;
	unsigned int i, bits, n;
	const u64 *edges = agg_edges(test, &n);

	for (bits = 0; bits <= HIST_LOGLIN_BITS_MAX; bits++) {
		for (i = 0; i < 3000; i++) {
			u64 v = i < n ? edges[i] : agg_rand_mag(&state);
			u64 key = hist_loglin(v, bits);

			agg_ref_bucket(v, bits, &low, &width);
			KUNIT_EXPECT_EQ_MSG(test, key, low, "v=%llu bits=%u",
					    v, bits);
			KUNIT_EXPECT_EQ_MSG(test,
					    hist_loglin_high(key, bits, false),
					    low + width - 1, "v=%llu", v);
			/* a negative number mirrors its magnitude's bucket */
			if (!v || v > (u64)S64_MAX)
				continue;
			key = hist_loglin_signed(-v, bits);
			KUNIT_EXPECT_EQ_MSG(test, key, -(low + width - 1),
					    "v=-%llu", v);
			KUNIT_EXPECT_EQ_MSG(test,
					    hist_loglin_high(key, bits, true),
					    -low, "v=-%llu", v);
		}
	}
	/* N buckets per power of two: 4 of them over 1024..2047 */
	KUNIT_EXPECT_EQ(test, hist_loglin(1279, 2), 1024);
	KUNIT_EXPECT_EQ(test, hist_loglin(1280, 2), 1280);
	KUNIT_EXPECT_EQ(test, hist_loglin(7, 2), 7);
	/* S64_MIN's bucket is cut at S64_MIN */
	KUNIT_EXPECT_EQ(test, hist_loglin_signed((u64)S64_MIN, 2),
			(u64)S64_MIN);
	KUNIT_EXPECT_EQ(test, (s64)hist_loglin_high((u64)S64_MIN, 2, true),
			S64_MIN);
}

static void agg_test_extreme_mask(struct kunit *test)
{
	static const s64 vals[] = { S64_MIN, S64_MIN + 1, -2, -1, 0, 1, 2,
				    S64_MAX - 1, S64_MAX };
	unsigned int i, j, s;

	for (s = 0; s < 2; s++) {
		u64 max_mask = hist_extreme_mask(false, s);
		u64 min_mask = hist_extreme_mask(true, s);

		/* a cleared word reads as no value: the identity */
		KUNIT_EXPECT_EQ(test, 0 ^ max_mask,
				s ? (u64)S64_MIN : 0);
		KUNIT_EXPECT_EQ(test, 0 ^ min_mask,
				s ? (u64)S64_MAX : U64_MAX);
		for (i = 0; i < ARRAY_SIZE(vals); i++) {
			for (j = 0; j < ARRAY_SIZE(vals); j++) {
				u64 a = vals[i], b = vals[j];
				bool less = s ? vals[i] < vals[j] : a < b;

				KUNIT_EXPECT_EQ(test, (a ^ max_mask) < (b ^ max_mask),
						less);
				KUNIT_EXPECT_EQ(test, (a ^ min_mask) > (b ^ min_mask),
						less);
			}
		}
	}
}

static void agg_test_words(struct kunit *test)
{
	static const struct {
		const char	*word;
		int		agg;
		u32		pct;
	} cases[] = {
		{ "sum", HIST_AGG_SUM }, { "min", HIST_AGG_MIN },
		{ "max", HIST_AGG_MAX }, { "avg", HIST_AGG_AVG },
		{ "stddev", HIST_AGG_STDDEV },
		{ "p0", HIST_AGG_PCT, 0 }, { "p5", HIST_AGG_PCT, 50000 },
		{ "p05", HIST_AGG_PCT, 50000 }, { "p50", HIST_AGG_PCT, 500000 },
		{ "p99", HIST_AGG_PCT, 990000 }, { "p100", HIST_AGG_PCT, 100000 },
		{ "p999", HIST_AGG_PCT, 999000 },
		{ "p9999", HIST_AGG_PCT, 999900 },
		{ "p999999", HIST_AGG_PCT, 999999 },
		{ "p1234567", -EINVAL }, { "p9x", -EINVAL }, { "p9.5", -EINVAL },
		{ "p", -ENOENT }, { "percent", -ENOENT }, { "hex", -ENOENT },
		{ "maximum", -ENOENT }, { "", -ENOENT },
	};
	unsigned int i;
	u32 pct;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		pct = 0;
		KUNIT_EXPECT_EQ_MSG(test, hist_agg_of(cases[i].word, &pct),
				    cases[i].agg, "%s", cases[i].word);
		if (cases[i].agg == HIST_AGG_PCT)
			KUNIT_EXPECT_EQ_MSG(test, pct, cases[i].pct, "%s",
					    cases[i].word);
	}
	KUNIT_EXPECT_TRUE(test, hist_name_reserved("top"));
	KUNIT_EXPECT_TRUE(test, hist_name_reserved("max"));
	KUNIT_EXPECT_FALSE(test, hist_name_reserved("p99"));
	KUNIT_EXPECT_FALSE(test, hist_name_reserved("p2_ts"));
	KUNIT_EXPECT_TRUE(test, hist_name_reserved("loglin"));
	KUNIT_EXPECT_FALSE(test, hist_name_reserved("lat"));
	KUNIT_EXPECT_FALSE(test, hist_name_reserved("p"));
}

static struct kunit_case agg_test_cases[] = {
	KUNIT_CASE(agg_test_pct_index),
	KUNIT_CASE(agg_test_pct_signed),
	KUNIT_CASE(agg_test_pct_value),
	KUNIT_CASE(agg_test_mul_avg),
	KUNIT_CASE(agg_test_stddev),
	KUNIT_CASE(agg_test_loglin),
	KUNIT_CASE(agg_test_extreme_mask),
	KUNIT_CASE(agg_test_words),
	{}
};

static struct kunit_suite agg_test_suite = {
	.name = "trace_hist_agg",
	.test_cases = agg_test_cases,
};

kunit_test_suite(agg_test_suite);
