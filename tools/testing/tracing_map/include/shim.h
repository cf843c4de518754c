/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel API for kernel/trace/tracing_map.c (ours, and
 * upstream's for the benchmark) to build and run unchanged in userspace.
 *
 * Model: every thread is a CPU.  A thread says which CPU it is with
 * shim_set_cpu(); no two running threads may claim the same CPU.  A
 * signal handler runs on the interrupted thread, hence on the same CPU,
 * which is how the tests stand in for NMIs.  Atomics map to the __atomic
 * builtins, so ThreadSanitizer understands them.
 */
#ifndef _TRACING_MAP_SHIM_H
#define _TRACING_MAP_SHIM_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef u32 __u32;

/* As in the kernel's <linux/types.h> outside sparse: a plain unsigned int. */
#define __bitwise
typedef unsigned int __bitwise gfp_t;

typedef int (*cmp_func_t)(const void *a, const void *b);
typedef int (*cmp_r_func_t)(const void *a, const void *b, const void *priv);
typedef void (*swap_func_t)(void *a, void *b, int size);
typedef void (*swap_r_func_t)(void *a, void *b, int size, const void *priv);

#define GFP_KERNEL		0u
#define GFP_KERNEL_ACCOUNT	0u
#define PAGE_SIZE		4096UL
#define SMP_CACHE_BYTES		64
#define L1_CACHE_BYTES		64
#define SHIM_MAX_CPUS		16	/* shim_set_cpu() takes 0 .. 15 */
#define BITS_PER_LONG		(8 * (int)sizeof(long))
#define U32_MAX			((u32)~0U)
#define GOLDEN_RATIO_64		0x61C8864680B583EBull

/*
 * Attributes under the kernel's names (compiler_attributes.h), all spelt
 * through __shim_attr().  __always_inline is glibc's, from <sys/cdefs.h>
 * (included above): plain inline plus the always_inline attribute, which
 * is the kernel's definition too.
 */
#ifndef __always_inline
#error "shim.h needs __always_inline from glibc's <sys/cdefs.h>"
#endif
#undef __attribute_const__
#define __shim_attr(attr)	__attribute__((attr))
#define __percpu
#define __packed		__shim_attr(__packed__)
#define __aligned(x)		__shim_attr(__aligned__(x))
#define __attribute_const__	__shim_attr(__const__)
#define noinline		__shim_attr(__noinline__)
#define fallthrough		__shim_attr(__fallthrough__)
#define ____cacheline_aligned_in_smp __aligned(SMP_CACHE_BYTES)
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
/* Nothing to export in userspace: a dummy declaration eats the ';'. */
#define EXPORT_SYMBOL(sym)	extern int __shim_exported_##sym
#define cond_resched()		do { } while (0)

#define ALIGN(x, a) ({							\
	__typeof__(a) __align_a = (a);					\
	((x) + __align_a - 1) & ~((__typeof__(x))__align_a - 1);	\
})
#define min(a, b) ({							\
	__typeof__(a) __min_a = (a);					\
	__typeof__(b) __min_b = (b);					\
	__min_a < __min_b ? __min_a : __min_b;				\
})
#define max(a, b) ({							\
	__typeof__(a) __max_a = (a);					\
	__typeof__(b) __max_b = (b);					\
	__max_a > __max_b ? __max_a : __max_b;				\
})
#define ARRAY_SIZE(arr)		(sizeof(arr) / sizeof((arr)[0]))
#define BIT_ULL(n)		(1ULL << (n))
#define BITS_TO_LONGS(n)	(((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define array_size(a, b)	((size_t)(a) * (size_t)(b))

/* Compiler barrier: no memory access moves across it. */
static __always_inline void barrier(void)
{
	__asm__ __volatile__("" ::: "memory");
}

#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
/* Orders earlier stores before later ones: a release fence. */
#define smp_wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)
/* Every shim RMW below is SEQ_CST already, as on x86. */
#define smp_mb__before_atomic()	barrier()
#define cmpxchg(p, o, n) ({						\
	__typeof__(p) __cmpxchg_p = (p);				\
	__typeof__(*__cmpxchg_p) __cmpxchg_old = (o);			\
	__atomic_compare_exchange_n(__cmpxchg_p, &__cmpxchg_old, (n),	\
				    false, __ATOMIC_SEQ_CST,		\
				    __ATOMIC_SEQ_CST);			\
	__cmpxchg_old;							\
})
#define xchg(p, n)		__atomic_exchange_n((p), (n), __ATOMIC_SEQ_CST)

