// SPDX-License-Identifier: GPL-2.0
/*
 * Hist triggers: operands and expressions.
 *
 * An operand is an event field with an optional modifier, one of the
 * common_* pseudo fields, a numeric constant or a variable reference.
 * An expression combines operands with + - * / and a unary -(...).
 * Both become trees of struct hist_field, built once at trigger
 * creation: constant subtrees are folded, and a division by a constant
 * becomes a shift or a multiplication, so that the hit path never
 * divides by a number it knew in advance.
 *
 * The grammar is upstream's, so that existing triggers read the same:
 * no parentheses except around the operand of a unary minus, the
 * rightmost operator of the lowest precedence is the root (operators of
 * equal precedence associate to the left), and at most
 * HIST_SUBEXPR_MAX binary operators are parsed.  The text is split in
 * place inside the copy of the command, so that each error can name the
 * text it is about.
 */
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_hist.h"

struct hist_modifier {
	const char	*name;
	unsigned long	flag;
};

/* Modifiers spelt as they are in the trigger file, with their flag. */
static const struct hist_modifier hist_modifiers[] = {
	{ "hex",	HIST_FIELD_FL_HEX },
	{ "sym",	HIST_FIELD_FL_SYM },
	{ "sym-offset",	HIST_FIELD_FL_SYM_OFFSET },
	{ "execname",	HIST_FIELD_FL_EXECNAME },
	{ "syscall",	HIST_FIELD_FL_SYSCALL },
	{ "stacktrace",	HIST_FIELD_FL_STACKTRACE },
	{ "log2",	HIST_FIELD_FL_LOG2 },
	{ "usecs",	HIST_FIELD_FL_TIMESTAMP_USECS },
	{ "buckets",	HIST_FIELD_FL_BUCKET },
	{ "loglin",	HIST_FIELD_FL_LOGLIN },
	{ "percent",	HIST_FIELD_FL_PERCENT },
	{ "graph",	HIST_FIELD_FL_GRAPH },
};

#define HIST_MODIFIER_FLAGS	(HIST_FIELD_FL_HEX | HIST_FIELD_FL_SYM | \
	HIST_FIELD_FL_SYM_OFFSET | HIST_FIELD_FL_EXECNAME | \
	HIST_FIELD_FL_SYSCALL | HIST_FIELD_FL_STACKTRACE | \
	HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_TIMESTAMP_USECS | \
	HIST_FIELD_FL_BUCKET | HIST_FIELD_FL_PERCENT | HIST_FIELD_FL_GRAPH | \
	HIST_FIELD_FL_LOGLIN)

/**
 * hist_modifier_next - the next modifier a field's flags name
 * @flags: the flags, masked to the modifiers wanted
 * @pos: where to go on from; start at 0
 *
 * Return: the modifier's name as it is written, or NULL when there is
 * no other.
 */
const char *hist_modifier_next(unsigned long flags, unsigned int *pos)
{
	while (*pos < ARRAY_SIZE(hist_modifiers)) {
		const struct hist_modifier *mod = &hist_modifiers[(*pos)++];

		if (flags & mod->flag)
			return mod->name;
	}
	return NULL;
}

/* The modifier's name, or NULL if the field has none. */
static const char *hist_modifier_name(unsigned long flags)
{
	unsigned int pos = 0;

	return hist_modifier_next(flags, &pos);
}

/*
 * Parse ".modifier" (or ".buckets=N") of field @name into @hf->flags and
 * @hf->buckets.  "bucket=N" is accepted too: triggers written that way
 * exist.  .execname is only common_pid's: on any other field, the
 * modifier is what is wrong, whether the field exists or not.
 */
