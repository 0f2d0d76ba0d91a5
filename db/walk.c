/* walk.c — finding PAKs: a path given on the command line is taken as it is; folders are
 * searched recursively for *.pak in any case, in name order, each directory and file once
 * (symbolic-link loops end there). What cannot be read becomes a load_errors row. */
#define _XOPEN_SOURCE 700 /* realpath */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ingest_internal.h"

static int seen_add(ing *g, const struct stat *sb)
{
    for (size_t i = 0; i < g->nseen; i++)
        if (g->seen[i].dev == sb->st_dev && g->seen[i].ino == sb->st_ino)
            return 1;
    if (g->nseen == g->capseen) {
        size_t cap = g->capseen ? g->capseen * 2 : 64;
        ing_devino *n = realloc(g->seen, cap * sizeof *n);
        if (!n)
            return -1;
        g->seen = n;
        g->capseen = cap;
    }
    g->seen[g->nseen].dev = sb->st_dev;
    g->seen[g->nseen].ino = sb->st_ino;
    g->nseen++;
    return 0;
}

static int add_file(ing *g, const char *path)
{
    char *real = realpath(path, NULL);
    if (!real)
        real = strdup(path);
    if (!real)
        return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    if (g->nfiles == g->capfiles) {
        size_t cap = g->capfiles ? g->capfiles * 2 : 64;
        char **n = realloc(g->files, cap * sizeof *n);
        if (!n) {
            free(real);
            return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        }
        g->files = n;
        g->capfiles = cap;
    }
    g->files[g->nfiles++] = real;
    return 0;
}

static int cmp_name(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int c = strcasecmp(x, y);
    return c ? c : strcmp(x, y);
}

static int is_pak_name(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && !strcasecmp(name + n - 4, ".pak");
}

int ing_walk(ing *g, const char *path, int explicit_arg, int depth)
{
    struct stat sb;
    int rc = 0;
    if (stat(path, &sb) != 0) {
        if (explicit_arg || is_pak_name(path)) {
            char msg[192];
            snprintf(msg, sizeof msg, "cannot stat: %s", strerror(errno));
            return ing_fault(g, path, NULL, -1, 0, 0, "pak", UINT64_MAX, msg);
        }
        return 0;
    }
    if (S_ISREG(sb.st_mode)) {
        if (!explicit_arg && !is_pak_name(path))
            return 0;
        int r = seen_add(g, &sb);
        if (r < 0)
            return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        return r ? 0 : add_file(g, path);
    }
    if (!S_ISDIR(sb.st_mode)) {
        /* a FIFO, socket or device named *.pak is recorded, never opened (a FIFO blocks) */
        if (explicit_arg || is_pak_name(path))
            return ing_fault(g, path, NULL, -1, 0, 0, "pak", UINT64_MAX,
                             "not a regular file or folder");
        return 0;
    }
    int r = seen_add(g, &sb);
    if (r < 0)
        return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    if (r || depth > 64)
        return 0; /* already visited (symlink loop) or absurdly deep */
    DIR *dir = opendir(path);
    if (!dir) {
        char msg[192];
        snprintf(msg, sizeof msg, "cannot open folder: %s", strerror(errno));
        return ing_fault(g, path, NULL, -1, 0, 0, "pak", UINT64_MAX, msg);
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) {
                rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
                break;
            }
            names = nn;
        }
        if (!(names[n] = strdup(de->d_name))) {
            rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
            break;
        }
        n++;
    }
    closedir(dir);
    if (!rc && n) /* an empty folder has no list: qsort(NULL, 0) is undefined */
        qsort(names, n, sizeof *names, cmp_name);
    for (size_t i = 0; i < n && !rc; i++) {
        size_t len = strlen(path) + strlen(names[i]) + 2;
        char *sub = malloc(len);
        if (!sub) {
            rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
            break;
        }
        snprintf(sub, len, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/", names[i]);
        rc = ing_walk(g, sub, 0, depth + 1);
        free(sub);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}
