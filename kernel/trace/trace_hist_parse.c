// SPDX-License-Identifier: GPL-2.0
/*
 * Hist triggers: from the trigger text to a struct hist_data.
 *
 * Everything the hit path will need is decided here, once: each key
 * and value is resolved to the event field it reads, its offset, size
 * and signedness become a fetch kind, its modifier becomes a transform
 * or a display flag, the keys are laid out in the key buffer, and the
 * tracing_map is created with room for every value.
 *
 * Errors go to tracing/error_log with a caret under the first occurrence
 * in the command of the text they are about (hist_err()).  The text
 * being parsed is a copy of the command, split in place.
 */
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/math.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_hist.h"

/* Set *slot to a copy of @val, refusing a second "keys=" and the like. */
static int hist_attr_set(const struct hist_parse_ctx *ctx, char **slot,
			 const char *token, const char *val)
{
	if (*slot) {
		hist_err(ctx, HIST_ERR_DUPLICATE_ATTR, token);
		return -EINVAL;
	}
	*slot = kstrdup(val, GFP_KERNEL);
	return *slot ? 0 : -ENOMEM;
}

/*
 * keys=, vals= and sort= stay in the command text until the histogram is
 * built, so that their errors can point into it.
 */
static int hist_attr_point(const struct hist_parse_ctx *ctx, char **slot,
			   const char *token, char *val)
{
	if (*slot) {
		hist_err(ctx, HIST_ERR_DUPLICATE_ATTR, token);
		return -EINVAL;
	}
	*slot = val;
	return 0;
}

/*
 * size= is rounded up to a power of two, which must lie between the
 * smallest map and the largest one upstream allows, so that a trigger
 * accepted here is accepted there.
 */
static int hist_parse_size(const struct hist_parse_ctx *ctx,
			   struct hist_attrs *attrs, char *token, char *val)
{
	unsigned long size;
	unsigned int bits;

	if (kstrtoul(val, 0, &size) || !size ||
	    size > (1UL << HIST_MAP_BITS_MAX))
		goto bad;
	bits = order_base_2(size);
	if (bits < TRACING_MAP_BITS_MIN)
		goto bad;
	attrs->map_bits = bits;
	return 0;
bad:
	hist_err(ctx, HIST_ERR_BAD_MAP_SIZE, val);
	return -EINVAL;
}

/* The words of a trigger's text that take "=value". */
enum hist_word {
	HIST_WORD_KEYS,
	HIST_WORD_VALS,
	HIST_WORD_SORT,
	HIST_WORD_NAME,
	HIST_WORD_CLOCK,
	HIST_WORD_SIZE,
	HIST_WORD_TOP,
};

static const struct {
	const char	*name;
	u8		word;
} hist_words[] = {
	{ "keys", HIST_WORD_KEYS }, { "key", HIST_WORD_KEYS },
	{ "vals", HIST_WORD_VALS }, { "val", HIST_WORD_VALS },
	{ "values", HIST_WORD_VALS },
	{ "sort", HIST_WORD_SORT }, { "name", HIST_WORD_NAME },
	{ "clock", HIST_WORD_CLOCK }, { "size", HIST_WORD_SIZE },
	{ "top", HIST_WORD_TOP },
};

/* The words without "=": each sets a flag of struct hist_attrs. */
static const struct {
	const char	*name;
	size_t		flag;
} hist_flags[] = {
	{ "pause", offsetof(struct hist_attrs, pause) },
	{ "cont", offsetof(struct hist_attrs, cont) },
	{ "continue", offsetof(struct hist_attrs, cont) },
	{ "clear", offsetof(struct hist_attrs, clear) },
	{ "nohitcount", offsetof(struct hist_attrs, no_hitcount) },
	{ "NOHC", offsetof(struct hist_attrs, no_hitcount) },
};

static int hist_word_of(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hist_words); i++)
		if (!strcmp(name, hist_words[i].name))
			return hist_words[i].word;
	return -1;
}

/*
 * One "name=value" part of the trigger text, @eq at its '='.  A name
 * that is not one of the words above names a variable; "a=x,b=y"
 * defines two.
 */
static int hist_parse_assignment(const struct hist_parse_ctx *ctx,
				 struct hist_attrs *attrs, char *token,
				 char *eq)
{
	char *val = eq + 1;
	int word;

	*eq = '\0';
	word = hist_word_of(token);
	*eq = '=';
	switch (word) {
	case HIST_WORD_KEYS:
		return hist_attr_point(ctx, &attrs->keys, token, val);
	case HIST_WORD_VALS:
		return hist_attr_point(ctx, &attrs->vals, token, val);
	case HIST_WORD_SORT:
		return hist_attr_point(ctx, &attrs->sort, token, val);
	case HIST_WORD_NAME:
		attrs->name_at = token;
		return hist_attr_set(ctx, &attrs->name, token, val);
	case HIST_WORD_CLOCK:
		attrs->clock_at = val;
		return hist_attr_set(ctx, &attrs->clock, token, strim(val));
	case HIST_WORD_SIZE:
		return hist_parse_size(ctx, attrs, token, val);
	case HIST_WORD_TOP:
		if (attrs->top) {
			hist_err(ctx, HIST_ERR_DUPLICATE_ATTR, token);
			return -EINVAL;
		}
		if (kstrtouint(val, 10, &attrs->top) || !attrs->top) {
			hist_err(ctx, HIST_ERR_BAD_TOP, val);
			return -EINVAL;
		}
		return 0;
	}
	if (attrs->n_var_defs == HIST_VARS_MAX) {
		hist_err(ctx, HIST_ERR_TOO_MANY_VARS, token);
		return -EINVAL;
	}
	attrs->var_defs[attrs->n_var_defs++] = token;
	return 0;
}

/* A word without "=": a state or a flag. */
static int hist_parse_flag(const struct hist_parse_ctx *ctx,
			   struct hist_attrs *attrs, char *token)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hist_flags); i++) {
		if (!strcmp(token, hist_flags[i].name)) {
			*(bool *)((void *)attrs + hist_flags[i].flag) = true;
			return 0;
		}
	}
	hist_err(ctx, HIST_ERR_UNKNOWN_ATTR, token);
	return -EINVAL;
}

/**
 * hist_parse_attrs - split a trigger's text into its parts
 * @ctx: the command, for error_log
 * @param: the text after "hist:", without the filter; modified in place
 *	and, for keys=, vals= and sort=, referenced by @attrs until the
 *	histogram is built
 * @attrs: zeroed; filled in
 *
 * Return: 0, or -EINVAL (logged) or -ENOMEM.  On error @attrs may hold
 * allocations: free them with hist_free_attrs().
 */
