/* test_db_ingest.c — the ingest loop on PAKs built with pak_builder and fixture ANCS/EVNT:
 * a folder with a symlink loop, a shared ANCS decoded once, re-ingest changing no row, a
 * changed PAK replacing its rows (keeping what another PAK still holds), a broken PAK and a
 * broken ANCS entry recorded in load_errors while the rest loads; the census of an asset's
 * copies within a release (pak.duplicate_*). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "fixture.h"
#include "pak.h"
#include "testutil.h"

#define FC_ANCS 0x414E4353u
#define FC_EVNT 0x45564E54u
#define FC_CMDL 0x434D444Cu

typedef struct ids {
    uint32_t next;
    uint32_t evnt[64];
    int nevnt;
} ids;

static uint32_t new_id(void *ctx, uint32_t fourcc)
{
    ids *s = ctx;
    uint32_t id = s->next++;
    if (fourcc == FC_EVNT && s->nevnt < 64)
        s->evnt[s->nevnt++] = id;
    return id;
}

/* Add an MP1 ANCS (seed) and its EVNT resources to b; returns the character count. */
static uint32_t add_ancs(pak_builder *b, uint32_t ancs_id, uint64_t seed, uint32_t id_base,
                         pak_codec codec)
{
    util_err e;
    util_err_clear(&e);
    ids s = {.next = id_base};
    fixture_ancs_opts o;
    fixture_ancs_opts_init(&o, ANCS_GAME_MP1, seed);
    o.new_id = new_id;
    o.id_ctx = &s;
    util_arena a;
    util_arena_init(&a);
    ancs_set set;
    assert_int_equal(fixture_ancs_build(&set, &o, &a, &e), 0);
    util_wr w;
    util_wr_init(&w);
    assert_int_equal(ancs_encode(&w, &set, &e), 0);
    assert_int_equal(pak_builder_add(b, FC_ANCS, ancs_id, w.buf, w.len, codec, &e), 0);
    util_wr_free(&w);
    for (int i = 0; i < s.nevnt; i++) {
        uint8_t *ev = NULL;
        size_t len = 0;
        assert_int_equal(
            fixture_evnt_bytes(&ev, &len, ANCS_GAME_MP1, seed + 100 + i, 2, set.char_count, &e), 0);
        assert_int_equal(pak_builder_add(b, FC_EVNT, s.evnt[i], ev, len, PAK_CODEC_NONE, &e), 0);
        free(ev);
    }
    uint32_t n = set.char_count;
    util_arena_free(&a);
    return n;
}

static void add_filler(pak_builder *b, uint32_t id)
{
    util_err e;
    util_err_clear(&e);
    uint8_t buf[100];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i * 7 + id);
    assert_int_equal(pak_builder_add(b, FC_CMDL, id, buf, sizeof buf, PAK_CODEC_ZLIB, &e), 0);
}

static void finish(pak_builder *b, const char *path)
{
    util_err e;
    util_err_clear(&e);
    assert_int_equal(pak_builder_finish_file(b, path, &e), 0);
    pak_builder_free(b);
}

/* ---- database snapshot ---------------------------------------------------------------- */

typedef struct hsink {
    uint64_t h;
    long rows;
} hsink;

static int h_row(void *ctx, int ncols, const db_cell *cells)
{
    hsink *s = ctx;
    for (int c = 0; c < ncols; c++) {
        const db_cell *x = &cells[c];
        s->h = util_fnv1a(s->h, &x->type, sizeof x->type);
        if (x->type == DB_INT)
            s->h = util_fnv1a(s->h, &x->i, sizeof x->i);
        else if (x->type == DB_REAL)
            s->h = util_fnv1a(s->h, &x->r, sizeof x->r);
        else if (x->type == DB_TEXT || x->type == DB_BLOB)
            s->h = util_fnv1a(s->h, x->s, x->n);
    }
    s->rows++;
    return 0;
}

typedef struct names {
    char name[64][64];
    int ncol[64];
    int n;
} names;

static int n_row(void *ctx, int ncols, const db_cell *cells)
{
    names *s = ctx;
    if (s->n < 64) {
        s->ncol[s->n] = ncols > 1 ? (int)cells[1].i : 0;
        snprintf(s->name[s->n++], 64, "%s", cells[0].s);
    }
    return 0;
}

