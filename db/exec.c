/* exec.c — the statement runner behind the named queries and `ancsdb sql` (see db.h):
 * every statement of a text in turn, parameters bound by position or by name (an unbound
 * one is an error), rows to a sink, the origin of each result column, and an interrupt
 * flag checked while a statement runs. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int bind_one(sqlite3_stmt *st, int idx, const db_bind *b)
{
    if (b->type == DB_INT)
        return sqlite3_bind_int64(st, idx, b->i);
    if (b->type == DB_TEXT)
        return sqlite3_bind_text(st, idx, b->s, -1, SQLITE_TRANSIENT);
    return sqlite3_bind_null(st, idx);
}

/* Progress handler: a non-zero return makes the running statement fail with
 * SQLITE_INTERRUPT. */
static int stop_check(void *arg)
{
    const db_exec_opts *o = arg;
    util_test_point("step");
    return *o->stop != 0;
}

/* Bind binds[0..nbind) to ?1..?n and the named values of o to :name, @name or $name; every
 * parameter of st must get a value. */
static int bind_all(db *d, sqlite3_stmt *st, int nbind, const db_bind *binds, const db_exec_opts *o,
                    unsigned char *used, util_err *err)
{
    int np = sqlite3_bind_parameter_count(st);
    unsigned char *bound = calloc((size_t)np + 1, 1);
    int rc = 0;
    if (!bound)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    for (int i = 0; i < np && i < nbind && !rc; i++) {
        if (bind_one(st, i + 1, &binds[i]) != SQLITE_OK)
            rc = dbi_sql_fail(d, err, "bind");
        bound[i + 1] = 1;
    }
    for (int k = 0; o && k < o->nnamed && !rc; k++) {
        static const char prefixes[] = ":@$";
        for (int p = 0; p < 3 && !rc; p++) {
            char name[128];
            snprintf(name, sizeof name, "%c%s", prefixes[p], o->names[k]);
            int idx = sqlite3_bind_parameter_index(st, name);
            if (idx <= 0)
                continue;
            if (bound[idx])
                rc = util_fail(err, DB_EPARAM, UINT64_MAX,
                               "parameter %s is ?%d, which a positional value also binds", name,
                               idx);
            else if (bind_one(st, idx, &o->values[k]) != SQLITE_OK)
                rc = dbi_sql_fail(d, err, "bind");
            bound[idx] = 1;
            used[k] = 1;
        }
    }
    for (int i = 1; i <= np && !rc; i++) {
        if (bound[i])
            continue;
        const char *name = sqlite3_bind_parameter_name(st, i);
        if (name)
            rc = util_fail(err, DB_EPARAM, UINT64_MAX, "parameter %s has no value", name);
        else
            rc = util_fail(err, DB_EPARAM, UINT64_MAX, "parameter ?%d has no value", i);
    }
    free(bound);
    return rc;
}

/* Before anything runs: every value given must have a parameter in some statement (a text
 * whose later statements depend on earlier ones may not prepare yet: then the check after the
 * run decides). */
static int check_values(sqlite3 *h, const char *sql, int nbind, const db_exec_opts *o,
                        util_err *err)
{
    int nnamed = o ? o->nnamed : 0, maxnp = 0, rc = 0;
    unsigned char *used = calloc(nnamed > 0 ? (size_t)nnamed : 1, 1);
    const char *tail = sql;
    if (!used)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    while (tail && *tail) {
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(h, tail, -1, &st, &tail) != SQLITE_OK) {
            free(used);
            return 0;
        }
        if (!st)
            break;
        int np = sqlite3_bind_parameter_count(st);
        if (np > maxnp)
            maxnp = np;
        for (int k = 0; k < nnamed; k++)
            for (const char *p = ":@$"; *p; p++) {
                char name[128];
                snprintf(name, sizeof name, "%c%s", *p, o->names[k]);
                if (sqlite3_bind_parameter_index(st, name) > 0)
                    used[k] = 1;
            }
        sqlite3_finalize(st);
    }
    if (o && o->exact && nbind > maxnp)
        rc = util_fail(err, DB_EPARAM, UINT64_MAX, "%d values given, the SQL has %d parameter%s",
                       nbind, maxnp, maxnp == 1 ? "" : "s");
    for (int k = 0; k < nnamed && !rc; k++)
        if (!used[k])
            rc = util_fail(err, DB_EPARAM, UINT64_MAX, "the SQL has no parameter :%s", o->names[k]);
    free(used);
    return rc;
}

