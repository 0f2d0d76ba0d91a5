/* ingest_walk.c — from the PATHs given to the releases and PAKs an ingest reads (see
 * ingest_walk.h). Disc images are opened here (header and FST) and stay open while the
 * ingest reads their PAKs in place. */
#define _XOPEN_SOURCE 700 /* realpath */
#define _DEFAULT_SOURCE
#include "ingest_walk.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

struct iw_seen {
    dev_t dev;
    ino_t ino;
};

#define IW_MAX_DEPTH 64

static int oom(util_err *err)
{
    return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
}

pak_game iw_game_of_code(const char *code)
{
    if (!code)
        return PAK_GAME_UNKNOWN;
    if (!strncmp(code, "GM8", 3))
        return PAK_GAME_MP1;
    if (!strncmp(code, "G2M", 3))
        return PAK_GAME_MP2;
    return PAK_GAME_UNKNOWN;
}

/* 1 when (dev, ino) was visited already; -1 out of memory. */
static int seen_add(iw_list *l, const struct stat *sb)
{
    for (size_t i = 0; i < l->nseen; i++)
        if (l->seen[i].dev == sb->st_dev && l->seen[i].ino == sb->st_ino)
            return 1;
    if (l->nseen == l->capseen) {
        size_t cap = l->capseen ? l->capseen * 2 : 64;
        struct iw_seen *n = realloc(l->seen, cap * sizeof *n);
        if (!n)
            return -1;
        l->seen = n;
        l->capseen = cap;
    }
    l->seen[l->nseen].dev = sb->st_dev;
    l->seen[l->nseen].ino = sb->st_ino;
    l->nseen++;
    return 0;
}

static const char *base_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}

static int has_suffix(const char *name, const char *suf)
{
    size_t n = strlen(name), k = strlen(suf);
    return n > k && !strcasecmp(name + n - k, suf);
}

static int is_pak_name(const char *name)
{
    return has_suffix(name, ".pak");
}

/* Disc images and the containers read in place (docs/formats.md §13), by name in folders;
 * what they are is then decided by their magic. */
static int is_image_name(const char *name)
{
    static const char *const sufs[] = {".iso", ".gcm", ".rvz", ".wia", ".gcz", ".ciso"};
    for (size_t i = 0; i < sizeof sufs / sizeof sufs[0]; i++)
        if (has_suffix(name, sufs[i]))
            return 1;
    return 0;
}

/* Names of the containers ancsdb refuses: recognised in folders by name, then by magic. */
static int is_container_name(const char *name)
{
    static const char *const sufs[] = {".wbfs", ".nkit"};
    for (size_t i = 0; i < sizeof sufs / sizeof sufs[0]; i++)
        if (has_suffix(name, sufs[i]))
            return 1;
    return 0;
}

/* Absolute form of path (realpath, else a copy). */
static char *abs_path(const char *path)
{
    char *r = realpath(path, NULL);
    return r ? r : strdup(path);
}

