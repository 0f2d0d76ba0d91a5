/* test_source.c — a PAK read through a byte source (docs/formats.md §2): a file that shrinks
 * after it was opened is an I/O error at the first missing byte, a PAK inside a larger
 * image reads through a range, a name holding a NUL byte is reported with its offset, and
 * the game decision takes the disc ID and the caller's ANCS signal (§2.7), an entry's sizes
 * are read with its bytes (and nothing is set when that read fails), and the compressed
 * entries' heads are read without the stored entries' tails, whose sizes come from their
 * bytes. Hand-built bytes; expected values from the layout written here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pak.h"
#include "testutil.h"

/* §2.2-2.4: a header with no names and the resource table of n entries {compressed, type,
 * id, size, offset}, into w (initialised here). */
static void put_tables(util_wr *w, const uint32_t (*ent)[5], uint32_t n)
{
    util_wr_init(w);
    util_wr_u32(w, PAK_VERSION);
    util_wr_u32(w, 0);
    util_wr_u32(w, 0);
    util_wr_u32(w, n);
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 5; k++)
            util_wr_u32(w, ent[i][k]);
}

/* A PAK from §2.2–2.5, no names, two stored resources:
 *   0x00 header 00030005 00000000, 0x08 named_count 0, 0x0C resource_count 2
 *   0x10 entry 0: stored STRG 11111111 size 0x20 offset 0x40 (0x20 bytes 'A')
 *   0x24 entry 1: stored TXTR 22222222 size 0x40 offset 0x60 (0x40 bytes 0..63)
 *   0x38 zero gap up to 0x40; the file ends at 0xA0. */
static uint8_t *make_pak(size_t *len)
{
    static const uint32_t ent[2][5] = {{0, UTIL_FCC_STRG, 0x11111111, 0x20, 0x40},
                                       {0, UTIL_FCC_TXTR, 0x22222222, 0x40, 0x60}};
    util_wr w;
    put_tables(&w, ent, 2);
    util_wr_fill(&w, 0, 0x40 - 0x38);
    util_wr_fill(&w, 'A', 0x20);
    for (int i = 0; i < 0x40; i++)
        util_wr_u8(&w, (uint8_t)i);
    assert_int_equal(w.len, 0xA0);
    return util_wr_take(&w, len);
}

/* §2.4, §2.5, §3.1: three entries, no names; each entry's sizes read with its bytes:
 *   0x10 entry 0: stored CMDL 33333333 size 0x40 at 0x60: 0x3B bytes 'B', 5 bytes 0xFF padding
 *   0x24 entry 1: compressed CMDL 44444444 size 0x20 at 0xA0: u32 0x123 (inflated size), then
 *        78 DA (a zlib header) and zeros
 *   0x38 entry 2: stored CMDL 55555555 size 0x20 at 0x1000, past the end
 *   0x4C zero gap up to 0x60; the file ends at 0xC0. */
static uint8_t *make_sized_pak(size_t *len)
{
    static const uint32_t ent[3][5] = {{0, UTIL_FCC_CMDL, 0x33333333, 0x40, 0x60},
                                       {1, UTIL_FCC_CMDL, 0x44444444, 0x20, 0xA0},
                                       {0, UTIL_FCC_CMDL, 0x55555555, 0x20, 0x1000}};
    util_wr w;
    put_tables(&w, ent, 3);
    util_wr_fill(&w, 0, 0x60 - 0x4C);
    util_wr_fill(&w, 'B', 0x3B);
    util_wr_fill(&w, 0xFF, 5);
    util_wr_u32(&w, 0x123);
    util_wr_u8(&w, 0x78);
    util_wr_u8(&w, 0xDA);
    util_wr_fill(&w, 0, 0x20 - 6);
    assert_int_equal(w.len, 0xC0);
    return util_wr_take(&w, len);
}

