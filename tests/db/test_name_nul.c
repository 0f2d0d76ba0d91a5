/* test_name_nul.c — a named-resource name holding a NUL byte (issue 11 item 5) is recorded
 * as a 'name_nul' warning with the byte's offset, not silently cut. Hand-built PAK
 * (docs/formats.md §2.2–2.3); the database read back with SQLite directly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db.h"
#include "testutil.h"

static void test_name_nul_warning(void **state)
{
    (void)state;
    /* header; named_count 1 at 0x08: (ANCS 33333333, 5 bytes "ab\0cd") at 0x0C, so the
     * NUL is at 0x0C + 12 + 2 = 0x1A; resource_count 0 at 0x1D; the file ends at 0x40 */
    util_wr w;
    util_wr_init(&w);
    util_wr_u32(&w, PAK_VERSION);
    util_wr_u32(&w, 0);
    util_wr_u32(&w, 1);
    util_wr_u32(&w, UTIL_FCC_ANCS);
    util_wr_u32(&w, 0x33333333);
    util_wr_u32(&w, 5);
    util_wr_bytes(&w, "ab\0cd", 5);
    util_wr_u32(&w, 0);
    util_wr_fill(&w, 0, 0x40 - w.len);
    size_t len;
    uint8_t *b = util_wr_take(&w, &len);

    char *dir = tu_tempdir();
    char path[512];
    snprintf(path, sizeof path, "%s/t.db", dir);
    db *d = NULL;
    util_err err;
    util_err_clear(&err);
    assert_int_equal(db_open(&d, path, DB_OPEN_READWRITE, &err), 0);
    db_ingest_opts o = {.game = PAK_GAME_MP1, .jobs = 1, .quiet = 1};
    db_ingest_stats st;
    memset(&st, 0, sizeof st);
    assert_int_equal(db_ingest_mem(d, "nul.pak", b, len, &o, &st, &err), 0);
    db_close(d);

    sqlite3 *q;
    assert_int_equal(sqlite3_open_v2(path, &q, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(q,
                                        "SELECT byte_offset, message FROM warnings "
                                        "WHERE code = 'name_nul'",
                                        -1, &s, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int64(s, 0), 0x1A);
    assert_non_null(strstr((const char *)sqlite3_column_text(s, 1), "NUL"));
    assert_int_equal(sqlite3_step(s), SQLITE_DONE);
    sqlite3_finalize(s);
    sqlite3_close(q);

    unlink(path);
    char side[600];
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-lock", path); /* the writer's lock file (db_open) */
    unlink(side);
    rmdir(dir);
    free(dir);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_name_nul_warning),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
