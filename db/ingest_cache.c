/* ingest_cache.c — the cache of known contents: the content hash of stored bytes a job has
 * inflated and hashed, so that the same stored bytes met again (a later PAK, a later release)
 * are not inflated again (ing_cache_*, ingest_internal.h). Guarded by the pipeline's lock while
 * workers run. */
#include <stdlib.h>
#include <string.h>

#include "ingest_internal.h"

/* (stored hash, stored size) as one key; 0 marks an empty slot. Two pairs meeting on one
 * key are as likely as two streams meeting on one XXH3-64. */
static uint64_t key_of(uint64_t sh, uint32_t size)
{
    uint64_t k = sh ^ (size * 0x9E3779B97F4A7C15ull);
    return k ? k : 1;
}

static size_t slot_of(uint64_t key, size_t cap)
{
    return (size_t)(key ^ key >> 32) & (cap - 1);
}

static int hcache_get(const ing_hcache *c, uint64_t sh, uint32_t size, uint64_t *out)
{
    if (!c->cap)
        return 0;
    uint64_t k = key_of(sh, size);
    for (size_t i = slot_of(k, c->cap);; i = (i + 1) & (c->cap - 1)) {
        const ing_hcache_slot *s = &c->slot[i];
        if (!s->key)
            return 0;
        if (s->key == k) {
            *out = s->content_hash;
            return 1;
        }
    }
}

/* Size `size` among c's sizes (1) or not (0). */
static int sizes_has(const ing_hcache *c, uint32_t size)
{
    if (!c->scap)
        return 0;
    for (size_t i = slot_of(size * 0x9E3779B97F4A7C15ull, c->scap);; i = (i + 1) & (c->scap - 1)) {
        if (!c->sizes[i])
            return 0;
        if (c->sizes[i] == size)
            return 1;
    }
}

static void sizes_put(ing_hcache *c, uint32_t size)
{
    if (sizes_has(c, size))
        return;
    if ((c->sn + 1) * 4 > c->scap * 3) {
        size_t ncap = c->scap ? c->scap * 2 : 1024;
        uint32_t *ns = calloc(ncap, sizeof *ns);
        if (!ns)
            return; /* an entry of a size not kept is read twice, as before */
        uint32_t *old = c->sizes;
        size_t ocap = c->scap;
        c->sizes = ns;
        c->scap = ncap;
        c->sn = 0;
        for (size_t i = 0; i < ocap; i++)
            if (old[i])
                sizes_put(c, old[i]);
        free(old);
    }
    size_t i = slot_of(size * 0x9E3779B97F4A7C15ull, c->scap);
    while (c->sizes[i])
        i = (i + 1) & (c->scap - 1);
    c->sizes[i] = size;
    c->sn++;
}

static void hcache_put(ing_hcache *c, uint64_t sh, uint32_t size, uint64_t ch)
{
    if (size >= ING_SIZES_MIN)
        sizes_put(c, size);
    if ((c->n + 1) * 4 > c->cap * 3) {
        size_t ncap = c->cap ? c->cap * 2 : 4096;
        ing_hcache_slot *ns = calloc(ncap, sizeof *ns);
        if (!ns)
            return;
        for (size_t i = 0; i < c->cap; i++) {
            if (!c->slot[i].key)
                continue;
            size_t k = slot_of(c->slot[i].key, ncap);
            while (ns[k].key)
                k = (k + 1) & (ncap - 1);
            ns[k] = c->slot[i];
        }
        free(c->slot);
        c->slot = ns;
        c->cap = ncap;
    }
    uint64_t k = key_of(sh, size);
    size_t i = slot_of(k, c->cap);
    for (; c->slot[i].key; i = (i + 1) & (c->cap - 1))
        if (c->slot[i].key == k)
            return;
    c->slot[i] = (ing_hcache_slot){k, ch};
    c->n++;
}

int ing_cache_get(ing_pipeline *pl, uint64_t sh, uint32_t size, uint64_t *out)
{
    if (pl->nthreads > 0)
        pthread_mutex_lock(&pl->mu);
    int hit = hcache_get(&pl->cache, sh, size, out);
    if (pl->nthreads > 0)
        pthread_mutex_unlock(&pl->mu);
    return hit;
}

int ing_cache_size_seen(ing_pipeline *pl, uint32_t size)
{
    if (pl->nthreads > 0)
        pthread_mutex_lock(&pl->mu);
    int seen = sizes_has(&pl->cache, size);
    if (pl->nthreads > 0)
        pthread_mutex_unlock(&pl->mu);
    return seen;
}

void ing_cache_put(ing_pipeline *pl, uint64_t sh, uint32_t size, uint64_t ch)
{
    if (pl->nthreads > 0)
        pthread_mutex_lock(&pl->mu);
    hcache_put(&pl->cache, sh, size, ch);
    if (pl->nthreads > 0)
        pthread_mutex_unlock(&pl->mu);
}

void ing_cache_free(ing_pipeline *pl)
{
    if (pl->nthreads > 0)
        pthread_mutex_lock(&pl->mu);
    free(pl->cache.slot);
    free(pl->cache.sizes);
    memset(&pl->cache, 0, sizeof pl->cache);
    if (pl->nthreads > 0)
        pthread_mutex_unlock(&pl->mu);
}
