/* ingest_pak.c — one PAK (a file, or a byte range of a disc image): skip it when unchanged
 * (found by its release and path inside it, or as the same file under another release),
 * else replace its rows in one transaction (paks, pak_names, its warnings, pak_entries with
 * every entry's content hash) and consume the jobs of its entries in entry order. A PAK
 * that cannot be read becomes an 'error' paks row and a load_errors row. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ingest_internal.h"

static int insert_pak_row(ing *g, const ing_pak_at *at, const struct stat *sb, const pak_file *p,
                          const char *game, const char *detected, const char *status,
                          int64_t *pak_id)
{
    db_row r;
    int rc = dbi_row_begin(&r, g->d, TBL(paks), g->err);
    if (rc)
        return rc;
    dbi_text(&r, COL(paks, path), at->path);
    dbi_text(&r, COL(paks, game), game);
    dbi_text(&r, COL(paks, game_detected), detected);
    if (sb) {
        dbi_int(&r, COL(paks, file_size), (int64_t)sb->st_size);
        dbi_int(&r, COL(paks, mtime), (int64_t)sb->st_mtim.tv_sec);
        dbi_int(&r, COL(paks, mtime_ns), (int64_t)sb->st_mtim.tv_nsec);
    }
    if (p) {
        dbi_int(&r, COL(paks, tables_hash), (int64_t)p->tables_hash);
        if (g->o->rehash)
            dbi_int(&r, COL(paks, content_hash), (int64_t)g->chash);
        dbi_int(&r, COL(paks, header_unused), p->header_unused);
        dbi_int(&r, COL(paks, named_count), p->named_count);
        dbi_int(&r, COL(paks, resource_count), p->entry_count);
    }
    dbi_text(&r, COL(paks, status), status);
    dbi_int(&r, COL(paks, ingested_at), (int64_t)time(NULL));
    dbi_int(&r, COL(paks, release_id), at->release_id);
    dbi_text(&r, COL(paks, release_path), at->release_path);
    if (at->source_offset >= 0)
        dbi_int(&r, COL(paks, source_offset), at->source_offset);
    if ((rc = dbi_row_end(&r, g->err)) != 0)
        return rc;
    *pak_id = sqlite3_last_insert_rowid(g->d->h);
    return 0;
}

/* A PAK that cannot be read: replace its rows by an 'error' paks row and a load_errors row. */
static int pak_failed(ing *g, const ing_pak_at *at, const struct stat *sb, int64_t old_id,
                      const char *game, uint64_t off, const char *msg)
{
    int rc;
    int64_t pak_id = -1;
    if ((rc = ing_tx_begin(g)) != 0)
        return rc;
    if ((rc = ing_set_pending(g, 1)) == 0 && (rc = ing_delete_pak(g, old_id, at->path)) == 0 &&
        (rc = ing_evict_path(g, at->path, old_id)) == 0 &&
        (rc = insert_pak_row(g, at, sb, NULL, game, NULL, "error", &pak_id)) == 0 &&
        (rc = ing_fault(g, at->path, game, -1, 0, 0, "pak", off, msg)) == 0)
        rc = ing_tx_commit(g);
    if (rc)
        ing_tx_rollback(g);
    else
        rc = ing_kept_add(g, pak_id);
    g->changed = 1;
    return rc;
}

/* pak_names rows of p, batched. */
static int put_names(ing *g, const pak_file *p, int64_t pak_id)
{
    int rc = 0;
    char fc[5];
    db_row r;
    dbi_batch_begin(g->d);
    for (uint32_t i = 0; i < p->named_count; i++) {
        const pak_named *nm = &p->named[i];
        if ((rc = dbi_row_begin(&r, g->d, TBL(pak_names), g->err)) != 0)
            break;
        dbi_int(&r, COL(pak_names, pak_id), pak_id);
        dbi_int(&r, COL(pak_names, seq), i);
        dbi_text(&r, COL(pak_names, name), nm->name);
        dbi_text(&r, COL(pak_names, type), dbi_fourcc(nm->type, fc));
        dbi_int(&r, COL(pak_names, asset_id), nm->id);
        if ((rc = dbi_row_end(&r, g->err)) != 0)
            break;
    }
    int frc = dbi_batch_end(g->d, rc != 0, g->err);
    return rc ? rc : frc;
}

