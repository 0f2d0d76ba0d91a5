/* test_db_corpus.c — ingest the shared sample corpus (mp1/ and mp2/) into a temporary
 * database and compare it table by table with truth.json and resources.tsv (README of the
 * corpus, "From truth to the database tables"), then run who-references for every particle
 * and every EVNT of truth's particle_refs / evnt_refs, and dangling-refs. Skips without the
 * corpus. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "json_min.h"
#include "testutil.h"

static db *g_db;
static jm_node *g_truth;
static char *g_dir;
static long g_failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            if (g_failures++ < 40) {                                                               \
                fprintf(stderr, "MISMATCH: ");                                                     \
                fprintf(stderr, __VA_ARGS__);                                                      \
                fputc('\n', stderr);                                                               \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* ---- small query helpers ---------------------------------------------------------------- */

typedef struct rowset {
    int n, cap;
    char **rows; /* cells joined with '|', NULL as "-" */
} rowset;

static int rs_row(void *ctx, int ncols, const db_cell *cells)
{
    rowset *r = ctx;
    char buf[1024];
    buf[0] = 0;
    for (int c = 0; c < ncols; c++) {
        size_t len = strlen(buf);
        const db_cell *x = &cells[c];
        if (x->type == DB_INT)
            snprintf(buf + len, sizeof buf - len, "%s%lld", c ? "|" : "", (long long)x->i);
        else if (x->type == DB_REAL)
            snprintf(buf + len, sizeof buf - len, "%s%.9g", c ? "|" : "", x->r);
        else if (x->type == DB_TEXT)
            snprintf(buf + len, sizeof buf - len, "%s%s", c ? "|" : "", x->s);
        else
            snprintf(buf + len, sizeof buf - len, "%s-", c ? "|" : "");
    }
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 16;
        r->rows = realloc(r->rows, (size_t)r->cap * sizeof *r->rows);
        assert_non_null(r->rows);
    }
    r->rows[r->n++] = strdup(buf);
    return 0;
}

static void rs_free(rowset *r)
{
    for (int i = 0; i < r->n; i++)
        free(r->rows[i]);
    free(r->rows);
    memset(r, 0, sizeof *r);
}

/* Run SQL built from fmt (only integers and fixed words are formatted in) with binds. */
static void q(rowset *out, int nb, const db_bind *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap); /* the named queries are longer than any buffer */
    va_end(ap);
    assert_true(len >= 0);
    char *sql = malloc((size_t)len + 1);
    assert_non_null(sql);
    va_start(ap, fmt);
    vsnprintf(sql, (size_t)len + 1, fmt, ap);
    va_end(ap);
    memset(out, 0, sizeof *out);
    util_err e;
    util_err_clear(&e);
    db_sink s = {out, NULL, rs_row, NULL};
    if (db_exec(g_db, sql, nb, b, &s, &e) != 0)
        fail_msg("SQL failed: %s\n%s", e.msg, sql);
    free(sql);
}

static long qn(const char *fmt, ...)
{
    char sql[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sql, sizeof sql, fmt, ap);
    va_end(ap);
    rowset r;
    q(&r, 0, NULL, "%s", sql);
    assert_int_equal(r.n, 1);
    long v = strcmp(r.rows[0], "-") ? atol(r.rows[0]) : -1;
    rs_free(&r);
    return v;
}

static int64_t ji(const jm_node *n, const char *key)
{
    const jm_node *v = jm_get(n, key);
    return v && v->type == JM_NUM ? v->i : -1;
}

static const char *js(const jm_node *n, const char *key)
{
    const jm_node *v = jm_get(n, key);
    return v && v->type == JM_STR ? v->str : NULL;
}

static size_t jlen(const jm_node *n)
{
    return n && n->type == JM_ARR ? n->count : 0;
}

/* ---- setup ------------------------------------------------------------------------------ */

