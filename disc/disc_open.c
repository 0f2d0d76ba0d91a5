/* disc_open.c — a disc image opened through a byte source (header, then the FST read once
 * after its offset and size are checked against the image), Dolphin's extracted layout, and
 * each file as a byte source. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "disc.h"

typedef struct disc_priv {
    util_arena arena;  /* FST files and paths, the extracted folder's name */
    util_src *own_src; /* the image source when the disc opened it */
} disc_priv;

static int disc_new(disc_image **out, util_err *err)
{
    disc_image *d = calloc(1, sizeof *d);
    disc_priv *p = calloc(1, sizeof *p);
    if (!d || !p) {
        free(d);
        free(p);
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    }
    util_arena_init(&p->arena);
    d->priv = p;
    *out = d;
    return 0;
}

void disc_close(disc_image *d)
{
    if (!d)
        return;
    disc_priv *p = d->priv;
    if (p) {
        util_arena_free(&p->arena);
        util_src_close(p->own_src);
        free(p);
    }
    free(d);
}

int disc_open_src(disc_image **out, util_src *src, util_err *err)
{
    *out = NULL;
    disc_image *d = NULL;
    uint8_t *fst = NULL;
    uint8_t head[DISC_HEADER_SIZE];
    uint64_t size = util_src_size(src);
    int rc;
    if (size < DISC_HEADER_SIZE) {
        size_t n = (size_t)size;
        rc = util_src_read(src, head, 0, n, err);
        if (rc == 0)
            rc = disc_parse_header(NULL, head, n, err); /* names the container, or ETRUNC */
        return rc;
    }
    rc = util_src_read(src, head, 0, DISC_HEADER_SIZE, err);
    if (rc == 0)
        rc = disc_new(&d, err);
    if (rc)
        return rc;
    d->src = src;
    d->size = size;
    d->container.kind = DISC_KIND_GCM;
    d->container.file_size = size;
    d->container.disc_size = size;
    d->container.compression = "none";
    rc = disc_parse_header(&d->header, head, sizeof head, err);
    if (rc)
        goto done;
    const disc_header *h = &d->header;
    if (h->fst_size == 0 || h->fst_size > DISC_MAX_FST_SIZE) {
        rc = util_fail(err, UTIL_EFORMAT, 0x428, "FST size %u is %s", h->fst_size,
                       h->fst_size ? "larger than "
                                     "16 MiB"
                                   : "zero");
        goto done;
    }
    if (h->fst_offset > size || h->fst_size > size - h->fst_offset) {
        rc = util_fail(err, UTIL_EFORMAT, 0x424,
                       "FST of %u bytes at 0x%x runs past the end of the image (%llu bytes)",
                       h->fst_size, h->fst_offset, (unsigned long long)size);
        goto done;
    }
    rc = util_src_read_alloc(src, &fst, h->fst_offset, h->fst_size, err);
    if (rc)
        goto done;
    rc = disc_fst_parse(&d->fst, fst, h->fst_size, h->fst_offset, size,
                        &((disc_priv *)d->priv)->arena, err);
done:
    free(fst);
    if (rc) {
        disc_close(d);
        return rc;
    }
    *out = d;
    return 0;
}

/* Open a source with open_fn, then the disc on it; the disc owns the source. */
static int open_owned(disc_image **out, util_src *src, util_err *err)
{
    int rc = disc_open_src(out, src, err);
    if (rc) {
        util_src_close(src);
        return rc;
    }
    ((disc_priv *)(*out)->priv)->own_src = src;
    return 0;
}

int disc_open_path(disc_image **out, const char *path, size_t cache_bytes, util_err *err)
{
    *out = NULL;
    util_src *file = NULL, *src = NULL;
    disc_container_info info;
    int rc = util_src_open_file(&file, path, err);
    if (rc)
        return rc;
    if ((rc = disc_container_open(&src, file, cache_bytes, &info, err)) != 0) {
        util_src_close(file);
        return rc;
    }
    if ((rc = open_owned(out, src, err)) != 0)
        return rc;
    (*out)->container = info;
    return 0;
}

