// SPDX-License-Identifier: GPL-2.0
/*
 * Synthetic events: trace events defined at run time, whose records are
 * written by hist trigger actions or by kernel code through the
 * synth_event_* API rather than by a tracepoint in the code.
 *
 * This file holds the definition side: the parser for definitions, the
 * synthetic_events file, the "s:" syntax of dynamic_events, the in-kernel
 * API that builds definitions, and registration with the trace event
 * core.  What a record looks like, and writing and printing one, is in
 * trace_synth_record.c.
 *
 * A definition reads "NAME FIELD[; FIELD]..." where a FIELD is
 * "[unsigned] TYPE NAME[N]": see Documentation/trace/histogram.rst.
 * Every definition, whichever way it comes in, goes through
 * synth_define(); the API only assembles the same text in a
 * struct dynevent_cmd.
 *
 * Locking: event_mutex protects the list of dynamic events (and so the
 * set of synthetic events) and each event's @ref.  Definitions are only
 * created and removed under it, and are immutable in between.
 */

#define pr_fmt(fmt) "synthetic events: " fmt

#include <linux/ctype.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/security.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/tracefs.h>

#include "trace_synth.h"

enum synth_err {
	SYNTH_ERR_BAD_NAME,
	SYNTH_ERR_EVENT_BUSY,
	SYNTH_ERR_EVENT_EXISTS,
	SYNTH_ERR_FIELD_EXISTS,
	SYNTH_ERR_INCOMPLETE_TYPE,
	SYNTH_ERR_INVALID_ARRAY_SPEC,
	SYNTH_ERR_INVALID_CMD,
	SYNTH_ERR_INVALID_DYN_CMD,
	SYNTH_ERR_INVALID_FIELD,
	SYNTH_ERR_INVALID_TYPE,
	SYNTH_ERR_TOO_MANY_FIELDS,
};

/* error_log's messages; scripts match on them, so they stay as they are. */
static const char * const synth_err_text[] = {
	[SYNTH_ERR_BAD_NAME] = "Illegal name",
	[SYNTH_ERR_INVALID_CMD] =
		"Command must be of the form: <name> field[;field] ...",
	[SYNTH_ERR_INVALID_DYN_CMD] =
		"Command must be of the form: s or -:[synthetic/]<name> field[;field] ...",
	[SYNTH_ERR_EVENT_EXISTS] = "Event already exists",
	[SYNTH_ERR_TOO_MANY_FIELDS] = "Too many fields",
	[SYNTH_ERR_INCOMPLETE_TYPE] = "Incomplete type",
	[SYNTH_ERR_INVALID_TYPE] = "Invalid type",
	[SYNTH_ERR_INVALID_FIELD] = "Invalid field",
	[SYNTH_ERR_INVALID_ARRAY_SPEC] = "Invalid array specification",
	[SYNTH_ERR_FIELD_EXISTS] = "Duplicate field name",
	[SYNTH_ERR_EVENT_BUSY] = "Event is in use",
};

static void synth_log_err(const char *cmd, enum synth_err type,
			  unsigned int pos)
{
	/* tracing_log_err() only reads the table; it predates the const. */
	tracing_log_err(NULL, "synthetic_events", cmd,
			(const char **)synth_err_text, type, pos);
}

static struct dyn_event_operations synth_event_ops;

static bool dyn_is_synth(struct dyn_event *ev)
{
	return ev->ops == &synth_event_ops;
}

static struct synth_event *synth_of_dyn(struct dyn_event *ev)
{
	return container_of(ev, struct synth_event, devent);
}

/**
 * synth_event_find - look a synthetic event up by name
 * @name: the event's name, without the "synthetic/" system
 *
 * Context: event_mutex must be held, and the event stays valid only
 * while it is (or while the caller holds a reference in @ref).
 * Return: the event, or NULL if there is none of that name.
 */
struct synth_event *synth_event_find(const char *name)
{
	struct dyn_event *pos;

