// SPDX-License-Identifier: GPL-2.0
/*
 * Hist triggers: variables and the references between histograms.
 *
 * A variable is a value a histogram keeps per entry ("ts0=..." keeps
 * one per key).  Its value lives in the map element's vars[]; a string
 * or a stack is copied into a slot of the element (struct
 * hist_elt_data) and the variable holds the slot's address, so that it
 * stays readable after the event that set it is gone.
 *
 * A reference "$ts0" names a variable of this histogram or of another
 * one.  A reference to our own variable reads the value this hit just
 * computed (hist_hit.vars[]).  A reference to another histogram's
 * variable is resolved at creation to that histogram and the variable's
 * index, and at each hit by looking the current key up in that
 * histogram's map (hist_refs_resolve()): the events match when the
 * keys do.  The hit is dropped when a referenced variable is not set.
 * An expression reads such a variable once: reading it unsets it.
 *
 * Which histogram a plain "$name" means: ours first (but for a
 * parameter of save()), then those on the event our onmatch() handler
 * names, then the only one of the trace array that defines it;
 * "system.event.$name" names the event.
 *
 * Lifetime: the histograms that define variables are on a list, under
 * event_mutex.  A histogram referenced by another one counts it in
 * ->users and refuses to be removed until that reference is gone, so a
 * reference never outlives the variable it reads.
 */
#include <linux/ctype.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/string.h>

#include "trace_hist.h"

/*
 * The event of the first onmatch() in the text, into the buffers.  The
 * text is split by then (hist_actions_split()): the argument ends at
 * its ')' or at the end of its string.
 */
static bool hist_onmatch_text(const struct hist_data *hd, char *system,
			      char *event, size_t len)
{
	const char *p, *dot, *end;
	unsigned int i;

	for (i = 0; i < hd->attrs.n_action_defs; i++) {
		p = hd->attrs.action_defs[i];
		if (hist_handler_of(p) != HIST_ONMATCH)
			continue;
		p += strlen("onmatch(");
		dot = strchr(p, '.');
		end = strchrnul(p, ')');
		if (!dot || dot > end || dot - p >= len ||
		    end - dot - 1 >= len)
			return false;
		strscpy(system, p, dot - p + 1);
		strscpy(event, dot + 1, end - dot);
		return true;
	}
	return false;
}

/*
 * The event "system.event.$name" names (@name is in @text), or NULL if
 * there is none; an ERR_PTR (logged) when the prefix is malformed.
 */
static struct trace_event_file *hist_ref_event(const struct hist_parse_ctx *ctx,
					       struct hist_data *hd,
					       char *text, char *name)
{
	struct trace_event_file *file;
	char *dot = strchr(text, '.');

	if (!dot || dot + 1 >= name - 2 || name[-2] != '.') {
		hist_err(ctx, HIST_ERR_INVALID_SUBSYS_EVENT, text);
		return ERR_PTR(-EINVAL);
	}
	*dot = '\0';
	name[-2] = '\0';
	file = find_event_file(hd->tr, text, dot + 1);
	*dot = '.';
	name[-2] = '.';
	return file;
}

static struct hist_data *hist_ref_lookup(const struct hist_parse_ctx *ctx,
					 struct hist_data *hd, char *text,
					 char *name, unsigned int *idx,
					 unsigned int how)
{
	bool is_param = how & HIST_REF_PARAM;
	char system[MAX_EVENT_NAME_LEN], event[MAX_EVENT_NAME_LEN];
	struct trace_event_file *file;
	struct hist_data *owner = NULL;

	if (name - 1 > text) {
		/* system.event.$name */
		file = hist_ref_event(ctx, hd, text, name);
		if (IS_ERR(file))
			return ERR_CAST(file);
		if (file)
			owner = hist_find_in_file(file, name, idx);
	} else if (hist_onmatch_text(hd, system, event, sizeof(system))) {
		owner = hist_find_on_event(hd->tr, system, event, name, idx);
	}
	/*
	 * A qualified name means that event and no other; so does the
	 * matching event for a parameter of trace() after onmatch().
	 */
	if (!owner && name - 1 == text && !(how & HIST_REF_MATCH_ONLY)) {
		owner = hist_find_unique(hd->tr, name, idx);
		if (IS_ERR(owner)) {
			hist_err(ctx, HIST_ERR_VAR_NOT_UNIQUE, name);
			owner = NULL;
		}
	}
	if (!owner && is_param) {
		hist_err(ctx, HIST_ERR_PARAM_NOT_FOUND, name);
		return ERR_PTR(-EINVAL);
	}
	if (!owner) {
		/*
		 * The entries upstream leaves, which tools may look for:
		 * not a variable, and then not a field either, that one
		 * at the "$" even when "system.event." is in front.
		 */
		hist_err(ctx, HIST_ERR_VAR_NOT_FOUND, name);
		hist_err(ctx, HIST_ERR_FIELD_NOT_FOUND, name - 1);
		return ERR_PTR(-EINVAL);
	}
	return owner;
}

