/* assets.c — the one definition of the `assets` table: one row per game and asset ID with
 * the first type in text order, the copies (resource-table entries) and the distinct PAKs
 * holding it, from pak_entries of PAKs with a game; and an id_type_conflict warning where
 * the entries disagree on the type. Computed with one scan and a sort rather than by a
 * GROUP BY with DISTINCT aggregates, which SQLite runs several times slower. The same
 * computation rebuilds the table (final pass) and checks it (--rehash).
 *
 * The same rows, per release, are `release_assets` (what `--release` shows as assets).
 *
 * The rebuild also counts the census's entry-level fields of each release (db/census/
 * census.sql reads them from the TEMP table census_pak, next in the final pass): the
 * compressed flags, counted during the scan, and for each asset held by more than one entry
 * of a release, whether those copies agree (pak.duplicate_*), found in the sorted rows: each
 * row carries its entry's content hash and compressed flag. (Settled by SQL, which looked
 * up every such asset's entries again, this took 1.1 s of a 10x final pass.) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest_internal.h"

/* One pak_entries row in 24 bytes (10x: ~940,000 rows, 23 MB, sorted in place): hi is
 * game << 32 | asset ID, lo is pak_id << 34 | flags << 32 | type, so comparing (hi, lo)
 * orders by game, asset ID, PAK (then flags, type). game: index into the games list (sorted
 * by name); type: FourCC text packed big-endian (compares like the text); flags: R_COMPRESSED
 * (compressed <> 0) and R_HASHED (content_hash not NULL); h: content_hash. */
typedef struct arow {
    uint64_t hi, lo, h;
} arow;

enum { R_COMPRESSED = 1, R_HASHED = 2 };
#define MAX_PAK_ID ((int64_t)(UINT32_MAX >> 2)) /* pak_id's bits in lo */

static uint32_t r_game(const arow *r)
{
    return (uint32_t)(r->hi >> 32);
}
static uint32_t r_asset(const arow *r)
{
    return (uint32_t)r->hi;
}
static uint32_t r_pak(const arow *r)
{
    return (uint32_t)(r->lo >> 34);
}
static uint32_t r_flags(const arow *r)
{
    return (uint32_t)(r->lo >> 32) & 3;
}
static uint32_t r_type(const arow *r)
{
    return (uint32_t)r->lo;
}

/* A compressed flag's count in one release and game (pak.entry.compressed). */
typedef struct flagcount {
    uint32_t release, game;
    int64_t flag, count;
} flagcount;

/* Assets held by more than one entry of a release, counted per release, game and kind:
 * whether their copies' contents agree (DUP_HASH; of those with two contents or more) and
 * whether their compressed flags do (DUP_FLAG); same: 1 they agree, 0 not. */
enum { DUP_HASH, DUP_FLAG };
typedef struct dupcount {
    uint32_t kind, release, game, same;
    int64_t count;
} dupcount;

/* One release's copy of an asset, as count_dups reads it. */
typedef struct relrow {
    uint32_t release, pak, type, flags;
    uint64_t h;
} relrow;

typedef struct acalc {
    arow *rows;
    size_t n;
    char games[8][8];
    uint32_t ngames;
    int64_t *pak_info; /* by pak_id: release_id << 8 | game index, -1 without a game */
    int64_t max_pak;
    UTIL_VEC(flagcount) flags;
    UTIL_VEC(dupcount) dups;
    UTIL_VEC(relrow) rel; /* release_row's buffer */
} acalc;

static void acalc_free(acalc *a)
{
    free(a->rows);
    free(a->pak_info);
    util_vec_free(&a->flags);
    util_vec_free(&a->dups);
    util_vec_free(&a->rel);
}

/* One assets row: rows [i, j) of the sorted list. */
typedef struct agroup {
    size_t i, j;
    uint32_t type; /* smallest */
    int64_t pak_count;
    int conflict;
} agroup;

static int arow_less(const arow *x, const arow *y)
{
    return x->hi != y->hi ? x->hi < y->hi : x->lo < y->lo;
}

static void arow_swap(arow *x, arow *y)
{
    arow t = *x;
    *x = *y;
    *y = t;
}

