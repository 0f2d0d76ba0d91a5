/* census_run.c — the census refill script (db/census/, run by the final pass) statement by
 * statement, with the steps below done in C where SQLite sorted every row to make few
 * groups (a GROUP BY sorts; it has no hash aggregate):
 *
 * `-- @count` before a SELECT of (content_id, game, field, value, group...) rows: the rows
 *   counted per content, game and group (value is a function of the group) into
 *   census_contents(content_id, game, field, value, count), as
 *       INSERT INTO census_contents ... SELECT content_id, game, field, value, count(*)
 *       ... GROUP BY content_id, game, group
 *   would. The SELECTs read their contents' rows content after content (db/gen/gen_sql.c
 *   writes them so), and each content's groups are written when the next content begins:
 *   the table holds one content's groups. Should a content come back after another, the
 *   statement's rows are taken out and it runs again with the content in the key.
 * `-- @step census_sum`: census_contents (on the second connection with its own
 *   temp.census_out) summed per set of releases holding the content
 *   (temp.census_cs.rs), game, field and value into temp.census_acc, as
 *       INSERT INTO census_acc(rs, game, field, value, count)
 *       SELECT s.rs, c.game, c.field, c.value, sum(c.count)
 *       FROM census_contents c JOIN census_cs s ON s.content_id = c.content_id
 *       GROUP BY s.rs, c.game, c.field, c.value
 *   would (at 10x, a million rows into a few thousand groups: 1.4 s sorted).
 * `-- @parallel` ... `-- @end parallel`: statements that read only committed rows and write
 *   only TEMP tables and counted rows. dbi_census_helper_start runs them on a read-only
 *   connection of its own, in a thread, counting into its temp.census_out, while the
 *   caller's connection runs the script up to there; dbi_census_run then copies those rows
 *   into census_contents, and the section's tables the rest of the script reads into TEMP
 *   tables of the caller's connection, where the section stands. Without a helper (an in-memory
 *   database), or when the helper failed, the section runs in place.
 *
 * The groups are db/groups.c's. */
#define _POSIX_C_SOURCE 200809L /* strndup */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ingest_internal.h"

/* ---- groups (db/groups.c) of a statement's columns --------------------------------------- */

/* Columns [first, first + n) of st's row as the key being made in g. */
static int make_key(dbi_groups *g, sqlite3_stmt *st, int first, int n, util_err *err)
{
    for (int c = first; c < first + n; c++) {
        int t = sqlite3_column_type(st, c);
        const void *bytes = NULL;
        int64_t i;
        double r;
        uint64_t len = 0;
        int kind = DBI_K_NULL;
        if (t == SQLITE_INTEGER) {
            kind = DBI_K_INT;
            i = sqlite3_column_int64(st, c);
            bytes = &i;
            len = sizeof i;
        } else if (t == SQLITE_FLOAT) {
            kind = DBI_K_REAL;
            r = sqlite3_column_double(st, c);
            bytes = &r;
            len = sizeof r;
        } else if (t == SQLITE_TEXT) {
            kind = DBI_K_TEXT;
            bytes = sqlite3_column_text(st, c);
            len = (uint64_t)sqlite3_column_bytes(st, c);
            if (!bytes)
                return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        } else if (t == SQLITE_BLOB) {
            kind = DBI_K_BLOB;
            bytes = sqlite3_column_blob(st, c);
            len = (uint64_t)sqlite3_column_bytes(st, c);
        }
        TRY(dbi_groups_key_put(g, kind, bytes, len, err));
    }
    return 0;
}

/* Bind the next value of a key (at *at) to parameter p of st. */
static void bind_next(sqlite3_stmt *st, int p, const unsigned char *key, size_t *at)
{
    dbi_key_val v = dbi_groups_key_next(key, at);
    if (v.kind == DBI_K_INT)
        sqlite3_bind_int64(st, p, v.i);
    else if (v.kind == DBI_K_REAL)
        sqlite3_bind_double(st, p, v.r);
    else if (v.kind == DBI_K_TEXT)
        sqlite3_bind_text(st, p, (const char *)v.bytes, (int)v.len, SQLITE_STATIC);
    else if (v.kind == DBI_K_BLOB)
        sqlite3_bind_blob(st, p, v.bytes, (int)v.len, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, p);
}