int hist_parse_attrs(const struct hist_parse_ctx *ctx, char *param,
		     struct hist_attrs *attrs)
{
	char *token, *eq;
	int ret = 0;

	attrs->map_bits = TRACING_MAP_BITS_DEFAULT;
	/* an empty command lacks keys; it is not an unknown empty word */
	if (!*param)
		param = NULL;
	while ((token = strsep(&param, ":")) != NULL) {
		token = skip_spaces(token);
		eq = strchr(token, '=');
		if (hist_handler_of(token) >= 0) {
			if (attrs->n_action_defs == HIST_ACTIONS_MAX) {
				hist_err(ctx, HIST_ERR_TOO_MANY_PARAMS, token);
				return -EINVAL;
			}
			attrs->action_defs[attrs->n_action_defs++] = token;
		} else if (eq) {
			if (!eq[1]) {
				hist_err(ctx, HIST_ERR_EMPTY_ASSIGNMENT, token);
				return -EINVAL;
			}
			ret = hist_parse_assignment(ctx, attrs, token, eq);
		} else {
			ret = hist_parse_flag(ctx, attrs, token);
		}
		if (ret)
			return ret;
	}

	if (!attrs->keys) {
		hist_err(ctx, HIST_ERR_MISSING_KEYS, NULL);
		return -EINVAL;
	}
	if (!attrs->clock) {
		attrs->clock = kstrdup("global", GFP_KERNEL);
		if (!attrs->clock)
			return -ENOMEM;
	}
	return 0;
}

/**
 * hist_free_attrs - free what hist_parse_attrs() allocated
 * @attrs: parsed attributes
 */
void hist_free_attrs(struct hist_attrs *attrs)
{
	kfree(attrs->name);
	kfree(attrs->clock);
	memset(attrs, 0, sizeof(*attrs));
}

/* The aggregations a value can end in, as written. */
static const char * const hist_agg_names[] = {
	[HIST_AGG_SUM]		= "sum",
	[HIST_AGG_MIN]		= "min",
	[HIST_AGG_MAX]		= "max",
	[HIST_AGG_AVG]		= "avg",
	[HIST_AGG_STDDEV]	= "stddev",
};

/* The most words a value takes: a signed .stddev's, 4 + 3 */
#define HIST_VAL_WORDS_MAX	7
/* hitcount and as many values of the most words as allowed fit an entry */
static_assert(1 + (HIST_VALS_MAX - 1) * HIST_VAL_WORDS_MAX <=
	      TRACING_MAP_SUMS_MAX);

/* A value's words in the map element ("Aggregations", trace_hist.h) */
static unsigned int hist_agg_words(const struct hist_field *hf)
{
	switch (hf->agg) {
	case HIST_AGG_AVG:
		return hist_sum_words(hf);
	case HIST_AGG_STDDEV:
		return hist_sum_words(hf) + 3;
	case HIST_AGG_PCT:
		return 0;
	default:
		return 1;
	}
}

/* The most digits of a percentile: p999999 is 99.9999% */
#define HIST_PCT_DIGITS_MAX	6

/**
 * hist_agg_of - the aggregation a modifier names
 * @word: the modifier, without its '.'
 * @pct: for a percentile, receives it in millionths
 *
 * One or two digits after 'p' are whole percents; more put the decimal
 * point after the second (p999 is 99.9%).
 *
 * Return: the enum hist_agg, -EINVAL for a 'p' and a digit that are no
 * percentile, or -ENOENT if @word is no aggregation.
 */
int hist_agg_of(const char *word, u32 *pct)
{
	size_t len;
	u32 val;
	int i;

	for (i = 0; i < ARRAY_SIZE(hist_agg_names); i++)
		if (!strcmp(word, hist_agg_names[i]))
			return i;
	if (word[0] != 'p' || !isdigit(word[1]))
		return -ENOENT;
	len = strlen(word + 1);
	if (len > HIST_PCT_DIGITS_MAX || strspn(word + 1, "0123456789") != len ||
	    kstrtou32(word + 1, 10, &val))
		return -EINVAL;
	*pct = val * int_pow(10, len <= 2 ? 4 : HIST_PCT_DIGITS_MAX - len);
	return HIST_AGG_PCT;
}

/**
 * hist_name_reserved - is a word kept from naming variables
 * @name: the variable's name
 *
 * "top", "loglin" and the names of the aggregations are words of the
 * trigger syntax.
 *
 * Return: true if @name cannot be a variable's.
 */
bool hist_name_reserved(const char *name)
{
	int agg;
	u32 pct;

	/* not p99 and the like: scripts name variables p1, p2 */
	agg = hist_agg_of(name, &pct);
	return !strcmp(name, "top") || !strcmp(name, "loglin") ||
	       (agg >= 0 && agg != HIST_AGG_PCT);
}

/**
 * hist_var_def_text - the expression of a variable, from the trigger text
 * @hd: the histogram being built, its variables not parsed yet
 * @name: the variable's name
 *
 * Return: the expression of @name in the trigger's "name=..." parts,
 * copied (kfree() it), or NULL.
 */
char *hist_var_def_text(const struct hist_data *hd, const char *name)
{
	size_t len = strlen(name);
	const char *p, *end;
	unsigned int i;

	for (i = 0; i < hd->attrs.n_var_defs; i++) {
		for (p = hd->attrs.var_defs[i]; p; p = end ? end + 1 : NULL) {
			end = strchr(p, ',');
			p = skip_spaces(p);
			if (strncmp(p, name, len) || p[len] != '=')
				continue;
			p += len + 1;
			return end ? kstrndup(p, end - p, GFP_KERNEL) :
				     kstrdup(p, GFP_KERNEL);
		}
	}
	return NULL;
}

/*
 * The field of variable @name, for keys=$name: the keys are parsed after
 * the variables, whose text is split by then, so the variable's own
 * canonical text.
 */
static char *hist_var_key_text(const struct hist_data *hd, const char *name)
{
	int own = hist_var_find_own(hd, name);

	if (own < 0)
		return NULL;
	return kstrdup(hd->vars[own].value.spec, GFP_KERNEL);
}

/* Does a "name=field" key of the text define @name? */
static bool hist_key_defines(const struct hist_data *hd, const char *name)
{
	size_t len = strlen(name);
	const char *p, *end;

	for (p = hd->attrs.keys; p; p = end ? end + 1 : NULL) {
		end = strchr(p, ',');
		p = skip_spaces(p);
		if (!strncmp(p, name, len) && p[len] == '=')
			return true;
	}
	return false;
}

