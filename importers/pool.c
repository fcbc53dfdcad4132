/* pool.c: ordered worker pool (see pool.h). */
#include "importers/pool.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A job in flight. */
typedef struct slot {
	void *job;                 /* the caller's job */
	bool done;                 /* its worker has finished it */
} slot;

/* One thread. */
typedef struct worker {
	sb_pool *pool;             /* its pool */
	void *state;               /* the caller's state for it */
	pthread_t thread;          /* the thread */
	bool started;              /* thread was created */
} worker;

struct sb_pool {
	pthread_mutex_t mu;        /* guards everything below */
	pthread_cond_t work;       /* a job was queued, or stop */
	pthread_cond_t done;       /* a job was finished */
	sb_pool_fn fn;             /* what workers do */
	slot *slots;               /* ring of capacity slots, by submission number */
	size_t capacity;           /* slots */
	size_t head;               /* number of the oldest job in flight */
	size_t next;               /* number of the next job to start */
	size_t tail;               /* number the next submitted job gets */
	bool stop;                 /* workers must end */
	worker *workers;           /* n_workers threads */
	size_t n_workers;
};

/* A worker thread: run queued jobs until told to stop. */
static void *work(void *arg)
{
	worker *w = arg;
	sb_pool *p = w->pool;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		slot *s;
		while (!p->stop && p->next == p->tail)
			pthread_cond_wait(&p->work, &p->mu);
		if (p->stop)
			break;
		s = &p->slots[p->next % p->capacity];
		p->next++;
		pthread_mutex_unlock(&p->mu);
		p->fn(w->state, s->job);
		pthread_mutex_lock(&p->mu);
		s->done = true;
		pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

int sb_pool_new(size_t n, sb_pool_fn fn, void *const *workers, size_t capacity, sb_pool **out,
                sb_err *e)
{
	sb_pool *p = calloc(1, sizeof *p);

	*out = NULL;
	if (p == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	p->fn = fn;
	p->capacity = capacity > 0 ? capacity : 1;
	p->slots = calloc(p->capacity, sizeof *p->slots);
	p->workers = calloc(n > 0 ? n : 1, sizeof *p->workers);
	if (p->slots == NULL || p->workers == NULL) {
		sb_pool_free(p);
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		worker *w = &p->workers[i];
		int rc;
		w->pool = p;
		w->state = workers[i];
		rc = pthread_create(&w->thread, NULL, work, w);
		if (rc != 0) {
			sb_pool_free(p);
			return sb_fail(e, SB_EINTERNAL, "cannot start a thread: %s", strerror(rc));
		}
		w->started = true;
		p->n_workers++;
	}
	*out = p;
	return SB_OK;
}

void sb_pool_submit(sb_pool *p, void *job)
{
	slot *s;

	pthread_mutex_lock(&p->mu);
	s = &p->slots[p->tail % p->capacity];
	s->job = job;
	s->done = false;
	p->tail++;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->mu);
}

size_t sb_pool_in_flight(const sb_pool *p)
{
	/* head and tail change only on the caller's thread */
	return p->tail - p->head;
}

void *sb_pool_wait(sb_pool *p)
{
	slot *s;
	void *job;

	if (p->head == p->tail)
		return NULL;
	s = &p->slots[p->head % p->capacity];
	pthread_mutex_lock(&p->mu);
	while (!s->done)
		pthread_cond_wait(&p->done, &p->mu);
	job = s->job;
	s->job = NULL;
	p->head++;
	pthread_mutex_unlock(&p->mu);
	return job;
}

void sb_pool_free(sb_pool *p)
{
	if (p == NULL)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	for (size_t i = 0; i < p->n_workers; i++)
		if (p->workers[i].started)
			pthread_join(p->workers[i].thread, NULL);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->mu);
	free(p->workers);
	free(p->slots);
	free(p);
}

size_t sb_pool_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (size_t)n : 1;
}
