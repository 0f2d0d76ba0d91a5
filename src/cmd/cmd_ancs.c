/* cmd_ancs.c — `ancsdb ancs dump`: read one ANCS, EVNT, MLVL or STRG (a raw file, a PAK
 * entry, a PAK inside a disc), decode it and print it (dump.h: what is printed). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ancs.h"
#include "cli.h"
#include "disc.h"
#include "disc_arg.h"
#include "dump.h"
#include "pak.h"
#include "world.h"

static int looks_evnt(const char *path, const uint8_t *buf, size_t len)
{
    size_t n = strlen(path);
    if (n >= 5 && (!strcmp(path + n - 5, ".evnt") || !strcmp(path + n - 5, ".EVNT")))
        return 1;
    return len >= 4 && buf[0] == 0 && buf[1] == 0 && buf[2] == 0 && (buf[3] == 1 || buf[3] == 2);
}

/* ---- argv and input -------------------------------------------------------------------- */

static void usage(FILE *f)
{
    fputs("usage: ancsdb ancs dump [--game auto|MP1|MP2] [--json] FILE | FILE.pak:ID |\n"
          "                        IMAGE:PATH:ID\n\n"
          "Decodes one ANCS, EVNT, MLVL (world) or STRG (string table) and prints its whole\n"
          "structure: an indented tree, or with\n"
          "--json one JSON object (snake_case fields; asset IDs as 8 hex digit strings; absent\n"
          "version-gated fields as null; warnings and the trailing-byte count included).\n"
          "FILE is a raw .ancs or .evnt file (an EVNT is told by its name or its first word, the\n"
          "version 1 or 2; an MLVL or STRG by its magic); FILE.pak:ID inflates the first ANCS\n"
          "(else EVNT, MLVL, STRG) entry with that ID\n"
          "(ID as 0x1A2B3C4D or up to 8 hex digits, or 9 to 10 decimal digits); 'ancsdb pak\n"
          "list --type ANCS FILE.pak' lists them. A PAK without :ID is a usage error. The PAK\n"
          "may sit inside a disc: IMAGE:PATH:ID (a disc image, RVZ/WIA/GCZ/CISO container or\n"
          "extracted disc; PATH as the database prints it, e.g. GM8E01_00.rvz:Metroid1.pak).\n"
          "Strings are printed terminal-safe (control characters as \\xNN) in the tree and as\n"
          "valid UTF-8 in JSON (a byte XX that is not UTF-8 as \\udcXX).\n\n"
          "options:\n"
          "  --game G     auto (default: the PAK's detected game, else the ANCS bytes decide:\n"
          "               first character version 10 = MP2), MP1 or MP2\n"
          "  --json       one JSON object instead of the tree\n"
          "  -h, --help   show this help\n\n"
          "exit status: 0 ok, 1 decode error, 2 usage (also: FILE does not exist, or is\n"
          "a PAK or a disc without :ID), 3 cannot open/read\n",
          f);
}

/* Split "FILE.pak:ID" when FILE exists... i.e. when the part after the last ':' is an ID
 * and the whole argument is not itself a readable file. */
static int split_pak_arg(const char *arg, char **path, uint32_t *asset)
{
    const char *colon = strrchr(arg, ':');
    if (!colon || colon == arg)
        return 0;
    struct stat st;
    if (stat(arg, &st) == 0) /* the whole argument names a file (never opened here) */
        return 0;
    if (util_parse_id(colon + 1, asset))
        return 0;
    size_t n = (size_t)(colon - arg);
    *path = malloc(n + 1);
    if (!*path)
        return 0;
    memcpy(*path, arg, n);
    (*path)[n] = 0;
    return 1;
}

/* A FILE without :ID that is a disc (an image or container) or a PAK inside one (IMAGE:PATH)
 * is a usage error saying how to name one resource: EXIT_USAGE after saying so, else
 * EXIT_OK (the file is read and judged as one resource). Nothing is read but a disc's first
 * bytes. */
static int refuse_container_arg(const char *arg)
{
    struct stat st;
    if (stat(arg, &st) != 0) {
        /* IMAGE:PATH, where IMAGE (a disc file) and PATH may both hold ':' */
        size_t n = cli_disc_split(arg);
        char *image = n ? strndup(arg, n) : NULL;
        int in_disc = image && stat(image, &st) == 0 && S_ISREG(st.st_mode);
        free(image);
        if (in_disc) {
            cli_error("ancs dump: %s is a PAK inside a disc: name one of its resources as "
                      "%s:ID ('ancsdb pak list --type ANCS %s' lists their IDs)",
                      arg, arg, arg);
            return EXIT_USAGE;
        }
        return EXIT_OK; /* the read says it cannot be opened */
    }
    util_src *src = NULL;
    util_err e;
    util_err_clear(&e);
    disc_kind k = DISC_KIND_UNKNOWN;
    if (S_ISREG(st.st_mode) && util_src_open_file(&src, arg, &e) == 0) {
        if (disc_sniff_src(&k, src, &e) != 0)
            k = DISC_KIND_UNKNOWN;
        util_src_close(src);
    }
    if (k == DISC_KIND_UNKNOWN)
        return EXIT_OK;
    cli_error("ancs dump: %s is a disc (%s), not one resource: name a PAK in it and one of its "
              "resources as %s:PATH:ID ('ancsdb disc list %s' lists the PAKs)",
              arg, disc_kind_name(k), arg, arg);
    return EXIT_USAGE;
}