/* Hash of every row of every table, in primary-key / rowid order. Tables only: not the
 * name index (an FTS5 table, which cannot be read in order) and its shadow tables. */
static uint64_t snapshot(db *d, long *rows)
{
    util_err e;
    util_err_clear(&e);
    names t = {.n = 0};
    db_sink ns = {&t, NULL, n_row, NULL};
    assert_int_equal(db_exec(d,
                             "SELECT name, ncol FROM pragma_table_list WHERE schema = 'main' "
                             "AND type = 'table' AND name <> 'sqlite_schema' ORDER BY name",
                             0, NULL, &ns, &e),
                     0);
    hsink h = {UTIL_FNV_INIT, 0};
    db_sink hs = {&h, NULL, h_row, NULL};
    for (int i = 0; i < t.n; i++) {
        char sql[128];
        /* every table has at least two columns; most have three or more */
        snprintf(sql, sizeof sql, "SELECT * FROM \"%s\" ORDER BY 1, 2%s", t.name[i],
                 t.ncol[i] > 2 ? ", 3" : "");
        assert_int_equal(db_exec(d, sql, 0, NULL, &hs, &e), 0);
    }
    *rows = h.rows;
    return h.h;
}

static long count(db *d, const char *sql)
{
    util_err e;
    util_err_clear(&e);
    names t = {.n = 0};
    db_sink ns = {&t, NULL, n_row, NULL};
    char wrapped[1024];
    snprintf(wrapped, sizeof wrapped, "SELECT CAST((%s) AS TEXT)", sql);
    assert_int_equal(db_exec(d, wrapped, 0, NULL, &ns, &e), 0);
    assert_int_equal(t.n, 1);
    return atol(t.name[0]);
}

static int ingest(db *d, const char *path, db_ingest_stats *st)
{
    util_err e;
    util_err_clear(&e);
    db_ingest_opts o = {.game = PAK_GAME_UNKNOWN, .jobs = 1, .quiet = 1, .log = NULL};
    const char *paths[1] = {path};
    return db_ingest_paths(d, paths, 1, &o, st, &e);
}

/* A new in-memory database with path ingested into it (asserted to succeed). */
static db *ingest_new(const char *path, db_ingest_stats *st)
{
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_open(&d, ":memory:", DB_OPEN_READWRITE, &e), 0);
    assert_int_equal(ingest(d, path, st), 0);
    return d;
}

