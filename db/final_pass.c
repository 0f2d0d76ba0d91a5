/* final_pass.c — after the PAKs of a run, what spans PAKs, recomputed whenever a PAK changed
 * so that a re-ingest ends as a clean ingest would: the game of PAKs that gave no signal
 * (ing_settle_unknown_games, ingest_game.c), contents no entry holds any more, contents whose rows
 * came from a copy that is gone, copy_differs, `assets`, releases, the PAKs' named resources in
 * asset_names (source 'pak'), and the census table. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest_internal.h"

/* Contents no PAK entry holds any more (their PAKs were replaced or removed) go, with every
 * row decoded from them. NOT IN scans pak_entries once (its content index is dropped during
 * a bulk load). */
static int drop_unheld_contents(ing *g)
{
    sqlite3_stmt *st = NULL;
    const char *sql = "SELECT content_id, game, type, asset_id FROM contents WHERE content_id NOT "
                      "IN (SELECT content_id FROM pak_entries WHERE content_id IS NOT NULL)";
    if (sqlite3_prepare_v2(g->d->h, sql, -1, &st, NULL) != SQLITE_OK)
        return dbi_sql_fail(g->d, g->err, "unheld contents");
    typedef struct dead {
        int64_t id;
        char game[4], type[5];
        uint32_t asset;
    } dead;
    dead *list = NULL;
    size_t n = 0, cap = 0;
    int rc = 0, s;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            dead *nl = realloc(list, cap * sizeof *nl);
            if (!nl) {
                rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
                break;
            }
            list = nl;
        }
        list[n].id = sqlite3_column_int64(st, 0);
        snprintf(list[n].game, sizeof list[n].game, "%s", (const char *)sqlite3_column_text(st, 1));
        snprintf(list[n].type, sizeof list[n].type, "%s", (const char *)sqlite3_column_text(st, 2));
        list[n].asset = (uint32_t)sqlite3_column_int64(st, 3);
        n++;
    }
    if (!rc && s != SQLITE_DONE)
        rc = dbi_sql_fail(g->d, g->err, "unheld contents");
    sqlite3_finalize(st);
    for (size_t i = 0; i < n && !rc; i++)
        rc = db_delete_content(g->d, list[i].game, list[i].type, list[i].asset, list[i].id, g->err);
    free(list);
    return rc;
}

/* A content whose rows came from a copy that is gone, and whose copies left are all longer
 * (0xFF padding): decode it again from its shortest copy, as a clean ingest would have. */
typedef struct redo {
    int64_t cid, off, size;
    char game[4];
    char *path, *image;
    uint32_t entry;
} redo;

static int redecode_one(ing *g, const redo *r)
{
    util_src *src = NULL, *img = NULL;
    pak_file *p = NULL;
    util_err e;
    util_err_clear(&e);
    int rc = 0;
    int orc =
        ing_open(g, r->path, r->image ? r->image : "", r->off, (uint64_t)r->size, &img, &src, &e);
    if (orc == 0)
        orc = pak_open_src_tables(&p, src, &e);
    if (orc == 0 && r->entry < p->entry_count) {
        free(g->out);
        g->out = calloc(p->entry_count, sizeof *g->out);
        if (!g->out) {
            rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        } else {
            ing_job j;
            memset(&j, 0, sizeof j);
            util_arena_init(&j.arena);
            j.budget = g->pl.budget;
            ing_job_set(&j, p, r->entry, !strcmp(r->game, "MP2") ? ANCS_GAME_MP2 : ANCS_GAME_MP1,
                        0);
            ing_job_run(&j);
            if (j.hashed) { /* else the file changed since: the next ingest sees it */
                g->force_cid = r->cid;
                g->cur_pak = -1; /* its contents decoded before: no not_mlvl warning */
                rc = ing_finish_entry(g, &j, r->path, r->game);
                g->force_cid = 0;
            }
            ing_job_clear(&j);
        }
    } else if (orc == UTIL_ENOMEM) {
        rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    }
    pak_close(p);
    util_src_close(src);
    util_src_close(img);
    return rc;
}

