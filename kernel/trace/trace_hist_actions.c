// SPDX-License-Identifier: GPL-2.0
/*
 * Hist triggers: handlers and actions.
 *
 * After an entry is updated, each handler.action pair of the trigger
 * runs in the order written.  The handler decides whether the action
 * happens:
 *
 *   onmatch(system.event)  always: the hit got here only because every
 *                          variable it references (set on
 *                          system.event) was found for its key
 *   onmax($var)            when $var exceeds the entry's maximum so far
 *   onchange($var)         when $var differs from the entry's last value
 *
 * and the action is one of:
 *
 *   trace(synth, params)   generate the synthetic event (also written
 *   synth(params)          with the event's name as the action)
 *   save(field, ...)       keep the hit's fields with the entry
 *   snapshot()             take a snapshot of the trace buffer
 *
 * The maximum or last value, and the saved fields, are hidden variables
 * of the map element, after the trigger's own; saved strings go to
 * element slots.  A parameter is read the way a value is: an event
 * field of this event, a variable of this histogram computed by this
 * hit, or another histogram's variable resolved before the update.  A
 * field of the matching event ("system.event.field") is carried over by
 * a histogram we create on that event with the same keys and a variable
 * holding the field, and remove with ours.
 */
#include <linux/ctype.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_hist.h"

const char * const hist_handler_names[HIST_HANDLERS] = {
	[HIST_ONMATCH]	= "onmatch",
	[HIST_ONMAX]	= "onmax",
	[HIST_ONCHANGE]	= "onchange",
};

/**
 * hist_handler_of - which handler a part of the trigger text starts with
 * @text: the part, e.g. "onmax($lat).save(...)"
 *
 * Return: its enum hist_handler, or -1 if the part is not an action.
 */
int hist_handler_of(const char *text)
{
	size_t len;
	int h;

	for (h = 0; h < ARRAY_SIZE(hist_handler_names); h++) {
		len = strlen(hist_handler_names[h]);
		if (!strncmp(text, hist_handler_names[h], len) &&
		    text[len] == '(')
			return h;
	}
	return -1;
}

/**
 * hist_save_action - the save() action of a histogram
 * @hd: the histogram
 *
 * Return: the action, or NULL if there is none.
 */
const struct hist_action *hist_save_action(const struct hist_data *hd)
{
	unsigned int i;

	for (i = 0; i < hd->n_actions; i++)
		if (hd->actions[i]->kind == HIST_ACT_SAVE)
			return hd->actions[i];
	return NULL;
}

/*
 * A parameter of trace() against the synthetic event's field: the same
 * type, or else the same size and sign.  A field of this event counts
 * as unsigned, as upstream has it: ret, a long, fills a u64 but not an
 * s64.  A char[N] field takes a string of that size only, as upstream
 * does: a longer one would be cut short without a word, and a script
 * that relied on it would fail on any other kernel.
 */
static bool hist_param_fits(const struct hist_field *hf,
			    const struct synth_field *sf)
{
	bool is_var = hf->fetch == HIST_FETCH_REF ||
		      hf->fetch == HIST_FETCH_OWN_VAR;

	switch (sf->kind) {
	case SYNTH_FIELD_STRING:
		return (hf->flags & HIST_FIELD_FL_STRING) &&
		       ((hf->type && !strcmp(hf->type, sf->type)) ||
			hf->str_size == sf->size);
	case SYNTH_FIELD_DYN_STRING:
		return hf->flags & HIST_FIELD_FL_STRING;
	case SYNTH_FIELD_STACK:
		return hf->flags & HIST_FIELD_FL_STACKTRACE;
	default:
		if (hist_field_is_bytes(hf))
			return false;
		if (hf->type && !strcmp(hf->type, sf->type))
			return true;
		return hf->size == sf->size &&
		       (is_var && hf->is_signed) == sf->is_signed;
	}
}

