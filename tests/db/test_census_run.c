/* test_census_run.c — the census's steps done in C (db/census_run.c) give the rows of
 * SQLite's own GROUP BY over the same rows (the statements they stand for, run here as the
 * expected values). The sum per set of releases: NULL games and values apart from every
 * text, a blob apart from the text of the same bytes, '' apart from NULL, contents without
 * a set of releases left out, more groups than the hash table's first size. The counts per
 * content (`-- @count`): grouped by the group columns, not by the value alone; rows content
 * after content, and a content that comes back after another (counted again whole). The
 * parallel section (`-- @parallel`), run on a second connection of a database file: its
 * counts are the GROUP BY's and land where the section stands; when that connection cannot
 * run it (it writes a table: the connection reads only), it runs on the first. The
 * checkpointer (connection.c) copies committed WAL frames into the database file, and those
 * of a later commit when asked. The row
 * writer's census names every field the script counts. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "columns.h"
#include "db.h"
#include "internal.h"
#include "testutil.h"

static void exec_ok(db *d, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(d->h, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s: %.80s", msg ? msg : "?", sql);
}

static db *open_memory(void)
{
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_open(&d, ":memory:", DB_OPEN_READWRITE, &e), 0);
    return d;
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

/* A database with the TEMP tables the census script gives the sum step: the set of releases
 * of each content, and the table it fills. */
static db *open_sum_tables(void)
{
    db *d = open_memory();
    exec_ok(d, "CREATE TEMP TABLE census_cs(content_id INTEGER PRIMARY KEY, rs TEXT NOT NULL);"
               "CREATE TEMP TABLE census_acc(rs TEXT, rid INTEGER, game TEXT, field TEXT, "
               "value TEXT, count INTEGER)");
    return d;
}

