// SPDX-License-Identifier: GPL-2.0
/*
 * Hist triggers: what users read.  The trigger's canonical text (in the
 * trigger file and the hist header), the hist file and the hist_debug
 * file.  The text layout is upstream's, character for character, since
 * scripts parse it.
 *
 * The hist file is a seq_file whose records are, per trigger, a header,
 * one line per entry and the totals.  The entries are sorted once, when
 * a read starts at the beginning of the file, and kept with the open
 * file: the seq_file buffer refills of a long read then only print the
 * next lines.  Sorting works on the live map (tracing_map_sort_snapshot()
 * runs beside the hit path), so reading never holds events back.  What
 * an entry line prints of the values is what the sort copied of them
 * first, one word per value: the lines are in the order of the numbers
 * they show, although hits (the reader's own system calls among them)
 * go on while the file is read.
 *
 * A snapshot holds what it took, the entries' addresses and the words
 * copied of them, and nothing of the histograms it shows: a trigger the
 * user removes goes at once, with its variables, actions, clock, map
 * and buckets, even while a reader holds its snapshot half read.  Each
 * read() runs under event_mutex, from seq_start to seq_stop, and first
 * checks that every trigger of the snapshot is still the live one on
 * the event, with the very histogram the sort saw (its address and
 * hist_data.serial); if one is not, the snapshot is let go and the read
 * ends there, before anything of the histogram or its entries is
 * touched.  A snapshot read to its end is let go at once, so an idle
 * reader holds nothing.
 */
#include <linux/kallsyms.h>
#include <linux/poll.h>
#include <linux/slab.h>

#include "trace_hist.h"

/**
 * hist_print_trigger - print a hist trigger as the trigger file shows it
 * @m: where to print
 * @data: the trigger
 *
 * Context: event_mutex held.
 * Return: 0.
 */
int hist_print_trigger(struct seq_file *m, struct event_trigger_data *data)
{
	seq_puts(m, HIST_PREFIX);
	hist_spec_show(m, data->private_data, HIST_SPEC_ALL);
	if (data->filter_str)
		seq_printf(m, " if %s", data->filter_str);
	/* enable_hist and disable_hist flip it from their events' hits */
	seq_puts(m, hist_paused(data) ? " [paused]\n" : " [active]\n");
	return 0;
}

static void hist_print_header(struct seq_file *m,
			      struct event_trigger_data *data, bool first)
{
	if (!first)
		seq_puts(m, "\n\n");
	seq_puts(m, "# event histogram\n#\n# trigger info: ");
	hist_print_trigger(m, data);
	seq_puts(m, "#\n\n");
}

static void hist_print_stack(struct seq_file *m, const unsigned long *stack)
{
	unsigned int i;

	for (i = 0; i < HIST_STACKTRACE_DEPTH && stack[i]; i++)
		seq_printf(m, "%9c%pS\n", ' ', (void *)stack[i]);
}

/*
 * A stack kept in an element slot (hist_slot_store()): its entry count,
 * then the entries, one frame a line after the field's name, up to the
 * first empty entry as for a key.  A hit may be rewriting the slot, so
 * the count read is bounded, and the frames may mix two hits' stacks
 * (%pS only looks the values up).  NULL is the slot of an element whose
 * save() has not run.
 */
static void hist_print_slot_stack(struct seq_file *m,
				  const unsigned long *slot)
{
	unsigned long i, n, ip;

	if (!slot)
		return;
	n = min_t(unsigned long, READ_ONCE(slot[0]), HIST_STACKTRACE_DEPTH);
	for (i = 0; i < n; i++) {
		ip = READ_ONCE(slot[1 + i]);
		if (!ip)
			break;
		seq_printf(m, "\n%9c%pS", ' ', (void *)ip);
	}
}

/**
 * hist_print_key - print a key as the hist file shows it, "{ pid: 1 }"
 * @m: where to print
 * @hd: the histogram
 * @key: the key bytes
 * @comm: the comm of the entry's task, for .execname
 */
