/* cmd_demo.c — `ancsdb demo`: the main job's embedded default. Builds two releases of each
 * game with the fixture builder (release B derived from A by recorded edits), a name map for
 * them, ingests, imports the names and prints a few answers, each through the same entry the
 * command line uses. A step whose command this build lacks is skipped with a line saying so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "db.h"
#include "fixture.h"
#include "fixture_corpus.h"

extern const char *const ancsdb_embedded_queries[][2];

static void demo_usage(FILE *f)
{
    fputs("usage: ancsdb demo [--scale F] [--seed N] [--opaque-mib N] [--build-only] [--quiet]\n"
          "                   [DIR]\n\n"
          "Builds a demo corpus with the fixture builder in DIR (default ancsdb-demo): MP1 and\n"
          "MP2 PAKs named, shaped and versioned like the real games' (MP1 characters of versions\n"
          "5 and 6, MP2 10) at SCALE times their counts (default 0.05; 1 = real-game size: MP1\n"
          "22,000 assets and 271 ANCS, MP2 21,000 and 484), in two releases of each game written\n"
          "as GameCube disc images with the retail headers: GM8E01_00.iso and GM8E01_02.iso\n"
          "(Metroid Prime NTSC 0-00 and 0-02), G2ME01_00.iso and G2MP01_00.iso (Echoes NTSC and\n"
          "PAL); the second also as GM8E01_02.rvz and the last as G2MP01_00.gcz, compressed as\n"
          "Dolphin does (RVZ: zstd, 128 KiB groups), which are ingested in place of their ISOs.\n"
          "Release B of each game has a few characters renamed, a particle swapped, an event's\n"
          "sound changed, textures changed and assets added and removed; the builder's record of\n"
          "each edit is DIR/release-changes.tsv. A Prime World Editor name map for the corpus\n"
          "goes to DIR/AssetNameMap32.xml.\n\n"
          "Then it ingests the images into DIR/corpus.db, imports the names (ancsdb names\n"
          "import), prints answers (the releases, who uses a particle, characters found by part\n"
          "of a name, release-diff and release-diff-fields of each game, a character's deps, the\n"
          "unknown-field census; when the corpus has worlds, which rooms load a character and\n"
          "a world's rooms) and writes the HTML report to DIR/report (ancsdb report),\n"
          "printing its file:// address. Each step runs the same code as its command.\n\n"
          "  --scale F        counts relative to the real games (default 0.05)\n"
          "  --seed N         generator seed (default 1); the same seed gives the same bytes\n"
          "  --opaque-mib N   MiB of non-ANCS/EVNT resources per game (default: ~1.5 KiB each)\n"
          "  --build-only     write release A's PAKs to DIR/mp1 and DIR/mp2 and stop (used by\n"
          "                   bench/run.sh and tests)\n"
          "  -q, --quiet      no progress lines\n"
          "  -h, --help       show this help\n",
          f);
}

/* ---- printing query results ------------------------------------------------------------ */

/* Prints the columns named in keep (all when NULL), at most limit rows (0: all). */
typedef struct demo_sink {
    const char *const *keep;
    long limit, rows;
    int ncols_kept;
    int cols[32];
    unsigned char is_id[32]; /* kept column named like an asset-ID column (our named queries) */
    out_table *t;
} demo_sink;

static void ds_begin(void *ctx, int ncols, const char *const *names)
{
    demo_sink *s = ctx;
    const char *kept[32];
    int n = 0;
    for (int i = 0; i < ncols && n < 32; i++) {
        int want = !s->keep;
        for (int k = 0; s->keep && s->keep[k] && !want; k++)
            want = !strcmp(s->keep[k], names[i]);
        if (want) {
            s->cols[n] = i;
            s->is_id[n] = (unsigned char)out_is_asset_column(names[i]);
            kept[n++] = names[i];
        }
    }
    s->ncols_kept = n;
    s->t = out_begin(stdout, OUT_TABLE, n, kept);
}

static int ds_row(void *ctx, int ncols, const db_cell *cells)
{
    demo_sink *s = ctx;
    if (s->limit && s->rows++ >= s->limit)
        return 0;
    for (int k = 0; k < s->ncols_kept; k++) {
        int i = s->cols[k];
        if (i >= ncols || cells[i].type == DB_NULL)
            out_null(s->t);
        else if (cells[i].type == DB_INT && s->is_id[k] && cells[i].i >= 0 &&
                 cells[i].i <= 0xFFFFFFFFll)
            out_id(s->t, (uint32_t)cells[i].i);
        else if (cells[i].type == DB_INT)
            out_int(s->t, cells[i].i);
        else if (cells[i].type == DB_REAL)
            out_real(s->t, cells[i].r);
        else
            out_text(s->t, cells[i].s ? cells[i].s : "");
    }
    out_row_end(s->t);
    return 0;
}