static int hist_parse_modifier(const struct hist_parse_ctx *ctx,
			       struct hist_field *hf, const char *name,
			       char *mod, bool is_key)
{
	size_t n = str_has_prefix(mod, "bucket");
	unsigned int i, count;
	u32 pct;

	if (str_has_prefix(mod, "loglin")) {
		/* the count is what is wrong, or missing */
		if (mod[6] != '=' || kstrtouint(mod + 7, 0, &count) ||
		    !is_power_of_2(count) || count > BIT(HIST_LOGLIN_BITS_MAX)) {
			hist_err(ctx, HIST_ERR_BAD_LOGLIN,
				 mod[6] == '=' ? mod + 7 : mod);
			return -EINVAL;
		}
		hf->loglin_shift = ilog2(count);
		hf->flags |= HIST_FIELD_FL_LOGLIN;
		return 0;
	}
	/* vals= takes its aggregation off first: this one is misplaced */
	if (hist_agg_of(mod, &pct) >= 0) {
		hist_err(ctx, HIST_ERR_AGG_ON_KEY, mod);
		return -EINVAL;
	}
	if (n) {
		char *num = mod + n;

		if (*num == 's')
			num++;
		/* the error is about what follows the word, or the size */
		if (*num != '=') {
			mod = num;
			goto bad;
		}
		num++;
		if (kstrtou64(num, 0, &hf->buckets) || !hf->buckets) {
			mod = num;
			goto bad;
		}
		hf->flags |= HIST_FIELD_FL_BUCKET;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(hist_modifiers); i++) {
		if (strcmp(mod, hist_modifiers[i].name))
			continue;
		hf->flags |= hist_modifiers[i].flag;
		if (is_key && (hf->flags & (HIST_FIELD_FL_PERCENT |
					    HIST_FIELD_FL_GRAPH)))
			goto bad;
		if ((hf->flags & HIST_FIELD_FL_EXECNAME) &&
		    strcmp(name, "common_pid"))
			goto bad;
		return 0;
	}
bad:
	hist_err(ctx, HIST_ERR_BAD_FIELD_MODIFIER, mod);
	return -EINVAL;
}

static enum hist_fetch hist_fetch_for_int(unsigned int size, bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? HIST_FETCH_S8 : HIST_FETCH_U8;
	case 2:
		return is_signed ? HIST_FETCH_S16 : HIST_FETCH_U16;
	case 4:
		return is_signed ? HIST_FETCH_S32 : HIST_FETCH_U32;
	default:
		return HIST_FETCH_U64;
	}
}

/*
 * The fields every event has that are not read from its record.  A name
 * is matched before the event's own fields, except an alias: "cpu" and
 * "stacktrace" only mean these when the event has no such field.
 */
static const struct hist_pseudo_field {
	const char	*name;
	const char	*alias;
	u8		fetch;
	unsigned long	flags;
	const char	*type;
	unsigned int	size;
} hist_pseudo_fields[] = {
	{ "hitcount", NULL, HIST_FETCH_ONE, HIST_FIELD_FL_HITCOUNT,
	  "u64", sizeof(u64) },
	{ "common_timestamp", NULL, HIST_FETCH_TIMESTAMP,
	  HIST_FIELD_FL_TIMESTAMP, "u64", sizeof(u64) },
	{ "common_comm", NULL, HIST_FETCH_COMM,
	  HIST_FIELD_FL_COMM | HIST_FIELD_FL_STRING, "char[16]", TASK_COMM_LEN },
	{ "common_cpu", "cpu", HIST_FETCH_CPU, HIST_FIELD_FL_CPU,
	  "unsigned int", sizeof(unsigned int) },
	{ "common_stacktrace", "stacktrace", HIST_FETCH_STACK,
	  HIST_FIELD_FL_STACKTRACE, "unsigned long[]", HIST_STACK_BYTES },
};

static const struct hist_pseudo_field *
hist_pseudo_field(const char *name, const struct ftrace_event_field *field)
{
	const struct hist_pseudo_field *p;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hist_pseudo_fields); i++) {
		p = &hist_pseudo_fields[i];
		if (!strcmp(name, p->name) ||
		    (!field && p->alias && !strcmp(name, p->alias)))
			return p;
	}
	if (!field)
		return NULL;
	/* the event's own cpu field, and a stack the kernel walks for it */
	for (i = 0; i < ARRAY_SIZE(hist_pseudo_fields); i++) {
		p = &hist_pseudo_fields[i];
		if ((p->fetch == HIST_FETCH_CPU &&
		     field->filter_type == FILTER_CPU) ||
		    (p->fetch == HIST_FETCH_STACK &&
		     field->filter_type == FILTER_STACKTRACE &&
		     !strstr(field->type, "long[")))
			return p;
	}
	return NULL;
}

/*
 * An event field: read from the record, as a number or as bytes.  @name
 * is the field's name, @text the operand with its modifier.
 */
