/* views.c — the `v_` views (written at build time from columns.h by db/gen/gen_sql.c) made in
 * the database, and the list of asset-ID column names the CLI prints as hex. */
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "internal.h"

int db_is_id_column(const char *name)
{
#define DBV_ID_NAME(t, c, s, ty) #c,
#define DBV_Q_NAME(c)            #c,
    static const char *const names[] = {DB_ID_COLUMNS(DBV_ID_NAME) DB_QUERY_ID_NAMES(DBV_Q_NAME)};
    if (!name)
        return 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(name, names[i]))
            return 1;
    return 0;
}

/* 1 when every view of db_views_sql is in the file as this ancsdb writes it. */
static int views_current(db *d, int *out, util_err *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(d->h,
                           "SELECT sql FROM main.sqlite_master WHERE type = 'view' AND name = ?1",
                           -1, &st, NULL) != SQLITE_OK)
        return dbi_sql_fail(d, err, "read the views");
    *out = 1;
    for (size_t i = 0; db_views_sql[i][0] && *out; i++) {
        sqlite3_reset(st);
        sqlite3_bind_text(st, 1, db_views_sql[i][0], -1, SQLITE_STATIC);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            const char *sql = (const char *)sqlite3_column_text(st, 0);
            *out = sql && !strcmp(sql, db_views_sql[i][1]);
        } else if (rc == SQLITE_DONE) {
            *out = 0;
        } else {
            sqlite3_finalize(st);
            return dbi_sql_fail(d, err, "read the views");
        }
    }
    sqlite3_finalize(st);
    return 0;
}

int dbi_views_sync(db *d, util_err *err)
{
    int current = 0, rc = views_current(d, &current, err);
    if (rc || current)
        return rc;
    if ((rc = dbi_exec(d, "BEGIN IMMEDIATE", err)) != 0)
        return rc;
    char sql[128];
    for (size_t i = 0; db_views_sql[i][0]; i++) {
        snprintf(sql, sizeof sql, "DROP VIEW IF EXISTS main.\"%s\"", db_views_sql[i][0]);
        if ((rc = dbi_exec(d, sql, err)) != 0)
            goto fail;
    }
    for (size_t i = 0; db_views_sql[i][0]; i++)
        if ((rc = dbi_exec(d, db_views_sql[i][1], err)) != 0)
            goto fail;
    if ((rc = dbi_exec(d, "COMMIT", err)) != 0)
        goto fail;
    return 0;
fail:
    db_rollback(d);
    return rc;
}
