/* rows.c — the one row writer: rows filled by named column (tables.h), INSERT text built
 * from the table descriptors, and one batcher for every table.
 *
 * SQLite spends about as much on running a one-row INSERT statement as on the row itself.
 * Between dbi_batch_begin and dbi_batch_end the rows are buffered per table and written by
 * INSERTs of 2^k rows (at most 2^batch_log), in the order they came: the same rows, rowids
 * and INSERT OR IGNORE outcome as one statement per row. Values and text are copied. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- table descriptors ------------------------------------------------------------------ */

#define DBT_COL_NAME(t, c) #c,
#define DBT_COLS(t, keyed, ign, blog)                                                              \
    static const char *const cols_##t[] = {DBT_##t(DBT_COL_NAME, t)};
DB_TABLES(DBT_COLS)
#define DBT_DESC(t, keyed, ign, blog) {#t, cols_##t, DBC_##t##_n, keyed, ign, blog},
const db_table dbi_tables[DBT_COUNT] = {DB_TABLES(DBT_DESC)};

#define DB_KEY_NAME(c) #c,
static const char *const key_cols[DBK_COUNT] = {DB_KEY_COLS(DB_KEY_NAME)};

struct db_batch {
    int nvals, rows, max_log;
    sqlite3_stmt *multi[8]; /* 2^k rows; prepared when first needed */
    db_val vals[];          /* (1 << max_log) * nvals */
};

static int table_id(const db_table *t)
{
    return (int)(t - dbi_tables);
}

static int row_width(const db_table *t)
{
    return t->ncols + (t->keyed ? DBK_COUNT : 0);
}

static db_batch *batch_of(db *d, const db_table *t, util_err *err)
{
    db_batch *b = d->batch[table_id(t)];
    if (b)
        return b;
    int n = row_width(t);
    size_t rows = (size_t)1 << t->batch_log;
    b = calloc(1, sizeof *b + rows * (size_t)n * sizeof(db_val));
    if (!b) {
        util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        return NULL;
    }
    b->nvals = n;
    b->max_log = t->batch_log;
    d->batch[table_id(t)] = b;
    return b;
}

void dbi_rows_free(db *d)
{
    for (int i = 0; i < DBT_COUNT; i++) {
        if (!d->batch[i])
            continue;
        for (int k = 0; k <= d->batch[i]->max_log; k++)
            sqlite3_finalize(d->batch[i]->multi[k]);
        free(d->batch[i]);
        d->batch[i] = NULL;
    }
    for (int k = 0; k < DBK_COUNT; k++) {
        free(d->key_text[k]);
        d->key_text[k] = NULL;
        d->key[k].kind = 'n';
    }
    dbi_groups_free(&d->counted);
    free(d->btext);
    d->btext = NULL;
    d->btext_len = d->btext_cap = 0;
}

/* INSERT INTO t("c1","c2",...) VALUES (?,...),... with 2^k rows. */
static int batch_prepare(db *d, const db_table *t, db_batch *b, int k, util_err *err)
{
    sqlite3_str *q = sqlite3_str_new(d->h);
    /* OR FAIL rather than the default ABORT: a multi-row INSERT that may abort needs a
     * statement journal (the pages it changes written aside first: release B of the bench
     * spent ~0.2 s of system time on it). A failed INSERT ends the run or pass it belongs
     * to, whose transaction is then rolled back whole. */
    sqlite3_str_appendf(q, "INSERT %sINTO %s(", t->or_ignore ? "OR IGNORE " : "OR FAIL ", t->name);
    int c = 0;
    for (int i = 0; t->keyed && i < DBK_COUNT; i++)
        sqlite3_str_appendf(q, "%s\"%w\"", c++ ? "," : "", key_cols[i]);
    for (int i = 0; i < t->ncols; i++)
        sqlite3_str_appendf(q, "%s\"%w\"", c++ ? "," : "", t->cols[i]);
    sqlite3_str_appendall(q, ") VALUES ");
    for (int r = 0; r < (1 << k); r++) {
        sqlite3_str_appendall(q, r ? ",(" : "(");
        for (int i = 0; i < b->nvals; i++)
            sqlite3_str_appendall(q, i ? ",?" : "?");
        sqlite3_str_appendall(q, ")");
    }
    char *sql = sqlite3_str_finish(q);
    if (!sql)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    int s = sqlite3_prepare_v3(d->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &b->multi[k], NULL);
    sqlite3_free(sql);
    if (s != SQLITE_OK)
        return util_fail(err, UTIL_ESQL, UINT64_MAX, "prepare insert into %s: %s", t->name,
                         sqlite3_errmsg(d->h));
    return 0;
}

