// SPDX-License-Identifier: GPL-2.0
/*
 * make bench-hist: the workload. Calls getppid() through syscall(2) N
 * times and prints the CLOCK_MONOTONIC nanoseconds per call, to 0.1 ns.
 * Under QEMU's -icount shift=0 the guest clock advances one nanosecond per
 * instruction, so the figure is instructions per call.
 *
 *   getppid-loop [N [WARMUP]]    defaults: 200000 calls, 10000 warm-up
 *
 * Built static (gcc -O2 -static): no dynamic loader, the same code in
 * both kernels.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static long long now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts)) {
		perror("clock_gettime");
		exit(1);
	}
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void loop(long n)
{
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	long warmup = argc > 2 ? atol(argv[2]) : 10000;
	long long t0, t1;

	if (n <= 0 || warmup < 0) {
		fprintf(stderr, "usage: %s [N [WARMUP]]\n", argv[0]);
		return 2;
	}
	loop(warmup);
	t0 = now_ns();
	loop(n);
	t1 = now_ns();
	printf("%.1f\n", (double)(t1 - t0) / n);
	return 0;
}
