/* clock.c: the time handed to the library (see clock.h). */
#include "ledger/clock.h"

#include <stddef.h>
#include <time.h>

int64_t sb_clock_system_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t sb_clock_now(const sb_clock *c)
{
	if (c == NULL || c->now_ms == NULL)
		return sb_clock_system_ms();
	return c->now_ms(c->ctx);
}

int64_t sb_clock_fixed(void *ctx)
{
	return *(const int64_t *)ctx;
}