static int fault(iw_list *l, const char *path, size_t rel, const char *stage, uint64_t off,
                 const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int fault(iw_list *l, const char *path, size_t rel, const char *stage, uint64_t off,
                 const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return l->fault ? l->fault(l->ctx, path, rel, stage, off, msg) : 0;
}

/* The release labelled label (added when new). *out its index. */
static int rel_get(iw_list *l, const char *label, const char *source, const char *kind, size_t *out,
                   int *is_new, util_err *err)
{
    *is_new = 0;
    for (size_t i = 0; i < l->nrels; i++)
        if (!strcmp(l->rels[i].label, label)) {
            *out = i;
            return 0;
        }
    if (l->nrels == l->caprels) {
        size_t cap = l->caprels ? l->caprels * 2 : 8;
        iw_release *n = realloc(l->rels, cap * sizeof *n);
        if (!n)
            return oom(err);
        l->rels = n;
        l->caprels = cap;
    }
    iw_release *r = &l->rels[l->nrels];
    memset(r, 0, sizeof *r);
    r->release_id = -1;
    r->label = strdup(label);
    r->source = strdup(source);
    r->kind = kind;
    if (!r->label || !r->source) {
        free(r->label);
        free(r->source);
        return oom(err);
    }
    *out = l->nrels++;
    *is_new = 1;
    return 0;
}

/* Append an item (strings copied). */
static int item_add(iw_list *l, size_t rel, const char *path, const char *file,
                    const char *release_path, uint64_t off, uint64_t len, util_err *err)
{
    if (l->nitems == l->capitems) {
        size_t cap = l->capitems ? l->capitems * 2 : 64;
        iw_item *n = realloc(l->items, cap * sizeof *n);
        if (!n)
            return oom(err);
        l->items = n;
        l->capitems = cap;
    }
    iw_item *it = &l->items[l->nitems];
    memset(it, 0, sizeof *it);
    it->rel = rel;
    it->off = off;
    it->len = len;
    it->path = strdup(path);
    it->file = file ? strdup(file) : NULL;
    it->release_path = strdup(release_path);
    if (!it->path || (file && !it->file) || !it->release_path) {
        free(it->path);
        free(it->file);
        free(it->release_path);
        return oom(err);
    }
    l->nitems++;
    return 0;
}

/* What a file is from its first bytes: DISC_KIND_UNKNOWN when unreadable or not a disc. */
static disc_kind sniff_file(const char *path)
{
    util_src *s = NULL;
    uint8_t head[DISC_SNIFF_SIZE];
    if (util_src_open_file(&s, path, NULL) != 0)
        return DISC_KIND_UNKNOWN;
    uint64_t size = util_src_size(s);
    size_t n = size < sizeof head ? (size_t)size : sizeof head;
    disc_kind k = DISC_KIND_UNKNOWN;
    if (util_src_read(s, head, 0, n, NULL) == 0)
        k = disc_sniff(head, n, size);
    util_src_close(s);
    return k;
}

static int cmp_file_path(const void *a, const void *b)
{
    const disc_file *x = *(const disc_file *const *)a, *y = *(const disc_file *const *)b;
    int c = strcmp(x->path, y->path);
    return c ? c : (x < y ? -1 : x > y);
}

/* *out[i]: for the i-th FST file of dk whose path an earlier file has, that earlier (first)
 * file; else NULL (*out NULL when no path repeats). Sorted, so n log n for any FST. */
static int same_paths(const disc_image *dk, const disc_file ***out, util_err *err)
{
    uint32_t n = dk->fst.file_count;
    *out = NULL;
    if (n < 2)
        return 0;
    const disc_file **v = malloc(n * sizeof *v);
    if (!v)
        return oom(err);
    for (uint32_t i = 0; i < n; i++)
        v[i] = &dk->fst.files[i];
    qsort(v, n, sizeof *v, cmp_file_path);
    const disc_file **first = NULL;
    for (uint32_t i = 1; i < n; i++) {
        if (strcmp(v[i]->path, v[i - 1]->path))
            continue;
        if (!first && !(first = calloc(n, sizeof *first))) {
            free(v);
            return oom(err);
        }
        /* the run's first entry (lowest FST position) is the one read */
        uint32_t k = i - 1;
        while (first[v[k] - dk->fst.files])
            k--;
        first[v[i] - dk->fst.files] = v[k];
    }
    free(v);
    *out = first;
    return 0;
}

/* A disc image: its release (from the header) and every *.pak of its FST. */
static int add_image(iw_list *l, const char *path, util_err *err)
{
    char *abs = abs_path(path);
    if (!abs)
        return oom(err);
    disc_image *dk = NULL;
    util_err e;
    util_err_clear(&e);
    int rc = disc_open_path(&dk, abs, l->cache_bytes, &e);
    if (rc != 0) {
        free(abs);
        if (rc == UTIL_ENOMEM)
            return oom(err);
        return fault(l, path, SIZE_MAX, "pak", e.offset, "%s", e.msg);
    }
    uint32_t unit = dk->container.cache_unit;
    if (l->unit_max && unit > l->unit_max) {
        /* its reader keeps one decoded block or group whole: it must fit the budget */
        disc_kind k = dk->container.kind;
        disc_close(dk);
        free(abs);
        size_t need = ((size_t)unit * 4 + (1u << 20) - 1) >> 20;
        return fault(l, path, SIZE_MAX, "pak", UINT64_MAX,
                     "%s: each %s of %u KiB is kept decoded whole, more than a quarter of the "
                     "memory budget (%zu MiB): ingest --memory %zu or more reads it",
                     disc_kind_name(k), k == DISC_KIND_GCZ ? "block" : "group", unit >> 10,
                     l->memory >> 20, need);
    }
    size_t ri;
    int is_new;
    if ((rc = rel_get(l, dk->header.label, abs, "image", &ri, &is_new, err)) != 0) {
        disc_close(dk);
        free(abs);
        return rc;
    }
    iw_release *r = &l->rels[ri];
    if (!is_new) {
        /* the same release again (a copy of the image): read it from here instead */
        disc_close(r->image);
        r->image = NULL;
        free(r->source);
        r->source = strdup(abs);
        if (!r->source) {
            disc_close(dk);
            free(abs);
            return oom(err);
        }
        r->kind = "image";
        /* its earlier items now come from this image */
        size_t k = 0;
        for (size_t i = 0; i < l->nitems; i++) {
            if (l->items[i].rel == ri) {
                free(l->items[i].path);
                free(l->items[i].file);
                free(l->items[i].release_path);
                continue;
            }
            l->items[k++] = l->items[i];
        }
        l->nitems = k;
    }
    /* a container cut short: one row for the cut; its PAKs before it are read, each one past
     * it is a fault of its own when read */
    if (dk->container.stated_size &&
        (rc = fault(l, path, ri, "pak", dk->container.file_size,
                    "%s file cut short: it ends at 0x%" PRIx64 ", its header says 0x%" PRIx64
                    " (the PAKs in the bytes that are there are read)",
                    disc_kind_name(dk->container.kind), dk->container.file_size,
                    dk->container.stated_size)) != 0) {
        disc_close(dk);
        free(abs);
        return rc;
    }
    r->has_disc = 1;
    r->hdr = dk->header;
    r->whole = 1;
    r->game = iw_game_of_code(dk->header.game_code);
    r->image = dk;
    /* FST entries left out for their names: a row each (the first DISC_FST_SKIPS_LISTED, then
     * one for the rest), at the name; the rest of the disc is read */
    for (uint32_t i = 0; i < dk->fst.skipped_listed && !rc; i++) {
        const disc_fst_skip *k = &dk->fst.skipped[i];
        rc = fault(l, path, ri, "pak", k->name_offset,
                   "FST entry %" PRIu32 " (at 0x%" PRIx64 "): %s name \"%s\" is empty, a dot "
                   "name or holds '/': left out%s; the rest of the disc is read",
                   k->index, k->entry_offset, k->is_dir ? "directory" : "file", k->name,
                   k->is_dir ? " with everything below it" : "");
    }
    if (!rc && dk->fst.skipped_count > dk->fst.skipped_listed)
        rc = fault(l, path, ri, "pak", dk->header.fst_offset,
                   "FST: %" PRIu32 " more entries left out for their names (the first %" PRIu32
                   " are listed)",
                   dk->fst.skipped_count - dk->fst.skipped_listed, dk->fst.skipped_listed);
    if (rc) {
        free(abs);
        return rc;
    }
    const disc_file **first_of_path = NULL;
    if ((rc = same_paths(dk, &first_of_path, err)) != 0) {
        free(abs);
        return rc;
    }
    for (uint32_t i = 0; i < dk->fst.file_count && !rc; i++) {
        const disc_file *f = &dk->fst.files[i];
        if (!is_pak_name(f->name))
            continue;
        size_t need = strlen(abs) + strlen(f->path) + 2;
        char *p = malloc(need);
        if (!p) {
            rc = oom(err);
            break;
        }
        snprintf(p, need, "%s:%s", abs, f->path);
        /* two FST entries with one path: the first is read, the second is a load_errors row
         * at its FST entry (one path inside a release names one PAK) */
        const disc_file *same = first_of_path ? first_of_path[i] : NULL;
        if (same) {
            /* its own path (IMAGE:PATH#ENTRY): the row must outlive the first's re-reads */
            char *q = malloc(need + 16);
            if (!q) {
                free(p);
                rc = oom(err);
                break;
            }
            snprintf(q, need + 16, "%s#%" PRIu32, p, f->index);
            free(p);
            p = q;
            rc = fault(l, p, ri, "pak", f->entry_offset,
                       "%s: a second FST entry for this path (entry %" PRIu32 ", at 0x%" PRIx64
                       "; the first, entry %" PRIu32 " at 0x%" PRIx64 ", is read)",
                       f->path, f->index, f->entry_offset, same->index, same->entry_offset);
        } else if (!f->in_bounds)
            rc = fault(l, p, ri, "pak", f->offset,
                       "%s: file of %" PRIu64 " bytes at 0x%" PRIx64
                       " runs past the end of the image (%" PRIu64 " bytes; truncated?)",
                       f->path, f->length, f->offset, dk->size);
        else
            rc = item_add(l, ri, p, NULL, f->path, f->offset, f->length, err);
        free(p);
    }
    free(first_of_path);
    free(abs);
    return rc;
}

/* The PAKs of the extracted disc dk (at abs) as items of release ri: the disc's own walk
 * of files/ (disc_open_extracted, by util_walk_classify's rule), and one fault per folder
 * below files/ that it could not read (the rest of the disc is still read). */
static int extracted_items(iw_list *l, const disc_image *dk, const char *abs, size_t ri,
                           util_err *err)
{
    int rc = 0;
    for (uint32_t i = 0; i < dk->unreadable_count && !rc; i++) {
        const char *colon = strstr(dk->unreadable[i], ": ");
        size_t n = colon ? (size_t)(colon - dk->unreadable[i]) : strlen(dk->unreadable[i]);
        size_t need = strlen(abs) + n + sizeof "/files/";
        char *p = malloc(need);
        if (!p)
            return oom(err);
        snprintf(p, need, "%s/files/%.*s", abs, (int)n, dk->unreadable[i]);
        rc = fault(l, p, ri, "pak", UINT64_MAX, "cannot open folder: %s",
                   colon ? colon + 2 : "unreadable");
        free(p);
    }
    for (uint32_t i = 0; i < dk->fst.file_count && !rc; i++) {
        const disc_file *f = &dk->fst.files[i];
        if (!is_pak_name(f->name))
            continue;
        size_t need = strlen(abs) + strlen(f->path) + sizeof "/files/";
        char *p = malloc(need);
        if (!p)
            return oom(err);
        snprintf(p, need, "%s/files/%s", abs, f->path);
        rc = item_add(l, ri, p, p, f->path, 0, 0, err);
        free(p);
    }
    return rc;
}

/* An extracted disc: the release its sys/boot.bin names, the PAKs below files/. */
static int add_extracted(iw_list *l, const char *dir, util_err *err)
{
    char *abs = abs_path(dir);
    if (!abs)
        return oom(err);
    disc_image *dk = NULL;
    util_err e;
    util_err_clear(&e);
    int rc = disc_open_extracted(&dk, abs, &e);
    if (rc != 0) {
        free(abs);
        if (rc == UTIL_ENOMEM)
            return oom(err);
        return fault(l, dir, SIZE_MAX, "pak", e.offset, "%s", e.msg);
    }
    size_t ri;
    int is_new;
    rc = rel_get(l, dk->header.label, abs, "extracted", &ri, &is_new, err);
    if (rc == 0) {
        iw_release *r = &l->rels[ri];
        if (!r->has_disc) {
            r->has_disc = 1;
            r->hdr = dk->header;
            r->game = iw_game_of_code(dk->header.game_code);
        }
        r->whole = 1;
        rc = extracted_items(l, dk, abs, ri, err);
    }
    disc_close(dk);
    free(abs);
    return rc;
}

static int cmp_name(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int c = strcasecmp(x, y);
    return c ? c : strcmp(x, y);
}

/* The sorted entry names of dir (owned: free each and the array). */
static int list_dir(iw_list *l, const char *dir, char ***out, size_t *nout, util_err *err)
{
    *out = NULL;
    *nout = 0;
    DIR *d = opendir(dir);
    if (!d)
        return fault(l, dir, SIZE_MAX, "pak", UINT64_MAX, "cannot open folder: %s",
                     strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) {
                rc = oom(err);
                break;
            }
            names = nn;
        }
        if (!(names[n] = strdup(de->d_name))) {
            rc = oom(err);
            break;
        }
        n++;
    }
    closedir(d);
    if (!rc && n)
        qsort(names, n, sizeof *names, cmp_name);
    if (rc) {
        for (size_t i = 0; i < n; i++)
            free(names[i]);
        free(names);
        return rc;
    }
    *out = names;
    *nout = n;
    return 0;
}