/* pak_entries rows of p's entries [from, to) with the hashes and contents their jobs found
 * (g->out), batched. */
static int put_entries(ing *g, const pak_file *p, int64_t pak_id, uint32_t from, uint32_t to)
{
    int rc = 0;
    char fc[5];
    db_row r;
    dbi_batch_begin(g->d);
    for (uint32_t i = from; i < to; i++) {
        const pak_entry *en = &p->entries[i];
        const ing_entry_out *o = &g->out[i];
        if ((rc = dbi_row_begin(&r, g->d, TBL(pak_entries), g->err)) != 0)
            break;
        dbi_int(&r, COL(pak_entries, pak_id), pak_id);
        dbi_int(&r, COL(pak_entries, entry_index), i);
        dbi_text(&r, COL(pak_entries, type), dbi_fourcc(en->type, fc));
        dbi_int(&r, COL(pak_entries, asset_id), en->id);
        dbi_int(&r, COL(pak_entries, compressed), en->compressed);
        dbi_int(&r, COL(pak_entries, data_offset), en->offset);
        dbi_int(&r, COL(pak_entries, stored_size), en->size);
        dbi_int(&r, COL(pak_entries, decompressed_size), en->decompressed_size);
        dbi_int(&r, COL(pak_entries, table_offset), (int64_t)en->table_offset);
        dbi_int(&r, COL(pak_entries, in_bounds), en->in_bounds);
        if (o->hashed)
            dbi_int(&r, COL(pak_entries, content_hash), (int64_t)o->hash);
        if (o->has_stored)
            dbi_int(&r, COL(pak_entries, stored_hash), (int64_t)o->stored_hash);
        if (o->content_id > 0)
            dbi_int(&r, COL(pak_entries, content_id), o->content_id);
        if ((rc = dbi_row_end(&r, g->err)) != 0)
            break;
    }
    int frc = dbi_batch_end(g->d, rc != 0, g->err);
    return rc ? rc : frc;
}

/* Every entry of PAK pak_id as text (index, type, ID, content hash, in entry order) into
 * *out (malloc'd; NULL when the PAK has no rows): two PAKs with the same text hold the same
 * resources. */
static int entries_digest(ing *g, int64_t pak_id, char **out)
{
    *out = NULL;
    sqlite3_stmt *st = NULL;
    const char *sql =
        "SELECT ifnull(group_concat(k, ' '), '') FROM (SELECT entry_index || ':' || type || ':' "
        "|| asset_id || ':' || ifnull(content_hash, '-') AS k FROM pak_entries "
        "WHERE pak_id = ?1 ORDER BY entry_index)";
    if (sqlite3_prepare_v2(g->d->h, sql, -1, &st, NULL) != SQLITE_OK)
        return dbi_sql_fail(g->d, g->err, sql);
    sqlite3_bind_int64(st, 1, pak_id);
    int s = sqlite3_step(st);
    if (s == SQLITE_ROW && sqlite3_column_text(st, 0)) {
        *out = strdup((const char *)sqlite3_column_text(st, 0));
        if (!*out) {
            sqlite3_finalize(st);
            return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        }
    }
    sqlite3_finalize(st);
    return s == SQLITE_ROW || s == SQLITE_DONE ? 0 : dbi_sql_fail(g->d, g->err, sql);
}

/* ---- the steps of one PAK ----------------------------------------------------------------- */

/* The skip check: is p unchanged since an earlier run (the same release and path, or the same
 * file under another release, moved here)? Then it is counted, moved when its path changed,
 * kept, and *skipped is 1. *old_id, *old_path: the earlier row (-1, NULL: none). */