/* A histogram on @file whose keys read like ours, to copy keys from. */
static struct event_trigger_data *
hist_find_compatible(struct trace_event_file *file, const struct hist_data *hd)
{
	struct event_trigger_data *data;
	struct hist_data *other;
	unsigned int i;

	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		other = data->private_data;
		if (other->n_keys != hd->n_keys)
			continue;
		for (i = 0; i < hd->n_keys; i++)
			if (other->keys[i].key_size != hd->keys[i].key_size ||
			    other->keys[i].key_offset != hd->keys[i].key_offset)
				break;
		if (i == hd->n_keys)
			return data;
	}
	return NULL;
}

/*
 * The text of a histogram on @file keyed like @compat that keeps the
 * field @field in the variable @var: "keys=...:var=field if filter".
 */
static char *hist_field_var_cmd(const struct event_trigger_data *compat,
				const char *var, const char *field)
{
	char *keys, *cmd;

	keys = hist_spec_text(compat->private_data, HIST_SPEC_KEYS);
	if (!keys)
		return NULL;
	cmd = kasprintf(GFP_KERNEL, "%s:%s=%s%s%s", keys, var, field,
			compat->filter_str ? " if " : "",
			compat->filter_str ?: "");
	kfree(keys);
	return cmd;
}

/*
 * No histogram on @file carries @field yet: say which one to create.
 * The life cycle creates it and compiles the trigger again, which then
 * finds it (hist_compile()).
 */
static int hist_field_var_request(const struct hist_parse_ctx *ctx,
				  struct trace_event_file *file,
				  const struct event_trigger_data *compat,
				  char *var, char *field)
{
	if (!trace_find_event_field(file->event_call, field) ||
	    !strcmp(field, "common_comm")) {
		/* what making the histogram would have said, then this */
		hist_err(ctx, HIST_ERR_FIELD_NOT_FOUND, field);
		hist_err(ctx, HIST_ERR_HIST_CREATE_FAIL, field);
		return -EINVAL;
	}
	if (WARN_ON_ONCE(!ctx->need || ctx->need->cmd))
		return -EINVAL;
	ctx->need->cmd = hist_field_var_cmd(compat, var, field);
	if (!ctx->need->cmd)
		return -ENOMEM;
	ctx->need->file = file;
	ctx->need->at = field;
	return -EAGAIN;
}

/*
 * A field of the matching event as a parameter: a reference to the
 * variable "synthetic_<field>" of a histogram on that event keyed like
 * ours.  A histogram made for that purpose is remembered, so that the
 * last trigger using it removes it.
 */
static int hist_field_var_param(const struct hist_parse_ctx *ctx,
				struct hist_data *hd, char *system,
				char *event, char *field,
				struct hist_field *hf)
{
	struct event_trigger_data *compat;
	struct trace_event_file *file;
	const struct hist_data *chd;
	unsigned int idx;
	char *var, *ref;
	int ret;

	var = kasprintf(GFP_KERNEL, "synthetic_%s", field);
	if (!var)
		return -ENOMEM;
	ret = -EINVAL;
	/* errors point at the field name: tools look for the caret there */
	file = __find_event_file(hd->tr, system, event);
	if (!file) {
		hist_err(ctx, HIST_ERR_EVENT_FILE_NOT_FOUND, field);
		goto out;
	}
	compat = hist_find_compatible(file, hd);
	if (!compat) {
		hist_err(ctx, HIST_ERR_HIST_NOT_FOUND, field);
		goto out;
	}
	chd = hist_find_on_event(hd->tr, system, event, var, &idx);
	if (!chd) {
		ret = hist_field_var_request(ctx, file, compat, var, field);
		goto out;
	}
	if (chd->field_var_hist) {
		if (hd->n_field_var_hists == HIST_PARAMS_MAX) {
			hist_err(ctx, HIST_ERR_TOO_MANY_FIELD_VARS, field);
			goto out;
		}
		hd->field_var_hists[hd->n_field_var_hists++] = chd->trigger;
	}
	/* the reference to the variable, named the way a user would */
	ref = kasprintf(GFP_KERNEL, "%s.%s.$%s", system, event, var);
	ret = ref ? hist_ref_add(ctx, hd, ref, hf, HIST_REF_PARAM) : -ENOMEM;
	kfree(ref);
	if (!ret) {
		/* the reference keeps the caret and the name of the field */
		kfree(hf->spec);
		hf->spec = kasprintf(GFP_KERNEL, "%s.%s.%s", system, event,
				     field);
		ret = hf->spec ? 0 : -ENOMEM;
		if (!ret)
			hf->name = strrchr(hf->spec, '.') + 1;
	}
out:
	kfree(var);
	return ret;
}