/*
 * Does key @tok name a variable of another trigger: "$name[.modifier]"
 * or "system.event.$name[.modifier]", where name is not one this
 * trigger defines (after keys=, or in a key "name=field")?  Asked of the
 * text before anything is parsed, and of each key as it is parsed.
 */
static bool hist_key_is_var_ref(const struct hist_data *hd, const char *tok)
{
	const char *dollar = strchr(tok, '$');
	char *name, *own = NULL;
	bool ours;

	tok = skip_spaces(tok);
	if (!dollar || (dollar != tok && dollar[-1] != '.'))
		return false;
	if (dollar != tok)
		return true;
	name = kstrndup(dollar + 1, strcspn(dollar + 1, ". \t+-*/"),
			GFP_KERNEL);
	/* out of memory: not a reference, which keeps upstream's errors */
	if (!name)
		return false;
	/* the text until the keys are parsed, the variables made since */
	ours = hist_var_find_own(hd, name) >= 0 ||
	       hist_key_defines(hd, name) ||
	       (own = hist_var_def_text(hd, name)) != NULL;
	kfree(name);
	kfree(own);
	return !ours;
}

/*
 * A trigger keyed by another trigger's variables reads all of that
 * trigger's variables in the same hit; its values and its variables
 * are parsed before its keys, so the keys' text says it first.
 */
static bool hist_keys_read_vars(const struct hist_data *hd)
{
	const char *p = hd->attrs.keys, *end;
	char *tok, *eq;
	bool ret = false;

	for (; p && !ret; p = end ? end + 1 : NULL) {
		end = strchr(p, ',');
		tok = end ? kstrndup(p, end - p, GFP_KERNEL) : kstrdup(p, GFP_KERNEL);
		if (!tok)
			return false;
		/* "name=field" defines a variable, as hist_parse_key() tells */
		eq = strchr(tok, '=');
		ret = (!eq || memchr(tok, '.', eq - tok)) &&
		      hist_key_is_var_ref(hd, tok);
		kfree(tok);
	}
	return ret;
}

/*
 * An expression of fields as a key ("pid*2"), named by its text, as
 * upstream takes it.  Its value is computed before the key is looked
 * up, and before the hit's variables are set or read: it may read no
 * variable, as upstream refuses any in a key.  Numbers alone fold into
 * a constant, which would read back as no key at all.
 */
static int hist_parse_key_expr(const struct hist_parse_ctx *ctx,
			       struct trace_event_file *file,
			       struct hist_data *hd, struct hist_field *hf,
			       char *tok)
{
	int ret;

	ret = hist_parse_expr(ctx, file, hd, tok, hf);
	if (ret)
		return ret;
	if (hist_field_reads_vars(hf)) {
		hist_err(ctx, HIST_ERR_INVALID_REF_KEY, tok);
		return -EINVAL;
	}
	if (hf->fetch == HIST_FETCH_CONST || hist_field_is_bytes(hf)) {
		hist_err(ctx, HIST_ERR_FIELD_NOT_FOUND, tok);
		return -EINVAL;
	}
	hf->flags |= HIST_FIELD_FL_KEY;
	return 0;
}

/*
 * One key: "field[.modifier]", "name=field" (the key is also variable
 * name), "$name" for the field of this trigger's variable name, or a
 * variable another trigger sets (hist_key_is_var_ref()).
 */
static int hist_parse_key(const struct hist_parse_ctx *ctx,
			  struct trace_event_file *file, struct hist_data *hd,
			  struct hist_field *hf, char *tok)
{
	char *eq = strchr(tok, '='), *var = tok, *copy;
	int ret;

	/* "name=field", not the "=" of "field.buckets=N" */
	if (eq && !memchr(tok, '.', eq - tok)) {
		*eq = '\0';
		var = strim(tok);
		tok = strim(eq + 1);
		copy = kstrdup(tok, GFP_KERNEL);
		hf->var_name = kstrdup(var, GFP_KERNEL);
		ret = copy && hf->var_name ?
		      hist_parse_field(ctx, file, hd, hf, tok, true) : -ENOMEM;
		if (!ret)
			ret = hist_var_define(ctx, file, hd, var, copy);
		kfree(copy);
		return ret;
	}

	if (hd->same_hit && hist_key_is_var_ref(hd, tok))
		return hist_parse_ref_field(ctx, hd, hf, tok, true);
	/*
	 * "$name" of a variable of this trigger keys by the variable's
	 * field, which the trigger file then shows, as upstream does.
	 */
	if (*tok == '$') {
		copy = hist_var_key_text(hd, tok + 1);
		if (!copy) {
			hist_err(ctx, HIST_ERR_INVALID_REF_KEY, tok);
			return -EINVAL;
		}
		ret = hist_parse_field(ctx, file, hd, hf, copy, true);
		kfree(copy);
		return ret;
	}
	if (hist_text_is_expr(tok))
		return hist_parse_key_expr(ctx, file, hd, hf, tok);
	return hist_parse_field(ctx, file, hd, hf, tok, true);
}

static int hist_parse_keys(const struct hist_parse_ctx *ctx,
			   struct trace_event_file *file, struct hist_data *hd,
			   char *text)
{
	unsigned int offset = 0;
	char *tok;
	int ret;

	while ((tok = strsep(&text, ",")) != NULL) {
		struct hist_field *hf = &hd->keys[hd->n_keys];

		if (hd->n_keys == HIST_KEYS_MAX) {
			hist_err(ctx, HIST_ERR_TOO_MANY_KEYS, tok);
			return -EINVAL;
		}
		hd->n_keys++;
		ret = hist_parse_key(ctx, file, hd, hf, strim(tok));
		if (ret)
			return ret;
		if (hf->flags & HIST_FIELD_FL_HITCOUNT) {
			hist_err(ctx, HIST_ERR_FIELD_NOT_FOUND, tok);
			return -EINVAL;
		}
		if (hist_field_is_bytes(hf)) {
			hd->key_in_pad = true;
			hf->key_size = ALIGN(hf->size, sizeof(u64));
		} else {
			hf->key_size = sizeof(u64);
		}
		if (hf->flags & HIST_FIELD_FL_EXECNAME)
			hd->needs_comm = true;
		hf->key_offset = offset;
		offset += hf->key_size;
		if (offset > TRACING_MAP_KEY_SIZE_MAX) {
			hist_err(ctx, HIST_ERR_KEY_TOO_BIG, tok);
			return -EINVAL;
		}
	}
	hd->key_size = offset;
	/* the variables read from other histograms may have set it */
	hd->lookup_size = max(hd->lookup_size, offset);
	hd->single_u64_key = hd->n_keys == 1 && !hd->key_in_pad;
	if (hd->n_keys > HIST_KEY_STACK_WORDS)
		hd->key_in_pad = true;
	return 0;
}

