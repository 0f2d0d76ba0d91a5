/* ingest_entry.c — one resource-table entry on the writer's side: note its hashes (every
 * entry: the content of every type is known, for release-diff), and for an
 * ANCS/EVNT/MLVL/STRG find
 * its content (game, type, asset ID, hash) or make it: decode, a contents row, the decode's
 * rows. Each distinct content is decoded once, whatever PAK or release holds it. An MLVL's
 * asset_refs rows wait for its areas' names (ingest_world.c). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ingest_internal.h"

/* The contents row (cid > 0: again under that content_id). *out its content_id. */
static int put_content(ing *g, const char *game, const char *tname, uint32_t id, const ing_job *j,
                       const char *status, int64_t cid, int64_t *out)
{
    db_row r;
    int rc = dbi_row_begin(&r, g->d, TBL(contents), g->err);
    if (rc)
        return rc;
    if (cid > 0)
        dbi_int(&r, COL(contents, content_id), cid);
    dbi_text(&r, COL(contents, game), game);
    dbi_text(&r, COL(contents, type), tname);
    dbi_int(&r, COL(contents, asset_id), id);
    dbi_int(&r, COL(contents, hash), (int64_t)j->hash);
    dbi_int(&r, COL(contents, size), (int64_t)j->len);
    dbi_text(&r, COL(contents, status), status);
    if (j->dec_rc != 0) {
        if (j->e.offset != UINT64_MAX)
            dbi_int(&r, COL(contents, error_offset), (int64_t)j->e.offset);
        dbi_text(&r, COL(contents, error), j->e.msg);
    }
    if ((rc = dbi_row_end(&r, g->err)) != 0)
        return rc;
    *out = cid > 0 ? cid : sqlite3_last_insert_rowid(g->d->h);
    return 0;
}

