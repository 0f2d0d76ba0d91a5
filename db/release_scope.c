/* release_scope.c — `ancsdb query --release LABEL[,LABEL...]`: the connection sees those
 * releases only (one label, or several separated by commas). TEMP
 * views and tables named like the tables (paks, pak_entries, assets, contents and every table
 * of decoded rows) hold that release's rows; SQLite resolves unqualified names to the temp
 * schema first, so every named query runs unchanged. Works on read-only connections (the
 * temp schema is the connection's own). The views of main are made again in temp, so that
 * they read the scoped tables too. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "internal.h"

/* The rows of the releases in scope (temp.scope_releases, filled by scope_ids). */
#define SCOPED "release_id IN (SELECT release_id FROM temp.scope_releases)"

static int fail(sqlite3 *h, util_err *err, const char *what)
{
    return util_fail(err, UTIL_ESQL, UINT64_MAX, "%s: %s", what, sqlite3_errmsg(h));
}

static int run(sqlite3 *h, const char *sql, util_err *err)
{
    char *msg = NULL;
    if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK) {
        util_fail(err, UTIL_ESQL, UINT64_MAX, "release scope: %s", msg ? msg : sqlite3_errmsg(h));
        sqlite3_free(msg);
        return UTIL_ESQL;
    }
    return 0;
}

/* "; a, b, c" listing the labels, for the message of an unknown one (owned: sqlite3_free). */
static char *labels(sqlite3 *h)
{
    sqlite3_stmt *st = NULL;
    sqlite3_str *s = sqlite3_str_new(h);
    if (sqlite3_prepare_v2(h, "SELECT label FROM main.releases ORDER BY label", -1, &st, NULL) ==
        SQLITE_OK) {
        int n = 0;
        while (sqlite3_step(st) == SQLITE_ROW)
            sqlite3_str_appendf(s, "%s%s", n++ ? ", " : "", sqlite3_column_text(st, 0));
        if (!n)
            sqlite3_str_appendall(s, "none");
    }
    sqlite3_finalize(st);
    return sqlite3_str_finish(s);
}

/* The release IDs of labels (one label, or several separated by commas) into
 * temp.scope_releases; DB_ENORELEASE naming the first label that is no release. */
static int scope_ids(sqlite3 *h, const char *labels_arg, util_err *err)
{
    if (run(h,
            "PRAGMA temp_store = MEMORY; DROP TABLE IF EXISTS temp.scope_releases;"
            "CREATE TEMP TABLE scope_releases(release_id INTEGER PRIMARY KEY)",
            err))
        return err->code;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h,
                           "INSERT OR IGNORE INTO temp.scope_releases SELECT release_id FROM "
                           "main.releases WHERE label = ?1",
                           -1, &st, NULL) != SQLITE_OK)
        return fail(h, err, "select releases");
    const char *p = labels_arg;
    int n = 0;
    for (;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        while (len && p[0] == ' ') {
            p++;
            len--;
        }
        while (len && p[len - 1] == ' ')
            len--;
        if (len) {
            sqlite3_reset(st);
            sqlite3_bind_text(st, 1, p, (int)len, SQLITE_TRANSIENT);
            if (sqlite3_step(st) != SQLITE_DONE) {
                sqlite3_finalize(st);
                return fail(h, err, "select releases");
            }
            if (sqlite3_changes(h) == 0) {
                sqlite3_finalize(st);
                char *all = labels(h);
                int rc =
                    util_fail(err, DB_ENORELEASE, UINT64_MAX, "no release '%.*s' (releases: %s)",
                              (int)len, p, all ? all : "?");
                sqlite3_free(all);
                return rc;
            }
            n++;
        }
        if (!e)
            break;
        p = e + 1;
    }
    sqlite3_finalize(st);
    if (n == 0) {
        char *all = labels(h);
        int rc = util_fail(err, DB_ENORELEASE, UINT64_MAX, "no release label given (releases: %s)",
                           all ? all : "?");
        sqlite3_free(all);
        return rc;
    }
    return 0;
}

