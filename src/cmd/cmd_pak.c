/* cmd_pak.c — `ancsdb pak list|extract`: one PAK's resource table, and its entries
 * inflated to files named from their IDs. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "db.h"
#include "disc_arg.h"
#include "pak.h"

static const char pak_usage[] =
    "usage: ancsdb pak list [--format table|csv|json|tsv] [--type FOURCC] PAK\n"
    "       ancsdb pak extract [--type FOURCC] [--id ID] [-o DIR] [--force] PAK\n"
    "\n"
    "Reads one Metroid Prime 1/2 GameCube PAK (no database needed). PAK is a file, or\n"
    "IMAGE:PATH: the PAK at PATH inside a disc image, an RVZ/WIA/GCZ/CISO container or a\n"
    "folder extracted by Dolphin (PATH as the database prints it, e.g.\n"
    "GM8E01_00.iso:Metroid1.pak; case-insensitive), read in place.\n"
    "  list     one row per resource-table entry\n"
    "  extract  write entries, inflated, as DIR/<ID>.<type>\n"
    "\n"
    "'ancsdb pak list --help' and 'ancsdb pak extract --help' describe each.\n";

static const char list_usage[] =
    "usage: ancsdb pak list [--format table|csv|json|tsv] [--type FOURCC] PAK\n"
    "\n"
    "PAK is a file, or IMAGE:PATH (a PAK inside a disc image, container or extracted disc,\n"
    "as 'ancsdb disc list IMAGE' shows it: GM8E01_00.rvz:Metroid1.pak).\n"
    "Prints one row per resource-table entry of a Metroid Prime 1/2 GameCube PAK, in table\n"
    "order, with the columns entry_index, type, asset_id, compressed (the table's raw flag),\n"
    "data_offset, stored_size (padding included) and decompressed_size (for compressed\n"
    "entries the size prefix in front of the data, 0 when it cannot be read; for stored ones\n"
    "the stored size less its trailing 0xFF padding, at most 31 bytes). Asset IDs print as\n"
    "8 upper-case hex digits.\n"
    "Anomalies of the PAK (misaligned or overlapping entries, entries past the end of the\n"
    "file, odd compressed flags) are reported on stderr as warnings.\n"
    "\n"
    "options:\n"
    "  --format FMT   table (default, aligned columns), csv (RFC 4180), json (an array of\n"
    "                 objects) or tsv\n"
    "  --type FOURCC  only entries of this type (e.g. ANCS)\n"
    "  -h, --help     show this help\n"
    "\n"
    "exit status: 0 ok, 1 listed but some entries lie past the end of the file,\n"
    "             2 usage error (also: PAK does not exist), 3 the PAK cannot be opened or\n"
    "             parsed\n";

static const char extract_usage[] =
    "usage: ancsdb pak extract [--type FOURCC] [--id ID] [--db FILE] [-o DIR] [--force] PAK\n"
    "\n"
    "PAK is a file, or IMAGE:PATH (a PAK inside a disc image, container or extracted disc,\n"
    "as 'ancsdb disc list IMAGE' shows it: GM8E01_00.rvz:Metroid1.pak).\n"
    "Writes each selected resource of a Metroid Prime 1/2 GameCube PAK, inflated (zlib or\n"
    "segmented LZO, recognised from the data), as DIR/<ID>.<type>: the asset ID as 8\n"
    "upper-case hex digits and the FourCC in lower case (characters other than letters and\n"
    "digits become '_'). File names come from IDs only, so nothing is written outside DIR.\n"
    "A compressed entry is written inflated to exactly its declared size; a stored one as all\n"
    "its stored bytes, 0xFF padding included: the PAK does not say where a stored resource\n"
    "ends, and trimming 0xFF bytes would cut resources that end in them.\n"
    "When the same type and ID appear several times in the PAK, the first copy that inflates\n"
    "is written once.\n"
    "\n"
    "options:\n"
    "  --type FOURCC  only entries of this type (exactly 4 characters, e.g. ANCS); repeatable\n"
    "  --id ID        only this asset ID (0x1A2B3C4D or up to 8 hex digits, or 9 to 10\n"
    "                 decimal digits), or the asset of this name in the PAK's name table\n"
    "                 (ASCII case ignored; a name of several assets lists them, exit 2);\n"
    "                 with --db, a name it does not hold is looked up as every command\n"
    "                 does (the database's name-map and PAK names); repeatable\n"
    "  --db FILE      the database whose names --id may give (read only; none by default)\n"
    "  -o, --output DIR\n"
    "                 write into DIR (default: the current directory); created if missing\n"
    "  --force        replace existing files: each is written beside the old one and renamed\n"
    "                 over it, so another hard link to it keeps its bytes; a symbolic link\n"
    "                 is never followed nor replaced. Without --force an existing file is\n"
    "                 left alone and counts as a failure\n"
    "  -h, --help     show this help\n"
    "\n"
    "Entries that cannot be inflated or written are reported on stderr (file, entry index,\n"
    "type, ID, byte offset) and skipped; the others are still written.\n"
    "\n"
    "exit status: 0 every selected entry written (an empty PAK without filters too),\n"
    "             1 some entries failed, or --type/--id matched nothing,\n"
    "             2 usage error (also: PAK does not exist), 3 the PAK cannot be opened\n"
    "             or parsed, DIR cannot be\n"
    "             created, or a write fails for lack of space\n";

static void print_anomalies(const char *path, const pak_file *p)
{
    for (size_t k = 0; k < p->anomaly_count; k++) {
        const pak_anomaly *a = &p->anomalies[k];
        if (a->offset == UINT64_MAX)
            cli_say(stderr, "ancsdb: warning: %s: %s: %s\n", path, a->code, a->msg);
        else
            cli_say(stderr, "ancsdb: warning: %s @0x%" PRIx64 ": %s: %s\n", path, a->offset,
                    a->code, a->msg);
    }
}

/* 0, or the exit status after saying why: EXIT_USAGE for a path that does not exist. */
static int open_pak(cli_pak *out, const char *path)
{
    util_err err;
    util_err_clear(&err);
    if (cli_path_missing(path)) {
        memset(out, 0, sizeof *out);
        cli_error("%s: no such file or folder", path);
        return EXIT_USAGE;
    }
    int rc = cli_pak_open(out, path, &err);
    if (rc == 0)
        return 0;
    if (rc == CLI_PAK_NOT_ON_DISC) { /* a path that does not exist, inside the disc */
        cli_error("%s: %s", path, err.msg);
        return EXIT_USAGE;
    }
    if (err.offset != UINT64_MAX)
        cli_error("%s @0x%" PRIx64 ": %s: %s", path, err.offset, util_strerror(err.code), err.msg);
    else
        cli_error("%s: %s", path, err.msg);
    return EXIT_FATAL;
}

