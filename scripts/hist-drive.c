// SPDX-License-Identifier: GPL-2.0
/*
 * hist-drive: hist triggers and synthetic events driven through tracefs
 * by one process, for the debug kernel's checkers (make check DEBUG=1,
 * tests drive:volume and drive:faults).
 *
 *   hist-drive volume CORPUS N SEED
 *   hist-drive faults CORPUS [TEXT]
 *
 * The shell-driven tests spend a debug kernel's time on processes and
 * file opens; this program keeps its files open and does one system call
 * per command, so the checkers see the hist code, not the shell.
 *
 * CORPUS is a list of cases, one per paragraph (scripts/hist-drive.corpus
 * says how they are written). Each case sets up what it needs, runs one
 * command (the "do" line), and undoes all of it.
 *
 * volume: runs the cases in turn, each with its {a|b} alternatives
 * picked at random from SEED, until N hist triggers have been made. A
 * trigger made by a case is hit by the program's own system calls,
 * read back through hist and hist_debug, paused, continued and cleared
 * now and then, and removed. Every command must do what the case says
 * (succeed, or fail for a "do!" line), and every case must leave its
 * trigger files, their events' enable files, synthetic_events and
 * dynamic_events as it found them.
 *
 * faults: for each case, once for each column of its alternatives (the
 * Kth alternative of every {a|b} group, or its last), the do line runs
 * with the kernel's fault injection making its 1st, 2nd, 3rd... slab or
 * page allocation fail (/proc/thread-self/fail-nth), until a run meets no
 * injected failure. After each run the events are hit and the hist
 * files read, so that what a run left half made is used. A run that
 * failed must have returned an error and left the files as they were
 * before it; a run that succeeded despite the failure (an allocation
 * that had a fallback) must have left what a clean run leaves, and a
 * read must have read what a clean one reads. The last run, with no
 * failure injected, must do what the first clean run did: nothing of a
 * failed run is left in a registry that would refuse it.
 *
 * TEXT: only the cases whose title has TEXT in it.
 *
 * Both end with a line of counts; any broken rule is printed, with the
 * case and the command, and the exit status is 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TRACEFS		"/sys/kernel/tracing/"
#define MAX_LINES	32
#define MAX_CASES	256
#define MAX_FDS		64
#define MAX_PICKS	16
#define READ_BUF	(1 << 20)
#define SNAP_BUF	(64 << 10)
/* more allocations than any command of the corpus makes: a loop guard */
#define MAX_NTH		20000

enum kind { SETUP, DO, DO_FAIL, READ, THEN, UNDO, FIRE };

static const char *const kind_names[] = {
	[SETUP] = "setup", [DO] = "do", [DO_FAIL] = "do!", [READ] = "read",
	[THEN] = "then", [UNDO] = "undo", [FIRE] = "fire",
};

struct line {
	enum kind	kind;
	char		*path;	/* relative to TRACEFS */
	char		*text;	/* with its {a|b} alternatives */
};

struct drive_case {
	char		*title;
	struct line	lines[MAX_LINES];
	int		n_lines;
};

static struct drive_case cases[MAX_CASES];
static int n_cases;

/* what the run did, for the last line */
static struct {
	unsigned long cases, made, hit_read, refused, events, reads, removed;
	unsigned long paused;
	unsigned long commands, injected, failed_runs, fallback_runs, reports;
} count;

static unsigned long long seed;
static bool faults_mode;
/* faults: the column of alternatives the sweep takes */
static int column;
static const char *cur_case;
static char *read_buf;
static int last_errno;

static void report(const char *fmt, ...)
{
	va_list ap;

	count.reports++;
	if (count.reports > 40)
		return;
	printf("drive: case \"%s\": ", cur_case ? cur_case : "-");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static unsigned int rnd(unsigned int n)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return n ? (unsigned int)(seed >> 33) % n : 0;
}

/* ---- the corpus ---------------------------------------------------- */