/* One row of ins (five parameters) per group, in the order the groups began: with lead,
 * parameter 1 is *lead and 2-4 the key's first three columns; without, 1-4 the key's first
 * four; then the sum. */
static int write_groups(db *d, sqlite3_stmt *ins, const int64_t *lead, const dbi_groups *g,
                        util_err *err)
{
    for (size_t k = 0; k < g->n; k++) {
        const dbi_group *s = &g->slot[g->order[k]];
        const unsigned char *key = g->keys + s->key;
        size_t at = 0;
        int p = 1;
        if (lead)
            sqlite3_bind_int64(ins, p++, *lead);
        while (p < 5)
            bind_next(ins, p++, key, &at);
        sqlite3_bind_int64(ins, 5, s->sum);
        int rc = sqlite3_step(ins);
        sqlite3_reset(ins);
        if (rc != SQLITE_DONE)
            return dbi_sql_fail(d, err, "census");
    }
    return 0;
}

/* ---- the two steps ---------------------------------------------------------------------- */

/* Runs the counted SELECT sel (prepared; reset here) into census_contents through ins.
 * whole: the content is part of the key (its rows may come in any order). *out_of_order: a
 * content came back after another. */
static int count_pass(db *d, sqlite3_stmt *sel, sqlite3_stmt *ins, dbi_groups *g, int whole,
                      int *out_of_order, util_err *err)
{
    int ncols = sqlite3_column_count(sel);
    int64_t cur = 0;
    int any = 0, rc = 0, s = SQLITE_DONE;
    *out_of_order = 0;
    dbi_groups_clear(g);
    while (!rc && (s = sqlite3_step(sel)) == SQLITE_ROW) {
        int64_t cid = sqlite3_column_int64(sel, 0);
        if (!whole && (!any || cid != cur)) { /* whole: the content is part of the key */
            if (any && cid < cur) {
                *out_of_order = 1;
                break;
            }
            if (any && (rc = write_groups(d, ins, &cur, g, err)) != 0)
                break;
            dbi_groups_clear(g);
            cur = cid;
            any = 1;
        }
        if ((rc = make_key(g, sel, whole ? 0 : 1, whole ? ncols : ncols - 1, err)) == 0)
            rc = dbi_groups_add(g, 1, err);
        if (!rc && dbi_groups_full(g)) {
            rc = write_groups(d, ins, whole ? NULL : &cur, g, err);
            dbi_groups_clear(g);
        }
    }
    if (!rc && !*out_of_order && s != SQLITE_DONE)
        rc = dbi_sql_fail(d, err, "census count");
    sqlite3_reset(sel);
    if (rc || *out_of_order)
        return rc;
    if (whole)
        return write_groups(d, ins, NULL, g, err);
    return any ? write_groups(d, ins, &cur, g, err) : 0;
}

/* `-- @count`: the rows of sel counted into table (census_contents, or the second
 * connection's temp.census_out) through ins (the script's one INSERT into it, prepared by the
 * caller). */
static int count_step(db *d, sqlite3_stmt *sel, sqlite3_stmt *ins, const char *table, dbi_groups *g,
                      util_err *err)
{
    int ncols = sqlite3_column_count(sel);
    if (ncols < 4)
        return util_fail(err, UTIL_ESQL, UINT64_MAX, "census count: %d columns", ncols);
    int64_t first = 0;
    char sql[96];
    snprintf(sql, sizeof sql, "SELECT ifnull(max(rowid), 0) FROM %s", table);
    int rc = dbi_query_int(d, sql, &first, err);
    if (rc)
        return rc;
    int out_of_order = 0;
    rc = count_pass(d, sel, ins, g, 0, &out_of_order, err);
    if (!rc && out_of_order) {
        /* a content came back after another: its first groups are written already. Take the
         * statement's rows out and count again, with the content in the key. */
        snprintf(sql, sizeof sql, "DELETE FROM %s WHERE rowid > %" PRId64, table, first);
        if ((rc = dbi_exec(d, sql, err)) == 0)
            rc = count_pass(d, sel, ins, g, 1, &out_of_order, err);
    }
    return rc;
}

/* the counted rows of table with the set of releases holding their content */
#define SUM_ROWS(table)                                                                            \
    "SELECT s.rs, c.game, c.field, c.value, c.count FROM " table " c JOIN temp.census_cs s ON "    \
    "s.content_id = c.content_id"

