/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hist triggers: the types shared by the files that make them up, and
 * the rules they keep.
 *
 * Layers
 * ------
 * The files are layers, each calling only the ones below it:
 *
 *   6 output      trace_hist_show.c     the trigger, hist and hist_debug
 *                                       files
 *   5 life cycle  trace_events_hist.c   the "hist" command; the only code
 *                                       that creates, attaches, counts
 *                                       references to, detaches and frees
 *                                       triggers and histograms (named
 *                                       sharing, field-variable
 *                                       histograms, the trace clock)
 *   4 runtime     trace_hist_run.c      the hit path: keys, values,
 *                                       references, variables, actions
 *   3 compiler    trace_hist_parse.c    trigger text -> struct hist_data,
 *                 trace_hist_expr.c     a plan nothing live points at yet;
 *                 trace_hist_vars.c     what it needs created first (a
 *                 trace_hist_actions.c  histogram carrying a field) it
 *                                       asks for instead of making it
 *   2 core        trace_hist.h          these types, the record decoder
 *                 trace_hist_core.c     (inline), error_log, evaluating
 *                                       expressions, element slots, the
 *                                       registry of variables
 *   1 storage     tracing_map.c, trace_synth_record.c
 *
 * The compiler also reads what the life cycle keeps, without calls: it
 * walks an event's trigger list for a histogram keyed like the one it
 * builds, and notes (without a reference) the field-variable triggers
 * it will use, which attaching then holds.
 *
 * A trigger is compiled once into a struct hist_data that says, for
 * every key and value, where its bytes are in the event record, how
 * wide and signed they are and what to do with them (a struct
 * hist_field).  The hit path only follows that plan: read each key into
 * the key buffer, insert-or-find the key in the tracing_map, add the
 * values to the sums.  Nothing is looked up by name and nothing is
 * allocated after creation.
 *
 * Locking and lifetimes
 * ---------------------
 * - Everything but the hit path and the reads of the hist files runs
 *   under event_mutex: compiling, attaching, detaching, freeing, the
 *   registry of variables, the reference counts below.
 * - The hit path runs in the event's context (any context, NMI
 *   included, preemption disabled) under the RCU-sched protection of the
 *   event's trigger list.  It takes no lock and allocates nothing; the
 *   per-CPU key buffers it nests in are counted, not locked.
 * - The compiler only borrows what it finds live: other histograms,
 *   synthetic events.  Attaching a trigger takes the references its
 *   plan needs, and retiring its histogram drops them.
 * - A trigger (struct event_trigger_data) counts its references in
 *   ->ref: one for being on the event's list, one held by each sharer
 *   of its named histogram, by each histogram reading its variables, by
 *   each one using it as a field-variable histogram, and by the command
 *   that made it as one, until that command ends.  The last one,
 *   dropped once the trigger is off the list, retires the histogram:
 *   it gives back at once what the user can see (name, variables,
 *   actions, the clock, the event) and queues the trigger, whose
 *   hist_data goes with it, map and percentile buckets included.  A work
 *   item frees what was queued after one
 *   tracepoint_synchronize_unregister() for the whole batch, so that
 *   no hit can still be running in it ("Reclaiming retired triggers" in
 *   trace_events_hist.c).
 * - An open hist file holds nothing of a histogram but what its own
 *   sorted snapshot took: the entries' addresses and the words copied
 *   of them.  It names the histogram by its trigger, its address and
 *   hist_data.serial, and each read() looks, under event_mutex, for a
 *   live trigger so named before it touches the histogram or the
 *   entries; one gone, or cleared since the sort (hist_data.clears),
 *   ends the read.
 * - A histogram whose variables another one reads counts that in
 *   hist_data.users and refuses to be removed until it drops to zero.
 * - A histogram holds its event from its first trigger's attach until
 *   it is retired, so neither a dynamic event's removal nor a module's
 *   unload frees the event under it.
 */
#ifndef __TRACE_HIST_H
#define __TRACE_HIST_H

#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/stacktrace.h>
#include <linux/trace_events.h>
#include <linux/unaligned.h>

#include "trace.h"
#include "trace_synth.h"
#include "tracing_map.h"

#define HIST_KEYS_MAX		TRACING_MAP_KEYS_MAX
/*
 * Numeric keys up to this many are built on the hit path's stack, more
 * in a per-CPU buffer: a bigger frame there would lengthen the stack
 * walks of the triggers that take stacks (trace_hist_run.c).
 */
#define HIST_KEY_STACK_WORDS	3
/* hitcount is vals[0]; then up to 15 values of the user's */
#define HIST_VALS_MAX		16
#define HIST_SORT_KEYS_MAX	TRACING_MAP_SORT_KEYS_MAX
/* size= takes 2^7 to 2^17 entries, as upstream's hist triggers do */
#define HIST_MAP_BITS_MAX	17
/* Stacks: HIST_STACKTRACE_DEPTH entries, from trace.h */
#define HIST_STACK_BYTES	HIST_STACKTRACE_SIZE
#define HIST_STR_MAX		MAX_FILTER_STR_VAL
#define HIST_PREFIX		"hist:"
/* Variables, hidden ones (onmax/onchange/save state) included */
#define HIST_VARS_MAX		TRACING_MAP_VARS_MAX
/* References to other histograms' variables */
#define HIST_REFS_MAX		TRACING_MAP_VARS_MAX
#define HIST_ACTIONS_MAX	8
/* Parameters of an action, and field variables: a synthetic event's fields */
#define HIST_PARAMS_MAX		SYNTH_FIELDS_MAX
/* Binary operators in one expression: more is refused, as documented */
#define HIST_SUBEXPR_MAX	3
/*
 * A string or stack kept in a map element, for a variable or a saved
 * field: the bytes, or the entry count followed by the entries.
 */
#define HIST_SLOT_SIZE		STR_VAR_LEN_MAX
static_assert((1 + HIST_STACKTRACE_DEPTH) * sizeof(unsigned long) <=
	      HIST_SLOT_SIZE);

/*
 * What a field is, for printing it and for hist_debug.  The names are
 * upstream's, as tools and the design notes use them.
 */
#define HIST_FIELD_FL_HITCOUNT		BIT(0)
#define HIST_FIELD_FL_KEY		BIT(1)
#define HIST_FIELD_FL_STRING		BIT(2)
#define HIST_FIELD_FL_HEX		BIT(3)
#define HIST_FIELD_FL_SYM		BIT(4)
#define HIST_FIELD_FL_SYM_OFFSET	BIT(5)
#define HIST_FIELD_FL_EXECNAME		BIT(6)
#define HIST_FIELD_FL_SYSCALL		BIT(7)
#define HIST_FIELD_FL_STACKTRACE	BIT(8)
#define HIST_FIELD_FL_LOG2		BIT(9)
#define HIST_FIELD_FL_TIMESTAMP		BIT(10)
#define HIST_FIELD_FL_TIMESTAMP_USECS	BIT(11)
#define HIST_FIELD_FL_CPU		BIT(12)
#define HIST_FIELD_FL_BUCKET		BIT(13)
#define HIST_FIELD_FL_PERCENT		BIT(14)
#define HIST_FIELD_FL_GRAPH		BIT(15)
#define HIST_FIELD_FL_COMM		BIT(16)
#define HIST_FIELD_FL_VAR		BIT(17)
#define HIST_FIELD_FL_VAR_REF		BIT(18)
#define HIST_FIELD_FL_EXPR		BIT(19)
#define HIST_FIELD_FL_CONST		BIT(20)
#define HIST_FIELD_FL_LOGLIN		BIT(21)

