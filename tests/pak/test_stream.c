/* test_pak_stream.c — entries read a window at a time (pak_entry_stream): zlib, segmented
 * LZO and stored entries of megabytes, handed on in pieces of at most PAK_STREAM_WINDOW bytes,
 * give the bytes the PAK was built from; the stored bytes are those of the file, also when
 * handed on beside the inflated ones (pak_entry_stream_both); and damage
 * past the first window (a cut, a corrupt byte, a wrong declared size, a zero-length LZO
 * segment) is the error whole inflation gives, at the offset the hand-built bytes say. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pak.h"
#include "testutil.h"

#define FC_CMDL 0x434D444Cu
#define FC_TXTR 0x54585452u

#define ZLIB_LEN   ((size_t)3 << 20 | 100)
#define LZO_LEN    ((size_t)3 << 20 | 7)
#define STORED_LEN ((size_t)1 << 20 | 5)

/* Partly compressible bytes: runs of text mixed with an LCG's noise, ending in ff bytes of
 * 0xFF (else in 0x00). */
static uint8_t *fill(size_t n, uint32_t seed, size_t ff)
{
    uint8_t *p = malloc(n);
    assert_non_null(p);
    uint32_t x = seed;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        p[i] = (i / 64) % 2 ? (uint8_t)("metroid prime "[i % 14]) : (uint8_t)(x >> 24);
    }
    p[n - 1] = 0;
    memset(p + n - ff, 0xFF, ff);
    return p;
}

static uint32_t get32(const uint8_t *q)
{
    return (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3];
}

static void put32(uint8_t *q, uint32_t v)
{
    q[0] = (uint8_t)(v >> 24);
    q[1] = (uint8_t)(v >> 16);
    q[2] = (uint8_t)(v >> 8);
    q[3] = (uint8_t)v;
}

typedef struct fixture {
    uint8_t *z, *l, *s; /* the contents of entries 0 (zlib), 1 (LZO), 2 (stored) */
    uint8_t *pak;
    size_t pak_len;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->z = fill(ZLIB_LEN, 1, 3000);
    f->l = fill(LZO_LEN, 2, 0);
    f->s = fill(STORED_LEN, 3, 0);
    util_err e;
    util_err_clear(&e);
    pak_builder *b = pak_builder_new();
    assert_int_equal(pak_builder_add(b, FC_CMDL, 1, f->z, ZLIB_LEN, PAK_CODEC_ZLIB, &e), 0);
    assert_int_equal(pak_builder_add(b, FC_TXTR, 2, f->l, LZO_LEN, PAK_CODEC_LZO, &e), 0);
    assert_int_equal(pak_builder_add(b, FC_CMDL, 3, f->s, STORED_LEN, PAK_CODEC_NONE, &e), 0);
    assert_int_equal(pak_builder_finish_mem(b, &f->pak, &f->pak_len, &e), 0);
    pak_builder_free(b);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    free(f->z);
    free(f->l);
    free(f->s);
    free(f->pak);
    free(f);
    return 0;
}

/* What a sink was handed. */
typedef struct got {
    uint8_t *b;
    size_t len, calls, most;
    size_t fail_at; /* the call that fails (0: none) */
} got;

static int collect(void *ctx, const uint8_t *bytes, size_t n, util_err *err)
{
    got *g = ctx;
    g->calls++;
    if (g->calls == g->fail_at)
        return util_fail(err, UTIL_EIO, 77, "the sink says no");
    assert_true(n > 0);
    g->b = realloc(g->b, g->len + n);
    assert_non_null(g->b);
    memcpy(g->b + g->len, bytes, n);
    g->len += n;
    if (n > g->most)
        g->most = n;
    return 0;
}

/* Entry i of the PAK in buf streamed; its rc, what the sink got in *g (caller frees g->b). */
static int stream(const uint8_t *buf, size_t len, uint32_t i, int inflate, got *g, util_err *err)
{
    pak_file *p = NULL;
    util_err_clear(err);
    assert_int_equal(pak_open_mem(&p, buf, len, err), 0);
    int rc = pak_entry_stream(p, i, inflate, PAK_MAX_INFLATE, collect, g, err);
    pak_close(p);
    return rc;
}