static int hist_resolve_event_field(const struct hist_parse_ctx *ctx,
				    struct hist_field *hf,
				    struct ftrace_event_field *field,
				    const char *name, const char *text)
{
	hf->field = field;
	hf->name = field->name;
	hf->type = field->type;
	hf->offset = field->offset;
	hf->size = field->size;
	hf->is_signed = field->is_signed;
	if (field->filter_type == FILTER_STACKTRACE) {
		/* a stack a synthetic event carries in its record */
		hf->flags |= HIST_FIELD_FL_STACKTRACE;
		hf->fetch = HIST_FETCH_STACK_FIELD;
		hf->size = HIST_STACK_BYTES;
		return 0;
	}
	/*
	 * Only such a field is read as a stack: its first word is a data_loc
	 * that the record's writer made.  In any other field, an unsigned
	 * long[N] included, those bytes are data (a syscall's first argument,
	 * chosen by any task), and taking them for an offset and a length
	 * would read outside the record on every hit.
	 */
	if (hf->flags & HIST_FIELD_FL_STACKTRACE) {
		hist_err(ctx, HIST_ERR_BAD_FIELD_MODIFIER, text);
		return -EINVAL;
	}
	switch (field->filter_type) {
	case FILTER_STATIC_STRING:
		hf->fetch = HIST_FETCH_STR_FIXED;
		hf->flags |= HIST_FIELD_FL_STRING;
		hf->size = min_t(unsigned int, field->size + 1, HIST_STR_MAX);
		hf->str_size = field->size;
		return 0;
	case FILTER_DYN_STRING:
	case FILTER_RDYN_STRING:
		hf->fetch = field->filter_type == FILTER_DYN_STRING ?
			    HIST_FETCH_STR_DATA_LOC : HIST_FETCH_STR_REL_LOC;
		hf->flags |= HIST_FIELD_FL_STRING;
		hf->size = HIST_STR_MAX;
		hf->str_size = HIST_STR_MAX;
		return 0;
	default:
		/* upstream makes no hist field of it, and logs nothing */
		if (hist_event_field_unreadable(field))
			return -ENOMEM;
		if (field->size > sizeof(u64))
			break;
		hf->fetch = hist_fetch_for_int(field->size, field->is_signed);
		return 0;
	}
	hist_err(ctx, HIST_ERR_FIELD_NOT_FOUND, name);
	return -EINVAL;
}

/* Resolve the field @name of operand @text to what the hit path reads. */
static int hist_resolve_field(const struct hist_parse_ctx *ctx,
			      struct trace_event_file *file,
			      struct hist_data *hd, struct hist_field *hf,
			      char *name, const char *text)
{
	struct ftrace_event_field *field;
	const struct hist_pseudo_field *p;

	field = trace_find_event_field(file->event_call, name);
	p = hist_pseudo_field(name, field);
	if (p) {
		hf->flags |= p->flags;
		hf->fetch = p->fetch;
		/* rows name the generic "cpu" or "CPU" as written, as upstream */
		hf->name = p->fetch == HIST_FETCH_CPU && field ? field->name :
			   p->name;
		hf->type = p->type;
		hf->size = p->size;
		if (hf->flags & HIST_FIELD_FL_STRING)
			hf->str_size = p->size;
		if (p->fetch == HIST_FETCH_TIMESTAMP) {
			if (hf->flags & HIST_FIELD_FL_TIMESTAMP_USECS)
				hf->fetch = HIST_FETCH_TIMESTAMP_USECS;
			hd->uses_timestamp = true;
		}
		return 0;
	}
	if (!field || !field->size) {
		hist_err(ctx, HIST_ERR_FIELD_NOT_FOUND, name);
		return -EINVAL;
	}
	return hist_resolve_event_field(ctx, hf, field, name, text);
}

/*
 * Check the modifier @mod suits the field, and turn it into a transform.
 * The error is about the whole operand @text for a modifier only keys
 * take, about the modifier otherwise: tools parse its position.
 */
