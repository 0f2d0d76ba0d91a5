/* cmd_ingest.c — `ancsdb ingest`: load discs, containers, PAK files or folders into the
 * SQLite database. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "db.h"

static const char ingest_usage[] =
    "usage: ancsdb ingest [--db FILE] [--release LABEL] [--game auto|MP1|MP2] [--jobs N]\n"
    "                     [--memory MIB] [--quiet] [--rehash] PATH...\n"
    "\n"
    "Reads every PAK (a PATH that is a .pak file, a GameCube disc image (ISO/GCM and\n"
    "Dolphin's containers), whose PAKs are read in place, a folder extracted by Dolphin, or a\n"
    "folder searched recursively for *.pak and disc images in any case; symbolic links to\n"
    "folders are followed once), hashes every entry, decodes every ANCS, EVNT, MLVL and\n"
    "STRG, and writes rows into the database (default corpus.db in the working\n"
    "directory, created when missing). A PATH may also be a GameCube disc image, or a disc\n"
    "kept in an RVZ, WIA, GCZ or CISO container (recognised by its magic; folders are\n"
    "searched for *.iso *.gcm *.rvz *.wia *.gcz *.ciso too), or a folder extracted by\n"
    "Dolphin: its PAKs are read in place, nothing is extracted or converted. WBFS, NKit and\n"
    "Wii discs are refused with a load_errors row (--memory also bounds a container's\n"
    "cached blocks: a 32nd of it, 1 to 8 MiB, but always the last two, and a block larger\n"
    "than a quarter of it is refused). Each PAK is replaced in one\n"
    "transaction, so a re-run never duplicates rows. A PAK whose size, modification time\n"
    "and table hash are unchanged is skipped (only its tables are read; --rehash reads\n"
    "every byte). Into a database that holds no PAK yet, every PAK's rows are one\n"
    "transaction and the final pass (assets, census, reach, world references) two more; a\n"
    "run killed during the final pass leaves it to the next ingest of the same paths.\n"
    "Each distinct ANCS, EVNT, MLVL and STRG of a game\n"
    "is decoded once (its first copy); other copies are compared by a hash of their\n"
    "inflated bytes and differences recorded in `warnings` (code copy_differs).\n"
    "Faults (unreadable PAK, entry that does not inflate, resource that does not decode) are\n"
    "written to `load_errors` and to stderr (file, entry, type, ID, stage, byte offset); the\n"
    "rest is still loaded.\n"
    "\n"
    "options:\n"
    "  --db FILE        database file (default corpus.db)\n"
    "  --release LABEL  the release of PATHs that are not disc images (default: the base name\n"
    "                   of the PATH, of its folder for a PAK file); a disc image or extracted\n"
    "                   disc is the release its header names (GM8E01_00)\n"
    "  --game G         auto (default: detect per PAK from its bytes), MP1 or MP2. A PAK whose\n"
    "                   game cannot be told and that holds no compressed entry and no ANCS\n"
    "                   takes the game of most PAKs in its folder (MP1 if none tells), with a\n"
    "                   warning (game_unknown); one that holds them is rejected: use --game\n"
    "  --jobs N         N threads read, inflate and decode while one thread writes the\n"
    "                   database (default: the number of cores; 1 = all on one thread).\n"
    "                   The rows are the same whatever N is\n"
    "  --memory MIB     at most MIB MiB of entry data (stored, inflated, and the decoder's\n"
    "                   copy) in flight across the threads (default 256): a thread waits for\n"
    "                   room rather than allocate past it (each also keeps up to 2 MiB\n"
    "                   for the entries it does not decode); an ANCS, EVNT, MLVL or STRG\n"
    "                   needing more is a load_errors row. Any other entry needing more,\n"
    "                   or holding over 1 MiB when over 8 MiB of such would be held at\n"
    "                   once, is read, inflated and hashed a window at a time (0.5 MiB)\n"
    "  -q, --quiet      no progress bar and no per-fault lines (the summary still prints)\n"
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

void cli_ingest_log(void *ctx, const char *line)
{
    util_text_printf(ctx, "%s\n", line);
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
    fprintf(f, "\r\033[K[%s] %zu/%zu ", bar, done, total);
    cli_say(f, "%s", base_name(path));
    fflush(f);
}

/* Paths that do not exist are a usage error, found before the database is opened (so none
 * is created). */
