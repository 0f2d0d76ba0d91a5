/* disc_wia.c — WIA and RVZ containers (docs/formats.md §13.1): a GameCube disc image stored as
 * groups of compressed data, read in place.
 *
 * Layout (all big-endian):
 *   header 1 at 0, 0x48 bytes: magic "WIA\x01"/"RVZ\x01", version, version_compatible,
 *     header 2 size, SHA-1 of header 2, iso size u64, file size u64, SHA-1 of the 0x34 bytes
 *     before it.
 *   header 2 at 0x48: disc type, compression, level (signed), chunk size, the disc's first 0x80
 *     bytes, partition count/entry size/offset/SHA-1, raw-data count/offset/stored size,
 *     group count/offset/stored size, compressor data length and 7 bytes (LZMA: lc/lp/pb
 *     byte + dictionary size LE; LZMA2: one dictionary byte).
 *   raw-data entries (24 bytes, stored compressed): disc offset u64, size u64, first group,
 *     group count; the offset rounds down to 32 KiB for the group arithmetic.
 *   group entries (WIA 8 bytes, RVZ 12): file offset / 4, stored size (RVZ: bit 31 set when
 *     compressed, else stored as is), RVZ: size after decompression when packed, else 0.
 *   A group holds chunk-size bytes of the disc (less at an area's end); stored size 0 means
 *   zeros. RVZ packing: runs of u32 size, bit 31 set = junk regenerated from a 68-byte seed.
 * Every table and group offset/size is checked against the file before use. Decoded groups
 * are kept in the unit cache GCZ uses too (disc_bcache.c). */
#include <bzlib.h>
#include <lzma.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "disc.h"
#include "disc_ctr.h"
#include "disc_junk.h"
#include "disc_sha1.h"
#include "disc_wia.h"

#define H1_SIZE        0x48u
#define H2_MIN_SIZE    0xD5u /* header 2 without the 7 bytes of compressor data */
#define H2_FULL_SIZE   0xDCu
#define H2_MAX_SIZE    0x10000u
#define DISC_HEAD_SIZE 0x80u
#define RAW_ENTRY_SIZE 24u
#define PART_ENTRY_MIN 48u
#define SECTOR         0x8000u
#define WII_GROUP      0x200000u
/* Caps: a GameCube disc is 1.4 GB; chunks are 32 KiB to 2 MiB by default (WIA allows any
 * multiple of 2 MiB; dolphin-tool writes up to 64 MiB, and a decoded group is one chunk). */
#define MAX_ISO_SIZE  (8ull << 30)
#define MAX_CHUNK     DISC_MAX_BLOCK
#define MAX_RAW       65536u
#define DEFAULT_CACHE (8u << 20)
#define ZSTD_IDLE     16u /* idle zstd contexts kept for the next decode; more are freed */

enum { C_NONE, C_PURGE, C_BZIP2, C_LZMA, C_LZMA2, C_ZSTD };
static const char *const method_names[] = {"none", "purge", "bzip2", "LZMA", "LZMA2", "zstd"};

typedef struct wia_raw {
    uint64_t start, end; /* disc bytes this area covers */
    uint64_t base;       /* start rounded down to 32 KiB: where its first group begins */
    uint32_t group, n_groups;
} wia_raw;

typedef struct wia_group {
    uint64_t file_off;
    uint32_t size;   /* stored bytes; 0 = all zeros */
    uint32_t packed; /* RVZ: bytes after decompression, before unpacking; 0 = not packed */
    uint8_t compressed;
} wia_group;

struct disc_wia {
    util_src *file;
    uint64_t file_size;   /* bytes of the file */
    uint64_t group_limit; /* the end of the groups: the size header 1 states (>= file_size) */
    disc_wia_info info;
    const char *kind; /* "WIA" or "RVZ" */
    uint8_t head[DISC_HEAD_SIZE];
    uint8_t cdata[7];
    uint8_t cdata_len;
    uint64_t raw_table_off;
    wia_raw *raws;
    uint32_t n_raws;
    wia_group *groups;
    uint32_t n_groups;
    size_t cache_limit;
    disc_bcache cache;               /* decoded groups, keyed by group_key */
    atomic_uint_fast64_t decodes;    /* groups decoded (disc_wia_decodes) */
    pthread_mutex_t lock;            /* guards the idle zstd contexts */
    ZSTD_DCtx *zstd_idle[ZSTD_IDLE]; /* contexts no decode is using (under lock) */
    size_t n_zstd_idle;
};

static atomic_uint_fast64_t g_decodes_all; /* disc_wia_decodes_all */

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
    return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* ---- decompression ------------------------------------------------------------------ */

/* PURGE: segments (u32 offset, u32 size, bytes) in ascending order, then the SHA-1 of the
 * segments; bytes no segment covers are zero. */
