#define _XOPEN_SOURCE 700 /* realpath */
#define _DEFAULT_SOURCE
/* ingest.c — the ingest run: find the releases and PAKs of the PATHs given (ingest_walk.c:
 * PAK files, folders, disc images read in place, extracted discs), write a releases row for
 * each, skip unchanged PAKs, replace each changed PAK's rows in one transaction (every entry
 * hashed, each distinct ANCS/EVNT content decoded once), remove the PAKs gone from releases
 * read whole, record faults in load_errors and keep going; then the final pass.
 *
 * Decoded rows (ancs, characters, events, asset_refs, ...) belong to a content (content_id),
 * not to a PAK or a release: a release sees the contents its entries hold. Replacing or
 * removing a PAK leaves its contents to the final pass, which drops those no entry holds.
 *
 * Bulk load: into a database holding no PAK yet, every PAK's rows are one transaction (a
 * PAK that may fail whole after its first rows in a savepoint, ingest_tx.c) whose non-unique
 * secondary indexes are dropped at its start and built again at its end (bulk.c); the final
 * pass then runs in two more (final_pass.c). */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ingest_internal.h"

/* The free memory malloc may keep between two PAKs (see run). At 1x
 * it held 5-9 MiB free after each PAK, at 10x real size 4-15 MiB: trimming only above 8
 * MiB took a 1x first ingest from 1.55 to 1.45 s (median of 10) for at most 2 MiB more
 * peak RSS at 10x (docs/benchmark.md). */
#define TRIM_FREE_MIN ((size_t)8 << 20)

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void progress(ing *g, size_t done, const char *path)
{
    if (g->o->progress)
        g->o->progress(g->o->progress_ctx, done, g->L.nitems, path);
}

/* ---- releases ------------------------------------------------------------------------- */

/* The releases row of r (made or updated), r->release_id; a release with no PAK found that
 * is not in the database yet gets none (-1). */
static int put_release(ing *g, iw_release *r, int has_items)
{
    sqlite3_stmt *st = NULL;
    int rc = 0;
    r->release_id = -1;
    if (!has_items) {
        if (sqlite3_prepare_v2(g->d->h, "SELECT release_id FROM releases WHERE label = ?1", -1, &st,
                               NULL) != SQLITE_OK)
            return dbi_sql_fail(g->d, g->err, "select releases");
        sqlite3_bind_text(st, 1, r->label, -1, SQLITE_TRANSIENT);
        int s = sqlite3_step(st);
        if (s == SQLITE_ROW)
            r->release_id = sqlite3_column_int64(st, 0);
        else if (s != SQLITE_DONE)
            rc = dbi_sql_fail(g->d, g->err, "select releases");
        sqlite3_finalize(st);
        return rc;
    }
    const char *sql =
        "INSERT INTO releases(label, game, game_code, maker, disc, revision, region, title, "
        "source, source_kind) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) "
        "ON CONFLICT(label) DO UPDATE SET game = coalesce(excluded.game, game), game_code = "
        "excluded.game_code, maker = excluded.maker, disc = excluded.disc, revision = "
        "excluded.revision, region = excluded.region, title = excluded.title, source = "
        "excluded.source, source_kind = excluded.source_kind RETURNING release_id";
    if (sqlite3_prepare_v2(g->d->h, sql, -1, &st, NULL) != SQLITE_OK)
        return dbi_sql_fail(g->d, g->err, "insert releases");
    sqlite3_bind_text(st, 1, r->label, -1, SQLITE_TRANSIENT);
    if (r->game != PAK_GAME_UNKNOWN)
        sqlite3_bind_text(st, 2, r->game == PAK_GAME_MP2 ? "MP2" : "MP1", -1, SQLITE_STATIC);
    if (r->has_disc) {
        const disc_header *h = &r->hdr;
        sqlite3_bind_text(st, 3, h->game_code, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 4, h->maker, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 5, h->disc_number);
        sqlite3_bind_int64(st, 6, h->revision);
        if (h->region)
            sqlite3_bind_text(st, 7, h->region, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 8, h->title, -1, SQLITE_TRANSIENT);
    }
    sqlite3_bind_text(st, 9, r->source, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 10, r->kind, -1, SQLITE_STATIC);
    int s = sqlite3_step(st);
    if (s == SQLITE_ROW)
        r->release_id = sqlite3_column_int64(st, 0);
    else
        rc = dbi_sql_fail(g->d, g->err, "insert releases");
    sqlite3_finalize(st);
    return rc;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* A release read whole: its PAKs not read or found unchanged in this run are gone. */
static int remove_gone(ing *g, const iw_release *r)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(g->d->h, "SELECT pak_id, path FROM paks WHERE release_id = ?1", -1, &st,
                           NULL) != SQLITE_OK)
        return dbi_sql_fail(g->d, g->err, "select paks");
    sqlite3_bind_int64(st, 1, r->release_id);
    int64_t *ids = NULL;
    char **paths = NULL;
    size_t n = 0, cap = 0;
    int rc = 0, s;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(st, 0);
        if (g->nkept && bsearch(&id, g->kept, g->nkept, sizeof *g->kept, cmp_i64))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            int64_t *ni = realloc(ids, cap * sizeof *ni);
            if (ni)
                ids = ni;
            char **np = ni ? realloc(paths, cap * sizeof *np) : NULL;
            if (!np) {
                rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
                break;
            }
            paths = np;
        }
        ids[n] = id;
        paths[n] = strdup((const char *)sqlite3_column_text(st, 1));
        if (!paths[n]) {
            rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
            break;
        }
        n++;
    }
    if (!rc && s != SQLITE_DONE)
        rc = dbi_sql_fail(g->d, g->err, "select paks");
    sqlite3_finalize(st);
    if (!rc && n) {
        g->changed = 1;
        if ((rc = ing_tx_begin(g)) == 0) {
            rc = ing_set_pending(g, 1);
            for (size_t i = 0; i < n && !rc; i++) {
                ing_log(g, "%s: gone from release %s; removed", paths[i], r->label);
                rc = ing_delete_pak(g, ids[i], paths[i]);
            }
            if (rc == 0)
                rc = ing_tx_commit(g);
            if (rc)
                ing_tx_rollback(g);
        }
    }
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
    free(ids);
    return rc;
}

