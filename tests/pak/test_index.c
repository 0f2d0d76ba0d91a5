/* test_pak_index.c — PAK header and tables (docs/formats.md §2) on hand-built bytes: fields,
 * bounds, anomalies, truncation at every byte, game detection (§2.7). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "pak.h"
#include "testutil.h"

#define FOURCC(a, b, c, d)                                                                         \
    ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

static int has_anomaly(const pak_file *p, int64_t entry, const char *code)
{
    for (size_t k = 0; k < p->anomaly_count; k++)
        if (p->anomalies[k].entry_index == entry && !strcmp(p->anomalies[k].code, code))
            return 1;
    return 0;
}

/* A small valid PAK, written byte by byte from §2.2–2.5:
 *   0x00 header 00030005 00000000
 *   0x08 named_count 2: 0x0C (STRG 11111111 "ab"), 0x1A (ANCS 22222222 "Samus")
 *   0x2B resource_count 3
 *   0x2F entry 0: stored STRG 11111111 size 0x20 offset 0x80 (29 bytes + 3 x FF)
 *   0x43 entry 1: zlib   ANCS 22222222 size 0x40 offset 0xA0 (u32 40, zlib, FF...)
 *   0x57 entry 2: stored TXTR 33333333 size 0x00 offset 0xE0
 *   0x6B zero gap up to 0x80; the file ends at 0xE0. */
typedef struct small_pak {
    uint8_t *buf;
    size_t len;
    uint8_t plain[40]; /* what entry 1 inflates to */
} small_pak;

static void put32(uint8_t *q, uint32_t v)
{
    q[0] = (uint8_t)(v >> 24);
    q[1] = (uint8_t)(v >> 16);
    q[2] = (uint8_t)(v >> 8);
    q[3] = (uint8_t)v;
}

static void make_small(small_pak *s)
{
    util_wr w;
    util_wr_init(&w);
    util_wr_u32(&w, 0x00030005);
    util_wr_u32(&w, 0);
    util_wr_u32(&w, 2);
    util_wr_u32(&w, FOURCC('S', 'T', 'R', 'G'));
    util_wr_u32(&w, 0x11111111);
    util_wr_u32(&w, 2);
    util_wr_bytes(&w, "ab", 2);
    util_wr_u32(&w, FOURCC('A', 'N', 'C', 'S'));
    util_wr_u32(&w, 0x22222222);
    util_wr_u32(&w, 5);
    util_wr_bytes(&w, "Samus", 5);
    assert_int_equal(w.len, 0x2B);
    util_wr_u32(&w, 3);
    /* entry 0 */
    util_wr_u32(&w, 0);
    util_wr_u32(&w, FOURCC('S', 'T', 'R', 'G'));
    util_wr_u32(&w, 0x11111111);
    util_wr_u32(&w, 0x20);
    util_wr_u32(&w, 0x80);
    /* entry 1 */
    util_wr_u32(&w, 1);
    util_wr_u32(&w, FOURCC('A', 'N', 'C', 'S'));
    util_wr_u32(&w, 0x22222222);
    util_wr_u32(&w, 0x40);
    util_wr_u32(&w, 0xA0);
    /* entry 2: empty */
    util_wr_u32(&w, 0);
    util_wr_u32(&w, FOURCC('T', 'X', 'T', 'R'));
    util_wr_u32(&w, 0x33333333);
    util_wr_u32(&w, 0);
    util_wr_u32(&w, 0xE0);
    assert_int_equal(w.len, 0x6B);
    util_wr_fill(&w, 0, 0x80 - 0x6B);
    /* entry 0 data: 29 bytes + 3 bytes 0xFF padding */
    util_wr_bytes(&w, "a stored string resource here", 29);
    util_wr_fill(&w, 0xFF, 3);
    /* entry 1 data: u32 40 + zlib(level 9) + 0xFF padding to 0x40 */
    for (int i = 0; i < 40; i++)
        s->plain[i] = (uint8_t)(i < 20 ? 'x' : i);
    uint8_t z[64];
    uLongf zlen = sizeof z;
    assert_int_equal(compress2(z, &zlen, s->plain, 40, 9), Z_OK);
    assert_true(4 + zlen <= 0x40);
    util_wr_u32(&w, 40);
    util_wr_bytes(&w, z, zlen);
    util_wr_fill(&w, 0xFF, 0x40 - 4 - zlen);
    assert_int_equal(w.len, 0xE0);
    assert_int_equal(util_wr_status(&w, NULL), 0);
    s->buf = util_wr_take(&w, &s->len);
}