static int skip_check(ing *g, const ing_pak_at *at, const struct stat *sb, const pak_file *p,
                      int64_t *old_id, char **old_path, int *skipped)
{
    int rc = ing_lookup_old(g, at, sb, p, old_id, old_path, skipped);
    if (rc == 0 && *old_id < 0) {
        int moved = 0;
        rc = ing_adopt_same_file(g, at, sb, p, old_id, &moved);
        *skipped = moved;
    }
    if (rc != 0 || !*skipped)
        return rc;
    g->st->paks_skipped++;
    if (*old_path && strcmp(*old_path, at->path))
        rc = ing_move_pak(g, *old_id, *old_path, at);
    return rc ? rc : ing_kept_add(g, *old_id);
}

/* The transaction's first rows: the earlier rows of this PAK (and of another PAK at its
 * path) out, the paks row in. The caller has begun the transaction. */
static int replace_pak_row(ing *g, const ing_pak_at *at, const struct stat *sb, const pak_file *p,
                           int64_t old_id, const char *game, const ing_game_choice *gc,
                           int64_t *pak_id)
{
    int rc;
    if ((rc = ing_set_pending(g, 1)) != 0 || (rc = ing_delete_pak(g, old_id, at->path)) != 0 ||
        (rc = ing_evict_path(g, at->path, old_id)) != 0)
        return rc;
    return insert_pak_row(g, at, sb, p, game, pak_game_name(gc->detected), "ok", pak_id);
}

/* The warning of a game guessed or disputed, if it was. */
static int put_game_warning(ing *g, const char *game, int64_t pak_id, const ing_game_choice *gc)
{
    if (!gc->guessed && !gc->conflict)
        return 0;
    return dbi_warn(g->d, game, "PAK", -1, -1, gc->guessed ? "game_unknown" : "game_conflict",
                    gc->guessed ? "no signal tells the game; took the game of the "
                                  "other PAKs in its folder"
                                : "game signals disagree; used the strongest",
                    pak_id, g->err);
}

/* The PAK's own warnings: each anomaly of its tables, and a game guessed or disputed. */
static int put_anomalies(ing *g, const pak_file *p, int64_t pak_id, const char *game,
                         const ing_game_choice *gc)
{
    int rc;
    for (size_t i = 0; i < p->anomaly_count; i++) {
        const pak_anomaly *a = &p->anomalies[i];
        char fc[5] = "PAK";
        int64_t id = -1;
        if (a->entry_index >= 0 && (uint64_t)a->entry_index < p->entry_count) {
            util_fourcc_str(p->entries[a->entry_index].type, fc);
            id = p->entries[a->entry_index].id;
        }
        if ((rc = dbi_warn(g->d, game, fc, id, (int64_t)a->offset, a->code, a->msg, pak_id,
                           g->err)) != 0)
            return rc;
    }
    return put_game_warning(g, game, pak_id, gc);
}

/* Job scheduling: the jobs of one PAK's entries, one per entry (every entry is read and
 * hashed), numbered from base; next is the next one to hand to the workers, consumed the
 * next one to write. lazy: each entry's sizes and codecs are read just before its job (by
 * a worker, or by the writer with --jobs 1), not all up front. */
typedef struct pak_jobs {
    pak_file *p;
    const char *game;
    ancs_game ag;
    size_t n, base, next, consumed;
    size_t released; /* jobs the workers may claim: those before it (ing_pipeline_release) */
    int64_t pak_id;
    uint32_t put; /* entries whose pak_entries rows are written */
    int lazy;
    int block_cache; /* ing_pak_at.block_cache */
    int info_failed; /* an entry's sizes could not be read: info_err says how */
    util_err info_err;
} pak_jobs;

/* Lazy, --jobs 1: the sizes and codecs of entry k, read just before its job (a stored
 * entry's come from its job's bytes: set_unpadded). */
