/* db.c — connection, schema check, prepared statements, statement runner, and the mapping
 * of decoded ANCS/EVNT structs to rows (see db.h). The ingest loop is in ingest.c and
 * reaches the connection through db_priv_* functions declared below (not public). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db.h"

/* ---- statements prepared once per connection ----------------------------------------- */

/* ingest.c names the first nine by position (S_PAK_GET .. S_ENTRY_HASH): keep their order. */

#define STMTS(X)                                                                                   \
    X(PAK_GET, "SELECT pak_id, file_size, mtime, mtime_ns, tables_hash, content_hash, "            \
               "status FROM paks WHERE path = ?1")                                                 \
    X(PAK_INS, "INSERT INTO paks(path, game, game_detected, file_size, mtime, mtime_ns, "          \
               "tables_hash, content_hash, header_unused, named_count, resource_count, "           \
               "status, ingested_at) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)")          \
    X(ENTRY_INS, "INSERT INTO pak_entries VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)")             \
    X(NAME_INS, "INSERT INTO pak_names VALUES(?1,?2,?3,?4,?5)")                                    \
    X(WARN_INS, "INSERT INTO warnings(game, type, asset_id, byte_offset, code, message, "          \
                "pak_id) VALUES(?1,?2,?3,?4,?5,?6,?7)")                                            \
    X(ERR_INS, "INSERT INTO load_errors(pak_path, entry_index, type, asset_id, stage, "            \
               "byte_offset, message, game) VALUES(?1,?2,?3,?4,?5,?6,?7,?8)")                      \
    X(DECODED_GET, "SELECT content_hash, status FROM decoded WHERE game = ?1 AND "                 \
                   "asset_id = ?2 AND type = ?3")                                                  \
    X(DECODED_INS, "INSERT OR REPLACE INTO decoded VALUES(?1,?2,?3,?4,?5,?6,?7,?8)")               \
    X(ENTRY_HASH, "UPDATE pak_entries SET content_hash = ?3 WHERE pak_id = ?1 AND "                \
                  "entry_index = ?2")                                                              \
    X(ANCS_INS, "INSERT INTO ancs VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,"          \
                "?15,?16,?17,?18,?19,?20,?21,?22,?23,?24)")                                        \
    X(CHAR_INS, "INSERT INTO characters VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,"        \
                "?14,?15,?16,?17,?18,?19,?20,?21,?22,?23,?24,?25,?26,?27,?28,?29)")                \
    X(CANIM_INS, "INSERT INTO character_anims VALUES(?1,?2,?3,?4,?5,?6,?7,?8)")                    \
    X(IDMAP_INS, "INSERT INTO anim_id_map VALUES(?1,?2,?3,?4,?5)")                                 \
    X(PREF_INS, "INSERT INTO particle_refs VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)")                    \
    X(STATE_INS, "INSERT INTO pas_states VALUES(?1,?2,?3,?4,?5,?6,?7)")                            \
    X(PARM_INS, "INSERT INTO pas_parms VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)")            \
    X(INFO_INS, "INSERT INTO pas_anim_infos VALUES(?1,?2,?3,?4,?5,?6)")                            \
    X(VAL_INS, "INSERT INTO pas_values VALUES(?1,?2,?3,?4,?5,?6,?7,?8)")                           \
    X(AABB_INS, "INSERT INTO anim_aabbs VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)")               \
    X(IAABB_INS, "INSERT INTO indexed_aabbs VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)")           \
    X(EFFECT_INS, "INSERT INTO effects VALUES(?1,?2,?3,?4,?5,?6)")                                 \
    X(COMP_INS, "INSERT INTO effect_components VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,"         \
                "?12,?13)")                                                                        \
    X(ANIM_INS, "INSERT INTO animations VALUES(?1,?2,?3,?4,?5,?6)")                                \
    X(NODE_INS, "INSERT INTO meta_anim_nodes VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,"           \
                "?12,?13,?14,?15,?16,?17,?18,?19,?20,?21)")                                        \
    X(PRIM_INS, "INSERT INTO anim_primitives VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)")              \
    X(TRANS_INS, "INSERT INTO transitions VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)")         \
    X(HALF_INS, "INSERT INTO half_transitions VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)")             \
    X(ADD_INS, "INSERT INTO additive_animations VALUES(?1,?2,?3,?4,?5,?6)")                        \
    X(PAIR_INS, "INSERT INTO animation_resources VALUES(?1,?2,?3,?4,?5)")                          \
    X(EVNT_INS, "INSERT INTO evnt VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)")                             \
    X(ESET_INS, "INSERT INTO event_sets VALUES(?1,?2,?3,?4,?5,?6,?7,?8)")                          \
    X(EVENT_INS, "INSERT INTO events VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,"           \
                 "?14,?15,?16,?17,?18,?19,?20,?21,?22,?23,?24,?25,?26,?27,?28,?29,?30,"            \
                 "?31,?32,?33)")                                                                   \
    X(REF_INS, "INSERT OR IGNORE INTO asset_refs VALUES(?1,?2,?3,?4,?5,?6,?7)")

#define STMT_ENUM(name, sql) S_##name,
#define STMT_SQL(name, sql)  sql,
enum { STMTS(STMT_ENUM) S_COUNT };
static const char *const stmt_sql[] = {STMTS(STMT_SQL)};

/* Tables keyed by (game, ancs_id) that hold rows derived from one ANCS. */
static const char *const ancs_tables[] = {
    "characters",          "character_anims",  "anim_id_map",
    "particle_refs",       "pas_states",       "pas_parms",
    "pas_anim_infos",      "pas_values",       "anim_aabbs",
    "indexed_aabbs",       "effects",          "effect_components",
    "animations",          "meta_anim_nodes",  "anim_primitives",
    "transitions",         "half_transitions", "additive_animations",
    "animation_resources", "event_sets",
};
#define N_ANCS_TABLES (sizeof ancs_tables / sizeof ancs_tables[0])

struct db {
    sqlite3 *h;
    int readonly;
    sqlite3_stmt *st[S_COUNT];
    /* per-asset delete statements: ANCS tables, then the common ones */
    sqlite3_stmt *del_ancs[N_ANCS_TABLES + 5];
    sqlite3_stmt *del_evnt[5];
    long rows_warned; /* warnings rows written (stats) */
    int batching;     /* inside db_put_ancs / db_put_evnt: batchable rows are buffered */
    struct batch *batch[S_COUNT]; /* NULL: the statement is not batched */
    char *btext;                  /* text of the buffered rows */
    size_t btext_len, btext_cap;
    int boom; /* bv_t ran out of memory */
};

/* Internal entry points for ingest.c (declared there too). */
sqlite3 *db_priv_handle(db *d);
sqlite3_stmt *db_priv_stmt(db *d, int which);
long db_priv_warnings(db *d);
int db_priv_put(db *d, int sid, util_err *err, const char *fmt, ...);
int db_priv_sql_fail(db *d, util_err *err, const char *what);
int db_priv_warn(db *d, const char *game, const char *type, int64_t asset_id, int64_t offset,
                 const char *code, const char *msg, int64_t pak_id, util_err *err);

sqlite3 *db_priv_handle(db *d)
{
    return d->h;
}

long db_priv_warnings(db *d)
{
    return d->rows_warned;
}

int db_priv_sql_fail(db *d, util_err *err, const char *what)
{
    return util_fail(err, UTIL_ESQL, UINT64_MAX, "%s: %s", what,
                     d && d->h ? sqlite3_errmsg(d->h) : "no connection");
}

sqlite3_stmt *db_priv_stmt(db *d, int which)
{
    return which >= 0 && which < S_COUNT ? d->st[which] : NULL;
}

/* ---- batched inserts -------------------------------------------------------------- *
 * SQLite spends about as much on running a one-row INSERT statement as on the row itself.
 * Inside db_put_ancs / db_put_evnt the rows of the busiest INSERTs are buffered and written
 * by INSERTs of 2^k rows (at most BATCH_MAX), in the order they came: the same rows, rowids
 * and INSERT OR IGNORE outcome as one statement per row. Values and text are copied. */