/*
 * How the hit path reads a field: chosen once, from the field's type,
 * size and signedness, so that reading it is one switch case.
 */
enum hist_fetch {
	HIST_FETCH_U8,
	HIST_FETCH_S8,
	HIST_FETCH_U16,
	HIST_FETCH_S16,
	HIST_FETCH_U32,
	HIST_FETCH_S32,
	HIST_FETCH_U64,
	HIST_FETCH_CPU,
	HIST_FETCH_TIMESTAMP,
	HIST_FETCH_TIMESTAMP_USECS,
	HIST_FETCH_ONE,		/* a hit: hitcount */
	HIST_FETCH_CONST,	/* @constant */
	HIST_FETCH_REF,		/* hit->refs[@slot]: another histogram's variable */
	HIST_FETCH_OWN_VAR,	/* hit->vars[@slot]: a variable of this one */
	HIST_FETCH_EXPR,	/* @op on @operands */
	/* the rest produce bytes, only as keys */
	HIST_FETCH_STR_FIXED,	/* char name[N] inside the record */
	HIST_FETCH_STR_DATA_LOC,	/* __data_loc char[] */
	HIST_FETCH_STR_REL_LOC,	/* __rel_loc char[] */
	HIST_FETCH_COMM,	/* current->comm */
	HIST_FETCH_STACK,	/* the stack of the event's context */
	HIST_FETCH_STACK_FIELD,	/* a stack saved in the record */
};

/* The operator of a HIST_FETCH_EXPR field. */
enum hist_op {
	HIST_OP_ADD,
	HIST_OP_SUB,
	HIST_OP_MUL,
	HIST_OP_DIV,		/* by a number known only at the hit */
	HIST_OP_DIV_SHIFT,	/* by a constant power of two */
	HIST_OP_DIV_MULT,	/* by another constant, as a multiplication */
	HIST_OP_NEG,
};

/* What to do with a number once it is read. */
enum hist_xform {
	HIST_XFORM_NONE,
	HIST_XFORM_LOG2,
	HIST_XFORM_BUCKETS,
	HIST_XFORM_LOGLIN,
	HIST_XFORM_USECS,	/* a variable's timestamp, ns to us */
};

/* What a value shows of the numbers its hits gave it. */
enum hist_agg {
	HIST_AGG_SUM,
	HIST_AGG_MIN,
	HIST_AGG_MAX,
	HIST_AGG_AVG,
	HIST_AGG_STDDEV,
	HIST_AGG_PCT,
};

/*
 * What a hit does to a value's words; several aggregations share one.
 * See "Aggregations" below for the layout.
 */
enum hist_update {
	HIST_UPD_SUM,		/* add to one word */
	HIST_UPD_MAX,		/* raise one word (min and max, see below) */
	HIST_UPD_SUM128,	/* add to a 128-bit sum (avg) */
	HIST_UPD_SQUARES,	/* and the 128-bit sum of squares (stddev) */
	HIST_UPD_BUCKETS,	/* count in the percentile buckets */
	HIST_UPD_NONE,		/* another value of the field counts them */
};

/**
 * struct hist_field - one key or value of a hist trigger
 * @fetch: how to read it (enum hist_fetch)
 * @xform: what to do with the number read (enum hist_xform)
 * @is_signed: the field is a signed integer (sign-extended to 64 bits)
 * @offset: where the field is in the event record
 * @size: size of the field in the record (for strings: the most bytes
 *	kept, including the terminating NUL)
 * @str_size: for a string, the size its source declares: N of a
 *	char[N], HIST_STR_MAX for one whose length is in the record; what
 *	a char[N] field of a synthetic event must match
 * @key_offset: for a key, where it goes in the key buffer
 * @key_size: for a key, the bytes it takes there (a multiple of 8)
 * @map_idx: the tracing_map field index (sum for values, key field for
 *	keys), used by sort keys
 * @flags: HIST_FIELD_FL_* describing it
 * @buckets: the bucket width of .buckets=N
 * @name: the name it is printed with in the hist file
 * @type: its C type, for hist_debug and for matching named triggers
 * @spec: its canonical text in the trigger file, e.g. "bytes_req.hex"
 * @field: the event's field, or NULL for hitcount and the common_*
 *	pseudo fields that are not in the record
 * @op: for an expression, the operator (enum hist_op)
 * @div_shift: for HIST_OP_DIV_SHIFT, the shift
 * @constant: the value of a constant; the multiplier of HIST_OP_DIV_MULT
 *	(hist_div_mult())
 * @divisor: the constant divisor of HIST_OP_DIV_MULT
 * @slot: for a reference, the index of its value in struct hist_hit
 * @operands: an expression's operands (the second is NULL for NEG)
 * @var_name: for a key that is also a variable, the variable's name
 * @agg: for a value, what it shows (enum hist_agg)
 * @update: for a value, what a hit does (enum hist_update)
 * @loglin_shift: .loglin=N: log2(N)
 * @agg_mask: .min and .max: what the word is xor'ed with
 *	(hist_extreme_mask())
 * @pct: .pD: the percentile, in millionths (p99 is 990000)
 * @pct_at: .pD: where its bucket array is in hist_elt_data.slots
 * @agg_name: an aggregated value's name, its field's name and the
 *	aggregation ("lat.max" for "$lat.max"); @name points at it
 */
struct hist_field {
	u8				fetch;
	u8				xform;
	bool				is_signed;
	unsigned int			offset;
	unsigned int			size;
	unsigned int			str_size;
	unsigned int			key_offset;
	unsigned int			key_size;
	int				map_idx;
	unsigned long			flags;
	u64				buckets;
	const char			*name;
	const char			*type;
	char				*spec;
	struct ftrace_event_field	*field;
	u8				op;
	u8				div_shift;
	u64				constant;
	u64				divisor;
	unsigned int			slot;
	struct hist_field		*operands[2];
	char				*var_name;
	u8				agg;
	u8				update;
	u8				loglin_shift;
	u64				agg_mask;
	u32				pct;
	unsigned int			pct_at;
	char				*agg_name;
};

/**
 * struct hist_var - a variable a histogram defines ("name=expression")
 * @name: its name, without the '$'
 * @map_idx: where a map element keeps its value (tracing_map var)
 * @str_slot: for a string or a stack, the element slot holding the
 *	bytes the value points at; -1 for a number
 * @value: how the hit computes it
 * @def: where the name is in the command, for error_log; only valid
 *	while the command is being parsed
 */
struct hist_var {
	char			*name;
	const char		*def;
	unsigned int		map_idx;
	int			str_slot;
	struct hist_field	value;
};

/**
 * struct hist_ref - a reference to another histogram's variable
 * @hd: the histogram that defines it (pinned: see hist_data.users)
 * @var: index of the variable in @hd->vars
 * @read_once: an expression uses it: reading it unsets it
 */
struct hist_ref {
	struct hist_data	*hd;
	unsigned int		var;
	bool			read_once;
};