/* Run sql with args bound as the named query `name` binds them; print kept columns. */
static int print_query(db *d, const char *name, const char *sql, int argc, char **argv,
                       const char *const *keep, long limit)
{
    util_err e;
    util_err_clear(&e);
    cli_query_info qi;
    db_bind binds[CLI_QUERY_MAX_PARAMS];
    const char *named = cli_query_lookup(ancsdb_embedded_queries, name);
    if (cli_query_parse(&qi, named ? named : sql, &e) ||
        cli_query_binds_names(binds, &qi, argc, argv, &e)) {
        cli_error("demo: query %s: %s", name, e.msg);
        return -1;
    }
    /* a world or asset given by its name, as `ancsdb query` takes it */
    if (cli_query_resolve_names(d, binds, &qi, argc, argv, name) != EXIT_OK)
        return -1;
    demo_sink s = {keep, limit, 0, 0, {0}, {0}, NULL};
    db_sink sink = {&s, ds_begin, ds_row, NULL};
    int rc = db_exec(d, sql, qi.param_count, binds, &sink, &e);
    if (s.t)
        out_finish(s.t);
    if (limit && s.rows > limit)
        printf("... and %ld more rows\n", s.rows - limit);
    if (rc)
        cli_error("demo: query %s: %s", name, e.msg);
    return rc ? -1 : 0;
}

static void heading(const char *title, const char *name, int argc, char **argv)
{
    cli_say(stdout, "\n== %s  (ancsdb query %s", title, name);
    for (int i = 0; i < argc; i++)
        cli_say(stdout, " %s", argv[i]);
    printf(")\n");
    fflush(stdout);
}

/* A named query under a heading; skipped with a line when this build lacks it. */
static int show(db *d, const char *title, const char *name, int argc, char **argv,
                const char *const *keep, long limit)
{
    const char *sql = cli_query_lookup(ancsdb_embedded_queries, name);
    heading(title, name, argc, argv);
    if (!sql) {
        printf("(skipped: this build has no query '%s' yet)\n", name);
        return 0;
    }
    return print_query(d, name, sql, argc, argv, keep, limit);
}

/* A named query wrapped as `WITH q AS (<query>) <outer>` (outer reads q). */
static int show_wrapped(db *d, const char *title, const char *name, const char *outer,
                        const char *note)
{
    const char *q = cli_query_lookup(ancsdb_embedded_queries, name);
    printf("\n== %s  (%s)\n", title, note);
    fflush(stdout);
    if (!q) {
        printf("(skipped: this build has no query '%s' yet)\n", name);
        return 0;
    }
    size_t n = strlen(q);
    while (n && (q[n - 1] == ';' || q[n - 1] == '\n' || q[n - 1] == ' '))
        n--;
    size_t cap = n + strlen(outer) + 32;
    char *sql = malloc(cap);
    if (!sql)
        return -1;
    snprintf(sql, cap, "WITH q AS (\n%.*s\n)\n%s", (int)n, q, outer);
    int rc = print_query(d, name, sql, 0, NULL, NULL, 0);
    free(sql);
    return rc;
}

/* One integer from a single-row query (or def when there is none). */
typedef struct scalar_ctx {
    int64_t v;
    char s[128];
} scalar_ctx;

static int scalar_row(void *ctx, int ncols, const db_cell *cells)
{
    scalar_ctx *c = ctx;
    if (ncols > 0 && cells[0].type == DB_INT)
        c->v = cells[0].i;
    if (ncols > 1 && cells[1].type == DB_TEXT && cells[1].s)
        snprintf(c->s, sizeof c->s, "%s", cells[1].s);
    return 1;
}

static int64_t scalar(db *d, const char *sql, int64_t def, char *text, size_t text_cap)
{
    util_err e;
    scalar_ctx c = {def, ""};
    db_sink sink = {&c, NULL, scalar_row, NULL};
    if (db_exec(d, sql, 0, NULL, &sink, &e))
        c.v = def;
    if (text)
        snprintf(text, text_cap, "%s", c.s);
    return c.v;
}

