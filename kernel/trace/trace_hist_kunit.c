// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the parts of hist triggers that need neither a live
 * event nor a map:
 *
 *  - division by a constant done as a multiplication and a shift
 *    (hist_div_mult(), hist_div_by_mult()), held against div64_u64()
 *    for edge and pseudo-random operands;
 *  - operands and expressions: what the parser makes of them (fetch kind,
 *    operator, folded constants, the way a division is done, canonical
 *    text), the value the hit path computes from a record, and the
 *    expressions it must refuse.  They are parsed against a fake event
 *    whose fields and record this file lays out itself;
 *  - splitting a trigger's text into its attributes (hist_parse_attrs());
 *  - a grammar fuzzer over all of the above and the building of a whole
 *    histogram from a trigger's text (see hist_test_fuzz_grammar());
 *  - hits of one histogram nested on a CPU: the hit path called in a
 *    loop while a hard interrupt timer, or on x86 an NMI, on the same
 *    CPU calls it too (see hist_test_nested_hits()), and aggregated
 *    values hit from both CPUs and a timer while they are read
 *    (hist_test_agg_concurrent()).
 *
 * Whole triggers on real events are covered by the ftrace selftests.
 * Only the nesting, aggregation and costliest-limit tests build a map
 * and hit it.
 * What the parser refuses is logged to the top-level error_log, as it
 * would be from a trigger file.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/nmi.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

/*
 * The NMI half of the nesting test raises NMIs through the local APIC
 * and catches them with register_nmi_handler(), which <linux/nmi.h>
 * brings on x86 kernels with ACPI: those distributions build.
 */
#if defined(CONFIG_X86_LOCAL_APIC) && defined(CONFIG_HAVE_ACPI_APEI_NMI)
#define HIST_TEST_NMI 1
#include <asm/apic.h>
#else
#define HIST_TEST_NMI 0
#endif

#include "trace_hist.h"

/* The fake event's record: the common header, then its own fields. */
struct hist_test_rec {
	struct trace_entry	ent;
	u32			a;
	s16			b;
	u16			pad;
	u64			c;
	char			name[16];
	u32			stack;		/* data_loc of @frames */
	u32			pad2;
	unsigned long		frames[3];	/* entry count, entries */
};

static const struct ftrace_event_field hist_test_fields[] = {
	{
		.name = "a", .type = "u32",
		.offset = offsetof(struct hist_test_rec, a), .size = 4,
		.filter_type = FILTER_OTHER,
	}, {
		.name = "b", .type = "s16",
		.offset = offsetof(struct hist_test_rec, b), .size = 2,
		.is_signed = 1, .filter_type = FILTER_OTHER,
	}, {
		.name = "c", .type = "u64",
		.offset = offsetof(struct hist_test_rec, c), .size = 8,
		.filter_type = FILTER_OTHER,
	}, {
		.name = "name", .type = "char[16]",
		.offset = offsetof(struct hist_test_rec, name), .size = 16,
		.filter_type = FILTER_STATIC_STRING,
	}, {
		/* a synthetic event's stack field */
		.name = "stack", .type = "unsigned long[]",
		.offset = offsetof(struct hist_test_rec, stack), .size = 4,
		.filter_type = FILTER_STACKTRACE,
	},
};

/* The record every test starts from. */
#define REC_A		1000U
#define REC_B		-3
#define REC_C		123456789012ULL
#define REC_PID		-5
#define REC_FRAME1	0x1111UL
#define REC_FRAME2	0x2222UL

/* Everything a test parses against and evaluates with. */
struct hist_test_env {
	struct ftrace_event_field	fields[ARRAY_SIZE(hist_test_fields)];
	struct trace_event_class	class;
	struct trace_event_call		call;
	struct trace_event_file		file;
	struct hist_data		*hd;
	struct hist_parse_ctx		ctx;
	struct hist_test_rec		rec;
	struct hist_hit			hit;
	u64				refs[HIST_REFS_MAX];
	u64				vars[HIST_VARS_MAX];
	struct hist_field		hf;
	struct hist_attrs		attrs;
	char				text[512];
	char				cmd[512];
};

static int hist_test_init(struct kunit *test)
{
	struct hist_test_env *env;
	size_t i;

	env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);
	if (!env)
		return -ENOMEM;
	env->hd = kunit_kzalloc(test, sizeof(*env->hd), GFP_KERNEL);
	if (!env->hd)
		return -ENOMEM;

	env->class.system = "kunit";
	INIT_LIST_HEAD(&env->class.fields);
	for (i = 0; i < ARRAY_SIZE(hist_test_fields); i++) {
		env->fields[i] = hist_test_fields[i];
		list_add_tail(&env->fields[i].link, &env->class.fields);
	}
	env->call.class = &env->class;
	env->call.name = "hist_kunit";
	env->file.event_call = &env->call;
	/*
	 * The top-level trace array, as a trigger file has one: a command
	 * looks the events and the variables it names up there, among
	 * triggers that boot parameters or a user may have set, so every
	 * parse below holds event_mutex.
	 */
	env->file.tr = top_trace_array();
	INIT_LIST_HEAD(&env->file.triggers);

	env->hd->event_file = &env->file;
	env->hd->tr = env->file.tr;
	INIT_LIST_HEAD(&env->hd->var_node);
	INIT_LIST_HEAD(&env->hd->sharer_pins);
	INIT_LIST_HEAD(&env->hd->readers);
	INIT_LIST_HEAD(&env->hd->reader_node);

	env->ctx.cmd = env->cmd;
	env->ctx.loc = "hist:kunit:hist_kunit";

	env->rec.ent.pid = REC_PID;
	env->rec.a = REC_A;
	env->rec.b = REC_B;
	env->rec.c = REC_C;
	strscpy(env->rec.name, "kunit");
	env->rec.frames[0] = 2;
	env->rec.frames[1] = REC_FRAME1;
	env->rec.frames[2] = REC_FRAME2;
	env->rec.stack = offsetof(struct hist_test_rec, frames) |
			 sizeof(env->rec.frames) << 16;
	env->hit.rec = &env->rec;
	env->hit.refs = env->refs;
	env->hit.vars = env->vars;

	test->priv = env;
	return 0;
}

static void hist_test_exit(struct kunit *test)
{
	struct hist_test_env *env = test->priv;

	hist_field_release(&env->hf);
	hist_free_attrs(&env->attrs);
}

/*
 * Parse @expr into env->hf from a fresh writable copy, as a trigger's
 * text would be, releasing what the previous parse left there. A "$name"
 * operand is looked up among the histograms of every event, a list that
 * event_mutex guards: held here as a write to a trigger file holds it.
 */
static int hist_test_parse(struct hist_test_env *env, const char *expr)
{
	int ret;

	hist_field_release(&env->hf);
	strscpy(env->text, expr);
	strscpy(env->cmd, expr);
	mutex_lock(&event_mutex);
	ret = hist_parse_expr(&env->ctx, &env->file, env->hd, env->text,
			      &env->hf);
	mutex_unlock(&event_mutex);
	return ret;
}

/* Parse one field operand into env->hf, as a key or as a value. */
static int hist_test_parse_field(struct hist_test_env *env, const char *text,
				 bool is_key)
{
	int ret;

	hist_field_release(&env->hf);
	strscpy(env->text, text);
	strscpy(env->cmd, text);
	mutex_lock(&event_mutex);
	ret = hist_parse_field(&env->ctx, &env->file, env->hd, &env->hf,
			       env->text, is_key);
	mutex_unlock(&event_mutex);
	return ret;
}

/* The value env->hf has for the current record, as the hit path reads it. */
static u64 hist_test_value(struct hist_test_env *env)
{
	return hist_fetch(env->hd, &env->hf, &env->hit);
}

static int hist_test_attrs(struct hist_test_env *env, const char *text)
{
	hist_free_attrs(&env->attrs);
	strscpy(env->text, text);
	strscpy(env->cmd, text);
	return hist_parse_attrs(&env->ctx, env->text, &env->attrs);
}

/* Each of @texts must be refused by @parse with -EINVAL. */
static void hist_test_refused(struct kunit *test,
			      int (*parse)(struct hist_test_env *env,
					   const char *text),
			      const char * const *texts, size_t n)
{
	struct hist_test_env *env = test->priv;
	size_t i;

	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(test, parse(env, texts[i]), -EINVAL,
				    "\"%s\"", texts[i]);
}

/* A histogram with its map, from env->attrs, as a created trigger has. */
static struct hist_data *hist_test_create(struct hist_test_env *env)
{
	struct hist_data *hd;
	int ret;

	hd = hist_data_create(&env->ctx, &env->file, &env->attrs, true);
	if (IS_ERR(hd))
		return hd;
	ret = hist_data_make_map(&env->ctx, hd);
	if (ret) {
		hist_data_destroy(hd);
		return ERR_PTR(ret);
	}
	return hd;
}

/* Knuth's MMIX generator: deterministic, and every bit moves. */
static u64 hist_test_rand(u64 *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return *state ^ (*state >> 31);
}

/* A pseudo-random number of pseudo-random magnitude. */
static u64 hist_test_rand_mag(u64 *state)
{
	u64 x = hist_test_rand(state);

	return x >> (hist_test_rand(state) >> 58);
}

struct hist_test_div {
	struct kunit	*test;
	u64		divisor;
	u64		mult;
	unsigned int	wrong;
};

static void hist_test_div_start(struct hist_test_div *t, struct kunit *test,
				u64 divisor)
{
	t->test = test;
	t->divisor = divisor;
	t->mult = hist_div_mult(divisor);
}

/* Check one quotient; only the first few wrong ones are printed. */
static void hist_test_div_one(struct hist_test_div *t, u64 n)
{
	u64 got = hist_div_by_mult(n, t->mult, t->divisor);
	u64 want = div64_u64(n, t->divisor);

	if (got != want && t->wrong++ < 8)
		KUNIT_FAIL(t->test, "%llu / %llu: got %llu, want %llu",
			   n, t->divisor, got, want);
}

/* Dividends around the multiples of the divisor and the ends of u64. */
static void hist_test_div_edges(struct hist_test_div *t)
{
	static const u64 fixed[] = {
		0, 1, 2, 3, 9, 10, 11, 999, 1000, 1001, U32_MAX,
		1ULL << 32, (1ULL << 32) + 1, (1ULL << 63) - 1, 1ULL << 63,
		(1ULL << 63) + 1, U64_MAX - 1, U64_MAX,
	};
	static const u64 times[] = { 1, 2, 3, 7, 1000, 1ULL << 32 };
	u64 d = t->divisor, top = div64_u64(U64_MAX, d) * d, m;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fixed); i++)
		hist_test_div_one(t, fixed[i]);
	/* the products may wrap: any u64 is a dividend all the same */
	for (i = 0; i < ARRAY_SIZE(times); i++) {
		m = times[i] * d;
		hist_test_div_one(t, m - 1);
		hist_test_div_one(t, m);
		hist_test_div_one(t, m + 1);
	}
	hist_test_div_one(t, top - d - 1);
	hist_test_div_one(t, top - d);
	hist_test_div_one(t, top - 1);
	hist_test_div_one(t, top);
	hist_test_div_one(t, top + 1);
	hist_test_div_one(t, d >> 1);
}

static void hist_test_div_const(struct kunit *test)
{
	static const u64 divisors[] = {
		3, 5, 6, 7, 9, 10, 11, 12, 13, 25, 100, 641, 1000, 6700417,
		1000000, 1000000000, 1000000007, 1000000000000ULL,
		U32_MAX, (1ULL << 32) + 1, (1ULL << 32) + 3, 3ULL << 40,
		(1ULL << 62) + (1ULL << 61), (1ULL << 63) - 1, (1ULL << 63) + 1,
		U64_MAX / 10, U64_MAX / 3, U64_MAX / 3 + 1,
		0xaaaaaaaaaaaaaaabULL, U64_MAX - 1, U64_MAX,
	};
	struct hist_test_div t = {};
	u64 seed = 1;
	size_t i;
	int j;

	for (i = 0; i < ARRAY_SIZE(divisors); i++) {
		hist_test_div_start(&t, test, divisors[i]);
		hist_test_div_edges(&t);
		for (j = 0; j < 64; j++)
			hist_test_div_one(&t, hist_test_rand_mag(&seed));
	}
	KUNIT_EXPECT_EQ(test, t.wrong, 0);
}

static void hist_test_div_random(struct kunit *test)
{
	struct hist_test_div t = {};
	u64 seed = 42, d;
	int i, j;

	for (i = 0; i < 256; i++) {
		do {
			d = hist_test_rand_mag(&seed);
		} while (!d || is_power_of_2(d));
		hist_test_div_start(&t, test, d);
		hist_test_div_edges(&t);
		for (j = 0; j < 128; j++)
			hist_test_div_one(&t, hist_test_rand_mag(&seed));
	}
	KUNIT_EXPECT_EQ(test, t.wrong, 0);
}