/*
 * A field of this event as a parameter.  One no hist can read is refused
 * as upstream refuses it, where it tries to make a field variable of it:
 * trace() with EINVAL and an entry, save() with ENOMEM and the entries
 * of any parameter of save() that fails (hist_resolve_params()).
 */
static int hist_parse_local_param(const struct hist_parse_ctx *ctx,
				  struct trace_event_file *file,
				  struct hist_data *hd, char *text,
				  bool is_trace, struct hist_field *hf)
{
	struct ftrace_event_field *field;

	/* not a field a parameter can name: a variable carries it */
	if (!strcmp(text, "common_comm")) {
		hist_err(ctx, HIST_ERR_FIELD_NOT_FOUND, text);
		return -EINVAL;
	}
	field = trace_find_event_field(file->event_call, text);
	if (field && hist_event_field_unreadable(field)) {
		if (!is_trace)
			return -ENOMEM;
		hist_err(ctx, HIST_ERR_FIELD_VAR_PARSE_FAIL, text);
		return -EINVAL;
	}
	return hist_parse_field(ctx, file, hd, hf, text, false);
}

/*
 * One parameter of trace() or save() (@how: HIST_REF_PARAM for trace(),
 * see hist_ref_add()): "$var", "system.event.$var", "field" of this
 * event or "system.event.field" of it or of the matching event.  save()
 * looks a variable up as any other reference does but for the
 * trigger's own variables, which upstream's save() does not see, and
 * says so when there is none.
 */
static int hist_parse_param(const struct hist_parse_ctx *ctx,
			    struct trace_event_file *file,
			    struct hist_data *hd, char *text, unsigned int how,
			    struct hist_field *hf)
{
	struct trace_event_call *call = file->event_call;
	bool is_trace = how & HIST_REF_PARAM;
	char *dot1, *dot2;

	if (strchr(text, '$'))
		return hist_ref_add(ctx, hd, text, hf, how);
	if (isdigit(*text)) {
		hist_err(ctx, HIST_ERR_INVALID_PARAM, text);
		return -EINVAL;
	}
	dot1 = strchr(text, '.');
	dot2 = dot1 ? strchr(dot1 + 1, '.') : NULL;
	if (!dot2)
		return hist_parse_local_param(ctx, file, hd, text, is_trace,
					      hf);

	*dot1 = '\0';
	*dot2 = '\0';
	if (!strcmp(text, call->class->system) &&
	    !strcmp(dot1 + 1, trace_event_name(call)))
		return hist_parse_local_param(ctx, file, hd, dot2 + 1,
					      is_trace, hf);
	return hist_field_var_param(ctx, hd, text, dot1 + 1, dot2 + 1,
				    hf);
}

/* What an error about parameter @text is about: what follows system.event. */
static const char *hist_param_name(const char *text)
{
	const char *dot1 = strchr(text, '.');
	const char *dot2 = dot1 ? strchr(dot1 + 1, '.') : NULL;

	return dot2 ? dot2 + 1 : text;
}

/*
 * Resolve the parameters split by hist_split_params(), in order; for
 * trace(), check each against its field of @se as soon as it is
 * resolved (one too many fits no field), and their count last.
 */
