/* test_db_jobs.c — `--jobs N` must not change a single row: a demo corpus (fixture_corpus_build
 * at small scale) is ingested with jobs = 1 and jobs = 4 into two databases, both as a bulk
 * load into an empty database and as a second run adding PAKs to a database that has some,
 * and every table is compared row by row (all columns but paks.ingested_at, a clock). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "fixture_corpus.h"
#include "testutil.h"

typedef struct names {
    char list[64][64];
    int n;
} names;

static int name_row(void *ctx, int ncols, const db_cell *cells)
{
    names *s = ctx;
    if (ncols >= 1 && cells[0].type == DB_TEXT && s->n < 64)
        snprintf(s->list[s->n++], sizeof s->list[0], "%s", cells[0].s);
    return 0;
}

typedef struct digest {
    uint64_t h;
    long rows;
} digest;

static int digest_row(void *ctx, int ncols, const db_cell *cells)
{
    digest *g = ctx;
    g->rows++;
    for (int i = 0; i < ncols; i++) {
        const db_cell *c = &cells[i];
        uint8_t t = (uint8_t)c->type;
        g->h = util_fnv1a(g->h, &t, 1);
        if (c->type == DB_INT)
            g->h = util_fnv1a(g->h, &c->i, sizeof c->i);
        else if (c->type == DB_REAL)
            g->h = util_fnv1a(g->h, &c->r, sizeof c->r);
        else if (c->type == DB_TEXT)
            g->h = util_fnv1a(g->h, c->s, strlen(c->s) + 1);
        else if (c->type == DB_BLOB)
            g->h = util_fnv1a(g->h, c->s, c->n);
    }
    return 0;
}

/* Column list of table t without volatile columns (when rows were written, the row id of a
 * release, which depends on the order releases were first seen), comma-separated. */
static int column_list(db *d, const char *t, char *out, size_t cap)
{
    names cols = {.n = 0};
    db_sink sink = {.ctx = &cols, .row = name_row};
    db_bind b = {.type = DB_TEXT, .s = t};
    util_err e;
    util_err_clear(&e);
    if (db_exec(d,
                "SELECT name FROM pragma_table_info(?1) WHERE name NOT IN ('ingested_at', "
                "'release_id')",
                1, &b, &sink, &e) != 0)
        return -1;
    out[0] = 0;
    for (int i = 0; i < cols.n; i++) {
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "%s\"%s\"", i ? "," : "", cols.list[i]);
    }
    return cols.n;
}

/* Compare every table of the two databases. Returns the number of rows compared. */
static long compare_dbs(const char *pa, const char *pb)
{
    db *a = NULL, *b = NULL;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_open(&a, pa, DB_OPEN_READONLY, &e), 0);
    assert_int_equal(db_open(&b, pb, DB_OPEN_READONLY, &e), 0);
    names tables = {.n = 0};
    db_sink ns = {.ctx = &tables, .row = name_row};
    assert_int_equal(db_exec(a,
                             "SELECT name FROM pragma_table_list WHERE schema = 'main' AND "
                             "type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
                             0, NULL, &ns, &e),
                     0);
    assert_true(tables.n > 10);
    long total = 0;
    for (int i = 0; i < tables.n; i++) {
        char cols[4096], sql[8400];
        assert_true(column_list(a, tables.list[i], cols, sizeof cols) > 0);
        snprintf(sql, sizeof sql, "SELECT %s FROM \"%s\" ORDER BY %s", cols, tables.list[i], cols);
        digest da = {UTIL_FNV_INIT, 0}, dbb = {UTIL_FNV_INIT, 0};
        db_sink sa = {.ctx = &da, .row = digest_row}, sb = {.ctx = &dbb, .row = digest_row};
        assert_int_equal(db_exec(a, sql, 0, NULL, &sa, &e), 0);
        assert_int_equal(db_exec(b, sql, 0, NULL, &sb, &e), 0);
        if (da.rows != dbb.rows || da.h != dbb.h)
            fail_msg("table %s differs: %ld rows vs %ld", tables.list[i], da.rows, dbb.rows);
        total += da.rows;
    }
    db_close(a);
    db_close(b);
    return total;
}

static void ingest(const char *dbpath, const char *path, int jobs, db_ingest_stats *st)
{
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_open(&d, dbpath, DB_OPEN_READWRITE, &e), 0);
    db_ingest_opts o = {.game = PAK_GAME_UNKNOWN, .jobs = jobs, .quiet = 1};
    const char *paths[1] = {path};
    assert_int_equal(db_ingest_paths(d, paths, 1, &o, st, &e), 0);
    db_close(d);
}

static void test_jobs_same_rows(void **state)
{
    (void)state;
    char *dir = tu_tempdir();
    assert_non_null(dir);
    char corpus[4200], mp1[4300], a1[4200], a4[4200], b1[4200], b4[4200];
    snprintf(corpus, sizeof corpus, "%s/corpus", dir);
    snprintf(mp1, sizeof mp1, "%s/mp1", corpus);
    snprintf(a1, sizeof a1, "%s/a1.db", dir);
    snprintf(a4, sizeof a4, "%s/a4.db", dir);
    snprintf(b1, sizeof b1, "%s/b1.db", dir);
    snprintf(b4, sizeof b4, "%s/b4.db", dir);
    fixture_corpus_opts o = {.seed = 11, .scale = 0.05, .opaque_bytes = 0, .games = 3};
    util_err e;
    util_err_clear(&e);
    assert_int_equal(fixture_corpus_build(corpus, &o, NULL, NULL, &e), 0);

    /* bulk load into empty databases */
    db_ingest_stats s1, s4;
    ingest(a1, corpus, 1, &s1);
    ingest(a4, corpus, 4, &s4);
    assert_true(s1.ancs > 0 && s1.evnt > 0 && s1.characters > 0);
    assert_int_equal(s1.ancs, s4.ancs);
    assert_int_equal(s1.evnt, s4.evnt);
    assert_int_equal(s1.characters, s4.characters);
    assert_int_equal(s1.paks_ingested, s4.paks_ingested);
    assert_true(compare_dbs(a1, a4) > 1000);

    /* MP1 first, then everything: the second run adds MP2 outside a bulk load */
    ingest(b1, mp1, 1, &s1);
    ingest(b4, mp1, 4, &s4);
    ingest(b1, corpus, 1, &s1);
    ingest(b4, corpus, 4, &s4);
    assert_true(s1.paks_skipped > 0 && s1.paks_ingested > 0);
    assert_int_equal(s1.paks_skipped, s4.paks_skipped);
    assert_int_equal(s1.ancs, s4.ancs);
    assert_true(compare_dbs(b1, b4) > 1000);
    /* and the two ways of getting there agree */
    assert_true(compare_dbs(a1, b4) > 1000);

    assert_int_equal(tu_remove_tree(dir), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jobs_same_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
