/* disc_bcache.c — the unit cache of the GCZ and WIA/RVZ readers (CISO stores its blocks raw
 * and reads them straight from the file): a few decoded units (blocks, groups) kept between
 * reads, bounded by the cache size given, safe for several threads, one decode per unit at a
 * time, and a thread that would wait for one decodes the next meanwhile. */
#include <stdlib.h>
#include <string.h>

#include "disc_ctr.h"

size_t disc_cache_keep(size_t cache_bytes, size_t unit)
{
    return cache_bytes > 2 * unit ? cache_bytes : 2 * unit;
}

int disc_bcache_init(disc_bcache *c, size_t unit_size, size_t cache_bytes, util_err *err)
{
    memset(c, 0, sizeof *c);
    size_t n = unit_size ? disc_cache_keep(cache_bytes, unit_size) / unit_size : 1;
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

/* Under the lock: the cached copy of block, or NULL. */
static disc_bcache_slot *cached(disc_bcache *c, uint64_t block)
{
    for (size_t i = 0; i < c->nslots; i++)
        if (c->slots[i].buf && c->slots[i].block == block)
            return &c->slots[i];
    return NULL;
}

/* Under the lock: whether another thread decodes block. */
static int in_flight(const disc_bcache *c, uint64_t block)
{
    for (size_t i = 0; i < DISC_BCACHE_FLIGHTS; i++)
        if (c->busy[i] && c->flight[i] == block)
            return 1;
    return 0;
}

/* Under the lock: register block in flight; its ticket, or DISC_BCACHE_FLIGHTS when every
 * entry is taken (the block is then decoded unregistered). */
static size_t flight_begin(disc_bcache *c, uint64_t block)
{
    for (size_t i = 0; i < DISC_BCACHE_FLIGHTS; i++)
        if (!c->busy[i]) {
            c->busy[i] = 1;
            c->flight[i] = block;
            return i;
        }
    return DISC_BCACHE_FLIGHTS;
}

/* Under the lock: keep *buf (len bytes) as block's (the least recently used slot out); *buf
 * becomes the evicted buffer when it has len bytes too, else NULL (the evicted one freed).
 * Then end the decode of ticket and wake its waiters. */
static void keep_and_land(disc_bcache *c, size_t ticket, uint64_t block, uint8_t **buf, size_t len)
{
    if (buf) {
        disc_bcache_slot *victim = cached(c, block); /* brought in by an unregistered decode */
        for (size_t i = 0; i < c->nslots && !victim; i++)
            if (!c->slots[i].buf)
                victim = &c->slots[i];
        if (!victim) {
            victim = &c->slots[0];
            for (size_t i = 1; i < c->nslots; i++)
                if (c->slots[i].used < victim->used)
                    victim = &c->slots[i];
        }
        uint8_t *old = victim->buf;
        if (old && victim->len != len) {
            free(old);
            old = NULL;
        }
        victim->buf = *buf;
        victim->len = len;
        victim->block = block;
        victim->used = ++c->clock;
        *buf = old;
    }
    /* with the block in the cache, so that its waiters find it there */
    if (ticket < DISC_BCACHE_FLIGHTS) {
        c->busy[ticket] = 0;
        pthread_cond_broadcast(&c->landed);
    }
}

/* Under the lock, which it leaves and takes again: while another thread decodes block,
 * decode the unit after it rather than wait idle: two threads reading one PAK then decode
 * two units at once. 1 when it did. */
static int decode_ahead(disc_bcache *c, uint64_t block)
{
    uint64_t next;
    if (!c->next || !c->next(c->ahead_ctx, block, &next) || cached(c, next) || in_flight(c, next))
        return 0;
    size_t f = flight_begin(c, next);
    if (f == DISC_BCACHE_FLIGHTS)
        return 0;
    c->decodes++;
    void (*hook)(void *) = c->hook;
    void *hook_ctx = c->hook_ctx;
    pthread_mutex_unlock(&c->mu);
    if (hook)
        hook(hook_ctx);
    uint8_t *buf = NULL;
    size_t len = 0;
    int ok = c->ahead(c->ahead_ctx, next, &buf, &len) == 0; /* a fault: its reader meets it */
    pthread_mutex_lock(&c->mu);
    keep_and_land(c, f, next, ok ? &buf : NULL, len);
    free(buf);
    return 1;
}

int disc_bcache_begin(size_t *ticket, disc_bcache *c, uint64_t block, void *dst, size_t boff,
                      size_t n)
{
    int ahead = 1; /* once per wait: a block after it that fails is not decoded in a loop */
    pthread_mutex_lock(&c->mu);
    for (;;) {
        disc_bcache_slot *s = cached(c, block);
        if (s && boff <= s->len && n <= s->len - boff) {
            memcpy(dst, s->buf + boff, n);
            s->used = ++c->clock;
            pthread_mutex_unlock(&c->mu);
            return 1;
        }
        if (!in_flight(c, block))
            break;
        if (ahead && decode_ahead(c, block)) {
            ahead = 0;
            continue;
        }
        /* then look again: the decoder may have failed, or its block been evicted */
        c->waiters++;
        pthread_cond_wait(&c->landed, &c->mu);
        c->waiters--;
    }
    /* no room to register (more threads decoding than entries): decode all the same */
    *ticket = flight_begin(c, block);
    c->decodes++;
    void (*hook)(void *) = *ticket < DISC_BCACHE_FLIGHTS ? c->hook : NULL;
    void *hook_ctx = c->hook_ctx;
    pthread_mutex_unlock(&c->mu);
    if (hook)
        hook(hook_ctx);
    return 0;
}

void disc_bcache_end(disc_bcache *c, size_t ticket, uint64_t block, uint8_t **buf, size_t len)
{
    pthread_mutex_lock(&c->mu);
    keep_and_land(c, ticket, block, buf, len);
    pthread_mutex_unlock(&c->mu);
}

void disc_bcache_set_ahead(disc_bcache *c, int (*next)(void *ctx, uint64_t block, uint64_t *next),
                           int (*ahead)(void *ctx, uint64_t block, uint8_t **buf, size_t *len),
                           void *ctx)
{
    pthread_mutex_lock(&c->mu);
    c->next = next;
    c->ahead = ahead;
    c->ahead_ctx = ctx;
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
