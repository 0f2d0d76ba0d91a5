/* test_census_growth.c — the final pass's census (db/census/, char_reach first: made there
 * for contents whose rows have none, as an earlier ancsdb wrote them, as here) grows
 * linearly with the animations of an ANCS: an MP1 set of 4 characters that all use every
 * animation, one Play node and one resource pair (listed in reverse order) per animation,
 * counted in SQLite virtual-machine steps (a progress handler), not in time. With N and 4N
 * animations the ratio is about 4 when each ANIM finds its EVNT by an index, about 16 when
 * each looks through all the pairs. The rows it writes are checked too: every character
 * reaches every EVNT. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "db.h"
#include "internal.h"
#include "testutil.h"

#define CHARS 4

static long g_steps;

static int count_step(void *ctx)
{
    (void)ctx;
    g_steps++;
    return 0;
}

static void exec_ok(db *d, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(d->h, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s: %.80s", msg ? msg : "?", sql);
}

static long one_int(db *d, const char *sql)
{
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_prepare_v2(d->h, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    long v = (long)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* Census steps for one ANCS with n animations, in a fresh database. */
static long census_steps(int n)
{
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_open(&d, ":memory:", DB_OPEN_READWRITE, &e), 0);
    char sql[512];
    exec_ok(d, "BEGIN;"
               "INSERT INTO contents (content_id, game, type, asset_id, hash, size, status) "
               "VALUES (1, 'MP1', 'ANCS', 1, 1, 100, 'ok')");
    for (int c = 0; c < CHARS; c++) {
        snprintf(sql, sizeof sql,
                 "INSERT INTO characters (game, ancs_id, content_id, char_index, char_id, "
                 "version, name) VALUES ('MP1', 1, 1, %d, %d, 1, 'c%d')",
                 c, c, c);
        exec_ok(d, sql);
    }
    for (int i = 0; i < n; i++) {
        for (int c = 0; c < CHARS; c++) {
            snprintf(sql, sizeof sql,
                     "INSERT INTO character_anims (game, ancs_id, content_id, char_index, seq, "
                     "anim_id, name, anim_index) VALUES ('MP1', 1, 1, %d, %d, %d, 'a', %d)",
                     c, i, i, i);
            exec_ok(d, sql);
        }
        snprintf(sql, sizeof sql,
                 "INSERT INTO anim_primitives (game, ancs_id, content_id, owner, owner_index, "
                 "seq, anim_asset_id) VALUES ('MP1', 1, 1, 'animation', %d, 0, %d)",
                 i, 0x10000 + i);
        exec_ok(d, sql);
        snprintf(sql, sizeof sql,
                 "INSERT INTO animation_resources (game, ancs_id, content_id, res_index, "
                 "anim_asset_id, evnt_asset_id) VALUES ('MP1', 1, 1, %d, %d, %d)",
                 n - 1 - i, 0x10000 + i, 0x20000 + i);
        exec_ok(d, sql);
    }
    exec_ok(d, "COMMIT;"
               /* what the assets rebuild leaves the census (db/assets.c): no PAKs here */
               "CREATE TEMP TABLE census_pak(rid INTEGER, game TEXT, field TEXT, value TEXT, "
               "count INTEGER)");
    g_steps = 0;
    sqlite3_progress_handler(d->h, 64, count_step, NULL);
    exec_ok(d, db_census_sql);
    sqlite3_progress_handler(d->h, 0, NULL, NULL);
    long steps = g_steps;
    /* every character reaches every ANIM's own EVNT (pair order does not matter) */
    assert_int_equal(one_int(d, "SELECT count(*) FROM char_reach WHERE dst_type = 'EVNT' AND "
                                "dst_id = 0x20000 + (k1)"),
                     (long)CHARS * n);
    assert_int_equal(one_int(d, "SELECT count(*) FROM char_reach WHERE dst_type = 'EVNT'"),
                     (long)CHARS * n);
    db_close(d);
    return steps;
}

static void test_char_reach_linear(void **state)
{
    (void)state;
    tu_assert_linear("census (animations)", 400, census_steps(400), census_steps(1600));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_char_reach_linear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
