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
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
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

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s;
}

/* ---- hand-built WIA files ------------------------------------------------------------
 * Written here from the layout in docs/formats.md §13.1: header 1, header 2, the raw-data
 * table, the group table, then the groups, each padded to 4 bytes; one raw-data entry from
 * 0x80 to the disc's end; 2 MiB chunks. Methods none, purge and bzip2 (which dolphin-tool
 * cannot write). */

#define HB_CHUNK 0x200000u

static void put32(uint8_t *q, uint32_t v)
{
    q[0] = (uint8_t)(v >> 24);
    q[1] = (uint8_t)(v >> 16);
    q[2] = (uint8_t)(v >> 8);
    q[3] = (uint8_t)v;
}

static void put64(uint8_t *q, uint64_t v)
{
    put32(q, (uint32_t)(v >> 32));
    put32(q + 4, (uint32_t)v);
}

static uint32_t get32(const uint8_t *q)
{
    return (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3];
}

/* in stored with method into a new buffer (caller frees). */
static uint8_t *hb_store(uint32_t method, const uint8_t *in, size_t n, size_t *out_len)
{
    uint8_t *out = malloc(2 * n + 64);
    assert_non_null(out);
    if (method == 0) {
        memcpy(out, in, n);
        *out_len = n;
    } else if (method == 1) { /* purge: one segment per run of non-zero bytes */
        size_t o = 0, i = 0;
        while (i < n) {
            if (in[i] == 0) {
                i++;
                continue;
            }
            size_t j = i;
            while (j < n && in[j] != 0)
                j++;
            put32(out + o, (uint32_t)i);
            put32(out + o + 4, (uint32_t)(j - i));
            memcpy(out + o + 8, in + i, j - i);
            o += 8 + (j - i);
            i = j;
        }
        disc_sha1(out + o, out, o);
        *out_len = o + 20;
    } else {
        unsigned dl = (unsigned)(2 * n + 64);
        assert_int_equal(
            BZ2_bzBuffToBuffCompress((char *)out, &dl, (char *)(uintptr_t)in, (unsigned)n, 9, 0, 0),
            BZ_OK);
        *out_len = dl;
    }
    return out;
}

/* Recompute header 2's hash (in header 1) and header 1's own. */
static void hb_rehash(uint8_t *f)
{
    disc_sha1(f + 0x10, f + 0x48, get32(f + 0x0C));
    disc_sha1(f + 0x34, f, 0x34);
}

typedef struct hb_file {
    uint8_t *bytes;
    size_t len;
    uint64_t group_off[8]; /* file offsets of the groups */
    uint32_t group_size[8];
    uint64_t group_table;
    uint32_t n_groups;
} hb_file;

static void hb_build(hb_file *h, uint32_t method, const uint8_t *iso, size_t iso_len)
{
    memset(h, 0, sizeof *h);
    h->n_groups = (uint32_t)((iso_len + HB_CHUNK - 1) / HB_CHUNK);
    assert_true(h->n_groups <= 8);
    size_t cap = 0x400 + 3 * iso_len + 64 * h->n_groups;
    uint8_t *f = calloc(cap, 1);
    assert_non_null(f);
    memcpy(f, "WIA\x01", 4);
    put32(f + 4, 0x01000000u);
    put32(f + 8, 0x00090000u);
    put32(f + 0x0C, 0xDC);
    put64(f + 0x24, iso_len);
    uint8_t *h2 = f + 0x48;
    put32(h2, 1);
    put32(h2 + 4, method);
    put32(h2 + 8, method ? 9 : 0);
    put32(h2 + 12, HB_CHUNK);
    memcpy(h2 + 16, iso, 0x80);
    disc_sha1(h2 + 0xA0, "", 0);
    size_t at = 0x48 + 0xDC;
    at = (at + 3) & ~(size_t)3;
    /* raw-data table */
    uint8_t raw[24];
    put64(raw, 0x80);
    put64(raw + 8, iso_len - 0x80);
    put32(raw + 16, 0);
    put32(raw + 20, h->n_groups);
    size_t n;
    uint8_t *st = hb_store(method, raw, sizeof raw, &n);
    memcpy(f + at, st, n);
    free(st);
    put32(h2 + 0xB4, 1);
    put64(h2 + 0xB8, at);
    put32(h2 + 0xC0, (uint32_t)n);
    at = (at + n + 3) & ~(size_t)3;
    /* groups after a place for the group table */
    size_t gt_at = at, gt_room = 8 * h->n_groups + 64;
    at = (at + gt_room + 3) & ~(size_t)3;
    uint8_t gt[64];
    for (uint32_t g = 0; g < h->n_groups; g++) {
        size_t from = (size_t)g * HB_CHUNK;
        size_t len = iso_len - from < HB_CHUNK ? iso_len - from : HB_CHUNK;
        st = hb_store(method, iso + from, len, &n);
        memcpy(f + at, st, n);
        free(st);
        put32(gt + 8 * g, (uint32_t)(at / 4));
        put32(gt + 8 * g + 4, (uint32_t)n);
        h->group_off[g] = at;
        h->group_size[g] = (uint32_t)n;
        at = (at + n + 3) & ~(size_t)3;
    }
    st = hb_store(method, gt, 8 * h->n_groups, &n);
    assert_true(n <= gt_room);
    memcpy(f + gt_at, st, n);
    free(st);
    h->group_table = gt_at;
    put32(h2 + 0xC4, h->n_groups);
    put64(h2 + 0xC8, gt_at);
    put32(h2 + 0xD0, (uint32_t)n);
    put64(f + 0x2C, at);
    h->bytes = f;
    h->len = at;
    hb_rehash(f);
}

