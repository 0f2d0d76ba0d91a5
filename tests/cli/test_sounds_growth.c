/* test_sounds_growth.c — the named query sounds grows linearly with the sounds: MP2 ANCS of
 * 4 characters that all use the set's one animation, whose event set is one sound node of the
 * set's own sound ID (rows written by hand), counted in SQLite virtual-machine steps (a progress
 * handler), not in time. With N and 4N sounds the ratio is about 4 when each sound's
 * characters and example are made once, about 16 when each sound looks through every play.
 * The rows are checked too: one per sound, each with one node, 4 characters and character 0
 * as the example. */
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
#include "testutil.h"

extern const char *const ancsdb_embedded_queries[][2];

#define CHARS    4
#define ANCS_ID  0x1000  /* + sound index */
#define SOUND_ID 0x10000 /* + sound index */

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

static int64_t int_at(const db_rows *t, size_t row, const char *col)
{
    int c = db_rows_col(t, col);
    assert_true(c >= 0);
    const db_cell *x = db_rows_at(t, row, c);
    assert_int_equal(x->type, DB_INT);
    return x->i;
}

static const char *text_at(const db_rows *t, size_t row, const char *col)
{
    int c = db_rows_col(t, col);
    assert_true(c >= 0);
    const db_cell *x = db_rows_at(t, row, c);
    return x->type == DB_TEXT ? x->s : NULL;
}

/* Steps of `sounds` (every event) over n ANCS, in a fresh database: ANCS i has CHARS
 * characters that all use its one animation, whose event set is one sound node of sound i. */
static long sounds_steps(int n)
{
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_open(&d, ":memory:", DB_OPEN_READWRITE, &e), 0);
    char sql[512];
    exec_ok(d, "BEGIN");
    for (int i = 0; i < n; i++) {
        for (int c = 0; c < CHARS; c++) {
            snprintf(sql, sizeof sql,
                     "INSERT INTO characters (game, ancs_id, content_id, char_index, char_id, "
                     "version, name) VALUES ('MP2', %d, %d, %d, %d, 1, 'c%d')",
                     ANCS_ID + i, i, c, c, c);
            exec_ok(d, sql);
            snprintf(sql, sizeof sql,
                     "INSERT INTO character_anims (game, ancs_id, content_id, char_index, seq, "
                     "anim_id, name, anim_index) VALUES ('MP2', %d, %d, %d, 0, 0, 'a', 0)",
                     ANCS_ID + i, i, c);
            exec_ok(d, sql);
        }
        snprintf(sql, sizeof sql,
                 "INSERT INTO events (game, owner_type, owner_id, anim_index, kind, node_index, "
                 "char_index, sound_id, content_id) VALUES ('MP2', 'ANCS', %d, 0, 'sound', 0, "
                 "-1, %d, %d)",
                 ANCS_ID + i, SOUND_ID + i, i);
        exec_ok(d, sql);
    }
    exec_ok(d, "COMMIT");
    const char *q = cli_query_lookup(ancsdb_embedded_queries, "sounds");
    assert_non_null(q);
    db_bind bind = {DB_NULL, 0, NULL};
    db_rows rows;
    memset(&rows, 0, sizeof rows);
    g_steps = 0;
    sqlite3_progress_handler(d->h, 64, count_step, NULL);
    int rc = db_exec_rows(&rows, d, q, 1, &bind, &e);
    sqlite3_progress_handler(d->h, 0, NULL, NULL);
    if (rc != 0)
        fail_msg("sounds: %s", e.msg);
    long steps = g_steps;

    assert_int_equal(rows.nrows, (size_t)n);
    for (size_t k = 0; k < rows.nrows; k++) {
        char want[64];
        snprintf(want, sizeof want, "0x%08X", SOUND_ID + (unsigned)k);
        assert_string_equal(text_at(&rows, k, "game"), "MP2");
        assert_string_equal(text_at(&rows, k, "sound_id"), want);
        assert_int_equal(int_at(&rows, k, "nodes"), 1);
        assert_int_equal(int_at(&rows, k, "characters"), CHARS);
        snprintf(want, sizeof want, "ANCS %08X character 0 'c0' > animation 0",
                 ANCS_ID + (unsigned)k);
        assert_string_equal(text_at(&rows, k, "example"), want);
    }
    db_rows_free(&rows);
    db_close(d);
    return steps;
}

static void test_sounds_linear(void **state)
{
    (void)state;
    tu_assert_linear("sounds", 100, sounds_steps(100), sounds_steps(400));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sounds_linear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
