// SPDX-License-Identifier: GPL-2.0
/*
 * Hist triggers: the core every other part stands on.
 *
 * The error table and hist_err(); evaluating an expression, with the
 * record decoder it shares with the hit path (inline, in trace_hist.h);
 * the private part of a map element and its string and stack slots;
 * the registry of histograms that define variables.  Nothing here
 * parses text or changes what is attached: see "Layers" in
 * trace_hist.h.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_hist.h"

#ifdef CONFIG_ARCH_STACKWALK
/**
 * hist_stack_entry - take one entry of a stack walk (hist_stack_save())
 * @cookie: the struct hist_stack_walk
 * @addr: a return address, from the innermost frame out
 *
 * Context: the hit path.
 * Return: false once the walk's most entries are stored.
 */
bool hist_stack_entry(void *cookie, unsigned long addr)
{
	struct hist_stack_walk *walk = cookie;

	if (walk->skip) {
		walk->skip--;
		return true;
	}
	walk->entries[walk->n++] = addr;
	return walk->n < walk->max;
}
#endif

static const char * const hist_err_text[HIST_ERR_MAX] = {
	[HIST_ERR_NAMED_MISMATCH]	=
		"Named hist trigger doesn't match existing named trigger (includes variables)",
	[HIST_ERR_TRIGGER_EEXIST]	= "Hist trigger already exists",
	[HIST_ERR_TRIGGER_ENOENT_CLEAR]	= "Can't clear or continue a nonexistent hist trigger",
	[HIST_ERR_SET_CLOCK_FAIL]	= "Couldn't set trace_clock",
	[HIST_ERR_BAD_FIELD_MODIFIER]	= "Invalid field modifier",
	[HIST_ERR_FIELD_NOT_FOUND]	= "Couldn't find field",
	[HIST_ERR_EMPTY_ASSIGNMENT]	= "Empty assignment",
	[HIST_ERR_INVALID_SORT_MODIFIER] = "Invalid sort modifier",
	[HIST_ERR_EMPTY_SORT_FIELD]	= "Empty sort field",
	[HIST_ERR_TOO_MANY_SORT_FIELDS]	= "Too many sort fields (Max = 4)",
	[HIST_ERR_INVALID_SORT_FIELD]	= "Sort field must be a key or a val",
	[HIST_ERR_NEED_NOHC_VAL]	= "Non-hitcount value is required for 'nohitcount'",
	[HIST_ERR_TOO_MANY_KEYS]	= "Too many keys (Max = 8)",
	[HIST_ERR_TOO_MANY_VALS]	= "Too many values (Max = 15)",
	[HIST_ERR_BAD_MAP_SIZE]		= "Invalid size (128 to 131072 entries)",
	[HIST_ERR_MISSING_KEYS]		= "No keys= given",
	[HIST_ERR_BAD_VAL_TYPE]		= "Values must be numeric fields",
	[HIST_ERR_KEY_TOO_BIG]		= "Keys too large (512 bytes max)",
	[HIST_ERR_UNKNOWN_ATTR]		= "Unknown hist trigger attribute",
	[HIST_ERR_DUPLICATE_ATTR]	= "Attribute given twice",
	[HIST_ERR_DUPLICATE_VAR]	= "Variable already defined",
	[HIST_ERR_VAR_NOT_UNIQUE]	=
		"Variable name not unique, need to use fully qualified name (subsys.event.var) for variable",
	[HIST_ERR_TOO_MANY_VARS]	= "Too many variables defined",
	[HIST_ERR_MALFORMED_ASSIGNMENT]	= "Malformed assignment",
	[HIST_ERR_TOO_MANY_SUBEXPR]	= "Too many subexpressions (3 max)",
	[HIST_ERR_TIMESTAMP_MISMATCH]	= "Timestamp units in expression don't match",
	[HIST_ERR_TOO_MANY_FIELD_VARS]	= "Too many field variables defined",
	[HIST_ERR_EVENT_FILE_NOT_FOUND]	= "Event file not found",
	[HIST_ERR_HIST_NOT_FOUND]	= "Matching event histogram not found",
	[HIST_ERR_HIST_CREATE_FAIL]	= "Couldn't create histogram for field",
	[HIST_ERR_FIELD_VAR_PARSE_FAIL]	= "Couldn't parse field variable",
	[HIST_ERR_FIELD_VAR_CREATE_FAIL] = "Couldn't create field variable",
	[HIST_ERR_SYNTH_EVENT_NOT_FOUND] = "Couldn't find synthetic event",
	[HIST_ERR_SYNTH_TYPE_MISMATCH]	= "Param type doesn't match synthetic event field type",
	[HIST_ERR_SYNTH_COUNT_MISMATCH]	= "Param count doesn't match synthetic event field count",
	[HIST_ERR_ONX_NOT_VAR]		= "For onmax(x) or onchange(x), x must be a variable",
	[HIST_ERR_ONX_VAR_NOT_FOUND]	= "Couldn't find onmax or onchange variable",
	[HIST_ERR_TOO_MANY_PARAMS]	= "Too many action params",
	[HIST_ERR_PARAM_NOT_FOUND]	= "Couldn't find param",
	[HIST_ERR_INVALID_PARAM]	= "Invalid action param",
	[HIST_ERR_ACTION_NOT_FOUND]	= "No action found",
	[HIST_ERR_TOO_MANY_SAVE_ACTIONS] = "Can't have more than one save() action per hist",
	[HIST_ERR_ACTION_MISMATCH]	= "Handler doesn't support action",
	[HIST_ERR_NO_CLOSING_PAREN]	= "No closing paren found",
	[HIST_ERR_SUBSYS_NOT_FOUND]	= "Missing subsystem",
	[HIST_ERR_INVALID_SUBSYS_EVENT]	= "Invalid subsystem or event name",
	[HIST_ERR_INVALID_REF_KEY]	= "Using variable references in keys not supported",
	[HIST_ERR_VAR_NOT_FOUND]	= "Couldn't find variable",
	[HIST_ERR_INVALID_STR_OPERAND]	= "String type can not be an operand in expression",
	[HIST_ERR_EXPECT_NUMBER]	= "Expecting numeric literal",
	[HIST_ERR_UNARY_MINUS_SUBEXPR]	= "Unary minus not supported in sub-expressions",
	[HIST_ERR_DIVISION_BY_ZERO]	= "Division by zero",
	[HIST_ERR_VAR_IN_USE]		= "Variable is still referenced by another hist trigger",
	[HIST_ERR_NAMED_OTHER_INSTANCE]	= "Named hist trigger is in another instance",
	[HIST_ERR_ENABLE_FAIL]		= "Couldn't enable the event",
	[HIST_ERR_AGG_ON_KEY]	=
		"Aggregations (min, max, avg, stddev, sum, pN) are for values only",
	[HIST_ERR_AGG_TWICE]		= "A value takes one aggregation",
	[HIST_ERR_AGG_BAD_TYPE]		= "Aggregations need a numeric value",
	[HIST_ERR_BAD_PERCENTILE]	= "Invalid percentile (p followed by 1 to 6 digits)",
	[HIST_ERR_PCT_TOO_BIG]	=
		"Percentile buckets would take over 64 MiB: use a smaller size=",
	[HIST_ERR_BAD_LOGLIN]	=
		"Invalid loglin (a numeric key, loglin=1, 2, 4, ... or 64)",
	[HIST_ERR_BAD_TOP]		= "Invalid top= (a count of at least 1)",
	[HIST_ERR_RESERVED_NAME]	= "Variable name is a reserved word",
	[HIST_ERR_SAME_HIT_EVENT]	= "Variable key must be set by a trigger on this event",
	[HIST_ERR_SAME_HIT_ONE]		= "Variable keys must all be set by one trigger",
	[HIST_ERR_SAME_HIT_NAMED]	= "Variable keys can't be used with named histograms",
	[HIST_ERR_SAME_HIT_NUMBER]	= "Variable key must be a number",
	[HIST_ERR_SAME_HIT_STACK]	= "Stack traces can't be taken with variable keys",
};

