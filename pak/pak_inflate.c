/* pak_inflate.c — compressed PAK entries (docs/formats.md §3): zlib (MP1) and segmented
 * LZO1X (MP2), chosen by sniffing the payload (pak_game.c); inflated whole into one buffer,
 * or a window at a time from the PAK's source (pak_entry_stream). */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>
#include <lzo1x.h>
#include <zlib.h>

#include "pak_internal.h"

/* ---- the payload's bytes: in memory, or read from a source a window at a time --------- */

/* Where the zlib loop and the LZO segments take their input from: len bytes at mem, or at
 * offset `off` of src, read into win (win_size bytes) as they are needed. With a tap, each
 * byte of the entry read from src goes to it once, in order: the input's byte 0 is byte
 * `skip` of the entry, and *tapped counts the entry's bytes tapped so far. */
typedef struct pak_in {
    const uint8_t *mem;
    const util_src *src;
    uint64_t off;
    size_t len;
    uint8_t *win;
    size_t win_size;
    size_t skip;
    pak_sink_fn tap;
    void *tap_ctx;
    size_t *tapped;
} pak_in;

/* Bytes [at, at + *n) of the input, *n at most want and 0 only at its end: in memory a
 * pointer into it, from a source the window filled with them (and what the tap has not had
 * of them tapped: the reads go forward, each starting at most where the last ended). */
static int in_get(const pak_in *in, size_t at, size_t want, const uint8_t **p, size_t *n,
                  util_err *err)
{
    size_t left = in->len - at;
    *n = want < left ? want : left;
    if (in->mem) {
        *p = in->mem + at;
        return 0;
    }
    if (*n > in->win_size)
        *n = in->win_size;
    *p = in->win;
    int rc = *n ? util_src_read(in->src, in->win, in->off + at, *n, err) : 0;
    size_t lo = in->skip + at, hi = lo + *n;
    if (rc || !in->tap || hi <= *in->tapped)
        return rc;
    if (lo > *in->tapped)
        return util_fail(err, UTIL_EFORMAT, in->off + at, "bytes read out of order");
    size_t from = *in->tapped - lo;
    *in->tapped = hi;
    return in->tap(in->tap_ctx, in->win + from, *n - from, err);
}

/* ---- zlib ------------------------------------------------------------------------------- */

/* One zlib stream from the input into declared bytes, through zlib's streaming interface.
 * sink NULL: out holds all declared bytes. Else out is a window of out_size bytes handed to
 * sink each time it fills, and at the end. Bytes after the stream end are padding and
 * ignored. `base` is the payload's offset for error messages. */
static int zlib_run(const pak_in *in, uint8_t *out, size_t out_size, uint32_t declared,
                    pak_sink_fn sink, void *ctx, uint64_t base, util_err *err)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    int zr = inflateInit(&zs);
    if (zr != Z_OK)
        return util_fail(err, zr == Z_MEM_ERROR ? UTIL_ENOMEM : UTIL_EFORMAT, base,
                         "zlib: inflateInit failed (%d)", zr);
    int rc = 0;
    size_t fed = 0;
    uint8_t spill; /* one byte past the declared size: output there means "too long" */
    zs.next_out = out;
    zs.avail_out = (uInt)(out_size < declared ? out_size : declared);
    for (;;) {
        if (zs.avail_in == 0 && fed < in->len) {
            const uint8_t *p;
            size_t n;
            if ((rc = in_get(in, fed, UINT_MAX, &p, &n, err)) != 0)
                goto done;
            zs.next_in = (Bytef *)(uintptr_t)p;
            zs.avail_in = (uInt)n;
            fed += n;
        }
        if (zs.avail_out == 0) {
            /* full: out holds the declared bytes whole, or a window to hand on */
            size_t have = (size_t)(zs.next_out - out);
            if (sink && have && (rc = sink(ctx, out, have, err)) != 0)
                goto done;
            if ((size_t)zs.total_out == declared) {
                zs.next_out = &spill;
                zs.avail_out = 1;
            } else {
                size_t left = declared - (size_t)zs.total_out;
                zs.next_out = out;
                zs.avail_out = (uInt)(out_size < left ? out_size : left);
            }
        }
        zr = inflate(&zs, Z_NO_FLUSH);
        uint64_t at = base + zs.total_in;
        if ((size_t)zs.total_out > declared) {
            rc = util_fail(err, UTIL_EFORMAT, at,
                           "zlib: stream inflates to more than the declared %" PRIu32 " bytes",
                           declared);
            goto done;
        }
        if (zr == Z_STREAM_END) {
            if ((size_t)zs.total_out != declared)
                rc = util_fail(err, UTIL_EFORMAT, at,
                               "zlib: stream ends after %lu bytes, declared %" PRIu32,
                               (unsigned long)zs.total_out, declared);
            else if (sink && zs.next_out != &spill && zs.next_out > out)
                rc = sink(ctx, out, (size_t)(zs.next_out - out), err);
            goto done;
        }
        if (zr == Z_OK || (zr == Z_BUF_ERROR && zs.avail_in == 0 && fed < in->len))
            continue; /* the next window, or the next slice of over UINT_MAX bytes */
        if (zr == Z_BUF_ERROR && zs.avail_in == 0) {
            rc = util_fail(err, UTIL_ETRUNC, at,
                           "zlib: input ends after %lu of the declared %" PRIu32 " bytes",
                           (unsigned long)zs.total_out, declared);
            goto done;
        }
        if (zr == Z_MEM_ERROR) {
            rc = util_fail(err, UTIL_ENOMEM, at, "zlib: out of memory");
            goto done;
        }
        rc = util_fail(err, UTIL_EFORMAT, at, "zlib: %s (%d) after %lu bytes out",
                       zs.msg ? zs.msg : "corrupt stream", zr, (unsigned long)zs.total_out);
        goto done;
    }