/**
 * struct hist_hit - the state of one event hit on the general path
 * @rec: the event record
 * @buffer: the ring buffer it is in (for its timestamp)
 * @rbe: the ring buffer event
 * @refs: values of the references, by hist_field.slot
 * @vars: values this hit gave the histogram's variables
 * @stack: the stack of the event's context, walked once by the hit
 *	function itself when a variable, save() or trace() keeps it
 *	(hist_data.walks_stack): a walk from hist_slot_store() would keep
 *	frames of ours.  The two words before it are what a trace()
 *	parameter passes on (see hist_walk_stack())
 * @n_stack: entries in @stack
 *
 * @refs and @vars point at arrays only the general hit path sets up:
 * the kernel zeroes every array on the stack, and the short path of a
 * trigger without variables should not pay for that.
 */
struct hist_hit {
	void				*rec;
	struct trace_buffer		*buffer;
	struct ring_buffer_event	*rbe;
	u64				*refs;
	u64				*vars;
	unsigned long			*stack;
	unsigned int			n_stack;
};

enum hist_handler {
	HIST_ONMATCH,
	HIST_ONMAX,
	HIST_ONCHANGE,
	HIST_HANDLERS
};

enum hist_action_kind {
	HIST_ACT_TRACE,
	HIST_ACT_SAVE,
	HIST_ACT_SNAPSHOT,
};

/* Indexed by enum hist_handler: the names as written (trace_hist_actions.c) */
extern const char * const hist_handler_names[HIST_HANDLERS];

/**
 * struct hist_action - one handler.action pair
 * @hd: the histogram it belongs to
 * @handler: enum hist_handler
 * @kind: enum hist_action_kind
 * @text: the canonical text, ":handler(...).action(...)"
 * @arg: the handler's argument as written
 * @tracked: onmax/onchange: index of the tracked variable in @hd->vars
 * @track_var: onmax/onchange: map var holding the maximum or last value
 * @synth: trace: the synthetic event generated (its ->ref held)
 * @synth_name: trace: its name, in the copy of the command; only valid
 *	while the command is being parsed
 * @n_params: number of @params, @param_at, @save_var, @save_slot and
 *	@save_name entries in use (the first four have room for
 *	HIST_PARAMS_MAX at most, counted from the text)
 * @params: trace: the synthetic event's values; save: the fields saved
 * @param_at: the text of each parameter, in the copy of the command;
 *	only valid while the command is being parsed
 * @save_var: save: map var of each saved field
 * @save_slot: save: element slot of each saved string, or -1
 * @save_name: save: the name each saved field is shown by, its parameter
 *	as written without the spaces around it (a copy of each)
 * @snap_val: snapshot: the value that triggered the last snapshot
 * @snap_key: snapshot: the key of that hit
 * @snap_comm: snapshot: the comm of that hit's entry, for a .execname key
 * @snap_taken: snapshot: a snapshot was taken
 * @snap_enabled: snapshot: our conditional snapshot is registered
 */
struct hist_action {
	struct hist_data	*hd;
	u8			handler;
	u8			kind;
	char			*text;
	char			*arg;
	unsigned int		tracked;
	unsigned int		track_var;
	struct synth_event	*synth;
	const char		*synth_name;
	unsigned int		n_params;
	struct hist_field	*params;
	char			**param_at;
	unsigned int		*save_var;
	int			*save_slot;
	char			**save_name;
	u64			snap_val;
	void			*snap_key;
	char			snap_comm[TASK_COMM_LEN];
	bool			snap_taken;
	bool			snap_enabled;
};

/**
 * struct hist_attrs - the trigger text, split into its parts
 * @keys: text after keys=, inside the command text (see below)
 * @vals: text after vals= (NULL: hitcount only), likewise
 * @sort: text after sort= (NULL: hitcount), likewise
 * @name: text after name=, the shared histogram's name
 * @name_at: where that name is in the command, for error_log
 * @clock: text after clock= (default "global")
 * @clock_at: where that text is in the command, for error_log; only
 *	valid while the command is being parsed
 * @var_defs: each "name=expression" outside keys= and vals=, in the
 *	command text like @keys
 * @n_var_defs: number of @var_defs
 * @action_defs: each handler.action, in the command text
 * @n_action_defs: number of @action_defs
 * @map_bits: log2 of size=, rounded up
 * @pause: start paused, or pause the existing trigger
 * @cont: continue the existing trigger
 * @clear: clear the existing trigger
 * @no_hitcount: do not show hitcount
 * @top: show only the first @top entries; 0 shows them all
 *
 * @keys, @vals and @sort point into the command being parsed and are
 * only valid until hist_data_parse() returns; @name and @clock are
 * allocated and stay with the histogram.
 */
struct hist_attrs {
	char		*keys;
	char		*vals;
	char		*sort;
	char		*name;
	const char	*name_at;
	char		*clock;
	const char	*clock_at;
	char		*var_defs[HIST_VARS_MAX];
	unsigned int	n_var_defs;
	char		*action_defs[HIST_ACTIONS_MAX];
	unsigned int	n_action_defs;
	unsigned int	map_bits;
	bool		pause;
	bool		cont;
	bool		clear;
	bool		no_hitcount;
	unsigned int	top;
};

/*
 * How a hit is taken, from the simplest; see hist_hit().  HIST_PATH_OFF
 * drops every hit while a clear empties the map.
 */
enum hist_hit_path {
	HIST_PATH_OFF,
	HIST_PATH_COUNT,	/* one number, hitcount only */
	HIST_PATH_U64,		/* one number: the key in a register */
	HIST_PATH_WORDS,	/* up to HIST_KEY_STACK_WORDS numbers */
	HIST_PATH_PAD,		/* strings, stacks, more numbers */
	HIST_PATH_GENERAL_U64,	/* variables, references, actions; one number */
	HIST_PATH_GENERAL,	/* variables, references, actions */
	HIST_PATH_SAME_HIT,	/* taken by the trigger whose variables we read */
};

