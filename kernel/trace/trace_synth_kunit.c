// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for synthetic event definitions: what a definition turns
 * into (types, sizes, signedness, record layout, print fmt), through the
 * in-kernel API that trace_boot.c and modules use, and what it refuses.
 * The tracefs side is covered by the ftrace selftests.
 */

#include <kunit/test.h>
#include <linux/trace_events.h>

#include "trace.h"
#include "trace_synth.h"

/* Every test's events start with this, so a failed test leaves no trace. */
#define T_NAME(n)	"kunit_synth_" n

static void synth_test_exit(struct kunit *test)
{
	static const char * const names[] = {
		T_NAME("types"), T_NAME("layout"), T_NAME("cmd"),
		T_NAME("dup"), T_NAME("many"), T_NAME("bad"),
		T_NAME("wide_dyn"), T_NAME("wide_fixed"), T_NAME("api"),
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		synth_event_delete(names[i]);
}

/*
 * Look @name up.  Only this suite defines kunit_synth_* events, so the
 * definition stays as it is until the suite removes it.
 */
static struct synth_event *synth_test_get(struct kunit *test, const char *name)
{
	struct synth_event *se;

	mutex_lock(&event_mutex);
	se = synth_event_find(name);
	mutex_unlock(&event_mutex);
	KUNIT_ASSERT_NOT_NULL(test, se);
	return se;
}

static void synth_test_types(struct kunit *test)
{
	static struct synth_field_desc fields[] = {
		{ "s8", "a" }, { "u16", "b" }, { "unsigned int", "c" },
		{ "long", "d" }, { "pid_t", "e" }, { "gfp_t", "f" },
		{ "bool", "g" }, { "char[16]", "h" }, { "char", "i[8]" },
		{ "char[]", "j" }, { "unsigned long[]", "k" },
		{ "unsigned short", "l" },
	};
	static const struct {
		const char		*decl;
		const char		*type;
		enum synth_field_kind	kind;
		unsigned int		size;
		bool			is_signed;
	} want[] = {
		{ "s8", "s8", SYNTH_FIELD_NUMBER, 1, true },
		{ "u16", "u16", SYNTH_FIELD_NUMBER, 2, false },
		{ "unsigned int", "unsigned int", SYNTH_FIELD_NUMBER, 4, false },
		{ "long", "long", SYNTH_FIELD_NUMBER, sizeof(long), true },
		{ "pid_t", "pid_t", SYNTH_FIELD_NUMBER, 4, true },
		{ "gfp_t", "gfp_t", SYNTH_FIELD_NUMBER, 4, false },
		{ "bool", "bool", SYNTH_FIELD_NUMBER, 1, true },
		{ "char[16]", "char[16]", SYNTH_FIELD_STRING, 16, false },
		{ "char[8]", "char[8]", SYNTH_FIELD_STRING, 8, false },
		{ "char[]", "__data_loc char[]", SYNTH_FIELD_DYN_STRING, 4, false },
		{ "unsigned long[]", "__data_loc unsigned long[]",
		  SYNTH_FIELD_STACK, 4, false },
		{ "unsigned short", "unsigned short", SYNTH_FIELD_NUMBER, 2, false },
	};
	struct synth_event *se;
	size_t i;

	KUNIT_ASSERT_EQ(test, 0, synth_event_create(T_NAME("types"), fields,
						    ARRAY_SIZE(fields), NULL));
	se = synth_test_get(test, T_NAME("types"));
	KUNIT_ASSERT_EQ(test, se->n_fields, ARRAY_SIZE(want));
	KUNIT_EXPECT_EQ(test, se->n_dynamic, 2);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const struct synth_field *f = &se->fields[i];

		KUNIT_EXPECT_STREQ(test, f->decl, want[i].decl);
		KUNIT_EXPECT_STREQ(test, f->type, want[i].type);
		KUNIT_EXPECT_EQ(test, f->kind, want[i].kind);
		KUNIT_EXPECT_EQ(test, f->size, want[i].size);
		KUNIT_EXPECT_EQ(test, f->is_signed, want[i].is_signed);
	}
	KUNIT_EXPECT_STREQ(test, se->fields[8].name, "i");
	KUNIT_EXPECT_TRUE(test, se->fields[5].is_gfp);
	KUNIT_EXPECT_FALSE(test, se->fields[4].is_gfp);
	KUNIT_EXPECT_EQ(test, 0, synth_event_delete(T_NAME("types")));
	KUNIT_EXPECT_EQ(test, -ENOENT, synth_event_delete(T_NAME("types")));
}