/* Operands and expressions that stay expressions: how they read a record. */
static void hist_test_expr_values(struct kunit *test)
{
	static const struct {
		const char	*expr;
		const char	*spec;
		u8		fetch;
		u8		op;
		bool		is_signed;
		u64		want;
	} cases[] = {
		{ "a", "a", HIST_FETCH_U32, 0, false, REC_A },
		{ "b", "b", HIST_FETCH_S16, 0, true, (u64)REC_B },
		{ "c", "c", HIST_FETCH_U64, 0, false, REC_C },
		{ "common_pid", "common_pid", HIST_FETCH_S32, 0, true,
		  (u64)REC_PID },
		{ "a+b", "a+b", HIST_FETCH_EXPR, HIST_OP_ADD, false, 997 },
		{ "c-a", "c-a", HIST_FETCH_EXPR, HIST_OP_SUB, false,
		  123456788012ULL },
		{ "a-c", "a-c", HIST_FETCH_EXPR, HIST_OP_SUB, false,
		  (u64)-123456788012LL },
		{ "a*3", "a*3", HIST_FETCH_EXPR, HIST_OP_MUL, false, 3000 },
		{ "b*2", "b*2", HIST_FETCH_EXPR, HIST_OP_MUL, true, (u64)-6 },
		{ " a + 3 ", "a+3", HIST_FETCH_EXPR, HIST_OP_ADD, false, 1003 },
		{ "c/a", "c/a", HIST_FETCH_EXPR, HIST_OP_DIV, false, 123456789 },
		{ "-(a)", "-(a)", HIST_FETCH_EXPR, HIST_OP_NEG, false,
		  (u64)-1000 },
		{ "-(b)", "-(b)", HIST_FETCH_EXPR, HIST_OP_NEG, true, 3 },
		{ "-(a+b)", "-(a+b)", HIST_FETCH_EXPR, HIST_OP_NEG, false,
		  (u64)-997 },
		{ "common_pid+1", "common_pid+1", HIST_FETCH_EXPR, HIST_OP_ADD,
		  true, (u64)-4 },
		/* a constant operand is folded, the rest stays */
		{ "a+2*3", "a+6", HIST_FETCH_EXPR, HIST_OP_ADD, false, 1006 },
		{ "2*3+a", "6+a", HIST_FETCH_EXPR, HIST_OP_ADD, false, 1006 },
		/* precedence, and left to right among equals */
		{ "a*3+c/10", "a*3+c/10", HIST_FETCH_EXPR, HIST_OP_ADD, false,
		  12345681901ULL },
		{ "c-a-b", "c-a-b", HIST_FETCH_EXPR, HIST_OP_SUB, false,
		  123456788015ULL },
		{ "c/a*a", "c/a*a", HIST_FETCH_EXPR, HIST_OP_MUL, false,
		  123456789000ULL },
		/* three operators is the most allowed */
		{ "a+b+c+a", "a+b+c+a", HIST_FETCH_EXPR, HIST_OP_ADD, false,
		  123456791009ULL },
	};
	struct hist_test_env *env = test->priv;
	struct hist_field *hf = &env->hf;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *expr = cases[i].expr;

		KUNIT_ASSERT_EQ_MSG(test, hist_test_parse(env, expr), 0,
				    "%s", expr);
		KUNIT_EXPECT_EQ_MSG(test, hf->fetch, cases[i].fetch, "%s", expr);
		if (hf->fetch == HIST_FETCH_EXPR)
			KUNIT_EXPECT_EQ_MSG(test, hf->op, cases[i].op, "%s",
					    expr);
		KUNIT_EXPECT_EQ_MSG(test, hf->is_signed, cases[i].is_signed,
				    "%s", expr);
		KUNIT_EXPECT_FALSE_MSG(test, hist_field_is_bytes(hf), "%s",
				       expr);
		KUNIT_EXPECT_STREQ_MSG(test, hf->spec, cases[i].spec, "%s",
				       expr);
		KUNIT_EXPECT_EQ_MSG(test, hist_test_value(env), cases[i].want,
				    "%s", expr);
	}

	/* an expression takes its type from its first operand */
	KUNIT_ASSERT_EQ(test, hist_test_parse(env, "b+c"), 0);
	KUNIT_EXPECT_STREQ(test, hf->type, "s16");
	KUNIT_EXPECT_EQ(test, hf->size, 2);
	KUNIT_EXPECT_EQ(test, hf->flags & HIST_FIELD_FL_EXPR,
			HIST_FIELD_FL_EXPR);
	KUNIT_ASSERT_NOT_NULL(test, hf->operands[0]);
	KUNIT_ASSERT_NOT_NULL(test, hf->operands[1]);
	KUNIT_EXPECT_EQ(test, hf->operands[0]->fetch, HIST_FETCH_S16);
	KUNIT_EXPECT_EQ(test, hf->operands[1]->fetch, HIST_FETCH_U64);
	KUNIT_EXPECT_PTR_EQ(test, hf->operands[1]->field, &env->fields[2]);
	KUNIT_EXPECT_EQ(test, hist_test_value(env), REC_C - 3);

	/* the record is read at each hit, not at parse time */
	KUNIT_ASSERT_EQ(test, hist_test_parse(env, "a*b"), 0);
	env->rec.a = 7;
	env->rec.b = 6;
	KUNIT_EXPECT_EQ(test, hist_test_value(env), 42);
	env->rec.b = -1;
	KUNIT_EXPECT_EQ(test, hist_test_value(env), (u64)-7);
}

/*
 * Expressions of constants become one constant, shown as its value; a
 * negated one keeps upstream's text.
 */
static void hist_test_expr_fold(struct kunit *test)
{
	static const struct {
		const char	*expr;
		u64		want;
		const char	*spec;
	} cases[] = {
		{ "16-8-4-2", 2 },
		{ "64/8/4/2", 1 },
		{ "4+3*2-2", 8 },
		{ "4*3/2*2", 12 },
		{ "1+2+3+4", 10 },
		{ "10/3", 3 },
		{ "2-5", (u64)-3 },
		{ "-(5)", (u64)-5, "-(5)" },
		{ "-(2*3)", (u64)-6, "-(6)" },
		{ "-(0)", 0, "-(0)" },
		{ "0x10+1", 17 },
		{ "7", 7 },
		{ "18446744073709551615+2", 1 },
	};
	struct hist_test_env *env = test->priv;
	struct hist_field *hf = &env->hf;
	char spec[24];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *expr = cases[i].expr;

		KUNIT_ASSERT_EQ_MSG(test, hist_test_parse(env, expr), 0,
				    "%s", expr);
		KUNIT_EXPECT_EQ_MSG(test, hf->fetch, HIST_FETCH_CONST, "%s",
				    expr);
		KUNIT_EXPECT_EQ_MSG(test, hf->flags, HIST_FIELD_FL_CONST, "%s",
				    expr);
		KUNIT_EXPECT_NULL_MSG(test, hf->operands[0], "%s", expr);
		KUNIT_EXPECT_NULL_MSG(test, hf->operands[1], "%s", expr);
		KUNIT_EXPECT_EQ_MSG(test, hf->constant, cases[i].want, "%s",
				    expr);
		KUNIT_EXPECT_EQ_MSG(test, hist_test_value(env), cases[i].want,
				    "%s", expr);
		if (cases[i].spec)
			strscpy(spec, cases[i].spec);
		else
			snprintf(spec, sizeof(spec), "%llu", cases[i].want);
		KUNIT_EXPECT_STREQ_MSG(test, hf->spec, spec, "%s", expr);
	}
}

/* How a division is done, and that each way gives the exact quotient. */
static void hist_test_expr_div(struct kunit *test)
{
	static const struct {
		const char	*expr;
		u8		op;
		u8		div_shift;
		u64		divisor;
	} cases[] = {
		{ "c/1", HIST_OP_DIV_SHIFT, 0, 1 },
		{ "c/8", HIST_OP_DIV_SHIFT, 3, 8 },
		{ "c/4096", HIST_OP_DIV_SHIFT, 12, 4096 },
		{ "c/9223372036854775808", HIST_OP_DIV_SHIFT, 63, 1ULL << 63 },
		{ "c/3", HIST_OP_DIV_MULT, 0, 3 },
		{ "c/10", HIST_OP_DIV_MULT, 0, 10 },
		{ "c/1000", HIST_OP_DIV_MULT, 0, 1000 },
		{ "c/1000000007", HIST_OP_DIV_MULT, 0, 1000000007 },
		{ "c/18446744073709551614", HIST_OP_DIV_MULT, 0, U64_MAX - 1 },
		/* (c/2)/4: a division of a division */
		{ "c/2/4", HIST_OP_DIV_SHIFT, 2, 8 },
		{ "c/a", HIST_OP_DIV, 0, 0 },
	};
	static const u64 values[] = {
		0, 1, 7, 9, 10, 11, 999, 1000, 1001, REC_C, U32_MAX,
		1ULL << 63, U64_MAX - 1, U64_MAX,
	};
	struct hist_test_env *env = test->priv;
	struct hist_field *hf = &env->hf;
	u64 seed = 7, c;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *expr = cases[i].expr;
		u64 d = cases[i].divisor;

		KUNIT_ASSERT_EQ_MSG(test, hist_test_parse(env, expr), 0,
				    "%s", expr);
		KUNIT_EXPECT_EQ_MSG(test, hf->fetch, HIST_FETCH_EXPR, "%s",
				    expr);
		KUNIT_EXPECT_EQ_MSG(test, hf->op, cases[i].op, "%s", expr);
		KUNIT_EXPECT_STREQ_MSG(test, hf->spec, expr, "%s", expr);
		if (hf->op == HIST_OP_DIV_SHIFT)
			KUNIT_EXPECT_EQ_MSG(test, hf->div_shift,
					    cases[i].div_shift, "%s", expr);
		if (hf->op == HIST_OP_DIV_MULT)
			KUNIT_EXPECT_EQ_MSG(test, hf->divisor, d, "%s", expr);
		if (hf->op == HIST_OP_DIV) {
			/* a divisor from the record: a = 1000 */
			d = REC_A;
		}
		for (j = 0; j < ARRAY_SIZE(values) + 64; j++) {
			c = j < ARRAY_SIZE(values) ? values[j] :
			    hist_test_rand_mag(&seed);
			env->rec.c = c;
			KUNIT_EXPECT_EQ_MSG(test, hist_test_value(env),
					    div64_u64(c, d), "%s, c = %llu",
					    expr, c);
		}
	}
	env->rec.c = REC_C;

	/* by zero at the hit: all ones, not a trap */
	KUNIT_ASSERT_EQ(test, hist_test_parse(env, "a/b"), 0);
	KUNIT_EXPECT_EQ(test, hf->op, HIST_OP_DIV);
	env->rec.b = 7;
	KUNIT_EXPECT_EQ(test, hist_test_value(env), 142);
	env->rec.b = 0;
	KUNIT_EXPECT_EQ(test, hist_test_value(env), U64_MAX);
	KUNIT_ASSERT_EQ(test, hist_test_parse(env, "c/a"), 0);
	env->rec.a = 0;
	KUNIT_EXPECT_EQ(test, hist_test_value(env), U64_MAX);
}

/* A string field alone is an operand; its value is where its bytes are. */
static void hist_test_expr_string(struct kunit *test)
{
	struct hist_test_env *env = test->priv;
	struct hist_field *hf = &env->hf;

	KUNIT_ASSERT_EQ(test, hist_test_parse(env, "name"), 0);
	KUNIT_EXPECT_EQ(test, hf->fetch, HIST_FETCH_STR_FIXED);
	KUNIT_EXPECT_TRUE(test, hist_field_is_bytes(hf));
	KUNIT_EXPECT_EQ(test, hf->flags & HIST_FIELD_FL_STRING,
			HIST_FIELD_FL_STRING);
	KUNIT_EXPECT_EQ(test, hf->offset,
			offsetof(struct hist_test_rec, name));
	/* the bytes and a terminating NUL */
	KUNIT_EXPECT_EQ(test, hf->size, sizeof(env->rec.name) + 1);
	KUNIT_EXPECT_STREQ(test, hf->spec, "name");
	KUNIT_EXPECT_EQ(test, hist_test_value(env),
			(u64)(uintptr_t)env->rec.name);
}

/*
 * A stack field's value is the address of its entry count, the form
 * variable slots and the synthetic record writer copy from; a data_loc
 * whose length cannot hold the count it points at gives no stack.
 */