static int setup(void **state)
{
    (void)state;
    const char *corpus = tu_corpus_dir();
    if (!corpus)
        return 0;
    char path[1024];
    snprintf(path, sizeof path, "%s/truth.json", corpus);
    size_t len;
    uint8_t *text = tu_read_file(path, &len);
    if (!text)
        return -1;
    g_truth = jm_parse((const char *)text, len);
    free(text);
    if (!g_truth)
        return -1;
    g_dir = tu_tempdir();
    snprintf(path, sizeof path, "%s/corpus.db", g_dir);
    util_err e;
    util_err_clear(&e);
    if (db_open(&g_db, path, DB_OPEN_READWRITE, &e) != 0)
        return -1;
    /* The game of a pak is the folder it is in (corpus README); empty paks say nothing. */
    static const struct {
        const char *sub;
        pak_game game;
    } games[] = {{"mp1", PAK_GAME_MP1}, {"mp2", PAK_GAME_MP2}};
    for (int i = 0; i < 2; i++) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/%s", corpus, games[i].sub);
        const char *paths[1] = {dir};
        db_ingest_opts o = {.game = games[i].game, .jobs = 1, .quiet = 1, .log = NULL};
        db_ingest_stats st;
        if (db_ingest_paths(g_db, paths, 1, &o, &st, &e) != 0 || st.errors != 0)
            return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    db_close(g_db);
    jm_free(g_truth);
    if (g_dir) {
        tu_remove_tree(g_dir);
        free(g_dir);
    }
    return 0;
}

#define NEED_CORPUS()                                                                              \
    do {                                                                                           \
        if (!g_db)                                                                                 \
            TU_SKIP();                                                                             \
        g_failures = 0;                                                                            \
    } while (0)

static const char *GAMES[2][2] = {{"mp1", "MP1"}, {"mp2", "MP2"}};

/* ---- paks, entries, assets ----------------------------------------------------------------- */

static void test_paks(void **state)
{
    (void)state;
    NEED_CORPUS();
    const jm_node *games = jm_get(g_truth, "games");
    for (int g = 0; g < 2; g++) {
        const jm_node *G = jm_get(games, GAMES[g][0]);
        CHECK(qn("SELECT count(*) FROM paks WHERE game = '%s'", GAMES[g][1]) == ji(G, "pak_count"),
              "%s pak count", GAMES[g][1]);
        CHECK(qn("SELECT count(*) FROM pak_entries JOIN paks USING (pak_id) WHERE game = '%s'",
                 GAMES[g][1]) == ji(G, "resource_entry_count"),
              "%s entry count", GAMES[g][1]);
        const jm_node *paks = jm_get(G, "paks");
        for (size_t i = 0; i < jlen(paks); i++) {
            const jm_node *p = jm_at(paks, i);
            db_bind b = {DB_TEXT, 0, js(p, "path")};
            rowset r;
            q(&r, 1, &b,
              "SELECT file_size, named_count, resource_count, status FROM paks WHERE path LIKE "
              "'%%/' || ?1");
            char want[128];
            snprintf(want, sizeof want, "%lld|%lld|%lld|ok", (long long)ji(p, "file_size"),
                     (long long)ji(p, "named_count"), (long long)ji(p, "resource_count"));
            CHECK(r.n == 1 && !strcmp(r.rows[0], want), "pak %s: %s", js(p, "path"),
                  r.n ? r.rows[0] : "(missing)");
            rs_free(&r);
            const jm_node *named = jm_get(p, "named_resources");
            for (size_t k = 0; k < jlen(named); k++) {
                const jm_node *n = jm_at(named, k);
                db_bind nb[3] = {{DB_TEXT, 0, js(p, "path")},
                                 {DB_TEXT, 0, js(n, "name")},
                                 {DB_TEXT, 0, js(n, "type")}};
                q(&r, 3, nb,
                  "SELECT count(*) FROM pak_names JOIN paks USING (pak_id) WHERE path LIKE "
                  "'%%/' || ?1 AND name = ?2 AND type = ?3 AND asset_id = %lld",
                  (long long)ji(n, "id"));
                CHECK(r.n == 1 && !strcmp(r.rows[0], "1"), "named %s in %s", js(n, "name"),
                      js(p, "path"));
                rs_free(&r);
            }
        }
    }
    assert_int_equal(g_failures, 0);
}

