// SPDX-License-Identifier: GPL-2.0
/*
 * make bench-hist: filling and reading a big histogram.
 *
 *   hist-bigread fill N      lseek(2) on a temporary file to the offsets
 *                            0 to N - 1, one call each: N keys for a
 *                            hist keyed by sys_enter_lseek's offset
 *   hist-bigread read FILE   read FILE to its end in 128 KiB read()s, as
 *                            cat does, and print the nanoseconds it took
 *                            (CLOCK_MONOTONIC: instructions under QEMU's
 *                            -icount shift=0) and the bytes read
 *
 * Built static (gcc -O2 -static), as getppid-loop is.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts)) {
		perror("clock_gettime");
		exit(1);
	}
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int fill(long n)
{
	FILE *f = tmpfile();	/* /dev/null would not say where it is */
	int fd = f ? fileno(f) : -1;
	long i;

	if (fd < 0) {
		perror("tmpfile");
		return 1;
	}
	for (i = 0; i < n; i++)
		if (lseek(fd, i, SEEK_SET) != i) {
			perror("lseek");
			return 1;
		}
	fclose(f);
	return 0;
}

static int read_all(const char *path)
{
	static char buf[128 * 1024];
	long long t0, t1, bytes = 0;
	ssize_t r;
	int fd;

	t0 = now_ns();
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		bytes += r;
	close(fd);
	t1 = now_ns();
	if (r < 0) {
		perror(path);
		return 1;
	}
	printf("%lld %lld\n", t1 - t0, bytes);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "fill"))
		return fill(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "read"))
		return read_all(argv[2]);
	fprintf(stderr, "usage: %s fill N | read FILE\n", argv[0]);
	return 2;
}