void hist_print_key(struct seq_file *m, const struct hist_data *hd,
		    const void *key, const char *comm)
{
	bool multiline = false;
	unsigned int i;

	seq_puts(m, "{ ");
	for (i = 0; i < hd->n_keys; i++) {
		const struct hist_field *hf = &hd->keys[i];
		const void *part = key + hf->key_offset;
		u64 val = *(const u64 *)part;
		unsigned long f = hf->flags;
		const char *name = hf->name;

		if (i)
			seq_puts(m, ", ");
		if (f & HIST_FIELD_FL_STACKTRACE) {
			if (hf->field)
				seq_printf(m, "%s.stacktrace", name);
			else
				seq_puts(m, "common_stacktrace:\n");
			hist_print_stack(m, part);
			multiline = true;
		} else if (f & HIST_FIELD_FL_STRING) {
			seq_printf(m, "%s: %-50s", name, (const char *)part);
		} else if (f & HIST_FIELD_FL_HEX) {
			seq_printf(m, "%s: %llx", name, val);
		} else if (f & HIST_FIELD_FL_SYM) {
			seq_printf(m, "%s: [%llx] %-45ps", name, val,
				   (void *)(uintptr_t)val);
		} else if (f & HIST_FIELD_FL_SYM_OFFSET) {
			seq_printf(m, "%s: [%llx] %-55pS", name, val,
				   (void *)(uintptr_t)val);
		} else if (f & HIST_FIELD_FL_EXECNAME) {
			/* bounded: a snapshot may be rewriting its copy */
			seq_printf(m, "%s: %-16.*s[%10llu]", name,
				   TASK_COMM_LEN - 1, comm, val);
		} else if (f & HIST_FIELD_FL_SYSCALL) {
			const char *sc = get_syscall_name(val);

			seq_printf(m, "%s: %-30s[%3llu]", name,
				   sc ? sc : "unknown_syscall", val);
		} else if (f & HIST_FIELD_FL_LOG2) {
			seq_printf(m, "%s: ~ 2^%-2llu", name, val);
		} else if (f & HIST_FIELD_FL_BUCKET) {
			seq_printf(m, "%s: ~ %llu-%llu", name, val,
				   val + hf->buckets - 1);
		} else if (f & HIST_FIELD_FL_LOGLIN) {
			seq_printf(m, hf->is_signed ? "%s: ~ %lld-%lld" :
				   "%s: ~ %llu-%llu", name, val,
				   hist_loglin_high(val, hf->loglin_shift,
						    hf->is_signed));
		} else {
			seq_printf(m, "%s: %10llu", name, val);
		}
	}
	if (!multiline)
		seq_putc(m, ' ');
	seq_putc(m, '}');
}

/* Per value: the total and the largest, for .percent and .graph. */
struct hist_val_stat {
	u64	total;
	u64	max;
};

/* @val as hundredths of a percent of @total; UINT_MAX if meaningless. */
static unsigned int hist_percent(u64 val, u64 total)
{
	if (!total)
		return val ? UINT_MAX : 0;
	if (val < U64_MAX / 10000)
		return div64_u64(val * 10000, total);
	total = div64_u64(total, 10000);
	return total ? div64_u64(val, total) : UINT_MAX;
}

#define HIST_BAR_WIDTH	20

static void hist_print_val(struct seq_file *m, const struct hist_field *hf,
			   const char *name, u64 val,
			   const struct hist_val_stat *stat)
{
	unsigned int pc;

	if (hf->flags & HIST_FIELD_FL_PERCENT) {
		pc = hist_percent(val, stat->total);
		if (pc == UINT_MAX)
			seq_printf(m, " %s (%%):[ERROR]", name);
		else
			seq_printf(m, " %s (%%): %3u.%02u", name, pc / 100,
				   pc % 100);
	} else if (hf->flags & HIST_FIELD_FL_GRAPH) {
		char bar[HIST_BAR_WIDTH + 1];
		unsigned int len;

		pc = hist_percent(val, stat->max);
		if (pc == UINT_MAX) {
			strscpy(bar, "[ERROR]");
		} else {
			len = min(pc * HIST_BAR_WIDTH / 10000, HIST_BAR_WIDTH);
			memset(bar, '#', len);
			memset(bar + len, ' ', HIST_BAR_WIDTH - len);
			bar[HIST_BAR_WIDTH] = '\0';
		}
		seq_printf(m, " %s: %20s", name, bar);
	} else if (hf->flags & HIST_FIELD_FL_HEX) {
		seq_printf(m, " %s: %10llx", name, val);
	} else if (hist_val_prints_signed(hf)) {
		seq_printf(m, " %s: %10lld", name, val);
	} else {
		seq_printf(m, " %s: %10llu", name, val);
	}
}

/**
 * hist_actions_print_elt - print an entry's maximum or last value and
 *	the fields saved with it, after its values
 * @m: the hist file
 * @hd: the histogram
 * @elt: the entry
 */
static void hist_actions_print_elt(struct seq_file *m,
				   const struct hist_data *hd,
				   const struct tracing_map_elt *elt)
{
	const struct hist_action *save = hist_save_action(hd);
	unsigned int i, j;
	u64 val;

	for (i = 0; i < hd->n_actions; i++) {
		const struct hist_action *act = hd->actions[i];
		bool after_stack = false;

		if (act->handler == HIST_ONMATCH ||
		    act->kind == HIST_ACT_SNAPSHOT)
			continue;
		seq_printf(m, "\n\t%s: %10llu",
			   act->handler == HIST_ONMAX ? "max" : "changed",
			   tracing_map_read_var(elt, act->track_var));
		for (j = 0; save && j < save->n_params; j++) {
			const char *name = save->save_name[j];

			/* the fields after a stack's frames go on a line */
			if (after_stack)
				seq_puts(m, "\n\t");
			after_stack = false;
			val = tracing_map_read_var(elt, save->save_var[j]);
			if (save->save_slot[j] < 0) {
				seq_printf(m, "  %s: %10llu", name, val);
			} else if (save->params[j].flags &
				   HIST_FIELD_FL_STACKTRACE) {
				seq_printf(m, "  %s:", name);
				hist_print_slot_stack(m, (void *)(uintptr_t)val);
				after_stack = true;
			} else {
				/* bounded: a hit may be rewriting the slot */
				seq_printf(m, "  %s: %-32.*s", name,
					   HIST_SLOT_SIZE - 1,
					   (char *)(uintptr_t)val);
			}
		}
	}
}

