/* test_pak_write.c — the PAK builder: layout checked byte by byte against docs/formats.md
 * §2.1–2.5 and §3 (zlib stream, LZO segments walked by hand), then builder -> reader round
 * trips for every codec at the segment-boundary sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "pak.h"
#include "testutil.h"

#define FOURCC(a, b, c, d)                                                                         \
    ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

static const size_t sizes[] = {0, 1, 0x3FFF, 0x4000, 0x4001, 0x8000, (3u << 20) + 123};
#define NSIZES (sizeof sizes / sizeof sizes[0])

static uint32_t get32(const uint8_t *q)
{
    return (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3];
}

/* Partly compressible: 4 KiB stretches of noise alternate with repeated text. The last
 * byte is never 0xFF, so stripping the padding of a stored entry is unambiguous. */
static uint8_t *make_data(size_t n, uint32_t seed)
{
    uint8_t *p = malloc(n ? n : 1);
    uint32_t x = seed;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (i / 4096) % 2 ? (uint8_t)("Samus Aran, Echoes "[i % 19]) : (uint8_t)(x >> 23);
    }
    if (n && p[n - 1] == 0xFF)
        p[n - 1] = 0;
    return p;
}

/* Independent check of one stored entry's payload and padding; returns payload length. */
static size_t check_payload(const uint8_t *e, size_t size, pak_codec codec, const uint8_t *data,
                            size_t len)
{
    size_t used = 0;
    if (codec == PAK_CODEC_NONE) {
        assert_memory_equal(e, data, len);
        used = len;
    } else if (codec == PAK_CODEC_ZLIB) {
        assert_int_equal(get32(e), len);
        assert_int_equal(e[4], 0x78); /* level 9: 78 DA (§3.1) */
        assert_int_equal(e[5], 0xDA);
        uint8_t *out = malloc(len + 1);
        z_stream zs;
        memset(&zs, 0, sizeof zs);
        assert_int_equal(inflateInit(&zs), Z_OK);
        zs.next_in = (Bytef *)(uintptr_t)(e + 4);
        zs.avail_in = (uInt)(size - 4);
        zs.next_out = out;
        zs.avail_out = (uInt)(len + 1);
        assert_int_equal(inflate(&zs, Z_FINISH), Z_STREAM_END);
        assert_int_equal(zs.total_out, len);
        assert_memory_equal(out, data, len);
        used = 4 + zs.total_in;
        inflateEnd(&zs);
        free(out);
    } else {
        /* LZO: walk the s16 segment lengths (§3.2); stored ones must hold the input. */
        assert_int_equal(get32(e), len);
        size_t pos = 4, done = 0;
        while (done < len) {
            size_t expect = len - done < 0x4000 ? len - done : 0x4000;
            int16_t s = (int16_t)(uint16_t)(e[pos] << 8 | e[pos + 1]);
            pos += 2;
            assert_int_not_equal(s, 0);
            if (s < 0) {
                assert_int_equal((size_t)-s, expect);
                assert_memory_equal(e + pos, data + done, expect);
                pos += expect;
            } else {
                assert_true((size_t)s < expect); /* compressed only when it shrinks */
                pos += (size_t)s;
            }
            done += expect;
        }
        used = pos;
    }
    assert_true(used <= size);
    assert_true(size - used < 32);
    for (size_t i = used; i < size; i++)
        assert_int_equal(e[i], 0xFF);
    return used;
}

