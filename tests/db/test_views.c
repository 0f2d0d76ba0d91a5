/* test_views.c — every table holding asset IDs has its `v_` view, and each view shows each
 * ID of its table in hex with its name beside it (db/columns.h, CONTRACT.md "Names").
 *
 * Which columns hold IDs is what db/columns.h declares, checked against the file itself: a
 * new database (made by db_open) is walked with sqlite_master and pragma table_info, and
 * every column whose name ends in `_id` or `_strg` must be declared either an asset ID of its
 * table or a number that is none (DB_NOT_ASSET_COLUMNS). The views are then read with one row
 * in every table: each ID column holds 0x1A2B3C4D, so its view must print "1A2B3C4D". A file
 * whose views an older ancsdb wrote gets this one's on the next writer's open. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "columns.h"
#include "db.h"
#include "testutil.h"

typedef struct id_decl {
    const char *table, *column, *shown;
} id_decl;
#define T_ID(t, c, s, ty) {#t, #c, #s},
static const id_decl ids[] = {DB_ID_COLUMNS(T_ID)};
#define T_NOT(c) #c,
static const char *const not_assets[] = {DB_NOT_ASSET_COLUMNS(T_NOT)};
/* per view: the IDs it shows bare (B(column): no name beside it) */
#define T_IGN0()
#define T_IGN1(c)
#define T_IGN3(a, b, c)
#define T_BARE(c) #c,
#define T_VIEW_BARE(v, t, f)                                                                       \
    static const char *const bare_##v[] = {DBV_##v(T_IGN1, T_BARE, T_IGN0, T_IGN3) NULL};
DB_VIEWS(T_VIEW_BARE)
typedef struct view_decl {
    const char *name, *table;
    const char *const *bare;
} view_decl;
#define T_VIEW(v, t, f) {#v, #t, bare_##v},
static const view_decl views[] = {DB_VIEWS(T_VIEW)};
#define T_NOVIEW(t, why) #t,
static const char *const no_view[] = {DB_NO_VIEW(T_NOVIEW)};
typedef struct omit_decl {
    const char *view, *column;
} omit_decl;
#define T_OMIT(v, c, why) {#v, #c},
static const omit_decl omits[] = {DB_VIEW_OMITS(T_OMIT){NULL, NULL}}; /* NULL-ended */
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

#define ID_VALUE 439041101 /* 0x1A2B3C4D */

static int is_id(const char *table, const char *column, const id_decl **out)
{
    for (size_t i = 0; i < NELEM(ids); i++)
        if (!strcmp(ids[i].table, table) && !strcmp(ids[i].column, column)) {
            if (out)
                *out = &ids[i];
            return 1;
        }
    return 0;
}

static int in_list(const char *const *list, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(list[i], s))
            return 1;
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* A new database file in dir; its path (static). */
static const char *fresh_db(const char *dir, const char *name)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_open(&d, path, DB_OPEN_READWRITE, &e), 0);
    db_close(d);
    return path;
}

/* The ordinary tables of the file (no FTS5 index, no SQLite tables). */
static int tables(sqlite3 *h, char names[][64], int max)
{
    sqlite3_stmt *st = NULL;
    assert_int_equal(
        sqlite3_prepare_v2(h,
                           "SELECT name FROM sqlite_master WHERE type = 'table' AND "
                           "name NOT LIKE 'sqlite%' AND sql NOT LIKE 'CREATE VIRTUAL%' "
                           "AND name NOT LIKE 'asset_name_trigrams_%' ORDER BY name",
                           -1, &st, NULL),
        SQLITE_OK);
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW && n < max)
        snprintf(names[n++], 64, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return n;
}

static int columns(sqlite3 *h, const char *table, char names[][64], int max)
{
    char sql[256];
    sqlite3_stmt *st = NULL;
    snprintf(sql, sizeof sql, "SELECT name FROM pragma_table_info('%s') ORDER BY cid", table);
    assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW && n < max)
        snprintf(names[n++], 64, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return n;
}

static int has_column(sqlite3 *h, const char *table, const char *column)
{
    char names[128][64];
    int n = columns(h, table, names, 128);
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], column))
            return 1;
    return 0;
}