/**
 * hist_actions_print_snapshot - say which hit took the last snapshot
 * @m: the hist file
 * @hd: the histogram
 */
static void hist_actions_print_snapshot(struct seq_file *m,
					const struct hist_data *hd)
{
	unsigned int i;

	for (i = 0; i < hd->n_actions; i++) {
		const struct hist_action *act = hd->actions[i];

		if (act->kind != HIST_ACT_SNAPSHOT || !act->snap_taken)
			continue;
		seq_puts(m, "\nSnapshot taken (see tracing/snapshot).  Details:\n");
		seq_printf(m, "\ttriggering value { %s(%s) }: %10llu",
			   hist_handler_names[act->handler], act->arg,
			   act->snap_val);
		seq_puts(m, "\ttriggered by event with key: ");
		hist_print_key(m, hd, act->snap_key, act->snap_comm);
		seq_puts(m, "\n");
	}
}

/*
 * One trigger's part of a hist file snapshot.  Neither @data nor @hd is
 * held: they, and the entries, are only used while hist_reader_valid()
 * finds them live.
 */
struct hist_view {
	struct event_trigger_data	*data;
	struct hist_data		*hd;
	u64				serial;
	unsigned int			clears;
	struct tracing_map_elt		**entries;
	u64				*vals;	/* hd->n_vals per entry */
	unsigned int			n_entries;
	unsigned int			n_shown;
	struct tracing_map_stats	stats;
	struct hist_val_stat		vstat[HIST_VALS_MAX];
};

/**
 * struct hist_reader - an open hist file
 * @file: the tracefs file, to find the event
 * @views: the triggers shown, sorted when the read began
 * @n_views: number of @views
 * @at_view: the view of the record being shown
 * @at_idx: which record of @at_view: its header (0), its entries (1 to
 *	n_shown) or its totals (n_shown + 1)
 * @done: the last read reached the end (and let the snapshot go)
 * @last_read: hits when the snapshot was taken (POLLIN)
 * @last_act: hits when poll last reported a change (POLLPRI)
 * @polled: the file has been polled: hits wake pollers up until it is
 *	closed (hist_poll_opened())
 */
struct hist_reader {
	struct file		*file;
	struct hist_view	*views;
	unsigned int		n_views;
	unsigned int		at_view;
	unsigned int		at_idx;
	bool			done;
	u64			last_read;
	u64			last_act;
	bool			polled;
};

static u64 hist_hits_of_file(struct trace_event_file *file)
{
	struct event_trigger_data *data;
	struct tracing_map_stats st;
	u64 hits = 0;

	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		tracing_map_read_stats(((struct hist_data *)data->private_data)->map,
				       &st);
		hits += st.hits;
	}
	return hits;
}

static void hist_reader_drop(struct hist_reader *r)
{
	unsigned int i;

	lockdep_assert_held(&event_mutex);
	for (i = 0; i < r->n_views; i++) {
		tracing_map_free_entries(r->views[i].entries);
		tracing_map_free_snapshot(r->views[i].vals);
	}
	kfree(r->views);
	r->views = NULL;
	r->n_views = 0;
}

/* The snapshot of an entry: what hist_seq_show() prints of its values. */
static void hist_snapshot_take(const struct tracing_map_elt *elt, u64 *words,
			       const void *arg)
{
	const struct hist_data *hd = arg;
	unsigned int i;

	for (i = 0; i < hd->n_vals; i++)
		words[i] = hist_val_read(&hd->vals[i], elt);
}

static int hist_view_take(struct hist_view *v, struct event_trigger_data *data)
{
	struct hist_data *hd = data->private_data;
	const struct tracing_map_snapshot snap = {
		.n_words	= hd->n_vals,
		.take		= hist_snapshot_take,
		.arg		= hd,
	};
	unsigned int i, j;
	int n;

	BUILD_BUG_ON(HIST_VALS_MAX > TRACING_MAP_SNAPSHOT_WORDS_MAX);
	v->data = data;
	v->hd = hd;
	v->serial = hd->serial;
	v->clears = hd->clears;
	n = tracing_map_sort_snapshot(hd->map, hd->sort_keys, hd->n_sort_keys,
				      &snap, &v->entries, &v->vals);
	if (n < 0)
		return n;
	/* after the snapshot: Hits is never below the hitcounts shown */
	tracing_map_read_stats(hd->map, &v->stats);
	v->n_entries = n;
	v->n_shown = hd->attrs.top ? min(hd->attrs.top, v->n_entries) : n;
	for (i = 0; i < hd->n_vals; i++) {
		if (!(hd->vals[i].flags & (HIST_FIELD_FL_PERCENT |
					   HIST_FIELD_FL_GRAPH)))
			continue;
		for (j = 0; j < v->n_entries; j++) {
			u64 val = v->vals[(size_t)j * hd->n_vals + i];

			v->vstat[i].total += val;
			v->vstat[i].max = max(v->vstat[i].max, val);
		}
	}
	return 0;
}

