/* test_wia.c — WIA and RVZ containers (docs/formats.md §13) and disc junk.
 * SHA-1 against FIPS 180 vectors; the junk generator against published vectors (game "GALE",
 * disc 0); a fixture image with junk in its gaps converted by Dolphin's own converter
 * (/usr/games/dolphin-tool: RVZ zstd at 32 KiB, 128 KiB and 2 MiB and uncompressed, WIA LZMA,
 * LZMA2 and uncompressed at 2 MiB) and read back byte for byte, whole and in random ranges,
 * from two threads; RVZ must pack the junk (Dolphin recognised it) and Dolphin's conversion
 * back to ISO must equal the image. Hand-built WIA files (bzip2 and purge, which dolphin-tool
 * does not write, and hostile headers) check the rest. Cases needing dolphin-tool skip without
 * it. */
#include <bzlib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "disc.h"
#include "disc_junk.h"
#include "disc_sha1.h"
#include "disc_wia.h"
#include "fixture.h"
#include "testutil.h"

#define DOLPHIN_TOOL "/usr/games/dolphin-tool"

/* ---- SHA-1 and junk ----------------------------------------------------------------- */

static void hex20(char out[41], const uint8_t h[20])
{
    for (int i = 0; i < 20; i++)
        sprintf(out + 2 * i, "%02x", h[i]);
}