static void sift_down(arow *r, size_t i, size_t n)
{
    for (size_t c; (c = 2 * i + 1) < n; i = c) {
        if (c + 1 < n && arow_less(&r[c], &r[c + 1]))
            c++;
        if (!arow_less(&r[i], &r[c]))
            return;
        arow_swap(&r[i], &r[c]);
    }
}

/* In place, no memory (qsort would take a copy of the whole list): quicksort with the
 * median of three, insertion sort for short runs, heapsort past a depth limit. */
static void sort_rows(arow *r, size_t n, int depth)
{
    while (n > 16) {
        if (depth-- == 0) {
            for (size_t i = n / 2; i-- > 0;)
                sift_down(r, i, n);
            for (size_t e = n; e-- > 1;) {
                arow_swap(&r[0], &r[e]);
                sift_down(r, 0, e);
            }
            return;
        }
        size_t m = n / 2;
        if (arow_less(&r[m], &r[0]))
            arow_swap(&r[m], &r[0]);
        if (arow_less(&r[n - 1], &r[0]))
            arow_swap(&r[n - 1], &r[0]);
        if (arow_less(&r[n - 1], &r[m]))
            arow_swap(&r[n - 1], &r[m]);
        arow pivot = r[m];
        size_t i = 0, j = n - 1;
        for (;;) {
            while (arow_less(&r[i], &pivot))
                i++;
            while (arow_less(&pivot, &r[j]))
                j--;
            if (i >= j)
                break;
            arow_swap(&r[i], &r[j]);
            i++;
            j--;
        }
        /* [0, j] <= pivot <= [j + 1, n): recurse into the smaller side */
        size_t left = j + 1;
        if (left < n - left) {
            sort_rows(r, left, depth);
            r += left;
            n -= left;
        } else {
            sort_rows(r + left, n - left, depth);
            n = left;
        }
    }
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0 && arow_less(&r[k], &r[k - 1]); k--)
            arow_swap(&r[k], &r[k - 1]);
}

static int fail(db *d, util_err *err)
{
    return dbi_sql_fail(d, err, "rebuild assets");
}

/* The game of every PAK (index into a->games, -1: none), games sorted by name. */
static int collect_games(db *d, acalc *a, int64_t **game_of_pak, int64_t *max_pak, util_err *err)
{
    sqlite3_stmt *st = NULL;
    int s, rc = 0;
    *game_of_pak = NULL;
    if (sqlite3_prepare_v2(d->h,
                           "SELECT DISTINCT game FROM paks WHERE game IS NOT NULL "
                           "ORDER BY game",
                           -1, &st, NULL) != SQLITE_OK)
        return fail(d, err);
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        const char *gm = (const char *)sqlite3_column_text(st, 0);
        if (a->ngames == 8 || strlen(gm) >= sizeof a->games[0]) {
            rc = util_fail(err, UTIL_ESQL, UINT64_MAX, "rebuild assets: game '%s'", gm);
            break;
        }
        snprintf(a->games[a->ngames++], sizeof a->games[0], "%s", gm);
    }
    sqlite3_finalize(st);
    if (rc || s != SQLITE_DONE)
        return rc ? rc : fail(d, err);
    TRY(dbi_query_int(d, "SELECT max(pak_id) FROM paks", max_pak, err));
    if (*max_pak < 0 || *max_pak > MAX_PAK_ID ||
        *max_pak > (int64_t)(SIZE_MAX / sizeof **game_of_pak) - 1)
        return util_fail(err, UTIL_ESQL, UINT64_MAX, "rebuild assets: pak_id %" PRId64, *max_pak);
    int64_t *gp = malloc(((size_t)*max_pak + 1) * sizeof *gp);
    if (!gp)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    for (int64_t i = 0; i <= *max_pak; i++)
        gp[i] = -1;
    *game_of_pak = gp;
    if (sqlite3_prepare_v2(d->h, "SELECT pak_id, game, release_id FROM paks WHERE game IS NOT NULL",
                           -1, &st, NULL) != SQLITE_OK)
        return fail(d, err);
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(st, 0);
        const char *gm = (const char *)sqlite3_column_text(st, 1);
        int64_t rel = sqlite3_column_int64(st, 2);
        uint32_t k = 0;
        while (k < a->ngames && strcmp(a->games[k], gm))
            k++;
        if (k < a->ngames && id >= 0 && id <= *max_pak && rel >= 0 && rel <= UINT32_MAX)
            gp[id] = rel << 8 | k;
    }
    sqlite3_finalize(st);
    return s == SQLITE_DONE ? 0 : fail(d, err);
    return rc;
}