/* Sort every hist trigger of the event. */
static int hist_reader_take(struct hist_reader *r)
{
	struct trace_event_file *file;
	struct event_trigger_data *data;
	unsigned int n = 0;
	int ret = 0;

	lockdep_assert_held(&event_mutex);
	hist_reader_drop(r);
	file = event_file_file(r->file);
	if (!file)
		return -ENODEV;
	list_for_each_entry(data, &file->triggers, list)
		if (data->cmd_ops->trigger_type == ETT_EVENT_HIST)
			n++;
	if (!n)
		goto out;
	r->views = kcalloc(n, sizeof(*r->views), GFP_KERNEL);
	if (!r->views)
		return -ENOMEM;
	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		ret = hist_view_take(&r->views[r->n_views++], data);
		if (ret) {
			hist_reader_drop(r);
			break;
		}
	}
out:
	r->last_read = hist_hits_of_file(file);
	r->last_act = r->last_read;
	return ret;
}

/*
 * Is the view still showing a live trigger of @file?  A trigger is live
 * while it is on the event's list and uses the histogram the sort saw:
 * the one at that address with that serial number.  A trigger or a
 * histogram made at the address of a freed one is not taken for it, as
 * no two histograms have the same serial, and until it is found live
 * neither the view's @hd nor its entries are touched: they may be gone.
 * A histogram cleared since the sort is not live either: its entries
 * may hold other keys now, which the rest of the file would print
 * beside the values of the old ones.
 */
static bool hist_view_live(const struct hist_view *v,
			   struct trace_event_file *file)
{
	struct event_trigger_data *data;
	struct hist_data *hd;

	list_for_each_entry(data, &file->triggers, list) {
		/*
		 * Another kind of trigger made at a freed hist trigger's
		 * address has no hist_data behind its private_data.
		 */
		if (data != v->data ||
		    data->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		hd = data->private_data;
		return hd == v->hd && hd->serial == v->serial &&
		       hd->clears == v->clears;
	}
	return false;
}

static bool hist_reader_valid(struct hist_reader *r)
{
	struct trace_event_file *file = event_file_file(r->file);
	unsigned int i;

	lockdep_assert_held(&event_mutex);
	if (!file)
		return false;
	for (i = 0; i < r->n_views; i++)
		if (!hist_view_live(&r->views[i], file))
			return false;
	return true;
}

/*
 * Record numbering: for each view, its header, its entries, its totals.
 * The record at @pos becomes the reader's current one, which is what
 * the seq_file iterator returns.
 */
static void *hist_record(struct hist_reader *r, loff_t pos)
{
	unsigned int i;

	for (i = 0; i < r->n_views; i++) {
		loff_t n = r->views[i].n_shown + 2;

		if (pos < n) {
			r->at_view = i;
			r->at_idx = pos;
			return r;
		}
		pos -= n;
	}
	r->done = true;
	return NULL;
}

/* event_mutex is held from here to hist_seq_stop(): see the top of this file */
static void *hist_seq_start(struct seq_file *m, loff_t *pos)
{
	struct hist_reader *r = m->private;
	int ret;

	mutex_lock(&event_mutex);
	/*
	 * A read from the start sorts again, also after a partial read (a
	 * seek back to 0): only the refills of one pass share a sort.
	 */
	if (!*pos) {
		r->done = false;
		ret = hist_reader_take(r);
		if (ret)
			return ERR_PTR(ret);
	} else if (!hist_reader_valid(r)) {
		hist_reader_drop(r);
		return NULL;
	}
	return hist_record(r, *pos);
}

static void *hist_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	return hist_record(m->private, ++*pos);
}

static void hist_seq_stop(struct seq_file *m, void *v)
{
	struct hist_reader *r = m->private;

	/* read to the end: keep no snapshot while the reader idles */
	if (r->done)
		hist_reader_drop(r);
	mutex_unlock(&event_mutex);
}

