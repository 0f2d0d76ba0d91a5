/* disc_gcz.c — GCZ, Dolphin's zlib-compressed disc image (docs/formats.md §13.3): a 32-byte
 * header, a table of block pointers (top bit: the block is stored), a table of Adler-32
 * hashes of the stored bytes, then the blocks. Every block decompresses to the block size;
 * the last one is padded with zeros past the disc's end. */
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>
#include <zlib.h>

#include "disc_ctr.h"

#define GCZ_HEADER 32u
#define GCZ_STORED (1ull << 63)

typedef struct gcz {
    const util_src *file;
    uint64_t *ptr;   /* num_blocks + 1 data-relative offsets, flag bit cleared; last = end */
    uint8_t *stored; /* per block: 1 when kept uncompressed */
    uint32_t *hash;  /* Adler-32 of each block's stored bytes */
    uint32_t nblocks, block_size;
    uint64_t data_off; /* container offset of the first block */
    uint64_t disc_size;
    disc_bcache cache;
} gcz;

static int gcz_next(void *ctx, uint64_t b, uint64_t *next);
static int gcz_ahead(void *ctx, uint64_t b, uint8_t **out, size_t *len);

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

void disc_gcz_close(void *ctx)
{
    gcz *g = ctx;
    if (!g)
        return;
    disc_bcache_free(&g->cache);
    free(g->ptr);
    free(g->stored);
    free(g->hash);
    free(g);
}

int disc_gcz_open(void **ctx, util_src *file, size_t cache_bytes, disc_container_info *info,
                  util_err *err)
{
    *ctx = NULL;
    uint64_t fsize = util_src_size(file);
    uint8_t h[GCZ_HEADER];
    uint8_t *tab = NULL;
    if (fsize < GCZ_HEADER)
        return util_fail(err, UTIL_ETRUNC, fsize,
                         "GCZ: the file ends at 0x%llx, inside the 32-byte header",
                         (unsigned long long)fsize);
    int rc = util_src_read(file, h, 0, sizeof h, err);
    if (rc)
        return rc;
    uint64_t csize = le64(h + 8), dsize = le64(h + 16);
    uint32_t bs = le32(h + 24), n = le32(h + 28);
    if (bs == 0 || bs > DISC_MAX_BLOCK)
        return util_fail(err, UTIL_EFORMAT, 24, "GCZ: block size %u at 0x18 is not in 1..%u", bs,
                         DISC_MAX_BLOCK);
    if (n == 0 || dsize == 0 || dsize > (uint64_t)n * bs || dsize <= (uint64_t)(n - 1) * bs)
        return util_fail(err, UTIL_EFORMAT, 16,
                         "GCZ: disc size %llu at 0x10 does not fit %u blocks of %u bytes",
                         (unsigned long long)dsize, n, bs);
    uint64_t tab_len = (uint64_t)n * 12;
    if (tab_len > fsize - GCZ_HEADER)
        return util_fail(err, UTIL_ETRUNC, fsize,
                         "GCZ: tables of %u blocks need 0x%llx bytes at 0x20; the file ends at "
                         "0x%llx",
                         n, (unsigned long long)tab_len, (unsigned long long)fsize);
    uint64_t data_off = GCZ_HEADER + tab_len;
    /* a file cut short still opens: the blocks past its end are a fault when read (each
     * block holds at most block_size bytes, so nothing is allocated for the missing ones) */
    if (csize > UINT64_MAX - data_off)
        return util_fail(err, UTIL_EFORMAT, 8, "GCZ: %llu bytes of blocks at 0x%llx",
                         (unsigned long long)csize, (unsigned long long)data_off);
    if (csize > fsize - data_off)
        info->stated_size = data_off + csize;
    gcz *g = calloc(1, sizeof *g);
    if (!g)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    g->file = file;
    g->nblocks = n;
    g->block_size = bs;
    g->data_off = data_off;
    g->disc_size = dsize;
    g->ptr = malloc(((size_t)n + 1) * sizeof *g->ptr);
    g->stored = malloc(n);
    g->hash = malloc((size_t)n * sizeof *g->hash);
    tab = malloc((size_t)tab_len);
    if (!g->ptr || !g->stored || !g->hash || !tab) {
        rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory for %u GCZ blocks", n);
        goto fail;
    }
    if ((rc = util_src_read(file, tab, GCZ_HEADER, (size_t)tab_len, err)) != 0)
        goto fail;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t p = le64(tab + (size_t)i * 8);
        g->stored[i] = (p & GCZ_STORED) != 0;
        g->ptr[i] = p & ~GCZ_STORED;
        g->hash[i] = le32(tab + (size_t)n * 8 + (size_t)i * 4);
    }
    g->ptr[n] = csize;
    for (uint32_t i = 0; i < n; i++)
        if (g->ptr[i] > csize) {
            rc =
                util_fail(err, UTIL_EFORMAT, GCZ_HEADER + (uint64_t)i * 8,
                          "GCZ: block %u (disc 0x%llx) points at 0x%llx, past the end of the "
                          "data (0x%llx)",
                          i, (unsigned long long)i * bs, (unsigned long long)(g->ptr[i] + data_off),
                          (unsigned long long)(csize + data_off));
            goto fail;
        }
    for (uint32_t i = 0; i < n; i++) {
        uint64_t at = GCZ_HEADER + (uint64_t)i * 8;
        if (g->ptr[i] > g->ptr[i + 1]) {
            rc =
                util_fail(err, UTIL_EFORMAT, at,
                          "GCZ: block %u (disc 0x%llx) at 0x%llx points past the next block "
                          "(0x%llx)",
                          i, (unsigned long long)i * bs, (unsigned long long)(g->ptr[i] + data_off),
                          (unsigned long long)(g->ptr[i + 1] + data_off));
            goto fail;
        }
        uint64_t len = g->ptr[i + 1] - g->ptr[i];
        if (len > bs || (g->stored[i] && len != bs)) {
            rc =
                util_fail(err, UTIL_EFORMAT, at,
                          "GCZ: block %u (disc 0x%llx) at 0x%llx holds %llu bytes, a %s block "
                          "%s %u",
                          i, (unsigned long long)i * bs, (unsigned long long)(g->ptr[i] + data_off),
                          (unsigned long long)len, g->stored[i] ? "stored" : "compressed",
                          g->stored[i] ? "must hold exactly" : "at most", bs);
            goto fail;
        }
    }
    if ((rc = disc_bcache_init(&g->cache, bs, cache_bytes, err)) != 0)
        goto fail;
    disc_bcache_set_ahead(&g->cache, gcz_next, gcz_ahead, g);
    free(tab);
    info->disc_size = dsize;
    info->block_size = bs;
    info->cache_unit = bs;
    info->compression = "zlib";
    *ctx = g;
    return 0;
