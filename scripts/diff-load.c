// SPDX-License-Identifier: GPL-2.0
/*
 * make diff-check: the workload. Runs a list of operations in a child
 * created with a chosen PID (clone3() with set_tid), so that the same
 * step of the differential tester makes the same hits, from the same
 * pid and comm ("diff-load"), on both kernels.
 *
 *   diff-load PID MARKER OP...
 *
 * MARKER is the trace_marker file to write to (the instance's one when
 * the step runs in an instance). Each OP is one system call:
 *
 *   w:HEX        write() the bytes HEX to /dev/null
 *   f:FD:HEX     write() the bytes HEX to file descriptor FD (a bad one
 *                returns -EBADF: a negative ret)
 *   l:OFF:WHENCE lseek() a memfd of 4096 bytes (a bad WHENCE or a
 *                negative offset returns -EINVAL)
 *   m:HEX        write() the bytes HEX to MARKER
 *
 * The child runs on CPU 0 and exits with 0; diff-load exits with the
 * child's status, or 1 if it could not make it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static size_t unhex(const char *s, char *out, size_t room)
{
	size_t n = 0;
	unsigned int byte;

	while (s[0] && s[1] && n < room && sscanf(s, "%2x", &byte) == 1) {
		out[n++] = (char)byte;
		s += 2;
	}
	return n;
}

static void run_ops(const char *marker, int nops, char **ops)
{
	char buf[4096];
	int null_fd, mem_fd, marker_fd, i;
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	null_fd = open("/dev/null", O_WRONLY);
	marker_fd = open(marker, O_WRONLY);
	mem_fd = memfd_create("diff-load", 0);
	if (mem_fd >= 0 && ftruncate(mem_fd, 4096))
		_exit(3);
	for (i = 0; i < nops; i++) {
		const char *op = ops[i];
		long a, b;
		size_t n;
		char *end;

		switch (op[0]) {
		case 'w':
			n = unhex(op + 2, buf, sizeof(buf));
			if (write(null_fd, buf, n) < 0)
				_exit(4);
			break;
		case 'f':
			a = strtol(op + 2, &end, 10);
			n = unhex(*end ? end + 1 : end, buf, sizeof(buf));
			/* The result is the point: it lands in sys_exit_write. */
			if (write((int)a, buf, n) < 0 && errno != EBADF)
				_exit(5);
			break;
		case 'l':
			a = strtol(op + 2, &end, 10);
			b = *end ? strtol(end + 1, NULL, 10) : 0;
			lseek(mem_fd, a, (int)b);
			break;
		case 'm':
			n = unhex(op + 2, buf, sizeof(buf));
			if (marker_fd >= 0 && write(marker_fd, buf, n) < 0)
				_exit(6);
			break;
		default:
			_exit(7);
		}
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	struct clone_args args;
	pid_t tid, child;
	int status;

	if (argc < 3) {
		fprintf(stderr, "usage: diff-load PID MARKER OP...\n");
		return 2;
	}
	tid = (pid_t)atoi(argv[1]);
	memset(&args, 0, sizeof(args));
	args.exit_signal = SIGCHLD;
	args.set_tid = (uint64_t)(uintptr_t)&tid;
	args.set_tid_size = 1;
	/*
	 * guest-diff.py raises pid_max above PID, which the guest's own
	 * processes never reach in a run: EEXIST here is a fault to report.
	 */
	child = (pid_t)syscall(SYS_clone3, &args, sizeof(args));
	if (child < 0) {
		perror("diff-load: clone3 with set_tid");
		return 1;
	}
	if (child == 0)
		run_ops(argv[2], argc - 3, argv + 3);
	if (waitpid(child, &status, 0) != child)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
