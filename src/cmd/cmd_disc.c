/* cmd_disc.c — `ancsdb disc list`: a GameCube disc's header, what holds it, and every file
 * of its file system table. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "disc_arg.h"
#include "jsonw.h"

static const char disc_usage[] =
    "usage: ancsdb disc list [--format table|csv|json|tsv] IMAGE\n"
    "\n"
    "Reads a GameCube disc (no database needed): a disc image (.iso/.gcm), a container read\n"
    "in place (RVZ, WIA, GCZ, CISO; recognised by its magic) or a folder extracted by\n"
    "Dolphin (sys/boot.bin beside files/).\n"
    "  list     the disc header and every file of its file system table\n"
    "\n"
    "'ancsdb disc list --help' describes it.\n";

static const char list_usage[] =
    "usage: ancsdb disc list [--format table|csv|json|tsv] IMAGE\n"
    "\n"
    "Prints the disc header of IMAGE (game code, maker, disc number, revision, region,\n"
    "release label, title), what holds it (container: GameCube disc image, RVZ, WIA, GCZ,\n"
    "CISO or extracted folder; its file size, the disc's size, block size, compression and\n"
    "level), then one row per file of the file system table in table order: path (as the\n"
    "database's paks.release_path shows it; IMAGE:PATH names the file for 'ancsdb pak list'),\n"
    "offset (byte offset on the disc) and size (bytes). An extracted folder's files are listed\n"
    "in path order with offset 0.\n"
    "\n"
    "options:\n"
    "  --format FMT   table (default: the header as 'field: value' lines, a blank line, then\n"
    "                 the files as aligned columns), json (one object: the header fields and\n"
    "                 a \"files\" array), csv or tsv (the file table only)\n"
    "  -h, --help     show this help\n"
    "\n"
    "exit status: 0 ok, 1 some files lie past the end of the image, 2 usage error\n"
    "             (also: IMAGE does not exist), 3 IMAGE cannot be opened or is not a\n"
    "             GameCube disc\n";

static const char *container_name(const disc_image *d)
{
    return d->dir ? "extracted folder" : disc_kind_name(d->container.kind);
}

static void print_header_table(const disc_image *d)
{
    const disc_header *h = &d->header;
    const disc_container_info *c = &d->container;
    char *title = cli_term_escape(h->title, strlen(h->title));
    printf("game_code: %s\nmaker: %s\ndisc: %u\nrevision: %u\nregion: %s\nlabel: %s\n"
           "title: %s\ncontainer: %s\n",
           h->game_code, h->maker, h->disc_number, h->revision, h->region ? h->region : "",
           h->label, title ? title : "?", container_name(d));
    free(title);
    if (!d->dir) {
        printf("file_size: %" PRIu64 "\ndisc_size: %" PRIu64 "\nblock_size: %" PRIu32
               "\ncompression: %s\ncompression_level: %" PRId32 "\n",
               c->file_size, c->disc_size, c->block_size, c->compression ? c->compression : "",
               c->compression_level);
    }
    printf("files: %" PRIu32 "\n\n", d->fst.file_count);
}

static void print_json(const disc_image *d)
{
    const disc_header *h = &d->header;
    const disc_container_info *c = &d->container;
    jw w;
    jw_init(&w, stdout, 0);
    jw_obj(&w, NULL);
    jw_str(&w, "game_code", h->game_code);
    jw_str(&w, "maker", h->maker);
    jw_int(&w, "disc", h->disc_number);
    jw_int(&w, "revision", h->revision);
    jw_str(&w, "region", h->region);
    jw_str(&w, "label", h->label);
    jw_str(&w, "title", h->title);
    jw_str(&w, "container", container_name(d));
    if (d->dir) {
        jw_null(&w, "file_size");
        jw_null(&w, "disc_size");
        jw_null(&w, "block_size");
        jw_null(&w, "compression");
        jw_null(&w, "compression_level");
    } else {
        jw_int(&w, "file_size", (int64_t)c->file_size);
        jw_int(&w, "disc_size", (int64_t)c->disc_size);
        jw_int(&w, "block_size", c->block_size);
        jw_str(&w, "compression", c->compression);
        jw_int(&w, "compression_level", c->compression_level);
    }
    jw_arr(&w, "files");
    for (uint32_t i = 0; i < d->fst.file_count; i++) {
        const disc_file *f = &d->fst.files[i];
        jw_obj(&w, NULL);
        jw_str(&w, "path", f->path);
        jw_int(&w, "offset", (int64_t)f->offset);
        jw_int(&w, "size", (int64_t)f->length);
        jw_end_obj(&w);
    }
    jw_end_arr(&w);
    jw_end_obj(&w);
    jw_done(&w);
}

static int disc_list(int argc, char **argv)
{
    enum { O_HELP, O_FORMAT };
    static const cli_option opts[] = {{"help", 'h', 0, O_HELP}, {"format", 0, 1, O_FORMAT}, {0}};
    out_format fmt = OUT_TABLE;
    const char *path = NULL;
    cli_args a;
    int k;
    cli_args_init(&a, "disc list", argc, argv);
    while ((k = cli_next(&a, opts)) != CLI_END) {
        if (k == CLI_ERR) {
            return EXIT_USAGE;
        } else if (k == O_HELP) {
            fputs(list_usage, stdout);
            return EXIT_OK;
        } else if (k == O_FORMAT) {
            if (out_parse_format(a.value, &fmt)) {
                cli_error("disc list: unknown format '%s' (table, csv, json or tsv)", a.value);
                return EXIT_USAGE;
            }
        } else if (path) {
            cli_error("disc list: one IMAGE at a time ('%s' and '%s')", path, a.value);
            return EXIT_USAGE;
        } else {
            path = a.value;
        }
    }
    if (!path) {
        cli_error("disc list: no IMAGE given");
        fputs(list_usage, stderr);
        return EXIT_USAGE;
    }
    disc_image *d = NULL;
    util_err err;
    util_err_clear(&err);
    if (cli_path_missing(path)) {
        cli_error("disc list: %s: no such file or folder", path);
        return EXIT_USAGE;
    }
    if (cli_disc_open(&d, path, &err) != 0) {
        if (err.offset != UINT64_MAX)
            cli_error("%s @0x%" PRIx64 ": %s: %s", path, err.offset, util_strerror(err.code),
                      err.msg);
        else
            cli_error("%s: %s", path, err.msg);
        return EXIT_FATAL;
    }
    long rows = 0;
    if (fmt == OUT_JSON) {
        print_json(d);
    } else {
        if (fmt == OUT_TABLE)
            print_header_table(d);
        static const char *const cols[] = {"path", "offset", "size"};
        out_table *t = out_begin(stdout, fmt, 3, cols);
        if (!t) {
            cli_error("out of memory");
            disc_close(d);
            return EXIT_FATAL;
        }
        for (uint32_t i = 0; i < d->fst.file_count; i++) {
            const disc_file *f = &d->fst.files[i];
            out_text(t, f->path);
            out_int(t, (int64_t)f->offset);
            out_int(t, (int64_t)f->length);
            out_row_end(t);
        }
        rows = out_finish(t);
    }
    int oob = d->fst.out_of_bounds != 0 || d->fst.skipped_count != 0;
    if (d->fst.out_of_bounds)
        cli_say(stderr, "ancsdb: warning: %s: %" PRIu32 " file(s) lie past the end of the image\n",
                path, d->fst.out_of_bounds);
    for (uint32_t i = 0; i < d->fst.skipped_listed; i++)
        cli_say(stderr,
                "ancsdb: warning: %s: FST entry %" PRIu32 " left out: %s name \"%s\" is empty, a "
                "dot name or holds '/'\n",
                path, d->fst.skipped[i].index, d->fst.skipped[i].is_dir ? "directory" : "file",
                d->fst.skipped[i].name);
    if (d->fst.skipped_count > d->fst.skipped_listed)
        cli_say(stderr,
                "ancsdb: warning: %s: %" PRIu32 " more FST entries left out for their names\n",
                path, d->fst.skipped_count - d->fst.skipped_listed);
    disc_close(d);
    if (rows < 0 || fflush(stdout) != 0) {
        cli_error("disc list: cannot write the output");
        return EXIT_FATAL;
    }
    return oob ? EXIT_PARTIAL : EXIT_OK;
}

int cmd_disc(int argc, char **argv)
{
    if (argc < 2) {
        fputs(disc_usage, stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(disc_usage, stdout);
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "list"))
        return disc_list(argc - 1, argv + 1);
    cli_error("disc: unknown subcommand '%s' (list)", argv[1]);
    fputs(disc_usage, stderr);
    return EXIT_USAGE;
}
