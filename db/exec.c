/* exec.c — the statement runner behind the named queries and `ancsdb sql`: every statement of
 * a text in turn, parameters bound, result rows handed to a sink (see db.h). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int db_exec(db *d, const char *sql, int nbind, const db_bind *binds, const db_sink *sink,
            util_err *err)
{
    const char *tail = sql;
    int rc = 0;
    sqlite3_stmt *st = NULL;
    const char **names = NULL;
    db_cell *cells = NULL;
    while (tail && *tail) {
        if (sqlite3_prepare_v2(d->h, tail, -1, &st, &tail) != SQLITE_OK) {
            rc = dbi_sql_fail(d, err, "SQL error");
            goto done;
        }
        if (!st) /* only whitespace / comments left */
            break;
        int np = sqlite3_bind_parameter_count(st);
        for (int i = 0; i < np && i < nbind; i++) {
            int b;
            if (binds[i].type == DB_INT)
                b = sqlite3_bind_int64(st, i + 1, binds[i].i);
            else if (binds[i].type == DB_TEXT)
                b = sqlite3_bind_text(st, i + 1, binds[i].s, -1, SQLITE_TRANSIENT);
            else
                b = sqlite3_bind_null(st, i + 1);
            if (b != SQLITE_OK) {
                rc = dbi_sql_fail(d, err, "bind");
                goto done;
            }
        }
        int ncols = sqlite3_column_count(st);
        if (ncols > 0) {
            names = calloc((size_t)ncols, sizeof *names);
            cells = calloc((size_t)ncols, sizeof *cells);
            if (!names || !cells) {
                rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
                goto done;
            }
            for (int c = 0; c < ncols; c++)
                names[c] = sqlite3_column_name(st, c);
            if (sink && sink->begin)
                sink->begin(sink->ctx, ncols, names);
        }
        int s;
        while ((s = sqlite3_step(st)) == SQLITE_ROW) {
            for (int c = 0; c < ncols; c++) {
                db_cell *cl = &cells[c];
                memset(cl, 0, sizeof *cl);
                switch (sqlite3_column_type(st, c)) {
                case SQLITE_INTEGER:
                    cl->type = DB_INT;
                    cl->i = sqlite3_column_int64(st, c);
                    break;
                case SQLITE_FLOAT:
                    cl->type = DB_REAL;
                    cl->r = sqlite3_column_double(st, c);
                    break;
                case SQLITE_TEXT:
                    cl->type = DB_TEXT;
                    cl->s = (const char *)sqlite3_column_text(st, c);
                    cl->n = (size_t)sqlite3_column_bytes(st, c);
                    break;
                case SQLITE_BLOB:
                    cl->type = DB_BLOB;
                    cl->s = sqlite3_column_blob(st, c);
                    cl->n = (size_t)sqlite3_column_bytes(st, c);
                    break;
                default:
                    cl->type = DB_NULL;
                }
            }
            if (sink && sink->row && sink->row(sink->ctx, ncols, cells) != 0)
                break;
        }
        if (s != SQLITE_ROW && s != SQLITE_DONE) {
            rc = dbi_sql_fail(d, err, "SQL error");
            if (ncols > 0 && sink && sink->end)
                sink->end(sink->ctx);
            goto done;
        }
        if (ncols > 0 && sink && sink->end)
            sink->end(sink->ctx);
        free(names);
        free(cells);
        names = NULL;
        cells = NULL;
        sqlite3_finalize(st);
        st = NULL;
    }
done:
    free(names);
    free(cells);
    sqlite3_finalize(st);
    return rc;
}