/* ---- the demo ---------------------------------------------------------------------------- */

/* The four discs: release A and B of each game, with their retail headers. */
static const struct demo_disc {
    const char *label, *code, *title, *what;
    uint8_t revision;
    int mp2, relb;
} discs[4] = {
    {"GM8E01_00", "GM8E01", "Metroid Prime", "NTSC-U, 0-00", 0, 0, 0},
    {"GM8E01_02", "GM8E01", "Metroid Prime", "NTSC-U, 0-02", 2, 0, 1},
    {"G2ME01_00", "G2ME01", "Metroid Prime 2 Echoes", "NTSC-U", 0, 1, 0},
    {"G2MP01_00", "G2MP01", "Metroid Prime 2 Echoes", "PAL", 0, 1, 1},
};

typedef struct demo {
    const char *dir;
    int quiet;
    fixture_corpus_opts o;
    fixture_game *game[2][2]; /* [MP2][release B] */
    fixture_manifest man;
    char dbpath[4096], mappath[4096], manpath[4096];
    char images[4][4096];
    char ctr[4][4096]; /* an image as Dolphin keeps it, ingested in its place ("": the ISO) */
    int releases;      /* the build keeps releases (table `releases`): the images are ingested */
} demo;

static void demo_free(demo *dm)
{
    for (int g = 0; g < 2; g++)
        for (int r = 0; r < 2; r++)
            fixture_game_free(dm->game[g][r]);
    fixture_manifest_free(&dm->man);
}

#define DEMO_GCZ_BLOCK (32u << 10)
#define DEMO_RVZ_CHUNK (128u << 10) /* Dolphin's default for RVZ */

/* Build both releases of both games, write them as disc images (the second also as an RVZ,
 * the last as a GCZ), the name map and the fixture's record of what release B changed. */
static int build(demo *dm, util_err *e)
{
    fixture_corpus_stats st;
    memset(&st, 0, sizeof st);
    for (int g = 0; g < 2; g++)
        if (fixture_game_build(&dm->game[g][0], g, &dm->o, &st, NULL, e) ||
            fixture_release_b(&dm->game[g][1], dm->game[g][0], dm->o.seed, &dm->man, e))
            return -1;
    cli_say(stdout,
            "built %ld ANCS (%ld characters) and %ld EVNT per release; release B of each game "
            "differs from A by the edits listed in %s:\n",
            st.ancs, st.characters, st.evnt, dm->manpath);
    for (int i = 0; i < 4; i++) {
        const struct demo_disc *x = &discs[i];
        fixture_corpus_stats ds;
        memset(&ds, 0, sizeof ds);
        snprintf(dm->images[i], sizeof dm->images[i], "%s/%s.iso", dm->dir, x->label);
        if (fixture_game_write_disc(dm->game[x->mp2][x->relb], dm->images[i], x->code, x->revision,
                                    x->title, &ds, e))
            return -1;
        cli_say(stdout, "  %-22s  %-22s  %-12s  release %c  %2ld PAKs  %4.1f MiB\n", dm->images[i],
                x->title, x->what, x->relb ? 'B' : 'A', ds.paks, (double)ds.bytes / 1048576.0);
    }
    /* the discs as Dolphin's users keep them, read in place: the second as an RVZ (zstd), the
     * last as a GCZ */
    static const fixture_wia_opts rvz = {.rvz = 1, .method = 5, .chunk_size = DEMO_RVZ_CHUNK};
    static const struct {
        int disc, rvz;
        const char *ext, *what;
    } kept[] = {{1, 1, "rvz", "an RVZ (Dolphin's default: zstd, 128 KiB groups)"},
                {3, 0, "gcz", "a GCZ (Dolphin's older format: zlib, 32 KiB blocks)"}};
    for (size_t k = 0; k < sizeof kept / sizeof kept[0]; k++) {
        int i = kept[k].disc;
        snprintf(dm->ctr[i], sizeof dm->ctr[i], "%s/%s.%s", dm->dir, discs[i].label, kept[k].ext);
        struct stat cst;
        if ((kept[k].rvz ? fixture_wia_write(dm->images[i], dm->ctr[i], &rvz, e)
                         : fixture_gcz_write(dm->images[i], dm->ctr[i], DEMO_GCZ_BLOCK, e)) ||
            stat(dm->ctr[i], &cst))
            return -1;
        cli_say(stdout, "  %-22s  the same disc as %s, %4.1f MiB: ingested in place of its ISO\n",
                dm->ctr[i], kept[k].what, (double)cst.st_size / 1048576.0);
    }
    fixture_game *all[4] = {dm->game[0][0], dm->game[0][1], dm->game[1][0], dm->game[1][1]};
    size_t names = 0;
    if (fixture_names_write_games(dm->mappath, all, 4, &names, e))
        return -1;
    cli_say(stdout, "  %s: a name map naming %zu of their assets\n", dm->mappath, names);
    FILE *f = util_create_file(dm->manpath, e);
    if (!f)
        return -1;
    fixture_manifest_write(f, &dm->man);
    if (fclose(f) != 0)
        return util_fail(e, UTIL_EIO, UINT64_MAX, "cannot write %s", dm->manpath);
    return 0;
}