/* Adds one entry's compressed flag to a->flags. */
static int count_flag(acalc *a, uint32_t release, uint32_t game, int64_t flag, util_err *err)
{
    for (size_t k = a->flags.len; k-- > 0;) {
        flagcount *c = &a->flags.items[k];
        if (c->release == release && c->game == game && c->flag == flag) {
            c->count++;
            return 0;
        }
    }
    return util_vec_push(&a->flags, ((flagcount){release, game, flag, 1}), err);
}

/* Every pak_entries row of a PAK with a game, sorted by game, asset ID, PAK, type; the
 * compressed flags counted. */
static int collect(db *d, acalc *a, util_err *err)
{
    sqlite3_stmt *st = NULL;
    int64_t *game_of_pak = NULL, max_pak = 0;
    size_t cap = 0;
    int rc = 0, s;
    rc = collect_games(d, a, &game_of_pak, &max_pak, err);
    a->pak_info = game_of_pak; /* freed with a */
    a->max_pak = max_pak;
    if (rc)
        goto done;
    /* every entry of a PAK has a row: its resource count sizes the list (no doubling) */
    int64_t hint = 0;
    if ((rc = dbi_query_int(d, "SELECT coalesce(sum(resource_count), 0) FROM paks", &hint, err)) !=
        0)
        goto done;
    if (hint > 0 && (uint64_t)hint < SIZE_MAX / sizeof *a->rows) {
        if (!(a->rows = malloc((size_t)hint * sizeof *a->rows))) {
            rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
            goto done;
        }
        cap = (size_t)hint;
    }
    if (sqlite3_prepare_v2(d->h,
                           "SELECT pak_id, asset_id, type, compressed, content_hash FROM "
                           "pak_entries",
                           -1, &st, NULL) != SQLITE_OK)
        if ((rc = fail(d, err)) != 0)
            goto done;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t pid = sqlite3_column_int64(st, 0);
        const unsigned char *t = sqlite3_column_text(st, 2);
        if (pid < 0 || pid > max_pak || game_of_pak[pid] < 0)
            continue;
        if (!t || sqlite3_column_bytes(st, 2) != 4)
            if ((rc = util_fail(err, UTIL_ESQL, UINT64_MAX, "rebuild assets: type of 4 bytes")) !=
                0)
                goto done;
        if (a->n == cap) {
            cap = cap ? cap + cap / 2 : 4096;
            arow *nr = realloc(a->rows, cap * sizeof *nr);
            if (!nr)
                if ((rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory")) != 0)
                    goto done;
            a->rows = nr;
        }
        arow *r = &a->rows[a->n++];
        uint32_t type = (uint32_t)t[0] << 24 | (uint32_t)t[1] << 16 | (uint32_t)t[2] << 8 | t[3];
        uint32_t game = (uint32_t)(game_of_pak[pid] & 0xFF);
        int64_t flag = sqlite3_column_int64(st, 3);
        int hashed = sqlite3_column_type(st, 4) != SQLITE_NULL;
        uint64_t flags = (flag != 0 ? R_COMPRESSED : 0) | (hashed ? R_HASHED : 0);
        r->hi = (uint64_t)game << 32 | (uint32_t)sqlite3_column_int64(st, 1);
        r->lo = (uint64_t)pid << 34 | flags << 32 | type;
        r->h = hashed ? (uint64_t)sqlite3_column_int64(st, 4) : 0;
        if ((rc = count_flag(a, (uint32_t)(game_of_pak[pid] >> 8), game, flag, err)) != 0)
            goto done;
    }
    if (s != SQLITE_DONE)
        if ((rc = fail(d, err)) != 0)
            goto done;
    int depth = 0;
    for (size_t k = a->n; k > 1; k >>= 1)
        depth += 2;
    sort_rows(a->rows, a->n, depth);
done:
    sqlite3_finalize(st);
    return rc;
}

/* The group starting at row i; returns its end. */
static size_t next_group(const acalc *a, size_t i, agroup *out)
{
    const arow *r = a->rows;
    size_t j = i + 1;
    out->i = i;
    out->type = r_type(&r[i]);
    out->pak_count = 1;
    out->conflict = 0;
    for (; j < a->n && r[j].hi == r[i].hi; j++) {
        out->pak_count += r_pak(&r[j]) != r_pak(&r[j - 1]);
        if (r_type(&r[j]) != out->type)
            out->conflict = 1;
        if (r_type(&r[j]) < out->type)
            out->type = r_type(&r[j]);
    }
    out->j = j;
    return j;
}

/* "asset ID held as A,B": the distinct types in text order. */
static void conflict_message(const acalc *a, const agroup *gr, char msg[160])
{
    uint32_t types[8];
    size_t nt = 0;
    snprintf(msg, 160, "asset ID held as ");
    for (size_t k = gr->i; k < gr->j; k++) {
        size_t m = 0;
        while (m < nt && types[m] != r_type(&a->rows[k]))
            m++;
        if (m == nt && nt < 8)
            types[nt++] = r_type(&a->rows[k]);
    }
    for (size_t x = 1; x < nt; x++)
        for (size_t y = x; y > 0 && types[y - 1] > types[y]; y--) {
            uint32_t t = types[y];
            types[y] = types[y - 1];
            types[y - 1] = t;
        }
    for (size_t m = 0; m < nt; m++) {
        char t4[5];
        util_fourcc_str(types[m], t4);
        size_t len = strlen(msg);
        snprintf(msg + len, 160 - len, "%s%s", m ? "," : "", t4);
    }
}

static int write_group(ing *g, const acalc *a, const agroup *gr)
{
    const arow *r = &a->rows[gr->i];
    char fc[5], msg[160];
    db_row w;
    int rc = dbi_row_begin(&w, g->d, TBL(assets), g->err);
    if (rc)
        return rc;
    util_fourcc_str(gr->type, fc);
    dbi_text(&w, COL(assets, game), a->games[r_game(r)]);
    dbi_int(&w, COL(assets, asset_id), r_asset(r));
    dbi_text(&w, COL(assets, type), fc);
    dbi_int(&w, COL(assets, copies), (int64_t)(gr->j - gr->i));
    dbi_int(&w, COL(assets, pak_count), gr->pak_count);
    if ((rc = dbi_row_end(&w, g->err)) != 0 || !gr->conflict)
        return rc;
    /* not counted in the run's warnings: the rebuild replaces them all */
    conflict_message(a, gr, msg);
    if ((rc = dbi_row_begin(&w, g->d, TBL(warnings), g->err)) != 0)
        return rc;
    dbi_text(&w, COL(warnings, game), a->games[r_game(r)]);
    dbi_text(&w, COL(warnings, type), fc);
    dbi_int(&w, COL(warnings, asset_id), r_asset(r));
    dbi_text(&w, COL(warnings, code), "id_type_conflict");
    dbi_text(&w, COL(warnings, message), msg);
    return dbi_row_end(&w, g->err);
}

/* Adds one asset held more than once to a->dups. */
static int count_dup(acalc *a, uint32_t kind, uint32_t release, uint32_t game, uint32_t same,
                     util_err *err)
{
    for (size_t k = a->dups.len; k-- > 0;) {
        dupcount *c = &a->dups.items[k];
        if (c->kind == kind && c->release == release && c->game == game && c->same == same) {
            c->count++;
            return 0;
        }
    }
    return util_vec_push(&a->dups, ((dupcount){kind, release, game, same, 1}), err);
}

/* Rows [k, m) of a->rel, one release's copies of one asset (more than one): whether their
 * contents agree (among the copies with a content hash, when there are two or more) and
 * whether their compressed flags do. */
static int count_dups(acalc *a, size_t k, size_t m, uint32_t game, util_err *err)
{
    const relrow *rr = a->rel.items;
    size_t hashed = 0;
    uint64_t h = 0;
    int hsame = 1, fsame = 1;
    for (size_t x = k; x < m; x++) {
        if ((rr[x].flags & R_COMPRESSED) != (rr[k].flags & R_COMPRESSED))
            fsame = 0;
        if (!(rr[x].flags & R_HASHED))
            continue;
        if (hashed++ == 0)
            h = rr[x].h;
        else if (rr[x].h != h)
            hsame = 0;
    }
    if (hashed > 1)
        TRY(count_dup(a, DUP_HASH, rr[k].release, game, (uint32_t)hsame, err));
    return count_dup(a, DUP_FLAG, rr[k].release, game, (uint32_t)fsame, err);
}

/* One release's rows of one asset, a->rows[idx[0]], ..., a->rows[idx[n - 1]] (n > 0, in
 * the sorted order, so by PAK): its release_assets row, and a->dups counted when the release
 * holds the asset more than once (rows copied to a->rel, a buffer kept between assets). */
static int release_row(ing *g, acalc *a, uint32_t release, const uint32_t *idx, size_t n)
{
    const arow *r = &a->rows[idx[0]];
    int64_t paks = 1;
    uint32_t type = r_type(r);
    for (size_t k = 1; k < n; k++) {
        const arow *x = &a->rows[idx[k]];
        paks += r_pak(x) != r_pak(&a->rows[idx[k - 1]]);
        if (r_type(x) < type)
            type = r_type(x);
    }
    char fc[5];
    util_fourcc_str(type, fc);
    db_row w;
    TRY(dbi_row_begin(&w, g->d, TBL(release_assets), g->err));
    dbi_int(&w, COL(release_assets, release_id), release);
    dbi_text(&w, COL(release_assets, game), a->games[r_game(r)]);
    dbi_int(&w, COL(release_assets, asset_id), r_asset(r));
    dbi_text(&w, COL(release_assets, type), fc);
    dbi_int(&w, COL(release_assets, copies), (int64_t)n);
    dbi_int(&w, COL(release_assets, pak_count), paks);
    TRY(dbi_row_end(&w, g->err));
    if (n == 1)
        return 0;
    a->rel.len = 0;
    TRY(util_vec_reserve(&a->rel, n, g->err));
    for (size_t k = 0; k < n; k++) {
        const arow *x = &a->rows[idx[k]];
        a->rel.items[k] = (relrow){release, r_pak(x), r_type(x), r_flags(x), x->h};
    }
    return count_dups(a, 0, n, r_game(r), g->err);
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* release_assets, one release after another in release_id order: written asset by asset,
 * each asset's rows of every release would land at as many places of the table's key
 * (twice the time of writing them in key order, measured). The rows of each release are
 * listed first (a counting sort by release of the row numbers; the order within a release
 * stays the sorted one). */
static int write_releases(ing *g, acalc *a)
{
    int rc = 0;
    uint32_t *rel = NULL, *dense = NULL, *idx = NULL;
    size_t nrel = 0, *start = NULL;
    if (a->n > UINT32_MAX)
        return util_fail(g->err, UTIL_ESQL, UINT64_MAX, "rebuild assets: %zu entries", a->n);
    /* the releases holding a PAK with a game, and each such PAK's release as its position */
    size_t np = (size_t)a->max_pak + 1;
    rel = malloc(np * sizeof *rel);
    dense = malloc(np * sizeof *dense);
    idx = malloc((a->n ? a->n : 1) * sizeof *idx);
    if (!rel || !dense || !idx) {
        rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        goto done;
    }
    for (size_t p = 0; p < np; p++)
        if (a->pak_info[p] >= 0)
            rel[nrel++] = (uint32_t)(a->pak_info[p] >> 8);
    if (nrel > 1)
        qsort(rel, nrel, sizeof *rel, cmp_u32);
    size_t nr = 0;
    for (size_t k = 0; k < nrel; k++)
        if (nr == 0 || rel[nr - 1] != rel[k])
            rel[nr++] = rel[k];
    for (size_t p = 0; p < np; p++) {
        if (a->pak_info[p] < 0)
            continue;
        uint32_t want = (uint32_t)(a->pak_info[p] >> 8);
        size_t lo = 0, hi = nr;
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (rel[mid] <= want)
                lo = mid;
            else
                hi = mid;
        }
        dense[p] = (uint32_t)lo;
    }
    if (!(start = calloc(nr + 1, sizeof *start))) {
        rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < a->n; i++)
        start[dense[r_pak(&a->rows[i])] + 1]++;
    for (size_t k = 0; k < nr; k++)
        start[k + 1] += start[k];
    for (size_t i = 0; i < a->n; i++)
        idx[start[dense[r_pak(&a->rows[i])]]++] = (uint32_t)i;
    /* start[k] is now the end of release k's rows, the start of release k + 1's */
    for (size_t k = 0, from = 0; k < nr && !rc; from = start[k++])
        for (size_t i = from; i < start[k] && !rc;) {
            size_t m = i + 1;
            while (m < start[k] && a->rows[idx[m]].hi == a->rows[idx[i]].hi)
                m++;
            rc = release_row(g, a, rel[k], idx + i, m - i);
            i = m;
        }
done:
    free(rel);
    free(dense);
    free(idx);
    free(start);
    return rc;
}

/* In the order census_pak's rows are written: kind, release, game, disagree before agree. */
static int cmp_dupcount(const void *x, const void *y)
{
    const dupcount *a = x, *b = y;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->release != b->release)
        return a->release < b->release ? -1 : 1;
    if (a->game != b->game)
        return a->game < b->game ? -1 : 1;
    return a->same < b->same ? -1 : a->same > b->same;
}