static void test_contents(void **state)
{
    fixture *f = *state;
    const uint8_t *want[3] = {f->z, f->l, f->s};
    const size_t want_len[3] = {ZLIB_LEN, LZO_LEN, STORED_LEN};
    pak_file *p = NULL;
    util_err e;
    assert_int_equal(pak_open_mem(&p, f->pak, f->pak_len, &e), 0);
    for (uint32_t i = 0; i < 3; i++) {
        const pak_entry *en = &p->entries[i];
        got g = {0};
        assert_int_equal(stream(f->pak, f->pak_len, i, 1, &g, &e), 0);
        if (i < 2) {
            assert_int_equal(g.len, want_len[i]);
        } else { /* every stored byte: the content, then 0xFF up to the next 32 */
            assert_int_equal(g.len, en->size);
            assert_int_equal(en->size, (STORED_LEN + 31) / 32 * 32);
            for (size_t k = STORED_LEN; k < g.len; k++)
                assert_int_equal(g.b[k], 0xFF);
        }
        assert_memory_equal(g.b, want[i], want_len[i]);
        assert_true(g.most <= PAK_STREAM_WINDOW);
        assert_true(g.calls >= want_len[i] / PAK_STREAM_WINDOW);
        free(g.b);
        /* inflate 0: the stored bytes, as they are in the file */
        got s = {0};
        assert_int_equal(stream(f->pak, f->pak_len, i, 0, &s, &e), 0);
        assert_int_equal(s.len, en->size);
        assert_memory_equal(s.b, f->pak + en->offset, en->size);
        assert_true(s.most <= PAK_STREAM_WINDOW);
        free(s.b);
    }
    /* both at once: the content to one sink, every stored byte once and in order to the
     * other (for the compressed ones, read while inflating, then the padding) */
    for (uint32_t i = 0; i < 3; i++) {
        const pak_entry *en = &p->entries[i];
        got c = {0}, s = {0};
        assert_int_equal(pak_entry_stream_both(p, i, PAK_MAX_INFLATE, collect, &c, collect, &s, &e),
                         0);
        assert_true(c.len >= want_len[i]);
        assert_memory_equal(c.b, want[i], want_len[i]);
        assert_int_equal(s.len, en->size);
        assert_memory_equal(s.b, f->pak + en->offset, en->size);
        assert_true(c.most <= PAK_STREAM_WINDOW && s.most <= PAK_STREAM_WINDOW);
        free(c.b);
        free(s.b);
    }
    /* entry 2's size without its padding, read without changing the PAK */
    pak_entry sized;
    assert_int_equal(pak_entry_sizes_read(p, 2, &sized, &e), 0);
    assert_int_equal(sized.decompressed_size, STORED_LEN);
    assert_int_equal(p->entries[2].decompressed_size, STORED_LEN);
    /* no such entry */
    got g = {0};
    assert_int_equal(pak_entry_stream(p, 3, 1, PAK_MAX_INFLATE, collect, &g, &e), UTIL_EFORMAT);
    assert_int_equal(g.calls, 0);
    pak_close(p);
}

/* Entry i of the fixture's PAK, as its tables give it. */
static pak_entry entry_of(const fixture *f, uint32_t i)
{
    pak_file *p = NULL;
    util_err e;
    assert_int_equal(pak_open_mem(&p, f->pak, f->pak_len, &e), 0);
    const pak_entry en = p->entries[i];
    pak_close(p);
    return en;
}

/* A copy of the fixture's PAK. */
static uint8_t *copy_of(const fixture *f)
{
    uint8_t *c = malloc(f->pak_len);
    assert_non_null(c);
    memcpy(c, f->pak, f->pak_len);
    return c;
}

/* A copy of the PAK with entry i's table size set to size. */
static uint8_t *with_size(const fixture *f, uint32_t i, uint32_t size)
{
    uint8_t *c = copy_of(f);
    put32(c + entry_of(f, i).table_offset + 12, size);
    return c;
}

/* Whole inflation of entry i of the PAK in buf: its rc and error. */
static int whole(const uint8_t *buf, size_t len, uint32_t i, util_err *err)
{
    pak_file *p = NULL;
    util_err_clear(err);
    assert_int_equal(pak_open_mem(&p, buf, len, err), 0);
    uint8_t *out = NULL;
    size_t n = 0;
    int rc = pak_inflate(&out, &n, p, i, PAK_MAX_INFLATE, err);
    free(out);
    pak_close(p);
    return rc;
}