/**
 * struct hist_data - one histogram: its plan and its map
 * @keys: the key fields, in key-buffer order
 * @vals: vals[0] is hitcount, then the user's values
 * @n_keys: number of @keys
 * @n_vals: number of @vals, hitcount included
 * @sort_keys: the sort order: for a key its tracing_map field index, for
 *	a value its word of the hist file's snapshot (hist_sort_by())
 * @sort_fields: the key or value each of @sort_keys sorts by
 * @n_sort_keys: number of @sort_keys
 * @n_sums: tracing_map sum words the values take
 * @pct_bytes: bytes of percentile buckets each entry keeps
 * @pct_text: where the first percentile is in the command, for
 *	error_log; only valid while the command runs
 * @key_size: bytes in the key buffer
 * @single_u64_key: the key is one number, built in a register
 * @hit_path: which function hist_hit() hands a hit to (enum
 *	hist_hit_path), chosen at creation; HIST_PATH_OFF while a clear
 *	empties the map (written under event_mutex, read on the hit path)
 * @key_in_pad: the key is built in a per-CPU buffer, cleared first: it
 *	has a string or a stack in it, or more numbers than
 *	HIST_KEY_STACK_WORDS
 * @needs_comm: an element keeps the comm of the task that created it
 *	(.execname)
 * @uses_timestamp: common_timestamp is read: the buffer's clock matters
 * @map: the tracing_map holding the entries
 * @attrs: the parsed trigger text
 * @tr: the trace array of the event
 * @event_file: the event the histogram was created on
 * @match: canonical text without size and state, to find the trigger
 *	a "!hist", "pause" or "clear" command names
 * @vars: the variables, in the order they are computed
 * @n_vars: number of @vars
 * @refs: references to other histograms' variables
 * @n_refs: number of @refs
 * @actions: handler.action pairs, run in order after the update
 * @n_actions: number of @actions
 * @n_map_vars: tracing_map vars in use (@vars, then action state)
 * @n_str_slots: string and stack slots of a map element
 * @lookup_size: key bytes a referenced histogram may compare: the key
 *	buffer is cleared up to here
 * @general: take the general hit path (variables, references, actions)
 * @walks_stack: a variable, save() or trace() takes common_stacktrace: the hit
 *	walks the stack first (struct hist_hit)
 * @resolve: actions are resolved, and variables checked against those of
 *	the event's other triggers, for a trigger that may be created
 *	(false when the text only names a trigger to remove, continue
 *	or clear; references to other histograms are looked up either way)
 * @users: references to our variables from other histograms; we
 *	cannot be removed while there are any
 * @trigger: the trigger that owns us; each reference to our variables
 *	holds a reference on it, so that whatever order triggers are
 *	freed in (an instance going away frees them all), we outlive the
 *	histograms reading our variables
 * @var_node: in the list of histograms that define variables
 * @field_var_hists: histograms created on other events to carry
 *	fields our actions need from them
 * @n_field_var_hists: number of @field_var_hists
 * @field_var_hist: we are such a histogram, made for other triggers and
 *	removed by the last of them
 * @clears: clears so far (event_mutex): a hist file snapshot taken
 *	before the last one names entries that may hold other keys now
 * @serial: set when the first trigger is attached, a number no other
 *	histogram of this boot had (event_mutex): a hist file snapshot
 *	names us by it, so that a histogram made at our address once we
 *	are freed is not taken for us
 * @event_held: the owning trigger was removed while other triggers
 *	shared us: its event stays in trigger mode until we are retired
 * @sharer_pins: the events of the triggers sharing us, each held by its
 *	trigger (struct hist_sharer_pin, trace_events_hist.c)
 * @same_hit: we read the variables another trigger on our event sets in
 *	the same hit (our keys name them): every one of @refs is to that
 *	histogram, and our hits are taken from its hit (see "Variables as
 *	keys" in trace_hist_run.c), not from the trigger core's call
 * @readers: the histograms reading our variables in the same hit, on
 *	@reader_node (RCU: added and removed under event_mutex, walked by
 *	our hits)
 * @reader_node: in @readers of the histogram we read, while @reading
 * @reading: on that list (event_mutex)
 * @reader_leaf: @same_hit with one numeric key, no variables and no
 *	actions: the hit path's shortest reader (hist_reader_leaf())
 * @reader_paused: the pause flag of our trigger when @same_hit: its
 *	event_trigger_data.paused stays set, so that the trigger core never
 *	calls it (hist_set_paused())
 */
struct hist_data {
	struct hist_field		keys[HIST_KEYS_MAX];
	struct hist_field		vals[HIST_VALS_MAX];
	unsigned int			n_keys;
	unsigned int			n_vals;
	struct tracing_map_sort_key	sort_keys[HIST_SORT_KEYS_MAX];
	const struct hist_field		*sort_fields[HIST_SORT_KEYS_MAX];
	unsigned int			n_sort_keys;
	unsigned int			n_sums;
	size_t				pct_bytes;
	const char			*pct_text;
	unsigned int			key_size;
	bool				single_u64_key;
	u8				hit_path;
	bool				key_in_pad;
	bool				needs_comm;
	bool				uses_timestamp;
	struct tracing_map		*map;
	struct hist_attrs		attrs;
	struct trace_array		*tr;
	struct trace_event_file		*event_file;
	char				*match;
	struct hist_var			vars[HIST_VARS_MAX];
	unsigned int			n_vars;
	struct hist_ref			refs[HIST_REFS_MAX];
	unsigned int			n_refs;
	struct hist_action		*actions[HIST_ACTIONS_MAX];
	unsigned int			n_actions;
	unsigned int			n_map_vars;
	unsigned int			n_str_slots;
	unsigned int			lookup_size;
	bool				general;
	bool				walks_stack;
	bool				resolve;
	int				users;
	struct event_trigger_data	*trigger;
	struct list_head		var_node;
	struct event_trigger_data	*field_var_hists[HIST_PARAMS_MAX];
	unsigned int			n_field_var_hists;
	bool				field_var_hist;
	unsigned int			clears;
	u64				serial;
	bool				event_held;
	struct list_head		sharer_pins;
	bool				same_hit;
	struct list_head		readers;
	struct list_head		reader_node;
	bool				reading;
	bool				reader_leaf;
	bool				reader_paused;
};

/**
 * struct hist_elt_data - what a map element keeps besides its sums
 * @comm: the comm of the task that created the entry (.execname)
 * @slots: hist_data.n_str_slots slots of HIST_SLOT_SIZE bytes for the
 *	strings and stacks of variables and saved fields, then
 *	hist_data.pct_bytes of percentile buckets
 */
struct hist_elt_data {
	char	comm[TASK_COMM_LEN];
	char	slots[];
};

/**
 * struct hist_field_var_need - a histogram the compiler needs made first
 * @file: the event to make it on
 * @cmd: its trigger text, without "hist:" (allocated)
 * @at: the field it carries, in the command, for error_log
 *
 * An action's parameter "system.event.field" reads the field through a
 * variable of a histogram on that event.  When there is none yet, the
 * compiler fills this in and fails with -EAGAIN; the life cycle makes
 * the histogram and compiles the trigger again.
 */
struct hist_field_var_need {
	struct trace_event_file	*file;
	char			*cmd;
	const char		*at;
};

/**
 * struct hist_parse_ctx - the command being compiled
 * @tr: its trace array, for error_log
 * @loc: "hist:system:event", for error_log
 * @cmd: the command as written, for error_log (the caret goes under
 *	the first occurrence in it of the text an error is about)
 * @need: where the compiler asks for a field-variable histogram
 * @remove: the command removes a trigger ("!hist:..."): as upstream, its
 *	variables are not checked against each other or other triggers'
 */
struct hist_parse_ctx {
	struct trace_array		*tr;
	const char			*loc;
	const char			*cmd;
	struct hist_field_var_need	*need;
	bool				remove;
};

/* The parts hist_spec_text() prints, in the order it prints them. */
#define HIST_SPEC_NAME		BIT(0)	/* name= */
#define HIST_SPEC_KEYS		0	/* keys=, always */
#define HIST_SPEC_KEY_VARS	BIT(1)	/* the "var=" of keys that are variables */
#define HIST_SPEC_BODY		BIT(2)	/* vals=, variables, sort= */
#define HIST_SPEC_SIZE		BIT(3)	/* size=, clock= */
#define HIST_SPEC_ACTIONS	BIT(4)	/* nohitcount, handlers and actions */
/* what makes two commands name the same trigger */
#define HIST_SPEC_MATCH		(HIST_SPEC_KEY_VARS | HIST_SPEC_BODY | \
				 HIST_SPEC_ACTIONS)
#define HIST_SPEC_ALL		(HIST_SPEC_NAME | HIST_SPEC_MATCH | \
				 HIST_SPEC_SIZE)

/* 2 core: trace_hist_core.c */
void hist_err(const struct hist_parse_ctx *ctx, unsigned int err,
	      const char *at);
void hist_field_release(struct hist_field *hf);
u64 hist_div_mult(u64 divisor);
u64 hist_div_by_mult(u64 n, u64 mult, u64 divisor);
u64 hist_apply(int op, u64 a, u64 b);
u64 hist_eval(const struct hist_data *hd, const struct hist_field *hf,
	      struct hist_hit *hit);