static int hist_seq_show(struct seq_file *m, void *v)
{
	struct hist_reader *r = v;
	struct hist_view *view = &r->views[r->at_view];
	unsigned int idx = r->at_idx;
	struct event_trigger_data *data = view->data;
	struct hist_data *hd = view->hd;
	struct tracing_map_elt *elt;
	const struct hist_elt_data *ed;
	const u64 *vals;
	unsigned int i;

	if (!idx) {
		hist_print_header(m, data, view == r->views);
		return 0;
	}
	if (idx > view->n_shown) {
		hist_actions_print_snapshot(m, hd);
		seq_printf(m, "\nTotals:\n    Hits: %llu\n    Entries: %u\n    Dropped: %llu\n",
			   view->stats.hits, view->n_entries, view->stats.drops);
		if (hd->attrs.top)
			seq_printf(m, "    Shown: %u\n", view->n_shown);
		return 0;
	}

	elt = view->entries[idx - 1];
	ed = elt->private_data;
	vals = view->vals + (size_t)(idx - 1) * hd->n_vals;
	hist_print_key(m, hd, tracing_map_elt_key(elt), ed ? ed->comm : "");
	if (!hd->attrs.no_hitcount)
		seq_printf(m, " hitcount: %10llu", vals[0]);
	for (i = 1; i < hd->n_vals; i++) {
		seq_putc(m, ' ');
		hist_print_val(m, &hd->vals[i], hd->vals[i].name, vals[i],
			       &view->vstat[i]);
	}
	hist_actions_print_elt(m, hd, elt);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations hist_seq_ops = {
	.start	= hist_seq_start,
	.next	= hist_seq_next,
	.stop	= hist_seq_stop,
	.show	= hist_seq_show,
};

static int hist_open(struct inode *inode, struct file *file)
{
	struct hist_reader *r;
	int ret;

	ret = tracing_open_file_tr(inode, file);
	if (ret)
		return ret;
	/* seq_open() wants an empty private_data */
	file->private_data = NULL;
	r = __seq_open_private(file, &hist_seq_ops, sizeof(*r));
	if (!r) {
		tracing_release_file_tr(inode, file);
		return -ENOMEM;
	}
	r->file = file;
	mutex_lock(&event_mutex);
	if (event_file_file(file))
		r->last_act = hist_hits_of_file(event_file_file(file));
	mutex_unlock(&event_mutex);
	return 0;
}

static int hist_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;
	struct hist_reader *r = m->private;

	if (r->polled)
		hist_poll_closed();
	mutex_lock(&event_mutex);
	hist_reader_drop(r);
	mutex_unlock(&event_mutex);
	seq_release_private(inode, file);
	return tracing_release_file_tr(inode, file);
}

/*
 * POLLIN: the histogram changed since it was last read.  POLLPRI: it
 * changed since the last poll or read, so a waiter wakes per change.
 */
static __poll_t hist_poll(struct file *file, struct poll_table_struct *wait)
{
	struct seq_file *m = file->private_data;
	struct hist_reader *r = m->private;
	struct trace_event_file *event_file;
	__poll_t ret = 0;
	u64 hits;

	/*
	 * Before the first wait: see hist_poll_opened().  Under event_mutex,
	 * which is taken before the CPU hotplug lock already, when events
	 * are enabled, and held across grace periods already, by clears.
	 */
	guard(mutex)(&event_mutex);
	if (!r->polled) {
		r->polled = true;
		hist_poll_opened();
	}
	event_file = event_file_file(file);
	if (!event_file)
		return EPOLLERR;
	hist_poll_wait(file, wait);
	/* the waiter is queued before the hits are read: wq_has_sleeper() */
	smp_mb();
	hits = hist_hits_of_file(event_file);
	if (hits != r->last_read)
		ret |= EPOLLIN | EPOLLRDNORM;
	if (hits != r->last_act) {
		r->last_act = hits;
		ret |= EPOLLPRI;
	}
	return ret;
}

const struct file_operations event_hist_fops = {
	.open		= hist_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= hist_release,
	.poll		= hist_poll,
};

#ifdef CONFIG_HIST_TRIGGERS_DEBUG
static const char *const hist_fetch_names[] = {
	[HIST_FETCH_U8]			= "u8",
	[HIST_FETCH_S8]			= "s8",
	[HIST_FETCH_U16]		= "u16",
	[HIST_FETCH_S16]		= "s16",
	[HIST_FETCH_U32]		= "u32",
	[HIST_FETCH_S32]		= "s32",
	[HIST_FETCH_U64]		= "u64",
	[HIST_FETCH_CPU]		= "cpu",
	[HIST_FETCH_TIMESTAMP]		= "timestamp",
	[HIST_FETCH_TIMESTAMP_USECS]	= "timestamp_usecs",
	[HIST_FETCH_ONE]		= "one",
	[HIST_FETCH_CONST]		= "constant",
	[HIST_FETCH_REF]		= "var_ref",
	[HIST_FETCH_OWN_VAR]		= "own_var",
	[HIST_FETCH_EXPR]		= "expression",
	[HIST_FETCH_STR_FIXED]		= "string",
	[HIST_FETCH_STR_DATA_LOC]	= "data_loc_string",
	[HIST_FETCH_STR_REL_LOC]	= "rel_loc_string",
	[HIST_FETCH_COMM]		= "comm",
	[HIST_FETCH_STACK]		= "stack",
	[HIST_FETCH_STACK_FIELD]	= "stack_field",
};