/* Write rows [from, from + 2^k) of t's buffer with one statement. */
static int batch_step(db *d, const db_table *t, db_batch *b, int from, int k, util_err *err)
{
    if (!b->multi[k] && batch_prepare(d, t, b, k, err))
        return err && err->code ? err->code : UTIL_ESQL;
    sqlite3_stmt *st = b->multi[k];
    const db_val *v = &b->vals[(size_t)from * (size_t)b->nvals];
    int n = (1 << k) * b->nvals;
    for (int c = 0; c < n; c++) {
        switch (v[c].kind) {
        case 'i':
            sqlite3_bind_int64(st, c + 1, v[c].i);
            break;
        case 'r':
            sqlite3_bind_double(st, c + 1, v[c].r);
            break;
        case 't':
            sqlite3_bind_text(st, c + 1, d->btext + v[c].off, (int)v[c].len, SQLITE_STATIC);
            break;
        default:
            sqlite3_bind_null(st, c + 1);
        }
    }
    int s = sqlite3_step(st);
    int rc = 0;
    if (s != SQLITE_DONE)
        rc = util_fail(err, UTIL_ESQL, UINT64_MAX, "insert into %s: %s", t->name,
                       sqlite3_errmsg(d->h));
    sqlite3_reset(st);
    return rc;
}

static int text_add(db *d, const char *s, size_t n, size_t *off, size_t *len)
{
    if (d->btext_cap - d->btext_len < n + 1) {
        size_t cap = d->btext_cap ? d->btext_cap : 4096;
        while (cap - d->btext_len < n + 1)
            cap *= 2;
        char *p = realloc(d->btext, cap);
        if (!p)
            return UTIL_ENOMEM;
        d->btext = p;
        d->btext_cap = cap;
    }
    memcpy(d->btext + d->btext_len, s, n);
    d->btext[d->btext_len + n] = 0;
    *off = d->btext_len;
    *len = n;
    d->btext_len += n + 1;
    return 0;
}

static void val_text(db *d, db_val *v, const char *s, size_t n)
{
    if (!s)
        return;
    if (text_add(d, s, n, &v->off, &v->len)) {
        d->oom = 1;
        return;
    }
    v->kind = 't';
}

int dbi_key_text(db *d, int k, const char *s, util_err *err)
{
    char *copy = s ? strdup(s) : NULL;
    if (s && !copy)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    free(d->key_text[k]);
    d->key_text[k] = copy;
    d->key[k].kind = copy ? 't' : 'n';
    return 0;
}

void dbi_key_int(db *d, int k, int64_t v)
{
    free(d->key_text[k]);
    d->key_text[k] = NULL;
    d->key[k].kind = 'i';
    d->key[k].i = v;
}

int dbi_row_begin(db_row *r, db *d, const db_table *t, util_err *err)
{
    db_batch *b = batch_of(d, t, err);
    if (!b)
        return UTIL_ENOMEM;
    db_val *row = &b->vals[(size_t)b->rows * (size_t)b->nvals];
    for (int c = 0; c < b->nvals; c++)
        row[c].kind = 'n';
    d->oom = 0;
    r->d = d;
    r->t = t;
    r->v = row;
    if (t->keyed) {
        for (int k = 0; k < DBK_COUNT; k++) {
            if (d->key[k].kind == 't')
                val_text(d, &row[k], d->key_text[k], strlen(d->key_text[k]));
            else
                row[k] = d->key[k];
        }
        r->v = row + DBK_COUNT;
    }
    return 0;
}

void dbi_int(db_row *r, int col, int64_t v)
{
    r->v[col].kind = 'i';
    r->v[col].i = v;
}

void dbi_real(db_row *r, int col, double v)
{
    r->v[col].kind = 'r';
    r->v[col].r = v;
}

void dbi_text(db_row *r, int col, const char *s)
{
    val_text(r->d, &r->v[col], s, s ? strlen(s) : 0);
}

void dbi_text_n(db_row *r, int col, const char *s, size_t n)
{
    val_text(r->d, &r->v[col], s, n);
}

static int flush_all(db *d, int discard, util_err *err);

/* Pending rows keep their texts in d->btext until they are written: past this many bytes
 * every table's pending rows are written, so that a long batch (the assets rebuild writes
 * rows of two tables for every asset in one) does not keep every text it was given. */
#define BATCH_TEXT_MAX (256 * 1024)