static int hist_resolve_params(const struct hist_parse_ctx *ctx,
			       struct trace_event_file *file,
			       struct hist_data *hd, struct hist_action *act,
			       const struct synth_event *se)
{
	const char *name;
	unsigned int how = HIST_REF_NOT_OWN, i;
	int ret;

	if (act->kind == HIST_ACT_TRACE)
		how = HIST_REF_PARAM | (act->handler == HIST_ONMATCH ?
					HIST_REF_MATCH_ONLY : 0);
	for (i = 0; i < act->n_params; i++) {
		/* before resolving splits the text */
		name = hist_param_name(act->param_at[i]);
		ret = hist_parse_param(ctx, file, hd, act->param_at[i], how,
				       &act->params[i]);
		/* -EAGAIN asks for a histogram to carry a field: no error */
		if (ret && ret != -EAGAIN && act->kind == HIST_ACT_SAVE) {
			/* upstream makes a field variable of each */
			hist_err(ctx, HIST_ERR_FIELD_VAR_PARSE_FAIL,
				 act->save_name[i]);
			hist_err(ctx, HIST_ERR_FIELD_VAR_CREATE_FAIL,
				 act->save_name[i]);
		}
		if (ret)
			return ret;
		/* save() or trace() of common_stacktrace: the hit walks it */
		if (act->params[i].fetch == HIST_FETCH_STACK)
			hd->walks_stack = true;
		if (se && (i >= se->n_fields ||
			   !hist_param_fits(&act->params[i], &se->fields[i]))) {
			hist_err(ctx, HIST_ERR_SYNTH_TYPE_MISMATCH, name);
			return -EINVAL;
		}
	}
	if (se && se->n_fields != act->n_params) {
		hist_err(ctx, HIST_ERR_SYNTH_COUNT_MISMATCH, se->name);
		return -EINVAL;
	}
	return 0;
}

/*
 * Split the parameter list @list of an action: at most HIST_PARAMS_MAX,
 * each of two characters at least, checked before anything else of the
 * trigger is, as upstream does.  With @synth_first, the first is the
 * synthetic event's name (trace()).
 */
static int hist_split_params(const struct hist_parse_ctx *ctx,
			     struct hist_action *act, char *list,
			     bool synth_first)
{
	unsigned int n = 1;
	char *tok;

	for (tok = list; (tok = strchr(tok, ',')); tok++)
		n++;
	n = min_t(unsigned int, n, HIST_PARAMS_MAX);
	act->params = kcalloc(n, sizeof(*act->params), GFP_KERNEL);
	act->param_at = kcalloc(n, sizeof(*act->param_at), GFP_KERNEL);
	act->save_var = kcalloc(n, sizeof(*act->save_var), GFP_KERNEL);
	act->save_slot = kcalloc(n, sizeof(*act->save_slot), GFP_KERNEL);
	if (!act->params || !act->param_at || !act->save_var ||
	    !act->save_slot)
		return -ENOMEM;

	while (list) {
		if (act->n_params == HIST_PARAMS_MAX) {
			hist_err(ctx, HIST_ERR_TOO_MANY_PARAMS, NULL);
			return -EINVAL;
		}
		tok = strim(strsep(&list, ","));
		if (strlen(tok) < 2) {
			hist_err(ctx, HIST_ERR_INVALID_PARAM, tok);
			return -EINVAL;
		}
		if (synth_first) {
			act->synth_name = tok;
			synth_first = false;
			continue;
		}
		act->param_at[act->n_params++] = tok;
	}
	return 0;
}

/*
 * The names the hist file shows the saved fields by: each parameter as
 * written, trimmed, "$" and "system.event." included, as upstream shows
 * them and tools look for them.
 */