static void load_corpus(const char *name)
{
	FILE *f = fopen(name, "r");
	struct drive_case *c = NULL;
	char buf[4096];
	int lineno = 0;

	if (!f) {
		perror(name);
		exit(2);
	}
	while (fgets(buf, sizeof(buf), f)) {
		char *s = buf, *kw, *path;
		struct line *l;
		int k;

		lineno++;
		s[strcspn(s, "\n")] = 0;
		if (!*s) {
			c = NULL;
			continue;
		}
		if (*s == '#')
			continue;
		if (!strncmp(s, "case ", 5)) {
			if (n_cases == MAX_CASES)
				goto bad;
			c = &cases[n_cases++];
			c->title = strdup(s + 5);
			continue;
		}
		if (!c || c->n_lines == MAX_LINES)
			goto bad;
		kw = strsep(&s, " ");
		for (k = 0; k <= FIRE; k++)
			if (!strcmp(kw, kind_names[k]))
				break;
		if (k > FIRE)
			goto bad;
		l = &c->lines[c->n_lines++];
		l->kind = k;
		path = strsep(&s, " ");
		if (k == FIRE) {
			l->path = path ? strdup(path) : NULL;
			continue;
		}
		if (!path || !*path || (k != READ && (!s || !*s)))
			goto bad;
		l->path = strdup(path);
		l->text = strdup(s ? s : "");
	}
	fclose(f);
	return;
bad:
	fprintf(stderr, "%s:%d: not a corpus line: %s\n", name, lineno, buf);
	exit(2);
}

/*
 * Expand the {a|b|c} groups of @in into @out: one alternative each, the
 * same for every group of the same text in the case (so that the undo
 * line names what the do line made), the first in faults mode.
 */
static struct {
	char group[256];
	int pick;
} picks[MAX_PICKS];
static int n_picks;

static void expand(const char *in, char *out, size_t room)
{
	size_t n = 0;

	while (*in && n + 1 < room) {
		const char *end, *alt;
		char group[256];
		int i, pick, alts = 1;
		size_t len;

		if (*in != '{' || !(end = strchr(in, '}'))) {
			out[n++] = *in++;
			continue;
		}
		len = end - in - 1;
		if (len >= sizeof(group))
			len = sizeof(group) - 1;
		memcpy(group, in + 1, len);
		group[len] = 0;
		for (i = 0; group[i]; i++)
			alts += group[i] == '|';
		for (i = 0; i < n_picks; i++)
			if (!strcmp(picks[i].group, group))
				break;
		if (i < n_picks) {
			pick = picks[i].pick;
		} else {
			pick = !faults_mode ? (int)rnd(alts) :
			       column < alts ? column : alts - 1;
			if (n_picks == MAX_PICKS) {
				fprintf(stderr, "hist-drive: more than %d {a|b} groups in a case\n",
					MAX_PICKS);
				exit(2);
			}
			strcpy(picks[n_picks].group, group);
			picks[n_picks++].pick = pick;
		}
		for (alt = group; pick--; alt = strchr(alt, '|') + 1)
			;
		len = strcspn(alt, "|");
		if (n + len >= room)
			break;
		memcpy(out + n, alt, len);
		n += len;
		in = end + 1;
	}
	out[n] = 0;
}

/* ---- tracefs files, kept open -------------------------------------- */

static struct {
	char	*path;
	int	fd;
	int	flags;
} fds[MAX_FDS];
static int n_fds;