/* A small disc-like image: a header, random bytes with runs of zeros, junk. */
static uint8_t *hb_image(size_t len)
{
    uint8_t *img = calloc(len, 1);
    assert_non_null(img);
    memcpy(img, "GM8E01", 6);
    put32(img + 0x1C, 0xC2339F3Du);
    uint32_t seed = 4242;
    for (size_t i = 0x440; i < len / 2; i++)
        img[i] = (i / 4096) % 3 == 0 ? 0 : (uint8_t)(lcg(&seed) >> 24);
    disc_junk_fill(img + len / 2, len / 2, len - len / 2, "GM8E", 0);
    return img;
}

typedef struct opened {
    util_src *src;
    disc_wia *w;
    util_err err;
    int rc;
} opened;

static void hb_open(opened *o, const uint8_t *bytes, size_t len)
{
    util_err_clear(&o->err);
    o->w = NULL;
    assert_int_equal(util_src_open_mem(&o->src, bytes, len, &o->err), 0);
    o->rc = disc_wia_open(&o->w, o->src, 0, &o->err);
    if (o->rc)
        assert_null(o->w);
}

static void hb_close(opened *o)
{
    disc_wia_close(o->w);
    util_src_close(o->src);
}

static void test_handbuilt_methods(void **state)
{
    (void)state;
    size_t len = 0x300000; /* two groups, the second shorter */
    uint8_t *img = hb_image(len), *back = malloc(len);
    assert_non_null(back);
    static const char *names[3] = {"none", "purge", "bzip2"};
    for (uint32_t m = 0; m < 3; m++) {
        hb_file h;
        hb_build(&h, m, img, len);
        opened o;
        hb_open(&o, h.bytes, h.len);
        if (o.rc)
            print_message("%s: %s\n", names[m], o.err.msg);
        assert_int_equal(o.rc, 0);
        assert_string_equal(disc_wia_get_info(o.w)->compression_name, names[m]);
        assert_int_equal(disc_wia_read(o.w, back, 0, len, &o.err), 0);
        assert_memory_equal(back, img, len);
        /* a range across the two groups */
        assert_int_equal(disc_wia_read(o.w, back, HB_CHUNK - 1000, 3000, &o.err), 0);
        assert_memory_equal(back, img + HB_CHUNK - 1000, 3000);
        hb_close(&o);
        free(h.bytes);
    }
    free(back);
    free(img);
}

/* Groups larger than the cache are kept all the same: many small reads inside one group (a
 * PAK entry each) decode it once, and reads alternating between two groups (a PAK whose
 * tables and entries lie in both, an entry across their boundary) decode each once. */