static int hist_check_modifier(const struct hist_parse_ctx *ctx,
			       struct hist_field *hf, const char *text,
			       const char *mod, bool is_key)
{
	unsigned long numeric_only = HIST_FIELD_FL_HEX | HIST_FIELD_FL_SYM |
		HIST_FIELD_FL_SYM_OFFSET | HIST_FIELD_FL_EXECNAME |
		HIST_FIELD_FL_SYSCALL | HIST_FIELD_FL_LOG2 |
		HIST_FIELD_FL_BUCKET | HIST_FIELD_FL_PERCENT |
		HIST_FIELD_FL_GRAPH;
	/* a value is a sum: these only mean something on a key */
	unsigned long key_only = HIST_FIELD_FL_SYM | HIST_FIELD_FL_SYM_OFFSET |
		HIST_FIELD_FL_SYSCALL | HIST_FIELD_FL_LOG2 |
		HIST_FIELD_FL_BUCKET | HIST_FIELD_FL_STACKTRACE |
		HIST_FIELD_FL_LOGLIN;
	bool is_number = !hist_field_is_bytes(hf);

	if (!mod)
		return 0;
	if ((hf->flags & HIST_FIELD_FL_LOGLIN) && is_key && !is_number) {
		hist_err(ctx, HIST_ERR_BAD_LOGLIN, text);
		return -EINVAL;
	}
	if (!is_key && (hf->flags & key_only)) {
		hist_err(ctx, HIST_ERR_BAD_FIELD_MODIFIER, text);
		return -EINVAL;
	}
	if ((hf->flags & HIST_FIELD_FL_STACKTRACE) &&
	    hf->fetch != HIST_FETCH_STACK_FIELD) {
		hist_err(ctx, HIST_ERR_BAD_FIELD_MODIFIER, text);
		return -EINVAL;
	}
	if ((hf->flags & numeric_only) && !is_number)
		goto bad;
	if (hf->flags & HIST_FIELD_FL_LOG2)
		hf->xform = HIST_XFORM_LOG2;
	else if (hf->flags & HIST_FIELD_FL_BUCKET)
		hf->xform = HIST_XFORM_BUCKETS;
	else if (hf->flags & HIST_FIELD_FL_LOGLIN)
		hf->xform = HIST_XFORM_LOGLIN;
	return 0;
bad:
	hist_err(ctx, HIST_ERR_BAD_FIELD_MODIFIER, mod);
	return -EINVAL;
}

/*
 * The field as the trigger file shows it: name, modifier, bucket size.
 * The cpu is "common_cpu" there, however it was written.
 */
static int hist_field_make_spec(struct hist_field *hf)
{
	const char *mod = hist_modifier_name(hf->flags & HIST_MODIFIER_FLAGS);
	const char *name = hf->fetch == HIST_FETCH_CPU ? "common_cpu" :
			   hf->name;

	/*
	 * A key of a stack field is shown as one, as it may be given; a
	 * variable of it is the plain name, the only way one parses.
	 */
	if (hf->fetch == HIST_FETCH_STACK_FIELD)
		hf->spec = kasprintf(GFP_KERNEL, "%s%s", name,
				     hf->flags & HIST_FIELD_FL_KEY ?
				     ".stacktrace" : "");
	else if (hf->flags & HIST_FIELD_FL_BUCKET)
		hf->spec = kasprintf(GFP_KERNEL, "%s.buckets=%llu", name,
				     hf->buckets);
	else if (hf->flags & HIST_FIELD_FL_LOGLIN)
		hf->spec = kasprintf(GFP_KERNEL, "%s.loglin=%lu", name,
				     BIT(hf->loglin_shift));
	else if (mod && !(hf->flags & HIST_FIELD_FL_STACKTRACE))
		hf->spec = kasprintf(GFP_KERNEL, "%s.%s", name, mod);
	else
		hf->spec = kstrdup(name, GFP_KERNEL);
	return hf->spec ? 0 : -ENOMEM;
}

/**
 * hist_parse_field - parse one event field operand, "name[.modifier]"
 * @ctx: the command, for error_log
 * @file: the event whose fields are named
 * @hd: the histogram being built
 * @hf: zeroed; filled in
 * @text: the operand; its surrounding spaces are cut off in place
 * @is_key: the operand is a key (some modifiers are only for values)
 *
 * Return: 0, or -EINVAL (logged) or -ENOMEM.
 */
int hist_parse_field(const struct hist_parse_ctx *ctx,
		     struct trace_event_file *file, struct hist_data *hd,
		     struct hist_field *hf, char *text, bool is_key)
{
	char *mod, *name;
	int ret = 0;