static void test_entries_and_assets(void **state)
{
    (void)state;
    NEED_CORPUS();
    char path[1024];
    snprintf(path, sizeof path, "%s/resources.tsv", tu_corpus_dir());
    size_t len;
    char *text = (char *)tu_read_file(path, &len);
    assert_non_null(text);
    char *save = NULL;
    long lines = 0;
    /* distinct (game, id) pairs of resources.tsv, counted as the lines go by */
    struct {
        char game[8];
        long long id;
    } *seen = NULL;
    size_t nseen = 0;
    strtok_r(text, "\n", &save); /* header */
    for (char *line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char game[8], pak[128], type[8];
        long long idx, id, comp, off, stored, dsize, crc;
        if (sscanf(line, "%7s\t%127s\t%lld\t%7s\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld", game, pak,
                   &idx, type, &id, &comp, &off, &stored, &dsize, &crc) != 10)
            fail_msg("bad resources.tsv line: %s", line);
        lines++;
        size_t k = 0;
        while (k < nseen && !(seen[k].id == id && !strcmp(seen[k].game, game)))
            k++;
        if (k == nseen) {
            void *grown = realloc(seen, (nseen + 1) * sizeof *seen);
            assert_non_null(grown);
            seen = grown;
            snprintf(seen[nseen].game, sizeof seen[nseen].game, "%s", game);
            seen[nseen++].id = id;
        }
        char rel[160];
        snprintf(rel, sizeof rel, "%s/%s", game, pak);
        db_bind b[2] = {{DB_TEXT, 0, rel}, {DB_TEXT, 0, type}};
        rowset r;
        q(&r, 2, b,
          "SELECT count(*) FROM pak_entries e JOIN paks p USING (pak_id) WHERE p.path LIKE "
          "'%%/' || ?1 AND e.entry_index = %lld AND e.type = ?2 AND e.asset_id = %lld AND "
          "e.compressed = %lld AND e.data_offset = %lld AND e.stored_size = %lld",
          idx, id, comp, off, stored);
        CHECK(r.n == 1 && !strcmp(r.rows[0], "1"), "entry %s %lld", rel, idx);
        rs_free(&r);
    }
    free(text);
    CHECK(qn("SELECT count(*) FROM pak_entries") == lines, "entry total");
    /* assets: one per (game, id); copies = lines with that game and ID */
    CHECK(qn("SELECT sum(copies) FROM assets") == lines, "sum of copies");
    free(seen);
    CHECK(qn("SELECT count(*) FROM assets") == (long)nseen,
          "%zu distinct (game, id) pairs in resources.tsv", nseen);
    CHECK(qn("SELECT count(*) FROM (SELECT a.game, a.asset_id FROM assets a JOIN pak_entries e "
             "ON e.asset_id = a.asset_id JOIN paks p ON p.pak_id = e.pak_id AND p.game = "
             "a.game GROUP BY a.game, a.asset_id HAVING count(*) <> max(a.copies))") == 0,
          "copies match entries");
    assert_int_equal(g_failures, 0);
}

/* ---- ANCS content ------------------------------------------------------------------------ */

static int64_t opt_i(const jm_node *n, const char *key, int *is_null)
{
    const jm_node *v = jm_get(n, key);
    *is_null = !v || v->type == JM_NULL;
    return *is_null ? 0 : v->i;
}

static void fmt_opt(char *out, size_t n, const jm_node *o, const char *key)
{
    int isnull;
    int64_t v = opt_i(o, key, &isnull);
    if (isnull)
        snprintf(out, n, "-");
    else
        snprintf(out, n, "%lld", (long long)v);
}