int db_scope_release(db *d, const char *label, util_err *err)
{
    sqlite3 *h = d->h;
    sqlite3_stmt *st = NULL;
    int query_only = 0;
    sqlite3_stmt *qo = NULL;
    if (sqlite3_prepare_v2(h, "PRAGMA query_only", -1, &qo, NULL) == SQLITE_OK &&
        sqlite3_step(qo) == SQLITE_ROW)
        query_only = sqlite3_column_int(qo, 0);
    sqlite3_finalize(qo);
    if (query_only && run(h, "PRAGMA query_only = 0", err))
        return err->code;
    int rc = scope_ids(h, label, err);
    if (rc) {
        if (query_only)
            sqlite3_exec(h, "PRAGMA query_only = 1", NULL, NULL, NULL);
        return rc;
    }
    /* Tables of decoded rows: every main table with a content_id column except those
     * handled below. */
    if (sqlite3_prepare_v2(h,
                           "SELECT m.name FROM main.sqlite_master m WHERE m.type = 'table' AND "
                           "m.name NOT IN ('pak_entries', 'warnings', 'contents') AND EXISTS "
                           "(SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = "
                           "'content_id') ORDER BY m.name",
                           -1, &st, NULL) != SQLITE_OK)
        return fail(h, err, "list tables");
    sqlite3_str *q = sqlite3_str_new(h);
    sqlite3_str_appendall(
        q, "CREATE TEMP TABLE scope_paks(pak_id INTEGER PRIMARY KEY);"
           "INSERT INTO scope_paks SELECT pak_id FROM main.paks WHERE " SCOPED ";"
           "CREATE TEMP TABLE scope_contents(content_id INTEGER PRIMARY KEY);"
           "INSERT OR IGNORE INTO scope_contents SELECT e.content_id FROM main.pak_entries e "
           "WHERE e.pak_id IN (SELECT pak_id FROM temp.scope_paks) AND e.content_id IS NOT NULL;"
           "CREATE TEMP VIEW releases AS SELECT * FROM main.releases WHERE " SCOPED ";"
           "CREATE TEMP VIEW paks AS SELECT * FROM main.paks WHERE " SCOPED ";"
           "CREATE TEMP VIEW pak_entries AS SELECT * FROM main.pak_entries WHERE pak_id IN "
           "(SELECT pak_id FROM temp.scope_paks);"
           "CREATE TEMP VIEW pak_names AS SELECT * FROM main.pak_names WHERE pak_id IN "
           "(SELECT pak_id FROM temp.scope_paks);"
           "CREATE TEMP VIEW contents AS SELECT * FROM main.contents WHERE content_id IN "
           "(SELECT content_id FROM temp.scope_contents);"
           "CREATE TEMP VIEW warnings AS SELECT * FROM main.warnings WHERE pak_id IN (SELECT "
           "pak_id FROM temp.scope_paks) OR content_id IN (SELECT content_id FROM "
           "temp.scope_contents) OR (pak_id IS NULL AND content_id IS NULL AND EXISTS (SELECT 1 "
           "FROM main.pak_entries e WHERE e.pak_id IN (SELECT pak_id FROM temp.scope_paks) AND "
           "e.asset_id = warnings.asset_id));"
           "CREATE TEMP VIEW load_errors AS SELECT * FROM main.load_errors WHERE " SCOPED ";"
           "CREATE TEMP VIEW release_assets AS SELECT * FROM main.release_assets WHERE " SCOPED ";"
           /* an asset in several releases of the scope: one row, its entries and PAKs summed */
           "CREATE TEMP VIEW assets AS SELECT game, asset_id, type, sum(copies) AS copies, "
           "sum(pak_count) AS pak_count FROM main.release_assets WHERE " SCOPED
           " GROUP BY game, asset_id, type;"
           "CREATE TEMP VIEW census AS SELECT * FROM main.census WHERE " SCOPED ";");
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        sqlite3_str_appendf(q,
                            "CREATE TEMP VIEW \"%w\" AS SELECT * FROM main.\"%w\" WHERE "
                            "content_id IN (SELECT content_id FROM temp.scope_contents);",
                            t, t);
    }
    sqlite3_finalize(st);
    /* A view of main reads main's tables whatever temp holds: each is made again in temp,
     * where its names resolve to the scoped tables above (v_ views, unknown_census, ...). */
    if (sqlite3_prepare_v2(h,
                           "SELECT sql FROM main.sqlite_master WHERE type = 'view' AND sql LIKE "
                           "'CREATE VIEW %' ORDER BY rowid",
                           -1, &st, NULL) != SQLITE_OK) {
        sqlite3_free(sqlite3_str_finish(q));
        return fail(h, err, "list views");
    }
    while (sqlite3_step(st) == SQLITE_ROW)
        sqlite3_str_appendf(q, "CREATE TEMP VIEW %s;",
                            (const char *)sqlite3_column_text(st, 0) + strlen("CREATE VIEW "));
    sqlite3_finalize(st);
    if (query_only)
        sqlite3_str_appendall(q, "PRAGMA query_only = 1;");
    char *sql = sqlite3_str_finish(q);
    if (!sql)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    rc = run(h, sql, err);
    sqlite3_free(sql);
    return rc;
}

int db_scope_flag(db *d, const char *name, util_err *err)
{
    sqlite3 *h = d->h;
    int query_only = 0;
    sqlite3_stmt *qo = NULL;
    if (sqlite3_prepare_v2(h, "PRAGMA query_only", -1, &qo, NULL) == SQLITE_OK &&
        sqlite3_step(qo) == SQLITE_ROW)
        query_only = sqlite3_column_int(qo, 0);
    sqlite3_finalize(qo);
    char *sql = sqlite3_mprintf("PRAGMA query_only = 0; CREATE TEMP VIEW IF NOT EXISTS \"%w\" AS "
                                "SELECT 1 AS flag;%s",
                                name, query_only ? " PRAGMA query_only = 1;" : "");
    if (!sql)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    int rc = run(h, sql, err);
    sqlite3_free(sql);
    if (rc && query_only)
        sqlite3_exec(h, "PRAGMA query_only = 1", NULL, NULL, NULL);
    return rc;
}
