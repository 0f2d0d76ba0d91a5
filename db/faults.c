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

static void fault_line(ing *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

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
        fault_line(g, "ancsdb: %s entry %" PRId64 " %s %08X %s%s: %s", path, entry,
                   dbi_fourcc(type, fc), id, stage, at, msg);
    else
        fault_line(g, "ancsdb: %s %s%s: %s", path, stage, at, msg);
    return 0;
}

/* Held lines beyond this many bytes are logged at once (a PAK with a fault in each of very
 * many entries must not hold them all in memory). */
#define HELD_LOG_MAX (256 * 1024)

/* The line fmt gives, in memory the caller frees; NULL: out of memory. */
static char *vline(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *line = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (line)
        vsnprintf(line, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return line;
}

/* One line to the log callback, the progress bar cleared first. */
static void log_line(ing *g, const char *line)
{
    if (!g->o->log || g->o->quiet)
        return;
    if (g->o->progress) /* a bar drawn on the same stream is cleared first */
        g->o->progress(g->o->progress_ctx, 0, g->L.nitems, NULL);
    g->o->log(g->o->log_ctx, line);
}

/* Log the held lines (each ends in a NUL) and forget them. */
static void flush_held(ing *g)
{
    for (size_t i = 0; i < g->held_len; i += strlen(g->held + i) + 1)
        log_line(g, g->held + i);
    g->held_len = 0;
}

/* Keep a line until ing_log_release; 0 when there is no room (then it is logged now). */
static int hold_line(ing *g, const char *line)
{
    size_t n = strlen(line) + 1;
    if (g->held_len + n > HELD_LOG_MAX)
        flush_held(g);
    if (g->held_len + n > g->held_cap) {
        size_t cap = g->held_cap ? g->held_cap : 1024;
        while (cap < g->held_len + n)
            cap *= 2;
        char *nh = realloc(g->held, cap);
        if (!nh)
            return 0;
        g->held = nh;
        g->held_cap = cap;
    }
    memcpy(g->held + g->held_len, line, n);
    g->held_len += n;
    return 1;
}

void ing_log_hold(ing *g)
{
    g->held_len = 0;
    g->holding = 1;
}

void ing_log_release(ing *g, int print)
{
    if (print)
        flush_held(g);
    free(g->held);
    g->held = NULL;
    g->held_len = g->held_cap = 0;
    g->holding = 0;
}

/* A line for the log: logged now, or, when may_hold and a PAK's transaction is open
 * (ing_log_hold), kept until it ends. */
static void vsay(ing *g, int may_hold, const char *fmt, va_list ap)
{
    if (!g->o->log || g->o->quiet)
        return;
    char *line = vline(fmt, ap);
    if (line && !(may_hold && g->holding && hold_line(g, line)))
        log_line(g, line);
    free(line);
}

static void fault_line(ing *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(g, 1, fmt, ap);
    va_end(ap);
}

void ing_log(ing *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(g, 0, fmt, ap);
    va_end(ap);
}
