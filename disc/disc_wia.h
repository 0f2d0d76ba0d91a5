/* disc_wia.h — WIA and RVZ containers (docs/formats.md §13), internal to disc/: a GameCube
 * disc image's bytes read at any disc offset, decompressing groups on demand (none, purge,
 * bzip2, LZMA, LZMA2; zstd for RVZ; RVZ packed groups and junk regenerated from its seed).
 * Every table offset, count and size is checked against the file before use. */
#ifndef ANCSDB_DISC_WIA_H
#define ANCSDB_DISC_WIA_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

typedef struct disc_wia disc_wia;

typedef struct disc_wia_info {
    int is_rvz;                   /* 1: RVZ, 0: WIA */
    uint32_t version;             /* header 1's version word */
    uint64_t iso_size;            /* size of the disc image it holds */
    uint32_t chunk_size;          /* header 2's chunk (block) size */
    uint32_t compression;         /* 0 none, 1 purge, 2 bzip2, 3 LZMA, 4 LZMA2, 5 zstd */
    int32_t compression_level;    /* as stored */
    const char *compression_name; /* "none", "purge", "bzip2", "LZMA", "LZMA2", "zstd" */
    uint64_t stated_size;         /* header 1's file size when the file is shorter (cut), else 0 */
} disc_wia_info;

/* Open the WIA or RVZ container in file (borrowed: it must outlive the reader). cache_bytes
 * bounds the decompressed groups kept between reads (0: a small default), except that the
 * last two groups decoded are always kept (a chunk each, at most 64 MiB). UTIL_EFORMAT at the
 * container offset of a bad header, hash or table; UTIL_ENOMEM; UTIL_EIO from the file.
 * owned: caller frees with disc_wia_close. */
int disc_wia_open(disc_wia **out, util_src *file, size_t cache_bytes, util_err *err);
/* Read len bytes of the disc at disc offset off into dst. Safe to call from several threads
 * at once (one wanting a group another is decoding waits for that decode). A corrupt group
 * is UTIL_EFORMAT whose offset is the container offset and whose message names the disc
 * offset too; a read past iso_size is UTIL_EIO. */
int disc_wia_read(disc_wia *w, void *dst, uint64_t off, size_t len, util_err *err);
const disc_wia_info *disc_wia_get_info(const disc_wia *w);
/* The file range [*lo, *hi) holding the stored groups of disc bytes [off, off + len) (within
 * the disc); *lo = *hi when none is stored. */
void disc_wia_span(const disc_wia *w, uint64_t off, uint64_t len, uint64_t *lo, uint64_t *hi);
/* Groups decoded so far (not served from the cache): what tests count. */
uint64_t disc_wia_decodes(disc_wia *w);
/* Groups decoded by every WIA/RVZ reader of the process so far (tests: what a whole ingest
 * decoded). */
uint64_t disc_wia_decodes_all(void);
/* For tests: fn(ctx) runs on a decoding thread right after it registered its group as in
 * flight, before it decodes (NULL: none). Threads reading that group meanwhile wait. */
void disc_wia_set_decode_hook(disc_wia *w, void (*fn)(void *ctx), void *ctx);
/* Threads waiting now for a group another thread is decoding: what tests count. */
unsigned disc_wia_waiters(disc_wia *w);
void disc_wia_close(disc_wia *w);

#endif
