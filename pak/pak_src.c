/* pak_src.c — a PAK read through a byte source (util_src): the tables from a head of the
 * file grown as they need, each entry's first or last bytes in a few large reads, and
 * entry bytes on demand. Nothing is mapped: a file that shrinks under the reader is an
 * I/O error at an offset. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pak_internal.h"

#define HEAD_FIRST (64u << 10) /* first read of the head: the tables of most PAKs */
#define READ_GAP   4096u       /* read across gaps up to this size rather than seek */
#define READ_CHUNK (1u << 20)  /* most bytes read at once for entry heads and tails */

int pak_open_src_tables(pak_file **out, util_src *src, util_err *err)
{
    *out = NULL;
    uint64_t size = util_src_size(src);
    size_t have = 0, want = size < HEAD_FIRST ? (size_t)size : HEAD_FIRST;
    uint8_t *head = NULL;
    int rc;
    for (;;) {
        if (want > have) {
            uint8_t *nh = realloc(head, want);
            if (!nh) {
                rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory for the tables");
                break;
            }
            head = nh;
            if ((rc = util_src_read(src, head + have, have, want - have, err)) != 0)
                break;
            have = want;
        }
        uint64_t need = 0;
        rc = pak_open_tables(out, head ? head : (const uint8_t *)"", have, size, &need, err);
        if (rc == 0 || need == 0)
            break;
        /* need > have <= size: the next head is longer and inside the file */
        uint64_t next = need > (uint64_t)have * 2 ? need : (uint64_t)have * 2;
        next = (next + HEAD_FIRST - 1) / HEAD_FIRST * HEAD_FIRST;
        want = next < size ? (size_t)next : (size_t)size;
    }
    free(head);
    if (rc == 0)
        (*out)->src = src;
    return rc;
}

/* Byte range [lo, hi) of one entry's head or tail. */
typedef struct span {
    uint64_t lo, hi;
    uint32_t entry;
} span;

static int cmp_span(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The bytes of in-bounds, non-empty entry e its sizes are read from: its first 8 when
 * compressed (the inflated size, the codec), else its last 32 (the padding). */
static span sizes_span(const pak_entry *e)
{
    uint64_t lo = e->offset, hi = (uint64_t)e->offset + e->size;
    if (e->compressed)
        hi = lo + (e->size < 8 ? e->size : 8);
    else
        lo = hi - (e->size < PAK_ALIGN ? e->size : PAK_ALIGN);
    return (span){lo, hi, e->index};
}

/* e's sizes from q, the n bytes of its sizes_span. */
static void sizes_from(pak_entry *e, const uint8_t *q, size_t n)
{
    if (e->compressed)
        pak_entry_sizes(e, q, n, NULL, 0);
    else
        pak_entry_sizes(e, NULL, 0, q, n);
}

/* Every entry's sizes (heads_only: the compressed entries' alone), in a few large reads. */
static int read_info(pak_file *p, int heads_only, util_err *err)
{
    if (!p->src)
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "the PAK was opened without a source");
    int rc = 0;
    span *r = NULL;
    uint8_t *chunk = NULL;
    size_t n = 0;
    if (p->entry_count && !(r = malloc((size_t)p->entry_count * sizeof *r)))
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory for %" PRIu32 " entries",
                         p->entry_count);
    for (uint32_t i = 0; i < p->entry_count; i++) {
        pak_entry *e = &p->entries[i];
        if (!e->in_bounds || e->size == 0) {
            pak_entry_sizes(e, NULL, 0, NULL, 0);
            continue;
        }
        if (heads_only && !e->compressed) {
            e->codec = PAK_CODEC_NONE;
            e->decompressed_size = 0; /* until pak_entry_sizes_from */
            continue;
        }
        r[n++] = sizes_span(e);
    }
    if (n)
        qsort(r, n, sizeof *r, cmp_span);
    if (n && !(chunk = malloc(READ_CHUNK)))
        rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    for (size_t i = 0; i < n && !rc;) {
        /* one read covering entries i..j-1: gaps under READ_GAP, at most READ_CHUNK bytes */
        uint64_t lo = r[i].lo, hi = r[i].hi;
        size_t j = i + 1;
        for (; j < n && r[j].lo <= hi + READ_GAP; j++) {
            uint64_t h = r[j].hi > hi ? r[j].hi : hi;
            if (h - lo > READ_CHUNK)
                break;
            hi = h;
        }
        if ((rc = util_src_read(p->src, chunk, lo, (size_t)(hi - lo), err)) != 0)
            break;
        for (; i < j; i++) {
            pak_entry *e = &p->entries[r[i].entry];
            sizes_from(e, chunk + (r[i].lo - lo), (size_t)(r[i].hi - r[i].lo));
        }
    }
    free(r);
    free(chunk);
    if (rc == 0 && !heads_only)
        p->entry_info = 1;
    return rc;
}

int pak_read_entry_info(pak_file *p, util_err *err)
{
    return read_info(p, 0, err);
}

