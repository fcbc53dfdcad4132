/* arena.h: a bump allocator, and jansson's allocations routed into one.
 *
 * An arena hands out memory from large blocks and frees it all at once
 * (sb_arena_reset), which is what parsing one record at a time wants: a
 * record's JSON values, its dumped texts and its normalized form live
 * until the next record, then go together, without a malloc and a free
 * per value.
 *
 * jansson has one pair of allocation functions for the whole process
 * (json_set_alloc_funcs).  sb_arena_json_install sets a pair that, on a
 * thread that has entered an arena (sb_arena_json_enter), takes memory
 * from that arena and treats a free of it as nothing; on any other thread,
 * or outside the enter/leave pair, they are malloc and free.  So a JSON
 * value made while an arena is entered must not be freed (json_decref of
 * its last reference) after sb_arena_json_leave: it dies with the arena.
 * Values made outside stay ordinary and may be freed anywhere.
 *
 * Ownership: sb_arena_new allocates the arena, sb_arena_free frees it and
 * everything it handed out.  An arena belongs to one thread at a time.
 * Nothing here prints.
 */
#ifndef SB_ARENA_H
#define SB_ARENA_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sb_arena sb_arena;

/* A new arena whose first block holds block_size bytes (a minimum is
 * applied); NULL when out of memory. */
sb_arena *sb_arena_new(size_t block_size);

/* Free a and all it handed out; NULL is allowed. */
void sb_arena_free(sb_arena *a);

/* n bytes aligned for any type, valid until the next reset; NULL when out
 * of memory. */
void *sb_arena_alloc(sb_arena *a, size_t n);

/* A copy of s[0..len) with a NUL after it, in a; NULL when out of memory. */
char *sb_arena_strndup(sb_arena *a, const char *s, size_t len);

/* Forget everything handed out.  The memory is kept for reuse, as one
 * block (at most a few MiB: a huge record does not pin its memory). */
void sb_arena_reset(sb_arena *a);

/* True when p was handed out by a (and not yet reset). */
bool sb_arena_owns(const sb_arena *a, const void *p);

/* Route jansson's allocations as the header says (once per process; later
 * calls do nothing).  Call before any thread enters an arena. */
void sb_arena_json_install(void);

/* From now on, jansson's allocations on this thread come from a; returns
 * the arena entered before (usually NULL), for sb_arena_json_leave. */
sb_arena *sb_arena_json_enter(sb_arena *a);

/* Back to the arena entered before (NULL: malloc and free). */
void sb_arena_json_leave(sb_arena *prev);

/* How many of jansson's allocations on this thread memory could not serve
 * (once installed).  jansson 2.14 does not say when memory ran out: it
 * reports a syntax error ("invalid token"), or json_object_set fails and a
 * member is left out.  A caller reads the count before and after reading
 * or making JSON, and treats any change as out of memory, never as bad
 * data nor as a value to store. */
unsigned long sb_arena_json_failures(void);

#endif