/* Hit paths are preempt-off by construction here: a thread is a CPU. */
#define lockdep_assert_preemption_disabled() do { } while (0)

#define WARN_ONCE(cond, ...) ({						\
	static bool __warned;						\
	bool __c = !!(cond);						\
	if (__c && !__warned) {						\
		__warned = true;					\
		fprintf(stderr, "WARNING: " __VA_ARGS__);		\
	}								\
	__c;								\
})

/* errors */
#define MAX_ERRNO	4095
static inline void *ERR_PTR(long err) { return (void *)err; }
static inline long PTR_ERR(const void *p) { return (long)p; }
static inline bool IS_ERR(const void *p)
{
	return (unsigned long)p >= (unsigned long)-MAX_ERRNO;
}

static inline bool IS_ERR_OR_NULL(const void *p) { return !p || IS_ERR(p); }

/* atomics */
typedef struct { int counter; } atomic_t;
typedef struct { s64 counter; } atomic64_t;

#define __RLX __ATOMIC_RELAXED
#define __SC __ATOMIC_SEQ_CST
static inline int atomic_read(const atomic_t *v)
{
	return __atomic_load_n(&v->counter, __RLX);
}

static inline void atomic_set(atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __RLX);
}

static inline int atomic_inc_return(atomic_t *v)
{
	return __atomic_add_fetch(&v->counter, 1, __SC);
}

static inline void atomic_inc(atomic_t *v)
{
	__atomic_fetch_add(&v->counter, 1, __SC);
}

static inline void atomic_dec(atomic_t *v)
{
	__atomic_fetch_sub(&v->counter, 1, __SC);
}

static inline int atomic_xchg(atomic_t *v, int i)
{
	return __atomic_exchange_n(&v->counter, i, __SC);
}

static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	__atomic_compare_exchange_n(&v->counter, &old, new, false, __SC, __SC);
	return old;
}

static inline int atomic_fetch_add_unless(atomic_t *v, int a, int u)
{
	int c = atomic_read(v);

	do {
		if (c == u)
			break;
	} while (!__atomic_compare_exchange_n(&v->counter, &c, c + a, false,
					      __SC, __RLX));
	return c;
}

static inline s64 atomic64_read(const atomic64_t *v)
{
	return __atomic_load_n(&v->counter, __RLX);
}

static inline s64 atomic64_read_acquire(const atomic64_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE);
}

static inline void atomic64_set(atomic64_t *v, s64 i)
{
	__atomic_store_n(&v->counter, i, __RLX);
}

static inline void atomic64_add(s64 i, atomic64_t *v)
{
	__atomic_fetch_add(&v->counter, i, __SC);
}

static inline void atomic64_inc(atomic64_t *v) { atomic64_add(1, v); }

static inline s64 atomic64_cmpxchg(atomic64_t *v, s64 old, s64 new)
{
	__atomic_compare_exchange_n(&v->counter, &old, new, false, __SC, __SC);
	return old;
}

/*
 * local64_t: only its own CPU writes it, so one non-locked instruction
 * (immune to signals, like the kernel's to NMIs) is enough on x86.
 */
typedef struct { s64 counter; } local64_t;

static inline s64 local64_read(const local64_t *l)
{
	return __atomic_load_n(&l->counter, __RLX);
}

static inline void local64_set(local64_t *l, s64 i)
{
	__atomic_store_n(&l->counter, i, __RLX);
}

static inline void local64_inc(local64_t *l)
{
#if defined(__x86_64__)
	__asm__ __volatile__("incq %0" : "+m" (l->counter));
#else
	__atomic_fetch_add(&l->counter, 1, __RLX);
#endif
}

/* bits */
static inline void set_bit(unsigned int nr, unsigned long *addr)
{
	__atomic_fetch_or(&addr[nr / BITS_PER_LONG],
			  1UL << (nr % BITS_PER_LONG), __SC);
}

static inline void __set_bit(unsigned int nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] |= 1UL << (nr % BITS_PER_LONG);
}

static inline bool test_bit(unsigned int nr, const unsigned long *addr)
{
	return (__atomic_load_n(&addr[nr / BITS_PER_LONG], __RLX) >>
		(nr % BITS_PER_LONG)) & 1;
}

static inline bool test_and_clear_bit(unsigned int nr, unsigned long *addr)
{
	unsigned long mask = 1UL << (nr % BITS_PER_LONG);

	return __atomic_fetch_and(&addr[nr / BITS_PER_LONG], ~mask, __SC) &
	       mask;
}

