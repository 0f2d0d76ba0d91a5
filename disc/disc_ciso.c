/* disc_ciso.c — CISO (docs/formats.md §13.4): a 0x8000-byte header ("CISO", the block size
 * little-endian, then one byte per block: 1 stored, 0 absent), then the stored blocks in
 * disc order. An absent block reads as zeros. Nothing is compressed: reads go straight to
 * the file. */
#include <stdlib.h>
#include <string.h>

#include "disc_ctr.h"

#define CISO_HEADER 0x8000u
#define CISO_MAP    (CISO_HEADER - 8u) /* blocks the map describes */

typedef struct ciso {
    const util_src *file;
    uint32_t block_size;
    uint32_t index[CISO_MAP]; /* per block: its position among the stored blocks, or UINT32_MAX */
} ciso;

void disc_ciso_close(void *ctx)
{
    free(ctx);
}

int disc_ciso_open(void **ctx, util_src *file, disc_container_info *info, util_err *err)
{
    *ctx = NULL;
    uint64_t fsize = util_src_size(file);
    if (fsize < CISO_HEADER)
        return util_fail(err, UTIL_ETRUNC, fsize,
                         "CISO: the file ends at 0x%llx, inside the 0x8000-byte header",
                         (unsigned long long)fsize);
    uint8_t *h = malloc(CISO_HEADER);
    ciso *c = calloc(1, sizeof *c);
    int rc = 0;
    if (!h || !c) {
        rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        goto done;
    }
    if ((rc = util_src_read(file, h, 0, CISO_HEADER, err)) != 0)
        goto done;
    uint32_t bs =
        (uint32_t)h[4] | (uint32_t)h[5] << 8 | (uint32_t)h[6] << 16 | (uint32_t)h[7] << 24;
    if (bs == 0 || bs > DISC_MAX_BLOCK) {
        rc = util_fail(err, UTIL_EFORMAT, 4, "CISO: block size %u at 0x4 is not in 1..%u", bs,
                       DISC_MAX_BLOCK);
        goto done;
    }
    uint32_t count = 0;
    for (uint32_t i = 0; i < CISO_MAP; i++) {
        uint8_t m = h[8 + i];
        if (m > 1) {
            rc = util_fail(err, UTIL_EFORMAT, 8 + (uint64_t)i,
                           "CISO: map byte %u of block %u (disc 0x%llx) is neither 0 nor 1", m, i,
                           (unsigned long long)i * bs);
            goto done;
        }
        c->index[i] = m ? count++ : UINT32_MAX;
    }
    /* a file cut short still opens: the stored blocks past its end are a fault when read */
    if (count && CISO_HEADER + (uint64_t)(count - 1) * bs >= fsize)
        info->stated_size = CISO_HEADER + (uint64_t)count * bs;
    c->file = file;
    c->block_size = bs;
    info->disc_size = (uint64_t)CISO_MAP * bs;
    info->block_size = bs;
    info->compression = "none";
    *ctx = c;
    c = NULL;
done:
    free(h);
    free(c);
    return rc;
}

void disc_ciso_span(void *ctx, uint64_t off, uint64_t len, uint64_t *lo, uint64_t *hi)
{
    const ciso *c = ctx;
    uint64_t first = off / c->block_size, last = (off + len - 1) / c->block_size;
    if (last >= CISO_MAP)
        last = CISO_MAP - 1;
    *lo = *hi = 0;
    /* stored blocks follow the header in disc order */
    while (first <= last && c->index[first] == UINT32_MAX)
        first++;
    while (last > first && c->index[last] == UINT32_MAX)
        last--;
    if (first > last)
        return;
    *lo = CISO_HEADER + (uint64_t)c->index[first] * c->block_size;
    *hi = CISO_HEADER + ((uint64_t)c->index[last] + 1) * c->block_size;
}

int disc_ciso_read(void *ctx, void *dst, uint64_t off, size_t len, util_err *err)
{
    ciso *c = ctx;
    uint8_t *p = dst;
    while (len) {
        uint64_t b = off / c->block_size;
        size_t boff = (size_t)(off % c->block_size);
        size_t n = c->block_size - boff < len ? c->block_size - boff : len;
        if (b >= CISO_MAP || c->index[b] == UINT32_MAX) {
            memset(p, 0, n);
        } else {
            uint64_t at = CISO_HEADER + (uint64_t)c->index[b] * c->block_size + boff;
            util_err e;
            util_err_clear(&e);
            if (util_src_read(c->file, p, at, n, &e) != 0)
                return util_fail(err, e.code, off, "CISO block %llu at 0x%llx (disc 0x%llx): %s",
                                 (unsigned long long)b, (unsigned long long)at,
                                 (unsigned long long)off, e.msg);
        }
        p += n;
        off += n;
        len -= n;
    }
    return 0;
}