static void hist_test_expr_stack(struct kunit *test)
{
	struct hist_test_env *env = test->priv;
	struct hist_field *hf = &env->hf;
	const unsigned long *stack;

	/* shown with .stacktrace as a key only: a variable is the name */
	KUNIT_ASSERT_EQ(test, hist_test_parse_field(env, "stack", true), 0);
	KUNIT_EXPECT_STREQ(test, hf->spec, "stack.stacktrace");
	KUNIT_ASSERT_EQ(test, hist_test_parse(env, "stack"), 0);
	KUNIT_EXPECT_STREQ(test, hf->spec, "stack");
	KUNIT_EXPECT_EQ(test, hf->fetch, HIST_FETCH_STACK_FIELD);
	KUNIT_EXPECT_TRUE(test, hist_field_is_bytes(hf));
	stack = (const unsigned long *)(uintptr_t)hist_test_value(env);
	KUNIT_ASSERT_PTR_EQ(test, stack, (const unsigned long *)env->rec.frames);
	KUNIT_EXPECT_EQ(test, stack[0], 2UL);
	KUNIT_EXPECT_EQ(test, stack[1], REC_FRAME1);
	KUNIT_EXPECT_EQ(test, stack[2], REC_FRAME2);

	/* a count past the length */
	env->rec.frames[0] = 3;
	KUNIT_EXPECT_EQ(test, hist_test_value(env), 0ULL);
	/* a length too short for the count itself */
	env->rec.frames[0] = 0;
	env->rec.stack = offsetof(struct hist_test_rec, frames) |
			 (sizeof(long) - 1) << 16;
	KUNIT_EXPECT_EQ(test, hist_test_value(env), 0ULL);
	/* no entries is a stack, an empty one */
	env->rec.stack = offsetof(struct hist_test_rec, frames) |
			 sizeof(long) << 16;
	KUNIT_EXPECT_EQ(test, hist_test_value(env),
			(u64)(uintptr_t)env->rec.frames);
}

/* Modifiers on an operand: what each one turns into. */
static void hist_test_expr_modifiers(struct kunit *test)
{
	static const char * const refused[] = {
		"name.log2", "name.hex", "c.bogus", "a.execname",
		"c.buckets=0", "c.buckets=x", "c.buckets", "a.stacktrace",
		/* a value is a sum: these only mean something on a key */
		"c.log2", "c.buckets=10", "c.sym", "c.syscall",
		/* the '-' of sym-offset is not taken for an operator */
		"c.sym-offset", "c.sym-offset-1",
	};
	struct hist_test_env *env = test->priv;
	struct hist_field *hf = &env->hf;
	size_t i;

	KUNIT_ASSERT_EQ(test, hist_test_parse_field(env, "c.log2", true), 0);
	KUNIT_EXPECT_EQ(test, hf->xform, HIST_XFORM_LOG2);
	KUNIT_EXPECT_STREQ(test, hf->spec, "c.log2");
	/* 2^36 < c <= 2^37 */
	KUNIT_EXPECT_EQ(test, hist_test_value(env), 37);

	KUNIT_ASSERT_EQ(test, hist_test_parse_field(env, "c.buckets=1000", true), 0);
	KUNIT_EXPECT_EQ(test, hf->xform, HIST_XFORM_BUCKETS);
	KUNIT_EXPECT_EQ(test, hf->buckets, 1000);
	KUNIT_EXPECT_STREQ(test, hf->spec, "c.buckets=1000");
	KUNIT_EXPECT_EQ(test, hist_test_value(env), 123456789000ULL);

	KUNIT_ASSERT_EQ(test, hist_test_parse_field(env, "a.bucket=300", true), 0);
	KUNIT_EXPECT_STREQ(test, hf->spec, "a.buckets=300");
	KUNIT_EXPECT_EQ(test, hist_test_value(env), 900);

	KUNIT_ASSERT_EQ(test, hist_test_parse(env, "a.hex"), 0);
	KUNIT_EXPECT_EQ(test, hf->xform, HIST_XFORM_NONE);
	KUNIT_EXPECT_EQ(test, hf->flags & HIST_FIELD_FL_HEX,
			HIST_FIELD_FL_HEX);
	KUNIT_EXPECT_STREQ(test, hf->spec, "a.hex");
	KUNIT_EXPECT_EQ(test, hist_test_value(env), REC_A);

	/* as upstream: taken on any field, and the number is left alone */
	KUNIT_ASSERT_EQ(test, hist_test_parse(env, "a.usecs"), 0);
	KUNIT_EXPECT_EQ(test, hf->xform, HIST_XFORM_NONE);
	KUNIT_EXPECT_STREQ(test, hf->spec, "a.usecs");
	KUNIT_EXPECT_EQ(test, hist_test_value(env), REC_A);

	KUNIT_ASSERT_EQ(test, hist_test_parse(env, "common_pid.execname"), 0);
	KUNIT_EXPECT_EQ(test, hf->flags & HIST_FIELD_FL_EXECNAME,
			HIST_FIELD_FL_EXECNAME);
	KUNIT_EXPECT_STREQ(test, hf->spec, "common_pid.execname");

	for (i = 0; i < ARRAY_SIZE(refused); i++)
		KUNIT_EXPECT_EQ_MSG(test, hist_test_parse(env, refused[i]),
				    -EINVAL, "%s", refused[i]);

	/* .percent and .graph are for values only */
	KUNIT_EXPECT_EQ(test, hist_test_parse_field(env, "c.percent", true),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, hist_test_parse_field(env, "c.graph", true),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, hist_test_parse_field(env, "c.percent", false),
			0);
	KUNIT_EXPECT_EQ(test, hf->flags & HIST_FIELD_FL_PERCENT,
			HIST_FIELD_FL_PERCENT);
	KUNIT_EXPECT_EQ(test, hf->flags & HIST_FIELD_FL_KEY, 0);
}

/* A reference to a variable of the histogram being built. */
static void hist_test_expr_own_var(struct kunit *test)
{
	struct hist_test_env *env = test->priv;
	struct hist_field *hf = &env->hf;
	struct hist_data *hd = env->hd;

	hd->vars[1].name = kunit_kstrdup(test, "x", GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hd->vars[1].name);
	hd->vars[1].value.type = "u64";
	hd->vars[1].value.size = sizeof(u64);
	hd->vars[0].name = kunit_kstrdup(test, "w", GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hd->vars[0].name);
	hd->n_vars = 2;
	env->hit.vars[1] = 21;

	KUNIT_ASSERT_EQ(test, hist_test_parse(env, "$x"), 0);
	KUNIT_EXPECT_EQ(test, hf->fetch, HIST_FETCH_OWN_VAR);
	KUNIT_EXPECT_EQ(test, hf->slot, 1);
	KUNIT_EXPECT_STREQ(test, hf->spec, "$x");
	KUNIT_EXPECT_EQ(test, hist_test_value(env), 21);

	KUNIT_ASSERT_EQ(test, hist_test_parse(env, "$x*2"), 0);
	KUNIT_EXPECT_EQ(test, hf->op, HIST_OP_MUL);
	KUNIT_EXPECT_STREQ(test, hf->spec, "$x*2");
	KUNIT_EXPECT_EQ(test, hist_test_value(env), 42);

	KUNIT_ASSERT_EQ(test, hist_test_parse(env, "a-$x"), 0);
	KUNIT_EXPECT_EQ(test, hist_test_value(env), REC_A - 21);

	KUNIT_EXPECT_EQ(test, hist_test_parse(env, "$+1"), -EINVAL);
}

/* What the parser refuses. */
static void hist_test_expr_refused(struct kunit *test)
{
	static const char * const refused[] = {
		"1/0",			/* division by zero */
		"a/0",
		"a/(2-2)",		/* no parentheses but after '-' */
		"1+2+3+4+5",		/* more than three operators */
		"a+b+c+a+b",
		"a*3+c/10-b",
		"-(1)+2",		/* unary minus inside an expression */
		"a+-(b)",
		"-a",			/* unary minus without parentheses */
		"-(a",			/* no closing parenthesis */
		"name+1",		/* a string operand */
		"1+name",
		"-(name)",
		"nosuch+1",		/* no such field */
		"nosuch",
		"a+",			/* an operand missing */
		"+a",
		"a++b",
		"",
		"1x+1",			/* not a number */
		"a.bogus+1",
	};
	hist_test_refused(test, hist_test_parse, refused, ARRAY_SIZE(refused));
}

static void hist_test_attrs_all(struct kunit *test)
{
	static const char * const parts[] = {
		"keys=a,b", "vals=c,a", "sort=c.descending,a", "size=3000",
		"name=foo", "clock=mono", "pause", "cont", "clear",
		"nohitcount", "x=1,y=2", "onmax($x).save(a)",
	};
	struct hist_test_env *env = test->priv;
	struct hist_attrs *attrs = &env->attrs;
	size_t len = 0, i;
	char text[160];

	for (i = 0; i < ARRAY_SIZE(parts); i++)
		len += scnprintf(text + len, sizeof(text) - len, "%s%s",
				 i ? ":" : "", parts[i]);
	KUNIT_ASSERT_LT(test, len, sizeof(text) - 1);
	KUNIT_ASSERT_EQ(test, hist_test_attrs(env, text), 0);
	KUNIT_EXPECT_STREQ(test, attrs->keys, "a,b");
	KUNIT_EXPECT_STREQ(test, attrs->vals, "c,a");
	KUNIT_EXPECT_STREQ(test, attrs->sort, "c.descending,a");
	/* keys, vals and sort stay in the text, for error carets */
	KUNIT_EXPECT_PTR_EQ(test, attrs->keys, &env->text[5]);
	KUNIT_EXPECT_PTR_EQ(test, attrs->vals,
			    env->text + (strstr(text, "vals=") - text) + 5);
	KUNIT_EXPECT_PTR_EQ(test, attrs->sort,
			    env->text + (strstr(text, "sort=") - text) + 5);
	KUNIT_EXPECT_EQ(test, attrs->map_bits, 12);
	KUNIT_EXPECT_STREQ(test, attrs->name, "foo");
	/* error_log marks the whole "name=foo" */
	KUNIT_EXPECT_PTR_EQ(test, attrs->name_at,
			    (const char *)env->text +
			    (strstr(text, "name=foo") - text));
	KUNIT_EXPECT_STREQ(test, attrs->clock, "mono");
	KUNIT_EXPECT_TRUE(test, attrs->pause);
	KUNIT_EXPECT_TRUE(test, attrs->cont);
	KUNIT_EXPECT_TRUE(test, attrs->clear);
	KUNIT_EXPECT_TRUE(test, attrs->no_hitcount);
	KUNIT_ASSERT_EQ(test, attrs->n_var_defs, 1);
	KUNIT_EXPECT_STREQ(test, attrs->var_defs[0], "x=1,y=2");
	KUNIT_ASSERT_EQ(test, attrs->n_action_defs, 1);
	KUNIT_EXPECT_STREQ(test, attrs->action_defs[0], "onmax($x).save(a)");
}

static void hist_test_attrs_defaults(struct kunit *test)
{
	static const char several[] =
		"keys=a:x=1:onmatch(sys.ev).trace(s,$x):y=$x+2:onchange($y).save(c)";
	struct hist_test_env *env = test->priv;
	struct hist_attrs *attrs = &env->attrs;

	KUNIT_ASSERT_EQ(test, hist_test_attrs(env, "keys=a"), 0);
	KUNIT_EXPECT_STREQ(test, attrs->keys, "a");
	KUNIT_EXPECT_NULL(test, attrs->vals);
	KUNIT_EXPECT_NULL(test, attrs->sort);
	KUNIT_EXPECT_NULL(test, attrs->name);
	KUNIT_EXPECT_STREQ(test, attrs->clock, "global");
	KUNIT_EXPECT_EQ(test, attrs->map_bits, TRACING_MAP_BITS_DEFAULT);
	KUNIT_EXPECT_FALSE(test, attrs->pause);
	KUNIT_EXPECT_FALSE(test, attrs->cont);
	KUNIT_EXPECT_FALSE(test, attrs->clear);
	KUNIT_EXPECT_FALSE(test, attrs->no_hitcount);
	KUNIT_EXPECT_EQ(test, attrs->n_var_defs, 0);
	KUNIT_EXPECT_EQ(test, attrs->n_action_defs, 0);

	/* the other spellings */
	KUNIT_ASSERT_EQ(test, hist_test_attrs(env,
					      "key=b:val=c:continue:NOHC"), 0);
	KUNIT_EXPECT_STREQ(test, attrs->keys, "b");
	KUNIT_EXPECT_STREQ(test, attrs->vals, "c");
	KUNIT_EXPECT_TRUE(test, attrs->cont);
	KUNIT_EXPECT_TRUE(test, attrs->no_hitcount);
	KUNIT_EXPECT_FALSE(test, attrs->pause);
	KUNIT_ASSERT_EQ(test, hist_test_attrs(env, "values=a:keys=c: pause"),
			0);
	KUNIT_EXPECT_STREQ(test, attrs->keys, "c");
	KUNIT_EXPECT_STREQ(test, attrs->vals, "a");
	KUNIT_EXPECT_TRUE(test, attrs->pause);

	/* several variable groups and handlers, in their order */
	KUNIT_ASSERT_EQ(test, hist_test_attrs(env, several), 0);
	KUNIT_ASSERT_EQ(test, attrs->n_var_defs, 2);
	KUNIT_EXPECT_STREQ(test, attrs->var_defs[0], "x=1");
	KUNIT_EXPECT_STREQ(test, attrs->var_defs[1], "y=$x+2");
	KUNIT_ASSERT_EQ(test, attrs->n_action_defs, 2);
	KUNIT_EXPECT_STREQ(test, attrs->action_defs[0],
			   "onmatch(sys.ev).trace(s,$x)");
	KUNIT_EXPECT_STREQ(test, attrs->action_defs[1], "onchange($y).save(c)");
}