/*
 * Split the aggregation off the end of a value, "lat.max": the value is
 * then "lat", the whole of what is before, and @word "max".  Return the
 * aggregation, HIST_AGG_SUM when there is none, or a logged -EINVAL.
 */
static int hist_split_agg(const struct hist_parse_ctx *ctx, char *tok,
			  u32 *pct, const char **word)
{
	char *dot = strrchr(tok, '.'), *prev;
	int agg;

	if (!dot)
		return HIST_AGG_SUM;
	*word = dot + 1;
	agg = hist_agg_of(dot + 1, pct);
	if (agg == -ENOENT)
		return HIST_AGG_SUM;
	if (agg < 0) {
		hist_err(ctx, HIST_ERR_BAD_PERCENTILE, dot + 1);
		return agg;
	}
	*dot = '\0';
	prev = strrchr(tok, '.');
	if (prev && hist_agg_of(prev + 1, pct) != -ENOENT) {
		hist_err(ctx, HIST_ERR_AGG_TWICE, dot + 1);
		return -EINVAL;
	}
	return agg;
}

/*
 * Where the percentile buckets of a value are: shared with an earlier
 * percentile of the same field (the same text before ".pD"), else new
 * ones after the others.
 */
static void hist_place_pct(struct hist_data *hd, struct hist_field *hf,
			   size_t base_len)
{
	unsigned int i;

	for (i = 1; i < hd->n_vals; i++) {
		const struct hist_field *other = &hd->vals[i];
		const char *dot = other->spec ? strrchr(other->spec, '.') : NULL;

		if (other->agg == HIST_AGG_PCT && dot &&
		    (size_t)(dot - other->spec) == base_len &&
		    !strncmp(other->spec, hf->spec, base_len)) {
			hf->pct_at = other->pct_at;
			hf->update = HIST_UPD_NONE;
			return;
		}
	}
	hf->pct_at = hd->pct_bytes;
	hf->update = HIST_UPD_BUCKETS;
	hd->pct_bytes += hist_pct_buckets(hf->is_signed) * sizeof(atomic64_t);
}

/*
 * A percentile as it is shown: whole percents as "p5", "p50", "p99"; a
 * fraction as two digits, then the decimals ("p999", "p0505").
 */
static void hist_pct_word(char *buf, size_t size, u32 pct)
{
	u32 frac = pct % 10000;
	int digits = 4;

	if (!frac) {
		snprintf(buf, size, "p%u", pct / 10000);
		return;
	}
	while (!(frac % 10)) {
		frac /= 10;
		digits--;
	}
	snprintf(buf, size, "p%02u%0*u", pct / 10000, digits, frac);
}

/* Make @hf, parsed from the text before the aggregation, aggregate. */
static int hist_set_agg(const struct hist_parse_ctx *ctx, struct hist_data *hd,
			struct hist_field *hf, int agg, u32 pct,
			const char *word)
{
	static const u8 updates[] = {
		[HIST_AGG_SUM] = HIST_UPD_SUM, [HIST_AGG_MIN] = HIST_UPD_MAX,
		[HIST_AGG_MAX] = HIST_UPD_MAX, [HIST_AGG_AVG] = HIST_UPD_SUM128,
		[HIST_AGG_STDDEV] = HIST_UPD_SQUARES,
		[HIST_AGG_PCT] = HIST_UPD_BUCKETS,	/* or NONE: hist_place_pct() */
	};
	size_t base_len = strlen(hf->spec);
	char pct_word[16];
	char *spec;

	hf->agg = agg;
	if (agg == HIST_AGG_SUM)
		return 0;
	if (hist_field_is_bytes(hf) ||
	    (hf->flags & (HIST_FIELD_FL_HITCOUNT | HIST_FIELD_FL_PERCENT |
			  HIST_FIELD_FL_GRAPH))) {
		hist_err(ctx, HIST_ERR_AGG_BAD_TYPE, word);
		return -EINVAL;
	}
	/* "p05" is shown as "p5", so that both name the same trigger */
	if (agg == HIST_AGG_PCT) {
		hist_pct_word(pct_word, sizeof(pct_word), pct);
		word = pct_word;
	}
	/*
	 * @name may point into the old spec ("$lat" is named "lat"), so
	 * both are made before it goes.
	 */
	spec = kasprintf(GFP_KERNEL, "%s.%s", hf->spec, word);
	hf->agg_name = kasprintf(GFP_KERNEL, "%s.%s", hf->name, word);
	if (!spec || !hf->agg_name) {
		kfree(spec);
		return -ENOMEM;
	}
	kfree(hf->spec);
	hf->spec = spec;
	hf->name = hf->agg_name;
	hf->update = updates[agg];
	hf->agg_mask = hist_extreme_mask(agg == HIST_AGG_MIN, hf->is_signed);
	hf->pct = pct;
	if (agg == HIST_AGG_PCT)
		hist_place_pct(hd, hf, base_len);
	return 0;
}

static int hist_parse_vals(const struct hist_parse_ctx *ctx,
			   struct trace_event_file *file, struct hist_data *hd,
			   char *text)
{
	char hitcount[] = "hitcount";
	unsigned int seen_hitcount = 0;
	char *tok;
	int ret;

	/* vals[0] is always hitcount */
	ret = hist_parse_field(ctx, file, hd, &hd->vals[0], hitcount, false);
	if (ret)
		return ret;
	hd->n_vals = 1;

	while (text && (tok = strsep(&text, ",")) != NULL) {
		struct hist_field *hf = &hd->vals[hd->n_vals];
		struct hist_field probe = {};
		const char *word = NULL;
		u32 pct = 0;
		int agg;

		/*
		 * The first plain "hitcount" names the implicit vals[0];
		 * any other becomes a value of its own, counting hits.
		 */
		tok = strim(tok);
		if (!strcmp(tok, "hitcount") && !seen_hitcount++)
			continue;
		agg = hist_split_agg(ctx, tok, &pct, &word);
		if (agg < 0)
			return agg;
		ret = hist_parse_expr(ctx, file, hd, tok, &probe);
		if (!ret && hd->n_vals == HIST_VALS_MAX) {
			hist_err(ctx, HIST_ERR_TOO_MANY_VALS, tok);
			ret = -EINVAL;
		}
		if (!ret && agg == HIST_AGG_SUM && hist_field_is_bytes(&probe)) {
			hist_err(ctx, HIST_ERR_BAD_VAL_TYPE, tok);
			ret = -EINVAL;
		}
		if (!ret)
			ret = hist_set_agg(ctx, hd, &probe, agg, pct, word);
		if (ret) {
			hist_field_release(&probe);
			return ret;
		}
		if (agg == HIST_AGG_PCT && !hd->pct_text)
			hd->pct_text = tok;
		*hf = probe;
		hd->n_vals++;
	}
	return 0;
}

