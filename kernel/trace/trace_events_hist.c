// SPDX-License-Identifier: GPL-2.0
/*
 * Hist triggers: the life cycle.  The "hist" event command, and the
 * enable_hist / disable_hist commands.
 *
 * Everything here runs under event_mutex (see "Locking and lifetimes"
 * in trace_hist.h).  A "hist:..." write is compiled into a struct
 * hist_data (trace_hist_parse.c) and attached to the event as a struct
 * event_trigger_data whose private_data is the hist_data.  "pause",
 * "cont" and "clear" instead act on the existing trigger with the same
 * keys, values, sort, name and filter, and "!hist:..." removes it.
 *
 * name= shares one histogram between triggers: the first trigger with a
 * name owns the hist_data; each later one (on any event of the same
 * instance whose fields read the same way) points at the owner with
 * named_data and holds a reference on it, so the owner's data and map
 * live until the last sharer is gone, whichever order they are removed
 * in.
 *
 * Clearing
 * --------
 * A paused trigger is skipped by event_triggers_call() before it reaches
 * us (one keyed by another trigger's variables keeps its own flag: see
 * hist_set_paused()).  A clear does not pause: the paused flag belongs
 * to the user and to enable_hist and disable_hist, which may fire during
 * the clear.
 * It sets hist_data.hit_path to HIST_PATH_OFF, which sends every hit
 * back at once, waits for the hits in flight with
 * tracepoint_synchronize_unregister(), empties the map, and waits once
 * more before it lets hits in again:
 * triggers on other events that read our variables look keys up in our
 * map all along (tracing_map_clear() allows that), and those that
 * overlapped the clear must be done before our hits reuse its elements.
 * Each wait is the barrier that orders the flag against the map: a hit
 * that missed the flag has ended before the map is touched, and one
 * that sees it cleared began after the map was whole again.
 */
#include <kunit/visibility.h>
#include <linux/ctype.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "trace_hist.h"

static struct hist_data *hist_of(struct event_trigger_data *data)
{
	return data->private_data;
}

/*
 * The trace clock of common_timestamp
 * -----------------------------------
 * A trigger that reads common_timestamp sets its trace array's clock
 * (clock=, "global" when not named), as each one is attached.  The clock
 * the array had before the first of them comes back when the last one is
 * removed through tracefs, unless the clock was changed since by someone
 * else, whose choice stands.  Like a write to trace_clock, a change of
 * clock empties the buffer: its timestamps could not be compared.
 *
 * When the triggers go because their instance does, nothing is given
 * back: the clock and the filter-buffering count go with the instance,
 * and the removal holds trace_types_lock, which tracing_set_clock() and
 * tracing_set_filter_buffering() take.  hist_tr_going() tells the cases
 * apart.
 */
struct hist_clock_user {
	struct list_head	list;
	struct trace_array	*tr;
	unsigned int		users;
	bool			listed;
	const char		*before;
	const char		*ours;
};

/* Trace arrays with timestamp triggers; event_mutex. */
static LIST_HEAD(hist_clock_users);

/* Is @tr on ftrace_trace_arrays? */
static bool hist_tr_listed(struct trace_array *tr)
{
	struct trace_array *t;

	list_for_each_entry(t, &ftrace_trace_arrays, list)
		if (t == tr)
			return true;
	return false;
}

/*
 * Is @cu's trace array an instance being removed?  Its removal takes it
 * off ftrace_trace_arrays before it frees its triggers, and after boot
 * every change of that list is made with event_mutex held, as it is
 * here.  An instance made at boot is given its boot-time triggers
 * before it is listed, while the system is still booting: an unlisted
 * one is going only if it was seen listed or the system is up.
 */
static bool hist_tr_going(struct hist_clock_user *cu)
{
	lockdep_assert_held(&event_mutex);
	if (hist_tr_listed(cu->tr))
		return false;
	return cu->listed || system_state >= SYSTEM_RUNNING;
}

static struct hist_clock_user *hist_clock_user_of(struct trace_array *tr)
{
	struct hist_clock_user *cu;

	list_for_each_entry(cu, &hist_clock_users, list)
		if (cu->tr == tr)
			return cu;
	return NULL;
}

/*
 * Set @tr's clock to @clock for a new timestamp trigger, and have the
 * events of @tr written straight to the buffer, where the timestamp the
 * trigger reads is the one the event will have.
 */
static int hist_clock_get(struct trace_array *tr, const char *clock)
{
	struct hist_clock_user *cu = hist_clock_user_of(tr);
	bool first = !cu;
	int ret;

	if (first) {
		cu = kzalloc(sizeof(*cu), GFP_KERNEL);
		if (!cu)
			return -ENOMEM;
		cu->tr = tr;
		cu->before = tracing_clock_name(tr);
	}
	ret = tracing_set_clock(tr, clock);
	if (ret) {
		if (first)
			kfree(cu);
		return ret;
	}
	cu->ours = tracing_clock_name(tr);
	cu->users++;
	cu->listed |= hist_tr_listed(tr);
	if (first)
		list_add(&cu->list, &hist_clock_users);
	tracing_set_filter_buffering(tr, true);
	return 0;
}

/*
 * A timestamp trigger of @tr is gone: give back its filter buffering,
 * and the last one the clock, unless the instance goes with them.
 */
static void hist_clock_put(struct trace_array *tr)
{
	struct hist_clock_user *cu = hist_clock_user_of(tr);
	bool going;

	if (WARN_ON_ONCE(!cu))
		return;
	going = hist_tr_going(cu);
	if (!going)
		tracing_set_filter_buffering(tr, false);
	if (--cu->users)
		return;
	if (!going && cu->before != cu->ours &&
	    tracing_clock_name(tr) == cu->ours)
		tracing_set_clock(tr, cu->before);
	list_del(&cu->list);
	kfree(cu);
}

