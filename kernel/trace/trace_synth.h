/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic events: the types shared by their definition side
 * (trace_events_synth.c), their records (trace_synth_record.c) and the
 * hist trigger code that generates them from its trace() action.
 *
 * Locking and lifetime: the set of synthetic events and each event's
 * @ref are protected by event_mutex.  A definition never changes once
 * registered; it goes away only through synth_event_delete() or the
 * tracefs files, which refuse while @ref is not zero or the event is in
 * use in a trace instance.  A user that generates an event from an
 * event handler (a hist trigger's trace() action) takes @ref under
 * event_mutex before it can fire, and drops it as soon as the trigger
 * is retired, while handlers may still be calling synth_event_emit():
 * removal waits for them with hist_reclaim_wait() before it frees the
 * event.
 *
 * The values of a record are passed as u64s, one per field in field
 * order: a number's value; for a string, its address; for a stack, the
 * address of an array of unsigned long holding the entry count and then
 * the entries.  Strings and stacks are read with the nofault accessors.
 */
#ifndef __TRACE_SYNTH_H
#define __TRACE_SYNTH_H

#include <linux/tracepoint-defs.h>

#include "trace_dynevent.h"

#define SYNTH_SYSTEM		"synthetic"
#define SYNTH_FIELDS_MAX	64

/* Longest string a synthetic event (or a hist variable) carries. */
#define STR_VAR_LEN_MAX		MAX_FILTER_STR_VAL

/**
 * enum synth_field_kind - how a field's value is stored in a record
 * @SYNTH_FIELD_NUMBER: an integer of 1, 2, 4 or 8 bytes, in place
 * @SYNTH_FIELD_STRING: a char[N] string, N bytes in place
 * @SYNTH_FIELD_DYN_STRING: a char[] string, in the record's tail; the
 *	field itself is a 32-bit data_loc word (offset and length)
 * @SYNTH_FIELD_STACK: an unsigned long[] stack trace, in the tail like
 *	a char[] string; the payload is the entry count followed by the
 *	entries
 */
enum synth_field_kind {
	SYNTH_FIELD_NUMBER,
	SYNTH_FIELD_STRING,
	SYNTH_FIELD_DYN_STRING,
	SYNTH_FIELD_STACK,
};

/**
 * struct synth_field - one field of a synthetic event
 * @type: the type as the event's format file shows it ("u64",
 *	"char[16]", "__data_loc char[]")
 * @decl: the type as the definition is shown back in synthetic_events
 *	(@type without its "__data_loc " prefix)
 * @name: the field's name
 * @fmt: printf conversion for the format file's print fmt
 * @kind: how the value is stored
 * @size: bytes the field takes in the fixed part of a record
 * @offset: the field's offset from the start of a record
 * @is_signed: whether a number is sign-extended when read
 * @is_gfp: the value is a gfp_t, printed with its flag names
 */
struct synth_field {
	char			*type;
	const char		*decl;
	char			*name;
	const char		*fmt;
	enum synth_field_kind	kind;
	unsigned int		size;
	unsigned int		offset;
	bool			is_signed;
	bool			is_gfp;
};

/**
 * struct synth_event - a synthetic event definition
 * @devent: link into the list of dynamic events
 * @ref: number of hist triggers that generate or name this event;
 *	the event cannot be removed while it is not zero
 * @name: the event's name, under events/synthetic/
 * @mod: the module that created it through the in-kernel API, or NULL
 * @n_fields: number of entries in @fields
 * @n_dynamic: number of fields stored in a record's tail (char[] and
 *	stack fields); a record is fixed-size when this is zero
 * @fixed_size: bytes in a record up to its tail
 * @fixed_padded: the fixed part has bytes no field writes (alignment
 *	gaps, the rest of a char[N]): a record is cleared before it is
 *	filled
 * @class: the event class, system "synthetic"
 * @call: the event as the trace event core sees it
 * @tp: the tracepoint through which every trace instance that enabled
 *	the event receives it (see synth_event_emit())
 * @fields: the fields, in the order they were defined
 */
struct synth_event {
	struct dyn_event		devent;
	int				ref;
	char				*name;
	struct module			*mod;
	unsigned int			n_fields;
	unsigned int			n_dynamic;
	unsigned int			fixed_size;
	bool				fixed_padded;
	struct trace_event_class	class;
	struct trace_event_call		call;
	struct tracepoint		tp;
	struct synth_field		fields[];
};

/* Definition side, trace_events_synth.c */
struct synth_event *synth_event_find(const char *name);

/* A record: the common header, then the fields laid out as above. */
struct synth_trace_event {
	struct trace_entry	ent;
	u8			data[];
};

/* Records, trace_synth_record.c */
void synth_event_layout(struct synth_event *se);
int synth_event_init_call(struct synth_event *se);
struct synth_event *synth_event_of_call(struct trace_event_call *call);
void synth_event_emit(struct synth_event *se, const u64 *vals);

#if IS_ENABLED(CONFIG_KUNIT)
/* How a record is sized and written, static unless KUnit tests it. */
unsigned int synth_record_measure(const struct synth_event *se,
				  const u64 *vals, u16 *lens);
void synth_record_fill(const struct synth_event *se,
		       struct synth_trace_event *rec, const u64 *vals,
		       const u16 *lens);
#endif

/* Wait for retired hist triggers to be freed (trace_events_hist.c). */
#ifdef CONFIG_HIST_TRIGGERS
void hist_reclaim_wait(void);
#else
static inline void hist_reclaim_wait(void) { }
#endif

#endif /* __TRACE_SYNTH_H */
