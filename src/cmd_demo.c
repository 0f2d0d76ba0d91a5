/* cmd_demo.c — `ancsdb demo`: the main job's embedded default. Builds a demo corpus of MP1
 * and MP2 PAKs with the fixture builder, ingests it, and prints a few answers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "db.h"
#include "fixture_corpus.h"

extern const char *const ancsdb_embedded_queries[][2];

static void demo_usage(FILE *f)
{
    fputs("usage: ancsdb demo [--scale F] [--seed N] [--opaque-mib N] [--build-only] [--quiet]\n"
          "                   [DIR]\n\n"
          "Builds a demo corpus of MP1 and MP2 PAK files in DIR/mp1 and DIR/mp2 (default DIR:\n"
          "ancsdb-demo) with the fixture builder: PAK names, character versions (MP1 5 and 6,\n"
          "MP2 10) and asset mixes like the real games, at SCALE times their counts (default\n"
          "0.1; 1 = real-game size: MP1 22,000 assets and 271 ANCS, MP2 21,000 and 484).\n"
          "Then ingests it into DIR/corpus.db and prints the corpus summary, who references a\n"
          "particle that characters reach through their events, and the unknown-field census.\n\n"
          "  --scale F        counts relative to the real games (default 0.1)\n"
          "  --seed N         generator seed (default 1); the same seed gives the same bytes\n"
          "  --opaque-mib N   MiB of non-ANCS/EVNT resources per game (default: ~1.5 KiB each)\n"
          "  --build-only     write the PAKs and stop (used by bench/run.sh)\n"
          "  --quiet          no progress lines\n",
          f);
}

static int show(db *d, const char *title, const char *name, int argc, char **argv)
{
    util_err e;
    util_err_clear(&e);
    const char *sql = db_query_lookup(ancsdb_embedded_queries, name);
    db_query_info qi;
    db_bind binds[DB_QUERY_MAX_PARAMS];
    if (!sql || db_query_parse(&qi, sql, &e) || db_query_binds(binds, &qi, argc, argv, &e)) {
        cli_error("query %s: %s", name, sql ? e.msg : "not found");
        return -1;
    }
    printf("\n== %s  (ancsdb query %s", title, name);
    for (int i = 0; i < argc; i++)
        printf(" %s", argv[i]);
    printf(")\n");
    fflush(stdout);
    if (cli_print_sql(d, stdout, OUT_TABLE, sql, qi.param_count, binds, &e)) {
        cli_error("query %s: %s", name, e.msg);
        return -1;
    }
    return 0;
}

/* The census condensed to one line per field: how many distinct values, how often the field
 * occurs, and its most common value (`ancsdb query unknown-census` lists every value). */
static int census_summary(db *d)
{
    const char *census = db_query_lookup(ancsdb_embedded_queries, "unknown-census");
    if (!census)
        return -1;
    size_t n = strlen(census);
    while (n && (census[n - 1] == ';' || census[n - 1] == '\n' || census[n - 1] == ' '))
        n--;
    static const char head[] = "WITH c AS (\n";
    static const char tail[] =
        "\n)\nSELECT game, field, count(*) AS distinct_values, sum(count) AS occurrences, "
        "(SELECT value FROM c c2 WHERE c2.game = c.game AND c2.field = c.field ORDER BY "
        "c2.count DESC, c2.value LIMIT 1) AS most_common FROM c GROUP BY game, field "
        "ORDER BY field, game";
    char *sql = malloc(sizeof head + n + sizeof tail);
    if (!sql)
        return -1;
    memcpy(sql, head, sizeof head - 1);
    memcpy(sql + sizeof head - 1, census, n);
    memcpy(sql + sizeof head - 1 + n, tail, sizeof tail);
    printf("\n== Fields known only as 'unknown', one line each  (every value: ancsdb query "
           "unknown-census)\n");
    fflush(stdout);
    util_err e;
    util_err_clear(&e);
    int rc = cli_print_sql(d, stdout, OUT_TABLE, sql, 0, NULL, &e);
    if (rc)
        cli_error("census: %s", e.msg);
    free(sql);
    return rc ? -1 : 0;
}

/* One integer from a single-row query (or def when there is none). */
static int64_t scalar_cb_value;
static int scalar_row(void *ctx, int ncols, const db_cell *cells)
{
    (void)ctx;
    if (ncols > 0 && cells[0].type == DB_INT)
        scalar_cb_value = cells[0].i;
    return 1;
}

static int64_t scalar(db *d, const char *sql, int64_t def)
{
    util_err e;
    scalar_cb_value = def;
    db_sink sink = {NULL, NULL, scalar_row, NULL};
    if (db_exec(d, sql, 0, NULL, &sink, &e))
        return def;
    return scalar_cb_value;
}

