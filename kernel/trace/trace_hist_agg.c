// SPDX-License-Identifier: GPL-2.0
/*
 * Hist triggers: reading aggregated values.
 *
 * The hit path only adds, raises and counts (trace_hist_run.c); this is
 * where a value's words become the number the hist file prints or sorts
 * by: a minimum or maximum unmasked, an average and a standard
 * deviation worked out exactly from 128-bit sums, a percentile found in
 * its buckets.  "Aggregations" in trace_hist.h gives the layout.
 *
 * The wide arithmetic is done on arrays of u64 words, least
 * significant first, with no division: a quotient or a square root is
 * the largest number whose product (or square) still fits, found by
 * bisection over the 64 bits it can have.  Reading is rare and its cost
 * is nothing next to printing the line; portable code that is easy to
 * check against brute force matters more.
 *
 * Everything here runs in process context, beside the hit path: the
 * words may change while they are read, and a value read in the middle
 * of a hit may be off by that hit.
 */
#include <linux/math64.h>
#include <linux/string.h>

#include "trace_hist.h"

/* @out (@na + @nb words) = @a (@na words) * @b (@nb words) */
static void hist_mul_words(u64 *out, const u64 *a, unsigned int na,
			   const u64 *b, unsigned int nb)
{
	unsigned int i, j;

	memset(out, 0, (na + nb) * sizeof(u64));
	for (i = 0; i < na; i++) {
		u64 carry = 0;

		for (j = 0; j < nb; j++) {
			u64 hi, lo = hist_mul128(a[i], b[j], &hi);

			/* a[i] * b[j] + carry + out[i + j] fits 128 bits */
			lo += carry;
			hi += lo < carry;
			out[i + j] += lo;
			hi += out[i + j] < lo;
			carry = hi;
		}
		out[i + nb] = carry;
	}
}

/* Compare two numbers of @n words: <0, 0 or >0. */
static int hist_cmp_words(const u64 *a, const u64 *b, unsigned int n)
{
	while (n--)
		if (a[n] != b[n])
			return a[n] < b[n] ? -1 : 1;
	return 0;
}

/* @a -= @b, @n words each; true if it went below zero. */
static bool hist_sub_words(u64 *a, const u64 *b, unsigned int n)
{
	bool borrow = false;
	unsigned int i;

	for (i = 0; i < n; i++) {
		u64 d = a[i] - b[i] - borrow;

		borrow = borrow ? a[i] <= b[i] : a[i] < b[i];
		a[i] = d;
	}
	return borrow;
}

/* The magnitude of a 128-bit two's complement number; true if negative. */
static bool hist_abs128(u64 *out, const u64 *in, bool is_signed)
{
	bool neg = is_signed && (s64)in[1] < 0;

	out[0] = in[0];
	out[1] = in[1];
	if (neg) {
		out[0] = -in[0];
		out[1] = ~in[1] + !in[0];
	}
	return neg;
}

/**
 * hist_avg128 - the mean of the numbers a 128-bit sum adds up
 * @sum: the sum, two words, least significant first
 * @n: how many numbers; 0 gives 0
 * @is_signed: the sum is two's complement and the mean signed
 *
 * Return: the sum divided by @n, truncated toward zero (an s64 when
 * @is_signed).
 */
u64 hist_avg128(const u64 *sum, u64 n, bool is_signed)
{
	u64 mag[2], q = 0, prod[2];
	bool neg;
	int bit;

	if (!n)
		return 0;
	neg = hist_abs128(mag, sum, is_signed);
	/* the largest q with q * n <= mag; the mean of u64s fits a u64 */
	for (bit = 63; bit >= 0; bit--) {
		u64 t = q | BIT_ULL(bit);

		prod[0] = hist_mul128(t, n, &prod[1]);
		if (hist_cmp_words(prod, mag, 2) <= 0)
			q = t;
	}
	return neg ? -q : q;
}