static const char *const hist_agg_layout[] = {
	[HIST_AGG_MIN]		= "min: 1 word, raised (value xor mask)",
	[HIST_AGG_MAX]		= "max: 1 word, raised (value xor mask)",
	[HIST_AGG_AVG]		= "avg: 128-bit sum",
	[HIST_AGG_STDDEV]	= "stddev: 128-bit sum, sum of squares, overflow",
	[HIST_AGG_PCT]		= "percentile: log-linear buckets",
};

static void hist_debug_agg(struct seq_file *m, const struct hist_field *hf)
{
	seq_printf(m, "      aggregation: %s\n", hist_agg_layout[hf->agg]);
	if (hf->is_signed &&
	    (hf->agg == HIST_AGG_AVG || hf->agg == HIST_AGG_STDDEV))
		seq_puts(m, "      sums: positive and negative numbers apart\n");
	if (hf->agg == HIST_AGG_MIN || hf->agg == HIST_AGG_MAX)
		seq_printf(m, "      mask: %llx\n", hf->agg_mask);
	if (hf->agg != HIST_AGG_PCT)
		return;
	seq_printf(m, "      percentile: %u.%04u\n", hf->pct / 10000,
		   hf->pct % 10000);
	seq_printf(m, "      buckets: %u at byte %u of the entry's slots%s\n",
		   hist_pct_buckets(hf->is_signed), hf->pct_at,
		   hf->update == HIST_UPD_NONE ?
		   " (counted by another value)" : "");
}

static const char *const hist_op_text[] = {
	[HIST_OP_ADD]		= " + ",
	[HIST_OP_SUB]		= " - ",
	[HIST_OP_MUL]		= " * ",
	[HIST_OP_DIV]		= " / ",
	[HIST_OP_DIV_SHIFT]	= " / ",
	[HIST_OP_DIV_MULT]	= " / ",
};

/*
 * What a field computes, as one expression of the fetches the hit path
 * runs: "log2(u32 bytes_req)", "(timestamp_usecs - var_ref $ts0)".
 * The operands of an expression are fields too, nested no deeper than
 * the parser's HIST_SUBEXPR_MAX operators allow.
 */
static void hist_debug_computes(struct seq_file *m, const struct hist_data *hd,
				const struct hist_field *hf)
{
	const struct hist_ref *ref;

	if (hf->xform == HIST_XFORM_LOG2)
		seq_puts(m, "log2(");
	else if (hf->xform == HIST_XFORM_BUCKETS)
		seq_puts(m, "buckets(");
	else if (hf->xform == HIST_XFORM_LOGLIN)
		seq_puts(m, "loglin(");
	else if (hf->xform == HIST_XFORM_USECS)
		seq_puts(m, "usecs(");
	switch (hf->fetch) {
	case HIST_FETCH_EXPR:
		if (hf->op == HIST_OP_NEG) {
			seq_puts(m, "-(");
			hist_debug_computes(m, hd, hf->operands[0]);
			seq_putc(m, ')');
			break;
		}
		seq_putc(m, '(');
		hist_debug_computes(m, hd, hf->operands[0]);
		seq_puts(m, hist_op_text[hf->op]);
		if (hf->op == HIST_OP_DIV_SHIFT)
			seq_printf(m, "%llu as >> %u", 1ULL << hf->div_shift,
				   hf->div_shift);
		else if (hf->op == HIST_OP_DIV_MULT)
			seq_printf(m, "%llu as a multiplication", hf->divisor);
		else
			hist_debug_computes(m, hd, hf->operands[1]);
		seq_putc(m, ')');
		break;
	case HIST_FETCH_CONST:
		/* "-(5)" is folded into the constant -5 */
		seq_printf(m, "%lld", (s64)hf->constant);
		break;
	case HIST_FETCH_REF:
		ref = &hd->refs[hf->slot];
		seq_printf(m, "%s $%s", hd->same_hit ? "same_hit_var" : "var_ref",
			   ref->hd->vars[ref->var].name);
		break;
	case HIST_FETCH_OWN_VAR:
		seq_printf(m, "own_var $%s", hd->vars[hf->slot].name);
		break;
	default:
		seq_puts(m, hist_fetch_names[hf->fetch]);
		if (hf->field)
			seq_printf(m, " %s", hf->field->name);
		break;
	}
	if (hf->xform == HIST_XFORM_BUCKETS)
		seq_printf(m, ", %llu", hf->buckets);
	else if (hf->xform == HIST_XFORM_LOGLIN)
		seq_printf(m, ", %lu", BIT(hf->loglin_shift));
	if (hf->xform)
		seq_putc(m, ')');
}

