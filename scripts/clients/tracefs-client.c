// SPDX-License-Identifier: GPL-2.0
/*
 * Test client:libtracefs, run in the guest by scripts/clients/libtracefs.sh:
 * libtracefs, the library trace-cmd and rtla drive tracefs with, builds
 * hist triggers and synthetic events through its own API, and what the
 * kernel then holds and shows must be what was asked for.
 *
 *  - tracefs_hist_alloc() and _add_key(), _add_value(), _append_filter():
 *    a hist on sched_process_exit keyed by comm and prio, summing pid;
 *    tracefs_hist_start() must leave the trigger in the event's trigger
 *    file, and children of known names and pids, forked here, must give
 *    exactly their rows, hit counts and pid sums in the hist file;
 *    tracefs_hist_pause() must show it paused and stop the counting,
 *    tracefs_hist_continue() start it again, tracefs_hist_destroy()
 *    remove it.
 *  - tracefs_synth_alloc() with _add_compare_field(), _add_start_field(),
 *    _add_end_field() and a start filter, then tracefs_synth_create(): a
 *    wakeup latency event from sched_waking to sched_switch. It must be
 *    listed in synthetic_events, its two triggers must be in place, and
 *    it must fire for the wakeups of a child that sleeps a known number
 *    of times (counted by a hist of libtracefs on the synthetic event);
 *    tracefs_synth_destroy() must remove it all.
 *  - tracefs_sql(): the same kind of event from an SQL statement, with
 *    the same checks.
 *
 * Exits 0 if everything holds, 1 after saying what differs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#ifndef CLIENT_VERSIONS
#define CLIENT_VERSIONS "libtracefs and libtraceevent of unknown versions"
#endif

#define CHILD_PREFIX	"tfsc-"
#define SLEEPS		8

static int failures;

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("FAIL: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	failures++;
}

static void pass(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("ok: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
}

/* A child named @name that sleeps @sleeps times for 2 ms, then exits. */
static pid_t spawn(const char *name, int sleeps)
{
	struct timespec ts = { .tv_nsec = 2 * 1000 * 1000 };
	pid_t pid;
	int i;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fail("fork: %s", strerror(errno));
		return -1;
	}
	if (pid)
		return pid;
	prctl(PR_SET_NAME, name, 0, 0, 0);
	for (i = 0; i < sleeps; i++)
		nanosleep(&ts, NULL);
	_exit(0);
}

static void reap(pid_t pid)
{
	int status;

	if (pid > 0 && (waitpid(pid, &status, 0) != pid ||
			!WIFEXITED(status) || WEXITSTATUS(status)))
		fail("child %d did not exit cleanly", pid);
}

static char *event_file(const char *system, const char *event,
			const char *file)
{
	char *text = tracefs_event_file_read(NULL, system, event, file, NULL);

	if (!text) {
		fail("cannot read events/%s/%s/%s", system, event, file);
		return strdup("");
	}
	return text;
}

/*
 * The hist triggers of an event: the lines of its trigger file that
 * start with "hist:", one a line, at most @n of them into @lines.
 */
static int hist_triggers(const char *system, const char *event,
			 char lines[][1024], int n)
{
	char *text = event_file(system, event, "trigger");
	char *line, *save = NULL;
	int found = 0;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "hist:", 5))
			continue;
		if (found < n)
			snprintf(lines[found], sizeof(lines[found]), "%s", line);
		found++;
	}
	free(text);
	return found;
}

/* The trigger file of @event holds exactly the hist trigger @want. */
static void expect_trigger(const char *system, const char *event,
			   const char *want)
{
	char lines[4][1024];
	int n = hist_triggers(system, event, lines, 4);

	if (!want) {
		if (n)
			fail("%s/%s still has a hist trigger: %s", system,
			     event, lines[0]);
		else
			pass("%s/%s has no hist trigger", system, event);
		return;
	}
	if (n != 1)
		fail("%s/%s has %d hist triggers, not 1", system, event, n);
	else if (strcmp(lines[0], want))
		fail("%s/%s trigger:\n  expected: %s\n  got:      %s", system,
		     event, want, lines[0]);
	else
		pass("%s/%s trigger: %s", system, event, lines[0]);
}