static int redecode_short_contents(ing *g)
{
    sqlite3_stmt *st = NULL;
    const char *sql =
        "WITH m AS (SELECT content_id, min(CASE WHEN compressed <> 0 THEN decompressed_size "
        "ELSE stored_size END) AS len FROM pak_entries WHERE content_id IS NOT NULL GROUP BY "
        "content_id), stale AS MATERIALIZED (SELECT c.content_id FROM contents c JOIN m ON "
        "m.content_id = c.content_id WHERE c.status = 'ok' AND c.size < m.len) "
        "SELECT c.content_id, p.game, p.path, p.source_offset, p.file_size, r.source, "
        "e.entry_index FROM stale c JOIN pak_entries e ON e.content_id = "
        "c.content_id JOIN paks p ON p.pak_id = e.pak_id JOIN releases r ON r.release_id = "
        "p.release_id WHERE p.status = 'ok' ORDER BY c.content_id, CASE WHEN "
        "e.compressed <> 0 THEN e.decompressed_size ELSE e.stored_size END, p.release_path, "
        "e.entry_index";
    if (sqlite3_prepare_v2(g->d->h, sql, -1, &st, NULL) != SQLITE_OK)
        return dbi_sql_fail(g->d, g->err, "short contents");
    redo *w = NULL;
    size_t n = 0, cap = 0;
    int rc = 0, s;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t cid = sqlite3_column_int64(st, 0);
        if (n && w[n - 1].cid == cid)
            continue; /* its shortest copy came first */
        if (n == cap) {
            cap = cap ? cap * 2 : 8;
            redo *nw = realloc(w, cap * sizeof *nw);
            if (!nw) {
                rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
                break;
            }
            w = nw;
        }
        redo *r = &w[n];
        memset(r, 0, sizeof *r);
        r->cid = cid;
        snprintf(r->game, sizeof r->game, "%s", (const char *)sqlite3_column_text(st, 1));
        r->path = strdup((const char *)sqlite3_column_text(st, 2));
        r->off = sqlite3_column_type(st, 3) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 3);
        r->size = sqlite3_column_int64(st, 4);
        const unsigned char *src = sqlite3_column_text(st, 5);
        r->image = src ? strdup((const char *)src) : NULL;
        r->entry = (uint32_t)sqlite3_column_int64(st, 6);
        n++;
        if (!r->path || (src && !r->image)) {
            rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
            break;
        }
    }
    if (!rc && s != SQLITE_DONE)
        rc = dbi_sql_fail(g->d, g->err, "short contents");
    sqlite3_finalize(st);
    for (size_t i = 0; i < n && !rc; i++)
        rc = redecode_one(g, &w[i]);
    for (size_t i = 0; i < n; i++) {
        free(w[i].path);
        free(w[i].image);
    }
    free(w);
    return rc;
}

/* Contents no entry holds and contents whose copy is gone. A run that began with no PAK and
 * no content and deleted no entry has none: each content it made is held by the entries it
 * was decoded from, its rows from the shortest of them (scanning for them took a 10x first
 * ingest 0.09 s, alone on the writer). */
static int settle_contents(ing *g)
{
    if (g->clean)
        return 0;
    int rc = drop_unheld_contents(g);
    return rc ? rc : redecode_short_contents(g);
}

/* copy_differs: within one release, each ANCS/EVNT copy whose content differs from the
 * release's first copy of that asset (first by path inside the release, then entry index —
 * the order of a clean ingest). Differing contents in different releases are expected. */
#define DIFFERS_COLS "game, type, asset_id, byte_offset, code, message, pak_id"
#define DIFFERS_SELECT                                                                             \
    "SELECT game, type, asset_id, NULL, 'copy_differs', "                                          \
    "printf('entry %d: inflated bytes differ from the first copy of %s %08X in release "           \
    "%s (%s entry %d)', entry_index, type, asset_id, label, first_path, first_entry), "            \
    "pak_id FROM (SELECT p.game, e.type, e.asset_id, e.entry_index, e.pak_id, "                    \
    "e.content_hash, r.label, first_value(e.content_hash) OVER w AS first_hash, "                  \
    "first_value(p.release_path) OVER w AS first_path, first_value(e.entry_index) OVER w "         \
    "AS first_entry FROM pak_entries e JOIN paks p ON p.pak_id = e.pak_id "                        \
    "JOIN releases r ON r.release_id = p.release_id "                                              \
    "WHERE e.type IN ('ANCS', 'EVNT') AND e.content_hash IS NOT NULL "                             \
    "WINDOW w AS (PARTITION BY p.release_id, p.game, e.type, e.asset_id ORDER BY "                 \
    "p.release_path COLLATE NOCASE, p.release_path, e.entry_index)) "                              \
    "WHERE content_hash <> first_hash ORDER BY game, type, asset_id, pak_id, entry_index"

