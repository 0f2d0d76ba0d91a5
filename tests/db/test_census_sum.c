/* test_census_sum.c — the census's sum per set of releases (db/census_sum.c) gives the rows
 * of SQLite's own GROUP BY over the same rows (the statement it stands for, run here as the
 * expected value): NULL games and values apart from every text, a blob apart from the text
 * of the same bytes, '' apart from NULL, contents without a set of releases left out, and
 * more groups than the hash table's first size. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "db.h"
#include "internal.h"
#include "testutil.h"

static void exec_ok(db *d, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(d->h, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s: %.80s", msg ? msg : "?", sql);
}

/* Every row of sql as one text, rows in the order sql gives. */
static char *rows_text(db *d, const char *sql)
{
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_prepare_v2(d->h, sql, -1, &st, NULL), SQLITE_OK);
    size_t len = 0, cap = 1024;
    char *out = malloc(cap);
    assert_non_null(out);
    out[0] = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        for (int c = 0; c < sqlite3_column_count(st); c++) {
            char cell[256];
            int t = sqlite3_column_type(st, c);
            if (t == SQLITE_NULL)
                snprintf(cell, sizeof cell, "NULL|");
            else
                snprintf(cell, sizeof cell, "%s:%s|", t == SQLITE_BLOB ? "b" : "t",
                         (const char *)sqlite3_column_text(st, c));
            size_t n = strlen(cell);
            if (len + n + 2 > cap) {
                cap = (len + n + 2) * 2;
                out = realloc(out, cap);
                assert_non_null(out);
            }
            memcpy(out + len, cell, n + 1);
            len += n;
        }
        out[len++] = '\n';
        out[len] = 0;
    }
    sqlite3_finalize(st);
    return out;
}

static void test_sum_matches_group_by(void **state)
{
    (void)state;
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_open(&d, ":memory:", DB_OPEN_READWRITE, &e), 0);
    exec_ok(d, "CREATE TEMP TABLE census_cs(content_id INTEGER PRIMARY KEY, rs TEXT NOT NULL);"
               "CREATE TEMP TABLE census_acc(rs TEXT, rid INTEGER, game TEXT, field TEXT, "
               "value TEXT, count INTEGER);"
               "INSERT INTO temp.census_cs VALUES (1, '1'), (2, '1,2'), (3, '1'), (4, '2');"
               /* content 5 has no set of releases: left out */
               "INSERT INTO census_contents(content_id, game, field, value, count) VALUES "
               "(1, 'MP1', 'char.unknown_a', '0', 3), (3, 'MP1', 'char.unknown_a', '0', 4),"
               "(2, 'MP1', 'char.unknown_a', '0', 5), (1, 'MP1', 'char.unknown_a', '1', 1),"
               "(1, NULL, 'warning.x', 'ANCS', 2), (3, NULL, 'warning.x', 'ANCS', 2),"
               "(1, 'MP1', 'f', NULL, 7), (3, 'MP1', 'f', NULL, 1), (1, 'MP1', 'f', '', 9),"
               "(4, 'MP2', 'f', 'ab', 1), (4, 'MP2', 'f', CAST('ab' AS BLOB), 10),"
               "(5, 'MP1', 'char.unknown_a', '0', 100);");
    /* more groups than the table's first 1024 slots hold */
    exec_ok(d, "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 2999) "
               "INSERT INTO census_contents(content_id, game, field, value, count) "
               "SELECT 1 + i % 4, 'MP1', 'many', i % 1500, 1 FROM n");
    assert_int_equal(dbi_census_sum(d, &e), 0);
    static const char order[] = " ORDER BY rs, game, field, value, typeof(value), count";
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT rs, game, field, value, count FROM temp.census_acc%s", order);
    char *got = rows_text(d, sql);
    snprintf(sql, sizeof sql,
             "SELECT * FROM (SELECT s.rs, c.game, c.field, c.value, sum(c.count) AS count "
             "FROM census_contents c JOIN temp.census_cs s ON s.content_id = c.content_id "
             "GROUP BY s.rs, c.game, c.field, c.value)%s",
             order);
    char *want = rows_text(d, sql);
    assert_string_equal(got, want);
    /* and the cases by hand */
    assert_non_null(strstr(got, "t:1|t:MP1|t:char.unknown_a|t:0|t:7|\n"));
    assert_non_null(strstr(got, "t:1,2|t:MP1|t:char.unknown_a|t:0|t:5|\n"));
    assert_non_null(strstr(got, "t:1|NULL|t:warning.x|t:ANCS|t:4|\n"));
    assert_non_null(strstr(got, "t:1|t:MP1|t:f|NULL|t:8|\n"));
    assert_non_null(strstr(got, "t:1|t:MP1|t:f|t:|t:9|\n"));
    assert_non_null(strstr(got, "t:2|t:MP2|t:f|t:ab|t:1|\n"));
    assert_non_null(strstr(got, "t:2|t:MP2|t:f|b:ab|t:10|\n"));
    assert_null(strstr(got, "NULL|t:MP1|t:char.unknown_a|"));
    free(got);
    free(want);
    db_close(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sum_matches_group_by),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