/**
 * hist_err - log a hist trigger error with a caret
 * @ctx: the command being parsed
 * @err: HIST_ERR_*
 * @at: the text the error is about, or NULL for no position
 *
 * The caret goes under the first occurrence of @at's text in the
 * command as written, which need not be where the offending token is:
 * that is where upstream puts it, and tools that read error_log follow
 * it.  Text that the command does not contain puts it at 0.  Upstream
 * reads ".sym-offset" as ".symXoffset", which no command contains, so
 * text with that modifier has no position either.
 */
void hist_err(const struct hist_parse_ctx *ctx, unsigned int err,
	      const char *at)
{
	const char *found = NULL;
	unsigned int pos = 0;

	if (at && !strstr(at, ".sym-offset"))
		found = strstr(ctx->cmd, at);
	if (found)
		pos = found - ctx->cmd;
	/* tracing_log_err() only reads the table; it predates the const. */
	tracing_log_err(ctx->tr, ctx->loc, ctx->cmd,
			(const char **)hist_err_text, err, pos);
}

static int hist_elt_alloc(struct tracing_map *map, struct tracing_map_elt *elt)
{
	struct hist_data *hd = tracing_map_private(map);
	size_t size = struct_size_t(struct hist_elt_data, slots,
				    hd->n_str_slots * HIST_SLOT_SIZE +
				    hd->pct_bytes);

	/* the percentile counters after the slots are atomic64_t */
	BUILD_BUG_ON(offsetof(struct hist_elt_data, slots) % sizeof(u64));
	BUILD_BUG_ON(HIST_SLOT_SIZE % sizeof(u64));
	if (!hd->needs_comm && !hd->n_str_slots && !hd->pct_bytes)
		return 0;
	/* percentile buckets make an element some kilobytes */
	elt->private_data = kvzalloc(size, GFP_KERNEL);
	return elt->private_data ? 0 : -ENOMEM;
}