/* Ingest the four images (the second from its RVZ, the last from its GCZ); a build whose ingest
 * keeps no releases gets release A's PAKs as folders instead. */
static int ingest(demo *dm, db *d, db_ingest_stats *is, util_err *e)
{
    char p[2][4096];
    const char *paths[4];
    int n = 0;
    int releases = dm->releases =
        scalar(d, "SELECT count(*) FROM sqlite_master WHERE name = 'releases'", 0, NULL, 0) > 0;
    if (releases) {
        for (int i = 0; i < 4; i++)
            paths[n++] = dm->ctr[i][0] ? dm->ctr[i] : dm->images[i];
    } else {
        for (int g = 0; g < 2; g++) {
            snprintf(p[g], sizeof p[g], "%s/%s", dm->dir, g ? "mp2" : "mp1");
            if (fixture_game_write_paks(dm->game[g][0], p[g], NULL, NULL, e))
                return -1;
            paths[n++] = p[g];
        }
    }
    db_ingest_opts io = {.game = PAK_GAME_UNKNOWN,
                         .jobs = 0,
                         .quiet = dm->quiet,
                         .progress = !dm->quiet && isatty(2) ? cli_ingest_progress : NULL,
                         .progress_ctx = stderr,
                         .rehash = 0,
                         .log = cli_ingest_log,
                         .log_ctx = stderr};
    memset(is, 0, sizeof *is);
    if (db_ingest_paths(d, paths, n, &io, is, e))
        return -1;
    cli_say(stdout,
            "ingested %ld PAKs (%ld skipped as unchanged), %ld resources, %ld ANCS, %ld EVNT, "
            "%ld characters, %ld errors, %ld warnings in %.2f s into %s\n",
            is->paks_ingested, is->paks_skipped, is->resources, is->ancs, is->evnt, is->characters,
            is->errors, is->warnings, is->seconds, dm->dbpath);
    if (!releases)
        cli_say(stdout,
                "(this build's ingest reads no disc images and keeps no releases: it read "
                "release A's PAKs from %s and %s)\n",
                p[0], p[1]);
    return 0;
}

/* Run a subcommand with the given arguments, stdout flushed around it. */
static int run_command(cli_command_fn fn, int argc, char **argv)
{
    fflush(stdout);
    int rc = fn(argc, argv);
    fflush(stdout);
    return rc;
}

static int import_names(demo *dm)
{
    char *argv[] = {"names", "import", "--db", dm->dbpath, dm->mappath, NULL};
    int rc = run_command(cmd_names, 5, argv);
    return rc == EXIT_OK ? 0 : -1;
}

static int build_report(demo *dm)
{
    char out[4096];
    snprintf(out, sizeof out, "%s/report", dm->dir);
    char *argv[] = {"report", "--db", dm->dbpath, "-o", out, NULL};
    cli_say(stdout, "\n== The HTML report  (ancsdb report --db %s -o %s)\n", dm->dbpath, out);
    fflush(stdout);
    int rc = run_command(cmd_report, 5, argv);
    if (rc != EXIT_OK)
        return -1;
    char cwd[4096] = "";
    if (out[0] != '/' && !getcwd(cwd, sizeof cwd))
        cwd[0] = '\0';
    const char *rel = out;
    while (rel[0] == '.' && rel[1] == '/')
        rel += 2;
    cli_say(stdout, "report: file://%s%s%s/index.html\n", cwd, cwd[0] ? "/" : "", rel);
    return 0;
}

/* The condensed census of the whole corpus: one line per field (`ancsdb query unknown-census`
 * lists every value, per release too). */
