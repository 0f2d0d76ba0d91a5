/* test_pak_tables.c — pak/'s parse of a head of bytes (pak_internal.h: pak_open_tables,
 * pak_entry_sizes, pak_entry_codec, which pak_open_src is built on) on hand-built bytes: a head
 * grown as *need asks gives what pak_open_mem gives on the whole file, truncation at every
 * byte fails alike, and the sizes follow docs/formats.md §2.8; on the sample corpus, each PAK
 * read by heads and tails equals pak_open_mem and resources.tsv. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "pak_internal.h"
#include "testutil.h"

#define FOURCC(a, b, c, d)                                                                         \
    ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

/* A small PAK from §2.2–2.5:
 *   0x00 header 00030005 00000000
 *   0x08 named_count 1: 0x0C (ANCS 22222222 "Samus")
 *   0x1D resource_count 4
 *   0x21 entry 0: stored STRG 11111111 size 0x20 offset 0x80 (29 bytes + 3 x FF)
 *   0x35 entry 1: zlib   ANCS 22222222 size 0x40 offset 0xA0 (u32 40, zlib, FF...)
 *   0x49 entry 2: stored TXTR 33333333 size 0x20 offset 0xE0 (32 x FF: 31 stripped)
 *   0x5D entry 3: stored CMDL 44444444 size 0x40 offset 0x100 (past the end: 0x120)
 *   0x71 zero gap up to 0x80; the file ends at 0x100. */
static uint8_t *make_pak(size_t *len)
{
    util_wr w;
    util_wr_init(&w);
    util_wr_u32(&w, 0x00030005);
    util_wr_u32(&w, 0);
    util_wr_u32(&w, 1);
    util_wr_u32(&w, FOURCC('A', 'N', 'C', 'S'));
    util_wr_u32(&w, 0x22222222);
    util_wr_u32(&w, 5);
    util_wr_bytes(&w, "Samus", 5);
    assert_int_equal(w.len, 0x1D);
    util_wr_u32(&w, 4);
    static const uint32_t ent[4][5] = {
        {0, FOURCC('S', 'T', 'R', 'G'), 0x11111111, 0x20, 0x80},
        {1, FOURCC('A', 'N', 'C', 'S'), 0x22222222, 0x40, 0xA0},
        {0, FOURCC('T', 'X', 'T', 'R'), 0x33333333, 0x20, 0xE0},
        {0, FOURCC('C', 'M', 'D', 'L'), 0x44444444, 0x40, 0x100},
    };
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 5; k++)
            util_wr_u32(&w, ent[i][k]);
    assert_int_equal(w.len, 0x71);
    util_wr_fill(&w, 0, 0x80 - 0x71);
    util_wr_bytes(&w, "a stored string resource here", 29);
    util_wr_fill(&w, 0xFF, 3);
    uint8_t plain[40], z[64];
    for (int i = 0; i < 40; i++)
        plain[i] = (uint8_t)(i < 20 ? 'x' : i);
    uLongf zlen = sizeof z;
    assert_int_equal(compress2(z, &zlen, plain, 40, 9), Z_OK);
    assert_true(4 + zlen <= 0x40);
    util_wr_u32(&w, 40);
    util_wr_bytes(&w, z, zlen);
    util_wr_fill(&w, 0xFF, 0x40 - 4 - zlen);
    util_wr_fill(&w, 0xFF, 0x20);
    assert_int_equal(w.len, 0x100);
    assert_int_equal(util_wr_status(&w, NULL), 0);
    return util_wr_take(&w, len);
}

/* pak_open_tables on a head starting at `start` bytes and grown to *need each time it asks
 * (never past the file); returns its final result. */
static int open_grown(pak_file **out, const uint8_t *data, size_t size, size_t start, util_err *err,
                      int *rounds)
{
    size_t have = start < size ? start : size;
    *rounds = 0;
    for (;;) {
        uint64_t need = 77;
        int rc = pak_open_tables(out, data, have, size, &need, err);
        if (rc == 0 || need == 0) {
            if (rc == 0)
                assert_int_equal(need, 0);
            return rc;
        }
        assert_int_equal(rc, UTIL_ETRUNC);
        assert_null(*out);
        assert_true(need > have);  /* progress */
        assert_true(need <= size); /* never asks past the file */
        have = (size_t)need;
        (*rounds)++;
    }
}

/* Set every entry's sizes from its first 8 / last 32 bytes only, as the ingest does, and
 * fill codecs (may be NULL). */
