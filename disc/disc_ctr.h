/* disc_ctr.h — internal to disc/: the GCZ and CISO readers behind disc_container_open, and
 * the unit cache GCZ and WIA/RVZ share (CISO's blocks are stored raw). Each reader reads disc
 * offsets from its container file (a util_src it borrows) and is safe to call from several threads
 * at once. */
#ifndef ANCSDB_DISC_CTR_H
#define ANCSDB_DISC_CTR_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "disc.h"

/* ---- the one rule of every container cache -------------------------------------------
 * The bytes a cache of cache_bytes may keep when its units (a GCZ block, a WIA/RVZ group)
 * are unit bytes: cache_bytes, but never less than two units, so that reads inside one unit
 * (a PAK entry each) decode it once, and a PAK whose tables and entries lie in two units
 * does not decode them in turn. What a unit may cost is the caller's to bound
 * (disc_container_info.cache_unit). */
size_t disc_cache_keep(size_t cache_bytes, size_t unit);

/* ---- unit cache: decoded units (GCZ blocks, WIA/RVZ groups) kept between reads, least
 * recently used out. A unit is named by a key its reader chooses (a GCZ block's index, a
 * WIA/RVZ group's disc offset) and is at most unit_size bytes. */
typedef struct disc_bcache_slot {
    uint64_t block; /* the unit's key; valid when buf != NULL */
    uint64_t used;  /* clock value of its last use */
    uint8_t *buf;   /* len bytes, owned */
    size_t len;
} disc_bcache_slot;

#define DISC_BCACHE_FLIGHTS 16 /* units being decoded that other threads can wait for */

typedef struct disc_bcache {
    pthread_mutex_t mu;
    pthread_cond_t landed; /* broadcast when a decode in flight ends, kept or not */
    disc_bcache_slot *slots;
    size_t nslots;
    uint64_t clock;
    uint64_t flight[DISC_BCACHE_FLIGHTS]; /* units being decoded, where busy */
    uint8_t busy[DISC_BCACHE_FLIGHTS];
    unsigned waiters;        /* threads waiting for a unit in flight */
    uint64_t decodes;        /* decodes registered: misses handed out and decodes ahead */
    void (*hook)(void *ctx); /* test hook: called once a decode is registered in flight */
    void *hook_ctx;
    /* decode ahead (disc_bcache_set_ahead) */
    int (*next)(void *ctx, uint64_t block, uint64_t *next);
    int (*ahead)(void *ctx, uint64_t block, uint8_t **buf, size_t *len);
    void *ahead_ctx;
} disc_bcache;

/* Room for disc_cache_keep(cache_bytes, unit_size) / unit_size units (at least 2, at most
 * 4096); the buffers are allocated as units come in. UTIL_ENOMEM. */
int disc_bcache_init(disc_bcache *c, size_t unit_size, size_t cache_bytes, util_err *err);
void disc_bcache_free(disc_bcache *c);
/* Copy n bytes at boff of unit block into dst when the cache holds it: 1. Else 0: the caller
 * decodes the unit, then calls disc_bcache_end with *ticket whatever the outcome. While
 * another thread decodes block, this decodes the unit after it (disc_bcache_set_ahead) or
 * waits, and looks again, so a unit is decoded by one thread at a time. */
int disc_bcache_begin(size_t *ticket, disc_bcache *c, uint64_t block, void *dst, size_t boff,
                      size_t n);
/* End the decode begun with ticket. buf NULL: nothing to keep (it failed). Else keep *buf
 * (the unit's len bytes, now owned by the cache); *buf becomes a buffer the caller owns again
 * (an evicted unit's of the same length, to reuse or free) or NULL. Wakes the threads waiting
 * for it. */
void disc_bcache_end(disc_bcache *c, size_t ticket, uint64_t block, uint8_t **buf, size_t len);
/* A thread that would wait for a unit another is decoding decodes the next one meanwhile (a
 * reader going through the disc in order wants it next): next(ctx, block, &key) says, under
 * the cache's lock, whether a unit follows block and its key (decoded only when neither
 * cached nor in flight); ahead(ctx, key, &buf, &len) returns 0 with buf a malloc'd len bytes
 * (kept by the cache), else its reader meets the fault itself later. */
void disc_bcache_set_ahead(disc_bcache *c, int (*next)(void *ctx, uint64_t block, uint64_t *next),
                           int (*ahead)(void *ctx, uint64_t block, uint8_t **buf, size_t *len),
                           void *ctx);
/* For tests: fn(ctx) runs on a decoding thread right after it registered its unit in flight
 * (NULL: none); the decodes registered; the threads waiting. */
void disc_bcache_set_decode_hook(disc_bcache *c, void (*fn)(void *ctx), void *ctx);
uint64_t disc_bcache_decodes(disc_bcache *c);
unsigned disc_bcache_waiters(disc_bcache *c);

/* ---- the readers --------------------------------------------------------------------------
 * open: check the header and tables against the file's size and fill info (kind, sizes,
 * block size, compression); *ctx is owned (close). read: as util_src_read_fn, on disc
 * offsets [off, off + len) inside info->disc_size; a fault names the container offset and
 * the disc offset in its message, and its util_err offset is the disc offset. */
int disc_gcz_open(void **ctx, util_src *file, size_t cache_bytes, disc_container_info *info,
                  util_err *err);
int disc_gcz_read(void *ctx, void *dst, uint64_t off, size_t len, util_err *err);
/* The container file range [*lo, *hi) holding the stored units of disc bytes [off, off + len)
 * (len > 0, within the disc); *lo = *hi when none is stored (disc_container_span). */
void disc_gcz_span(void *ctx, uint64_t off, uint64_t len, uint64_t *lo, uint64_t *hi);
void disc_gcz_close(void *ctx);
/* The reader's block cache (borrowed: valid until disc_gcz_close): for tests. */
disc_bcache *disc_gcz_cache(void *ctx);

int disc_ciso_open(void **ctx, util_src *file, disc_container_info *info, util_err *err);
int disc_ciso_read(void *ctx, void *dst, uint64_t off, size_t len, util_err *err);
void disc_ciso_span(void *ctx, uint64_t off, uint64_t len, uint64_t *lo, uint64_t *hi);
void disc_ciso_close(void *ctx);

#endif