/*
 * The histogram whose variable a trigger keyed by variables reads: one
 * on the same event, so that it is set in the same hit, and not a named
 * one, which triggers on other events would hit too.
 */
static struct hist_data *hist_same_hit_lookup(const struct hist_parse_ctx *ctx,
					      struct hist_data *hd, char *text,
					      char *name, unsigned int *idx)
{
	struct trace_event_file *file = hd->event_file;
	struct hist_data *owner;

	if (name - 1 > text) {
		/* system.event.$name: this event's, or none */
		file = hist_ref_event(ctx, hd, text, name);
		if (IS_ERR(file))
			return ERR_CAST(file);
		if (file && file != hd->event_file) {
			hist_err(ctx, HIST_ERR_SAME_HIT_EVENT, text);
			return ERR_PTR(-EINVAL);
		}
	}
	owner = file ? hist_find_in_file(file, name, idx) : NULL;
	if (!owner) {
		if (!file || !hist_find_unique(hd->tr, name, idx)) {
			hist_err(ctx, HIST_ERR_VAR_NOT_FOUND, name);
			hist_err(ctx, HIST_ERR_FIELD_NOT_FOUND, name - 1);
		} else {
			/* defined, on another event (or several) */
			hist_err(ctx, HIST_ERR_SAME_HIT_EVENT, text);
		}
		return ERR_PTR(-EINVAL);
	}
	if (owner->attrs.name) {
		hist_err(ctx, HIST_ERR_SAME_HIT_NAMED, text);
		return ERR_PTR(-EINVAL);
	}
	return owner;
}

static void hist_ref_take_type(struct hist_field *hf,
			       const struct hist_field *value)
{
	hf->type = value->type;
	hf->size = value->size;
	hf->str_size = value->str_size;
	hf->is_signed = value->is_signed;
	hf->flags |= value->flags & (HIST_FIELD_FL_STRING |
				     HIST_FIELD_FL_STACKTRACE |
				     HIST_FIELD_FL_TIMESTAMP |
				     HIST_FIELD_FL_TIMESTAMP_USECS);
}

/*
 * A value reading a variable of this trigger: the values are parsed
 * before the variables, in upstream's order, so, as upstream does, a
 * variable that is a plain field is read in its place (and shown as
 * that field); one that is an expression or reads another variable is
 * not, and the reference is looked up as any other.
 * Return: 0, a negative errno, or 1 if @name is no such variable of
 * the text.
 */
static int hist_ref_forward(const struct hist_parse_ctx *ctx,
			    struct hist_data *hd, const char *name,
			    struct hist_field *hf)
{
	char *def;
	int ret;

	def = hist_var_def_text(hd, name);
	if (!def)
		return 1;
	if (strpbrk(def, "+-*/$")) {
		kfree(def);
		return 1;
	}
	ret = hist_parse_expr(ctx, hd->event_file, hd, def, hf);
	kfree(def);
	return ret;
}

/**
 * hist_ref_add - parse a variable reference
 * @ctx: the command, for error_log
 * @hd: the histogram being built
 * @text: "$name" or "system.event.$name", in the copy of the command
 * @hf: zeroed; made a reference
 * @how: HIST_REF_PARAM for a parameter of trace(), which logs only its
 *	own error when it is not found, with HIST_REF_MATCH_ONLY after
 *	onmatch(), where only the trigger's own variables and those on the
 *	matching event are seen; HIST_REF_NOT_OWN for one of save(),
 *	which, as upstream's, does not see the trigger's own variables
 *	(upstream looks a save() variable up among the triggers already on
 *	the event, which this one is not yet)
 *
 * A reference to another histogram is looked up even when the command
 * only names a trigger (!@hd->resolve), as upstream looks up those of a
 * removal: it is refused when no such variable is there.  No reference
 * is taken: hist_attach() does that.
 *
 * Return: 0, or -EINVAL (logged) or -ENOMEM.
 */