static int file_fd(const char *path, int flags)
{
	char full[600];
	int i, fd;

	for (i = 0; i < n_fds; i++)
		if (fds[i].flags == flags && !strcmp(fds[i].path, path))
			return fds[i].fd;
	snprintf(full, sizeof(full), TRACEFS "%s", path);
	fd = open(full, flags | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (n_fds == MAX_FDS) {
		close(fds[0].fd);
		free(fds[0].path);
		memmove(fds, fds + 1, sizeof(fds[0]) * --n_fds);
	}
	fds[n_fds].path = strdup(path);
	fds[n_fds].fd = fd;
	fds[n_fds++].flags = flags;
	return fd;
}

/*
 * A dynamic event's files go with the event: close them before
 * synthetic_events or dynamic_events is written to, so that no stale
 * file is used, and none keeps an event from going.
 */
static void close_dynamic_fds(void)
{
	int i, j = 0;

	for (i = 0; i < n_fds; i++) {
		if (strstr(fds[i].path, "events/synthetic/") ||
		    strstr(fds[i].path, "events/kprobes/")) {
			close(fds[i].fd);
			free(fds[i].path);
			continue;
		}
		fds[j++] = fds[i];
	}
	n_fds = j;
}

/* One write, as one command: 0 or -errno. */
static int write_cmd(const char *path, const char *text)
{
	int fd;

	if (strstr(path, "synthetic_events") || strstr(path, "dynamic_events"))
		close_dynamic_fds();
	fd = file_fd(path, O_WRONLY);
	if (fd < 0)
		return fd;
	return write(fd, text, strlen(text)) < 0 ? -errno : 0;
}

/* Read @fd whole from its start into @buf (NUL-terminated): its length or -errno. */
static long read_fd(int fd, char *buf, size_t room)
{
	size_t n = 0;
	ssize_t r;

	while (n + 1 < room) {
		r = pread(fd, buf + n, room - 1 - n, n);
		if (r < 0)
			return -errno;
		if (!r)
			break;
		n += r;
	}
	buf[n] = 0;
	return n;
}

/* Read @path, through its file kept open. */
static long read_file(const char *path, char *buf, size_t room)
{
	int fd = file_fd(path, O_RDONLY);

	return fd < 0 ? fd : read_fd(fd, buf, room);
}

/*
 * The same through a file opened for it, as cat reads: the sweep's reads
 * fail the allocations of the open too (the hist file's reader, the
 * seq_file buffer), which a file kept open made long ago.
 */
static long read_file_fresh(const char *path, char *buf, size_t room)
{
	char full[600];
	long r;
	int fd;

	snprintf(full, sizeof(full), TRACEFS "%s", path);
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = read_fd(fd, buf, room);
	close(fd);
	return r;
}

/* ---- the events the triggers sit on ------------------------------- */

static int null_fd, mem_fd;

/*
 * Hits: writes (syscalls/sys_enter_write, sys_exit_write, and a kprobe
 * of the corpus on __x64_sys_write that reads the buffer as a string)
 * and seeks (sys_enter_lseek), with sizes, offsets and texts that vary,
 * so that the maps get several keys.
 */
static void fire_rounds(int n)
{
	static const char *const words[] = {
		"alpha", "beta", "gamma", "delta", "zz", "hist-drive",
	};
	static const char zeros[64];
	int i;

	for (i = 0; i < n; i++) {
		const char *w = words[rnd(6)];

		if (write(null_fd, w, strlen(w) + 1) < 0 ||
		    write(null_fd, zeros, rnd(sizeof(zeros))) < 0 ||
		    lseek(mem_fd, rnd(5000), rnd(3)) < 0)
			report("fire: %s", strerror(errno));
	}
	count.events += n * 3;
}

static void fire(void)
{
	fire_rounds(1 + rnd(2));
}

/* ---- what a case may not leave behind ----------------------------- */

static bool is_trigger_path(const char *path)
{
	size_t n = strlen(path);

	return n >= 7 && !strcmp(path + n - 7, "trigger");
}

/* Append "== PATH" and what @path holds (or why not) to @out. */
static size_t snapshot_file(const char *path, char *out, size_t n, size_t room)
{
	long r;

	if (n + 1 >= room)
		return n;
	n += snprintf(out + n, room - n, "== %s\n", path);
	if (n + 1 >= room)
		return n;
	r = read_file(path, out + n, room - n);
	if (r < 0) {
		/* an event that is not there yet or any more */
		n += snprintf(out + n, room - n, "(%s)\n", strerror(-r));
		return n < room ? n : room - 1;
	}
	return n + r;
}

/*
 * The state a failed command must leave as it was: the trigger files the
 * case names and their events' enable files (a trigger holds its event
 * on in soft mode: "0*"), synthetic_events and dynamic_events. Hist
 * triggers print no counters in the trigger file.
 */
static void snapshot(const struct drive_case *c, char *out, size_t room)
{
	char path[512];
	size_t n = 0;
	int i;

	out[0] = 0;
	for (i = 0; i < c->n_lines; i++) {
		if (!c->lines[i].path || !is_trigger_path(c->lines[i].path))
			continue;
		expand(c->lines[i].path, path, sizeof(path));
		n = snapshot_file(path, out, n, room);
		strcpy(strrchr(path, '/') + 1, "enable");
		n = snapshot_file(path, out, n, room);
	}
	n = snapshot_file("synthetic_events", out, n, room);
	snapshot_file("dynamic_events", out, n, room);
}

/* What a trigger file holds besides its comment lines: nothing, or its first line. */
static bool trigger_file_empty(const char *path, char *first, size_t room)
{
	char *s, *nl;

	long r = read_file(path, read_buf, READ_BUF);

	if (r < 0) {
		/* the event went with the case's dynamic events */
		if (r != -ENOENT && r != -ENODEV)
			report("read %s: %s", path, strerror(-r));
		return true;
	}
	for (s = read_buf; *s; s = nl + 1) {
		nl = strchrnul(s, '\n');
		if (*s != '#' && nl != s) {
			snprintf(first, room, "%.*s", (int)(nl - s), s);
			return false;
		}
		if (!*nl)
			break;
	}
	return true;
}

/* ---- the kernel's own reports ------------------------------------- */

static int kmsg_fd = -1;

/* From now on: the kernel log's records after this point are ours. */
static void kmsg_mark(void)
{
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
}

/*
 * Report what the checkers said since the last call (or kmsg_mark()),
 * under the case that ran meanwhile: a KASAN, UBSAN or lockdep report,
 * a BUG or WARNING, a stack. A vmalloc that the sweep made fail warns
 * with a stack on purpose; that is not a report (the debug pass's scan
 * of the whole log skips it the same way).
 */
static void kmsg_reports(void)
{
	static const char *const patterns[] = {
		"BUG:", "WARNING:", "KASAN", "UBSAN", "possible recursive locking",
		"possible circular locking", "inconsistent lock state",
		"sleeping function called from invalid context", "Call Trace",
	};
	static bool injected;
	char rec[2048];
	unsigned int i;
	ssize_t n;

	if (kmsg_fd < 0)
		return;
	while ((n = read(kmsg_fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		const char *msg;

		if (n < 0)
			continue;	/* records lost to the ring's wrap */
		rec[n] = 0;
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		if (strstr(msg, "hist-drive: vmalloc error:") ||
		    strstr(msg, "hist-drive: page allocation failure:"))
			injected = true;
		if (injected) {
			injected = !strstr(msg, "</TASK>");
			continue;
		}
		for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
			if (strstr(msg, patterns[i])) {
				report("the kernel: %.200s", msg);
				break;
			}
		}
	}
}

/* The error_log's last entry (three lines), after a refusal. */
static void print_error_log(void)
{
	long n = read_file("error_log", read_buf, READ_BUF);
	int lines = 0;

	while (n > 0 && lines < 4)
		lines += read_buf[--n] == '\n';
	if (n >= 0)
		printf("%s", read_buf + n + (lines == 4));
	fflush(stdout);
}

/* ---- running a case ------------------------------------------------ */

static bool is_hist_trigger(const char *path, const char *text)
{
	return is_trigger_path(path) && !strncmp(text, "hist:", 5);
}

/* Run one line; "ok" is whether it did what the case says. */
static bool run_line(const struct line *l, bool quiet)
{
	char path[512], text[4096];
	long r;

	if (l->kind == FIRE) {
		for (r = l->path ? atol(l->path) : 1; r > 0; r--)
			fire();
		return true;
	}
	expand(l->path, path, sizeof(path));
	expand(l->text, text, sizeof(text));
	if (l->kind == READ) {
		r = read_file(path, read_buf, READ_BUF);
		count.reads += r >= 0;
		if (r < 0 && !quiet)
			report("read %s: %s", path, strerror(-r));
		return r >= 0;
	}
	r = write_cmd(path, text);
	last_errno = -r;
	count.commands++;
	if (!r && is_trigger_path(path)) {
		/* a pause, cont or clear makes nothing */
		if (!strncmp(text, "hist:", 5) && !strstr(text, ":pause") &&
		    !strstr(text, ":cont") && !strstr(text, ":clear"))
			count.made++;
		else if (!strncmp(text, "!hist:", 6))
			count.removed++;
	}
	if ((l->kind == DO_FAIL) != !!r) {
		if (!quiet) {
			report("%s %s '%s': %s", kind_names[l->kind], path, text,
			       r ? strerror(-r) : "succeeded");
			if (r)
				print_error_log();
		}
		return false;
	}
	if (r)
		count.refused++;
	return true;
}

/*
 * Read hist and hist_debug of the event whose trigger file is @trigger;
 * a read that fails is reported if @must.
 */
static void read_event_hists(const char *trigger, bool must)
{
	static const char *const files[] = { "hist", "hist_debug" };
	char path[512];
	unsigned int i;
	long r;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%.*s%s",
			 (int)(strrchr(trigger, '/') + 1 - trigger), trigger, files[i]);
		r = read_file(path, read_buf, READ_BUF);
		if (r < 0 && must)
			report("read %s: %s", path, strerror(-r));
		count.reads += r >= 0;
	}
}