static int hist_save_names(struct hist_action *act)
{
	unsigned int i;

	act->save_name = kcalloc(act->n_params, sizeof(*act->save_name),
				 GFP_KERNEL);
	if (!act->save_name)
		return -ENOMEM;
	for (i = 0; i < act->n_params; i++) {
		act->save_name[i] = kstrdup(act->param_at[i], GFP_KERNEL);
		if (!act->save_name[i])
			return -ENOMEM;
	}
	return 0;
}

/*
 * The actions, by name; a name that is none of them is a synthetic
 * event's, as in "onmatch(...).synth(params)".
 */
static const struct hist_action_type {
	const char	*name;
	u8		kind;
	bool		on_match;	/* allowed after onmatch() */
} hist_action_types[] = {
	{ "save",	HIST_ACT_SAVE,		false },
	{ "snapshot",	HIST_ACT_SNAPSHOT,	false },
	{ "trace",	HIST_ACT_TRACE,		true },
	{ NULL,		HIST_ACT_TRACE,		true },
};

static const struct hist_action_type *hist_action_type(const char *name)
{
	const struct hist_action_type *type = hist_action_types;

	while (type->name && strcmp(type->name, name))
		type++;
	return type;
}

/* onmatch()'s argument: "system.event", an event that exists. */
static int hist_check_match_event(const struct hist_parse_ctx *ctx,
				  struct hist_data *hd, char *arg)
{
	char *dot = strchr(arg, '.');

	if (!dot) {
		hist_err(ctx, HIST_ERR_SUBSYS_NOT_FOUND, arg);
		return -EINVAL;
	}
	*dot = '\0';
	if (!*arg || !dot[1] || !__find_event_file(hd->tr, arg, dot + 1)) {
		hist_err(ctx, HIST_ERR_INVALID_SUBSYS_EVENT, dot + 1);
		return -EINVAL;
	}
	*dot = '.';
	return 0;
}

/* onmax() and onchange()'s argument: "$var", a variable of this trigger. */
static int hist_track_var(const struct hist_parse_ctx *ctx,
			  struct hist_data *hd, struct hist_action *act)
{
	const char *arg = act->arg;
	int var;

	if (*arg != '$') {
		hist_err(ctx, HIST_ERR_ONX_NOT_VAR, arg);
		return -EINVAL;
	}
	var = hist_var_find_own(hd, arg + 1);
	if (var < 0) {
		hist_err(ctx, HIST_ERR_ONX_VAR_NOT_FOUND, arg + 1);
		return -EINVAL;
	}
	act->tracked = var;
	act->track_var = hd->n_map_vars++;
	return 0;
}

/* @params with each parameter trimmed, joined by bare commas. */
static char *hist_params_text(const char *params)
{
	char *text = kmalloc(strlen(params) + 1, GFP_KERNEL);
	const char *p = params, *comma;
	char *out = text;
	size_t len;

	if (!text)
		return NULL;
	for (;;) {
		comma = strchrnul(p, ',');
		p = skip_spaces(p);
		len = comma > p ? comma - p : 0;
		while (len && isspace(p[len - 1]))
			len--;
		memcpy(out, p, len);
		out += len;
		if (!*comma)
			break;
		*out++ = ',';
		p = comma + 1;
	}
	*out = '\0';
	return text;
}

/*
 * The text of "handler(arg).name(params)" as written, with what it is
 * made of: @def starts at the handler's '(' and is split in place.  The
 * positions error_log shows, or leaves out, are part of the interface:
 * tools match them.
 */