static void test_oversized_groups_decode_once(void **state)
{
    (void)state;
    size_t len = 0x300000; /* groups of 2 MiB and 1 MiB, both larger than the cache */
    uint8_t *img = hb_image(len), buf[4096];
    hb_file h;
    hb_build(&h, 2, img, len);
    util_err err;
    util_err_clear(&err);
    util_src *src = NULL;
    disc_wia *w = NULL;
    assert_int_equal(util_src_open_mem(&src, h.bytes, h.len, &err), 0);
    assert_int_equal(disc_wia_open(&w, src, 0x10000, &err), 0);
    assert_int_equal(disc_wia_decodes(w), 0);
    uint32_t seed = 17;
    for (int i = 0; i < 200; i++) {
        uint64_t off = 0x80 + lcg(&seed) % (HB_CHUNK - 0x80 - sizeof buf);
        size_t n = 1 + lcg(&seed) % sizeof buf;
        assert_int_equal(disc_wia_read(w, buf, off, n, &err), 0);
        assert_memory_equal(buf, img + off, n);
    }
    assert_int_equal(disc_wia_decodes(w), 1);
    for (int i = 0; i < 100; i++) {
        uint64_t off = i % 3 == 0   ? HB_CHUNK - 1000 /* across the boundary */
                       : i % 3 == 1 ? 0x1000 + (uint64_t)i * 64
                                    : HB_CHUNK + 0x1000 + (uint64_t)i * 64;
        assert_int_equal(disc_wia_read(w, buf, off, 3000, &err), 0);
        assert_memory_equal(buf, img + off, 3000);
    }
    assert_int_equal(disc_wia_decodes(w), 2);
    disc_wia_close(w);
    util_src_close(src);
    free(h.bytes);
    free(img);
}

/* ---- one decode per group -----------------------------------------------------------
 * Thread A reads from group 0; the decode hook, on A right after it registered the group as
 * in flight, starts thread B reading another range of group 0 and returns once B waits for
 * A's decode (or, where B decodes the group itself, once B is done: then the test fails
 * rather than hangs). No sleeps: the hook polls. */

#define RACE_A_OFF 0x1000u
#define RACE_B_OFF 0x100000u /* both in group 0 (2 MiB chunks) */

typedef struct race {
    tu_race t;
    disc_wia *w;
    uint8_t b_buf[5000];
} race;

static int race_read_b(void *ctx, util_err *err)
{
    race *r = ctx;
    return disc_wia_read(r->w, r->b_buf, RACE_B_OFF, sizeof r->b_buf, err);
}

static unsigned race_waiters(void *ctx)
{
    return disc_wia_waiters(((race *)ctx)->w);
}

/* Run the race on the WIA in bytes: A's read into a (3000 bytes at RACE_A_OFF), its result;
 * B joined, its result in r. */
static int race_run(race *r, opened *o, const uint8_t *bytes, size_t len, uint8_t *a)
{
    hb_open(o, bytes, len);
    assert_int_equal(o->rc, 0);
    memset(r, 0, sizeof *r);
    r->w = o->w;
    tu_race_init(&r->t, race_read_b, race_waiters, r);
    disc_wia_set_decode_hook(o->w, tu_race_hook, &r->t);
    int rc = disc_wia_read(o->w, a, RACE_A_OFF, 3000, &o->err);
    tu_race_join(&r->t);
    return rc;
}

/* A thread reading a group another is decoding decodes the group after it meanwhile, then
 * waits for that decode and takes the group from the cache: one decode per group, two
 * groups decoded at once. */
static void test_one_decode_per_group(void **state)
{
    (void)state;
    size_t len = 0x300000;
    uint8_t *img = hb_image(len), a[3000];
    hb_file h;
    hb_build(&h, 2, img, len);
    race r;
    opened o;
    assert_int_equal(race_run(&r, &o, h.bytes, h.len, a), 0);
    assert_memory_equal(a, img + RACE_A_OFF, sizeof a);
    assert_int_equal(r.t.b_rc, 0);
    assert_memory_equal(r.b_buf, img + RACE_B_OFF, sizeof r.b_buf);
    /* group 0 by A, group 1 by B while A decoded group 0 */
    assert_int_equal(disc_wia_decodes(o.w), 2);
    assert_int_equal(atomic_load(&r.t.calls), 2);
    assert_true(atomic_load(&r.t.saw_waiter));
    /* group 1 is in the cache before anyone asked for it */
    assert_int_equal(disc_wia_read(o.w, a, 0x200000 + 0x1000, sizeof a, &o.err), 0);
    assert_memory_equal(a, img + 0x200000 + 0x1000, sizeof a);
    assert_int_equal(disc_wia_decodes(o.w), 2);
    hb_close(&o);
    free(h.bytes);
    free(img);
}