static void test_entry_read_sized(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = make_sized_pak(&len);
    util_err err;
    util_err_clear(&err);
    util_src *src = NULL;
    assert_int_equal(util_src_open_mem(&src, b, len, &err), 0);
    pak_file *p = NULL;
    assert_int_equal(pak_open_src_tables(&p, src, &err), 0);
    assert_int_equal(p->entry_count, 3);
    uint8_t *out = NULL;
    size_t n = 0;
    /* stored: every byte, padding included; its size without the padding */
    assert_int_equal(pak_entry_read_sized(p, 0, &out, &n, &err), 0);
    assert_int_equal(n, 0x40);
    assert_memory_equal(out, b + 0x60, 0x40);
    assert_int_equal(p->entries[0].decompressed_size, 0x3B);
    assert_int_equal(p->entries[0].codec, PAK_CODEC_NONE);
    free(out);
    /* compressed: the stored bytes; the declared size and the codec of bytes 4-5 */
    assert_int_equal(pak_entry_read_sized(p, 1, &out, &n, &err), 0);
    assert_int_equal(n, 0x20);
    assert_memory_equal(out, b + 0xA0, 0x20);
    assert_int_equal(p->entries[1].decompressed_size, 0x123);
    assert_int_equal(p->entries[1].codec, PAK_CODEC_ZLIB);
    free(out);
    /* out of bounds: no bytes, no error (pak_entry_read says why); the table's size */
    assert_false(p->entries[2].in_bounds);
    assert_int_equal(pak_entry_read_sized(p, 2, &out, &n, &err), 0);
    assert_null(out);
    assert_int_equal(n, 0);
    assert_int_equal(p->entries[2].decompressed_size, 0x20);
    pak_close(p);
    util_src_close(src);

    /* a file cut after the compressed entry's first 0x10 bytes: reading it whole fails at the
     * first missing byte and sets nothing; its first 8 bytes alone are still there */
    char *dir = tu_tempdir();
    char path[512];
    snprintf(path, sizeof path, "%s/s.pak", dir);
    assert_int_equal(tu_write_file(path, b, len), 0);
    assert_int_equal(util_src_open_file(&src, path, &err), 0);
    assert_int_equal(pak_open_src_tables(&p, src, &err), 0);
    assert_int_equal(truncate(path, 0xB0), 0);
    assert_int_equal(pak_entry_read_sized(p, 1, &out, &n, &err), UTIL_EIO);
    assert_int_equal(err.offset, 0xB0);
    assert_null(out);
    assert_int_equal(p->entries[1].decompressed_size, 0);
    util_err_clear(&err);
    assert_int_equal(pak_read_entry_info_one(p, 1, &err), 0);
    assert_int_equal(p->entries[1].decompressed_size, 0x123);
    pak_close(p);
    util_src_close(src);
    assert_int_equal(tu_remove_tree(dir), 0);
    free(dir);
    free(b);
}

/* A source over bytes that records the ranges read from it. */
typedef struct logged {
    const uint8_t *b;
    uint64_t lo[16], hi[16];
    int n;
} logged;

static int logged_read(void *ctx, void *dst, uint64_t off, size_t len, util_err *e)
{
    (void)e;
    logged *l = ctx;
    if (l->n < 16) {
        l->lo[l->n] = off;
        l->hi[l->n] = off + len;
    }
    l->n++;
    memcpy(dst, l->b + off, len);
    return 0;
}