static const char census_outer[] =
    "SELECT field, sum(game = 'MP1') AS mp1_values, (SELECT value FROM q q2 WHERE q2.game = "
    "'MP1' AND q2.field = q.field AND q2.release = '(all)' ORDER BY q2.count DESC, q2.value "
    "LIMIT 1) AS mp1_most_common, sum(game = 'MP2') AS mp2_values, (SELECT value FROM q q2 "
    "WHERE q2.game = 'MP2' AND q2.field = q.field AND q2.release = '(all)' ORDER BY q2.count "
    "DESC, q2.value LIMIT 1) AS mp2_most_common FROM q WHERE release = '(all)' GROUP BY field "
    "ORDER BY field";

/* corpus-summary (game, release, item, count) as one line per release, '(all)' per game. */
static const char summary_pivot[] =
    "SELECT game, release, max(CASE item WHEN 'paks' THEN count END) AS paks, "
    "max(CASE item WHEN 'entries' THEN count END) AS entries, "
    "max(CASE item WHEN 'assets' THEN count END) AS assets, "
    "max(CASE item WHEN 'ancs_decoded' THEN count END) AS ancs, "
    "max(CASE item WHEN 'characters' THEN count END) AS characters, "
    "max(CASE item WHEN 'evnt_decoded' THEN count END) AS evnt, "
    "ifnull(max(CASE item WHEN 'load_errors' THEN count END), 0) AS errors "
    "FROM q GROUP BY game, release ORDER BY game, release <> '(all)', release";

/* Where a character is loaded and a world's areas, when the corpus has worlds (MLVL); nothing
 * otherwise. */
static int worlds_answers(db *d)
{
    int rc = 0;
    char wname[256] = "";
    int64_t worlds = scalar(d, "SELECT count(*) FROM mlvl_worlds", 0, NULL, 0);
    if (worlds <= 0) /* nothing to show: no world of the corpus decoded */
        return 0;
    /* the ANCS loaded in the most (area, layer) places, with its first character's name */
    char name[128] = "";
    int64_t ancs = scalar(d,
                          "SELECT d.asset_id, (SELECT c.name FROM characters c WHERE c.game = "
                          "d.game AND c.ancs_id = d.asset_id ORDER BY c.char_index LIMIT 1) FROM "
                          "area_deps d WHERE d.type = 'ANCS' GROUP BY d.game, d.asset_id ORDER "
                          "BY count(*) DESC, d.asset_id LIMIT 1",
                          -1, name, sizeof name);
    if (ancs >= 0) {
        char idbuf[32], type[] = "ANCS", title[192];
        snprintf(idbuf, sizeof idbuf, "0x%08llX", (unsigned long long)(ancs & 0xFFFFFFFF));
        char *wargv[] = {type, idbuf};
        snprintf(title, sizeof title, "Which rooms load %s", name[0] ? name : "this character");
        static const char *const cols[] = {"game",        "world", "area_index", "area",
                                           "layer_index", "layer", "active",     NULL};
        rc |= show(d, title, "where-loaded", 2, wargv, cols, 10);
    }
    /* the world with the most areas */
    if (scalar(d,
               "SELECT area_count, name FROM worlds WHERE name IS NOT NULL ORDER BY area_count "
               "DESC, name LIMIT 1",
               -1, wname, sizeof wname) >= 0 &&
        wname[0]) {
        char *aargv[] = {wname};
        char title[320];
        snprintf(title, sizeof title, "The rooms of %s", wname);
        static const char *const cols[] = {"game",   "area_index",    "name",         "mrea_id",
                                           "layers", "active_layers", "dependencies", NULL};
        rc |= show(d, title, "areas", 1, aargv, cols, 12);
    }
    return rc;
}