	text = strim(text);
	name = text;
	mod = strchr(text, '.');
	/* the operand stays whole: some errors are about all of it */
	if (mod) {
		name = kstrndup(text, mod - text, GFP_KERNEL);
		if (!name)
			return -ENOMEM;
		mod++;
		ret = hist_parse_modifier(ctx, hf, name, mod, is_key);
	}
	if (!ret)
		ret = hist_resolve_field(ctx, file, hd, hf, name, text);
	if (!ret)
		ret = hist_check_modifier(ctx, hf, text, mod, is_key);
	if (name != text)
		kfree(name);
	if (ret)
		return ret;
	if (is_key)
		hf->flags |= HIST_FIELD_FL_KEY;
	return hist_field_make_spec(hf);
}

/*
 * The text and the name of a reference with a modifier, in one
 * allocation: "$lat.log2", then the name "lat" that the hist file
 * prints after its NUL, so that hist_field_release() frees both.  The
 * text names the modifier @mods written, not the flags the variable's
 * type brought (a timestamp's .usecs).
 */
static int hist_ref_make_spec(struct hist_field *hf, unsigned long mods,
			      const char *prefix, size_t prefix_len)
{
	unsigned long flags = hf->flags;
	char *spec = hf->spec, *made, *text;
	int ret;

	/* hist_field_make_spec() names the field by hf->name, in hf->spec */
	hf->flags = (flags & ~HIST_MODIFIER_FLAGS) | mods;
	ret = hist_field_make_spec(hf);
	hf->flags = flags;
	made = hf->spec;
	hf->spec = spec;
	if (ret)
		return ret;
	text = kasprintf(GFP_KERNEL, "%.*s%s%c%s", (int)prefix_len, prefix,
			 made, '\0', hf->name);
	kfree(made);
	if (!text)
		return -ENOMEM;
	hf->name = text + strlen(text) + 1;
	hf->spec = text;
	kfree(spec);
	return 0;
}

/**
 * hist_parse_ref_field - parse "$name.modifier" of a variable-keyed trigger
 * @ctx: the command, for error_log
 * @hd: the histogram being built; @hd->same_hit is set
 * @hf: zeroed; filled in
 * @text: "$name[.modifier]" or "system.event.$name[.modifier]", in the
 *	copy of the command
 * @is_key: the operand is a key
 *
 * A variable another trigger on the event sets in the same hit, with a
 * modifier as an event field takes it; .usecs turns a timestamp kept
 * in nanoseconds into microseconds.
 *
 * Return: 0, or -EINVAL (logged) or -ENOMEM.
 */
int hist_parse_ref_field(const struct hist_parse_ctx *ctx,
			 struct hist_data *hd, struct hist_field *hf,
			 char *text, bool is_key)
{
	struct hist_field mods = {};
	char *dollar, *dot, *name;
	int ret;

	text = strim(text);
	dollar = strchr(text, '$');
	dot = strchr(dollar, '.');
	if (dot)
		*dot = '\0';
	ret = hist_ref_add(ctx, hd, text, hf, is_key ? HIST_REF_KEY : 0);
	/* a key is built before this trigger's variables are set */
	if (!ret && is_key && hf->fetch != HIST_FETCH_REF) {
		hist_err(ctx, HIST_ERR_INVALID_REF_KEY, text);
		ret = -EINVAL;
	}
	if (is_key)
		hf->flags |= HIST_FIELD_FL_KEY;
	if (!dot || ret)
		return ret;
	*dot = '.';
	name = kstrndup(dollar + 1, dot - dollar - 1, GFP_KERNEL);
	if (!name)
		return -ENOMEM;
	ret = hist_parse_modifier(ctx, &mods, name, dot + 1, is_key);
	kfree(name);
	if (ret)
		return ret;
	if (mods.flags & HIST_FIELD_FL_TIMESTAMP_USECS) {
		/* only a timestamp still in nanoseconds */
		if ((hf->flags & (HIST_FIELD_FL_TIMESTAMP |
				  HIST_FIELD_FL_TIMESTAMP_USECS)) !=
		    HIST_FIELD_FL_TIMESTAMP) {
			hist_err(ctx, HIST_ERR_BAD_FIELD_MODIFIER, dot + 1);
			return -EINVAL;
		}
		hf->xform = HIST_XFORM_USECS;
	}
	hf->flags |= mods.flags;
	hf->buckets = mods.buckets;
	hf->loglin_shift = mods.loglin_shift;
	ret = hist_check_modifier(ctx, hf, text, dot + 1, is_key);
	if (ret)
		return ret;
	return hist_ref_make_spec(hf, mods.flags, text, dollar + 1 - text);
}