static void check_character(const char *game, int64_t ancs, size_t ci, const jm_node *c)
{
    char fm[24], fs[24], cspp[24], ua[24], ub[24], uc[24];
    fmt_opt(fm, sizeof fm, c, "frozen_model");
    fmt_opt(fs, sizeof fs, c, "frozen_skin");
    fmt_opt(cspp, sizeof cspp, c, "spatial_primitives_id");
    fmt_opt(ua, sizeof ua, c, "unknown_1");
    fmt_opt(ub, sizeof ub, c, "unknown_2");
    fmt_opt(uc, sizeof uc, c, "unknown_3");
    char want[512];
    snprintf(want, sizeof want, "%lld|%lld|%s|%lld|%lld|%lld|%s|%s|%s|%s|%s|%s",
             (long long)ji(c, "id"), (long long)ji(c, "version"), js(c, "name"),
             (long long)ji(c, "model_id"), (long long)ji(c, "skin_id"),
             (long long)ji(c, "skeleton_id"), fm, fs, cspp, ua, ub, uc);
    rowset r;
    q(&r, 0, NULL,
      "SELECT char_id, version, name, model_id, skin_id, skeleton_id, frozen_model_id, "
      "frozen_skin_id, cspp_id, unknown_a, unknown_b, unknown_c FROM characters WHERE game = "
      "'%s' AND ancs_id = %lld AND char_index = %zu",
      game, (long long)ancs, ci);
    CHECK(r.n == 1 && !strcmp(r.rows[0], want), "character %s %08llX #%zu: got %s want %s", game,
          (long long)ancs, ci, r.n ? r.rows[0] : "(none)", want);
    rs_free(&r);

    /* animation names in order */
    const jm_node *names = jm_get(c, "animation_names");
    q(&r, 0, NULL,
      "SELECT anim_id, ifnull(unknown, '-'), name FROM character_anims WHERE game = '%s' AND "
      "ancs_id = %lld AND char_index = %zu ORDER BY seq",
      game, (long long)ancs, ci);
    CHECK((size_t)r.n == jlen(names), "anim name count %08llX #%zu", (long long)ancs, ci);
    for (size_t k = 0; k < jlen(names) && (int)k < r.n; k++) {
        const jm_node *an = jm_at(names, k);
        const char *unk = js(an, "unknown");
        snprintf(want, sizeof want, "%lld|%s|%s", (long long)ji(an, "animation_id"),
                 unk ? unk : "-", js(an, "name"));
        CHECK(!strcmp(r.rows[k], want), "anim name %08llX #%zu/%zu: %s vs %s", (long long)ancs, ci,
              k, r.rows[k], want);
    }
    rs_free(&r);

    /* particle lists and effect components */
    const jm_node *prd = jm_get(c, "particle_resource_data");
    static const char *const lists[][2] = {{"generic_particles", "PART"},
                                           {"swoosh_particles", "SWHC"},
                                           {"electric_particles", "ELSC"},
                                           {"spawn_particles", "SPSC"},
                                           {"third_list", "third_list"}};
    for (int l = 0; l < 5; l++) {
        const jm_node *ids = jm_get(prd, lists[l][0]);
        q(&r, 0, NULL,
          "SELECT particle_id, ifnull(particle_type, '-') FROM particle_refs WHERE game = '%s' "
          "AND ancs_id = %lld AND char_index = %zu AND source = 'particles' AND list = '%s' "
          "ORDER BY seq",
          game, (long long)ancs, ci, lists[l][1]);
        CHECK((size_t)r.n == jlen(ids), "%s count %08llX #%zu", lists[l][0], (long long)ancs, ci);
        for (size_t k = 0; k < jlen(ids) && (int)k < r.n; k++) {
            snprintf(want, sizeof want, "%lld|%s", (long long)jm_at(ids, k)->i,
                     l == 4 ? "-" : lists[l][1]);
            CHECK(!strcmp(r.rows[k], want), "%s[%zu] %08llX #%zu", lists[l][0], k, (long long)ancs,
                  ci);
        }
        rs_free(&r);
    }
    const jm_node *effects = jm_get(c, "effect_array");
    size_t ncomp = 0;
    for (size_t k = 0; k < jlen(effects); k++) {
        const jm_node *comps = jm_get(jm_at(effects, k), "components");
        for (size_t m = 0; m < jlen(comps); m++, ncomp++) {
            const jm_node *cp = jm_at(comps, m);
            const jm_node *pt = jm_get(cp, "particle");
            db_bind b = {DB_TEXT, 0, js(pt, "type")};
            CHECK(qn("SELECT count(*) FROM effect_components WHERE game = '%s' AND ancs_id = "
                     "%lld AND char_index = %zu AND effect_index = %zu AND comp_index = %zu AND "
                     "particle_id = %lld AND parented_mode = %lld AND flags = %lld",
                     game, (long long)ancs, ci, k, m, (long long)ji(pt, "id"),
                     (long long)ji(cp, "parented_mode"), (long long)ji(cp, "flags")) == 1,
                  "effect component %08llX #%zu %zu/%zu", (long long)ancs, ci, k, m);
            q(&r, 1, &b,
              "SELECT count(*) FROM particle_refs WHERE game = '%s' AND ancs_id = %lld AND "
              "char_index = %zu AND source = 'effect' AND effect_index = %zu AND seq = %zu AND "
              "particle_type = ?1 AND particle_id = %lld",
              game, (long long)ancs, ci, k, m, (long long)ji(pt, "id"));
            CHECK(r.n == 1 && !strcmp(r.rows[0], "1"), "effect particle_ref");
            rs_free(&r);
        }
    }
    CHECK(qn("SELECT count(*) FROM particle_refs WHERE game = '%s' AND ancs_id = %lld AND "
             "char_index = %zu AND source = 'effect'",
             game, (long long)ancs, ci) == (long)ncomp,
          "effect particle_refs count %08llX #%zu", (long long)ancs, ci);
}

