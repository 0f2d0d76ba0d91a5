/* final_pass.c — after the PAKs of a run: decode every ANCS/EVNT still held by some
 * readable PAK but without rows (its canonical PAK was replaced or removed: an orphan),
 * settle the game of PAKs that gave no signal, rebuild `assets`, copy the PAKs' named
 * resources into asset_names (source 'pak') and refill the census table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest_internal.h"

/* The one definition of an orphan: an ANCS/EVNT entry of an 'ok' PAK whose (game, asset
 * ID, type) has no decoded row and that has no load_errors row. */
#define ORPHANS_SQL                                                                                \
    "SELECT p.path, p.pak_id, p.game, e.entry_index FROM pak_entries e JOIN paks p "               \
    "USING (pak_id) WHERE e.type IN ('ANCS', 'EVNT') AND p.status = 'ok' AND NOT EXISTS "          \
    "(SELECT 1 FROM decoded x WHERE x.game = p.game AND x.asset_id = e.asset_id AND "              \
    "x.type = e.type) AND NOT EXISTS (SELECT 1 FROM load_errors l WHERE l.pak_path = "             \
    "p.path AND l.entry_index = e.entry_index)"

/* A PAK with no signal of its game (empty, or only stored resources of types both games
 * have) holds nothing whose decoding depends on the game; it takes the game most PAKs of
 * its folder were detected as (a dump keeps each game's PAKs together), else MP1. */
static int settle_unknown_games(ing *g)
{
    if (g->o->game != PAK_GAME_UNKNOWN)
        return 0;
    return dbi_exec(
        g->d,
        "UPDATE paks SET game = coalesce((SELECT s.game FROM paks s WHERE s.game_detected IN "
        "('MP1', 'MP2') AND rtrim(s.path, replace(s.path, '/', '')) = rtrim(paks.path, "
        "replace(paks.path, '/', '')) GROUP BY s.game ORDER BY count(*) DESC, s.game LIMIT 1), "
        "'MP1') WHERE game_detected = 'unknown';"
        "UPDATE warnings SET game = (SELECT p.game FROM paks p WHERE p.pak_id = "
        "warnings.pak_id) WHERE code = 'game_unknown' AND pak_id IS NOT NULL;",
        g->err);
}

typedef struct orphan {
    char *path;
    int64_t pak_id;
    char game[4];
    uint32_t entry;
} orphan;

/* The orphans, in PAK and entry order (collected first: decoding them writes to the tables
 * the query reads). */
static int list_orphans(ing *g, orphan **out, size_t *n_out)
{
    sqlite3_stmt *st = NULL;
    orphan *work = NULL;
    size_t n = 0, cap = 0;
    int rc = 0, s = SQLITE_DONE;
    if (sqlite3_prepare_v2(g->d->h, ORPHANS_SQL " ORDER BY p.pak_id, e.entry_index", -1, &st,
                           NULL) != SQLITE_OK)
        if ((rc = dbi_sql_fail(g->d, g->err, "orphan scan")) != 0)
            goto done;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            orphan *nw = realloc(work, cap * sizeof *nw);
            if (!nw)
                if ((rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory")) != 0)
                    goto done;
            work = nw;
        }
        work[n].path = strdup((const char *)sqlite3_column_text(st, 0));
        work[n].pak_id = sqlite3_column_int64(st, 1);
        snprintf(work[n].game, sizeof work[n].game, "%s", (const char *)sqlite3_column_text(st, 2));
        work[n].entry = (uint32_t)sqlite3_column_int64(st, 3);
        if (!work[n].path)
            if ((rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory")) != 0)
                goto done;
        n++;
    }
    if (s != SQLITE_DONE)
        if ((rc = dbi_sql_fail(g->d, g->err, "orphan scan")) != 0)
            goto done;
done:
    sqlite3_finalize(st);
    *out = work;
    *n_out = n;
    return rc;
}

/* Decode the orphans on this thread (rare work). */
static int decode_orphans(ing *g, const orphan *work, size_t n)
{
    int rc = 0;
    const char *cur_path = NULL;
    pak_file *p = NULL;
    util_src *src = NULL;
    for (size_t i = 0; i < n && !rc; i++) {
        if (!cur_path || strcmp(cur_path, work[i].path)) {
            pak_close(p); /* before its source */
            p = NULL;
            util_src_close(src);
            src = NULL;
            cur_path = work[i].path;
            util_err e;
            util_err_clear(&e);
            /* the jobs read their own payloads: no entry heads needed */
            int orc = ing_open(g, cur_path, &src, &e);
            if (orc == 0)
                orc = pak_open_src_tables(&p, src, &e);
            if (orc != 0) {
                pak_close(p);
                p = NULL;
                if (e.code == UTIL_ENOMEM)
                    rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory opening %s",
                                   cur_path);
                else
                    rc = ing_fault(g, cur_path, work[i].game, -1, 0, 0, "pak", e.offset, e.msg);
                continue;
            }
        }
        if (!p || work[i].entry >= p->entry_count)
            continue;
        ing_job j;
        memset(&j, 0, sizeof j);
        util_arena_init(&j.arena);
        ing_job_set(&j, p, work[i].entry,
                    !strcmp(work[i].game, "MP2") ? ANCS_GAME_MP2 : ANCS_GAME_MP1, 0);
        j.budget = g->pl.budget;
        ing_job_run(&j);
        rc = ing_finish_entry(g, &j, work[i].pak_id, cur_path, work[i].game);
        ing_job_clear(&j);
    }
    pak_close(p);
    util_src_close(src);
    return rc;
}

/* Named so: tests/cli/e2e_crash.sh kills a run in gdb on entering `final_pass`. */
static int final_pass(ing *g)
{
    orphan *work = NULL;
    size_t n = 0;
    int rc = ing_tx_begin(g);
    if (rc)
        return rc;
    rc = list_orphans(g, &work, &n);
    if (!rc)
        rc = decode_orphans(g, work, n);
    for (size_t i = 0; i < n; i++)
        free(work[i].path);
    free(work);
    if (!rc)
        rc = settle_unknown_games(g);
    if (!rc)
        rc = ing_rebuild_assets(g);
    if (!rc)
        rc = db_names_refresh_pak(g->d, g->err); /* the PAKs' names: asset_names 'pak' */
    if (!rc) /* the census (40_census.sql), once the rows and warnings are final */
        rc = dbi_exec(g->d,
                      "DELETE FROM census; INSERT INTO census (game, field, value, count) "
                      "SELECT game, field, value, count FROM unknown_census_source;",
                      g->err);
    if (!rc)
        rc = ing_set_pending(g, 0);
    if (!rc)
        rc = ing_tx_commit(g);
    if (rc)
        ing_tx_rollback(g);
    return rc;
}

int ing_final_pass(ing *g)
{
    return final_pass(g);
}

/* Whether a previous run died between its last PAK commit and the end of its final pass:
 * `assets` differs from what pak_entries say, or an ANCS/EVNT lacks rows. */
int ing_final_pass_needed(ing *g, int *out)
{
    int64_t orphans = 0;
    int rc = dbi_query_int(g->d, "SELECT EXISTS (" ORPHANS_SQL ")", &orphans, g->err);
    if (rc)
        return rc;
    if (orphans) {
        *out = 1;
        return 0;
    }
    return ing_assets_differ(g, out);
}