/* Read hist and hist_debug of every event the case's trigger lines name. */
static void read_hists(const struct drive_case *c)
{
	char path[512];
	int i;

	for (i = 0; i < c->n_lines; i++) {
		const struct line *l = &c->lines[i];

		if (!l->path || !is_trigger_path(l->path))
			continue;
		expand(l->path, path, sizeof(path));
		read_event_hists(path, true);
	}
}

/*
 * Whether a trigger's text defines variables: a pause, cont or clear
 * command is a trigger's text again, and upstream takes its variables
 * for new ones, already defined.
 */
static bool defines_vars(const char *text)
{
	static const char *const attrs[] = {
		"keys=", "key=", "vals=", "values=", "sort=", "size=", "name=",
		"top=", "clock=",
	};
	const char *s;
	unsigned int i;

	for (s = strchr(text, ':'); s; s = strchr(s, ':')) {
		s++;
		for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
			if (!strncmp(s, attrs[i], strlen(attrs[i])))
				break;
		if (i == sizeof(attrs) / sizeof(attrs[0]) &&
		    s[strcspn(s, "=:(")] == '=')
			return true;
	}
	return false;
}

/* "hist:...[ if FILTER]" with ":WHAT" before the filter */
static void with_command(const char *text, const char *what, char *out, size_t room)
{
	const char *filter = strstr(text, " if ");
	int len = filter ? (int)(filter - text) : (int)strlen(text);

	snprintf(out, room, "%.*s:%s%s", len, text, what, filter ? filter : "");
}

