// SPDX-License-Identifier: GPL-2.0
/*
 * Records of synthetic events: their layout, writing one (from a hist
 * trigger's trace() action or from the synth_event_trace*() API) and
 * printing one.
 *
 * Layout
 * ------
 * A record is the common struct trace_entry, then each field in order
 * at its natural alignment: an integer in its own size, a char[N] string
 * in N bytes, and a char[] string or a stack trace as a 32-bit data_loc
 * word (length << 16 | offset) pointing into the record's tail, where
 * the string (with its NUL) or the stack (its entry count, then the
 * entries, long-aligned) is stored.  The format file describes exactly
 * this, so tools, filters and hist triggers read records through it.
 *
 * A record with a tail is measured before it is reserved, and the
 * lengths measured are the ones written (synth_record_measure() and
 * synth_record_fill()), so a string that changes in between cannot make
 * the record overrun its reservation.
 *
 * Values come in as u64s, one per field in field order: an integer's
 * value, or for a string a pointer to it, or for a stack a pointer to an
 * array of unsigned long holding the entry count and then the entries.
 */

#include <kunit/visibility.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/trace_events.h>
#include <trace/events/mmflags.h>

#include "trace_synth.h"

/* ------------------------------------------------------------------ */
/* Layout and the event's description                                 */

/**
 * synth_event_layout - place the fields of a new event in its records
 * @se: the event, with its fields filled in
 *
 * Sets each field's offset, the event's fixed size, the number of
 * fields that live in the tail, and whether writing every field leaves
 * bytes of the fixed part unwritten.
 */
void synth_event_layout(struct synth_event *se)
{
	unsigned int i, pos = sizeof(struct trace_entry);

	se->n_dynamic = 0;
	se->fixed_padded = false;
	for (i = 0; i < se->n_fields; i++) {
		struct synth_field *field = &se->fields[i];

		/* a gap, or a char[N] whose string may be shorter than N */
		if (field->kind == SYNTH_FIELD_STRING)
			se->fixed_padded = true;
		else if (pos != ALIGN(pos, field->size))
			se->fixed_padded = true;
		if (field->kind != SYNTH_FIELD_STRING)
			pos = ALIGN(pos, field->size);
		field->offset = pos;
		pos += field->size;
		if (field->kind == SYNTH_FIELD_DYN_STRING ||
		    field->kind == SYNTH_FIELD_STACK)
			se->n_dynamic++;
	}
	se->fixed_size = pos;
}

static int synth_event_define_fields(struct trace_event_call *call)
{
	struct synth_event *se = call->data;
	unsigned int i;
	int ret;

	for (i = 0; i < se->n_fields; i++) {
		const struct synth_field *field = &se->fields[i];

		ret = trace_define_field(call, field->type, field->name,
					 field->offset, field->size,
					 field->is_signed,
					 field->kind == SYNTH_FIELD_STACK ?
					 FILTER_STACKTRACE : FILTER_OTHER);
		if (ret)
			return ret;
	}
	return 0;
}

static struct trace_event_fields synth_event_fields_array[] = {
	{ .type = TRACE_FUNCTION_TYPE,
	  .define_fields = synth_event_define_fields },
	{}
};

/* The format file's print fmt: "a=%u, s=%s", REC->a, __get_str(s) */
static char *synth_make_print_fmt(const struct synth_event *se)
{
	size_t size = 8;
	struct seq_buf s;
	unsigned int i;
	char *buf;

	for (i = 0; i < se->n_fields; i++)
		size += 2 * strlen(se->fields[i].name) + 32;
	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return NULL;

	seq_buf_init(&s, buf, size);
	seq_buf_putc(&s, '"');
	for (i = 0; i < se->n_fields; i++)
		seq_buf_printf(&s, "%s%s=%s", i ? ", " : "",
			       se->fields[i].name, se->fields[i].fmt);
	seq_buf_putc(&s, '"');
	for (i = 0; i < se->n_fields; i++) {
		const struct synth_field *field = &se->fields[i];
		const char *getter = "REC->%s";

		if (field->kind == SYNTH_FIELD_DYN_STRING)
			getter = "__get_str(%s)";
		else if (field->kind == SYNTH_FIELD_STACK)
			getter = "__get_stacktrace(%s)";
		seq_buf_puts(&s, ", ");
		seq_buf_printf(&s, getter, field->name);
	}
	if (WARN_ON_ONCE(seq_buf_has_overflowed(&s))) {
		kfree(buf);
		return NULL;
	}
	seq_buf_str(&s);
	return buf;
}