/* Every *_id / *_strg column is declared an ID of its table or no asset; every declared ID
 * column exists; no name is declared both ways. */
static void test_every_id_column_declared(void **state)
{
    (void)state;
    char *dir = tu_tempdir();
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open(fresh_db(dir, "a.db"), &h), SQLITE_OK);
    char t[128][64], c[128][64];
    int nt = tables(h, t, 128), bad = 0;
    assert_true(nt > 40);
    for (int i = 0; i < nt; i++) {
        int nc = columns(h, t[i], c, 128);
        for (int k = 0; k < nc; k++) {
            if (!ends_with(c[k], "_id") && !ends_with(c[k], "_strg"))
                continue;
            if (is_id(t[i], c[k], NULL) == in_list(not_assets, NELEM(not_assets), c[k])) {
                print_error("%s.%s: declare it in db/columns.h, an asset ID (DB_ID_COLUMNS) or "
                            "none (DB_NOT_ASSET_COLUMNS)\n",
                            t[i], c[k]);
                bad++;
            }
        }
    }
    for (size_t i = 0; i < NELEM(ids); i++)
        if (!has_column(h, ids[i].table, ids[i].column)) {
            print_error("db/columns.h declares %s.%s, which the schema lacks\n", ids[i].table,
                        ids[i].column);
            bad++;
        }
    sqlite3_close(h);
    tu_remove_tree(dir);
    free(dir);
    assert_int_equal(bad, 0);
}

/* Reads one text cell. */
static char *cell(sqlite3 *h, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK) {
        print_error("%s: %s\n", sql, sqlite3_errmsg(h));
        return NULL;
    }
    char *r = NULL;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
        r = strdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return r;
}

static int view_exists(sqlite3 *h, const char *name)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT name FROM sqlite_master WHERE type = 'view' AND name = '%s'",
             name);
    char *r = cell(h, sql);
    free(r);
    return r != NULL;
}

/* Each table holding an ID has a view of its own; the view prints each ID of the table as 8
 * hex digits, with the name beside it, in a row of a file with one row in every table. */
static void test_every_id_table_has_view(void **state)
{
    (void)state;
    char *dir = tu_tempdir();
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open(fresh_db(dir, "b.db"), &h), SQLITE_OK);
    char t[128][64], c[128][64];
    int nt = tables(h, t, 128), bad = 0;
    /* one row in every table: IDs 0x1A2B3C4D, every other column 0 (so the joins on pak_id,
     * content_id, char_index... find it); asset_names names the ID */
    for (int i = 0; i < nt; i++) {
        int nc = columns(h, t[i], c, 128);
        char sql[4096];
        int o = snprintf(sql, sizeof sql, "INSERT OR IGNORE INTO \"%s\" VALUES (", t[i]);
        for (int k = 0; k < nc; k++)
            o += snprintf(sql + o, sizeof sql - (size_t)o, "%s%s", k ? ", " : "",
                          is_id(t[i], c[k], NULL) ? "439041101" : "0");
        snprintf(sql + o, sizeof sql - (size_t)o, ")");
        char *msg = NULL;
        if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK) {
            print_error("%s: %s\n", sql, msg);
            bad++;
        }
        sqlite3_free(msg);
    }
    for (int i = 0; i < nt; i++) {
        const char *table = t[i];
        int holds = 0;
        for (size_t k = 0; k < NELEM(ids); k++)
            holds |= !strcmp(ids[k].table, table);
        if (!holds || in_list(no_view, NELEM(no_view), table))
            continue;
        int nviews = 0;
        for (size_t v = 0; v < NELEM(views); v++) {
            if (strcmp(views[v].table, table))
                continue;
            nviews++;
            const char *vn = views[v].name;
            if (!view_exists(h, vn)) {
                print_error("view %s of table %s is not in a new file\n", vn, table);
                bad++;
                continue;
            }
            for (size_t k = 0; k < NELEM(ids); k++) {
                if (strcmp(ids[k].table, table))
                    continue;
                int omitted = 0;
                for (size_t m = 0; omits[m].view; m++)
                    omitted |=
                        !strcmp(omits[m].view, vn) && !strcmp(omits[m].column, ids[k].column);
                if (omitted)
                    continue;
                char sql[512];
                snprintf(sql, sizeof sql, "SELECT [%s] FROM [%s]", ids[k].shown, vn);
                char *hex = cell(h, sql);
                if (!hex || strcmp(hex, "1A2B3C4D")) {
                    print_error("%s.%s: %s reads %s, want 1A2B3C4D\n", table, ids[k].column, sql,
                                hex ? hex : "nothing");
                    bad++;
                }
                free(hex);
                /* the name beside it, unless db/columns.h shows this ID bare */
                char name_col[96];
                snprintf(name_col, sizeof name_col, "%s_name", ids[k].shown);
                int bare = 0;
                for (const char *const *b = views[v].bare; *b; b++)
                    bare |= !strcmp(*b, ids[k].column);
                if (!has_column(h, vn, name_col)) {
                    if (!bare) {
                        print_error("%s: no column %s\n", vn, name_col);
                        bad++;
                    }
                } else {
                    snprintf(sql, sizeof sql, "SELECT [%s] FROM [%s]", name_col, vn);
                    char *nm = cell(h, sql);
                    if (!nm) {
                        print_error("%s.%s is NULL for a named ID\n", vn, name_col);
                        bad++;
                    }
                    free(nm);
                }
            }
        }
        if (!nviews) {
            print_error("table %s holds asset IDs and has no v_ view (db/columns.h DB_VIEWS)\n",
                        table);
            bad++;
        }
    }
    sqlite3_close(h);
    tu_remove_tree(dir);
    free(dir);
    assert_int_equal(bad, 0);
}

