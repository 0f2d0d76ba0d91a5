/* disc_fst.c — the GameCube file system table (docs/formats.md §10): entries checked one by one
 * against the FST and the image before use, files listed with their full paths. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disc.h"

#define ENTRY_SIZE 12u

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* An open directory while walking: its index, the index just past its last descendant and
 * the length of its path (0 for the root). */
typedef struct open_dir {
    uint32_t index, end;
    size_t path_len;
} open_dir;

typedef struct walk {
    const uint8_t *fst;
    size_t len;
    uint64_t base, image_size;
    uint32_t count;
    const char *names; /* the name table */
    size_t names_len;
    open_dir *stack; /* count entries at most: each directory is open once */
    uint32_t depth;
    uint32_t nfiles;     /* files seen by the last walk */
    uint32_t nskipped;   /* entries it left out for their names */
    uint64_t path_bytes; /* their paths' bytes, terminators included */
    char path[DISC_MAX_PATH + 1];
} walk;

#define BAD_NAME 1 /* take_name: a name no path can carry (the entry is left out) */

/* Check entry i's name and append it to w->path after the open directory's path; *len_out
 * is the new path length. BAD_NAME (err untouched, *name_out and *name_at set) for an empty
 * name, "." or "..", or one holding '/'. */
static int take_name(walk *w, uint32_t i, size_t *len_out, const char **name_out,
                     uint64_t *name_at_out, util_err *err)
{
    const uint8_t *e = w->fst + (size_t)i * ENTRY_SIZE;
    uint64_t eoff = w->base + (uint64_t)i * ENTRY_SIZE;
    uint32_t noff = be32(e) & 0xFFFFFFu;
    if (noff >= w->names_len)
        return util_fail(err, UTIL_EFORMAT, eoff + 1,
                         "FST entry %u: name offset 0x%x is past the name table (%zu bytes)", i,
                         noff, w->names_len);
    const char *name = w->names + noff;
    const char *nul = memchr(name, 0, w->names_len - noff);
    uint64_t name_at = w->base + (uint64_t)w->count * ENTRY_SIZE + noff;
    if (!nul)
        return util_fail(err, UTIL_EFORMAT, name_at,
                         "FST entry %u: its name runs past the end of the name table", i);
    size_t nlen = (size_t)(nul - name);
    if (nlen == 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || memchr(name, '/', nlen)) {
        *name_out = name;
        *name_at_out = name_at;
        return BAD_NAME;
    }
    size_t prefix = w->stack[w->depth - 1].path_len;
    size_t sep = prefix ? 1 : 0;
    if (nlen > DISC_MAX_PATH - prefix - sep)
        return util_fail(err, UTIL_EFORMAT, name_at,
                         "FST entry %u: its path is longer than %u bytes", i, DISC_MAX_PATH);
    if (sep)
        w->path[prefix] = '/';
    memcpy(w->path + prefix + sep, name, nlen);
    w->path[prefix + sep + nlen] = '\0';
    *len_out = prefix + sep + nlen;
    return 0;
}

/* Walk entries 1..count-1 in pre-order. Without files, only checks and counts (first pass);
 * with files, fills them, copying paths into pool. */
static int walk_entries(walk *w, disc_fst *out, char *pool, util_err *err)
{
    uint64_t path_bytes = 0;
    uint32_t nfiles = 0, ndirs = 0, oob = 0, nskip = 0;
    w->depth = 1;
    w->stack[0] = (open_dir){0, w->count, 0};
    for (uint32_t i = 1; i < w->count; i++) {
        while (i >= w->stack[w->depth - 1].end)
            w->depth--; /* the root's end is count, so the root stays open */
        const uint8_t *e = w->fst + (size_t)i * ENTRY_SIZE;
        uint64_t eoff = w->base + (uint64_t)i * ENTRY_SIZE;
        size_t plen = 0;
        const char *bad = NULL;
        uint64_t bad_at = 0;
        int rc = take_name(w, i, &plen, &bad, &bad_at, err);
        if (rc && rc != BAD_NAME)
            return rc;
        const open_dir *top = &w->stack[w->depth - 1];
        uint32_t word1 = be32(e + 4), word2 = be32(e + 8);
        if (rc == BAD_NAME && (e[0] == 0 || e[0] == 1)) {
            /* left out; a directory's extent is checked as any directory's, then skipped */
            if (e[0] == 1 && (word1 != top->index || word2 <= i || word2 > top->end))
                return util_fail(err, UTIL_EFORMAT, eoff + 4,
                                 "FST entry %u: directory (left out for its name) has parent "
                                 "index %u and next index %u, which do not fit directory %u",
                                 i, word1, word2, top->index);
            if (out && nskip < DISC_FST_SKIPS_LISTED) {
                disc_fst_skip *k = &out->skipped[nskip];
                k->index = i;
                k->entry_offset = eoff;
                k->name_offset = bad_at;
                k->is_dir = e[0] == 1;
                snprintf(k->name, sizeof k->name, "%.64s", bad);
            }
            nskip++;
            if (e[0] == 1)
                i = word2 - 1; /* past its last descendant */
            continue;
        }
        if (e[0] == 1) {
            if (word1 != top->index)
                return util_fail(err, UTIL_EFORMAT, eoff + 4,
                                 "FST entry %u: directory's parent index is %u, but it sits "
                                 "in directory %u",
                                 i, word1, top->index);
            if (word2 <= i)
                return util_fail(err, UTIL_EFORMAT, eoff + 8,
                                 "FST entry %u: directory's next index %u points backwards", i,
                                 word2);
            if (word2 > top->end)
                return util_fail(err, UTIL_EFORMAT, eoff + 8,
                                 "FST entry %u: directory's next index %u is past the end of "
                                 "its parent (%u)",
                                 i, word2, top->end);
            w->stack[w->depth++] = (open_dir){i, word2, plen};
            ndirs++;
        } else if (e[0] == 0) {
            if (plen + 1 > DISC_MAX_PATH_BYTES - path_bytes)
                return util_fail(err, UTIL_EFORMAT, eoff,
                                 "FST entry %u: file paths total more than %u bytes", i,
                                 DISC_MAX_PATH_BYTES);
            int in_bounds = word1 <= w->image_size && word2 <= w->image_size - word1;
            if (out) {
                disc_file *f = &out->files[nfiles];
                memcpy(pool + path_bytes, w->path, plen + 1);
                f->path = pool + path_bytes;
                f->name = strrchr(f->path, '/') ? strrchr(f->path, '/') + 1 : f->path;
                f->index = i;
                f->entry_offset = eoff;
                f->offset = word1;
                f->length = word2;
                f->in_bounds = in_bounds;
            }
            path_bytes += plen + 1;
            oob += !in_bounds;
            nfiles++;
        } else {
            return util_fail(err, UTIL_EFORMAT, eoff,
                             "FST entry %u: flags 0x%02x are neither file (0) nor directory (1)", i,
                             e[0]);
        }
    }
    w->nfiles = nfiles;
    w->nskipped = nskip;
    w->path_bytes = path_bytes;
    if (out) {
        out->file_count = nfiles;
        out->dir_count = ndirs;
        out->out_of_bounds = oob;
        out->skipped_count = nskip;
        out->skipped_listed = nskip < DISC_FST_SKIPS_LISTED ? nskip : DISC_FST_SKIPS_LISTED;
    }
    return 0;
}

