/* read_all.c — benchmark (a): read every byte of every file named on the command line (any
 * name: a PAK or a disc image) or of every *.pak under the folders named, once, with read(2) into a
 * 1 MiB buffer, and print the byte count and a checksum so the work cannot be skipped.
 *
 * --full: the single-threaded floor of a first ingest (PAK files and folders only): read each
 * PAK's tables, then each entry's stored bytes with one pread(2), in file order, into a buffer
 * kept from entry to entry; inflate every compressed entry (zlib and segmented LZO through
 * the pak library, which uses libdeflate and LZO), and XXH3-hash every resource's bytes
 * without their trailing 0xFF padding (a stored entry's bytes as they are), as the ingest
 * identifies contents. Prints the bytes read, entries, inflated bytes and a checksum of the
 * hashes.
 * --full-whole: the same work, each PAK read whole into one buffer first (the floor of the
 * first measurements: at 10x its 2 GB buffer pushed the corpus out of the page cache). */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xxhash.h>
#ifdef ANCSDB_XXH_DISPATCH
#include <xxh_x86dispatch.h> /* XXH3 as fast as this CPU allows (CMakeLists.txt) */
#endif

#include "pak.h"
#include "util.h"
#include "walk.h"

static uint8_t buf[1 << 20];
static uint64_t total, sum, entries, inflated, inflated_bytes, failed;

static void read_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        perror(path);
        return;
    }
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) {
        total += (uint64_t)n;
        for (ssize_t i = 0; i < n; i += 64)
            sum += buf[i];
    }
    close(fd);
}

static uint64_t hash_resource(const uint8_t *b, size_t len)
{
    while (len > 0 && b[len - 1] == 0xFF)
        len--;
    return XXH3_64bits(b, len);
}

static void hash_entry(const pak_entry *en, const uint8_t *stored);

static void full_whole(const char *path)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        perror(path);
        if (fd >= 0)
            close(fd);
        return;
    }
    size_t size = (size_t)st.st_size, got = 0;
    static uint8_t *data; /* kept from PAK to PAK: its pages are not faulted in again */
    static size_t cap;
    if (size > cap) {
        free(data);
        cap = size;
        data = malloc(cap);
        if (!data) {
            fprintf(stderr, "%s: out of memory\n", path);
            cap = 0;
            close(fd);
            return;
        }
    }
    while (got < size) {
        size_t want = size - got < sizeof buf ? size - got : sizeof buf;
        ssize_t n = read(fd, data + got, want);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    total += got;
    pak_file *p = NULL;
    util_err e;
    util_err_clear(&e);
    if (got != size || pak_open_mem(&p, data, size, &e) != 0) {
        fprintf(stderr, "%s: %s\n", path, got != size ? "short read" : e.msg);
        return;
    }
    for (uint32_t i = 0; i < p->entry_count; i++) {
        const pak_entry *en = &p->entries[i];
        entries++;
        if (!en->in_bounds) {
            failed++;
            continue;
        }
        hash_entry(en, data + en->offset);
    }
    pak_close(p);
}

/* the hash of entry en's stored bytes (inflated when compressed), into the counters */
static void hash_entry(const pak_entry *en, const uint8_t *stored)
{
    if (!en->compressed) {
        sum += hash_resource(stored, en->size);
        return;
    }
    uint8_t *out = NULL;
    size_t len = 0;
    util_err e;
    util_err_clear(&e);
    if (pak_inflate_bytes(&out, &len, stored, en->size, 1, PAK_MAX_INFLATE, en->offset, &e) != 0) {
        failed++;
        return;
    }
    inflated++;
    inflated_bytes += len;
    sum += hash_resource(out, len);
    free(out);
}

static const pak_entry *g_sort_entries;

static int by_offset(const void *a, const void *b)
{
    uint64_t x = g_sort_entries[*(const uint32_t *)a].offset;
    uint64_t y = g_sort_entries[*(const uint32_t *)b].offset;
    return x < y ? -1 : x > y;
}

static void full_file(const char *path)
{
    pak_file *p = NULL;
    util_src *src = NULL;
    util_err e;
    util_err_clear(&e);
    if (util_src_open_file(&src, path, &e) != 0 || pak_open_src_tables(&p, src, &e) != 0) {
        fprintf(stderr, "%s: %s\n", path, e.msg);
        util_src_close(src);
        return;
    }
    uint32_t *order = malloc((p->entry_count ? p->entry_count : 1) * sizeof *order);
    if (!order) {
        fprintf(stderr, "%s: out of memory\n", path);
        pak_close(p);
        util_src_close(src);
        return;
    }
    for (uint32_t i = 0; i < p->entry_count; i++)
        order[i] = i;
    g_sort_entries = p->entries;
    qsort(order, p->entry_count, sizeof *order, by_offset);
    static uint8_t *data; /* kept from entry to entry and PAK to PAK */
    static size_t cap;
    for (uint32_t k = 0; k < p->entry_count; k++) {
        const pak_entry *en = &p->entries[order[k]];
        entries++;
        if (!en->in_bounds) {
            failed++;
            continue;
        }
        if (en->size > cap) {
            free(data);
            cap = en->size;
            data = malloc(cap);
            if (!data) {
                cap = 0;
                failed++;
                continue;
            }
        }
        if (util_src_read(src, data, en->offset, en->size, &e) != 0) {
            failed++;
            continue;
        }
        total += en->size;
        hash_entry(en, data);
    }
    free(order);
    pak_close(p);
    util_src_close(src);
}

int main(int argc, char **argv)
{
    int full = 0, i = 1;
    if (argc > 1 && (!strcmp(argv[1], "--full") || !strcmp(argv[1], "--full-whole"))) {
        full = strcmp(argv[1], "--full") ? 2 : 1;
        i++;
    }
    void (*fn)(const char *) = full == 2 ? full_whole : full ? full_file : read_file;
    for (; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISREG(st.st_mode))
            fn(argv[i]);
        else
            bench_walk(argv[i], fn);
    }
    if (full)
        printf("read %" PRIu64 " bytes, %" PRIu64 " entries, %" PRIu64 " inflated (%" PRIu64
               " bytes), %" PRIu64 " unreadable (checksum %" PRIu64 ")\n",
               total, entries, inflated, inflated_bytes, failed, sum);
    else
        printf("read %" PRIu64 " bytes (checksum %" PRIu64 ")\n", total, sum);
    return 0;
}