/* The modifiers that change only how a field is printed. */
#define HIST_SHOWN_AS_FLAGS	(HIST_FIELD_FL_HEX | HIST_FIELD_FL_SYM | \
	HIST_FIELD_FL_SYM_OFFSET | HIST_FIELD_FL_EXECNAME | \
	HIST_FIELD_FL_SYSCALL | HIST_FIELD_FL_STACKTRACE | \
	HIST_FIELD_FL_PERCENT | HIST_FIELD_FL_GRAPH)

static void hist_debug_field(struct seq_file *m, const struct hist_data *hd,
			     const char *array, unsigned int i,
			     const struct hist_field *hf)
{
	unsigned int pos = 0;
	bool shown = false;
	const char *mod;

	seq_printf(m, "\n    hist_data->%s[%u]:\n", array, i);
	seq_puts(m, "      flags:\n");
	if (hf->flags & HIST_FIELD_FL_KEY)
		seq_puts(m, "        HIST_FIELD_FL_KEY\n");
	else if (hf->flags & HIST_FIELD_FL_HITCOUNT)
		seq_puts(m, "        VAL: HIST_FIELD_FL_HITCOUNT\n");
	else if (hf->flags & HIST_FIELD_FL_VAR)
		seq_puts(m, "        HIST_FIELD_FL_VAR\n");
	else
		seq_puts(m, "        VAL: normal u64 value\n");
	if (hf->flags & HIST_FIELD_FL_VAR_REF)
		seq_puts(m, "        HIST_FIELD_FL_VAR_REF\n");
	if (hf->flags & HIST_FIELD_FL_EXPR)
		seq_puts(m, "        HIST_FIELD_FL_EXPR\n");
	if (hf->flags & HIST_FIELD_FL_CONST)
		seq_puts(m, "        HIST_FIELD_FL_CONST\n");
	if (hf->field)
		seq_printf(m, "      ftrace_event_field name: %s\n",
			   hf->field->name);
	seq_printf(m, "      spec: %s\n", hf->spec);
	seq_printf(m, "      fetch: %s\n", hist_fetch_names[hf->fetch]);
	seq_puts(m, "      computes: ");
	hist_debug_computes(m, hd, hf);
	seq_putc(m, '\n');
	while ((mod = hist_modifier_next(hf->flags & HIST_SHOWN_AS_FLAGS, &pos))) {
		seq_printf(m, shown ? " .%s" : "      shown as: .%s", mod);
		shown = true;
	}
	if (shown)
		seq_putc(m, '\n');
	if (hf->field)
		seq_printf(m, "      offset (in the record): %u\n", hf->offset);
	if (hf->fetch == HIST_FETCH_REF)
		seq_printf(m, "      var_ref_idx (into hist_hit.refs[]): %u\n",
			   hf->slot);
	else if (hf->fetch == HIST_FETCH_OWN_VAR)
		seq_printf(m, "      own var (hist_data->vars[]): %u\n",
			   hf->slot);
	if (hf->var_name)
		seq_printf(m, "      var.name: %s\n", hf->var_name);
	if (hf->flags & HIST_FIELD_FL_KEY) {
		seq_printf(m, "      key_offset: %u\n", hf->key_offset);
		seq_printf(m, "      key_size: %u\n", hf->key_size);
	}
	seq_printf(m, "      map_idx (into tracing_map fields): %d\n",
		   hf->map_idx);
	if (hf->flags & HIST_FIELD_FL_LOGLIN)
		seq_printf(m, "      loglin: %lu buckets per power of two\n",
			   BIT(hf->loglin_shift));
	if (!(hf->flags & HIST_FIELD_FL_KEY) && hf->agg != HIST_AGG_SUM)
		hist_debug_agg(m, hf);
	seq_printf(m, "      type: %s\n", hf->type);
	seq_printf(m, "      size: %u\n", hf->size);
	seq_printf(m, "      is_signed: %u\n", hf->is_signed);
}

static void hist_debug_vars(struct seq_file *m, const struct hist_data *hd)
{
	unsigned int i;

	if (hd->n_vars)
		seq_printf(m, "\n  variables (tracing_map vars in use: %u, string slots: %u):\n",
			   hd->n_map_vars, hd->n_str_slots);
	for (i = 0; i < hd->n_vars; i++) {
		const struct hist_var *var = &hd->vars[i];

		hist_debug_field(m, hd, "vars", i, &var->value);
		seq_printf(m, "      var.name: %s\n", var->name);
		seq_printf(m, "      var.idx (into tracing_map_elt.vars[]): %u\n",
			   var->map_idx);
		if (var->str_slot >= 0)
			seq_printf(m, "      string slot: %d\n", var->str_slot);
	}
	if (hd->n_refs)
		seq_puts(m, "\n  variable reference fields:\n");
	for (i = 0; i < hd->n_refs; i++) {
		const struct hist_ref *ref = &hd->refs[i];
		const struct hist_var *var = &ref->hd->vars[ref->var];

		seq_printf(m, "\n    hist_data->refs[%u]:\n", i);
		seq_puts(m, "      flags:\n        HIST_FIELD_FL_VAR_REF\n");
		seq_printf(m, "      name: %s\n", var->name);
		seq_printf(m, "      var.idx (into tracing_map_elt.vars[]): %u\n",
			   var->map_idx);
		seq_printf(m, "      var.hist_data: %p\n", ref->hd);
		seq_printf(m, "      var_ref_idx (into hist_hit.refs[]): %u\n", i);
		if (hd->same_hit)
			seq_puts(m, "      read: set in this hit, handed over by the trigger setting it\n");
		else
			seq_printf(m, "      read_once: %u\n", ref->read_once);
	}
	if (!list_empty(&hd->readers))
		seq_puts(m, "\n  takes the hits of the hist triggers keyed by its variables\n");
	if (hd->users)
		seq_printf(m, "\n  referenced by %d other hist trigger(s)\n",
			   hd->users);
}

