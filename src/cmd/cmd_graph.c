/* cmd_graph.c — `ancsdb graph`: a character's dependency tree, or everything that reaches
 * one asset, as Graphviz DOT or SVG (rendered by Graphviz's `dot`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "db.h"
#include "graph.h"

static const char graph_usage[] =
    "usage: ancsdb graph [--db FILE] [--release LABEL] [--format dot|svg] [--game MP1|MP2]\n"
    "                    ANCS_ID[:CHAR_INDEX]\n"
    "       ancsdb graph [--db FILE] [--release LABEL] [--format dot|svg] --who TYPE ID\n"
    "\n"
    "Draws the dependency tree of the characters of an ANCS (or of one character): the ANCS,\n"
    "its characters, their model, skin, skeleton, frozen model and skin, CSPP, particle lists\n"
    "and effects, the animations they use, each animation's ANIMs, in MP1 each ANIM's EVNT and\n"
    "in MP2 the animation's event set, and the particles and sounds of their events. With\n"
    "--who, everything that reaches the asset TYPE ID instead, and the worlds (MLVL) whose\n"
    "areas load it, an edge per area and script layer. Node labels carry the type, the\n"
    "hex ID and the name; an asset shared by several paths is drawn once; a graph over 500\n"
    "nodes is cut, with a note saying how many were left out.\n"
    "\n"
    "options:\n"
    "  --db FILE        database file (default corpus.db)\n"
    "  --format dot     Graphviz DOT on stdout (default)\n"
    "  --format svg     SVG on stdout, rendered by Graphviz's `dot -Tsvg` (Debian package\n"
    "                   graphviz)\n"
    "  --game G         only the ANCS of game G (MP1 or MP2) when both games have its ID\n"
    "  --release LABEL  as one release holds it (releases.label, e.g. GM8E01_00; several\n"
    "                   labels separated by commas: those releases); without\n"
    "                   it, an ANCS held by several releases is drawn from its newest content\n"
    "  --who TYPE ID    what reaches the asset (TYPE a FourCC such as PART, ID as 0x1A2B3C4D,\n"
    "                   1A2B3C4D or decimal, or the asset's name)\n"
    "  -h, --help       show this help\n"
    "\n"
    "exit status: 0 ok, 1 nothing found, 2 usage error, 3 fatal (no database, no Graphviz\n"
    "             for svg)\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("ancsdb: graph: ", stderr);
    cli_say(stderr, fmt, arg);
    fputc('\n', stderr);
    fputs(graph_usage, stderr);
    return EXIT_USAGE;
}

/* "1A2B3C4D", "1A2B3C4D:2", "NAME" or "NAME:2": the ANCS part is cut off at the colon (in
 * place) when a character index follows it. */
static int parse_target(char *arg, int64_t *ci)
{
    char *colon = strrchr(arg, ':');
    *ci = -1;
    if (colon) {
        char *end;
        long long v = strtoll(colon + 1, &end, 10);
        if (!colon[1] || *end || v < 0 || v > INT32_MAX)
            return -1;
        *ci = v;
        *colon = 0;
    }
    return *arg ? 0 : -1;
}

