/* test_robust_oob.c — an entry of any type whose offset + size runs past the file is a
 * load_errors row (PAK, entry index, type, ID, offset) and counts as an error of the run
 * (issue 11 item 2). Hand-built PAK (docs/formats.md §2.2–2.4); read back with SQLite. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db.h"
#include "testutil.h"

#define FCC(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

static void test_oob_cmdl_is_load_error(void **state)
{
    (void)state;
    /* header (version, unused, named_count 0), resource_count 2 at 0x0C, entries of 20 bytes
     * from 0x10: STRG 11111111 in bounds at 0x40 (0x20 bytes), CMDL 22222222 at 0x60 of size
     * 0x100 in a file of 0x80 bytes. */
    util_wr w;
    util_wr_init(&w);
    util_wr_u32(&w, PAK_VERSION);
    util_wr_u32(&w, 0);
    util_wr_u32(&w, 0);
    util_wr_u32(&w, 2);
    util_wr_u32(&w, 0);
    util_wr_u32(&w, FCC('S', 'T', 'R', 'G'));
    util_wr_u32(&w, 0x11111111);
    util_wr_u32(&w, 0x20);
    util_wr_u32(&w, 0x40);
    util_wr_u32(&w, 0);
    util_wr_u32(&w, FCC('C', 'M', 'D', 'L'));
    util_wr_u32(&w, 0x22222222);
    util_wr_u32(&w, 0x100);
    util_wr_u32(&w, 0x60);
    util_wr_fill(&w, 0, 0x80 - w.len);
    size_t len;
    uint8_t *b = util_wr_take(&w, &len);
    assert_int_equal(len, 0x80);

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
    assert_int_equal(db_ingest_mem(d, "oob.pak", b, len, &o, &st, &err), 0);
    assert_int_equal(st.errors, 1); /* the CLI's exit 1 */
    db_close(d);

    sqlite3 *q;
    assert_int_equal(sqlite3_open_v2(path, &q, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(q,
                                        "SELECT pak_path, entry_index, type, asset_id, "
                                        "byte_offset, stage FROM load_errors",
                                        -1, &s, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(s, 0), "oob.pak");
    assert_int_equal(sqlite3_column_int64(s, 1), 1);
    assert_string_equal((const char *)sqlite3_column_text(s, 2), "CMDL");
    assert_int_equal(sqlite3_column_int64(s, 3), 0x22222222);
    assert_int_equal(sqlite3_column_int64(s, 4), 0x60);
    assert_string_equal((const char *)sqlite3_column_text(s, 5), "inflate"); /* CONTRACT.md */
    assert_int_equal(sqlite3_step(s), SQLITE_DONE);
    sqlite3_finalize(s);
    sqlite3_close(q);

    char side[600];
    unlink(path);
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
        cmocka_unit_test(test_oob_cmdl_is_load_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