static int answers(demo *dm, db *d)
{
    int rc = 0;
    if (dm->releases)
        rc |= show_wrapped(d, "The releases", "corpus-summary", summary_pivot,
                           "ancsdb query corpus-summary, one line per release and per game");
    else
        rc |= show_wrapped(d, "What the corpus holds", "corpus-summary",
                           "SELECT * FROM q WHERE item NOT LIKE 'assets.%'",
                           "ancsdb query corpus-summary; without the per-type asset counts");
    /* a particle that some character reaches only through its animations' events */
    int64_t part = scalar(d,
                          "SELECT dst_id FROM asset_refs WHERE src_type IN ('EVNT','ANCS') AND "
                          "dst_type = 'PART' AND dst_id NOT IN (SELECT particle_id FROM "
                          "particle_refs) GROUP BY dst_id ORDER BY count(*) DESC, dst_id LIMIT 1",
                          -1, NULL, 0);
    if (part < 0)
        part = scalar(d, "SELECT particle_id FROM particle_refs ORDER BY particle_id LIMIT 1", -1,
                      NULL, 0);
    if (part >= 0) {
        char idbuf[32], type[] = "PART";
        snprintf(idbuf, sizeof idbuf, "0x%08llX", (unsigned long long)(part & 0xFFFFFFFF));
        char *qargv[] = {type, idbuf};
        rc |= show(d, "Which characters use this particle", "who-references", 2, qargv, NULL, 8);
    }
    /* a character found by part of its name: the start of one that release B renames */
    char frag[16] = "pirate";
    for (size_t i = 0; i < dm->man.field_count; i++)
        if (!strcmp(dm->man.fields[i].field, "characters.name")) {
            const char *s = dm->man.fields[i].value_a;
            size_t k = 0;
            for (; s[k] && k < 5; k++)
                frag[k] = (char)(s[k] >= 'A' && s[k] <= 'Z' ? s[k] - 'A' + 'a' : s[k]);
            frag[k] = '\0';
            break;
        }
    char *cargv[] = {frag};
    static const char *const char_cols[] = {"game",         "release",    "releases", "ancs_id",
                                            "ancs_id_name", "char_index", "name",     NULL};
    rc |= show(d, "Characters by part of a name", "character", 1, cargv, char_cols, 8);
    static const char *const rel[2][2] = {{"GM8E01_00", "GM8E01_02"}, {"G2ME01_00", "G2MP01_00"}};
    for (int g = 0; g < 2; g++) {
        char *rargv[] = {(char *)rel[g][0], (char *)rel[g][1]};
        rc |= show(d, g ? "What changed in Echoes, NTSC to PAL" : "What changed from 0-00 to 0-02",
                   "release-diff", 2, rargv, NULL, 12);
        rc |= show(d, "Which decoded values changed", "release-diff-fields", 2, rargv, NULL, 12);
    }
    /* the dependencies of the first character of the first MP1 ANCS */
    char idbuf[32] = "", name[128] = "";
    int64_t ancs = scalar(d,
                          "SELECT ancs_id, name FROM characters WHERE game = 'MP1' ORDER BY "
                          "ancs_id, char_index LIMIT 1",
                          -1, name, sizeof name);
    if (ancs >= 0) {
        snprintf(idbuf, sizeof idbuf, "0x%08llX", (unsigned long long)(ancs & 0xFFFFFFFF));
        char zero[] = "0";
        char *dargv[] = {idbuf, zero};
        char title[192];
        snprintf(title, sizeof title, "What %s needs", name[0] ? name : "this character");
        static const char *const dep_cols[] = {"dst_type", "dst_id", "dst_id_name", "via", NULL};
        rc |= show(d, title, "deps", 2, dargv, dep_cols, 10);
    }
    rc |= worlds_answers(d);
    rc |= show_wrapped(
        d, "Fields known only as 'unknown', one line each", "unknown-census", census_outer,
        "distinct values and the most common per game; every value: ancsdb query unknown-census");
    return rc ? -1 : 0;
}

