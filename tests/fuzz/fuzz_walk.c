/* fuzz_walk.c — the folder walk (iw_add_path, which uses disc_open_extracted for an extracted
 * disc) over a tree the input describes, built in a scratch folder: folders, *.pak files,
 * symbolic links to a file outside the tree, to a folder outside it, to an ancestor (a loop),
 * dangling links, and extracted-disc layouts (sys/boot.bin from the input beside files/).
 * Invariants: the walk ends; nothing is read from the folder outside that only a link to a
 * folder leads to; no PAK is listed twice; every fault names a stage. */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE
#include <ftw.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest_walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int sp(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* snprintf into buf[cap]: -1 when it did not fit */
static int sp(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}
#define SP(buf, ...) sp((buf), sizeof(buf), __VA_ARGS__)

#define MAX_OPS   64
#define MAX_DEPTH 8

static char g_base[64]; /* scratch folder: base/root (the tree), base/out (outside) */

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    if (remove(path) != 0) {
        chmod(path, 0700);
        remove(path);
    }
    return 0;
}

/* The scratch folder goes when the fuzzer exits (a run that ends by its time limit too). */
static void remove_base(void)
{
    if (g_base[0])
        nftw(g_base, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void write_file(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    if (n)
        fwrite(p, 1, n, f);
    fclose(f);
}

static int on_fault(void *ctx, const char *path, size_t rel, const char *stage, uint64_t off,
                    const char *msg)
{
    (void)ctx, (void)rel, (void)off;
    if (!path || !stage || !msg || strcmp(stage, "pak"))
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[4096], target[4096];
    if (!g_base[0]) {
        /* $TMPDIR when set (a memory file system makes this target several times faster) */
        const char *tmp = getenv("TMPDIR");
        if (!tmp || !*tmp || strlen(tmp) > sizeof g_base - 20)
            tmp = "/tmp";
        snprintf(g_base, sizeof g_base, "%s/fuzz_walk.XXXXXX", tmp);
        if (!mkdtemp(g_base))
            abort();
        atexit(remove_base);
        /* outside, made once (the walk only reads): out/x.pak (a link to a file may lead
         * there), out/d/y.pak (only a link to a folder leads there) */
        snprintf(path, sizeof path, "%s/out", g_base);
        mkdir(path, 0755);
        snprintf(path, sizeof path, "%s/out/d", g_base);
        mkdir(path, 0755);
        snprintf(path, sizeof path, "%s/out/x.pak", g_base);
        write_file(path, (const uint8_t *)"x", 1);
        snprintf(path, sizeof path, "%s/out/d/y.pak", g_base);
        write_file(path, (const uint8_t *)"y", 1);
    }
    snprintf(path, sizeof path, "%s/root", g_base);
    nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);

    char cur[4096];
    snprintf(cur, sizeof cur, "%s/root", g_base);
    mkdir(cur, 0755);
    size_t lens[MAX_DEPTH + 1];
    int depth = 0;
    lens[0] = strlen(cur);
    size_t i = 0;
    for (unsigned op_n = 0; i < size && op_n < MAX_OPS; op_n++) {
        uint8_t op = data[i++];
        char name[16];
        size_t nlen = i < size ? data[i++] % 6 : 0;
        size_t k = 0;
        k += (size_t)snprintf(name, sizeof name, "%u", op_n);
        for (size_t j = 0; j < nlen && i < size && k + 1 < sizeof name; j++)
            name[k++] = "abcdefghijklmnopqrstuvwxyz._-AZ"[data[i++] % 31];
        name[k] = 0;
        int n = SP(path, "%s/%s%s", cur, name, (op & 8) ? ".PAK" : ".pak");
        if (n < 0 || (size_t)n >= sizeof path)
            break;
        switch (op % 8) {
        case 0: /* a file */
            write_file(path, data + i, size - i < 8 ? size - i : 8);
            break;
        case 1: /* a folder, entered */
            SP(path, "%s/%s", cur, name);
            if (depth < MAX_DEPTH && mkdir(path, 0755) == 0) {
                SP(cur, "%s", path);
                lens[++depth] = strlen(cur);
            }
            break;
        case 2: /* back up */
            if (depth > 0)
                cur[lens[--depth]] = 0;
            break;
        case 3: /* a link to a file outside */
            SP(target, "%s/out/x.pak", g_base);
            if (symlink(target, path) != 0)
                break;
            break;
        case 4: /* a link to a folder outside */
            SP(path, "%s/%s", cur, name);
            SP(target, "%s/out/d", g_base);
            if (symlink(target, path) != 0)
                break;
            break;
        case 5: /* a link to the folder above (a loop) */
            SP(path, "%s/%s", cur, name);
            if (symlink("..", path) != 0)
                break;
            break;
        case 6: /* a dangling link */
            if (symlink("nowhere/at/all.pak", path) != 0)
                break;
            break;
        case 7: /* an extracted disc: sys/boot.bin (the next 0x440 bytes) and files/, entered */
            SP(path, "%s/%s", cur, name);
            if (depth + 1 >= MAX_DEPTH || mkdir(path, 0755) != 0)
                break;
            SP(cur, "%s", path);
            SP(path, "%s/sys", cur);
            mkdir(path, 0755);
            SP(path, "%s/sys/boot.bin", cur);
            {
                size_t take = size - i < 0x440 ? size - i : 0x440;
                write_file(path, data + i, take);
                i += take;
            }
            SP(path, "%s/files", cur);
            mkdir(path, 0755);
            SP(cur, "%s", path);
            lens[++depth] = strlen(cur);
            break;
        }
    }

    iw_list l;
    memset(&l, 0, sizeof l);
    l.fault = on_fault;
    util_err e;
    util_err_clear(&e);
    snprintf(path, sizeof path, "%s/root", g_base);
    int rc = iw_add_path(&l, path, &e);
    if (rc != 0 && rc != UTIL_ENOMEM)
        abort();
    snprintf(target, sizeof target, "%s/out/d/", g_base);
    for (size_t a = 0; a < l.nitems; a++) {
        if (strstr(l.items[a].path, target) || (l.items[a].file && strstr(l.items[a].file, target)))
            abort(); /* read through a link to a folder */
        for (size_t b = a + 1; b < l.nitems; b++)
            if (!strcmp(l.items[a].path, l.items[b].path))
                abort(); /* listed twice */
    }
    iw_free(&l);
    return 0;
}