static void sizes_from_edges(pak_file *p, const uint8_t *data, uint8_t *codecs)
{
    for (uint32_t i = 0; i < p->entry_count; i++) {
        pak_entry *e = &p->entries[i];
        if (codecs)
            codecs[i] = PAK_CODEC_NONE;
        if (!e->in_bounds || e->size == 0) {
            pak_entry_sizes(e, NULL, 0, NULL, 0);
            continue;
        }
        size_t n;
        if (e->compressed) {
            n = e->size < 8 ? e->size : 8;
            uint8_t head[8];
            memcpy(head, data + e->offset, n);
            pak_entry_sizes(e, head, n, NULL, 0);
            if (codecs)
                codecs[i] = (uint8_t)pak_entry_codec(e, head, n);
        } else {
            n = e->size < 32 ? e->size : 32;
            uint8_t tail[32];
            memcpy(tail, data + e->offset + e->size - n, n);
            pak_entry_sizes(e, NULL, 0, tail, n);
        }
    }
}

static void assert_same_pak(const pak_file *a, const pak_file *b)
{
    assert_int_equal(a->size, b->size);
    assert_int_equal(a->header_unused, b->header_unused);
    assert_int_equal(a->tables_end, b->tables_end);
    assert_true(a->tables_hash == b->tables_hash);
    assert_int_equal(a->named_count, b->named_count);
    for (uint32_t i = 0; i < a->named_count; i++) {
        assert_int_equal(a->named[i].type, b->named[i].type);
        assert_int_equal(a->named[i].id, b->named[i].id);
        assert_int_equal(a->named[i].offset, b->named[i].offset);
        assert_string_equal(a->named[i].name, b->named[i].name);
    }
    assert_int_equal(a->entry_count, b->entry_count);
    for (uint32_t i = 0; i < a->entry_count; i++) {
        const pak_entry *x = &a->entries[i], *y = &b->entries[i];
        assert_int_equal(x->index, y->index);
        assert_int_equal(x->compressed, y->compressed);
        assert_int_equal(x->type, y->type);
        assert_int_equal(x->id, y->id);
        assert_int_equal(x->size, y->size);
        assert_int_equal(x->offset, y->offset);
        assert_int_equal(x->table_offset, y->table_offset);
        assert_int_equal(x->in_bounds, y->in_bounds);
        assert_int_equal(x->decompressed_size, y->decompressed_size);
        assert_int_equal(x->codec, y->codec);
    }
    assert_int_equal(a->anomaly_count, b->anomaly_count);
    for (size_t k = 0; k < a->anomaly_count; k++) {
        assert_int_equal(a->anomalies[k].entry_index, b->anomalies[k].entry_index);
        assert_int_equal(a->anomalies[k].offset, b->anomalies[k].offset);
        assert_string_equal(a->anomalies[k].code, b->anomalies[k].code);
        assert_string_equal(a->anomalies[k].msg, b->anomalies[k].msg);
    }
}

static void test_hand_built(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = make_pak(&len);
    util_err err;
    util_err_clear(&err);
    pak_file *full = NULL;
    assert_int_equal(pak_open_mem(&full, buf, len, &err), 0);
    /* what §2.8 says, by hand */
    assert_int_equal(full->entries[0].decompressed_size, 29);
    assert_int_equal(full->entries[1].decompressed_size, 40);
    assert_int_equal(full->entries[2].decompressed_size, 1); /* at most 31 bytes stripped */
    assert_false(full->entries[3].in_bounds);
    assert_int_equal(full->entries[3].decompressed_size, 0x40);

    for (size_t start = 0; start <= len; start++) {
        pak_file *p = NULL;
        int rounds;
        assert_int_equal(open_grown(&p, buf, len, start, &err, &rounds), 0);
        if (start >= 0x71)
            assert_int_equal(rounds, 0); /* the tables end at 0x71 */
        else
            assert_true(rounds > 0);
        assert_null(p->src);
        for (uint32_t i = 0; i < p->entry_count; i++)
            assert_int_equal(p->entries[i].decompressed_size, 0); /* left for the caller */
        uint8_t *stored;
        size_t n;
        assert_int_equal(pak_entry_read(p, 0, &stored, &n, &err), UTIL_EFORMAT);
        assert_null(stored);
        uint8_t codecs[4];
        sizes_from_edges(p, buf, codecs);
        assert_same_pak(p, full);
        assert_int_equal(codecs[1], PAK_CODEC_ZLIB);
        assert_int_equal(codecs[0], PAK_CODEC_NONE);
        int c1 = -1, c2 = -1;
        assert_int_equal(pak_game_decide(p, NULL, &c1), PAK_GAME_MP1);
        assert_int_equal(pak_game_decide(full, NULL, &c2), PAK_GAME_MP1);
        assert_int_equal(c1, c2);
        pak_close(p);
    }
    pak_close(full);
    free(buf);
}

/* A file cut at every length fails or succeeds exactly as pak_open_mem does on it, whatever
 * head the caller starts from. */