static int need_entry_info(pak_jobs *q, size_t k)
{
    const pak_entry *e = &q->p->entries[k];
    if (!q->lazy || (!e->compressed && e->in_bounds) ||
        pak_read_entry_info_one(q->p, (uint32_t)k, &q->info_err) == 0)
        return 0;
    q->info_failed = 1;
    return q->info_err.code ? q->info_err.code : UTIL_EIO;
}

/* Lazy (the disc named the game before any codec was read): once every entry's codec is
 * in, the conflict warning put_anomalies could not give yet. The game stays the disc's. */
static int lazy_conflict(ing *g, const ing_pak_at *at, const pak_jobs *q, int64_t pak_id,
                         const ing_game_choice *gc)
{
    if (!q->lazy || gc->guessed || gc->conflict)
        return 0;
    pak_game_signals sig = {.disc_id = at->disc_id, .ancs = PAK_GAME_UNKNOWN};
    ing_game_choice now = *gc;
    pak_game_decide(q->p, &sig, &now.conflict);
    return put_game_warning(g, q->game, pak_id, &now);
}

/* Entry k's size without its padding, when stored: from the bytes its job read; else (the
 * job read none: its need was over the budget, or its read failed) from a read of its tail,
 * as pak_read_entry_info would have set it. */
static void set_unpadded(pak_jobs *q, size_t k, const ing_job *j)
{
    pak_entry *e = &q->p->entries[k];
    if (e->compressed || q->p->entry_info)
        return;
    if (j->has_unpadded) {
        e->decompressed_size = j->unpadded;
        return;
    }
    util_err ignored;
    util_err_clear(&ignored);
    if (pak_read_entry_info_one(q->p, (uint32_t)k, &ignored) != 0)
        e->decompressed_size = e->size;
}

/* Hand the job of entry next - base to the workers (lazy: a worker reads its sizes first). */
static void hand_out(ing *g, pak_jobs *q)
{
    ing_pipeline *pl = &g->pl;
    size_t k = q->next - q->base;
    ing_job *j = &pl->ring[q->next % pl->cap];
    ing_job_set(j, q->p, (uint32_t)k, q->ag, ing_want_decode(g, q->game, &q->p->entries[k]));
    j->lazy_p = q->lazy ? q->p : NULL;
    j->info = ING_SIZES_TO_READ;
    j->seq = q->next;
    q->next++;
}

/* The first jobs go to the workers at once: they read, hash and decode while the names are
 * written; one more is handed out for each one written, so the workers stay this far ahead.
 * In a container that decodes blocks into a cache (GCZ, WIA, RVZ): no farther than
 * ING_CACHED_AHEAD, as the blocks of the jobs ahead must stay in the cache until each is
 * read (with the whole ring ahead, the workers decoded an RVZ's groups again). */
#define ING_CACHED_AHEAD 32
static void hand_out_first(ing *g, pak_jobs *q)
{
    ing_pipeline *pl = &g->pl;
    if (pl->nthreads == 0)
        return;
    size_t ahead = q->block_cache && pl->cap > ING_CACHED_AHEAD ? ING_CACHED_AHEAD : pl->cap;
    size_t first = q->n < ahead ? q->n : ahead;
    for (size_t k = 0; k < first; k++)
        hand_out(g, q);
    ing_pipeline_release(pl, q->next);
    q->released = q->next;
}

/* Entries consumed between two writes of their pak_entries rows and of the MLVL rows whose
 * areas' names have come. What is left at a PAK's last entry is written before its commit,
 * while the workers have no job (the next PAK's are handed out once it is opened): written
 * as the jobs are consumed, it is written while they work. */
#ifdef ANCSDB_ENTRY_ROWS
#define ING_ENTRY_ROWS ANCSDB_ENTRY_ROWS /* the test build's (CMakeLists.txt) */
#else
#define ING_ENTRY_ROWS 256
#endif

/* The next PAKs, once the read-ahead thread has opened them, offered to the workers to hash
 * ahead when they have nothing left of this one. */