int hist_ref_add(const struct hist_parse_ctx *ctx, struct hist_data *hd,
		 char *text, struct hist_field *hf, unsigned int how)
{
	char *name = strchr(text, '$') + 1;
	struct hist_data *owner;
	unsigned int idx, i;
	int own, ret;

	text = strim(text);
	if (name - 1 == text && *name && hist_var_find_own(hd, name) < 0) {
		ret = hist_ref_forward(ctx, hd, name, hf);
		if (ret <= 0)
			return ret;
	}
	hf->flags |= HIST_FIELD_FL_VAR_REF;
	hf->spec = kstrdup(text, GFP_KERNEL);
	if (!hf->spec)
		return -ENOMEM;
	hf->name = strchr(hf->spec, '$') + 1;
	hf->type = "u64";
	hf->size = sizeof(u64);
	if (!*name) {
		/* about the empty name: no position */
		hist_err(ctx, HIST_ERR_VAR_NOT_FOUND, name);
		return -EINVAL;
	}

	own = name - 1 == text && !(how & HIST_REF_NOT_OWN) ?
	      hist_var_find_own(hd, name) : -1;
	if (own >= 0) {
		hf->fetch = HIST_FETCH_OWN_VAR;
		hf->slot = own;
		hist_ref_take_type(hf, &hd->vars[own].value);
		return 0;
	}
	hf->fetch = HIST_FETCH_REF;
	if (hd->same_hit)
		owner = hist_same_hit_lookup(ctx, hd, text, name, &idx);
	else
		owner = hist_ref_lookup(ctx, hd, text, name, &idx, how);
	if (IS_ERR(owner))
		return PTR_ERR(owner);
	hist_ref_take_type(hf, &owner->vars[idx].value);
	if ((how & HIST_REF_KEY) && hist_field_is_bytes(hf)) {
		hist_err(ctx, HIST_ERR_SAME_HIT_NUMBER, text);
		return -EINVAL;
	}
	if (hd->same_hit && hd->n_refs && hd->refs[0].hd != owner) {
		hist_err(ctx, HIST_ERR_SAME_HIT_ONE, text);
		return -EINVAL;
	}
	for (i = 0; i < hd->n_refs; i++)
		if (hd->refs[i].hd == owner && hd->refs[i].var == idx)
			break;
	if (i == hd->n_refs) {
		if (hd->n_refs == HIST_REFS_MAX) {
			hist_err(ctx, HIST_ERR_TOO_MANY_VARS, text);
			return -EINVAL;
		}
		hd->refs[hd->n_refs++] = (struct hist_ref){ .hd = owner,
							    .var = idx };
		hd->lookup_size = max(hd->lookup_size, owner->key_size);
	}
	hf->slot = i;
	return 0;
}

static bool hist_var_name_ok(const char *name)
{
	if (!*name || isdigit(*name))
		return false;
	for (; *name; name++)
		if (!isalnum(*name) && *name != '_')
			return false;
	return true;
}

/**
 * hist_var_define - add a variable to the histogram being built
 * @ctx: the command, for error_log
 * @file: the event
 * @hd: the histogram
 * @name: the variable's name, inside the command text
 * @expr: the expression computing it, inside the command text (or a
 *	copy, for a key that is also a variable)
 *
 * Return: 0, or -EINVAL (logged) or -ENOMEM.
 */
