/* ingest_tx.c — one PAK's transaction (part of a bulk load's), the check that
 * lets an unchanged PAK be skipped (by its release and path inside it), a PAK read from
 * another place or release, the final-pass-pending flag, and deleting the rows that came
 * from a PAK or were decoded from one content. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest_internal.h"

int db_delete_content(db *d, const char *game, const char *type, uint32_t asset_id,
                      int64_t content_id, util_err *err)
{
    sqlite3_stmt **list = d->del_evnt;
    size_t n = d->ndel_evnt;
    if (!strcmp(type, "ANCS")) {
        list = d->del_ancs;
        n = d->ndel_ancs;
    } else if (!strcmp(type, "MLVL")) {
        list = d->del_mlvl;
        n = d->ndel_mlvl;
    } else if (!strcmp(type, "STRG")) {
        list = d->del_strg;
        n = d->ndel_strg;
    }
    for (size_t i = 0; i < n; i++) {
        sqlite3_stmt *st = list[i];
        int s = SQLITE_ERROR;
        if (sqlite3_bind_text(st, 1, game, -1, SQLITE_TRANSIENT) == SQLITE_OK &&
            sqlite3_bind_int64(st, 2, asset_id) == SQLITE_OK &&
            sqlite3_bind_int64(st, 3, content_id) == SQLITE_OK)
            s = sqlite3_step(st);
        if (s == SQLITE_DONE && strstr(sqlite3_sql(st), "FROM warnings"))
            d->rows_warned -= sqlite3_changes(d->h); /* the count is of rows added */
        sqlite3_reset(st);
        if (s != SQLITE_DONE)
            return dbi_sql_fail(d, err, "delete content rows");
    }
    return 0;
}

int ing_delete_pak(ing *g, int64_t old_id, const char *path)
{
    int rc = 0;
    if (old_id >= 0) {
        g->clean = 0;
        static const char *const by_id[] = {
            "DELETE FROM pak_entries WHERE pak_id = ?1",
            "DELETE FROM pak_names WHERE pak_id = ?1",
            "DELETE FROM warnings WHERE pak_id = ?1",
            "DELETE FROM paks WHERE pak_id = ?1",
        };
        for (size_t i = 0; i < sizeof by_id / sizeof by_id[0]; i++)
            if ((rc = dbi_exec_bind(g->d, by_id[i], old_id, NULL, g->err)) != 0)
                return rc;
    }
    return dbi_exec_bind(g->d, "DELETE FROM load_errors WHERE pak_path = ?1", 0, path, g->err);
}

int ing_kept_add(ing *g, int64_t pak_id)
{
    if (g->nkept == g->capkept) {
        size_t cap = g->capkept ? g->capkept * 2 : 64;
        int64_t *n = realloc(g->kept, cap * sizeof *n);
        if (!n)
            return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        g->kept = n;
        g->capkept = cap;
    }
    g->kept[g->nkept++] = pak_id;
    return 0;
}

/* ---- transactions -------------------------------------------------------------------- */

/* One PAK's changes: a transaction; inside the bulk load's transaction, a savepoint only when
 * they may have to be undone alone (undo). Anything else that goes wrong inside a bulk load
 * ends the run, whose one transaction is then rolled back whole: there a savepoint would only
 * have SQLite copy every page the PAK changes to its statement journal first (at 10x real
 * size 0.5 s of the writer's 10 s, docs/benchmark.md). */
int ing_tx_begin_undo(ing *g, int undo)
{
    if (!g->bulk)
        return db_begin(g->d, g->err);
    int rc = undo ? dbi_exec(g->d, "SAVEPOINT pak", g->err) : 0;
    g->savepoint = undo && rc == 0;
    return rc;
}

int ing_tx_begin(ing *g)
{
    return ing_tx_begin_undo(g, 0);
}

int ing_tx_commit(ing *g)
{
    if (!g->bulk)
        return db_commit(g->d, g->err);
    int sp = g->savepoint;
    g->savepoint = 0;
    return sp ? dbi_exec(g->d, "RELEASE pak", g->err) : 0;
}

