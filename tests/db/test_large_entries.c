/* test_db_large_entries.c — entries of megabytes, as a disc's areas and textures are: zlib
 * entries of 6 MiB (always read a window at a time: over 8 MiB stored and inflated) and of
 * 1.5 MiB (inflated whole or a window at a time, whichever the moment allows), a stored entry
 * of 2 MiB ending in more 0xFF bytes than its padding, and an MP2 PAK's LZO entry of 5 MiB
 * (over 8 MiB too). With one thread or several, with the
 * default memory budget or one of 2 MiB (smaller than the entries: they still load), every
 * entry's content hash is XXH3-64 of the bytes given to the PAK builder without their trailing
 * 0xFF bytes, and a compressed entry's stored hash XXH3-64 of its bytes in the file, both
 * computed here with the xxhash library. A second release of the same bytes inflates none.
 * And a zlib entry of 6 MiB that zlib refuses and libdeflate inflates (its last block holds a
 * literal/length code of 286, which libdeflate reads as a length of 258): it is read a window
 * at a time, refused by zlib, then inflated whole as every entry was before, so its content is
 * what libdeflate makes of it (computed here with libdeflate); with a budget too small for
 * that, a load error of zlib's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>
#include <xxhash.h>
#include <zlib.h>

#include "hostile_scene.h"

#define FC_TXTR 0x54585452u
#define MIB     ((size_t)1 << 20)

typedef struct large {
    uint32_t type, id;
    size_t len, ff; /* content bytes; how many of the last are 0xFF */
    pak_codec codec;
    int mp2; /* in the MP2 PAK */
} large;

static const large entries[] = {
    {FC_CMDL, 0x1A000001u, 6 * MIB + 123, 70000, PAK_CODEC_ZLIB, 0},
    {FC_CMDL, 0x1A000002u, 3 * MIB / 2, 0, PAK_CODEC_ZLIB, 0},
    {FC_CMDL, 0x1A000003u, 3 * MIB / 2 + 1, 0, PAK_CODEC_ZLIB, 0},
    {FC_TXTR, 0x1A000004u, 2 * MIB + 9, 40, PAK_CODEC_NONE, 0},
    {FC_CMDL, 0x1A000005u, 5 * MIB, 0, PAK_CODEC_LZO, 1},
};
#define N_ENTRIES (sizeof entries / sizeof entries[0])

static uint8_t *content(const large *l)
{
    uint8_t *b = tu_bytes(l->id, l->len);
    memset(b + l->len - l->ff, 0xFF, l->ff);
    return b;
}

static uint64_t content_hash(const large *l)
{
    uint8_t *b = content(l);
    size_t n = l->len;
    while (n > 0 && b[n - 1] == 0xFF)
        n--;
    uint64_t h = XXH3_64bits(b, n);
    free(b);
    return h;
}

#define ID_286  0x1A000286u
#define LEN_286 (6 * MIB)

/* LSB-first bits, as deflate packs them. */
typedef struct bits {
    uint8_t b[8];
    int n;
} bits;

static void put_bits(bits *w, unsigned v, int n)
{
    for (int i = 0; i < n; i++, w->n++)
        if (v >> i & 1)
            w->b[w->n / 8] |= (uint8_t)(1u << (w->n % 8));
}

/* A Huffman code: its bits from the most significant. */
static void put_code(bits *w, unsigned code, int n)
{
    for (int i = n - 1; i >= 0; i--)
        put_bits(w, code >> i & 1, 1);
}

/* The stored bytes of the entry (*len of them) and, in *content (*clen), what libdeflate
 * inflates them to: LEN_286 bytes deflated by zlib and flushed, then a final fixed-code block
 * of litlen code 286, distance code 0 and the end of the block (docs/formats.md §3.1), the
 * zlib wrapper's Adler-32 that of libdeflate's bytes. */