int hist_var_define(const struct hist_parse_ctx *ctx,
		    struct trace_event_file *file, struct hist_data *hd,
		    char *name, char *expr)
{
	struct hist_var *var;
	int ret;

	if (!hist_var_name_ok(name)) {
		hist_err(ctx, HIST_ERR_MALFORMED_ASSIGNMENT, name);
		return -EINVAL;
	}
	if (hist_name_reserved(name)) {
		hist_err(ctx, HIST_ERR_RESERVED_NAME, name);
		return -EINVAL;
	}
	if (!*skip_spaces(expr)) {
		hist_err(ctx, HIST_ERR_EMPTY_ASSIGNMENT, name);
		return -EINVAL;
	}
	if (!ctx->remove && hist_var_find_own(hd, name) >= 0) {
		/* the caret marks the first definition */
		hist_err(ctx, HIST_ERR_DUPLICATE_VAR,
			 hd->vars[hist_var_find_own(hd, name)].def);
		return -EINVAL;
	}
	if (hd->resolve && hist_var_on_event(hd, name)) {
		hist_err(ctx, HIST_ERR_DUPLICATE_VAR, name);
		return -EINVAL;
	}
	if (hd->n_vars == HIST_VARS_MAX) {
		hist_err(ctx, HIST_ERR_TOO_MANY_VARS, name);
		return -EINVAL;
	}
	var = &hd->vars[hd->n_vars];
	ret = hist_parse_expr(ctx, file, hd, expr, &var->value);
	if (ret) {
		hist_field_release(&var->value);
		return ret;
	}
	var->name = kstrdup(name, GFP_KERNEL);
	if (!var->name) {
		hist_field_release(&var->value);
		return -ENOMEM;
	}
	var->value.flags |= HIST_FIELD_FL_VAR;
	var->map_idx = hd->n_map_vars++;
	var->def = name;
	var->str_slot = hist_field_is_bytes(&var->value) ?
			hd->n_str_slots++ : -1;
	if (var->value.fetch == HIST_FETCH_STACK)
		hd->walks_stack = true;
	hd->n_vars++;
	return 0;
}

/*
 * Log @err at @part, a "name=expression" of a comma-separated list, as
 * upstream logs it: at the first occurrence of the name alone (all of
 * @part when it has no "=").  The text is cut there for the search and
 * put back.
 */
static void hist_var_part_err(const struct hist_parse_ctx *ctx,
			      unsigned int err, char *part)
{
	char *end = strpbrk(part, ",=");
	char saved;

	if (!end) {
		hist_err(ctx, err, part);
		return;
	}
	saved = *end;
	*end = '\0';
	hist_err(ctx, err, part);
	*end = saved;
}

/**
 * hist_vars_check_form - check the form of the variable definitions
 * @ctx: the command, for error_log
 * @hd: the histogram being built, before its values
 *
 * Upstream splits the definitions before it parses the values, and
 * refuses a command there for a part without "=" or for more variables
 * than a map holds: such a command is refused for that, whatever else
 * is wrong in it.  Nothing is split here; hist_vars_parse() does that.
 *
 * Return: 0, or -EINVAL (logged).
 */
int hist_vars_check_form(const struct hist_parse_ctx *ctx,
			 const struct hist_data *hd)
{
	unsigned int i, n = 0;
	char *part, *comma;

	for (i = 0; i < hd->attrs.n_var_defs; i++) {
		for (part = hd->attrs.var_defs[i]; part;
		     part = comma ? comma + 1 : NULL) {
			comma = strchr(part, ',');
			if (!memchr(part, '=',
				    comma ? comma - part : strlen(part))) {
				hist_var_part_err(ctx,
						  HIST_ERR_MALFORMED_ASSIGNMENT,
						  part);
				return -EINVAL;
			}
			if (++n > HIST_VARS_MAX) {
				hist_var_part_err(ctx, HIST_ERR_TOO_MANY_VARS,
						  part);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/**
 * hist_vars_parse - define the variables of the trigger text
 * @ctx: the command, for error_log
 * @file: the event
 * @hd: the histogram being built: values parsed, keys not yet, the
 *	form of the definitions checked by hist_vars_check_form()
 *
 * Each "name=expression" outside keys= and vals= (several may share a
 * part, separated by commas) becomes a variable, in the order written.
 *
 * Return: 0, or -EINVAL (logged) or -ENOMEM.
 */
int hist_vars_parse(const struct hist_parse_ctx *ctx,
		    struct trace_event_file *file, struct hist_data *hd)
{
	unsigned int i;
	char *def, *part, *eq;
	int ret;

	for (i = 0; i < hd->attrs.n_var_defs; i++) {
		def = hd->attrs.var_defs[i];
		while ((part = strsep(&def, ",")) != NULL) {
			/* hist_vars_check_form() found one in each part */
			eq = strchr(part, '=');
			*eq = '\0';
			ret = hist_var_define(ctx, file, hd, strim(part),
					      eq + 1);
			if (ret)
				return ret;
		}
	}
	return 0;
}