static void test_sum_matches_group_by(void **state)
{
    (void)state;
    db *d = open_sum_tables();
    util_err e;
    util_err_clear(&e);
    exec_ok(d, "INSERT INTO temp.census_cs VALUES (1, '1'), (2, '1,2'), (3, '1'), (4, '2');"
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
    assert_int_equal(dbi_census_sum(d, NULL, &e), 0);
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

/* The second connection sums census_contents with the rows it counted itself (its
 * temp.census_out, not in census_contents yet): a group may have rows in both. */
static void test_sum_with_counted_rows(void **state)
{
    (void)state;
    db *d = open_sum_tables();
    util_err e;
    util_err_clear(&e);
    exec_ok(d, "CREATE TEMP TABLE census_out(content_id INTEGER, game TEXT, field TEXT, "
               "value TEXT, count INTEGER);"
               "INSERT INTO temp.census_cs VALUES (1, '1'), (2, '1,2'), (3, '1');"
               "INSERT INTO census_contents(content_id, game, field, value, count) VALUES "
               "(1, 'MP1', 'f', '0', 3), (2, 'MP1', 'f', '0', 5);"
               /* content 3's count joins content 1's group; content 4 has no set */
               "INSERT INTO temp.census_out VALUES (3, 'MP1', 'f', '0', 4), "
               "(2, 'MP1', 'mlvl.x', '7', 2), (4, 'MP1', 'f', '0', 100);");
    assert_int_equal(dbi_census_sum(d, "temp.census_out", &e), 0);
    char *got = rows_text(d, "SELECT rs, game, field, value, sum(count) FROM temp.census_acc "
                             "GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4");
    assert_string_equal(got, "t:1|t:MP1|t:f|t:0|t:7|\n"
                             "t:1,2|t:MP1|t:f|t:0|t:5|\n"
                             "t:1,2|t:MP1|t:mlvl.x|t:7|t:2|\n");
    free(got);
    db_close(d);
}

/* A script counts the rows of temp.src (content_id, g, v, k) in the order of its rowids:
 * field 'f' by v (value v || '!', 'none' for NULL), field 'k' by k (one value for every k). */
static void count_and_compare(db *d, const char *expect)
{
    util_err e;
    util_err_clear(&e);
    exec_ok(d, "DELETE FROM census_contents");
    assert_int_equal(dbi_census_run(d,
                                    "-- a comment\n"
                                    "CREATE TEMP TABLE IF NOT EXISTS t0(x);\n"
                                    "-- @count\n"
                                    "SELECT content_id, g, 'f', CASE WHEN v IS NULL THEN 'none' "
                                    "ELSE v || '!' END, v FROM temp.src;\n"
                                    "-- @count\n"
                                    "SELECT content_id, g, 'k', 'one value', k FROM temp.src "
                                    "WHERE k IS NOT NULL;\n",
                                    NULL, &e),
                     0);
    static const char order[] = " ORDER BY content_id, game, field, value, count";
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT content_id, game, field, value, count FROM census_contents%s",
             order);
    char *got = rows_text(d, sql);
    snprintf(sql, sizeof sql,
             "SELECT * FROM (SELECT content_id, g AS game, 'f' AS field, CASE WHEN v IS NULL "
             "THEN 'none' ELSE v || '!' END AS value, count(*) AS count FROM temp.src GROUP "
             "BY content_id, g, v UNION ALL SELECT content_id, g, 'k', 'one value', count(*) "
             "FROM temp.src WHERE k IS NOT NULL GROUP BY content_id, g, k)%s",
             order);
    char *want = rows_text(d, sql);
    assert_string_equal(got, want);
    /* by hand: two groups of one value (k = 1 and k = 2 of content 1); NULL v counted */
    assert_non_null(strstr(got, expect));
    assert_non_null(strstr(got, "t:2|t:MP2|t:f|t:none|t:2|"));
    free(got);
    free(want);
}

static void test_count_matches_group_by(void **state)
{
    (void)state;
    db *d = open_memory();
    util_err e;
    util_err_clear(&e);
    exec_ok(d, "CREATE TEMP TABLE src(content_id INTEGER, g TEXT, v TEXT, k INTEGER);"
               "INSERT INTO temp.src VALUES (1, 'MP1', 'a', 1), (1, 'MP1', 'a', 1), "
               "(1, 'MP1', 'b', 2), (1, 'MP1', NULL, NULL), (2, 'MP2', NULL, 5), "
               "(2, 'MP2', NULL, 5), (2, 'MP2', 'a', NULL), (3, 'MP1', 'a', 1)");
    count_and_compare(d, "t:1|t:MP1|t:k|t:one value|t:1|\nt:1|t:MP1|t:k|t:one value|t:2|");
    /* content 1 comes back after 2 and 3: counted again with the content in the key */
    exec_ok(d, "INSERT INTO temp.src VALUES (1, 'MP1', 'a', 1), (1, 'MP1', 'c', NULL)");
    count_and_compare(d, "t:1|t:MP1|t:k|t:one value|t:1|\nt:1|t:MP1|t:k|t:one value|t:3|");
    db_close(d);
}

/* More groups than the table holds at once (GROUPS_MAX, 65,536): written in parts, whose
 * sums per group are the GROUP BY's. */
static void test_sum_in_parts(void **state)
{
    (void)state;
    db *d = open_sum_tables();
    util_err e;
    util_err_clear(&e);
    exec_ok(d, "INSERT INTO temp.census_cs VALUES (1, '1'), (2, '2');"
               "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 159999) "
               "INSERT INTO census_contents(content_id, game, field, value, count) "
               "SELECT 1 + i % 2, 'MP1', 'many', i % 80000, 1 + i % 3 FROM n");
    assert_int_equal(dbi_census_sum(d, NULL, &e), 0);
    char *got = rows_text(d, "SELECT rs, game, field, value, sum(count) FROM temp.census_acc "
                             "GROUP BY rs, game, field, value ORDER BY 1, 2, 3, 4");
    char *want = rows_text(d, "SELECT s.rs, c.game, c.field, c.value, sum(c.count) FROM "
                              "census_contents c JOIN temp.census_cs s ON s.content_id = "
                              "c.content_id GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4");
    assert_string_equal(got, want);
    free(got);
    free(want);
    sqlite3_stmt *st = NULL;
    assert_int_equal(
        sqlite3_prepare_v2(d->h, "SELECT count(*) FROM temp.census_acc", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_true(sqlite3_column_int64(st, 0) > 80000); /* 80,000 groups, some written twice */
    sqlite3_finalize(st);
    db_close(d);
}

/* A committed table src(content_id, g, v) of rows by hand, and a table marker. */
static const char src_rows[] =
    "CREATE TABLE src(content_id INTEGER, g TEXT, v TEXT); CREATE TABLE marker(x);"
    "INSERT INTO src VALUES (1, 'MP1', 'a'), (1, 'MP1', 'a'), (1, 'MP1', NULL), "
    "(2, 'MP2', 'b'), (3, 'MP1', 'a'), (3, 'MP1', 'c'), (3, 'MP1', 'c')";

/* A database file in a new folder (*dir: free with tu_remove_tree and free), in WAL mode,
 * with src_rows. */
static db *open_file_with_src(char **dir)
{
    *dir = tu_tempdir();
    assert_non_null(*dir);
    char path[512];
    snprintf(path, sizeof path, "%s/census.db", *dir);
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_open(&d, path, DB_OPEN_READWRITE, &e), 0);
    exec_ok(d, src_rows);
    return d;
}

/* census_contents after a script with a writer's row ('w'), the parallel section and
 * another writer's row ('z'): the GROUP BY's rows, the section's between the two others.
 * section_head: statements before the section's count; prior: rows census_contents holds
 * before (as many as the section's or more: its index is kept up to date, fewer: built
 * again after them); either way it is there after, and whole. */
static void run_parallel_script(db *d, const char *section_head, int want_helper, int prior)
{
    char script[1024];
    snprintf(script, sizeof script,
             "INSERT INTO census_contents VALUES (0, 'MP1', 'w', 'first', 1);\n"
             "-- @parallel\n"
             "%s"
             "-- @count\n"
             "SELECT content_id, g, 'f', ifnull(v, 'none'), v FROM src;\n"
             "-- @end parallel\n"
             "INSERT INTO census_contents VALUES (9, 'MP2', 'z', 'last', 1);\n",
             section_head);
    util_err e;
    util_err_clear(&e);
    exec_ok(d, "DELETE FROM census_contents");
    char fill[300];
    snprintf(fill, sizeof fill,
             "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < %d) "
             "INSERT INTO census_contents SELECT 1000 + i, 'MP1', 'p', 'prior', 1 FROM c",
             prior);
    if (prior > 0)
        exec_ok(d, fill);
    census_helper *h = dbi_census_helper_start(d, script);
    assert_true((h != NULL) == want_helper);
    exec_ok(d, "BEGIN");
    assert_int_equal(dbi_census_run(d, script, h, &e), 0);
    exec_ok(d, "COMMIT");
    dbi_census_helper_free(h);
    char *got = rows_text(d, "SELECT content_id, game, field, value, count FROM "
                             "census_contents WHERE field <> 'p' ORDER BY 1, 2, 3, 4");
    char *want = rows_text(d, "SELECT * FROM (SELECT 0, 'MP1', 'w', 'first', 1 UNION ALL "
                              "SELECT content_id, g, 'f', ifnull(v, 'none'), count(*) FROM "
                              "src GROUP BY content_id, g, v UNION ALL "
                              "SELECT 9, 'MP2', 'z', 'last', 1) ORDER BY 1, 2, 3, 4");
    assert_string_equal(got, want);
    free(got);
    free(want);
    /* in the script's order: the section's rows between the two others */
    char *ends = rows_text(d, "SELECT (SELECT field FROM census_contents WHERE field <> 'p' "
                              "ORDER BY rowid LIMIT 1), (SELECT field FROM census_contents ORDER "
                              "BY rowid DESC LIMIT 1), (SELECT count(*) FROM census_contents "
                              "WHERE field = 'p')");
    char want_ends[64];
    snprintf(want_ends, sizeof want_ends, "t:w|t:z|t:%d|\n", prior > 0 ? prior : 0);
    assert_string_equal(ends, want_ends);
    free(ends);
    char *idx = rows_text(d, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND "
                             "name = 'census_contents_content'");
    assert_string_equal(idx, "t:1|\n");
    free(idx);
    char *ok = rows_text(d, "PRAGMA integrity_check");
    assert_string_equal(ok, "t:ok|\n");
    free(ok);
}

static void test_parallel_section(void **state)
{
    (void)state;
    char *dir = NULL;
    db *d = open_file_with_src(&dir);
    run_parallel_script(d, "CREATE TEMP TABLE t1(x);\n", 1, 0);
    run_parallel_script(d, "CREATE TEMP TABLE t1(x);\n", 1, 40);
    /* the section's census_sets and census_acc, which the rest of the census script reads,
     * are made on the first connection too, with their rows in their order */
    run_parallel_script(d,
                        "CREATE TEMP TABLE census_sets(rs TEXT NOT NULL, release_id INTEGER);\n"
                        "INSERT INTO census_sets VALUES ('1,2', 2), ('1', 1), ('1,2', 1);\n"
                        "CREATE TEMP TABLE census_acc(rs TEXT, count INTEGER);\n"
                        "INSERT INTO census_acc VALUES (NULL, 3), ('1', NULL);\n",
                        1, 0);
    char *sets = rows_text(d, "SELECT rs, release_id FROM temp.census_sets ORDER BY rowid");
    assert_string_equal(sets, "t:1,2|t:2|\nt:1|t:1|\nt:1,2|t:1|\n");
    free(sets);
    char *acc = rows_text(d, "SELECT * FROM temp.census_acc ORDER BY rowid");
    assert_string_equal(acc, "NULL|t:3|\nt:1|NULL|\n");
    free(acc);
    char *decl = rows_text(d, "SELECT sql FROM temp.sqlite_master WHERE name = 'census_sets'");
    assert_string_equal(decl,
                        "t:CREATE TABLE census_sets(rs TEXT NOT NULL, release_id INTEGER)|\n");
    free(decl);
    exec_ok(d, "DROP TABLE temp.census_sets; DROP TABLE temp.census_acc");
    db_close(d);
    assert_int_equal(tu_remove_tree(dir), 0);
    free(dir);
}

/* The second connection cannot write the main database: the section fails there and runs
 * here, whole (one marker row, the counts once). */
static void test_parallel_section_falls_back(void **state)
{
    (void)state;
    char *dir = NULL;
    db *d = open_file_with_src(&dir);
    run_parallel_script(d, "INSERT INTO marker VALUES (1);\n", 1, 0);
    char *marks = rows_text(d, "SELECT count(*) FROM marker");
    assert_string_equal(marks, "t:1|\n");
    free(marks);
    db_close(d);
    assert_int_equal(tu_remove_tree(dir), 0);
    free(dir);
    /* no file: no second connection, the section runs here */
    d = open_memory();
    exec_ok(d, src_rows);
    run_parallel_script(d, "", 0, 0);
    db_close(d);
}

static long long file_size(const char *path)
{
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    return (long long)sb.st_size;
}

/* Committed with no checkpoint, ~2 MB of rows stay in the WAL; the checkpointer's
 * connection copies them into the database file. No file: no checkpointer. */
static void test_checkpointer(void **state)
{
    (void)state;
    char *dir = NULL;
    db *d = open_file_with_src(&dir);
    char path[512];
    snprintf(path, sizeof path, "%s/census.db", dir);
    exec_ok(d, "PRAGMA wal_autocheckpoint = 0; CREATE TABLE big(b);"
               "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1999) "
               "INSERT INTO big SELECT zeroblob(1000) FROM n");
    long long before = file_size(path);
    db_checkpointer *c = dbi_checkpoint_start(d);
    assert_non_null(c);
    assert_int_equal(dbi_checkpoint_finish(c), 1);
    assert_true(file_size(path) > before + 2000 * 1000);
    /* one more asked for after a commit: finish waits for it too */
    c = dbi_checkpoint_start(d);
    assert_non_null(c);
    exec_ok(d, "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1999) "
               "INSERT INTO big SELECT zeroblob(1000) FROM n");
    dbi_checkpoint_more(c);
    assert_int_equal(dbi_checkpoint_finish(c), 2);
    assert_true(file_size(path) > before + 4000 * 1000);
    db_close(d);
    assert_int_equal(tu_remove_tree(dir), 0);
    free(dir);
    d = open_memory();
    assert_null(dbi_checkpoint_start(d));
    db_close(d);
}

/* A reader thread (dbi_reader_start): fn on a connection of its own, which the thread
 * opens and sets up; with setup that fails, fn does not run and the join says so (its
 * caller then does the work itself). */
static int count_src(db *rd, void *arg, util_err *err)
{
    int64_t src = 0, t = 0;
    int rc = dbi_query_int(rd, "SELECT count(*) FROM src", &src, err);
    if (!rc)
        rc = dbi_query_int(rd, "SELECT count(*) FROM temp.t", &t, err);
    *(int64_t *)arg = rc ? -2 : src + 100 * t; /* no cmocka call: this is the reader's thread */
    return rc;
}

static void test_reader(void **state)
{
    (void)state;
    char *dir = NULL;
    db *d = open_file_with_src(&dir);
    int64_t got = -1;
    db_reader *r = dbi_reader_start(
        d, "PRAGMA query_only = 0; CREATE TEMP TABLE t(x); INSERT INTO t VALUES (1)", count_src,
        &got);
    assert_non_null(r);
    assert_int_equal(dbi_reader_join(r), 0);
    assert_int_equal(got, 107); /* src's 7 rows, and the setup's one */
    dbi_reader_free(r);
    got = -1;
    r = dbi_reader_start(d, "NOT SQL", count_src, &got);
    assert_non_null(r);
    assert_int_not_equal(dbi_reader_join(r), 0);
    assert_int_equal(got, -1);
    dbi_reader_free(r);
    db_close(d);
    assert_int_equal(tu_remove_tree(dir), 0);
    free(dir);
}

/* The row writer's census (db/census_rows.c) counts every field of DB_CENSUS_FIELDS, named
 * as there: a field added to db/columns.h without its count in C fails here. */
#define FIELD_CV(f, t, c, w)    f,
#define FIELD_CX(f, t, v, w, g) f,
static void test_rows_count_every_field(void **state)
{
    (void)state;
    static const char *const want[] = {DB_CENSUS_FIELDS(FIELD_CV, FIELD_CX) NULL};
    size_t n = 0;
    for (; want[n]; n++) {
        if (!dbi_census_fields[n])
            fail_msg("census_rows.c does not count %s", want[n]);
        assert_string_equal(dbi_census_fields[n], want[n]);
    }
    assert_null(dbi_census_fields[n]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sum_matches_group_by),
        cmocka_unit_test(test_sum_with_counted_rows),
        cmocka_unit_test(test_count_matches_group_by),
        cmocka_unit_test(test_sum_in_parts),
        cmocka_unit_test(test_parallel_section),
        cmocka_unit_test(test_parallel_section_falls_back),
        cmocka_unit_test(test_checkpointer),
        cmocka_unit_test(test_reader),
        cmocka_unit_test(test_rows_count_every_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