	lockdep_assert_held(&event_mutex);
	for_each_dyn_event(pos) {
		if (dyn_is_synth(pos) &&
		    !strcmp(synth_of_dyn(pos)->name, name))
			return synth_of_dyn(pos);
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Field types                                                         */

struct synth_number_type {
	const char	*name;
	const char	*fmt;
	u8		size;
	bool		is_signed;
};

static const struct synth_number_type synth_number_types[] = {
	{ "s8",			"%d",	1, true  },
	{ "u8",			"%u",	1, false },
	{ "s16",		"%d",	2, true  },
	{ "u16",		"%u",	2, false },
	{ "s32",		"%d",	4, true  },
	{ "u32",		"%u",	4, false },
	{ "s64",		"%lld",	8, true  },
	{ "u64",		"%llu",	8, false },
	{ "char",		"%d",	1, true  },
	{ "unsigned char",	"%u",	1, false },
	{ "short",		"%d",	2, true  },
	{ "unsigned short",	"%u",	2, false },
	{ "int",		"%d",	4, true  },
	{ "unsigned int",	"%u",	4, false },
	{ "long",		"%ld",	sizeof(long), true  },
	{ "unsigned long",	"%lu",	sizeof(long), false },
	{ "bool",		"%d",	sizeof(bool), true },
	{ "pid_t",		"%d",	sizeof(pid_t), true },
	{ "gfp_t",		"%x",	sizeof(gfp_t), false },
};

/*
 * Fill in how a field of the declared type @decl is stored.  Besides the
 * integer types there are "char[N]" (1 <= N <= STR_VAR_LEN_MAX), "char[]"
 * and the stack types "long[]" and "unsigned long[]".  Return -ERANGE
 * for a type that takes an array with a bad array part, -EINVAL for any
 * other unknown type.
 */
static int synth_resolve_type(const char *decl, struct synth_field *field)
{
	const char *len;
	unsigned int n;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(synth_number_types); i++) {
		const struct synth_number_type *t = &synth_number_types[i];

		if (strcmp(decl, t->name))
			continue;
		field->kind = SYNTH_FIELD_NUMBER;
		field->size = t->size;
		field->is_signed = t->is_signed;
		field->fmt = t->fmt;
		field->is_gfp = !strcmp(decl, "gfp_t");
		return 0;
	}

	field->fmt = "%s";
	if (str_has_prefix(decl, "long[") ||
	    str_has_prefix(decl, "unsigned long[")) {
		if (strcmp(strchr(decl, '['), "[]"))
			return -ERANGE;
		field->kind = SYNTH_FIELD_STACK;
		field->size = sizeof(u32);
		return 0;
	}

	/* A string, of plain or unsigned char. */
	len = decl + str_has_prefix(decl, "unsigned ");
	len = str_has_prefix(len, "char[") ? len + strlen("char[") : NULL;
	if (!len)
		return -EINVAL;
	if (!strcmp(len, "]")) {
		field->kind = SYNTH_FIELD_DYN_STRING;
		field->size = sizeof(u32);
		return 0;
	}
	for (n = 0; isdigit(*len); len++) {
		n = n * 10 + (*len - '0');
		if (n > STR_VAR_LEN_MAX)
			return -ERANGE;
	}
	if (strcmp(len, "]") || !n)
		return -ERANGE;
	field->kind = SYNTH_FIELD_STRING;
	field->size = n;
	return 0;
}

/* A name as C would take it: a letter or '_', then letters, digits, '_'. */
static bool synth_name_ok(const char *name, size_t len)
{
	size_t i;

	if (!len || (!isalpha(name[0]) && name[0] != '_'))
		return false;
	for (i = 1; i < len; i++) {
		if (!isalnum(name[i]) && name[i] != '_')
			return false;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* Parsing a definition                                                */

/*
 * The parser works on a private copy of the command, @buf, so that it
 * can cut tokens out in place while the offset of a token in @buf is
 * still its offset in @cmd, which is what an error's caret points at.
 */
struct synth_parser {
	const char		*cmd;
	char			*buf;
	struct synth_field	*fields;
	unsigned int		n_fields;
};

static unsigned int synth_pos(struct synth_parser *p, const char *tok)
{
	return tok - p->buf;
}

/* Log @type with the caret at @at (or 0); every parse error is -EINVAL. */
static int synth_fail(struct synth_parser *p, enum synth_err type,
		      const char *at)
{
	synth_log_err(p->cmd, type, at ? synth_pos(p, at) : 0);
	return -EINVAL;
}

/* Cut the next blank-separated token out of *@cur, or return NULL. */
static char *synth_next_token(char **cur)
{
	char *tok = skip_spaces(*cur), *end;

	if (!*tok)
		return NULL;
	for (end = tok; *end && !isspace(*end); end++)
		;
	*cur = *end ? end + 1 : end;
	*end = '\0';
	return tok;
}

/* Parse one field whose first token is @tok from the rest of *@cur. */
static int synth_parse_field(struct synth_parser *p, char *tok, char **cur)
{
	struct synth_field *field = &p->fields[p->n_fields];
	const char *prefix = "", *array;
	char *type = tok, *name;
	unsigned int i;
	size_t len;
	int ret;

	if (!strcmp(tok, "unsigned")) {
		prefix = "unsigned ";
		type = synth_next_token(cur);
		name = type ? synth_next_token(cur) : NULL;
		if (!name)
			return synth_fail(p, SYNTH_ERR_INCOMPLETE_TYPE, tok);
	} else {
		name = synth_next_token(cur);
		if (!name)
			return synth_fail(p, SYNTH_ERR_INVALID_FIELD, tok);
	}

	/* "char comm[16]" declares comm as a char[16]. */
	array = strchrnul(name, '[');
	len = array - name;
	if (!synth_name_ok(name, len))
		return synth_fail(p, SYNTH_ERR_BAD_NAME, name);
	for (i = 0; i < p->n_fields; i++) {
		if (strlen(p->fields[i].name) == len &&
		    !strncmp(p->fields[i].name, name, len))
			return synth_fail(p, SYNTH_ERR_FIELD_EXISTS, name);
	}
	if (p->n_fields == SYNTH_FIELDS_MAX)
		return synth_fail(p, SYNTH_ERR_TOO_MANY_FIELDS, NULL);

	field->name = kstrndup(name, len, GFP_KERNEL);
	field->type = kasprintf(GFP_KERNEL, "__data_loc %s%s%s", prefix, type,
				array);
	if (!field->name || !field->type)
		goto nomem;
	field->decl = field->type + strlen("__data_loc ");
	p->n_fields++;

	ret = synth_resolve_type(field->decl, field);
	if (ret == -ERANGE && *array)
		return synth_fail(p, SYNTH_ERR_INVALID_ARRAY_SPEC, name);
	if (ret)
		return synth_fail(p, SYNTH_ERR_INVALID_TYPE, type);
	/* Only fields kept in the record's tail show "__data_loc". */
	if (field->kind != SYNTH_FIELD_DYN_STRING &&
	    field->kind != SYNTH_FIELD_STACK) {
		memmove(field->type, field->decl, strlen(field->decl) + 1);
		field->decl = field->type;
	}
	return 0;
nomem:
	kfree(field->name);
	kfree(field->type);
	field->name = NULL;
	field->type = NULL;
	return -ENOMEM;
}

static void synth_free_fields(struct synth_field *fields, unsigned int n)
{
	while (n--) {
		kfree(fields[n].name);
		kfree(fields[n].type);
	}
}

static void synth_event_free(struct synth_event *se)
{
	synth_free_fields(se->fields, se->n_fields);
	kfree(se->call.print_fmt);
	kfree(se->name);
	kfree(se);
}

static int synth_event_reg(struct trace_event_call *call,
			   enum trace_reg type, void *data)
{
	struct synth_event *se = call->data;
	int ret;

	/* A module's event must not go while a buffer may still fill. */
	if (type == TRACE_REG_REGISTER && !try_module_get(se->mod))
		return -EBUSY;
	ret = trace_event_reg(call, type, data);
	if ((type == TRACE_REG_REGISTER && ret) ||
	    type == TRACE_REG_UNREGISTER)
		module_put(se->mod);
	return ret;
}

static int synth_event_register(struct synth_event *se)
{
	struct trace_event_call *call = &se->call;
	int ret;

	ret = synth_event_init_call(se);
	if (ret)
		return ret;
	se->class.reg = synth_event_reg;
	/*
	 * DYNAMIC already now, not only from dyn_event_add(): a file of the
	 * event opened as soon as it is visible must take a reference.
	 */
	call->flags = TRACE_EVENT_FL_TRACEPOINT | TRACE_EVENT_FL_DYNAMIC;

	if (!register_trace_event(&call->event))
		return -ENODEV;
	ret = trace_add_event_call(call);
	if (ret) {
		pr_warn("%s: cannot register (%d)\n", se->name, ret);
		unregister_trace_event(&call->event);
		return ret;
	}
	dyn_event_init(&se->devent, &synth_event_ops);
	dyn_event_add(&se->devent, call);
	return 0;
}

/*
 * The words before the first ';' of a definition: the name and the
 * first whole field must be there, so fewer than three refuses a
 * command that is only a name, or a name and a type.
 */
static unsigned int synth_head_tokens(const char *name)
{
	const char *end = name + strcspn(name, ";");
	const char *seg;
	unsigned int n = 0;

	for (seg = skip_spaces(name); seg < end; seg = skip_spaces(seg)) {
		while (seg < end && !isspace(*seg))
			seg++;
		n++;
	}
	return n;
}

/*
 * Define the event in @cmd, whose name starts at @name_pos (after the
 * "s:" or "s:synthetic/" of the dynamic_events form).  Errors are logged
 * against @cmd.
 */
static int synth_define(const char *cmd, unsigned int name_pos,
			struct module *mod)
{
	struct synth_parser p = { .cmd = cmd };
	struct synth_event *se = NULL;
	char *name, *rest, *seg, *tok;
	int ret;

	p.buf = kstrdup(cmd, GFP_KERNEL);
	p.fields = kcalloc(SYNTH_FIELDS_MAX, sizeof(*p.fields), GFP_KERNEL);
	if (!p.buf || !p.fields) {
		ret = -ENOMEM;
		goto out;
	}

	name = p.buf + name_pos;
	if (synth_head_tokens(name) < 3) {
		ret = synth_fail(&p, SYNTH_ERR_INVALID_CMD, NULL);
		goto out;
	}

	rest = name;
	name = synth_next_token(&rest);
	if (!synth_name_ok(name, strlen(name))) {
		ret = synth_fail(&p, SYNTH_ERR_BAD_NAME, name);
		goto out;
	}

	mutex_lock(&event_mutex);
	if (synth_event_find(name)) {
		synth_fail(&p, SYNTH_ERR_EVENT_EXISTS, name);
		ret = -EEXIST;
		goto unlock;
	}

	/* Fields are split by ';', but older users separate them by blanks. */
	ret = 0;
	while (!ret && (seg = strsep(&rest, ";"))) {
		while (!ret && (tok = synth_next_token(&seg)))
			ret = synth_parse_field(&p, tok, &seg);
	}
	if (ret)
		goto unlock;

	ret = -ENOMEM;
	se = kzalloc(struct_size(se, fields, p.n_fields), GFP_KERNEL);
	if (!se)
		goto unlock;
	se->name = kstrdup(name, GFP_KERNEL);
	if (!se->name)
		goto unlock;
	se->mod = mod;
	se->n_fields = p.n_fields;
	memcpy(se->fields, p.fields, p.n_fields * sizeof(*p.fields));
	p.n_fields = 0;		/* the strings now belong to se */
	synth_event_layout(se);

	ret = synth_event_register(se);
	if (!ret)
		se = NULL;
unlock:
	mutex_unlock(&event_mutex);
out:
	if (se)
		synth_event_free(se);
	if (p.fields)
		synth_free_fields(p.fields, p.n_fields);
	kfree(p.fields);
	kfree(p.buf);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Removal                                                             */

static bool synth_event_busy(struct synth_event *se)
{
	return se->ref || trace_event_dyn_busy(&se->call);
}

/* Remove @se; the caller holds event_mutex. */
static int synth_event_destroy(struct synth_event *se)
{
	int ret;

	if (synth_event_busy(se)) {
		ret = -EBUSY;
	} else {
		/* triggers that traced to it may still be doing so */
		hist_reclaim_wait();
		ret = trace_remove_event_call(&se->call);
	}
	if (ret == -EBUSY)
		synth_log_err(se->name, SYNTH_ERR_EVENT_BUSY, 0);
	if (ret)
		return ret;
	dyn_event_remove(&se->devent);
	synth_event_free(se);
	return 0;
}

static int synth_undefine(const char *name)
{
	struct synth_event *se;
	int ret = -ENOENT;

	mutex_lock(&event_mutex);
	se = synth_event_find(name);
	if (se)
		ret = synth_event_destroy(se);
	mutex_unlock(&event_mutex);

	/*
	 * The event's type id is free for the next event registered, which
	 * would then be the one to print the records left behind.  Removal
	 * marked the instances that recorded any; empty them now.
	 */
	if (!ret)
		tracing_reset_all_online_cpus();
	return ret;
}

/**
 * synth_event_delete - remove a synthetic event
 * @name: the event's name
 *
 * Remove an event created with synth_event_create() or the
 * synth_event_gen_cmd_*() functions (or by any other means).
 *
 * Context: process context, may sleep; takes event_mutex.
 * Return: 0 on success, -ENOENT if there is no such event, -EBUSY if it
 * is enabled in some trace instance or used by a hist trigger.
 */
int synth_event_delete(const char *name)
{
	return synth_undefine(name);
}
EXPORT_SYMBOL_GPL(synth_event_delete);

/* ------------------------------------------------------------------ */
/* The synthetic_events file and dynamic_events                       */

/* One line of synthetic_events: "NAME FIELDS" or "!NAME [FIELDS]". */
static int synth_events_run(const char *line)
{
	char *name;
	int ret;

	line = skip_spaces(line);
	if (!*line)
		return 0;
	if (*line != '!')
		return synth_define(line, 0, NULL);

	name = kstrndup(line + 1, strcspn(line + 1, " \t\n"), GFP_KERNEL);
	if (!name)
		return -ENOMEM;
	ret = synth_undefine(name);
	kfree(name);
	return ret;
}

/* dynamic_events: "s:[synthetic/]NAME FIELDS"; others are not ours. */
static int synth_dyn_create(const char *cmd)
{
	size_t name_pos = strlen("s:"), name_len;
	const char *slash;

	cmd = skip_spaces(cmd);
	if (!*cmd)
		return 0;
	if (!str_has_prefix(cmd, "s:"))
		return -ECANCELED;

	name_len = strcspn(cmd + name_pos, " \t\n");
	if (!name_len || !cmd[name_pos + name_len]) {
		synth_log_err(cmd, SYNTH_ERR_INVALID_CMD, 0);
		return -EINVAL;
	}
	slash = memchr(cmd + name_pos, '/', name_len);
	if (slash) {
		if (strncmp(cmd + name_pos, SYNTH_SYSTEM "/",
			    strlen(SYNTH_SYSTEM "/"))) {
			synth_log_err(cmd, SYNTH_ERR_INVALID_DYN_CMD, 0);
			return -EINVAL;
		}
		name_pos += strlen(SYNTH_SYSTEM "/");
		if (isspace(cmd[name_pos])) {
			synth_log_err(cmd, SYNTH_ERR_INVALID_CMD, 0);
			return -EINVAL;
		}
	}
	return synth_define(cmd, name_pos, NULL);
}

static void synth_event_show_fields(struct seq_file *m, struct synth_event *se)
{
	unsigned int i;

	seq_printf(m, "%s\t", se->name);
	for (i = 0; i < se->n_fields; i++)
		seq_printf(m, "%s%s %s", i ? "; " : "", se->fields[i].decl,
			   se->fields[i].name);
	seq_putc(m, '\n');
}

static int synth_dyn_show(struct seq_file *m, struct dyn_event *ev)
{
	seq_puts(m, "s:" SYNTH_SYSTEM "/");
	synth_event_show_fields(m, synth_of_dyn(ev));
	return 0;
}

static bool synth_dyn_is_busy(struct dyn_event *ev)
{
	struct synth_event *se = synth_of_dyn(ev);

	if (!synth_event_busy(se))
		return false;
	synth_log_err(se->name, SYNTH_ERR_EVENT_BUSY, 0);
	return true;
}

static int synth_dyn_free(struct dyn_event *ev)
{
	return synth_event_destroy(synth_of_dyn(ev));
}

static bool synth_dyn_match(const char *system, const char *event,
			    int argc, const char **argv, struct dyn_event *ev)
{
	return (!system || !strcmp(system, SYNTH_SYSTEM)) &&
	       !strcmp(synth_of_dyn(ev)->name, event);
}

static struct dyn_event_operations synth_event_ops = {
	.create		= synth_dyn_create,
	.show		= synth_dyn_show,
	.is_busy	= synth_dyn_is_busy,
	.free		= synth_dyn_free,
	.match		= synth_dyn_match,
};

static int synth_events_seq_show(struct seq_file *m, void *v)
{
	struct dyn_event *ev = v;

	if (dyn_is_synth(ev))
		synth_event_show_fields(m, synth_of_dyn(ev));
	return 0;
}

static const struct seq_operations synth_events_seq_ops = {
	.start	= dyn_event_seq_start,
	.next	= dyn_event_seq_next,
	.stop	= dyn_event_seq_stop,
	.show	= synth_events_seq_show,
};

/* An open for writing without O_APPEND starts from no synthetic events. */
static int synth_events_open(struct inode *inode, struct file *file)
{
	bool truncate = (file->f_mode & FMODE_WRITE) &&
			(file->f_flags & O_TRUNC);
	int ret = security_locked_down(LOCKDOWN_TRACEFS);

	if (!ret && truncate)
		ret = dyn_events_release_all(&synth_event_ops);
	return ret < 0 ? ret : seq_open(file, &synth_events_seq_ops);
}

static ssize_t synth_events_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	return trace_parse_run_command(file, ubuf, count, ppos,
				       synth_events_run);
}

static const struct file_operations synth_events_fops = {
	.open		= synth_events_open,
	.write		= synth_events_write,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= seq_release,
};

/* ------------------------------------------------------------------ */
/* Building a definition from kernel code                             */

static int synth_cmd_run(struct dynevent_cmd *cmd)
{
	if (seq_buf_has_overflowed(&cmd->seq))
		return -E2BIG;
	return synth_define(skip_spaces(cmd->seq.buffer), 0,
			    cmd->private_data);
}

/**
 * synth_event_cmd_init - prepare a command that defines a synthetic event
 * @cmd: the command to prepare
 * @buf: where the definition's text is assembled
 * @maxlen: size of @buf (MAX_DYNEVENT_CMD_LEN is plenty)
 *
 * Call this first, then synth_event_gen_cmd_start() or
 * synth_event_gen_cmd_array_start(), any synth_event_add_field*() calls,
 * and finally synth_event_gen_cmd_end() to create the event.
 */
void synth_event_cmd_init(struct dynevent_cmd *cmd, char *buf, int maxlen)
{
	dynevent_cmd_init(cmd, buf, maxlen, DYNEVENT_TYPE_SYNTH, synth_cmd_run);
}
EXPORT_SYMBOL_GPL(synth_event_cmd_init);

static int synth_cmd_begin(struct dynevent_cmd *cmd, const char *name,
			   struct module *mod)
{
	if (cmd->type != DYNEVENT_TYPE_SYNTH || !name)
		return -EINVAL;
	cmd->event_name = name;
	cmd->private_data = mod;
	return seq_buf_printf(&cmd->seq, " %s", name) ? -E2BIG : 0;
}

/* Append " TYPE NAME;" (or " TYPE_NAME;" without @name) to @cmd. */
static int synth_cmd_add_field(struct dynevent_cmd *cmd, const char *type,
			       const char *name)
{
	if (cmd->type != DYNEVENT_TYPE_SYNTH || !type)
		return -EINVAL;
	if (cmd->n_fields >= SYNTH_FIELDS_MAX)
		return -EINVAL;
	if (seq_buf_printf(&cmd->seq, " %s%s%s;", type, name ? " " : "",
			   name ?: ""))
		return -E2BIG;
	cmd->n_fields++;
	return 0;
}

/**
 * synth_event_add_field - add a field to a synthetic event definition
 * @cmd: a command begun with synth_event_gen_cmd_start()
 * @type: the field's type, e.g. "u64", "pid_t", "char[16]" or "char[]"
 * @name: the field's name; "name[N]" makes it an array, as in C
 *
 * Fields appear in the event in the order they are added.  The type is
 * checked when the command is run, by synth_event_gen_cmd_end().
 *
 * Return: 0 on success, -EINVAL for a bad argument or too many fields,
 * -E2BIG if the command's buffer is full.
 */
int synth_event_add_field(struct dynevent_cmd *cmd, const char *type,
			  const char *name)
{
	if (!name)
		return -EINVAL;
	return synth_cmd_add_field(cmd, type, name);
}
EXPORT_SYMBOL_GPL(synth_event_add_field);

/**
 * synth_event_add_field_str - add a field given as one string
 * @cmd: a command begun with synth_event_gen_cmd_start()
 * @type_name: the field as it would be written in synthetic_events,
 *	e.g. "u64 lat" or "char comm[16]"
 *
 * Return: 0 on success, -EINVAL for a bad argument or too many fields,
 * -E2BIG if the command's buffer is full.
 */
int synth_event_add_field_str(struct dynevent_cmd *cmd, const char *type_name)
{
	return synth_cmd_add_field(cmd, type_name, NULL);
}
EXPORT_SYMBOL_GPL(synth_event_add_field_str);

/**
 * synth_event_add_fields - add several fields to a definition
 * @cmd: a command begun with synth_event_gen_cmd_start()
 * @fields: the fields' types and names
 * @n_fields: number of entries in @fields
 *
 * Return: 0 on success, or the first error synth_event_add_field() gave.
 */
int synth_event_add_fields(struct dynevent_cmd *cmd,
			   struct synth_field_desc *fields,
			   unsigned int n_fields)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < n_fields && !ret; i++)
		ret = synth_event_add_field(cmd, fields[i].type,
					    fields[i].name);
	return ret;
}
EXPORT_SYMBOL_GPL(synth_event_add_fields);

/**
 * __synth_event_gen_cmd_start - begin a synthetic event definition
 * @cmd: a command prepared by synth_event_cmd_init()
 * @name: the new event's name
 * @mod: the module defining the event, or NULL for built-in code
 * @...: pairs of type and name strings, each a field, ended by NULL
 *
 * Use it through the synth_event_gen_cmd_start() macro, which adds the
 * closing NULL.  More fields can be added afterwards; the event is made
 * by synth_event_gen_cmd_end().  An event of a module pins the module
 * while it is enabled, and must be deleted before the module goes.
 *
 * Return: 0 on success, -EINVAL for a bad argument or too many fields,
 * -E2BIG if the command's buffer is full.
 */
int __synth_event_gen_cmd_start(struct dynevent_cmd *cmd, const char *name,
				struct module *mod, ...)
{
	const char *type, *field;
	va_list args;
	int ret;