/* Natural alignment, strings packed, data_loc words aligned to 4. */
static void synth_test_layout(struct kunit *test)
{
	static struct synth_field_desc fields[] = {
		{ "u8", "a" }, { "u64", "b" }, { "char[3]", "c" },
		{ "u16", "d" }, { "char[]", "e" }, { "u8", "f" },
		{ "long[]", "g" },
	};
	static const unsigned int offsets[] = { 8, 16, 24, 28, 32, 36, 40 };
	struct synth_event *se;
	size_t i;

	KUNIT_ASSERT_EQ(test, 0, synth_event_create(T_NAME("layout"), fields,
						    ARRAY_SIZE(fields), NULL));
	se = synth_test_get(test, T_NAME("layout"));
	for (i = 0; i < ARRAY_SIZE(offsets); i++)
		KUNIT_EXPECT_EQ_MSG(test, se->fields[i].offset, offsets[i],
				    "field %s", se->fields[i].name);
	KUNIT_EXPECT_EQ(test, se->fixed_size, 44);
	KUNIT_EXPECT_STREQ(test, se->call.print_fmt,
			   "\"a=%u, b=%llu, c=%s, d=%u, e=%s, f=%u, g=%s\", REC->a, REC->b, REC->c, REC->d, __get_str(e), REC->f, __get_stacktrace(g)");
	KUNIT_EXPECT_PTR_EQ(test, synth_event_of_call(&se->call), se);
}

/*
 * The command builder, as trace_boot.c uses it: a field given as one
 * string, and fields without ';' between them as older users wrote.
 */
static void synth_test_cmd(struct kunit *test)
{
	struct dynevent_cmd cmd;
	struct synth_event *se;
	char *buf;

	buf = kunit_kzalloc(test, MAX_DYNEVENT_CMD_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	synth_event_cmd_init(&cmd, buf, MAX_DYNEVENT_CMD_LEN);
	KUNIT_ASSERT_EQ(test, 0, synth_event_gen_cmd_start(&cmd, T_NAME("cmd"),
							   NULL, "u64", "lat"));
	KUNIT_ASSERT_EQ(test, 0,
			synth_event_add_field_str(&cmd, "pid_t pid char comm[16]"));
	KUNIT_ASSERT_EQ(test, 0, synth_event_gen_cmd_end(&cmd));

	se = synth_test_get(test, T_NAME("cmd"));
	KUNIT_ASSERT_EQ(test, se->n_fields, 3);
	KUNIT_EXPECT_STREQ(test, se->fields[0].name, "lat");
	KUNIT_EXPECT_STREQ(test, se->fields[1].name, "pid");
	KUNIT_EXPECT_STREQ(test, se->fields[2].name, "comm");
	KUNIT_EXPECT_STREQ(test, se->fields[2].decl, "char[16]");
	KUNIT_EXPECT_EQ(test, se->fields[2].offset, 20);

	/* The same name again is refused and leaves the first alone. */
	synth_event_cmd_init(&cmd, buf, MAX_DYNEVENT_CMD_LEN);
	KUNIT_ASSERT_EQ(test, 0, synth_event_gen_cmd_start(&cmd, T_NAME("cmd"),
							   NULL, "u32", "x"));
	KUNIT_EXPECT_EQ(test, -EEXIST, synth_event_gen_cmd_end(&cmd));
	KUNIT_EXPECT_PTR_EQ(test, synth_test_get(test, T_NAME("cmd")), se);
}

static void synth_test_refused(struct kunit *test)
{
	static const char * const bad[][2] = {
		{ "u128", "x" }, { "unsigned", "x" }, { "char[0]", "x" },
		{ "char[257]", "x" }, { "char[8", "x" }, { "u64[4]", "x" },
		{ "long[4]", "x" }, { "u64", "x-y" }, { "u64", "9x" },
		{ "char", "x[]]" },
	};
	struct synth_field_desc field;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		field.type = bad[i][0];
		field.name = bad[i][1];
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    synth_event_create(T_NAME("bad"), &field, 1,
						       NULL),
				    "%s %s", bad[i][0], bad[i][1]);
		mutex_lock(&event_mutex);
		KUNIT_EXPECT_NULL(test, synth_event_find(T_NAME("bad")));
		mutex_unlock(&event_mutex);
	}
	field.type = "u64";
	field.name = "x";
	KUNIT_EXPECT_EQ(test, -EINVAL,
			synth_event_create("bad-name", &field, 1, NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			synth_event_create(T_NAME("bad"), &field, 0, NULL));
}