int disc_open_file(disc_image **out, const char *path, util_err *err)
{
    return disc_open_path(out, path, 0, err);
}

int disc_open_mem(disc_image **out, const uint8_t *p, size_t len, util_err *err)
{
    *out = NULL;
    util_src *src = NULL;
    int rc = util_src_open_mem(&src, p, len, err);
    return rc ? rc : open_owned(out, src, err);
}

const disc_file *disc_find(const disc_image *d, const char *path)
{
    return disc_fst_find(&d->fst, path);
}

int disc_file_open(util_src **out, const disc_image *d, const disc_file *f, util_err *err)
{
    *out = NULL;
    if (d->dir) {
        char *full = NULL;
        size_t n = strlen(d->dir) + strlen(f->path) + sizeof "/files/";
        if (!(full = malloc(n)))
            return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        snprintf(full, n, "%s/files/%s", d->dir, f->path);
        int rc = util_src_open_file(out, full, err);
        free(full);
        return rc;
    }
    if (!f->in_bounds)
        return util_fail(err, UTIL_EFORMAT, f->offset,
                         "%s: %llu bytes at 0x%llx run past the end of the image (%llu bytes)",
                         f->path, (unsigned long long)f->length, (unsigned long long)f->offset,
                         (unsigned long long)d->size);
    return util_src_open_range(out, d->src, f->offset, f->length, err);
}

/* ---- Dolphin's extracted layout -------------------------------------------------------- */

static int join(char *buf, size_t cap, const char *a, const char *b)
{
    int n = snprintf(buf, cap, "%s/%s", a, b);
    return n >= 0 && (size_t)n < cap ? 0 : -1;
}

int disc_is_extracted(const char *dir)
{
    char path[4096];
    struct stat st;
    if (join(path, sizeof path, dir, "sys/boot.bin") || stat(path, &st) != 0 ||
        !S_ISREG(st.st_mode))
        return 0;
    if (join(path, sizeof path, dir, "files") || stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return 0;
    return 1;
}

/* The files found so far; paths relative to files/. */
typedef struct file_list {
    disc_file *v;
    size_t n, cap;
    util_arena *arena;
    char **bad; /* folders that could not be read: "PATH: reason" (arena strings) */
    size_t nbad, capbad;
} file_list;

static int list_bad(file_list *l, const char *rel, const char *reason, util_err *err)
{
    if (l->nbad == UINT32_MAX)
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "too many unreadable folders");
    if (l->nbad == l->capbad) {
        size_t cap = l->capbad ? l->capbad * 2 : 8;
        char **v = realloc(l->bad, cap * sizeof *v);
        if (!v)
            return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        l->bad = v;
        l->capbad = cap;
    }
    size_t need = strlen(rel) + strlen(reason) + 3;
    char *s = util_arena_alloc(l->arena, need);
    if (!s)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    snprintf(s, need, "%s: %s", rel, reason);
    l->bad[l->nbad++] = s;
    return 0;
}

static int list_add(file_list *l, const char *rel, uint64_t size, util_err *err)
{
    if (l->n == UINT32_MAX)
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "too many files");
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        disc_file *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        l->v = v;
        l->cap = cap;
    }
    char *path = util_arena_strdup(l->arena, rel);
    if (!path)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    disc_file *f = &l->v[l->n++];
    memset(f, 0, sizeof *f);
    f->path = path;
    f->name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    f->length = size;
    f->in_bounds = 1;
    return 0;
}