static void test_entry_heads(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = make_sized_pak(&len);
    util_err err;
    util_err_clear(&err);
    logged l = {.b = b};
    util_src *src = NULL;
    assert_int_equal(util_src_open_custom(&src, len, logged_read, &l, NULL, &err), 0);
    pak_file *p = NULL;
    assert_int_equal(pak_open_src_tables(&p, src, &err), 0);
    int tables = l.n;
    assert_int_equal(pak_read_entry_heads(p, &err), 0);
    /* one read, the compressed entry's first 8 bytes; nothing of the stored entry at 0x60 */
    assert_int_equal(l.n, tables + 1);
    assert_int_equal(l.lo[tables], 0xA0);
    assert_int_equal(l.hi[tables], 0xA8);
    assert_int_equal(p->entry_info, 0);
    assert_int_equal(p->entries[1].decompressed_size, 0x123);
    assert_int_equal(p->entries[1].codec, PAK_CODEC_ZLIB);
    assert_int_equal(p->entries[0].decompressed_size, 0);
    assert_int_equal(p->entries[0].codec, PAK_CODEC_NONE);
    assert_int_equal(p->entries[2].decompressed_size, 0x20); /* out of bounds: its size */
    /* the stored entry's size from its bytes: 0x40 less 5 bytes of 0xFF padding */
    pak_entry_sizes_from(&p->entries[0], b + 0x60, 0x40);
    assert_int_equal(p->entries[0].decompressed_size, 0x3B);
    assert_int_equal(p->entries[0].codec, PAK_CODEC_NONE);
    /* fewer bytes than the entry: its size, as when nothing could be read */
    pak_entry_sizes_from(&p->entries[0], b + 0x60, 0x3F);
    assert_int_equal(p->entries[0].decompressed_size, 0x40);
    /* a compressed entry from its bytes: what its head says */
    p->entries[1].decompressed_size = 0;
    pak_entry_sizes_from(&p->entries[1], b + 0xA0, 0x20);
    assert_int_equal(p->entries[1].decompressed_size, 0x123);
    assert_int_equal(p->entries[1].codec, PAK_CODEC_ZLIB);
    /* pak_read_entry_info reads the stored entry's tail too */
    assert_int_equal(pak_read_entry_info(p, &err), 0);
    assert_int_equal(p->entry_info, 1);
    assert_int_equal(p->entries[0].decompressed_size, 0x3B);
    pak_close(p);
    util_src_close(src);
    free(b);
}

static void test_file_shrinks_while_open(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = make_pak(&len);
    char *dir = tu_tempdir();
    char path[512];
    snprintf(path, sizeof path, "%s/x.pak", dir);
    assert_int_equal(tu_write_file(path, b, len), 0);
    pak_file *p = NULL;
    util_err err;
    util_err_clear(&err);
    assert_int_equal(pak_open(&p, path, &err), 0);
    assert_int_equal(p->entry_count, 2);
    assert_true(p->entries[1].in_bounds);
    /* the file loses its last 0x30 bytes: entry 1 [0x60, 0xA0) now ends at 0x70 */
    assert_int_equal(truncate(path, 0x70), 0);
    uint8_t *out = NULL;
    size_t n = 0;
    assert_int_equal(pak_inflate(&out, &n, p, 0, PAK_MAX_INFLATE, &err), 0); /* still whole */
    assert_int_equal(n, 0x20);
    assert_int_equal(out[31], 'A');
    free(out);
    util_err_clear(&err);
    assert_int_equal(pak_inflate(&out, &n, p, 1, PAK_MAX_INFLATE, &err), UTIL_EIO);
    assert_null(out);
    assert_int_equal(err.code, UTIL_EIO);
    assert_int_equal(err.offset, 0x70);
    assert_int_equal(pak_entry_read(p, 1, &out, &n, &err), UTIL_EIO);
    assert_int_equal(err.offset, 0x70);
    uint8_t into[0x40];
    util_err_clear(&err);
    assert_int_equal(pak_entry_read_into(p, 1, into, &err), UTIL_EIO); /* the same error */
    assert_int_equal(err.offset, 0x70);
    assert_int_equal(pak_entry_read_into(p, 0, into, &err), 0);
    assert_memory_equal(into, b + 0x40, 0x20);
    pak_close(p);

    /* between reading the tables and the entries' edges */
    assert_int_equal(tu_write_file(path, b, len), 0);
    util_src *src;
    assert_int_equal(util_src_open_file(&src, path, &err), 0);
    assert_int_equal(pak_open_src_tables(&p, src, &err), 0);
    assert_int_equal(p->entry_info, 0);
    assert_int_equal(truncate(path, 0x50), 0);
    assert_int_equal(pak_read_entry_info(p, &err), UTIL_EIO);
    assert_int_equal(err.offset, 0x50);
    pak_close(p);
    util_src_close(src);
    unlink(path);
    rmdir(dir);
    free(dir);
    free(b);
}

