/* pak_write.c — build MP1/MP2 PAKs (docs/formats.md §2–3): tables, 32-aligned 0xFF-padded data,
 * entries stored raw, zlib level 9 or segmented LZO1X-999. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lzo1x.h>
#include <zlib.h>

#include "pak.h"

typedef struct builder_named {
    uint32_t type, id;
    char *name;
} builder_named;

typedef struct builder_res {
    uint32_t type, id;
    uint32_t compressed;
    uint8_t *bytes; /* what the PAK stores, before the 0xFF padding */
    size_t len;
} builder_res;

struct pak_builder {
    UTIL_VEC(builder_named) named;
    UTIL_VEC(builder_res) res;
    void *lzo_work; /* LZO1X-999 work memory, allocated on first use */
};

static uint64_t align32(uint64_t v)
{
    return (v + (PAK_ALIGN - 1)) & ~(uint64_t)(PAK_ALIGN - 1);
}

pak_builder *pak_builder_new(void)
{
    return calloc(1, sizeof(pak_builder));
}

void pak_builder_free(pak_builder *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->named.len; i++)
        free(b->named.items[i].name);
    for (size_t i = 0; i < b->res.len; i++)
        free(b->res.items[i].bytes);
    util_vec_free(&b->named);
    util_vec_free(&b->res);
    free(b->lzo_work);
    free(b);
}

int pak_builder_add_named(pak_builder *b, uint32_t type, uint32_t id, const char *name,
                          util_err *err)
{
    if (!name)
        name = "";
    size_t n = strlen(name);
    if (n > UINT32_MAX)
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "name too long");
    if (b->named.len >= UINT32_MAX || util_vec_reserve(&b->named, 1, NULL))
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory adding a name");
    char *copy = malloc(n + 1);
    if (!copy)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory adding a name");
    memcpy(copy, name, n + 1);
    b->named.items[b->named.len++] = (builder_named){type, id, copy};
    return 0;
}

static void put_u32(uint8_t *q, uint32_t v)
{
    q[0] = (uint8_t)(v >> 24);
    q[1] = (uint8_t)(v >> 16);
    q[2] = (uint8_t)(v >> 8);
    q[3] = (uint8_t)v;
}

/* u32 size + one zlib stream at level 9 (§3.1). */
static int compress_zlib(uint8_t **out, size_t *out_len, const uint8_t *data, size_t len,
                         util_err *err)
{
    uLong bound = compressBound((uLong)len);
    uint8_t *buf = malloc(4 + (size_t)bound);
    if (!buf)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory compressing");
    uLongf clen = bound;
    int zr = compress2(buf + 4, &clen, data, (uLong)len, 9);
    if (zr != Z_OK) {
        free(buf);
        return util_fail(err, zr == Z_MEM_ERROR ? UTIL_ENOMEM : UTIL_EFORMAT, UINT64_MAX,
                         "zlib compress2 failed (%d)", zr);
    }
    put_u32(buf, (uint32_t)len);
    *out = buf;
    *out_len = 4 + (size_t)clen;
    return 0;
}

/* u32 size + LZO1X-999 segments of 0x4000 input bytes with s16 lengths; a segment that
 * does not shrink is stored raw with a negative length (§3.2). */
static int compress_lzo(pak_builder *b, uint8_t **out, size_t *out_len, const uint8_t *data,
                        size_t len, util_err *err)
{
    int rc = 0;
    size_t nseg = (len + PAK_LZO_SEGMENT - 1) / PAK_LZO_SEGMENT;
    size_t seg_bound = 2 + PAK_LZO_SEGMENT + PAK_LZO_SEGMENT / 16 + 64 + 3;
    uint8_t *buf = NULL;
    if (nseg > (SIZE_MAX - 4) / seg_bound)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "resource too large");
    if (lzo_init() != LZO_E_OK)
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "lzo_init failed");
    if (!b->lzo_work && !(b->lzo_work = malloc(LZO1X_999_MEM_COMPRESS)))
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory for LZO work memory");
    buf = malloc(4 + nseg * seg_bound);
    if (!buf)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory compressing");
    put_u32(buf, (uint32_t)len);
    size_t pos = 4;
    for (size_t done = 0; done < len;) {
        size_t n = len - done < PAK_LZO_SEGMENT ? len - done : PAK_LZO_SEGMENT;
        lzo_uint clen = seg_bound - 2;
        int lr = lzo1x_999_compress(data + done, (lzo_uint)n, buf + pos + 2, &clen, b->lzo_work);
        if (lr != LZO_E_OK) {
            rc = util_fail(err, UTIL_EFORMAT, UINT64_MAX, "lzo1x_999_compress failed (%d)", lr);
            goto done;
        }
        int16_t slen;
        if (clen < n) {
            slen = (int16_t)clen;
        } else {
            memcpy(buf + pos + 2, data + done, n);
            slen = (int16_t) - (int32_t)n;
            clen = n;
        }
        buf[pos] = (uint8_t)((uint16_t)slen >> 8);
        buf[pos + 1] = (uint8_t)slen;
        pos += 2 + clen;
        done += n;
    }
    *out = buf;
    *out_len = pos;
    buf = NULL;
done:
    free(buf);
    return rc;
}

/* Append a resource whose stored bytes are bytes[0..len) (taken: freed here on failure). */
static int push(pak_builder *b, uint32_t type, uint32_t id, uint32_t compressed, uint8_t *bytes,
                size_t len, util_err *err)
{
    if (len > UINT32_MAX - 64) {
        free(bytes);
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "resource of %zu bytes is too large", len);
    }
    if (b->res.len >= UINT32_MAX || util_vec_reserve(&b->res, 1, NULL)) {
        free(bytes);
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory adding a resource");
    }
    b->res.items[b->res.len++] = (builder_res){type, id, compressed, bytes, len};
    return 0;
}

