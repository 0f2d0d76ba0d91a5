/* ingest_entry.c — one ANCS/EVNT entry on the writer's side: record its hash, then write
 * the rows of its decode when it is the first copy of (game, type, asset ID), or compare
 * it with the copy that was decoded (warning copy_differs). */
#include <stdio.h>
#include <string.h>

#include "ingest_internal.h"

static int set_hash(ing *g, int64_t pak_id, uint32_t entry, uint64_t hash)
{
    sqlite3_stmt *st = g->d->st[S_ENTRY_HASH];
    sqlite3_bind_int64(st, 1, pak_id);
    sqlite3_bind_int64(st, 2, entry);
    sqlite3_bind_int64(st, 3, (int64_t)hash);
    int s = sqlite3_step(st);
    sqlite3_reset(st);
    return s == SQLITE_DONE ? 0 : dbi_sql_fail(g->d, g->err, "update pak_entries");
}

/* The `decoded` row: which copy of the asset produced its rows, and the outcome. */
static int put_decoded(ing *g, const char *game, const char *tname, uint32_t id, int64_t pak_id,
                       uint32_t entry, const ing_job *j, const char *status)
{
    db_row r;
    int rc = dbi_row_begin(&r, g->d, TBL(decoded), g->err);
    if (rc)
        return rc;
    dbi_text(&r, COL(decoded, game), game);
    dbi_text(&r, COL(decoded, type), tname);
    dbi_int(&r, COL(decoded, asset_id), id);
    dbi_int(&r, COL(decoded, pak_id), pak_id);
    dbi_int(&r, COL(decoded, entry_index), entry);
    dbi_int(&r, COL(decoded, size), (unsigned)j->len);
    dbi_int(&r, COL(decoded, content_hash), (int64_t)j->hash);
    dbi_text(&r, COL(decoded, status), status);
    return dbi_row_end(&r, g->err);
}

int ing_finish_entry(ing *g, ing_job *j, int64_t pak_id, const char *path, const char *game)
{
    const pak_entry *e = &j->p->entries[j->entry];
    uint32_t i = j->entry;
    int is_ancs = e->type == UTIL_FCC_ANCS;
    const char *tname = is_ancs ? "ANCS" : "EVNT";
    int rc = 0;
    if (!e->in_bounds)
        return ing_fault(g, path, game, i, e->type, e->id, "inflate", e->offset,
                         "entry data lies outside the file");
    if (!j->inflated) {
        if (j->e.code == UTIL_ENOMEM)
            return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory inflating %s", path);
        return ing_fault(g, path, game, i, e->type, e->id, "inflate", j->e.offset, j->e.msg);
    }
    if ((rc = set_hash(g, pak_id, i, j->hash)) != 0)
        return rc;
    /* already decoded from another copy? */
    sqlite3_stmt *q = g->d->st[S_DECODED_GET];
    sqlite3_bind_text(q, 1, game, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 2, e->id);
    sqlite3_bind_text(q, 3, tname, -1, SQLITE_STATIC);
    int s = sqlite3_step(q);
    int have = s == SQLITE_ROW;
    int64_t canon = have ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    if (s != SQLITE_ROW && s != SQLITE_DONE)
        return dbi_sql_fail(g->d, g->err, "select decoded");
    if (have) {
        if (canon != (int64_t)j->hash) {
            char msg[160];
            snprintf(msg, sizeof msg,
                     "entry %u: inflated bytes (%zu without 0xFF padding) differ from the "
                     "decoded copy of %s %08X",
                     i, j->hlen, tname, e->id);
            rc = dbi_warn(g->d, game, tname, e->id, -1, "copy_differs", msg, pak_id, g->err);
        }
        return rc;
    }
    if (!j->decoded)
        ing_job_decode(j);
    const char *status = "ok";
    if (j->dec_rc != 0) {
        if (j->e.code == UTIL_ENOMEM && (!is_ancs || j->arena.limit == 0))
            return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory decoding");
        status = "decode_error";
        rc = ing_fault(g, path, game, i, e->type, e->id, "decode", j->e.offset, j->e.msg);
    } else if (is_ancs) {
        rc = db_put_ancs(g->d, game, e->id, &j->set, g->err);
        g->st->ancs++;
        g->st->characters += j->set.char_count;
    } else {
        rc = db_put_evnt(g->d, game, e->id, &j->ev, g->err);
        g->st->evnt++;
    }
    if (rc == 0)
        rc = put_decoded(g, game, tname, e->id, pak_id, i, j, status);
    return rc;
}

/* Whether (game, type, id) has no decoded rows now: the guess handed to a worker. */
int ing_want_decode(ing *g, const char *game, const pak_entry *e)
{
    sqlite3_stmt *q = g->d->st[S_DECODED_GET];
    sqlite3_bind_text(q, 1, game, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 2, e->id);
    sqlite3_bind_text(q, 3, e->type == UTIL_FCC_ANCS ? "ANCS" : "EVNT", -1, SQLITE_STATIC);
    int s = sqlite3_step(q);
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    return s != SQLITE_ROW;
}