static int unpurge(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len, char *why,
                   size_t why_len)
{
    if (in_len < DISC_SHA1_LEN) {
        snprintf(why, why_len, "purge: %zu bytes, shorter than its SHA-1", in_len);
        return -1;
    }
    size_t body = in_len - DISC_SHA1_LEN;
    uint8_t sum[DISC_SHA1_LEN];
    disc_sha1(sum, in, body);
    if (memcmp(sum, in + body, DISC_SHA1_LEN) != 0) {
        snprintf(why, why_len, "purge: SHA-1 mismatch");
        return -1;
    }
    size_t at = 0, pos = 0;
    while (pos < body) {
        if (body - pos < 8) {
            snprintf(why, why_len, "purge: segment header cut at +0x%zx", pos);
            return -1;
        }
        uint32_t off = be32(in + pos), size = be32(in + pos + 4);
        pos += 8;
        if (off < at || off > out_len || size > out_len - off || size > body - pos) {
            snprintf(why, why_len, "purge: segment at +0x%zx (0x%x, 0x%x bytes) out of place",
                     pos - 8, off, size);
            return -1;
        }
        memset(out + at, 0, off - at);
        memcpy(out + off, in + pos, size);
        pos += size;
        at = (size_t)off + size;
    }
    memset(out + at, 0, out_len - at);
    return 0;
}

static int unbzip2(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len, char *why,
                   size_t why_len)
{
    bz_stream s;
    memset(&s, 0, sizeof s);
    if (in_len > 0xFFFFFFFFu || out_len > 0xFFFFFFFFu || BZ2_bzDecompressInit(&s, 0, 0) != BZ_OK) {
        snprintf(why, why_len, "bzip2: cannot start the decoder");
        return -1;
    }
    s.next_in = (char *)(uintptr_t)in;
    s.avail_in = (unsigned)in_len;
    s.next_out = (char *)out;
    s.avail_out = (unsigned)out_len;
    int rc;
    do {
        rc = BZ2_bzDecompress(&s);
    } while (rc == BZ_OK && s.avail_out > 0 && s.avail_in > 0);
    size_t got = out_len - s.avail_out;
    unsigned left = s.avail_in;
    BZ2_bzDecompressEnd(&s);
    if (rc != BZ_STREAM_END && rc != BZ_OK) {
        snprintf(why, why_len, "bzip2: error %d", rc);
        return -1;
    }
    if (rc != BZ_STREAM_END || got != out_len || left != 0) {
        snprintf(why, why_len, "bzip2: %zu bytes%s, expected %zu", got,
                 rc == BZ_STREAM_END ? "" : " and no end of stream", out_len);
        return -1;
    }
    return 0;
}

static const char *lzma_name(lzma_ret r)
{
    switch (r) {
    case LZMA_MEM_ERROR:
        return "out of memory";
    case LZMA_OPTIONS_ERROR:
        return "unsupported options";
    case LZMA_DATA_ERROR:
        return "data is corrupt";
    case LZMA_BUF_ERROR:
        return "data is truncated";
    default:
        return "error";
    }
}

static int unlzma(const disc_wia *w, int lzma2, const uint8_t *in, size_t in_len, uint8_t *out,
                  size_t out_len, char *why, size_t why_len)
{
    const char *name = lzma2 ? "LZMA2" : "LZMA";
    lzma_options_lzma opt;
    memset(&opt, 0, sizeof opt);
    uint32_t dict;
    if (lzma2) {
        uint8_t d = w->cdata[0];
        dict = d >= 40 ? 0xFFFFFFFFu : (2u | (d & 1u)) << (d / 2 + 11);
    } else {
        uint8_t d = w->cdata[0];
        opt.lc = d % 9;
        opt.lp = (d / 9) % 5;
        opt.pb = d / 45;
        dict = (uint32_t)w->cdata[1] | (uint32_t)w->cdata[2] << 8 | (uint32_t)w->cdata[3] << 16 |
               (uint32_t)w->cdata[4] << 24;
    }
    /* A dictionary larger than the output can never be used: do not let the header make us
     * allocate one. */
    if (dict > out_len)
        dict = (uint32_t)out_len;
    if (dict < LZMA_DICT_SIZE_MIN)
        dict = LZMA_DICT_SIZE_MIN;
    opt.dict_size = dict;
    lzma_filter filters[2] = {
        {.id = lzma2 ? LZMA_FILTER_LZMA2 : LZMA_FILTER_LZMA1, .options = &opt},
        {.id = LZMA_VLI_UNKNOWN, .options = NULL}};
    lzma_stream s = LZMA_STREAM_INIT;
    lzma_ret r = lzma_raw_decoder(&s, filters);
    if (r != LZMA_OK) {
        snprintf(why, why_len, "%s: %s", name, lzma_name(r));
        lzma_end(&s);
        return -1;
    }
    s.next_in = in;
    s.avail_in = in_len;
    s.next_out = out;
    s.avail_out = out_len;
    do {
        r = lzma_code(&s, LZMA_FINISH);
    } while (r == LZMA_OK);
    size_t got = out_len - s.avail_out, left = s.avail_in;
    lzma_end(&s);
    if (r != LZMA_STREAM_END && !(r == LZMA_BUF_ERROR && got == out_len)) {
        snprintf(why, why_len, "%s: %s", name, lzma_name(r));
        return -1;
    }
    if (r != LZMA_STREAM_END || got != out_len || left != 0) {
        snprintf(why, why_len, "%s: %zu bytes%s, expected %zu", name, got,
                 r == LZMA_STREAM_END ? "" : " and no end of stream", out_len);
        return -1;
    }
    return 0;
}