fail:
    free(tab);
    disc_gcz_close(g);
    return rc;
}

/* Block i's compressed bytes in (len of them) inflated into out: by libdeflate when d is
 * given (several times faster), else or on a failure by zlib, which tells how far it got. */
static int gcz_inflate(gcz *g, uint32_t i, struct libdeflate_decompressor *d, const uint8_t *in,
                       size_t len, uint8_t *out, uint64_t at, uint64_t disc, util_err *err)
{
    size_t n = 0;
    if (d && libdeflate_zlib_decompress(d, in, len, out, g->block_size, &n) == LIBDEFLATE_SUCCESS &&
        n == g->block_size)
        return 0;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK)
        return util_fail(err, UTIL_ENOMEM, disc, "out of memory for zlib");
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = g->block_size;
    int zr = inflate(&z, Z_FINISH);
    uint64_t got = z.total_out;
    inflateEnd(&z);
    if (zr != Z_STREAM_END || got != g->block_size)
        return util_fail(err, UTIL_EFORMAT, disc,
                         "GCZ block %u at 0x%llx (disc 0x%llx): zlib data %s (%llu of %u bytes)", i,
                         (unsigned long long)at, (unsigned long long)i * g->block_size,
                         zr == Z_STREAM_END || zr == Z_BUF_ERROR ? "of the wrong size" : "corrupt",
                         (unsigned long long)got, g->block_size);
    return 0;
}

/* Block i's bytes (block_size of them) into out; tmp holds block_size bytes for the stored
 * form; d: a libdeflate decompressor or NULL. A fault names the container and disc offsets;
 * its offset is disc. */