static char *join(const char *a, const char *b)
{
    size_t need = strlen(a) + strlen(b) + 2;
    char *p = malloc(need);
    if (p)
        snprintf(p, need, "%s%s%s", a, *a && a[strlen(a) - 1] != '/' ? "/" : "", b);
    return p;
}

/* A file met in a folder walk or given: a PAK of release ri (rel_path inside it), a disc
 * image, a refused container, or nothing of ours. explicit_arg: given on the command line. */
static int add_file(iw_list *l, const char *path, const char *rel_path, size_t ri, int explicit_arg,
                    util_err *err)
{
    const char *name = base_of(path);
    int pak = is_pak_name(name);
    if (!pak || explicit_arg) {
        if (!pak && !explicit_arg && !is_image_name(name) && !is_container_name(name))
            return 0;
        disc_kind k = sniff_file(path);
        if (k == DISC_KIND_GCM || disc_kind_container(k))
            return add_image(l, path, err);
        if (disc_kind_refused(k))
            return fault(l, path, SIZE_MAX, "pak",
                         k == DISC_KIND_WII    ? 0x18
                         : k == DISC_KIND_NKIT ? 0x200
                                               : 0,
                         "%s: %s", path, disc_kind_refusal(k));
        if (!pak && !explicit_arg)
            return fault(l, path, SIZE_MAX, "pak", 0x1C,
                         "%s: not a GameCube disc image (no 0xC2339F3D at 0x1C)", path);
    }
    char *abs = abs_path(path);
    if (!abs)
        return oom(err);
    int rc = item_add(l, ri, abs, abs, rel_path, 0, 0, err);
    free(abs);
    return rc;
}