static void synth_event_probe(void *data, const u64 *vals);
static struct trace_event_functions synth_event_print_funcs;

/**
 * synth_event_init_call - make a laid-out event a trace event
 * @se: the event
 *
 * Fills in the class and call of @se the way the trace event core wants
 * them, print fmt included; the caller adds its ->reg and registers it.
 *
 * Return: 0, or -ENOMEM.
 */
int synth_event_init_call(struct synth_event *se)
{
	struct trace_event_call *call = &se->call;

	call->print_fmt = synth_make_print_fmt(se);
	if (!call->print_fmt)
		return -ENOMEM;
	se->tp.name = se->name;
	INIT_LIST_HEAD(&se->class.fields);
	se->class.system = SYNTH_SYSTEM;
	se->class.fields_array = synth_event_fields_array;
	se->class.probe = synth_event_probe;
	call->class = &se->class;
	call->event.funcs = &synth_event_print_funcs;
	call->tp = &se->tp;
	call->data = se;
	return 0;
}

/**
 * synth_event_of_call - the synthetic event behind a trace event
 * @call: any trace event
 *
 * Return: the synthetic event whose event @call is, or NULL if @call is
 * not a synthetic event.
 */
struct synth_event *synth_event_of_call(struct trace_event_call *call)
{
	if (call->class->fields_array != synth_event_fields_array)
		return NULL;
	return call->data;
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */

static void synth_put_number(void *dst, unsigned int size, u64 val)
{
	switch (size) {
	case 1:
		*(u8 *)dst = val;
		break;
	case 2:
		*(u16 *)dst = val;
		break;
	case 4:
		*(u32 *)dst = val;
		break;
	default:
		*(u64 *)dst = val;
		break;
	}
}

/*
 * Strings and stacks are read with the nofault accessors: a hist action
 * may pass on a pointer taken from a field of the event that fired,
 * which nothing guarantees to be valid now.
 */
static const char *synth_string_of(u64 val)
{
	return (const char *)(unsigned long)val;
}

static const unsigned long *synth_stack_of(u64 val)
{
	return (const unsigned long *)(unsigned long)val;
}

/* Length of @src without its NUL, at most STR_VAR_LEN_MAX - 1. */
static unsigned int synth_strlen_nofault(const char *src)
{
	unsigned int len;
	char c;

	if (!src)
		return 0;
	for (len = 0; len < STR_VAR_LEN_MAX - 1; len++) {
		if (get_kernel_nofault(c, src + len))
			return strlen(FAULT_STRING);
		if (!c)
			break;
	}
	return len;
}

/* Copy @src into @size bytes at @dst, NUL-terminated and zero-padded. */
static void synth_copy_string(char *dst, const char *src, unsigned int size)
{
	unsigned int len;

	if (!src || strncpy_from_kernel_nofault(dst, src, size) < 0)
		strscpy(dst, src ? FAULT_STRING : "", size);
	len = strnlen(dst, size);
	memset(dst + len, 0, size - len);
}

static unsigned int synth_stack_entries(const unsigned long *stack)
{
	unsigned long n;

	if (!stack || get_kernel_nofault(n, stack))
		return 0;
	return min_t(unsigned long, n, HIST_STACKTRACE_DEPTH);
}

/* Copy a stack of @size bytes (its count, then its entries) to @dst. */
static void synth_copy_stack(unsigned long *dst, const unsigned long *stack,
			     unsigned int size)
{
	size_t entries = size - sizeof(long);

	dst[0] = entries / sizeof(long);
	if (entries && copy_from_kernel_nofault(dst + 1, stack + 1, entries))
		memset(dst + 1, 0, entries);
}

/*
 * Size the tail of a record of @se for @vals: each tail field's length
 * goes into @lens, in field order, and the record's whole size is
 * returned.  synth_record_fill() then writes exactly these lengths, so
 * a string that changes in between cannot overrun the reservation.
 */
VISIBLE_IF_KUNIT unsigned int synth_record_measure(const struct synth_event *se,
						   const u64 *vals, u16 *lens)
{
	unsigned int i, n = 0, size = se->fixed_size;

	for (i = 0; n < se->n_dynamic; i++) {
		const struct synth_field *field = &se->fields[i];

		if (field->kind == SYNTH_FIELD_DYN_STRING) {
			lens[n] = synth_strlen_nofault(synth_string_of(vals[i])) + 1;
		} else if (field->kind == SYNTH_FIELD_STACK) {
			size = ALIGN(size, sizeof(long));
			lens[n] = (synth_stack_entries(synth_stack_of(vals[i])) + 1) *
				  sizeof(long);
		} else {
			continue;
		}
		size += lens[n++];
	}
	return size;
}

VISIBLE_IF_KUNIT void synth_record_fill(const struct synth_event *se,
					struct synth_trace_event *rec,
					const u64 *vals, const u16 *lens)
{
	unsigned int i, n = 0, tail = se->fixed_size;

	/* Padding between fields is zeroed, not left from older records. */
	if (se->fixed_padded)
		memset(rec->data, 0, se->fixed_size - sizeof(rec->ent));
	for (i = 0; i < se->n_fields; i++) {
		const struct synth_field *field = &se->fields[i];
		void *dst = (void *)rec + field->offset;
		unsigned int pad;

		switch (field->kind) {
		case SYNTH_FIELD_NUMBER:
			synth_put_number(dst, field->size, vals[i]);
			break;
		case SYNTH_FIELD_STRING:
			synth_copy_string(dst, synth_string_of(vals[i]),
					  field->size);
			break;
		case SYNTH_FIELD_DYN_STRING:
			synth_copy_string((void *)rec + tail,
					  synth_string_of(vals[i]), lens[n]);
			*(u32 *)dst = lens[n] << 16 | tail;
			tail += lens[n++];
			break;
		case SYNTH_FIELD_STACK:
			pad = ALIGN(tail, sizeof(long)) - tail;
			memset((void *)rec + tail, 0, pad);
			tail += pad;
			synth_copy_stack((void *)rec + tail,
					 synth_stack_of(vals[i]), lens[n]);
			*(u32 *)dst = lens[n] << 16 | tail;
			tail += lens[n++];
			break;
		}
	}
}

/*
 * Write one record of @se to the buffer of @file, unless the event is
 * soft-disabled there (or, for the API, not enabled at all).  Returns
 * -EINVAL if the event was to be recorded but the buffer took no record,
 * as upstream's API answers then.
 */
static int synth_record_emit(struct trace_event_file *file,
			     const struct synth_event *se, const u64 *vals,
			     bool check_enabled)
{
	struct trace_buffer *buffer = file->tr->array_buffer.buffer;
	/*
	 * Not cleared (a kernel that clears locals would clear 176 bytes on
	 * every record): the reserve sets what the commit reads, and each
	 * length is measured before it is used.
	 */
	struct trace_event_buffer fbuffer __uninitialized;
	u16 lens[SYNTH_FIELDS_MAX] __uninitialized;
	struct synth_trace_event *rec = NULL;
	bool refused = false;

	/*
	 * The record is written while the one of the event whose trigger
	 * generated it may still be open on this CPU: that is nesting, not
	 * recursion.  This also keeps preemption off for the trigger walk
	 * in trace_trigger_soft_disabled().
	 */
	ring_buffer_nest_start(buffer);
	if ((!check_enabled || (file->flags & EVENT_FILE_FL_ENABLED)) &&
	    !trace_trigger_soft_disabled(file)) {
		/* a record of numbers and char[N] has its size already */
		rec = trace_event_buffer_reserve(&fbuffer, file,
						 se->n_dynamic ?
						 synth_record_measure(se, vals,
								      lens) :
						 se->fixed_size);
		if (rec) {
			synth_record_fill(se, rec, vals, lens);
			trace_event_buffer_commit(&fbuffer);
		}
		refused = !rec;
	}
	ring_buffer_nest_end(buffer);
	return refused ? -EINVAL : 0;
}

/* The tracepoint probe: @data is the file of an instance that enabled @se. */
static void synth_event_probe(void *data, const u64 *vals)
{
	struct trace_event_file *file = data;

	/* a record lost to a full buffer is counted there */
	synth_record_emit(file, file->event_call->data, vals, false);
}

typedef void (*synth_probe_t)(void *data, const u64 *vals);

/**
 * synth_event_emit - generate a synthetic event
 * @se: the event
 * @vals: one value per field of @se, see the top of this file
 *
 * Records the event in every trace instance where it is enabled (and
 * runs its triggers).  This is what a hist trigger's trace() action
 * calls.  Strings and stacks are copied, so @vals may point to
 * temporary storage; a pointer that does not fault is all they need.
 *
 * Context: any context, NMI included, with preemption disabled (as in
 * an event's handler).  The caller must keep @se alive: see the rules
 * in trace_synth.h.
 */
void synth_event_emit(struct synth_event *se, const u64 *vals)
{
	struct tracepoint_func *probe;

	if (!static_key_enabled(&se->tp.key))
		return;
	probe = rcu_dereference_sched(se->tp.funcs);
	if (!probe)
		return;
	for (; probe->func; probe++)
		((synth_probe_t)probe->func)(probe->data, vals);
}

/* ------------------------------------------------------------------ */
/* The synth_event_trace*() API                                       */

/* The event behind @file, which the caller says is a synthetic one. */
static struct synth_event *synth_event_of_file(struct trace_event_file *file)
{
	return file ? synth_event_of_call(file->event_call) : NULL;
}

/**
 * synth_event_trace - write a synthetic event record
 * @file: the event's file in a trace instance (trace_get_event_file())
 * @n_vals: number of values that follow; must equal the event's fields
 * @...: one u64 per field, in field order: the value of a number, a
 *	string's address cast to u64 for a string
 *
 * Nothing is written, and 0 returned, if the event is not enabled in
 * @file's instance.
 *
 * Context: any context; it does not sleep.  Strings are read with the
 * nofault accessors; one that faults is recorded as "(fault)".
 * Return: 0, or -EINVAL if @file is not a synthetic event, if @n_vals is
 * not its field count, or if the buffer took no record (tracing is off
 * in the instance, or its buffer is full and does not overwrite).
 */
int synth_event_trace(struct trace_event_file *file, unsigned int n_vals, ...)
{
	struct synth_event *se = synth_event_of_file(file);
	u64 vals[SYNTH_FIELDS_MAX];
	unsigned int i;
	va_list args;

	if (!se || n_vals != se->n_fields)
		return -EINVAL;
	va_start(args, n_vals);
	for (i = 0; i < n_vals; i++)
		vals[i] = va_arg(args, u64);
	va_end(args);
	return synth_record_emit(file, se, vals, true);
}
EXPORT_SYMBOL_GPL(synth_event_trace);

/**
 * synth_event_trace_array - write a synthetic event record from an array
 * @file: the event's file in a trace instance (trace_get_event_file())
 * @vals: one u64 per field, as for synth_event_trace()
 * @n_vals: number of entries in @vals; must equal the event's fields
 *
 * Nothing is written, and 0 returned, if the event is not enabled in
 * @file's instance.
 *
 * Context: any context; it does not sleep.
 * Return: 0, or -EINVAL if @file is not a synthetic event, if @n_vals is
 * not its field count, or if the buffer took no record.
 */
int synth_event_trace_array(struct trace_event_file *file, u64 *vals,
			    unsigned int n_vals)
{
	struct synth_event *se = synth_event_of_file(file);

	if (!se || n_vals != se->n_fields)
		return -EINVAL;
	return synth_record_emit(file, se, vals, true);
}
EXPORT_SYMBOL_GPL(synth_event_trace_array);

/**
 * synth_event_trace_start - begin a record to fill field by field
 * @file: the event's file in a trace instance (trace_get_event_file())
 * @trace_state: state for the following calls, set up here
 *
 * Reserves a record in the buffer; fill it with synth_event_add_val()
 * or synth_event_add_next_val() (not both) and commit it with
 * synth_event_trace_end().  Fields never set read as zero.  If the
 * event is not enabled in @file's instance, or the buffer takes no
 * record now, the following calls do nothing.
 *
 * Context: preemption stays disabled from here to synth_event_trace_end(),
 * which must be called on every path once this returned 0.
 * Return: 0, -EINVAL without @trace_state or for a @file that is not a
 * synthetic event, -EOPNOTSUPP for an event with a char[] or stack
 * field (use synth_event_trace() for those).
 */
int synth_event_trace_start(struct trace_event_file *file,
			    struct synth_event_trace_state *trace_state)
{
	struct synth_event *se = synth_event_of_file(file);
	struct synth_trace_event *rec = NULL;

