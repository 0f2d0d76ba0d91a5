/* faults.c — what went wrong in the ingest: load_errors rows (not loaded; warnings rows are
 * written by rows.c) and the ingest's lines for the log callback (db/ prints nothing). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest_internal.h"

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
    char at[32] = "", fc[5];
    if (off != UINT64_MAX)
        snprintf(at, sizeof at, " @0x%" PRIx64, off);
    if (entry >= 0)
        ing_log(g, "ancsdb: %s entry %" PRId64 " %s %08X %s%s: %s", path, entry,
                dbi_fourcc(type, fc), id, stage, at, msg);
    else
        ing_log(g, "ancsdb: %s %s%s: %s", path, stage, at, msg);
    return 0;
}

void ing_log(ing *g, const char *fmt, ...)
{
    if (!g->o->log || g->o->quiet)
        return;
    if (g->o->progress) /* a bar drawn on the same stream is cleared first */
        g->o->progress(g->o->progress_ctx, 0, g->L.nitems, NULL);
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *line = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (line) {
        vsnprintf(line, (size_t)n + 1, fmt, ap2);
        g->o->log(g->o->log_ctx, line);
        free(line);
    }
    va_end(ap2);
}