/* Entry i of buf fails streamed as it fails whole: the same code, offset and message. */
static util_err same_failure(const uint8_t *buf, size_t len, uint32_t i, int code)
{
    util_err a, b;
    got g = {0};
    assert_int_equal(stream(buf, len, i, 1, &g, &a), code);
    free(g.b);
    assert_int_equal(whole(buf, len, i, &b), code);
    assert_int_equal(a.offset, b.offset);
    assert_string_equal(a.msg, b.msg);
    return a;
}

static void test_zlib_damage(void **state)
{
    fixture *f = *state;
    const pak_entry en = entry_of(f, 0);
    util_err e;
    assert_true(en.size > 4 * PAK_STREAM_WINDOW);

    /* cut a megabyte into the stream: the input ends where the cut is */
    uint32_t cut = 1u << 20;
    uint8_t *c = with_size(f, 0, cut);
    e = same_failure(c, f->pak_len, 0, UTIL_ETRUNC);
    assert_int_equal(e.offset, (uint64_t)en.offset + cut);
    assert_non_null(strstr(e.msg, "input ends after"));
    free(c);

    /* a byte a megabyte in made wrong */
    c = copy_of(f);
    size_t at = en.offset + (1u << 20);
    c[at] ^= 0xA5;
    e = same_failure(c, f->pak_len, 0, UTIL_EFORMAT);
    assert_true(e.offset >= at && e.offset <= (uint64_t)en.offset + en.size);
    /* the declared size one more, one less than the content */
    memcpy(c, f->pak, f->pak_len);
    assert_int_equal(get32(c + en.offset), ZLIB_LEN);
    put32(c + en.offset, ZLIB_LEN + 1);
    e = same_failure(c, f->pak_len, 0, UTIL_EFORMAT);
    char want[128];
    snprintf(want, sizeof want, "zlib: stream ends after %zu bytes, declared %zu", ZLIB_LEN,
             ZLIB_LEN + 1);
    assert_string_equal(e.msg, want);
    put32(c + en.offset, ZLIB_LEN - 1);
    e = same_failure(c, f->pak_len, 0, UTIL_EFORMAT);
    snprintf(want, sizeof want, "zlib: stream inflates to more than the declared %zu bytes",
             ZLIB_LEN - 1);
    assert_string_equal(e.msg, want);
    free(c);
}

static void test_lzo_damage(void **state)
{
    fixture *f = *state;
    const pak_entry en = entry_of(f, 1);
    util_err e;
    /* segment 150, its length and where it starts, walked in the built bytes */
    size_t seg = en.offset + 4;
    for (int k = 0; k < 150; k++) {
        int16_t n = (int16_t)(f->pak[seg] << 8 | f->pak[seg + 1]);
        seg += 2 + (size_t)(n < 0 ? -n : n);
    }
    int16_t slen = (int16_t)(f->pak[seg] << 8 | f->pak[seg + 1]);
    size_t data = (size_t)(slen < 0 ? -slen : slen);
    assert_true(seg - en.offset > 4 * PAK_STREAM_WINDOW);

    /* a segment of length 0 */
    uint8_t *c = copy_of(f);
    c[seg] = c[seg + 1] = 0;
    e = same_failure(c, f->pak_len, 1, UTIL_EFORMAT);
    assert_int_equal(e.offset, seg);
    assert_string_equal(e.msg, "lzo: segment of length 0");
    free(c);

    /* the entry cut inside segment 150's bytes */
    uint32_t cut = (uint32_t)(seg - en.offset + 2 + data / 2);
    c = with_size(f, 1, cut);
    e = same_failure(c, f->pak_len, 1, UTIL_ETRUNC);
    assert_int_equal(e.offset, seg + 2);
    char want[96];
    snprintf(want, sizeof want, "need %zu bytes, %zu left", data, data / 2);
    assert_string_equal(e.msg, want);
    free(c);
}

static void test_sink_stops(void **state)
{
    fixture *f = *state;
    for (uint32_t i = 0; i < 3; i++) {
        got g = {.fail_at = 3};
        util_err e;
        assert_int_equal(stream(f->pak, f->pak_len, i, 1, &g, &e), UTIL_EIO);
        assert_int_equal(g.calls, 3);
        assert_int_equal(e.offset, 77);
        free(g.b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contents),
        cmocka_unit_test(test_zlib_damage),
        cmocka_unit_test(test_lzo_damage),
        cmocka_unit_test(test_sink_stops),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