/* A fault found while looking for PAKs: one load_errors row per path, replacing the row an
 * earlier run left for it. */
static int walk_fault(void *ctx, const char *path, size_t rel, const char *stage, uint64_t off,
                      const char *msg)
{
    ing *g = ctx;
    (void)rel;
    int rc = dbi_exec_bind(g->d,
                           "DELETE FROM load_errors WHERE pak_path = ?1 AND entry_index IS "
                           "NULL",
                           0, path, g->err);
    if (rc == 0)
        rc = ing_fault(g, path, NULL, -1, 0, 0, stage, off, msg);
    return rc;
}

/* Before an argument is walked: forget the faults of earlier runs about paths at or under
 * it that are not PAKs of the database (those still unreadable are recorded again, those
 * fixed or removed are gone). */
static int forget_walk_faults(ing *g, const char *arg)
{
    char *ap = realpath(arg, NULL);
    if (!ap)
        ap = strdup(arg);
    if (!ap)
        return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    size_t n = strlen(ap);
    while (n > 1 && ap[n - 1] == '/')
        ap[--n] = 0;
    int rc = dbi_exec_bind(g->d,
                           "DELETE FROM load_errors WHERE entry_index IS NULL AND (pak_path = ?1 "
                           "OR substr(pak_path, 1, length(?1) + 1) = rtrim(?1, '/') || '/') AND "
                           "pak_path NOT IN (SELECT path FROM paks)",
                           0, ap, g->err);
    free(ap);
    return rc;
}

/* Known (stored bytes -> content) hashes of compressed entries already in the database. */
static int load_cache(ing *g)
{
    sqlite3_stmt *st = NULL;
    const char *sql = "SELECT stored_hash, stored_size, content_hash FROM pak_entries WHERE "
                      "stored_hash IS NOT NULL AND content_hash IS NOT NULL";
    if (sqlite3_prepare_v2(g->d->h, sql, -1, &st, NULL) != SQLITE_OK)
        return dbi_sql_fail(g->d, g->err, "load hashes");
    int s;
    while ((s = sqlite3_step(st)) == SQLITE_ROW)
        ing_cache_put(&g->pl, (uint64_t)sqlite3_column_int64(st, 0),
                      (uint32_t)sqlite3_column_int64(st, 1), (uint64_t)sqlite3_column_int64(st, 2));
    sqlite3_finalize(st);
    return s == SQLITE_DONE ? 0 : dbi_sql_fail(g->d, g->err, "load hashes");
}