int cmd_demo(int argc, char **argv)
{
    fixture_corpus_opts o = {.seed = 1, .scale = 0.1, .opaque_bytes = 0, .games = 3};
    int build_only = 0, quiet = 0;
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            demo_usage(stdout);
            return EXIT_OK;
        } else if (!strcmp(a, "--build-only")) {
            build_only = 1;
        } else if (!strcmp(a, "--quiet")) {
            quiet = 1;
        } else if ((!strcmp(a, "--scale") || !strcmp(a, "--seed") || !strcmp(a, "--opaque-mib")) &&
                   i + 1 < argc) {
            char *end;
            const char *v = argv[++i];
            double x = strtod(v, &end);
            if (*end || x < 0 || (!strcmp(a, "--scale") && (x <= 0 || x > 100))) {
                cli_error("demo: bad value '%s' for %s", v, a);
                return EXIT_USAGE;
            }
            if (!strcmp(a, "--scale"))
                o.scale = x;
            else if (!strcmp(a, "--seed"))
                o.seed = (uint64_t)x;
            else
                o.opaque_bytes = (uint64_t)(x * 1048576.0);
        } else if (a[0] == '-') {
            cli_error("demo: unknown option '%s'", a);
            demo_usage(stderr);
            return EXIT_USAGE;
        } else if (!dir) {
            dir = a;
        } else {
            cli_error("demo: more than one folder given");
            return EXIT_USAGE;
        }
    }
    if (!dir)
        dir = "ancsdb-demo";

    util_err e;
    util_err_clear(&e);
    fixture_corpus_stats st;
    if (!quiet)
        fprintf(stderr, "ancsdb demo: building a demo corpus in %s (scale %g)\n", dir, o.scale);
    if (fixture_corpus_build(dir, &o, &st, quiet ? NULL : stderr, &e)) {
        cli_error("demo: %s", e.msg);
        return EXIT_FATAL;
    }
    if (!quiet)
        fprintf(stderr,
                "ancsdb demo: %ld PAKs, %ld entries, %ld assets, %ld ANCS (%ld characters), "
                "%ld EVNT, %.1f MiB\n",
                st.paks, st.entries, st.assets, st.ancs, st.characters, st.evnt,
                (double)st.bytes / 1048576.0);
    if (build_only)
        return EXIT_OK;

    char dbpath[4096];
    snprintf(dbpath, sizeof dbpath, "%s/corpus.db", dir);
    db *d = NULL;
    if (db_open(&d, dbpath, DB_OPEN_READWRITE, &e)) {
        cli_error("demo: cannot open %s: %s", dbpath, e.msg);
        return EXIT_FATAL;
    }
    char p1[4096], p2[4096];
    snprintf(p1, sizeof p1, "%s/mp1", dir);
    snprintf(p2, sizeof p2, "%s/mp2", dir);
    const char *paths[] = {p1, p2};
    db_ingest_opts io = {.game = PAK_GAME_UNKNOWN,
                         .jobs = 0,
                         .quiet = quiet,
                         .progress = !quiet && isatty(2),
                         .rehash = 0,
                         .log = stderr};
    db_ingest_stats is;
    memset(&is, 0, sizeof is);
    if (db_ingest_paths(d, paths, 2, &io, &is, &e)) {
        cli_error("demo: ingest failed: %s", e.msg);
        db_close(d);
        return EXIT_FATAL;
    }
    printf("ingested %ld PAKs (%ld skipped as unchanged), %ld resources, %ld ANCS, %ld EVNT, "
           "%ld characters, %ld errors, %ld warnings in %.2f s into %s\n",
           is.paks_ingested, is.paks_skipped, is.resources, is.ancs, is.evnt, is.characters,
           is.errors, is.warnings, is.seconds, dbpath);

    int rc = show(d, "What the corpus holds", "corpus-summary", 0, NULL);
    /* a particle that some character reaches only through its animations' events */
    int64_t part = scalar(d,
                          "SELECT dst_id FROM asset_refs WHERE src_type IN ('EVNT','ANCS') AND "
                          "dst_type = 'PART' AND dst_id NOT IN (SELECT particle_id FROM "
                          "particle_refs) GROUP BY dst_id ORDER BY count(*) DESC, dst_id LIMIT 1",
                          -1);
    if (part < 0)
        part = scalar(d, "SELECT particle_id FROM particle_refs ORDER BY particle_id LIMIT 1", -1);
    if (part >= 0) {
        char idbuf[32], type[] = "PART";
        snprintf(idbuf, sizeof idbuf, "0x%08llX", (unsigned long long)(part & 0xFFFFFFFF));
        char *qargv[] = {type, idbuf};
        rc |= show(d, "Which characters use this particle", "who-references", 2, qargv);
    }
    rc |= census_summary(d);
    db_close(d);
    printf("\nThe database is %s: try `ancsdb query --db %s --list` or `ancsdb sql --db %s "
           "\"SELECT ...\"`.\n",
           dbpath, dbpath, dbpath);
    return rc ? EXIT_FATAL : (is.errors ? EXIT_PARTIAL : EXIT_OK);
}