/* When the decode B waits for fails, B is woken and decodes the group itself: both report
 * the corrupt group, nothing hangs (group 1, which B decoded meanwhile, is sound). */
static void test_waiter_decodes_after_failure(void **state)
{
    (void)state;
    size_t len = 0x300000;
    uint8_t *img = hb_image(len), a[3000];
    hb_file h;
    hb_build(&h, 2, img, len);
    h.bytes[h.group_off[0] + h.group_size[0] / 2] ^= 0x55;
    race r;
    opened o;
    assert_int_equal(race_run(&r, &o, h.bytes, h.len, a), UTIL_EFORMAT);
    assert_int_equal(o.err.offset, h.group_off[0]);
    assert_non_null(strstr(o.err.msg, "bzip2"));
    assert_int_equal(r.t.b_rc, UTIL_EFORMAT);
    assert_int_equal(r.t.b_err.offset, h.group_off[0]);
    assert_string_equal(r.t.b_err.msg, o.err.msg);
    assert_true(atomic_load(&r.t.saw_waiter));
    assert_int_equal(atomic_load(&r.t.calls), 3); /* A's group 0, B's group 1, B's group 0 */
    assert_int_equal(disc_wia_decodes(o.w), 1);
    /* nothing left in flight: a read now decodes (and fails) again */
    assert_int_equal(disc_wia_read(o.w, a, RACE_A_OFF, sizeof a, &o.err), UTIL_EFORMAT);
    assert_int_equal(atomic_load(&r.t.calls), 4);
    hb_close(&o);
    free(h.bytes);
    free(img);
}

/* When the group after the one B waits for is corrupt too, B tries it once and then waits
 * (it used to decode it again and again while A's decode ran: here, with A held until B
 * waits, for ever). */
static void test_failed_ahead_tried_once(void **state)
{
    (void)state;
    size_t len = 0x300000;
    uint8_t *img = hb_image(len), a[3000];
    hb_file h;
    hb_build(&h, 2, img, len);
    h.bytes[h.group_off[0] + h.group_size[0] / 2] ^= 0x55;
    h.bytes[h.group_off[1] + h.group_size[1] / 2] ^= 0x55;
    race r;
    opened o;
    assert_int_equal(race_run(&r, &o, h.bytes, h.len, a), UTIL_EFORMAT);
    assert_int_equal(r.t.b_rc, UTIL_EFORMAT);
    assert_true(atomic_load(&r.t.saw_waiter));
    assert_int_equal(atomic_load(&r.t.calls), 3); /* A's group 0, B's group 1 once, B's group 0 */
    /* group 1 is corrupt indeed: its read fails */
    assert_int_equal(disc_wia_read(o.w, a, 0x200000 + 0x1000, sizeof a, &o.err), UTIL_EFORMAT);
    assert_int_equal(o.err.offset, h.group_off[1]);
    hb_close(&o);
    free(h.bytes);
    free(img);
}