int dbi_census_sum(db *d, const char *also, util_err *err)
{
    dbi_groups g;
    memset(&g, 0, sizeof g);
    sqlite3_stmt *st = NULL, *ins = NULL;
    int rc = 0, s = SQLITE_DONE;
    char *sel =
        also ? sqlite3_mprintf(SUM_ROWS("census_contents") " UNION ALL " SUM_ROWS("%s"), also)
             : sqlite3_mprintf(SUM_ROWS("census_contents"));
    if (!sel)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    if (sqlite3_prepare_v2(d->h, sel, -1, &st, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(d->h,
                           "INSERT INTO temp.census_acc(rs, game, field, value, count) "
                           "VALUES (?1, ?2, ?3, ?4, ?5)",
                           -1, &ins, NULL) != SQLITE_OK)
        rc = dbi_sql_fail(d, err, "census sum");
    sqlite3_free(sel);
    while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW) {
        if ((rc = make_key(&g, st, 0, 4, err)) == 0)
            rc = dbi_groups_add(&g, sqlite3_column_int64(st, 4), err);
        if (!rc && dbi_groups_full(&g)) {
            rc = write_groups(d, ins, NULL, &g, err);
            dbi_groups_clear(&g);
        }
    }
    if (!rc && s != SQLITE_DONE)
        rc = dbi_sql_fail(d, err, "census sum");
    if (!rc)
        rc = write_groups(d, ins, NULL, &g, err);
    sqlite3_finalize(st);
    sqlite3_finalize(ins);
    dbi_groups_free(&g);
    return rc;
}

/* ---- the script ------------------------------------------------------------------------- */

#define MARK_PARALLEL     "-- @parallel"
#define MARK_END_PARALLEL "-- @end parallel"

/* What the comment lines before a statement say. */
typedef struct marks {
    int count, sum, parallel, end_parallel;
} marks;

/* Past the white space and `--` comment lines at *p (up to the next statement), with the
 * marks they hold. */
static const char *skip_gap(const char *p, marks *m)
{
    memset(m, 0, sizeof *m);
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (p[0] != '-' || p[1] != '-')
            return p;
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 9 && !memcmp(p, "-- @count", 9))
            m->count = 1;
        else if (len == 19 && !memcmp(p, "-- @step census_sum", 19))
            m->sum = 1;
        else if (len == strlen(MARK_PARALLEL) && !memcmp(p, MARK_PARALLEL, len))
            m->parallel = 1;
        else if (len == strlen(MARK_END_PARALLEL) && !memcmp(p, MARK_END_PARALLEL, len))
            m->end_parallel = 1;
        p += len;
    }
}

/* The text of the parallel section of script: [*begin, *end), the statements after its
 * `-- @parallel` line up to its `-- @end parallel` line; 0 when it has none. */
static const char *end_mark(const char *p)
{
    return strstr(p, "\n" MARK_END_PARALLEL "\n");
}

static int parallel_section(const char *script, const char **begin, const char **end)
{
    const char *b = strstr(script, "\n" MARK_PARALLEL "\n");
    const char *e = b ? end_mark(b) : NULL;
    if (!e)
        return 0;
    *begin = b + strlen(MARK_PARALLEL) + 2;
    *end = e + 1;
    return 1;
}

/* ---- the second connection ------------------------------------------------------------- */

/* The parallel section of the census script run on a read-only connection of its own, in a
 * thread, into that connection's temp.census_out: the final pass starts it once the rows it
 * reads are committed, and dbi_census_run copies its rows into census_contents where the
 * section stands in the script. */
struct census_helper {
    db_reader *r;
    char *section; /* the section's statements, NUL-terminated */
};

static int run_text(db *d, const char *p, const char *table, census_helper *h, util_err *err);

/* The INSERT of counted rows into table (census_contents or temp.census_out). */
static int prepare_insert(db *d, const char *table, sqlite3_stmt **ins, util_err *err)
{
    char sql[160];
    snprintf(sql, sizeof sql,
             "INSERT INTO %s(content_id, game, field, value, count) VALUES (?1, ?2, ?3, ?4, ?5)",
             table);
    if (sqlite3_prepare_v2(d->h, sql, -1, ins, NULL) != SQLITE_OK)
        return dbi_sql_fail(d, err, "census count");
    return 0;
}