static int pak_list(int argc, char **argv)
{
    enum { O_HELP, O_FORMAT, O_TYPE };
    static const cli_option opts[] = {
        {"help", 'h', 0, O_HELP}, {"format", 0, 1, O_FORMAT}, {"type", 0, 1, O_TYPE}, {0}};
    out_format fmt = OUT_TABLE;
    uint32_t only_type = 0;
    int typed = 0;
    const char *path = NULL;
    cli_args a;
    int k;
    cli_args_init(&a, "pak list", argc, argv);
    while ((k = cli_next(&a, opts)) != CLI_END) {
        if (k == CLI_ERR) {
            return EXIT_USAGE;
        } else if (k == O_HELP) {
            fputs(list_usage, stdout);
            return EXIT_OK;
        } else if (k == O_FORMAT) {
            if (out_parse_format(a.value, &fmt)) {
                cli_error("pak list: unknown format '%s' (table, csv, json or tsv)", a.value);
                return EXIT_USAGE;
            }
        } else if (k == O_TYPE) {
            if (util_fourcc_parse(a.value, &only_type)) {
                cli_error("pak list: --type wants exactly 4 characters, not '%s'", a.value);
                return EXIT_USAGE;
            }
            typed = 1;
        } else if (path) {
            cli_error("pak list: one PAK at a time ('%s' and '%s')", path, a.value);
            return EXIT_USAGE;
        } else {
            path = a.value;
        }
    }
    if (!path) {
        cli_error("pak list: no PAK file given");
        fputs(list_usage, stderr);
        return EXIT_USAGE;
    }
    cli_pak cp;
    int orc = open_pak(&cp, path);
    if (orc)
        return orc;
    pak_file *p = cp.pak;
    static const char *const cols[] = {"entry_index",      "type",        "asset_id",
                                       "compressed",       "data_offset", "stored_size",
                                       "decompressed_size"};
    out_table *t = out_begin(stdout, fmt, 7, cols);
    if (!t) {
        cli_error("out of memory");
        cli_pak_close(&cp);
        return EXIT_FATAL;
    }
    int unreadable = 0;
    for (uint32_t i = 0; i < p->entry_count; i++) {
        const pak_entry *e = &p->entries[i];
        char type[5];
        unreadable |= !e->in_bounds;
        if (typed && e->type != only_type)
            continue;
        util_fourcc_str(e->type, type);
        out_int(t, e->index);
        out_text(t, type);
        out_id(t, e->id);
        out_int(t, e->compressed);
        out_int(t, e->offset);
        out_int(t, e->size);
        out_int(t, e->decompressed_size);
        out_row_end(t);
    }
    long rows = out_finish(t);
    print_anomalies(path, p);
    cli_pak_close(&cp);
    if (rows < 0 || fflush(stdout) != 0) {
        cli_error("pak list: cannot write the output");
        return EXIT_FATAL;
    }
    return unreadable ? EXIT_PARTIAL : EXIT_OK;
}