/* volume: pause, continue and clear the trigger the do line made */
static void pause_cont_clear(const struct line *l)
{
	static const char *const steps[] = { "pause", "cont", "clear" };
	char path[512], text[4096], cmd[4200];
	int i, r;

	expand(l->path, path, sizeof(path));
	expand(l->text, text, sizeof(text));
	for (i = 0; i < 3; i++) {
		with_command(text, steps[i], cmd, sizeof(cmd));
		r = write_cmd(path, cmd);
		count.commands++;
		if (r)
			report("%s '%s': %s", path, cmd, strerror(-r));
		fire_rounds(1);
	}
	count.paused++;
}

/* After a case: the trigger files it named hold nothing. */
static void check_clean(const struct drive_case *c)
{
	char path[512], first[4096], cmd[4100];
	int i, r;

	for (i = 0; i < c->n_lines; i++) {
		if (!c->lines[i].path || !is_trigger_path(c->lines[i].path))
			continue;
		expand(c->lines[i].path, path, sizeof(path));
		if (!trigger_file_empty(path, first, sizeof(first))) {
			report("left in %s: %s", path, first);
			/* take it away, so that the next cases start clean */
			*strchrnul(first, '[') = 0;
			snprintf(cmd, sizeof(cmd), "!%s", first);
			r = write_cmd(path, cmd);
			if (r)
				report("could not remove it: %s", strerror(-r));
		}
	}
}

/*
 * Run the lines of @kind, or before the do line (setup and fire lines):
 * whether each did what its line says.
 */
static bool run_phase(const struct drive_case *c, enum kind kind)
{
	bool ok = true;
	int i;

	for (i = 0; i < c->n_lines; i++) {
		const struct line *l = &c->lines[i];

		if (kind == SETUP && (l->kind == DO || l->kind == DO_FAIL ||
				      l->kind == READ))
			break;
		if (l->kind == kind || (kind == SETUP && l->kind == FIRE))
			ok &= run_line(l, false);
	}
	return ok;
}

static const struct line *do_line(const struct drive_case *c)
{
	int i;

	for (i = 0; i < c->n_lines; i++)
		if (c->lines[i].kind == DO || c->lines[i].kind == DO_FAIL ||
		    c->lines[i].kind == READ)
			return &c->lines[i];
	return NULL;
}

static char snap_before[SNAP_BUF], snap_done[SNAP_BUF], snap_now[SNAP_BUF];

static void diff_report(const char *what, const char *want, const char *got)
{
	/* the first line that differs says enough */
	while (*want && *want == *got)
		want++, got++;
	report("%s: expected \"%.120s\", found \"%.120s\"", what, want, got);
}

static void volume_case(const struct drive_case *c)
{
	const struct line *d = do_line(c);
	unsigned long made = count.made, reports = count.reports;

	cur_case = c->title;
	n_picks = 0;
	count.cases++;
	/* picks first, so that the snapshot names the case's files */
	snapshot(c, snap_before, sizeof(snap_before));
	run_phase(c, SETUP);
	if (d && run_line(d, false)) {
		/* the case's work in place: hit it, read it */
		fire();
		read_hists(c);
		/* every trigger the case made so far, unless a read failed */
		if (count.reports == reports)
			count.hit_read += count.made - made;
		made = count.made;
		if (d->kind == DO && is_hist_trigger(d->path, d->text) &&
		    !defines_vars(d->text) && !strstr(d->text, ":pause") &&
		    !strstr(d->text, ":clear") && rnd(3) == 0)
			pause_cont_clear(d);
		if (d->kind == DO)
			run_phase(c, THEN);
		/* a then line that made a trigger again (after a removal) */
		if (count.made != made) {
			fire_rounds(1);
			read_hists(c);
			if (count.reports == reports)
				count.hit_read += count.made - made;
		}
	}
	run_phase(c, UNDO);
	snapshot(c, snap_now, sizeof(snap_now));
	if (strcmp(snap_before, snap_now))
		diff_report("the case did not leave its files as it found them",
			    snap_before, snap_now);
	check_clean(c);
	kmsg_reports();
}