/* Entry of the asset in the PAK: the first ANCS with that ID, else EVNT, MLVL, STRG. */
static int load_from_pak(const char *path, uint32_t asset, uint8_t **buf, size_t *len,
                         ancs_game *game, uint32_t *type)
{
    cli_pak cp;
    util_err err;
    util_err_clear(&err);
    if (cli_path_missing(path)) {
        cli_error("ancs dump: %s: no such file or folder", path);
        return EXIT_USAGE;
    }
    int orc = cli_pak_open(&cp, path, &err);
    if (orc) {
        cli_error("%s: %s", path, err.msg);
        return orc == CLI_PAK_NOT_ON_DISC ? EXIT_USAGE
               : err.code == UTIL_EIO     ? EXIT_FATAL
                                          : EXIT_PARTIAL;
    }
    pak_file *p = cp.pak;
    int rc = EXIT_OK;
    static const uint32_t types[] = {UTIL_FCC_ANCS, UTIL_FCC_EVNT, UTIL_FCC_MLVL, UTIL_FCC_STRG};
    uint32_t i = p->entry_count;
    for (size_t t = 0; t < sizeof types / sizeof *types && i == p->entry_count; t++)
        for (i = 0; i < p->entry_count; i++)
            if (p->entries[i].type == types[t] && p->entries[i].id == asset)
                break;
    char tn[5] = "?";
    if (i < p->entry_count) {
        *type = p->entries[i].type;
        util_fourcc_str(*type, tn);
    }
    if (i == p->entry_count) {
        cli_error("%s: no ANCS, EVNT, MLVL or STRG entry with ID %08X", path, asset);
        rc = EXIT_PARTIAL;
    } else if (pak_inflate(buf, len, p, i, PAK_MAX_INFLATE, &err)) {
        cli_error("%s: %s %08X entry %u: inflate @0x%llx: %s", path, tn, asset, i,
                  (unsigned long long)err.offset, err.msg);
        rc = EXIT_PARTIAL;
    } else if (*game == ANCS_GAME_AUTO) {
        ancs_game a = *type == UTIL_FCC_ANCS ? ancs_guess_game(*buf, *len) : ANCS_GAME_AUTO;
        pak_game_signals sig = {NULL, a == ANCS_GAME_MP2   ? PAK_GAME_MP2
                                      : a == ANCS_GAME_MP1 ? PAK_GAME_MP1
                                                           : PAK_GAME_UNKNOWN};
        pak_game pg = pak_game_decide(p, &sig, NULL);
        if (pg == PAK_GAME_MP1)
            *game = ANCS_GAME_MP1;
        else if (pg == PAK_GAME_MP2)
            *game = ANCS_GAME_MP2;
    }
    cli_pak_close(&cp);
    return rc;
}

/* Decode and print an MLVL or STRG (their version says the game; --game is not needed). */
static int dump_world(int json, const char *file, int has_id, uint32_t asset, uint32_t type,
                      const uint8_t *buf, size_t len, util_arena *a)
{
    util_err err;
    util_err_clear(&err);
    world_mlvl m;
    world_strg s;
    int rc = type == UTIL_FCC_MLVL ? world_mlvl_decode(&m, buf, len, a, &err)
                                   : world_strg_decode(&s, buf, len, a, &err);
    if (rc) {
        if (has_id)
            cli_error("%s: %s %08X: decode error @0x%llx: %s", file,
                      type == UTIL_FCC_MLVL ? "MLVL" : "STRG", asset,
                      (unsigned long long)err.offset, err.msg);
        else
            cli_error("%s: decode error @0x%llx: %s", file, (unsigned long long)err.offset,
                      err.msg);
        return EXIT_PARTIAL;
    }
    tw e;
    tw_init(&e, stdout, json);
    if (type == UTIL_FCC_MLVL)
        cli_dump_mlvl(&e, file, has_id, asset, len, &m);
    else
        cli_dump_strg(&e, file, has_id, asset, len, &s);
    if (fflush(stdout) != 0) {
        cli_error("write error on stdout");
        return EXIT_FATAL;
    }
    return EXIT_OK;
}