/* mkdir -p: create dir and its missing parents. */
static int make_dirs(const char *dir)
{
    char *d = strdup(dir);
    int rc = 0;
    if (!d)
        return -1;
    for (char *q = d + 1; *q && !rc; q++) {
        if (*q != '/')
            continue;
        *q = '\0';
        if (mkdir(d, 0777) != 0 && errno != EEXIST)
            rc = -1;
        *q = '/';
    }
    if (!rc && mkdir(d, 0777) != 0 && errno != EEXIST)
        rc = -1;
    free(d);
    if (!rc) {
        struct stat st;
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            errno = ENOTDIR;
            rc = -1;
        }
    }
    return rc;
}

typedef struct extract_opts {
    uint32_t *types, *ids;
    size_t ntypes, nids;
    const char *dir;
    int force;
} extract_opts;

static int selected(const extract_opts *o, const pak_entry *e)
{
    int t = o->ntypes == 0, d = o->nids == 0;
    for (size_t k = 0; k < o->ntypes && !t; k++)
        t = o->types[k] == e->type;
    for (size_t k = 0; k < o->nids && !d; k++)
        d = o->ids[k] == e->id;
    return t && d;
}

static int cmp_entry_key(const void *a, const void *b)
{
    const pak_entry *x = *(const pak_entry *const *)a, *y = *(const pak_entry *const *)b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    if (x->type != y->type)
        return x->type < y->type ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int write_all(int fd, const uint8_t *data, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, data, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        data += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Write n bytes to a new file at path, created exclusively (never through a link). */
static int write_new(const char *path, const uint8_t *data, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        return -1;
    if (write_all(fd, data, n) != 0) {
        int saved = errno;
        close(fd);
        unlink(path);
        errno = saved;
        return -1;
    }
    return close(fd);
}

/* Write n bytes as path; -1 with errno on failure (ELOOP: a symbolic link is in the way).
 * With force an existing file is replaced: the bytes go to a new file beside it, renamed
 * over it, so the old file's other hard links keep their bytes and nothing is written
 * through a link. */
static int write_file(const char *path, const uint8_t *data, size_t n, int force)
{
    if (!force)
        return write_new(path, data, n);
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        errno = S_ISLNK(st.st_mode) ? ELOOP : EEXIST;
        return -1;
    }
    char tmp[4200];
    int rc = -1;
    for (int k = 0; k < 100 && rc != 0; k++) {
        int len = snprintf(tmp, sizeof tmp, "%s.tmp%ld-%d", path, (long)getpid(), k);
        if (len < 0 || (size_t)len >= sizeof tmp) {
            errno = ENAMETOOLONG;
            return -1;
        }
        rc = write_new(tmp, data, n);
        if (rc != 0 && errno != EEXIST)
            return -1;
    }
    if (rc != 0)
        return -1;
    if (rename(tmp, path) != 0) {
        int saved = errno;
        unlink(tmp);
        errno = saved;
        return -1;
    }
    return 0;
}

/* Extract one entry; 0 written, 1 failed (reported), 3 fatal (reported). */
static int extract_one(const char *pak_path, const pak_file *p, const pak_entry *e,
                       const extract_opts *o)
{
    char type[5], ext[5], name[4096];
    util_fourcc_str(e->type, type);
    for (int k = 0; k < 4; k++) {
        unsigned char c = (unsigned char)(e->type >> (24 - 8 * k));
        ext[k] = (char)(isalnum(c) && c < 0x80 ? tolower(c) : '_');
    }
    ext[4] = '\0';
    uint8_t *buf = NULL;
    size_t len = 0;
    util_err err;
    util_err_clear(&err);
    if (pak_inflate(&buf, &len, p, e->index, PAK_MAX_INFLATE, &err)) {
        if (err.offset != UINT64_MAX)
            cli_error("%s entry %" PRIu32 " %s %08" PRIX32 " @0x%" PRIx64 ": %s: %s", pak_path,
                      e->index, type, e->id, err.offset, util_strerror(err.code), err.msg);
        else
            cli_error("%s entry %" PRIu32 " %s %08" PRIX32 ": %s: %s", pak_path, e->index, type,
                      e->id, util_strerror(err.code), err.msg);
        return err.code == UTIL_ENOMEM ? EXIT_FATAL : EXIT_PARTIAL;
    }
    int n = snprintf(name, sizeof name, "%s/%08" PRIX32 ".%s", o->dir, e->id, ext);
    int rc = EXIT_OK;
    if (n < 0 || (size_t)n >= sizeof name) {
        cli_error("output directory name too long");
        rc = EXIT_FATAL;
    } else if (write_file(name, buf, len, o->force) != 0) {
        int saved = errno;
        if (saved == EEXIST && !o->force)
            cli_error("%s entry %" PRIu32 " %s %08" PRIX32 ": %s exists (use --force)", pak_path,
                      e->index, type, e->id, name);
        else if (saved == ELOOP)
            cli_error("%s entry %" PRIu32 " %s %08" PRIX32 ": %s is a symbolic link (not followed "
                      "nor replaced)",
                      pak_path, e->index, type, e->id, name);
        else if (saved == EEXIST)
            cli_error("%s entry %" PRIu32 " %s %08" PRIX32 ": %s exists and is not a regular file",
                      pak_path, e->index, type, e->id, name);
        else
            cli_error("%s entry %" PRIu32 " %s %08" PRIX32 ": cannot write %s: %s", pak_path,
                      e->index, type, e->id, name, strerror(saved));
        rc = (saved == ENOSPC || saved == EDQUOT || saved == EROFS) ? EXIT_FATAL : EXIT_PARTIAL;
    }
    free(buf);
    return rc;
}

static int pak_extract(int argc, char **argv)
{
    enum { O_HELP, O_FORCE, O_TYPE, O_ID, O_OUTPUT, O_DB };
    static const cli_option opts[] = {{"help", 'h', 0, O_HELP},
                                      {"force", 0, 0, O_FORCE},
                                      {"type", 0, 1, O_TYPE},
                                      {"id", 0, 1, O_ID},
                                      {"output", 'o', 1, O_OUTPUT},
                                      {"db", 0, 1, O_DB},
                                      {0}};
    const char *dbpath = NULL;
    db *d = NULL;
    int rc = EXIT_OK;
    extract_opts o = {NULL, NULL, 0, 0, ".", 0};
    const char *path = NULL;
    pak_file *p = NULL;
    cli_pak cp = {0};
    const pak_entry **sel = NULL;
    o.types = calloc((size_t)argc, sizeof *o.types);
    o.ids = calloc((size_t)argc, sizeof *o.ids);
    const char **id_names = calloc((size_t)argc, sizeof *id_names);
    size_t nnames = 0;
    if (!o.types || !o.ids || !id_names) {
        cli_error("out of memory");
        rc = EXIT_FATAL;
        goto done;
    }
    cli_args a;
    int opt;
    cli_args_init(&a, "pak extract", argc, argv);
    while ((opt = cli_next(&a, opts)) != CLI_END) {
        const char *v = a.value;
        if (opt == CLI_ERR) {
            rc = EXIT_USAGE;
            goto done;
        } else if (opt == O_HELP) {
            fputs(extract_usage, stdout);
            goto done;
        } else if (opt == O_FORCE) {
            o.force = 1;
        } else if (opt == O_TYPE) {
            if (util_fourcc_parse(v, &o.types[o.ntypes])) {
                cli_error("pak extract: --type wants exactly 4 characters, not '%s'", v);
                rc = EXIT_USAGE;
                goto done;
            }
            o.ntypes++;
        } else if (opt == O_ID) {
            if (util_parse_id(v, &o.ids[o.nids]))
                id_names[nnames++] = v; /* a name: looked up in the PAK's names below */
            else
                o.nids++;
        } else if (opt == O_DB) {
            dbpath = v;
        } else if (opt == O_OUTPUT) {
            if (!*v) {
                cli_error("pak extract: empty output directory");
                rc = EXIT_USAGE;
                goto done;
            }
            o.dir = v;
        } else if (path) {
            cli_error("pak extract: one PAK at a time ('%s' and '%s')", path, v);
            rc = EXIT_USAGE;
            goto done;
        } else {
            path = v;
        }
    }
    if (!path) {
        cli_error("pak extract: no PAK file given");
        fputs(extract_usage, stderr);
        rc = EXIT_USAGE;
        goto done;
    }
    if ((rc = open_pak(&cp, path)) != 0) {
        goto done;
    }
    p = cp.pak;
    /* --id NAME: the PAK's named resources, by the rule every command uses (cli_name_matches) */
    for (size_t k = 0; k < nnames; k++) {
        uint32_t hits = 0, first = 0;
        for (uint32_t i = 0; i < p->named_count; i++) {
            const pak_named *n = &p->named[i];
            if (!cli_name_matches(id_names[k], NULL, n->name))
                continue;
            int seen = 0;
            for (uint32_t j = 0; j < i && !seen; j++)
                seen = cli_name_matches(id_names[k], NULL, p->named[j].name) &&
                       p->named[j].id == n->id && p->named[j].type == n->type;
            if (seen)
                continue;
            if (hits++ == 0)
                first = i;
        }
        const char *shown = id_names[k]; /* cli_error and cli_say make it terminal-safe */
        if (hits == 0 && dbpath) {       /* the database's names, by the rule of every command */
            util_err e;
            util_err_clear(&e);
            if (!d && (rc = cli_open_db(&d, "pak extract", dbpath, DB_OPEN_READONLY, NULL, &e)) !=
                          EXIT_OK)
                goto done;
            uint32_t id;
            if ((rc = cli_asset_arg(d, "pak extract", id_names[k], NULL, &id)) != EXIT_OK)
                goto done;
            o.ids[o.nids++] = id;
            continue;
        }
        if (hits == 0) {
            cli_error("pak extract: --id '%s' is neither an asset ID (0x1A2B3C4D or up to 8 hex "
                      "digits, or 9 to 10 decimal digits) nor a name in %s",
                      shown ? shown : "?", path);
            rc = EXIT_USAGE;
        } else if (hits > 1) {
            cli_error("pak extract: --id '%s' names %u assets of %s; give one of their IDs:",
                      shown ? shown : "?", hits, path);
            for (uint32_t i = 0; i < p->named_count; i++)
                if (cli_name_matches(id_names[k], NULL, p->named[i].name)) {
                    char fc[5];
                    util_fourcc_str(p->named[i].type, fc);
                    cli_say(stderr, "  %-4s  %08" PRIX32 "  %s\n", fc, p->named[i].id,
                            p->named[i].name);
                }
            rc = EXIT_USAGE;
        } else {
            o.ids[o.nids++] = p->named[first].id;
        }
        if (rc != EXIT_OK)
            goto done;
    }
    if (make_dirs(o.dir) != 0) {
        cli_error("pak extract: cannot create directory %s: %s", o.dir, strerror(errno));
        rc = EXIT_FATAL;
        goto done;
    }
    sel = malloc(((size_t)p->entry_count + 1) * sizeof *sel);
    if (!sel) {
        cli_error("out of memory");
        rc = EXIT_FATAL;
        goto done;
    }
    size_t nsel = 0, written = 0, failed = 0;
    for (uint32_t i = 0; i < p->entry_count; i++)
        if (selected(&o, &p->entries[i]))
            sel[nsel++] = &p->entries[i];
    /* Copies of one (type, ID) share a file name: write the first copy that inflates. */
    qsort(sel, nsel, sizeof *sel, cmp_entry_key);
    for (size_t k = 0; k < nsel && rc != EXIT_FATAL;) {
        size_t end = k + 1;
        while (end < nsel && sel[end]->id == sel[k]->id && sel[end]->type == sel[k]->type)
            end++;
        for (size_t c = k; c < end; c++) {
            int r = extract_one(path, p, sel[c], &o);
            if (r == EXIT_OK) {
                written++;
                break;
            }
            failed++;
            if (r == EXIT_FATAL) {
                rc = EXIT_FATAL;
                break;
            }
        }
        k = end;
    }
    if (rc == EXIT_OK && nsel == 0 && (o.ntypes || o.nids)) {
        cli_error("pak extract: no entry of %s matches", path);
        rc = EXIT_PARTIAL;
    } else if (rc == EXIT_OK && failed) {
        rc = EXIT_PARTIAL;
    }
    if (rc != EXIT_FATAL)
        cli_say(stderr, "ancsdb: wrote %zu file(s) to %s from %zu selected entries of %s%s\n",
                written, o.dir, nsel, path, failed ? " (some failed)" : "");
done:
    db_close(d);
    free(sel);
    cli_pak_close(&cp);
    free(o.types);
    free(o.ids);
    free(id_names);
    return rc;
}

int cmd_pak(int argc, char **argv)
{
    if (argc < 2) {
        fputs(pak_usage, stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(pak_usage, stdout);
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "list"))
        return pak_list(argc - 1, argv + 1);
    if (!strcmp(argv[1], "extract"))
        return pak_extract(argc - 1, argv + 1);
    cli_error("pak: unknown subcommand '%s' (list or extract)", argv[1]);
    fputs(pak_usage, stderr);
    return EXIT_USAGE;
}