/*
 * nohitcount needs a value to show besides the hit count.  Checked right
 * after the values parsed, as upstream does, and refused with ENOENT,
 * the errno scripts see.
 */
static int hist_check_nohitcount(const struct hist_parse_ctx *ctx,
				 const struct hist_data *hd, int ret)
{
	if (ret || !hd->attrs.no_hitcount || hd->n_vals != 1)
		return ret;
	hist_err(ctx, HIST_ERR_NEED_NOHC_VAL, NULL);
	return -ENOENT;
}

/*
 * The key or value called @name, or NULL.  A field is also found by its
 * text in the trigger, as sort= shows it: "count.loglin=4", "$lat.max".
 */
static const struct hist_field *hist_find_sort_field(const struct hist_data *hd,
						     const char *name)
{
	unsigned int i;

	for (i = 0; i < hd->n_vals; i++)
		if (!strcmp(hd->vals[i].name, name) ||
		    !strcmp(hd->vals[i].spec, name))
			return &hd->vals[i];
	for (i = 0; i < hd->n_keys; i++)
		if (!strcmp(hd->keys[i].name, name) ||
		    !strcmp(hd->keys[i].spec, name))
			return &hd->keys[i];
	return NULL;
}

/*
 * A value is sorted by what the reader's snapshot holds of it, word i
 * for value i (see hist_view_take()): the order is the order of the
 * numbers printed.  A key is sorted by the map's copy of it, which no
 * hit changes.
 */
static void hist_sort_by(struct hist_data *hd, struct tracing_map_sort_key *sk,
			 const struct hist_field *hf)
{
	if (hf >= hd->vals && hf < hd->vals + hd->n_vals) {
		sk->from_snapshot = true;
		sk->snapshot_signed = hist_val_prints_signed(hf);
		sk->field_idx = hf - hd->vals;
	} else {
		sk->field_idx = hf->map_idx;
	}
	hd->sort_fields[hd->n_sort_keys++] = hf;
}

/*
 * One sort field, "name[.ascending|.descending]", where the name may
 * itself have a dot ("lat.max").  A dot that is neither a direction nor
 * part of a value's name is a bad modifier, as upstream says, unless it
 * is an aggregation no value has.
 */
static int hist_parse_sort_field(const struct hist_parse_ctx *ctx,
				 struct hist_data *hd, char *tok)
{
	struct tracing_map_sort_key *sk = &hd->sort_keys[hd->n_sort_keys];
	const struct hist_field *hf = hist_find_sort_field(hd, tok);
	char *mod = strrchr(tok, '.');
	u32 pct;

	if (!hf && mod) {
		*mod++ = '\0';
		if (!strcmp(mod, "descending")) {
			sk->descending = true;
		} else if (strcmp(mod, "ascending")) {
			bool is_agg = hist_agg_of(mod, &pct) != -ENOENT;

			mod[-1] = '.';
			if (is_agg)
				hist_err(ctx, HIST_ERR_INVALID_SORT_FIELD, tok);
			else
				hist_err(ctx, HIST_ERR_INVALID_SORT_MODIFIER, mod);
			return -EINVAL;
		}
		if (!*tok) {
			hist_err(ctx, HIST_ERR_EMPTY_SORT_FIELD, "sort=");
			return -EINVAL;
		}
		hf = hist_find_sort_field(hd, tok);
	}
	if (!hf) {
		hist_err(ctx, HIST_ERR_INVALID_SORT_FIELD, tok);
		return -EINVAL;
	}
	hist_sort_by(hd, sk, hf);
	return 0;
}

static int hist_parse_sort(const struct hist_parse_ctx *ctx,
			   struct hist_data *hd, char *text)
{
	char *tok;
	int ret;

	if (!text) {
		hist_sort_by(hd, &hd->sort_keys[0], &hd->vals[0]);
		return 0;
	}
	/* errors about the whole list are about "sort=" */
	while ((tok = strsep(&text, ",")) != NULL) {
		tok = strim(tok);
		if (!*tok) {
			hist_err(ctx, HIST_ERR_EMPTY_SORT_FIELD, "sort=");
			return -EINVAL;
		}
		/* counted before the last field allowed is looked at */
		if (hd->n_sort_keys == HIST_SORT_KEYS_MAX - 1 && text) {
			hist_err(ctx, HIST_ERR_TOO_MANY_SORT_FIELDS, "sort=");
			return -EINVAL;
		}
		ret = hist_parse_sort_field(ctx, hd, tok);
		if (ret)
			return ret;
	}
	return 0;
}

static enum tracing_map_field_type hist_map_type(const struct hist_field *hf)
{
	if (hf->fetch == HIST_FETCH_STACK || hf->fetch == HIST_FETCH_STACK_FIELD)
		return TRACING_MAP_BYTES;
	if (hf->flags & HIST_FIELD_FL_STRING)
		return TRACING_MAP_STRING;
	return hf->is_signed ? TRACING_MAP_SIGNED : TRACING_MAP_UNSIGNED;
}

/*
 * The map numbers its fields sums first, then keys; sort keys and the
 * match text use those numbers, known before the map exists.
 */
static void hist_number_fields(struct hist_data *hd)
{
	unsigned int i, n = 0;

	for (i = 0; i < hd->n_vals; i++) {
		struct hist_field *hf = &hd->vals[i];

		/* percentiles keep no words: -1, for hist_debug */
		hf->map_idx = hist_agg_words(hf) ? n : -1;
		n += hist_agg_words(hf);
	}
	hd->n_sums = n;
	for (i = 0; i < hd->n_keys; i++)
		hd->keys[i].map_idx = n + i;
}

