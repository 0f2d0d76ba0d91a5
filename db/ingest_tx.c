/* ingest_tx.c — one PAK's transaction (a savepoint during a bulk load), the check that
 * lets an unchanged PAK be skipped, the final-pass-pending flag, and deleting the rows that
 * came from a PAK or were derived from one decoded asset. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest_internal.h"

int db_delete_asset(db *d, const char *game, const char *type, uint32_t asset_id, util_err *err)
{
    int is_ancs = !strcmp(type, "ANCS");
    sqlite3_stmt **list = is_ancs ? d->del_ancs : d->del_evnt;
    size_t n = is_ancs ? d->ndel_ancs : d->ndel_evnt;
    for (size_t i = 0; i < n; i++) {
        sqlite3_stmt *st = list[i];
        int s = SQLITE_ERROR;
        if (sqlite3_bind_text(st, 1, game, -1, SQLITE_TRANSIENT) == SQLITE_OK &&
            sqlite3_bind_int64(st, 2, asset_id) == SQLITE_OK)
            s = sqlite3_step(st);
        sqlite3_reset(st);
        if (s != SQLITE_DONE)
            return dbi_sql_fail(d, err, "delete asset rows");
    }
    return 0;
}

/* Delete everything that came from PAK old_id (path): its entries, names, warnings,
 * load_errors, and the derived rows of assets decoded from its copies. */
int ing_delete_pak(ing *g, int64_t old_id, const char *path)
{
    int rc = 0;
    if (old_id >= 0) {
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(g->d->h,
                               "SELECT game, type, asset_id FROM decoded WHERE pak_id = ?1", -1,
                               &st, NULL) != SQLITE_OK)
            return dbi_sql_fail(g->d, g->err, "select decoded");
        sqlite3_bind_int64(st, 1, old_id);
        /* collect first: deleting while stepping the same table is not allowed */
        struct {
            char game[4], type[5];
            uint32_t id;
        } *list = NULL;
        size_t n = 0, cap = 0;
        int s;
        while ((s = sqlite3_step(st)) == SQLITE_ROW) {
            if (n == cap) {
                cap = cap ? cap * 2 : 32;
                void *nl = realloc(list, cap * sizeof *list);
                if (!nl) {
                    free(list);
                    sqlite3_finalize(st);
                    return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
                }
                list = nl;
            }
            snprintf(list[n].game, sizeof list[n].game, "%s",
                     (const char *)sqlite3_column_text(st, 0));
            snprintf(list[n].type, sizeof list[n].type, "%s",
                     (const char *)sqlite3_column_text(st, 1));
            list[n].id = (uint32_t)sqlite3_column_int64(st, 2);
            n++;
        }
        sqlite3_finalize(st);
        if (s != SQLITE_DONE)
            rc = dbi_sql_fail(g->d, g->err, "select decoded");
        for (size_t i = 0; i < n && !rc; i++)
            rc = db_delete_asset(g->d, list[i].game, list[i].type, list[i].id, g->err);
        free(list);
        if (rc)
            return rc;
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

/* ---- transactions -------------------------------------------------------------------- */

/* One PAK's changes: a transaction, or a savepoint inside the bulk load's transaction. */
int ing_tx_begin(ing *g)
{
    return g->bulk ? dbi_exec(g->d, "SAVEPOINT pak", g->err) : db_begin(g->d, g->err);
}

int ing_tx_commit(ing *g)
{
    return g->bulk ? dbi_exec(g->d, "RELEASE pak", g->err) : db_commit(g->d, g->err);
}

void ing_tx_rollback(ing *g)
{
    if (g->bulk)
        sqlite3_exec(g->d->h, "ROLLBACK TO pak; RELEASE pak", NULL, NULL, NULL);
    else
        db_rollback(g->d);
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

/* Look the path up in paks: old id (-1 if none) and whether it can be skipped. */
int ing_lookup_old(ing *g, const char *path, const struct stat *sb, const pak_file *p,
                   int64_t *old_id, int *skip)
{
    sqlite3_stmt *st = g->d->st[S_PAK_GET];
    *old_id = -1;
    *skip = 0;
    sqlite3_bind_text(st, 1, path, -1, SQLITE_TRANSIENT);
    int s = sqlite3_step(st);
    if (s == SQLITE_ROW) {
        *old_id = sqlite3_column_int64(st, 0);
        int same = p && sqlite3_column_int64(st, 1) == (int64_t)sb->st_size &&
                   sqlite3_column_int64(st, 2) == (int64_t)sb->st_mtim.tv_sec &&
                   sqlite3_column_int64(st, 3) == (int64_t)sb->st_mtim.tv_nsec &&
                   sqlite3_column_int64(st, 4) == (int64_t)p->tables_hash &&
                   sqlite3_column_text(st, 6) &&
                   !strcmp((const char *)sqlite3_column_text(st, 6), "ok");
        if (same && g->o->rehash) {
            same = sqlite3_column_type(st, 5) == SQLITE_INTEGER &&
                   sqlite3_column_int64(st, 5) == (int64_t)g->chash;
        }
        *skip = same;
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (s != SQLITE_ROW && s != SQLITE_DONE)
        return dbi_sql_fail(g->d, g->err, "select paks");
    return 0;
}