static char *hist_rfind(char *str, char *end, int c)
{
	while (end-- > str)
		if (*end == c)
			return end;
	return NULL;
}

/*
 * The root operator of @str: the rightmost + or -, else the rightmost *
 * or /.  A '-' at the very start is a unary minus.  The '-' of the
 * sym-offset modifier is not an operator.
 */
/* Is the '-' at @minus the one inside a "sym-offset" modifier? */
static bool hist_minus_of_modifier(const char *str, const char *minus)
{
	size_t before = strlen("sym");

	return minus - str >= before && str_has_prefix(minus - before,
						       "sym-offset");
}

static int hist_find_operator(char *str, char **sep)
{
	char *end = str + strlen(str);
	char *minus = end, *plus, *div, *mul;

	do {
		minus = hist_rfind(str, minus, '-');
	} while (minus && hist_minus_of_modifier(str, minus));
	if (minus == str) {
		*sep = minus;
		return HIST_OP_NEG;
	}
	plus = hist_rfind(str, end, '+');
	if (plus || minus) {
		*sep = plus > minus ? plus : minus;
		return plus > minus ? HIST_OP_ADD : HIST_OP_SUB;
	}
	div = hist_rfind(str, end, '/');
	mul = hist_rfind(str, end, '*');
	if (div || mul) {
		*sep = mul > div ? mul : div;
		return mul > div ? HIST_OP_MUL : HIST_OP_DIV;
	}
	return -1;
}

static int hist_parse_node(const struct hist_parse_ctx *ctx,
			   struct trace_event_file *file, struct hist_data *hd,
			   char *str, struct hist_field *out,
			   unsigned int *n_sub);

static int hist_parse_constant(const struct hist_parse_ctx *ctx, char *str,
			       struct hist_field *out)
{
	if (kstrtoull(str, 0, &out->constant)) {
		hist_err(ctx, HIST_ERR_EXPECT_NUMBER, str);
		return -EINVAL;
	}
	out->fetch = HIST_FETCH_CONST;
	out->flags |= HIST_FIELD_FL_CONST;
	out->type = "u64";
	out->size = sizeof(u64);
	out->spec = kasprintf(GFP_KERNEL, "%llu", out->constant);
	out->name = out->spec;
	return out->spec ? 0 : -ENOMEM;
}

/* A field, a constant or a variable reference. */
static int hist_parse_atom(const struct hist_parse_ctx *ctx,
			   struct trace_event_file *file, struct hist_data *hd,
			   char *str, struct hist_field *out)
{
	str = strim(str);
	if (isdigit(*str))
		return hist_parse_constant(ctx, str, out);
	/* a modifier on a reference only where variables are keys */
	if (hd->same_hit && strchr(str, '$') && strchr(strchr(str, '$'), '.'))
		return hist_parse_ref_field(ctx, hd, out, str, false);
	if (strchr(str, '$'))
		return hist_ref_add(ctx, hd, str, out, 0);
	return hist_parse_field(ctx, file, hd, out, str, false);
}

static struct hist_field *hist_new_operand(const struct hist_parse_ctx *ctx,
					   struct trace_event_file *file,
					   struct hist_data *hd, char *str,
					   unsigned int *n_sub, int *ret)
{
	struct hist_field *hf = kzalloc(sizeof(*hf), GFP_KERNEL);

	if (!hf) {
		*ret = -ENOMEM;
		return NULL;
	}
	*ret = hist_parse_node(ctx, file, hd, str, hf, n_sub);
	if (*ret) {
		hist_field_release(hf);
		kfree(hf);
		return NULL;
	}
	if (hist_field_is_bytes(hf)) {
		hist_err(ctx, HIST_ERR_INVALID_STR_OPERAND, str);
		hist_field_release(hf);
		kfree(hf);
		*ret = -EINVAL;
		return NULL;
	}
	return hf;
}

static const char hist_op_chars[] = {
	[HIST_OP_ADD] = '+', [HIST_OP_SUB] = '-', [HIST_OP_MUL] = '*',
	[HIST_OP_DIV] = '/', [HIST_OP_DIV_SHIFT] = '/',
	[HIST_OP_DIV_MULT] = '/',
};

