/* pak_inflate.c — compressed PAK entries (docs/formats.md §3): zlib (MP1) and segmented
 * LZO1X (MP2), chosen by sniffing the payload (pak_game.c). */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>
#include <lzo1x.h>
#include <zlib.h>

#include "pak_internal.h"

/* One zlib stream from payload into out[0..declared); bytes after the stream end are
 * padding and ignored. `base` is the payload's offset for error messages. libdeflate
 * inflates a whole buffer faster than zlib's streaming interface, and the first ingest of a
 * release inflates every compressed byte (docs/benchmark.md); a stream it does not inflate
 * to exactly the declared size is inflated again by zlib, whose messages say where and why
 * it fails. */
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
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    int zr = inflateInit(&zs);
    if (zr != Z_OK)
        return util_fail(err, zr == Z_MEM_ERROR ? UTIL_ENOMEM : UTIL_EFORMAT, base,
                         "zlib: inflateInit failed (%d)", zr);
    int rc = 0;
    uint8_t spill; /* one byte past the declared size: output there means "too long" */
    zs.next_in = (Bytef *)(uintptr_t)payload;
    zs.avail_in = len > UINT_MAX ? UINT_MAX : (uInt)len;
    zs.next_out = out;
    zs.avail_out = declared;
    for (;;) {
        if (zs.avail_out == 0 && (size_t)zs.total_out == declared) {
            zs.next_out = &spill;
            zs.avail_out = 1;
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
            goto done;
        }
        if (zr == Z_OK)
            continue;
        if (zr == Z_BUF_ERROR && zs.avail_in == 0 && (size_t)zs.total_in < len) {
            /* more than UINT_MAX input bytes: feed the next slice */
            size_t left = len - zs.total_in;
            zs.avail_in = left > UINT_MAX ? UINT_MAX : (uInt)left;
            continue;
        }
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

/* Segmented LZO1X (§3.2): s16 length; > 0 an LZO1X stream, < 0 stored, 0 an error. Each
 * segment yields exactly min(0x4000, remaining); stop at the declared size. */
static int inflate_lzo(uint8_t *out, uint32_t declared, util_rd *r, util_err *err)
{
    if (lzo_init() != LZO_E_OK)
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "lzo_init failed");
    uint32_t produced = 0;
    while (produced < declared) {
        uint64_t seg_off = util_rd_off(r);
        uint32_t expected = declared - produced;
        if (expected > PAK_LZO_SEGMENT)
            expected = PAK_LZO_SEGMENT;
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
            memcpy(out + produced, src, n);
        } else {
            if ((uint32_t)slen > PAK_LZO_SEGMENT_BOUND)
                return util_fail(err, UTIL_EFORMAT, seg_off,
                                 "lzo: segment length %d exceeds the LZO1X bound %u", slen,
                                 (unsigned)PAK_LZO_SEGMENT_BOUND);
            if (util_rd_bytes(r, (size_t)slen, &src, err))
                return UTIL_ETRUNC;
            lzo_uint got = expected;
            int lr = lzo1x_decompress_safe(src, (lzo_uint)slen, out + produced, &got, NULL);
            if (lr != LZO_E_OK || got != expected)
                return util_fail(err, UTIL_EFORMAT, seg_off,
                                 "lzo: segment (%d bytes) failed to decompress to %" PRIu32
                                 " bytes (lzo error %d, got %lu)",
                                 slen, expected, lr, (unsigned long)got);
        }
        produced += expected;
    }
    return 0;
}

int pak_inflate_bytes(uint8_t **out, size_t *out_len, const uint8_t *stored, size_t len,
                      int compressed, size_t cap, uint64_t base, util_err *err)
{
    int rc = 0;
    uint8_t *buf = NULL;
    *out = NULL;
    *out_len = 0;
    if (!compressed) {
        buf = malloc(len ? len : 1);
        if (!buf)
            return util_fail(err, UTIL_ENOMEM, base, "out of memory for %zu bytes", len);
        if (len)
            memcpy(buf, stored, len);
        *out = buf;
        *out_len = len;
        return 0;
    }
    util_rd r = util_rd_make(stored, len, base);
    uint32_t declared;
    if (util_rd_u32(&r, &declared, err))
        return UTIL_ETRUNC;
    if (declared > cap)
        return util_fail(err, UTIL_EFORMAT, base,
                         "declared size %" PRIu32 " exceeds the cap of %zu bytes", declared, cap);
    pak_codec codec = pak_sniff_codec(stored, len);
    if (codec == PAK_CODEC_NONE && declared > 0) {
        if (len < 6)
            return util_fail(err, UTIL_ETRUNC, base + len,
                             "compressed entry of %zu bytes has no payload", len);
        return util_fail(err, UTIL_EFORMAT, base + 4,
                         "payload starts %02x %02x: neither zlib nor an LZO segment", stored[4],
                         stored[5]);
    }
    /* Allocate only what the payload can justify: deflate expands at most 1032:1, and each
     * LZO segment (>= 3 bytes: s16 length + data) yields at most 0x4000 bytes. */
    uint64_t payload = len - 4;
    uint64_t most = codec == PAK_CODEC_ZLIB ? payload * 1032 + 64
                                            : (payload + 2) / 3 * (uint64_t)PAK_LZO_SEGMENT;
    if (declared > most)
        return util_fail(err, UTIL_EFORMAT, base,
                         "declared size %" PRIu32 " cannot come from a %" PRIu64 "-byte payload",
                         declared, payload);
    buf = malloc(declared ? declared : 1);
    if (!buf)
        return util_fail(err, UTIL_ENOMEM, base, "out of memory for %" PRIu32 " bytes", declared);
    if (codec == PAK_CODEC_ZLIB)
        rc = inflate_zlib(buf, declared, stored + 4, len - 4, base + 4, err);
    else if (codec == PAK_CODEC_LZO)
        rc = inflate_lzo(buf, declared, &r, err);
    if (rc)
        goto done;
    *out = buf;
    *out_len = declared;
    buf = NULL;
done:
    free(buf);
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