/* TEMP census_pak(rid, game, field, value, count): the compressed flags counted by collect,
 * then a->dups (sorted here). */
static int write_census(ing *g, acalc *a)
{
    TRY(dbi_exec(g->d,
                 "CREATE TEMP TABLE IF NOT EXISTS census_pak(rid INTEGER, game TEXT, "
                 "field TEXT, value TEXT, count INTEGER); DELETE FROM temp.census_pak",
                 g->err));
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(g->d->h, "INSERT INTO temp.census_pak VALUES (?1, ?2, ?3, ?4, ?5)", -1,
                           &st, NULL) != SQLITE_OK)
        return fail(g->d, g->err);
    if (a->dups.len > 1)
        qsort(a->dups.items, a->dups.len, sizeof *a->dups.items, cmp_dupcount);
    int rc = 0;
    for (size_t k = 0; k < a->flags.len + a->dups.len && !rc; k++) {
        char num[24];
        uint32_t rel, game;
        const char *field, *value;
        int64_t count;
        if (k < a->flags.len) {
            const flagcount *c = &a->flags.items[k];
            snprintf(num, sizeof num, "%" PRId64, c->flag);
            rel = c->release, game = c->game, count = c->count;
            field = "pak.entry.compressed", value = num;
        } else {
            const dupcount *c = &a->dups.items[k - a->flags.len];
            rel = c->release, game = c->game, count = c->count;
            if (c->kind == DUP_HASH)
                field = "pak.duplicate_copies_identical", value = c->same ? "identical" : "differ";
            else
                field = "pak.duplicate_compressed_flag", value = c->same ? "same" : "differs";
        }
        sqlite3_bind_int64(st, 1, rel);
        sqlite3_bind_text(st, 2, a->games[game], -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, field, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, value, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 5, count);
        if (sqlite3_step(st) != SQLITE_DONE)
            rc = fail(g->d, g->err);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    return rc;
}