/* Make @out the constant @val, dropping its operands. */
static int hist_make_constant(struct hist_field *out, u64 val)
{
	hist_field_release(out);
	out->fetch = HIST_FETCH_CONST;
	out->flags = HIST_FIELD_FL_CONST;
	out->constant = val;
	out->type = "u64";
	out->size = sizeof(u64);
	out->spec = kasprintf(GFP_KERNEL, "%llu", val);
	out->name = out->spec;
	return out->spec ? 0 : -ENOMEM;
}

static int hist_parse_neg(const struct hist_parse_ctx *ctx,
			  struct trace_event_file *file, struct hist_data *hd,
			  char *str, struct hist_field *out, unsigned int *n_sub)
{
	char *inner = str + 1, *close;
	struct hist_field *a;
	int ret;

	if (*inner != '(') {
		hist_err(ctx, HIST_ERR_UNARY_MINUS_SUBEXPR, inner);
		return -EINVAL;
	}
	inner++;
	close = strrchr(inner, ')');
	if (!close) {
		hist_err(ctx, HIST_ERR_NO_CLOSING_PAREN, inner);
		return -EINVAL;
	}
	if (close[1]) {
		hist_err(ctx, HIST_ERR_UNARY_MINUS_SUBEXPR, inner);
		return -EINVAL;
	}
	*close = '\0';
	a = hist_new_operand(ctx, file, hd, inner, n_sub, &ret);
	if (!a)
		return ret;
	out->operands[0] = a;
	if (a->fetch == HIST_FETCH_CONST) {
		/* folded, but shown as upstream shows it, "-(6)" */
		char *text = kasprintf(GFP_KERNEL, "-(%s)", a->spec);

		if (!text)
			return -ENOMEM;
		ret = hist_make_constant(out, -a->constant);
		if (ret) {
			kfree(text);
			return ret;
		}
		kfree(out->spec);
		out->spec = text;
		out->name = text;
		return 0;
	}
	out->fetch = HIST_FETCH_EXPR;
	out->op = HIST_OP_NEG;
	out->flags |= HIST_FIELD_FL_EXPR | (a->flags & (HIST_FIELD_FL_TIMESTAMP |
				HIST_FIELD_FL_TIMESTAMP_USECS));
	out->type = a->type;
	out->size = a->size;
	out->is_signed = a->is_signed;
	out->spec = kasprintf(GFP_KERNEL, "-(%s)", a->spec);
	out->name = out->spec;
	return out->spec ? 0 : -ENOMEM;
}

/* The reads of other histograms' variables an expression makes are once. */
static void hist_mark_read_once(struct hist_data *hd, struct hist_field *hf)
{
	if (hf->fetch == HIST_FETCH_REF)
		hd->refs[hf->slot].read_once = true;
}

/*
 * Two timestamps in different units cannot be combined.  Nor, as
 * upstream has it, can a field given .usecs (which leaves its number as
 * it is) and an operand without: the result would claim a unit only one
 * of them has.
 */
static bool hist_units_mismatch(const struct hist_field *a,
				const struct hist_field *b)
{
	unsigned long ts = HIST_FIELD_FL_TIMESTAMP;
	unsigned long us = HIST_FIELD_FL_TIMESTAMP_USECS;
	const struct hist_field *with_us;

	if ((a->flags & us) == (b->flags & us))
		return false;
	if ((a->flags & ts) && (b->flags & ts))
		return true;
	with_us = (a->flags & us) ? a : b;
	return !(with_us->flags & ts);
}