/*
 * A trigger sharing a named histogram holds its own event, as the
 * histogram holds its first trigger's (hist_trigger_get_event()): being
 * on the event's trigger list keeps a dynamic event from going, but not
 * a module from unloading.  A sharer's private_data is the shared
 * histogram, so the pins hang off that, one per sharer.
 */
struct hist_sharer_pin {
	struct list_head		node;
	struct event_trigger_data	*data;
	struct trace_event_call		*call;
};

/* Take @data's pin off @hd's list; the caller puts and frees it. */
static struct hist_sharer_pin *hist_sharer_unpin(struct hist_data *hd,
						 struct event_trigger_data *data)
{
	struct hist_sharer_pin *pin;

	list_for_each_entry(pin, &hd->sharer_pins, node) {
		if (pin->data == data) {
			list_del(&pin->node);
			return pin;
		}
	}
	WARN_ON_ONCE(1);
	return NULL;
}

static void hist_sharer_pin_put(struct hist_sharer_pin *pin)
{
	if (pin) {
		trace_event_put_ref(pin->call);
		kfree(pin);
	}
}

static void hist_detach(struct event_trigger_data *data,
			struct trace_event_file *file)
{
	list_del_rcu(&data->list);
	/* a reader stops counting with its removal, as others do */
	hist_reader_unlink(hist_of(data));
	/* the owner of a shared histogram: see hist_trigger_get_event() */
	if (data->name && !data->named_data && data->ref > 1)
		hist_of(data)->event_held = true;
	else
		trace_event_trigger_enable_disable(file, 0);
	update_cond_flag(file);
	data->cmd_ops->free(data);
}

/* Take @data off its event if it is still there, and drop that reference. */
static void hist_trigger_remove(struct event_trigger_data *data)
{
	struct trace_event_file *file = hist_of(data)->event_file;
	struct event_trigger_data *t;

	lockdep_assert_held(&event_mutex);
	/* an instance going away may have taken it off its list already */
	list_for_each_entry(t, &file->triggers, list) {
		if (t == data) {
			hist_detach(data, file);
			return;
		}
	}
}

/*
 * Drop a reference to a histogram made to carry a field; while no other
 * histogram reads its variable, it is removed too.
 */
static void hist_field_var_hist_put(struct event_trigger_data *data)
{
	if (!hist_of(data)->users)
		hist_trigger_remove(data);
	data->cmd_ops->free(data);
}

static void hist_actions_detach(struct hist_data *hd);

/*
 * Register what the actions need once live: the snapshot buffer and the
 * conditional snapshot of snapshot().  Fails with -EBUSY if the trace
 * array already has a conditional snapshot.
 */
static int hist_actions_attach(struct hist_data *hd)
{
	unsigned int i;
	int ret;

	for (i = 0; i < hd->n_actions; i++) {
		struct hist_action *act = hd->actions[i];

		if (act->kind != HIST_ACT_SNAPSHOT)
			continue;
		ret = tracing_alloc_snapshot_instance(hd->tr);
		if (!ret)
			ret = tracing_snapshot_cond_enable(hd->tr, act,
							   hist_snapshot_update);
		if (ret) {
			hist_actions_detach(hd);
			return ret;
		}
		act->snap_enabled = true;
	}
	return 0;
}

/* Undo hist_actions_attach(). */
static void hist_actions_detach(struct hist_data *hd)
{
	unsigned int i;

	for (i = 0; i < hd->n_actions; i++) {
		struct hist_action *act = hd->actions[i];

		if (act->snap_enabled) {
			tracing_snapshot_cond_disable(hd->tr);
			act->snap_enabled = false;
		}
	}
}

/* Does a snapshot() action of @hd hold its trace array's snapshot? */
static bool hist_snapshot_armed(const struct hist_data *hd)
{
	unsigned int i;

	for (i = 0; i < hd->n_actions; i++)
		if (hd->actions[i]->snap_enabled)
			return true;
	return false;
}

/*
 * Make a histogram's variables known and take the references its plan
 * borrowed while it was compiled: on each histogram whose variables it
 * reads, on each histogram made to carry a field to it, and on each
 * synthetic event its actions generate.
 */
static void hist_publish(struct hist_data *hd)
{
	unsigned int i;

	lockdep_assert_held(&event_mutex);
	if (hd->n_vars)
		hist_var_hists_add(hd);
	for (i = 0; i < hd->n_refs; i++) {
		hd->refs[i].hd->users++;
		hd->refs[i].hd->trigger->ref++;
	}
	for (i = 0; i < hd->n_field_var_hists; i++)
		hd->field_var_hists[i]->ref++;
	for (i = 0; i < hd->n_actions; i++)
		if (hd->actions[i]->synth)
			hd->actions[i]->synth->ref++;
}

/*
 * Undo hist_publish(): drop the references, but leave the plan whole (the
 * synthetic events of actions, the references and their count), for hits
 * that found the histogram before its retirement may still be running
 * it.  hist_data_destroy() frees the histogram without reading them.
 */
static void hist_unpublish(struct hist_data *hd)
{
	unsigned int i;

	lockdep_assert_held(&event_mutex);
	hist_var_hists_del(hd);
	for (i = 0; i < hd->n_refs; i++) {
		struct event_trigger_data *owner = hd->refs[i].hd->trigger;

		hd->refs[i].hd->users--;
		/* may retire the owner if it was removed meanwhile */
		owner->cmd_ops->free(owner);
	}
	/* after the variable references, which count as their users */
	for (i = 0; i < hd->n_field_var_hists; i++)
		hist_field_var_hist_put(hd->field_var_hists[i]);
	for (i = 0; i < hd->n_actions; i++)
		if (hd->actions[i]->synth)
			hd->actions[i]->synth->ref--;
}

