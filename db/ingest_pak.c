/* ingest_pak.c — one PAK: skip it when unchanged, else replace its rows in one transaction
 * (paks, pak_entries, pak_names, its warnings) and consume the decode jobs of its ANCS/EVNT
 * entries in entry order. A PAK that cannot be read becomes an 'error' paks row and a
 * load_errors row. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ingest_internal.h"

static int has_type(const pak_file *p, uint32_t type)
{
    for (uint32_t i = 0; i < p->entry_count; i++)
        if (p->entries[i].type == type)
            return 1;
    return 0;
}

static int has_compressed(const pak_file *p)
{
    for (uint32_t i = 0; i < p->entry_count; i++)
        if (p->entries[i].compressed)
            return 1;
    return 0;
}

static int insert_pak_row(ing *g, const char *path, const struct stat *sb, const pak_file *p,
                          const char *game, const char *detected, const char *status,
                          int64_t *pak_id)
{
    db_row r;
    int rc = dbi_row_begin(&r, g->d, TBL(paks), g->err);
    if (rc)
        return rc;
    dbi_text(&r, COL(paks, path), path);
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
    if ((rc = dbi_row_end(&r, g->err)) != 0)
        return rc;
    *pak_id = sqlite3_last_insert_rowid(g->d->h);
    return 0;
}

/* A PAK that cannot be read: replace its rows by an 'error' paks row and a load_errors row. */
static int pak_failed(ing *g, const char *path, const struct stat *sb, int64_t old_id,
                      const char *game, uint64_t off, const char *msg)
{
    int rc;
    int64_t pak_id;
    if ((rc = ing_tx_begin(g)) != 0)
        return rc;
    if ((rc = ing_set_pending(g, 1)) == 0 && (rc = ing_delete_pak(g, old_id, path)) == 0 &&
        (rc = insert_pak_row(g, path, sb, NULL, game, NULL, "error", &pak_id)) == 0 &&
        (rc = ing_fault(g, path, game, -1, 0, 0, "pak", off, msg)) == 0)
        rc = ing_tx_commit(g);
    if (rc)
        ing_tx_rollback(g);
    g->changed = 1;
    return rc;
}

/* pak_entries and pak_names rows of p, batched. */
static int put_tables(ing *g, const pak_file *p, int64_t pak_id)
{
    int rc = 0;
    char fc[5];
    db_row r;
    dbi_batch_begin(g->d);
    for (uint32_t i = 0; i < p->entry_count; i++) {
        const pak_entry *en = &p->entries[i];
        if ((rc = dbi_row_begin(&r, g->d, TBL(pak_entries), g->err)) != 0)
            goto done;
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
        if ((rc = dbi_row_end(&r, g->err)) != 0)
            goto done;
    }
    for (uint32_t i = 0; i < p->named_count; i++) {
        const pak_named *nm = &p->named[i];
        if ((rc = dbi_row_begin(&r, g->d, TBL(pak_names), g->err)) != 0)
            goto done;
        dbi_int(&r, COL(pak_names, pak_id), pak_id);
        dbi_int(&r, COL(pak_names, seq), i);
        dbi_text(&r, COL(pak_names, name), nm->name);
        dbi_text(&r, COL(pak_names, type), dbi_fourcc(nm->type, fc));
        dbi_int(&r, COL(pak_names, asset_id), nm->id);
        if ((rc = dbi_row_end(&r, g->err)) != 0)
            goto done;
    }
done:;
    int frc = dbi_batch_end(g->d, rc != 0, g->err);
    return rc ? rc : frc;
}

