/* fuzz_disc.c — libFuzzer target: the input as a whole GameCube disc image (disc_open_mem:
 * header, FST, every file read through its byte source), as a bare FST (disc_fst_parse) and
 * sniffed as a container. Invariants violated -> abort(). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "disc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_fst(const disc_fst *f, uint64_t image_size)
{
    uint32_t oob = 0;
    if (f->file_count + f->dir_count >= f->entry_count && f->entry_count)
        abort();
    for (uint32_t i = 0; i < f->file_count; i++) {
        const disc_file *e = &f->files[i];
        size_t n = strlen(e->path);
        if (n == 0 || n > DISC_MAX_PATH || e->path[0] == '/' || e->name < e->path ||
            e->name > e->path + n || e->index == 0 || e->index >= f->entry_count)
            abort();
        /* no component is empty, "." or ".." */
        for (const char *c = e->path; c;) {
            const char *end = strchr(c, '/');
            size_t len = end ? (size_t)(end - c) : strlen(c);
            if (len == 0 || (len == 1 && c[0] == '.') || (len == 2 && c[0] == '.' && c[1] == '.'))
                abort();
            c = end ? end + 1 : NULL;
        }
        int in = e->offset <= image_size && e->length <= image_size - e->offset;
        if (in != e->in_bounds)
            abort();
        oob += !in;
        if (!disc_fst_find(f, e->path))
            abort();
    }
    if (oob != f->out_of_bounds)
        abort();
    /* entries left out for their names: counted, the first listed, each a name no path
     * can carry */
    if (f->skipped_listed > f->skipped_count || f->skipped_listed > DISC_FST_SKIPS_LISTED ||
        (f->skipped_count > DISC_FST_SKIPS_LISTED) != (f->skipped_count > f->skipped_listed))
        abort();
    for (uint32_t i = 0; i < f->skipped_listed; i++) {
        const disc_fst_skip *k = &f->skipped[i];
        const char *nm = k->name;
        if (k->index == 0 || k->index >= f->entry_count || k->name_offset >= image_size ||
            !(nm[0] == 0 || !strcmp(nm, ".") || !strcmp(nm, "..") || strchr(nm, '/') ||
              strlen(nm) == 64)) /* (the name's first 64 bytes: its '/' may come later) */
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    util_err err;
    util_err_clear(&err);
    disc_image *d = NULL;
    int rc = disc_open_mem(&d, data, size, &err);
    if (rc != 0) {
        if (d || err.code != rc || (err.offset != UINT64_MAX && err.offset > size))
            abort();
    } else {
        if (strlen(d->header.label) < 9 || d->size != size)
            abort();
        check_fst(&d->fst, size);
        uint64_t budget = 1u << 22; /* bytes read per input, so a huge file list stays quick */
        for (uint32_t i = 0; i < d->fst.file_count; i++) {
            const disc_file *f = &d->fst.files[i];
            util_src *s = NULL;
            util_err_clear(&err);
            rc = disc_file_open(&s, d, f, &err);
            if (rc != 0) {
                if (s || f->in_bounds)
                    abort();
                continue;
            }
            if (!f->in_bounds || util_src_size(s) != f->length)
                abort();
            size_t n = f->length < budget ? (size_t)f->length : (size_t)budget;
            budget -= n;
            uint8_t *buf = malloc(n ? n : 1);
            if (buf && util_src_read(s, buf, 0, n, &err) != 0)
                abort();
            if (buf && n && memcmp(buf, data + f->offset, n) != 0)
                abort();
            free(buf);
            util_src_close(s);
        }
        disc_close(d);
    }

    /* the bytes as an FST at offset 0 of an image of the same size */
    util_arena a;
    util_arena_init(&a);
    disc_fst f;
    util_err_clear(&err);
    rc = disc_fst_parse(&f, data, size, 0, size, &a, &err);
    if (rc == 0)
        check_fst(&f, size);
    else if (f.files || f.file_count || err.code != rc || err.offset > size)
        abort();
    util_arena_free(&a);

    disc_kind k = disc_sniff(data, size, size);
    if (k < DISC_KIND_UNKNOWN || k > DISC_KIND_WBFS || !disc_kind_name(k))
        abort();
    return 0;
}