static void test_ancs(void **state)
{
    (void)state;
    NEED_CORPUS();
    const jm_node *games = jm_get(g_truth, "games");
    for (int g = 0; g < 2; g++) {
        const char *game = GAMES[g][1];
        const jm_node *list = jm_get(jm_get(games, GAMES[g][0]), "ancs");
        CHECK(qn("SELECT count(*) FROM ancs WHERE game = '%s'", game) == (long)jlen(list),
              "%s ANCS count", game);
        for (size_t i = 0; i < jlen(list); i++) {
            const jm_node *a = jm_at(list, i);
            long long id = (long long)ji(a, "id");
            const jm_node *content = jm_get(a, "content");
            const jm_node *cs = jm_get(content, "character_set");
            const jm_node *as = jm_get(content, "animation_set");
            const jm_node *chars = jm_get(cs, "characters");
            const jm_node *anims = jm_get(as, "animations");
            char want[256];
            snprintf(want, sizeof want, "%lld|%zu|%lld|%zu|%zu", (long long)ji(cs, "version"),
                     jlen(chars), (long long)ji(as, "table_count"), jlen(anims),
                     jlen(jm_get(as, "transitions")));
            rowset r;
            q(&r, 0, NULL,
              "SELECT charset_version, character_count, animset_version, animation_count, "
              "transition_count FROM ancs WHERE game = '%s' AND asset_id = %lld",
              game, id);
            CHECK(r.n == 1 && !strcmp(r.rows[0], want), "ancs %s %08llX: %s vs %s", game, id,
                  r.n ? r.rows[0] : "(none)", want);
            rs_free(&r);
            for (size_t c = 0; c < jlen(chars); c++)
                check_character(game, id, c, jm_at(chars, c));
            /* animations */
            q(&r, 0, NULL,
              "SELECT name FROM animations WHERE game = '%s' AND ancs_id = %lld ORDER BY "
              "anim_index",
              game, id);
            CHECK((size_t)r.n == jlen(anims), "animation count %08llX", id);
            for (size_t k = 0; k < jlen(anims) && (int)k < r.n; k++)
                CHECK(!strcmp(r.rows[k], js(jm_at(anims, k), "name")), "animation name");
            rs_free(&r);
            /* anim_primitives = derived.play_nodes, in order */
            const jm_node *pn = jm_get(jm_get(a, "derived"), "play_nodes");
            q(&r, 0, NULL,
              "SELECT owner, owner_index, anim_asset_id, primitive_id, name FROM "
              "anim_primitives WHERE game = '%s' AND ancs_id = %lld ORDER BY CASE owner WHEN "
              "'animation' THEN 0 WHEN 'transition' THEN 1 WHEN 'default_transition' THEN 2 "
              "ELSE 3 END, owner_index, seq",
              game, id);
            CHECK((size_t)r.n == jlen(pn), "play node count %08llX: %d vs %zu", id, r.n, jlen(pn));
            for (size_t k = 0; k < jlen(pn) && (int)k < r.n; k++) {
                const jm_node *p = jm_at(pn, k);
                snprintf(want, sizeof want, "%s|%lld|%lld|%lld|%s", js(p, "section"),
                         (long long)ji(p, "index"), (long long)ji(p, "asset_id"),
                         (long long)ji(p, "primitive_id"), js(p, "name"));
                CHECK(!strcmp(r.rows[k], want), "play node %08llX [%zu]: %s vs %s", id, k,
                      r.rows[k], want);
            }
            rs_free(&r);
            /* MP1 resource pairs */
            const jm_node *pairs = jm_get(as, "animation_resources");
            q(&r, 0, NULL,
              "SELECT anim_asset_id, evnt_asset_id FROM animation_resources WHERE game = '%s' "
              "AND ancs_id = %lld ORDER BY res_index",
              game, id);
            CHECK((size_t)r.n == jlen(pairs), "pair count %08llX", id);
            for (size_t k = 0; k < jlen(pairs) && (int)k < r.n; k++) {
                snprintf(want, sizeof want, "%lld|%lld", (long long)ji(jm_at(pairs, k), "anim_id"),
                         (long long)ji(jm_at(pairs, k), "event_id"));
                CHECK(!strcmp(r.rows[k], want), "pair %08llX [%zu]", id, k);
            }
            rs_free(&r);
            /* MP2 event sets: node counts per kind and particle nodes */
            const jm_node *sets = jm_get(as, "event_sets");
            for (size_t k = 0; k < jlen(sets); k++) {
                const jm_node *es = jm_at(sets, k);
                static const char *const kinds[][2] = {{"bool_poi_nodes", "bool"},
                                                       {"int32_poi_nodes", "int32"},
                                                       {"particle_poi_nodes", "particle"},
                                                       {"sound_poi_nodes", "sound"}};
                for (int kd = 0; kd < 4; kd++)
                    CHECK(qn("SELECT count(*) FROM events WHERE game = '%s' AND owner_type = "
                             "'ANCS' AND owner_id = %lld AND anim_index = %zu AND kind = '%s'",
                             game, id, k, kinds[kd][1]) == (long)jlen(jm_get(es, kinds[kd][0])),
                          "event set %08llX/%zu %s", id, k, kinds[kd][1]);
            }
        }
    }
    assert_int_equal(g_failures, 0);
}