/* Each hostile container: a clean error with the right code and offset, no crash. */
static void test_hostile(void **state)
{
    (void)state;
    size_t len = 0x300000;
    uint8_t *img = hb_image(len), *back = malloc(len);
    assert_non_null(back);
    hb_file h;
    hb_build(&h, 2, img, len);
    uint8_t *f = malloc(h.len);
    assert_non_null(f);
    opened o;

    /* header 2 changed, its hash not: mismatch named at header 1's hash of it (0x10) */
    memcpy(f, h.bytes, h.len);
    f[0x48 + 0x30] ^= 1;
    hb_open(&o, f, h.len);
    assert_int_equal(o.rc, UTIL_EFORMAT);
    assert_int_equal(o.err.offset, 0x10);
    assert_non_null(strstr(o.err.msg, "SHA-1"));
    hb_close(&o);
    /* header 1 changed: its own hash at 0x34 */
    memcpy(f, h.bytes, h.len);
    f[0x27] ^= 1;
    hb_open(&o, f, h.len);
    assert_int_equal(o.rc, UTIL_EFORMAT);
    assert_int_equal(o.err.offset, 0x34);
    hb_close(&o);

    /* the group table pointing past the file: header 2's field (0x48 + 0xC8) */
    memcpy(f, h.bytes, h.len);
    put64(f + 0x48 + 0xC8, h.len + 16);
    hb_rehash(f);
    hb_open(&o, f, h.len);
    assert_int_equal(o.rc, UTIL_EFORMAT);
    assert_int_equal(o.err.offset, 0x48 + 0xC8);
    hb_close(&o);
    /* the raw-data table's stored size past the file */
    memcpy(f, h.bytes, h.len);
    put32(f + 0x48 + 0xC0, (uint32_t)h.len);
    hb_rehash(f);
    hb_open(&o, f, h.len);
    assert_int_equal(o.rc, UTIL_EFORMAT);
    assert_int_equal(o.err.offset, 0x48 + 0xB8);
    hb_close(&o);

    /* unknown compression method 7 at 0x48 + 4 */
    memcpy(f, h.bytes, h.len);
    put32(f + 0x48 + 4, 7);
    hb_rehash(f);
    hb_open(&o, f, h.len);
    assert_int_equal(o.rc, UTIL_EFORMAT);
    assert_int_equal(o.err.offset, 0x4C);
    assert_non_null(strstr(o.err.msg, "compression method 7"));
    hb_close(&o);

    /* a Wii disc (disc type 2) is refused as such */
    memcpy(f, h.bytes, h.len);
    put32(f + 0x48, 2);
    hb_rehash(f);
    hb_open(&o, f, h.len);
    assert_int_equal(o.rc, UTIL_EFORMAT);
    assert_non_null(strstr(o.err.msg, "Wii"));
    hb_close(&o);

    /* an impossible chunk size */
    memcpy(f, h.bytes, h.len);
    put32(f + 0x48 + 12, 0x12345);
    hb_rehash(f);
    hb_open(&o, f, h.len);
    assert_int_equal(o.rc, UTIL_EFORMAT);
    assert_int_equal(o.err.offset, 0x48 + 12);
    hb_close(&o);

    /* truncated: a cut in the headers or tables is UTIL_ETRUNC at the cut (the header states
     * the whole size); a cut in the groups opens, saying the size the header states */
    static const size_t cuts[] = {0, 3, 4, 0x47, 0x48, 0x100, 0x124, 0x1000};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
        hb_open(&o, h.bytes, cuts[i]);
        if (cuts[i] < h.group_table + 8 * h.n_groups) {
            assert_int_equal(o.rc, UTIL_ETRUNC);
            assert_int_equal(o.err.offset, cuts[i]);
        } else {
            assert_int_equal(o.rc, 0);
            assert_int_equal(disc_wia_get_info(o.w)->stated_size, h.len);
        }
        hb_close(&o);
    }
    assert_true(h.group_off[0] < 0x1000); /* the last cut is one in the groups */
    /* cut in the last group (a download that stopped): it opens; the first group reads, the
     * cut one is UTIL_EIO at the cut, naming the header's size */
    hb_open(&o, h.bytes, h.len - 1);
    assert_int_equal(o.rc, 0);
    assert_int_equal(disc_wia_get_info(o.w)->stated_size, h.len);
    assert_int_equal(disc_wia_read(o.w, back, 0, 1000, &o.err), 0);
    assert_memory_equal(back, img, 1000);
    assert_int_equal(disc_wia_read(o.w, back, HB_CHUNK + 10, 100, &o.err), UTIL_EIO);
    assert_int_equal(o.err.offset, h.len - 1);
    assert_non_null(strstr(o.err.msg, "cut short"));
    hb_close(&o);

    /* a corrupt bzip2 group: the open succeeds, reading it fails at the group's file offset
     * with the disc offset in the message; the other group still reads */
    memcpy(f, h.bytes, h.len);
    f[h.group_off[1] + h.group_size[1] / 2] ^= 0x55;
    hb_open(&o, f, h.len);
    assert_int_equal(o.rc, 0);
    assert_int_equal(disc_wia_read(o.w, back, HB_CHUNK + 10, 100, &o.err), UTIL_EFORMAT);
    assert_int_equal(o.err.offset, h.group_off[1]);
    assert_non_null(strstr(o.err.msg, "disc 0x00200000"));
    assert_non_null(strstr(o.err.msg, "bzip2"));
    assert_int_equal(disc_wia_read(o.w, back, 0, 1000, &o.err), 0);
    assert_memory_equal(back, img, 1000);
    hb_close(&o);
    free(h.bytes);

    /* a group whose stored size is past the file (none: the group table is stored plain) */
    hb_build(&h, 0, img, len);
    f = realloc(f, h.len);
    assert_non_null(f);
    memcpy(f, h.bytes, h.len);
    put32(f + h.group_table + 8 + 4, (uint32_t)h.len);
    hb_open(&o, f, h.len);
    assert_int_equal(o.rc, UTIL_EFORMAT);
    assert_int_equal(o.err.offset, h.group_table);
    hb_close(&o);
    /* a group whose stored size is not the group's size: reading it fails */
    memcpy(f, h.bytes, h.len);
    put32(f + h.group_table + 4, HB_CHUNK - 4);
    hb_open(&o, f, h.len);
    assert_int_equal(o.rc, 0);
    assert_int_equal(disc_wia_read(o.w, back, 0x100, 16, &o.err), UTIL_EFORMAT);
    assert_int_equal(o.err.offset, h.group_off[0]);
    assert_non_null(strstr(o.err.msg, "disc 0x00000000"));
    hb_close(&o);
    free(h.bytes);

    /* purge: a changed byte in a group breaks its SHA-1 */
    hb_build(&h, 1, img, len);
    h.bytes[h.group_off[0] + 100] ^= 1;
    hb_open(&o, h.bytes, h.len);
    assert_int_equal(o.rc, 0);
    assert_int_equal(disc_wia_read(o.w, back, 0x100, 16, &o.err), UTIL_EFORMAT);
    assert_non_null(strstr(o.err.msg, "purge: SHA-1"));
    hb_close(&o);
    free(h.bytes);
    free(f);
    free(back);
    free(img);
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
        TU_SKIP();
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
        TU_SKIP();
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