/*
 * Write @val to @path, a setting: 0, or -errno. @old, if given, gets
 * what it held first. Each access opens the file anew: debugfs's
 * fault-injection files cannot seek.
 */
static int set_knob(const char *path, const char *val, char *old, size_t room)
{
	int fd, ret = 0;
	ssize_t n;

	if (old) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		n = read(fd, old, room - 1);
		old[n > 0 ? n : 0] = 0;
		close(fd);
	}
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * The static events of the corpus, switched on for the volume run: a
 * trigger is then made and removed on a tracepoint that stays
 * registered, where registering it anew would patch kernel text for
 * each trigger, which under QEMU's emulation costs a hundred
 * milliseconds. The first trigger of an event goes that way in the
 * allocation-failure sweep and in the ftrace tests.
 */
static const char *const static_events[] = {
	"events/syscalls/sys_enter_write/enable",
	"events/syscalls/sys_exit_write/enable",
	"events/syscalls/sys_enter_lseek/enable",
	"instances/hdrive/events/syscalls/sys_enter_write/enable",
	"instances/hdrive/events/syscalls/sys_exit_write/enable",
	"instances/hdrive/events/syscalls/sys_enter_lseek/enable",
};

static void static_events_on(const char *val)
{
	char path[512];
	unsigned int i;

	for (i = 0; i < sizeof(static_events) / sizeof(static_events[0]); i++) {
		snprintf(path, sizeof(path), TRACEFS "%s", static_events[i]);
		int r = set_knob(path, val, NULL, 0);

		if (r)
			report("%s: %s", path, strerror(-r));
	}
}

/* ---- the allocation-failure sweep ---------------------------------- */

static int nth_fd;

static void set_fail_nth(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(nth_fd, buf, len, 0) != len) {
		perror("fail-nth");
		exit(2);
	}
}

/* Whether the failure set up by set_fail_nth() was injected. */
static bool fail_nth_injected(void)
{
	char buf[16] = "";

	if (pread(nth_fd, buf, sizeof(buf) - 1, 0) <= 0) {
		perror("fail-nth");
		exit(2);
	}
	return atoi(buf) == 0;
}

/*
 * Hit the events, then read hist and hist_debug of @path's event. The
 * hits are the same each time (what a count or a filter of the case
 * makes of them is then the same).
 */
static void use_trigger(const char *path)
{
	seed = 0;
	fire_rounds(1);
	if (is_trigger_path(path))
		read_event_hists(path, false);
}

/* faults: a read line, swept; the clean read is in @clean */
static void faults_read(const char *path, const char *clean)
{
	unsigned int nth;
	bool injected;
	long r;

	for (nth = 1; nth <= MAX_NTH; nth++) {
		set_fail_nth(nth);
		r = read_file_fresh(path, read_buf, READ_BUF);
		injected = fail_nth_injected();
		set_fail_nth(0);
		count.reads += r >= 0;
		if (r >= 0 && strcmp(read_buf, clean))
			diff_report(injected ? "a read with a failure injected" :
				    "the last read", clean, read_buf);
		if (!injected) {
			if (r < 0)
				report("read %s with no failure injected: %s",
				       path, strerror(-r));
			return;
		}
		count.injected++;
		if (r < 0)
			count.failed_runs++;
		else
			count.fallback_runs++;
	}
	report("still meets injected failures after %u runs", MAX_NTH);
}