extern const struct tracing_map_ops hist_elt_ops;
u64 hist_slot_store(const struct hist_data *hd, const struct hist_field *hf,
		    struct hist_hit *hit, struct tracing_map_elt *elt, int slot);
int hist_var_find_own(const struct hist_data *hd, const char *name);
void hist_var_hists_add(struct hist_data *hd);
void hist_var_hists_del(struct hist_data *hd);
struct hist_data *hist_find_on_event(struct trace_array *tr,
				     const char *system, const char *event,
				     const char *var, unsigned int *idx);
struct hist_data *hist_find_unique(struct trace_array *tr, const char *var,
				   unsigned int *idx);
bool hist_var_on_event(const struct hist_data *hd, const char *name);
struct hist_data *hist_find_in_file(struct trace_event_file *file,
				    const char *var, unsigned int *idx);

/* 2 core: trace_hist_agg.c */
u64 hist_avg128(const u64 *sum, u64 n, bool is_signed);
u64 hist_stddev128(const u64 *sum, const u64 *squares, u64 n,
		   bool is_signed);
unsigned int hist_pct_buckets(bool is_signed);
u64 hist_pct_bucket_value(unsigned int idx, bool is_signed);
u64 hist_pct_value(const atomic64_t *buckets, bool is_signed, u32 pct);
u64 hist_val_read(const struct hist_field *hf,
		  const struct tracing_map_elt *elt);
u64 hist_loglin_high(u64 low, unsigned int bits, bool is_signed);

/* 3 compiler: trace_hist_parse.c, _expr.c, _vars.c, _actions.c */
int hist_parse_attrs(const struct hist_parse_ctx *ctx, char *param,
		     struct hist_attrs *attrs);
void hist_free_attrs(struct hist_attrs *attrs);
struct hist_data *hist_data_parse(const struct hist_parse_ctx *ctx,
				  struct trace_event_file *file,
				  struct hist_attrs *attrs, bool resolve);
int hist_data_finish(const struct hist_parse_ctx *ctx,
		     struct trace_event_file *file, struct hist_data *hd);
struct hist_data *hist_data_create(const struct hist_parse_ctx *ctx,
				   struct trace_event_file *file,
				   struct hist_attrs *attrs, bool resolve);
int hist_data_make_map(const struct hist_parse_ctx *ctx, struct hist_data *hd);
void hist_data_destroy(struct hist_data *hd);
bool hist_data_compatible(const struct hist_data *a,
			  const struct hist_data *b);
char *hist_spec_text(const struct hist_data *hd, unsigned int parts);
void hist_spec_show(struct seq_file *m, const struct hist_data *hd,
		    unsigned int parts);
const char *hist_modifier_next(unsigned long flags, unsigned int *pos);
int hist_parse_field(const struct hist_parse_ctx *ctx,
		     struct trace_event_file *file, struct hist_data *hd,
		     struct hist_field *hf, char *text, bool is_key);
int hist_parse_expr(const struct hist_parse_ctx *ctx,
		    struct trace_event_file *file, struct hist_data *hd,
		    char *text, struct hist_field *out);
bool hist_text_is_expr(const char *text);
bool hist_field_reads_vars(const struct hist_field *hf);
int hist_parse_ref_field(const struct hist_parse_ctx *ctx,
			 struct hist_data *hd, struct hist_field *hf,
			 char *text, bool is_key);
int hist_vars_check_form(const struct hist_parse_ctx *ctx,
			 const struct hist_data *hd);
int hist_vars_parse(const struct hist_parse_ctx *ctx,
		    struct trace_event_file *file, struct hist_data *hd);
int hist_var_define(const struct hist_parse_ctx *ctx,
		    struct trace_event_file *file, struct hist_data *hd,
		    char *name, char *expr);
/* How hist_ref_add() looks a variable up */
#define HIST_REF_PARAM		BIT(0)	/* trace()'s: "Couldn't find param" */
#define HIST_REF_NOT_OWN	BIT(1)	/* save()'s: not this trigger's own */
#define HIST_REF_MATCH_ONLY	BIT(2)	/* after onmatch(): that event only */
#define HIST_REF_KEY		BIT(3)	/* a key's: a number, set in this hit */
int hist_ref_add(const struct hist_parse_ctx *ctx, struct hist_data *hd,
		 char *text, struct hist_field *hf, unsigned int how);
int hist_actions_split(const struct hist_parse_ctx *ctx, struct hist_data *hd);
int hist_actions_resolve(const struct hist_parse_ctx *ctx,
			 struct trace_event_file *file, struct hist_data *hd);
int hist_handler_of(const char *text);
int hist_agg_of(const char *word, u32 *pct);
bool hist_name_reserved(const char *name);
char *hist_var_def_text(const struct hist_data *hd, const char *name);
const struct hist_action *hist_save_action(const struct hist_data *hd);
void hist_actions_free(struct hist_data *hd);

/* 4 runtime: trace_hist_run.c */
bool hist_refs_resolve(const struct hist_data *hd, const void *key,
		       struct hist_hit *hit);
void hist_vars_set(const struct hist_data *hd, struct tracing_map_elt *elt,
		   struct hist_hit *hit);
void hist_actions_run(struct hist_data *hd, struct tracing_map_elt *elt,
		      const void *key, struct hist_hit *hit);
bool hist_snapshot_update(struct trace_array *tr, void *data);
void hist_reader_link(struct hist_data *hd);
void hist_reader_unlink(struct hist_data *hd);

/* 6 output: trace_hist_show.c */
void hist_print_key(struct seq_file *m, const struct hist_data *hd,
		    const void *key, const char *comm);
int hist_print_trigger(struct seq_file *m, struct event_trigger_data *data);