/* Without a savepoint in a bulk load, nothing to undo here: the caller's error ends the run. */
void ing_tx_rollback(ing *g)
{
    if (!g->bulk)
        db_rollback(g->d);
    else if (g->savepoint)
        sqlite3_exec(g->d->h, "ROLLBACK TO pak; RELEASE pak", NULL, NULL, NULL);
    g->savepoint = 0;
}

/* ingest_state.final_pass_pending is set inside every transaction that changes a PAK's rows
 * and cleared inside the final pass's: a run killed in between leaves it set, and the next run
 * then does the final pass even when every PAK is unchanged, without re-checking `assets`
 * against pak_entries (which costs seconds on a large corpus; --rehash still does that). */
int ing_set_pending(ing *g, int on)
{
    return dbi_exec(g->d,
                    on ? "UPDATE ingest_state SET value = 1 WHERE key = 'final_pass_pending'"
                       : "UPDATE ingest_state SET value = 0 WHERE key = 'final_pass_pending'",
                    g->err);
}

int ing_pending_flag(ing *g, int *out)
{
    sqlite3_stmt *st = NULL;
    *out = 0;
    const char *sql = "SELECT value FROM ingest_state WHERE key = 'final_pass_pending'";
    if (sqlite3_prepare_v2(g->d->h, sql, -1, &st, NULL) != SQLITE_OK)
        return dbi_sql_fail(g->d, g->err, "ingest_state");
    int s = sqlite3_step(st);
    if (s == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0) != 0;
    sqlite3_finalize(st);
    return s == SQLITE_ROW || s == SQLITE_DONE ? 0 : dbi_sql_fail(g->d, g->err, "ingest_state");
}

/* Whether the row st (file_size, mtime, mtime_ns, tables_hash, content_hash, status in
 * columns c..c+5) describes the file sb with tables p unchanged. */
static int same_file(ing *g, sqlite3_stmt *st, int c, const struct stat *sb, const pak_file *p)
{
    int same = p && sqlite3_column_int64(st, c) == (int64_t)sb->st_size &&
               sqlite3_column_int64(st, c + 1) == (int64_t)sb->st_mtim.tv_sec &&
               sqlite3_column_int64(st, c + 2) == (int64_t)sb->st_mtim.tv_nsec &&
               sqlite3_column_int64(st, c + 3) == (int64_t)p->tables_hash &&
               sqlite3_column_text(st, c + 5) &&
               !strcmp((const char *)sqlite3_column_text(st, c + 5), "ok");
    if (same && g->o->rehash)
        same = sqlite3_column_type(st, c + 4) == SQLITE_INTEGER &&
               sqlite3_column_int64(st, c + 4) == (int64_t)g->chash;
    return same;
}

int ing_lookup_old(ing *g, const ing_pak_at *at, const struct stat *sb, const pak_file *p,
                   int64_t *old_id, char **old_path, int *skip)
{
    sqlite3_stmt *st = g->d->st[S_PAK_GET];
    *old_id = -1;
    *skip = 0;
    if (old_path)
        *old_path = NULL;
    sqlite3_bind_int64(st, 1, at->release_id);
    sqlite3_bind_text(st, 2, at->release_path, -1, SQLITE_TRANSIENT);
    int s = sqlite3_step(st);
    if (s == SQLITE_ROW) {
        *old_id = sqlite3_column_int64(st, 0);
        *skip = same_file(g, st, 1, sb, p);
        if (old_path && sqlite3_column_text(st, 7))
            *old_path = strdup((const char *)sqlite3_column_text(st, 7));
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (s != SQLITE_ROW && s != SQLITE_DONE)
        return dbi_sql_fail(g->d, g->err, "select paks");
    return 0;
}

/* Run sql with ?1 = id, ?2 = a text (may be NULL), ?3 = an integer (< 0: NULL). */
static int exec3(ing *g, const char *sql, int64_t id, const char *text, int64_t n)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(g->d->h, sql, -1, &st, NULL) != SQLITE_OK)
        return dbi_sql_fail(g->d, g->err, sql);
    sqlite3_bind_int64(st, 1, id);
    if (text)
        sqlite3_bind_text(st, 2, text, -1, SQLITE_TRANSIENT);
    if (n >= 0)
        sqlite3_bind_int64(st, 3, n);
    int s = sqlite3_step(st);
    sqlite3_finalize(st);
    return s == SQLITE_DONE ? 0 : dbi_sql_fail(g->d, g->err, sql);
}