static void test_sha1_vectors(void **state)
{
    (void)state;
    uint8_t h[20];
    char s[41];
    disc_sha1(h, "abc", 3);
    hex20(s, h);
    assert_string_equal(s, "a9993e364706816aba3e25717850c26c9cd0d89d");
    disc_sha1(h, "", 0);
    hex20(s, h);
    assert_string_equal(s, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    disc_sha1(h, m, strlen(m));
    hex20(s, h);
    assert_string_equal(s, "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    /* a million 'a', fed in uneven pieces */
    disc_sha1_ctx c;
    disc_sha1_init(&c);
    uint8_t a[997];
    memset(a, 'a', sizeof a);
    size_t left = 1000000;
    for (size_t k = 1; left; k = k % 997 + 1) {
        size_t n = k < left ? k : left;
        disc_sha1_update(&c, a, n);
        left -= n;
    }
    disc_sha1_final(&c, h);
    hex20(s, h);
    assert_string_equal(s, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

static void test_junk_vectors(void **state)
{
    (void)state;
    /* published vectors of the generator: game ID "GALE", disc 0, offsets 0x600000 and
     * 0x608000 (the start of two 32 KiB blocks) */
    static const uint8_t at600000[16] = {0xE9, 0x47, 0x67, 0xBD, 0x41, 0x50, 0x4D, 0x5D,
                                         0x61, 0x48, 0xB1, 0x99, 0xA0, 0x12, 0x0C, 0xBA};
    static const uint8_t at608000[16] = {0xE2, 0xBB, 0xBD, 0x77, 0xDA, 0xB2, 0x22, 0x42,
                                         0x1C, 0x0C, 0x0B, 0xFC, 0xAC, 0x06, 0xEA, 0xD0};
    uint8_t b[16];
    disc_junk_fill(b, 0x600000, 16, "GALE", 0);
    assert_memory_equal(b, at600000, 16);
    disc_junk_fill(b, 0x608000, 16, "GALE", 0);
    assert_memory_equal(b, at608000, 16);
    /* a fill across the block boundary restarts the generator there */
    uint8_t across[32];
    disc_junk_fill(across, 0x607FF0, 32, "GALE", 0);
    assert_memory_equal(across + 16, at608000, 16);
    /* a fill starting inside a block equals the tail of the fill from the block's start */
    uint8_t *whole = malloc(0x8000), part[100];
    assert_non_null(whole);
    disc_junk_fill(whole, 0x600000, 0x8000, "GALE", 0);
    assert_memory_equal(whole, at600000, 16);
    disc_junk_fill(part, 0x600000 + 0x1235, sizeof part, "GALE", 0);
    assert_memory_equal(part, whole + 0x1235, sizeof part);
    /* another disc number gives other bytes */
    disc_junk_fill(b, 0x600000, 16, "GALE", 1);
    assert_memory_not_equal(b, at600000, 16);
    free(whole);
}

/* ---- the fixture image and Dolphin's conversions ------------------------------------- */

typedef struct scene {
    char *dir;
    char iso_path[512];
    uint8_t *iso;
    size_t iso_len;
    uint64_t file_bytes; /* bytes of the files (the rest is header, FST, zeros and junk) */
} scene;

static scene g_scene;

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s;
}

/* Five files of random (incompressible) bytes, one larger than a 2 MiB chunk, one
 * empty, aligned to 32 KiB so that long runs of junk lie between them. */
static int setup_scene(void **state)
{
    (void)state;
    scene *s = &g_scene;
    s->dir = tu_tempdir();
    assert_non_null(s->dir);
    static const size_t sizes[5] = {300000, 2500000, 0, 70001, 123};
    static const char *paths[5] = {"Metroid1.pak", "big/Metroid2.pak", "empty.bin",
                                   "text/strings.txt", "tiny.bin"};
    fixture_disc_file files[5];
    uint8_t *bufs[5];
    uint32_t seed = 12345;
    s->file_bytes = 0;
    for (int i = 0; i < 5; i++) {
        bufs[i] = malloc(sizes[i] + 1);
        assert_non_null(bufs[i]);
        for (size_t k = 0; k < sizes[i]; k++)
            bufs[i][k] = (uint8_t)(lcg(&seed) >> 24);
        files[i] = (fixture_disc_file){.path = paths[i], .data = bufs[i], .len = sizes[i]};
        s->file_bytes += sizes[i];
    }
    fixture_disc_opts o;
    fixture_disc_opts_init(&o, "GM8E01", 0, "WIA Fixture");
    o.align = 0x8000;
    snprintf(s->iso_path, sizeof s->iso_path, "%s/disc.iso", s->dir);
    util_err err;
    util_err_clear(&err);
    assert_int_equal(fixture_disc_write(s->iso_path, &o, files, 5, &err), 0);
    for (int i = 0; i < 5; i++)
        free(bufs[i]);
    s->iso = tu_read_file(s->iso_path, &s->iso_len);
    assert_non_null(s->iso);
    return 0;
}

static int teardown_scene(void **state)
{
    (void)state;
    free(g_scene.iso);
    if (g_scene.dir)
        tu_remove_tree(g_scene.dir);
    free(g_scene.dir);
    return 0;
}

/* Convert the scene's image with dolphin-tool; the output's path in out. 0, or skip(). */
static int dolphin_convert(char *out, size_t cap, const char *in, const char *name,
                           const char *args)
{
    snprintf(out, cap, "%s/%s", g_scene.dir, name);
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "HOME='%s' '%s' convert -u '%s/user' -i '%s' -o '%s' %s >'%s/%s.log' 2>&1",
             g_scene.dir, DOLPHIN_TOOL, g_scene.dir, in, out, args, g_scene.dir, name);
    return tu_run(cmd, NULL);
}

typedef struct reader_job {
    disc_wia *w;
    uint32_t seed;
    int bad; /* ranges that failed or differed */
} reader_job;

static void *reader(void *arg)
{
    reader_job *j = arg;
    const scene *s = &g_scene;
    uint8_t *buf = malloc(300000);
    if (!buf) {
        j->bad++;
        return NULL;
    }
    for (int r = 0; r < 60; r++) {
        uint64_t off = lcg(&j->seed) % s->iso_len;
        size_t len = lcg(&j->seed) % 300000;
        if (len > s->iso_len - off)
            len = (size_t)(s->iso_len - off);
        util_err err;
        util_err_clear(&err);
        if (disc_wia_read(j->w, buf, off, len, &err) != 0 || memcmp(buf, s->iso + off, len) != 0)
            j->bad++;
    }
    free(buf);
    return NULL;
}

/* Open path, check its info, read the whole disc and random ranges (two threads, a cache of
 * two chunks so groups are evicted and decoded again) against the image. */
static void check_container(const char *path, int is_rvz, uint32_t chunk, const char *method)
{
    const scene *s = &g_scene;
    util_err err;
    util_err_clear(&err);
    util_src *src = NULL;
    assert_int_equal(util_src_open_file(&src, path, &err), 0);
    disc_wia *w = NULL;
    int rc = disc_wia_open(&w, src, 2 * (size_t)chunk, &err);
    if (rc)
        print_message("%s: %s\n", path, err.msg);
    assert_int_equal(rc, 0);
    const disc_wia_info *info = disc_wia_get_info(w);
    assert_int_equal(info->is_rvz, is_rvz);
    assert_int_equal(info->iso_size, s->iso_len);
    assert_int_equal(info->chunk_size, chunk);
    assert_string_equal(info->compression_name, method);

    uint8_t *all = malloc(s->iso_len);
    assert_non_null(all);
    rc = disc_wia_read(w, all, 0, s->iso_len, &err);
    if (rc)
        print_message("%s: %s\n", path, err.msg);
    assert_int_equal(rc, 0);
    assert_memory_equal(all, s->iso, s->iso_len);
    free(all);

    reader_job jobs[2] = {{.w = w, .seed = 7}, {.w = w, .seed = 99}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, reader, &jobs[i]), 0);
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(jobs[i].bad, 0);
    }

    /* the last byte, then one past the end */
    uint8_t b[2];
    assert_int_equal(disc_wia_read(w, b, s->iso_len - 1, 1, &err), 0);
    assert_int_equal(b[0], s->iso[s->iso_len - 1]);
    assert_int_equal(disc_wia_read(w, b, s->iso_len - 1, 2, &err), UTIL_EIO);
    assert_int_equal(err.offset, s->iso_len - 1);
    disc_wia_close(w);
    util_src_close(src);
}

static int have_dolphin(void)
{
    return access(DOLPHIN_TOOL, X_OK) == 0;
}