static void test_small_fields(void **state)
{
    (void)state;
    small_pak s;
    make_small(&s);
    pak_file *p = NULL;
    util_err err;
    util_err_clear(&err);
    assert_int_equal(pak_open_mem(&p, s.buf, s.len, &err), 0);
    assert_int_equal(p->named_count, 2);
    assert_int_equal(p->named[0].type, FOURCC('S', 'T', 'R', 'G'));
    assert_int_equal(p->named[0].id, 0x11111111);
    assert_int_equal(p->named[0].name_len, 2);
    assert_string_equal(p->named[0].name, "ab");
    assert_int_equal(p->named[0].offset, 0x0C);
    assert_string_equal(p->named[1].name, "Samus");
    assert_int_equal(p->named[1].offset, 0x1A);
    assert_int_equal(p->entry_count, 3);
    assert_int_equal(p->tables_end, 0x6B);
    assert_true(p->tables_hash == util_fnv1a(UTIL_FNV_INIT, s.buf, 0x6B));

    const pak_entry *e = p->entries;
    assert_int_equal(e[0].index, 0);
    assert_int_equal(e[0].compressed, 0);
    assert_int_equal(e[0].type, FOURCC('S', 'T', 'R', 'G'));
    assert_int_equal(e[0].size, 0x20);
    assert_int_equal(e[0].offset, 0x80);
    assert_int_equal(e[0].table_offset, 0x2F);
    assert_true(e[0].in_bounds);
    assert_int_equal(e[0].decompressed_size, 29); /* padding stripped */
    assert_int_equal(e[1].compressed, 1);
    assert_int_equal(e[1].id, 0x22222222);
    assert_int_equal(e[1].decompressed_size, 40);
    assert_int_equal(e[1].table_offset, 0x43);
    assert_true(e[2].in_bounds);
    assert_int_equal(e[2].size, 0);
    assert_int_equal(e[2].decompressed_size, 0);
    assert_int_equal(p->anomaly_count, 0);

    uint8_t *out = NULL;
    size_t n = 0;
    assert_int_equal(pak_inflate(&out, &n, p, 0, PAK_MAX_INFLATE, &err), 0);
    assert_int_equal(n, 32); /* stored: every byte, padding included */
    assert_memory_equal(out, "a stored string resource here\xff\xff\xff", 32);
    free(out);
    assert_int_equal(pak_inflate(&out, &n, p, 1, PAK_MAX_INFLATE, &err), 0);
    assert_int_equal(n, 40);
    assert_memory_equal(out, s.plain, 40);
    free(out);
    assert_int_equal(pak_inflate(&out, &n, p, 2, PAK_MAX_INFLATE, &err), 0);
    assert_int_equal(n, 0);
    free(out);
    assert_int_equal(pak_inflate(&out, &n, p, 3, PAK_MAX_INFLATE, &err), UTIL_EFORMAT);
    assert_null(out);

    uint8_t *stored;
    size_t len;
    assert_int_equal(pak_entry_read(p, 1, &stored, &len, &err), 0);
    assert_int_equal(len, 0x40);
    assert_memory_equal(stored, s.buf + 0xA0, 0x40);
    free(stored);
    pak_close(p);
    free(s.buf);
}