static int check_paths(const char **paths, int npaths)
{
    int bad = 0;
    for (int i = 0; i < npaths; i++) {
        struct stat sb;
        if (stat(paths[i], &sb) != 0 && errno == ENOENT) {
            cli_error("ingest: %s: no such file or folder", paths[i]);
            bad = 1;
        }
    }
    return bad;
}

/* path as one shell word: unchanged when it holds only characters no shell treats specially,
 * else in single quotes with each ' written as '\'' (ending the quotes, an escaped quote,
 * reopening them). */
static void shell_word(char *out, size_t n, const char *path)
{
    size_t o = 0;
    int plain = *path != '\0';
    for (const char *c = path; *c && plain; c++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./+,:@%=",
                       *c) != NULL;
    if (n == 0)
        return;
    if (plain) {
        snprintf(out, n, "%s", path);
        return;
    }
#define PUT(ch)                                                                                    \
    do {                                                                                           \
        if (o + 1 < n)                                                                             \
            out[o++] = (ch);                                                                       \
    } while (0)
    PUT('\'');
    for (const char *c = path; *c; c++) {
        if (*c == '\'') {
            PUT('\'');
            PUT('\\');
            PUT('\'');
        }
        PUT(*c);
    }
    PUT('\'');
#undef PUT
    out[o] = '\0';
}

/* "ancsdb query warnings" or, with another database, "ancsdb query --db X warnings" (X a
 * shell word). */
static void command_for(char *out, size_t n, const char *dbpath, const char *what)
{
    char word[1200];
    if (!strcmp(dbpath, "corpus.db")) {
        snprintf(out, n, "ancsdb %s", what);
        return;
    }
    shell_word(word, sizeof word, dbpath);
    snprintf(out, n, "ancsdb %.*s --db %s%s", (int)strcspn(what, " "), what, word,
             what + strcspn(what, " "));
}

static int count_row(void *ctx, int ncols, const db_cell *c)
{
    if (ncols > 0 && c[0].type == DB_INT)
        *(long *)ctx = (long)c[0].i;
    return 1;
}

/* Warnings in the database after the run (def when it cannot be counted). */
static long warning_count(db *d, long def)
{
    long n = def;
    db_sink sink = {&n, NULL, count_row, NULL};
    util_err e;
    if (db_exec(d, "SELECT count(*) FROM warnings", 0, NULL, &sink, &e) != 0)
        return def;
    return n;
}

static void say_waiting(void *ctx, const char *path)
{
    (void)ctx;
    cli_error("waiting for another ingest of %s", path);
}