static int hist_parse_binary(const struct hist_parse_ctx *ctx,
			     struct trace_event_file *file,
			     struct hist_data *hd, char *str, char *sep,
			     int op, struct hist_field *out,
			     unsigned int *n_sub)
{
	unsigned long units = HIST_FIELD_FL_TIMESTAMP |
			      HIST_FIELD_FL_TIMESTAMP_USECS;
	char *rhs = sep + 1;
	struct hist_field *a, *b;
	int ret;

	++*n_sub;
	*sep = '\0';
	if (!*skip_spaces(str) || !*skip_spaces(rhs)) {
		hist_err(ctx, HIST_ERR_FIELD_NOT_FOUND, *str ? rhs : str);
		return -EINVAL;
	}
	a = hist_new_operand(ctx, file, hd, str, n_sub, &ret);
	if (!a)
		return ret;
	out->operands[0] = a;
	b = hist_new_operand(ctx, file, hd, rhs, n_sub, &ret);
	if (!b)
		return ret;
	out->operands[1] = b;

	if (hist_units_mismatch(a, b)) {
		hist_err(ctx, HIST_ERR_TIMESTAMP_MISMATCH, NULL);
		return -EINVAL;
	}
	if (op == HIST_OP_DIV && b->fetch == HIST_FETCH_CONST && !b->constant) {
		hist_err(ctx, HIST_ERR_DIVISION_BY_ZERO, skip_spaces(rhs));
		return -EINVAL;
	}
	if (a->fetch == HIST_FETCH_CONST && b->fetch == HIST_FETCH_CONST)
		return hist_make_constant(out, hist_apply(op, a->constant,
							 b->constant));

	out->spec = kasprintf(GFP_KERNEL, "%s%c%s", a->spec, hist_op_chars[op],
			      b->spec);
	if (!out->spec)
		return -ENOMEM;
	out->name = out->spec;
	out->fetch = HIST_FETCH_EXPR;
	out->op = op;
	out->flags |= HIST_FIELD_FL_EXPR | ((a->flags | b->flags) & units);
	out->type = a->type;
	out->size = a->size;
	out->is_signed = a->is_signed;
	hist_mark_read_once(hd, a);
	hist_mark_read_once(hd, b);

	if (op == HIST_OP_DIV && b->fetch == HIST_FETCH_CONST) {
		u64 d = b->constant;

		if (is_power_of_2(d)) {
			out->op = HIST_OP_DIV_SHIFT;
			out->div_shift = ilog2(d);
		} else {
			out->op = HIST_OP_DIV_MULT;
			out->divisor = d;
			out->constant = hist_div_mult(d);
		}
	}
	return 0;
}

static int hist_parse_node(const struct hist_parse_ctx *ctx,
			   struct trace_event_file *file, struct hist_data *hd,
			   char *str, struct hist_field *out,
			   unsigned int *n_sub)
{
	char *sep = NULL;
	int op;

	str = skip_spaces(str);
	if (*n_sub > HIST_SUBEXPR_MAX) {
		hist_err(ctx, HIST_ERR_TOO_MANY_SUBEXPR, str);
		return -EINVAL;
	}
	op = hist_find_operator(str, &sep);
	if (op < 0)
		return hist_parse_atom(ctx, file, hd, str, out);
	if (op == HIST_OP_NEG)
		return hist_parse_neg(ctx, file, hd, str, out, n_sub);
	return hist_parse_binary(ctx, file, hd, str, sep, op, out, n_sub);
}

/**
 * hist_text_is_expr - is @text an expression rather than one operand
 * @text: an operand or expression, as written
 *
 * The '-' of a "sym-offset" modifier is no operator.
 *
 * Return: true if @text has an operator.
 */
bool hist_text_is_expr(const char *text)
{
	char *sep;

	/* hist_find_operator() only looks */
	return hist_find_operator((char *)text, &sep) >= 0;
}

/**
 * hist_field_reads_vars - does a field read a variable, its own or another's
 * @hf: a parsed field or expression
 *
 * Return: true if @hf or one of its operands reads a variable.
 */
bool hist_field_reads_vars(const struct hist_field *hf)
{
	if (!hf)
		return false;
	if (hf->fetch == HIST_FETCH_REF || hf->fetch == HIST_FETCH_OWN_VAR)
		return true;
	return hist_field_reads_vars(hf->operands[0]) ||
	       hist_field_reads_vars(hf->operands[1]);
}

/**
 * hist_parse_expr - parse an operand or an expression of operands
 * @ctx: the command, for error_log
 * @file: the event whose fields are named
 * @hd: the histogram being built (its variables can be referenced)
 * @text: the expression, in the copy of the command; modified in place
 * @out: zeroed; filled in.  On error the caller releases it with
 *	hist_field_release().
 *
 * Return: 0, or -EINVAL (logged) or -ENOMEM.
 */
int hist_parse_expr(const struct hist_parse_ctx *ctx,
		    struct trace_event_file *file, struct hist_data *hd,
		    char *text, struct hist_field *out)
{
	unsigned int n_sub = 0;

	return hist_parse_node(ctx, file, hd, text, out, &n_sub);
}