/*
 * Reclaiming retired triggers
 * ---------------------------
 * Retiring a trigger (hist_trigger_free()) takes it, under event_mutex,
 * off every list a hit could find it on and gives back at once all that
 * the user can see: its name, variables, clock, the references it held
 * on other histograms, on synthetic events and on its event.  So the next
 * command may remove any of those.  What a hit that found the trigger
 * before may still be reading, the trigger with its filter, and its
 * hist_data with the map, waits here for tracepoint_synchronize_unregister().
 *
 * That wait lasts a grace period or two.  Paid once per trigger, under
 * event_mutex, it made removing the hist triggers of a few hundred events,
 * one write each, or an instance that held them, take seconds.  Instead,
 * retired triggers are queued, and one work item waits once for all of
 * those queued when it started, then frees them: a trigger queued
 * during the wait is left for the next run, since hits that found it
 * may have begun after the wait did.
 *
 * Everything the queued memory points at must outlive it, or be left
 * alone by the hits still in it:
 * - a histogram whose variables it read, or that carried a field to it:
 *   that one's reference was dropped once this trigger was off every
 *   list, so whenever that one is queued, the hits that reach it through
 *   this trigger began before, and the wait of its batch covers them;
 * - a synthetic event its actions trace to: synth_event_destroy() waits
 *   for the queue with hist_reclaim_wait() before it frees the event;
 * - its trace array: an instance's removal waits for the hits of its
 *   events before it frees them and the array;
 * - its event: a hit in flight runs in the code of the event's probe
 *   (kprobe, uprobe, eprobe, module tracepoint), which waits for, or
 *   has stopped, its callers before the event goes; the trigger core,
 *   which walks the event's file in the same hit, relies on that too.
 *   The hit path never reads the event file, and reclaiming only frees
 *   memory of our own.
 *
 * So what a retired trigger's hits still do is only what they would have
 * done had they come a little earlier: one may end after the removal
 * returned, and trace a last synthetic event then, or count in the
 * histogram a removed sharer shared, or convert a timestamp with the
 * clock given back meanwhile (Linux 6.19, which batches the frees of
 * removed triggers too, does the same).  But a
 * snapshot() action takes its trace array's snapshot, which the next
 * conditional snapshot may own: retiring a histogram with one still
 * waits for its hits, as 6.12 did.
 *
 * The memory queued is bounded: past HIST_RECLAIM_BYTES_MAX bytes (maps,
 * their elements' slots and percentile buckets), a retirement waits for
 * the queue, as a removal did before.
 *
 * The queue strings the triggers through their named_list, which names
 * no list once the trigger is retired; the lock is raw, since nothing
 * may sleep under it and it is held for a list operation only.  The
 * work never takes event_mutex, so it may be waited for under it.
 */
#define HIST_RECLAIM_BYTES_MAX		SZ_256M

static LIST_HEAD(hist_reclaim_queue);
static DEFINE_RAW_SPINLOCK(hist_reclaim_lock);
/* bytes of the triggers queued or being freed; hist_reclaim_lock */
static size_t hist_reclaim_bytes;
static void hist_reclaim_run(struct work_struct *work);
static DECLARE_WORK(hist_reclaim_work, hist_reclaim_run);

/* What the batches did, for KUnit: written by the work item alone. */
VISIBLE_IF_KUNIT unsigned long hist_reclaim_batches;
VISIBLE_IF_KUNIT unsigned long hist_reclaimed;

/*
 * About the bytes freeing @data gives back, the same each time it is
 * asked: a sharer's histogram is the owner's.
 */
static size_t hist_reclaim_bytes_of(struct event_trigger_data *data)
{
	struct hist_data *hd = hist_of(data);
	struct tracing_map_memory mem;
	size_t elt_data = 0;

	if (data->named_data || !hd->map)
		return sizeof(*data);
	tracing_map_memory_usage(hd->map, &mem);
	/* as hist_elt_alloc() sizes each element's own data */
	if (hd->needs_comm || hd->n_str_slots || hd->pct_bytes)
		elt_data = struct_size_t(struct hist_elt_data, slots,
					 hd->n_str_slots * HIST_SLOT_SIZE +
					 hd->pct_bytes);
	return sizeof(*data) + sizeof(*hd) + mem.total +
	       (elt_data << hd->attrs.map_bits);
}

/* Free a retired trigger: no hit can be in it any more. */
static void hist_reclaim_one(struct event_trigger_data *data)
{
	/* a sharer's hist_data is the owner's, queued by its own retirement */
	if (!data->named_data)
		hist_data_destroy(hist_of(data));
	free_event_filter(rcu_dereference_protected(data->filter, true));
	kfree(data->filter_str);
	kfree(data);
}

static void hist_reclaim_run(struct work_struct *work)
{
	struct event_trigger_data *data, *next;
	LIST_HEAD(batch);

	raw_spin_lock(&hist_reclaim_lock);
	list_splice_init(&hist_reclaim_queue, &batch);
	raw_spin_unlock(&hist_reclaim_lock);
	if (list_empty(&batch))
		return;
	WRITE_ONCE(hist_reclaim_batches, hist_reclaim_batches + 1);
	/* every trigger of the batch was off its lists before it was queued */
	tracepoint_synchronize_unregister();
	list_for_each_entry_safe(data, next, &batch, named_list) {
		size_t bytes = hist_reclaim_bytes_of(data);

		hist_reclaim_one(data);
		raw_spin_lock(&hist_reclaim_lock);
		hist_reclaim_bytes -= bytes;
		raw_spin_unlock(&hist_reclaim_lock);
		WRITE_ONCE(hist_reclaimed, hist_reclaimed + 1);
	}
}