static void test_empty(void **state)
{
    (void)state;
    static const uint8_t hdr8[8] = {0, 3, 0, 5, 0, 0, 0, 0};
    static const uint8_t hdr32[32] = {0, 3, 0, 5};
    pak_file *p = NULL;
    util_err err;
    assert_int_equal(pak_open_mem(&p, hdr8, 8, &err), 0);
    assert_int_equal(p->named_count, 0);
    assert_int_equal(p->entry_count, 0);
    assert_int_equal(p->tables_end, 8);
    assert_int_equal(pak_game_decide(p, NULL, NULL), PAK_GAME_UNKNOWN);
    pak_close(p);
    assert_int_equal(pak_open_mem(&p, hdr32, 32, &err), 0);
    assert_int_equal(p->tables_end, 16);
    assert_int_equal(p->anomaly_count, 0);
    pak_close(p);
    pak_close(NULL);
}

static void test_bad_header(void **state)
{
    (void)state;
    uint8_t b[32] = {0, 3, 0, 6};
    pak_file *p = (pak_file *)1;
    util_err err;
    assert_int_equal(pak_open_mem(&p, b, sizeof b, &err), UTIL_EFORMAT);
    assert_int_equal(err.offset, 0);
    assert_null(p);
    b[3] = 5;
    b[4] = 1; /* unused word: anomaly only */
    assert_int_equal(pak_open_mem(&p, b, sizeof b, &err), 0);
    assert_true(has_anomaly(p, -1, "header_unused"));
    pak_close(p);
    assert_int_equal(pak_open_mem(&p, b, 0, &err), UTIL_ETRUNC);
    assert_int_equal(err.offset, 0);
}

/* Every shorter prefix fails: pak_open_mem with an offset not past the cut, or (cut in the
 * data area) some entry is out of bounds and inflating it fails at most at the cut. */
static void test_every_prefix(void **state)
{
    (void)state;
    small_pak s;
    make_small(&s);
    for (size_t cut = 0; cut < s.len; cut++) {
        uint8_t *copy = malloc(cut ? cut : 1);
        memcpy(copy, s.buf, cut);
        pak_file *p = NULL;
        util_err err;
        util_err_clear(&err);
        int rc = pak_open_mem(&p, copy, cut, &err);
        if (cut == 8) {
            assert_int_equal(rc, 0);
            assert_int_equal(p->entry_count, 0);
        } else if (cut < 0x80) { /* inside the header, tables or their padding */
            assert_int_equal(rc, UTIL_ETRUNC);
            assert_true(err.offset <= cut);
            assert_null(p);
        } else {
            assert_int_equal(rc, 0);
            int unreadable = 0;
            for (uint32_t i = 0; i < p->entry_count; i++) {
                if (p->entries[i].in_bounds)
                    continue;
                unreadable++;
                assert_true(has_anomaly(p, i, "out_of_bounds"));
                uint8_t *out = NULL;
                size_t n;
                util_err_clear(&err);
                assert_int_equal(pak_inflate(&out, &n, p, i, PAK_MAX_INFLATE, &err), UTIL_ETRUNC);
                assert_true(err.offset <= cut);
                assert_null(out);
            }
            assert_true(unreadable > 0);
        }
        pak_close(p);
        free(copy);
    }
    free(s.buf);
}

static void test_counts_that_cannot_fit(void **state)
{
    (void)state;
    small_pak s;
    make_small(&s);
    pak_file *p = NULL;
    util_err err;
    /* named_count: 0xE0 bytes total, 0xD4 left after the count -> at most 17 entries */
    put32(s.buf + 8, 18);
    assert_int_equal(pak_open_mem(&p, s.buf, s.len, &err), UTIL_ETRUNC);
    assert_int_equal(err.offset, 12);
    put32(s.buf + 8, 0xFFFFFFFF);
    assert_int_equal(pak_open_mem(&p, s.buf, s.len, &err), UTIL_ETRUNC);
    assert_int_equal(err.offset, 12);
    put32(s.buf + 8, 2);
    /* name_length of the first named entry larger than the bytes left */
    put32(s.buf + 0x14, 0xC9);
    assert_int_equal(pak_open_mem(&p, s.buf, s.len, &err), UTIL_ETRUNC);
    assert_int_equal(err.offset, 0x14);
    put32(s.buf + 0x14, 0xFFFFFFF0);
    assert_int_equal(pak_open_mem(&p, s.buf, s.len, &err), UTIL_ETRUNC);
    assert_int_equal(err.offset, 0x14);
    put32(s.buf + 0x14, 2);
    /* resource_count: 0xE0 - 0x2F = 0xB1 bytes left -> at most 8 entries */
    put32(s.buf + 0x2B, 9);
    assert_int_equal(pak_open_mem(&p, s.buf, s.len, &err), UTIL_ETRUNC);
    assert_int_equal(err.offset, 0x2F);
    put32(s.buf + 0x2B, 0x80000000);
    assert_int_equal(pak_open_mem(&p, s.buf, s.len, &err), UTIL_ETRUNC);
    assert_int_equal(err.offset, 0x2F);
    assert_null(p);
    free(s.buf);
}