static int helper_run(db *rd, void *arg, util_err *err)
{
    const census_helper *h = arg;
    return run_text(rd, h->section, "temp.census_out", NULL, err);
}

void dbi_census_helper_free(census_helper *h)
{
    if (!h)
        return;
    dbi_reader_free(h->r);
    free(h->section);
    free(h);
}

census_helper *dbi_census_helper_start(db *d, const char *script)
{
    const char *b, *e;
    if (!parallel_section(script, &b, &e))
        return NULL;
    census_helper *h = calloc(1, sizeof *h);
    if (!h || !(h->section = strndup(b, (size_t)(e - b))) ||
        !(h->r = dbi_reader_start(d,
                                  "PRAGMA query_only = 0; PRAGMA temp_store = FILE; "
                                  "PRAGMA cache_size = -2048; CREATE TEMP TABLE "
                                  "census_out(content_id INTEGER, game TEXT, field TEXT, "
                                  "value TEXT, count INTEGER)",
                                  helper_run, h))) {
        dbi_census_helper_free(h);
        return NULL;
    }
    return h;
}

/* Every row of hd's query sel_sql (in its order) into table of d: into its columns cols, or
 * with cols NULL into all of them in order. */
static int copy_rows(db *hd, const char *sel_sql, db *d, const char *table, const char *cols,
                     util_err *err)
{
    sqlite3_stmt *sel = NULL, *ins = NULL;
    int rc = 0, s = SQLITE_DONE;
    if (sqlite3_prepare_v2(hd->h, sel_sql, -1, &sel, NULL) != SQLITE_OK)
        return dbi_sql_fail(hd, err, "census");
    int n = sqlite3_column_count(sel);
    sqlite3_str *q = sqlite3_str_new(d->h);
    sqlite3_str_appendf(q, "INSERT INTO %s%s%s%s VALUES (", table, cols ? "(" : "",
                        cols ? cols : "", cols ? ")" : "");
    for (int c = 0; c < n; c++)
        sqlite3_str_appendall(q, c ? ",?" : "?");
    sqlite3_str_appendall(q, ")");
    char *ins_sql = sqlite3_str_finish(q);
    if (!ins_sql)
        rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    else if (sqlite3_prepare_v2(d->h, ins_sql, -1, &ins, NULL) != SQLITE_OK)
        rc = dbi_sql_fail(d, err, "census");
    sqlite3_free(ins_sql);
    while (!rc && (s = sqlite3_step(sel)) == SQLITE_ROW) {
        for (int c = 0; c < n; c++)
            sqlite3_bind_value(ins, c + 1, sqlite3_column_value(sel, c));
        if (sqlite3_step(ins) != SQLITE_DONE)
            rc = dbi_sql_fail(d, err, "census");
        sqlite3_reset(ins);
    }
    if (!rc && s != SQLITE_DONE)
        rc = dbi_sql_fail(hd, err, "census");
    sqlite3_finalize(sel);
    sqlite3_finalize(ins);
    return rc;
}

/* The parallel section's TEMP tables the rest of the script reads (db/census/census.sql.in,
 * part 2a): made on the first connection as the second made them, with their rows (those
 * the section made). */
static const char *const section_tables[] = {"census_sets", "census_acc"};

static int take_table(db *hd, db *d, const char *name, util_err *err)
{
    static const char create[] = "CREATE TABLE ";
    sqlite3_stmt *st = NULL;
    char *make = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(hd->h,
                           "SELECT sql FROM temp.sqlite_master WHERE type = 'table' AND name = ?1",
                           -1, &st, NULL) != SQLITE_OK)
        return dbi_sql_fail(hd, err, "census");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) {
        const char *sql = (const char *)sqlite3_column_text(st, 0);
        if (!sql || strncmp(sql, create, strlen(create)) != 0)
            rc = util_fail(err, UTIL_ESQL, UINT64_MAX, "census: %s made as %.40s", name,
                           sql ? sql : "?");
        else if (!(make = sqlite3_mprintf("CREATE TEMP TABLE %s", sql + strlen(create))))
            rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    }
    sqlite3_finalize(st);
    if (rc || !make) /* a section that does not make it: nothing to take */
        return rc;
    char *rows = sqlite3_mprintf("SELECT * FROM temp.\"%w\" ORDER BY rowid", name);
    char *into = sqlite3_mprintf("temp.\"%w\"", name);
    if (!rows || !into)
        rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    else if ((rc = dbi_exec(d, make, err)) == 0)
        rc = copy_rows(hd, rows, d, into, NULL, err);
    sqlite3_free(make);
    sqlite3_free(rows);
    sqlite3_free(into);
    return rc;
}