static void round_trip(pak_codec codec)
{
    pak_builder *b = pak_builder_new();
    uint8_t *data[NSIZES];
    util_err err;
    assert_non_null(b);
    assert_int_equal(
        pak_builder_add_named(b, FOURCC('M', 'L', 'V', 'L'), 0xABCD0001, "World", &err), 0);
    assert_int_equal(pak_builder_add_named(b, FOURCC('S', 'T', 'R', 'G'), 0xABCD0002, "", &err), 0);
    for (size_t k = 0; k < NSIZES; k++) {
        data[k] = make_data(sizes[k], (uint32_t)k + 1);
        assert_int_equal(pak_builder_add(b, FOURCC('T', 'X', 'T', 'R'), 0x1000 + (uint32_t)k,
                                         data[k], sizes[k], codec, &err),
                         0);
    }
    uint8_t *pak = NULL;
    size_t len = 0;
    assert_int_equal(pak_builder_finish_mem(b, &pak, &len, &err), 0);

    /* §2.2–2.4 by hand */
    assert_int_equal(get32(pak), 0x00030005);
    assert_int_equal(get32(pak + 4), 0);
    assert_int_equal(get32(pak + 8), 2);
    assert_int_equal(get32(pak + 12), FOURCC('M', 'L', 'V', 'L'));
    assert_int_equal(get32(pak + 16), 0xABCD0001);
    assert_int_equal(get32(pak + 20), 5);
    assert_memory_equal(pak + 24, "World", 5);
    assert_int_equal(get32(pak + 29 + 8), 0);
    size_t rt = 29 + 12;
    assert_int_equal(get32(pak + rt), NSIZES);
    size_t tables_end = rt + 4 + 20 * NSIZES;
    size_t data_start = (tables_end + 31) / 32 * 32;
    for (size_t i = tables_end; i < data_start; i++)
        assert_int_equal(pak[i], 0);
    size_t expect_off = data_start;
    for (size_t k = 0; k < NSIZES; k++) {
        const uint8_t *t = pak + rt + 4 + 20 * k;
        assert_int_equal(get32(t), codec != PAK_CODEC_NONE);
        assert_int_equal(get32(t + 4), FOURCC('T', 'X', 'T', 'R'));
        assert_int_equal(get32(t + 8), 0x1000 + k);
        uint32_t size = get32(t + 12), off = get32(t + 16);
        assert_int_equal(size % 32, 0);
        assert_int_equal(off, expect_off);
        assert_true((size_t)off + size <= len);
        check_payload(pak + off, size, codec, data[k], sizes[k]);
        expect_off += size;
    }
    assert_int_equal(expect_off, len);

    /* reader */
    pak_file *p = NULL;
    assert_int_equal(pak_open_mem(&p, pak, len, &err), 0);
    assert_int_equal(p->anomaly_count, 0);
    assert_int_equal(p->named_count, 2);
    assert_string_equal(p->named[0].name, "World");
    assert_string_equal(p->named[1].name, "");
    assert_int_equal(p->named[1].id, 0xABCD0002);
    assert_int_equal(p->entry_count, NSIZES);
    assert_int_equal(p->tables_end, tables_end);
    for (uint32_t k = 0; k < NSIZES; k++) {
        assert_true(p->entries[k].in_bounds);
        assert_int_equal(p->entries[k].decompressed_size, sizes[k]);
        uint8_t *out = NULL;
        size_t n = 0;
        assert_int_equal(pak_inflate(&out, &n, p, k, PAK_MAX_INFLATE, &err), 0);
        if (codec == PAK_CODEC_NONE)
            assert_int_equal(n, p->entries[k].size);
        else
            assert_int_equal(n, sizes[k]);
        assert_memory_equal(out, data[k], sizes[k]);
        free(out);
    }
    int conflict = -1;
    pak_game g = pak_game_decide(p, NULL, &conflict);
    assert_int_equal(conflict, 0);
    assert_int_equal(g, codec == PAK_CODEC_ZLIB  ? PAK_GAME_MP1
                        : codec == PAK_CODEC_LZO ? PAK_GAME_MP2
                                                 : PAK_GAME_UNKNOWN);
    pak_close(p);

    /* the file writer produces the same bytes */
    char *dir = tu_tempdir();
    char path[512];
    snprintf(path, sizeof path, "%s/out.pak", dir);
    assert_int_equal(pak_builder_finish_file(b, path, &err), 0);
    size_t flen = 0;
    uint8_t *fbytes = tu_read_file(path, &flen);
    assert_non_null(fbytes);
    assert_int_equal(flen, len);
    assert_memory_equal(fbytes, pak, len);
    free(fbytes);
    unlink(path);
    rmdir(dir);
    free(dir);

    for (size_t k = 0; k < NSIZES; k++)
        free(data[k]);
    free(pak);
    pak_builder_free(b);
}

static void test_round_trip_none(void **state)
{
    (void)state;
    round_trip(PAK_CODEC_NONE);
}

static void test_round_trip_zlib(void **state)
{
    (void)state;
    round_trip(PAK_CODEC_ZLIB);
}

static void test_round_trip_lzo(void **state)
{
    (void)state;
    round_trip(PAK_CODEC_LZO);
}

/* Noise does not shrink: every LZO segment is stored (negative length); zeros compress. */
static void test_lzo_stored_segments(void **state)
{
    (void)state;
    enum { N = 0x4000 * 2 + 7 };
    uint8_t *noise = malloc(N), *zeros = calloc(1, N);
    uint32_t x = 99;
    for (size_t i = 0; i < N; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        noise[i] = (uint8_t)x;
    }
    pak_builder *b = pak_builder_new();
    util_err err;
    assert_int_equal(pak_builder_add(b, 1, 1, noise, N, PAK_CODEC_LZO, &err), 0);
    assert_int_equal(pak_builder_add(b, 2, 2, zeros, N, PAK_CODEC_LZO, &err), 0);
    uint8_t *pak;
    size_t len;
    assert_int_equal(pak_builder_finish_mem(b, &pak, &len, &err), 0);
    uint32_t off0 = get32(pak + 16 + 16), off1 = get32(pak + 16 + 20 + 16);
    const uint8_t *e = pak + off0;
    assert_int_equal(get32(e), N);
    assert_int_equal(e[4] << 8 | e[5], 0xC000); /* -0x4000 */
    assert_int_equal(e[6 + 0x4000] << 8 | e[7 + 0x4000], 0xC000);
    assert_int_equal(e[8 + 0x8000] << 8 | e[9 + 0x8000], 0x10000 - 7);
    const uint8_t *z = pak + off1;
    int16_t s = (int16_t)(uint16_t)(z[4] << 8 | z[5]);
    assert_true(s > 0 && s < 0x4000);
    pak_file *p;
    assert_int_equal(pak_open_mem(&p, pak, len, &err), 0);
    uint8_t *out;
    size_t n;
    assert_int_equal(pak_inflate(&out, &n, p, 0, PAK_MAX_INFLATE, &err), 0);
    assert_int_equal(n, N);
    assert_memory_equal(out, noise, N);
    free(out);
    assert_int_equal(pak_inflate(&out, &n, p, 1, PAK_MAX_INFLATE, &err), 0);
    assert_memory_equal(out, zeros, N);
    free(out);
    pak_close(p);
    free(pak);
    pak_builder_free(b);
    free(noise);
    free(zeros);
}