static void test_evnt(void **state)
{
    (void)state;
    NEED_CORPUS();
    const jm_node *list = jm_get(jm_get(jm_get(g_truth, "games"), "mp1"), "evnt");
    CHECK(qn("SELECT count(*) FROM evnt WHERE game = 'MP1'") == (long)jlen(list), "EVNT count");
    for (size_t i = 0; i < jlen(list); i++) {
        const jm_node *ev = jm_at(list, i);
        long long id = (long long)ji(ev, "id");
        const jm_node *c = jm_get(ev, "content");
        CHECK(qn("SELECT version FROM evnt WHERE game = 'MP1' AND asset_id = %lld", id) ==
                  ji(c, "version"),
              "EVNT %08llX version", id);
        static const char *const kinds[][2] = {{"bool_poi_nodes", "bool"},
                                               {"int32_poi_nodes", "int32"},
                                               {"particle_poi_nodes", "particle"},
                                               {"sound_poi_nodes", "sound"}};
        for (int kd = 0; kd < 4; kd++) {
            const jm_node *nodes = jm_get(c, kinds[kd][0]);
            CHECK(qn("SELECT count(*) FROM events WHERE owner_type = 'EVNT' AND owner_id = %lld "
                     "AND kind = '%s'",
                     id, kinds[kd][1]) == (long)jlen(nodes),
                  "EVNT %08llX %s count", id, kinds[kd][1]);
            for (size_t k = 0; k < jlen(nodes); k++) {
                const jm_node *b = jm_get(jm_at(nodes, k), "base");
                db_bind nb = {DB_TEXT, 0, js(b, "name")};
                rowset r;
                q(&r, 1, &nb,
                  "SELECT count(*) FROM events WHERE owner_type = 'EVNT' AND owner_id = %lld AND "
                  "kind = '%s' AND node_index = %zu AND name = ?1 AND poi_type = %lld AND "
                  "char_index = %lld AND \"index\" = %lld AND unknown_u16 = %lld",
                  id, kinds[kd][1], k, (long long)ji(b, "type"),
                  (long long)ji(b, "character_index"), (long long)ji(b, "index"),
                  (long long)ji(b, "unk_1"));
                CHECK(r.n == 1 && !strcmp(r.rows[0], "1"), "EVNT %08llX %s[%zu]", id, kinds[kd][1],
                      k);
                rs_free(&r);
                if (kd == 2) {
                    const jm_node *pt = jm_get(jm_at(nodes, k), "particle");
                    CHECK(qn("SELECT particle_id FROM events WHERE owner_type = 'EVNT' AND "
                             "owner_id = %lld AND kind = 'particle' AND node_index = %zu",
                             id, k) == ji(pt, "id"),
                          "EVNT particle id");
                }
            }
        }
    }
    assert_int_equal(g_failures, 0);
}

