/* cmd_ingest.c — `ancsdb ingest`: load PAK files or folders into the SQLite database. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "db.h"

static const char ingest_usage[] =
    "usage: ancsdb ingest [--db FILE] [--game auto|MP1|MP2] [--jobs N] [--quiet] [--rehash]\n"
    "                     PATH...\n"
    "\n"
    "Reads every PAK (a PATH that is a .pak file, or a folder searched recursively for *.pak\n"
    "in any case; symbolic links to folders are followed once), inflates and decodes every\n"
    "ANCS and EVNT, and writes rows into the database (default corpus.db in the working\n"
    "directory, created when missing). Each PAK is replaced in one transaction, so a re-run\n"
    "never duplicates rows. A PAK whose size, modification time and table hash are unchanged\n"
    "is skipped (only its tables are read; --rehash reads every byte). Into a database that\n"
    "holds no PAK yet the whole run is one transaction. Each distinct ANCS/EVNT of a game\n"
    "is decoded once (its first copy); other copies are compared by a hash of their\n"
    "inflated bytes and differences recorded in `warnings` (code copy_differs).\n"
    "Faults (unreadable PAK, entry that does not inflate, resource that does not decode) are\n"
    "written to `load_errors` and to stderr (file, entry, type, ID, stage, byte offset); the\n"
    "rest is still loaded.\n"
    "\n"
    "options:\n"
    "  --db FILE        database file (default corpus.db)\n"
    "  --game G         auto (default: detect per PAK from its bytes), MP1 or MP2. A PAK whose\n"
    "                   game cannot be told and that holds no compressed entry and no ANCS\n"
    "                   takes the game of most PAKs in its folder (MP1 if none tells), with a\n"
    "                   warning (game_unknown); one that holds them is rejected: use --game\n"
    "  --jobs N         N threads inflate and decode ANCS/EVNT while one thread writes the\n"
    "                   database (default: the number of cores; 1 = all on one thread).\n"
    "                   The rows are the same whatever N is\n"
    "  --quiet          no progress bar and no per-fault lines (the summary still prints)\n"
    "  --rehash         also compare a hash of every byte before skipping an unchanged PAK\n"
    "  -h, --help       show this help\n"
    "\n"
    "A progress bar is drawn on stderr when it is a terminal; a one-line summary always ends\n"
    "the run.\n"
    "\n"
    "exit status: 0 ok, 1 some inputs were rejected in this run (see load_errors),\n"
    "             2 usage error, 3 fatal (cannot open the database, write failure, disk full)\n";

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void cli_ingest_progress(void *ctx, size_t done, size_t total, const char *path)
{
    FILE *f = ctx;
    if (!path) { /* a line follows on the same stream, or the run ended */
        fputs("\r\033[K", f);
        return;
    }
    int width = 30, fill = (int)(done * (size_t)width / (total ? total : 1));
    char bar[64];
    for (int i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[width] = 0;
    fprintf(f, "\r\033[K[%s] %zu/%zu %s", bar, done, total, base_name(path));
    fflush(f);
}

int cmd_ingest(int argc, char **argv)
{
    const char *dbpath = "corpus.db";
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    db_ingest_opts o = {.game = PAK_GAME_UNKNOWN,
                        .jobs = cores < 1    ? 1
                                : cores > 64 ? 64
                                             : (int)cores,
                        .log = stderr};
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    int npaths = 0, rc = EXIT_OK, only_paths = 0;
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    if (!paths) {
        cli_error("ingest: out of memory");
        return EXIT_FATAL;
    }
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *v;
        if (only_paths || argv[i][0] != '-' || !argv[i][1]) {
            paths[npaths++] = argv[i];
        } else if (!strcmp(argv[i], "--")) {
            only_paths = 1;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(ingest_usage, stdout);
            goto done;
        } else if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")) {
            o.quiet = 1;
        } else if (!strcmp(argv[i], "--rehash")) {
            o.rehash = 1;
        } else if ((v = cli_opt_value(argc, argv, &i, "--db", &missing)) != NULL) {
            dbpath = v;
        } else if ((v = cli_opt_value(argc, argv, &i, "--game", &missing)) != NULL) {
            if (!strcasecmp(v, "auto"))
                o.game = PAK_GAME_UNKNOWN;
            else if (!strcasecmp(v, "MP1"))
                o.game = PAK_GAME_MP1;
            else if (!strcasecmp(v, "MP2"))
                o.game = PAK_GAME_MP2;
            else {
                cli_error("ingest: --game must be auto, MP1 or MP2, not '%s'", v);
                rc = EXIT_USAGE;
                goto done;
            }
        } else if ((v = cli_opt_value(argc, argv, &i, "--jobs", &missing)) != NULL) {
            char *end;
            long n = strtol(v, &end, 10);
            if (*v == '\0' || *end || n < 1 || n > 1024) {
                cli_error("ingest: --jobs needs a number from 1 to 1024, not '%s'", v);
                rc = EXIT_USAGE;
                goto done;
            }
            o.jobs = (int)n;
        } else if (missing) {
            cli_error("ingest: %s needs a value", argv[i]);
            rc = EXIT_USAGE;
            goto done;
        } else {
            cli_error("ingest: unknown option '%s'", argv[i]);
            fputs(ingest_usage, stderr);
            rc = EXIT_USAGE;
            goto done;
        }
    }
    if (npaths == 0) {
        cli_error("ingest: give at least one .pak file or folder");
        fputs(ingest_usage, stderr);
        rc = EXIT_USAGE;
        goto done;
    }
    if (!o.quiet && isatty(STDERR_FILENO)) {
        o.progress = cli_ingest_progress;
        o.progress_ctx = stderr;
    }
    if (db_open(&d, dbpath, DB_OPEN_READWRITE, &e) != 0) {
        cli_error("ingest: %s", e.msg);
        rc = EXIT_FATAL;
        goto done;
    }
    db_ingest_stats st;
    int r = db_ingest_paths(d, paths, npaths, &o, &st, &e);
    fprintf(stderr,
            "ingest: %ld paks (%ld written, %ld unchanged), %ld resources, %ld ANCS, "
            "%ld EVNT, %ld characters, %ld errors, %ld warnings, %.2f s\n",
            st.paks_seen, st.paks_ingested, st.paks_skipped, st.resources, st.ancs, st.evnt,
            st.characters, st.errors, st.warnings, st.seconds);
    if (r != 0) {
        cli_error("ingest: fatal: %s", e.msg);
        rc = EXIT_FATAL;
    } else if (st.errors > 0) {
        rc = EXIT_PARTIAL;
    }
done:
    db_close(d);
    free(paths);
    return rc;
}