/* The rows the rebuild reads, collected on a reader (connection.c) while the final pass's
 * second transaction builds the indexes (at 10x, 1.8 G instructions of the rebuild's 9.5 G,
 * off the writer): no step between the first transaction's commit and the rebuild changes a
 * PAK or an entry. */
struct ing_assets_pre {
    db_reader *r;
    acalc a;
    int (*then)(db *rd, void *arg, util_err *err);
    void *arg;
};

static int pre_collect(db *rd, void *arg, util_err *err)
{
    ing_assets_pre *p = arg;
    int rc = collect(rd, &p->a, err);
    return rc || !p->then ? rc : p->then(rd, p->arg, err);
}

ing_assets_pre *ing_assets_pre_start(db *d, int (*then)(db *rd, void *arg, util_err *err),
                                     void *arg)
{
    ing_assets_pre *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->then = then;
    p->arg = arg;
    if (!(p->r = dbi_reader_start(d, "PRAGMA cache_size = -2048", pre_collect, p))) {
        free(p);
        p = NULL;
    }
    return p;
}

db *ing_assets_pre_db(ing_assets_pre *p)
{
    return p && dbi_reader_join(p->r) == 0 ? dbi_reader_db(p->r) : NULL;
}

void ing_assets_pre_free(ing_assets_pre *p)
{
    if (!p)
        return;
    dbi_reader_free(p->r);
    acalc_free(&p->a);
    free(p);
}