static void hist_test_attrs_size(struct kunit *test)
{
	static const struct {
		const char	*size;
		int		ret;
		unsigned int	bits;
	} cases[] = {
		{ "3000", 0, 12 },
		{ "65", 0, 7 },
		{ "128", 0, 7 },
		{ "129", 0, 8 },
		{ "2048", 0, 11 },
		{ "2049", 0, 12 },
		{ "0x400", 0, 10 },
		{ "64", -EINVAL },
		{ "1", -EINVAL },
		{ "0", -EINVAL },
		{ "-1", -EINVAL },
		{ "many", -EINVAL },
		{ "", -EINVAL },
	};
	struct hist_test_env *env = test->priv;
	unsigned long max = 1UL << HIST_MAP_BITS_MAX;
	char text[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(text, sizeof(text), "keys=a:size=%s", cases[i].size);
		KUNIT_EXPECT_EQ_MSG(test, hist_test_attrs(env, text),
				    cases[i].ret, "%s", text);
		if (!cases[i].ret)
			KUNIT_EXPECT_EQ_MSG(test, env->attrs.map_bits,
					    cases[i].bits, "%s", text);
	}

	/* the largest map there is, and one entry more */
	snprintf(text, sizeof(text), "keys=a:size=%lu", max);
	KUNIT_EXPECT_EQ_MSG(test, hist_test_attrs(env, text), 0, "%s", text);
	KUNIT_EXPECT_EQ(test, env->attrs.map_bits, HIST_MAP_BITS_MAX);
	snprintf(text, sizeof(text), "keys=a:size=%lu", max + 1);
	KUNIT_EXPECT_EQ_MSG(test, hist_test_attrs(env, text), -EINVAL, "%s",
			    text);
}

/* As many variable groups and handlers as a histogram holds, no more. */
static void hist_test_attrs_limits(struct kunit *test)
{
	struct hist_test_env *env = test->priv;
	char *text = kunit_kzalloc(test, sizeof(env->text), GFP_KERNEL);
	size_t len;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, text);
	len = strscpy(text, "keys=a", sizeof(env->text));
	for (i = 0; i < HIST_VARS_MAX; i++)
		len += scnprintf(text + len, sizeof(env->text) - len,
				 ":v%d=%d", i, i);
	KUNIT_ASSERT_EQ(test, hist_test_attrs(env, text), 0);
	KUNIT_EXPECT_EQ(test, env->attrs.n_var_defs, HIST_VARS_MAX);
	KUNIT_EXPECT_STREQ(test, env->attrs.var_defs[HIST_VARS_MAX - 1],
			   "v15=15");
	scnprintf(text + len, sizeof(env->text) - len, ":v%d=0", i);
	KUNIT_EXPECT_EQ(test, hist_test_attrs(env, text), -EINVAL);

	len = strscpy(text, "keys=a", sizeof(env->text));
	for (i = 0; i < HIST_ACTIONS_MAX; i++)
		len += scnprintf(text + len, sizeof(env->text) - len,
				 ":onmax($v).save(a)");
	KUNIT_ASSERT_EQ(test, hist_test_attrs(env, text), 0);
	KUNIT_EXPECT_EQ(test, env->attrs.n_action_defs, HIST_ACTIONS_MAX);
	scnprintf(text + len, sizeof(env->text) - len, ":onmax($v).save(a)");
	KUNIT_EXPECT_EQ(test, hist_test_attrs(env, text), -EINVAL);
}

/*
 * The value limit at its costliest: fifteen values that take the most
 * words of an entry each, a signed .stddev's seven, and four sort
 * fields.  The histogram must be made, its map included, and the words
 * of the last value must be its own: hit with -3 and 5, each value
 * shows the deviation 4.  A sixteenth value is refused.
 */
static void hist_test_limits_costliest(struct kunit *test)
{
	struct hist_test_env *env = test->priv;
	char *text = kunit_kzalloc(test, sizeof(env->text), GFP_KERNEL);
	struct event_trigger_data *data;
	struct tracing_map_elt *elt;
	struct hist_data *hd;
	u64 key = REC_A;
	size_t len;
	int i;

	data = kunit_kzalloc(test, sizeof(*data), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_ASSERT_NOT_NULL(test, data);
	len = strscpy(text, "keys=a:vals=b.stddev", sizeof(env->text));
	for (i = 1; i < HIST_VALS_MAX - 1; i++)
		len += scnprintf(text + len, sizeof(env->text) - len,
				 ",b.stddev");
	scnprintf(text + len, sizeof(env->text) - len,
		  ":sort=b.stddev,hitcount,a,b.stddev.descending");
	KUNIT_ASSERT_EQ(test, hist_test_attrs(env, text), 0);
	mutex_lock(&event_mutex);
	hd = hist_test_create(env);
	mutex_unlock(&event_mutex);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(hd), "%s: %d", text,
			       PTR_ERR_OR_ZERO(hd));
	KUNIT_EXPECT_EQ(test, hd->n_vals, HIST_VALS_MAX);
	KUNIT_EXPECT_EQ(test, hd->n_sort_keys, HIST_SORT_KEYS_MAX);
	KUNIT_EXPECT_EQ(test, hd->n_sums, 1 + (HIST_VALS_MAX - 1) * 7);
	data->private_data = hd;
	preempt_disable();
	env->rec.b = -3;
	hist_hit(data, NULL, &env->rec, NULL);
	env->rec.b = 5;
	hist_hit(data, NULL, &env->rec, NULL);
	preempt_enable();
	elt = tracing_map_lookup(hd->map, &key);
	KUNIT_EXPECT_NOT_NULL(test, elt);
	for (i = 0; elt && i < hd->n_vals; i++)
		KUNIT_EXPECT_EQ_MSG(test, hist_val_read(&hd->vals[i], elt),
				    i ? 4 : 2, "value %d", i);
	mutex_lock(&event_mutex);
	hist_data_destroy(hd);
	mutex_unlock(&event_mutex);

	len = strscpy(text, "keys=a:vals=b.stddev", sizeof(env->text));
	for (i = 1; i < HIST_VALS_MAX; i++)
		len += scnprintf(text + len, sizeof(env->text) - len,
				 ",b.stddev");
	KUNIT_ASSERT_EQ(test, hist_test_attrs(env, text), 0);
	mutex_lock(&event_mutex);
	hd = hist_test_create(env);
	mutex_unlock(&event_mutex);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(hd), -EINVAL);
	if (!IS_ERR(hd)) {
		mutex_lock(&event_mutex);
		hist_data_destroy(hd);
		mutex_unlock(&event_mutex);
	}
}

static void hist_test_attrs_refused(struct kunit *test)
{
	static const char * const refused[] = {
		"keys=a:bogus",			/* unknown word */
		"keys=a:onmax",
		"keys=a:keys=b",		/* given twice */
		"keys=a:key=b",
		"keys=a:vals=b:vals=c",
		"keys=a:sort=a:sort=b",
		"keys=a:name=x:name=y",
		"keys=a:clock=x:clock=y",
		"vals=c",			/* no keys */
		"pause",
		"keys=",			/* empty assignment */
		"keys=a:vals=",
	};
	hist_test_refused(test, hist_test_attrs, refused, ARRAY_SIZE(refused));
}

/*
 * The trigger's text into a seq_file buffer at every fill level: it is
 * there whole, or the buffer is marked full so that seq_read() tries a
 * bigger one; and nothing warns, also with no room left at all.
 */
static void hist_test_print_trigger(struct kunit *test)
{
	static const char text[] = "keys=a,name:vals=c:sort=c.descending:size=256";
	static const char want[] =
		"hist:keys=a,name:vals=hitcount,c:sort=c.descending:size=256 [active]\n";
	bool tainted = test_taint(TAINT_WARN);
	struct hist_test_env *env = test->priv;
	struct event_trigger_data data = {};
	size_t len = strlen(want), fill;
	struct seq_file m = {};
	struct hist_data *hd;

	KUNIT_ASSERT_EQ(test, hist_test_attrs(env, text), 0);
	mutex_lock(&event_mutex);
	hd = hist_data_create(&env->ctx, &env->file, &env->attrs, false);
	mutex_unlock(&event_mutex);
	KUNIT_ASSERT_FALSE(test, IS_ERR(hd));
	data.private_data = hd;
	m.size = 2 * len;
	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	for (fill = 0; fill <= m.size; fill++) {
		m.count = fill;
		mutex_lock(&event_mutex);
		hist_print_trigger(&m, &data);
		mutex_unlock(&event_mutex);
		/* seq_file keeps a byte for the NUL of its last print */
		if (fill + len < m.size) {
			KUNIT_EXPECT_EQ(test, m.count, fill + len);
			KUNIT_EXPECT_EQ_MSG(test, memcmp(m.buf + fill, want, len),
					    0, "at %zu: %.*s", fill, (int)len,
					    m.buf + fill);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, m.count, m.size, "at %zu",
					    fill);
		}
	}
	KUNIT_EXPECT_TRUE(test, tainted || !test_taint(TAINT_WARN));
	mutex_lock(&event_mutex);
	hist_data_destroy(hd);
	mutex_unlock(&event_mutex);
}

/*
 * The grammar fuzzer: trigger texts made from the grammar, most of them
 * then mangled (cut short, a character dropped, one of ":,=.()$+-*\/"
 * or a control or non-ASCII byte put in or over one, two swapped). Each
 * is parsed as a whole trigger, which is then built into a histogram
 * (without its map) and freed, or as one expression, key or value. The
 * parser must accept or refuse it, nothing else; what it accepts must
 * give the same canonical text when that is parsed again, and must
 * evaluate against the record. KASAN, UBSAN and kmemleak watch the rest.
 *
 * trace_hist_kunit.fuzz_n= and .fuzz_seed= on the kernel command line
 * change how many texts are tried and which.
 */
static unsigned int fuzz_n = 100000;
module_param(fuzz_n, uint, 0444);
MODULE_PARM_DESC(fuzz_n, "texts hist_test_fuzz_grammar tries");
static unsigned long long fuzz_seed = 1;
module_param(fuzz_seed, ullong, 0444);
MODULE_PARM_DESC(fuzz_seed, "the first state of its generator");

#define HIST_FUZZ_LEN	400

struct hist_fuzz {
	u64	state;
	bool	clean;
	size_t	len;
	char	text[HIST_FUZZ_LEN];
	char	again[HIST_FUZZ_LEN];
};

static u32 fuzz_below(struct hist_fuzz *f, u32 n)
{
	return mul_u64_u32_shr(hist_test_rand(&f->state) >> 32, n, 32);
}

static void fuzz_put(struct hist_fuzz *f, const char *s)
{
	size_t n = min(strlen(s), sizeof(f->text) - 1 - f->len);

	memcpy(f->text + f->len, s, n);
	f->len += n;
	f->text[f->len] = '\0';
}

/*
 * Each pool starts with its @valid words that are right somewhere: a
 * clean text is made of those only, so that some of it gets through the
 * parser to what comes after.
 */
static void fuzz_pick(struct hist_fuzz *f, const char * const *pool,
		      size_t n, size_t valid)
{
	fuzz_put(f, pool[fuzz_below(f, f->clean ? valid : n)]);
}