static int gcz_block(gcz *g, uint32_t i, uint8_t *out, uint8_t *tmp,
                     struct libdeflate_decompressor *d, uint64_t disc, util_err *err)
{
    uint64_t at = g->data_off + g->ptr[i];
    size_t len = (size_t)(g->ptr[i + 1] - g->ptr[i]);
    uint8_t *raw = g->stored[i] ? out : tmp;
    util_err e;
    util_err_clear(&e);
    if (util_src_read(g->file, raw, at, len, &e) != 0)
        return util_fail(err, e.code, disc, "GCZ block %u at 0x%llx (disc 0x%llx): %s", i,
                         (unsigned long long)at, (unsigned long long)i * g->block_size, e.msg);
    uint32_t sum = libdeflate_adler32(1, raw, len);
    if (sum != g->hash[i])
        return util_fail(err, UTIL_EFORMAT, disc,
                         "GCZ block %u at 0x%llx (disc 0x%llx): Adler-32 %08x, the table "
                         "says %08x",
                         i, (unsigned long long)at, (unsigned long long)i * g->block_size, sum,
                         g->hash[i]);
    return g->stored[i] ? 0 : gcz_inflate(g, i, d, tmp, len, out, at, disc, err);
}

/* The cache's decode ahead (disc_bcache_set_ahead): the block after b, when there is one */
static int gcz_next(void *ctx, uint64_t b, uint64_t *next)
{
    const gcz *g = ctx;
    *next = b + 1;
    return b + 1 < g->nblocks;
}

/* and block b into a new buffer. */
static int gcz_ahead(void *ctx, uint64_t b, uint8_t **out, size_t *len)
{
    gcz *g = ctx;
    uint8_t *buf = malloc(g->block_size), *tmp = malloc(g->block_size);
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    util_err e;
    util_err_clear(&e);
    int rc =
        buf && tmp ? gcz_block(g, (uint32_t)b, buf, tmp, d, b * g->block_size, &e) : UTIL_ENOMEM;
    libdeflate_free_decompressor(d);
    free(tmp);
    if (rc) {
        free(buf);
        return rc;
    }
    *out = buf;
    *len = g->block_size;
    return 0;
}

void disc_gcz_span(void *ctx, uint64_t off, uint64_t len, uint64_t *lo, uint64_t *hi)
{
    const gcz *g = ctx;
    uint64_t first = off / g->block_size, last = (off + len - 1) / g->block_size;
    if (last >= g->nblocks)
        last = g->nblocks - 1;
    /* the blocks are stored in order (checked at open): ptr[] never decreases */
    *lo = g->data_off + g->ptr[first];
    *hi = g->data_off + g->ptr[last + 1];
}

int disc_gcz_read(void *ctx, void *dst, uint64_t off, size_t len, util_err *err)
{
    gcz *g = ctx;
    uint8_t *p = dst, *buf = NULL, *tmp = NULL;
    struct libdeflate_decompressor *d = NULL; /* made with the first block this read decodes */
    int rc = 0;
    while (len && !rc) {
        uint64_t b = off / g->block_size;
        size_t boff = (size_t)(off % g->block_size);
        size_t n = g->block_size - boff < len ? g->block_size - boff : len;
        size_t ticket;
        if (!disc_bcache_begin(&ticket, &g->cache, b, p, boff, n)) {
            if (!buf)
                buf = malloc(g->block_size);
            if (!tmp)
                tmp = malloc(g->block_size);
            if (!d)
                d = libdeflate_alloc_decompressor(); /* NULL: zlib alone */
            if (!buf || !tmp)
                rc = util_fail(err, UTIL_ENOMEM, off, "out of memory for a GCZ block");
            else
                rc = gcz_block(g, (uint32_t)b, buf, tmp, d, off, err);
            if (rc == 0)
                memcpy(p, buf + boff, n);
            disc_bcache_end(&g->cache, ticket, b, rc == 0 ? &buf : NULL, g->block_size);
            if (rc)
                break;
        }
        p += n;
        off += n;
        len -= n;
    }
    free(buf);
    free(tmp);
    libdeflate_free_decompressor(d);
    return rc;
}

disc_bcache *disc_gcz_cache(void *ctx)
{
    gcz *g = ctx;
    return &g->cache;
}
