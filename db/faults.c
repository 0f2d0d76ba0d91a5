/* faults.c — the rows that record what went wrong: warnings (odd but loaded) and
 * load_errors (not loaded), and the ingest's fault line on its log. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ingest_internal.h"

int dbi_warn(db *d, const char *game, const char *type, int64_t asset_id, int64_t offset,
             const char *code, const char *msg, int64_t pak_id, util_err *err)
{
    db_row r;
    int rc = dbi_row_begin(&r, d, TBL(warnings), err);
    if (rc)
        return rc;
    dbi_text(&r, COL(warnings, game), game);
    dbi_text(&r, COL(warnings, type), type);
    if (asset_id >= 0)
        dbi_int(&r, COL(warnings, asset_id), asset_id);
    if (offset >= 0)
        dbi_int(&r, COL(warnings, byte_offset), offset);
    dbi_text(&r, COL(warnings, code), code);
    dbi_text(&r, COL(warnings, message), msg);
    if (pak_id >= 0)
        dbi_int(&r, COL(warnings, pak_id), pak_id);
    else if (d->content > 0)
        dbi_int(&r, COL(warnings, content_id), d->content); /* a decoder's warning */
    if ((rc = dbi_row_end(&r, err)) == 0)
        d->rows_warned++;
    return rc;
}

int dbi_load_error(db *d, const char *path, const char *game, int64_t release_id, int64_t entry,
                   uint32_t type, uint32_t id, const char *stage, uint64_t off, const char *msg,
                   util_err *err)
{
    db_row r;
    char fc[5];
    int rc = dbi_row_begin(&r, d, TBL(load_errors), err);
    if (rc)
        return rc;
    dbi_text(&r, COL(load_errors, pak_path), path);
    if (entry >= 0) {
        dbi_int(&r, COL(load_errors, entry_index), entry);
        dbi_text(&r, COL(load_errors, type), dbi_fourcc(type, fc));
        dbi_int(&r, COL(load_errors, asset_id), id);
    }
    dbi_text(&r, COL(load_errors, stage), stage);
    if (off != UINT64_MAX)
        dbi_int(&r, COL(load_errors, byte_offset), (int64_t)off);
    dbi_text(&r, COL(load_errors, message), msg);
    dbi_text(&r, COL(load_errors, game), game);
    if (release_id >= 0)
        dbi_int(&r, COL(load_errors, release_id), release_id);
    return dbi_row_end(&r, err);
}

int ing_fault(ing *g, const char *path, const char *game, int64_t entry, uint32_t type, uint32_t id,
              const char *stage, uint64_t off, const char *msg)
{
    int rc = dbi_load_error(g->d, path, game, g->rel_id, entry, type, id, stage, off, msg, g->err);
    if (rc)
        return rc;
    g->st->errors++;
    if (g->o->log && !g->o->quiet) {
        ing_progress_clear(g);
        char at[32] = "", fc[5];
        if (off != UINT64_MAX)
            snprintf(at, sizeof at, " @0x%" PRIx64, off);
        if (entry >= 0)
            util_text_printf(g->o->log, "ancsdb: %s entry %" PRId64 " %s %08X %s%s: %s\n", path,
                             entry, dbi_fourcc(type, fc), id, stage, at, msg);
        else
            util_text_printf(g->o->log, "ancsdb: %s %s%s: %s\n", path, stage, at, msg);
    }
    return 0;
}