/* ---- statement cache ---------------------------------------------------------------------
 * A one-statement text run again on a read-only connection reuses its prepared statement:
 * preparing deps.sql or the graph edges costs more than running them for one ANCS. */

#define NCACHE ((int)(sizeof((db *)0)->cache / sizeof((db *)0)->cache[0]))

/* The slot of a statement of exactly this text that is not running, or -1. */
static int cache_find(db *d, const char *sql)
{
    for (int i = 0; i < NCACHE; i++)
        if (d->cache[i].st && !d->cache[i].busy && !strcmp(d->cache[i].text, sql))
            return i;
    return -1;
}

/* Keep st (just prepared from the whole of sql) in a slot, replacing the oldest idle one;
 * the slot, or -1 (not kept) when every slot is running or out of memory. */
static int cache_put(db *d, sqlite3_stmt *st, const char *sql)
{
    for (int k = 0; k < NCACHE; k++) {
        int i = (int)(d->cache_next++ % (unsigned)NCACHE);
        if (d->cache[i].busy)
            continue;
        char *text = strdup(sql);
        if (!text)
            return -1;
        sqlite3_finalize(d->cache[i].st);
        free(d->cache[i].text);
        d->cache[i].st = st;
        d->cache[i].text = text;
        return i;
    }
    return -1;
}

void dbi_cache_free(db *d)
{
    for (int i = 0; i < NCACHE; i++) {
        sqlite3_finalize(d->cache[i].st);
        free(d->cache[i].text);
        d->cache[i].st = NULL;
        d->cache[i].text = NULL;
        d->cache[i].busy = 0;
    }
}