	if (!trace_state || !se)
		return -EINVAL;
	if (se->n_dynamic)
		return -EOPNOTSUPP;
	memset(trace_state, 0, sizeof(*trace_state));
	trace_state->event = se;
	trace_state->buffer = file->tr->array_buffer.buffer;

	/* As in synth_record_emit(), and held until the commit. */
	ring_buffer_nest_start(trace_state->buffer);
	if ((file->flags & EVENT_FILE_FL_ENABLED) &&
	    !trace_trigger_soft_disabled(file))
		rec = trace_event_buffer_reserve(&trace_state->fbuffer, file,
						 se->fixed_size);
	if (rec)
		memset(rec->data, 0, se->fixed_size - sizeof(rec->ent));
	trace_state->entry = rec;
	trace_state->disabled = !rec;
	return 0;
}
EXPORT_SYMBOL_GPL(synth_event_trace_start);

static int synth_add_val(const char *name, u64 val,
			 struct synth_event_trace_state *state)
{
	const struct synth_event *se;
	const struct synth_field *field = NULL;
	unsigned int i;
	void *dst;

	if (!state)
		return -EINVAL;
	/* Fields are set either all by name or all in order. */
	if (name ? state->add_next : state->add_name)
		return -EINVAL;
	state->add_name = !!name;
	state->add_next = !name;