struct row {
	char key[64];
	unsigned long long hits;
	unsigned long long sum;
};

/*
 * The rows of a hist file, "{ KEY } hitcount: N [ VAL: N ]", with the
 * blanks of the key squeezed out; returns how many, at most @n.
 */
static int hist_rows(const char *system, const char *event, struct row *rows,
		     int n, unsigned long long *total)
{
	char *text = event_file(system, event, "hist");
	char *line, *save = NULL, *end, *p;
	int found = 0;

	*total = 0;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, " Hits: %llu", total) == 1)
			continue;
		if (line[0] != '{' || found == n)
			continue;
		end = strchr(line, '}');
		if (!end)
			continue;
		memset(&rows[found], 0, sizeof(rows[found]));
		for (p = line + 1; p < end; p++)
			if (*p != ' ' &&
			    strlen(rows[found].key) < sizeof(rows[found].key) - 1)
				strncat(rows[found].key, p, 1);
		p = strstr(end, "hitcount:");
		if (p)
			rows[found].hits = strtoull(p + 9, &p, 10);
		if (p && strchr(p, ':'))
			rows[found].sum = strtoull(strchr(p, ':') + 1, NULL, 10);
		found++;
	}
	free(text);
	return found;
}

static const struct row *find_row(const struct row *rows, int n,
				  const char *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(rows[i].key, key))
			return &rows[i];
	return NULL;
}

/* The hist of sched_process_exit: rows @a and @b, with their pid sums. */
static void expect_exits(unsigned long long a_hits, unsigned long long a_sum,
			 unsigned long long b_hits, unsigned long long b_sum,
			 const char *when)
{
	const char *a = "comm:" CHILD_PREFIX "a,prio:120";
	const char *b = "comm:" CHILD_PREFIX "b,prio:120";
	unsigned long long total;
	const struct row *r;
	struct row rows[16];
	int n, bad = failures;

	n = hist_rows("sched", "sched_process_exit", rows, 16, &total);
	if (n != 2)
		fail("%s: the hist has %d rows, not 2", when, n);
	r = find_row(rows, n, a);
	if (!r || r->hits != a_hits || r->sum != a_sum)
		fail("%s: row { %s }: expected hitcount %llu, pid sum %llu; got %llu, %llu",
		     when, a, a_hits, a_sum, r ? r->hits : 0, r ? r->sum : 0);
	r = find_row(rows, n, b);
	if (!r || r->hits != b_hits || r->sum != b_sum)
		fail("%s: row { %s }: expected hitcount %llu, pid sum %llu; got %llu, %llu",
		     when, b, b_hits, b_sum, r ? r->hits : 0, r ? r->sum : 0);
	if (total != a_hits + b_hits)
		fail("%s: Hits: %llu, expected %llu", when, total,
		     a_hits + b_hits);
	if (bad == failures)
		pass("%s: %s: %llu hits, pids summed to %llu; %s: %llu, %llu",
		     when, a, a_hits, a_sum, b, b_hits, b_sum);
}