static uint8_t *stream_286(size_t *len, uint8_t **content, size_t *clen)
{
    uint8_t *c = tu_bytes(ID_286, LEN_286);
    size_t cap = LEN_286 + LEN_286 / 2 + 64;
    uint8_t *z = malloc(cap);
    assert_non_null(z);
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    assert_int_equal(deflateInit2(&zs, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
    zs.next_in = c;
    zs.avail_in = LEN_286;
    zs.next_out = z + 6;
    zs.avail_out = (uInt)(cap - 6 - 8 - 4);
    assert_int_equal(deflate(&zs, Z_SYNC_FLUSH), Z_OK);
    assert_int_equal(zs.avail_in, 0);
    size_t raw = zs.total_out;
    deflateEnd(&zs);
    free(c);
    bits w = {{0}, 0};
    put_bits(&w, 1, 1);    /* the last block */
    put_bits(&w, 1, 2);    /* fixed codes */
    put_code(&w, 0xC6, 8); /* litlen 286: 11000110 */
    put_code(&w, 0, 5);    /* distance code 0: distance 1 */
    put_code(&w, 0, 7);    /* end of block: 0000000 */
    memcpy(z + 6 + raw, w.b, (size_t)(w.n + 7) / 8);
    raw += (size_t)(w.n + 7) / 8;
    *clen = LEN_286 + 258;
    *content = malloc(*clen);
    assert_non_null(*content);
    size_t got = 0;
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    assert_non_null(d);
    assert_int_equal(libdeflate_deflate_decompress(d, z + 6, raw, *content, *clen, &got),
                     LIBDEFLATE_SUCCESS);
    libdeflate_free_decompressor(d);
    assert_int_equal(got, *clen);
    put32(z, (uint32_t)*clen);
    z[4] = 0x78;
    z[5] = 0x01;
    put32(z + 6 + raw, (uint32_t)adler32(adler32(0, NULL, 0), *content, (uInt)*clen));
    *len = 6 + raw + 4;
    /* zlib itself refuses it */
    uint8_t *out = malloc(*clen);
    assert_non_null(out);
    uLongf olen = *clen;
    assert_int_equal(uncompress(out, &olen, z + 4, *len - 4), Z_DATA_ERROR);
    free(out);
    return z;
}

/* The release folder dir: mp1.pak and mp2.pak of the entries, z286.pak of the stream that
 * zlib refuses. */
static void write_release(const char *dir)
{
    char path[1100];
    for (int mp2 = 0; mp2 < 2; mp2++) {
        pak_builder *b = pak_builder_new();
        util_err e;
        util_err_clear(&e);
        for (size_t i = 0; i < N_ENTRIES; i++) {
            if (entries[i].mp2 != mp2)
                continue;
            uint8_t *c = content(&entries[i]);
            assert_int_equal(pak_builder_add(b, entries[i].type, entries[i].id, c, entries[i].len,
                                             entries[i].codec, &e),
                             0);
            free(c);
        }
        snprintf(path, sizeof path, "%s/mp%d.pak", dir, mp2 + 1);
        assert_int_equal(pak_builder_finish_file(b, path, &e), 0);
        pak_builder_free(b);
    }
    size_t len, clen;
    uint8_t *content;
    uint8_t *z = stream_286(&len, &content, &clen);
    free(content);
    pak_builder *b = pak_builder_new();
    util_err e;
    util_err_clear(&e);
    assert_int_equal(pak_builder_add_stored(b, FC_CMDL, ID_286, z, len, 1, &e), 0);
    snprintf(path, sizeof path, "%s/z286.pak", dir);
    assert_int_equal(pak_builder_finish_file(b, path, &e), 0);
    pak_builder_free(b);
    free(z);
}

/* XXH3-64 of what libdeflate makes of the entry that zlib refuses. */
static uint64_t hash_286(void)
{
    size_t len, clen;
    uint8_t *content;
    free(stream_286(&len, &content, &clen));
    uint64_t h = XXH3_64bits(content, clen);
    free(content);
    return h;
}

/* XXH3-64 of the stored bytes of the entry with this ID, read from the file. */
static uint64_t stored_hash(db *d, const char *dir, const large *l)
{
    char sql[300], path[1100];
    snprintf(sql, sizeof sql, "SELECT data_offset FROM pak_entries WHERE asset_id = %u", l->id);
    int64_t off = q1(d, sql);
    snprintf(sql, sizeof sql, "SELECT stored_size FROM pak_entries WHERE asset_id = %u", l->id);
    int64_t size = q1(d, sql);
    snprintf(path, sizeof path, "%s/mp%d.pak", dir, l->mp2 + 1);
    size_t len = 0;
    uint8_t *f = tu_read_file(path, &len);
    assert_non_null(f);
    assert_true(off > 0 && size > 0 && (size_t)(off + size) <= len);
    uint64_t h = XXH3_64bits(f + off, (size_t)size);
    free(f);
    return h;
}

static void run(int jobs, size_t memory)
{
    char *dir = tu_tempdir();
    char r1[1024], r2[1024], cmd[2200];
    snprintf(r1, sizeof r1, "%s/rel1", dir);
    snprintf(r2, sizeof r2, "%s/rel2", dir);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' '%s'", r1, r2);
    assert_int_equal(tu_run(cmd, NULL), 0);
    write_release(r1);
    write_release(r2);

    util_err e;
    util_err_clear(&e);
    db *d = NULL;
    assert_int_equal(db_open(&d, ":memory:", DB_OPEN_READWRITE, &e), 0);
    db_ingest_opts o = {.game = PAK_GAME_UNKNOWN, .jobs = jobs, .quiet = 1, .memory = memory};
    db_ingest_stats st;
    const char *p1[1] = {r1};
    assert_int_equal(db_ingest_paths(d, p1, 1, &o, &st, &e), 0);
    /* the entry zlib refuses: libdeflate's content, or with a small budget zlib's error */
    int small = memory && memory < 16 * MIB;
    char sql[300];
    snprintf(sql, sizeof sql, "SELECT content_hash FROM pak_entries WHERE asset_id = %u", ID_286);
    if (small) {
        assert_int_equal(st.errors, 1);
        assert_int_equal(q1(d, "SELECT count(*) FROM load_errors WHERE stage = 'inflate' AND "
                               "message LIKE 'zlib: invalid literal/length code%'"),
                         1);
        assert_int_equal(q1(d, sql), -1);
    } else {
        assert_int_equal(st.errors, 0);
        assert_true((uint64_t)q1(d, sql) == hash_286());
    }
    assert_int_equal(st.inflated, 4 + !small); /* the compressed entries */
    assert_int_equal(q1(d, "SELECT count(*) FROM load_errors"), small);
    assert_int_equal(q1(d, "SELECT count(*) FROM pak_entries"), N_ENTRIES + 1);
    /* the entries of 5 and 6 MiB hold over 8 MiB stored and inflated (always read a window
     * at a time), those of 1.5 MiB less (inflated whole when nothing else large is) */
    assert_int_equal(q1(d, "SELECT count(*) FROM pak_entries WHERE compressed AND stored_size + "
                           "decompressed_size > 8 << 20"),
                     3);
    for (size_t i = 0; i < N_ENTRIES; i++) {
        const large *l = &entries[i];
        snprintf(sql, sizeof sql, "SELECT content_hash FROM pak_entries WHERE asset_id = %u",
                 l->id);
        assert_true((uint64_t)q1(d, sql) == content_hash(l));
        snprintf(sql, sizeof sql, "SELECT stored_hash FROM pak_entries WHERE asset_id = %u", l->id);
        if (l->codec == PAK_CODEC_NONE)
            assert_int_equal(q1(d, sql), -1); /* NULL: a stored entry has none */
        else
            assert_true((uint64_t)q1(d, sql) == stored_hash(d, r1, l));
    }
    /* a second release of the same bytes: every content known from the stored bytes */
    const char *p2[1] = {r2};
    assert_int_equal(db_ingest_paths(d, p2, 1, &o, &st, &e), 0);
    assert_int_equal(st.errors, small); /* a copy that did not inflate fails again */
    assert_int_equal(st.inflated, 0);
    assert_int_equal(q1(d, "SELECT count(DISTINCT content_hash) FROM pak_entries"),
                     N_ENTRIES + !small);
    assert_int_equal(q1(d, "SELECT count(*) FROM pak_entries"), 2 * (N_ENTRIES + 1));
    db_close(d);
    assert_int_equal(tu_remove_tree(dir), 0);
    free(dir);
}

static void test_one_thread(void **state)
{
    (void)state;
    run(1, 0);
}

static void test_threads(void **state)
{
    (void)state;
    run(3, 0);
}

static void test_small_budget(void **state)
{
    (void)state;
    run(1, 2 * MIB);
    run(3, 2 * MIB);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_thread),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_small_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