static void synth_test_duplicate_field(struct kunit *test)
{
	static struct synth_field_desc fields[] = {
		{ "u64", "x" }, { "u32", "y" }, { "char[4]", "x" },
	};

	KUNIT_EXPECT_EQ(test, -EINVAL,
			synth_event_create(T_NAME("dup"), fields,
					   ARRAY_SIZE(fields), NULL));
}

/* @n fields of @type, named f0, f1, ... */
static struct synth_field_desc *synth_test_fields(struct kunit *test,
						  unsigned int n,
						  const char *type)
{
	struct synth_field_desc *fields;
	char (*names)[8];
	unsigned int i;

	fields = kunit_kcalloc(test, n, sizeof(*fields), GFP_KERNEL);
	names = kunit_kcalloc(test, n, sizeof(*names), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fields);
	KUNIT_ASSERT_NOT_NULL(test, names);
	for (i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "f%u", i);
		fields[i].type = type;
		fields[i].name = names[i];
	}
	return fields;
}

static void synth_test_field_limit(struct kunit *test)
{
	struct synth_field_desc *fields;

	fields = synth_test_fields(test, SYNTH_FIELDS_MAX + 1, "u8");
	KUNIT_EXPECT_EQ(test, -EINVAL,
			synth_event_create(T_NAME("many"), fields,
					   SYNTH_FIELDS_MAX + 1, NULL));
	KUNIT_ASSERT_EQ(test, 0,
			synth_event_create(T_NAME("many"), fields,
					   SYNTH_FIELDS_MAX, NULL));
	KUNIT_EXPECT_EQ(test, synth_test_get(test, T_NAME("many"))->fixed_size,
			8 + SYNTH_FIELDS_MAX);
}

/*
 * Write a record of an event of SYNTH_FIELDS_MAX string fields, all of
 * @type, each given a string longer than a string field holds, except
 * the first, whose pointer faults.  The buffer has exactly the measured
 * size (KASAN guards its end).  Return the record, and its size in
 * *@size.
 */