/* A zstd context costs more to create than a small group costs to decode: take an idle one
 * (or create one) and give it back for the next group. */
static int unzstd(disc_wia *w, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len,
                  char *why, size_t why_len)
{
    ZSTD_DCtx *z = NULL;
    pthread_mutex_lock(&w->lock);
    if (w->n_zstd_idle)
        z = w->zstd_idle[--w->n_zstd_idle];
    pthread_mutex_unlock(&w->lock);
    if (!z)
        z = ZSTD_createDCtx();
    if (!z) {
        snprintf(why, why_len, "zstd: out of memory");
        return -1;
    }
    size_t r = ZSTD_decompressDCtx(z, out, out_len, in, in_len);
    pthread_mutex_lock(&w->lock);
    if (w->n_zstd_idle < ZSTD_IDLE) {
        w->zstd_idle[w->n_zstd_idle++] = z;
        z = NULL;
    }
    pthread_mutex_unlock(&w->lock);
    ZSTD_freeDCtx(z);
    if (ZSTD_isError(r)) {
        snprintf(why, why_len, "zstd: %s", ZSTD_getErrorName(r));
        return -1;
    }
    if (r != out_len) {
        snprintf(why, why_len, "zstd: %zu bytes, expected %zu", r, out_len);
        return -1;
    }
    return 0;
}

/* Decode in[0..in_len) stored with method into exactly out_len bytes. */
static int decode(disc_wia *w, uint32_t method, const uint8_t *in, size_t in_len, uint8_t *out,
                  size_t out_len, char *why, size_t why_len)
{
    switch (method) {
    case C_NONE:
        if (in_len != out_len) {
            snprintf(why, why_len, "stored %zu bytes, expected %zu", in_len, out_len);
            return -1;
        }
        memcpy(out, in, in_len);
        return 0;
    case C_PURGE:
        return unpurge(in, in_len, out, out_len, why, why_len);
    case C_BZIP2:
        return unbzip2(in, in_len, out, out_len, why, why_len);
    case C_LZMA:
    case C_LZMA2:
        return unlzma(w, method == C_LZMA2, in, in_len, out, out_len, why, why_len);
    case C_ZSTD:
        return unzstd(w, in, in_len, out, out_len, why, why_len);
    default:
        snprintf(why, why_len, "unknown compression method %u", method);
        return -1;
    }
}

/* RVZ packing: runs of (u32 size, bytes) or (u32 size | 1 << 31, 68-byte seed) whose junk is
 * regenerated, positioned by the disc offset within its 32 KiB block. */
static int unpack(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len, uint64_t disc_off,
                  char *why, size_t why_len)
{
    size_t pos = 0, at = 0;
    while (pos < in_len) {
        if (in_len - pos < 4) {
            snprintf(why, why_len, "RVZ packing: run header cut at +0x%zx", pos);
            return -1;
        }
        uint32_t size = be32(in + pos);
        int junk = (size & 0x80000000u) != 0;
        size &= 0x7FFFFFFFu;
        pos += 4;
        if (size > out_len - at) {
            snprintf(why, why_len, "RVZ packing: run of 0x%x bytes at +0x%zx past the group's end",
                     size, pos - 4);
            return -1;
        }
        if (junk) {
            if (in_len - pos < DISC_JUNK_SEED_SIZE) {
                snprintf(why, why_len, "RVZ packing: seed cut at +0x%zx", pos);
                return -1;
            }
            disc_lfg g;
            disc_lfg_seed_bytes(&g, in + pos);
            disc_lfg_skip(&g, (disc_off + at) % DISC_JUNK_BLOCK);
            disc_lfg_get(&g, out + at, size);
            pos += DISC_JUNK_SEED_SIZE;
        } else {
            if (in_len - pos < size) {
                snprintf(why, why_len, "RVZ packing: run of 0x%x bytes at +0x%zx cut", size,
                         pos - 4);
                return -1;
            }
            memcpy(out + at, in + pos, size);
            pos += size;
        }
        at += size;
    }
    if (at != out_len) {
        snprintf(why, why_len, "RVZ packing: 0x%zx bytes, expected 0x%zx", at, out_len);
        return -1;
    }
    return 0;
}

/* ---- opening ------------------------------------------------------------------------ */