/*
 * Queue @data, retired, for freeing after the hits still in it.  Returns
 * true when the queue holds more than HIST_RECLAIM_BYTES_MAX bytes.
 */
VISIBLE_IF_KUNIT bool hist_reclaim_queue_add(struct event_trigger_data *data)
{
	size_t bytes = hist_reclaim_bytes_of(data);
	bool over;

	raw_spin_lock(&hist_reclaim_lock);
	list_add_tail(&data->named_list, &hist_reclaim_queue);
	hist_reclaim_bytes += bytes;
	over = hist_reclaim_bytes > HIST_RECLAIM_BYTES_MAX;
	raw_spin_unlock(&hist_reclaim_lock);
	queue_work(system_unbound_wq, &hist_reclaim_work);
	return over;
}

/* Queue @data; wait for the queue if it holds too much. */
static void hist_reclaim_queue_retired(struct event_trigger_data *data)
{
	if (hist_reclaim_queue_add(data))
		hist_reclaim_wait();
}

/**
 * hist_reclaim_wait - wait until the triggers retired so far are freed
 *
 * For what their hits may still use and that is about to be freed
 * without a wait of its own: a synthetic event their actions traced to.
 *
 * Context: process; sleeps for a grace period or two if any trigger is
 * queued.  event_mutex may be held: reclaiming never takes it.
 */
void hist_reclaim_wait(void)
{
	flush_work(&hist_reclaim_work);
}

/*
 * Drop a reference; the last one retires the histogram: what the user
 * can see (variables, actions, the clock, the event) goes now, and the
 * memory, map and percentile buckets included, once no hit can be in it
 * (see "Reclaiming retired triggers" above).  A sharer of a named
 * histogram holds a reference on the owner, so the owner's hist_data
 * outlives every sharer.  Readers of the hist file hold nothing here:
 * a snapshot only names the histogram (hist_data.serial), and its next
 * read() finds it gone.
 */
static void hist_trigger_free(struct event_trigger_data *data)
{
	struct event_trigger_data *owner = data->named_data;
	struct hist_data *hd = hist_of(data);
	struct trace_event_call *call;

	lockdep_assert_held(&event_mutex);
	if (WARN_ON_ONCE(data->ref <= 0))
		return;
	if (--data->ref)
		return;

	if (data->name)
		del_named_trigger(data);
	if (owner) {
		hist_sharer_pin_put(hist_sharer_unpin(hd, data));
		hist_reclaim_queue_retired(data);
		hist_trigger_free(owner);
		return;
	}
	/* an instance's removal takes it off its event, not off this list */
	hist_reader_unlink(hd);
	if (hd->uses_timestamp)
		hist_clock_put(hd->tr);
	if (hist_snapshot_armed(hd))
		tracepoint_synchronize_unregister();
	hist_actions_detach(hd);
	hist_unpublish(hd);
	/* every sharer gave its pin back when it went */
	WARN_ON_ONCE(!list_empty(&hd->sharer_pins));
	if (hd->event_held)
		trace_event_trigger_enable_disable(hd->event_file, 0);
	call = hd->event_file->event_call;
	trace_event_put_ref(call);
	hist_reclaim_queue_retired(data);
}

/* The trigger on @file that a command with @hd and @filter names. */
static struct event_trigger_data *
hist_find_trigger(struct trace_event_file *file, const struct hist_data *hd,
		  const char *filter)
{
	struct event_trigger_data *data;

	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		if (strcmp(hist_of(data)->match, hd->match))
			continue;
		if (!!data->name != !!hd->attrs.name ||
		    (data->name && strcmp(data->name, hd->attrs.name)))
			continue;
		if (!!data->filter_str != !!filter ||
		    (filter && strcmp(data->filter_str, filter)))
			continue;
		return data;
	}
	return NULL;
}

/*
 * Emptying a histogram: hist_clear_start() holds its triggers off the
 * hit path and waits for the hits in flight, tracing_map_clear() empties
 * the map, hist_clear_finish() lets the hits in again.  KUnit calls the
 * two halves around hits of its own.
 */
VISIBLE_IF_KUNIT void hist_clear_start(struct event_trigger_data *data)
{
	/*
	 * Not the paused flag: enable_hist and disable_hist write that one
	 * from any event, at any time.  Named triggers share the hist_data,
	 * so its flag holds all of them off.
	 */
	WRITE_ONCE(hist_of(data)->hit_path, HIST_PATH_OFF);
	tracepoint_synchronize_unregister();
}

VISIBLE_IF_KUNIT void hist_clear_finish(struct event_trigger_data *data)
{
	/*
	 * Triggers that read our variables look them up all along,
	 * clearing or not: let those that overlapped the clear finish
	 * before our hits reuse the elements for other keys.
	 */
	tracepoint_synchronize_unregister();
	WRITE_ONCE(hist_of(data)->hit_path, hist_hit_path_of(hist_of(data)));
}

static void hist_clear(struct event_trigger_data *data)
{
	hist_clear_start(data);
	tracing_map_clear(hist_of(data)->map);
	/* a reader part-way through the file stops: see hist_view_live() */
	hist_of(data)->clears++;
	hist_clear_finish(data);
}

/* pause, cont and clear on an existing trigger */
static int hist_change_state(const struct hist_parse_ctx *ctx,
			     struct trace_event_file *file,
			     struct hist_data *hd, const char *filter)
{
	struct event_trigger_data *data = hist_find_trigger(file, hd, filter);
	const struct hist_attrs *attrs = &hd->attrs;

	if (!data) {
		/* pause alone: a new trigger, created paused */
		if (attrs->pause && !attrs->cont && !attrs->clear)
			return 1;
		/* hist_command_run() checks the command, then says so */
		return -ENOENT;
	}
	if (attrs->pause)
		hist_set_paused(data, true);
	else if (attrs->cont)
		hist_set_paused(data, false);
	else
		hist_clear(data);
	return 0;
}