/* Walk root/rel (rel "" for files/ itself) into l. */
static int walk_dir(file_list *l, const char *root, const char *rel, unsigned depth, util_err *err)
{
    char dir_path[4096], child[4096], child_rel[DISC_MAX_PATH + 1];
    if (depth > DISC_MAX_DEPTH)
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "%s/files/%s: folders nest deeper than %u",
                         root, rel, DISC_MAX_DEPTH);
    if (snprintf(dir_path, sizeof dir_path, "%s/files%s%s", root, *rel ? "/" : "", rel) >=
        (int)sizeof dir_path)
        return util_fail(err, UTIL_EIO, UINT64_MAX, "%s/files/%s: path too long", root, rel);
    DIR *dh = opendir(dir_path);
    if (!dh && *rel) /* a folder below files/: left out, listed */
        return list_bad(l, rel, strerror(errno), err);
    if (!dh)
        return util_fail(err, UTIL_EIO, UINT64_MAX, "cannot open folder %s: %s", dir_path,
                         strerror(errno));
    int rc = 0;
    struct dirent *de;
    while (rc == 0 && (de = readdir(dh)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (join(child, sizeof child, dir_path, de->d_name) ||
            snprintf(child_rel, sizeof child_rel, "%s%s%s", rel, *rel ? "/" : "", de->d_name) >=
                (int)sizeof child_rel) {
            rc = util_fail(err, UTIL_EIO, UINT64_MAX, "%s/%s: path too long", dir_path, de->d_name);
            break;
        }
        uint64_t size;
        util_walk_kind k = util_walk_classify(child, &size);
        if (k == UTIL_WALK_DIR)
            rc = walk_dir(l, root, child_rel, depth + 1, err);
        else if (k == UTIL_WALK_FILE)
            rc = list_add(l, child_rel, size, err);
        /* a link to a folder is not entered; vanished entries and devices hold nothing */
    }
    closedir(dh);
    return rc;
}

static int cmp_path(const void *a, const void *b)
{
    return strcmp(((const disc_file *)a)->path, ((const disc_file *)b)->path);
}

int disc_open_extracted(disc_image **out, const char *dir, util_err *err)
{
    *out = NULL;
    disc_image *d = NULL;
    util_src *boot = NULL;
    file_list l = {0};
    char path[4096];
    uint8_t head[DISC_HEADER_SIZE];
    int rc = disc_new(&d, err);
    if (rc)
        return rc;
    disc_priv *p = d->priv;
    if (join(path, sizeof path, dir, "sys/boot.bin")) {
        rc = util_fail(err, UTIL_EIO, UINT64_MAX, "%s: path too long", dir);
        goto done;
    }
    rc = util_src_open_file(&boot, path, err);
    if (rc)
        goto done;
    if (util_src_size(boot) < DISC_HEADER_SIZE) {
        rc = util_fail(err, UTIL_ETRUNC, util_src_size(boot),
                       "%s: %llu bytes, a disc header needs 0x%x", path,
                       (unsigned long long)util_src_size(boot), DISC_HEADER_SIZE);
        goto done;
    }
    rc = util_src_read(boot, head, 0, sizeof head, err);
    if (rc == 0)
        rc = disc_parse_header(&d->header, head, sizeof head, err);
    if (rc)
        goto done;
    d->dir = util_arena_strdup(&p->arena, dir);
    if (!d->dir) {
        rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        goto done;
    }
    l.arena = &p->arena;
    rc = walk_dir(&l, dir, "", 0, err);
    if (rc)
        goto done;
    if (l.n)
        qsort(l.v, l.n, sizeof *l.v, cmp_path);
    d->fst.files = util_arena_array(&p->arena, l.n ? l.n : 1, sizeof *l.v);
    if (!d->fst.files) {
        rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < l.n; i++) {
        d->fst.files[i] = l.v[i];
        d->fst.files[i].index = (uint32_t)i;
    }
    d->fst.file_count = (uint32_t)l.n;
    if (l.nbad) {
        d->unreadable = util_arena_array(&p->arena, l.nbad, sizeof *l.bad);
        if (!d->unreadable) {
            rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
            goto done;
        }
        memcpy(d->unreadable, l.bad, l.nbad * sizeof *l.bad);
        d->unreadable_count = (uint32_t)l.nbad;
    }
done:
    free(l.v);
    free(l.bad);
    util_src_close(boot);
    if (rc) {
        disc_close(d);
        return rc;
    }
    *out = d;
    return 0;
}