/* Read a table of n entries of size esz, stored (compressed) in [off, off + stored); field is
 * where header 2 gives its offset (the error's offset when the table lies outside the file). */
static int read_table(disc_wia *w, uint8_t **out, uint64_t field, uint64_t off, uint64_t stored,
                      uint32_t n, size_t esz, const char *what, util_err *err)
{
    *out = NULL;
    if (off > w->file_size || stored > w->file_size - off)
        return util_fail(err, UTIL_EFORMAT, field,
                         "%s %s table (file 0x%08llX, 0x%llx bytes) runs past the file's end "
                         "(0x%llx)",
                         w->kind, what, (unsigned long long)off, (unsigned long long)stored,
                         (unsigned long long)w->file_size);
    size_t want = (size_t)n * esz;
    uint8_t *raw = NULL, *tab = malloc(want ? want : 1);
    if (!tab)
        return util_fail(err, UTIL_ENOMEM, off, "out of memory for the %s table", what);
    int rc = util_src_read_alloc(w->file, &raw, off, (size_t)stored, err);
    if (rc) {
        free(tab);
        return rc;
    }
    char why[128];
    if (decode(w, w->info.compression, raw, (size_t)stored, tab, want, why, sizeof why) != 0)
        rc = util_fail(err, UTIL_EFORMAT, off, "%s %s table (file 0x%08llX): %s", w->kind, what,
                       (unsigned long long)off, why);
    free(raw);
    if (rc) {
        free(tab);
        return rc;
    }
    *out = tab;
    return 0;
}