done:
    inflateEnd(&zs);
    return rc;
}

/* One zlib stream from payload into out[0..declared). libdeflate inflates a whole buffer
 * faster than zlib's streaming interface, and the first ingest of a release inflates every
 * compressed byte (docs/benchmark.md); a stream it does not inflate to exactly the declared
 * size is inflated again by zlib, whose messages say where and why it fails. */
static int inflate_zlib(uint8_t *out, uint32_t declared, const uint8_t *payload, size_t len,
                        uint64_t base, util_err *err)
{
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    if (d) {
        size_t used = 0, got = 0;
        enum libdeflate_result lr =
            libdeflate_zlib_decompress_ex(d, payload, len, out, declared, &used, &got);
        libdeflate_free_decompressor(d);
        if (lr == LIBDEFLATE_SUCCESS && got == declared)
            return 0;
    }
    pak_in in = {.mem = payload, .len = len};
    return zlib_run(&in, out, declared, declared, NULL, NULL, base, err);
}

/* ---- segmented LZO1X (§3.2) ---------------------------------------------------------------- */

/* The next segment from r into dst, `expected` bytes: s16 length; > 0 an LZO1X stream,
 * < 0 stored, 0 an error. */
static int lzo_segment(util_rd *r, uint8_t *dst, uint32_t expected, util_err *err)
{
    uint64_t seg_off = util_rd_off(r);
    int16_t slen;
    const uint8_t *src;
    if (util_rd_s16(r, &slen, err))
        return UTIL_ETRUNC;
    if (slen == 0)
        return util_fail(err, UTIL_EFORMAT, seg_off, "lzo: segment of length 0");
    if (slen < 0) {
        uint32_t n = (uint32_t) - (int32_t)slen;
        if (n != expected)
            return util_fail(err, UTIL_EFORMAT, seg_off,
                             "lzo: stored segment of %" PRIu32 " bytes, expected %" PRIu32, n,
                             expected);
        if (util_rd_bytes(r, n, &src, err))
            return UTIL_ETRUNC;
        memcpy(dst, src, n);
        return 0;
    }
    if ((uint32_t)slen > PAK_LZO_SEGMENT_BOUND)
        return util_fail(err, UTIL_EFORMAT, seg_off,
                         "lzo: segment length %d exceeds the LZO1X bound %u", slen,
                         (unsigned)PAK_LZO_SEGMENT_BOUND);
    if (util_rd_bytes(r, (size_t)slen, &src, err))
        return UTIL_ETRUNC;
    lzo_uint got = expected;
    int lr = lzo1x_decompress_safe(src, (lzo_uint)slen, dst, &got, NULL);
    if (lr != LZO_E_OK || got != expected)
        return util_fail(err, UTIL_EFORMAT, seg_off,
                         "lzo: segment (%d bytes) failed to decompress to %" PRIu32
                         " bytes (lzo error %d, got %lu)",
                         slen, expected, lr, (unsigned long)got);
    return 0;
}

/* The bytes one segment can take: its length and at most the LZO1X bound. */
#define LZO_SEGMENT_MOST (2u + PAK_LZO_SEGMENT_BOUND)

