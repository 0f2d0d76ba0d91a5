/* sql.c — small SQL helpers every db/ file uses: an error naming the failing statement,
 * one-off statements, transactions. Calls nothing else in db/. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static void sql_label(char out[48], const char *sql);

int dbi_sql_fail(db *d, util_err *err, const char *what)
{
    char label[48];
    sql_label(label, what);
    return util_fail(err, UTIL_ESQL, UINT64_MAX, "%s: %s", label,
                     d && d->h ? sqlite3_errmsg(d->h) : "no connection");
}

const char *dbi_fourcc(uint32_t v, char out[5])
{
    util_fourcc_str(v, out);
    return out;
}

/* A short label of sql for a message: its first line that is not a comment, at most 40
 * bytes (a message never quotes a whole statement or the schema). */
static void sql_label(char out[48], const char *sql)
{
    while (*sql == ' ' || *sql == '\n' || *sql == '\t' || (sql[0] == '-' && sql[1] == '-')) {
        if (*sql == '-')
            while (*sql && *sql != '\n')
                sql++;
        else
            sql++;
    }
    size_t n = 0;
    while (sql[n] && sql[n] != '\n' && n < 40)
        n++;
    snprintf(out, 48, "%.*s%s", (int)n, sql, sql[n] && sql[n] != '\n' ? "..." : "");
}

int dbi_exec(db *d, const char *sql, util_err *err)
{
    char *msg = NULL;
    if (sqlite3_exec(d->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
        char label[48];
        sql_label(label, sql);
        util_fail(err, UTIL_ESQL, UINT64_MAX, "%s: %s", label, msg ? msg : sqlite3_errmsg(d->h));
        sqlite3_free(msg);
        return UTIL_ESQL;
    }
    return 0;
}

int dbi_query_int(db *d, const char *sql, int64_t *out, util_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(d->h, sql, -1, &st, NULL) != SQLITE_OK)
        return dbi_sql_fail(d, err, sql);
    int s = sqlite3_step(st);
    if (s == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    else if (s == SQLITE_DONE)
        *out = 0;
    else
        rc = dbi_sql_fail(d, err, sql);
    sqlite3_finalize(st);
    return rc;
}

int db_final_pass_pending(db *d)
{
    sqlite3_stmt *st = NULL;
    int pending = 0;
    if (sqlite3_prepare_v2(d->h, "SELECT value FROM ingest_state WHERE key = 'final_pass_pending'",
                           -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        pending = sqlite3_column_int64(st, 0) != 0;
    sqlite3_finalize(st);
    return pending;
}

int db_begin(db *d, util_err *err)
{
    return dbi_exec(d, "BEGIN IMMEDIATE", err);
}

int db_commit(db *d, util_err *err)
{
    return dbi_exec(d, "COMMIT", err);
}

void db_rollback(db *d)
{
    if (!sqlite3_get_autocommit(d->h))
        sqlite3_exec(d->h, "ROLLBACK", NULL, NULL, NULL);
}

int dbi_exec_bind(db *d, const char *sql, int64_t id, const char *text, util_err *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(d->h, sql, -1, &st, NULL) != SQLITE_OK)
        return dbi_sql_fail(d, err, sql);
    if (text)
        sqlite3_bind_text(st, 1, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_int64(st, 1, id);
    int s = sqlite3_step(st);
    sqlite3_finalize(st);
    return s == SQLITE_DONE ? 0 : dbi_sql_fail(d, err, sql);
}
