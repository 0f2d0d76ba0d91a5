/* fuzz_wia.c — libFuzzer target: the input as a WIA or RVZ container (disc_wia_open over a
 * memory source with a small group cache), where the file stores the disc and its middle,
 * then the disc it holds read in pieces: its first 4 MiB, a range across its end and its last
 * bytes. Invariants violated -> abort(). A file
 * cut short (stated_size) opens; reading past the cut is UTIL_EIO. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "disc_wia.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A read may fail on a corrupt group (UTIL_EFORMAT) or, in a file cut short (the header
 * states more bytes than there are), on a group past the cut (UTIL_EIO). */
static int read_fault_ok(const disc_wia_info *info, int rc, size_t size)
{
    return rc == UTIL_EFORMAT || (rc == UTIL_EIO && info->stated_size > size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    util_err err;
    util_err_clear(&err);
    util_src *src = NULL;
    if (util_src_open_mem(&src, data, size, &err) != 0)
        abort();
    disc_wia *w = NULL;
    int rc = disc_wia_open(&w, src, 1u << 20, &err);
    if (rc != 0) {
        if (w || err.code != rc || rc >= 0 || (err.offset != UINT64_MAX && err.offset > size))
            abort();
        util_src_close(src);
        return 0;
    }
    const disc_wia_info *info = disc_wia_get_info(w);
    if (!info || !info->compression_name || info->iso_size == 0 || info->chunk_size == 0 ||
        (info->stated_size != 0 && info->stated_size <= size))
        abort();
    uint64_t iso = info->iso_size;
    /* where the file stores the whole disc and its middle: within what the header states */
    uint64_t lo, hi, ends = info->stated_size > size ? info->stated_size : size;
    for (int i = 0; i < 2; i++) {
        disc_wia_span(w, i ? iso / 2 : 0, i ? 1u << 20 : iso, &lo, &hi);
        if (lo > hi || hi > ends)
            abort();
    }
    const size_t piece = 256u << 10;
    uint8_t *buf = malloc(piece);
    if (!buf)
        abort();
    uint64_t limit = iso < (4u << 20) ? iso : (4u << 20);
    for (uint64_t off = 0; off < limit; off += piece) {
        size_t n = limit - off < piece ? (size_t)(limit - off) : piece;
        util_err_clear(&err);
        rc = disc_wia_read(w, buf, off, n, &err);
        if (rc != 0 && (!read_fault_ok(info, rc, size) || err.code != rc || err.offset > size))
            abort();
        if (rc != 0)
            break;
    }
    /* the last bytes, then one byte too many (always UTIL_EIO) */
    size_t tail = iso < 4096 ? (size_t)iso : 4096;
    util_err_clear(&err);
    rc = disc_wia_read(w, buf, iso - tail, tail, &err);
    if (rc != 0 && (!read_fault_ok(info, rc, size) || err.offset > size))
        abort();
    if (disc_wia_read(w, buf, iso - tail, tail + 1, &err) != UTIL_EIO)
        abort();
    free(buf);
    disc_wia_close(w);
    util_src_close(src);
    return 0;
}