static int cmp_raw(const void *a, const void *b)
{
    const wia_raw *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static int parse_tables(disc_wia *w, const uint8_t *h2, util_err *err)
{
    const uint64_t h2_at = H1_SIZE;
    uint32_t n_raw = be32(h2 + 0xB4), raw_stored = be32(h2 + 0xC0);
    uint64_t raw_off = be64(h2 + 0xB8);
    uint32_t n_groups = be32(h2 + 0xC4), group_stored = be32(h2 + 0xD0);
    uint64_t group_off = be64(h2 + 0xC8);
    uint64_t iso = w->info.iso_size, chunk = w->info.chunk_size;
    if (n_raw == 0 || n_raw > MAX_RAW || n_raw > iso / SECTOR + 2)
        return util_fail(err, UTIL_EFORMAT, h2_at + 0xB4, "%s: %u raw-data entries", w->kind,
                         n_raw);
    /* every group holds at least one 32 KiB block of the disc, but for one partial group at
     * each end of every area */
    if (n_groups > iso / SECTOR + 2 * (uint64_t)n_raw)
        return util_fail(err, UTIL_EFORMAT, h2_at + 0xC4,
                         "%s: %u groups for a disc of 0x%llx bytes", w->kind, n_groups,
                         (unsigned long long)iso);
    uint8_t *rt = NULL, *gt = NULL;
    w->raw_table_off = raw_off;
    TRY(read_table(w, &rt, h2_at + 0xB8, raw_off, raw_stored, n_raw, RAW_ENTRY_SIZE, "raw-data",
                   err));
    size_t gsz = w->info.is_rvz ? 12 : 8;
    int rc = read_table(w, &gt, h2_at + 0xC8, group_off, group_stored, n_groups, gsz, "group", err);
    if (rc) {
        free(rt);
        return rc;
    }
    w->raws = calloc(n_raw, sizeof *w->raws);
    w->groups = calloc(n_groups ? n_groups : 1, sizeof *w->groups);
    if (!w->raws || !w->groups) {
        free(rt);
        free(gt);
        return util_fail(err, UTIL_ENOMEM, raw_off, "out of memory for the %s tables", w->kind);
    }
    w->n_groups = n_groups;
    for (uint32_t i = 0; i < n_groups; i++) {
        const uint8_t *e = gt + (size_t)i * gsz;
        wia_group *g = &w->groups[i];
        uint32_t size = be32(e + 4);
        if (w->info.is_rvz) {
            g->compressed = (size & 0x80000000u) != 0;
            size &= 0x7FFFFFFFu;
            g->packed = be32(e + 8);
        } else {
            g->compressed = w->info.compression != C_NONE;
        }
        g->size = size;
        g->file_off = (uint64_t)be32(e) * 4;
        if (size && (g->file_off > w->group_limit || size > w->group_limit - g->file_off)) {
            rc = util_fail(err, UTIL_EFORMAT, group_off,
                           "%s group %u (file 0x%08llX, 0x%x bytes) runs past the file's end "
                           "(0x%llx)",
                           w->kind, i, (unsigned long long)g->file_off, size,
                           (unsigned long long)w->group_limit);
            break;
        }
        if (size && g->packed > 2 * chunk + 0x10000) {
            rc = util_fail(err, UTIL_EFORMAT, group_off,
                           "%s group %u: packed size 0x%x for a chunk of 0x%llx bytes", w->kind, i,
                           g->packed, (unsigned long long)chunk);
            break;
        }
    }
    for (uint32_t i = 0; rc == 0 && i < n_raw; i++) {
        const uint8_t *e = rt + (size_t)i * RAW_ENTRY_SIZE;
        uint64_t off = be64(e), size = be64(e + 8);
        uint32_t first = be32(e + 16), count = be32(e + 20);
        wia_raw *r = &w->raws[w->n_raws];
        if (size == 0)
            continue;
        if (off > iso || size > iso - off) {
            rc = util_fail(err, UTIL_EFORMAT, raw_off,
                           "%s raw-data entry %u (disc 0x%llx, 0x%llx bytes) runs past the disc's "
                           "end (0x%llx)",
                           w->kind, i, (unsigned long long)off, (unsigned long long)size,
                           (unsigned long long)iso);
            break;
        }
        r->start = off;
        r->end = off + size;
        r->base = off - off % SECTOR;
        uint64_t need = (r->end - r->base + chunk - 1) / chunk;
        if (count != need || first > n_groups || count > n_groups - first) {
            rc = util_fail(err, UTIL_EFORMAT, raw_off,
                           "%s raw-data entry %u (disc 0x%llx, 0x%llx bytes): groups %u+%u, "
                           "expected %llu of the %u",
                           w->kind, i, (unsigned long long)off, (unsigned long long)size, first,
                           count, (unsigned long long)need, n_groups);
            break;
        }
        r->group = first;
        r->n_groups = count;
        w->n_raws++;
    }
    free(rt);
    free(gt);
    if (rc)
        return rc;
    qsort(w->raws, w->n_raws, sizeof *w->raws, cmp_raw);
    for (uint32_t i = 1; i < w->n_raws; i++)
        if (w->raws[i].start < w->raws[i - 1].end)
            return util_fail(err, UTIL_EFORMAT, raw_off,
                             "%s raw-data entries overlap at disc 0x%llx", w->kind,
                             (unsigned long long)w->raws[i].start);
    return 0;
}

static int check_header2(disc_wia *w, const uint8_t *h2, uint32_t h2_size, util_err *err)
{
    const uint64_t at = H1_SIZE;
    uint32_t type = be32(h2), method = be32(h2 + 4), chunk = be32(h2 + 12);
    w->info.compression = method;
    w->info.compression_level = (int32_t)be32(h2 + 8);
    w->info.chunk_size = chunk;
    memcpy(w->head, h2 + 16, DISC_HEAD_SIZE);
    w->cdata_len = h2[0xD4];
    if (w->cdata_len > 7 || h2_size < H2_MIN_SIZE + w->cdata_len)
        return util_fail(err, UTIL_EFORMAT, at + 0xD4, "%s: compressor data of %u bytes", w->kind,
                         w->cdata_len);
    memcpy(w->cdata, h2 + 0xD5, w->cdata_len);
    if (type == 2 || be32(w->head + 0x18) == DISC_WII_MAGIC || be32(h2 + 0x90) != 0)
        return util_fail(err, UTIL_EFORMAT, at,
                         "%s holds a Wii disc (partitioned): ancsdb reads GameCube discs", w->kind);
    if (type > 2)
        return util_fail(err, UTIL_EFORMAT, at, "%s: unknown disc type %u", w->kind, type);
    int pow2 = chunk >= SECTOR && (chunk & (chunk - 1)) == 0 && chunk <= WII_GROUP;
    if (chunk == 0 || chunk > MAX_CHUNK || (!(w->info.is_rvz && pow2) && chunk % WII_GROUP != 0))
        return util_fail(err, UTIL_EFORMAT, at + 12, "%s: chunk size 0x%x", w->kind, chunk);
    if (method > C_ZSTD || (w->info.is_rvz && method == C_PURGE) ||
        (!w->info.is_rvz && method == C_ZSTD))
        return util_fail(err, UTIL_EFORMAT, at + 4, "%s: unknown compression method %u", w->kind,
                         method);
    w->info.compression_name = method_names[method];
    if (method == C_LZMA && (w->cdata_len != 5 || w->cdata[0] >= 9 * 5 * 5))
        return util_fail(err, UTIL_EFORMAT, at + 0xD4, "%s: bad LZMA properties", w->kind);
    if (method == C_LZMA2 && (w->cdata_len != 1 || w->cdata[0] > 40))
        return util_fail(err, UTIL_EFORMAT, at + 0xD4, "%s: bad LZMA2 properties", w->kind);
    /* no partitions: the partition table is empty and its hash that of no bytes */
    uint8_t sum[DISC_SHA1_LEN];
    disc_sha1(sum, "", 0);
    if (memcmp(sum, h2 + 0xA0, DISC_SHA1_LEN) != 0)
        return util_fail(err, UTIL_EFORMAT, at + 0xA0, "%s: partition table SHA-1 mismatch",
                         w->kind);
    return parse_tables(w, h2, err);
}

static int group_next(void *ctx, uint64_t key, uint64_t *next);
static int group_ahead(void *ctx, uint64_t key, uint8_t **out, size_t *len);

/* disc_wia_open, with the size header 1 states in *stated once read (else 0). */
static int wia_open(disc_wia **out, util_src *file, size_t cache_bytes, uint64_t *stated_out,
                    util_err *err)
{
    *out = NULL;
    *stated_out = 0;
    uint64_t fsize = util_src_size(file);
    uint8_t h1[H1_SIZE];
    if (fsize < H1_SIZE) {
        TRY(util_src_read(file, h1, 0, (size_t)(fsize < 4 ? fsize : 4), err));
        return util_fail(err, UTIL_ETRUNC, fsize, "WIA/RVZ: header needs 0x48 bytes, file has %llu",
                         (unsigned long long)fsize);
    }
    TRY(util_src_read(file, h1, 0, H1_SIZE, err));
    int rvz;
    if (memcmp(h1, "RVZ\x01", 4) == 0)
        rvz = 1;
    else if (memcmp(h1, "WIA\x01", 4) == 0)
        rvz = 0;
    else
        return util_fail(err, UTIL_EFORMAT, 0, "not a WIA or RVZ file (magic)");
    const char *kind = rvz ? "RVZ" : "WIA";
    uint8_t sum[DISC_SHA1_LEN];
    disc_sha1(sum, h1, 0x34);
    if (memcmp(sum, h1 + 0x34, DISC_SHA1_LEN) != 0)
        return util_fail(err, UTIL_EFORMAT, 0x34, "%s: header 1 SHA-1 mismatch", kind);
    uint32_t version = be32(h1 + 4), compatible = be32(h1 + 8);
    uint32_t oldest = rvz ? 0x00030000u : 0x00080000u;
    if (compatible > 0x01000000u || version < oldest)
        return util_fail(err, UTIL_EFORMAT, 4, "%s: version 0x%08x (compatible 0x%08x) unsupported",
                         kind, version, compatible);
    uint64_t iso = be64(h1 + 0x24), stated = be64(h1 + 0x2C);
    *stated_out = stated;
    /* a file cut short still opens when its tables are there (each group is checked against
     * the size the header states; reading one past the cut is a fault) */
    if (stated < fsize)
        return util_fail(err, UTIL_EFORMAT, 0x2C,
                         "%s: file is 0x%llx bytes, its header says 0x%llx", kind,
                         (unsigned long long)fsize, (unsigned long long)stated);
    if (iso < DISC_HEADER_SIZE || iso > MAX_ISO_SIZE)
        return util_fail(err, UTIL_EFORMAT, 0x24, "%s: disc size 0x%llx", kind,
                         (unsigned long long)iso);
    uint32_t h2_size = be32(h1 + 0x0C);
    if (h2_size < H2_MIN_SIZE || h2_size > H2_MAX_SIZE || h2_size > fsize - H1_SIZE)
        return util_fail(err, UTIL_EFORMAT, 0x0C, "%s: header 2 of 0x%x bytes", kind, h2_size);
    uint8_t *h2 = NULL;
    TRY(util_src_read_alloc(file, &h2, H1_SIZE, h2_size, err));
    disc_sha1(sum, h2, h2_size);
    if (memcmp(sum, h1 + 0x10, DISC_SHA1_LEN) != 0) {
        free(h2);
        return util_fail(err, UTIL_EFORMAT, 0x10, "%s: header 2 SHA-1 mismatch", kind);
    }
    uint8_t h2full[H2_FULL_SIZE] = {0};
    memcpy(h2full, h2, h2_size < H2_FULL_SIZE ? h2_size : H2_FULL_SIZE);
    free(h2);

    disc_wia *w = calloc(1, sizeof *w);
    if (!w)
        return util_fail(err, UTIL_ENOMEM, 0, "out of memory");
    /* before the tables: decoding them may take a zstd context from the pool */
    if (pthread_mutex_init(&w->lock, NULL) != 0) {
        free(w);
        return util_fail(err, UTIL_ENOMEM, 0, "cannot create a lock");
    }
    w->file = file;
    w->file_size = fsize;
    w->group_limit = stated > fsize ? stated : fsize; /* the groups must lie within it */
    w->kind = kind;
    w->info.stated_size = stated > fsize ? stated : 0;
    w->info.is_rvz = rvz;
    w->info.version = version;
    w->info.iso_size = iso;
    w->cache_limit = cache_bytes ? cache_bytes : DEFAULT_CACHE;
    int rc = check_header2(w, h2full, h2_size, err);
    if (rc == 0 && (rc = disc_bcache_init(&w->cache, w->info.chunk_size, w->cache_limit, err)) == 0)
        disc_bcache_set_ahead(&w->cache, group_next, group_ahead, w);
    if (rc) {
        disc_wia_close(w);
        return rc;
    }
    *out = w;
    return 0;
}

int disc_wia_open(disc_wia **out, util_src *file, size_t cache_bytes, util_err *err)
{
    uint64_t stated = 0, fsize = util_src_size(file);
    int rc = wia_open(out, file, cache_bytes, &stated, err);
    if (rc && rc != UTIL_ENOMEM && stated > fsize) {
        /* a file cut before its tables end: the cut is the fault to report */
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err ? err->msg : "");
        return util_fail(err, UTIL_ETRUNC, fsize,
                         "WIA/RVZ file cut short: it ends at 0x%llx, its header says 0x%llx (%s)",
                         (unsigned long long)fsize, (unsigned long long)stated, why);
    }
    return rc;
}

