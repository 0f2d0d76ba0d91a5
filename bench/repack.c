/* repack.c — bench_repack N SRC DST: the PAKs below SRC written again below DST (the same
 * relative folders) as about N PAKs in all, every entry's stored bytes kept as they are. A
 * PAK of S bytes becomes round(S / (all bytes / N)) PAKs (at least one), its resource table
 * cut in that many runs of consecutive entries, named NAME_001.pak, NAME_002.pak, ... (a PAK
 * left whole keeps its name); each part holds the named resources whose asset it holds.
 * The same entries, contents and bytes in more PAKs: the shape of a corpus with many more
 * PAKs than the fixture's 30 (bench/run.sh BENCH_PAKS). Not a tool for game files: it holds
 * one part's bytes in memory, and stops at the first fault. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pak.h"
#include "util.h"
#include "walk.h"

typedef UTIL_VEC(char *) paths;
static paths found;
static int failed;

static void add_path(const char *path)
{
    char *s = strdup(path);
    if (!s || util_vec_push(&found, s, NULL) != 0) {
        free(s);
        failed = 1;
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* mkdir -p of the folder part of path (below the existing dst) */
static int make_parents(char *path)
{
    for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        int rc = mkdir(path, 0777);
        int e = errno;
        *s = '/';
        if (rc != 0 && e != EEXIST) {
            fprintf(stderr, "bench_repack: cannot make the folder of %s: %s\n", path, strerror(e));
            return 1;
        }
    }
    return 0;
}

/* Entries [from, to) of p, and the named resources of their assets, as the PAK out. */
static int write_part(const pak_file *p, uint32_t from, uint32_t to, const char *out)
{
    util_err e;
    util_err_clear(&e);
    pak_builder *b = pak_builder_new();
    uint32_t *ids = malloc(((size_t)(to - from) + 1) * sizeof *ids);
    int rc = !b || !ids;
    for (uint32_t i = from; i < to && !rc; i++)
        ids[i - from] = p->entries[i].id;
    if (!rc)
        qsort(ids, to - from, sizeof *ids, cmp_u32);
    for (uint32_t i = 0; i < p->named_count && !rc; i++)
        if (bsearch(&p->named[i].id, ids, to - from, sizeof *ids, cmp_u32))
            rc = pak_builder_add_named(b, p->named[i].type, p->named[i].id, p->named[i].name, &e);
    for (uint32_t i = from; i < to && !rc; i++) {
        uint8_t *bytes = NULL;
        size_t len = 0;
        const pak_entry *en = &p->entries[i];
        rc = pak_entry_read(p, i, &bytes, &len, &e);
        if (!rc)
            rc = pak_builder_add_stored(b, en->type, en->id, bytes, len, en->compressed, &e);
        free(bytes);
    }
    if (!rc)
        rc = pak_builder_finish_file(b, out, &e);
    if (rc)
        fprintf(stderr, "bench_repack: %s: %s\n", out, e.code ? e.msg : "out of memory");
    free(ids);
    pak_builder_free(b);
    return rc;
}

/* The PAK at path (below src) as *parts PAKs below dst (fewer when it has fewer entries:
 * *parts is then what was written). */
static int repack(const char *path, const char *src, const char *dst, unsigned *parts_io)
{
    unsigned parts = *parts_io;
    util_err e;
    util_err_clear(&e);
    util_src *s = NULL;
    pak_file *p = NULL;
    if (util_src_open_file(&s, path, &e) != 0 || pak_open_src_tables(&p, s, &e) != 0) {
        fprintf(stderr, "bench_repack: %s: %s\n", path, e.msg);
        util_src_close(s);
        return 1;
    }
    if (parts > p->entry_count)
        parts = p->entry_count ? p->entry_count : 1;
    *parts_io = parts;
    const char *rel = path + strlen(src);
    size_t n = strlen(dst) + strlen(rel) + 16;
    char *out = malloc(n);
    int rc = !out;
    uint32_t per = (uint32_t)((p->entry_count + parts - 1) / parts);
    for (unsigned k = 0; k < parts && !rc; k++) {
        if (parts == 1)
            snprintf(out, n, "%s%s", dst, rel);
        else /* NAME.pak -> NAME_001.pak */
            snprintf(out, n, "%s%.*s_%03u%s", dst, (int)(strlen(rel) - 4), rel, k + 1,
                     rel + strlen(rel) - 4);
        uint32_t from = k * per, to = from + per < p->entry_count ? from + per : p->entry_count;
        rc = make_parents(out) || write_part(p, from, to, out);
    }
    free(out);
    pak_close(p);
    util_src_close(s);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 4 || atoi(argv[1]) < 1) {
        fprintf(stderr, "usage: bench_repack N SRC DST\n");
        return 2;
    }
    unsigned want = (unsigned)atoi(argv[1]);
    const char *src = argv[2], *dst = argv[3];
    bench_walk(src, add_path);
    if (failed || found.len == 0) {
        fprintf(stderr, "bench_repack: %s\n", failed ? "out of memory" : "no PAK found");
        return 1;
    }
    qsort(found.items, found.len, sizeof *found.items, cmp_str);
    double total = 0;
    for (size_t i = 0; i < found.len; i++) {
        struct stat st;
        if (stat(found.items[i], &st) == 0)
            total += (double)st.st_size;
    }
    int rc = mkdir(dst, 0777) != 0 && errno != EEXIST;
    if (rc)
        fprintf(stderr, "bench_repack: cannot make %s: %s\n", dst, strerror(errno));
    unsigned written = 0;
    for (size_t i = 0; i < found.len && !rc; i++) {
        struct stat st;
        double size = stat(found.items[i], &st) == 0 ? (double)st.st_size : 0;
        unsigned parts = total > 0 ? (unsigned)(size * want / total + 0.5) : 1;
        if (parts < 1)
            parts = 1;
        rc = repack(found.items[i], src, dst, &parts);
        written += parts;
    }
    if (!rc)
        printf("%zu PAKs written again as %u\n", found.len, written);
    for (size_t i = 0; i < found.len; i++)
        free(found.items[i]);
    util_vec_free(&found);
    return rc;
}