/* Resources added as a PAK stores them: a compressed one's size prefix and zlib stream (made
 * here by zlib) and a stored one already padded are written as they are, flag as given; the
 * padding up to 32 is added after the bytes, none to bytes already a multiple of 32. */
static void test_add_stored(void **state)
{
    (void)state;
    static const char text[] = "Samus Aran, Samus Aran, Samus Aran";
    uint8_t z[4 + 128];
    uLongf zlen = sizeof z - 4;
    assert_int_equal(compress2(z + 4, &zlen, (const Bytef *)text, sizeof text - 1, 9), Z_OK);
    z[0] = z[1] = z[2] = 0;
    z[3] = (uint8_t)(sizeof text - 1);
    size_t clen = 4 + zlen;
    uint8_t raw[64];
    memset(raw, 0xFF, sizeof raw);
    memcpy(raw, "TXTR", 4);
    pak_builder *b = pak_builder_new();
    util_err err;
    assert_int_equal(pak_builder_add_stored(b, FOURCC('C', 'M', 'D', 'L'), 7, z, clen, 1, &err), 0);
    assert_int_equal(
        pak_builder_add_stored(b, FOURCC('T', 'X', 'T', 'R'), 8, raw, sizeof raw, 0, &err), 0);
    uint8_t *pak = NULL;
    size_t len = 0;
    assert_int_equal(pak_builder_finish_mem(b, &pak, &len, &err), 0);
    /* header 12 bytes (no names), count, two 20-byte entries: data from 64 */
    assert_int_equal(get32(pak + 12), 2);
    const uint8_t *t0 = pak + 16, *t1 = pak + 36;
    assert_int_equal(get32(t0), 1);
    assert_int_equal(get32(t0 + 12), (clen + 31) / 32 * 32);
    assert_int_equal(get32(t0 + 16), 64);
    assert_memory_equal(pak + 64, z, clen);
    for (size_t i = clen; i < get32(t0 + 12); i++)
        assert_int_equal(pak[64 + i], 0xFF);
    assert_int_equal(get32(t1), 0);
    assert_int_equal(get32(t1 + 12), sizeof raw);
    assert_int_equal(get32(t1 + 16), 64 + get32(t0 + 12));
    assert_memory_equal(pak + get32(t1 + 16), raw, sizeof raw);
    assert_int_equal(len, get32(t1 + 16) + sizeof raw);
    pak_file *p = NULL;
    assert_int_equal(pak_open_mem(&p, pak, len, &err), 0);
    uint8_t *out = NULL;
    size_t n = 0;
    assert_int_equal(pak_inflate(&out, &n, p, 0, PAK_MAX_INFLATE, &err), 0);
    assert_int_equal(n, sizeof text - 1);
    assert_memory_equal(out, text, n);
    free(out);
    pak_close(p);
    free(pak);
    pak_builder_free(b);
}

static void test_empty_builder(void **state)
{
    (void)state;
    pak_builder *b = pak_builder_new();
    uint8_t *pak;
    size_t len;
    util_err err;
    assert_int_equal(pak_builder_finish_mem(b, &pak, &len, &err), 0);
    /* header, two zero counts, zero padding to 32 — like the corpus's empty PAKs */
    static const uint8_t want[32] = {0, 3, 0, 5};
    assert_int_equal(len, 32);
    assert_memory_equal(pak, want, 32);
    free(pak);
    assert_int_equal(pak_builder_finish_file(b, "/nonexistent-dir/x.pak", &err), UTIL_EIO);
    assert_int_equal(pak_builder_add(b, 1, 1, want, 4, (pak_codec)7, &err), UTIL_EFORMAT);
    pak_builder_free(b);
    pak_builder_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_none), cmocka_unit_test(test_round_trip_zlib),
        cmocka_unit_test(test_round_trip_lzo),  cmocka_unit_test(test_lzo_stored_segments),
        cmocka_unit_test(test_add_stored),      cmocka_unit_test(test_empty_builder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