static void test_hist(struct tep_handle *tep)
{
	/* as the kernel shows it; libtracefs writes the filter without blanks */
	const char *trig = "hist:keys=comm,prio:vals=hitcount,pid:sort=hitcount:size=2048";
	const char *filter = "comm~\"" CHILD_PREFIX "[ab]\"";
	unsigned long long a_sum = 0, b_sum = 0;
	struct tracefs_hist *hist;
	char want[1024];
	pid_t pid;
	int i;

	hist = tracefs_hist_alloc(tep, "sched", "sched_process_exit", "comm",
				  TRACEFS_HIST_KEY_NORMAL);
	if (!hist) {
		fail("tracefs_hist_alloc: %s", strerror(errno));
		return;
	}
	if (tracefs_hist_add_key(hist, "prio", TRACEFS_HIST_KEY_NORMAL) ||
	    tracefs_hist_add_value(hist, "pid") ||
	    tracefs_hist_append_filter(hist, TRACEFS_FILTER_COMPARE, "comm",
				       TRACEFS_COMPARE_RE,
				       "\"" CHILD_PREFIX "[ab]\"")) {
		fail("building the hist: %s", strerror(errno));
		goto out;
	}
	if (tracefs_hist_start(NULL, hist)) {
		fail("tracefs_hist_start: %s", strerror(errno));
		goto out;
	}
	snprintf(want, sizeof(want), "%s if %s [active]", trig, filter);
	expect_trigger("sched", "sched_process_exit", want);

	/* 3 of a, 2 of b, and one the filter leaves out */
	for (i = 0; i < 6; i++) {
		const char *name = i < 3 ? CHILD_PREFIX "a" :
				   i < 5 ? CHILD_PREFIX "b" : CHILD_PREFIX "c";

		pid = spawn(name, 0);
		reap(pid);
		if (i < 3)
			a_sum += pid;
		else if (i < 5)
			b_sum += pid;
	}
	expect_exits(3, a_sum, 2, b_sum, "started");

	if (tracefs_hist_pause(NULL, hist))
		fail("tracefs_hist_pause: %s", strerror(errno));
	snprintf(want, sizeof(want), "%s if %s [paused]", trig, filter);
	expect_trigger("sched", "sched_process_exit", want);
	reap(spawn(CHILD_PREFIX "a", 0));
	expect_exits(3, a_sum, 2, b_sum, "paused");

	if (tracefs_hist_continue(NULL, hist))
		fail("tracefs_hist_continue: %s", strerror(errno));
	snprintf(want, sizeof(want), "%s if %s [active]", trig, filter);
	expect_trigger("sched", "sched_process_exit", want);
	pid = spawn(CHILD_PREFIX "b", 0);
	reap(pid);
	expect_exits(3, a_sum, 3, b_sum + pid, "continued");

	if (tracefs_hist_destroy(NULL, hist))
		fail("tracefs_hist_destroy: %s", strerror(errno));
	expect_trigger("sched", "sched_process_exit", NULL);
out:
	tracefs_hist_free(hist);
}

/* synthetic_events holds exactly the line @want for the event @name. */
static void expect_synth_line(const char *name, const char *want)
{
	char *text = tracefs_instance_file_read(NULL, "synthetic_events", NULL);
	char *line, *save = NULL;
	size_t len = strlen(name);
	bool found = false;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, name, len) || (line[len] != '\t' && line[len]))
			continue;
		found = true;
		if (!want)
			fail("synthetic_events still lists %s: %s", name, line);
		else if (strcmp(line, want))
			fail("synthetic_events:\n  expected: %s\n  got:      %s",
			     want, line);
		else
			pass("synthetic_events: %s", line);
	}
	if (!found && want)
		fail("synthetic_events does not list %s", name);
	else if (!found)
		pass("synthetic_events does not list %s", name);
	free(text);
}

/*
 * The synthetic event of @synth fires once per wakeup of a child that
 * sleeps SLEEPS times: a hist of libtracefs on the event, keyed by
 * @pid_field, must show the child with at least SLEEPS hits (its first
 * run, after the fork, may be one more).
 */