static void offer_next(ing *g, const ing_pak_at *at)
{
    for (size_t i = 1; g->ahead && i < ING_AHEAD_PAKS; i++) {
        const pak_file *next = ing_ahead_peek(g->ahead, at->item + i);
        if (!next)
            break; /* in order: not one after a PAK not offered */
        ing_pipeline_ahead_next(&g->pl, next);
    }
}

/* The rows: consume the jobs in entry order (ing_finish_entry writes each entry's rows),
 * handing out one more for each one written; every ING_ENTRY_ROWS entries, their
 * pak_entries rows and the waiting MLVLs' rows that can be written. An entry of any type
 * whose data runs past the file is not loaded: its job gives it a load_errors row like
 * every other fault of an entry. */
static int write_entries(ing *g, pak_jobs *q, const ing_pak_at *at)
{
    ing_pipeline *pl = &g->pl;
    for (size_t k = 0; k < q->n; k++) {
        ing_job *j = &pl->ring[(q->base + k) % pl->cap];
        if (pl->nthreads > 0) {
            ing_pipeline_wait(pl, j);
            if (j->lazy_p && j->info == ING_SIZES_FAILED) {
                q->info_failed = 1;
                q->info_err = j->info_e;
                return j->info_e.code ? j->info_e.code : UTIL_EIO;
            }
        } else {
            int rc = need_entry_info(q, k);
            if (rc)
                return rc;
            ing_job_set(j, q->p, (uint32_t)k, q->ag, 0); /* finish_entry decodes when needed */
            ing_job_run(j);
        }
        set_unpadded(q, k, j);
        int rc = ing_finish_entry(g, j, at->path, q->game);
        ing_job_clear(j);
        q->consumed++;
        if (rc == 0 && k + 1 - q->put >= ING_ENTRY_ROWS) {
            rc = put_entries(g, q->p, q->pak_id, q->put, (uint32_t)k + 1);
            q->put = (uint32_t)k + 1;
            if (rc == 0)
                rc = ing_worlds_flush(g, 0);
            offer_next(g, at);
        }
        if (rc)
            return rc;
        /* one handed out for each one consumed, let go a batch at a time (the ring keeps the
         * workers far enough ahead; near a container's blocks, one at a time) */
        if (pl->nthreads > 0 && q->next < q->base + q->n) {
            hand_out(g, q);
            if (q->block_cache || q->next - q->released >= pl->batch || q->next == q->base + q->n) {
                ing_pipeline_release(pl, q->next);
                q->released = q->next;
            }
        }
    }
    return 0;
}

/* After the commit: a PAK read from another place whose entries are what they were counts
 * as skipped; else as ingested. */
static int count_pak(ing *g, const pak_file *p, int64_t pak_id, const char *old_digest)
{
    char *new_digest = NULL;
    int rc;
    if (old_digest && (rc = entries_digest(g, pak_id, &new_digest)) != 0)
        return rc;
    if (old_digest && new_digest && !strcmp(old_digest, new_digest)) {
        g->st->paks_skipped++; /* read from elsewhere, nothing changed */
        g->st->paks_elsewhere++;
        g->st->resources -= p->entry_count; /* counted as the entries went in */
    } else {
        g->st->paks_ingested++;
    }
    free(new_digest);
    return 0;
}

/* A PAK whose entry sizes could not be read (e says why) fails as a whole; out of memory
 * stops the run. */
static int sizes_failed(ing *g, const ing_pak_at *at, const struct stat *sb, int64_t old_id,
                        const util_err *e)
{
    if (e->code == UTIL_ENOMEM)
        return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory opening %s", at->path);
    return pak_failed(g, at, sb, old_id, NULL, e->offset, e->msg);
}

/* Ingest the PAK p (closed here) in one transaction: the skip check, the entry table, the
 * game decision, then in the transaction the paks row, the names, the warnings and every
 * entry's rows. info: the entry sizes' read when the read-ahead thread did it, else NULL. */