/**
 * hist_debug_actions - describe the actions in hist_debug
 * @m: the hist_debug file
 * @hd: the histogram
 */
static void hist_debug_actions(struct seq_file *m, const struct hist_data *hd)
{
	unsigned int i, j;

	if (!hd->n_actions)
		return;
	seq_puts(m, "\n  actions:\n");
	for (i = 0; i < hd->n_actions; i++) {
		const struct hist_action *act = hd->actions[i];

		seq_printf(m, "\n    hist_data->actions[%u]: %s\n", i,
			   act->text + 1);
		if (act->handler != HIST_ONMATCH) {
			seq_printf(m, "      tracked var: $%s (hist_data->vars[%u])\n",
				   hd->vars[act->tracked].name, act->tracked);
			seq_printf(m, "      track var.idx (into tracing_map_elt.vars[]): %u\n",
				   act->track_var);
		}
		if (act->synth)
			seq_printf(m, "      synthetic event: %s (%u fields)\n",
				   act->synth->name, act->synth->n_fields);
		for (j = 0; j < act->n_params; j++) {
			const struct hist_field *p = &act->params[j];

			seq_printf(m, "      param[%u]: %s", j, p->spec);
			if (p->fetch == HIST_FETCH_REF)
				seq_printf(m, " (var_ref_idx %u)", p->slot);
			else if (p->fetch == HIST_FETCH_OWN_VAR)
				seq_printf(m, " (hist_data->vars[%u])", p->slot);
			if (act->kind == HIST_ACT_SAVE)
				seq_printf(m, " -> var.idx %u", act->save_var[j]);
			seq_putc(m, '\n');
		}
	}
}

static void hist_debug_show_one(struct seq_file *m,
				struct event_trigger_data *data, bool first)
{
	const struct hist_data *hd = data->private_data;
	unsigned int i;

	hist_print_header(m, data, first);
	seq_printf(m, "hist_data: %p\n\n", hd);
	seq_printf(m, "  n_vals: %u\n", hd->n_vals);
	seq_printf(m, "  n_keys: %u\n", hd->n_keys);
	seq_printf(m, "  n_fields: %u\n", hd->n_vals + hd->n_keys);
	seq_printf(m, "  key_size: %u%s\n", hd->key_size,
		   hd->single_u64_key ? " (one u64, built in a register)" : "");
	seq_printf(m, "  entry layout: %u sum words", hd->n_sums);
	if (hd->pct_bytes)
		seq_printf(m, ", %zu bytes of percentile buckets (%zu KiB in all)",
			   hd->pct_bytes,
			   (hd->pct_bytes << hd->attrs.map_bits) >> 10);
	seq_putc(m, '\n');
	seq_puts(m, "\n  val fields:\n");
	for (i = 0; i < hd->n_vals; i++)
		hist_debug_field(m, hd, "vals", i, &hd->vals[i]);
	seq_puts(m, "\n  key fields:\n");
	for (i = 0; i < hd->n_keys; i++)
		hist_debug_field(m, hd, "keys", i, &hd->keys[i]);
	hist_debug_vars(m, hd);
	hist_debug_actions(m, hd);
	seq_putc(m, '\n');
}

static int hist_debug_show(struct seq_file *m, void *v)
{
	struct event_trigger_data *data;
	struct trace_event_file *file;
	bool first = true;

	guard(mutex)(&event_mutex);
	file = event_file_file(m->private);
	if (!file)
		return -ENODEV;
	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		hist_debug_show_one(m, data, first);
		first = false;
	}
	return 0;
}

static int hist_debug_open(struct inode *inode, struct file *file)
{
	int ret;

	ret = tracing_open_file_tr(inode, file);
	if (ret)
		return ret;
	/* single_open() wants an empty private_data */
	file->private_data = NULL;
	ret = single_open(file, hist_debug_show, file);
	if (ret)
		tracing_release_file_tr(inode, file);
	return ret;
}

const struct file_operations event_hist_debug_fops = {
	.open		= hist_debug_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= tracing_single_release_file_tr,
};
#endif
