/* ingest.c — the ingest run: find PAKs, skip unchanged ones, replace each changed PAK's
 * rows in one transaction, decode every distinct ANCS/EVNT once (first copy canonical),
 * compare other copies by hash, record faults in load_errors and keep going; then the
 * final pass.
 *
 * Derived rows (ancs, characters, events, asset_refs, ...) are keyed by (game, asset_id),
 * not by PAK; the `decoded` table remembers which PAK's copy produced them. Replacing a
 * PAK deletes the derived rows of the assets decoded from it; the final pass decodes every
 * ANCS/EVNT still held by some PAK but without rows, and rebuilds `assets`.
 *
 * Bulk load: into a database holding no PAK yet, the whole run is one transaction (each
 * PAK a savepoint) and the non-unique secondary indexes are dropped at its start and built
 * again at its end (bulk.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ingest_internal.h"

/* Page cache of the ingest connection: large enough for the B-tree pages a PAK's rows
 * touch, bounded so the whole run stays well under 64 MiB. Sorts for index builds spill to
 * temporary files rather than memory. */
#define INGEST_CACHE_KIB 16384

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void progress(ing *g, size_t done, const char *path)
{
    if (g->o->progress)
        g->o->progress(g->o->progress_ctx, done, g->nfiles, path);
}

void ing_progress_clear(ing *g)
{
    progress(g, 0, NULL);
}

int db_ingest_paths(db *d, const char *const *paths, int npaths, const db_ingest_opts *opts,
                    db_ingest_stats *stats, util_err *err)
{
    ing g = {.d = d, .o = opts, .st = stats, .err = err};
    ing_indexes idx = {NULL, 0};
    int rc = 0;
    double t0 = now_seconds();
    long warn0 = d->rows_warned;
    memset(stats, 0, sizeof *stats);
    for (int i = 0; i < npaths && !rc; i++)
        rc = ing_walk(&g, paths[i], 1, 0);
    stats->paks_seen = (long)g.nfiles;
    if (!rc) {
        char pragma[80];
        snprintf(pragma, sizeof pragma, "PRAGMA cache_size = -%d; PRAGMA temp_store = FILE",
                 INGEST_CACHE_KIB);
        rc = dbi_exec(d, pragma, err);
    }
    if (!rc)
        rc = ing_pipeline_start(&g.pl, opts->jobs, opts->memory, err);
    if (!rc && g.nfiles > 0 && ing_db_is_empty(&g)) {
        rc = db_begin(d, err);
        if (!rc) {
            g.bulk = 1;
            rc = ing_drop_indexes(&g, &idx);
        }
    }
    for (size_t i = 0; i < g.nfiles && !rc; i++) {
        if (opts->stop && *opts->stop) {
            stats->interrupted = 1; /* committed so far stays; the final pass is left pending */
            break;
        }
        progress(&g, i, g.files[i]);
        struct stat sb;
        if (stat(g.files[i], &sb) != 0) {
            char msg[192];
            snprintf(msg, sizeof msg, "cannot stat: %s", strerror(errno));
            rc = ing_fault(&g, g.files[i], NULL, -1, 0, 0, "pak", UINT64_MAX, msg);
            continue;
        }
        rc = ing_do_pak(&g, g.files[i], &sb);
    }
    if (!rc && !g.changed)
        rc = ing_pending_flag(&g, &g.changed);
    if (!rc && !g.changed && opts->rehash)
        rc = ing_final_pass_needed(&g, &g.changed);
    if (!rc && g.changed && !stats->interrupted) {
        progress(&g, g.nfiles, "finishing");
        rc = ing_final_pass(&g);
    }
    if (g.bulk) {
        if (!rc)
            rc = ing_create_indexes(&g, &idx);
        if (!rc)
            rc = db_commit(d, err);
        if (rc)
            db_rollback(d);
        g.bulk = 0;
    }
    ing_indexes_free(&idx);
    ing_pipeline_stop(&g.pl);
    progress(&g, g.nfiles, NULL);
    for (size_t i = 0; i < g.nfiles; i++)
        free(g.files[i]);
    free(g.files);
    free(g.seen);
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
             .mem_data = data ? data : (const uint8_t *)"",
             .mem_len = len};
    double t0 = now_seconds();
    long warn0 = d->rows_warned;
    struct stat sb;
    memset(stats, 0, sizeof *stats);
    memset(&sb, 0, sizeof sb);
    sb.st_size = (off_t)len;
    stats->paks_seen = 1;
    int rc = ing_pipeline_start(&g.pl, opts->jobs, opts->memory, err);
    if (!rc)
        rc = ing_do_pak(&g, name, &sb);
    if (!rc && g.changed)
        rc = ing_final_pass(&g);
    ing_pipeline_stop(&g.pl);
    stats->warnings = d->rows_warned - warn0;
    stats->seconds = now_seconds() - t0;
    return rc;
}