int ing_rebuild_assets(ing *g, ing_assets_pre *pre)
{
    acalc a = {0};
    ing_indexes x = {0};
    int rc = 0;
    /* Every row is written again: its index is built after them (one sort), not kept up to
     * date row by row. */
    if ((rc = ing_drop_indexes(g->d, "assets", &x, g->err)) != 0 ||
        (rc = dbi_exec(g->d,
                       "DELETE FROM assets; DELETE FROM release_assets; DELETE FROM warnings "
                       "WHERE code = 'id_type_conflict'",
                       g->err)) != 0)
        goto done;
    /* the reader's rows, or (it failed, or there is none) collected here */
    if (pre && dbi_reader_join(pre->r) == 0) {
        a = pre->a;
        memset(&pre->a, 0, sizeof pre->a);
    } else if ((rc = collect(g->d, &a, g->err)) != 0) {
        goto done;
    }
    dbi_batch_begin(g->d);
    agroup gr;
    for (size_t i = 0; i < a.n && !rc;) {
        i = next_group(&a, i, &gr);
        rc = write_group(g, &a, &gr);
    }
    if (!rc)
        rc = write_releases(g, &a);
    int frc = dbi_batch_end(g->d, rc != 0, g->err);
    if (!rc)
        rc = frc;
    if (!rc)
        rc = write_census(g, &a);
    if (!rc)
        rc = ing_create_indexes(g->d, &x, ING_INDEXES_ALL, g->err);
done:
    ing_indexes_free(&x);
    acalc_free(&a);
    return rc;
}