int pak_builder_add_stored(pak_builder *b, uint32_t type, uint32_t id, const uint8_t *bytes,
                           size_t len, uint32_t compressed, util_err *err)
{
    if (len > UINT32_MAX - 64)
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "resource of %zu bytes is too large", len);
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory adding a resource");
    if (len)
        memcpy(copy, bytes, len);
    return push(b, type, id, compressed, copy, len, err);
}

int pak_builder_add(pak_builder *b, uint32_t type, uint32_t id, const uint8_t *data, size_t len,
                    pak_codec codec, util_err *err)
{
    int rc = 0;
    uint8_t *bytes = NULL;
    size_t blen = 0;
    if (len > UINT32_MAX - 64)
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "resource of %zu bytes is too large", len);
    switch (codec) {
    case PAK_CODEC_NONE:
        return pak_builder_add_stored(b, type, id, data, len, 0, err);
    case PAK_CODEC_ZLIB:
        rc = compress_zlib(&bytes, &blen, data, len, err);
        break;
    case PAK_CODEC_LZO:
        rc = compress_lzo(b, &bytes, &blen, data, len, err);
        break;
    default:
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "unknown codec %d", (int)codec);
    }
    if (rc)
        return rc;
    return push(b, type, id, 1, bytes, blen, err);
}

/* Header, named table, resource table and the zero gap up to the data (§2.1–2.5); fills
 * the offsets of every entry. Fails when the PAK would not fit 32-bit offsets. */
static int write_tables(const pak_builder *b, util_wr *w, uint64_t *total, util_err *err)
{
    util_wr_u32(w, PAK_VERSION);
    util_wr_u32(w, 0);
    util_wr_u32(w, (uint32_t)b->named.len);
    for (size_t i = 0; i < b->named.len; i++) {
        size_t n = strlen(b->named.items[i].name);
        util_wr_u32(w, b->named.items[i].type);
        util_wr_u32(w, b->named.items[i].id);
        util_wr_u32(w, (uint32_t)n);
        util_wr_bytes(w, b->named.items[i].name, n);
    }
    util_wr_u32(w, (uint32_t)b->res.len);
    uint64_t off = align32((uint64_t)w->len + 20 * (uint64_t)b->res.len);
    for (size_t i = 0; i < b->res.len; i++) {
        const builder_res *r = &b->res.items[i];
        uint64_t size = align32(r->len);
        if (off + size > UINT32_MAX)
            return util_fail(err, UTIL_EFORMAT, UINT64_MAX,
                             "PAK would exceed 4 GiB at resource %zu", i);
        util_wr_u32(w, r->compressed);
        util_wr_u32(w, r->type);
        util_wr_u32(w, r->id);
        util_wr_u32(w, (uint32_t)size);
        util_wr_u32(w, (uint32_t)off);
        off += size;
    }
    util_wr_fill(w, 0, (size_t)(align32(w->len) - w->len));
    *total = off;
    return util_wr_status(w, err);
}

int pak_builder_finish_mem(pak_builder *b, uint8_t **out, size_t *out_len, util_err *err)
{
    int rc = 0;
    util_wr w;
    uint64_t total;
    util_wr_init(&w);
    *out = NULL;
    *out_len = 0;
    rc = write_tables(b, &w, &total, err);
    if (rc)
        goto done;
    if (total > SIZE_MAX || util_wr_reserve(&w, (size_t)(total - w.len))) {
        rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory for a %" PRIu64 "-byte PAK",
                       total);
        goto done;
    }
    for (size_t i = 0; i < b->res.len; i++) {
        util_wr_bytes(&w, b->res.items[i].bytes, b->res.items[i].len);
        util_wr_fill(&w, 0xFF, (size_t)(align32(b->res.items[i].len) - b->res.items[i].len));
    }
    rc = util_wr_status(&w, err);
    if (rc)
        goto done;
    *out = util_wr_take(&w, out_len);
done:
    util_wr_free(&w);
    return rc;
}

int pak_builder_finish_file(pak_builder *b, const char *path, util_err *err)
{
    int rc = 0;
    util_wr w;
    uint64_t total;
    static const uint8_t pad[PAK_ALIGN] = {
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    };
    util_wr_init(&w);
    FILE *f = NULL;
    rc = write_tables(b, &w, &total, err);
    if (rc)
        goto done;
    f = util_create_file(path, err);
    if (!f) {
        rc = err ? err->code : UTIL_EIO;
        goto done;
    }
    int ok = fwrite(w.buf, 1, w.len, f) == w.len;
    for (size_t i = 0; ok && i < b->res.len; i++) {
        size_t padn = (size_t)(align32(b->res.items[i].len) - b->res.items[i].len);
        ok = fwrite(b->res.items[i].bytes, 1, b->res.items[i].len, f) == b->res.items[i].len &&
             fwrite(pad, 1, padn, f) == padn;
    }
    if (!ok) {
        rc = util_fail(err, UTIL_EIO, UINT64_MAX, "cannot write %s: %s", path, strerror(errno));
        goto done;
    }
done:
    if (f && fclose(f) != 0 && !rc)
        rc = util_fail(err, UTIL_EIO, UINT64_MAX, "cannot write %s: %s", path, strerror(errno));
    util_wr_free(&w);
    return rc;
}
