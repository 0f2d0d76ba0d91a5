/* test_hostile_inflate.c — decompression is capped by what the input can justify. A
 * compressed entry's u32 size prefix (docs/formats.md §3) is refused before any allocation when it
 * exceeds the cap (0xFFFFFFF0) or what the payload could produce (deflate expands at most
 * 1032:1; an LZO segment of >= 3 bytes yields at most 0x4000). Such refusals name the size
 * field's offset (`base`), not a position inside the stream, which is how these tests tell
 * "refused up front" from "allocated, then failed while inflating". */
#include <stdlib.h>
#include <string.h>

#include "pak.h"
#include "testutil.h"

#define FC_CMDL 0x434D444Cu
#define BASE    0x1000u

/* Stored bytes of one entry holding `len` zero bytes compressed with codec. */
static uint8_t *stored_zeros(size_t len, pak_codec codec, size_t *stored_len)
{
    util_err e;
    util_err_clear(&e);
    uint8_t *zeros = calloc(1, len);
    assert_non_null(zeros);
    pak_builder *b = pak_builder_new();
    assert_int_equal(pak_builder_add(b, FC_CMDL, 1, zeros, len, codec, &e), 0);
    free(zeros);
    uint8_t *pak = NULL;
    size_t pak_len = 0;
    assert_int_equal(pak_builder_finish_mem(b, &pak, &pak_len, &e), 0);
    pak_builder_free(b);
    pak_file *p = NULL;
    assert_int_equal(pak_open_mem(&p, pak, pak_len, &e), 0);
    uint8_t *copy = NULL;
    size_t n = 0;
    assert_int_equal(pak_entry_read(p, 0, &copy, &n, &e), 0);
    pak_close(p);
    free(pak);
    *stored_len = n;
    return copy;
}

static void set_declared(uint8_t *s, uint32_t v)
{
    s[0] = (uint8_t)(v >> 24);
    s[1] = (uint8_t)(v >> 16);
    s[2] = (uint8_t)(v >> 8);
    s[3] = (uint8_t)v;
}

/* Inflating must fail with UTIL_EFORMAT at the size field, leaving *out NULL. */
static void expect_refused(const uint8_t *s, size_t n)
{
    uint8_t *out = (uint8_t *)1;
    size_t len = 7;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(pak_inflate_bytes(&out, &len, s, n, 1, PAK_MAX_INFLATE, BASE, &e),
                     UTIL_EFORMAT);
    assert_null(out);
    assert_int_equal(e.code, UTIL_EFORMAT);
    assert_int_equal(e.offset, BASE);
}

static void test_zlib_bomb_ratio_is_legal(void **state)
{
    (void)state;
    size_t n = 0;
    uint8_t *s = stored_zeros(1u << 20, PAK_CODEC_ZLIB, &n); /* ~1 KiB for 1 MiB */
    uint8_t *out = NULL;
    size_t len = 0;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(pak_inflate_bytes(&out, &len, s, n, 1, PAK_MAX_INFLATE, BASE, &e), 0);
    assert_int_equal(len, 1u << 20);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[len - 1], 0);
    free(out);
    free(s);
}

static void test_zlib_declared_fffffff0(void **state)
{
    (void)state;
    size_t n = 0;
    uint8_t *s = stored_zeros(4096, PAK_CODEC_ZLIB, &n);
    set_declared(s, 0xFFFFFFF0u);
    expect_refused(s, n);
    free(s);
}

static void test_zlib_declared_beyond_ratio(void **state)
{
    (void)state;
    size_t n = 0;
    uint8_t *s = stored_zeros(4096, PAK_CODEC_ZLIB, &n); /* a few dozen bytes of payload */
    assert_true(n < 200);
    set_declared(s, 200u << 20); /* under the 256 MiB cap, far over 1032 * payload */
    expect_refused(s, n);
    free(s);
}

static void test_lzo_declared_fffffff0(void **state)
{
    (void)state;
    size_t n = 0;
    uint8_t *s = stored_zeros(0x4000, PAK_CODEC_LZO, &n);
    set_declared(s, 0xFFFFFFF0u);
    expect_refused(s, n);
    free(s);
}

static void test_lzo_declared_beyond_segments(void **state)
{
    (void)state;
    size_t n = 0;
    uint8_t *s = stored_zeros(0x4000, PAK_CODEC_LZO, &n);
    assert_true(n < 512);
    set_declared(s, 100u << 20); /* needs 6400 segments, at least 19200 bytes */
    expect_refused(s, n);
    free(s);
}

/* A declared size the payload could produce but does not: allocated, then a stream error
 * inside the payload (offset past the size field). */
static void test_zlib_declared_plausible_but_short(void **state)
{
    (void)state;
    size_t n = 0;
    uint8_t *s = stored_zeros(4096, PAK_CODEC_ZLIB, &n);
    set_declared(s, 8192);
    uint8_t *out = NULL;
    size_t len = 0;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(pak_inflate_bytes(&out, &len, s, n, 1, PAK_MAX_INFLATE, BASE, &e),
                     UTIL_EFORMAT);
    assert_null(out);
    assert_true(e.offset > BASE && e.offset <= BASE + n);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zlib_bomb_ratio_is_legal),
        cmocka_unit_test(test_zlib_declared_fffffff0),
        cmocka_unit_test(test_zlib_declared_beyond_ratio),
        cmocka_unit_test(test_lzo_declared_fffffff0),
        cmocka_unit_test(test_lzo_declared_beyond_segments),
        cmocka_unit_test(test_zlib_declared_plausible_but_short),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
