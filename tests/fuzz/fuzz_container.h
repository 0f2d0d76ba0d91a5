/* fuzz_container.h — the body of the GCZ and CISO libFuzzer targets: the input as a container
 * of kind FUZZ_CONTAINER_KIND (its magic FUZZ_CONTAINER_MAGIC written over the first bytes, so
 * every input is read as one): disc_container_open on it, then the disc it holds (disc_open_src:
 * header, FST, every file read through the container, a budget of bytes per input), raw
 * reads of the disc straddling blocks, and where the file stores parts of the disc. Invariants
 * violated -> abort(). Included once by each target after it defines the two macros. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "disc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAGIC_LEN 4

static void check_err(int rc, const util_err *e)
{
    if (rc == 0 || e->code != rc || !e->msg[0])
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *buf = malloc(size > MAGIC_LEN ? size : MAGIC_LEN);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    if (size < MAGIC_LEN)
        size = MAGIC_LEN;
    memcpy(buf, FUZZ_CONTAINER_MAGIC, MAGIC_LEN);
    util_src *file = NULL, *src = NULL;
    util_err err;
    util_err_clear(&err);
    disc_container_info info;
    if (util_src_open_mem(&file, buf, size, NULL) != 0)
        abort();
    int rc = disc_container_open(&src, file, 1 << 16, &info, &err);
    if (rc != 0) {
        check_err(rc, &err);
        if (src)
            abort();
        util_src_close(file);
        free(buf);
        return 0;
    }
    if (info.kind != FUZZ_CONTAINER_KIND || util_src_size(src) != info.disc_size || src == file ||
        info.block_size == 0 || info.block_size > DISC_MAX_BLOCK || info.file_size != size ||
        (info.stated_size != 0 && info.stated_size <= size)) /* cut short: states more */
        abort();
    /* where the file stores the whole disc, its middle and its last byte: within the file (a
     * last CISO block may end early) */
    uint64_t ends = (info.stated_size > size ? info.stated_size : size) + info.block_size;
    const uint64_t spans[3][2] = {
        {0, info.disc_size}, {info.disc_size / 2, 1u << 20}, {info.disc_size - 1, 1}};
    for (int i = 0; i < 3; i++) {
        uint64_t fo = 0, fl = 0;
        if (disc_container_span(src, spans[i][0], spans[i][1], &fo, &fl) != 0 || fo + fl < fo ||
            fo + fl > ends)
            abort();
    }
    uint64_t budget = 1u << 21; /* bytes read per input */
    /* raw reads: the start of the disc in uneven pieces */
    uint8_t tmp[4096];
    uint64_t off = 0;
    for (size_t step = 1; off < info.disc_size && budget > sizeof tmp; step = step * 5 + 3) {
        size_t n = step % sizeof tmp;
        if (n > info.disc_size - off)
            n = (size_t)(info.disc_size - off);
        util_err_clear(&err);
        rc = util_src_read(src, tmp, off, n, &err);
        if (rc) {
            check_err(rc, &err);
            if (err.offset < off || err.offset > off + n)
                abort();
        }
        off += n + step;
        budget -= n;
    }
    disc_image *d = NULL;
    util_err_clear(&err);
    rc = disc_open_src(&d, src, &err);
    if (rc != 0) {
        check_err(rc, &err);
    } else {
        for (uint32_t i = 0; i < d->fst.file_count && budget; i++) {
            const disc_file *f = &d->fst.files[i];
            util_src *s = NULL;
            util_err_clear(&err);
            if (disc_file_open(&s, d, f, &err) != 0)
                continue;
            size_t n = f->length < budget ? (size_t)f->length : (size_t)budget;
            budget -= n;
            uint8_t *fb = malloc(n ? n : 1);
            if (fb) {
                util_err_clear(&err);
                rc = util_src_read(s, fb, 0, n, &err);
                if (rc)
                    check_err(rc, &err);
            }
            free(fb);
            util_src_close(s);
        }
        disc_close(d);
    }
    util_src_close(src); /* closes file */
    free(buf);
    return 0;
}