int ing_adopt_same_file(ing *g, const ing_pak_at *at, const struct stat *sb, const pak_file *p,
                        int64_t *old_id, int *moved)
{
    sqlite3_stmt *st = NULL;
    *moved = 0;
    const char *sql = "SELECT pak_id, file_size, mtime, mtime_ns, tables_hash, content_hash, "
                      "status FROM paks WHERE path = ?1";
    if (sqlite3_prepare_v2(g->d->h, sql, -1, &st, NULL) != SQLITE_OK)
        return dbi_sql_fail(g->d, g->err, sql);
    sqlite3_bind_text(st, 1, at->path, -1, SQLITE_TRANSIENT);
    int s = sqlite3_step(st);
    int64_t id = s == SQLITE_ROW && same_file(g, st, 1, sb, p) ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    if (s != SQLITE_ROW && s != SQLITE_DONE)
        return dbi_sql_fail(g->d, g->err, "select paks");
    if (id < 0)
        return 0;
    int rc = ing_tx_begin(g);
    if (rc)
        return rc;
    if ((rc = exec3(g, "UPDATE paks SET release_path = ?2, release_id = ?3 WHERE pak_id = ?1", id,
                    at->release_path, at->release_id)) == 0 &&
        (rc = exec3(g,
                    "UPDATE load_errors SET release_id = ?3 WHERE pak_path = (SELECT path FROM "
                    "paks WHERE pak_id = ?1)",
                    id, NULL, at->release_id)) == 0 &&
        (rc = ing_set_pending(g, 1)) == 0) /* copy_differs and releases span PAKs */
        rc = ing_tx_commit(g);
    if (rc) {
        ing_tx_rollback(g);
        return rc;
    }
    g->changed = 1;
    *old_id = id;
    *moved = 1;
    return 0;
}

int ing_evict_path(ing *g, const char *path, int64_t keep_id)
{
    sqlite3_stmt *st = g->d->st[S_PAK_BY_PATH];
    sqlite3_bind_text(st, 1, path, -1, SQLITE_TRANSIENT);
    int64_t id = -1;
    if (sqlite3_step(st) == SQLITE_ROW)
        id = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return id >= 0 && id != keep_id ? ing_delete_pak(g, id, path) : 0;
}

int ing_move_pak(ing *g, int64_t id, const char *old_path, const ing_pak_at *at)
{
    int rc = ing_tx_begin(g);
    if (rc)
        return rc;
    if ((rc = ing_evict_path(g, at->path, id)) == 0 &&
        (rc = exec3(g, "UPDATE paks SET path = ?2, source_offset = ?3 WHERE pak_id = ?1", id,
                    at->path, at->source_offset)) == 0 &&
        old_path) {
        sqlite3_stmt *st = NULL;
        const char *sql = "UPDATE load_errors SET pak_path = ?2 WHERE pak_path = ?1";
        if (sqlite3_prepare_v2(g->d->h, sql, -1, &st, NULL) != SQLITE_OK) {
            rc = dbi_sql_fail(g->d, g->err, sql);
        } else {
            sqlite3_bind_text(st, 1, old_path, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(st, 2, at->path, -1, SQLITE_TRANSIENT);
            if (sqlite3_step(st) != SQLITE_DONE)
                rc = dbi_sql_fail(g->d, g->err, sql);
        }
        sqlite3_finalize(st);
    }
    if (rc == 0)
        rc = ing_tx_commit(g);
    if (rc)
        ing_tx_rollback(g);
    return rc;
}