/*
 * Another histogram reads the variables of our histogram, shared or not:
 * we must stay. A sharer too, as upstream has it: a reference naming the
 * sharer's event finds the variables through it, and would be found no
 * more to be removed.
 */
static bool hist_in_use(struct event_trigger_data *data)
{
	return hist_of(data)->users;
}

static int hist_remove(const struct hist_parse_ctx *ctx,
		       struct trace_event_file *file, struct hist_data *hd,
		       const char *filter)
{
	struct event_trigger_data *data = hist_find_trigger(file, hd, filter);

	/* removing a trigger that is not there is not an error */
	if (!data)
		return 0;
	if (hist_in_use(data)) {
		hist_err(ctx, HIST_ERR_VAR_IN_USE, NULL);
		return -EBUSY;
	}
	hist_detach(data, file);
	return 0;
}

/*
 * A histogram is laid out for its event: its fields are the event's,
 * names included.  It holds the event, as an enable_event trigger holds
 * the event it enables, from its first trigger's attach until it is
 * retired: a named histogram outlives that trigger while others share
 * it, and neither a dynamic event's removal nor a module's unload may
 * free the event under it.  Not every kind of dynamic event looks at
 * that reference (a user event does not), but each refuses to go while
 * it is enabled: so when the first trigger of a shared histogram is
 * removed, hist_detach() leaves its event in trigger mode, and the
 * histogram's retirement takes it out.
 */
static bool hist_trigger_get_event(const struct hist_parse_ctx *ctx,
				   struct trace_event_file *file)
{
	if (trace_event_try_get_ref(file->event_call))
		return true;
	/* the event is on its way out */
	hist_err(ctx, HIST_ERR_EVENT_FILE_NOT_FOUND, NULL);
	return false;
}

/* The last hist_data.serial given; event_mutex. */
static u64 hist_serial;

static int hist_attach(const struct hist_parse_ctx *ctx,
		       struct trace_event_file *file,
		       struct event_trigger_data *data)
{
	struct hist_data *hd = hist_of(data);
	int ret;

	/* see hist_trigger_get_event() */
	if (!data->named_data && !hist_trigger_get_event(ctx, file))
		return -ENODEV;
	if (hd->uses_timestamp && !data->named_data) {
		ret = hist_clock_get(file->tr, hd->attrs.clock);
		if (ret) {
			hist_err(ctx, HIST_ERR_SET_CLOCK_FAIL,
				 hd->attrs.clock_at);
			goto out_event;
		}
	}
	if (!data->named_data) {
		ret = hist_actions_attach(hd);
		if (ret)
			goto out_clock;
		hd->trigger = data;
		hd->serial = ++hist_serial;
		hist_publish(hd);
	}
	data->ref++;	/* for being on the list */
	/* keep creation order: the hist file shows triggers in it */
	list_add_tail_rcu(&data->list, &file->triggers);
	/* keyed by variables: the definer's hits take ours from now on */
	hist_reader_link(hd);
	update_cond_flag(file);
	ret = trace_event_trigger_enable_disable(file, 1);
	if (ret >= 0)
		return ret;

	hist_err(ctx, HIST_ERR_ENABLE_FAIL, NULL);
	hist_reader_unlink(hd);
	list_del_rcu(&data->list);
	/*
	 * The failed enable left the event counted as in trigger mode (and
	 * soft mode): the next trigger would skip the enable and never
	 * fire.  Disabling undoes the counts; the event was never on.
	 */
	trace_event_trigger_enable_disable(file, 0);
	update_cond_flag(file);
	data->ref--;
	/*
	 * An event made of several probes may have had some armed before
	 * the failure: a hit may have seen the trigger on the list.
	 */
	tracepoint_synchronize_unregister();
	if (!data->named_data) {
		hist_unpublish(hd);
		hist_actions_detach(hd);
	}
out_clock:
	if (hd->uses_timestamp && !data->named_data)
		hist_clock_put(file->tr);
out_event:
	if (!data->named_data)
		trace_event_put_ref(file->event_call);
	return ret;
}

/*
 * The trigger owning the histogram that @hd names, NULL if there is
 * none, or an ERR_PTR (logged) when @hd does not match it or, when it
 * would @join it, may not.
 *
 * The shared histogram keeps using the event file and trace_array of
 * the trigger that made it.  An instance is removed with no regard for
 * triggers elsewhere, so a sharer in another instance would outlive
 * both: a name is joined only from the instance that holds it.
 */
static struct event_trigger_data *
hist_named_owner(const struct hist_parse_ctx *ctx, const struct hist_data *hd,
		 bool join)
{
	struct event_trigger_data *owner = find_named_trigger(hd->attrs.name);

	if (!owner)
		return NULL;
	if (join && hist_of(owner)->tr != hd->tr) {
		hist_err(ctx, HIST_ERR_NAMED_OTHER_INSTANCE, hd->attrs.name_at);
		return ERR_PTR(-EINVAL);
	}
	if (!hist_data_compatible(hist_of(owner), hd)) {
		hist_err(ctx, HIST_ERR_NAMED_MISMATCH, hd->attrs.name_at);
		return ERR_PTR(-EINVAL);
	}
	return owner;
}

/*
 * Make @data share the histogram called @name, or own a new one of
 * that name.  On success @hd is no longer ours if it was not used.
 */
static int hist_join_named(const struct hist_parse_ctx *ctx,
			   struct trace_event_file *file,
			   struct event_trigger_data *data,
			   struct hist_data **hd)
{
	const char *name = (*hd)->attrs.name;
	struct event_trigger_data *owner;
	struct hist_sharer_pin *pin;
	int ret;

	owner = hist_named_owner(ctx, *hd, true);
	if (IS_ERR(owner))
		return PTR_ERR(owner);
	if (!owner)
		return save_named_trigger(name, data);

