/* disc_ctr.h — internal to disc/: the GCZ and CISO readers behind disc_container_open, and
 * GCZ's block cache (CISO's blocks are stored raw). Each reader reads disc offsets from its
 * container file (a util_src it borrows) and is safe to call from several threads at once. */
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

/* ---- block cache: decompressed blocks kept between reads, least recently used out ------ */
typedef struct disc_bcache_slot {
    uint64_t block; /* block index; valid when buf != NULL */
    uint64_t used;  /* clock value of its last use */
    uint8_t *buf;   /* block_size bytes, owned */
} disc_bcache_slot;

#define DISC_BCACHE_FLIGHTS 16 /* blocks being decoded that other threads can wait for */

typedef struct disc_bcache {
    pthread_mutex_t mu;
    pthread_cond_t landed; /* broadcast when a decode in flight ends, kept or not */
    disc_bcache_slot *slots;
    size_t nslots;
    size_t block_size;
    uint64_t clock;
    uint64_t flight[DISC_BCACHE_FLIGHTS]; /* blocks being decoded, where busy */
    uint8_t busy[DISC_BCACHE_FLIGHTS];
    unsigned waiters;        /* threads waiting for a block in flight */
    uint64_t decodes;        /* misses handed to the caller to decode */
    void (*hook)(void *ctx); /* test hook: called once a decode is registered in flight */
    void *hook_ctx;
    /* decode ahead (disc_bcache_set_ahead): block i of nblocks into a new buffer, 0 or not */
    int (*ahead)(void *ctx, uint64_t block, uint8_t **buf);
    void *ahead_ctx;
    uint64_t nblocks;
} disc_bcache;

/* Room for disc_cache_keep(cache_bytes, block_size) / block_size blocks (at least 2, at most
 * 4096); the buffers are
 * allocated as blocks come in. UTIL_ENOMEM. */
int disc_bcache_init(disc_bcache *c, size_t block_size, size_t cache_bytes, util_err *err);
void disc_bcache_free(disc_bcache *c);
/* Copy n bytes at boff of block into dst when the cache holds it: 1. Else 0: the caller
 * decodes the block, then calls disc_bcache_end with *ticket whatever the outcome. While
 * another thread decodes block, this decodes the block after it (disc_bcache_set_ahead) or
 * waits, and looks again, so a block is decoded by one thread at a time. */
int disc_bcache_begin(size_t *ticket, disc_bcache *c, uint64_t block, void *dst, size_t boff,
                      size_t n);
/* End the decode begun with ticket. buf NULL: nothing to keep (it failed). Else keep *buf
 * (block_size bytes of block, now owned by the cache); *buf becomes a buffer the caller owns
 * again (an evicted block's, to reuse or free) or NULL. Wakes the threads waiting for it. */
void disc_bcache_end(disc_bcache *c, size_t ticket, uint64_t block, uint8_t **buf);
/* A thread that would wait for a block another is decoding decodes the next one meanwhile
 * (a reader going through the disc in order wants it next), when it is one of nblocks, not
 * cached and not in flight: fn(ctx, block, &buf) returns 0 with buf a malloc'd block_size
 * bytes of block (kept by the cache), else its reader meets the fault itself later. */
void disc_bcache_set_ahead(disc_bcache *c, int (*fn)(void *ctx, uint64_t block, uint8_t **buf),
                           void *ctx, uint64_t nblocks);
/* For tests: fn(ctx) runs on a decoding thread right after disc_bcache_begin registered its
 * block in flight (NULL: none); the blocks handed out to decode; the threads waiting. */
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
void disc_gcz_close(void *ctx);
/* The reader's block cache (borrowed: valid until disc_gcz_close): for tests. */
disc_bcache *disc_gcz_cache(void *ctx);

int disc_ciso_open(void **ctx, util_src *file, disc_container_info *info, util_err *err);
int disc_ciso_read(void *ctx, void *dst, uint64_t off, size_t len, util_err *err);
void disc_ciso_close(void *ctx);

#endif
