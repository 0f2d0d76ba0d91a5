/* test_container.c — GCZ and CISO containers (docs/formats.md §13.3, §13.4), and the fixture
 * builder's WIA and RVZ (§13.1), read through disc_container_open: containers written by the
 * fixture builder from the format's description (zlib blocks, block pointers with the stored flag,
 * Adler-32 of the stored bytes; the CISO header and block map) give back every byte of the disc
 * they hold, from several threads at once and through a one-block cache; hostile headers and tables
 * (truncated files, a pointer past the data, a block size of 0 or too large, counts the file cannot
 * hold, a hash that does not match, a corrupt or short zlib stream, a bad map byte) are refused
 * with the container offset named, never a crash nor an allocation the file cannot justify; refused
 * kinds say what they are. Expected bytes are the disc given to the writers. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "disc.h"
#include "disc_ctr.h"
#include "fixture.h"
#include "testutil.h"

#define BS 0x8000u

static uint8_t *g_disc;
static size_t g_len;

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

/* GCZ of disc[0..len) in blocks of bs; every third block (1, 4, ...) stored uncompressed. */
static uint8_t *gcz_build(const uint8_t *disc, size_t len, uint32_t bs, size_t *out_len)
{
    uint8_t *o = NULL;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(fixture_gcz_build(&o, out_len, disc, len, bs, 3, &e), 0);
    return o;
}

/* CISO of disc[0..len): blocks of zeros absent. */
static uint8_t *ciso_build(const uint8_t *disc, size_t len, uint32_t bs, size_t *out_len,
                           uint32_t *absent)
{
    uint8_t *o = NULL;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(fixture_ciso_build(&o, out_len, disc, len, bs, absent, &e), 0);
    return o;
}

static int setup(void **state)
{
    (void)state;
    static uint8_t noise[70000], text[5000];
    uint32_t x = 0x9E3779B9u;
    for (size_t i = 0; i < sizeof noise; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        noise[i] = (uint8_t)(x >> 24);
    }
    for (size_t i = 0; i < sizeof text; i++)
        text[i] = (uint8_t)("Metroid "[i % 8]);
    static uint8_t zeros[200000];
    const fixture_disc_file files[] = {
        {.path = "Metroid1.pak", .data = noise, .len = sizeof noise},
        {.path = "zeros.bin", .data = zeros, .len = sizeof zeros},
        {.path = "Audio/text.txt", .data = text, .len = sizeof text},
    };
    fixture_disc_opts o;
    fixture_disc_opts_init(&o, "GM8E01", 2, "Container Disc");
    util_err err;
    util_err_clear(&err);
    if (fixture_disc_build(&g_disc, &g_len, &o, files, 3, &err) != 0)
        fail_msg("%s", err.msg);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(g_disc);
    return 0;
}

/* Open buf as a container; 0 and *disc, or the error code with err filled. */
static int open_ctr(const uint8_t *buf, size_t len, size_t cache, util_src **file, util_src **disc,
                    disc_container_info *info, util_err *err)
{
    assert_int_equal(util_src_open_mem(file, buf, len, NULL), 0);
    util_err_clear(err);
    int rc = disc_container_open(disc, *file, cache, info, err);
    if (rc) {
        assert_null(*disc);
        util_src_close(*file);
        *file = NULL;
    }
    return rc;
}

/* Every byte of src equals the disc, read in uneven pieces that straddle blocks. */
static void expect_disc_bytes(const util_src *src)
{
    assert_int_equal(util_src_size(src) >= g_len, 1);
    uint8_t *buf = malloc(g_len);
    assert_non_null(buf);
    size_t off = 0, step = 1;
    while (off < g_len) {
        size_t n = g_len - off < step ? g_len - off : step;
        util_err err;
        util_err_clear(&err);
        if (util_src_read(src, buf + off, off, n, &err) != 0)
            fail_msg("read at 0x%zx: %s", off, err.msg);
        off += n;
        step = step * 3 + 7;
        if (step > 3 * BS)
            step = 1;
    }
    assert_memory_equal(buf, g_disc, g_len);
    free(buf);
}

static void expect_disc(util_src *src)
{
    disc_image *d = NULL;
    util_err err;
    util_err_clear(&err);
    if (disc_open_src(&d, src, &err) != 0)
        fail_msg("%s", err.msg);
    assert_string_equal(d->header.label, "GM8E01_02");
    const disc_file *f = disc_find(d, "audio/TEXT.txt");
    assert_non_null(f);
    util_src *fs = NULL;
    uint8_t b[8];
    assert_int_equal(disc_file_open(&fs, d, f, NULL), 0);
    assert_int_equal(util_src_read(fs, b, 4992, 8, NULL), 0);
    assert_memory_equal(b, "Metroid ", 8);
    util_src_close(fs);
    disc_close(d);
}