	pin = kzalloc(sizeof(*pin), GFP_KERNEL);
	if (!pin)
		return -ENOMEM;
	if (!hist_trigger_get_event(ctx, file)) {
		kfree(pin);
		return -ENODEV;
	}
	pin->data = data;
	pin->call = file->event_call;
	ret = save_named_trigger(name, data);
	if (ret) {
		hist_sharer_pin_put(pin);
		return ret;
	}
	list_add(&pin->node, &hist_of(owner)->sharer_pins);
	set_named_trigger_data(data, owner);
	owner->ref++;
	data->private_data = hist_of(owner);
	return 0;
}

/* Undo hist_join_named() for a trigger that was never attached. */
static void hist_leave_named(struct event_trigger_data *data)
{
	struct event_trigger_data *owner = data->named_data;

	del_named_trigger(data);
	if (owner) {
		hist_sharer_pin_put(hist_sharer_unpin(hist_of(owner), data));
		owner->ref--;
	}
}

/*
 * Split "keys=... if filter": return "if filter", which the trigger
 * core's filter setter expects, and end the trigger part before it.
 */
static char *hist_split_filter(char *text)
{
	char *p = text;

	while ((p = strstr(p, "if")) != NULL) {
		if (p > text && isspace(p[-1]) && isspace(p[2])) {
			p[-1] = '\0';
			return p;
		}
		p += 2;
	}
	return NULL;
}

static struct event_command hist_command;

static int hist_command_run(struct trace_event_file *file, bool remove,
			    char *param_and_filter,
			    struct event_trigger_data **datap);

/*
 * Field-variable histograms one command made, each with a reference;
 * allocated when the first is made.
 */
struct hist_made {
	struct event_trigger_data	*data[HIST_PARAMS_MAX];
	unsigned int			n;
};

/* Make the histogram the compiler asked for in @need. */
static int hist_make_field_var_hist(const struct hist_parse_ctx *ctx,
				    const struct hist_field_var_need *need,
				    struct hist_made **madep)
{
	struct event_trigger_data *data = NULL;
	struct hist_made *made = *madep;
	int ret;

	if (!made) {
		made = kzalloc(sizeof(*made), GFP_KERNEL);
		if (!made)
			return -ENOMEM;
		*madep = made;
	}
	if (made->n == ARRAY_SIZE(made->data)) {
		hist_err(ctx, HIST_ERR_TOO_MANY_FIELD_VARS, need->at);
		return -EINVAL;
	}
	ret = hist_command_run(need->file, false, need->cmd, &data);
	/* the text the compiler wrote can only create a trigger */
	if (!ret && WARN_ON_ONCE(!data))
		ret = -EINVAL;
	if (ret) {
		hist_err(ctx, HIST_ERR_HIST_CREATE_FAIL, need->at);
		return ret;
	}
	hist_of(data)->field_var_hist = true;
	data->ref++;
	made->data[made->n++] = data;
	return 0;
}

/*
 * Parse "if filter" as the trigger core will when the trigger is made,
 * and drop the result: a filter that does not parse is refused with
 * the error_log entry and the errno it will give then.
 */