int pak_read_entry_heads(pak_file *p, util_err *err)
{
    return read_info(p, 1, err);
}

void pak_entry_sizes_from(pak_entry *e, const uint8_t *stored, size_t len)
{
    if (!e->in_bounds || e->size == 0 || len < e->size) {
        pak_entry_sizes(e, NULL, 0, NULL, 0);
        return;
    }
    span r = sizes_span(e); /* the bytes pak_read_entry_info reads, so the same sizes */
    sizes_from(e, stored + (r.lo - e->offset), (size_t)(r.hi - r.lo));
}

/* e's sizes (an entry of p, which has a source) read from p's source: the same bytes
 * pak_read_entry_info reads for it. */
static int read_sizes_into(const pak_file *p, pak_entry *e, util_err *err)
{
    if (!e->in_bounds || e->size == 0) {
        pak_entry_sizes(e, NULL, 0, NULL, 0);
        return 0;
    }
    uint8_t b[PAK_ALIGN > 8 ? PAK_ALIGN : 8];
    span r = sizes_span(e);
    size_t n = (size_t)(r.hi - r.lo);
    int rc = util_src_read(p->src, b, r.lo, n, err);
    if (rc == 0)
        sizes_from(e, b, n);
    return rc;
}

int pak_read_entry_info_one(pak_file *p, uint32_t i, util_err *err)
{
    if (!p->src)
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "the PAK was opened without a source");
    if (i >= p->entry_count)
        return 0;
    return read_sizes_into(p, &p->entries[i], err);
}

int pak_entry_sizes_read(const pak_file *p, uint32_t i, pak_entry *out, util_err *err)
{
    int rc = pak_entry_check(p, i, err);
    if (rc)
        return rc;
    *out = p->entries[i];
    return read_sizes_into(p, out, err);
}

int pak_entry_read_sized(pak_file *p, uint32_t i, uint8_t **out, size_t *len, util_err *err)
{
    *out = NULL;
    *len = 0;
    if (!p->src || i >= p->entry_count || !p->entries[i].in_bounds || p->entries[i].size == 0)
        return pak_read_entry_info_one(p, i, err);
    pak_entry *e = &p->entries[i];
    uint8_t *b = NULL;
    int rc = util_src_read_alloc(p->src, &b, e->offset, e->size, err);
    if (rc)
        return rc;
    pak_entry_sizes_from(e, b, e->size);
    *out = b;
    *len = e->size;
    return 0;
}

int pak_open_src(pak_file **out, util_src *src, util_err *err)
{
    int rc = pak_open_src_tables(out, src, err);
    if (rc == 0 && (rc = pak_read_entry_info(*out, err)) != 0) {
        pak_close(*out);
        *out = NULL;
    }
    return rc;
}

/* pak_open_src on a source the result owns (closed by pak_close, or here on failure). */
static int open_owned(pak_file **out, util_src *src, util_err *err)
{
    int rc = pak_open_src(out, src, err);
    if (rc) {
        util_src_close(src);
        return rc;
    }
    ((pak_priv *)(*out)->priv)->own_src = src;
    return 0;
}

int pak_open_mem(pak_file **out, const uint8_t *data, size_t size, util_err *err)
{
    util_src *src;
    *out = NULL;
    int rc = util_src_open_mem(&src, data, size, err);
    return rc ? rc : open_owned(out, src, err);
}

int pak_open(pak_file **out, const char *path, util_err *err)
{
    util_src *src;
    *out = NULL;
    int rc = util_src_open_file(&src, path, err);
    return rc ? rc : open_owned(out, src, err);
}

int pak_entry_check(const pak_file *p, uint32_t i, util_err *err)
{
    if (i >= p->entry_count)
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX,
                         "entry %" PRIu32 " does not exist (%" PRIu32 " entries)", i,
                         p->entry_count);
    const pak_entry *e = &p->entries[i];
    if (!p->src)
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX,
                         "entry %" PRIu32 ": the PAK was opened with its tables only", i);
    if (!e->in_bounds)
        return util_fail(err, UTIL_ETRUNC, p->size,
                         "entry %" PRIu32 ": data [0x%" PRIx32 ", 0x%" PRIx64
                         ") runs past the end of the file at 0x%zx",
                         i, e->offset, (uint64_t)e->offset + e->size, p->size);
    return 0;
}

int pak_entry_read_into(const pak_file *p, uint32_t i, uint8_t *buf, util_err *err)
{
    int rc = pak_entry_check(p, i, err);
    return rc ? rc : util_src_read(p->src, buf, p->entries[i].offset, p->entries[i].size, err);
}

int pak_entry_read(const pak_file *p, uint32_t i, uint8_t **out, size_t *len, util_err *err)
{
    *out = NULL;
    *len = 0;
    int rc = pak_entry_check(p, i, err);
    if (rc == 0)
        rc = util_src_read_alloc(p->src, out, p->entries[i].offset, p->entries[i].size, err);
    if (rc == 0)
        *len = p->entries[i].size;
    return rc;
}