typedef struct conversion {
    const char *name, *args;
    int is_rvz;
    uint32_t chunk;
    const char *method;
} conversion;

static const conversion conversions[] = {
    {"z128k.rvz", "-f rvz -b 131072 -c zstd -l 5", 1, 131072, "zstd"},
    {"z32k.rvz", "-f rvz -b 32768 -c zstd -l 5", 1, 32768, "zstd"},
    {"z2m.rvz", "-f rvz -b 2097152 -c zstd -l 5", 1, 2097152, "zstd"},
    {"none128k.rvz", "-f rvz -b 131072 -c none", 1, 131072, "none"},
    {"lzma2.wia", "-f wia -b 2097152 -c lzma2 -l 5", 0, 2097152, "LZMA2"},
    {"lzma.wia", "-f wia -b 2097152 -c lzma -l 5", 0, 2097152, "LZMA"},
    {"none.wia", "-f wia -b 2097152 -c none", 0, 2097152, "none"},
};

static void test_dolphin_containers(void **state)
{
    (void)state;
    if (!have_dolphin())
        skip();
    for (size_t i = 0; i < sizeof conversions / sizeof *conversions; i++) {
        const conversion *c = &conversions[i];
        char out[600];
        int rc = dolphin_convert(out, sizeof out, g_scene.iso_path, c->name, c->args);
        if (rc != 0)
            print_message("dolphin-tool %s failed (%d)\n", c->args, rc);
        assert_int_equal(rc, 0);
        check_container(out, c->is_rvz, c->chunk, c->method);
    }
}

/* Dolphin recognises the fixture's junk: RVZ stores it as seeds (the container is not much
 * more than the files' own bytes, which are random), and converting back gives the image.
 * Fails when the gaps hold zeros (no junk to count) or bytes Dolphin does not recognise as
 * junk (they stay stored and the RVZ grows by their size). */
static void test_dolphin_packs_junk(void **state)
{
    (void)state;
    if (!have_dolphin())
        skip();
    const scene *s = &g_scene;
    /* the bytes outside the files: how many are not zero (junk), and junk where it belongs:
     * the image's tail, from 28 bytes past the last file's end rounded up to 4 */
    util_err err;
    util_err_clear(&err);
    disc_image *d = NULL;
    assert_int_equal(disc_open_mem(&d, s->iso, s->iso_len, &err), 0);
    uint8_t *in_file = calloc(s->iso_len, 1);
    assert_non_null(in_file);
    uint64_t last_end = 0;
    for (uint32_t i = 0; i < d->fst.file_count; i++) {
        const disc_file *f = &d->fst.files[i];
        memset(in_file + f->offset, 1, (size_t)f->length);
        if (f->offset + f->length > last_end)
            last_end = f->offset + f->length;
    }
    /* Dolphin's packer looks for junk at the start of each 32 KiB block and after each file,
     * so the junk after the FST in block 0 (behind the header) stays stored: count the rest */
    uint64_t other_nonzero = 0;
    for (size_t i = 0x8000; i < s->iso_len; i++)
        other_nonzero += !in_file[i] && s->iso[i] != 0;
    free(in_file);
    uint64_t tail = (last_end + 3) / 4 * 4 + 28;
    assert_true(tail < s->iso_len);
    uint8_t *junk = malloc(s->iso_len - tail);
    assert_non_null(junk);
    disc_junk_fill(junk, tail, s->iso_len - tail, "GM8E", 0);
    assert_memory_equal(junk, s->iso + tail, s->iso_len - tail);
    free(junk);
    disc_close(d);

    char rvz[600], back[600];
    assert_int_equal(
        dolphin_convert(rvz, sizeof rvz, s->iso_path, "pack.rvz", "-f rvz -b 131072 -c zstd -l 5"),
        0);
    size_t rvz_len = 0;
    uint8_t *r = tu_read_file(rvz, &rvz_len);
    assert_non_null(r);
    free(r);
    print_message("image %zu bytes, files %llu, junk %llu, RVZ %zu\n", s->iso_len,
                  (unsigned long long)s->file_bytes, (unsigned long long)other_nonzero, rvz_len);
    assert_true(other_nonzero > 100000); /* the scene has junk to pack: random-looking bytes */
    /* the files (random: zstd cannot shrink them), block 0, the 32 KiB Dolphin reserves for
     * its headers and at most 5% of the junk */
    assert_true(rvz_len < s->file_bytes + 2 * 0x8000 + other_nonzero / 20);
    assert_int_equal(dolphin_convert(back, sizeof back, rvz, "back.iso", "-f iso"), 0);
    size_t back_len = 0;
    uint8_t *b = tu_read_file(back, &back_len);
    assert_non_null(b);
    assert_int_equal(back_len, s->iso_len);
    assert_memory_equal(b, s->iso, s->iso_len);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha1_vectors),
        cmocka_unit_test(test_junk_vectors),
        cmocka_unit_test(test_dolphin_containers),
        cmocka_unit_test(test_dolphin_packs_junk),
    };
    return cmocka_run_group_tests(tests, setup_scene, teardown_scene);
}