static void test_entry_past_eof(void **state)
{
    (void)state;
    small_pak s;
    make_small(&s);
    pak_file *p = NULL;
    util_err err;
    put32(s.buf + 0x43 + 16, 0xC0); /* entry 1 at 0xC0, size 0x40: ends at 0x100 > 0xE0 */
    assert_int_equal(pak_open_mem(&p, s.buf, s.len, &err), 0);
    assert_false(p->entries[1].in_bounds);
    assert_int_equal(p->entries[1].decompressed_size, 0);
    assert_true(has_anomaly(p, 1, "out_of_bounds"));
    uint8_t *out = NULL;
    size_t n;
    util_err_clear(&err);
    assert_int_equal(pak_inflate(&out, &n, p, 1, PAK_MAX_INFLATE, &err), UTIL_ETRUNC);
    assert_int_equal(err.offset, 0xE0);
    assert_null(out);
    pak_close(p);
    /* offset + size overflows 32 bits */
    put32(s.buf + 0x43 + 12, 0x40);
    put32(s.buf + 0x43 + 16, 0xFFFFFFE0);
    assert_int_equal(pak_open_mem(&p, s.buf, s.len, &err), 0);
    assert_false(p->entries[1].in_bounds);
    assert_true(has_anomaly(p, 1, "out_of_bounds"));
    assert_int_equal(pak_inflate(&out, &n, p, 1, PAK_MAX_INFLATE, &err), UTIL_ETRUNC);
    assert_int_equal(err.offset, 0xE0);
    pak_close(p);
    free(s.buf);
}

static void test_anomalies(void **state)
{
    (void)state;
    small_pak s;
    make_small(&s);
    pak_file *p = NULL;
    util_err err;
    const size_t e0 = 0x2F, e1 = 0x43, e2 = 0x57;
    put32(s.buf + e0, 2);         /* compressed flag 2 */
    put32(s.buf + e2 + 12, 0x10); /* entry 2: size 0x10 at 0xE0 -> past EOF and misaligned */
    assert_int_equal(pak_open_mem(&p, s.buf, s.len, &err), 0);
    assert_true(has_anomaly(p, 0, "compressed_flag"));
    assert_true(p->entries[0].compressed == 2);
    assert_true(has_anomaly(p, 2, "misaligned"));
    assert_true(has_anomaly(p, 2, "out_of_bounds"));
    assert_false(has_anomaly(p, 1, "overlap"));
    pak_close(p);
    free(s.buf);

    make_small(&s);
    put32(s.buf + e1 + 16, 0x90); /* entry 1 at 0x90: misaligned, overlaps entry 0 */
    put32(s.buf + e1 + 12, 0x40);
    assert_int_equal(pak_open_mem(&p, s.buf, s.len, &err), 0);
    assert_true(has_anomaly(p, 1, "misaligned"));
    assert_true(has_anomaly(p, 1, "overlap"));
    assert_false(has_anomaly(p, 0, "overlap"));
    pak_close(p);
    free(s.buf);

    make_small(&s);
    put32(s.buf + e0 + 16, 0x60); /* entry 0 inside the tables' gap region */
    put32(s.buf + e1 + 16, 0x80);
    assert_int_equal(pak_open_mem(&p, s.buf, s.len, &err), 0);
    assert_true(has_anomaly(p, 0, "overlaps_tables"));
    assert_false(has_anomaly(p, 1, "overlaps_tables"));
    pak_close(p);

    put32(s.buf + e0 + 16, 0xA0); /* entries 0 and 1 swapped in the file */
    assert_int_equal(pak_open_mem(&p, s.buf, s.len, &err), 0);
    assert_true(has_anomaly(p, 1, "out_of_order"));
    assert_true(has_anomaly(p, 1, "overlap") || has_anomaly(p, 0, "overlap"));
    pak_close(p);

    put32(s.buf + e0 + 16, 0x80);
    put32(s.buf + e1 + 16, 0xA0);
    put32(s.buf + e1 + 12, 0); /* compressed, 0 bytes stored */
    assert_int_equal(pak_open_mem(&p, s.buf, s.len, &err), 0);
    assert_true(has_anomaly(p, 1, "short_compressed"));
    assert_int_equal(p->entries[1].decompressed_size, 0);
    uint8_t *out = NULL;
    size_t n;
    assert_int_equal(pak_inflate(&out, &n, p, 1, PAK_MAX_INFLATE, &err), UTIL_ETRUNC);
    assert_int_equal(err.offset, 0xA0);
    pak_close(p);
    free(s.buf);
}