/* ---- who references what ----------------------------------------------------------------- */

static char *g_who_sql, *g_dangling_sql;

static char *read_query(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/queries/%s.sql", tu_source_dir(), name);
    size_t len;
    uint8_t *b = tu_read_file(path, &len);
    assert_non_null(b);
    char *s = malloc(len + 1);
    memcpy(s, b, len);
    s[len] = 0;
    free(b);
    return s;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted, de-duplicated "ancs|char" strings. */
typedef struct sset {
    char *v[512];
    int n;
} sset;

static void ss_add(sset *s, long long ancs, long long ci, int null_char)
{
    char buf[64];
    if (null_char)
        snprintf(buf, sizeof buf, "%lld|-", ancs);
    else
        snprintf(buf, sizeof buf, "%lld|%lld", ancs, ci);
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->v[i], buf))
            return;
    if (s->n < 512)
        s->v[s->n++] = strdup(buf);
}

static void ss_free(sset *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->v[i]);
    s->n = 0;
}

static void compare_who(const char *game, const char *type, long long id, sset *want)
{
    db_bind b[2] = {{DB_TEXT, 0, type}, {DB_INT, id, NULL}};
    rowset r;
    q(&r, 2, b, "%s", g_who_sql);
    sset got = {.n = 0};
    size_t glen = strlen(game);
    for (int i = 0; i < r.n; i++) {
        /* game|ancs_id|ancs_id_name|char_index|... */
        if (strncmp(r.rows[i], game, glen) || r.rows[i][glen] != '|')
            continue;
        long long ancs;
        char cbuf[32];
        if (sscanf(r.rows[i] + glen + 1, "%lld|%*[^|]|%31[^|]", &ancs, cbuf) != 2)
            continue;
        ss_add(&got, ancs, atoll(cbuf), !strcmp(cbuf, "-"));
    }
    rs_free(&r);
    qsort(got.v, (size_t)got.n, sizeof got.v[0], cmp_str);
    qsort(want->v, (size_t)want->n, sizeof want->v[0], cmp_str);
    int same = got.n == want->n;
    for (int i = 0; same && i < got.n; i++)
        same = !strcmp(got.v[i], want->v[i]);
    CHECK(same, "who-references %s %s %08llX: got %d rows, want %d (first got %s, want %s)", game,
          type, id, got.n, want->n, got.n ? got.v[0] : "-", want->n ? want->v[0] : "-");
    ss_free(&got);
}

static void test_who_references(void **state)
{
    (void)state;
    NEED_CORPUS();
    g_who_sql = read_query("who-references");
    const jm_node *games = jm_get(g_truth, "games");
    long checked = 0;
    for (int g = 0; g < 2; g++) {
        const jm_node *G = jm_get(games, GAMES[g][0]);
        const jm_node *prefs = jm_get(G, "particle_refs");
        for (size_t i = 0; i < jlen(prefs); i++) {
            const jm_node *p = jm_at(prefs, i);
            sset want = {.n = 0};
            static const char *const keys[] = {"direct", "events_by_character", "third_list"};
            for (int k = 0; k < 3; k++) {
                const jm_node *l = jm_get(p, keys[k]);
                for (size_t m = 0; m < jlen(l); m++)
                    ss_add(&want, (long long)ji(jm_at(l, m), "ancs_id"),
                           (long long)ji(jm_at(l, m), "character_index"), 0);
            }
            const jm_node *sl = jm_get(p, "set_level");
            for (size_t m = 0; m < jlen(sl); m++)
                ss_add(&want, (long long)ji(jm_at(sl, m), "ancs_id"), 0, 1);
            compare_who(GAMES[g][1], js(p, "type"), (long long)ji(p, "id"), &want);
            ss_free(&want);
            checked++;
        }
        const jm_node *erefs = jm_get(G, "evnt_refs");
        for (size_t i = 0; i < jlen(erefs); i++) {
            const jm_node *p = jm_at(erefs, i);
            sset want = {.n = 0};
            const jm_node *l = jm_get(p, "characters");
            for (size_t m = 0; m < jlen(l); m++)
                ss_add(&want, (long long)ji(jm_at(l, m), "ancs_id"),
                       (long long)ji(jm_at(l, m), "character_index"), 0);
            const jm_node *sl = jm_get(p, "set_level");
            for (size_t m = 0; m < jlen(sl); m++)
                ss_add(&want, (long long)jm_at(sl, m)->i, 0, 1);
            compare_who(GAMES[g][1], "EVNT", (long long)ji(p, "id"), &want);
            ss_free(&want);
            checked++;
        }
    }
    free(g_who_sql);
    assert_true(checked > 100);
    assert_int_equal(g_failures, 0);
}

