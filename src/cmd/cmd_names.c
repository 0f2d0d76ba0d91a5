/* cmd_names.c — `ancsdb names import` and `ancsdb names export`: Prime World Editor asset
 * name maps in and out of the asset_names table (db_names_* in db.h). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "db.h"

static const char names_usage[] =
    "usage: ancsdb names import [--db FILE] MAP.xml...\n"
    "       ancsdb names export [--db FILE] [-o MAP.xml]\n"
    "\n"
    "import reads Prime World Editor asset name maps (AssetNameMap32.xml) into the table\n"
    "asset_names of the database (default corpus.db; created when absent), one row per\n"
    "<Asset> with source = the map's file name. Importing a file of the same name again\n"
    "replaces its names. A map that is not well-formed (truncated, another root element, a\n"
    "Key that is not 8 hex digits) is refused with its line number and changes nothing.\n"
    "A Type that disagrees with the asset's type in the PAKs is kept and counted.\n"
    "\n"
    "export writes every named asset as such a map (to MAP.xml, or standard output): one\n"
    "<Asset> per asset ID with the name shown beside IDs (a map's name, else the PAK name).\n"
    "\n"
    "Wherever a named query or a v_ view prints an asset ID, its name stands beside it in a\n"
    "column <column>_name (a map's directory + name, else the PAK name).\n"
    "\n"
    "options:\n"
    "  --db FILE        database file (default corpus.db)\n"
    "  -o, --output F   export: write the map to F instead of standard output\n"
    "  -h, --help       show this help\n"
    "\n"
    "exit status: 0 ok, 1 some maps were refused, 2 usage error (also: a MAP that does\n"
    "             not exist), 3 fatal (database\n"
    "             unusable, write error)\n";

enum { OPT_DB = 256 };

static int names_import(const char *dbpath, int n, char **maps)
{
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    for (int i = 0; i < n; i++) /* a map that does not exist: a usage error, nothing opened */
        if (access(maps[i], F_OK) != 0 && errno == ENOENT) {
            cli_error("names import: %s: no such file", maps[i]);
            return EXIT_USAGE;
        }
    if (cli_open_db(&d, "names", dbpath, DB_OPEN_READWRITE, NULL, &e) != EXIT_OK)
        return EXIT_FATAL;
    int rc = EXIT_OK;
    for (int i = 0; i < n && rc != EXIT_FATAL; i++) {
        db_names_stats st;
        util_err_clear(&e);
        int r = db_names_import(d, maps[i], &st, &e);
        if (r == UTIL_EFORMAT) {
            if (st.line)
                cli_error("%s:%lu: %s", maps[i], st.line, e.msg);
            else
                cli_error("%s: %s", maps[i], e.msg);
            rc = EXIT_PARTIAL;
            continue;
        }
        if (r == UTIL_EIO) {
            cli_error("%s", e.msg);
            rc = EXIT_PARTIAL;
            continue;
        }
        if (r != 0) {
            cli_error("%s: %s", maps[i], e.msg);
            rc = EXIT_FATAL;
            break;
        }
        cli_say(stderr, "%s: %ld names", maps[i], st.rows);
        if (st.replaced)
            fprintf(stderr, " (replacing %ld)", st.replaced);
        fputc('\n', stderr);
        if (st.duplicates)
            cli_error("%s: warning: %ld Keys given more than once (the last one kept)", maps[i],
                      st.duplicates);
        if (st.type_mismatches)
            cli_error("%s: warning: %ld names give a Type other than the asset's type in the "
                      "PAKs (kept)",
                      maps[i], st.type_mismatches);
    }
    db_close(d);
    return rc;
}

static int names_export(const char *dbpath, const char *out)
{
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    if (cli_open_db(&d, "names", dbpath, DB_OPEN_READONLY, NULL, &e) != EXIT_OK)
        return EXIT_FATAL;
    FILE *f = stdout;
    if (out) {
        /* never through a symbolic link: O_NOFOLLOW refuses one as the last component */
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 || !(f = fdopen(fd, "w"))) {
            int saved = errno;
            if (fd >= 0)
                close(fd);
            cli_error("names: cannot write %s: %s", out,
                      saved == ELOOP ? "it is a symbolic link (not written through)"
                                     : strerror(saved));
            db_close(d);
            return EXIT_FATAL;
        }
    }
    long count = 0;
    int r = db_names_export(d, f, &count, &e);
    if (out && fclose(f) != 0 && r == 0)
        r = util_fail(&e, UTIL_EIO, UINT64_MAX, "write error");
    db_close(d);
    if (r != 0) {
        cli_error("names export: %s%s%s", out ? out : "", out ? ": " : "", e.msg);
        if (out)
            remove(out);
        return EXIT_FATAL;
    }
    if (out)
        cli_say(stderr, "%s: %ld names\n", out, count);
    return EXIT_OK;
}

int cmd_names(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, OPT_DB},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *dbpath = "corpus.db", *out = NULL;
    int c;
    opterr = 0;
    optind = 0; /* glibc: full re-initialisation */
    while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_DB:
            dbpath = optarg;
            break;
        case 'o':
            out = optarg;
            break;
        case 'h':
            fputs(names_usage, stdout);
            return EXIT_OK;
        case ':':
            cli_error("names: %s needs a value", argv[optind - 1]);
            return EXIT_USAGE;
        default:
            cli_error("names: unknown option '%s'", argv[optind - 1]);
            fputs(names_usage, stderr);
            return EXIT_USAGE;
        }
    }
    int npos = argc - optind;
    char **pos = argv + optind;
    if (npos >= 1 && !strcmp(pos[0], "import")) {
        if (out) {
            cli_error("names import: -o is an export option");
            return EXIT_USAGE;
        }
        if (npos < 2) {
            cli_error("names import: give at least one MAP.xml");
            fputs(names_usage, stderr);
            return EXIT_USAGE;
        }
        return names_import(dbpath, npos - 1, pos + 1);
    }
    if (npos >= 1 && !strcmp(pos[0], "export")) {
        if (npos != 1) {
            cli_error("names export: unexpected argument '%s'", pos[1]);
            return EXIT_USAGE;
        }
        return names_export(dbpath, out);
    }
    if (npos == 0)
        cli_error("names: say import or export");
    else
        cli_error("names: unknown action '%s' (import or export)", pos[0]);
    fputs(names_usage, stderr);
    return EXIT_USAGE;
}