static void test_pak_inside_an_image(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = make_pak(&len);
    /* the PAK at 0x1000 of a 0x2000-byte image of 0xEE bytes */
    uint8_t *img = malloc(0x2000);
    assert_non_null(img);
    memset(img, 0xEE, 0x2000);
    memcpy(img + 0x1000, b, len);
    util_src *whole, *range;
    util_err err;
    assert_int_equal(util_src_open_mem(&whole, img, 0x2000, &err), 0);
    assert_int_equal(util_src_open_range(&range, whole, 0x1000, len, &err), 0);
    pak_file *p = NULL;
    assert_int_equal(pak_open_src(&p, range, &err), 0);
    assert_ptr_equal(p->src, range);
    assert_int_equal(p->size, 0xA0);
    assert_int_equal(p->entry_info, 1);
    assert_int_equal(p->anomaly_count, 0);
    assert_int_equal(p->entries[0].decompressed_size, 0x20);
    assert_int_equal(p->entries[1].decompressed_size, 0x40);
    uint8_t *out;
    size_t n;
    assert_int_equal(pak_entry_read(p, 1, &out, &n, &err), 0);
    assert_int_equal(n, 0x40);
    assert_memory_equal(out, b + 0x60, 0x40);
    free(out);
    uint8_t into[0x41];
    into[0x40] = 0x5A;
    assert_int_equal(pak_entry_read_into(p, 1, into, &err), 0);
    assert_memory_equal(into, b + 0x60, 0x40);
    assert_int_equal(into[0x40], 0x5A); /* the entry's stored size, not a byte more */
    pak_close(p);
    /* a range one byte short: entry 1 is past its end, the tables are fine */
    util_src *cut;
    assert_int_equal(util_src_open_range(&cut, whole, 0x1000, len - 1, &err), 0);
    assert_int_equal(pak_open_src(&p, cut, &err), 0);
    assert_false(p->entries[1].in_bounds);
    assert_int_equal(pak_entry_read(p, 1, &out, &n, &err), UTIL_ETRUNC);
    assert_int_equal(pak_entry_read_into(p, 1, into, &err), UTIL_ETRUNC);
    pak_close(p);
    util_src_close(cut);
    util_src_close(range);
    util_src_close(whole);
    free(img);
    free(b);
}

static void test_name_with_nul(void **state)
{
    (void)state;
    /* header; named_count 2: (ANCS 33333333, 5 bytes "ab\0cd") at 0x0C, (STRG 44444444,
     * 2 bytes "ok") at 0x1D; resource_count 0 at 0x2B; the file ends at 0x40. */
    util_wr w;
    util_wr_init(&w);
    util_wr_u32(&w, PAK_VERSION);
    util_wr_u32(&w, 0);
    util_wr_u32(&w, 2);
    util_wr_u32(&w, UTIL_FCC_ANCS);
    util_wr_u32(&w, 0x33333333);
    util_wr_u32(&w, 5);
    util_wr_bytes(&w, "ab\0cd", 5);
    util_wr_u32(&w, UTIL_FCC_STRG);
    util_wr_u32(&w, 0x44444444);
    util_wr_u32(&w, 2);
    util_wr_bytes(&w, "ok", 2);
    assert_int_equal(w.len, 0x2B);
    util_wr_u32(&w, 0);
    util_wr_fill(&w, 0, 0x40 - w.len);
    size_t len;
    uint8_t *b = util_wr_take(&w, &len);
    pak_file *p = NULL;
    util_err err;
    assert_int_equal(pak_open_mem(&p, b, len, &err), 0);
    assert_int_equal(p->named_count, 2);
    assert_int_equal(p->named[0].name_len, 5);
    assert_string_equal(p->named[0].name, "ab");
    assert_int_equal(p->named[0].nul_offset, 0x0C + 12 + 2);
    assert_int_equal(p->named[1].nul_offset, UINT64_MAX);
    assert_string_equal(p->named[1].name, "ok");
    assert_int_equal(p->anomaly_count, 1);
    assert_string_equal(p->anomalies[0].code, "name_nul");
    assert_int_equal(p->anomalies[0].entry_index, -1);
    assert_int_equal(p->anomalies[0].offset, 0x1A);
    assert_non_null(strstr(p->anomalies[0].msg, "0x1a"));
    pak_close(p);
    free(b);
}