/* Errors; those upstream logs too are worded as upstream's are. */
enum {
	HIST_ERR_NAMED_MISMATCH,
	HIST_ERR_TRIGGER_EEXIST,
	HIST_ERR_TRIGGER_ENOENT_CLEAR,
	HIST_ERR_SET_CLOCK_FAIL,
	HIST_ERR_BAD_FIELD_MODIFIER,
	HIST_ERR_FIELD_NOT_FOUND,
	HIST_ERR_EMPTY_ASSIGNMENT,
	HIST_ERR_INVALID_SORT_MODIFIER,
	HIST_ERR_EMPTY_SORT_FIELD,
	HIST_ERR_TOO_MANY_SORT_FIELDS,
	HIST_ERR_INVALID_SORT_FIELD,
	HIST_ERR_NEED_NOHC_VAL,
	HIST_ERR_TOO_MANY_KEYS,
	HIST_ERR_TOO_MANY_VALS,
	HIST_ERR_BAD_MAP_SIZE,
	HIST_ERR_MISSING_KEYS,
	HIST_ERR_BAD_VAL_TYPE,
	HIST_ERR_KEY_TOO_BIG,
	HIST_ERR_UNKNOWN_ATTR,
	HIST_ERR_DUPLICATE_ATTR,
	HIST_ERR_DUPLICATE_VAR,
	HIST_ERR_VAR_NOT_UNIQUE,
	HIST_ERR_TOO_MANY_VARS,
	HIST_ERR_MALFORMED_ASSIGNMENT,
	HIST_ERR_TOO_MANY_SUBEXPR,
	HIST_ERR_TIMESTAMP_MISMATCH,
	HIST_ERR_TOO_MANY_FIELD_VARS,
	HIST_ERR_EVENT_FILE_NOT_FOUND,
	HIST_ERR_HIST_NOT_FOUND,
	HIST_ERR_HIST_CREATE_FAIL,
	HIST_ERR_FIELD_VAR_PARSE_FAIL,
	HIST_ERR_FIELD_VAR_CREATE_FAIL,
	HIST_ERR_SYNTH_EVENT_NOT_FOUND,
	HIST_ERR_SYNTH_TYPE_MISMATCH,
	HIST_ERR_SYNTH_COUNT_MISMATCH,
	HIST_ERR_ONX_NOT_VAR,
	HIST_ERR_ONX_VAR_NOT_FOUND,
	HIST_ERR_TOO_MANY_PARAMS,
	HIST_ERR_PARAM_NOT_FOUND,
	HIST_ERR_INVALID_PARAM,
	HIST_ERR_ACTION_NOT_FOUND,
	HIST_ERR_TOO_MANY_SAVE_ACTIONS,
	HIST_ERR_ACTION_MISMATCH,
	HIST_ERR_NO_CLOSING_PAREN,
	HIST_ERR_SUBSYS_NOT_FOUND,
	HIST_ERR_INVALID_SUBSYS_EVENT,
	HIST_ERR_INVALID_REF_KEY,
	HIST_ERR_VAR_NOT_FOUND,
	HIST_ERR_INVALID_STR_OPERAND,
	HIST_ERR_EXPECT_NUMBER,
	HIST_ERR_UNARY_MINUS_SUBEXPR,
	HIST_ERR_DIVISION_BY_ZERO,
	HIST_ERR_VAR_IN_USE,
	HIST_ERR_NAMED_OTHER_INSTANCE,
	HIST_ERR_ENABLE_FAIL,
	HIST_ERR_AGG_ON_KEY,
	HIST_ERR_AGG_TWICE,
	HIST_ERR_AGG_BAD_TYPE,
	HIST_ERR_BAD_PERCENTILE,
	HIST_ERR_PCT_TOO_BIG,
	HIST_ERR_BAD_LOGLIN,
	HIST_ERR_BAD_TOP,
	HIST_ERR_RESERVED_NAME,
	HIST_ERR_SAME_HIT_EVENT,
	HIST_ERR_SAME_HIT_ONE,
	HIST_ERR_SAME_HIT_NAMED,
	HIST_ERR_SAME_HIT_NUMBER,
	HIST_ERR_SAME_HIT_STACK,
	HIST_ERR_MAX,
};

/*
 * The record decoder
 * ------------------
 * A string or stack field is found in the record in one of these ways,
 * and everything that reads one (a key, an expression's operand, a
 * variable's slot) goes through hist_field_bytes() to find it:
 *
 *   char name[N]            the bytes are at the field's offset
 *   __data_loc char[] name  a u32 at the offset: the low 16 bits are
 *                           where the bytes start in the record, the
 *                           high 16 bits how many there are
 *   __rel_loc char[] name   the same, counted from the end of the u32
 *   a synthetic stack       a __data_loc whose bytes are an entry
 *                           count and then the entries
 *
 * The comm and the stack of the event's context are not in the record.
 * All of it is inline: the hit path of a string or stack key is made of
 * it, and the stack walk skips a fixed number of frames.
 */

/**
 * hist_field_bytes - where a string or stack field's bytes are
 * @hf: a field for which hist_field_is_bytes() holds
 * @rec: the event record
 * @len: receives the most bytes there are to read at the address
 *
 * A stack saved in a record is returned as its entry count followed by
 * the entries, the form of a variable slot; its count is the writer's
 * and is only as good as @len says (see hist_copy_stack()).
 *
 * Context: the hit path: any context, NMI included.
 * Return: the address, or NULL for the stack of the event's context,
 * which has to be walked (hist_stack_save()), and for a stack too short
 * to hold its count.
 */
static __always_inline const void *
hist_field_bytes(const struct hist_field *hf, void *rec, unsigned int *len)
{
	u32 loc;

	switch (hf->fetch) {
	case HIST_FETCH_STR_FIXED:
		/* hf->size has room for a NUL the field may lack */
		*len = hf->size - 1;
		return rec + hf->offset;
	case HIST_FETCH_STR_DATA_LOC:
	case HIST_FETCH_STACK_FIELD:
		loc = get_unaligned((u32 *)(rec + hf->offset));
		*len = loc >> 16;
		if (hf->fetch == HIST_FETCH_STACK_FIELD && *len < sizeof(long))
			return NULL;
		return rec + (loc & 0xffff);
	case HIST_FETCH_STR_REL_LOC:
		loc = get_unaligned((u32 *)(rec + hf->offset));
		*len = loc >> 16;
		return rec + hf->offset + sizeof(u32) + (loc & 0xffff);
	case HIST_FETCH_COMM:
		*len = TASK_COMM_LEN;
		return current->comm;
	default:
		*len = 0;
		return NULL;
	}
}

/**
 * hist_stack_whole - does a record's stack hold the entries it counts
 * @stack: what hist_field_bytes() found (count, entries), or NULL
 * @len: the bytes there are at @stack
 *
 * A reader that trusts the count (a variable, a synthetic event's
 * field) gets no stack rather than a truncated one; a key keeps what
 * the length holds (hist_copy_stack()).
 *
 * Return: true if @stack is whole.
 */
static __always_inline bool hist_stack_whole(const unsigned long *stack,
					     unsigned int len)
{
	return stack && stack[0] <= len / sizeof(long) - 1;
}

/**
 * hist_field_is_bytes - does the field produce bytes rather than a number
 * @hf: a parsed field
 *
 * Return: true for strings and stacks.
 */
static __always_inline bool hist_field_is_bytes(const struct hist_field *hf)
{
	return hf->flags & (HIST_FIELD_FL_STRING | HIST_FIELD_FL_STACKTRACE);
}

/*
 * The frames of the tracing code between the event and the walk: those
 * of upstream's trigger, whose walk starts in stack_trace_save() and
 * skips that one too.  hist_hit() tail-calls the function that walks,
 * as upstream's trigger is called, except in a kernel with frame
 * pointers, which builds without sibling calls and has hist_hit()'s own
 * frame to skip as well.
 */
#define HIST_STACK_SKIP	(HIST_STACKTRACE_SKIP + IS_ENABLED(CONFIG_FRAME_POINTER))

#ifdef CONFIG_ARCH_STACKWALK
/* A walk of the stack into a key or a slot: see hist_stack_save(). */
struct hist_stack_walk {
	unsigned long	*entries;
	unsigned int	n;
	unsigned int	skip;
	unsigned int	max;
};

bool hist_stack_entry(void *cookie, unsigned long addr);
#endif

/**
 * hist_stack_save - walk the stack of the event's context
 * @entries: room for @max entries
 * @skip: the frames of ours to leave out: HIST_STACK_SKIP, or one fewer
 *	to keep the frame a trace() parameter shows first
 *	(hist_walk_stack())
 * @max: the most entries to store
 *
 * With HIST_STACK_SKIP, the frames of the tracing code are skipped, so
 * that the first entry is the one upstream's walk for a key or a
 * variable gives: this must be inlined into the hit path's own frames.
 * Where the architecture has arch_stack_walk(), the walk is started
 * here, writing each entry where it belongs: stack_trace_save() would
 * add its own frame to unwind, and its copy of the entries.
 *
 * Context: the hit path.
 * Return: the number of entries stored.
 */