int disc_fst_parse(disc_fst *out, const uint8_t *fst, size_t len, uint64_t base,
                   uint64_t image_size, util_arena *a, util_err *err)
{
    memset(out, 0, sizeof *out);
    if (len < ENTRY_SIZE)
        return util_fail(err, UTIL_ETRUNC, base + len,
                         "FST of %zu bytes cannot hold its root entry (12 bytes)", len);
    if (fst[0] != 1)
        return util_fail(err, UTIL_EFORMAT, base,
                         "FST root entry is not a directory (flags 0x%02x)", fst[0]);
    uint32_t count = be32(fst + 8);
    if (count == 0 || count > len / ENTRY_SIZE)
        return util_fail(err, UTIL_EFORMAT, base + 8,
                         "FST entry count %u does not fit an FST of %zu bytes (12 bytes each)",
                         count, len);
    walk *w = calloc(1, sizeof *w);
    open_dir *stack = calloc(count, sizeof *stack);
    int rc = 0;
    if (!w || !stack) {
        rc = util_fail(err, UTIL_ENOMEM, base, "out of memory for an FST of %u entries", count);
        goto done;
    }
    w->fst = fst;
    w->len = len;
    w->base = base;
    w->image_size = image_size;
    w->count = count;
    w->names = (const char *)fst + (size_t)count * ENTRY_SIZE;
    w->names_len = len - (size_t)count * ENTRY_SIZE;
    w->stack = stack;
    rc = walk_entries(w, NULL, NULL, err);
    if (rc)
        goto done;
    uint32_t nfiles = w->nfiles;
    size_t path_bytes = (size_t)w->path_bytes;
    disc_file *files = util_arena_array(a, nfiles ? nfiles : 1, sizeof *files);
    char *pool = util_arena_alloc(a, path_bytes ? path_bytes : 1);
    uint32_t listed = w->nskipped < DISC_FST_SKIPS_LISTED ? w->nskipped : DISC_FST_SKIPS_LISTED;
    disc_fst_skip *skipped = util_arena_array(a, listed ? listed : 1, sizeof *skipped);
    if (!files || !pool || !skipped) {
        rc = util_fail(err, UTIL_ENOMEM, base, "out of memory for %u file entries", nfiles);
        goto done;
    }
    out->files = files;
    out->skipped = skipped;
    rc = walk_entries(w, out, pool, err);
    if (rc)
        goto done;
    out->entry_count = count;
done:
    if (rc)
        memset(out, 0, sizeof *out);
    free(stack);
    free(w);
    return rc;
}

/* ASCII case folding only: Shift-JIS bytes are compared as they are. */
static int ascii_casecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        unsigned char ca = (unsigned char)*a, cb = (unsigned char)*b;
        if (ca >= 'A' && ca <= 'Z')
            ca = (unsigned char)(ca - 'A' + 'a');
        if (cb >= 'A' && cb <= 'Z')
            cb = (unsigned char)(cb - 'A' + 'a');
        if (ca != cb || ca == 0)
            return ca - cb;
    }
}

const disc_file *disc_fst_find(const disc_fst *f, const char *path)
{
    while (*path == '/')
        path++;
    const disc_file *folded = NULL;
    for (uint32_t i = 0; i < f->file_count; i++) {
        if (strcmp(f->files[i].path, path) == 0)
            return &f->files[i];
        if (!folded && ascii_casecmp(f->files[i].path, path) == 0)
            folded = &f->files[i];
    }
    return folded;
}
