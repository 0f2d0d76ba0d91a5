/* test_pak_inflate.c — compressed entries (docs/formats.md §3): codec sniffing, zlib and
 * segmented LZO1X on hand-built payloads (made with zlib / liblzo directly), corrupt
 * streams, wrong declared sizes, stored segments, padding after the last segment. */
#include <stdlib.h>
#include <string.h>

#include <lzo/lzo1x.h>
#include <zlib.h>

#include "pak.h"
#include "testutil.h"

#define BASE 0x1000u /* pretend the entry sits at this file offset */

static void put32(uint8_t *q, uint32_t v)
{
    q[0] = (uint8_t)(v >> 24);
    q[1] = (uint8_t)(v >> 16);
    q[2] = (uint8_t)(v >> 8);
    q[3] = (uint8_t)v;
}

/* Partly compressible bytes: runs of text mixed with an LCG's noise. */
static void fill(uint8_t *p, size_t n, uint32_t seed)
{
    uint32_t x = seed;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        p[i] = (i / 64) % 2 ? (uint8_t)("metroid prime "[i % 14]) : (uint8_t)(x >> 24);
    }
}

static void test_sniff(void **state)
{
    (void)state;
    static const struct {
        uint8_t b4, b5;
        pak_codec want;
    } cases[] = {
        {0x78, 0xDA, PAK_CODEC_ZLIB}, {0x78, 0x9C, PAK_CODEC_ZLIB}, {0x78, 0x01, PAK_CODEC_ZLIB},
        {0x78, 0x00, PAK_CODEC_NONE}, {0x00, 0x01, PAK_CODEC_LZO},  {0x44, 0x43, PAK_CODEC_LZO},
        {0x44, 0x44, PAK_CODEC_NONE}, {0xC0, 0x00, PAK_CODEC_LZO},  {0xFF, 0xFF, PAK_CODEC_LZO},
        {0xBF, 0xFF, PAK_CODEC_NONE}, {0x00, 0x00, PAK_CODEC_NONE}, {0x7F, 0xFF, PAK_CODEC_NONE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t b[6] = {0, 0, 0, 9, cases[i].b4, cases[i].b5};
        assert_int_equal(pak_sniff_codec(b, 6), cases[i].want);
    }
    static const uint8_t short5[5] = {0, 0, 0, 9, 0x78};
    assert_int_equal(pak_sniff_codec(short5, 5), PAK_CODEC_NONE);
}

static void test_stored_copy(void **state)
{
    (void)state;
    static const uint8_t b[5] = {1, 2, 3, 0xFF, 0xFF};
    uint8_t *out = NULL;
    size_t n = 0;
    util_err err;
    assert_int_equal(pak_inflate_bytes(&out, &n, b, 5, 0, 4, BASE, &err), 0);
    assert_int_equal(n, 5); /* the cap applies to declared sizes only */
    assert_memory_equal(out, b, 5);
    free(out);
    assert_int_equal(pak_inflate_bytes(&out, &n, b, 0, 0, PAK_MAX_INFLATE, BASE, &err), 0);
    assert_int_equal(n, 0);
    free(out);
    /* compressed but shorter than the u32 size */
    assert_int_equal(pak_inflate_bytes(&out, &n, b, 3, 1, PAK_MAX_INFLATE, BASE, &err),
                     UTIL_ETRUNC);
    assert_int_equal(err.offset, BASE);
    assert_null(out);
}

/* u32 declared + zlib level 9 of data[0..n) + pad bytes of 0xFF; returns the length. */
static size_t make_zlib(uint8_t *dst, size_t cap, const uint8_t *data, size_t n, uint32_t declared,
                        size_t pad)
{
    uLongf zlen = cap - 4 - pad;
    assert_int_equal(compress2(dst + 4, &zlen, data, n, 9), Z_OK);
    put32(dst, declared);
    memset(dst + 4 + zlen, 0xFF, pad);
    return 4 + zlen + pad;
}

static void test_zlib(void **state)
{
    (void)state;
    enum { N = 20000 };
    uint8_t *data = malloc(N), *z = malloc(N + 1024), *out = NULL;
    size_t n = 0, len;
    util_err err;
    fill(data, N, 7);

    len = make_zlib(z, N + 1024, data, N, N, 29);
    assert_int_equal(z[4], 0x78);
    assert_int_equal(z[5], 0xDA);
    assert_int_equal(pak_inflate_bytes(&out, &n, z, len, 1, PAK_MAX_INFLATE, BASE, &err), 0);
    assert_int_equal(n, N);
    assert_memory_equal(out, data, N);
    free(out);

    /* declared smaller than the stream: EFORMAT */
    put32(z, N - 1);
    assert_int_equal(pak_inflate_bytes(&out, &n, z, len, 1, PAK_MAX_INFLATE, BASE, &err),
                     UTIL_EFORMAT);
    assert_true(err.offset >= BASE + 4 && err.offset <= BASE + len);
    assert_null(out);
    /* declared larger: the stream ends early */
    put32(z, N + 1);
    assert_int_equal(pak_inflate_bytes(&out, &n, z, len, 1, PAK_MAX_INFLATE, BASE, &err),
                     UTIL_EFORMAT);
    assert_true(err.offset >= BASE + 4 && err.offset <= BASE + len);
    /* declared 0xFFFFFFFF or above the cap: refused before allocating */
    put32(z, 0xFFFFFFFF);
    assert_int_equal(pak_inflate_bytes(&out, &n, z, len, 1, PAK_MAX_INFLATE, BASE, &err),
                     UTIL_EFORMAT);
    assert_int_equal(err.offset, BASE);
    put32(z, N);
    assert_int_equal(pak_inflate_bytes(&out, &n, z, len, 1, N - 1, BASE, &err), UTIL_EFORMAT);
    assert_int_equal(err.offset, BASE);
    assert_int_equal(pak_inflate_bytes(&out, &n, z, len, 1, N, BASE, &err), 0);
    free(out);

    /* truncated stream (no padding): ETRUNC at the end of the input */
    size_t cut = (len - 29) / 2;
    assert_int_equal(pak_inflate_bytes(&out, &n, z, cut, 1, PAK_MAX_INFLATE, BASE, &err),
                     UTIL_ETRUNC);
    assert_int_equal(err.offset, BASE + cut);
    /* 0xFF padding cut off entirely, stream itself complete: still fine */
    assert_int_equal(pak_inflate_bytes(&out, &n, z, len - 29, 1, PAK_MAX_INFLATE, BASE, &err), 0);
    free(out);

    /* corrupt: invalid deflate block type 3 in the first byte after the header */
    uint8_t save = z[6];
    z[6] = 0xFF;
    assert_int_equal(pak_inflate_bytes(&out, &n, z, len, 1, PAK_MAX_INFLATE, BASE, &err),
                     UTIL_EFORMAT);
    assert_true(err.offset >= BASE + 4 && err.offset <= BASE + 8);
    z[6] = save;
    /* corrupt Adler-32 trailer */
    z[len - 29 - 1] ^= 0x55;
    assert_int_equal(pak_inflate_bytes(&out, &n, z, len, 1, PAK_MAX_INFLATE, BASE, &err),
                     UTIL_EFORMAT);
    assert_true(err.offset <= BASE + len);
    assert_null(out);

    /* declared 0, a stream of nothing */
    len = make_zlib(z, 64, data, 0, 0, 3);
    assert_int_equal(pak_inflate_bytes(&out, &n, z, len, 1, PAK_MAX_INFLATE, BASE, &err), 0);
    assert_int_equal(n, 0);
    free(out);
    /* declared 0 but the stream has bytes */
    len = make_zlib(z, 64, data, 5, 0, 3);
    assert_int_equal(pak_inflate_bytes(&out, &n, z, len, 1, PAK_MAX_INFLATE, BASE, &err),
                     UTIL_EFORMAT);
    free(data);
    free(z);
}

/* Segmented LZO builder for tests: LZO1X-1 from liblzo, per 0x4000 bytes. */
typedef struct lzo_buf {
    uint8_t b[1 << 16];
    size_t len;
} lzo_buf;

static void lb_u32(lzo_buf *lb, uint32_t v)
{
    put32(lb->b + lb->len, v);
    lb->len += 4;
}

static void lb_s16(lzo_buf *lb, int v)
{
    lb->b[lb->len] = (uint8_t)((unsigned)v >> 8);
    lb->b[lb->len + 1] = (uint8_t)v;
    lb->len += 2;
}

static void lb_stored(lzo_buf *lb, const uint8_t *p, size_t n)
{
    lb_s16(lb, -(int)n);
    memcpy(lb->b + lb->len, p, n);
    lb->len += n;
}

static void lb_compressed(lzo_buf *lb, const uint8_t *p, size_t n)
{
    static uint8_t wrk[LZO1X_1_MEM_COMPRESS];
    lzo_uint clen = sizeof lb->b - lb->len - 2;
    assert_int_equal(lzo_init(), LZO_E_OK);
    assert_int_equal(lzo1x_1_compress(p, n, lb->b + lb->len + 2, &clen, wrk), LZO_E_OK);
    assert_true(clen > 0 && clen < 0x4444);
    lb_s16(lb, (int)clen);
    lb->len += clen;
}

static int lzo_run(const lzo_buf *lb, uint8_t **out, size_t *n, util_err *err)
{
    return pak_inflate_bytes(out, n, lb->b, lb->len, 1, PAK_MAX_INFLATE, BASE, err);
}

static void test_lzo_valid(void **state)
{
    (void)state;
    static uint8_t data[0x8000 + 100];
    static lzo_buf lb;
    uint8_t *out = NULL;
    size_t n = 0;
    util_err err;
    fill(data, sizeof data, 3);

    /* one stored segment */
    lb.len = 0;
    lb_u32(&lb, 5);
    lb_stored(&lb, (const uint8_t *)"hello", 5);
    assert_int_equal(pak_sniff_codec(lb.b, lb.len), PAK_CODEC_LZO);
    assert_int_equal(lzo_run(&lb, &out, &n, &err), 0);
    assert_int_equal(n, 5);
    assert_memory_equal(out, "hello", 5);
    free(out);

    /* 0x4001: a compressed full segment, then one stored byte, then padding */
    lb.len = 0;
    lb_u32(&lb, 0x4001);
    lb_compressed(&lb, data, 0x4000);
    lb_stored(&lb, data + 0x4000, 1);
    memset(lb.b + lb.len, 0xFF, 20);
    lb.len += 20;
    assert_int_equal(lzo_run(&lb, &out, &n, &err), 0);
    assert_int_equal(n, 0x4001);
    assert_memory_equal(out, data, 0x4001);
    free(out);

    /* exactly 2 x 0x4000 (stored then compressed), followed by 0xFF padding that an
     * input-driven loop would misread as a stored segment of length -1 */
    lb.len = 0;
    lb_u32(&lb, 0x8000);
    lb_stored(&lb, data, 0x4000);
    lb_compressed(&lb, data + 0x4000, 0x4000);
    memset(lb.b + lb.len, 0xFF, 31);
    lb.len += 31;
    assert_int_equal(lzo_run(&lb, &out, &n, &err), 0);
    assert_int_equal(n, 0x8000);
    assert_memory_equal(out, data, 0x8000);
    free(out);

    /* declared 0: zero segments, the rest is padding */
    lb.len = 0;
    lb_u32(&lb, 0);
    memset(lb.b + lb.len, 0xFF, 28);
    lb.len += 28;
    assert_int_equal(lzo_run(&lb, &out, &n, &err), 0);
    assert_int_equal(n, 0);
    free(out);
}

/* pak_inflate_reuse: the same bytes as pak_inflate_bytes gives, into a buffer kept from call
 * to call: kept when the declared size fits it, replaced by a larger one when not, kept on
 * a failure (the caller frees it). */
static void test_reuse(void **state)
{
    (void)state;
    enum { N = 20000 };
    static lzo_buf lb;
    uint8_t *data = malloc(N), *z = malloc(N + 1024), *buf = NULL;
    size_t cap = 0, n = 99, len;
    util_err err;
    fill(data, N, 11);

    len = make_zlib(z, N + 1024, data, 100, 100, 5);
    assert_int_equal(pak_inflate_reuse(&buf, &cap, &n, z, len, PAK_MAX_INFLATE, BASE, &err), 0);
    assert_int_equal(n, 100);
    assert_int_equal(cap, 100);
    assert_memory_equal(buf, data, 100);
    uint8_t *first = buf;

    /* smaller: into the same buffer */
    lb.len = 0;
    lb_u32(&lb, 60);
    lb_compressed(&lb, data + 7, 60);
    assert_int_equal(pak_inflate_reuse(&buf, &cap, &n, lb.b, lb.len, PAK_MAX_INFLATE, BASE, &err),
                     0);
    assert_ptr_equal(buf, first);
    assert_int_equal(cap, 100);
    assert_int_equal(n, 60);
    assert_memory_equal(buf, data + 7, 60);

    /* larger: a buffer of the declared size */
    len = make_zlib(z, N + 1024, data, N, N, 0);
    assert_int_equal(pak_inflate_reuse(&buf, &cap, &n, z, len, PAK_MAX_INFLATE, BASE, &err), 0);
    assert_int_equal(cap, N);
    assert_int_equal(n, N);
    assert_memory_equal(buf, data, N);

    /* a damaged stream: the error pak_inflate_bytes gives, the buffer kept, no size */
    put32(z, N - 1);
    assert_int_equal(pak_inflate_reuse(&buf, &cap, &n, z, len, PAK_MAX_INFLATE, BASE, &err),
                     UTIL_EFORMAT);
    assert_true(err.offset >= BASE + 4 && err.offset <= BASE + len);
    assert_int_equal(n, 0);
    assert_non_null(buf);
    assert_int_equal(cap, N);
    /* above the cap: refused before the buffer changes */
    put32(z, N);
    assert_int_equal(pak_inflate_reuse(&buf, &cap, &n, z, len, N - 1, BASE, &err), UTIL_EFORMAT);
    assert_int_equal(err.offset, BASE);
    assert_int_equal(cap, N);
    free(buf);
    free(data);
    free(z);
}

static void test_lzo_corrupt(void **state)
{
    (void)state;
    static uint8_t data[0x8000];
    static lzo_buf lb;
    uint8_t *out = NULL;
    size_t n = 0;
    util_err err;
    fill(data, sizeof data, 5);

    /* segment length 0 */
    lb.len = 0;
    lb_u32(&lb, 0x4001);
    lb_compressed(&lb, data, 0x4000);
    size_t seg2 = lb.len;
    lb_s16(&lb, 0);
    memset(lb.b + lb.len, 0xFF, 8);
    lb.len += 8;
    assert_int_equal(lzo_run(&lb, &out, &n, &err), UTIL_EFORMAT);
    assert_int_equal(err.offset, BASE + seg2);
    assert_null(out);

    /* stored length below -0x4000 */
    lb.len = 0;
    lb_u32(&lb, 0x4001);
    lb_compressed(&lb, data, 0x4000);
    lb_s16(&lb, -0x4001);
    assert_int_equal(lzo_run(&lb, &out, &n, &err), UTIL_EFORMAT);
    assert_int_equal(err.offset, BASE + seg2);

    /* stored segment shorter than expected (4 of 5) */
    lb.len = 0;
    lb_u32(&lb, 5);
    lb_stored(&lb, data, 4);
    lb_stored(&lb, data + 4, 1);
    assert_int_equal(lzo_run(&lb, &out, &n, &err), UTIL_EFORMAT);
    assert_int_equal(err.offset, BASE + 4);

    /* compressed segment yielding fewer bytes than min(0x4000, remaining) */
    lb.len = 0;
    lb_u32(&lb, 0x4001);
    lb_compressed(&lb, data, 0x3000);
    lb_stored(&lb, data + 0x3000, 0x1001);
    assert_int_equal(lzo_run(&lb, &out, &n, &err), UTIL_EFORMAT);
    assert_int_equal(err.offset, BASE + 4);

    /* declared smaller than the first segment's output */
    lb.len = 0;
    lb_u32(&lb, 100);
    lb_compressed(&lb, data, 200);
    assert_int_equal(lzo_run(&lb, &out, &n, &err), UTIL_EFORMAT);
    assert_int_equal(err.offset, BASE + 4);

    /* declared larger: the segments run out, then the input */
    lb.len = 0;
    lb_u32(&lb, 0x4001);
    lb_compressed(&lb, data, 0x4000);
    assert_int_equal(lzo_run(&lb, &out, &n, &err), UTIL_ETRUNC);
    assert_int_equal(err.offset, BASE + lb.len);

    /* declared 0xFFFFFFFF */
    lb.len = 0;
    lb_u32(&lb, 0xFFFFFFFF);
    lb_stored(&lb, data, 5);
    assert_int_equal(lzo_run(&lb, &out, &n, &err), UTIL_EFORMAT);
    assert_int_equal(err.offset, BASE);

    /* segment longer than the input */
    lb.len = 0;
    lb_u32(&lb, 0x4000);
    lb_compressed(&lb, data, 0x4000);
    size_t full = lb.len;
    lb.len = full - 10;
    assert_int_equal(lzo_run(&lb, &out, &n, &err), UTIL_ETRUNC);
    assert_true(err.offset <= BASE + lb.len);
    assert_true(err.offset >= BASE + 4);

    /* compressed length beyond the LZO1X bound for 0x4000 bytes */
    lb.len = 0;
    lb_u32(&lb, 0x4001);
    lb_stored(&lb, data, 0x4000);
    size_t seg = lb.len;
    lb_s16(&lb, 0x4444);
    memset(lb.b + lb.len, 0, 0x4444);
    lb.len += 0x4444;
    assert_int_equal(lzo_run(&lb, &out, &n, &err), UTIL_EFORMAT);
    assert_int_equal(err.offset, BASE + seg);

    /* garbage inside a compressed segment */
    lb.len = 0;
    lb_u32(&lb, 0x4000);
    lb_compressed(&lb, data, 0x4000);
    for (size_t i = 6 + 10; i < lb.len - 3; i += 7)
        lb.b[i] ^= 0xA5;
    assert_int_equal(lzo_run(&lb, &out, &n, &err), UTIL_EFORMAT);
    assert_int_equal(err.offset, BASE + 4);

    /* neither codec: EFORMAT at the payload */
    static const uint8_t none[8] = {0, 0, 0, 9, 0x7F, 0x7F, 0, 0};
    assert_int_equal(pak_inflate_bytes(&out, &n, none, 8, 1, PAK_MAX_INFLATE, BASE, &err),
                     UTIL_EFORMAT);
    assert_int_equal(err.offset, BASE + 4);
    static const uint8_t nopayload[4] = {0, 0, 0, 9};
    assert_int_equal(pak_inflate_bytes(&out, &n, nopayload, 4, 1, PAK_MAX_INFLATE, BASE, &err),
                     UTIL_ETRUNC);
    assert_int_equal(err.offset, BASE + 4);
    assert_null(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sniff),       cmocka_unit_test(test_stored_copy),
        cmocka_unit_test(test_zlib),        cmocka_unit_test(test_lzo_valid),
        cmocka_unit_test(test_lzo_corrupt), cmocka_unit_test(test_reuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