/* The CLI prints a column as an ID exactly when db/columns.h declares its name an ID. */
static void test_id_column_names(void **state)
{
    (void)state;
    for (size_t i = 0; i < NELEM(ids); i++)
        assert_true(db_is_id_column(ids[i].column));
    for (size_t i = 0; i < NELEM(not_assets); i++)
        assert_false(db_is_id_column(not_assets[i]));
    assert_true(db_is_id_column("through")); /* where-loaded's computed column */
    assert_false(db_is_id_column("char_index"));
    assert_false(db_is_id_column(NULL));
}

static char *views_of(const char *path)
{
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    char *r = cell(h, "SELECT group_concat(name || ':' || sql, ';') FROM (SELECT name, sql FROM "
                      "sqlite_master WHERE type = 'view' ORDER BY name)");
    sqlite3_close(h);
    assert_non_null(r);
    return r;
}

/* A file whose views an older ancsdb wrote (one missing, one different): a reader reads it
 * as it is, the next writer's open makes this ancsdb's views. */
static void test_old_views_made_again(void **state)
{
    (void)state;
    char *dir = tu_tempdir();
    char *want = views_of(fresh_db(dir, "new.db"));
    const char *path = fresh_db(dir, "old.db");
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    assert_int_equal(sqlite3_exec(h,
                                  "DROP VIEW v_strg; DROP VIEW v_ancs; CREATE VIEW v_ancs AS "
                                  "SELECT printf('%08X', asset_id) AS ancs FROM ancs",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(h);
    char *old = views_of(path);
    assert_string_not_equal(old, want);
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_open(&d, path, DB_OPEN_READONLY, &e), 0);
    db_close(d);
    char *after_read = views_of(path);
    assert_string_equal(after_read, old);
    assert_int_equal(db_open(&d, path, DB_OPEN_READWRITE, &e), 0);
    db_close(d);
    char *after_write = views_of(path);
    assert_string_equal(after_write, want);
    free(want);
    free(old);
    free(after_read);
    free(after_write);
    tu_remove_tree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_id_column_declared),
        cmocka_unit_test(test_every_id_table_has_view),
        cmocka_unit_test(test_id_column_names),
        cmocka_unit_test(test_old_views_made_again),
    };
    return tu_status(cmocka_run_group_tests(tests, NULL, NULL));
}