int cmd_demo(int argc, char **argv)
{
    demo dm;
    memset(&dm, 0, sizeof dm);
    dm.o = (fixture_corpus_opts){.seed = 1, .scale = 0.05, .opaque_bytes = 0, .games = 3};
    /* --images-only (not in the help: for bench/run.sh): write the four disc images, the
     * name map and the edit record to DIR and stop, at any --scale and --opaque-mib. */
    enum { O_HELP, O_BUILD_ONLY, O_IMAGES_ONLY, O_QUIET, O_SCALE, O_SEED, O_OPAQUE };
    static const cli_option opts[] = {{"help", 'h', 0, O_HELP},
                                      {"build-only", 0, 0, O_BUILD_ONLY},
                                      {"images-only", 0, 0, O_IMAGES_ONLY},
                                      {"quiet", 'q', 0, O_QUIET},
                                      {"scale", 0, 1, O_SCALE},
                                      {"seed", 0, 1, O_SEED},
                                      {"opaque-mib", 0, 1, O_OPAQUE},
                                      {0}};
    int build_only = 0, images_only = 0, k;
    cli_args a;
    cli_args_init(&a, "demo", argc, argv);
    while ((k = cli_next(&a, opts)) != CLI_END) {
        const char *v = a.value;
        char *end;
        double x;
        switch (k) {
        case CLI_ERR:
            return EXIT_USAGE;
        case O_HELP:
            demo_usage(stdout);
            return EXIT_OK;
        case O_BUILD_ONLY:
            build_only = 1;
            break;
        case O_IMAGES_ONLY:
            images_only = 1;
            break;
        case O_QUIET:
            dm.quiet = 1;
            break;
        case O_SCALE:
        case O_SEED:
        case O_OPAQUE:
            x = strtod(v, &end);
            if (!*v || *end || !(x >= 0) || (k == O_SCALE && (x <= 0 || x > 100))) {
                cli_error("demo: bad value '%s' for %s", v, a.opt);
                return EXIT_USAGE;
            }
            if (k == O_SCALE)
                dm.o.scale = x;
            else if (k == O_SEED)
                dm.o.seed = (uint64_t)x;
            else
                dm.o.opaque_bytes = (uint64_t)(x * 1048576.0);
            break;
        default:
            if (dm.dir) {
                cli_error("demo: more than one folder given");
                return EXIT_USAGE;
            }
            dm.dir = v;
        }
    }
    if (!dm.dir)
        dm.dir = "ancsdb-demo";

    util_err e;
    util_err_clear(&e);
    if (!dm.quiet)
        cli_say(stderr, "ancsdb demo: building a demo corpus in %s (scale %g)\n", dm.dir,
                dm.o.scale);
    if (build_only) {
        fixture_corpus_stats st;
        if (fixture_corpus_build(dm.dir, &dm.o, &st, dm.quiet ? NULL : stderr, &e)) {
            cli_error("demo: %s", e.msg);
            return EXIT_FATAL;
        }
        if (!dm.quiet)
            fprintf(stderr,
                    "ancsdb demo: %ld PAKs, %ld entries, %ld assets, %ld ANCS (%ld characters), "
                    "%ld EVNT, %.1f MiB\n",
                    st.paks, st.entries, st.assets, st.ancs, st.characters, st.evnt,
                    (double)st.bytes / 1048576.0);
        return EXIT_OK;
    }
    if (mkdir(dm.dir, 0777) != 0 && access(dm.dir, W_OK) != 0) {
        cli_error("demo: cannot create %s", dm.dir);
        return EXIT_FATAL;
    }
    snprintf(dm.dbpath, sizeof dm.dbpath, "%s/corpus.db", dm.dir);
    snprintf(dm.mappath, sizeof dm.mappath, "%s/AssetNameMap32.xml", dm.dir);
    snprintf(dm.manpath, sizeof dm.manpath, "%s/release-changes.tsv", dm.dir);
    if (build(&dm, &e)) {
        cli_error("demo: %s", e.msg);
        demo_free(&dm);
        return EXIT_FATAL;
    }
    if (images_only) {
        demo_free(&dm);
        return EXIT_OK;
    }

    db *d = NULL;
    if (db_open(&d, dm.dbpath, DB_OPEN_READWRITE, &e)) {
        cli_error("demo: cannot open %s: %s", dm.dbpath, e.msg);
        demo_free(&dm);
        return EXIT_FATAL;
    }
    db_ingest_stats is;
    if (ingest(&dm, d, &is, &e)) {
        cli_error("demo: ingest failed: %s", e.msg);
        db_close(d);
        demo_free(&dm);
        return EXIT_FATAL;
    }
    /* names go in through the command, on its own connection */
    db_close(d);
    d = NULL;
    int rc = import_names(&dm);
    if (db_open(&d, dm.dbpath, DB_OPEN_READONLY, &e)) {
        cli_error("demo: cannot open %s: %s", dm.dbpath, e.msg);
        demo_free(&dm);
        return EXIT_FATAL;
    }
    rc |= answers(&dm, d);
    db_close(d);
    rc |= build_report(&dm);
    cli_say(stdout,
            "\nThe database is %s: try `ancsdb query --db %s --list` or `ancsdb sql --db %s "
            "\"SELECT ...\"`.\n",
            dm.dbpath, dm.dbpath, dm.dbpath);
    demo_free(&dm);
    return rc ? EXIT_FATAL : (is.errors ? EXIT_PARTIAL : EXIT_OK);
}
