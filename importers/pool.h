/* pool.h: worker threads that run jobs and hand them back in order.
 *
 * The import reads records on one thread, which also owns the ledger's
 * connection; parsing them is the costly part and has no shared state, so
 * it is done by a pool of workers.  The caller submits jobs (a batch of
 * records each); each worker takes the oldest job not yet started, runs
 * the pool's function on it with the worker's own state, and marks it
 * done; sb_pool_wait gives the jobs back in the order they were submitted,
 * so the caller stores their records in the order of the input.
 *
 * The caller bounds the jobs in flight (submitted and not yet given back)
 * by the capacity given to sb_pool_new.  Jobs are the caller's throughout:
 * the pool only passes pointers.  Nothing here prints.
 */
#ifndef SB_POOL_H
#define SB_POOL_H

#include <stddef.h>

#include "ledger/err.h"

typedef struct sb_pool sb_pool;

/* What a worker does with one job: worker is that thread's state. */
typedef void (*sb_pool_fn)(void *worker, void *job);

/* Start n threads, thread i running fn with workers[i] (borrowed; each
 * must live until sb_pool_free), for at most capacity jobs in flight.
 * The caller frees *out with sb_pool_free. */
int sb_pool_new(size_t n, sb_pool_fn fn, void *const *workers, size_t capacity, sb_pool **out,
                sb_err *e);

/* Queue job behind those submitted before.  The caller must not have
 * capacity jobs in flight already (sb_pool_in_flight). */
void sb_pool_submit(sb_pool *p, void *job);

/* The jobs submitted and not yet given back by sb_pool_wait. */
size_t sb_pool_in_flight(const sb_pool *p);

/* Wait until the oldest job in flight is done and give it back; NULL when
 * none is in flight. */
void *sb_pool_wait(sb_pool *p);

/* Stop the workers (each finishes the job it is running), join them and
 * free p; jobs in flight are dropped (they stay the caller's).  NULL is
 * allowed. */
void sb_pool_free(sb_pool *p);

/* The number of online CPUs (at least 1): the default number of workers. */
size_t sb_pool_cpus(void);

#endif