static int hist_split_action_text(const struct hist_parse_ctx *ctx,
				  struct hist_data *hd,
				  struct hist_action *act, char *def,
				  char **name, char **params)
{
	char *arg = def + 1, *close, *end, *ptext;
	int ret;

	close = strchr(arg, ')');
	if (!close) {
		hist_err(ctx, HIST_ERR_NO_CLOSING_PAREN, arg);
		return -EINVAL;
	}
	*close = '\0';
	if (act->handler == HIST_ONMATCH) {
		ret = hist_check_match_event(ctx, hd, arg);
		if (ret)
			return ret;
	}
	*name = close + 1;
	if (**name != '.' || !strchr(*name, '(')) {
		hist_err(ctx, HIST_ERR_ACTION_NOT_FOUND, NULL);
		return -EINVAL;
	}
	(*name)++;
	*params = strchr(*name, '(');
	*(*params)++ = '\0';
	end = strrchr(*params, ')');
	if (!end || end[1]) {
		hist_err(ctx, HIST_ERR_NO_CLOSING_PAREN, NULL);
		return -EINVAL;
	}
	*end = '\0';
	/*
	 * The canonical text is the argument as written, trimmed, and the
	 * parameters each trimmed and joined by bare commas, as upstream
	 * shows them.
	 */
	act->arg = kstrdup(strim(arg), GFP_KERNEL);
	ptext = hist_params_text(*params);
	if (act->arg && ptext)
		act->text = kasprintf(GFP_KERNEL, ":%s(%s).%s(%s)",
				      hist_handler_names[act->handler],
				      act->arg, *name, ptext);
	kfree(ptext);
	return act->text ? 0 : -ENOMEM;
}

/*
 * One "handler(arg).action(params)", @def starting at the handler's
 * '(': what can be told from its text alone.
 */
static int hist_split_action(const struct hist_parse_ctx *ctx,
			     struct hist_data *hd, struct hist_action *act,
			     char *def)
{
	const struct hist_action_type *type;
	char *name, *params;
	int ret;

	ret = hist_split_action_text(ctx, hd, act, def, &name, &params);
	if (ret)
		return ret;
	type = hist_action_type(name);
	act->kind = type->kind;
	/* save()'s parameters are looked at before where it is */
	if (act->kind == HIST_ACT_SAVE) {
		ret = hist_split_params(ctx, act, params, false);
		if (!ret)
			ret = hist_save_names(act);
		if (ret)
			return ret;
	}
	if (act->handler == HIST_ONMATCH && !type->on_match) {
		hist_err(ctx, HIST_ERR_ACTION_MISMATCH, name);
		return -EINVAL;
	}
	switch (act->kind) {
	case HIST_ACT_SNAPSHOT:
		if (*skip_spaces(params)) {
			hist_err(ctx, HIST_ERR_INVALID_PARAM, params);
			return -EINVAL;
		}
		return 0;
	case HIST_ACT_TRACE:
		/* trace(synth, params...), or synth(params...) */
		if (type->name) {
			ret = hist_split_params(ctx, act, params, true);
		} else {
			act->synth_name = name;
			ret = hist_split_params(ctx, act, params, false);
		}
		return ret;
	}
	return 0;
}

/* Hidden map vars and slots for what save() keeps. */
static void hist_save_layout(struct hist_data *hd, struct hist_action *act)
{
	unsigned int i;

	for (i = 0; i < act->n_params; i++) {
		act->save_var[i] = hd->n_map_vars++;
		act->save_slot[i] = hist_field_is_bytes(&act->params[i]) ?
				    hd->n_str_slots++ : -1;
	}
}

/**
 * hist_actions_split - parse the text of the handler.action pairs
 * @ctx: the command, for error_log
 * @hd: the histogram, nothing else of its text parsed yet
 *
 * What is wrong in the text of an action (its parentheses, its handler's
 * event, an action the handler does not take, a parameter too short or
 * one too many) is refused before anything else of the trigger, as
 * upstream does; what it names is looked up later, by
 * hist_actions_resolve().
 *
 * Return: 0, -EINVAL (logged) or -ENOMEM.
 */
int hist_actions_split(const struct hist_parse_ctx *ctx, struct hist_data *hd)
{
	struct hist_action *act;
	unsigned int i;
	char *def;
	int h;
	int ret;

	for (i = 0; i < hd->attrs.n_action_defs; i++) {
		def = hd->attrs.action_defs[i];
		act = kzalloc(sizeof(*act), GFP_KERNEL);
		if (!act)
			return -ENOMEM;
		act->hd = hd;
		hd->actions[hd->n_actions++] = act;
		h = hist_handler_of(def);
		if (WARN_ON_ONCE(h < 0))
			return -EINVAL;
		act->handler = h;
		ret = hist_split_action(ctx, hd, act,
					def + strlen(hist_handler_names[h]));
		if (ret)
			return ret;
	}
	return 0;
}