int ing_assets_differ(ing *g, int *out)
{
    acalc a = {0};
    sqlite3_stmt *st = NULL;
    int rc = 0, s = SQLITE_DONE;
    *out = 0;
    if ((rc = collect(g->d, &a, g->err)) != 0)
        goto done;
    if (sqlite3_prepare_v2(g->d->h,
                           "SELECT game, asset_id, type, copies, pak_count FROM assets "
                           "ORDER BY game, asset_id",
                           -1, &st, NULL) != SQLITE_OK)
        if ((rc = fail(g->d, g->err)) != 0)
            goto done;
    agroup gr;
    size_t i = 0;
    while (!*out && (s = sqlite3_step(st)) == SQLITE_ROW) {
        if (i >= a.n) {
            *out = 1;
            break;
        }
        i = next_group(&a, i, &gr);
        const arow *r = &a.rows[gr.i];
        char fc[5];
        util_fourcc_str(gr.type, fc);
        const char *gm = (const char *)sqlite3_column_text(st, 0);
        const char *ty = (const char *)sqlite3_column_text(st, 2);
        *out = !gm || strcmp(gm, a.games[r_game(r)]) ||
               sqlite3_column_int64(st, 1) != (int64_t)r_asset(r) || !ty || strcmp(ty, fc) ||
               sqlite3_column_int64(st, 3) != (int64_t)(gr.j - gr.i) ||
               sqlite3_column_int64(st, 4) != gr.pak_count;
    }
    if (!*out && s != SQLITE_ROW && s != SQLITE_DONE)
        if ((rc = fail(g->d, g->err)) != 0)
            goto done;
    if (!*out && s == SQLITE_DONE && i < a.n)
        *out = 1;
done:
    sqlite3_finalize(st);
    acalc_free(&a);
    return rc;
}