static int do_pak_file(ing *g, const ing_pak_at *at, const struct stat *sb, pak_file *p,
                       const ing_opened *info)
{
    int rc = 0;
    int64_t old_id = -1, pak_id = -1;
    int skip = 0;
    char *old_path = NULL, *old_digest = NULL;
    const char *path = at->path;
    pak_jobs q = {.p = p, .n = p->entry_count, .base = g->pl.limit, .block_cache = at->block_cache};
    q.next = q.consumed = q.released = q.base;
    if ((rc = skip_check(g, at, sb, p, &old_id, &old_path, &skip)) != 0 || skip)
        goto done;
    util_err e;
    util_err_clear(&e);
    util_err_clear(&q.info_err);
    /* In a disc whose game code names the game, no entry can change the game (it is the
     * strongest signal): each entry's sizes and codecs are read just before its job, so that
     * a container decodes each block once. Elsewhere the codecs decide the game first. */
    q.lazy = pak_game_of_disc(at->disc_id) != PAK_GAME_UNKNOWN;
    if (!q.lazy && (info ? info->info_rc != 0 : pak_read_entry_heads(p, &e) != 0)) {
        rc = sizes_failed(g, at, sb, old_id, info ? &info->info_e : &e);
        goto done;
    }
    ing_game_choice gc;
    if (ing_decide_game(g, at, p, &gc) != 0) {
        rc = pak_failed(g, at, sb, old_id, NULL, UINT64_MAX,
                        "cannot tell MP1 from MP2 (use --game)");
        goto done;
    }
    q.game = gc.game == PAK_GAME_MP2 ? "MP2" : "MP1";
    q.ag = gc.game == PAK_GAME_MP2 ? ANCS_GAME_MP2 : ANCS_GAME_MP1;
    free(g->out);
    g->out = calloc(p->entry_count ? p->entry_count : 1, sizeof *g->out);
    if (!g->out) {
        rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        goto done;
    }
    g->changed = 1;
    /* the same release's PAK read from another place (an image, then its extracted folder):
     * its entries before, to tell afterwards whether anything changed */
    if (old_id >= 0 && old_path && strcmp(old_path, path) &&
        (rc = entries_digest(g, old_id, &old_digest)) != 0)
        goto done;
    /* what a PAK whose entry sizes cannot be read leaves of the counts: none of its rows */
    db_ingest_stats st0 = *g->st;
    long warned0 = g->d->rows_warned;
    /* undone alone: a PAK whose entries' sizes are read as its jobs go, which fails whole
     * when one of them cannot be read (q.info_failed, below) */
    if ((rc = ing_tx_begin_undo(g, q.lazy)) != 0)
        goto done;
    ing_log_hold(g); /* an entry's fault is told once its rows are committed */
    if ((rc = replace_pak_row(g, at, sb, p, old_id, q.game, &gc, &pak_id)) != 0)
        goto rollback;
    g->cur_pak = pak_id;
    q.pak_id = pak_id;
    if (!q.lazy && !q.block_cache)
        ing_pipeline_ahead_begin(&g->pl, p, q.base);
    hand_out_first(g, &q);
    offer_next(g, at);
    if ((rc = put_names(g, p, pak_id)) != 0 || (rc = put_anomalies(g, p, pak_id, q.game, &gc)))
        goto rollback;
    g->st->resources += p->entry_count;
    if ((rc = write_entries(g, &q, at)) != 0 || (rc = lazy_conflict(g, at, &q, pak_id, &gc)) ||
        (rc = ing_worlds_flush(g, at->release_ends)) != 0 ||
        (rc = put_entries(g, p, pak_id, q.put, p->entry_count)) != 0 ||
        (rc = ing_tx_commit(g)) != 0)
        goto rollback;
    ing_log_release(g, 1);
    if ((rc = count_pak(g, p, pak_id, old_digest)) == 0)
        rc = ing_kept_add(g, pak_id);
    goto done;
rollback:
    ing_pipeline_drain(&g->pl, q.consumed);
    ing_worlds_drop(g);
    ing_tx_rollback(g);
    ing_log_release(g, 0);
    if (q.info_failed) { /* as when every entry's sizes were read first: the PAK fails */
        *g->st = st0;
        g->d->rows_warned = warned0;
        rc = sizes_failed(g, at, sb, old_id, &q.info_err);
    }
done:
    ing_pipeline_ahead_end(&g->pl, p); /* no worker reads p after this */
    free(old_path);
    free(old_digest);
    pak_close(p);
    return rc;
}