/* The query reads every pak_entries row (0.12 s of a 10x first ingest): the reader that
 * collects the assets rebuild's rows (assets.c) runs it next, beside the index builds, into
 * a TEMP table of its connection (on a fourth thread beside the writer, it slowed a 1x
 * first ingest's index builds down by as much as it spared them). */
static int differs_collect(db *rd, void *arg, util_err *err)
{
    (void)arg;
    return dbi_exec(rd,
                    "PRAGMA query_only = 0; CREATE TEMP TABLE copy_differs(" DIFFERS_COLS
                    "); INSERT INTO temp.copy_differs(" DIFFERS_COLS ") " DIFFERS_SELECT,
                    err);
}

/* The copy_differs rows again: those the reader rd found (NULL: found here). */
static int put_copy_differs(ing *g, db *rd)
{
    int rc = dbi_exec(g->d, "DELETE FROM warnings WHERE code = 'copy_differs'", g->err);
    if (rc)
        return rc;
    if (!rd)
        return dbi_exec(g->d, "INSERT INTO warnings(" DIFFERS_COLS ") " DIFFERS_SELECT, g->err);
    sqlite3 *h = rd->h;
    sqlite3_stmt *sel = NULL, *ins = NULL;
    if (sqlite3_prepare_v2(h, "SELECT " DIFFERS_COLS " FROM temp.copy_differs ORDER BY rowid", -1,
                           &sel, NULL) != SQLITE_OK) {
        rc = util_fail(g->err, UTIL_ESQL, UINT64_MAX, "copy_differs: %s", sqlite3_errmsg(h));
        goto done;
    }
    if (sqlite3_prepare_v2(g->d->h,
                           "INSERT INTO warnings(" DIFFERS_COLS ") VALUES (?1, ?2, ?3, ?4, ?5, "
                           "?6, ?7)",
                           -1, &ins, NULL) != SQLITE_OK) {
        rc = dbi_sql_fail(g->d, g->err, "copy_differs");
        goto done;
    }
    int s;
    while ((s = sqlite3_step(sel)) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(sel); i++)
            sqlite3_bind_value(ins, i + 1, sqlite3_column_value(sel, i));
        if (sqlite3_step(ins) != SQLITE_DONE) {
            rc = dbi_sql_fail(g->d, g->err, "copy_differs");
            goto done;
        }
        sqlite3_reset(ins);
    }
    if (s != SQLITE_DONE)
        rc = util_fail(g->err, UTIL_ESQL, UINT64_MAX, "copy_differs: %s", sqlite3_errmsg(h));
done:
    sqlite3_finalize(sel);
    sqlite3_finalize(ins);
    return rc;
}

/* releases.game: the game of every PAK when they agree, NULL when it holds both; releases
 * with no PAK and no load error left go. */
static int settle_releases(ing *g)
{
    return dbi_exec(
        g->d,
        "UPDATE releases SET game = (SELECT CASE WHEN count(DISTINCT p.game) = 1 THEN "
        "min(p.game) END FROM paks p WHERE p.release_id = releases.release_id AND p.game IS "
        "NOT NULL) WHERE EXISTS (SELECT 1 FROM paks p WHERE p.release_id = "
        "releases.release_id);"
        "DELETE FROM releases WHERE NOT EXISTS (SELECT 1 FROM paks p WHERE p.release_id = "
        "releases.release_id) AND NOT EXISTS (SELECT 1 FROM load_errors l WHERE "
        "l.release_id = releases.release_id)",
        g->err);
}

/* Once the rows and warnings are final, the tables derived from each new content:
 * db/census/10_char_reach.sql fills char_reach (db/schema/45_reach.sql) for ANCS contents
 * an earlier ancsdb wrote without it, then db/census/census.sql the census table
 * (db/schema/40_census.sql) for the corpus and each release. The census's statements hold
 * one GROUP BY each where they read many rows (one statement with ~50 kept every sorter
 * until it ended, each up to the page cache's size: the peak memory grew with the corpus).
 * Its counts and its sum per set of releases are made in C where the script says so
 * (db/census_run.c); its counts of the contents the row writer did not count (of an earlier
 * ancsdb, and every MLVL and STRG content) come from h when there is one. */
static int refill_census(ing *g, census_helper *h)
{
    return dbi_census_run(g->d, db_census_sql, h, g->err);
}

/* The final pass runs in a small page cache: it holds the assets rebuild's sorted rows
 * (16 bytes per entry) beside SQLite's sorters, and its reads are mostly scans, so the
 * ingest's larger cache only raised the peak memory; a much smaller one made the census's
 * keyed lookups of new contents miss and slowed the pass down. */