static void test_gcz(void **state)
{
    (void)state;
    size_t len;
    uint8_t *gcz = gcz_build(g_disc, g_len, BS, &len);
    util_src *file, *src;
    disc_container_info info;
    util_err err;
    assert_int_equal(open_ctr(gcz, len, 0, &file, &src, &info, &err), 0);
    assert_int_equal(info.kind, DISC_KIND_GCZ);
    assert_int_equal(info.disc_size, g_len);
    assert_int_equal(info.file_size, len);
    assert_int_equal(info.block_size, BS);
    assert_string_equal(info.compression, "zlib");
    assert_true(len < g_len); /* the zeros compressed */
    expect_disc_bytes(src);
    expect_disc(src);
    util_src_close(src); /* closes file too */
    /* a cache of one block: every read evicts, still the same bytes */
    assert_int_equal(open_ctr(gcz, len, 1, &file, &src, &info, &err), 0);
    expect_disc_bytes(src);
    util_src_close(src);
    /* a disc that is not a multiple of the block size */
    size_t len2;
    uint8_t *gcz2 = gcz_build(g_disc, g_len - 1000, BS, &len2);
    assert_int_equal(open_ctr(gcz2, len2, 0, &file, &src, &info, &err), 0);
    assert_int_equal(util_src_size(src), g_len - 1000);
    uint8_t b[4];
    assert_int_equal(util_src_read(src, b, g_len - 1004, 4, NULL), 0);
    assert_memory_equal(b, g_disc + g_len - 1004, 4);
    assert_int_equal(util_src_read(src, b, g_len - 1002, 4, NULL), UTIL_EIO);
    util_src_close(src);
    free(gcz2);
    free(gcz);
}

static void test_ciso(void **state)
{
    (void)state;
    size_t len;
    uint32_t absent;
    uint8_t *c = ciso_build(g_disc, g_len, BS, &len, &absent);
    assert_true(absent >= 5); /* zeros.bin */
    util_src *file, *src;
    disc_container_info info;
    util_err err;
    assert_int_equal(open_ctr(c, len, 0, &file, &src, &info, &err), 0);
    assert_int_equal(info.kind, DISC_KIND_CISO);
    assert_int_equal(info.block_size, BS);
    assert_int_equal(info.disc_size, (uint64_t)(0x8000 - 8) * BS); /* what the map spans */
    assert_string_equal(info.compression, "none");
    expect_disc_bytes(src);
    expect_disc(src);
    uint8_t b[16];
    assert_int_equal(util_src_read(src, b, (uint64_t)1000 * BS, 16, NULL), 0); /* absent */
    for (int i = 0; i < 16; i++)
        assert_int_equal(b[i], 0);
    util_src_close(src);
    free(c);
}

/* The fixture builder's WIA and RVZ (docs/formats.md §13.1; tests/cli/e2e_containers.sh has
 * Dolphin's converter read them back) give back the disc in every method and chunk shape. */