/* Done with st: a cached one is reset for its next run, any other finalized. */
static void release(db *d, sqlite3_stmt *st, int slot)
{
    if (slot < 0) {
        sqlite3_finalize(st);
        return;
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    d->cache[slot].busy = 0;
}

/* Only whitespace left in s. */
static int blank(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    return !*s;
}

int db_exec_ex(db *d, const char *sql, int nbind, const db_bind *binds, const db_exec_opts *o,
               const db_sink *sink, util_err *err)
{
    sqlite3 *h = d->h;
    const char *tail = sql;
    int rc = 0, maxnp = 0, slot = -1;
    sqlite3_stmt *st = NULL;
    const char **names = NULL;
    db_cell *cells = NULL;
    if (o && ((o->exact && nbind > 0) || o->nnamed > 0) &&
        (rc = check_values(h, sql, nbind, o, err)) != 0)
        return rc;
    unsigned char *used = calloc(o && o->nnamed > 0 ? (size_t)o->nnamed : 1, 1);
    if (!used)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    if (o && o->stop)
        sqlite3_progress_handler(h, 1000, stop_check, (void *)o);
    while (tail && *tail) {
        slot = tail == sql && d->readonly ? cache_find(d, sql) : -1;
        if (slot >= 0) {
            st = d->cache[slot].st;
            tail = "";
        } else {
            const char *start = tail;
            if (sqlite3_prepare_v2(h, tail, -1, &st, &tail) != SQLITE_OK) {
                rc = dbi_sql_fail(d, err, "SQL error");
                goto done;
            }
            if (!st) /* only whitespace / comments left */
                break;
            /* kept when it is the whole text (the first statement, nothing after it) */
            slot = d->readonly && start == sql && blank(tail) ? cache_put(d, st, sql) : -1;
        }
        if (slot >= 0)
            d->cache[slot].busy = 1;
        if (sqlite3_bind_parameter_count(st) > maxnp)
            maxnp = sqlite3_bind_parameter_count(st);
        if ((rc = bind_all(d, st, nbind, binds, o, used, err)) != 0)
            goto done;
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
            for (int c = 0; o && o->origin && c < ncols; c++)
                o->origin(sink ? sink->ctx : NULL, c, sqlite3_column_table_name(st, c),
                          sqlite3_column_origin_name(st, c));
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
            if (o && o->stop && *o->stop)
                break;
        }
        if (s != SQLITE_ROW && s != SQLITE_DONE) {
            if (s == SQLITE_INTERRUPT && o && o->stop && *o->stop)
                rc = util_fail(err, DB_EINTR, UINT64_MAX, "interrupted");
            else
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
        release(d, st, slot);
        st = NULL;
        slot = -1;
        if (o && o->stop && *o->stop) {
            rc = util_fail(err, DB_EINTR, UINT64_MAX, "interrupted");
            goto done;
        }
    }
    if (!rc && o && o->exact && nbind > maxnp)
        rc = util_fail(err, DB_EPARAM, UINT64_MAX, "%d values given, the SQL has %d parameter%s",
                       nbind, maxnp, maxnp == 1 ? "" : "s");
    for (int k = 0; o && k < o->nnamed && !rc; k++)
        if (!used[k])
            rc = util_fail(err, DB_EPARAM, UINT64_MAX, "the SQL has no parameter :%s", o->names[k]);
done:
    free(used);
    if (o && o->stop)
        sqlite3_progress_handler(h, 0, NULL, NULL);
    free(names);
    free(cells);
    if (st)
        release(d, st, slot);
    return rc;
}

int db_exec(db *d, const char *sql, int nbind, const db_bind *binds, const db_sink *sink,
            util_err *err)
{
    return db_exec_ex(d, sql, nbind, binds, NULL, sink, err);
}

/* ---- a result held in memory ---------------------------------------------------------- */

void db_rows_free(db_rows *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nrows * (size_t)t->ncols; i++)
        if (t->cells[i].type == DB_TEXT || t->cells[i].type == DB_BLOB)
            free((char *)t->cells[i].s);
    for (int c = 0; t->names && c < t->ncols; c++)
        free(t->names[c]);
    free(t->names);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

static void rows_begin(void *ctx, int ncols, const char *const *names)
{
    db_rows *t = ctx;
    if (t->names)
        return;
    t->names = calloc((size_t)(ncols ? ncols : 1), sizeof *t->names);
    if (!t->names) {
        t->oom = 1;
        return;
    }
    t->ncols = ncols;
    for (int c = 0; c < ncols; c++)
        if (!(t->names[c] = strdup(names[c] ? names[c] : "")))
            t->oom = 1;
}

static int rows_row(void *ctx, int ncols, const db_cell *cells)
{
    db_rows *t = ctx;
    if (t->oom || !t->names || ncols != t->ncols)
        return 1;
    if (t->nrows == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 32;
        db_cell *n = realloc(t->cells, cap * (size_t)(ncols ? ncols : 1) * sizeof *n);
        if (!n) {
            t->oom = 1;
            return 1;
        }
        t->cells = n;
        t->cap = cap;
    }
    db_cell *dst = t->cells + t->nrows * (size_t)ncols;
    for (int c = 0; c < ncols; c++) {
        dst[c] = cells[c];
        if (cells[c].type == DB_TEXT || cells[c].type == DB_BLOB) {
            char *s = malloc(cells[c].n + 1);
            if (!s) {
                for (int k = c; k < ncols; k++)
                    dst[k].type = DB_NULL;
                t->nrows++;
                t->oom = 1;
                return 1;
            }
            if (cells[c].n)
                memcpy(s, cells[c].s, cells[c].n);
            s[cells[c].n] = 0;
            dst[c].s = s;
        }
    }
    t->nrows++;
    return 0;
}

int db_exec_rows(db_rows *out, db *d, const char *sql, int nbind, const db_bind *binds,
                 util_err *err)
{
    memset(out, 0, sizeof *out);
    db_sink sink = {out, rows_begin, rows_row, NULL};
    int rc = db_exec(d, sql, nbind, binds, &sink, err);
    if (!rc && out->oom)
        rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    return rc;
}

int db_rows_col(const db_rows *t, const char *name)
{
    for (int c = 0; t->names && c < t->ncols; c++)
        if (!strcmp(t->names[c], name))
            return c;
    return -1;
}
