/* report_main.c — `ancsdb report [--db FILE] -o DIR`: options, Graphviz detection, the run and
 * its progress (see report.h). */
#include <errno.h>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "db.h"
#include "report.h"

extern char **environ;

static const char report_usage[] =
    "usage: ancsdb report [--db FILE] [--jobs N] [--quiet] -o DIR\n"
    "\n"
    "Writes a static HTML report of the database into DIR: a new or empty folder, or one that\n"
    "holds an earlier report, which is replaced (a folder holding anything else is refused).\n"
    "The report is made in a private folder inside DIR and moved into place when complete, so\n"
    "links planted in DIR are replaced, never written through. It opens from file:// in any\n"
    "browser with no server and no network: DIR/index.html shows the corpus per release and\n"
    "game with a chart of assets per type, every animated character set, and a search box\n"
    "over every character and asset by name or ID; census.html charts each unknown field's\n"
    "values per game; one page per ANCS lists its characters, draws their dependency graph\n"
    "(with Graphviz's `dot` when installed, else as a nested list) and links every asset they\n"
    "reach to a page of its own saying where it is stored, who reaches it and where it is\n"
    "loaded; one page per world lists its areas, their layers and what each loads. Over an\n"
    "earlier report, a graph whose DOT text is unchanged is taken from it, not drawn again,\n"
    "and a file whose bytes are unchanged is the earlier report's file itself (linked, not\n"
    "copied). Progress goes to stderr; the path of index.html to stdout.\n"
    "\n"
    "options:\n"
    "  --db FILE     database file (default corpus.db)\n"
    "  -o, --output DIR\n"
    "                folder to write (required)\n"
    "  -j, --jobs N  Graphviz processes, and threads writing pages, at once (1 to 64,\n"
    "                default: the cores online)\n"
    "  -q, --quiet   no progress lines\n"
    "  -h, --help    show this help\n"
    "\n"
    "exit status: 0 ok, 2 usage error, 3 fatal (no database, cannot write DIR)\n";

/* 1 when `dot -V` runs; what it said (its version line, on stderr) into version. */
static int find_dot(char *version, size_t size)
{
    version[0] = 0;
    int fds[2];
    if (pipe(fds) != 0)
        return 0;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    char *argv[] = {"dot", "-V", NULL};
    pid_t pid;
    int ok = 0;
    if (posix_spawnp(&pid, "dot", &fa, NULL, argv, environ) == 0) {
        close(fds[1]);
        fds[1] = -1;
        size_t len = 0;
        int eol = 0;
        ssize_t k;
        char buf[256];
        while ((k = read(fds[0], buf, sizeof buf)) != 0) {
            if (k < 0 && errno == EINTR)
                continue;
            if (k < 0)
                break;
            for (ssize_t i = 0; i < k; i++) { /* the first line, printable bytes */
                eol |= buf[i] == '\n';
                if (!eol && len + 1 < size && buf[i] >= 0x20 && buf[i] < 0x7f)
                    version[len++] = buf[i];
            }
        }
        version[len] = 0;
        int st;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
        ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    }
    posix_spawn_file_actions_destroy(&fa);
    close(fds[0]);
    if (fds[1] >= 0)
        close(fds[1]);
    return ok;
}

/* The cores online (the default --jobs), 1 to 64. */
static int cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