static void test_ingest_cycle(void **state)
{
    (void)state;
    char *dir = tu_tempdir();
    char pa[1024], pb[1024], sub[1024], loop[1024], pc[1024];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    snprintf(pa, sizeof pa, "%s/a.pak", dir);
    snprintf(pb, sizeof pb, "%s/sub/B.PAK", dir);
    snprintf(pc, sizeof pc, "%s/sub/c.Pak", dir);
    snprintf(loop, sizeof loop, "%s/sub/loop", dir);
    char cmd[2200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && ln -s .. '%s'", sub, loop);
    assert_int_equal(tu_run(cmd, NULL), 0);

    const uint32_t X = 0x0A000001u, Y = 0x0A000002u;
    /* a.pak: ANCS X (zlib) + its EVNTs + filler; B.PAK: another copy of X, stored */
    pak_builder *b = pak_builder_new();
    uint32_t x_chars = add_ancs(b, X, 11, 0x1000, PAK_CODEC_ZLIB);
    add_filler(b, 0xF0000001u);
    finish(b, pa);
    b = pak_builder_new();
    assert_int_equal(add_ancs(b, X, 11, 0x1000, PAK_CODEC_NONE), x_chars);
    add_filler(b, 0xF0000001u);
    finish(b, pb);

    db_ingest_stats st;
    db *d = ingest_new(dir, &st);
    assert_int_equal(st.paks_seen, 2); /* the symlink loop visits nothing twice */
    assert_int_equal(st.paks_ingested, 2);
    assert_int_equal(st.errors, 0);
    assert_int_equal(st.ancs, 1); /* one distinct ANCS, decoded once */
    assert_int_equal(count(d, "SELECT count(*) FROM paks"), 2);
    assert_int_equal(count(d, "SELECT count(*) FROM ancs"), 1);
    assert_int_equal(count(d, "SELECT count(*) FROM characters"), x_chars);
    assert_int_equal(count(d, "SELECT copies FROM assets WHERE asset_id = 167772161"), 2);
    assert_int_equal(count(d, "SELECT count(*) FROM warnings WHERE code = 'copy_differs'"), 0);
    assert_int_equal(count(d, "SELECT count(*) FROM load_errors"), 0);
    long evnts = count(d, "SELECT count(*) FROM evnt");
    assert_true(evnts > 0);
    assert_int_equal(count(d, "SELECT count(*) FROM assets WHERE type = 'EVNT'"), evnts);

    /* re-ingest: nothing changes */
    long rows1, rows2;
    uint64_t h1 = snapshot(d, &rows1);
    assert_int_equal(ingest(d, dir, &st), 0);
    assert_int_equal(st.paks_skipped, 2);
    assert_int_equal(st.paks_ingested, 0);
    uint64_t h2 = snapshot(d, &rows2);
    assert_int_equal(rows1, rows2);
    assert_true(h1 == h2);

    /* a.pak changes: now ANCS Y, a broken ANCS entry, and no X; X stays (B.PAK) */
    sleep(1); /* a different mtime even on coarse file systems */
    b = pak_builder_new();
    uint32_t y_chars = add_ancs(b, Y, 22, 0x2000, PAK_CODEC_ZLIB);
    static const uint8_t junk[] = {0, 1, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
    util_err e;
    util_err_clear(&e);
    assert_int_equal(
        pak_builder_add(b, FC_ANCS, 0x0BAD0000u, junk, sizeof junk, PAK_CODEC_NONE, &e), 0);
    finish(b, pa);
    assert_int_equal(ingest(d, dir, &st), 0);
    assert_int_equal(st.paks_ingested, 1);
    assert_int_equal(st.paks_skipped, 1);
    assert_int_equal(st.errors, 1);
    assert_int_equal(count(d, "SELECT count(*) FROM paks"), 2);
    assert_int_equal(count(d, "SELECT count(*) FROM ancs"), 2);
    assert_int_equal(count(d, "SELECT count(*) FROM characters WHERE ancs_id = 167772161"),
                     x_chars);
    assert_int_equal(count(d, "SELECT count(*) FROM characters WHERE ancs_id = 167772162"),
                     y_chars);
    assert_int_equal(count(d, "SELECT copies FROM assets WHERE asset_id = 167772161"), 1);
    assert_int_equal(count(d, "SELECT count(*) FROM pak_entries e JOIN paks p USING (pak_id) "
                              "WHERE e.asset_id = 167772161 AND e.content_id IS NOT NULL "
                              "AND p.path LIKE '%B.PAK'"),
                     1);
    assert_int_equal(count(d, "SELECT count(*) FROM load_errors WHERE stage = 'decode' AND "
                              "type = 'ANCS' AND asset_id = 195887104 AND entry_index IS NOT "
                              "NULL AND pak_path LIKE '%a.pak'"),
                     1);
    /* no duplicates anywhere */
    assert_int_equal(count(d, "SELECT count(*) FROM (SELECT 1 FROM pak_entries GROUP BY "
                              "pak_id, entry_index HAVING count(*) > 1)"),
                     0);

    /* a broken PAK: recorded, the rest stays */
    static const char garbage[] = "not a pak, only a few bytes";
    assert_int_equal(tu_write_file(pc, garbage, sizeof garbage), 0);
    assert_int_equal(ingest(d, dir, &st), 0);
    assert_int_equal(st.errors, 1);
    assert_int_equal(count(d, "SELECT count(*) FROM load_errors WHERE stage = 'pak' AND "
                              "entry_index IS NULL AND pak_path LIKE '%c.Pak'"),
                     1);
    assert_int_equal(count(d, "SELECT count(*) FROM paks WHERE status = 'error'"), 1);
    assert_int_equal(count(d, "SELECT count(*) FROM ancs"), 2);
    /* the decode error of a.pak was not recorded twice */
    assert_int_equal(count(d, "SELECT count(*) FROM load_errors WHERE stage = 'decode'"), 1);

    db_close(d);
    assert_int_equal(tu_remove_tree(dir), 0);
    free(dir);
}

/* ---- copies of an asset in one release (docs/unknowns.md: pak.duplicate_*) ---------------- */

static void add_cmdl(pak_builder *b, uint32_t id, uint8_t seed, pak_codec codec)
{
    util_err e;
    util_err_clear(&e);
    uint8_t buf[200];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i * 13 + seed); /* never ends in 0xFF (padding) */
    buf[sizeof buf - 1] = 0;
    assert_int_equal(pak_builder_add(b, FC_CMDL, id, buf, sizeof buf, codec, &e), 0);
}

/* Write b to path with the zlib stream of its entry `entry` broken (it does not inflate). */
static void finish_broken(pak_builder *b, const char *path, uint32_t entry)
{
    util_err e;
    util_err_clear(&e);
    uint8_t *buf = NULL;
    size_t len = 0;
    assert_int_equal(pak_builder_finish_mem(b, &buf, &len, &e), 0);
    pak_builder_free(b);
    util_src *src = NULL;
    pak_file *p = NULL;
    assert_int_equal(util_src_open_mem(&src, buf, len, &e), 0);
    assert_int_equal(pak_open_src_tables(&p, src, &e), 0);
    assert_true(entry < p->entry_count && p->entries[entry].compressed);
    uint64_t off = p->entries[entry].offset;
    pak_close(p);
    util_src_close(src);
    assert_true(off + 40 <= len);
    for (size_t i = 8; i < 40; i++) /* past the u32 size and the zlib header */
        buf[off + i] ^= 0x5A;
    assert_int_equal(tu_write_file(path, buf, len), 0);
    free(buf);
}

static long census(db *d, const char *field, const char *value)
{
    char sql[300];
    snprintf(sql, sizeof sql,
             "SELECT ifnull(sum(count), 0) FROM unknown_census WHERE field = '%s' AND "
             "value = '%s' AND release = 'rel'",
             field, value);
    return count(d, sql);
}

/* One release (a folder of two PAKs); CMDL copies made by hand:
 *   0x100 in a.pak (zlib) and b.pak (stored): same bytes, flags differ;
 *   0x200 in a.pak and b.pak, both stored: bytes differ;
 *   0x300 in a.pak and twice in b.pak, all zlib: same bytes;
 *   0x500 in a.pak and b.pak, both zlib, b.pak's does not inflate: one content hash only;
 *   0x600 in a.pak only. */
static void test_duplicate_census(void **state)
{
    (void)state;
    char *top = tu_tempdir();
    char dir[1024], pa[1100], pb[1100];
    snprintf(dir, sizeof dir, "%s/rel", top);
    snprintf(pa, sizeof pa, "%s/a.pak", dir);
    snprintf(pb, sizeof pb, "%s/b.pak", dir);
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    assert_int_equal(tu_run(cmd, NULL), 0);
    pak_builder *b = pak_builder_new();
    add_cmdl(b, 0x100, 1, PAK_CODEC_ZLIB);
    add_cmdl(b, 0x200, 2, PAK_CODEC_NONE);
    add_cmdl(b, 0x300, 3, PAK_CODEC_ZLIB);
    add_cmdl(b, 0x500, 5, PAK_CODEC_ZLIB);
    add_cmdl(b, 0x600, 6, PAK_CODEC_ZLIB);
    finish(b, pa);
    b = pak_builder_new();
    add_cmdl(b, 0x100, 1, PAK_CODEC_NONE);
    add_cmdl(b, 0x200, 20, PAK_CODEC_NONE);
    add_cmdl(b, 0x300, 3, PAK_CODEC_ZLIB);
    add_cmdl(b, 0x300, 3, PAK_CODEC_ZLIB);
    add_cmdl(b, 0x500, 5, PAK_CODEC_ZLIB);
    finish_broken(b, pb, 4);

    db_ingest_stats st;
    db *d = ingest_new(dir, &st);
    assert_int_equal(st.paks_ingested, 2);
    assert_int_equal(count(d, "SELECT count(*) FROM load_errors WHERE stage = 'inflate' AND "
                              "asset_id = 1280 AND pak_path LIKE '%b.pak'"),
                     1);
    assert_int_equal(count(d, "SELECT count(*) FROM pak_entries WHERE content_hash IS NULL"), 1);
    assert_int_equal(census(d, "pak.duplicate_copies_identical", "identical"), 2);
    assert_int_equal(census(d, "pak.duplicate_copies_identical", "differ"), 1);
    assert_int_equal(census(d, "pak.duplicate_compressed_flag", "same"), 3);
    assert_int_equal(census(d, "pak.duplicate_compressed_flag", "differs"), 1);
    assert_int_equal(census(d, "pak.entry.compressed", "1"), 7);
    assert_int_equal(census(d, "pak.entry.compressed", "0"), 3);
    db_close(d);
    assert_int_equal(tu_remove_tree(top), 0);
    free(top);
}

/* ---- a first ingest's faults in PAKs the read-ahead thread opened ------------------------ */

/* A folder's PAKs after the first are opened by the read-ahead thread (tables and entry
 * sizes): b.pak's tables cut short fail it whole, c.pak's entry 0 past the end of the file is
 * that entry's fault; a.pak and d.pak load. */
static void test_first_ingest_faults_ahead(void **state)
{
    (void)state;
    char *dir = tu_tempdir();
    char pa[1024], pb[1024], pc[1024], pd[1024];
    snprintf(pa, sizeof pa, "%s/a.pak", dir);
    snprintf(pb, sizeof pb, "%s/b.pak", dir);
    snprintf(pc, sizeof pc, "%s/c.pak", dir);
    snprintf(pd, sizeof pd, "%s/d.pak", dir);
    const char *paths[] = {pa, pb, pc, pd};
    for (int k = 0; k < 4; k++) {
        pak_builder *b = pak_builder_new();
        add_filler(b, 0xF0000001u + (uint32_t)k);
        add_filler(b, 0xF0000010u + (uint32_t)k);
        finish(b, paths[k]);
    }
    size_t len = 0;
    uint8_t *bytes = tu_read_file(pb, &len);
    assert_non_null(bytes);
    assert_true(len > 30);
    assert_int_equal(tu_write_file(pb, bytes, 30), 0); /* 16 bytes of table header, then 14 */
    free(bytes);
    bytes = tu_read_file(pc, &len);
    assert_non_null(bytes);
    uint32_t past = ((uint32_t)len + 64u) & ~31u;
    const size_t at = 16 + 16; /* entry 0's data offset (docs/formats.md §2.4) */
    for (int i = 0; i < 4; i++)
        bytes[at + (size_t)i] = (uint8_t)(past >> (24 - 8 * i));
    assert_int_equal(tu_write_file(pc, bytes, len), 0);
    free(bytes);

    db_ingest_stats st;
    db *d = ingest_new(dir, &st);
    assert_int_equal(st.paks_seen, 4);
    assert_int_equal(st.errors, 2);
    assert_int_equal(count(d, "SELECT count(*) FROM load_errors WHERE pak_path LIKE '%b.pak' "
                              "AND stage = 'pak' AND entry_index IS NULL AND byte_offset IS NOT "
                              "NULL"),
                     1);
    assert_int_equal(count(d, "SELECT byte_offset FROM load_errors WHERE pak_path LIKE '%c.pak' "
                              "AND stage = 'inflate' AND entry_index = 0"),
                     past);
    assert_int_equal(count(d, "SELECT count(*) FROM paks WHERE status = 'ok'"), 3);
    assert_int_equal(count(d, "SELECT count(*) FROM pak_entries e JOIN paks p USING (pak_id) "
                              "WHERE p.path LIKE '%a.pak' OR p.path LIKE '%d.pak'"),
                     4);
    assert_int_equal(count(d, "SELECT count(*) FROM pak_entries e JOIN paks p USING (pak_id) "
                              "WHERE p.path LIKE '%c.pak' AND e.content_hash IS NOT NULL"),
                     1);
    db_close(d);
    assert_int_equal(tu_remove_tree(dir), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ingest_cycle),
        cmocka_unit_test(test_duplicate_census),
        cmocka_unit_test(test_first_ingest_faults_ahead),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