static int hist_check_filter(struct trace_event_file *file,
			     const char *if_filter)
{
	struct event_filter *filter = NULL;
	char *copy, *rest, *word;
	int ret = -EINVAL;

	copy = kstrdup(if_filter, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	rest = copy;
	word = strsep(&rest, " \t");
	if (!strcmp(word, "if") && rest)
		ret = create_event_filter(file->tr, file->event_call, rest,
					  true, &filter);
	/* made even when it does not parse */
	free_event_filter(filter);
	kfree(copy);
	return ret;
}

/*
 * Compile @param, the trigger text without its filter, into *@hdp.  The
 * compiler may ask for a histogram on another event first, to carry a
 * field to an action: it is made, kept in @made, and @param compiled
 * again from @saved, as parsing splits the text in place.  Actions are
 * resolved for a trigger that may be created, or when @force_resolve
 * says so.  Every command, a removal too, has its filter @if_filter
 * parsed after its text and before the names its actions use are
 * looked up, so that a command wrong in both is refused for its
 * filter, as upstream refuses it.
 */
static int hist_compile(struct hist_parse_ctx *ctx,
			struct trace_event_file *file, bool remove,
			bool force_resolve, char *param, const char *saved,
			const char *if_filter,
			struct hist_made **made, struct hist_data **hdp)
{
	struct hist_field_var_need need;
	struct hist_attrs attrs;
	struct hist_data *hd;
	bool resolve;
	int ret;

	for (;;) {
		memset(&attrs, 0, sizeof(attrs));
		memset(&need, 0, sizeof(need));
		ctx->need = &need;
		/* the same length: @param is where @saved was copied from */
		memcpy(param, saved, strlen(saved) + 1);
		ret = hist_parse_attrs(ctx, param, &attrs);
		if (ret) {
			hist_free_attrs(&attrs);
			return ret;
		}
		resolve = force_resolve ||
			  (!remove && !attrs.cont && !attrs.clear);
		hd = hist_data_parse(ctx, file, &attrs, resolve);
		ret = IS_ERR(hd) ? PTR_ERR(hd) : 0;
		/* once: it parsed before a histogram was made for a field */
		if (!ret && if_filter && !*made) {
			ret = hist_check_filter(file, if_filter);
			if (ret)
				hist_data_destroy(hd);
		}
		if (!ret)
			ret = hist_data_finish(ctx, file, hd);
		ctx->need = NULL;
		if (!ret) {
			*hdp = hd;
			return 0;
		}
		if (ret == -EAGAIN && need.cmd)
			ret = hist_make_field_var_hist(ctx, &need, made);
		kfree(need.cmd);
		if (ret)
			return ret;
	}
}

/*
 * A new trigger for @hd on @file, attached; @hd is the trigger's now,
 * or freed if it joined a named histogram.
 */
static int hist_trigger_create(const struct hist_parse_ctx *ctx,
			       struct trace_event_file *file,
			       struct hist_data *hd, char *if_filter,
			       struct event_trigger_data **datap)
{
	struct event_command *cmd_ops = &hist_command;
	struct event_trigger_data *data;
	int ret = -ENOMEM;

	data = trigger_data_alloc(cmd_ops, NULL, NULL, hd);
	if (!data)
		goto out_hd;
	/* a reader stays paused for the core: see hist_set_paused() */
	data->paused = hd->attrs.pause || hd->same_hit;
	hd->reader_paused = hd->attrs.pause;
	/* a named histogram is no reader's (refused when parsed) */
	if (hd->attrs.name) {
		ret = hist_join_named(ctx, file, data, &hd);
		if (ret)
			goto out_data;
	}
	/* a trigger joining a named histogram uses that one's map */
	if (!data->named_data) {
		ret = hist_data_make_map(ctx, hd);
		if (ret)
			goto out_named;
	}
	/* the setter consumes its argument: give it a copy */
	ret = -ENOMEM;
	if (if_filter) {
		if_filter = kstrdup(if_filter, GFP_KERNEL);
		if (!if_filter)
			goto out_named;
	}
	ret = event_trigger_set_filter(cmd_ops, file, if_filter, data);
	kfree(if_filter);
	/* a filter that failed to parse is still the trigger's to free */
	if (ret < 0)
		goto out_filter;
	ret = hist_attach(ctx, file, data);
	if (ret < 0)
		goto out_filter;
	if (data->named_data)
		hist_data_destroy(hd);	/* the shared one is used instead */
	if (datap)
		*datap = data;
	return 0;

out_filter:
	event_trigger_reset_filter(cmd_ops, data);
out_named:
	if (data->name)
		hist_leave_named(data);
out_data:
	kfree(data);
out_hd:
	hist_data_destroy(hd);
	return ret;
}

/* What a compiled command does: remove, change the state of, or create. */
static int hist_command_act(const struct hist_parse_ctx *ctx,
			    struct trace_event_file *file, bool remove,
			    struct hist_data *hd, char *if_filter,
			    const char *filter,
			    struct event_trigger_data **datap)
{
	int ret;

	if (remove) {
		ret = hist_remove(ctx, file, hd, filter);
		goto out_hd;
	}
	if (hd->attrs.pause || hd->attrs.cont || hd->attrs.clear) {
		ret = hist_change_state(ctx, file, hd, filter);
		if (ret <= 0)
			goto out_hd;
	} else if (hist_find_trigger(file, hd, filter)) {
		hist_err(ctx, HIST_ERR_TRIGGER_EEXIST, NULL);
		ret = -EEXIST;
		goto out_hd;
	}
	return hist_trigger_create(ctx, file, hd, if_filter, datap);

out_hd:
	hist_data_destroy(hd);
	return ret;
}

/*
 * A cont or clear of a trigger that is not there: the command is checked
 * whole first, as one that would create a trigger (references, the
 * filter @if_filter, actions, then the named histogram it would join),
 * and refused for what is wrong in it; only a command right in all of
 * them is refused with ENOENT, as upstream has it.
 */
static int hist_missing_trigger(struct hist_parse_ctx *ctx,
				struct trace_event_file *file, char *param,
				const char *saved, const char *if_filter,
				struct hist_made **made)
{
	struct hist_data *hd;
	int ret;

	ret = hist_compile(ctx, file, false, true, param, saved, if_filter,
			   made, &hd);
	if (ret)
		return ret;
	if (hd->attrs.name)
		ret = PTR_ERR_OR_ZERO(hist_named_owner(ctx, hd, false));
	hist_data_destroy(hd);
	if (ret)
		return ret;
	hist_err(ctx, HIST_ERR_TRIGGER_ENOENT_CLEAR, NULL);
	return -ENOENT;
}

/*
 * A "hist:..." command on @file: create, remove (@remove), pause,
 * continue or clear a trigger.  A created trigger is returned in
 * *@datap when @datap is given.
 */
static int hist_command_run(struct trace_event_file *file, bool remove,
			    char *param_and_filter,
			    struct event_trigger_data **datap)
{
	char *text, *param, *saved = NULL, *filter = NULL, *if_filter;
	struct hist_made *made = NULL;
	struct hist_parse_ctx ctx;
	struct hist_data *hd;
	char *loc, *cmd_text;
	unsigned int i;
	bool missing;
	int ret;

	lockdep_assert_held(&event_mutex);
	/* a bare "hist" is parsed too, so that error_log says what it lacks */
	if (!param_and_filter)
		param_and_filter = "";

	text = kstrdup(param_and_filter, GFP_KERNEL);
	loc = kasprintf(GFP_KERNEL, HIST_PREFIX "%s:%s",
			file->event_call->class->system,
			trace_event_name(file->event_call));
	cmd_text = *param_and_filter ?
		   kasprintf(GFP_KERNEL, HIST_PREFIX "%s", param_and_filter) :
		   kstrdup("hist", GFP_KERNEL);
	ret = -ENOMEM;
	if (!text || !loc || !cmd_text)
		goto out;
	ctx = (struct hist_parse_ctx){ .tr = file->tr, .loc = loc,
				       .cmd = cmd_text, .remove = remove };
	if_filter = hist_split_filter(text);
	param = strim(text);
	if (if_filter) {
		if_filter = strim(if_filter);
		/* the filter text alone is what a trigger keeps and matches */
		filter = skip_spaces(if_filter + strlen("if"));
	}
	saved = kstrdup(param, GFP_KERNEL);
	if (!saved)
		goto out;

	ret = hist_compile(&ctx, file, remove, false, param, saved, if_filter,
			   &made, &hd);
	if (ret)
		goto out;
	missing = !remove && (hd->attrs.cont || hd->attrs.clear);
	ret = hist_command_act(&ctx, file, remove, hd, if_filter, filter,
			       datap);
	/* hist_change_state() found no trigger to continue or clear */
	if (ret == -ENOENT && missing)
		ret = hist_missing_trigger(&ctx, file, param, saved, if_filter,
					   &made);
out:
	/* what was made for a trigger that is not there goes again */
	for (i = 0; made && i < made->n; i++)
		hist_field_var_hist_put(made->data[i]);
	kfree(made);
	kfree(saved);
	kfree(cmd_text);
	kfree(loc);
	kfree(text);
	return ret;
}

static int hist_cmd_parse(struct event_command *cmd_ops,
			  struct trace_event_file *file, char *glob,
			  char *cmd, char *param_and_filter)
{
	return hist_command_run(file, event_trigger_check_remove(glob),
				param_and_filter, NULL);
}

/*
 * An open of the trigger file with O_TRUNC removes every hist trigger,
 * or none: while another histogram reads a variable of one of them, all
 * stay, and the open still succeeds, as upstream has it.  A trigger that
 * only reads the variables of others goes.
 */
static void hist_cmd_unreg_all(struct trace_event_file *file)
{
	struct event_trigger_data *data, *n;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(data, &file->triggers, list)
		if (data->cmd_ops->trigger_type == ETT_EVENT_HIST &&
		    hist_of(data)->users)
			return;
	list_for_each_entry_safe(data, n, &file->triggers, list)
		if (data->cmd_ops->trigger_type == ETT_EVENT_HIST)
			hist_detach(data, file);
}

static struct event_command hist_command = {
	.name		= "hist",
	.trigger_type	= ETT_EVENT_HIST,
	.flags		= EVENT_CMD_FL_NEEDS_REC,
	.parse		= hist_cmd_parse,
	.unreg_all	= hist_cmd_unreg_all,
	.set_filter	= set_trigger_filter,
	.trigger	= hist_hit,
	.free		= hist_trigger_free,
	.print		= hist_print_trigger,
};

/**
 * register_trigger_hist_cmd - make "hist" known to the trigger files
 *
 * Return: 0, or the error of register_event_command().
 */
__init int register_trigger_hist_cmd(void)
{
	int ret = register_event_command(&hist_command);

	WARN_ON(ret < 0);
	return ret;
}

/* enable_hist / disable_hist: un/pause every hist trigger of an event */
static void hist_enable_hit(struct event_trigger_data *data,
			    struct trace_buffer *buffer, void *rec,
			    struct ring_buffer_event *rbe)
{
	struct enable_trigger_data *ed = data->private_data;
	struct event_trigger_data *t;

	list_for_each_entry_rcu(t, &ed->file->triggers, list)
		if (t->cmd_ops->trigger_type == ETT_EVENT_HIST)
			hist_set_paused(t, !ed->enable);
}

VISIBLE_IF_KUNIT bool hist_enable_count(struct event_trigger_data *data,
					struct trace_buffer *buffer, void *rec,
					struct ring_buffer_event *rbe)
{
	unsigned long count = READ_ONCE(data->count);

	/*
	 * Hits on other CPUs, and an NMI on this one, take from the same
	 * count, each with one cmpxchg: N takes fire exactly N times, 0
	 * stops for good, and -1 (no limit) is never taken from.  Nothing
	 * else is published through the count, so the cmpxchg needs no
	 * ordering.  The generic trigger code prints the count with plain
	 * reads; an aligned word, it cannot be seen torn.
	 */
	do {
		if (!count)
			return false;
		if (count == -1UL)
			return true;
	} while (!try_cmpxchg_relaxed(&data->count, &count, count - 1));
	return true;
}

/*
 * An open of the trigger file with O_TRUNC removes the enable_hist and
 * disable_hist triggers too, as upstream's do.  The generic removal
 * takes the first trigger of the same type and target event: the first
 * one left, which is the one found, each time round.
 */
static void hist_enable_unreg_all(struct trace_event_file *file)
{
	struct event_trigger_data *data;

	lockdep_assert_held(&event_mutex);
again:
	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type == ETT_HIST_ENABLE) {
			data->cmd_ops->unreg(NULL, data, file);
			goto again;
		}
	}
}