static inline unsigned long find_next_bit(const unsigned long *addr,
					  unsigned long size,
					  unsigned long bit)
{
	for (; bit < size; bit++)
		if ((addr[bit / BITS_PER_LONG] >> (bit % BITS_PER_LONG)) & 1)
			return bit;
	return size;
}

/* for_each_set_bit() state: addr and size are evaluated once. */
struct shim_bit_iter {
	const unsigned long	*addr;
	unsigned long		end;
	unsigned long		next;
};

static inline unsigned long shim_bit_iter_next(struct shim_bit_iter *it)
{
	unsigned long bit = find_next_bit(it->addr, it->end, it->next);

	it->next = bit + 1;
	return bit;
}

#define for_each_set_bit(bit, addr, size)				\
	for (struct shim_bit_iter __bit_iter = { (addr), (size), 0 };	\
	     ((bit) = shim_bit_iter_next(&__bit_iter)) < __bit_iter.end;)

static inline u32 rol32(u32 word, unsigned int shift)
{
	return (word << (shift & 31)) | (word >> ((-shift) & 31));
}

static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n < 2 ? 1 : 1UL << (64 - __builtin_clzl(n - 1));
}

/* unaligned access */
#define get_unaligned(p) ({						\
	__typeof__(p) __gu_p = (p);					\
	((const struct { __typeof__(*__gu_p) x; } __packed *)__gu_p)->x; \
})

static inline u32 __get_unaligned_cpu32(const void *p)
{
	return get_unaligned((const u32 *)p);
}

/* memory */
void *shim_alloc(size_t size, bool zero);
void shim_free(void *p);

static inline void *kzalloc(size_t size, gfp_t flags)
{
	return shim_alloc(size, true);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	return shim_alloc(array_size(n, size), true);
}

static inline void kfree(const void *p)
{
	shim_free((void *)p);
}

static inline void *kvcalloc(size_t n, size_t size, gfp_t flags)
{
	return shim_alloc(array_size(n, size), true);
}

static inline void *kvmalloc_array(size_t n, size_t size, gfp_t flags)
{
	return shim_alloc(array_size(n, size), false);
}

static inline void kvfree(const void *p)
{
	shim_free((void *)p);
}

static inline void *vmalloc(unsigned long size)
{
	return shim_alloc(size, false);
}

static inline void vfree(const void *p)
{
	shim_free((void *)p);
}

static inline unsigned long get_zeroed_page(gfp_t gfp_mask)
{
	return (unsigned long)shim_alloc(PAGE_SIZE, true);
}

static inline void free_page(unsigned long addr)
{
	shim_free((void *)addr);
}

/* No leak detector here: kmemleak hints are dropped. */
static inline void kmemleak_alloc(const void *ptr, size_t size, int min_count,
				  gfp_t gfp)
{
}

static inline void kmemleak_free(const void *ptr)
{
}

/* per-CPU data: one copy per CPU, each on its own cache lines */
extern __thread int shim_cpu;
void shim_set_cpu(int cpu);
void *shim_alloc_percpu(size_t size);
void shim_free_percpu(void *p);

/* The stride between CPU copies is stored just below the first copy. */
static inline size_t shim_percpu_stride(const void *p)
{
	return ((const size_t *)p)[-1];
}

static inline void *shim_per_cpu_ptr(const void *p, int cpu)
{
	return (char *)p + (size_t)cpu * shim_percpu_stride(p);
}

#define alloc_percpu(type)						\
	((type *)shim_alloc_percpu(sizeof(type)))
#define free_percpu(p)		shim_free_percpu(p)
#define per_cpu_ptr(p, cpu)	((__typeof__(p))shim_per_cpu_ptr((p), (cpu)))
#define this_cpu_ptr(p)		per_cpu_ptr(p, shim_cpu)
/* cpu ends at SHIM_MAX_CPUS, as the kernel's ends at nr_cpu_ids. */
#define for_each_possible_cpu(cpu)					\
	for (int __cpu_iter = 0; ((cpu) = __cpu_iter) < SHIM_MAX_CPUS;	\
	     __cpu_iter++)
#define num_possible_cpus()	SHIM_MAX_CPUS

/* lib/sort.c from the kernel tree is linked in */
void sort_r(void *base, size_t num, size_t size, cmp_r_func_t cmp_func,
	    swap_r_func_t swap_func, const void *priv);
void sort(void *base, size_t num, size_t size, cmp_func_t cmp_func,
	  swap_func_t swap_func);

#endif /* _TRACING_MAP_SHIM_H */