static void expect_fires(struct tep_handle *tep, struct tracefs_synth *synth,
			 const char *child, const char *pid_field)
{
	const char *name = tracefs_synth_get_name(synth);
	unsigned long long total;
	struct tracefs_hist *hist;
	struct row rows[16];
	const struct row *r;
	char key[64];
	pid_t pid;
	int n;

	if (!tracefs_synth_get_event(tep, synth)) {
		fail("tracefs_synth_get_event(%s): %s", name, strerror(errno));
		return;
	}
	hist = tracefs_hist_alloc(tep, "synthetic", name, pid_field,
				  TRACEFS_HIST_KEY_NORMAL);
	if (!hist || tracefs_hist_start(NULL, hist)) {
		fail("a hist on synthetic/%s: %s", name, strerror(errno));
		tracefs_hist_free(hist);
		return;
	}
	pid = spawn(child, SLEEPS);
	reap(pid);
	n = hist_rows("synthetic", name, rows, 16, &total);
	snprintf(key, sizeof(key), "%s:%d", pid_field, pid);
	r = find_row(rows, n, key);
	if (!r || r->hits < SLEEPS || r->hits > SLEEPS + 2)
		fail("synthetic/%s fired %llu times for %s (pid %d), which slept %d times",
		     name, r ? r->hits : 0, child, pid, SLEEPS);
	else if (n != 1)
		fail("synthetic/%s fired for %d tasks, not only %s", name, n,
		     child);
	else
		pass("synthetic/%s fired %llu times for %s, which slept %d times",
		     name, r->hits, child, SLEEPS);
	if (tracefs_hist_destroy(NULL, hist))
		fail("tracefs_hist_destroy on synthetic/%s: %s", name,
		     strerror(errno));
	tracefs_hist_free(hist);
}

/*
 * The trigger file of @event holds one hist trigger, active, made of what
 * libtracefs wrote, @cmd: "hist:A:B:C if FILTER", which the kernel shows
 * with its defaults added ("vals=hitcount", "sort=", "size=", "clock=").
 * The names of libtracefs's variables hold a random number, so @cmd
 * comes from libtracefs; each of its parts must be one of the kernel's,
 * and the filters must be the same.
 */
static void expect_trigger_of(const char *system, const char *event,
			      const char *cmd)
{
	char lines[4][1024], want[1024], got[1024];
	char *wfilter, *gfilter, *part, *save = NULL;
	int n = hist_triggers(system, event, lines, 4);
	int bad = failures;
	size_t len;

	if (n != 1) {
		fail("%s/%s has %d hist triggers, not 1", system, event, n);
		return;
	}
	snprintf(want, sizeof(want), "%s", cmd);
	snprintf(got, sizeof(got), "%s", lines[0]);
	len = strlen(got);
	if (len < 9 || strcmp(got + len - 9, " [active]")) {
		fail("%s/%s: the trigger is not active: %s", system, event,
		     lines[0]);
		return;
	}
	got[len - 9] = '\0';
	wfilter = strstr(want, " if ");
	gfilter = strstr(got, " if ");
	if (!wfilter != !gfilter ||
	    (wfilter && strcmp(wfilter, gfilter)))
		fail("%s/%s: the filter of libtracefs's %s\n  is not the kernel's %s",
		     system, event, cmd, lines[0]);
	if (wfilter)
		*wfilter = '\0';
	if (gfilter)
		*gfilter = '\0';
	/* ":PART:" in ":GOT:" for each PART of WANT */
	len = strlen(got);
	memmove(got + 1, got, len + 1);
	got[0] = ':';
	strcat(got, ":");
	for (part = strtok_r(want, ":", &save); part;
	     part = strtok_r(NULL, ":", &save)) {
		char needle[512];

		snprintf(needle, sizeof(needle), ":%s:", part);
		if (!strstr(got, needle))
			fail("%s/%s: \"%s\" of libtracefs's %s\n  is not in the kernel's %s",
			     system, event, part, cmd, lines[0]);
	}
	if (bad == failures)
		pass("%s/%s trigger: %s", system, event, lines[0]);
}