static void test_dangling(void **state)
{
    (void)state;
    NEED_CORPUS();
    g_dangling_sql = read_query("dangling-refs");
    rowset r;
    q(&r, 0, NULL, "%s", g_dangling_sql);
    free(g_dangling_sql);
    /* got: game|src_type|src_id|src_id_name|dst_type|dst_id|dst_id_name|via
     * -> distinct game|src|src_id|type|id */
    sset got = {.n = 0}, want = {.n = 0};
    for (int i = 0; i < r.n; i++) {
        char key[128];
        char gm[8], st[8], dt[8];
        long long si, di;
        if (sscanf(r.rows[i], "%7[^|]|%7[^|]|%lld|%*[^|]|%7[^|]|%lld", gm, st, &si, dt, &di) != 5)
            continue;
        snprintf(key, sizeof key, "%s|%s|%lld|%s|%lld", gm, st, si, dt, di);
        int dup = 0;
        for (int k = 0; k < got.n; k++)
            dup |= !strcmp(got.v[k], key);
        if (!dup && got.n < 512)
            got.v[got.n++] = strdup(key);
    }
    rs_free(&r);
    const jm_node *games = jm_get(g_truth, "games");
    for (int g = 0; g < 2; g++) {
        const jm_node *d = jm_get(jm_get(games, GAMES[g][0]), "dangling");
        for (size_t i = 0; i < jlen(d); i++) {
            const jm_node *x = jm_at(d, i);
            char key[128];
            snprintf(key, sizeof key, "%s|%s|%lld|%s|%lld", GAMES[g][1], js(x, "from_type"),
                     (long long)ji(x, "from_id"), js(x, "type"), (long long)ji(x, "id"));
            int dup = 0;
            for (int k = 0; k < want.n; k++)
                dup |= !strcmp(want.v[k], key);
            if (!dup && want.n < 512)
                want.v[want.n++] = strdup(key);
        }
        /* worlds: area dependencies on assets in no PAK, from their MLVL */
        const jm_node *wd = jm_get(jm_get(jm_get(g_truth, "worlds"), GAMES[g][0]), "dangling");
        for (size_t i = 0; i < jlen(wd); i++) {
            const jm_node *x = jm_at(wd, i);
            char key[128];
            snprintf(key, sizeof key, "%s|MLVL|%lld|%s|%lld", GAMES[g][1],
                     (long long)ji(x, "mlvl_id"), js(x, "type"), (long long)ji(x, "id"));
            int dup = 0;
            for (int k = 0; k < want.n; k++)
                dup |= !strcmp(want.v[k], key);
            if (!dup && want.n < 512)
                want.v[want.n++] = strdup(key);
        }
    }
    qsort(got.v, (size_t)got.n, sizeof got.v[0], cmp_str);
    qsort(want.v, (size_t)want.n, sizeof want.v[0], cmp_str);
    assert_int_equal(got.n, want.n);
    for (int i = 0; i < got.n; i++)
        assert_string_equal(got.v[i], want.v[i]);
    ss_free(&got);
    ss_free(&want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paks),           cmocka_unit_test(test_entries_and_assets),
        cmocka_unit_test(test_ancs),           cmocka_unit_test(test_evnt),
        cmocka_unit_test(test_who_references), cmocka_unit_test(test_dangling),
    };
    return tu_status(cmocka_run_group_tests(tests, setup, teardown));
}