static const char * const fuzz_operands[] = {
	"a", "b", "c", "name", "stack", "common_pid", "common_timestamp",
	"common_cpu", "cpu", "hitcount", "1", "7", "4294967296", "0x10",
	/* 14 */
	"$x", "$w", "$nosuch", "$", "0", "18446744073709551615",
	"18446744073709551616", "0xffffffffffffffff", "0x", "-1", "nosuch",
	"a.b", "kunit.hist_kunit.a", "kunit.hist_kunit.$x", "\xff\xfe", "",
};

static const char * const fuzz_modifiers[] = {
	"", "", "", "", "", "", "", "", "", "", "", "", ".hex", ".sym",
	".sym-offset", ".execname", ".syscall", ".log2", ".usecs",
	".percent", ".graph", ".stacktrace", ".buckets=10", ".bucket=3",
	".descending", ".ascending",
	/* 26 */
	".buckets=0", ".buckets=18446744073709551615", ".buckets=", ".bogus",
	".", ".hex.hex", ".nohitcount",
};

static const char * const fuzz_operators[] = { "+", "-", "*", "/" };

static void fuzz_expr(struct hist_fuzz *f, int depth)
{
	unsigned int i;

	switch (depth > 0 ? fuzz_below(f, f->clean ? 7 : 9) : 0) {
	case 0: case 1: case 2: case 3:
		fuzz_pick(f, fuzz_operands, ARRAY_SIZE(fuzz_operands), 14);
		fuzz_pick(f, fuzz_modifiers, ARRAY_SIZE(fuzz_modifiers), 26);
		break;
	case 4: case 5:
		fuzz_expr(f, depth - 1);
		fuzz_pick(f, fuzz_operators, ARRAY_SIZE(fuzz_operators), 4);
		fuzz_expr(f, depth - 1);
		break;
	case 6:
		fuzz_put(f, "-(");
		fuzz_expr(f, depth - 1);
		fuzz_put(f, ")");
		break;
	case 7:
		fuzz_put(f, "(");
		fuzz_expr(f, depth - 1);
		fuzz_put(f, ")");
		break;
	default:
		/* a name longer than any buffer it could be copied to */
		for (i = 0; i < 40; i++)
			fuzz_put(f, "abcdefgh");
	}
}

static void fuzz_list(struct hist_fuzz *f)
{
	unsigned int i, n = 1 + fuzz_below(f, f->clean ? 2 : 4);

	for (i = 0; i < n; i++) {
		if (i)
			fuzz_put(f, ",");
		fuzz_expr(f, f->clean ? 1 : 3);
	}
}

static void fuzz_trigger(struct hist_fuzz *f)
{
	static const char * const sizes[] = {
		"1", "2", "3", "1024", "2048", "131072",
		"0", "131073", "4294967296", "18446744073709551615", "-1", "x",
		"",
	};
	static const char * const names[] = { "foo", "", "a,b", "x y" };
	static const char * const clocks[] = {
		"mono", "global", "local", "x86-tsc", "counter", "bogus", "",
	};
	static const char * const words[] = {
		"pause", "cont", "continue", "clear", "nohitcount", "NOHITCOUNT",
		"keys", "vals", "",
	};
	static const char * const var_names[] = {
		"x", "y", "w", "v15",
		"1x", "", "x.y", "$x", "common_pid", "a", "hitcount",
	};
	static const char * const handlers[] = {
		"onmax($x)", "onmax($w)", "onchange($x)",
		"onmatch(kunit.hist_kunit)", "onmatch(sys.ev)",
		"onmax(a)", "onchange()", "onmatch()", "onmax($x", "onbogus($x)",
	};
	static const char * const actions[] = {
		"save(", "snapshot(", "trace(synth,", "trace(", "synth(",
		"bogus(", "",
	};
	unsigned int i, n = fuzz_below(f, 7);

	if (f->clean || fuzz_below(f, 16)) {
		fuzz_put(f, "keys=");
		fuzz_list(f);
	}
	for (i = 0; i < n; i++) {
		fuzz_put(f, ":");
		switch (fuzz_below(f, 11)) {
		case 0:
			fuzz_put(f, "vals=");
			fuzz_list(f);
			break;
		case 1:
			fuzz_put(f, "sort=");
			fuzz_list(f);
			break;
		case 2:
			fuzz_put(f, "size=");
			fuzz_pick(f, sizes, ARRAY_SIZE(sizes), 6);
			break;
		case 3:
			fuzz_put(f, "name=");
			fuzz_pick(f, names, ARRAY_SIZE(names), 1);
			break;
		case 4:
			fuzz_put(f, "clock=");
			fuzz_pick(f, clocks, ARRAY_SIZE(clocks), 5);
			break;
		case 5:
			fuzz_pick(f, words, ARRAY_SIZE(words), 5);
			break;
		case 6: case 7:
			fuzz_pick(f, var_names, ARRAY_SIZE(var_names), 4);
			fuzz_put(f, "=");
			fuzz_expr(f, f->clean ? 1 : 3);
			break;
		case 8: case 9:
			fuzz_pick(f, handlers, ARRAY_SIZE(handlers), 5);
			fuzz_put(f, ".");
			fuzz_pick(f, actions, ARRAY_SIZE(actions), 5);
			if (fuzz_below(f, 2))
				fuzz_list(f);
			fuzz_put(f, ")");
			break;
		default:
			fuzz_expr(f, 2);
		}
	}
}

static void fuzz_mangle(struct hist_fuzz *f)
{
	static const char odd[] = ":,=.()$+-*/ \t\x01\x7f\xff";
	unsigned int i, n = fuzz_below(f, 4);
	size_t at, to;
	char c;

	for (i = 0; i < n && f->len; i++) {
		at = fuzz_below(f, f->len);
		switch (fuzz_below(f, 5)) {
		case 0:
			f->len = at;
			break;
		case 1:
			memmove(f->text + at, f->text + at + 1, f->len - at);
			f->len--;
			break;
		case 2:
			if (f->len + 1 >= sizeof(f->text))
				break;
			memmove(f->text + at + 1, f->text + at, f->len - at);
			f->len++;
			fallthrough;
		case 3:
			f->text[at] = odd[fuzz_below(f, sizeof(odd) - 1)];
			break;
		default:
			to = fuzz_below(f, f->len);
			c = f->text[at];
			f->text[at] = f->text[to];
			f->text[to] = c;
		}
		f->text[f->len] = '\0';
	}
}

/* What a text is parsed as. */
enum fuzz_kind { FUZZ_TRIGGER, FUZZ_EXPR, FUZZ_KEY, FUZZ_VALUE, FUZZ_KINDS };

static const char * const fuzz_kinds[FUZZ_KINDS] = {
	"trigger", "expression", "key", "value",
};

/*
 * Parse @text as a @kind: a whole trigger is then built into a histogram
 * without a map and freed again. The verdict must be accept or refuse.
 */
static int fuzz_parse(struct kunit *test, struct hist_test_env *env,
		      const char *text, enum fuzz_kind kind)
{
	struct hist_data *hd;
	int ret;

	switch (kind) {
	case FUZZ_TRIGGER:
		ret = hist_test_attrs(env, text);
		if (ret)
			break;
		mutex_lock(&event_mutex);
		hd = hist_data_create(&env->ctx, &env->file, &env->attrs,
				      false);
		ret = PTR_ERR_OR_ZERO(hd);
		if (!ret)
			hist_data_destroy(hd);
		mutex_unlock(&event_mutex);
		break;
	case FUZZ_EXPR:
		ret = hist_test_parse(env, text);
		break;
	default:
		ret = hist_test_parse_field(env, text, kind == FUZZ_KEY);
	}
	/* ENOENT: nohitcount and nothing else to show, as upstream says */
	if (ret && ret != -EINVAL && ret != -ENOENT)
		KUNIT_FAIL(test, "\"%*pE\" as %s: %d", (int)strlen(text), text,
			   fuzz_kinds[kind], ret);
	return ret;
}

/* The test's record comes from no ring buffer to take a time from. */
static bool fuzz_reads_clock(const struct hist_field *hf)
{
	if (!hf)
		return false;
	return hf->fetch == HIST_FETCH_TIMESTAMP ||
	       hf->fetch == HIST_FETCH_TIMESTAMP_USECS ||
	       fuzz_reads_clock(hf->operands[0]) ||
	       fuzz_reads_clock(hf->operands[1]);
}

/*
 * An accepted operand evaluates against the record, and its canonical
 * text is accepted again as the same.
 */
static void fuzz_again(struct kunit *test, struct hist_test_env *env,
		       struct hist_fuzz *f, enum fuzz_kind kind)
{
	if (!fuzz_reads_clock(&env->hf))
		hist_test_value(env);
	strscpy(f->again, env->hf.spec);
	if (fuzz_parse(test, env, f->again, kind))
		KUNIT_FAIL(test, "\"%*pE\" as %s: canonical \"%s\" refused",
			   (int)f->len, f->text, fuzz_kinds[kind], f->again);
	else if (strcmp(env->hf.spec, f->again))
		KUNIT_FAIL(test, "\"%*pE\" as %s: canonical \"%s\" read back as \"%s\"",
			   (int)f->len, f->text, fuzz_kinds[kind], f->again,
			   env->hf.spec);
}

static void hist_test_fuzz_grammar(struct kunit *test)
{
	struct hist_test_env *env = test->priv;
	unsigned int tried[FUZZ_KINDS] = {}, accepted[FUZZ_KINDS] = {};
	struct hist_fuzz *f;
	unsigned int i;
	int kind;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->state = fuzz_seed;
	for (i = 0; i < fuzz_n; i++) {
		f->len = 0;
		f->text[0] = '\0';
		kind = fuzz_below(f, FUZZ_KINDS);
		f->clean = fuzz_below(f, 2);
		if (kind == FUZZ_TRIGGER)
			fuzz_trigger(f);
		else
			fuzz_expr(f, f->clean ? 2 : 4);
		if (!f->clean)
			fuzz_mangle(f);
		tried[kind]++;
		if (!fuzz_parse(test, env, f->text, kind)) {
			accepted[kind]++;
			if (kind != FUZZ_TRIGGER)
				fuzz_again(test, env, f, kind);
		}
		/* KASAN fails the running test too: say what it ran on */
		if (test->status == KUNIT_FAILURE) {
			kunit_err(test, "seed %llu, text %u failed: \"%*pE\"\n",
				  fuzz_seed, i, (int)f->len, f->text);
			break;
		}
		if (!(i % 256))
			cond_resched();
	}
	kunit_info(test, "seed %llu: %u texts\n", fuzz_seed, i);
	for (kind = 0; kind < FUZZ_KINDS; kind++)
		kunit_info(test, "%s: %u tried, %u accepted\n",
			   fuzz_kinds[kind], tried[kind], accepted[kind]);
}

/*
 * Nesting: a hit interrupted on its CPU by a hit of the same histogram.
 * An hrtimer pinned to the CPU fires every NEST_PERIOD_NS in hard
 * interrupt context and hits the histogram with a record of its own,
 * while the test, kept on that CPU, hits it in a loop with the usual
 * record.  Each side counts its own hits; the map must hold exactly
 * those counts under the two keys, with the value sums to match: a key
 * buffer or a sum that the interrupt overwrote in the middle of a hit
 * shows up as a third key, a lost hit or a wrong sum.  Without high
 * resolution timers the timer fires once a tick: 0.8 s at HZ=250.
 * Almost every interrupt hit lands inside a loop hit.
 *
 * On x86 the same is done with NMIs, which no lock or irq-off section of
 * the hit path holds back: a kthread on another CPU sends them one at a
 * time (the next once the last was handled, as NMIs do not queue), and
 * an NMI_LOCAL handler of ours hits the histogram.  Elsewhere KUnit has
 * no portable way to raise an NMI, and that half is skipped.
 */
#define NEST_IRQ_HITS	200
#define NEST_PERIOD_NS	(20 * NSEC_PER_USEC)
#define NEST_BATCH	64

enum hist_nest_source { NEST_TIMER, NEST_NMI };

struct hist_nest {
	struct hrtimer			timer;
	struct event_trigger_data	data;
	struct hist_test_rec		rec;		/* the interrupt's */
	struct task_struct		*nmi_sender;
	unsigned int			irq_hits;
	unsigned int			nested;
	unsigned int			cpu;
	bool				in_hit;
	bool				nmi_sent;
};

/* One hit from the interrupting side. */
static void hist_nest_hit(struct hist_nest *n)
{
	if (READ_ONCE(n->in_hit))
		n->nested++;
	hist_hit(&n->data, NULL, &n->rec, NULL);
	WRITE_ONCE(n->irq_hits, n->irq_hits + 1);
}

static enum hrtimer_restart hist_nest_fire(struct hrtimer *timer)
{
	struct hist_nest *n = container_of(timer, struct hist_nest, timer);