	se = state->event;
	if (name) {
		for (i = 0; i < se->n_fields && !field; i++) {
			if (!strcmp(se->fields[i].name, name))
				field = &se->fields[i];
		}
	} else if (state->cur_field < se->n_fields) {
		field = &se->fields[state->cur_field++];
	}
	if (!field)
		return -EINVAL;
	if (state->disabled)
		return 0;

	dst = (void *)state->entry + field->offset;
	if (field->kind == SYNTH_FIELD_STRING)
		synth_copy_string(dst, synth_string_of(val), field->size);
	else
		synth_put_number(dst, field->size, val);
	return 0;
}

/**
 * synth_event_add_next_val - set the next field of a record
 * @val: the value, as for synth_event_trace()
 * @trace_state: the state synth_event_trace_start() set up
 *
 * Return: 0, or -EINVAL past the last field or after
 * synth_event_add_val() was used on the same record.
 */
int synth_event_add_next_val(u64 val,
			     struct synth_event_trace_state *trace_state)
{
	return synth_add_val(NULL, val, trace_state);
}
EXPORT_SYMBOL_GPL(synth_event_add_next_val);

/**
 * synth_event_add_val - set a field of a record by name
 * @field_name: the field's name
 * @val: the value, as for synth_event_trace()
 * @trace_state: the state synth_event_trace_start() set up
 *
 * Return: 0, or -EINVAL for an unknown field or after
 * synth_event_add_next_val() was used on the same record.
 */
int synth_event_add_val(const char *field_name, u64 val,
			struct synth_event_trace_state *trace_state)
{
	if (!field_name)
		return -EINVAL;
	return synth_add_val(field_name, val, trace_state);
}
EXPORT_SYMBOL_GPL(synth_event_add_val);

/**
 * synth_event_trace_end - commit a record begun by synth_event_trace_start()
 * @trace_state: the state synth_event_trace_start() set up
 *
 * Return: 0, or -EINVAL without @trace_state.
 */
int synth_event_trace_end(struct synth_event_trace_state *trace_state)
{
	if (!trace_state || !trace_state->buffer)
		return -EINVAL;
	if (trace_state->entry)
		trace_event_buffer_commit(&trace_state->fbuffer);
	ring_buffer_nest_end(trace_state->buffer);
	trace_state->entry = NULL;
	trace_state->buffer = NULL;
	trace_state->disabled = true;
	return 0;
}
EXPORT_SYMBOL_GPL(synth_event_trace_end);

/* ------------------------------------------------------------------ */
/* Printing                                                            */

static u64 synth_get_number(const void *src, const struct synth_field *field)
{
	switch (field->size) {
	case 1:
		return field->is_signed ? (s64)*(s8 *)src : *(u8 *)src;
	case 2:
		return field->is_signed ? (s64)*(s16 *)src : *(u16 *)src;
	case 4:
		return field->is_signed ? (s64)*(s32 *)src : *(u32 *)src;
	default:
		return *(u64 *)src;
	}
}

/*
 * Print one field of the record @rec of @size bytes.  The data_loc words
 * are checked against @size: a record may outlive its event's definition
 * in a buffer that was not cleared, and must not be read past its end.
 * Return true if the field ended its line, as a stack's frames do: the
 * next field then starts the line, as on upstream.
 */
static bool synth_print_field(struct trace_seq *s, const void *rec,
			      unsigned int size, const struct synth_field *field)
{
	static const struct trace_print_flags gfp_names[] = {
		__def_gfpflag_names, { -1, NULL }
	};
	const void *src = rec + field->offset;
	const unsigned long *stack;
	unsigned int i, off, len;
	u64 val;

	switch (field->kind) {
	case SYNTH_FIELD_NUMBER:
		val = synth_get_number(src, field);
		if (field->is_gfp) {
			trace_seq_printf(s, "%s=%x (", field->name, (u32)val);
			trace_print_flags_seq(s, "|", val, gfp_names);
			trace_seq_putc(s, ')');
		} else if (field->is_signed) {
			trace_seq_printf(s, "%s=%lld", field->name, (s64)val);
		} else {
			trace_seq_printf(s, "%s=%llu", field->name, val);
		}
		return false;
	case SYNTH_FIELD_STRING:
		trace_seq_printf(s, "%s=%.*s", field->name, field->size,
				 (const char *)src);
		return false;
	default:
		break;
	}

	off = *(const u32 *)src & 0xffff;
	len = *(const u32 *)src >> 16;
	if (off + len > size) {
		trace_seq_printf(s, "%s=(bad data_loc)", field->name);
		return false;
	}
	if (field->kind == SYNTH_FIELD_DYN_STRING) {
		trace_seq_printf(s, "%s=%.*s", field->name, len,
				 (const char *)rec + off);
		return false;
	}
	stack = rec + off;
	trace_seq_printf(s, "%s=STACK:\n", field->name);
	for (i = 1; i < len / sizeof(long); i++)
		trace_seq_printf(s, "=> %pS\n", (void *)stack[i]);
	return true;
}

static enum print_line_t synth_event_print(struct trace_iterator *iter,
					   int flags, struct trace_event *event)
{
	struct synth_event *se = container_of(event, struct synth_event,
					      call.event);
	bool verbose = iter->tr && (iter->tr->trace_flags & TRACE_ITER_VERBOSE);
	struct trace_seq *s = &iter->seq;
	bool line_ended = false;
	unsigned int i;

	trace_seq_printf(s, "%s: ", se->name);
	if (iter->ent_size < se->fixed_size) {
		trace_seq_puts(s, "(record too short)\n");
		return trace_handle_return(s);
	}
	for (i = 0; i < se->n_fields && !trace_seq_has_overflowed(s); i++) {
		/* a stack's frames end their lines: no space after one */
		if (i && !line_ended)
			trace_seq_putc(s, ' ');
		if (verbose)
			trace_seq_printf(s, "%s ", se->fields[i].fmt);
		line_ended = synth_print_field(s, iter->ent, iter->ent_size,
					       &se->fields[i]);
	}
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

static struct trace_event_functions synth_event_print_funcs = {
	.trace	= synth_event_print,
};