/* ---- the run --------------------------------------------------------------------------- */

static int run(ing *g, ing_indexes *idx)
{
    int rc = 0;
    g->st->paks_seen = (long)g->L.nitems;
    char pragma[80];
    snprintf(pragma, sizeof pragma, "PRAGMA cache_size = -%d; PRAGMA temp_store = FILE",
             INGEST_CACHE_KIB);
    rc = dbi_exec(g->d, pragma, g->err);
    if (!rc)
        rc = ing_pipeline_start(&g->pl, g->o->jobs, g->o->memory, g->err);
    int empty = ing_db_is_empty(g);
    g->clean = empty;
    if (!rc && !empty)
        rc = load_cache(g);
    if (!rc && g->L.nitems > 0 && empty) {
        rc = db_begin(g->d, g->err);
        if (!rc) {
            g->bulk = 1;
            rc = ing_drop_indexes(g->d, NULL, idx, g->err);
        }
    }
    for (size_t r = 0; r < g->L.nrels && !rc; r++) {
        int has = 0;
        for (size_t i = 0; i < g->L.nitems && !has; i++)
            has = g->L.items[i].rel == r;
        rc = put_release(g, &g->L.rels[r], has);
    }
    long skipped = -1; /* paks_skipped before the last PAK: -1, none read yet */
    ing_ahead ahead = {.started = 0};
    if (!rc && g->bulk) {
        ing_ahead_start(&ahead, g);
        g->ahead = &ahead;
    }
    for (size_t i = 0; i < g->L.nitems && !rc; i++) {
        if (g->o->stop && *g->o->stop) {
            g->st->interrupted = 1; /* committed so far stays; the final pass is left pending */
            break;
        }
        progress(g, i, g->L.items[i].path);
        /* the kernel reads the next PAK while this one is inflated and written (not after
         * an unchanged PAK: a re-ingest reads only the tables of what it skips) */
        if (g->bulk)
            ing_ahead_at(&ahead, i);
        else if (i + 1 < g->L.nitems && g->st->paks_skipped == skipped)
            ing_prefetch(g, &g->L.items[i + 1]);
        skipped = g->st->paks_skipped;
        rc = ing_do_pak(g, &g->L.items[i]);
        /* Between two PAKs no job runs: the memory the PAK's jobs freed goes back to the
         * system once malloc holds more than TRIM_FREE_MIN of it free. malloc keeps it
         * otherwise, and the freed buffers of the jobs run ahead (ingest_jobs.c), among the
         * decoded entries' results, took the peak RSS at 10x real size from 53-57 to 56-68
         * MiB. Below that, giving it back cost more than it saved: each trim unmaps every
         * free page of every thread's heap, which the next PAK faults in again. */
        if (mallinfo2().fordblks > TRIM_FREE_MIN)
            malloc_trim(0);
        util_test_point("pak");
    }
    g->ahead = NULL;
    ing_pipeline_ahead_end(&g->pl, NULL); /* a next PAK offered stays the thread's to close */
    ing_ahead_stop(&ahead);
    g->rel_id = -1;
    ing_cache_free(&g->pl); /* the final pass reads at most a few entries again */
    if (!rc && g->nkept)
        qsort(g->kept, g->nkept, sizeof *g->kept, cmp_i64);
    for (size_t r = 0; r < g->L.nrels && !rc && !g->st->interrupted; r++)
        if (g->L.rels[r].whole && g->L.rels[r].release_id >= 0)
            rc = remove_gone(g, &g->L.rels[r]);
    if (!rc && !g->changed)
        rc = ing_pending_flag(g, &g->changed);
    if (!rc && !g->changed && g->o->rehash)
        rc = ing_final_pass_needed(g, &g->changed);
    /* the indexes a bulk load dropped that the final pass reads first are back before it
     * (without them, a lookup per asset or content was a scan); the others it builds itself,
     * beside the census it has counted on a second connection (ing_restore_indexes: also
     * after a run killed in between). A run that ends here builds them all. Its rows
     * are committed before the final pass, which reads them on a second connection too
     * (final_pass.c); final_pass_pending, set with them, says the pass is still to do.
     * From here the commits copy no WAL frames into the database file: a checkpointer does
     * that beside the writer (at 10x, 0.6 s of the bulk load's commit, most of it waiting for
     * the disk), the last close copies the rest. */
    if (!rc)
        rc = dbi_exec(g->d, "PRAGMA wal_autocheckpoint = 0", g->err);
    db_checkpointer *ck = NULL;
    if (g->bulk) {
        /* the indexes the final pass does not read before it has the census counted on a
         * second connection are built there, beside that count (ing_restore_indexes). The
         * rows are committed first, so that the checkpointer copies them while the early
         * indexes are built, when the other core is otherwise idle (in the pass it would
         * share that core with the two readers). A run killed in between leaves the early
         * indexes to the next pass too. */
        int early = g->changed && !g->st->interrupted;
        if (!rc && early && (rc = db_commit(g->d, g->err)) == 0) {
            util_test_point("rows");
            ck = dbi_checkpoint_start(g->d);
            rc = db_begin(g->d, g->err);
        }
        if (!rc)
            rc = ing_create_indexes(g->d, idx, early ? ING_INDEXES_EARLY : ING_INDEXES_ALL, g->err);
        if (!rc && early)
            g->late = idx; /* the others: the final pass's (ing_restore_indexes) */
        if (!rc)
            rc = db_commit(g->d, g->err);
        if (rc)
            db_rollback(g->d);
        g->bulk = 0;
    }
    if (!rc && g->changed && !g->st->interrupted) {
        progress(g, g->L.nitems, "finishing");
        util_test_point("final");
        rc = ing_final_pass(g, ck);
    } else {
        dbi_checkpoint_finish(ck);
    }
    int arc = dbi_exec(g->d, "PRAGMA wal_autocheckpoint = 1000", g->err); /* SQLite's own */
    return rc ? rc : arc;
}