	hist_nest_hit(n);
	if (n->irq_hits >= NEST_IRQ_HITS)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(NEST_PERIOD_NS));
	return HRTIMER_RESTART;
}

#if HIST_TEST_NMI
/* The nest our NMIs are for; NULL outside the NMI half of the test. */
static struct hist_nest *hist_nmi_nest;

static int hist_nest_nmi(unsigned int type, struct pt_regs *regs)
{
	struct hist_nest *n = READ_ONCE(hist_nmi_nest);

	/* someone else's NMI, which its own handler is there to claim */
	if (!n || raw_smp_processor_id() != n->cpu || !READ_ONCE(n->nmi_sent))
		return NMI_DONE;
	hist_nest_hit(n);
	WRITE_ONCE(n->nmi_sent, false);
	return NMI_HANDLED;
}

static int hist_nest_nmi_sender(void *arg)
{
	struct hist_nest *n = arg;

	while (!kthread_should_stop()) {
		if (READ_ONCE(n->irq_hits) < NEST_IRQ_HITS &&
		    !READ_ONCE(n->nmi_sent)) {
			WRITE_ONCE(n->nmi_sent, true);
			__apic_send_IPI_mask(cpumask_of(n->cpu), NMI_VECTOR);
		}
		usleep_range(20, 50);
	}
	return 0;
}

/*
 * Stop sending and wait for the NMI on its way; then no handler is
 * left reading @arg.  A KUnit action, so that it also runs when the
 * test dies in the middle.
 */
static void hist_nest_nmi_end(void *arg)
{
	struct hist_nest *n = arg;
	unsigned long deadline = jiffies + HZ;

	kthread_stop(n->nmi_sender);
	while (READ_ONCE(n->nmi_sent) && time_before(jiffies, deadline))
		cpu_relax();
	WRITE_ONCE(hist_nmi_nest, NULL);
	/* NMI handlers run under RCU: one that read @n is done after this */
	synchronize_rcu();
}

/* Start sending NMIs to n->cpu, the current one, from another CPU. */
static int hist_nest_nmi_start(struct kunit *test, struct hist_nest *n)
{
	struct task_struct *sender;
	unsigned int other;

	other = cpumask_any_but(cpu_online_mask, n->cpu);
	if (other >= nr_cpu_ids)
		return -ENODEV;
	sender = kthread_create(hist_nest_nmi_sender, n, "hist_kunit_nmi");
	if (IS_ERR(sender))
		return PTR_ERR(sender);
	n->nmi_sender = sender;
	WRITE_ONCE(hist_nmi_nest, n);
	kthread_bind(sender, other);
	wake_up_process(sender);
	return kunit_add_action_or_reset(test, hist_nest_nmi_end, n);
}

static void hist_nest_nmi_unregister(void *unused)
{
	/* waits for a handler still running */
	unregister_nmi_handler(NMI_LOCAL, "hist_kunit");
}

static int hist_nest_nmi_register(struct kunit *test)
{
	int ret;

	ret = register_nmi_handler(NMI_LOCAL, hist_nest_nmi, 0, "hist_kunit");
	if (ret)
		return ret;
	return kunit_add_action_or_reset(test, hist_nest_nmi_unregister, NULL);
}
#else
static void hist_nest_nmi_end(void *arg)
{
}

static int hist_nest_nmi_start(struct kunit *test, struct hist_nest *n)
{
	return -EOPNOTSUPP;
}

static int hist_nest_nmi_register(struct kunit *test)
{
	return -EOPNOTSUPP;
}
#endif

static void hist_nest_cancel(void *timer)
{
	hrtimer_cancel(timer);
}

/*
 * Which side's entry @elt is, told by the sum of c: each side's record
 * has its own.  The hitcount must then be that side's count exactly.
 */
static void hist_nest_check(struct kunit *test, struct tracing_map_elt *elt,
			    const struct hist_nest *n, u64 proc_c,
			    unsigned int proc_hits, unsigned int *seen)
{
	u64 hits = tracing_map_read_sum(elt, 0);
	u64 sum = tracing_map_read_sum(elt, 1);

	if (sum == hits * n->rec.c) {
		KUNIT_EXPECT_EQ(test, hits, (u64)n->irq_hits);
		seen[1]++;
	} else if (sum == hits * proc_c) {
		KUNIT_EXPECT_EQ(test, hits, (u64)proc_hits);
		seen[0]++;
	} else {
		KUNIT_FAIL(test, "an entry of %llu hits sums to %llu", hits,
			   sum);
	}
}

static void hist_nest_one(struct kunit *test, const char *text,
			  enum hist_nest_source source)
{
	static const char * const source_name[] = {
		[NEST_TIMER] = "a timer", [NEST_NMI] = "NMIs",
	};
	static const struct tracing_map_sort_key by_hits = { .field_idx = 0 };
	struct hist_test_env *env = test->priv;
	unsigned int seen[2] = {};
	struct tracing_map_stats stats;
	struct tracing_map_elt **entries;
	unsigned long deadline;
	unsigned int proc_hits = 0, i;
	struct hist_data *hd;
	struct hist_nest *n;
	int ret;

	n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, n);
	KUNIT_ASSERT_EQ_MSG(test, hist_test_attrs(env, text), 0, "%s", text);
	mutex_lock(&event_mutex);
	hd = hist_test_create(env);
	mutex_unlock(&event_mutex);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(hd), "%s: %d", text,
			       PTR_ERR_OR_ZERO(hd));
	n->data.private_data = hd;
	n->rec = env->rec;
	n->rec.a = REC_A + 1;
	n->rec.b = REC_B - 1;
	n->rec.c = REC_C + 1;
	strscpy(n->rec.name, "interrupt");
	n->rec.frames[1] = REC_FRAME2;
	n->rec.frames[2] = REC_FRAME1;

	hrtimer_init(&n->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	n->timer.function = hist_nest_fire;
	/* if a hit oopses, the timer must not outlive @n */
	ret = kunit_add_action_or_reset(test, hist_nest_cancel, &n->timer);
	KUNIT_ASSERT_EQ(test, ret, 0);
	migrate_disable();
	n->cpu = smp_processor_id();
	if (source == NEST_NMI) {
		if (hist_nest_nmi_start(test, n)) {
			migrate_enable();
			mutex_lock(&event_mutex);
			hist_data_destroy(hd);
			mutex_unlock(&event_mutex);
			kunit_skip(test, "could not start the NMI sender");
		}
	} else {
		hrtimer_start(&n->timer, ns_to_ktime(NEST_PERIOD_NS),
			      HRTIMER_MODE_REL_PINNED_HARD);
	}
	deadline = jiffies + 20 * HZ;
	while (READ_ONCE(n->irq_hits) < NEST_IRQ_HITS &&
	       time_before(jiffies, deadline)) {
		/* as from a tracepoint: preemption off, interrupts on */
		preempt_disable();
		for (i = 0; i < NEST_BATCH; i++) {
			WRITE_ONCE(n->in_hit, true);
			hist_hit(&n->data, NULL, &env->rec, NULL);
			WRITE_ONCE(n->in_hit, false);
		}
		preempt_enable();
		proc_hits += NEST_BATCH;
		cond_resched();
	}
	if (source == NEST_NMI)
		kunit_release_action(test, hist_nest_nmi_end, n);
	hrtimer_cancel(&n->timer);
	migrate_enable();

	kunit_info(test, "%s: %u hits, %u from %s, %u of them nested\n",
		   text, proc_hits + n->irq_hits, n->irq_hits,
		   source_name[source], n->nested);
	KUNIT_EXPECT_EQ(test, n->irq_hits, NEST_IRQ_HITS);
	KUNIT_EXPECT_GT(test, n->nested, 0);
	tracing_map_read_stats(hd->map, &stats);
	KUNIT_EXPECT_EQ(test, stats.hits, (u64)proc_hits + n->irq_hits);
	KUNIT_EXPECT_EQ(test, stats.drops, 0);
	KUNIT_EXPECT_EQ(test, stats.entries, 2);
	ret = tracing_map_sort_entries(hd->map, &by_hits, 1, &entries);
	KUNIT_EXPECT_EQ(test, ret, 2);
	/* a corrupt key makes many entries: the first few tell enough */
	for (i = 0; i < ret && i < 4; i++)
		hist_nest_check(test, entries[i], n, env->rec.c, proc_hits,
				seen);
	KUNIT_EXPECT_EQ(test, seen[0], 1);
	KUNIT_EXPECT_EQ(test, seen[1], 1);
	if (ret > 0)
		tracing_map_free_entries(entries);
	mutex_lock(&event_mutex);
	hist_data_destroy(hd);
	mutex_unlock(&event_mutex);
}

/*
 * A snapshot that is no hist hit (a "snapshot" trigger on another event
 * while a hist's snapshot() is armed) asks the hist's conditional
 * snapshot callback with no condition: the hist keeps the snapshot
 * buffer for its own hits, and nothing is read from the missing one.
 */
static void hist_test_snapshot_no_cond(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, hist_snapshot_update(NULL, NULL));
}

/*
 * Each way the hit path builds its key: in registers, on the stack, in
 * a per-CPU pad (strings and stacks, and more than HIST_KEY_STACK_WORDS
 * numbers), with variables.
 */
static const char * const hist_nest_texts[] = {
	"keys=a:vals=c",
	"keys=a,b:vals=c",
	"keys=a,b,c,a:vals=c",		/* more numbers than the stack takes */
	"keys=name,a:vals=c",
	"keys=stack:vals=c",
	"keys=a:vals=c:v=c",
};

static void hist_nest_all(struct kunit *test, enum hist_nest_source source)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hist_nest_texts); i++) {
		if (test->status == KUNIT_FAILURE)
			break;
		hist_nest_one(test, hist_nest_texts[i], source);
	}
}

static void hist_test_nested_hits(struct kunit *test)
{
	hist_nest_all(test, NEST_TIMER);
}

static void hist_test_nmi_hits(struct kunit *test)
{
	if (!HIST_TEST_NMI)
		kunit_skip(test, "no way to raise an NMI here");
	if (num_online_cpus() < 2)
		kunit_skip(test, "no other CPU to send NMIs from");
	KUNIT_ASSERT_EQ(test, hist_nest_nmi_register(test), 0);
	hist_nest_all(test, NEST_NMI);
}

/*
 * Aggregated values under concurrent hits of one key: this CPU hits it
 * in batches, a hard interrupt timer on this CPU hits it in between
 * (nested in a batch or not), a kthread on another CPU hits it all the
 * while, and between batches this CPU reads the entry.  A maximum read
 * never goes down and a minimum never up; at the end they, the
 * hitcount and the 128-bit sum of the mean are exactly what the hitters
 * gave.
 */
struct hist_agg_racer {
	struct event_trigger_data	*data;
	struct hist_test_rec		rec;
	u64				state;
	u64				max;
	u64				min;
	u64				sum[2];
	u64				hits;
};

struct hist_agg_race {
	struct hrtimer		timer;
	struct hist_agg_racer	racer[3];	/* this CPU, its timer, the other */
	struct task_struct	*other;
};

static void hist_agg_race_hit(struct hist_agg_racer *r)
{
	/* at most 2^48: the sums may pass 2^64, as they must be able to */
	u64 v = hist_test_rand_mag(&r->state) >> 16, old = r->sum[0];

	r->rec.c = v;
	hist_hit(r->data, NULL, &r->rec, NULL);
	r->max = max(r->max, v);
	r->min = min(r->min, v);
	r->sum[0] += v;
	r->sum[1] += r->sum[0] < old;
	WRITE_ONCE(r->hits, r->hits + 1);
}

static enum hrtimer_restart hist_agg_race_fire(struct hrtimer *timer)
{
	struct hist_agg_race *race = container_of(timer, struct hist_agg_race,
						  timer);

	hist_agg_race_hit(&race->racer[1]);
	if (race->racer[1].hits >= NEST_IRQ_HITS)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(NEST_PERIOD_NS));
	return HRTIMER_RESTART;
}

static int hist_agg_race_other(void *arg)
{
	struct hist_agg_racer *r = arg;
	unsigned int i;

	while (!kthread_should_stop()) {
		preempt_disable();
		for (i = 0; i < NEST_BATCH; i++)
			hist_agg_race_hit(r);
		preempt_enable();
		cond_resched();
	}
	return 0;
}

static void hist_agg_race_stop(void *arg)
{
	struct hist_agg_race *race = arg;

	hrtimer_cancel(&race->timer);
	if (race->other)
		kthread_stop(race->other);
	race->other = NULL;
}