static int hist_create_map(struct hist_data *hd)
{
	unsigned int i, j;
	int idx;

	hd->map = tracing_map_create(hd->attrs.map_bits, hd->key_size,
				     &hist_elt_ops, hd);
	if (IS_ERR(hd->map)) {
		int ret = PTR_ERR(hd->map);

		hd->map = NULL;
		return ret;
	}
	/* All sums first: the map wants them before the key fields. */
	for (i = 0; i < hd->n_vals; i++) {
		struct hist_field *hf = &hd->vals[i];

		for (j = 0; j < hist_agg_words(hf); j++) {
			idx = tracing_map_add_sum_field(hd->map,
							hist_map_type(hf));
			if (idx < 0)
				return idx;
			WARN_ON_ONCE(idx != hf->map_idx + j);
		}
		/* the buckets follow the string slots, known by now */
		if (hf->agg == HIST_AGG_PCT)
			hf->pct_at += hd->n_str_slots * HIST_SLOT_SIZE;
	}
	for (i = 0; i < hd->n_keys; i++) {
		struct hist_field *hf = &hd->keys[i];

		enum tracing_map_field_type type = hist_map_type(hf);

		idx = tracing_map_add_key_field(hd->map, hf->key_offset,
						type <= TRACING_MAP_SIGNED ?
						sizeof(u64) : hf->key_size,
						type);
		if (idx < 0)
			return idx;
		WARN_ON_ONCE(idx != hf->map_idx);
	}
	for (i = 0; i < hd->n_map_vars; i++) {
		idx = tracing_map_add_var(hd->map);
		if (idx < 0)
			return idx;
	}
	return tracing_map_init(hd->map);
}

/* Is @var the variable of a key ("keys=name=field")? */
static bool hist_var_of_key(const struct hist_data *hd,
			    const struct hist_var *var)
{
	unsigned int i;

	for (i = 0; i < hd->n_keys; i++)
		if (hd->keys[i].var_name &&
		    !strcmp(hd->keys[i].var_name, var->name))
			return true;
	return false;
}

static void hist_spec_keys(struct seq_buf *s, const struct hist_data *hd,
			   bool with_vars)
{
	unsigned int i;

	seq_buf_puts(s, "keys=");
	for (i = 0; i < hd->n_keys; i++) {
		const struct hist_field *hf = &hd->keys[i];
		const char *var = with_vars ? hf->var_name : NULL;

		seq_buf_printf(s, "%s%s%s%s", i ? "," : "", var ?: "",
			       var ? "=" : "", hf->spec);
	}
}

/* ":vals=...", the variables and ":sort=...". */
static void hist_spec_body(struct seq_buf *s, const struct hist_data *hd)
{
	const char *sep = "";
	unsigned int i;

	seq_buf_puts(s, ":vals=");
	for (i = hd->attrs.no_hitcount ? 1 : 0; i < hd->n_vals; i++) {
		seq_buf_printf(s, "%s%s", sep, hd->vals[i].spec);
		sep = ",";
	}
	sep = ":";
	for (i = 0; i < hd->n_vars; i++) {
		const struct hist_var *var = &hd->vars[i];

		if (hist_var_of_key(hd, var))
			continue;
		seq_buf_printf(s, "%s%s=%s", sep, var->name, var->value.spec);
		sep = ",";
	}
	seq_buf_puts(s, ":sort=");
	for (i = 0; i < hd->n_sort_keys; i++) {
		const struct tracing_map_sort_key *sk = &hd->sort_keys[i];
		const struct hist_field *hf = hd->sort_fields[i];

		/* upstream shows a stack field's key here by its name alone */
		seq_buf_printf(s, "%s%s%s", i ? "," : "",
			       hf->fetch == HIST_FETCH_STACK_FIELD ?
			       hf->name : hf->spec,
			       sk->descending ? ".descending" : "");
	}
}

/* See hist_spec_text(). */
static void hist_spec_print(struct seq_buf *s, const struct hist_data *hd,
			    unsigned int parts)
{
	unsigned int i;

	if ((parts & HIST_SPEC_NAME) && hd->attrs.name)
		seq_buf_printf(s, "name=%s:", hd->attrs.name);
	hist_spec_keys(s, hd, parts & HIST_SPEC_KEY_VARS);
	if (parts & HIST_SPEC_BODY)
		hist_spec_body(s, hd);
	if (parts & HIST_SPEC_SIZE) {
		seq_buf_printf(s, ":size=%u", 1U << hd->attrs.map_bits);
		if (hd->attrs.top)
			seq_buf_printf(s, ":top=%u", hd->attrs.top);
		if (hd->uses_timestamp)
			seq_buf_printf(s, ":clock=%s", hd->attrs.clock);
	}
	if (!(parts & HIST_SPEC_ACTIONS))
		return;
	if (hd->attrs.no_hitcount)
		seq_buf_puts(s, ":nohitcount");
	for (i = 0; i < hd->n_actions; i++)
		seq_buf_puts(s, hd->actions[i]->text);
}

/**
 * hist_spec_show - print the canonical text of a histogram's trigger
 * @m: the seq_file
 * @hd: the histogram
 * @parts: HIST_SPEC_* as for hist_spec_text()
 *
 * The text goes straight into the seq_file's buffer: when it does not
 * fit, the buffer is marked full and seq_read() tries again with a
 * bigger one, as for any print.
 */
void hist_spec_show(struct seq_file *m, const struct hist_data *hd,
		    unsigned int parts)
{
	struct seq_buf s;
	size_t size;
	char *buf;

	size = seq_get_buf(m, &buf);
	if (!size) {
		seq_commit(m, -1);
		return;
	}
	seq_buf_init(&s, buf, size);
	hist_spec_print(&s, hd, parts);
	seq_commit(m, seq_buf_has_overflowed(&s) ? -1 : seq_buf_used(&s));
}

/**
 * hist_spec_text - the canonical text of a histogram's trigger, allocated
 * @hd: the histogram
 * @parts: HIST_SPEC_* of the parts to print, each in its place
 *
 * With every part, this is the text the trigger file shows (without
 * "hist:", the filter and the state), and it parses back to the same
 * histogram.  With fewer parts it is what identifies a trigger for
 * "!hist", "pause", "cont" and "clear" (hist_data.match), and the keys
 * of a histogram made to carry a field to another trigger's actions.
 *
 * Return: the text, to be freed with kfree(), or NULL.
 */
char *hist_spec_text(const struct hist_data *hd, unsigned int parts)
{
	size_t size = 256;
	struct seq_buf s;
	char *buf;

	for (;;) {
		buf = kmalloc(size, GFP_KERNEL);
		if (!buf)
			return NULL;
		seq_buf_init(&s, buf, size);
		hist_spec_print(&s, hd, parts);
		if (!seq_buf_has_overflowed(&s) && seq_buf_used(&s) < size)
			break;
		kfree(buf);
		size *= 2;
	}
	buf[seq_buf_used(&s)] = '\0';
	return buf;
}