static void faults_case(const struct drive_case *c)
{
	const struct line *d = do_line(c);
	unsigned long injected0 = count.injected, failed0 = count.failed_runs;
	unsigned int nth, errnos[4] = { 0 };
	char path[512];
	bool ok_clean;

	cur_case = c->title;
	n_picks = 0;
	count.cases++;
	if (!d) {
		report("no do line");
		return;
	}
	expand(d->path, path, sizeof(path));
	run_phase(c, SETUP);
	/* the clean run: what the command does without a failure */
	snapshot(c, snap_before, sizeof(snap_before));
	if (d->kind == READ) {
		static char clean[READ_BUF];
		long r = read_file_fresh(path, clean, sizeof(clean));

		if (r < 0)
			report("read %s: %s", path, strerror(-r));
		else
			faults_read(path, clean);
		goto out;
	}
	ok_clean = run_line(d, false);
	use_trigger(path);
	snapshot(c, snap_done, sizeof(snap_done));
	if (ok_clean && run_phase(c, THEN)) {
		snapshot(c, snap_now, sizeof(snap_now));
		if (strcmp(snap_before, snap_now))
			diff_report("the then lines did not undo the do line",
				    snap_before, snap_now);
	}
	for (nth = 1; ok_clean && nth <= MAX_NTH; nth++) {
		bool injected, ok;

		set_fail_nth(nth);
		ok = run_line(d, true);
		injected = fail_nth_injected();
		set_fail_nth(0);
		/* what a run left half made, if anything, is used */
		use_trigger(path);
		snapshot(c, snap_now, sizeof(snap_now));
		if (!injected) {
			if (!ok)
				report("with no failure injected (run %u) the %s line did not do what it did at first",
				       nth, kind_names[d->kind]);
			else if (strcmp(snap_done, snap_now))
				diff_report("after the last run", snap_done, snap_now);
			if (ok)
				run_phase(c, THEN);
			break;
		}
		count.injected++;
		if (d->kind == DO_FAIL && !ok) {
			report("a command that must be refused succeeded with failure %u injected",
			       nth);
			continue;
		}
		if (d->kind == DO && ok) {
			/* an allocation with a fallback: the clean outcome */
			count.fallback_runs++;
			if (strcmp(snap_done, snap_now))
				diff_report("succeeded with a failure injected", snap_done, snap_now);
			run_phase(c, THEN);
			continue;
		}
		/* ENOMEM, EINVAL, ENOENT and the others, for the case's line */
		errnos[last_errno == ENOMEM ? 0 : last_errno == EINVAL ? 1 :
		       last_errno == ENOENT ? 2 : 3]++;
		count.failed_runs++;
		if (strcmp(snap_before, snap_now)) {
			char what[64];

			snprintf(what, sizeof(what), "failure %u left", nth);
			diff_report(what, snap_before, snap_now);
			/* put it back as it was, if the then lines can */
			run_phase(c, THEN);
		}
	}
	if (nth > MAX_NTH)
		report("still meets injected failures after %u runs", MAX_NTH);
out:
	printf("  case \"%s\" column %d: %lu failures injected, %lu runs failed (ENOMEM %u, EINVAL %u, ENOENT %u, other %u)\n",
	       c->title, column, count.injected - injected0,
	       count.failed_runs - failed0, errnos[0], errnos[1], errnos[2],
	       errnos[3]);
	run_phase(c, UNDO);
	check_clean(c);
	kmsg_reports();
}

/* The most alternatives of a {a|b} group of @t, or @most if more. */
static int most_alternatives(const char *t, int most)
{
	for (; t && (t = strchr(t, '{')); t++) {
		const char *e = strchr(t, '}');
		int alts = 1;

		for (; e && t < e; t++)
			alts += *t == '|';
		if (alts > most)
			most = alts;
	}
	return most;
}

/* The columns the sweep takes: the most alternatives a group of @c has. */
static int case_columns(const struct drive_case *c)
{
	int i, most = 1;

	for (i = 0; i < c->n_lines; i++) {
		most = most_alternatives(c->lines[i].text, most);
		most = most_alternatives(c->lines[i].path, most);
	}
	return most;
}

/*
 * Let the sweep's failures through, of the slab and of the page
 * allocator: by default fault injection spares allocations that may
 * sleep and those of a single page, and prints a stack for each failure
 * it makes, which the debug pass would take for a report. User pages
 * (highmem) stay spared: the program's own page faults are not the
 * command's.
 */