static void hist_test_agg_concurrent(struct kunit *test)
{
	static const char text[] = "keys=a:vals=c.max,c.min,c.avg";
	struct hist_test_env *env = test->priv;
	u64 key = REC_A, hits = 0, max = 0, min = U64_MAX, sum[2] = {};
	u64 seen_max = 0, seen_min = U64_MAX, old;
	unsigned int backwards = 0, reads = 0;
	const struct hist_field *vmax, *vmin, *vavg;
	struct event_trigger_data *data;
	struct tracing_map_elt *elt;
	struct hist_agg_race *race;
	unsigned long deadline;
	unsigned int i, other;
	struct hist_data *hd;
	int ret;

	if (num_online_cpus() < 2)
		kunit_skip(test, "no other CPU to hit from");
	race = kunit_kzalloc(test, sizeof(*race), GFP_KERNEL);
	data = kunit_kzalloc(test, sizeof(*data), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, race);
	KUNIT_ASSERT_NOT_NULL(test, data);
	KUNIT_ASSERT_EQ(test, hist_test_attrs(env, text), 0);
	mutex_lock(&event_mutex);
	hd = hist_test_create(env);
	mutex_unlock(&event_mutex);
	KUNIT_ASSERT_FALSE(test, IS_ERR(hd));
	data->private_data = hd;
	vmax = &hd->vals[1];
	vmin = &hd->vals[2];
	vavg = &hd->vals[3];
	for (i = 0; i < ARRAY_SIZE(race->racer); i++) {
		race->racer[i].data = data;
		race->racer[i].rec = env->rec;
		race->racer[i].state = i + 1;
		race->racer[i].min = U64_MAX;
	}

	hrtimer_init(&race->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	race->timer.function = hist_agg_race_fire;
	ret = kunit_add_action_or_reset(test, hist_agg_race_stop, race);
	if (ret) {
		KUNIT_FAIL(test, "no action: %d", ret);
		goto out;
	}
	migrate_disable();
	other = cpumask_any_but(cpu_online_mask, smp_processor_id());
	race->other = kthread_create(hist_agg_race_other, &race->racer[2],
				     "hist_kunit_agg");
	if (IS_ERR(race->other)) {
		race->other = NULL;
		migrate_enable();
		KUNIT_FAIL(test, "no kthread");
		goto out;
	}
	kthread_bind(race->other, other);
	wake_up_process(race->other);
	hrtimer_start(&race->timer, ns_to_ktime(NEST_PERIOD_NS),
		      HRTIMER_MODE_REL_PINNED_HARD);
	deadline = jiffies + 20 * HZ;
	while ((READ_ONCE(race->racer[1].hits) < NEST_IRQ_HITS ||
		READ_ONCE(race->racer[2].hits) < 10 * NEST_BATCH) &&
	       time_before(jiffies, deadline)) {
		preempt_disable();
		for (i = 0; i < NEST_BATCH; i++)
			hist_agg_race_hit(&race->racer[0]);
		preempt_enable();
		elt = tracing_map_lookup(hd->map, &key);
		if (!elt)
			continue;
		old = seen_max;
		seen_max = hist_val_read(vmax, elt);
		backwards += seen_max < old;
		old = seen_min;
		seen_min = hist_val_read(vmin, elt);
		backwards += seen_min > old;
		reads++;
		cond_resched();
	}
	kunit_release_action(test, hist_agg_race_stop, race);
	migrate_enable();

	for (i = 0; i < ARRAY_SIZE(race->racer); i++) {
		const struct hist_agg_racer *r = &race->racer[i];

		hits += r->hits;
		max = max(max, r->max);
		min = min(min, r->min);
		old = sum[0];
		sum[0] += r->sum[0];
		sum[1] += r->sum[1] + (sum[0] < old);
	}
	kunit_info(test, "%llu hits, %llu from a timer, %llu from another CPU, %u reads\n",
		   hits, race->racer[1].hits, race->racer[2].hits, reads);
	KUNIT_EXPECT_EQ(test, race->racer[1].hits, NEST_IRQ_HITS);
	KUNIT_EXPECT_GT(test, reads, 0);
	KUNIT_EXPECT_EQ_MSG(test, backwards, 0,
			    "a maximum read went down or a minimum up");
	elt = tracing_map_lookup(hd->map, &key);
	KUNIT_EXPECT_NOT_NULL(test, elt);
	if (!elt)
		goto out;
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, 0), hits);
	KUNIT_EXPECT_EQ(test, hist_val_read(vmax, elt), max);
	KUNIT_EXPECT_EQ(test, hist_val_read(vmin, elt), min);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, vavg->map_idx), sum[0]);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, vavg->map_idx + 1),
			sum[1]);
	KUNIT_EXPECT_EQ(test, hist_val_read(vavg, elt),
			hist_avg128(sum, hits, false));
out:
	mutex_lock(&event_mutex);
	hist_data_destroy(hd);
	mutex_unlock(&event_mutex);
}

/*
 * enable_hist:...:N and disable_hist:...:N fire N times in all, however
 * many CPUs hit their event at once.  This CPU and a kthread on another
 * take from one count until it is gone, then go on trying a while: the
 * takes that succeeded must add up to N, and the count must stay 0 (a
 * count read and written back loses takes, and two takers that both saw
 * 1 could take it to -1, which means no limit).  Such a loss needs the
 * two CPUs to run truly at once: under single-threaded emulation this
 * case passes whatever the code, and KCSAN (make check KCSAN=1) is what
 * catches the plain read and write.
 */
#define COUNT_TAKES	20000UL

struct hist_count_race {
	struct event_trigger_data	data;
	unsigned long			taken[2];	/* this CPU, the other */
	unsigned long			tries_after[2];	/* once 0 was seen */
};

static void hist_count_race_take(struct hist_count_race *race, int who)
{
	unsigned int i;

	preempt_disable();
	for (i = 0; i < NEST_BATCH; i++) {
		if (hist_enable_count(&race->data, NULL, NULL, NULL))
			WRITE_ONCE(race->taken[who], race->taken[who] + 1);
		else
			WRITE_ONCE(race->tries_after[who],
				   race->tries_after[who] + 1);
	}
	preempt_enable();
}

static int hist_count_race_other(void *arg)
{
	while (!kthread_should_stop()) {
		hist_count_race_take(arg, 1);
		cond_resched();
	}
	return 0;
}

static void hist_count_race_stop(void *arg)
{
	kthread_stop(arg);
}

static void hist_test_enable_count(struct kunit *test)
{
	struct hist_count_race *race;
	struct task_struct *other;
	unsigned long deadline;
	int ret;

	if (num_online_cpus() < 2)
		kunit_skip(test, "no other CPU to take from");
	race = kunit_kzalloc(test, sizeof(*race), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, race);
	race->data.count = COUNT_TAKES;

	migrate_disable();
	other = kthread_create(hist_count_race_other, race, "hist_kunit_count");
	if (IS_ERR(other)) {
		migrate_enable();
		KUNIT_FAIL(test, "no kthread");
		return;
	}
	kthread_bind(other,
		     cpumask_any_but(cpu_online_mask, smp_processor_id()));
	ret = kunit_add_action_or_reset(test, hist_count_race_stop, other);
	if (ret) {
		migrate_enable();
		KUNIT_FAIL(test, "no action: %d", ret);
		return;
	}
	wake_up_process(other);
	deadline = jiffies + 20 * HZ;
	while ((READ_ONCE(race->tries_after[0]) < 10 * NEST_BATCH ||
		READ_ONCE(race->tries_after[1]) < 10 * NEST_BATCH) &&
	       time_before(jiffies, deadline)) {
		hist_count_race_take(race, 0);
		cond_resched();
	}
	kunit_release_action(test, hist_count_race_stop, other);
	migrate_enable();

	kunit_info(test, "%lu taken here, %lu on the other CPU\n",
		   race->taken[0], race->taken[1]);
	KUNIT_EXPECT_GT(test, race->tries_after[1], 0);
	KUNIT_EXPECT_EQ(test, race->taken[0] + race->taken[1], COUNT_TAKES);
	KUNIT_EXPECT_EQ(test, race->data.count, 0);
}

/* The ends of a count: 0 fires no more, -1 (no count given) for ever. */
static void hist_test_enable_count_ends(struct kunit *test)
{
	struct event_trigger_data data = { .count = 0 };

	KUNIT_EXPECT_FALSE(test, hist_enable_count(&data, NULL, NULL, NULL));
	KUNIT_EXPECT_EQ(test, data.count, 0);
	data.count = 1;
	KUNIT_EXPECT_TRUE(test, hist_enable_count(&data, NULL, NULL, NULL));
	KUNIT_EXPECT_EQ(test, data.count, 0);
	KUNIT_EXPECT_FALSE(test, hist_enable_count(&data, NULL, NULL, NULL));
	KUNIT_EXPECT_EQ(test, data.count, 0);
	data.count = -1UL;
	KUNIT_EXPECT_TRUE(test, hist_enable_count(&data, NULL, NULL, NULL));
	KUNIT_EXPECT_TRUE(test, hist_enable_count(&data, NULL, NULL, NULL));
	KUNIT_EXPECT_EQ(test, data.count, -1UL);
}

/*
 * enable_hist and disable_hist triggers write the paused flag from any
 * event, so they may fire while a clear is emptying the map.  The clear
 * must still keep every hit out until the map is whole, and must leave
 * the paused flag as they set it: a clear that paused the histogram
 * itself would let an enable_hist restart hits in the middle of it, and
 * its end would undo either trigger.
 */
static void hist_test_clear_vs_enable(struct kunit *test)
{
	struct hist_test_env *env = test->priv;
	struct event_trigger_data *data;
	struct tracing_map_stats stats;
	struct hist_data *hd;

	data = kunit_kzalloc(test, sizeof(*data), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, data);
	KUNIT_ASSERT_EQ(test, hist_test_attrs(env, "keys=a:vals=c"), 0);
	mutex_lock(&event_mutex);
	hd = hist_test_create(env);
	mutex_unlock(&event_mutex);
	KUNIT_ASSERT_FALSE(test, IS_ERR(hd));
	data->private_data = hd;

	mutex_lock(&event_mutex);
	hist_clear_start(data);
	/* enable_hist fires, then the event, as the trigger core runs it */
	WRITE_ONCE(data->paused, false);
	if (!READ_ONCE(data->paused)) {
		preempt_disable();	/* as a tracepoint calls it */
		hist_hit(data, NULL, &env->rec, NULL);
		preempt_enable();
	}
	tracing_map_read_stats(hd->map, &stats);
	KUNIT_EXPECT_EQ_MSG(test, stats.hits, 0, "a hit reached a map being cleared");
	hist_clear_finish(data);
	KUNIT_EXPECT_FALSE_MSG(test, data->paused, "the clear undid enable_hist");

	hist_clear_start(data);
	WRITE_ONCE(data->paused, true);		/* disable_hist fires */
	hist_clear_finish(data);
	KUNIT_EXPECT_TRUE_MSG(test, data->paused, "the clear undid disable_hist");

	/* a clear alone leaves the trigger as it found it, either way */
	hist_clear_start(data);
	hist_clear_finish(data);
	KUNIT_EXPECT_TRUE(test, data->paused);
	data->paused = false;
	hist_clear_start(data);
	hist_clear_finish(data);
	KUNIT_EXPECT_FALSE(test, data->paused);
	preempt_disable();
	hist_hit(data, NULL, &env->rec, NULL);
	preempt_enable();
	tracing_map_read_stats(hd->map, &stats);
	KUNIT_EXPECT_EQ(test, stats.hits, 1);
	hist_data_destroy(hd);
	mutex_unlock(&event_mutex);
}

/* The hits of @hd's map so far. */
static u64 hist_test_hits(const struct hist_data *hd)
{
	struct tracing_map_stats stats;

	tracing_map_read_stats(hd->map, &stats);
	return stats.hits;
}

/* The hit count of the entry of the one-number key @key, 0 if none. */
static u64 hist_test_count(const struct hist_data *hd, u64 key)
{
	struct tracing_map_elt *elt = tracing_map_lookup(hd->map, &key);

	return elt ? hist_val_read(&hd->vals[0], elt) : 0;
}

/* A hit of @data, as a tracepoint makes it. */
static void hist_test_hit(struct hist_test_env *env,
			  struct event_trigger_data *data)
{
	preempt_disable();
	hist_hit(data, NULL, &env->rec, NULL);
	preempt_enable();
}

/*
 * Make a histogram from @text on env->file, its trigger @data, which is
 * put on the event's list when @listed.  An ERR_PTR on failure.
 */
