// SPDX-License-Identifier: GPL-2.0
/*
 * Runtime part of the kernel API shim: allocation and per-CPU areas.
 */
#include <linux/types.h>

__thread int shim_cpu;

void shim_set_cpu(int cpu)
{
	if (cpu < 0 || cpu >= SHIM_MAX_CPUS) {
		fprintf(stderr, "shim: cpu %d out of range\n", cpu);
		abort();
	}
	shim_cpu = cpu;
}

/* Cache-line aligned, like the page and slab memory the kernel uses. */
void *shim_alloc(size_t size, bool zero)
{
	void *p;

	if (posix_memalign(&p, SMP_CACHE_BYTES, size ? size : 1))
		return NULL;
	if (zero)
		memset(p, 0, size);
	return p;
}

void shim_free(void *p)
{
	free(p);
}

void *shim_alloc_percpu(size_t size)
{
	size_t stride = ALIGN(size, (size_t)SMP_CACHE_BYTES);
	char *base = shim_alloc(SMP_CACHE_BYTES + SHIM_MAX_CPUS * stride, true);

	if (!base)
		return NULL;
	base += SMP_CACHE_BYTES;
	((size_t *)base)[-1] = stride;
	return base;
}

void shim_free_percpu(void *p)
{
	if (p)
		shim_free((char *)p - SMP_CACHE_BYTES);
}