static void setup_fault_injection(void)
{
	static const char *const knobs[][2] = {
		{ "/sys/kernel/debug/failslab/ignore-gfp-wait", "N" },
		{ "/sys/kernel/debug/failslab/verbose", "0" },
		{ "/sys/kernel/debug/failslab/probability", "0" },
		{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-wait", "N" },
		{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem", "Y" },
		{ "/sys/kernel/debug/fail_page_alloc/min-order", "0" },
		{ "/sys/kernel/debug/fail_page_alloc/verbose", "0" },
		{ "/sys/kernel/debug/fail_page_alloc/probability", "0" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		int r = set_knob(knobs[i][0], knobs[i][1], NULL, 0);

		if (r) {
			printf("drive: %s: %s (no fault injection in this kernel?)\n",
			       knobs[i][0], strerror(-r));
			exit(4);
		}
	}
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (nth_fd < 0) {
		perror("/proc/thread-self/fail-nth");
		exit(4);
	}
	/*
	 * Nor may the program's first touch of a page of its own inside a
	 * command's window (a page table, an anon_vma) take the count.
	 */
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		perror("mlockall");
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	unsigned long goal = 0;
	char expedited[16], record_cmd[16];
	int i;

	if (argc < 3 || (strcmp(argv[1], "volume") && strcmp(argv[1], "faults")) ||
	    (!strcmp(argv[1], "volume") && argc != 5) || argc > 5) {
		fprintf(stderr, "usage: hist-drive volume CORPUS N SEED | faults CORPUS [TEXT]\n");
		return 2;
	}
	faults_mode = !strcmp(argv[1], "faults");
	load_corpus(argv[2]);
	read_buf = malloc(READ_BUF);
	null_fd = open("/dev/null", O_WRONLY);
	mem_fd = memfd_create("hist-drive", 0);
	if (!read_buf || null_fd < 0 || mem_fd < 0 ||
	    ftruncate(mem_fd, 4096)) {
		perror("hist-drive");
		return 2;
	}
	if (faults_mode)
		setup_fault_injection();
	/*
	 * The first event a trace array enables starts its recorder of
	 * comms, whose failure to register its sched probes upstream's
	 * tracing_start_sched_switch() ignores: its stop then unregisters
	 * probes that are not there, and warns. Not our code: the sweep
	 * runs with the recorder off (an instance takes the setting of the
	 * top level when it is made).
	 */
	if (faults_mode &&
	    set_knob(TRACEFS "options/record-cmd", "0", record_cmd, sizeof(record_cmd))) {
		perror("options/record-cmd");
		return 2;
	}
	if (mkdir(TRACEFS "instances/hdrive", 0755) && errno != EEXIST) {
		perror(TRACEFS "instances/hdrive");
		return 2;
	}
	/*
	 * Each removal of a trigger waits for a grace period, some tens of
	 * milliseconds in a QEMU guest: expedited ones take a fraction.
	 */
	if (set_knob("/sys/kernel/rcu_expedited", "1", expedited, sizeof(expedited)))
		strcpy(expedited, "");
	kmsg_mark();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (faults_mode) {
		for (i = 0; i < n_cases; i++) {
			if (argc > 3 && !strstr(cases[i].title, argv[3]))
				continue;
			for (column = 0; column < case_columns(&cases[i]); column++)
				faults_case(&cases[i]);
		}
	} else {
		goal = strtoul(argv[3], NULL, 0);
		seed = strtoull(argv[4], NULL, 0);
		static_events_on("1");
		while (count.hit_read < goal) {
			unsigned long made = count.made;

			for (i = 0; i < n_cases && count.hit_read < goal; i++)
				volume_case(&cases[i]);
			if (count.made == made) {
				report("a pass over every case made no trigger");
				break;
			}
		}
		static_events_on("0");
	}
	if (*expedited)
		set_knob("/sys/kernel/rcu_expedited", expedited, NULL, 0);
	if (faults_mode)
		set_knob(TRACEFS "options/record-cmd", record_cmd, NULL, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	cur_case = NULL;
	for (i = 0; i < n_fds; i++)
		close(fds[i].fd);
	if (rmdir(TRACEFS "instances/hdrive"))
		report("rmdir instances/hdrive: %s", strerror(errno));
	kmsg_reports();
	if (faults_mode)
		printf("faults: %lu commands, %lu injected failures, %lu reports (%lu runs failed, %lu went on through a fallback, %ld s)\n",
		       count.cases, count.injected, count.reports,
		       count.failed_runs, count.fallback_runs,
		       (long)(t1.tv_sec - t0.tv_sec));
	else
		printf("hist drive: seed %s: %lu cases, %lu triggers made, %lu of them hit and read, %lu removed, %lu paused, continued and cleared, %lu events fired, %lu reads, %lu commands (%lu refused as the case says), %lu reports, %ld s\n",
		       argv[4], count.cases, count.made, count.hit_read, count.removed,
		       count.paused, count.events, count.reads, count.commands,
		       count.refused, count.reports, (long)(t1.tv_sec - t0.tv_sec));
	return count.reports ? 1 : 0;
}
