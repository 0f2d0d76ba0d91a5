/* disc_container.c — a disc container opened as a byte source of the disc it holds
 * (docs/formats.md §13): recognised by its magic, then read through the WIA/RVZ, GCZ or
 * CISO reader (the block cache they share is disc_bcache.c). */
#include <stdlib.h>
#include <string.h>

#include "disc_ctr.h"
#include "disc_wia.h"

/* ---- the container as a source ------------------------------------------------------------ */

typedef struct ctr {
    util_src *file; /* owned */
    void *impl;     /* the reader's state */
    int (*read)(void *impl, void *dst, uint64_t off, size_t len, util_err *err);
    void (*span)(void *impl, uint64_t off, uint64_t len, uint64_t *lo, uint64_t *hi);
    void (*close)(void *impl);
} ctr;

static int ctr_read(void *ctx, void *dst, uint64_t off, size_t len, util_err *err)
{
    ctr *c = ctx;
    return c->read(c->impl, dst, off, len, err);
}

static void ctr_close(void *ctx)
{
    ctr *c = ctx;
    c->close(c->impl);
    util_src_close(c->file);
    free(c);
}

/* WIA/RVZ through disc_wia.h: its faults name the container and disc offsets in the message
 * and the container offset in the util_err; a source names offsets in itself (the disc). */
static int wia_read(void *impl, void *dst, uint64_t off, size_t len, util_err *err)
{
    int rc = disc_wia_read(impl, dst, off, len, err);
    if (rc && err)
        err->offset = off;
    return rc;
}

static void wia_span(void *impl, uint64_t off, uint64_t len, uint64_t *lo, uint64_t *hi)
{
    disc_wia_span(impl, off, len, lo, hi);
}

static void wia_close(void *impl)
{
    disc_wia_close(impl);
}

int disc_container_span(const util_src *src, uint64_t off, uint64_t len, uint64_t *file_off,
                        uint64_t *file_len)
{
    ctr *c = util_src_custom_ctx(src, ctr_read);
    if (!c)
        return -1;
    uint64_t size = util_src_size(src), lo = 0, hi = 0;
    if (off < size && len > 0)
        c->span(c->impl, off, len < size - off ? len : size - off, &lo, &hi);
    *file_off = lo;
    *file_len = hi - lo;
    return 0;
}

int disc_container_open(util_src **out, util_src *file, size_t cache_bytes,
                        disc_container_info *info, util_err *err)
{
    disc_container_info tmp;
    if (!info)
        info = &tmp;
    memset(info, 0, sizeof *info);
    *out = NULL;
    if (!cache_bytes)
        cache_bytes = DISC_CACHE_DEFAULT;
    disc_kind k;
    int rc = disc_sniff_src(&k, file, err);
    if (rc)
        return rc;
    uint64_t fsize = util_src_size(file);
    info->file_size = fsize;
    if (disc_kind_refused(k))
        return util_fail(err, UTIL_EFORMAT,
                         k == DISC_KIND_WII    ? 0x18
                         : k == DISC_KIND_NKIT ? 0x200
                                               : 0,
                         "%s", disc_kind_refusal(k));
    if (!disc_kind_container(k)) { /* a plain image, or for disc_parse_header to judge */
        info->kind = DISC_KIND_GCM;
        info->disc_size = fsize;
        info->compression = "none";
        *out = file;
        return 0;
    }
    ctr *c = calloc(1, sizeof *c);
    if (!c)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    info->kind = k;
    if (k == DISC_KIND_GCZ) {
        rc = disc_gcz_open(&c->impl, file, cache_bytes, info, err);
        c->read = disc_gcz_read;
        c->span = disc_gcz_span;
        c->close = disc_gcz_close;
    } else if (k == DISC_KIND_CISO) {
        rc = disc_ciso_open(&c->impl, file, info, err);
        c->read = disc_ciso_read;
        c->span = disc_ciso_span;
        c->close = disc_ciso_close;
    } else {
        disc_wia *w = NULL;
        rc = disc_wia_open(&w, file, cache_bytes, err);
        if (rc == 0) {
            const disc_wia_info *wi = disc_wia_get_info(w);
            if (!wi) {
                disc_wia_close(w);
                rc =
                    util_fail(err, UTIL_EFORMAT, 0, "%s container not readable", disc_kind_name(k));
            } else {
                info->disc_size = wi->iso_size;
                info->block_size = wi->chunk_size;
                info->cache_unit = wi->chunk_size;
                info->compression = wi->compression_name ? wi->compression_name : "?";
                info->compression_level = wi->compression_level;
                info->stated_size = wi->stated_size;
                c->impl = w;
            }
        }
        c->read = wia_read;
        c->span = wia_span;
        c->close = wia_close;
    }
    if (rc == 0)
        rc = util_src_open_custom(out, info->disc_size, ctr_read, c, ctr_close, err);
    if (rc) {
        if (c->impl)
            c->close(c->impl);
        free(c);
        return rc;
    }
    c->file = file;
    return 0;
}