/* The segments of the input after its u32 prefix, each yielding exactly min(0x4000,
 * remaining); stop at the declared size. sink NULL: into out, all declared bytes; else each
 * segment through out (PAK_LZO_SEGMENT bytes) to sink. A window of the input is read again
 * from the next segment on when that segment may not be in it: its errors are those of the
 * whole input, whose end the window then reaches. */
static int inflate_lzo(const pak_in *in, uint8_t *out, uint32_t declared, pak_sink_fn sink,
                       void *ctx, uint64_t base, util_err *err)
{
    if (lzo_init() != LZO_E_OK)
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "lzo_init failed");
    size_t at = 4; /* of the window in the input */
    const uint8_t *p;
    size_t n;
    int rc = in_get(in, at, SIZE_MAX, &p, &n, err);
    if (rc)
        return rc;
    util_rd r = util_rd_make(p, n, base + at);
    uint32_t produced = 0;
    while (produced < declared) {
        if (in->src && util_rd_left(&r) < LZO_SEGMENT_MOST && at + n < in->len) {
            at += r.pos;
            if ((rc = in_get(in, at, SIZE_MAX, &p, &n, err)) != 0)
                return rc;
            r = util_rd_make(p, n, base + at);
        }
        uint32_t expected = declared - produced;
        if (expected > PAK_LZO_SEGMENT)
            expected = PAK_LZO_SEGMENT;
        if ((rc = lzo_segment(&r, sink ? out : out + produced, expected, err)) != 0)
            return rc;
        if (sink && (rc = sink(ctx, out, expected, err)) != 0)
            return rc;
        produced += expected;
    }
    return 0;
}

/* ---- one entry -------------------------------------------------------------------------- */

/* A compressed entry's size prefix and codec from its first bytes (head[0..have), have >=
 * min(len, 8)) of len, with every check made before any allocation. */
static int inflate_head(const uint8_t *head, size_t have, size_t len, size_t cap, uint64_t base,
                        uint32_t *declared, pak_codec *codec, util_err *err)
{
    util_rd r = util_rd_make(head, have < len ? have : len, base);
    if (util_rd_u32(&r, declared, err))
        return UTIL_ETRUNC;
    if (*declared > cap)
        return util_fail(err, UTIL_EFORMAT, base,
                         "declared size %" PRIu32 " exceeds the cap of %zu bytes", *declared, cap);
    *codec = pak_sniff_codec(head, have < len ? have : len);
    if (*codec == PAK_CODEC_NONE && *declared > 0) {
        if (len < 6)
            return util_fail(err, UTIL_ETRUNC, base + len,
                             "compressed entry of %zu bytes has no payload", len);
        return util_fail(err, UTIL_EFORMAT, base + 4,
                         "payload starts %02x %02x: neither zlib nor an LZO segment", head[4],
                         head[5]);
    }
    /* Only what the payload can justify: deflate expands at most 1032:1, and each LZO
     * segment (>= 3 bytes: s16 length + data) yields at most 0x4000 bytes. */
    uint64_t payload = len - 4;
    uint64_t most = *codec == PAK_CODEC_ZLIB ? payload * 1032 + 64
                                             : (payload + 2) / 3 * (uint64_t)PAK_LZO_SEGMENT;
    if (*declared > most)
        return util_fail(err, UTIL_EFORMAT, base,
                         "declared size %" PRIu32 " cannot come from a %" PRIu64 "-byte payload",
                         *declared, payload);
    return 0;
}

int pak_inflate_reuse(uint8_t **buf, size_t *buf_cap, size_t *out_len, const uint8_t *stored,
                      size_t len, size_t cap, uint64_t base, util_err *err)
{
    uint32_t declared = 0;
    pak_codec codec = PAK_CODEC_NONE;
    *out_len = 0;
    int rc = inflate_head(stored, len, len, cap, base, &declared, &codec, err);
    if (rc)
        return rc;
    if (!*buf || declared > *buf_cap) {
        free(*buf);
        *buf_cap = 0;
        if (!(*buf = malloc(declared ? declared : 1)))
            return util_fail(err, UTIL_ENOMEM, base, "out of memory for %" PRIu32 " bytes",
                             declared);
        *buf_cap = declared ? declared : 1;
    }
    pak_in in = {.mem = stored, .len = len};
    if (codec == PAK_CODEC_ZLIB)
        rc = inflate_zlib(*buf, declared, stored + 4, len - 4, base + 4, err);
    else if (codec == PAK_CODEC_LZO)
        rc = inflate_lzo(&in, *buf, declared, NULL, NULL, base, err);
    if (rc == 0)
        *out_len = declared;
    return rc;
}