static void hist_elt_free(struct tracing_map *map, struct tracing_map_elt *elt)
{
	kvfree(elt->private_data);
}

/*
 * A clear empties the percentile buckets; nothing counts into them
 * meanwhile (see tracing_map_clear()).  The slots need nothing: a value
 * there is only read once a hit has written it.
 */
static void hist_elt_clear(struct tracing_map *map, struct tracing_map_elt *elt)
{
	struct hist_data *hd = tracing_map_private(map);
	struct hist_elt_data *ed = elt->private_data;

	if (hd->pct_bytes)
		memset(ed->slots + hd->n_str_slots * HIST_SLOT_SIZE, 0,
		       hd->pct_bytes);
}

/* Hit path, new key: remember who made it, for .execname. */
static void hist_elt_init(struct tracing_map *map, struct tracing_map_elt *elt)
{
	struct hist_elt_data *ed = elt->private_data;

	if (ed)
		memcpy(ed->comm, current->comm, TASK_COMM_LEN);
}

const struct tracing_map_ops hist_elt_ops = {
	.elt_alloc	= hist_elt_alloc,
	.elt_free	= hist_elt_free,
	.elt_clear	= hist_elt_clear,
	.elt_init	= hist_elt_init,
};

/**
 * hist_field_release - free what a parsed field owns
 * @hf: the field (not itself freed: it may be embedded)
 */
void hist_field_release(struct hist_field *hf)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hf->operands); i++) {
		if (!hf->operands[i])
			continue;
		hist_field_release(hf->operands[i]);
		kfree(hf->operands[i]);
	}
	kfree(hf->spec);
	kfree(hf->var_name);
	kfree(hf->agg_name);
	memset(hf, 0, sizeof(*hf));
}

/**
 * hist_div_mult - the multiplier that divides by a constant
 * @divisor: not zero, not a power of two
 *
 * n * mult >> 64, with mult = floor(2^64 / @divisor), is n / @divisor
 * or one less, because mult is short of 2^64 / @divisor by less than
 * one; hist_div_by_mult() corrects the estimate.
 *
 * Return: floor((2^64 - 1) / @divisor), which is the same number.
 */
u64 hist_div_mult(u64 divisor)
{
	return div64_u64(U64_MAX, divisor);
}

/**
 * hist_div_by_mult - divide by a constant, with its hist_div_mult()
 * @n: dividend
 * @mult: hist_div_mult(@divisor)
 * @divisor: the divisor, to correct the estimate
 *
 * Return: @n / @divisor, exactly.
 */
u64 hist_div_by_mult(u64 n, u64 mult, u64 divisor)
{
	u64 q = mul_u64_u64_shr(n, mult, 64);

	if (n - q * divisor >= divisor)
		q++;
	return q;
}