static void ing_free(ing *g)
{
    ing_pipeline_stop(&g->pl);
    progress(g, g->L.nitems, NULL);
    iw_free(&g->L);
    free(g->kept);
    free(g->out);
    free(g->held);
    ing_worlds_free(g);
}

int db_ingest_paths(db *d, const char *const *paths, int npaths, const db_ingest_opts *opts,
                    db_ingest_stats *stats, util_err *err)
{
    ing g = {.d = d, .o = opts, .st = stats, .err = err, .rel_id = -1};
    ing_indexes idx = {NULL, 0};
    int rc = 0;
    double t0 = now_seconds();
    long warn0 = d->rows_warned;
    memset(stats, 0, sizeof *stats);
    g.L.release_opt = opts->release;
    g.L.cache_bytes = ing_cache_bytes(&g);
    g.L.unit_max = ing_unit_max(&g);
    g.L.memory = opts->memory ? opts->memory : DB_INGEST_MEMORY;
    g.L.fault = walk_fault;
    g.L.ctx = &g;
    for (int i = 0; i < npaths && !rc; i++) {
        if ((rc = forget_walk_faults(&g, paths[i])) == 0)
            rc = iw_add_path(&g.L, paths[i], err);
    }
    if (!rc)
        rc = run(&g, &idx);
    ing_indexes_free(&idx);
    ing_free(&g);
    stats->warnings = d->rows_warned - warn0;
    stats->seconds = now_seconds() - t0;
    return rc;
}

int db_ingest_mem(db *d, const char *name, const uint8_t *data, size_t len,
                  const db_ingest_opts *opts, db_ingest_stats *stats, util_err *err)
{
    ing g = {.d = d,
             .o = opts,
             .st = stats,
             .err = err,
             .rel_id = -1,
             .mem_data = data ? data : (const uint8_t *)"",
             .mem_len = len};
    ing_indexes idx = {NULL, 0};
    double t0 = now_seconds();
    long warn0 = d->rows_warned;
    memset(stats, 0, sizeof *stats);
    g.L.release_opt = opts->release;
    int rc = iw_add_mem(&g.L, name, len, err);
    if (!rc)
        rc = run(&g, &idx);
    ing_indexes_free(&idx);
    ing_free(&g);
    stats->warnings = d->rows_warned - warn0;
    stats->seconds = now_seconds() - t0;
    return rc;
}