/* ---- a whole ingest of a container ------------------------------------------------------ */

static int grab_int(void *ctx, int ncols, const db_cell *cells)
{
    int64_t *v = ctx;
    *v = ncols == 1 && cells[0].type == DB_INT ? cells[0].i : -1;
    return 0;
}

static int64_t sql_int(db *d, const char *sql)
{
    int64_t v = -2;
    util_err e;
    util_err_clear(&e);
    db_sink sink = {&v, NULL, grab_int, NULL};
    assert_int_equal(db_exec(d, sql, 0, NULL, &sink, &e), 0);
    return v;
}

/* An ingest of an RVZ decodes each group the PAKs lie in once: the entries' sizes are read
 * just before their bytes, not in a pass of their own that the small cache (1 MiB at
 * --memory 32) has forgotten by the time the entries are read (which decoded the PAK twice).
 * The disc (GM8E) names the game before any codec is read, so a PAK of LZO entries still
 * gets its game_conflict warning, once its codecs are in; with one thread and with two. */
static void test_ingest_decodes_groups_once(void **state)
{
    (void)state;
    if (!have_dolphin())
        TU_SKIP();
    util_err err;
    util_err_clear(&err);
    /* Metroid1.pak: 96 zlib entries of 24 KiB of random bytes (2.3 MB, 70 groups of 32 KiB);
     * Metroid2.pak: 4 small LZO entries (MP2's codec) */
    uint8_t *paks[2];
    size_t pak_len[2];
    uint32_t seed = 99;
    uint8_t *res = malloc(24576);
    assert_non_null(res);
    for (int k = 0; k < 2; k++) {
        pak_builder *b = pak_builder_new();
        assert_non_null(b);
        int n = k == 0 ? 96 : 4;
        for (int i = 0; i < n; i++) {
            size_t len = k == 0 ? 24576 : 600;
            for (size_t j = 0; j < len; j++)
                res[j] = (uint8_t)(lcg(&seed) >> 24);
            assert_int_equal(pak_builder_add(b, UTIL_FOURCC('T', 'X', 'T', 'R'),
                                             0x1000u * (uint32_t)(k + 1) + (uint32_t)i, res, len,
                                             k == 0 ? PAK_CODEC_ZLIB : PAK_CODEC_LZO, &err),
                             0);
        }
        assert_int_equal(pak_builder_finish_mem(b, &paks[k], &pak_len[k], &err), 0);
        pak_builder_free(b);
    }
    free(res);
    fixture_disc_file files[2] = {{.path = "Metroid1.pak", .data = paks[0], .len = pak_len[0]},
                                  {.path = "Metroid2.pak", .data = paks[1], .len = pak_len[1]}};
    fixture_disc_opts o;
    fixture_disc_opts_init(&o, "GM8E01", 0, "Ingest Fixture");
    char iso[600], rvz[600];
    snprintf(iso, sizeof iso, "%s/ingest.iso", g_scene.dir);
    assert_int_equal(fixture_disc_write(iso, &o, files, 2, &err), 0);
    free(paks[0]);
    free(paks[1]);
    assert_int_equal(
        dolphin_convert(rvz, sizeof rvz, iso, "ingest.rvz", "-f rvz -b 32768 -c zstd -l 1"), 0);
    uint64_t groups = (pak_len[0] + pak_len[1]) / 32768 + 2; /* the PAKs may straddle one more */
    for (int jobs = 1; jobs <= 2; jobs++) {
        char dbp[700];
        snprintf(dbp, sizeof dbp, "%s/ingest%d.db", g_scene.dir, jobs);
        db *d = NULL;
        assert_int_equal(db_open(&d, dbp, DB_OPEN_READWRITE, &err), 0);
        db_ingest_opts io = {
            .game = PAK_GAME_UNKNOWN, .jobs = jobs, .quiet = 1, .memory = (size_t)32 << 20};
        db_ingest_stats st;
        const char *paths[1] = {rvz};
        uint64_t before = disc_wia_decodes_all();
        assert_int_equal(db_ingest_paths(d, paths, 1, &io, &st, &err), 0);
        uint64_t decodes = disc_wia_decodes_all() - before;
        print_message("jobs %d: %llu group decodes for %llu groups of PAK data (+ header, FST)\n",
                      jobs, (unsigned long long)decodes, (unsigned long long)groups);
        /* the header and FST groups, each PAK's tables, then its entries: at most a few more
         * than the PAKs' groups (twice as many when the sizes were read first) */
        assert_true(decodes <= groups + 6);
        assert_int_equal(sql_int(d, "SELECT count(*) FROM pak_entries"), 100);
        assert_int_equal(sql_int(d, "SELECT count(*) FROM pak_entries WHERE decompressed_size = "
                                    "CASE WHEN asset_id < 8192 THEN 24576 ELSE 600 END"),
                         100);
        assert_int_equal(sql_int(d, "SELECT count(*) FROM paks WHERE game = 'MP1' AND "
                                    "game_detected = 'MP1'"),
                         2);
        assert_int_equal(sql_int(d, "SELECT count(*) FROM warnings w JOIN paks p USING (pak_id) "
                                    "WHERE w.code = 'game_conflict' AND p.path LIKE "
                                    "'%Metroid2.pak'"),
                         1);
        assert_int_equal(sql_int(d, "SELECT count(*) FROM warnings WHERE code = 'game_conflict'"),
                         1);
        db_close(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha1_vectors),
        cmocka_unit_test(test_junk_vectors),
        cmocka_unit_test(test_handbuilt_methods),
        cmocka_unit_test(test_oversized_groups_decode_once),
        cmocka_unit_test(test_one_decode_per_group),
        cmocka_unit_test(test_waiter_decodes_after_failure),
        cmocka_unit_test(test_failed_ahead_tried_once),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_dolphin_containers),
        cmocka_unit_test(test_dolphin_packs_junk),
        cmocka_unit_test(test_ingest_decodes_groups_once),
    };
    return tu_status(cmocka_run_group_tests(tests, setup_scene, teardown_scene));
}