/**
 * hist_apply - one operator on two numbers
 * @op: enum hist_op, not one of the constant divisions
 * @a: the left operand (the only one of HIST_OP_NEG)
 * @b: the right operand
 *
 * The hit path's arithmetic, and the folding of constant operands at
 * creation, which must give the same result.
 *
 * Return: the result; a division by zero gives -1, as documented.
 */
u64 hist_apply(int op, u64 a, u64 b)
{
	switch (op) {
	case HIST_OP_ADD:
		return a + b;
	case HIST_OP_SUB:
		return a - b;
	case HIST_OP_MUL:
		return a * b;
	case HIST_OP_NEG:
		return -a;
	default:
		return b ? div64_u64(a, b) : (u64)-1;
	}
}

/**
 * hist_eval - the value of a field that is not read straight from the record
 * @hd: its histogram
 * @hf: an expression, or a string or stack (whose value is its address)
 * @hit: the hit
 *
 * Context: the hit path: any context, NMI included.
 * Return: the value.
 */
u64 hist_eval(const struct hist_data *hd, const struct hist_field *hf,
	      struct hist_hit *hit)
{
	unsigned int len;
	const void *p;
	u64 a, b;

	switch (hf->fetch) {
	case HIST_FETCH_EXPR:
		a = hist_fetch(hd, hf->operands[0], hit);
		switch (hf->op) {
		case HIST_OP_NEG:
			return -a;
		case HIST_OP_DIV_SHIFT:
			return a >> hf->div_shift;
		case HIST_OP_DIV_MULT:
			return hist_div_by_mult(a, hf->constant, hf->divisor);
		}
		b = hist_fetch(hd, hf->operands[1], hit);
		return hist_apply(hf->op, a, b);
	case HIST_FETCH_STACK:
		/* a trace() parameter: its count, then its entries */
		return (uintptr_t)(hit->stack - 2);
	default:
		/*
		 * A string or a stack of the record: its address.  Whoever
		 * reads a stack by its address trusts its count, so a count
		 * its length cannot hold makes no stack.
		 */
		p = hist_field_bytes(hf, hit->rec, &len);
		if (hf->fetch == HIST_FETCH_STACK_FIELD &&
		    !hist_stack_whole(p, len))
			return 0;
		return (uintptr_t)p;
	}
}

/* Histograms that define variables, in creation order; event_mutex. */
static LIST_HEAD(hist_var_hists);

/**
 * hist_var_hists_add - make a histogram's variables known by name
 * @hd: a histogram being attached, with variables
 *
 * Context: event_mutex held.
 */
void hist_var_hists_add(struct hist_data *hd)
{
	lockdep_assert_held(&event_mutex);
	list_add_tail(&hd->var_node, &hist_var_hists);
}

/**
 * hist_var_hists_del - undo hist_var_hists_add(), if it was done
 * @hd: the histogram
 *
 * Context: event_mutex held.
 */
void hist_var_hists_del(struct hist_data *hd)
{
	lockdep_assert_held(&event_mutex);
	list_del_init(&hd->var_node);
}

/**
 * hist_var_find_own - find a variable of the histogram being built
 * @hd: the histogram
 * @name: the variable's name, without '$'
 *
 * Return: its index in @hd->vars, or -1.
 */
int hist_var_find_own(const struct hist_data *hd, const char *name)
{
	unsigned int i;

	for (i = 0; i < hd->n_vars; i++)
		if (!strcmp(hd->vars[i].name, name))
			return i;
	return -1;
}

/**
 * hist_find_in_file - the histogram on an event file that defines a variable
 * @file: the event file
 * @var: the variable's name
 * @idx: receives the variable's index
 *
 * A trigger sharing a named histogram made on another event counts here:
 * its event reads and defines that histogram's variables.
 *
 * Context: event_mutex held.
 * Return: the histogram of the first hist trigger on @file that defines
 * @var, or NULL.
 */
struct hist_data *hist_find_in_file(struct trace_event_file *file,
				    const char *var, unsigned int *idx)
{
	struct event_trigger_data *data;
	int i;

	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		i = hist_var_find_own(data->private_data, var);
		if (i >= 0) {
			*idx = i;
			return data->private_data;
		}
	}
	return NULL;
}