/* At the end of the parallel section: the second connection's rows into census_contents and
 * its tables of section_tables into this connection's TEMP tables (1), or 0 when it failed
 * (the section then runs here). When the counted rows outnumber the rows census_contents
 * holds (a first ingest: it holds none), its index is built after them: kept up to date row
 * by row, in the section's order (field after field, each over every content), it was most
 * of the copy's time (10x: 0.8 of 1.2 s). */
static int take_helper_rows(db *d, census_helper *h, int *taken, util_err *err)
{
    *taken = 0;
    if (dbi_reader_join(h->r) != 0)
        return 0;
    db *hd = dbi_reader_db(h->r);
    int rc = 0;
    int64_t have = 0, add = 0; /* upper bounds, enough to choose */
    ing_indexes idx = {NULL, 0};
    if ((rc = dbi_query_int(d, "SELECT ifnull(max(rowid), 0) FROM census_contents", &have, err)) !=
            0 ||
        (rc = dbi_query_int(hd, "SELECT ifnull(max(rowid), 0) FROM temp.census_out", &add, err)) !=
            0 ||
        (add > have && (rc = ing_drop_indexes(d, "census_contents", &idx, err)) != 0)) {
        ing_indexes_free(&idx);
        return rc;
    }
    rc = copy_rows(hd,
                   "SELECT content_id, game, field, value, count FROM temp.census_out "
                   "ORDER BY rowid",
                   d, "census_contents", "content_id, game, field, value, count", err);
    if (!rc)
        rc = ing_create_indexes(d, &idx, ING_INDEXES_ALL, err);
    ing_indexes_free(&idx);
    for (size_t i = 0; !rc && i < sizeof section_tables / sizeof section_tables[0]; i++)
        rc = take_table(hd, d, section_tables[i], err);
    *taken = !rc;
    return rc;
}

/* Run the statements of p (census script text) on d, @count ones into table. With h, the
 * parallel section is h's: skipped here, and its rows taken from h at its end. */
static int run_text(db *d, const char *p, const char *table, census_helper *h, util_err *err)
{
    dbi_groups g;
    memset(&g, 0, sizeof g);
    sqlite3_stmt *ins = NULL; /* into table, prepared at the first `-- @count` */
    const char *section = NULL;
    int rc = 0;
    while (!rc) {
        marks m;
        p = skip_gap(p, &m);
        if (m.parallel && h) {
            section = p;
            const char *e = end_mark(p);
            p = e ? e + 1 : p + strlen(p);
            continue; /* skip_gap then reads the end mark */
        }
        if (m.end_parallel && h && section) {
            int taken = 0;
            rc = take_helper_rows(d, h, &taken, err);
            if (!rc && !taken) /* it failed: run the section here */
                p = section;
            h = NULL;
            section = NULL;
            if (rc || !taken)
                continue;
        }
        /* on the second connection the section's counted rows are in its temp.census_out */
        if (m.sum &&
            (rc = dbi_census_sum(d, strcmp(table, "census_contents") ? table : NULL, err)) != 0)
            break;
        if (!*p)
            break;
        sqlite3_stmt *st = NULL;
        const char *tail = NULL;
        if (sqlite3_prepare_v2(d->h, p, -1, &st, &tail) != SQLITE_OK) {
            rc = dbi_sql_fail(d, err, "census");
            break;
        }
        p = tail;
        if (!st)
            continue;
        if (m.count) {
            if (!ins)
                rc = prepare_insert(d, table, &ins, err);
            if (!rc)
                rc = count_step(d, st, ins, table, &g, err);
        } else {
            int s;
            while ((s = sqlite3_step(st)) == SQLITE_ROW)
                ;
            if (s != SQLITE_DONE)
                rc = dbi_sql_fail(d, err, "census");
        }
        sqlite3_finalize(st);
    }
    sqlite3_finalize(ins);
    dbi_groups_free(&g);
    return rc;
}

int dbi_census_run(db *d, const char *script, census_helper *h, util_err *err)
{
    return run_text(d, script, "census_contents", h, err);
}
