/* bulk.c — a bulk load (into a database holding no PAK yet) is one transaction whose
 * non-unique secondary indexes are dropped at its start and built again at its end, which
 * is cheaper than keeping them up to date row by row (the census does the same for the rows
 * it copies, db/census_run.c). Unique indexes stay: INSERT OR IGNORE relies on them; so do
 * those whose rows come in the order of their key (kept_indexes). Those its final pass reads
 * first are built at its end, the others by that pass, beside the census it counts on a
 * second connection (ing_restore_indexes). */
#include <stdlib.h>
#include <string.h>

#include "ingest_internal.h"

void ing_indexes_free(ing_indexes *x)
{
    for (size_t i = 0; i < x->n; i++)
        free(x->sql[i]);
    free(x->sql);
    x->sql = NULL;
    x->n = 0;
}

/* The indexes a bulk load keeps up to date: their rows come in the order of their key (a
 * content's census rows are written as the next content begins, and contents are numbered
 * as they come), so each row goes at the index's end. Built after the load, they were work
 * for the writer alone once the workers were done. */
static const char *const kept_indexes[] = {"census_contents_content"};

static int is_kept(const char *name)
{
    for (size_t i = 0; i < sizeof kept_indexes / sizeof kept_indexes[0]; i++)
        if (strcmp(name, kept_indexes[i]) == 0)
            return 1;
    return 0;
}

/* Inside the caller's transaction: remember and drop the indexes (of table; or all, except
 * kept_indexes, for a bulk load). */
int ing_drop_indexes(db *d, const char *table, ing_indexes *x, util_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc = 0, s;
    size_t cap = 0;
    if (sqlite3_prepare_v2(d->h,
                           "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS "
                           "NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%' AND (?1 IS NULL OR "
                           "tbl_name = ?1) ORDER BY name",
                           -1, &st, NULL) != SQLITE_OK)
        return dbi_sql_fail(d, err, "list indexes");
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    char **names = NULL;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        if (!table && is_kept((const char *)sqlite3_column_text(st, 0)))
            continue;
        if (x->n == cap) {
            cap = cap ? cap * 2 : 32;
            char **ns = realloc(x->sql, cap * sizeof *ns);
            char **nn = ns ? realloc(names, cap * sizeof *nn) : NULL;
            if (ns)
                x->sql = ns;
            if (!nn) {
                rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
                break;
            }
            names = nn;
        }
        x->sql[x->n] = strdup((const char *)sqlite3_column_text(st, 1));
        names[x->n] =
            sqlite3_mprintf("DROP INDEX \"%w\"", (const char *)sqlite3_column_text(st, 0));
        if (!x->sql[x->n] || !names[x->n]) {
            free(x->sql[x->n]);
            sqlite3_free(names[x->n]);
            rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
            break;
        }
        x->n++;
    }
    if (!rc && s != SQLITE_DONE)
        rc = dbi_sql_fail(d, err, "list indexes");
    sqlite3_finalize(st);
    for (size_t i = 0; i < x->n; i++) {
        if (!rc)
            rc = dbi_exec(d, names[i], err);
        sqlite3_free(names[i]);
    }
    free(names);
    return rc;
}

/* The indexes the final pass reads before it builds the missing ones (ing_restore_indexes):
 * its first transaction's statements and the census counted on a second connection
 * (db/census/census.sql's `-- @parallel` section), found by EXPLAIN QUERY PLAN of each. */
static const char *const early_indexes[] = {
    "census_contents_content", "events_owner",     "pak_entries_content",
    "warnings_code",           "warnings_content",
};

static int is_early(const char *sql)
{
    for (size_t i = 0; i < sizeof early_indexes / sizeof early_indexes[0]; i++) {
        size_t n = strlen(early_indexes[i]);
        const char *p = strstr(sql, early_indexes[i]);
        if (p && p[n] == ' ')
            return 1;
    }
    return 0;
}

int ing_create_indexes(db *d, const ing_indexes *x, enum ing_index_set which, util_err *err)
{
    for (size_t i = 0; i < x->n; i++) {
        int want = which == ING_INDEXES_ALL || (which == ING_INDEXES_EARLY) == is_early(x->sql[i]);
        int rc = want ? dbi_exec(d, x->sql[i], err) : 0;
        if (rc)
            return rc;
    }
    return 0;
}

/* With no list, the schema's indexes come from the schema run in a database in memory (at
 * 1x, 5-9 ms of the writer's, which a first ingest's final pass spares). */
int ing_restore_indexes(db *d, const ing_indexes *late, util_err *err)
{
    if (late)
        return ing_create_indexes(d, late, ING_INDEXES_LATE, err);
    sqlite3 *m = NULL;
    sqlite3_stmt *st = NULL;
    int rc = 0;
    if (sqlite3_open_v2(":memory:", &m, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
            SQLITE_OK ||
        sqlite3_exec(m, db_schema_sql, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(m,
                           "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS "
                           "NOT NULL ORDER BY name",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = util_fail(err, UTIL_ESQL, UINT64_MAX, "the schema's indexes: %s",
                       m ? sqlite3_errmsg(m) : "out of memory");
        goto out;
    }
    int s;
    while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t have = 0;
        char *q = sqlite3_mprintf("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND "
                                  "name = '%q'",
                                  (const char *)sqlite3_column_text(st, 0));
        if (!q)
            rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        else if ((rc = dbi_query_int(d, q, &have, err)) == 0 && !have)
            rc = dbi_exec(d, (const char *)sqlite3_column_text(st, 1), err);
        sqlite3_free(q);
    }
    if (!rc && s != SQLITE_DONE)
        rc = util_fail(err, UTIL_ESQL, UINT64_MAX, "the schema's indexes: %s", sqlite3_errmsg(m));
out:
    sqlite3_finalize(st);
    sqlite3_close(m);
    return rc;
}

/* Whether the database holds no PAK and no content yet (then the run is a bulk load). A
 * content with no PAK is one a killed run left to its final pass to remove. */
int ing_db_is_empty(ing *g)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(g->d->h, "SELECT 1 FROM paks UNION ALL SELECT 1 FROM contents LIMIT 1",
                           -1, &st, NULL) != SQLITE_OK)
        return 0;
    int empty = sqlite3_step(st) == SQLITE_DONE;
    sqlite3_finalize(st);
    return empty;
}
