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
#include <unistd.h>

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

/* path made absolute without following its last component (which may not exist): the
 * real path of its folder and its name; NULL: out of memory. */
static char *abs_path(const char *path)
{
    char *real = realpath(path, NULL);
    if (real)
        return real;
    const char *sl = strrchr(path, '/');
    char *dir = sl ? strndup(path, sl == path ? 1 : (size_t)(sl - path)) : strdup(".");
    if (!dir)
        return NULL;
    char *rdir = realpath(dir, NULL);
    free(dir);
    const char *name = sl ? sl + 1 : path;
    if (!rdir) {
        if (path[0] == '/')
            return strdup(path);
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd))
            return strdup(path);
        rdir = strdup(cwd);
        name = path;
        if (!rdir)
            return NULL;
    }
    size_t n = strlen(rdir) + strlen(name) + 2;
    char *out = malloc(n);
    if (out)
        snprintf(out, n, "%s%s%s", rdir, rdir[strlen(rdir) - 1] == '/' ? "" : "/", name);
    free(rdir);
    return out;
}

/* A path that cannot be read as a PAK: one load_errors row under its absolute path (the
 * row of an earlier run for it is replaced). */
static int walk_fault(ing *g, const char *path, const char *msg)
{
    char *ap = abs_path(path);
    if (!ap)
        return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    int rc = dbi_exec_bind(g->d,
                           "DELETE FROM load_errors WHERE pak_path = ?1 AND entry_index IS NULL "
                           "AND pak_path NOT IN (SELECT path FROM paks)",
                           0, ap, g->err);
    if (!rc)
        rc = ing_fault(g, ap, NULL, -1, 0, 0, "pak", UINT64_MAX, msg);
    free(ap);
    return rc;
}

/* Before an argument is walked: forget the faults of earlier runs about paths at or under
 * it that are not PAKs of the database (those still unreadable are recorded again, those
 * fixed or removed are gone). */
static int forget_walk_faults(ing *g, const char *arg)
{
    char *ap = abs_path(arg);
    if (!ap)
        return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    size_t n = strlen(ap);
    while (n > 1 && ap[n - 1] == '/')
        ap[--n] = 0;
    int rc = dbi_exec_bind(g->d,
                           "DELETE FROM load_errors WHERE entry_index IS NULL AND (pak_path = ?1 "
                           "OR substr(pak_path, 1, length(?1) + 1) = rtrim(?1, '/') || '/') AND "
                           "pak_path NOT IN (SELECT path FROM paks)",
                           0, ap, g->err);
    free(ap);
    return rc;
}

int ing_walk(ing *g, const char *path, int explicit_arg, int depth)
{
    struct stat sb;
    int rc = 0;
    if (explicit_arg && depth == 0 && (rc = forget_walk_faults(g, path)) != 0)
        return rc;
    if (stat(path, &sb) != 0) {
        if (explicit_arg || is_pak_name(path)) {
            char msg[192];
            snprintf(msg, sizeof msg, "cannot stat: %s", strerror(errno));
            return walk_fault(g, path, msg);
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
            return walk_fault(g, path, "not a regular file or folder");
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
        return walk_fault(g, path, msg);
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