/**
 * hist_stddev128 - the population standard deviation of some numbers
 * @sum: their 128-bit sum, two's complement (two words)
 * @squares: the 128-bit sum of their squares (two words)
 * @n: how many numbers; 0 gives 0
 * @is_signed: @sum is two's complement
 *
 * With S the sum and Q the sum of squares, n^2 times the variance is
 * n * Q - S^2, an integer of at most 192 bits, so the deviation
 * truncated is the largest r with (r * n)^2 <= n * Q - S^2: exact, as
 * long as Q did not pass 2^128.  A negative n * Q - S^2 can only come
 * from words read in the middle of a hit, and gives 0.
 *
 * Return: the deviation, truncated to an integer.
 */
u64 hist_stddev128(const u64 *sum, const u64 *squares, u64 n,
		   bool is_signed)
{
	u64 spread[4], s2[4], mag[2], rn[2], rn2[4], r = 0;
	int bit;

	if (!n)
		return 0;
	hist_mul_words(spread, squares, 2, &n, 1);
	spread[3] = 0;
	hist_abs128(mag, sum, is_signed);
	hist_mul_words(s2, mag, 2, mag, 2);
	if (hist_sub_words(spread, s2, 4))
		return 0;
	for (bit = 63; bit >= 0; bit--) {
		u64 t = r | BIT_ULL(bit);

		rn[0] = hist_mul128(t, n, &rn[1]);
		hist_mul_words(rn2, rn, 2, rn, 2);
		if (hist_cmp_words(rn2, spread, 4) <= 0)
			r = t;
	}
	return r;
}

/**
 * hist_pct_buckets - how many counters a value's percentile buckets have
 * @is_signed: the value is signed
 *
 * Return: the count.
 */
unsigned int hist_pct_buckets(bool is_signed)
{
	return is_signed ? 2 * HIST_PCT_BUCKETS : HIST_PCT_BUCKETS;
}

/* The middle of bucket @idx of hist_pct_index(): low + width / 2. */
static u64 hist_pct_midpoint(unsigned int idx)
{
	unsigned int shift = 0;

	if (idx >= 2U << HIST_PCT_SUB_BITS)
		shift = (idx >> HIST_PCT_SUB_BITS) - 1;
	return ((u64)(idx - (shift << HIST_PCT_SUB_BITS)) << shift) +
	       (BIT_ULL(shift) >> 1);
}

/**
 * hist_pct_bucket_value - the number printed for a percentile bucket
 * @idx: the counter, as hist_pct_slot() gives it
 * @is_signed: the value is signed
 *
 * Return: the bucket's lowest number (for a negative bucket, in
 * magnitude) plus half its width: exact for buckets of one number,
 * within 1/32 of anything in the bucket otherwise.
 */
u64 hist_pct_bucket_value(unsigned int idx, bool is_signed)
{
	u64 mag;

	if (!is_signed)
		return hist_pct_midpoint(idx);
	if (idx >= HIST_PCT_BUCKETS)
		return hist_pct_midpoint(idx - HIST_PCT_BUCKETS);
	/* S64_MIN's bucket reaches past it: its midpoint is cut there */
	mag = hist_pct_midpoint(HIST_PCT_BUCKETS - 1 - idx);
	return mag >= BIT_ULL(63) ? BIT_ULL(63) : -mag;
}

/**
 * hist_pct_value - a percentile of the numbers counted in buckets
 * @buckets: hist_pct_buckets() counters
 * @is_signed: the numbers are signed
 * @pct: the percentile, in millionths
 *
 * The percentile is the nearest-rank one: the smallest number that at
 * least @pct millionths of the numbers are not above.
 *
 * Return: hist_pct_bucket_value() of the bucket holding it; 0 when
 * nothing was counted.
 */