/**
 * hist_data_parse - build a histogram from its parsed text, but for
 *	what its actions name
 * @ctx: the command, for error_log
 * @file: the event the trigger is written to
 * @attrs: parsed by hist_parse_attrs(); ownership of its allocations
 *	moves to the new hist_data, even on error (@attrs is cleared)
 * @resolve: resolve actions against the live histograms and synthetic
 *	events, and check that no other trigger of the event defines its
 *	variables, as a trigger that may be created must; without it the
 *	histogram only serves to find an existing trigger with the same
 *	text.  Either way, as upstream checks a removal too, the variables
 *	it reads and onmatch()'s event must exist
 *
 * The text of the actions, then values, variables, keys and sort keys,
 * in upstream's order.
 * hist_data_finish() completes the histogram: the life cycle parses
 * the trigger's filter in between, as upstream does.  The map comes
 * later, from hist_data_make_map(), once it is known that a trigger is
 * created with this histogram.
 *
 * Context: process, event_mutex held.
 * Return: the new histogram, or an ERR_PTR (logged when the text is
 * at fault).
 */
struct hist_data *hist_data_parse(const struct hist_parse_ctx *ctx,
				  struct trace_event_file *file,
				  struct hist_attrs *attrs, bool resolve)
{
	struct hist_data *hd;
	char *sort;
	int ret;

	hd = kzalloc(sizeof(*hd), GFP_KERNEL);
	if (!hd) {
		hist_free_attrs(attrs);
		return ERR_PTR(-ENOMEM);
	}
	hd->attrs = *attrs;
	memset(attrs, 0, sizeof(*attrs));
	/* keys=, vals= and sort= point into the command text: used up here */
	sort = hd->attrs.sort;
	hd->tr = file->tr;
	hd->event_file = file;
	hd->resolve = resolve;
	INIT_LIST_HEAD(&hd->var_node);
	INIT_LIST_HEAD(&hd->sharer_pins);
	INIT_LIST_HEAD(&hd->readers);
	INIT_LIST_HEAD(&hd->reader_node);

	/*
	 * Upstream's order, which decides which error a command with
	 * several gets: the actions' text, the form of the variable
	 * definitions, the values (reading the variables of this trigger
	 * from their text, see hist_ref_add()), the variables, the keys.
	 */
	ret = hist_actions_split(ctx, hd);
	if (!ret)
		ret = hist_vars_check_form(ctx, hd);
	hd->same_hit = !ret && hist_keys_read_vars(hd);
	if (hd->same_hit && hd->attrs.name) {
		hist_err(ctx, HIST_ERR_SAME_HIT_NAMED, hd->attrs.name_at);
		ret = -EINVAL;
	}
	if (!ret) {
		ret = hist_parse_vals(ctx, file, hd, hd->attrs.vals);
		ret = hist_check_nohitcount(ctx, hd, ret);
	}
	if (!ret)
		ret = hist_vars_parse(ctx, file, hd);
	if (!ret)
		ret = hist_parse_keys(ctx, file, hd, hd->attrs.keys);
	if (!ret) {
		hist_number_fields(hd);
		ret = hist_parse_sort(ctx, hd, sort);
	}
	hd->attrs.keys = NULL;
	hd->attrs.vals = NULL;
	hd->attrs.sort = NULL;
	if (ret) {
		hist_data_destroy(hd);
		return ERR_PTR(ret);
	}
	return hd;
}

/* A key, a variable, save() or trace() walks the stack of the hit. */
static bool hist_takes_stack(const struct hist_data *hd)
{
	unsigned int i;

	for (i = 0; i < hd->n_keys; i++)
		if (hd->keys[i].fetch == HIST_FETCH_STACK)
			return true;
	return hd->walks_stack;
}

/**
 * hist_data_finish - resolve what the actions of a histogram name
 * @ctx: the command, for error_log
 * @file: the event the trigger is written to
 * @hd: made by hist_data_parse(); freed on error
 *
 * Context: process, event_mutex held.
 * Return: 0, -EINVAL (logged), -ENOMEM, or -EAGAIN when a histogram
 * has to be made first, as @ctx->need says.
 */
int hist_data_finish(const struct hist_parse_ctx *ctx,
		     struct trace_event_file *file, struct hist_data *hd)
{
	int ret;

	ret = hist_actions_resolve(ctx, file, hd);
	/* keyed by this trigger's own variables after all */
	if (!ret && hd->same_hit && !hd->n_refs) {
		hist_err(ctx, HIST_ERR_INVALID_REF_KEY, NULL);
		ret = -EINVAL;
	}
	if (!ret && hd->same_hit && hist_takes_stack(hd)) {
		/* a walk from inside another trigger's hit finds its frames */
		hist_err(ctx, HIST_ERR_SAME_HIT_STACK, "stacktrace");
		ret = -EINVAL;
	}
	hd->general = hd->n_vars || hd->n_refs || hd->n_actions;
	hd->reader_leaf = hd->same_hit && hd->single_u64_key &&
			  !hd->n_vars && !hd->n_actions;
	hd->hit_path = hist_hit_path_of(hd);
	if (!ret) {
		hd->match = hist_spec_text(hd, HIST_SPEC_MATCH);
		if (!hd->match)
			ret = -ENOMEM;
	}
	if (ret)
		hist_data_destroy(hd);
	return ret;
}

/**
 * hist_data_create - build a histogram from its parsed text
 * @ctx: the command, for error_log
 * @file: the event the trigger is written to
 * @attrs: as for hist_data_parse()
 * @resolve: as for hist_data_parse()
 *
 * hist_data_parse() and hist_data_finish() in one.
 *
 * Context: process, event_mutex held.
 * Return: the new histogram, or an ERR_PTR (logged when the text is
 * at fault); ERR_PTR(-EAGAIN) when a histogram has to be made first, as
 * @ctx->need says.
 */
struct hist_data *hist_data_create(const struct hist_parse_ctx *ctx,
				   struct trace_event_file *file,
				   struct hist_attrs *attrs, bool resolve)
{
	struct hist_data *hd = hist_data_parse(ctx, file, attrs, resolve);
	int ret;

	if (IS_ERR(hd))
		return hd;
	ret = hist_data_finish(ctx, file, hd);
	return ret ? ERR_PTR(ret) : hd;
}

/**
 * hist_data_make_map - allocate the map of a histogram about to be used
 * @ctx: the command, for error_log
 * @hd: made by hist_data_parse() with @resolve, within this command
 *
 * Only a trigger that is created, and does not join a named histogram,
 * needs a map: one that only pauses, clears or names an existing
 * trigger costs none, which matters when percentile buckets make it
 * tens of megabytes.
 *
 * Context: process, event_mutex held.
 * Return: 0, -EINVAL (logged) if the percentile buckets would take more
 * than HIST_PCT_MEM_MAX, or -ENOMEM.
 */