#define BATCH_LOG 5
#define BATCH_MAX (1 << BATCH_LOG)

typedef struct bval {
    char kind; /* 'i' integer, 'r' real, 't' text at off (len bytes), 'n' NULL */
    int64_t i;
    double r;
    size_t off, len;
} bval;

typedef struct batch {
    int ncols, rows;
    sqlite3_stmt *multi[BATCH_LOG + 1]; /* 2^k rows; prepared when first needed */
    bval vals[];                        /* BATCH_MAX * ncols */
} batch;

static const int batched_sids[] = {S_EVENT_INS, S_NODE_INS,  S_REF_INS,   S_PRIM_INS, S_PREF_INS,
                                   S_ANIM_INS,  S_CANIM_INS, S_IDMAP_INS, S_AABB_INS, S_IAABB_INS,
                                   S_INFO_INS,  S_ESET_INS,  S_VAL_INS,   S_STATE_INS};

static int batch_init(db *d, util_err *err)
{
    for (size_t k = 0; k < sizeof batched_sids / sizeof batched_sids[0]; k++) {
        int sid = batched_sids[k];
        int n = sqlite3_bind_parameter_count(d->st[sid]);
        batch *b = calloc(1, sizeof *b + (size_t)BATCH_MAX * (size_t)n * sizeof(bval));
        if (!b)
            return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        b->ncols = n;
        d->batch[sid] = b;
    }
    return 0;
}

static void batch_free(db *d)
{
    for (int i = 0; i < S_COUNT; i++) {
        if (!d->batch[i])
            continue;
        for (int k = 0; k <= BATCH_LOG; k++)
            sqlite3_finalize(d->batch[i]->multi[k]);
        free(d->batch[i]);
        d->batch[i] = NULL;
    }
    free(d->btext);
    d->btext = NULL;
    d->btext_len = d->btext_cap = 0;
}

/* "INSERT ... VALUES" of sid followed by 2^k rows of anonymous parameters. */
static int batch_prepare(db *d, int sid, int k, util_err *err)
{
    batch *b = d->batch[sid];
    const char *one = stmt_sql[sid];
    const char *v = strstr(one, "VALUES(");
    if (!v)
        return util_fail(err, UTIL_ESQL, UINT64_MAX, "batch: no VALUES in %s", one);
    sqlite3_str *q = sqlite3_str_new(d->h);
    sqlite3_str_append(q, one, (int)(v - one) + 6);
    for (int r = 0; r < (1 << k); r++) {
        sqlite3_str_appendall(q, r ? ",(" : "(");
        for (int c = 0; c < b->ncols; c++)
            sqlite3_str_appendall(q, c ? ",?" : "?");
        sqlite3_str_appendall(q, ")");
    }
    char *sql = sqlite3_str_finish(q);
    if (!sql)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    int s = sqlite3_prepare_v3(d->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &b->multi[k], NULL);
    sqlite3_free(sql);
    return s == SQLITE_OK ? 0 : db_priv_sql_fail(d, err, "prepare batch");
}

/* Write rows [from, from + 2^k) of sid's buffer with one statement. */
static int batch_step(db *d, int sid, int from, int k, util_err *err)
{
    batch *b = d->batch[sid];
    if (!b->multi[k] && batch_prepare(d, sid, k, err))
        return UTIL_ESQL;
    sqlite3_stmt *st = b->multi[k];
    const bval *v = &b->vals[(size_t)from * (size_t)b->ncols];
    int n = (1 << k) * b->ncols;
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
        rc = util_fail(err, UTIL_ESQL, UINT64_MAX, "insert: %s (%s)", sqlite3_errmsg(d->h),
                       stmt_sql[sid]);
    sqlite3_reset(st);
    return rc;
}

/* Write every buffered row, or drop them all (discard). */
static int batch_flush(db *d, int discard, util_err *err)
{
    int rc = 0;
    for (size_t i = 0; i < sizeof batched_sids / sizeof batched_sids[0]; i++) {
        int sid = batched_sids[i];
        batch *b = d->batch[sid];
        if (!b)
            continue;
        int from = 0;
        for (int k = BATCH_LOG; k >= 0 && !rc && !discard; k--)
            if (b->rows & (1 << k)) {
                rc = batch_step(d, sid, from, k, err);
                from += 1 << k;
            }
        b->rows = 0;
    }
    d->btext_len = 0;
    return rc;
}

static int batch_text_add(db *d, const char *s, size_t *off, size_t *len)
{
    size_t n = strlen(s);
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
    memcpy(d->btext + d->btext_len, s, n + 1);
    *off = d->btext_len;
    *len = n;
    d->btext_len += n + 1;
    return 0;
}

/* vput for a batched statement: buffer one row (columns past fmt are NULL). */
static int batch_put(db *d, int sid, util_err *err, const char *fmt, va_list ap)
{
    batch *b = d->batch[sid];
    bval *row = &b->vals[(size_t)b->rows * (size_t)b->ncols];
    int col = 0;
    for (const char *f = fmt; *f; f++, col++) {
        if (col >= b->ncols)
            return util_fail(err, UTIL_ESQL, UINT64_MAX, "insert: too many values for %s",
                             stmt_sql[sid]);
        bval *v = &row[col];
        v->kind = 'n';
        switch (*f) {
        case 'i':
            v->kind = 'i';
            v->i = va_arg(ap, int64_t);
            break;
        case 'u':
            v->kind = 'i';
            v->i = (int64_t)va_arg(ap, unsigned);
            break;
        case 'd':
            v->kind = 'i';
            v->i = va_arg(ap, int);
            break;
        case 'r':
            v->kind = 'r';
            v->r = va_arg(ap, double);
            break;
        case 's':
        case 'S': {
            const char *s = va_arg(ap, const char *);
            if (s) {
                if (batch_text_add(d, s, &v->off, &v->len))
                    return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
                v->kind = 't';
            }
            break;
        }
        case '-':
            break;
        case 'o': {
            int present = va_arg(ap, int);
            unsigned u = va_arg(ap, unsigned);
            if (present) {
                v->kind = 'i';
                v->i = (int64_t)u;
            }
            break;
        }
        default:
            return util_fail(err, UTIL_ESQL, UINT64_MAX, "insert: bad format '%c'", *f);
        }
    }
    for (; col < b->ncols; col++)
        row[col].kind = 'n';
    if (++b->rows < BATCH_MAX)
        return 0;
    int rc = batch_step(d, sid, 0, BATCH_LOG, err);
    b->rows = 0;
    return rc;
}

/* Rows of a batched statement filled column by column (columns count from 1, as in
 * sqlite3_bind_*): brow_begin, bv_* for the non-NULL columns, brow_end. Outside
 * db_put_ancs / db_put_evnt the row is written at once. */
static bval *brow_begin(db *d, int sid)
{
    batch *b = d->batch[sid];
    bval *row = &b->vals[(size_t)b->rows * (size_t)b->ncols];
    for (int c = 0; c < b->ncols; c++)
        row[c].kind = 'n';
    d->boom = 0;
    return row;
}

static void bv_i(bval *row, int col, int64_t v)
{
    row[col - 1].kind = 'i';
    row[col - 1].i = v;
}

static void bv_r(bval *row, int col, double v)
{
    row[col - 1].kind = 'r';
    row[col - 1].r = v;
}

static void bv_t(db *d, bval *row, int col, const char *s)
{
    if (!s)
        return;
    if (batch_text_add(d, s, &row[col - 1].off, &row[col - 1].len)) {
        d->boom = 1;
        return;
    }
    row[col - 1].kind = 't';
}