static struct hist_data *hist_test_trigger(struct kunit *test,
					   struct event_trigger_data *data,
					   const char *text, bool listed)
{
	static struct event_command cmd = { .trigger_type = ETT_EVENT_HIST };
	struct hist_test_env *env = test->priv;
	struct hist_data *hd;

	if (hist_test_attrs(env, text))
		return ERR_PTR(-EINVAL);
	mutex_lock(&event_mutex);
	hd = hist_test_create(env);
	if (!IS_ERR(hd)) {
		data->private_data = hd;
		data->cmd_ops = &cmd;
		/* as hist_trigger_create() makes it: see hist_set_paused() */
		data->paused = hd->same_hit;
		hd->trigger = data;
		if (listed)
			list_add_tail(&data->list, &env->file.triggers);
	}
	mutex_unlock(&event_mutex);
	return hd;
}

/* Undo hist_test_trigger(), of a listed trigger. */
static void hist_test_untrigger(struct event_trigger_data *data)
{
	mutex_lock(&event_mutex);
	hist_reader_unlink(data->private_data);
	list_del(&data->list);
	hist_data_destroy(data->private_data);
	mutex_unlock(&event_mutex);
}

/*
 * A trigger keyed by another one's variable counts what that trigger set
 * in the same hit, whatever order the trigger core calls the two in:
 * the reader's own call counts nothing, before or after the definer's;
 * the definer's hit counts it.  A hit the core does not call the
 * definer for (the definer paused, or its filter failed) is not
 * counted, nor one the reader is paused for.
 */
static void hist_test_same_hit_order(struct kunit *test)
{
	struct hist_test_env *env = test->priv;
	struct event_trigger_data *def, *rdr;
	struct hist_data *dhd, *rhd;
	u64 hits[4];

	def = kunit_kzalloc(test, sizeof(*def), GFP_KERNEL);
	rdr = kunit_kzalloc(test, sizeof(*rdr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, def);
	KUNIT_ASSERT_NOT_NULL(test, rdr);
	dhd = hist_test_trigger(test, def, "keys=a:v=c", true);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dhd));
	rhd = hist_test_trigger(test, rdr, "keys=$v.log2", true);
	if (IS_ERR(rhd)) {
		KUNIT_FAIL(test, "keys=$v.log2: %ld", PTR_ERR(rhd));
		hist_test_untrigger(def);
		return;
	}
	mutex_lock(&event_mutex);
	hist_reader_link(rhd);
	mutex_unlock(&event_mutex);
	KUNIT_EXPECT_TRUE(test, rhd->same_hit);
	KUNIT_EXPECT_EQ(test, rhd->hit_path, HIST_PATH_SAME_HIT);

	/* the core calls the reader first, then the definer, then again */
	hist_test_hit(env, rdr);
	hits[0] = hist_test_hits(rhd);
	hist_test_hit(env, def);
	hits[1] = hist_test_hits(rhd);
	hist_test_hit(env, rdr);
	hits[2] = hist_test_hits(rhd);
	KUNIT_EXPECT_EQ(test, hits[0], 0);
	KUNIT_EXPECT_EQ(test, hits[1], 1);
	KUNIT_EXPECT_EQ(test, hits[2], 1);

	/* the reader paused: the definer counts, the reader does not */
	hist_set_paused(rdr, true);
	hist_test_hit(env, def);
	KUNIT_EXPECT_TRUE(test, hist_paused(rdr));
	hist_set_paused(rdr, false);
	KUNIT_EXPECT_FALSE(test, hist_paused(rdr));
	/* and the core never calls it, paused or not */
	KUNIT_EXPECT_TRUE(test, READ_ONCE(rdr->paused));
	KUNIT_EXPECT_EQ(test, hist_test_hits(dhd), 2);
	KUNIT_EXPECT_EQ(test, hist_test_hits(rhd), 1);

	/* a hit the definer is skipped for: only the reader is called */
	env->rec.c = 1;
	hist_test_hit(env, rdr);
	hits[3] = hist_test_hits(rhd);
	/* and the next hit, the definer's too, counts its own value */
	hist_test_hit(env, def);
	KUNIT_EXPECT_EQ(test, hits[3], 1);
	KUNIT_EXPECT_EQ(test, hist_test_hits(rhd), 2);
	KUNIT_EXPECT_EQ(test, hist_test_count(rhd, order_base_2(REC_C)), 1);
	KUNIT_EXPECT_EQ(test, hist_test_count(rhd, 0), 1);

	hist_test_untrigger(rdr);
	hist_test_untrigger(def);
}

/* Wait, up to two seconds, for the reclaim work to take a batch. */
static bool hist_test_batch_taken(unsigned long batches)
{
	unsigned int ms;

	for (ms = 0; ms < 2000; ms++) {
		if (READ_ONCE(hist_reclaim_batches) != batches)
			return true;
		mdelay(1);
	}
	return false;
}

/*
 * Retired triggers are freed only once no hit can be in them: three
 * queued while this CPU is inside a hit (preemption off, as on the hit
 * path) stay whole while the reclaim work waits on the other CPU, and
 * a hit may still use them; once the hit ends they are freed, in fewer
 * batches than triggers.
 */
static void hist_test_reclaim_waits(struct kunit *test)
{
	struct hist_test_env *env = test->priv;
	struct event_trigger_data *data[3];
	unsigned long batches, reclaimed, freed_early;
	struct hist_data *hd[3];
	u64 hits[2];
	bool taken;
	int i, made;

	if (num_online_cpus() < 2)
		kunit_skip(test, "the reclaim work needs another CPU to wait on");
	for (made = 0; made < ARRAY_SIZE(data); made++) {
		/* freed by the reclaim work, as the trigger core's are */
		data[made] = kzalloc(sizeof(*data[made]), GFP_KERNEL);
		if (!data[made])
			break;
		hd[made] = hist_test_trigger(test, data[made], "keys=a", false);
		if (IS_ERR(hd[made])) {
			kfree(data[made]);
			break;
		}
	}
	if (made < ARRAY_SIZE(data)) {
		KUNIT_FAIL(test, "could not make trigger %d", made);
		goto out_free;
	}
	/* nothing of an earlier test in the queue */
	hist_reclaim_wait();
	batches = READ_ONCE(hist_reclaim_batches);
	reclaimed = READ_ONCE(hist_reclaimed);

	/* no KUNIT_EXPECT in here: a failure's report may sleep */
	preempt_disable();
	hist_hit(data[0], NULL, &env->rec, NULL);
	for (i = 0; i < ARRAY_SIZE(data); i++)
		hist_reclaim_queue_add(data[i]);
	taken = hist_test_batch_taken(batches);
	/* the work now waits for this CPU: give it time to go wrong */
	mdelay(50);
	freed_early = READ_ONCE(hist_reclaimed) - reclaimed;
	for (i = 0; i < ARRAY_SIZE(data); i++)
		hist_hit(data[i], NULL, &env->rec, NULL);
	hits[0] = hist_test_hits(hd[0]);
	hits[1] = hist_test_hits(hd[2]);
	preempt_enable();

	KUNIT_EXPECT_TRUE(test, taken);
	KUNIT_EXPECT_EQ(test, freed_early, 0);
	KUNIT_EXPECT_EQ(test, hits[0], 2);
	KUNIT_EXPECT_EQ(test, hits[1], 1);
	hist_reclaim_wait();
	KUNIT_EXPECT_EQ(test, READ_ONCE(hist_reclaimed),
			reclaimed + ARRAY_SIZE(data));
	KUNIT_EXPECT_LE(test, READ_ONCE(hist_reclaim_batches), batches + 2);
	return;

out_free:
	mutex_lock(&event_mutex);
	for (i = 0; i < made; i++) {
		hist_data_destroy(hd[i]);
		kfree(data[i]);
	}
	mutex_unlock(&event_mutex);
}

/*
 * What a trigger keyed by variables may not do, each refused with
 * -EINVAL: a variable no trigger on the event sets, variables of two
 * triggers, a string or a stack, a stack walked from inside another
 * trigger's hit, a name to share, a modifier that does not fit, a key
 * that is the trigger's own variable with a modifier.  And what is
 * still taken: a key that is the trigger's own variable, defined in
 * keys= (upstream's), beside one of another trigger or not.
 */
static void hist_test_same_hit_refused(struct kunit *test)
{
	static const char * const refused[] = {
		"keys=$nosuch",
		"keys=$v,$w2",
		"keys=$s",
		"keys=$st",
		"keys=$v,common_stacktrace",
		"keys=$v:name=shared",
		"keys=$v.execname",
		"keys=$v.usecs",
		"keys=$v.stacktrace",
		"keys=$v:vals=$v.log2",
		"keys=$v,$x.log2:x=a",
	};
	static const char * const taken[] = {
		"keys=x=a,$x",
		"keys=$v,x=a,$x",
		"keys=$v.hex:vals=hitcount,$v.max,$v.p99",
	};
	static const char * const defs[] = {
		"keys=a:v=c:s=name", "keys=b:w2=c", "keys=c:st=stack",
	};
	struct event_trigger_data *def[ARRAY_SIZE(defs)], *data;
	struct hist_data *hd;
	unsigned int i, n;

	data = kunit_kzalloc(test, sizeof(*data), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, data);
	for (n = 0; n < ARRAY_SIZE(defs); n++) {
		def[n] = kunit_kzalloc(test, sizeof(*def[n]), GFP_KERNEL);
		if (!def[n])
			break;
		hd = hist_test_trigger(test, def[n], defs[n], true);
		if (IS_ERR(hd)) {
			KUNIT_FAIL(test, "%s: %ld", defs[n], PTR_ERR(hd));
			break;
		}
	}
	for (i = 0; n == ARRAY_SIZE(defs) && i < ARRAY_SIZE(refused); i++) {
		hd = hist_test_trigger(test, data, refused[i], false);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(hd), -EINVAL, "\"%s\"",
				    refused[i]);
		if (!IS_ERR(hd)) {
			mutex_lock(&event_mutex);
			hist_data_destroy(hd);
			mutex_unlock(&event_mutex);
		}
	}
	for (i = 0; n == ARRAY_SIZE(defs) && i < ARRAY_SIZE(taken); i++) {
		hd = hist_test_trigger(test, data, taken[i], false);
		KUNIT_EXPECT_FALSE_MSG(test, IS_ERR(hd), "\"%s\": %d", taken[i],
				       PTR_ERR_OR_ZERO(hd));
		if (IS_ERR(hd))
			continue;
		/* one reference per variable of the other trigger read */
		KUNIT_EXPECT_EQ_MSG(test, hd->same_hit, i > 0, "\"%s\"", taken[i]);
		KUNIT_EXPECT_EQ_MSG(test, hd->n_refs, i > 0 ? 1 : 0, "\"%s\"",
				    taken[i]);
		mutex_lock(&event_mutex);
		hist_data_destroy(hd);
		mutex_unlock(&event_mutex);
	}
	while (n--)
		hist_test_untrigger(def[n]);
}

static struct kunit_case hist_test_cases[] = {
	KUNIT_CASE(hist_test_div_const),
	KUNIT_CASE(hist_test_div_random),
	KUNIT_CASE(hist_test_expr_values),
	KUNIT_CASE(hist_test_expr_fold),
	KUNIT_CASE(hist_test_expr_div),
	KUNIT_CASE(hist_test_expr_string),
	KUNIT_CASE(hist_test_expr_stack),
	KUNIT_CASE(hist_test_expr_modifiers),
	KUNIT_CASE(hist_test_expr_own_var),
	KUNIT_CASE(hist_test_expr_refused),
	KUNIT_CASE(hist_test_attrs_all),
	KUNIT_CASE(hist_test_attrs_defaults),
	KUNIT_CASE(hist_test_attrs_size),
	KUNIT_CASE(hist_test_attrs_limits),
	KUNIT_CASE(hist_test_limits_costliest),
	KUNIT_CASE(hist_test_attrs_refused),
	KUNIT_CASE(hist_test_print_trigger),
	KUNIT_CASE(hist_test_snapshot_no_cond),
	KUNIT_CASE(hist_test_fuzz_grammar),
	KUNIT_CASE_SLOW(hist_test_nested_hits),
	KUNIT_CASE_SLOW(hist_test_nmi_hits),
	KUNIT_CASE(hist_test_clear_vs_enable),
	KUNIT_CASE(hist_test_same_hit_order),
	KUNIT_CASE(hist_test_same_hit_refused),
	KUNIT_CASE_SLOW(hist_test_reclaim_waits),
	KUNIT_CASE(hist_test_enable_count_ends),
	KUNIT_CASE_SLOW(hist_test_enable_count),
	KUNIT_CASE_SLOW(hist_test_agg_concurrent),
	{}
};

static struct kunit_suite hist_test_suite = {
	.name = "trace_hist",
	.init = hist_test_init,
	.exit = hist_test_exit,
	.test_cases = hist_test_cases,
};

kunit_test_suite(hist_test_suite);
