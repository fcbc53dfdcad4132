/* arena.c: bump allocator and jansson routing (see arena.h). */
#include "importers/arena.h"

#include <pthread.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

enum {
	ALIGN = alignof(max_align_t),
	MIN_BLOCK = 4096,
	KEEP_MAX = 4 << 20          /* largest block kept over a reset */
};

/* One block of memory; the bytes follow the header. */
typedef struct block {
	struct block *next;         /* the block filled before this one */
	size_t cap;                 /* bytes at data */
	size_t used;                /* bytes handed out */
	alignas(max_align_t) unsigned char data[]; /* the memory */
} block;

struct sb_arena {
	block *head;                /* the block being filled; older ones follow */
	size_t block_size;          /* size of a first block */
};

/* A block of cap bytes, or NULL. */
static block *block_new(size_t cap)
{
	block *b;

	if (cap > SIZE_MAX - sizeof *b)
		return NULL;
	b = malloc(sizeof *b + cap);
	if (b == NULL)
		return NULL;
	b->next = NULL;
	b->cap = cap;
	b->used = 0;
	return b;
}

sb_arena *sb_arena_new(size_t block_size)
{
	sb_arena *a = calloc(1, sizeof *a);

	if (a == NULL)
		return NULL;
	a->block_size = block_size < MIN_BLOCK ? MIN_BLOCK : block_size;
	a->head = block_new(a->block_size);
	if (a->head == NULL) {
		free(a);
		return NULL;
	}
	return a;
}

void sb_arena_free(sb_arena *a)
{
	if (a == NULL)
		return;
	while (a->head != NULL) {
		block *next = a->head->next;
		free(a->head);
		a->head = next;
	}
	free(a);
}

void *sb_arena_alloc(sb_arena *a, size_t n)
{
	block *b = a->head;
	size_t need;

	if (n > SIZE_MAX - ALIGN)
		return NULL;
	need = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (need == 0)
		need = ALIGN;
	if (b == NULL || b->cap - b->used < need) {
		size_t cap = b != NULL && b->cap < SIZE_MAX / 2 ? 2 * b->cap : a->block_size;
		block *nb;
		if (cap < need)
			cap = need;
		if ((nb = block_new(cap)) == NULL)
			return NULL;
		nb->next = b;
		a->head = b = nb;
	}
	b->used += need;
	return b->data + b->used - need;
}

char *sb_arena_strndup(sb_arena *a, const char *s, size_t len)
{
	char *copy = len < SIZE_MAX ? sb_arena_alloc(a, len + 1) : NULL;

	if (copy == NULL)
		return NULL;
	memcpy(copy, s, len);
	copy[len] = '\0';
	return copy;
}

void sb_arena_reset(sb_arena *a)
{
	size_t total = 0;
	block *b;

	if (a->head != NULL && a->head->next == NULL) {
		a->head->used = 0;
		return;
	}
	/* several blocks: free them, keep one as large as they were together
	 * (up to KEEP_MAX) so that records of this size need one block */
	while ((b = a->head) != NULL) {
		total += b->cap;
		a->head = b->next;
		free(b);
	}
	if (total > KEEP_MAX)
		total = KEEP_MAX;
	if (total < a->block_size)
		total = a->block_size;
	a->head = block_new(total);   /* NULL: the next alloc makes one */
}

bool sb_arena_owns(const sb_arena *a, const void *p)
{
	const unsigned char *q = p;

	for (const block *b = a->head; b != NULL; b = b->next)
		if (q >= b->data && q < b->data + b->cap)
			return true;
	return false;
}

/* The arena this thread's jansson allocations come from, or NULL. */
static _Thread_local sb_arena *json_arena;

/* jansson allocations that memory could not serve, on this thread. */
static _Thread_local unsigned long json_failures;

/* jansson's malloc: from the entered arena, else malloc; a failure is
 * counted (see sb_arena_json_failures). */
static void *json_alloc(size_t n)
{
	sb_arena *a = json_arena;
	void *p = a != NULL ? sb_arena_alloc(a, n) : malloc(n);

	if (p == NULL)
		json_failures++;
	return p;
}

/* jansson's free: nothing for memory of the entered arena, else free. */
static void json_release(void *p)
{
	sb_arena *a = json_arena;

	if (p == NULL || (a != NULL && sb_arena_owns(a, p)))
		return;
	free(p);
}

unsigned long sb_arena_json_failures(void)
{
	return json_failures;
}

static pthread_once_t json_once = PTHREAD_ONCE_INIT;

/* Set jansson's allocation functions (once). */
static void json_install_once(void)
{
	json_set_alloc_funcs(json_alloc, json_release);
}

void sb_arena_json_install(void)
{
	pthread_once(&json_once, json_install_once);
}

sb_arena *sb_arena_json_enter(sb_arena *a)
{
	sb_arena *prev = json_arena;

	json_arena = a;
	return prev;
}

void sb_arena_json_leave(sb_arena *prev)
{
	json_arena = prev;
}