/* Ingest the PAK p (closed here) in one transaction. */
static int do_pak_file(ing *g, const char *path, const struct stat *sb, pak_file *p)
{
    int rc = 0;
    int64_t old_id = -1, pak_id = -1;
    int skip = 0;
    uint32_t *pending = NULL; /* ANCS/EVNT entry indexes */
    ing_pipeline *pl = &g->pl;
    /* job sequence numbers: this PAK's start, next to hand out, next to consume */
    size_t n_pending = 0, base = pl->limit, next = base, consumed = base;
    if ((rc = ing_lookup_old(g, path, sb, p, &old_id, &skip)) != 0)
        goto done;
    if (skip) {
        g->st->paks_skipped++;
        goto done;
    }
    util_err e;
    util_err_clear(&e);
    if ((rc = pak_read_entry_info(p, &e)) != 0) {
        if (e.code == UTIL_ENOMEM) {
            rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory opening %s", path);
            goto done;
        }
        rc = pak_failed(g, path, sb, old_id, NULL, e.offset, e.msg);
        goto done;
    }
    /* the game: the PAK's own signals, then (only when they tell nothing) an ANCS's */
    int conflict = 0;
    pak_game det = pak_game_decide(p, NULL, &conflict);
    if (det == PAK_GAME_UNKNOWN) {
        pak_game_signals sig = {.disc_id = NULL, .ancs = ing_game_from_ancs(p, g->pl.budget)};
        det = pak_game_decide(p, &sig, &conflict);
    }
    pak_game pg = g->o->game != PAK_GAME_UNKNOWN ? g->o->game : det;
    int guessed = 0;
    if (pg == PAK_GAME_UNKNOWN) {
        if (has_compressed(p) || has_type(p, UTIL_FCC_ANCS)) {
            rc = pak_failed(g, path, sb, old_id, NULL, UINT64_MAX,
                            "cannot tell MP1 from MP2 (use --game)");
            goto done;
        }
        pg = PAK_GAME_MP1; /* nothing in it depends on the game */
        guessed = 1;
    }
    const char *game = pg == PAK_GAME_MP2 ? "MP2" : "MP1";
    ancs_game ag = pg == PAK_GAME_MP2 ? ANCS_GAME_MP2 : ANCS_GAME_MP1;
    if (p->entry_count) {
        pending = malloc((size_t)p->entry_count * sizeof *pending);
        if (!pending) {
            rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
            goto done;
        }
    }
    for (uint32_t i = 0; i < p->entry_count; i++)
        if (p->entries[i].type == UTIL_FCC_ANCS || p->entries[i].type == UTIL_FCC_EVNT)
            pending[n_pending++] = i;
    g->changed = 1;
    if ((rc = ing_tx_begin(g)) != 0)
        goto done;
    if ((rc = ing_set_pending(g, 1)) != 0 || (rc = ing_delete_pak(g, old_id, path)) != 0)
        goto rollback;
    if ((rc = insert_pak_row(g, path, sb, p, game, pak_game_name(det), "ok", &pak_id)) != 0)
        goto rollback;
    /* Hand the first jobs to the workers: they decode while the table rows are written. */
    if (pl->nthreads > 0) {
        size_t first = n_pending < pl->cap ? n_pending : pl->cap;
        for (size_t k = 0; k < first; k++)
            ing_job_set(&pl->ring[(base + k) % pl->cap], p, pending[k], ag,
                        ing_want_decode(g, game, &p->entries[pending[k]]));
        next = base + first;
        ing_pipeline_release(pl, next);
    }
    if ((rc = put_tables(g, p, pak_id)) != 0)
        goto rollback;
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
            goto rollback;
    }
    if (guessed || conflict) {
        if ((rc = dbi_warn(g->d, game, "PAK", -1, -1, guessed ? "game_unknown" : "game_conflict",
                           guessed ? "no signal tells the game; took the game of the "
                                     "other PAKs in its folder"
                                   : "game signals disagree; used the strongest",
                           pak_id, g->err)) != 0)
            goto rollback;
    }
    /* An entry of any type whose data runs past the file is not loaded: a load_errors row
     * (ANCS/EVNT get theirs when their job is consumed). */
    for (uint32_t i = 0; i < p->entry_count; i++) {
        const pak_entry *en = &p->entries[i];
        if (en->in_bounds || en->type == UTIL_FCC_ANCS || en->type == UTIL_FCC_EVNT)
            continue;
        if ((rc = ing_fault(g, path, game, i, en->type, en->id, "inflate", en->offset,
                            "entry data lies outside the file")) != 0)
            goto rollback;
    }
    g->st->resources += p->entry_count;
    /* Consume the jobs in entry order, handing out one more for each one written. */
    for (size_t k = 0; k < n_pending; k++) {
        ing_job *j = &pl->ring[(base + k) % pl->cap];
        if (pl->nthreads > 0) {
            ing_pipeline_wait(pl, j);
        } else {
            ing_job_set(j, p, pending[k], ag, 0); /* finish_entry decodes when needed */
            ing_job_run(j);
        }
        rc = ing_finish_entry(g, j, pak_id, path, game);
        ing_job_clear(j);
        consumed++;
        if (rc)
            goto rollback;
        if (pl->nthreads > 0 && next < base + n_pending) {
            size_t kn = next - base;
            ing_job_set(&pl->ring[next % pl->cap], p, pending[kn], ag,
                        ing_want_decode(g, game, &p->entries[pending[kn]]));
            ing_pipeline_release(pl, ++next);
        }
    }
    if ((rc = ing_tx_commit(g)) != 0)
        goto rollback;
    g->st->paks_ingested++;
    goto done;
rollback:
    ing_pipeline_drain(pl, consumed);
    ing_tx_rollback(g);
done:
    free(pending);
    pak_close(p);
    return rc;
}

/* Open one PAK and ingest it; an unreadable PAK becomes an 'error' row, not a failure. */
int ing_do_pak(ing *g, const char *path, const struct stat *sb)
{
    pak_file *p = NULL;
    util_src *src = NULL;
    util_err e;
    int rc = 0;
    int64_t old_id = -1;
    int skip = 0;
    util_err_clear(&e);
    rc = ing_open(g, path, &src, &e);
    if (rc == 0)
        rc = pak_open_src_tables(&p, src, &e);
    if (rc == 0 && g->o->rehash)
        rc = ing_hash_all(src, &g->chash, &e);
    if (rc != 0) {
        pak_close(p);
        util_src_close(src);
        if (e.code == UTIL_ENOMEM)
            return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory opening %s", path);
        if ((rc = ing_lookup_old(g, path, sb, NULL, &old_id, &skip)) != 0)
            return rc;
        return pak_failed(g, path, sb, old_id, NULL, e.offset, e.msg);
    }
    rc = do_pak_file(g, path, sb, p); /* closes p */
    util_src_close(src);
    return rc;
}