/* Create @synth, check it is in place and fires, destroy it. */
static void synth_cycle(struct tep_handle *tep, struct tracefs_synth *synth,
			const char *line, const char *child,
			const char *pid_field)
{
	const char *name = tracefs_synth_get_name(synth);

	if (tracefs_synth_create(synth)) {
		fail("tracefs_synth_create(%s): %s", name, strerror(errno));
		printf("  %s\n  %s\n  %s\n", tracefs_synth_show_event(synth),
		       tracefs_synth_show_start_hist(synth),
		       tracefs_synth_show_end_hist(synth));
		return;
	}
	expect_synth_line(name, line);
	expect_trigger_of("sched", "sched_waking",
			  tracefs_synth_show_start_hist(synth));
	expect_trigger_of("sched", "sched_switch",
			  tracefs_synth_show_end_hist(synth));
	expect_fires(tep, synth, child, pid_field);
	if (tracefs_synth_destroy(synth))
		fail("tracefs_synth_destroy(%s): %s", name, strerror(errno));
	expect_synth_line(name, NULL);
	expect_trigger("sched", "sched_waking", NULL);
	expect_trigger("sched", "sched_switch", NULL);
}

static void test_synth(struct tep_handle *tep)
{
	struct tracefs_synth *synth;

	synth = tracefs_synth_alloc(tep, "tfs_wakeup", "sched", "sched_waking",
				    "sched", "sched_switch", "pid", "next_pid",
				    "pid");
	if (!synth) {
		fail("tracefs_synth_alloc: %s", strerror(errno));
		return;
	}
	if (tracefs_synth_add_compare_field(synth, TRACEFS_TIMESTAMP_USECS,
					    TRACEFS_TIMESTAMP_USECS,
					    TRACEFS_SYNTH_DELTA_END, "delta") ||
	    tracefs_synth_add_start_field(synth, "target_cpu", "cpu") ||
	    tracefs_synth_add_end_field(synth, "next_prio", "prio") ||
	    tracefs_synth_append_start_filter(synth, TRACEFS_FILTER_COMPARE,
					      "comm", TRACEFS_COMPARE_EQ,
					      "\"" CHILD_PREFIX "sleeper\"")) {
		fail("building tfs_wakeup: %s", strerror(errno));
		goto out;
	}
	synth_cycle(tep, synth,
		    "tfs_wakeup\tpid_t pid; u64 delta; s32 cpu; s32 prio",
		    CHILD_PREFIX "sleeper", "pid");
out:
	tracefs_synth_free(synth);
}

static void test_sql(struct tep_handle *tep)
{
	struct tracefs_synth *synth;
	char *err = NULL;
	char sql[512];

	snprintf(sql, sizeof(sql), "SELECT %s FROM %s JOIN %s ON %s WHERE %s",
		 "start.pid AS pid, end.next_prio AS prio, (end.TIMESTAMP_USECS - start.TIMESTAMP_USECS) AS lat",
		 "sched_waking AS start", "sched_switch AS end",
		 "start.pid = end.next_pid",
		 "start.comm == \"" CHILD_PREFIX "sql\"");
	printf("SQL: %s\n", sql);
	synth = tracefs_sql(tep, "tfs_sql", sql, &err);
	if (!synth) {
		fail("tracefs_sql: %s", err ? err : strerror(errno));
		free(err);
		return;
	}
	synth_cycle(tep, synth, "tfs_sql\tpid_t pid; s32 prio; u64 lat",
		    CHILD_PREFIX "sql", "pid");
	tracefs_synth_free(synth);
}

int main(void)
{
	const char * const systems[] = { "sched", NULL };
	struct tep_handle *tep;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("client: %s\n", CLIENT_VERSIONS);
	tep = tracefs_local_events_system(NULL, systems);
	if (!tep) {
		printf("FAIL: tracefs_local_events_system: %s\n",
		       strerror(errno));
		return 1;
	}
	test_hist(tep);
	test_synth(tep);
	test_sql(tep);
	tep_free(tep);
	if (failures) {
		printf("client:libtracefs: %d failed\n", failures);
		return 1;
	}
	printf("client:libtracefs: ok\n");
	return 0;
}