/* Collect the *.pak files below dir (relative paths from root) into release ri, by
 * util_walk_classify's rule: links to files are read, links to folders not entered. */
static int walk_paks(iw_list *l, const char *dir, const char *rel_prefix, size_t ri, int depth,
                     util_err *err)
{
    char **names = NULL;
    size_t n = 0;
    int rc = list_dir(l, dir, &names, &n, err);
    for (size_t i = 0; i < n && !rc; i++) {
        char *sub = join(dir, names[i]);
        char *rel = *rel_prefix ? join(rel_prefix, names[i]) : strdup(names[i]);
        struct stat sb;
        util_walk_kind k = sub ? util_walk_classify(sub, NULL) : UTIL_WALK_GONE;
        if (!sub || !rel) {
            rc = oom(err);
        } else if (k == UTIL_WALK_LINKED_DIR) {
            /* a symbolic link to a folder is not entered (util_walk_classify) */
        } else if (k == UTIL_WALK_GONE || stat(sub, &sb) != 0) {
            if (is_pak_name(names[i]))
                rc = fault(l, sub, ri, "pak", UINT64_MAX, "cannot stat: %s",
                           stat(sub, &sb) != 0 ? strerror(errno) : "it vanished");
        } else if (S_ISDIR(sb.st_mode)) {
            int r = seen_add(l, &sb);
            if (r < 0)
                rc = oom(err);
            else if (r == 0 && depth < IW_MAX_DEPTH) {
                if (disc_is_extracted(sub))
                    rc = add_extracted(l, sub, err);
                else
                    rc = walk_paks(l, sub, rel, ri, depth + 1, err);
            }
        } else if (S_ISREG(sb.st_mode)) {
            int r = seen_add(l, &sb);
            if (r < 0)
                rc = oom(err);
            else if (r == 0)
                rc = add_file(l, sub, rel, ri, 0, err);
        } else if (is_pak_name(names[i])) {
            /* a FIFO, socket or device named *.pak is recorded, never opened (a FIFO blocks) */
            char *abs = abs_path(sub);
            rc = abs ? fault(l, abs, ri, "pak", UINT64_MAX, "not a regular file or folder")
                     : oom(err);
            free(abs);
        }
        free(sub);
        free(rel);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

/* The label of a release that is not a disc: --release, else the base name of path. */
static const char *plain_label(iw_list *l, const char *abs)
{
    return l->release_opt ? l->release_opt : base_of(abs);
}

int iw_add_path(iw_list *l, const char *path, util_err *err)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        char *abs = abs_path(path);
        int rc =
            abs ? fault(l, abs, SIZE_MAX, "pak", UINT64_MAX, "cannot stat: %s", strerror(errno))
                : oom(err);
        free(abs);
        return rc;
    }
    int r = seen_add(l, &sb);
    if (r < 0)
        return oom(err);
    if (r)
        return 0;
    char *abs = abs_path(path);
    if (!abs)
        return oom(err);
    int rc = 0;
    size_t ri;
    int is_new;
    if (S_ISDIR(sb.st_mode)) {
        if (disc_is_extracted(abs)) {
            rc = add_extracted(l, abs, err);
        } else if ((rc = rel_get(l, plain_label(l, abs), abs, "folder", &ri, &is_new, err)) == 0) {
            l->rels[ri].whole = 1;
            rc = walk_paks(l, abs, "", ri, 0, err);
        }
    } else if (S_ISREG(sb.st_mode)) {
        disc_kind k = sniff_file(abs);
        if (k == DISC_KIND_GCM || disc_kind_container(k)) {
            rc = add_image(l, abs, err);
        } else {
            /* a PAK file: the release of its folder */
            char *dir = strdup(abs);
            if (!dir) {
                rc = oom(err);
            } else {
                char *slash = strrchr(dir, '/');
                if (slash && slash != dir)
                    *slash = 0;
                else if (slash)
                    slash[1] = 0;
                rc = rel_get(l, plain_label(l, dir), abs, "file", &ri, &is_new, err);
                if (rc == 0)
                    rc = add_file(l, abs, base_of(abs), ri, 1, err);
                free(dir);
            }
        }
    } else {
        rc = fault(l, abs, SIZE_MAX, "pak", UINT64_MAX, "not a regular file or folder");
    }
    free(abs);
    return rc;
}

int iw_add_mem(iw_list *l, const char *name, size_t len, util_err *err)
{
    char *dir = strdup(name);
    if (!dir)
        return oom(err);
    char *slash = strrchr(dir, '/');
    const char *label;
    if (slash) {
        *slash = 0;
        label = *dir ? base_of(dir) : "/";
    } else {
        label = ".";
    }
    size_t ri;
    int is_new;
    int rc = rel_get(l, l->release_opt ? l->release_opt : label, name, "file", &ri, &is_new, err);
    if (rc == 0)
        rc = item_add(l, ri, name, NULL, base_of(name), 0, len, err);
    free(dir);
    return rc;
}

void iw_free(iw_list *l)
{
    for (size_t i = 0; i < l->nrels; i++) {
        free(l->rels[i].label);
        free(l->rels[i].source);
        disc_close(l->rels[i].image);
    }
    for (size_t i = 0; i < l->nitems; i++) {
        free(l->items[i].path);
        free(l->items[i].file);
        free(l->items[i].release_path);
    }
    free(l->rels);
    free(l->items);
    free(l->seen);
    memset(l, 0, sizeof *l);
}