static void test_open_path(void **state)
{
    (void)state;
    small_pak s;
    make_small(&s);
    char *dir = tu_tempdir();
    assert_non_null(dir);
    char path[512];
    snprintf(path, sizeof path, "%s/x.pak", dir);
    assert_int_equal(tu_write_file(path, s.buf, s.len), 0);
    pak_file *p = NULL;
    util_err err;
    assert_int_equal(pak_open(&p, path, &err), 0);
    assert_int_equal(p->entry_count, 3);
    assert_int_equal(p->size, s.len);
    assert_non_null(p->src);
    uint8_t *out = NULL;
    size_t n;
    assert_int_equal(pak_inflate(&out, &n, p, 1, PAK_MAX_INFLATE, &err), 0);
    assert_memory_equal(out, s.plain, 40);
    free(out);
    pak_close(p);
    assert_int_equal(tu_write_file(path, "", 0), 0);
    assert_int_equal(pak_open(&p, path, &err), UTIL_ETRUNC);
    assert_int_equal(err.offset, 0);
    unlink(path);
    assert_int_equal(pak_open(&p, path, &err), UTIL_EIO);
    assert_int_equal(pak_open(&p, dir, &err), UTIL_EIO);
    assert_null(p);
    rmdir(dir);
    free(dir);
    free(s.buf);
}

/* Build a PAK from (type, compressed, stored bytes) triples laid out back to back. */
typedef struct raw_entry {
    uint32_t type;
    uint32_t compressed;
    const uint8_t *bytes;
    size_t len;
} raw_entry;

static uint8_t *make_raw(const raw_entry *es, size_t n, size_t *len_out)
{
    util_wr w;
    util_wr_init(&w);
    util_wr_u32(&w, 0x00030005);
    util_wr_u32(&w, 0);
    util_wr_u32(&w, 0);
    util_wr_u32(&w, (uint32_t)n);
    size_t off = (w.len + 20 * n + 31) / 32 * 32;
    for (size_t i = 0; i < n; i++) {
        size_t size = (es[i].len + 31) / 32 * 32;
        util_wr_u32(&w, es[i].compressed);
        util_wr_u32(&w, es[i].type);
        util_wr_u32(&w, (uint32_t)(0x100 + i));
        util_wr_u32(&w, (uint32_t)size);
        util_wr_u32(&w, (uint32_t)off);
        off += size;
    }
    util_wr_fill(&w, 0, (32 - w.len % 32) % 32);
    for (size_t i = 0; i < n; i++) {
        util_wr_bytes(&w, es[i].bytes, es[i].len);
        util_wr_fill(&w, 0xFF, (32 - es[i].len % 32) % 32);
    }
    return util_wr_take(&w, len_out);
}