int cmd_ingest(int argc, char **argv)
{
    enum { O_HELP, O_QUIET, O_REHASH, O_DB, O_GAME, O_JOBS, O_MEMORY, O_RELEASE };
    static const cli_option opts[] = {
        {"help", 'h', 0, O_HELP},   {"quiet", 'q', 0, O_QUIET},   {"rehash", 0, 0, O_REHASH},
        {"db", 0, 1, O_DB},         {"game", 0, 1, O_GAME},       {"jobs", 'j', 1, O_JOBS},
        {"memory", 0, 1, O_MEMORY}, {"release", 0, 1, O_RELEASE}, {0}};
    const char *dbpath = "corpus.db";
    /* Default: one worker thread per core (the writer mostly waits for them). With the
     * workers handing over batches of jobs this is the fastest setting on an idle machine and
     * about even with --jobs 1 on a loaded one (docs/benchmark.md: the --jobs rows). */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    static volatile sig_atomic_t stop;
    db_ingest_opts o = {.game = PAK_GAME_UNKNOWN,
                        .jobs = cores < 1    ? 1
                                : cores > 64 ? 64
                                             : (int)cores,
                        .log = cli_ingest_log,
                        .log_ctx = stderr,
                        .stop = &stop};
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    int npaths = 0, rc = EXIT_OK, k;
    db *d = NULL;
    util_err e;
    cli_args a;
    util_err_clear(&e);
    if (!paths) {
        cli_error("ingest: out of memory");
        return EXIT_FATAL;
    }
    cli_args_init(&a, "ingest", argc, argv);
    while ((k = cli_next(&a, opts)) != CLI_END) {
        const char *v = a.value;
        switch (k) {
        case CLI_ERR:
            rc = EXIT_USAGE;
            goto done;
        case CLI_POS:
            paths[npaths++] = v;
            break;
        case O_HELP:
            fputs(ingest_usage, stdout);
            goto done;
        case O_QUIET:
            o.quiet = 1;
            break;
        case O_REHASH:
            o.rehash = 1;
            break;
        case O_DB:
            dbpath = v;
            break;
        case O_RELEASE:
            if (!*v) {
                cli_error("ingest: --release needs a label");
                rc = EXIT_USAGE;
                goto done;
            }
            o.release = v;
            break;
        case O_GAME:
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
            break;
        case O_JOBS: {
            char *end;
            long n = strtol(v, &end, 10);
            if (*v == '\0' || *end || n < 1 || n > 64) {
                cli_error("ingest: --jobs needs a number from 1 to 64, not '%s'", v);
                rc = EXIT_USAGE;
                goto done;
            }
            o.jobs = (int)n;
            break;
        }
        case O_MEMORY: {
            char *end;
            long n = strtol(v, &end, 10);
            if (*v == '\0' || *end || n < 1 || n > 1048576) {
                cli_error("ingest: --memory needs a number of MiB from 1 to 1048576, not '%s'", v);
                rc = EXIT_USAGE;
                goto done;
            }
            o.memory = (size_t)n << 20;
            break;
        }
        }
    }
    if (npaths == 0) {
        cli_error("ingest: give at least one .pak file or folder");
        fputs(ingest_usage, stderr);
        rc = EXIT_USAGE;
        goto done;
    }
    if (check_paths(paths, npaths)) {
        rc = EXIT_USAGE;
        goto done;
    }
    if (!o.quiet && isatty(STDERR_FILENO)) {
        o.progress = cli_ingest_progress;
        o.progress_ctx = stderr;
    }
    /* A reader of stderr that goes away (`2>&1 | head -c1`) must not kill the run before
     * its commit: write errors on the log are ignored (EPIPE), not a signal. */
    signal(SIGPIPE, SIG_IGN);
    if (db_open_wait(&d, dbpath, DB_OPEN_READWRITE, say_waiting, NULL, &e) != 0) {
        cli_error("ingest: %s", e.msg);
        rc = EXIT_FATAL;
        goto done;
    }
    cli_catch_sigint(&stop);
    db_ingest_stats st;
    int r = db_ingest_paths(d, paths, npaths, &o, &st, &e);
    char warns[1600] = "", cmd[1500];
    long total = warning_count(d, st.warnings);
    if (total > 0) {
        command_for(cmd, sizeof cmd, dbpath, "query warnings");
        if (total == st.warnings)
            snprintf(warns, sizeof warns, " (%s lists them)", cmd);
        else
            snprintf(warns, sizeof warns, " (%ld new; %s lists them)", st.warnings, cmd);
    }
    char elsewhere[160] = "";
    if (st.paks_elsewhere > 0)
        snprintf(elsewhere, sizeof elsewhere,
                 "; %ld of them read from another copy of the same release, nothing changed",
                 st.paks_elsewhere);
    cli_say(stderr,
            "ingest: %ld PAKs (%ld changed, %ld unchanged%s), %ld resources, %ld ANCS, "
            "%ld EVNT, %ld characters, %ld errors, %ld warnings%s, %.2f s\n",
            st.paks_seen, st.paks_ingested, st.paks_skipped, elsewhere, st.resources, st.ancs,
            st.evnt, st.characters, st.errors, total, warns, st.seconds);
    if (st.errors > 0) {
        command_for(cmd, sizeof cmd, dbpath, "sql \"SELECT * FROM v_load_errors\"");
        cli_error("ingest: %ld input%s could not be read: %s lists them", st.errors,
                  st.errors == 1 ? "" : "s", cmd);
    }
    if (r != 0) {
        cli_error("ingest: fatal: %s", e.msg);
        rc = EXIT_FATAL;
    } else if (st.interrupted) {
        cli_error("ingest: interrupted: %ld PAK%s committed, the rest are read on the next run",
                  st.paks_ingested + st.paks_skipped,
                  st.paks_ingested + st.paks_skipped == 1 ? "" : "s");
        rc = EXIT_INTERRUPTED;
    } else if (st.paks_seen == 0 && st.errors == 0) { /* (a failed input was named above) */
        char list[1024] = "";
        for (int i = 0; i < npaths; i++) {
            size_t n = strlen(list);
            snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", paths[i]);
        }
        cli_error("no PAK files under %s", list);
        rc = EXIT_PARTIAL;
    } else if (st.errors > 0) {
        rc = EXIT_PARTIAL;
    }
done:
    db_close(d);
    free(paths);
    return rc;
}
