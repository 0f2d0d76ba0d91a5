/* main.c — ancsdb: argv dispatch to the subcommands. */
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

#ifndef ANCSDB_VERSION /* set by CMakeLists.txt from project(VERSION) */
#error "ANCSDB_VERSION is not defined"
#endif

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} commands[] = {
    {"demo", cmd_demo, "build a demo corpus of MP1/MP2 PAKs, ingest it, show answers"},
    {"ingest", cmd_ingest, "load discs, containers, PAK files or folders into the database"},
    {"query", cmd_query, "run a named research query (query --list shows them)"},
    {"sql", cmd_sql, "run read-only SQL against the database"},
    {"pak", cmd_pak, "list or extract the resources of one PAK"},
    {"ancs", cmd_ancs, "decode one ANCS, EVNT, MLVL or STRG and print its whole structure"},
    {"disc", cmd_disc, "list a GameCube disc's header and files (image, RVZ/WIA/GCZ/CISO)"},
    {"graph", cmd_graph, "draw a character's dependencies as Graphviz DOT or SVG"},
    {"export", cmd_export, "one ANCS, character or EVNT as a nested JSON document"},
    {"names", cmd_names, "import or export asset name maps (AssetNameMap32.xml)"},
    {"report", cmd_report, "write a static HTML report of the database (charts, graphs)"},
};

static void usage(FILE *f)
{
    fputs("usage: ancsdb [--version] [--help] COMMAND [ARGS...]\n\n"
          "Turns Metroid Prime 1/2 discs and PAK files into a SQLite database of every ANCS,\n"
          "EVNT, MLVL and STRG.\n\n"
          "commands:\n",
          f);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fputs("\n'ancsdb COMMAND --help' describes each command.\n"
          "exit status: 0 ok, 1 some inputs failed (see load_errors), 2 usage, 3 fatal\n",
          f);
}

int main(int argc, char **argv)
{
#ifdef M_MMAP_THRESHOLD
    /* Buffers of 1 MiB and more (a large entry's stored and inflated bytes) are mapped and
     * given back when freed. By default glibc raises that threshold to the largest block
     * freed so far, after which such buffers come from the threads' heaps, which keep them:
     * an ingest ending with 150 entries of 1 to 12 MiB peaked at 93 MiB, now at 70-74 MiB
     * (the first 10x real-size folders and bench_bigpak's PAKs; docs/benchmark.md). Mapping
     * costs page faults: 0.3 s more for those 150 entries alone, nothing for the fixture's,
     * all under 0.5 MB. */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("ancsdb %s\n", ANCSDB_VERSION);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].fn(argc - 1, argv + 1);
    cli_error("unknown command '%s'", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