/* ---- reading ------------------------------------------------------------------------ */

/* The group a disc offset lies in: its raw-data area (index into raws), its index, the
 * disc offset it starts at and its length. */
typedef struct wia_at {
    uint32_t area, group;
    uint64_t start;
    size_t len;
} wia_at;

/* The cache's key of a group: the area and group index together (a group's bytes depend on
 * the disc offset it is read at, which its area gives). */
static uint64_t group_key(const wia_at *a)
{
    return (uint64_t)a->area << 32 | a->group;
}

/* The at of group i of area ai (i counted from the area's first group). */
static wia_at group_at(const disc_wia *w, uint32_t ai, uint64_t i)
{
    const wia_raw *r = &w->raws[ai];
    uint64_t chunk = w->info.chunk_size, start = r->base + i * chunk;
    return (wia_at){.area = ai,
                    .group = r->group + (uint32_t)i,
                    .start = start,
                    .len = (size_t)(r->end - start < chunk ? r->end - start : chunk)};
}

/* Whether group g lies past the end of a file cut short. */
static int cut_off(const disc_wia *w, const wia_group *g)
{
    return g->file_off > w->file_size || g->size > w->file_size - g->file_off;
}

/* Decode the group at a into a new buffer *out. */
static int decode_group(disc_wia *w, const wia_at *a, uint8_t **out, util_err *err)
{
    const wia_group *g = &w->groups[a->group];
    uint32_t method = g->compressed ? w->info.compression : C_NONE;
    size_t len = a->len, mid_len = g->packed ? g->packed : len;
    uint8_t *stored = NULL, *mid = NULL, *data = malloc(len);
    int rc = data ? 0 : util_fail(err, UTIL_ENOMEM, g->file_off, "out of memory");
    if (rc == 0)
        rc = util_src_read_alloc(w->file, &stored, g->file_off, g->size, err);
    if (rc == 0 && g->packed && !(mid = malloc(mid_len)))
        rc = util_fail(err, UTIL_ENOMEM, g->file_off, "out of memory");
    char why[128];
    if (rc == 0 &&
        (decode(w, method, stored, g->size, g->packed ? mid : data, mid_len, why, sizeof why) ||
         (g->packed && unpack(mid, mid_len, data, len, a->start, why, sizeof why))))
        rc = util_fail(err, UTIL_EFORMAT, g->file_off,
                       "%s group %u (disc 0x%08llX, file 0x%08llX): %s", w->kind, a->group,
                       (unsigned long long)a->start, (unsigned long long)g->file_off, why);
    free(stored);
    free(mid);
    if (rc) {
        free(data);
        return rc;
    }
    *out = data;
    atomic_fetch_add(&w->decodes, 1);
    atomic_fetch_add(&g_decodes_all, 1);
    return 0;
}