static int brow_end(db *d, int sid, util_err *err)
{
    batch *b = d->batch[sid];
    if (d->boom)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    if (!d->batching) {
        int rc = batch_step(d, sid, b->rows, 0, err);
        d->btext_len = 0;
        return rc;
    }
    if (++b->rows < BATCH_MAX)
        return 0;
    int rc = batch_step(d, sid, 0, BATCH_LOG, err);
    b->rows = 0;
    return rc;
}

/* Bind by a format string and step once, then reset:
 *   i int64_t, u unsigned (uint32_t), d int, r double, s static text (NULL -> NULL),
 *   S transient text, - NULL, o optional unsigned: (int present, unsigned value),
 *   f float bits of an unsigned as REAL. */
static int vput(db *d, sqlite3_stmt *st, util_err *err, const char *fmt, va_list ap)
{
    int rc = SQLITE_OK;
    int col = 1;
    for (const char *f = fmt; *f && rc == SQLITE_OK; f++, col++) {
        switch (*f) {
        case 'i':
            rc = sqlite3_bind_int64(st, col, va_arg(ap, int64_t));
            break;
        case 'u':
            rc = sqlite3_bind_int64(st, col, (int64_t)va_arg(ap, unsigned));
            break;
        case 'd':
            rc = sqlite3_bind_int64(st, col, va_arg(ap, int));
            break;
        case 'r':
            rc = sqlite3_bind_double(st, col, va_arg(ap, double));
            break;
        case 's':
        case 'S': {
            const char *s = va_arg(ap, const char *);
            rc = s ? sqlite3_bind_text(st, col, s, -1, *f == 's' ? SQLITE_STATIC : SQLITE_TRANSIENT)
                   : sqlite3_bind_null(st, col);
            break;
        }
        case '-':
            rc = sqlite3_bind_null(st, col);
            break;
        case 'o': {
            int present = va_arg(ap, int);
            unsigned v = va_arg(ap, unsigned);
            rc = present ? sqlite3_bind_int64(st, col, (int64_t)v) : sqlite3_bind_null(st, col);
            break;
        }
        default:
            rc = SQLITE_MISUSE;
        }
    }
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_DONE || rc == SQLITE_ROW)
            rc = SQLITE_OK;
    }
    if (rc != SQLITE_OK) {
        util_fail(err, UTIL_ESQL, UINT64_MAX, "insert: %s (%s)", sqlite3_errmsg(d->h),
                  sqlite3_sql(st));
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_OK ? 0 : UTIL_ESQL;
}

int db_priv_put(db *d, int sid, util_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = d->batching && d->batch[sid] ? batch_put(d, sid, err, fmt, ap)
                                          : vput(d, d->st[sid], err, fmt, ap);
    va_end(ap);
    return rc;
}