static void test_wia_rvz(void **state)
{
    (void)state;
    static const struct {
        fixture_wia_opts o;
        disc_kind kind;
        const char *method;
    } cases[] = {
        {{1, 5, 0x8000}, DISC_KIND_RVZ, "zstd"},    {{1, 0, 0x10000}, DISC_KIND_RVZ, "none"},
        {{1, 5, 0x200000}, DISC_KIND_RVZ, "zstd"},  {{0, 0, 0x200000}, DISC_KIND_WIA, "none"},
        {{0, 2, 0x200000}, DISC_KIND_WIA, "bzip2"}, {{0, 4, 0x400000}, DISC_KIND_WIA, "LZMA2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t *c = NULL;
        size_t len = 0;
        util_err err;
        util_err_clear(&err);
        assert_int_equal(fixture_wia_build(&c, &len, g_disc, g_len, &cases[i].o, &err), 0);
        util_src *file, *src;
        disc_container_info info;
        assert_int_equal(open_ctr(c, len, 0, &file, &src, &info, &err), 0);
        assert_int_equal(info.kind, cases[i].kind);
        assert_int_equal(info.disc_size, g_len);
        assert_int_equal(info.block_size, cases[i].o.chunk_size);
        assert_string_equal(info.compression, cases[i].method);
        expect_disc_bytes(src);
        expect_disc(src);
        util_src_close(src);
        if (cases[i].o.method == 0) {
            /* stored as they are: header 1 and 2 (0x124 bytes), each chunk not all zeros
             * (4-byte aligned), the raw-data table (24 bytes) and the group table, which ends
             * the file */
            size_t chunk = cases[i].o.chunk_size, want = 0x124, n = 0, zero = 0;
            for (size_t at = 0; at < g_len; at += chunk, n++) {
                size_t have = g_len - at < chunk ? g_len - at : chunk, k = 0;
                while (k < have && g_disc[at + k] == 0)
                    k++;
                want += k < have ? (have + 3) & ~(size_t)3 : 0;
                zero += k == have;
            }
            assert_true(zero > 0 || chunk > 0x10000); /* zeros.bin: a chunk left out */
            want += 24 + n * (cases[i].o.rvz ? 12 : 8);
            assert_int_equal(len, want);
        }
        free(c);
    }
    /* written to a file a chunk at a time (as the demo does), and GCZ a block at a time: the
     * same bytes */
    char *dir = tu_tempdir(), img[4096], out[4096];
    snprintf(img, sizeof img, "%s/disc.iso", dir);
    snprintf(out, sizeof out, "%s/disc.ctr", dir);
    assert_int_equal(tu_write_file(img, g_disc, g_len), 0);
    size_t ncases = sizeof cases / sizeof cases[0];
    for (size_t i = 0; i <= ncases; i++) { /* the last: GCZ */
        uint8_t *c = NULL, *f = NULL;
        size_t len = 0, flen = 0;
        util_err err;
        util_err_clear(&err);
        if (i == ncases) {
            assert_int_equal(fixture_gcz_build(&c, &len, g_disc, g_len, BS, 0, &err), 0);
            assert_int_equal(fixture_gcz_write(img, out, BS, &err), 0);
        } else {
            assert_int_equal(fixture_wia_build(&c, &len, g_disc, g_len, &cases[i].o, &err), 0);
            assert_int_equal(fixture_wia_write(img, out, &cases[i].o, &err), 0);
        }
        assert_non_null(f = tu_read_file(out, &flen));
        assert_int_equal(flen, len);
        assert_memory_equal(f, c, len);
        remove(out);
        free(f);
        free(c);
    }
    tu_remove_tree(dir);
    free(dir);
    /* what the formats do not allow is refused, not written */
    static const fixture_wia_opts bad[] = {
        {0, 0, 0x300000}, /* WIA: a multiple of 2 MiB */
        {1, 5, 0x4000},   /* RVZ: from 32 KiB */
        {1, 5, 0x30000},  /* RVZ below 2 MiB: a power of two */
        {1, 2, 0x8000},   /* RVZ: no bzip2 */
        {0, 5, 0x200000}, /* WIA: no zstd */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t *c = NULL;
        size_t len = 0;
        util_err err;
        util_err_clear(&err);
        assert_int_not_equal(fixture_wia_build(&c, &len, g_disc, g_len, &bad[i], &err), 0);
        assert_null(c);
        assert_true(err.msg[0] != 0);
    }
}

/* ---- threads -------------------------------------------------------------------------- */

typedef struct reader {
    const util_src *src;
    uint32_t seed;
    int bad;
} reader;

static void *read_many(void *arg)
{
    reader *r = arg;
    uint8_t buf[3 * BS];
    uint32_t x = r->seed;
    for (int i = 0; i < 300; i++) {
        x = x * 1103515245u + 12345u;
        size_t off = (x >> 4) % g_len;
        size_t n = (x >> 8) % sizeof buf;
        if (n > g_len - off)
            n = g_len - off;
        if (util_src_read(r->src, buf, off, n, NULL) != 0 || memcmp(buf, g_disc + off, n) != 0)
            r->bad++;
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    size_t len;
    uint8_t *gcz = gcz_build(g_disc, g_len, BS, &len);
    util_src *file, *src;
    util_err err;
    assert_int_equal(open_ctr(gcz, len, 2 * BS, &file, &src, NULL, &err), 0);
    pthread_t t[4];
    reader r[4];
    for (int i = 0; i < 4; i++) {
        r[i] = (reader){src, (uint32_t)i * 7919u + 1u, 0};
        assert_int_equal(pthread_create(&t[i], NULL, read_many, &r[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(r[i].bad, 0);
    }
    util_src_close(src);
    free(gcz);
}

/* ---- the unit cache's lengths ------------------------------------------------------------
 * Units of several lengths (WIA/RVZ groups at an area's end are shorter): a hit needs the
 * bytes asked for inside the unit kept; an evicted buffer comes back to the caller only when
 * it has the length of the unit kept in its place (else the cache frees it: ASan would see a
 * leak or a double free). */
static uint8_t *unit(size_t len, uint8_t fill)
{
    uint8_t *b = malloc(len);
    assert_non_null(b);
    memset(b, fill, len);
    return b;
}

static void test_bcache_lengths(void **state)
{
    (void)state;
    disc_bcache c;
    util_err err;
    util_err_clear(&err);
    assert_int_equal(disc_bcache_init(&c, 16, 32, &err), 0); /* room for two units */
    uint8_t out[16];
    size_t t;
    assert_int_equal(disc_bcache_begin(&t, &c, 1, out, 0, 16), 0);
    uint8_t *b = unit(16, 0xA1);
    disc_bcache_end(&c, t, 1, &b, 16);
    assert_null(b); /* a free slot took it */
    assert_int_equal(disc_bcache_begin(&t, &c, 2, out, 0, 8), 0);
    b = unit(8, 0xA2);
    disc_bcache_end(&c, t, 2, &b, 8);
    assert_null(b);
    /* hits inside each unit; past a short unit's end, a miss */
    assert_int_equal(disc_bcache_begin(&t, &c, 2, out, 4, 4), 1);
    assert_int_equal(out[3], 0xA2);
    assert_int_equal(disc_bcache_begin(&t, &c, 2, out, 4, 5), 0);
    disc_bcache_end(&c, t, 2, NULL, 0); /* that decode failed: nothing kept */
    assert_int_equal(disc_bcache_begin(&t, &c, 1, out, 0, 16), 1);
    assert_int_equal(out[15], 0xA1);
    /* unit 3 (16 bytes) evicts unit 2 (8, least recently used): freed, not handed back */
    assert_int_equal(disc_bcache_begin(&t, &c, 3, out, 0, 16), 0);
    b = unit(16, 0xA3);
    disc_bcache_end(&c, t, 3, &b, 16);
    assert_null(b);
    /* unit 4 (16) evicts unit 1 (16): its buffer comes back, to reuse */
    assert_int_equal(disc_bcache_begin(&t, &c, 4, out, 0, 16), 0);
    b = unit(16, 0xA4);
    disc_bcache_end(&c, t, 4, &b, 16);
    assert_non_null(b);
    assert_int_equal(b[0], 0xA1);
    free(b);
    assert_int_equal(disc_bcache_begin(&t, &c, 3, out, 8, 8), 1);
    assert_int_equal(out[0], 0xA3);
    assert_int_equal(disc_bcache_begin(&t, &c, 4, out, 0, 1), 1);
    assert_int_equal(out[0], 0xA4);
    assert_int_equal(disc_bcache_decodes(&c), 5); /* units 1, 2, 2 again, 3, 4 */
    disc_bcache_free(&c);
}

/* ---- one decode per block ----------------------------------------------------------------
 * Thread A reads from GCZ block 0; the cache's decode hook, on A right after it registered
 * the block as in flight, starts thread B reading another range of block 0 and returns once
 * B waits for A's decode (or, where B decodes the block itself, once B is done: then the
 * test fails rather than hangs). No sleeps: the hook polls. */

#define RACE_A_OFF 100u
#define RACE_B_OFF 0x4000u /* both in block 0 */

typedef struct race {
    tu_race t;
    void *gcz;
    disc_bcache *cache;
    uint8_t b_buf[3000];
} race;

static int race_read_b(void *ctx, util_err *err)
{
    race *r = ctx;
    return disc_gcz_read(r->gcz, r->b_buf, RACE_B_OFF, sizeof r->b_buf, err);
}

static unsigned race_waiters(void *ctx)
{
    return disc_bcache_waiters(((race *)ctx)->cache);
}

/* Run the race on the GCZ in buf: A's read into a (2000 bytes at RACE_A_OFF) and its result,
 * its error in *err; B joined, its result in r. The reader is left open in r->gcz. */
static int race_run(race *r, util_src **file, const uint8_t *buf, size_t len, uint8_t *a,
                    util_err *err)
{
    memset(r, 0, sizeof *r);
    disc_container_info info;
    memset(&info, 0, sizeof info);
    util_err_clear(err);
    assert_int_equal(util_src_open_mem(file, buf, len, NULL), 0);
    assert_int_equal(disc_gcz_open(&r->gcz, *file, 0, &info, err), 0);
    r->cache = disc_gcz_cache(r->gcz);
    tu_race_init(&r->t, race_read_b, race_waiters, r);
    disc_bcache_set_decode_hook(r->cache, tu_race_hook, &r->t);
    int rc = disc_gcz_read(r->gcz, a, RACE_A_OFF, 2000, err);
    tu_race_join(&r->t);
    return rc;
}

/* A thread reading a block another is decoding decodes the block after it meanwhile, then
 * waits for that decode and takes the block from the cache: one decode per block, two
 * blocks decoded at once. */
static void test_gcz_one_decode_per_block(void **state)
{
    (void)state;
    size_t len;
    uint8_t *gcz = gcz_build(g_disc, g_len, BS, &len), a[2000];
    race r;
    util_src *file;
    util_err err;
    assert_int_equal(race_run(&r, &file, gcz, len, a, &err), 0);
    assert_memory_equal(a, g_disc + RACE_A_OFF, sizeof a);
    assert_int_equal(r.t.b_rc, 0);
    assert_memory_equal(r.b_buf, g_disc + RACE_B_OFF, sizeof r.b_buf);
    /* block 0 by A, block 1 by B while A decoded block 0 */
    assert_int_equal(disc_bcache_decodes(r.cache), 2);
    assert_int_equal(atomic_load(&r.t.calls), 2);
    assert_true(atomic_load(&r.t.saw_waiter));
    /* block 1 is in the cache before anyone asked for it */
    assert_int_equal(disc_gcz_read(r.gcz, a, BS + 0x100, sizeof a, &err), 0);
    assert_memory_equal(a, g_disc + BS + 0x100, sizeof a);
    assert_int_equal(disc_bcache_decodes(r.cache), 2);
    disc_gcz_close(r.gcz);
    util_src_close(file);
    free(gcz);
}

/* When the decode B waits for fails, B is woken and decodes the block itself: both report
 * the corrupt block, nothing hangs (block 1, which B decoded meanwhile, is sound). */
static void test_gcz_waiter_decodes_after_failure(void **state)
{
    (void)state;
    size_t len;
    uint8_t *gcz = gcz_build(g_disc, g_len, BS, &len), a[2000];
    uint32_t n = (uint32_t)((g_len + BS - 1) / BS);
    gcz[32 + (size_t)n * 12 + 10] ^= 0x55; /* block 0's stored bytes: its Adler-32 fails */
    race r;
    util_src *file;
    util_err err;
    assert_int_equal(race_run(&r, &file, gcz, len, a, &err), UTIL_EFORMAT);
    assert_int_equal(err.offset, RACE_A_OFF);
    assert_non_null(strstr(err.msg, "Adler-32"));
    assert_int_equal(r.t.b_rc, UTIL_EFORMAT);
    assert_int_equal(r.t.b_err.offset, RACE_B_OFF);
    assert_string_equal(r.t.b_err.msg, err.msg);
    assert_true(atomic_load(&r.t.saw_waiter));
    /* block 0 by A (failed), block 1 ahead by B, then block 0 by B (failed) */
    assert_int_equal(atomic_load(&r.t.calls), 3);
    assert_int_equal(disc_bcache_decodes(r.cache), 3);
    /* nothing left in flight: a read now decodes (and fails) again */
    assert_int_equal(disc_gcz_read(r.gcz, a, RACE_A_OFF, sizeof a, &err), UTIL_EFORMAT);
    assert_int_equal(atomic_load(&r.t.calls), 4);
    disc_gcz_close(r.gcz);
    util_src_close(file);
    free(gcz);
}

/* When the block after the one B waits for is corrupt too, B tries it once and then waits
 * (it used to decode it again and again while A's decode ran: here, with A held until B
 * waits, for ever). */
static void test_gcz_failed_ahead_tried_once(void **state)
{
    (void)state;
    size_t len;
    uint8_t *gcz = gcz_build(g_disc, g_len, BS, &len), a[2000];
    uint32_t n = (uint32_t)((g_len + BS - 1) / BS);
    uint64_t p1 = 0;
    for (int k = 0; k < 8; k++) /* block 1's start in the data (the top bit: stored) */
        p1 |= (uint64_t)gcz[32 + 8 + k] << (8 * k);
    p1 &= ~(1ull << 63);
    gcz[32 + (size_t)n * 12 + 10] ^= 0x55;      /* block 0: its Adler-32 fails */
    gcz[32 + (size_t)n * 12 + p1 + 10] ^= 0x55; /* block 1 too */
    race r;
    util_src *file;
    util_err err;
    assert_int_equal(race_run(&r, &file, gcz, len, a, &err), UTIL_EFORMAT);
    assert_int_equal(r.t.b_rc, UTIL_EFORMAT);
    assert_true(atomic_load(&r.t.saw_waiter));
    /* block 0 by A, block 1 ahead by B (once), then block 0 by B */
    assert_int_equal(atomic_load(&r.t.calls), 3);
    assert_int_equal(disc_bcache_decodes(r.cache), 3);
    /* block 1 is corrupt indeed: not cached, its read fails */
    assert_int_equal(disc_gcz_read(r.gcz, a, BS + 0x100, sizeof a, &err), UTIL_EFORMAT);
    assert_int_equal(disc_bcache_decodes(r.cache), 4);
    disc_gcz_close(r.gcz);
    util_src_close(file);
    free(gcz);
}

/* ---- hostile GCZ ---------------------------------------------------------------------- */

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Open must fail with code at offset; the message holds want. */
static void expect_open_fails(const uint8_t *buf, size_t len, int code, uint64_t off,
                              const char *want)
{
    util_src *file, *src = NULL;
    util_err err;
    int rc = open_ctr(buf, len, 0, &file, &src, NULL, &err);
    if (rc == 0)
        util_src_close(src);
    assert_int_equal(rc, code);
    assert_int_equal(err.offset, off);
    if (!strstr(err.msg, want))
        fail_msg("'%s' not in '%s'", want, err.msg);
}

/* Open succeeds, reading the whole disc fails with code; the message holds want. */
static void expect_read_fails(const uint8_t *buf, size_t len, int code, const char *want)
{
    util_src *file, *src = NULL;
    util_err err;
    assert_int_equal(open_ctr(buf, len, 0, &file, &src, NULL, &err), 0);
    uint8_t *all = malloc(g_len);
    assert_non_null(all);
    util_err_clear(&err);
    assert_int_equal(util_src_read(src, all, 0, g_len, &err), code);
    assert_true(err.offset < g_len); /* a disc offset */
    if (!strstr(err.msg, want))
        fail_msg("'%s' not in '%s'", want, err.msg);
    free(all);
    util_src_close(src);
}

/* A file cut short (a download that stopped): the open succeeds and says the size its header
 * states; the first block reads as the disc's; reading the whole disc fails with UTIL_EIO and a
 * message holding want. */
static void expect_cut(const uint8_t *buf, size_t len, uint64_t stated, const char *want)
{
    util_src *file, *src = NULL;
    util_err err;
    disc_container_info info;
    assert_int_equal(open_ctr(buf, len, 0, &file, &src, &info, &err), 0);
    assert_int_equal(info.file_size, len);
    assert_int_equal(info.stated_size, stated);
    uint8_t *blk = malloc(BS);
    assert_non_null(blk);
    assert_int_equal(util_src_read(src, blk, 0, BS, &err), 0);
    assert_memory_equal(blk, g_disc, BS);
    /* block by block through the whole disc: one of them is past the cut */
    int rc = 0;
    for (uint64_t at = 0; at + BS <= util_src_size(src) && rc == 0; at += BS) {
        util_err_clear(&err);
        rc = util_src_read(src, blk, at, BS, &err);
    }
    assert_int_equal(rc, UTIL_EIO);
    if (!strstr(err.msg, want))
        fail_msg("'%s' not in '%s'", want, err.msg);
    free(blk);
    util_src_close(src);
}

static void test_gcz_hostile(void **state)
{
    (void)state;
    size_t len;
    uint8_t *gcz = gcz_build(g_disc, g_len, BS, &len), *b = malloc(len);
    assert_non_null(b);
    uint32_t n = rd32(gcz + 28);
    size_t data = 32 + (size_t)n * 12;
    /* truncated: in the header, in the tables, in the blocks */
    expect_open_fails(gcz, 20, UTIL_ETRUNC, 20, "GCZ");
    expect_open_fails(gcz, 40, UTIL_ETRUNC, 40, "tables");
    /* cut in the blocks: it opens, the blocks past the cut are faults when read */
    expect_cut(gcz, len - 1, len, "GCZ block");
    expect_cut(gcz, data + (len - data) / 2, len, "GCZ block");
    /* block size 0, and more than DISC_MAX_BLOCK */
    memcpy(b, gcz, len);
    put32(b + 24, 0);
    expect_open_fails(b, len, UTIL_EFORMAT, 24, "block size");
    put32(b + 24, DISC_MAX_BLOCK + 1);
    expect_open_fails(b, len, UTIL_EFORMAT, 24, "block size");
    /* a count the file cannot hold: refused before the tables are allocated */
    memcpy(b, gcz, len);
    put32(b + 28, 0x7FFFFFFFu);
    put64(b + 16, (uint64_t)0x7FFFFFFFu * BS);
    expect_open_fails(b, len, UTIL_ETRUNC, len, "tables");
    /* the disc size does not fit the block count */
    memcpy(b, gcz, len);
    put64(b + 16, (uint64_t)n * BS + 1);
    expect_open_fails(b, len, UTIL_EFORMAT, 16, "disc size");
    put64(b + 16, 0);
    expect_open_fails(b, len, UTIL_EFORMAT, 16, "disc size");
    /* a pointer past the next block / the end of the data */
    memcpy(b, gcz, len);
    put64(b + 32 + 2 * 8, 0x10000000u);
    expect_open_fails(b, len, UTIL_EFORMAT, 32 + 2 * 8, "points at");
    memcpy(b, gcz, len);
    put64(b + 32 + 3 * 8, 5); /* block 2 starts after block 3 */
    expect_open_fails(b, len, UTIL_EFORMAT, 32 + 2 * 8, "past the next block");
    memcpy(b, gcz, len);
    put64(b + 32 + (size_t)(n - 1) * 8, len); /* the last block starts past the end */
    expect_open_fails(b, len, UTIL_EFORMAT, 32 + (uint64_t)(n - 1) * 8, "end of the data");
    /* a compressed block flagged stored: its size is not the block size */
    memcpy(b, gcz, len);
    b[32 + 0 * 8 + 7] |= 0x80;
    expect_open_fails(b, len, UTIL_EFORMAT, 32, "stored block");
    /* a hash that does not match */
    memcpy(b, gcz, len);
    b[32 + (size_t)n * 8 + 3 * 4] ^= 1;
    expect_read_fails(b, len, UTIL_EFORMAT, "Adler-32");
    /* corrupt zlib data (the hash made to match, so zlib sees it) */
    memcpy(b, gcz, len);
    uint64_t p0 = 0; /* block 0 is compressed */
    uint64_t p1 = (uint64_t)rd32(b + 40) | (uint64_t)(rd32(b + 44) & 0x7FFFFFFFu) << 32;
    b[data + p0 + 2] ^= 0xFF;
    b[data + p0 + 3] ^= 0xFF;
    put32(b + 32 + (size_t)n * 8,
          (uint32_t)adler32(adler32(0, Z_NULL, 0), b + data, (uInt)(p1 - p0)));
    expect_read_fails(b, len, UTIL_EFORMAT, "zlib data");
    /* a zlib stream of half a block where a block is due */
    {
        uint8_t *half = calloc(1, BS);
        uLongf clen = compressBound(BS);
        uint8_t *z = malloc(clen);
        assert_non_null(half);
        assert_non_null(z);
        assert_int_equal(compress2(z, &clen, half, BS / 2, 9), Z_OK);
        assert_true(clen <= p1 - p0);
        memcpy(b, gcz, len);
        memcpy(b + data, z, clen);
        put32(b + 32 + (size_t)n * 8,
              (uint32_t)adler32(adler32(0, Z_NULL, 0), b + data, (uInt)(p1 - p0)));
        expect_read_fails(b, len, UTIL_EFORMAT, "wrong size");
        free(z);
        free(half);
    }
    /* the container and disc offsets named in a read fault */
    memcpy(b, gcz, len);
    b[32 + (size_t)n * 8 + 4 * 4] ^= 1; /* block 4's hash */
    {
        util_src *file, *src = NULL;
        util_err err;
        assert_int_equal(open_ctr(b, len, 0, &file, &src, NULL, &err), 0);
        uint8_t x[8];
        util_err_clear(&err);
        assert_int_equal(util_src_read(src, x, 4 * BS + 100, 8, &err), UTIL_EFORMAT);
        assert_int_equal(err.offset, 4 * BS + 100);
        char want[64];
        uint64_t p4 =
            (uint64_t)rd32(b + 32 + 4 * 8) | (uint64_t)(rd32(b + 36 + 4 * 8) & 0x7FFFFFFFu) << 32;
        snprintf(want, sizeof want, "block 4 at 0x%llx (disc 0x%x)",
                 (unsigned long long)(data + p4), 4 * BS);
        if (!strstr(err.msg, want))
            fail_msg("'%s' not in '%s'", want, err.msg);
        util_src_close(src);
    }
    free(b);
    free(gcz);
}

static void test_ciso_hostile(void **state)
{
    (void)state;
    size_t len;
    uint32_t absent;
    uint8_t *c = ciso_build(g_disc, g_len, BS, &len, &absent), *b = malloc(len);
    assert_non_null(b);
    expect_open_fails(c, 0x7FFF, UTIL_ETRUNC, 0x7FFF, "header");
    memcpy(b, c, len);
    put32(b + 4, 0);
    expect_open_fails(b, len, UTIL_EFORMAT, 4, "block size");
    put32(b + 4, 0xFFFFFFFFu);
    expect_open_fails(b, len, UTIL_EFORMAT, 4, "block size");
    memcpy(b, c, len);
    b[8 + 3] = 2;
    expect_open_fails(b, len, UTIL_EFORMAT, 8 + 3, "neither 0 nor 1");
    /* the map claims stored blocks the file does not hold (cut short): it opens, those
     * blocks are faults when read */
    expect_cut(c, len - 2 * BS, len, "CISO block");
    memcpy(b, c, len);
    b[8 + 2000] = 1; /* one more stored block than the file has */
    expect_cut(b, len, len + BS, "CISO block");
    /* the last stored block cut short: a fault when its missing bytes are read */
    expect_read_fails(c, len - 100, UTIL_EIO, "CISO block");
    free(b);
    free(c);
}

/* ---- where a container stores a range of the disc ---------------------------------------- */

static uint64_t get_le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t get_be(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

/* The span disc_container_span gives for [off, off + len) of the container c equals lo, hi
 * read here from the container's own tables (docs/formats.md §13). */
static void expect_span(const uint8_t *c, size_t clen, uint64_t off, uint64_t len, uint64_t lo,
                        uint64_t hi)
{
    util_src *file, *src;
    disc_container_info info;
    util_err err;
    assert_int_equal(open_ctr(c, clen, 0, &file, &src, &info, &err), 0);
    uint64_t fo = 1, fl = 1;
    assert_int_equal(disc_container_span(src, off, len, &fo, &fl), 0);
    if (fo != lo || fl != hi - lo)
        fail_msg("[0x%llx, +0x%llx): file 0x%llx +0x%llx, expected 0x%llx +0x%llx",
                 (unsigned long long)off, (unsigned long long)len, (unsigned long long)fo,
                 (unsigned long long)fl, (unsigned long long)lo, (unsigned long long)(hi - lo));
    util_src_close(src);
}

static void test_span(void **state)
{
    (void)state;
    const uint64_t ranges[][2] = {{0, 1}, {BS - 1, 2}, {3 * BS + 5, 5 * BS}, {100000, 200000}};
    /* GCZ: the pointers (stored flag cleared) of the first and the one after the last block */
    size_t glen;
    uint8_t *gcz = gcz_build(g_disc, g_len, BS, &glen);
    uint64_t n = get_le(gcz + 28, 4), data = 32 + 12 * n;
    for (size_t r = 0; r < 4; r++) {
        uint64_t b0 = ranges[r][0] / BS, b1 = (ranges[r][0] + ranges[r][1] - 1) / BS;
        uint64_t hi = b1 + 1 < n ? get_le(gcz + 32 + 8 * (b1 + 1), 8) : get_le(gcz + 8, 8);
        expect_span(gcz, glen, ranges[r][0], ranges[r][1],
                    data + (get_le(gcz + 32 + 8 * b0, 8) & ~(1ull << 63)),
                    data + (hi & ~(1ull << 63)));
    }
    free(gcz);
    /* CISO: the first and last stored block of the range (the map at 8) */
    size_t clen;
    uint8_t *ciso = ciso_build(g_disc, g_len, BS, &clen, NULL);
    for (size_t r = 0; r < 4; r++) {
        uint64_t b0 = ranges[r][0] / BS, b1 = (ranges[r][0] + ranges[r][1] - 1) / BS, k = 0;
        uint64_t lo = 0, hi = 0;
        for (uint64_t b = 0; b <= b1; b++) {
            if (!ciso[8 + b])
                continue;
            if (b >= b0 && !hi)
                lo = 0x8000 + k * BS;
            if (b >= b0)
                hi = 0x8000 + (k + 1) * BS;
            k++;
        }
        expect_span(ciso, clen, ranges[r][0], ranges[r][1], lo, hi);
    }
    /* the zeros (zeros.bin) are stored as nothing */
    uint64_t zb = 0;
    while (ciso[8 + zb] || ciso[8 + zb + 1])
        zb++;
    expect_span(ciso, clen, (zb + 1) * BS, BS, 0, 0);
    free(ciso);
    /* RVZ stored as it is: the group table at header 2's 0xC8, entries of file offset / 4 and
     * size; the groups of zeros (size 0) hold nothing, nor do the disc's first 0x80 bytes
     * (header 2 holds them) */
    fixture_wia_opts o = {.rvz = 1, .method = 0, .chunk_size = 0x10000};
    uint8_t *rvz = NULL;
    size_t rlen = 0;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(fixture_wia_build(&rvz, &rlen, g_disc, g_len, &o, &e), 0);
    const uint8_t *gt = rvz + get_be(rvz + 0x48 + 0xC8, 8);
    for (size_t r = 0; r < 4; r++) {
        uint64_t g0 = ranges[r][0] / o.chunk_size;
        uint64_t g1 = (ranges[r][0] + ranges[r][1] - 1) / o.chunk_size, lo = 0, hi = 0;
        for (uint64_t g = g0; g <= g1 && ranges[r][0] + ranges[r][1] > 0x80; g++) {
            uint64_t at = get_be(gt + 12 * g, 4) * 4, size = get_be(gt + 12 * g + 4, 4);
            if (size && !hi)
                lo = at;
            if (size)
                hi = at + size;
        }
        expect_span(rvz, rlen, ranges[r][0], ranges[r][1], lo, hi);
    }
    free(rvz);
    /* a plain image is no container's */
    util_src *mem;
    uint64_t fo, fl;
    assert_int_equal(util_src_open_mem(&mem, g_disc, g_len, NULL), 0);
    assert_int_equal(disc_container_span(mem, 0, 100, &fo, &fl), -1);
    util_src_close(mem);
}

/* ---- kinds ---------------------------------------------------------------------------- */

static void test_kinds(void **state)
{
    (void)state;
    uint8_t h[0x440];
    util_src *file, *src;
    util_err err;
    disc_container_info info;
    /* a plain image is the file itself */
    assert_int_equal(open_ctr(g_disc, g_len, 0, &file, &src, &info, &err), 0);
    assert_ptr_equal(file, src);
    assert_int_equal(info.kind, DISC_KIND_GCM);
    assert_int_equal(info.disc_size, g_len);
    util_src_close(src);
    /* refused: say what it is and that GameCube discs are read */
    memset(h, 0, sizeof h);
    memcpy(h, "WBFS", 4);
    expect_open_fails(h, sizeof h, UTIL_EFORMAT, 0, "WBFS");
    expect_open_fails(h, sizeof h, UTIL_EFORMAT, 0, "ancsdb reads GameCube discs");
    memcpy(h, g_disc, sizeof h);
    memcpy(h + 0x200, "NKIT", 4);
    expect_open_fails(h, sizeof h, UTIL_EFORMAT, 0x200, "NKit");
    memset(h, 0, sizeof h);
    memcpy(h, "RVZX01", 6);
    h[0x18] = 0x5D, h[0x19] = 0x1C, h[0x1A] = 0x9E, h[0x1B] = 0xA3;
    expect_open_fails(h, sizeof h, UTIL_EFORMAT, 0x18, "Wii disc");
    /* a GCZ of a Wii disc opens as a container; its header is refused by the disc reader */
    size_t len;
    uint8_t *wii = malloc(g_len);
    assert_non_null(wii);
    memcpy(wii, g_disc, g_len);
    memset(wii + 0x1C, 0, 4);
    memcpy(wii + 0x18, "\x5D\x1C\x9E\xA3", 4);
    uint8_t *gcz = gcz_build(wii, g_len, BS, &len);
    assert_int_equal(open_ctr(gcz, len, 0, &file, &src, NULL, &err), 0);
    disc_image *d = NULL;
    util_err_clear(&err);
    assert_int_equal(disc_open_src(&d, src, &err), UTIL_EFORMAT);
    assert_non_null(strstr(err.msg, "Wii disc"));
    util_src_close(src);
    free(gcz);
    free(wii);
}

/* disc_open_path on files: a GCZ and a CISO named anything, recognised by their magic. */
static void test_open_path(void **state)
{
    (void)state;
    char *dir = tu_tempdir();
    assert_non_null(dir);
    char path[4096];
    size_t len;
    uint32_t absent;
    uint8_t *gcz = gcz_build(g_disc, g_len, BS, &len);
    snprintf(path, sizeof path, "%s/disc.iso", dir);
    assert_int_equal(tu_write_file(path, gcz, len), 0);
    disc_image *d = NULL;
    util_err err;
    util_err_clear(&err);
    if (disc_open_path(&d, path, 4 * BS, &err) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(d->container.kind, DISC_KIND_GCZ);
    assert_int_equal(d->size, g_len);
    assert_string_equal(d->header.label, "GM8E01_02");
    disc_close(d);
    free(gcz);
    uint8_t *c = ciso_build(g_disc, g_len, BS, &len, &absent);
    snprintf(path, sizeof path, "%s/game.bin", dir);
    assert_int_equal(tu_write_file(path, c, len), 0);
    assert_int_equal(disc_open_file(&d, path, NULL), 0);
    assert_int_equal(d->container.kind, DISC_KIND_CISO);
    assert_int_equal(d->fst.file_count, 3);
    disc_close(d);
    free(c);
    assert_int_equal(tu_remove_tree(dir), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gcz),
        cmocka_unit_test(test_ciso),
        cmocka_unit_test(test_wia_rvz),
        cmocka_unit_test(test_span),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_bcache_lengths),
        cmocka_unit_test(test_gcz_one_decode_per_block),
        cmocka_unit_test(test_gcz_waiter_decodes_after_failure),
        cmocka_unit_test(test_gcz_failed_ahead_tried_once),
        cmocka_unit_test(test_gcz_hostile),
        cmocka_unit_test(test_ciso_hostile),
        cmocka_unit_test(test_kinds),
        cmocka_unit_test(test_open_path),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