/* The cache's decode ahead (disc_bcache_set_ahead): the group after key in its area, which a
 * reader going through the disc in order wants next, when it is stored in the file */
static int group_next(void *ctx, uint64_t key, uint64_t *next)
{
    const disc_wia *w = ctx;
    uint32_t ai = (uint32_t)(key >> 32), gi = (uint32_t)key;
    const wia_raw *r = &w->raws[ai];
    if (gi + 1 - r->group >= r->n_groups)
        return 0;
    const wia_group *g = &w->groups[gi + 1];
    *next = key + 1;
    return g->size != 0 && !cut_off(w, g);
}

/* and that group into a new buffer. */
static int group_ahead(void *ctx, uint64_t key, uint8_t **out, size_t *len)
{
    disc_wia *w = ctx;
    uint32_t ai = (uint32_t)(key >> 32);
    wia_at a = group_at(w, ai, (uint32_t)key - w->raws[ai].group);
    util_err e;
    util_err_clear(&e);
    *len = a.len;
    return decode_group(w, &a, out, &e); /* a fault: its reader meets it */
}

/* Copy [in_group, in_group + n) of the group at a to dst, from the cache or by decoding the
 * group (one thread at a time: disc_bcache_begin). */
static int read_group(disc_wia *w, const wia_at *a, size_t in_group, uint8_t *dst, size_t n,
                      util_err *err)
{
    const wia_group *g = &w->groups[a->group];
    if (g->size == 0) {
        memset(dst, 0, n);
        return 0;
    }
    /* a file cut short: the groups past its end are a fault, before anything is allocated */
    if (cut_off(w, g))
        return util_fail(err, UTIL_EIO, w->file_size,
                         "%s group %u (disc 0x%08llX) is at file 0x%08llX, 0x%x bytes, past the "
                         "end of the file (0x%llx; cut short: its header says 0x%llx)",
                         w->kind, a->group, (unsigned long long)a->start,
                         (unsigned long long)g->file_off, g->size, (unsigned long long)w->file_size,
                         (unsigned long long)w->group_limit);
    size_t ticket;
    uint64_t key = group_key(a);
    if (disc_bcache_begin(&ticket, &w->cache, key, dst, in_group, n))
        return 0;
    uint8_t *data = NULL;
    int rc = decode_group(w, a, &data, err);
    if (rc == 0)
        memcpy(dst, data + in_group, n);
    disc_bcache_end(&w->cache, ticket, key, rc == 0 ? &data : NULL, a->len);
    free(data);
    return rc;
}