static pak_game detect(const raw_entry *es, size_t n, int *conflict)
{
    size_t len;
    uint8_t *b = make_raw(es, n, &len);
    pak_file *p = NULL;
    util_err err;
    assert_int_equal(pak_open_mem(&p, b, len, &err), 0);
    *conflict = -1;
    pak_game g = tu_pak_game(p, conflict);
    pak_close(p);
    free(b);
    return g;
}

static void test_detect_game(void **state)
{
    (void)state;
    const uint32_t TXTR = FOURCC('T', 'X', 'T', 'R'), ANCS = FOURCC('A', 'N', 'C', 'S');
    /* zlib payload: u32 size, 78 DA ... */
    uint8_t z[64];
    uLongf zlen = sizeof z - 4;
    assert_int_equal(compress2(z + 4, &zlen, (const uint8_t *)"hello hello hello", 17, 9), Z_OK);
    put32(z, 17);
    /* LZO payload: u32 size 5, a stored segment FF FB "hello" */
    static const uint8_t lzo[] = {0, 0, 0, 5, 0xFF, 0xFB, 'h', 'e', 'l', 'l', 'o'};
    /* ANCS: 00 01 00 01, count 1, char id, version (bytes 12-13) */
    uint8_t ancs10[16] = {0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 10, 0, 0};
    uint8_t ancs6[16] = {0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 6, 0, 0};
    int c;

    raw_entry a[] = {{TXTR, 1, z, 4 + zlen}};
    assert_int_equal(detect(a, 1, &c), PAK_GAME_MP1);
    assert_int_equal(c, 0);
    raw_entry b[] = {{TXTR, 1, lzo, sizeof lzo}};
    assert_int_equal(detect(b, 1, &c), PAK_GAME_MP2);
    assert_int_equal(c, 0);
    raw_entry d[] = {{FOURCC('E', 'V', 'N', 'T'), 0, ancs6, 16}};
    assert_int_equal(detect(d, 1, &c), PAK_GAME_MP1);
    raw_entry e[] = {{FOURCC('C', 'S', 'P', 'P'), 0, ancs6, 16}};
    assert_int_equal(detect(e, 1, &c), PAK_GAME_MP2);
    assert_int_equal(c, 0);
    /* zlib (MP1) and CSPP (MP2): conflict; the payload signal wins */
    raw_entry f[] = {{TXTR, 1, z, 4 + zlen}, {FOURCC('C', 'S', 'P', 'P'), 0, ancs6, 16}};
    assert_int_equal(detect(f, 2, &c), PAK_GAME_MP1);
    assert_int_equal(c, 1);
    raw_entry g[] = {{ANCS, 0, ancs10, 16}};
    assert_int_equal(detect(g, 1, &c), PAK_GAME_MP2);
    assert_int_equal(c, 0);
    raw_entry h[] = {{ANCS, 0, ancs6, 16}};
    assert_int_equal(detect(h, 1, &c), PAK_GAME_MP1);
    raw_entry i[] = {{TXTR, 0, ancs10, 16}};
    assert_int_equal(detect(i, 1, &c), PAK_GAME_UNKNOWN);
    assert_int_equal(c, 0);
    /* compressed ANCS (zlib) with version 10: the codec says MP1, the ANCS is not consulted */
    uint8_t za[64];
    uLongf zalen = sizeof za - 4;
    assert_int_equal(compress2(za + 4, &zalen, ancs10, 16, 9), Z_OK);
    put32(za, 16);
    raw_entry j[] = {{ANCS, 1, za, 4 + zalen}};
    assert_int_equal(detect(j, 1, &c), PAK_GAME_MP1);
    assert_string_equal(pak_game_name(PAK_GAME_MP1), "MP1");
    assert_string_equal(pak_game_name(PAK_GAME_MP2), "MP2");
    assert_string_equal(pak_game_name(PAK_GAME_UNKNOWN), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_fields),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_bad_header),
        cmocka_unit_test(test_every_prefix),
        cmocka_unit_test(test_counts_that_cannot_fit),
        cmocka_unit_test(test_entry_past_eof),
        cmocka_unit_test(test_anomalies),
        cmocka_unit_test(test_open_path),
        cmocka_unit_test(test_detect_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