/* A PAK of the given entries (type, compressed, payload) built with pak_builder. */
static pak_file *build(uint8_t **bytes, const uint32_t *types, const pak_codec *codecs, size_t n)
{
    pak_builder *bl = pak_builder_new();
    util_err err;
    static const uint8_t data[64] = "some resource bytes, some resource bytes";
    for (size_t i = 0; i < n; i++)
        assert_int_equal(
            pak_builder_add(bl, types[i], (uint32_t)i + 1, data, sizeof data, codecs[i], &err), 0);
    size_t len;
    assert_int_equal(pak_builder_finish_mem(bl, bytes, &len, &err), 0);
    pak_builder_free(bl);
    pak_file *p = NULL;
    assert_int_equal(pak_open_mem(&p, *bytes, len, &err), 0);
    return p;
}

static void test_game_decision(void **state)
{
    (void)state;
    uint8_t *bytes;
    int c;
    /* only stored resources both games have: nothing tells */
    const uint32_t t1[] = {UTIL_FCC_TXTR, UTIL_FCC_ANCS};
    const pak_codec none2[] = {PAK_CODEC_NONE, PAK_CODEC_NONE};
    pak_file *p = build(&bytes, t1, none2, 2);
    assert_int_equal(pak_game_decide(p, NULL, &c), PAK_GAME_UNKNOWN);
    assert_int_equal(c, 0);
    /* then the caller's ANCS signal decides; pak/ never looks inside the ANCS itself */
    pak_game_signals s = {NULL, PAK_GAME_MP2};
    assert_int_equal(pak_game_decide(p, &s, &c), PAK_GAME_MP2);
    assert_int_equal(c, 0);
    /* the disc ID (region letter ignored) comes first; disagreeing is a conflict */
    s.disc_id = "GM8P";
    assert_int_equal(pak_game_decide(p, &s, &c), PAK_GAME_MP1);
    assert_int_equal(c, 1);
    s.ancs = PAK_GAME_UNKNOWN;
    s.disc_id = "G2ME";
    assert_int_equal(pak_game_decide(p, &s, &c), PAK_GAME_MP2);
    assert_int_equal(c, 0);
    s.disc_id = "GZLE"; /* another game's disc says nothing */
    assert_int_equal(pak_game_decide(p, &s, &c), PAK_GAME_UNKNOWN);
    pak_close(p);
    free(bytes);

    /* LZO payloads say MP2; a disc that says MP1 wins and is a conflict; the ANCS signal
     * agreeing with the payloads adds nothing */
    const pak_codec lzo2[] = {PAK_CODEC_LZO, PAK_CODEC_LZO};
    p = build(&bytes, t1, lzo2, 2);
    assert_int_equal(p->entries[0].codec, PAK_CODEC_LZO);
    assert_int_equal(pak_game_decide(p, NULL, &c), PAK_GAME_MP2);
    assert_int_equal(c, 0);
    s = (pak_game_signals){"GM8E", PAK_GAME_UNKNOWN};
    assert_int_equal(pak_game_decide(p, &s, &c), PAK_GAME_MP1);
    assert_int_equal(c, 1);
    s = (pak_game_signals){NULL, PAK_GAME_MP2};
    assert_int_equal(pak_game_decide(p, &s, &c), PAK_GAME_MP2);
    assert_int_equal(c, 0);
    s.ancs = PAK_GAME_MP1; /* an ANCS of version < 10 in an LZO PAK */
    assert_int_equal(pak_game_decide(p, &s, &c), PAK_GAME_MP2);
    assert_int_equal(c, 1);
    pak_close(p);
    free(bytes);

    /* zlib (MP1) and an MP2-only type: the payloads win, a conflict */
    const uint32_t t2[] = {UTIL_FCC_TXTR, UTIL_FCC_CSPP};
    const pak_codec mixed[] = {PAK_CODEC_ZLIB, PAK_CODEC_NONE};
    p = build(&bytes, t2, mixed, 2);
    assert_int_equal(pak_game_decide(p, NULL, &c), PAK_GAME_MP1);
    assert_int_equal(c, 1);
    pak_close(p);
    free(bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entry_read_sized),        cmocka_unit_test(test_entry_heads),
        cmocka_unit_test(test_file_shrinks_while_open), cmocka_unit_test(test_pak_inside_an_image),
        cmocka_unit_test(test_name_with_nul),           cmocka_unit_test(test_game_decision),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