int cmd_report(int argc, char **argv)
{
    const char *dbpath = "corpus.db", *dir = NULL;
    int jobs = cores(), quiet = 0;
    enum { O_HELP, O_QUIET, O_DB, O_OUTPUT, O_JOBS };
    static const cli_option opts[] = {{"help", 'h', 0, O_HELP}, {"quiet", 'q', 0, O_QUIET},
                                      {"db", 0, 1, O_DB},       {"output", 'o', 1, O_OUTPUT},
                                      {"jobs", 'j', 1, O_JOBS}, {0}};
    cli_args a;
    int k;
    cli_args_init(&a, "report", argc, argv);
    while ((k = cli_next(&a, opts)) != CLI_END) {
        const char *v = a.value;
        if (k == CLI_ERR) {
            return EXIT_USAGE;
        } else if (k == O_HELP) {
            fputs(report_usage, stdout);
            return EXIT_OK;
        } else if (k == O_QUIET) {
            quiet = 1;
        } else if (k == O_DB) {
            dbpath = v;
        } else if (k == O_OUTPUT) {
            dir = v;
        } else if (k == O_JOBS) {
            char *end;
            long n = strtol(v, &end, 10);
            if (!*v || *end || n < 1 || n > 64) {
                cli_error("report: --jobs must be 1 to 64, not '%s'", v);
                return EXIT_USAGE;
            }
            jobs = (int)n;
        } else {
            cli_error("report: unexpected argument '%s'", v);
            fputs(report_usage, stderr);
            return EXIT_USAGE;
        }
    }
    if (!dir || !*dir) {
        cli_error("report: say where to write it: -o DIR");
        fputs(report_usage, stderr);
        return EXIT_USAGE;
    }
    report r;
    memset(&r, 0, sizeof r);
    r.dirfd = r.stagefd = r.subfd = r.oldsubfd = -1;
    r.dbpath = dbpath;
    util_err_clear(&r.err);
    if (cli_open_db(&r.d, "report", dbpath, DB_OPEN_READONLY, NULL, &r.err) != EXIT_OK)
        return EXIT_FATAL;
    if (rep_stage_begin(&r, dir) != 0) {
        cli_error("report: %s", r.err.msg);
        rep_stage_abort(&r);
        db_close(r.d);
        return EXIT_FATAL;
    }
    const char *base = strrchr(dbpath, '/');
    r.dbname = base ? base + 1 : dbpath;
    r.jobs = jobs;
    r.quiet = quiet;
    r.progress = isatty(2);
    r.have_dot = find_dot(r.dot_version, sizeof r.dot_version);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    r.t0 = (double)t0.tv_sec + (double)t0.tv_nsec / 1e9;
    if (!quiet && !r.have_dot)
        fprintf(stderr, "report: Graphviz 'dot' not found (apt-get install graphviz): graphs "
                        "are drawn as nested lists\n");
#ifdef M_TRIM_THRESHOLD
    /* Every query makes and frees SQLite page caches and sorters; glibc would give the freed
     * memory back to the kernel at once and fault it in again on the next query (a tenth of
     * the CPU of a report at 10x). Up to 8 MiB of freed memory is kept (per thread). */
    mallopt(M_TRIM_THRESHOLD, 8 << 20);
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
#endif
    int rc = rep_write_css(&r);
    if (!rc)
        rc = rep_write_ancs_pages(&r);
    if (!rc)
        rc = rep_write_asset_pages(&r);
    util_test_point("report_assets"); /* tests stop a run here (ANCSDB_TEST_KILL_AFTER) */
    if (!rc)
        rc = rep_write_world_pages(&r);
    if (!rc)
        rc = rep_write_census(&r);
    if (!rc)
        rc = rep_write_index(&r);
    if (!rc)
        rc = rep_write_search(&r);
    if (!rc)
        rc = rep_stage_commit(&r);
    rep_stage_abort(&r);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    int status = EXIT_OK;
    if (rc) {
        if (r.progress && !quiet)
            fputc('\n', stderr);
        cli_error("report: %s", r.err.msg);
        status = EXIT_FATAL;
    } else {
        double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        if (!quiet)
            cli_say(stderr,
                    "report: %ld files, %.1f MiB in %s (%.1f s); graphs: %ld drawn, %ld reused\n",
                    r.pages, (double)r.bytes / 1048576.0, dir, secs, r.drawn, r.reused);
        cli_say(stdout, "%s/index.html\n", dir);
    }
    rep_free(&r);
    db_close(r.d);
    if (fflush(stdout) != 0)
        status = EXIT_FATAL;
    return status;
}