#define PUT(sid, ...) db_priv_put(d, S_##sid, err, __VA_ARGS__)
#undef TRY /* here: set rc and goto done (util.h's TRY returns) */
#define TRY(x)                                                                                     \
    do {                                                                                           \
        int rc_ = (x);                                                                             \
        if (rc_ != 0) {                                                                            \
            rc = rc_;                                                                              \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

int db_priv_warn(db *d, const char *game, const char *type, int64_t asset_id, int64_t offset,
                 const char *code, const char *msg, int64_t pak_id, util_err *err)
{
    sqlite3_stmt *st = d->st[S_WARN_INS];
    int rc = 0;
    if (sqlite3_bind_text(st, 1, game, -1, SQLITE_TRANSIENT) ||
        sqlite3_bind_text(st, 2, type, -1, SQLITE_TRANSIENT) ||
        (asset_id < 0 ? sqlite3_bind_null(st, 3) : sqlite3_bind_int64(st, 3, asset_id)) ||
        (offset < 0 ? sqlite3_bind_null(st, 4) : sqlite3_bind_int64(st, 4, offset)) ||
        sqlite3_bind_text(st, 5, code, -1, SQLITE_TRANSIENT) ||
        sqlite3_bind_text(st, 6, msg, -1, SQLITE_TRANSIENT) ||
        (pak_id < 0 ? sqlite3_bind_null(st, 7) : sqlite3_bind_int64(st, 7, pak_id)) ||
        sqlite3_step(st) != SQLITE_DONE)
        rc = db_priv_sql_fail(d, err, "insert warning");
    else
        d->rows_warned++;
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc;
}

/* ---- open / close -------------------------------------------------------------------- */

static int exec_simple(db *d, const char *sql, util_err *err)
{
    char *msg = NULL;
    if (sqlite3_exec(d->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
        util_fail(err, UTIL_ESQL, UINT64_MAX, "%s: %s", sql, msg ? msg : sqlite3_errmsg(d->h));
        sqlite3_free(msg);
        return UTIL_ESQL;
    }
    return 0;
}

static int query_int(db *d, const char *sql, int64_t *out, util_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(d->h, sql, -1, &st, NULL) != SQLITE_OK)
        return db_priv_sql_fail(d, err, sql);
    int s = sqlite3_step(st);
    if (s == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    else if (s == SQLITE_DONE)
        *out = 0;
    else
        rc = db_priv_sql_fail(d, err, sql);
    sqlite3_finalize(st);
    return rc;
}

static int prepare_all(db *d, util_err *err)
{
    for (int i = 0; i < S_COUNT; i++)
        if (sqlite3_prepare_v3(d->h, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &d->st[i], NULL) !=
            SQLITE_OK)
            return db_priv_sql_fail(d, err, stmt_sql[i]);
    if (batch_init(d, err))
        return UTIL_ENOMEM;
    char sql[256];
    size_t k = 0;
    for (; k < N_ANCS_TABLES; k++) {
        snprintf(sql, sizeof sql, "DELETE FROM %s WHERE game = ?1 AND ancs_id = ?2",
                 ancs_tables[k]);
        if (sqlite3_prepare_v3(d->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &d->del_ancs[k], NULL) !=
            SQLITE_OK)
            return db_priv_sql_fail(d, err, sql);
    }
    static const char *const common_ancs[] = {
        "DELETE FROM ancs WHERE game = ?1 AND asset_id = ?2",
        "DELETE FROM events WHERE game = ?1 AND owner_type = 'ANCS' AND owner_id = ?2",
        "DELETE FROM asset_refs WHERE game = ?1 AND src_type = 'ANCS' AND src_id = ?2",
        ("DELETE FROM warnings WHERE game = ?1 AND asset_id = ?2 AND type = 'ANCS' AND "
         "pak_id IS NULL"),
        "DELETE FROM decoded WHERE game = ?1 AND asset_id = ?2 AND type = 'ANCS'",
    };
    static const char *const common_evnt[] = {
        "DELETE FROM evnt WHERE game = ?1 AND asset_id = ?2",
        "DELETE FROM events WHERE game = ?1 AND owner_type = 'EVNT' AND owner_id = ?2",
        "DELETE FROM asset_refs WHERE game = ?1 AND src_type = 'EVNT' AND src_id = ?2",
        ("DELETE FROM warnings WHERE game = ?1 AND asset_id = ?2 AND type = 'EVNT' AND "
         "pak_id IS NULL"),
        "DELETE FROM decoded WHERE game = ?1 AND asset_id = ?2 AND type = 'EVNT'",
    };
    for (size_t i = 0; i < 5; i++) {
        if (sqlite3_prepare_v3(d->h, common_ancs[i], -1, SQLITE_PREPARE_PERSISTENT,
                               &d->del_ancs[k + i], NULL) != SQLITE_OK)
            return db_priv_sql_fail(d, err, common_ancs[i]);
        if (sqlite3_prepare_v3(d->h, common_evnt[i], -1, SQLITE_PREPARE_PERSISTENT, &d->del_evnt[i],
                               NULL) != SQLITE_OK)
            return db_priv_sql_fail(d, err, common_evnt[i]);
    }
    return 0;
}

int db_open(db **out, const char *path, int mode, util_err *err)
{
    int rc = 0;
    *out = NULL;
    db *d = calloc(1, sizeof *d);
    if (!d)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    d->readonly = mode == DB_OPEN_READONLY;
    /* A db handle is used by one thread at a time (the ingest's workers never touch
     * SQLite): no per-connection mutex. No memory statistics: they take a global mutex on
     * every allocation. sqlite3_config fails harmlessly once the library is initialised. */
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    int flags = SQLITE_OPEN_NOMUTEX |
                (d->readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (sqlite3_open_v2(path, &d->h, flags, NULL) != SQLITE_OK) {
        rc = util_fail(err, UTIL_ESQL, UINT64_MAX, "cannot open database %s: %s", path,
                       d->h ? sqlite3_errmsg(d->h) : "out of memory");
        goto done;
    }
    sqlite3_extended_result_codes(d->h, 1);
    sqlite3_busy_timeout(d->h, 5000);
    int64_t ver = 0, tables = 0;
    TRY(query_int(d, "PRAGMA user_version", &ver, err));
    TRY(query_int(d, "SELECT count(*) FROM sqlite_master", &tables, err));
    if (ver != 0 && ver != DB_SCHEMA_VERSION) {
        rc = util_fail(err, DB_EVERSION, UINT64_MAX,
                       "%s has schema version %" PRId64 ", this ancsdb uses %d: %s", path, ver,
                       DB_SCHEMA_VERSION,
                       ver < DB_SCHEMA_VERSION ? "re-ingest into a new database file"
                                               : "use a newer ancsdb");
        goto done;
    }
    if (ver == 0 && tables != 0) {
        rc = util_fail(err, DB_EVERSION, UINT64_MAX,
                       "%s is not an ancsdb database (user_version 0, %" PRId64 " objects)", path,
                       tables);
        goto done;
    }
    if (d->readonly) {
        if (ver == 0) {
            rc = util_fail(err, UTIL_ESQL, UINT64_MAX,
                           "%s holds no ancsdb data yet (run 'ancsdb ingest')", path);
            goto done;
        }
        TRY(exec_simple(d, "PRAGMA query_only = 1", err));
        /* No ATTACH: it would create files, and VACUUM INTO (which attaches its target)
         * creates its output file before query_only refuses the write. */
        sqlite3_limit(d->h, SQLITE_LIMIT_ATTACHED, 0);
        *out = d;
        return 0;
    }
    /* A new file gets 8 KiB pages (SQLite's default is 4 KiB): a bulk load of millions of
     * small rows runs ~10% faster (fewer pages to split, write and checkpoint). 16 KiB is no
     * faster and raises the peak RSS of queries with several sorts (unknown-census at 10x:
     * 66 MiB; sorters keep at least 250 pages each). Only possible before the first table
     * exists and before WAL mode. */
    if (ver == 0 && tables == 0)
        TRY(exec_simple(d, "PRAGMA page_size = 8192", err));
    /* WAL cannot apply to :memory:; the pragma then reports "memory", which is fine. */
    TRY(exec_simple(d, "PRAGMA journal_mode = WAL", err));
    TRY(exec_simple(d, "PRAGMA synchronous = NORMAL", err));
    TRY(exec_simple(d, "PRAGMA temp_store = MEMORY", err));
    TRY(exec_simple(d, "PRAGMA foreign_keys = OFF", err));
    if (ver == 0) {
        char sql[64];
        TRY(exec_simple(d, "BEGIN IMMEDIATE", err));
        if (exec_simple(d, db_schema_sql, err) != 0) {
            sqlite3_exec(d->h, "ROLLBACK", NULL, NULL, NULL);
            rc = UTIL_ESQL;
            goto done;
        }
        snprintf(sql, sizeof sql, "PRAGMA user_version = %d", DB_SCHEMA_VERSION);
        TRY(exec_simple(d, sql, err));
        TRY(exec_simple(d, "COMMIT", err));
    }
    TRY(prepare_all(d, err));
    *out = d;
    return 0;
done:
    db_close(d);
    return rc;
}

void db_close(db *d)
{
    if (!d)
        return;
    batch_free(d);
    for (int i = 0; i < S_COUNT; i++)
        sqlite3_finalize(d->st[i]);
    for (size_t i = 0; i < N_ANCS_TABLES + 5; i++)
        sqlite3_finalize(d->del_ancs[i]);
    for (size_t i = 0; i < 5; i++)
        sqlite3_finalize(d->del_evnt[i]);
    /* analysis_limit: ANALYZE samples about 1000 rows per index instead of reading every row
     * (0.5 s after a 10x bulk load; the query plans stay the same). */
    if (d->h && !d->readonly)
        sqlite3_exec(d->h, "PRAGMA analysis_limit = 1000; PRAGMA optimize", NULL, NULL, NULL);
    sqlite3_close(d->h);
    free(d);
}

int db_begin(db *d, util_err *err)
{
    return exec_simple(d, "BEGIN IMMEDIATE", err);
}

int db_commit(db *d, util_err *err)
{
    return exec_simple(d, "COMMIT", err);
}

void db_rollback(db *d)
{
    if (!sqlite3_get_autocommit(d->h))
        sqlite3_exec(d->h, "ROLLBACK", NULL, NULL, NULL);
}

int db_delete_asset(db *d, const char *game, const char *type, uint32_t asset_id, util_err *err)
{
    int is_ancs = !strcmp(type, "ANCS");
    sqlite3_stmt **list = is_ancs ? d->del_ancs : d->del_evnt;
    size_t n = is_ancs ? N_ANCS_TABLES + 5 : 5;
    for (size_t i = 0; i < n; i++) {
        sqlite3_stmt *st = list[i];
        int s = SQLITE_ERROR;
        if (sqlite3_bind_text(st, 1, game, -1, SQLITE_TRANSIENT) == SQLITE_OK &&
            sqlite3_bind_int64(st, 2, asset_id) == SQLITE_OK)
            s = sqlite3_step(st);
        sqlite3_reset(st);
        if (s != SQLITE_DONE)
            return db_priv_sql_fail(d, err, "delete asset rows");
    }
    return 0;
}

/* ---- statement runner ---------------------------------------------------------------- */

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
            rc = db_priv_sql_fail(d, err, "SQL error");
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
                rc = db_priv_sql_fail(d, err, "bind");
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
            rc = db_priv_sql_fail(d, err, "SQL error");
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

/* ---- structs -> rows ------------------------------------------------------------------ */

static const char *fourcc(uint32_t v, char buf[5])
{
    util_fourcc_str(v, buf);
    return buf;
}

static int id_none(uint32_t id)
{
    return id == 0 || id == 0xFFFFFFFFu;
}

/* Insertion context of one ANCS. */
typedef struct wctx {
    db *d;
    const char *game;
    uint32_t ancs_id;
    const ancs_set *set;
    util_err *err;
    int rc;
    /* meta-animation tree walk */
    const char *owner;
    uint32_t owner_index;
    uint32_t seq;
    uint32_t prim_seq;
    /* Play-node ANIM collection */
    uint32_t *anims;
    size_t nanims, capanims;
} wctx;

static int put_ref(wctx *w, const char *dst_type, uint32_t dst, int64_t char_index, const char *via)
{
    if (id_none(dst))
        return 0;
    db *d = w->d;
    util_err *err = w->err;
    if (char_index < 0)
        return PUT(REF_INS, "ssusu-s", w->game, "ANCS", w->ancs_id, dst_type, dst, via);
    return PUT(REF_INS, "ssusuis", w->game, "ANCS", w->ancs_id, dst_type, dst, char_index, via);
}

static const char *prob_pattern(const ancs_meta_anim *m)
{
    if (!m->probabilities || m->child_count == 0)
        return "empty";
    for (uint32_t i = 1; i < m->child_count; i++)
        if (m->probabilities[i] < m->probabilities[i - 1])
            return "not_ascending";
    return m->probabilities[m->child_count - 1] >= 100 ? "ascending_to_100" : "ascending_below_100";
}

static int tree_depth(const ancs_meta_anim *m, int depth)
{
    int best = depth;
    if (depth > 4 * ANCS_MAX_DEPTH || m->type == ANCS_META_PLAY || !m->children)
        return best;
    for (uint32_t i = 0; i < m->child_count; i++) {
        int t = tree_depth(&m->children[i], depth + 1);
        if (t > best)
            best = t;
    }
    return best;
}

/* Pre-order rows of every node of one tree, and the Play nodes as anim_primitives. */
static int put_nodes(wctx *w, const ancs_meta_anim *m, int64_t parent, int64_t child_pos,
                     const char *path, int depth, int64_t probability)
{
    db *d = w->d;
    util_err *err = w->err;
    int rc = 0;
    uint32_t my = w->seq++;
    int play = m->type == ANCS_META_PLAY;
    int blend = m->type == ANCS_META_BLEND || m->type == ANCS_META_PHASE_BLEND;
    int has_children = !play && m->children;
    if (depth > 4 * ANCS_MAX_DEPTH)
        return 0;
    bval *row = brow_begin(d, S_NODE_INS);
    bv_t(d, row, 1, w->game);
    bv_i(row, 2, w->ancs_id);
    bv_t(d, row, 3, w->owner);
    bv_i(row, 4, w->owner_index);
    bv_i(row, 5, my);
    if (parent >= 0)
        bv_i(row, 6, parent);
    if (child_pos >= 0)
        bv_i(row, 7, child_pos);
    bv_t(d, row, 8, path);
    bv_i(row, 9, depth);
    bv_i(row, 10, m->type);
    if (play) {
        bv_i(row, 11, m->anim_id);
        bv_i(row, 12, m->primitive_id);
        bv_t(d, row, 13, m->primitive_name);
        bv_r(row, 14, m->start_time.time);
        bv_i(row, 15, m->start_time.type);
    }
    if (blend) {
        bv_r(row, 16, m->blend_weight);
        bv_i(row, 17, m->unknown_flag);
    }
    if (!play)
        bv_i(row, 18, m->child_count);
    if (probability >= 0)
        bv_i(row, 19, probability);
    if (m->type == ANCS_META_RANDOM)
        bv_t(d, row, 20, prob_pattern(m));
    bv_i(row, 21, (int64_t)m->offset);
    if ((rc = brow_end(d, S_NODE_INS, err)) != 0)
        return rc;
    if (play) {
        TRY(PUT(PRIM_INS, "susuuuusrd", w->game, w->ancs_id, w->owner, w->owner_index,
                w->prim_seq++, m->anim_id, m->primitive_id, m->primitive_name,
                (double)m->start_time.time, (int)m->start_time.type));
        return 0;
    }
    if (!has_children)
        return 0;
    for (uint32_t i = 0; i < m->child_count; i++) {
        char sub[512];
        int subn = snprintf(sub, sizeof sub, "%s%s%u", path, *path ? "." : "", i);
        if (subn < 0 || (size_t)subn >= sizeof sub)
            return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "meta-animation path too deep");
        int64_t p =
            m->type == ANCS_META_RANDOM && m->probabilities ? (int64_t)m->probabilities[i] : -1;
        TRY(put_nodes(w, &m->children[i], my, i, sub, depth + 1, p));
    }
done:
    return rc;
}

static void collect_play(const ancs_meta_anim *play, void *ctx)
{
    wctx *w = ctx;
    for (size_t i = 0; i < w->nanims; i++)
        if (w->anims[i] == play->anim_id)
            return;
    if (w->nanims == w->capanims) {
        size_t cap = w->capanims ? w->capanims * 2 : 16;
        uint32_t *n = realloc(w->anims, cap * sizeof *n);
        if (!n) {
            w->rc = UTIL_ENOMEM;
            return;
        }
        w->anims = n;
        w->capanims = cap;
    }
    w->anims[w->nanims++] = play->anim_id;
}

/* The distinct ANIM IDs of a tree (into w->anims, reset first). */
static int play_anims(wctx *w, const ancs_meta_anim *m, const ancs_meta_trans *t)
{
    w->nanims = 0;
    w->rc = 0;
    if (m)
        ancs_meta_anim_walk(m, collect_play, w);
    if (t)
        ancs_meta_trans_walk(t, collect_play, w);
    if (w->rc)
        return util_fail(w->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    return 0;
}

static int put_trans_tree(wctx *w, const char *owner, uint32_t index, const ancs_meta_trans *t)
{
    if (t->type != ANCS_TRANS_META_ANIM || !t->anim)
        return 0;
    w->owner = owner;
    w->owner_index = index;
    w->seq = 0;
    w->prim_seq = 0;
    int rc = put_nodes(w, t->anim, -1, -1, "", 1, -1);
    if (rc)
        return rc;
    rc = play_anims(w, NULL, t);
    for (size_t i = 0; i < w->nanims && !rc; i++)
        rc = put_ref(w, "ANIM", w->anims[i], -1, owner);
    return rc;
}

static int trans_fields(const ancs_meta_trans *t)
{
    return t->type == ANCS_TRANS_TRANS || t->type == ANCS_TRANS_PHASE_TRANS;
}

/* Bind a meta-transition's type at column col and, for Trans/PhaseTrans, its duration, flag,
 * run_a and flags at the next five (left NULL otherwise); step, reset and clear. */
static int step_trans_row(db *d, sqlite3_stmt *st, int col, const ancs_meta_trans *t,
                          const char *what, util_err *err)
{
    sqlite3_bind_int64(st, col, t->type);
    if (trans_fields(t)) {
        sqlite3_bind_double(st, col + 1, t->duration.time);
        sqlite3_bind_int64(st, col + 2, t->duration.type);
        sqlite3_bind_int64(st, col + 3, t->unknown_flag);
        sqlite3_bind_int64(st, col + 4, t->run_a);
        sqlite3_bind_int64(st, col + 5, t->flags);
    }
    int s = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return s == SQLITE_DONE ? 0 : db_priv_sql_fail(d, err, what);
}

/* Rows of the nodes of one event set / EVNT. owner_type 'EVNT' or 'ANCS'. */
static int put_event_nodes(db *d, const char *game, const char *owner_type, uint32_t owner_id,
                           int64_t anim_index, const ancs_evnt *ev, int mp2, util_err *err)
{
    int rc = 0;
    for (int kind = 0; kind < 4; kind++) {
        uint32_t n = kind == 0   ? ev->bool_count
                     : kind == 1 ? ev->int32_count
                     : kind == 2 ? ev->particle_count
                                 : ev->sound_count;
        static const char *const kinds[] = {"bool", "int32", "particle", "sound"};
        for (uint32_t i = 0; i < n; i++) {
            const ancs_poi *b = kind == 0   ? &ev->bools[i].base
                                : kind == 1 ? &ev->int32s[i].base
                                : kind == 2 ? &ev->particles[i].base
                                            : &ev->sounds[i].base;
            bval *row = brow_begin(d, S_EVENT_INS);
            bv_t(d, row, 1, game);
            bv_t(d, row, 2, owner_type);
            bv_i(row, 3, owner_id);
            if (anim_index >= 0)
                bv_i(row, 4, anim_index);
            bv_t(d, row, 5, kinds[kind]);
            bv_i(row, 6, i);
            bv_i(row, 7, (int64_t)b->offset);
            bv_i(row, 8, b->unknown_u16);
            bv_t(d, row, 9, b->name);
            bv_i(row, 10, b->poi_type);
            bv_r(row, 11, b->time.time);
            bv_i(row, 12, b->time.type);
            bv_i(row, 13, b->index);
            bv_i(row, 14, b->unique);
            bv_r(row, 15, b->weight);
            bv_i(row, 16, b->char_index);
            bv_i(row, 17, b->flags);
            char fc[5];
            if (kind == 0) {
                bv_i(row, 18, ev->bools[i].value);
            } else if (kind == 1) {
                bv_i(row, 18, ev->int32s[i].value);
                bv_t(d, row, 19, ev->int32s[i].locator_name);
            } else if (kind == 2) {
                const ancs_poi_particle *p = &ev->particles[i];
                bv_i(row, 20, p->duration);
                bv_t(d, row, 21, fourcc(p->particle_type, fc));
                bv_i(row, 22, p->particle_id);
                if (mp2)
                    bv_i(row, 24, p->bone_id);
                else
                    bv_t(d, row, 23, p->bone_name);
                bv_r(row, 25, p->scale);
                bv_i(row, 26, p->parented_mode);
            } else {
                const ancs_poi_sound *s = &ev->sounds[i];
                bv_i(row, 27, s->sound_id);
                bv_r(row, 28, s->falloff);
                bv_r(row, 29, s->max_distance);
                if (mp2) {
                    bv_i(row, 30, s->echoes_unknown_a);
                    bv_i(row, 31, s->echoes_unknown_b);
                    bv_i(row, 32, s->echoes_unknown_c);
                    bv_r(row, 33, s->echoes_unknown_d);
                }
            }
            TRY(brow_end(d, S_EVENT_INS, err));
        }
    }
done:
    return rc;
}

static int put_report_warnings(db *d, const char *game, const char *type, uint32_t id,
                               const ancs_report *rep, util_err *err)
{
    for (const ancs_warning *w = rep->warnings; w; w = w->next) {
        int rc = db_priv_warn(d, game, type, id, w->offset == UINT64_MAX ? -1 : (int64_t)w->offset,
                              w->code, w->msg, -1, err);
        if (rc)
            return rc;
    }
    return 0;
}

static int put_id_list(wctx *w, uint32_t ci, const ancs_id_list *l, const char *list,
                       const char *ptype, const char *via)
{
    db *d = w->d;
    util_err *err = w->err;
    int rc = 0;
    for (uint32_t k = 0; k < l->count; k++) {
        TRY(PUT(PREF_INS, "suussu-su", w->game, w->ancs_id, ci, "particles", list, k, ptype,
                l->ids[k]));
        TRY(put_ref(w, ptype, l->ids[k], ci, via));
    }
done:
    return rc;
}

static int put_pas_value(db *d, int sid, util_err *err, int32_t type, uint32_t raw,
                         const char *game, uint32_t ancs, uint32_t ci, uint32_t si, uint32_t ii,
                         uint32_t pi)
{
    /* typed value: 0 s32, 1 u32, 2 f32, 3 bool, 4 enum */
    if (type == ANCS_PARM_FLOAT) {
        float f;
        memcpy(&f, &raw, sizeof f);
        return db_priv_put(d, sid, err, "suuuuuru", game, ancs, ci, si, ii, pi, (double)f, raw);
    }
    if (type == ANCS_PARM_INT32)
        return db_priv_put(d, sid, err, "suuuuuiu", game, ancs, ci, si, ii, pi,
                           (int64_t)(int32_t)raw, raw);
    if (type >= 0 && type <= 4)
        return db_priv_put(d, sid, err, "suuuuuuu", game, ancs, ci, si, ii, pi, raw, raw);
    return db_priv_put(d, sid, err, "suuuuu--", game, ancs, ci, si, ii, pi);
}

static int put_character(wctx *w, uint32_t ci, const ancs_character *c, uint8_t *used)
{
    db *d = w->d;
    util_err *err = w->err;
    const char *game = w->game;
    uint32_t aid = w->ancs_id;
    const ancs_animset *as = &w->set->animset;
    int rc = 0;
    unsigned T = c->version;
    int mp2 = w->set->game == ANCS_GAME_MP2;
    char magic[5];
    TRY(PUT(CHAR_INS, "suuuusuuuooouoouuuouoooooSdui", game, aid, ci, c->char_id, T, c->name,
            c->model_id, c->skin_id, c->skeleton_id, ANCS_HAS_FROZEN(T), c->frozen_model_id,
            ANCS_HAS_FROZEN(T), c->frozen_skin_id, ANCS_HAS_MP2_FIELDS(T), c->cspp_id, c->unknown_a,
            ANCS_HAS_MP2_FIELDS(T), c->unknown_b, ANCS_HAS_MP2_FIELDS(T), (unsigned)c->unknown_c,
            c->anim_name_count, c->part.count, c->swhc.count, ANCS_HAS_THIRD_LIST(T),
            c->third.count, c->elsc.count, ANCS_HAS_MP2_FIELDS(T), c->spsc.count, ANCS_HAS_AABBS(T),
            c->aabb_count, ANCS_HAS_EFFECTS(T), c->effect_count, ANCS_HAS_ID_MAP(T),
            c->id_map.count, ANCS_HAS_MP2_FIELDS(T), c->indexed_aabb_count,
            fourcc(c->pas.magic, magic), (int)c->pas.default_state, c->pas.state_count,
            (int64_t)c->offset));
    /* character's own fields */
    TRY(put_ref(w, "CMDL", c->model_id, ci, "model"));
    TRY(put_ref(w, "CSKR", c->skin_id, ci, "skin"));
    TRY(put_ref(w, "CINF", c->skeleton_id, ci, "skeleton"));
    if (ANCS_HAS_FROZEN(T)) {
        TRY(put_ref(w, "CMDL", c->frozen_model_id, ci, "frozen_model"));
        TRY(put_ref(w, "CSKR", c->frozen_skin_id, ci, "frozen_skin"));
    }
    if (ANCS_HAS_MP2_FIELDS(T))
        TRY(put_ref(w, "CSPP", c->cspp_id, ci, "cspp"));
    /* animation names and which animation-set entries they select (CONTRACT rule 3) */
    for (uint32_t k = 0; k < c->anim_name_count; k++) {
        const ancs_anim_name *an = &c->anim_names[k];
        int64_t idx = -1;
        if (ANCS_HAS_ID_MAP(T)) {
            if (an->anim_id < c->id_map.count)
                idx = c->id_map.ids[an->anim_id];
        } else {
            idx = an->anim_id;
        }
        if (idx >= (int64_t)as->animation_count)
            idx = -1;
        if (idx >= 0)
            used[idx] = 1;
        TRY(PUT(CANIM_INS, "suuuusso", game, aid, ci, k, an->anim_id, an->unknown, an->name,
                idx >= 0, (unsigned)(idx >= 0 ? idx : 0)));
    }
    for (uint32_t k = 0; ANCS_HAS_ID_MAP(T) && k < c->id_map.count; k++)
        TRY(PUT(IDMAP_INS, "suuuu", game, aid, ci, k, c->id_map.ids[k]));
    /* PAS database */
    for (uint32_t s = 0; s < c->pas.state_count; s++) {
        const ancs_pas_state *ps = &c->pas.states[s];
        TRY(PUT(STATE_INS, "suuuduu", game, aid, ci, s, (int)ps->state_type, ps->parm_count,
                ps->anim_count));
        for (uint32_t p = 0; p < ps->parm_count; p++) {
            const ancs_pas_parm *pp = &ps->parms[p];
            sqlite3_stmt *st = d->st[S_PARM_INS];
            sqlite3_bind_text(st, 1, game, -1, SQLITE_STATIC);
            sqlite3_bind_int64(st, 2, aid);
            sqlite3_bind_int64(st, 3, ci);
            sqlite3_bind_int64(st, 4, s);
            sqlite3_bind_int64(st, 5, p);
            sqlite3_bind_int64(st, 6, pp->parm_type);
            sqlite3_bind_int64(st, 7, pp->weight_function);
            sqlite3_bind_double(st, 8, pp->weight);
            uint32_t raws[2] = {pp->min, pp->max};
            for (int j = 0; j < 2; j++) {
                int col = 9 + j;
                if (pp->parm_type == ANCS_PARM_FLOAT) {
                    float f;
                    memcpy(&f, &raws[j], sizeof f);
                    sqlite3_bind_double(st, col, f);
                } else if (pp->parm_type == ANCS_PARM_INT32) {
                    sqlite3_bind_int64(st, col, (int32_t)raws[j]);
                } else if (pp->parm_type >= 0 && pp->parm_type <= 4) {
                    sqlite3_bind_int64(st, col, raws[j]);
                }
                if (pp->parm_type >= 0 && pp->parm_type <= 4)
                    sqlite3_bind_int64(st, col + 2, raws[j]);
            }
            int sr = sqlite3_step(st);
            sqlite3_reset(st);
            sqlite3_clear_bindings(st);
            if (sr != SQLITE_DONE)
                TRY(db_priv_sql_fail(d, err, "insert pas_parms"));
        }
        for (uint32_t a = 0; a < ps->anim_count; a++) {
            const ancs_pas_anim *pa = &ps->anims[a];
            TRY(PUT(INFO_INS, "suuuuu", game, aid, ci, s, a, pa->anim_id));
            for (uint32_t p = 0; p < ps->parm_count && pa->values; p++)
                TRY(put_pas_value(d, S_VAL_INS, err, ps->parms[p].parm_type, pa->values[p], game,
                                  aid, ci, s, a, p));
        }
    }
    /* particle lists (CONTRACT rule 2); the third list at T >= 6 has no known type */
    TRY(put_id_list(w, ci, &c->part, "PART", "PART", "particles"));
    TRY(put_id_list(w, ci, &c->swhc, "SWHC", "SWHC", "particles"));
    if (ANCS_HAS_THIRD_LIST(T)) {
        for (uint32_t k = 0; k < c->third.count; k++) {
            TRY(PUT(PREF_INS, "suussu--u", game, aid, ci, "particles", "third_list", k,
                    c->third.ids[k]));
            TRY(put_ref(w, NULL, c->third.ids[k], ci, "third_list"));
        }
        TRY(put_id_list(w, ci, &c->elsc, "ELSC", "ELSC", "particles"));
    } else {
        TRY(put_id_list(w, ci, &c->elsc, "ELSC", "ELSC", "particles"));
    }
    if (ANCS_HAS_MP2_FIELDS(T))
        TRY(put_id_list(w, ci, &c->spsc, "SPSC", "SPSC", "particles"));
    /* boxes, effects */
    for (uint32_t k = 0; k < c->aabb_count; k++) {
        const ancs_aabox *b = &c->aabbs[k].box;
        TRY(PUT(AABB_INS, "suuusrrrrrr", game, aid, ci, k, c->aabbs[k].name, (double)b->min[0],
                (double)b->min[1], (double)b->min[2], (double)b->max[0], (double)b->max[1],
                (double)b->max[2]));
    }
    for (uint32_t k = 0; k < c->indexed_aabb_count; k++) {
        const ancs_aabox *b = &c->indexed_aabbs[k].box;
        TRY(PUT(IAABB_INS, "suuuurrrrrr", game, aid, ci, k, c->indexed_aabbs[k].anim_id,
                (double)b->min[0], (double)b->min[1], (double)b->min[2], (double)b->max[0],
                (double)b->max[1], (double)b->max[2]));
    }
    for (uint32_t e = 0; e < c->effect_count; e++) {
        const ancs_effect *ef = &c->effects[e];
        TRY(PUT(EFFECT_INS, "suuusu", game, aid, ci, e, ef->name, ef->comp_count));
        for (uint32_t k = 0; k < ef->comp_count; k++) {
            const ancs_effect_comp *cp = &ef->comps[k];
            char fc[5];
            fourcc(cp->particle_type, fc);
            TRY(PUT(COMP_INS, "suuuussusoruu", game, aid, ci, e, k, cp->name, fc, cp->particle_id,
                    mp2 ? NULL : cp->bone_name, mp2, cp->bone_id, (double)cp->scale,
                    cp->parented_mode, cp->flags));
            TRY(PUT(PREF_INS, "suussuuSu", game, aid, ci, "effect", "effect", k, e, fc,
                    cp->particle_id));
            TRY(put_ref(w, fc, cp->particle_id, ci, "effect"));
        }
    }
done:
    return rc;
}

/* A small set of u32 (linear; sizes are tens to hundreds). */
typedef struct u32set {
    uint32_t *v;
    size_t n, cap;
} u32set;

static int set_has(const u32set *s, uint32_t x)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i] == x)
            return 1;
    return 0;
}

static int set_add(u32set *s, uint32_t x)
{
    if (set_has(s, x))
        return 0;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        uint32_t *n = realloc(s->v, cap * sizeof *n);
        if (!n)
            return UTIL_ENOMEM;
        s->v = n;
        s->cap = cap;
    }
    s->v[s->n++] = x;
    return 0;
}