void disc_wia_span(const disc_wia *w, uint64_t off, uint64_t len, uint64_t *lo, uint64_t *hi)
{
    *lo = UINT64_MAX;
    *hi = 0;
    uint64_t end = off + len, chunk = w->info.chunk_size;
    for (uint32_t ai = 0; ai < w->n_raws; ai++) { /* the groups may lie anywhere in the file */
        const wia_raw *r = &w->raws[ai];
        if (r->end <= off || r->start >= end)
            continue;
        uint64_t from = (off > r->base ? off - r->base : 0) / chunk;
        uint64_t stop = end < r->end ? end : r->end, to = (stop - r->base + chunk - 1) / chunk;
        for (uint64_t i = from; i < to && i < r->n_groups; i++) {
            const wia_group *g = &w->groups[r->group + i];
            if (g->size == 0)
                continue;
            *lo = g->file_off < *lo ? g->file_off : *lo;
            *hi = g->file_off + g->size > *hi ? g->file_off + g->size : *hi;
        }
    }
    if (*lo > *hi)
        *lo = *hi = 0;
}

int disc_wia_read(disc_wia *w, void *dst, uint64_t off, size_t len, util_err *err)
{
    uint8_t *p = dst;
    uint64_t iso = w->info.iso_size;
    if (off > iso || len > iso - off)
        return util_fail(err, UTIL_EIO, off,
                         "read of %zu bytes at disc 0x%llx is past the disc's end (0x%llx)", len,
                         (unsigned long long)off, (unsigned long long)iso);
    if (off < DISC_HEAD_SIZE && len) {
        size_t n = DISC_HEAD_SIZE - (size_t)off < len ? DISC_HEAD_SIZE - (size_t)off : len;
        memcpy(p, w->head + off, n);
        p += n;
        off += n;
        len -= n;
    }
    while (len) {
        /* the first area ending after off */
        uint32_t lo = 0, hi = w->n_raws;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (w->raws[mid].end <= off)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == w->n_raws || w->raws[lo].start > off)
            return util_fail(err, UTIL_EFORMAT, w->raw_table_off,
                             "%s: disc 0x%08llX lies in no raw-data area (table at file 0x%08llX)",
                             w->kind, (unsigned long long)off,
                             (unsigned long long)w->raw_table_off);
        wia_at a = group_at(w, lo, (off - w->raws[lo].base) / w->info.chunk_size);
        size_t in_group = (size_t)(off - a.start);
        size_t n = a.len - in_group < len ? a.len - in_group : len;
        TRY(read_group(w, &a, in_group, p, n, err));
        p += n;
        off += n;
        len -= n;
    }
    return 0;
}

uint64_t disc_wia_decodes_all(void)
{
    return (uint64_t)atomic_load(&g_decodes_all);
}

uint64_t disc_wia_decodes(disc_wia *w)
{
    return (uint64_t)atomic_load(&w->decodes);
}

void disc_wia_set_decode_hook(disc_wia *w, void (*fn)(void *ctx), void *ctx)
{
    disc_bcache_set_decode_hook(&w->cache, fn, ctx);
}

unsigned disc_wia_waiters(disc_wia *w)
{
    return disc_bcache_waiters(&w->cache);
}

const disc_wia_info *disc_wia_get_info(const disc_wia *w)
{
    return w ? &w->info : NULL;
}

void disc_wia_close(disc_wia *w)
{
    if (!w)
        return;
    disc_bcache_free(&w->cache);
    for (size_t i = 0; i < w->n_zstd_idle; i++)
        ZSTD_freeDCtx(w->zstd_idle[i]);
    pthread_mutex_destroy(&w->lock);
    free(w->raws);
    free(w->groups);
    free(w);
}