int pak_inflate_bytes(uint8_t **out, size_t *out_len, const uint8_t *stored, size_t len,
                      int compressed, size_t cap, uint64_t base, util_err *err)
{
    *out = NULL;
    *out_len = 0;
    if (!compressed) {
        uint8_t *buf = malloc(len ? len : 1);
        if (!buf)
            return util_fail(err, UTIL_ENOMEM, base, "out of memory for %zu bytes", len);
        if (len)
            memcpy(buf, stored, len);
        *out = buf;
        *out_len = len;
        return 0;
    }
    uint8_t *buf = NULL;
    size_t buf_cap = 0;
    int rc = pak_inflate_reuse(&buf, &buf_cap, out_len, stored, len, cap, base, err);
    if (rc)
        free(buf);
    else
        *out = buf;
    return rc;
}

int pak_inflate(uint8_t **out, size_t *out_len, const pak_file *p, uint32_t i, size_t cap,
                util_err *err)
{
    uint8_t *stored;
    size_t len;
    *out = NULL;
    *out_len = 0;
    int rc = pak_entry_read(p, i, &stored, &len, err);
    if (rc)
        return rc;
    if (!p->entries[i].compressed) { /* every stored byte, padding included (§2.8) */
        *out = stored;
        *out_len = len;
        return 0;
    }
    rc = pak_inflate_bytes(out, out_len, stored, len, 1, cap, p->entries[i].offset, err);
    free(stored);
    return rc;
}

/* pak_entry_stream, and with a tap pak_entry_stream_both. */
static int stream(const pak_file *p, uint32_t i, int inflate, size_t cap, pak_sink_fn sink,
                  void *ctx, pak_sink_fn tap, void *tap_ctx, util_err *err)
{
    int rc = pak_entry_check(p, i, err);
    if (rc)
        return rc;
    const pak_entry *e = &p->entries[i];
    uint8_t *win = malloc(2 * (size_t)PAK_STREAM_WINDOW);
    if (!win)
        return util_fail(err, UTIL_ENOMEM, e->offset, "out of memory for the windows");
    size_t tapped = 0;
    pak_in in = {.src = p->src,
                 .off = e->offset,
                 .len = e->size,
                 .win = win,
                 .win_size = PAK_STREAM_WINDOW,
                 .tap = tap,
                 .tap_ctx = tap_ctx,
                 .tapped = &tapped};
    uint8_t *out = win + PAK_STREAM_WINDOW;
    const uint8_t *head;
    size_t n;
    if (!inflate || !e->compressed) { /* every stored byte, padding included (§2.8) */
        for (size_t at = 0; at < e->size && !rc; at += n)
            if ((rc = in_get(&in, at, SIZE_MAX, &head, &n, err)) == 0)
                rc = sink(ctx, head, n, err);
        goto done;
    }
    uint32_t declared = 0;
    pak_codec codec = PAK_CODEC_NONE;
    if ((rc = in_get(&in, 0, SIZE_MAX, &head, &n, err)) != 0 ||
        (rc = inflate_head(head, n, e->size, cap, e->offset, &declared, &codec, err)) != 0)
        goto done;
    if (codec == PAK_CODEC_ZLIB) {
        pak_in payload = in;
        payload.off += 4;
        payload.len -= 4;
        payload.skip = 4;
        rc = zlib_run(&payload, out, PAK_STREAM_WINDOW, declared, sink, ctx, e->offset + 4, err);
    } else if (codec == PAK_CODEC_LZO) {
        rc = inflate_lzo(&in, out, declared, sink, ctx, e->offset, err);
    }
    /* the stored bytes after the stream's end (padding) */
    for (size_t at = tapped; tap && !rc && at < e->size; at += n)
        rc = in_get(&in, at, SIZE_MAX, &head, &n, err);
done:
    free(win);
    return rc;
}

int pak_entry_stream(const pak_file *p, uint32_t i, int inflate, size_t cap, pak_sink_fn sink,
                     void *ctx, util_err *err)
{
    return stream(p, i, inflate, cap, sink, ctx, NULL, NULL, err);
}

int pak_entry_stream_both(const pak_file *p, uint32_t i, size_t cap, pak_sink_fn sink, void *ctx,
                          pak_sink_fn stored, void *stored_ctx, util_err *err)
{
    return stream(p, i, 1, cap, sink, ctx, stored, stored_ctx, err);
}
