/* disc_bcache.c — the block cache of GCZ's reader (CISO stores its blocks raw and reads them
 * straight from the file): a few decoded blocks kept between reads, bounded by the cache
 * size given, safe for several threads, one decode per block at a time. */
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
    if (pthread_cond_init(&c->landed, NULL) != 0) {
        pthread_mutex_destroy(&c->mu);
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
    pthread_cond_destroy(&c->landed);
    pthread_mutex_destroy(&c->mu);
    memset(c, 0, sizeof *c);
}

int disc_bcache_begin(size_t *ticket, disc_bcache *c, uint64_t block, void *dst, size_t boff,
                      size_t n)
{
    *ticket = DISC_BCACHE_FLIGHTS;
    pthread_mutex_lock(&c->mu);
    for (;;) {
        for (size_t i = 0; i < c->nslots; i++) {
            disc_bcache_slot *s = &c->slots[i];
            if (s->buf && s->block == block) {
                memcpy(dst, s->buf + boff, n);
                s->used = ++c->clock;
                pthread_mutex_unlock(&c->mu);
                return 1;
            }
        }
        size_t f = DISC_BCACHE_FLIGHTS;
        for (size_t i = 0; i < DISC_BCACHE_FLIGHTS && f == DISC_BCACHE_FLIGHTS; i++)
            if (c->busy[i] && c->flight[i] == block)
                f = i;
        if (f == DISC_BCACHE_FLIGHTS)
            break;
        /* then look again: the decoder may have failed, or its block been evicted */
        c->waiters++;
        pthread_cond_wait(&c->landed, &c->mu);
        c->waiters--;
    }
    /* no room to register (more threads decoding than entries): decode all the same */
    for (size_t i = 0; i < DISC_BCACHE_FLIGHTS && *ticket == DISC_BCACHE_FLIGHTS; i++)
        if (!c->busy[i])
            *ticket = i;
    if (*ticket < DISC_BCACHE_FLIGHTS) {
        c->busy[*ticket] = 1;
        c->flight[*ticket] = block;
    }
    c->decodes++;
    void (*hook)(void *) = *ticket < DISC_BCACHE_FLIGHTS ? c->hook : NULL;
    void *hook_ctx = c->hook_ctx;
    pthread_mutex_unlock(&c->mu);
    if (hook)
        hook(hook_ctx);
    return 0;
}

void disc_bcache_end(disc_bcache *c, size_t ticket, uint64_t block, uint8_t **buf)
{
    pthread_mutex_lock(&c->mu);
    if (buf) {
        disc_bcache_slot *victim = &c->slots[0];
        for (size_t i = 0; i < c->nslots; i++) {
            disc_bcache_slot *s = &c->slots[i];
            if (s->buf && s->block == block) { /* brought in by a thread that did not register */
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
    }
    /* with the block in the cache, so that its waiters find it there */
    if (ticket < DISC_BCACHE_FLIGHTS) {
        c->busy[ticket] = 0;
        pthread_cond_broadcast(&c->landed);
    }
    pthread_mutex_unlock(&c->mu);
}

void disc_bcache_set_decode_hook(disc_bcache *c, void (*fn)(void *ctx), void *ctx)
{
    pthread_mutex_lock(&c->mu);
    c->hook = fn;
    c->hook_ctx = ctx;
    pthread_mutex_unlock(&c->mu);
}

uint64_t disc_bcache_decodes(disc_bcache *c)
{
    pthread_mutex_lock(&c->mu);
    uint64_t n = c->decodes;
    pthread_mutex_unlock(&c->mu);
    return n;
}

unsigned disc_bcache_waiters(disc_bcache *c)
{
    pthread_mutex_lock(&c->mu);
    unsigned n = c->waiters;
    pthread_mutex_unlock(&c->mu);
    return n;
}