static struct event_command hist_enable_command = {
	.name		= ENABLE_HIST_STR,
	.trigger_type	= ETT_HIST_ENABLE,
	.parse		= event_enable_trigger_parse,
	.reg		= event_enable_register_trigger,
	.unreg		= event_enable_unregister_trigger,
	.unreg_all	= hist_enable_unreg_all,
	.set_filter	= set_trigger_filter,
	.trigger	= hist_enable_hit,
	.count_func	= hist_enable_count,
	.print		= event_enable_trigger_print,
	.init		= event_trigger_init,
	.free		= event_enable_trigger_free,
};

/* The same command under the other name: set up at registration. */
static struct event_command hist_disable_command;

/**
 * register_trigger_hist_enable_disable_cmds - add enable_hist, disable_hist
 *
 * Return: 0, or the error of register_event_command().
 */
__init int register_trigger_hist_enable_disable_cmds(void)
{
	int ret;

	hist_disable_command = hist_enable_command;
	hist_disable_command.name = DISABLE_HIST_STR;
	ret = register_event_command(&hist_enable_command);
	if (WARN_ON(ret < 0))
		return ret;
	ret = register_event_command(&hist_disable_command);
	if (WARN_ON(ret < 0))
		unregister_event_command(&hist_enable_command);
	return ret;
}