static void test_truncation(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = make_pak(&len);
    for (size_t cut = 0; cut <= len; cut++) {
        util_err want, got;
        util_err_clear(&want);
        pak_file *full = NULL;
        int rc_full = pak_open_mem(&full, buf, cut, &want);
        for (size_t start = 0; start <= cut; start += 7) {
            util_err_clear(&got);
            pak_file *p = NULL;
            int rounds;
            int rc = open_grown(&p, buf, cut, start, &got, &rounds);
            assert_int_equal(rc, rc_full);
            if (rc) {
                assert_null(p);
                assert_int_equal(got.code, want.code);
                assert_int_equal(got.offset, want.offset);
                assert_string_equal(got.msg, want.msg);
            } else {
                sizes_from_edges(p, buf, NULL);
                assert_same_pak(p, full);
            }
            pak_close(p);
        }
        pak_close(full);
    }
    free(buf);
}

/* Counts and name lengths are checked against the file size, not the head: a hostile count
 * fails at once without asking for the rest of the file. */
static void test_hostile_counts(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = make_pak(&len);
    static const struct {
        size_t at;
        uint32_t v;
    } cases[] = {
        {0x08, 0x10000000}, /* named count */
        {0x14, 0x7FFFFFF0}, /* name length */
        {0x1D, 0x01000000}, /* resource count */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint8_t *b = malloc(len);
        assert_non_null(b);
        memcpy(b, buf, len);
        b[cases[c].at] = (uint8_t)(cases[c].v >> 24);
        b[cases[c].at + 1] = (uint8_t)(cases[c].v >> 16);
        b[cases[c].at + 2] = (uint8_t)(cases[c].v >> 8);
        b[cases[c].at + 3] = (uint8_t)cases[c].v;
        util_err want, got;
        pak_file *p = NULL;
        assert_int_equal(pak_open_mem(&p, b, len, &want), UTIL_ETRUNC);
        uint64_t need = 99;
        assert_int_equal(pak_open_tables(&p, b, cases[c].at + 4, len, &need, &got), UTIL_ETRUNC);
        assert_null(p);
        assert_int_equal(need, 0);
        assert_int_equal(got.offset, want.offset);
        assert_string_equal(got.msg, want.msg);
        free(b);
    }
    /* not a PAK: known from 4 bytes */
    uint8_t bad[4] = {0, 3, 0, 6};
    pak_file *p = NULL;
    util_err err;
    uint64_t need = 99;
    assert_int_equal(pak_open_tables(&p, bad, 4, 1000, &need, &err), UTIL_EFORMAT);
    assert_int_equal(need, 0);
    assert_int_equal(err.offset, 0);
    /* an 8-byte file is an empty PAK (§2.2) */
    static const uint8_t hdr8[8] = {0, 3, 0, 5, 0, 0, 0, 0};
    assert_int_equal(pak_open_tables(&p, hdr8, 8, 8, &need, &err), 0);
    assert_int_equal(p->entry_count, 0);
    assert_int_equal(p->tables_end, 8);
    pak_close(p);
    free(buf);
}

static void test_entry_sizes(void **state)
{
    (void)state;
    pak_entry e;
    uint8_t tail[32];
    /* stored, 64 bytes ending in 40 x FF: only 31 stripped */
    memset(&e, 0, sizeof e);
    e.size = 64;
    e.in_bounds = 1;
    memset(tail, 0xFF, sizeof tail);
    pak_entry_sizes(&e, NULL, 0, tail, 32);
    assert_int_equal(e.decompressed_size, 33);
    /* 5 x FF after a non-FF byte */
    tail[26] = 0x41;
    pak_entry_sizes(&e, NULL, 0, tail, 32);
    assert_int_equal(e.decompressed_size, 59);
    /* no padding */
    tail[31] = 0;
    pak_entry_sizes(&e, NULL, 0, tail, 32);
    assert_int_equal(e.decompressed_size, 64);
    /* a short entry: tail is the whole entry */
    e.size = 3;
    uint8_t three[3] = {7, 0xFF, 0xFF};
    pak_entry_sizes(&e, NULL, 0, three, 3);
    assert_int_equal(e.decompressed_size, 1);
    /* out of bounds: the stored size, no bytes needed */
    e.size = 96;
    e.in_bounds = 0;
    pak_entry_sizes(&e, NULL, 0, NULL, 0);
    assert_int_equal(e.decompressed_size, 96);
    /* compressed: the big-endian u32 prefix */
    static const uint8_t head[8] = {0x00, 0x01, 0x02, 0x03, 0x78, 0xDA, 0, 0};
    e.compressed = 1;
    e.in_bounds = 1;
    e.size = 64;
    pak_entry_sizes(&e, head, 8, NULL, 0);
    assert_int_equal(e.decompressed_size, 0x00010203);
    assert_int_equal(pak_entry_codec(&e, head, 8), PAK_CODEC_ZLIB);
    assert_int_equal(pak_entry_codec(&e, head, 5), PAK_CODEC_NONE); /* needs 6 bytes */
    e.size = 3;                                                     /* too short for a prefix */
    pak_entry_sizes(&e, head, 3, NULL, 0);
    assert_int_equal(e.decompressed_size, 0);
    assert_int_equal(pak_entry_codec(&e, head, 3), PAK_CODEC_NONE);
    e.size = 64;
    e.in_bounds = 0;
    pak_entry_sizes(&e, NULL, 0, NULL, 0);
    assert_int_equal(e.decompressed_size, 0);
    /* LZO: first segment length 0x0123 */
    static const uint8_t lzo[8] = {0, 0, 0x40, 0, 0x01, 0x23, 0x11, 0};
    e.in_bounds = 1;
    assert_int_equal(pak_entry_codec(&e, lzo, 8), PAK_CODEC_LZO);
    e.compressed = 0;
    assert_int_equal(pak_entry_codec(&e, lzo, 8), PAK_CODEC_NONE);
}

