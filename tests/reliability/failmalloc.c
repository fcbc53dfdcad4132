/* failmalloc.c: an LD_PRELOAD shim that makes one allocation fail.
 *
 *   FAILMALLOC_NTH=N       the Nth call (from 1) of malloc, calloc, realloc,
 *                          posix_memalign or aligned_alloc returns NULL
 *                          (ENOMEM); 0 or unset: none fails
 *   FAILMALLOC_AFTER=1     and every call after the Nth fails too
 *   FAILMALLOC_REPORT=PATH at exit, write the number of calls counted,
 *                          whether one was failed, and how many calls came
 *                          before the shim read its environment (those are
 *                          never failed): "CALLS FAILED FIRST\n"
 *
 * Calls are counted in every thread (atomically), so with several threads
 * the Nth is not always the same call; tests/reliability/failmalloc.sh
 * runs sbledger with --threads 1 where that matters.  Built by the
 * Makefile as build/reliability/failmalloc.so; with an ASan build, load it
 * before the ASan runtime with ASAN_OPTIONS=verify_asan_link_order=0, so
 * that ASan still checks every allocation that succeeds and reports leaks
 * at exit.  Only the allocation functions are wrapped; free is left to
 * the library underneath.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);

static atomic_long calls;       /* allocation calls so far */
static long calls_at_setup;     /* calls before the environment was read */
static atomic_int failed;       /* one call was failed */
static long nth;                /* the call to fail, 0 for none */
static int after;               /* fail every call after it too */

/* dlsym may allocate (calloc) before real_calloc is known: serve those
 * few bytes from here. */
static char boot[4096];
static size_t boot_used;
static int resolving;

/* Resolve the real functions, once. */
static void init(void)
{
	if (real_malloc != NULL || resolving)
		return;
	resolving = 1;
	real_malloc = dlsym(RTLD_NEXT, "malloc");
	real_calloc = dlsym(RTLD_NEXT, "calloc");
	real_realloc = dlsym(RTLD_NEXT, "realloc");
	real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
	real_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
	resolving = 0;
}

/* Read the environment once it is there (allocations before this, by the
 * loader and the runtimes, are counted and never failed). */
__attribute__((constructor)) static void setup(void)
{
	const char *v = getenv("FAILMALLOC_NTH");

	init();
	calls_at_setup = atomic_load(&calls);
	nth = v != NULL ? atol(v) : 0;
	v = getenv("FAILMALLOC_AFTER");
	after = v != NULL && v[0] == '1';
}

/* Count one call; true when it must fail. */
static int fail_now(void)
{
	long n = atomic_fetch_add(&calls, 1) + 1;

	if (nth > 0 && (n == nth || (after && n > nth))) {
		atomic_store(&failed, 1);
		return 1;
	}
	return 0;
}

void *malloc(size_t size)
{
	init();
	if (real_malloc == NULL)
		return NULL;
	if (fail_now()) {
		errno = ENOMEM;
		return NULL;
	}
	return real_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	init();
	if (real_calloc == NULL) {
		/* dlsym's own allocation, while resolving */
		size_t want = (n * size + 15) & ~(size_t)15;
		void *p;
		if (want > sizeof boot - boot_used)
			return NULL;
		p = boot + boot_used;
		boot_used += want;
		return p;   /* zeroed: boot is static */
	}
	if (fail_now()) {
		errno = ENOMEM;
		return NULL;
	}
	return real_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	init();
	if (real_realloc == NULL)
		return NULL;
	if (fail_now()) {
		errno = ENOMEM;
		return NULL;
	}
	return real_realloc(p, size);
}

int posix_memalign(void **out, size_t align, size_t size)
{
	init();
	if (real_posix_memalign == NULL)
		return ENOMEM;
	if (fail_now())
		return ENOMEM;
	return real_posix_memalign(out, align, size);
}

void *aligned_alloc(size_t align, size_t size)
{
	init();
	if (real_aligned_alloc == NULL)
		return NULL;
	if (fail_now()) {
		errno = ENOMEM;
		return NULL;
	}
	return real_aligned_alloc(align, size);
}

/* Write the report at exit. */
__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("FAILMALLOC_REPORT");
	FILE *f;

	if (path == NULL || (f = fopen(path, "w")) == NULL)
		return;
	fprintf(f, "%ld %d %ld\n", atomic_load(&calls), atomic_load(&failed), calls_at_setup);
	fclose(f);
}