/**
 * hist_find_on_event - the histogram on an event that defines a variable
 * @tr: the trace array
 * @system: the event's system
 * @event: the event's name
 * @var: the variable's name
 * @idx: receives the variable's index
 *
 * Context: event_mutex held.
 * Return: the histogram of the first hist trigger on the event that
 * defines @var, or NULL.
 */
struct hist_data *hist_find_on_event(struct trace_array *tr,
				     const char *system, const char *event,
				     const char *var, unsigned int *idx)
{
	struct trace_event_file *file;

	lockdep_assert_held(&event_mutex);
	file = find_event_file(tr, system, event);
	return file ? hist_find_in_file(file, var, idx) : NULL;
}

/**
 * hist_find_unique - the only histogram of a trace array defining a variable
 * @tr: the trace array
 * @var: the variable's name
 * @idx: receives the variable's index
 *
 * Context: event_mutex held.
 * Return: the histogram, NULL if there is none, or ERR_PTR(-EEXIST) if
 * there are several.
 */
struct hist_data *hist_find_unique(struct trace_array *tr, const char *var,
				   unsigned int *idx)
{
	struct hist_data *hd, *found = NULL;
	int i;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(hd, &hist_var_hists, var_node) {
		if (hd->tr != tr)
			continue;
		i = hist_var_find_own(hd, var);
		if (i < 0)
			continue;
		if (found)
			return ERR_PTR(-EEXIST);
		found = hd;
		*idx = i;
	}
	return found;
}

/**
 * hist_var_on_event - does a hist trigger on the same event define a variable
 * @hd: the histogram being built
 * @name: the variable's name
 *
 * Every hist trigger on @hd's event counts, as upstream has it: one that
 * shares a named histogram made on another event brings that
 * histogram's variables here.
 *
 * Context: event_mutex held.
 * Return: true if the histogram of a hist trigger on @hd's event
 * defines @name.
 */
bool hist_var_on_event(const struct hist_data *hd, const char *name)
{
	unsigned int idx;

	lockdep_assert_held(&event_mutex);
	return hist_find_in_file(hd->event_file, name, &idx);
}

/* The string or stack slot @slot of @elt, or NULL if it has none. */
static char *hist_slot(struct tracing_map_elt *elt, int slot)
{
	struct hist_elt_data *ed = elt->private_data;

	return ed ? ed->slots + slot * HIST_SLOT_SIZE : NULL;
}

/**
 * hist_slot_store - copy a string or stack into an element slot
 * @hd: the histogram
 * @hf: the field producing it
 * @hit: the hit
 * @elt: the element
 * @slot: the slot
 *
 * A stack is stored as the entry count then the entries, the form
 * synthetic events take.
 *
 * Context: the hit path.
 * Return: the slot's address, the value of the variable or saved field.
 */
u64 hist_slot_store(const struct hist_data *hd, const struct hist_field *hf,
		    struct hist_hit *hit, struct tracing_map_elt *elt, int slot)
{
	char *dst = hist_slot(elt, slot);
	unsigned long *stack = (unsigned long *)dst;
	unsigned int len = HIST_SLOT_SIZE;
	const void *src;

	if (!dst)
		return 0;
	switch (hf->fetch) {
	case HIST_FETCH_STACK:
		/* walked by the hit function: see struct hist_hit */
		stack[0] = hit->n_stack;
		memcpy(stack + 1, hit->stack, hit->n_stack * sizeof(long));
		return (uintptr_t)dst;
	case HIST_FETCH_STR_FIXED:
	case HIST_FETCH_STR_DATA_LOC:
	case HIST_FETCH_STR_REL_LOC:
	case HIST_FETCH_COMM:
		src = hist_field_bytes(hf, hit->rec, &len);
		break;
	case HIST_FETCH_STACK_FIELD:
		src = hist_field_bytes(hf, hit->rec, &len);
		if (!hist_stack_whole(src, len))
			src = NULL;
		break;
	default:
		/* a reference: the slot another variable's value points at */
		src = (const void *)(uintptr_t)hist_fetch(hd, hf, hit);
		break;
	}
	if (hf->flags & HIST_FIELD_FL_STACKTRACE)
		stack[0] = hist_copy_stack(stack + 1, src, len);
	else
		hist_copy_str(dst, min_t(unsigned int, hf->size, HIST_SLOT_SIZE),
			      src ?: "", len);
	return (uintptr_t)dst;
}
