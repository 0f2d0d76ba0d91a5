/* test_where_loaded_growth.c — the named query where-loaded grows linearly with its hits: an
 * MP1 world built by hand whose every area lists one PART in both its layers, ingested as two
 * releases, queried with N and 4N areas and counted in SQLite virtual-machine steps (a
 * progress handler), not in time. The ratio is about 4 when each output row's `releases` is
 * made once, about 16 when each row looks through all the others. The rows are checked too:
 * one per (area, layer), in area and layer order, both releases in label order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "cli.h"
#include "db.h"
#include "internal.h"
#include "pak.h"
#include "testutil.h"
#include "world.h"

extern const char *const ancsdb_embedded_queries[][2];

#define PART_ID 0x31000000u /* the asset every layer lists */
#define TXTR_ID 0x32000000u /* listed by layer 0 only: not a hit */
#define MLVL_ID 0x61000000u
#define MREA_ID 0x63000000u /* + area index */

static long g_steps;

static int count_step(void *ctx)
{
    (void)ctx;
    g_steps++;
    return 0;
}

/* The PAK of one MP1 world of n areas, each with layers "L0" (active: the PART, then a
 * TXTR) and "L1" (inactive: the PART); caller free()s *out. */
static void world_pak(uint8_t **out, size_t *len, int n)
{
    util_arena ar;
    util_arena_init(&ar);
    util_err err;
    util_err_clear(&err);
    world_mlvl m;
    memset(&m, 0, sizeof m);
    m.version = WORLD_MLVL_MP1;
    m.world_name_strg = WORLD_NONE;
    m.dark_world_name_strg = WORLD_NONE;
    m.temple_key_world_index = WORLD_NONE;
    m.savw_id = WORLD_NONE;
    m.default_skybox_id = WORLD_NONE;
    m.unknown_after_area_count = 1;
    m.unknown_string = "";
    m.mapw_id = WORLD_NONE;
    world_area *areas = calloc((size_t)n, sizeof *areas);
    world_dep *deps = calloc((size_t)n * 3, sizeof *deps);
    world_layer *layers = calloc((size_t)n * 2, sizeof *layers);
    assert_true(areas && deps && layers);
    m.area_count = (uint32_t)n;
    m.areas = areas;
    for (int i = 0; i < n; i++) {
        world_area *a = &areas[i];
        world_dep *d = &deps[i * 3];
        world_layer *l = &layers[i * 2];
        a->name_strg = WORLD_NONE;
        a->mrea_id = MREA_ID + (uint32_t)i;
        a->area_id = (uint32_t)i;
        d[0] = (world_dep){PART_ID, UTIL_FCC_PART, 0, 0};
        d[1] = (world_dep){TXTR_ID, UTIL_FCC_TXTR, 0, 0};
        d[2] = (world_dep){PART_ID, UTIL_FCC_PART, 0, 0};
        l[0] = (world_layer){"L0", 1, 0, 2, 0, 0};
        l[1] = (world_layer){"L1", 0, 0, 1, 0, 0};
        a->dep_count = 3;
        a->deps = d;
        a->layer_count = 2;
        a->layers = l;
    }
    assert_int_equal(world_mlvl_pack(&m, &ar, &err), 0);
    util_wr w;
    util_wr_init(&w);
    assert_int_equal(world_mlvl_encode(&w, &m, &err), 0);
    pak_builder *b = pak_builder_new();
    assert_non_null(b);
    assert_int_equal(pak_builder_add(b, UTIL_FCC_MLVL, MLVL_ID, w.buf, w.len, PAK_CODEC_NONE, &err),
                     0);
    assert_int_equal(pak_builder_finish_mem(b, out, len, &err), 0);
    pak_builder_free(b);
    util_wr_free(&w);
    free(layers);
    free(deps);
    free(areas);
    util_arena_free(&ar);
}

static const char *text_at(const db_rows *t, size_t row, const char *col)
{
    int c = db_rows_col(t, col);
    assert_true(c >= 0);
    const db_cell *x = db_rows_at(t, row, c);
    return x->type == DB_TEXT ? x->s : NULL;
}

static int64_t int_at(const db_rows *t, size_t row, const char *col)
{
    int c = db_rows_col(t, col);
    assert_true(c >= 0);
    const db_cell *x = db_rows_at(t, row, c);
    assert_int_equal(x->type, DB_INT);
    return x->i;
}

/* Steps of `where-loaded PART 31000000` over a world of n areas, in a fresh database holding
 * it as releases R2 and R1 (ingested in that order); the rows are checked. */
static long where_loaded_steps(int n)
{
    uint8_t *pak = NULL;
    size_t len = 0;
    world_pak(&pak, &len, n);
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_open(&d, ":memory:", DB_OPEN_READWRITE, &e), 0);
    const char *rel[2] = {"R2", "R1"};
    for (int r = 0; r < 2; r++) {
        char name[32];
        snprintf(name, sizeof name, "%s/w.pak", rel[r]);
        db_ingest_opts o = {.game = PAK_GAME_MP1, .jobs = 1, .quiet = 1, .release = rel[r]};
        db_ingest_stats st;
        memset(&st, 0, sizeof st);
        if (db_ingest_mem(d, name, pak, len, &o, &st, &e) != 0)
            fail_msg("ingest of %s: %s", name, e.msg);
    }
    const char *sql = cli_query_lookup(ancsdb_embedded_queries, "where-loaded");
    assert_non_null(sql);
    db_bind binds[2] = {{DB_TEXT, 0, "PART"}, {DB_INT, PART_ID, NULL}};
    db_rows rows;
    memset(&rows, 0, sizeof rows);
    g_steps = 0;
    sqlite3_progress_handler(d->h, 64, count_step, NULL);
    int rc = db_exec_rows(&rows, d, sql, 2, binds, &e);
    sqlite3_progress_handler(d->h, 0, NULL, NULL);
    if (rc != 0)
        fail_msg("where-loaded: %s", e.msg);
    long steps = g_steps;

    assert_int_equal(rows.nrows, (size_t)n * 2);
    for (size_t k = 0; k < rows.nrows; k++) {
        int area = (int)(k / 2), layer = (int)(k % 2);
        assert_string_equal(text_at(&rows, k, "game"), "MP1");
        assert_int_equal(int_at(&rows, k, "mlvl_id"), MLVL_ID);
        assert_int_equal(int_at(&rows, k, "area_index"), area);
        assert_int_equal(int_at(&rows, k, "layer_index"), layer);
        assert_string_equal(text_at(&rows, k, "layer"), layer ? "L1" : "L0");
        assert_int_equal(int_at(&rows, k, "active"), layer ? 0 : 1);
        assert_int_equal(int_at(&rows, k, "mrea_id"), MREA_ID + (uint32_t)area);
        assert_null(text_at(&rows, k, "through"));
        assert_string_equal(text_at(&rows, k, "releases"), "R1, R2");
    }
    db_rows_free(&rows);
    db_close(d);
    free(pak);
    return steps;
}

static void test_where_loaded_linear(void **state)
{
    (void)state;
    tu_assert_linear("where-loaded (areas)", 150, where_loaded_steps(150), where_loaded_steps(600));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_where_loaded_linear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