int hist_data_make_map(const struct hist_parse_ctx *ctx, struct hist_data *hd)
{
	if (hd->pct_bytes > HIST_PCT_MEM_MAX >> hd->attrs.map_bits) {
		hist_err(ctx, HIST_ERR_PCT_TOO_BIG, hd->pct_text);
		return -EINVAL;
	}
	return hist_create_map(hd);
}

/**
 * hist_data_destroy - free a histogram and its map
 * @hd: histogram no longer reachable from any hit path, its variables
 *	unpublished if they were published (trace_events_hist.c)
 *
 * Context: process.  Either event_mutex is held, or @hd is retired and
 * the reclaim work frees it (trace_events_hist.c); either way no hit
 * path can be in it any more.
 */
void hist_data_destroy(struct hist_data *hd)
{
	unsigned int i;

	if (!hd)
		return;
	hist_actions_free(hd);
	if (hd->map)
		tracing_map_destroy(hd->map);
	for (i = 0; i < HIST_KEYS_MAX; i++)
		hist_field_release(&hd->keys[i]);
	for (i = 0; i < HIST_VALS_MAX; i++)
		hist_field_release(&hd->vals[i]);
	for (i = 0; i < hd->n_vars; i++) {
		kfree(hd->vars[i].name);
		hist_field_release(&hd->vars[i].value);
	}
	kfree(hd->match);
	hist_free_attrs(&hd->attrs);
	kfree(hd);
}

/* Two optional strings, NULL equal only to NULL. */
static bool hist_str_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/*
 * Do two fields read the same bytes of their records in the same way,
 * and do the same with them?  A field is named by its text, which on
 * another event may mean another field: what counts is where it is, how
 * wide, of what type and kind, and so on down an expression's operands.
 */
static bool hist_fields_same(const struct hist_field *a,
			     const struct hist_field *b)
{
	unsigned int i;

	if (a->fetch != b->fetch || a->xform != b->xform ||
	    a->is_signed != b->is_signed || a->offset != b->offset ||
	    a->size != b->size || a->key_offset != b->key_offset ||
	    a->key_size != b->key_size || a->map_idx != b->map_idx ||
	    a->flags != b->flags || a->buckets != b->buckets ||
	    a->op != b->op || a->div_shift != b->div_shift ||
	    a->constant != b->constant || a->divisor != b->divisor ||
	    a->slot != b->slot || a->agg != b->agg ||
	    a->update != b->update || a->loglin_shift != b->loglin_shift ||
	    a->agg_mask != b->agg_mask || a->pct != b->pct ||
	    a->pct_at != b->pct_at)
		return false;
	if (!hist_str_same(a->name, b->name) ||
	    !hist_str_same(a->type, b->type) ||
	    !hist_str_same(a->spec, b->spec) ||
	    !hist_str_same(a->var_name, b->var_name))
		return false;
	for (i = 0; i < ARRAY_SIZE(a->operands); i++) {
		if (!a->operands[i] != !b->operands[i])
			return false;
		if (a->operands[i] &&
		    !hist_fields_same(a->operands[i], b->operands[i]))
			return false;
	}
	return true;
}

static bool hist_vars_same(const struct hist_var *a, const struct hist_var *b)
{
	return !strcmp(a->name, b->name) && a->map_idx == b->map_idx &&
	       a->str_slot == b->str_slot &&
	       hist_fields_same(&a->value, &b->value);
}

static bool hist_actions_same(const struct hist_action *a,
			      const struct hist_action *b)
{
	unsigned int i;

	if (a->handler != b->handler || a->kind != b->kind ||
	    a->tracked != b->tracked || a->track_var != b->track_var ||
	    a->synth != b->synth || a->n_params != b->n_params ||
	    !hist_str_same(a->text, b->text) || !hist_str_same(a->arg, b->arg))
		return false;
	for (i = 0; i < a->n_params; i++) {
		if (!hist_fields_same(&a->params[i], &b->params[i]))
			return false;
		if (a->kind == HIST_ACT_SAVE &&
		    (a->save_var[i] != b->save_var[i] ||
		     a->save_slot[i] != b->save_slot[i]))
			return false;
	}
	return true;
}

/**
 * hist_data_compatible - can two triggers share one histogram?
 * @a: one histogram
 * @b: the other
 *
 * name= shares a histogram between triggers on different events: the
 * hits of each then run the plan of the one that made it, on their own
 * event's records.  That is only sound when both plans are the same in
 * everything the hit path reads and does: the keys and values, the
 * variables, the operands of every expression, the references, and
 * the actions and their parameters.  The same text is not enough: a
 * field of that name may be another type, or elsewhere in the record,
 * on the other event.
 *
 * Return: true if they are interchangeable.
 */
bool hist_data_compatible(const struct hist_data *a,
			  const struct hist_data *b)
{
	unsigned int i;

	if (a->n_keys != b->n_keys || a->n_vals != b->n_vals ||
	    a->n_vars != b->n_vars || a->n_refs != b->n_refs ||
	    a->n_actions != b->n_actions || a->n_sums != b->n_sums ||
	    a->n_map_vars != b->n_map_vars ||
	    a->n_str_slots != b->n_str_slots ||
	    a->key_size != b->key_size || a->lookup_size != b->lookup_size ||
	    a->pct_bytes != b->pct_bytes || a->general != b->general ||
	    a->walks_stack != b->walks_stack ||
	    a->uses_timestamp != b->uses_timestamp ||
	    a->needs_comm != b->needs_comm || strcmp(a->match, b->match))
		return false;
	for (i = 0; i < a->n_keys; i++)
		if (!hist_fields_same(&a->keys[i], &b->keys[i]))
			return false;
	for (i = 0; i < a->n_vals; i++)
		if (!hist_fields_same(&a->vals[i], &b->vals[i]))
			return false;
	for (i = 0; i < a->n_vars; i++)
		if (!hist_vars_same(&a->vars[i], &b->vars[i]))
			return false;
	for (i = 0; i < a->n_refs; i++)
		if (a->refs[i].hd != b->refs[i].hd ||
		    a->refs[i].var != b->refs[i].var ||
		    a->refs[i].read_once != b->refs[i].read_once)
			return false;
	for (i = 0; i < a->n_actions; i++)
		if (!hist_actions_same(a->actions[i], b->actions[i]))
			return false;
	return true;
}