/* resources.tsv rows: game, pak, index, type, id, compressed, offset, stored, decompressed. */
typedef struct tsv_row {
    char game[8], pak[64];
    uint32_t index, compressed, offset, stored, decompressed;
} tsv_row;

static tsv_row *load_tsv(const char *corpus, size_t *n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/resources.tsv", corpus);
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 0;
    tsv_row *rows = NULL;
    char line[512];
    *n = 0;
    while (fgets(line, sizeof line, f)) {
        tsv_row r;
        char type[8];
        unsigned long id;
        if (sscanf(line, "%7[^\t]\t%63[^\t]\t%u\t%7[^\t]\t%lu\t%u\t%u\t%u\t%u", r.game, r.pak,
                   &r.index, type, &id, &r.compressed, &r.offset, &r.stored, &r.decompressed) != 9)
            continue; /* header */
        if (*n == cap) {
            cap = cap ? cap * 2 : 1024;
            tsv_row *nr = realloc(rows, cap * sizeof *nr);
            assert_non_null(nr);
            rows = nr;
        }
        rows[(*n)++] = r;
    }
    fclose(f);
    return rows;
}

static void test_corpus(void **state)
{
    (void)state;
    const char *corpus = tu_corpus_dir();
    if (!corpus)
        TU_SKIP();
    size_t nrows = 0;
    tsv_row *rows = load_tsv(corpus, &nrows);
    assert_non_null(rows);
    static const char *const games[] = {"mp1", "mp2"};
    size_t paks = 0, checked = 0;
    for (size_t g = 0; g < 2; g++) {
        char list[1024];
        snprintf(list, sizeof list, "ls %s/%s", corpus, games[g]);
        char *names = NULL;
        assert_int_equal(tu_run(list, &names), 0);
        for (char *name = strtok(names, "\n"); name; name = strtok(NULL, "\n")) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s/%s", corpus, games[g], name);
            size_t len;
            uint8_t *buf = tu_read_file(path, &len);
            assert_non_null(buf);
            util_err err;
            pak_file *full = NULL, *p = NULL;
            assert_int_equal(pak_open_mem(&full, buf, len, &err), 0);
            int rounds;
            assert_int_equal(open_grown(&p, buf, len, 64, &err, &rounds), 0);
            uint8_t *codecs = calloc(p->entry_count + 1, 1);
            assert_non_null(codecs);
            sizes_from_edges(p, buf, codecs);
            assert_same_pak(p, full);
            int c1 = -1, c2 = -1;
            pak_game g1 = pak_game_decide(p, NULL, &c1);
            pak_game g2 = pak_game_decide(full, NULL, &c2);
            if (g1 != PAK_GAME_UNKNOWN)
                assert_int_equal(g1, g2);
            assert_int_equal(c1, c2);
            for (size_t k = 0; k < nrows; k++) {
                if (strcmp(rows[k].game, games[g]) || strcmp(rows[k].pak, name))
                    continue;
                assert_true(rows[k].index < p->entry_count);
                const pak_entry *e = &p->entries[rows[k].index];
                assert_int_equal(e->compressed, rows[k].compressed);
                assert_int_equal(e->offset, rows[k].offset);
                assert_int_equal(e->size, rows[k].stored);
                assert_int_equal(e->decompressed_size, rows[k].decompressed);
                checked++;
            }
            free(codecs);
            pak_close(p);
            pak_close(full);
            free(buf);
            paks++;
        }
        free(names);
    }
    assert_true(paks > 0);
    assert_true(checked > 0);
    free(rows);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_built),     cmocka_unit_test(test_truncation),
        cmocka_unit_test(test_hostile_counts), cmocka_unit_test(test_entry_sizes),
        cmocka_unit_test(test_corpus),
    };
    return tu_status(cmocka_run_group_tests(tests, NULL, NULL));
}