int cmd_graph(int argc, char **argv)
{
    const char *dbpath = "corpus.db";
    const char *game = NULL;
    int svg = 0, who = 0;
    char *pos[3];
    int npos = 0, k;
    const char *release = NULL;
    enum { O_HELP, O_WHO, O_DB, O_GAME, O_FORMAT, O_RELEASE };
    static const cli_option opts[] = {{"help", 'h', 0, O_HELP},
                                      {"who", 0, 0, O_WHO},
                                      {"db", 0, 1, O_DB},
                                      {"game", 0, 1, O_GAME},
                                      {"format", 0, 1, O_FORMAT},
                                      {"release", 0, 1, O_RELEASE},
                                      {0}};
    cli_args a;
    cli_args_init(&a, "graph", argc, argv);
    while ((k = cli_next(&a, opts)) != CLI_END) {
        const char *v = a.value;
        if (k == CLI_ERR) {
            return EXIT_USAGE;
        } else if (k == CLI_POS) {
            if (npos == 3)
                return usage_error("too many arguments ('%s')", v);
            pos[npos++] = (char *)v;
        } else if (k == O_HELP) {
            fputs(graph_usage, stdout);
            return EXIT_OK;
        } else if (k == O_WHO) {
            who = 1;
        } else if (k == O_DB) {
            dbpath = v;
        } else if (k == O_RELEASE) {
            release = v;
        } else if (k == O_GAME) {
            if (!strcmp(v, "MP1") || !strcmp(v, "mp1"))
                game = "MP1";
            else if (!strcmp(v, "MP2") || !strcmp(v, "mp2"))
                game = "MP2";
            else
                return usage_error("--game must be MP1 or MP2, not '%s'", v);
        } else if (k == O_FORMAT) {
            if (!strcmp(v, "svg"))
                svg = 1;
            else if (!strcmp(v, "dot"))
                svg = 0;
            else
                return usage_error("unknown format '%s' (dot or svg)", v);
        }
    }
    uint32_t id = 0;
    int64_t ci = -1;
    char type[8] = "";
    if (who) {
        if (npos != 2)
            return usage_error("%s", "--who takes TYPE and ID");
        uint32_t fc;
        snprintf(type, sizeof type, "%s", pos[0]);
        for (char *c = type; *c; c++)
            if (*c >= 'a' && *c <= 'z')
                *c = (char)(*c - 'a' + 'A');
        if (util_fourcc_parse(type, &fc))
            return usage_error("'%s' is not a FourCC (4 characters, e.g. PART)", pos[0]);
    } else {
        if (npos != 1)
            return usage_error("%s", "give one ANCS_ID[:CHAR_INDEX] (or --who TYPE ID)");
        if (parse_target(pos[0], &ci))
            return usage_error("'%s' is not ANCS_ID or ANCS_ID:CHAR_INDEX", pos[0]);
    }

    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    int orc = cli_open_db(&d, "graph", dbpath, DB_OPEN_READONLY, release, &e);
    if (orc != EXIT_OK)
        return orc;
    /* an ID, or the asset's name (cli_asset_arg: the rule of every command) */
    int arc = cli_asset_arg(d, "graph", who ? pos[1] : pos[0], who ? type : "ANCS", &id);
    if (arc != EXIT_OK) {
        db_close(d);
        return arc;
    }
    graph g;
    graph_init(&g);
    int rc = EXIT_OK;
    long found = 0;
    char name[64];
    if (who) {
        snprintf(name, sizeof name, "who %s %08X", type, id);
        if (graph_add_who(&g, d, type, id, &found, &e)) {
            cli_error("graph: %s", e.msg);
            rc = EXIT_FATAL;
            goto done;
        }
        if (!found) {
            cli_error("graph: nothing references %s %08X", type, id);
            rc = EXIT_PARTIAL;
            goto done;
        }
    } else {
        if (ci >= 0)
            snprintf(name, sizeof name, "ANCS %08X character %lld", id, (long long)ci);
        else
            snprintf(name, sizeof name, "ANCS %08X", id);
        if (graph_add_ancs(&g, d, game, id, ci, &e)) {
            cli_error("graph: %s", e.msg);
            rc = EXIT_FATAL;
            goto done;
        }
        if (g.nnodes == 0) {
            if (ci >= 0)
                cli_error("graph: no character %lld in ANCS %08X", (long long)ci, id);
            else
                cli_error("graph: no ANCS %08X with characters in the database", id);
            rc = EXIT_PARTIAL;
            goto done;
        }
    }
    if (!svg) {
        graph_write_dot(&g, stdout, name, NULL, NULL);
    } else {
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        if (!m) {
            cli_error("graph: out of memory");
            rc = EXIT_FATAL;
            goto done;
        }
        graph_write_dot(&g, m, name, NULL, NULL);
        fclose(m);
        fflush(stdout);
        int r = graph_render_svg(buf, len, STDOUT_FILENO, &e);
        free(buf);
        if (r < 0) {
            cli_error("graph: %s", e.msg);
            rc = EXIT_FATAL;
        } else if (r == 1) {
            cli_error("graph: Graphviz 'dot' not found; install it (apt-get install graphviz) "
                      "or use --format dot");
            rc = EXIT_FATAL;
        }
    }
    if (fflush(stdout) != 0) {
        cli_error("graph: write error on stdout");
        rc = EXIT_FATAL;
    }
done:
    graph_free(&g);
    db_close(d);
    return rc;
}