static struct synth_trace_event *synth_test_wide(struct kunit *test,
						 const char *name,
						 const char *type,
						 unsigned int *size)
{
	struct synth_field_desc *fields;
	struct synth_trace_event *rec;
	struct synth_event *se;
	char *long_str;
	u64 *vals;
	u16 *lens;
	int i;

	fields = synth_test_fields(test, SYNTH_FIELDS_MAX, type);
	vals = kunit_kcalloc(test, SYNTH_FIELDS_MAX, sizeof(*vals), GFP_KERNEL);
	lens = kunit_kcalloc(test, SYNTH_FIELDS_MAX, sizeof(*lens), GFP_KERNEL);
	long_str = kunit_kzalloc(test, 4 * STR_VAR_LEN_MAX, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, vals && lens && long_str);
	memset(long_str, 'x', 4 * STR_VAR_LEN_MAX - 1);
	for (i = 0; i < SYNTH_FIELDS_MAX; i++)
		vals[i] = (unsigned long)long_str;
	vals[0] = 1;	/* no string lives at address 1 */
	KUNIT_ASSERT_EQ(test, 0, synth_event_create(name, fields,
						    SYNTH_FIELDS_MAX, NULL));
	se = synth_test_get(test, name);
	*size = synth_record_measure(se, vals, lens);
	rec = kunit_kmalloc(test, *size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	synth_record_fill(se, rec, vals, lens);
	return rec;
}

/* @str must be the string a field of the record holds. */
static void synth_test_expect_str(struct kunit *test, const char *str,
				  unsigned int room, int i)
{
	size_t len = strnlen(str, room);

	if (i == 0) {
		KUNIT_EXPECT_STREQ(test, str, FAULT_STRING);
		return;
	}
	KUNIT_EXPECT_EQ_MSG(test, len, STR_VAR_LEN_MAX - 1, "field f%d", i);
	KUNIT_EXPECT_EQ_MSG(test, strspn(str, "x"), STR_VAR_LEN_MAX - 1,
			    "field f%d", i);
}

/*
 * The widest events there are, with strings past the longest a field
 * holds: each string is cut to STR_VAR_LEN_MAX - 1 characters and its
 * NUL, the record is no bigger than measured, and each char[] field's
 * data_loc word points inside it.
 */
static void synth_test_record_limits(struct kunit *test)
{
	struct synth_trace_event *rec;
	unsigned int size, i;

	rec = synth_test_wide(test, T_NAME("wide_dyn"), "char[]", &size);
	KUNIT_EXPECT_EQ(test, size, 8 + 4 * SYNTH_FIELDS_MAX +
			sizeof(FAULT_STRING) +
			(SYNTH_FIELDS_MAX - 1) * STR_VAR_LEN_MAX);
	for (i = 0; i < SYNTH_FIELDS_MAX; i++) {
		u32 loc = *(u32 *)((void *)rec + 8 + 4 * i);
		unsigned int off = loc & 0xffff, len = loc >> 16;

		KUNIT_EXPECT_LE_MSG(test, off + len, size, "field f%u", i);
		if (off + len > size || !len)
			continue;
		KUNIT_EXPECT_EQ(test, ((char *)rec)[off + len - 1], 0);
		synth_test_expect_str(test, (char *)rec + off, len, i);
	}

	rec = synth_test_wide(test, T_NAME("wide_fixed"), "char[256]", &size);
	KUNIT_EXPECT_EQ(test, size, 8 + 256 * SYNTH_FIELDS_MAX);
	for (i = 0; i < SYNTH_FIELDS_MAX; i++)
		synth_test_expect_str(test, (char *)rec + 8 + 256 * i, 256, i);
}

/*
 * synth_event_trace() and synth_event_trace_array() answer as upstream's
 * do: 0 for an event that is not enabled, -EINVAL for one the buffer
 * takes no record of (here, tracing is off in its instance).
 */
static void synth_test_trace_refused(struct kunit *test)
{
	struct synth_field_desc fields[] = { { "u64", "a" } };
	struct trace_event_file *file;
	struct trace_array *tr;
	int ret[5];
	u64 val = 1;

	KUNIT_ASSERT_EQ(test, synth_event_create(T_NAME("api"), fields, 1,
						 NULL), 0);
	file = trace_get_event_file(NULL, "synthetic", T_NAME("api"));
	KUNIT_ASSERT_FALSE(test, IS_ERR(file));
	tr = file->tr;
	ret[0] = synth_event_trace(file, 1, val);
	KUNIT_EXPECT_EQ(test, trace_array_set_clr_event(tr, "synthetic",
							T_NAME("api"), true), 0);
	tracer_tracing_off(tr);
	ret[1] = synth_event_trace(file, 1, val);
	ret[2] = synth_event_trace_array(file, &val, 1);
	tracer_tracing_on(tr);
	ret[3] = synth_event_trace(file, 1, val);
	ret[4] = synth_event_trace_array(file, &val, 1);
	trace_array_set_clr_event(tr, "synthetic", T_NAME("api"), false);
	trace_put_event_file(file);

	KUNIT_EXPECT_EQ(test, ret[0], 0);
	KUNIT_EXPECT_EQ(test, ret[1], -EINVAL);
	KUNIT_EXPECT_EQ(test, ret[2], -EINVAL);
	KUNIT_EXPECT_EQ(test, ret[3], 0);
	KUNIT_EXPECT_EQ(test, ret[4], 0);
}

static struct kunit_case synth_test_cases[] = {
	KUNIT_CASE(synth_test_types),
	KUNIT_CASE(synth_test_layout),
	KUNIT_CASE(synth_test_cmd),
	KUNIT_CASE(synth_test_refused),
	KUNIT_CASE(synth_test_duplicate_field),
	KUNIT_CASE(synth_test_field_limit),
	KUNIT_CASE(synth_test_record_limits),
	KUNIT_CASE(synth_test_trace_refused),
	{}
};

static struct kunit_suite synth_test_suite = {
	.name = "trace_synth",
	.exit = synth_test_exit,
	.test_cases = synth_test_cases,
};

kunit_test_suite(synth_test_suite);