int ing_do_pak(ing *g, const iw_item *it)
{
    iw_release *r = &g->L.rels[it->rel];
    pak_file *p = NULL;
    util_src *src = NULL, *image = NULL;
    util_err e;
    int rc = 0;
    int64_t old_id = -1;
    int skip = 0;
    struct stat sb;
    char disc_id[5] = "";
    if (r->has_disc)
        memcpy(disc_id, r->hdr.game_code, 4);
    ing_pak_at at = {.path = it->path,
                     .release_path = it->release_path,
                     .release_id = r->release_id,
                     .source_offset = it->file || g->mem_data ? -1 : (int64_t)it->off,
                     .game = r->game,
                     .disc_id = r->has_disc ? disc_id : NULL,
                     .block_cache = r->image && r->image->container.cache_unit > 0,
                     .release_ends = it + 1 == g->L.items + g->L.nitems || it[1].rel != it->rel,
                     .item = (size_t)(it - g->L.items)};
    memset(&sb, 0, sizeof sb);
    util_err_clear(&e);
    g->rel_id = r->release_id;
    if (g->mem_data) {
        sb.st_size = (off_t)g->mem_len;
    } else {
        const char *file = it->file ? it->file : r->source;
        if (stat(file, &sb) != 0) {
            char msg[192];
            snprintf(msg, sizeof msg, "cannot stat: %s", strerror(errno));
            /* not read: what was hashed ahead of the PAKs offered (it may be one) is dropped;
             * the one before has ended */
            ing_pipeline_ahead_end(&g->pl, NULL);
            return ing_fault(g, it->path, NULL, -1, 0, 0, "pak", UINT64_MAX, msg);
        }
        if (!it->file)
            sb.st_size = (off_t)it->len; /* a PAK inside an image: the image's time */
    }
    ing_opened pre;
    int ahead = g->ahead && ing_ahead_take(g->ahead, at.item, &pre);
    if (ahead) { /* opened by the read-ahead thread */
        src = pre.src;
        p = pre.p;
        rc = pre.rc;
        e = pre.e;
    } else if (r->image && r->image->src && !g->mem_data && !it->file) {
        /* the image the walk opened (a container's blocks cached once for all its PAKs) */
        rc = util_src_open_range(&src, r->image->src, it->off, it->len, &e);
    } else {
        rc = ing_open(g, it->file, r->source, at.source_offset, it->len, &image, &src, &e);
    }
    if (rc == 0 && !ahead)
        rc = pak_open_src_tables(&p, src, &e);
    if (rc == 0 && g->o->rehash)
        rc = ing_hash_all(src, &g->chash, &e);
    if (rc != 0) {
        if (p)
            ing_pipeline_ahead_end(&g->pl, p); /* offered as the next PAK, not read */
        pak_close(p);
        util_src_close(src);
        util_src_close(image);
        if (e.code == UTIL_ENOMEM)
            return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory opening %s", it->path);
        if ((rc = ing_lookup_old(g, &at, &sb, NULL, &old_id, NULL, &skip)) != 0)
            return rc;
        return pak_failed(g, &at, &sb, old_id, NULL, e.offset, e.msg);
    }
    /* closes p; in a disc that names its game, each job reads its entry's sizes */
    rc = do_pak_file(g, &at, &sb, p, ahead && !at.disc_id ? &pre : NULL);
    util_src_close(src);
    util_src_close(image);
    return rc;
}