int ing_finish_entry(ing *g, ing_job *j, const char *path, const char *game)
{
    const pak_entry *e = &j->p->entries[j->entry];
    uint32_t i = j->entry;
    ing_entry_out *o = &g->out[i];
    int is_ancs = e->type == UTIL_FCC_ANCS;
    const char *tname = ing_type_name(e->type);
    int rc = 0;
    util_test_point("entry");
    if (!e->in_bounds)
        return ing_fault(g, path, game, i, e->type, e->id, "inflate", e->offset,
                         "entry data lies outside the file");
    if (j->has_stored_hash) {
        o->stored_hash = j->stored_hash;
        o->has_stored = 1;
    }
    if (!j->hashed) {
        if (j->e.code == UTIL_ENOMEM)
            return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory inflating %s", path);
        return ing_fault(g, path, game, i, e->type, e->id, "inflate", j->e.offset, j->e.msg);
    }
    o->hash = j->hash;
    o->hashed = 1;
    if (j->has_stored_hash && j->inflated)
        g->st->inflated++; /* its job put the hashes in the cache (ing_job_run) */
    if (!ing_decoded_type(e->type))
        return 0;
    /* An entry typed MLVL/STRG whose bytes do not start with the format's magic is not a world
     * file at all (a mislabelled entry, or the fixture builder's filler): a warning of its PAK,
     * not decoded. Anything after a right magic that does not decode is a load error. */
    if ((e->type == UTIL_FCC_MLVL && !world_is_mlvl(j->buf, j->len)) ||
        (e->type == UTIL_FCC_STRG && !world_is_strg(j->buf, j->len))) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "entry %u: the bytes do not start with the %s magic (0x%08X): "
                 "not decoded",
                 i, tname, e->type == UTIL_FCC_MLVL ? WORLD_MLVL_MAGIC : WORLD_STRG_MAGIC);
        return dbi_warn(g->d, game, tname, e->id, 0,
                        e->type == UTIL_FCC_MLVL ? "not_mlvl" : "not_strg", msg, g->cur_pak,
                        g->err);
    }
    /* a content seen before (in any PAK of any release)? */
    sqlite3_stmt *q = g->d->st[S_CONTENT_GET];
    sqlite3_bind_text(q, 1, game, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, tname, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, e->id);
    sqlite3_bind_int64(q, 4, (int64_t)j->hash);
    int s = sqlite3_step(q);
    int have = s == SQLITE_ROW;
    int64_t cid = have ? sqlite3_column_int64(q, 0) : 0;
    int bad = have && sqlite3_column_text(q, 1) &&
              !strcmp((const char *)sqlite3_column_text(q, 1), "decode_error");
    int64_t have_size = have ? sqlite3_column_int64(q, 4) : 0;
    int64_t bad_off =
        bad && sqlite3_column_type(q, 2) == SQLITE_INTEGER ? sqlite3_column_int64(q, 2) : -1;
    char bad_msg[256] = "";
    if (bad && sqlite3_column_text(q, 3))
        snprintf(bad_msg, sizeof bad_msg, "%s", (const char *)sqlite3_column_text(q, 3));
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    if (s != SQLITE_ROW && s != SQLITE_DONE)
        return dbi_sql_fail(g->d, g->err, "select contents");
    if (have && g->force_cid == cid)
        have_size = INT64_MAX; /* the final pass: the copy it was decoded from is gone */
    if (have && (bad || (int64_t)j->len >= have_size)) {
        o->content_id = cid;
        if (e->type == UTIL_FCC_STRG && g->cur_pak > 0)
            ing_worlds_strg(g, game, e->id, cid);
        /* every copy of a content that does not decode is a load error of its own */
        if (bad)
            rc = ing_fault(g, path, game, i, e->type, e->id, "decode",
                           bad_off < 0 ? UINT64_MAX : (uint64_t)bad_off, bad_msg);
        return rc;
    }
    /* A content's rows come from its shortest copy (a compressed copy has no 0xFF padding;
     * sizes and trailing bytes are those of that copy), whatever order the copies come in:
     * a shorter copy of a known content replaces its rows, keeping its content_id. */
    if (have && (rc = db_delete_content(g->d, game, tname, e->id, cid, g->err)) != 0)
        return rc;
    if (!j->decoded)
        ing_job_decode(j);
    const char *status = "ok";
    if (j->dec_rc != 0) {
        /* past an arena's limit (a STRG's: the run's memory budget) is the entry's fault */
        if (j->e.code == UTIL_ENOMEM && j->arena.limit == 0)
            return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory decoding");
        status = "decode_error";
    }
    if ((rc = put_content(g, game, tname, e->id, j, status, have ? cid : 0, &cid)) != 0)
        return rc;
    o->content_id = cid;
    if (j->dec_rc != 0) {
        rc = ing_fault(g, path, game, i, e->type, e->id, "decode", j->e.offset, j->e.msg);
    } else if (is_ancs) {
        rc = db_put_ancs(g->d, game, e->id, cid, &j->set, g->err);
        if (!have) { /* counts are of new contents, not of rows written again */
            g->st->ancs++;
            g->st->characters += j->set.char_count;
        }
    } else if (e->type == UTIL_FCC_MLVL) {
        /* its asset_refs rows once its release has shown its areas' names (ingest_world.c);
         * in the final pass's decode again, by that pass */
        rc = db_put_mlvl(g->d, game, e->id, cid, &j->mlvl, g->err);
        if (!rc && g->cur_pak > 0)
            rc = ing_worlds_wait(g, game, e->id, cid, j);
    } else if (e->type == UTIL_FCC_STRG) {
        rc = db_put_strg(g->d, game, e->id, cid, &j->strg, g->err);
        if (!rc && g->cur_pak > 0)
            ing_worlds_strg(g, game, e->id, cid);
    } else {
        rc = db_put_evnt(g->d, game, e->id, cid, &j->ev, g->err);
        g->st->evnt += !have;
    }
    return rc;
}

int ing_want_decode(ing *g, const char *game, const pak_entry *e)
{
    if (!ing_decoded_type(e->type))
        return 0;
    sqlite3_stmt *q = g->d->st[S_CONTENT_ANY];
    sqlite3_bind_text(q, 1, game, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, ing_type_name(e->type), -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, e->id);
    int s = sqlite3_step(q);
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    return s != SQLITE_ROW;
}