u64 hist_pct_value(const atomic64_t *buckets, bool is_signed, u32 pct)
{
	unsigned int i, n = hist_pct_buckets(is_signed), last = 0;
	u64 total = 0, rank, seen = 0;
	u32 rest;

	for (i = 0; i < n; i++)
		total += atomic64_read(&buckets[i]);
	if (!total)
		return 0;
	/* ceil(total * pct / 10^6), without overflowing */
	rank = div_u64_rem(total, 1000000, &rest) * pct +
	       DIV_ROUND_UP((u64)rest * pct, 1000000);
	rank = max(rank, 1ULL);
	for (i = 0; i < n; i++) {
		u64 count = atomic64_read(&buckets[i]);

		if (!count)
			continue;
		last = i;
		seen += count;
		if (seen >= rank)
			break;
	}
	/*
	 * The counts are read twice and only grow, so the rank is reached;
	 * should it not be, the last bucket counted is the answer.
	 */
	return hist_pct_bucket_value(i < n ? i : last, is_signed);
}

/**
 * hist_loglin_high - the highest number of a .loglin key's bucket
 * @low: the key, as hist_loglin() or hist_loglin_signed() made it
 * @bits: log2 of the buckets per power of two
 * @is_signed: the key is signed
 *
 * Return: the bucket's last number (an s64 when @is_signed).
 */
u64 hist_loglin_high(u64 low, unsigned int bits, bool is_signed)
{
	if (is_signed && (s64)low < 0)
		return -hist_loglin(-low, bits);
	return low + BIT_ULL(hist_loglin_shift(low, bits)) - 1;
}

/* Word @i of a value in an element. */
static u64 hist_val_word(const struct tracing_map_elt *elt,
			 const struct hist_field *hf, unsigned int i)
{
	return tracing_map_read_sum(elt, hf->map_idx + i);
}

/*
 * The 128-bit sum of an .avg or .stddev value: a signed one's is that
 * of its positive numbers less that of its negative ones' magnitudes.
 */
static void hist_val_sum(const struct tracing_map_elt *elt,
			 const struct hist_field *hf, u64 *sum)
{
	u64 neg_lo, neg_hi;

	sum[0] = hist_val_word(elt, hf, 0);
	sum[1] = hist_val_word(elt, hf, 1);
	if (!hf->is_signed)
		return;
	neg_lo = hist_val_word(elt, hf, 2);
	neg_hi = hist_val_word(elt, hf, 3);
	sum[1] -= neg_hi + (sum[0] < neg_lo);
	sum[0] -= neg_lo;
}

/**
 * hist_val_read - what a value of an entry shows
 * @hf: the value
 * @elt: the entry
 *
 * Return: the sum, minimum, maximum, mean, deviation or percentile;
 * an s64 for a signed value other than a sum.  An entry no hit has
 * updated yet shows 0, and a deviation whose sum of squares passed
 * 2^128 shows U64_MAX.
 */
u64 hist_val_read(const struct hist_field *hf,
		  const struct tracing_map_elt *elt)
{
	const struct hist_elt_data *ed = elt->private_data;
	u64 n = tracing_map_read_sum(elt, 0), sum[2], squares[2];
	unsigned int sq = hist_sum_words(hf);

	switch (hf->agg) {
	case HIST_AGG_MIN:
	case HIST_AGG_MAX:
		/* an entry is seen before its first hit has updated it */
		return n ? hist_val_word(elt, hf, 0) ^ hf->agg_mask : 0;
	case HIST_AGG_AVG:
		hist_val_sum(elt, hf, sum);
		return hist_avg128(sum, n, hf->is_signed);
	case HIST_AGG_STDDEV:
		if (hist_val_word(elt, hf, sq + 2))
			return U64_MAX;		/* the squares passed 2^128 */
		hist_val_sum(elt, hf, sum);
		squares[0] = hist_val_word(elt, hf, sq);
		squares[1] = hist_val_word(elt, hf, sq + 1);
		return hist_stddev128(sum, squares, n, hf->is_signed);
	case HIST_AGG_PCT:
		return hist_pct_value((const atomic64_t *)(ed->slots +
							   hf->pct_at),
				      hf->is_signed, hf->pct);
	default:
		return tracing_map_read_sum(elt, hf->map_idx);
	}
}