/* The row into its table's buffer, or written. */
static int row_put(db *d, const db_table *t, util_err *err)
{
    db_batch *b = d->batch[table_id(t)];
    if (!d->batching || t->batch_log == 0) {
        int rc = batch_step(d, t, b, b->rows, 0, err);
        if (!d->batching)
            d->btext_len = 0;
        return rc;
    }
    if (++b->rows < 1 << t->batch_log)
        return d->btext_len > BATCH_TEXT_MAX ? flush_all(d, 0, err) : 0;
    int rc = batch_step(d, t, b, 0, t->batch_log, err);
    b->rows = 0;
    if (!rc && d->btext_len > BATCH_TEXT_MAX)
        rc = flush_all(d, 0, err);
    return rc;
}

int dbi_row_end(db_row *r, util_err *err)
{
    db *d = r->d;
    if (d->oom)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    /* the observer sees the row, and may write rows of its own once this one is buffered */
    int (*after)(db *, util_err *) = d->row_seen ? d->row_after : NULL;
    if (d->row_seen && d->row_seen(d, table_id(r->t), r->v, err))
        return err && err->code ? err->code : UTIL_ENOMEM;
    int rc = row_put(d, r->t, err);
    if (!rc && after)
        rc = after(d, err);
    return rc;
}

void dbi_batch_begin(db *d)
{
    d->batching = 1;
}

/* Writes (or with discard drops) every table's pending rows, in 2^k-row INSERTs; their texts
 * are then no longer needed. */
static int flush_all(db *d, int discard, util_err *err)
{
    int rc = 0;
    for (int i = 0; i < DBT_COUNT; i++) {
        db_batch *b = d->batch[i];
        if (!b)
            continue;
        int from = 0;
        for (int k = b->max_log; k >= 0 && !rc && !discard; k--)
            if (b->rows & (1 << k)) {
                rc = batch_step(d, &dbi_tables[i], b, from, k, err);
                from += 1 << k;
            }
        b->rows = 0;
    }
    d->btext_len = 0;
    return rc;
}

int dbi_batch_end(db *d, int discard, util_err *err)
{
    int rc = flush_all(d, discard, err);
    d->batching = 0;
    return rc;
}

/* ---- rows every decoder's writer shares: warnings, asset_refs ------------------------- */

int dbi_warn(db *d, const char *game, const char *type, int64_t asset_id, int64_t offset,
             const char *code, const char *msg, int64_t pak_id, util_err *err)
{
    db_row r;
    int rc = dbi_row_begin(&r, d, TBL(warnings), err);
    if (rc)
        return rc;
    dbi_text(&r, COL(warnings, game), game);
    dbi_text(&r, COL(warnings, type), type);
    if (asset_id >= 0)
        dbi_int(&r, COL(warnings, asset_id), asset_id);
    if (offset >= 0)
        dbi_int(&r, COL(warnings, byte_offset), offset);
    dbi_text(&r, COL(warnings, code), code);
    dbi_text(&r, COL(warnings, message), msg);
    if (pak_id >= 0)
        dbi_int(&r, COL(warnings, pak_id), pak_id);
    else if (d->content > 0)
        dbi_int(&r, COL(warnings, content_id), d->content); /* a decoder's warning */
    if ((rc = dbi_row_end(&r, err)) == 0)
        d->rows_warned++;
    return rc;
}

int dbi_put_ref(db *d, const char *src_type, uint32_t src_id, const char *dst_type, uint32_t dst_id,
                int64_t char_index, const char *via, util_err *err)
{
    db_row r;
    int rc = dbi_row_begin(&r, d, TBL(asset_refs), err);
    if (rc)
        return rc;
    dbi_text(&r, COL(asset_refs, src_type), src_type);
    dbi_int(&r, COL(asset_refs, src_id), src_id);
    dbi_text(&r, COL(asset_refs, dst_type), dst_type);
    dbi_int(&r, COL(asset_refs, dst_id), dst_id);
    if (char_index >= 0)
        dbi_int(&r, COL(asset_refs, char_index), char_index);
    dbi_text(&r, COL(asset_refs, via), via);
    return dbi_row_end(&r, err);
}

int dbi_put_report_warnings(db *d, const char *game, const char *type, uint32_t id,
                            const ancs_report *rep, util_err *err)
{
    for (const ancs_warning *w = rep->warnings; w; w = w->next) {
        int rc = dbi_warn(d, game, type, id, w->offset == UINT64_MAX ? -1 : (int64_t)w->offset,
                          w->code, w->msg, -1, err);
        if (rc)
            return rc;
    }
    return 0;
}