/* Look up what one action names. */
static int hist_resolve_action(const struct hist_parse_ctx *ctx,
			       struct trace_event_file *file,
			       struct hist_data *hd, struct hist_action *act)
{
	struct synth_event *se = NULL;
	int ret;

	if (act->handler != HIST_ONMATCH) {
		ret = hist_track_var(ctx, hd, act);
		if (ret)
			return ret;
	}
	switch (act->kind) {
	case HIST_ACT_SAVE:
		if (hist_save_action(hd) != act) {
			hist_err(ctx, HIST_ERR_TOO_MANY_SAVE_ACTIONS, NULL);
			return -EINVAL;
		}
		ret = hist_resolve_params(ctx, file, hd, act, NULL);
		if (!ret)
			hist_save_layout(hd, act);
		return ret;
	case HIST_ACT_SNAPSHOT:
		act->snap_key = kzalloc(TRACING_MAP_KEY_SIZE_MAX, GFP_KERNEL);
		return act->snap_key ? 0 : -ENOMEM;
	default:
		/* the synthetic event first, then its parameters */
		se = synth_event_find(act->synth_name);
		if (!se) {
			hist_err(ctx, HIST_ERR_SYNTH_EVENT_NOT_FOUND,
				 act->synth_name);
			return -EINVAL;
		}
		ret = hist_resolve_params(ctx, file, hd, act, se);
		if (ret)
			return ret;
		act->synth = se;
		return 0;
	}
}

/**
 * hist_actions_resolve - look up what the actions name
 * @ctx: the command, for error_log
 * @file: the event
 * @hd: the histogram: its actions split, keys, variables and values
 *	parsed
 *
 * The tracked variables, the synthetic events and the parameters, in
 * the order the actions are written.  A histogram that only names an
 * existing trigger (!hd->resolve: removal, continue, clear) looks none
 * of them up, as upstream does not: its actions' text is what matches.
 *
 * Return: 0, -EINVAL (logged), -ENOMEM, or -EAGAIN when @ctx->need
 * names a histogram to make first.
 */
int hist_actions_resolve(const struct hist_parse_ctx *ctx,
			 struct trace_event_file *file, struct hist_data *hd)
{
	unsigned int i;
	int ret;

	if (!hd->resolve)
		return 0;
	for (i = 0; i < hd->n_actions; i++) {
		ret = hist_resolve_action(ctx, file, hd, hd->actions[i]);
		if (ret)
			return ret;
	}
	if (hd->n_map_vars > HIST_VARS_MAX) {
		hist_err(ctx, HIST_ERR_TOO_MANY_VARS, NULL);
		return -EINVAL;
	}
	return 0;
}

/**
 * hist_actions_free - free the actions
 * @hd: a histogram no hit path uses any more
 *
 * Context: event_mutex held, or the reclaim work's (trace_events_hist.c).
 */
void hist_actions_free(struct hist_data *hd)
{
	unsigned int i, j;

	for (i = 0; i < hd->n_actions; i++) {
		struct hist_action *act = hd->actions[i];

		for (j = 0; j < act->n_params; j++)
			hist_field_release(&act->params[j]);
		kfree(act->params);
		kfree(act->param_at);
		kfree(act->save_var);
		kfree(act->save_slot);
		for (j = 0; act->save_name && j < act->n_params; j++)
			kfree(act->save_name[j]);
		kfree(act->save_name);
		kfree(act->snap_key);
		kfree(act->arg);
		kfree(act->text);
		kfree(act);
	}
	hd->n_actions = 0;
}