#define FINAL_PASS_CACHE_KIB 4096

static int set_cache(ing *g, int kib)
{
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA cache_size = -%d", kib);
    return dbi_exec(g->d, sql, g->err);
}

/* Three transactions. The first settles which contents stay and their rows (re-decoding
 * some); once it is committed, two readers (connection.c) work in threads while the second
 * builds the indexes a bulk load left to it (bulk.c): one counts the census of the contents
 * the row writer did not count (db/census_run.c), the other collects the rows the assets
 * rebuild reads (assets.c), then finds the copy_differs rows. Once that is committed, ck
 * copies those indexes' pages into the database file while the third writes the
 * copy_differs rows, rebuilds the assets from those rows, makes char_reach and the worlds'
 * rows for contents without them, then takes those counts and sums the census. What ck has
 * not copied when the pass ends, the last close copies. (A commit after the assets rebuild,
 * for ck to copy their pages beside the census, gained nothing measurable: the census is
 * too short to hide the copy.)
 * ingest_state.final_pass_pending stays set until the last commits: a run stopped in
 * between leaves the next one the whole pass to do again (the indexes built stay). */
static int final_pass_steps(ing *g, db_checkpointer *ck)
{
    int rc = ing_tx_begin(g);
    if (rc)
        return rc;
    /* the memory of the ingest's larger page cache goes back to the system, not only to
     * malloc, before the census thread and the index builds beside it allocate theirs (four
     * 10x images peaked at 64-66 MiB without it, 52-56 MiB with it) */
    if ((rc = set_cache(g, FINAL_PASS_CACHE_KIB)) == 0 &&
        (rc = dbi_exec(g->d, "PRAGMA shrink_memory", g->err)) == 0 && (malloc_trim(0), 1) &&
        (rc = ing_settle_unknown_games(g)) == 0 && (rc = settle_contents(g)) == 0)
        rc = ing_tx_commit(g);
    if (rc) {
        ing_tx_rollback(g);
        set_cache(g, INGEST_CACHE_KIB);
        return rc;
    }
    census_helper *h = dbi_census_helper_start(g->d, db_census_sql);
    ing_assets_pre *pre = ing_assets_pre_start(g->d, differs_collect, NULL);
    if ((rc = ing_tx_begin(g)) == 0) {
        if ((rc = ing_restore_indexes(g->d, g->late, g->err)) == 0 && (rc = ing_tx_commit(g)) == 0)
            dbi_checkpoint_more(ck);
        else
            ing_tx_rollback(g);
    }
    if (!rc && (rc = ing_tx_begin(g)) == 0) {
        if ((rc = put_copy_differs(g, ing_assets_pre_db(pre))) == 0 &&
            (rc = ing_rebuild_assets(g, pre)) == 0 && (rc = settle_releases(g)) == 0 &&
            (rc = db_names_refresh_pak(g->d, g->err)) == 0 && /* asset_names 'pak' */
            (rc = refill_census(g, h)) == 0 && (rc = ing_set_pending(g, 0)) == 0)
            rc = ing_tx_commit(g);
        if (rc)
            ing_tx_rollback(g);
    }
    ing_assets_pre_free(pre);
    dbi_census_helper_free(h);
    int crc = set_cache(g, INGEST_CACHE_KIB);
    return rc ? rc : crc;
}

/* The WAL's frames so far (a first ingest's every row), then those of the indexes the pass
 * builds, are copied into the database file beside the pass, which commits with no
 * checkpoint of its own (ingest.c turns them off); what is left, the last close copies.
 * ck: the checkpointer a first ingest started at its rows' commit (NULL: one starts here);
 * finished here. */
int ing_final_pass(ing *g, db_checkpointer *ck)
{
    if (!ck)
        ck = dbi_checkpoint_start(g->d);
    int rc = final_pass_steps(g, ck);
    dbi_checkpoint_finish(ck);
    return rc;
}

/* Whether a previous run died between its last PAK commit and the end of its final pass:
 * a content no entry holds, or `assets` differs from what pak_entries say. */
int ing_final_pass_needed(ing *g, int *out)
{
    int64_t unheld = 0;
    int rc = dbi_query_int(g->d,
                           "SELECT EXISTS (SELECT 1 FROM contents WHERE content_id NOT IN (SELECT "
                           "content_id FROM pak_entries WHERE content_id IS NOT NULL))",
                           &unheld, g->err);
    if (rc)
        return rc;
    if (unheld) {
        *out = 1;
        return 0;
    }
    return ing_assets_differ(g, out);
}