static int dump_main(int argc, char **argv)
{
    enum { O_HELP, O_JSON, O_GAME };
    static const cli_option opts[] = {
        {"help", 'h', 0, O_HELP}, {"json", 0, 0, O_JSON}, {"game", 0, 1, O_GAME}, {0}};
    ancs_game game = ANCS_GAME_AUTO;
    int json = 0, k;
    const char *arg = NULL;
    cli_args args;
    cli_args_init(&args, "ancs dump", argc, argv);
    while ((k = cli_next(&args, opts)) != CLI_END) {
        if (k == CLI_ERR) {
            return EXIT_USAGE;
        } else if (k == O_HELP) {
            usage(stdout);
            return EXIT_OK;
        } else if (k == O_JSON) {
            json = 1;
        } else if (k == O_GAME) {
            const char *g = args.value;
            if (!strcasecmp(g, "MP1"))
                game = ANCS_GAME_MP1;
            else if (!strcasecmp(g, "MP2"))
                game = ANCS_GAME_MP2;
            else if (!strcasecmp(g, "auto"))
                game = ANCS_GAME_AUTO;
            else {
                cli_error("ancs dump: --game must be MP1, MP2 or auto, not '%s'", g);
                return EXIT_USAGE;
            }
        } else if (arg) {
            cli_error("ancs dump: one FILE only");
            return EXIT_USAGE;
        } else {
            arg = args.value;
        }
    }
    if (!arg) {
        cli_error("ancs dump: give an .ancs file or FILE.pak:ID");
        usage(stderr);
        return EXIT_USAGE;
    }

    char *pak_path = NULL;
    uint32_t asset = 0;
    uint8_t *buf = NULL;
    size_t len = 0;
    int has_id = split_pak_arg(arg, &pak_path, &asset), is_evnt = 0;
    uint32_t type = 0;
    int rc = EXIT_OK;
    util_arena a;
    util_arena_init(&a);
    if (has_id) {
        rc = load_from_pak(pak_path, asset, &buf, &len, &game, &type);
        if (rc)
            goto done;
        is_evnt = type == UTIL_FCC_EVNT;
    } else {
        if (cli_path_missing(arg)) {
            cli_error("ancs dump: %s: no such file or folder", arg);
            rc = EXIT_USAGE;
            goto done;
        }
        if ((rc = refuse_container_arg(arg)) != EXIT_OK)
            goto done;
        util_err rerr;
        util_err_clear(&rerr);
        if (util_read_file(arg, &buf, &len, 0, &rerr) != 0) {
            cli_error("%s", rerr.msg);
            rc = EXIT_FATAL;
            goto done;
        }
        /* a whole PAK (version word 0x00030005) is not one ANCS: say how to name one */
        if (len >= 4 && buf[0] == 0 && buf[1] == 3 && buf[2] == 0 && buf[3] == 5) {
            cli_error("ancs dump: %s is a PAK: name one of its ANCS as %s:ID ('ancsdb pak list "
                      "--type ANCS %s' lists their IDs)",
                      arg, arg, arg);
            rc = EXIT_USAGE;
            goto done;
        }
        if (world_is_mlvl(buf, len))
            type = UTIL_FCC_MLVL;
        else if (world_is_strg(buf, len))
            type = UTIL_FCC_STRG;
    }
    if (type == UTIL_FCC_MLVL || type == UTIL_FCC_STRG) {
        rc = dump_world(json, has_id ? pak_path : arg, has_id, asset, type, buf, len, &a);
        goto done;
    }
    ancs_set s;
    util_err err;
    util_err_clear(&err);
    if (is_evnt || (!has_id && looks_evnt(arg, buf, len))) {
        ancs_evnt_file ev;
        if (ancs_evnt_decode(&ev, buf, len, game == ANCS_GAME_MP2 ? game : ANCS_GAME_MP1, &a,
                             &err)) {
            if (has_id)
                cli_error("%s: EVNT %08X: decode error @0x%llx: %s", pak_path, asset,
                          (unsigned long long)err.offset, err.msg);
            else
                cli_error("%s: decode error @0x%llx: %s", arg, (unsigned long long)err.offset,
                          err.msg);
            rc = EXIT_PARTIAL;
            goto done;
        }
        tw e;
        tw_init(&e, stdout, json);
        cli_dump_evnt(&e, has_id ? pak_path : arg, has_id, asset, len, &ev);
        if (fflush(stdout) != 0) {
            cli_error("write error on stdout");
            rc = EXIT_FATAL;
        }
        goto done;
    }
    if (ancs_decode(&s, buf, len, game, &a, &err)) {
        if (has_id)
            cli_error("%s: ANCS %08X: decode error @0x%llx: %s", pak_path, asset,
                      (unsigned long long)err.offset, err.msg);
        else
            cli_error("%s: decode error @0x%llx: %s", arg, (unsigned long long)err.offset, err.msg);
        rc = EXIT_PARTIAL;
        goto done;
    }
    tw e;
    tw_init(&e, stdout, json);
    cli_dump_ancs(&e, has_id ? pak_path : arg, has_id, asset, len, &s);
    if (fflush(stdout) != 0) {
        cli_error("write error on stdout");
        rc = EXIT_FATAL;
    }
done:
    util_arena_free(&a);
    free(buf);
    free(pak_path);
    return rc;
}

int cmd_ancs(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "dump"))
        return dump_main(argc - 1, argv + 1);
    cli_error("ancs: unknown subcommand '%s' (try 'ancsdb ancs --help')", argv[1]);
    return EXIT_USAGE;
}
