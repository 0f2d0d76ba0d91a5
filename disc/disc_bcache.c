/* disc_bcache.c — the block cache the container readers share (GCZ, CISO): a few decoded
 * blocks kept between reads, bounded by the cache size given, safe for several threads. */
#include <stdlib.h>
#include <string.h>

#include "disc_ctr.h"

size_t disc_cache_keep(size_t cache_bytes, size_t unit)
{
    return cache_bytes > 2 * unit ? cache_bytes : 2 * unit;
}

int disc_bcache_init(disc_bcache *c, size_t block_size, size_t cache_bytes, util_err *err)
{
    memset(c, 0, sizeof *c);
    size_t n = block_size ? disc_cache_keep(cache_bytes, block_size) / block_size : 1;
    if (n > 4096)
        n = 4096;
    c->slots = calloc(n, sizeof *c->slots);
    if (!c->slots)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    if (pthread_mutex_init(&c->mu, NULL) != 0) {
        free(c->slots);
        c->slots = NULL;
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "cannot create a lock");
    }
    c->nslots = n;
    c->block_size = block_size;
    return 0;
}

void disc_bcache_free(disc_bcache *c)
{
    if (!c->slots)
        return;
    for (size_t i = 0; i < c->nslots; i++)
        free(c->slots[i].buf);
    free(c->slots);
    pthread_mutex_destroy(&c->mu);
    memset(c, 0, sizeof *c);
}

int disc_bcache_get(disc_bcache *c, uint64_t block, void *dst, size_t boff, size_t n)
{
    int hit = 0;
    pthread_mutex_lock(&c->mu);
    for (size_t i = 0; i < c->nslots; i++) {
        disc_bcache_slot *s = &c->slots[i];
        if (s->buf && s->block == block) {
            memcpy(dst, s->buf + boff, n);
            s->used = ++c->clock;
            hit = 1;
            break;
        }
    }
    pthread_mutex_unlock(&c->mu);
    return hit;
}

void disc_bcache_put(disc_bcache *c, uint64_t block, uint8_t **buf)
{
    pthread_mutex_lock(&c->mu);
    disc_bcache_slot *victim = &c->slots[0];
    for (size_t i = 0; i < c->nslots; i++) {
        disc_bcache_slot *s = &c->slots[i];
        if (s->buf && s->block == block) { /* another thread brought it in meanwhile */
            victim = s;
            break;
        }
        if (!s->buf) {
            victim = s;
            break;
        }
        if (s->used < victim->used)
            victim = s;
    }
    uint8_t *old = victim->buf;
    victim->buf = *buf;
    victim->block = block;
    victim->used = ++c->clock;
    *buf = old;
    pthread_mutex_unlock(&c->mu);
}
