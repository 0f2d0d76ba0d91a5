/* fuzz_pak_inflate.c — libFuzzer target: one compressed entry's stored bytes (u32 size,
 * zlib or LZO segments, padding) through pak_inflate_bytes with a 4 MiB cap; and the same
 * bytes as the one entry of a PAK, read a window at a time (pak_entry_stream), which must
 * give the same bytes or fail with the same code, offset and message (also when it hands the
 * stored bytes on beside, which must then be the input), but where zlib itself
 * refuses a zlib stream that libdeflate inflates (pak_inflate_bytes inflates with libdeflate
 * first, pak_entry_stream with zlib alone). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "pak.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CAP     (4u << 20)
#define DATA_AT 64u /* the entry's offset in the PAK: header, counts, one table entry */
#define FC_CMDL 0x434D444Cu

static void put32(uint8_t *q, uint32_t v)
{
    q[0] = (uint8_t)(v >> 24);
    q[1] = (uint8_t)(v >> 16);
    q[2] = (uint8_t)(v >> 8);
    q[3] = (uint8_t)v;
}

/* What the stream handed on, appended. */
typedef struct got {
    uint8_t *b;
    size_t len, cap;
} got;

static int collect(void *ctx, const uint8_t *bytes, size_t n, util_err *err)
{
    (void)err;
    got *g = ctx;
    if (n == 0 || n > PAK_STREAM_WINDOW || g->len + n > CAP)
        abort();
    memcpy(g->b + g->len, bytes, n);
    g->len += n;
    return 0;
}

/* The stored bytes handed on: at most the entry's, in pieces of at most a window. */
static int collect_stored(void *ctx, const uint8_t *bytes, size_t n, util_err *err)
{
    (void)err;
    got *g = ctx;
    if (n == 0 || n > PAK_STREAM_WINDOW || g->len + n > g->cap)
        abort();
    memcpy(g->b + g->len, bytes, n);
    g->len += n;
    return 0;
}

/* Whether zlib alone inflates the zlib stream of data (after its u32 size) to exactly its
 * declared size. */
static int zlib_takes(const uint8_t *data, size_t size, size_t declared)
{
    uint8_t *out = malloc(declared + 1);
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (!out || inflateInit(&zs) != Z_OK)
        abort();
    zs.next_in = (Bytef *)(uintptr_t)(data + 4);
    zs.avail_in = (uInt)(size - 4);
    zs.next_out = out;
    zs.avail_out = (uInt)declared + 1;
    int zr = inflate(&zs, Z_FINISH);
    int ok = zr == Z_STREAM_END && zs.total_out == declared;
    inflateEnd(&zs);
    free(out);
    return ok;
}

/* data as entry 0 (compressed) of an MP1 PAK, streamed: the result pak_inflate_bytes gave
 * (rc, out[0..n), err) again. */
static void same_streamed(const uint8_t *data, size_t size, uint64_t base, int rc,
                          const uint8_t *out, size_t n, const util_err *err)
{
    if (size > UINT32_MAX - DATA_AT)
        return;
    uint8_t *pak = calloc(1, DATA_AT + size);
    got g = {malloc(CAP), 0, CAP};
    if (!pak || !g.b)
        abort();
    put32(pak, PAK_VERSION);
    put32(pak + 12, 1); /* no named resources, one entry */
    put32(pak + 16, 1);
    put32(pak + 20, FC_CMDL);
    put32(pak + 24, 1);
    put32(pak + 28, (uint32_t)size);
    put32(pak + 32, DATA_AT);
    memcpy(pak + DATA_AT, data, size);
    pak_file *p = NULL;
    util_err e;
    util_err_clear(&e);
    if (pak_open_mem(&p, pak, DATA_AT + size, &e) != 0)
        abort(); /* a well-formed PAK whatever the entry holds */
    util_err_clear(&e);
    int src = pak_entry_stream(p, 0, 1, CAP, collect, &g, &e);
    if (src != rc &&
        !(rc == 0 && pak_sniff_codec(data, size) == PAK_CODEC_ZLIB && !zlib_takes(data, size, n)))
        abort();
    if (rc == 0 && src == 0 && (g.len != n || (n && memcmp(g.b, out, n))))
        abort();
    uint64_t at = err->offset == UINT64_MAX ? UINT64_MAX : err->offset - base + DATA_AT;
    if (rc != 0 && src != 0 && (e.code != err->code || e.offset != at || strcmp(e.msg, err->msg)))
        abort();
    /* again with every stored byte handed on beside: the same result, and those bytes whole */
    got g2 = {g.b, 0, CAP}, s = {malloc(size ? size : 1), 0, size};
    if (!s.b)
        abort();
    util_err_clear(&e);
    int both = pak_entry_stream_both(p, 0, CAP, collect, &g2, collect_stored, &s, &e);
    if (both != src ||
        (both == 0 && (g2.len != g.len || s.len != size || (size && memcmp(s.b, data, size)))))
        abort();
    if (rc == 0 && both == 0 && n && memcmp(g2.b, out, n))
        abort();
    pak_close(p);
    free(pak);
    free(g.b);
    free(s.b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint64_t base = 0x20; /* errors must name offsets inside [base, base + size] */
    uint8_t *out = NULL;
    size_t n = 0;
    util_err err;
    util_err_clear(&err);
    int rc = pak_inflate_bytes(&out, &n, data, size, 1, CAP, base, &err);
    if (rc == 0) {
        uint32_t declared =
            (uint32_t)data[0] << 24 | (uint32_t)data[1] << 16 | (uint32_t)data[2] << 8 | data[3];
        if (size < 4 || n != declared)
            abort();
    } else if (out || !err.code ||
               (err.offset != UINT64_MAX && (err.offset < base || err.offset > base + size))) {
        abort();
    }
    same_streamed(data, size, base, rc, out, n, &err);
    free(out);
    return 0;
}