static __always_inline unsigned int hist_stack_save(unsigned long *entries,
						    unsigned int skip,
						    unsigned int max)
{
#ifdef CONFIG_ARCH_STACKWALK
	struct hist_stack_walk walk = {
		.entries	= entries,
		.skip		= skip,
		.max		= max,
	};

	arch_stack_walk(hist_stack_entry, &walk, current, NULL);
	return walk.n;
#else
	/* its walk reports stack_trace_save() itself, and skips it */
	return stack_trace_save(entries, max, skip);
#endif
}

/**
 * hist_copy_str - copy a string of a record, or of a slot
 * @dst: where to, @size bytes
 * @size: room at @dst, the terminating NUL included
 * @src: the string
 * @len: the most bytes to read at @src
 *
 * Copying stops at a NUL; @dst is always terminated.
 */
static __always_inline void hist_copy_str(char *dst, unsigned int size,
					  const char *src, unsigned int len)
{
	if (unlikely(!size))
		return;
	len = strnlen(src, min(len, size - 1));
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/**
 * hist_copy_stack - copy the entries of a stack (count, entries)
 * @dst: room for HIST_STACKTRACE_DEPTH entries
 * @src: the stack, or NULL for none
 * @len: the most bytes to read at @src, count included
 *
 * Return: the number of entries copied: the stack's count, as far as
 * @len and HIST_STACKTRACE_DEPTH allow.
 */
static __always_inline unsigned int
hist_copy_stack(unsigned long *dst, const unsigned long *src, unsigned int len)
{
	unsigned int n;

	if (!src || len < sizeof(long))
		return 0;
	n = min3(src[0], (unsigned long)(len / sizeof(long) - 1),
		 (unsigned long)HIST_STACKTRACE_DEPTH);
	memcpy(dst, src + 1, n * sizeof(long));
	return n;
}

/*
 * Aggregations
 * ------------
 * A value keeps what its hits gave it in words of the map element (the
 * tracing_map sums), from its map_idx on, and percentiles also in
 * buckets of struct hist_elt_data.  A cleared element is all zeroes, and
 * each layout reads zero as "no value yet":
 *
 *   plain, .sum  1 word: the sum, modulo 2^64
 *   .min, .max   1 word that only grows: the value xor'ed with a mask
 *                (hist_extreme_mask()) that makes the unsigned order of
 *                the words the order wanted, smaller first for .min,
 *                signed or not
 *   .avg         the 128-bit sum, 2 words; for a signed value 4: the sum
 *                of the positive numbers, then that of the magnitudes of
 *                the negative ones (hist_sum_words())
 *   .stddev      the same sums, then the 128-bit sum of squares, then a
 *                word set once that sum passed 2^128
 *   .pD          HIST_PCT_BUCKETS counters (twice that when signed): the
 *                buckets of hist_pct_index(), shared by every percentile
 *                of one field
 *
 * A 128-bit sum only carries into its high word when its low word
 * overflows, which a reader may see late.  Sums that only grow make
 * that a rare event; one two's complement sum would carry, or borrow,
 * each time it crossed zero.
 *
 * The number of values seen is the entry's hitcount, as every hit
 * updates every value.
 *
 * Percentile buckets and .loglin keys are log-linear: numbers below
 * 2 << bits are their own bucket, and each power of two above is cut
 * into 1 << bits buckets of equal width.  Percentiles use bits = 4: a
 * bucket is at most 1/16 of its lower bound wide, and its midpoint is
 * within 1/32 (3.125%) of anything in it.
 */
#define HIST_PCT_SUB_BITS	4
#define HIST_PCT_BUCKETS	((65 - HIST_PCT_SUB_BITS) << HIST_PCT_SUB_BITS)
/* The most a histogram's percentile buckets may take, all entries */
#define HIST_PCT_MEM_MAX	(64UL << 20)
/* .loglin=N: N is 1 << bits, bits at most this */
#define HIST_LOGLIN_BITS_MAX	6

/**
 * hist_loglin_shift - how wide the log-linear bucket of a number is
 * @val: the number
 * @bits: log2 of the buckets per power of two
 *
 * Return: log2 of the bucket's width.
 */
static __always_inline unsigned int hist_loglin_shift(u64 val,
						      unsigned int bits)
{
	int shift = fls64(val) - 1 - (int)bits;

	return shift > 0 ? shift : 0;
}

/**
 * hist_loglin - the lowest number of a number's log-linear bucket
 * @val: the number
 * @bits: log2 of the buckets per power of two
 *
 * Return: @val with the bits below its bucket's width cleared.
 */
static __always_inline u64 hist_loglin(u64 val, unsigned int bits)
{
	unsigned int shift = hist_loglin_shift(val, bits);

	return val >> shift << shift;
}

/**
 * hist_loglin_signed - the key of a signed number's log-linear bucket
 * @val: the number, as s64
 * @bits: log2 of the buckets per power of two
 *
 * A negative number's bucket mirrors that of its magnitude, and is
 * keyed by its lowest (most negative) number, so that keys sort as the
 * buckets do.
 *
 * Return: the key.
 */
static __always_inline u64 hist_loglin_signed(u64 val, unsigned int bits)
{
	u64 mag, high;

	if ((s64)val >= 0)
		return hist_loglin(val, bits);
	mag = -val;
	high = hist_loglin(mag, bits) + BIT_ULL(hist_loglin_shift(mag, bits)) - 1;
	/* only S64_MIN's bucket reaches past it */
	return high >= BIT_ULL(63) ? BIT_ULL(63) : -high;
}

/**
 * hist_pct_index - the percentile bucket of a number
 * @val: the number
 *
 * Return: 0 to HIST_PCT_BUCKETS - 1, in the order of the numbers.
 */
static __always_inline unsigned int hist_pct_index(u64 val)
{
	unsigned int shift = hist_loglin_shift(val, HIST_PCT_SUB_BITS);

	return (shift << HIST_PCT_SUB_BITS) + (unsigned int)(val >> shift);
}

/**
 * hist_pct_slot - the counter of a number in a value's buckets
 * @val: the number
 * @is_signed: the value is signed: negative numbers come first
 *
 * Return: the index, in the order of the numbers.
 */
static __always_inline unsigned int hist_pct_slot(u64 val, bool is_signed)
{
	if (!is_signed)
		return hist_pct_index(val);
	if ((s64)val < 0)
		return HIST_PCT_BUCKETS - 1 - hist_pct_index(-val);
	return HIST_PCT_BUCKETS + hist_pct_index(val);
}

/**
 * hist_mul128 - the full product of two u64
 * @a: one factor
 * @b: the other
 * @hi: receives the high 64 bits
 *
 * Return: the low 64 bits.
 */
static __always_inline u64 hist_mul128(u64 a, u64 b, u64 *hi)
{
#if defined(CONFIG_ARCH_SUPPORTS_INT128) && defined(__SIZEOF_INT128__)
	u128 p = (u128)a * b;

	*hi = p >> 64;
	return (u64)p;
#else
	u64 ll = (u64)lower_32_bits(a) * lower_32_bits(b);
	u64 lh = (u64)lower_32_bits(a) * upper_32_bits(b);
	u64 hl = (u64)upper_32_bits(a) * lower_32_bits(b);
	u64 hh = (u64)upper_32_bits(a) * upper_32_bits(b);
	u64 mid = upper_32_bits(ll) + lower_32_bits(lh) + lower_32_bits(hl);

	*hi = hh + upper_32_bits(lh) + upper_32_bits(hl) + upper_32_bits(mid);
	return (mid << 32) | lower_32_bits(ll);
#endif
}

/**
 * hist_sum_words - the words of an .avg or .stddev value's sums
 * @hf: the value
 *
 * Return: 2, one 128-bit sum; 4 for a signed value, whose positive and
 * negative numbers are summed apart.
 */
static __always_inline unsigned int hist_sum_words(const struct hist_field *hf)
{
	return hf->is_signed ? 4 : 2;
}

/**
 * hist_extreme_mask - the mask of a .min or .max word
 * @is_min: for .min
 * @is_signed: the value is signed
 *
 * Return: the mask; a word holds the value xor'ed with it.
 */
static inline u64 hist_extreme_mask(bool is_min, bool is_signed)
{
	u64 mask = is_signed ? BIT_ULL(63) : 0;

	return is_min ? ~mask : mask;
}

/**
 * hist_event_field_unreadable - a record field no hist can take
 * @field: a field of an event
 *
 * A number is read from the record as 1, 2, 4 or 8 bytes.  A probe event
 * can declare a field of any other size (u8[3], char[5], u16[6]), and
 * every field a probe declares is FILTER_OTHER, strings included: read
 * as a number, it would take bytes of the next field, or of what lies
 * past the record.  Upstream refuses such a field wherever a hist uses
 * it, and so do we.
 *
 * Return: true for a FILTER_OTHER field of a size but 1, 2, 4 or 8.
 */
static inline bool
hist_event_field_unreadable(const struct ftrace_event_field *field)
{
	return field->filter_type == FILTER_OTHER &&
	       (field->size > sizeof(u64) || !is_power_of_2(field->size));
}

/**
 * hist_val_prints_signed - a value is shown as a signed decimal number
 * @hf: the value
 *
 * A sum prints unsigned, as upstream's always has, and so does anything
 * shown in hex, as a percentage or as a bar.  Sorting on a value follows
 * the same rule, so that the entries come in the order of the numbers
 * printed.
 *
 * Return: true for a signed field's aggregate other than a sum, printed
 * as a plain number.
 */
static inline bool hist_val_prints_signed(const struct hist_field *hf)
{
	return hf->is_signed && hf->agg != HIST_AGG_SUM &&
	       !(hf->flags & (HIST_FIELD_FL_HEX | HIST_FIELD_FL_PERCENT |
			      HIST_FIELD_FL_GRAPH));
}

/**
 * hist_fetch - the number a key, value or operand gives for this hit
 * @hd: its histogram
 * @hf: the field
 * @hit: the hit
 *
 * The common cases are read inline with one switch on the fetch kind
 * chosen at creation; expressions and string addresses go through
 * hist_eval().
 *
 * Context: the hit path: any context, NMI included.
 * Return: the value, after .log2 or .buckets.
 */
static __always_inline u64 hist_fetch(const struct hist_data *hd,
				      const struct hist_field *hf,
				      struct hist_hit *hit)
{
	void *p = hit->rec + hf->offset;
	u64 val;

	switch (hf->fetch) {
	case HIST_FETCH_U8:
		val = *(u8 *)p;
		break;
	case HIST_FETCH_S8:
		val = (s64)*(s8 *)p;
		break;
	case HIST_FETCH_U16:
		val = get_unaligned((u16 *)p);
		break;
	case HIST_FETCH_S16:
		val = (s64)(s16)get_unaligned((u16 *)p);
		break;
	case HIST_FETCH_U32:
		val = get_unaligned((u32 *)p);
		break;
	case HIST_FETCH_S32:
		val = (s64)(s32)get_unaligned((u32 *)p);
		break;
	case HIST_FETCH_U64:
		val = get_unaligned((u64 *)p);
		break;
	case HIST_FETCH_CPU:
		val = raw_smp_processor_id();
		break;
	case HIST_FETCH_TIMESTAMP:
		val = tracing_event_time_stamp(hit->buffer, hit->rbe);
		break;
	case HIST_FETCH_TIMESTAMP_USECS:
		val = tracing_event_time_stamp(hit->buffer, hit->rbe);
		if (trace_clock_in_ns(hd->tr))
			val = ns2usecs(val);
		break;
	case HIST_FETCH_ONE:
		val = 1;
		break;
	case HIST_FETCH_CONST:
		val = hf->constant;
		break;
	case HIST_FETCH_REF:
		val = hit->refs[hf->slot];
		break;
	case HIST_FETCH_OWN_VAR:
		val = hit->vars[hf->slot];
		break;
	default:
		val = hist_eval(hd, hf, hit);
		break;
	}

	if (unlikely(hf->xform)) {
		if (hf->xform == HIST_XFORM_LOGLIN)
			val = hf->is_signed ?
			      hist_loglin_signed(val, hf->loglin_shift) :
			      hist_loglin(val, hf->loglin_shift);
		else if (hf->xform == HIST_XFORM_LOG2)
			val = order_base_2(val);
		else if (hf->xform == HIST_XFORM_USECS)
			val = trace_clock_in_ns(hd->tr) ? ns2usecs(val) : val;
		else
			val = div64_u64(val, hf->buckets) * hf->buckets;
	}
	return val;
}

/**
 * hist_set_paused - pause or continue a hist trigger
 * @data: the trigger
 * @paused: the new state
 *
 * The trigger core skips a paused trigger.  One keyed by another
 * trigger's variables is taken by that trigger's hits, never by the
 * core, so its trigger stays paused for the core and the flag the user
 * sets is hist_data.reader_paused.
 *
 * Context: any; enable_hist and disable_hist call it from event hits.
 */
static inline void hist_set_paused(struct event_trigger_data *data,
				   bool paused)
{
	struct hist_data *hd = data->private_data;

	/* the core must never call a reader: see hist_trigger_create() */
	WARN_ON_ONCE(hd->same_hit && !data->paused);
	if (hd->same_hit)
		WRITE_ONCE(hd->reader_paused, paused);
	else
		WRITE_ONCE(data->paused, paused);
}

/* Is @data paused, as the user sees it? */
static inline bool hist_paused(const struct event_trigger_data *data)
{
	const struct hist_data *hd = data->private_data;

	return hd->same_hit ? READ_ONCE(hd->reader_paused) :
			      READ_ONCE(data->paused);
}

/* The trigger's hit function (trace_hist_run.c) */
void hist_hit(struct event_trigger_data *data, struct trace_buffer *buffer,
	      void *rec, struct ring_buffer_event *rbe);
u8 hist_hit_path_of(const struct hist_data *hd);
void hist_poll_opened(void);
void hist_poll_closed(void);

#if IS_ENABLED(CONFIG_KUNIT)
/* static unless KUnit tests them */
void hist_clear_start(struct event_trigger_data *data);
void hist_clear_finish(struct event_trigger_data *data);
bool hist_enable_count(struct event_trigger_data *data,
		       struct trace_buffer *buffer, void *rec,
		       struct ring_buffer_event *rbe);
bool hist_reclaim_queue_add(struct event_trigger_data *data);
extern unsigned long hist_reclaim_batches;
extern unsigned long hist_reclaimed;
#endif

#endif /* __TRACE_HIST_H */