	ret = synth_cmd_begin(cmd, name, mod);
	va_start(args, mod);
	while (!ret && (type = va_arg(args, const char *))) {
		field = va_arg(args, const char *);
		if (!field)
			break;
		ret = synth_event_add_field(cmd, type, field);
	}
	va_end(args);
	return ret;
}
EXPORT_SYMBOL_GPL(__synth_event_gen_cmd_start);

/**
 * synth_event_gen_cmd_array_start - begin a definition from an array
 * @cmd: a command prepared by synth_event_cmd_init()
 * @name: the new event's name
 * @mod: the module defining the event, or NULL for built-in code
 * @fields: the fields' types and names
 * @n_fields: number of entries in @fields
 *
 * Like synth_event_gen_cmd_start() with the fields in an array.
 *
 * Return: 0 on success, -EINVAL for a bad argument or too many fields,
 * -E2BIG if the command's buffer is full.
 */
int synth_event_gen_cmd_array_start(struct dynevent_cmd *cmd, const char *name,
				    struct module *mod,
				    struct synth_field_desc *fields,
				    unsigned int n_fields)
{
	int ret;

	if (n_fields > SYNTH_FIELDS_MAX)
		return -EINVAL;
	ret = synth_cmd_begin(cmd, name, mod);
	if (!ret)
		ret = synth_event_add_fields(cmd, fields, n_fields);
	return ret;
}
EXPORT_SYMBOL_GPL(synth_event_gen_cmd_array_start);

/**
 * synth_event_create - create a synthetic event in one call
 * @name: the new event's name
 * @fields: the fields' types and names, in the order of the event
 * @n_fields: number of entries in @fields
 * @mod: the module defining the event, or NULL for built-in code
 *
 * The event appears as events/synthetic/@name in every trace instance.
 * Remove it with synth_event_delete().
 *
 * Context: process context, may sleep; takes event_mutex.
 * Return: 0 on success, -EEXIST if the name is taken, -EINVAL for a bad
 * definition (the reason is in tracing/error_log), -ENOMEM.
 */
int synth_event_create(const char *name, struct synth_field_desc *fields,
		       unsigned int n_fields, struct module *mod)
{
	struct dynevent_cmd cmd;
	char *buf;
	int ret;

	buf = kzalloc(MAX_DYNEVENT_CMD_LEN, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	synth_event_cmd_init(&cmd, buf, MAX_DYNEVENT_CMD_LEN);
	ret = synth_event_gen_cmd_array_start(&cmd, name, mod, fields,
					      n_fields);
	if (!ret)
		ret = synth_event_gen_cmd_end(&cmd);
	kfree(buf);
	return ret;
}
EXPORT_SYMBOL_GPL(synth_event_create);

/* ------------------------------------------------------------------ */

/* Early, so that boot-time tracing (trace_boot.c) can define events. */
static __init int synth_events_register_ops(void)
{
	int ret = dyn_event_register(&synth_event_ops);

	if (ret)
		pr_warn("cannot register with dynamic events (%d)\n", ret);
	return ret;
}
core_initcall(synth_events_register_ops);

static __init int synth_events_create_file(void)
{
	if (tracing_init_dentry())
		return 0;
	if (!tracefs_create_file("synthetic_events", TRACE_MODE_WRITE, NULL,
				 NULL, &synth_events_fops))
		pr_warn("cannot create tracefs file\n");
	return 0;
}
fs_initcall(synth_events_create_file);