/* Particle nodes of event set ev reached by character ci (-1: every node, set level). */
static int put_event_particles(wctx *w, const ancs_evnt *ev, int64_t ci, const char *via)
{
    int rc = 0;
    for (uint32_t k = 0; k < ev->particle_count; k++) {
        const ancs_poi_particle *p = &ev->particles[k];
        if (ci >= 0 && p->base.char_index != -1 && p->base.char_index != ci)
            continue;
        char fc[5];
        rc = put_ref(w, fourcc(p->particle_type, fc), p->particle_id, ci, via);
        if (rc)
            break;
    }
    return rc;
}

static int put_ancs_rows(db *d, const char *game, uint32_t asset_id, const ancs_set *set,
                         util_err *err)
{
    int rc = 0;
    const ancs_animset *as = &set->animset;
    unsigned V = as->version;
    int mp2 = set->game == ANCS_GAME_MP2;
    uint8_t *used = NULL, *any_used = NULL;
    u32set anim_reached = {0}, evnt_reached = {0};
    wctx w = {.d = d, .game = game, .ancs_id = asset_id, .set = set, .err = err};
    const ancs_meta_trans *dt = &as->default_transition;
    int dtf = trans_fields(dt);

    {
        sqlite3_stmt *st = d->st[S_ANCS_INS];
        sqlite3_bind_text(st, 1, game, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, asset_id);
        sqlite3_bind_int64(st, 3, set->version);
        sqlite3_bind_int64(st, 4, set->charset_version);
        sqlite3_bind_int64(st, 5, set->char_count);
        sqlite3_bind_int64(st, 6, V);
        sqlite3_bind_int64(st, 7, as->animation_count);
        sqlite3_bind_int64(st, 8, as->transition_count);
        if (ANCS_SET_HAS_ADDITIVE(V)) {
            sqlite3_bind_int64(st, 9, as->additive_count);
            sqlite3_bind_double(st, 10, as->default_fade_in);
            sqlite3_bind_double(st, 11, as->default_fade_out);
        }
        if (ANCS_SET_HAS_HALF(V))
            sqlite3_bind_int64(st, 12, as->half_count);
        if (ANCS_SET_HAS_TAIL(V) && !mp2)
            sqlite3_bind_int64(st, 13, as->pair_count);
        if (ANCS_SET_HAS_TAIL(V) && mp2)
            sqlite3_bind_int64(st, 14, as->event_set_count);
        sqlite3_bind_int64(st, 15, dt->type);
        if (dtf) {
            sqlite3_bind_double(st, 16, dt->duration.time);
            sqlite3_bind_int64(st, 17, dt->duration.type);
            sqlite3_bind_int64(st, 18, dt->unknown_flag);
            sqlite3_bind_int64(st, 19, dt->run_a);
            sqlite3_bind_int64(st, 20, dt->flags);
        }
        sqlite3_bind_int64(st, 21, (int64_t)(set->report.consumed + set->report.trailing_len));
        sqlite3_bind_int64(st, 22, (int64_t)set->report.consumed);
        sqlite3_bind_int64(st, 23, (int64_t)set->report.trailing_len);
        sqlite3_bind_int64(st, 24, set->report.trailing_all_ff);
        int s = sqlite3_step(st);
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
        if (s != SQLITE_DONE)
            TRY(db_priv_sql_fail(d, err, "insert ancs"));
    }
    TRY(put_report_warnings(d, game, "ANCS", asset_id, &set->report, err));

    size_t na = as->animation_count;
    used = calloc(na ? na : 1, 1);
    any_used = calloc(na ? na : 1, 1);
    if (!used || !any_used)
        TRY(util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory"));

    /* animation set rows */
    for (uint32_t i = 0; i < as->animation_count; i++) {
        const ancs_animation *an = &as->animations[i];
        TRY(PUT(ANIM_INS, "suusud", game, asset_id, i, an->name, an->meta.type,
                tree_depth(&an->meta, 1)));
        w.owner = "animation";
        w.owner_index = i;
        w.seq = 0;
        w.prim_seq = 0;
        TRY(put_nodes(&w, &an->meta, -1, -1, "", 1, -1));
    }
    for (uint32_t i = 0; i < as->transition_count; i++) {
        const ancs_transition *t = &as->transitions[i];
        sqlite3_stmt *st = d->st[S_TRANS_INS];
        sqlite3_bind_text(st, 1, game, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, asset_id);
        sqlite3_bind_int64(st, 3, i);
        sqlite3_bind_int64(st, 4, t->unknown_id);
        sqlite3_bind_int64(st, 5, t->anim_a);
        sqlite3_bind_int64(st, 6, t->anim_b);
        TRY(step_trans_row(d, st, 7, &t->trans, "insert transitions", err));
        TRY(put_trans_tree(&w, "transition", i, &t->trans));
    }
    TRY(put_trans_tree(&w, "default_transition", 0, dt));
    for (uint32_t i = 0; i < as->additive_count; i++) {
        const ancs_additive *a = &as->additives[i];
        TRY(PUT(ADD_INS, "suuurr", game, asset_id, i, a->anim_index, (double)a->fade_in,
                (double)a->fade_out));
    }
    for (uint32_t i = 0; i < as->half_count; i++) {
        const ancs_half_transition *h = &as->halfs[i];
        sqlite3_stmt *st = d->st[S_HALF_INS];
        sqlite3_bind_text(st, 1, game, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, asset_id);
        sqlite3_bind_int64(st, 3, i);
        sqlite3_bind_int64(st, 4, h->anim);
        TRY(step_trans_row(d, st, 5, &h->trans, "insert half_transitions", err));
        TRY(put_trans_tree(&w, "half_transition", i, &h->trans));
    }
    for (uint32_t i = 0; i < as->pair_count; i++)
        TRY(PUT(PAIR_INS, "suuuu", game, asset_id, i, as->pairs[i].anim_id, as->pairs[i].evnt_id));
    for (uint32_t i = 0; i < as->event_set_count; i++) {
        const ancs_evnt *ev = &as->event_sets[i];
        TRY(PUT(ESET_INS, "suuuuuuo", game, asset_id, i, ev->version, ev->bool_count,
                ev->int32_count, ev->particle_count, ev->version >= 2, ev->sound_count));
        TRY(put_event_nodes(d, game, "ANCS", asset_id, i, ev, 1, err));
    }

    /* characters, and what each reaches through its animations (CONTRACT rules 1-4) */
    for (uint32_t ci = 0; ci < set->char_count; ci++) {
        memset(used, 0, na ? na : 1);
        TRY(put_character(&w, ci, &set->chars[ci], used));
        for (uint32_t i = 0; i < na; i++) {
            if (!used[i])
                continue;
            any_used[i] = 1;
            TRY(play_anims(&w, &as->animations[i].meta, NULL));
            for (size_t k = 0; k < w.nanims; k++) {
                uint32_t anim = w.anims[k];
                TRY(put_ref(&w, "ANIM", anim, ci, "animation"));
                if (set_add(&anim_reached, anim))
                    TRY(util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory"));
                if (mp2)
                    continue;
                for (uint32_t p = 0; p < as->pair_count; p++) {
                    if (as->pairs[p].anim_id != anim)
                        continue; /* first pair wins */
                    uint32_t ev = as->pairs[p].evnt_id;
                    TRY(put_ref(&w, "EVNT", ev, ci, "animation_resources"));
                    if (!id_none(ev) && set_add(&evnt_reached, ev))
                        TRY(util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory"));
                    break;
                }
            }
            if (mp2 && i < as->event_set_count)
                TRY(put_event_particles(&w, &as->event_sets[i], ci, "event"));
        }
    }
    /* references no single character owns */
    for (uint32_t i = 0; i < na; i++) {
        if (any_used[i])
            continue;
        TRY(play_anims(&w, &as->animations[i].meta, NULL));
        for (size_t k = 0; k < w.nanims; k++)
            if (!set_has(&anim_reached, w.anims[k]))
                TRY(put_ref(&w, "ANIM", w.anims[k], -1, "animation"));
    }
    for (uint32_t p = 0; p < as->pair_count; p++) {
        if (!set_has(&anim_reached, as->pairs[p].anim_id))
            TRY(put_ref(&w, "ANIM", as->pairs[p].anim_id, -1, "animation_resources"));
        if (!set_has(&evnt_reached, as->pairs[p].evnt_id))
            TRY(put_ref(&w, "EVNT", as->pairs[p].evnt_id, -1, "animation_resources"));
    }
    for (uint32_t i = 0; i < as->event_set_count; i++)
        if (i >= na || !any_used[i])
            TRY(put_event_particles(&w, &as->event_sets[i], -1, "event_set"));
done:
    free(used);
    free(any_used);
    free(w.anims);
    free(anim_reached.v);
    free(evnt_reached.v);
    return rc;
}

static int put_evnt_rows(db *d, const char *game, uint32_t asset_id, const ancs_evnt_file *evf,
                         util_err *err)
{
    int rc = 0;
    const ancs_evnt *ev = &evf->evnt;
    TRY(PUT(EVNT_INS, "suuuuuouu", game, asset_id, ev->version, ev->bool_count, ev->int32_count,
            ev->particle_count, ev->version >= 2, ev->sound_count,
            (unsigned)(evf->report.consumed + evf->report.trailing_len),
            (unsigned)evf->report.trailing_len));
    TRY(put_event_nodes(d, game, "EVNT", asset_id, -1, ev, evf->game == ANCS_GAME_MP2, err));
    for (uint32_t k = 0; k < ev->particle_count; k++) {
        const ancs_poi_particle *p = &ev->particles[k];
        char fc[5];
        if (id_none(p->particle_id))
            continue;
        fourcc(p->particle_type, fc);
        if (p->base.char_index < 0)
            TRY(PUT(REF_INS, "ssuSu-s", game, "EVNT", asset_id, fc, p->particle_id, "event"));
        else
            TRY(PUT(REF_INS, "ssuSuds", game, "EVNT", asset_id, fc, p->particle_id,
                    (int)p->base.char_index, "event"));
    }
    TRY(put_report_warnings(d, game, "EVNT", asset_id, &evf->report, err));
done:
    return rc;
}

/* The rows of one decode, the busiest INSERTs batched (see batch_put). */
int db_put_ancs(db *d, const char *game, uint32_t asset_id, const ancs_set *set, util_err *err)
{
    d->batching = 1;
    int rc = put_ancs_rows(d, game, asset_id, set, err);
    int frc = batch_flush(d, rc != 0, err);
    d->batching = 0;
    return rc ? rc : frc;
}

int db_put_evnt(db *d, const char *game, uint32_t asset_id, const ancs_evnt_file *evf,
                util_err *err)
{
    d->batching = 1;
    int rc = put_evnt_rows(d, game, asset_id, evf, err);
    int frc = batch_flush(d, rc != 0, err);
    d->batching = 0;
    return rc ? rc : frc;
}
