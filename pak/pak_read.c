/* pak_read.c — PAK header and tables (docs/formats.md §2) parsed from the bytes of the file's
 * head, bounds and layout checks. pak_src.c reads those bytes through a source. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pak_internal.h"

static uint64_t align32(uint64_t v)
{
    return (v + (PAK_ALIGN - 1)) & ~(uint64_t)(PAK_ALIGN - 1);
}

/* Record an anomaly; past PAK_MAX_ANOMALIES one final "too_many_anomalies" is kept. */
static int add_anomaly(pak_file *p, int64_t entry, uint64_t off, const char *code, util_err *err,
                       const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static int add_anomaly(pak_file *p, int64_t entry, uint64_t off, const char *code, util_err *err,
                       const char *fmt, ...)
{
    pak_priv *pv = p->priv;
    if (p->anomaly_count > PAK_MAX_ANOMALIES)
        return 0;
    if (util_vec_reserve_(&p->anomalies, &pv->anomaly_cap, p->anomaly_count, 1,
                          sizeof *p->anomalies, err))
        return UTIL_ENOMEM;
    pak_anomaly *a = &p->anomalies[p->anomaly_count++];
    if (p->anomaly_count > PAK_MAX_ANOMALIES) {
        a->entry_index = -1;
        a->offset = UINT64_MAX;
        a->code = "too_many_anomalies";
        snprintf(a->msg, sizeof a->msg, "more than %u anomalies; the rest are not listed",
                 PAK_MAX_ANOMALIES);
        return 0;
    }
    a->entry_index = entry;
    a->offset = off;
    a->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->msg, sizeof a->msg, fmt, ap);
    va_end(ap);
    return 0;
}

/* Reading the tables from a head of the file: `r` views the bytes read (head), `full` has
 * the same position but the file's length, so every check and message is the one a parse
 * of the whole file gives. Bytes inside the file but past the head set *need (the head
 * length that lets the parse go on) and fail with UTIL_ETRUNC. */
typedef struct tabrd {
    util_rd r;
    uint64_t size;  /* file size */
    uint64_t *need; /* NULL: head is the whole file */
} tabrd;

static int tab_need(tabrd *t, size_t n, util_err *err)
{
    util_rd full = t->r;
    full.len = (size_t)t->size; /* size <= SIZE_MAX: checked by the callers */
    if (util_rd_need(&full, n, err))
        return UTIL_ETRUNC;
    if (util_rd_left(&t->r) < n) {
        *t->need = (uint64_t)t->r.pos + n;
        return util_fail(err, UTIL_ETRUNC, util_rd_off(&t->r),
                         "the tables continue past the 0x%zx bytes read", t->r.len);
    }
    return 0;
}

static int tab_u32(tabrd *t, uint32_t *out, util_err *err)
{
    return tab_need(t, 4, err) ? UTIL_ETRUNC : util_rd_u32(&t->r, out, err);
}

static int tab_check_count(const tabrd *t, uint32_t count, size_t min_size, const char *what,
                           util_err *err)
{
    util_rd full = t->r;
    full.len = (size_t)t->size;
    return util_rd_check_count(&full, count, min_size, what, err);
}

/* Named-resource table (§2.3): u32 count, then per entry fourcc type, id32 id,
 * u32 name_length L, u8[L] name (not NUL-terminated). Entries are at least 12 bytes. */
static int read_named(pak_file *p, tabrd *t, util_err *err)
{
    pak_priv *pv = p->priv;
    if (tab_u32(t, &p->named_count, err))
        return UTIL_ETRUNC;
    if (tab_check_count(t, p->named_count, 12, "named resource", err))
        return UTIL_ETRUNC;
    if (p->named_count == 0)
        return 0;
    /* First pass: validate every entry and total the names (each <= bytes left). */
    tabrd scan = *t;
    size_t names_total = 0;
    for (uint32_t i = 0; i < p->named_count; i++) {
        uint32_t len;
        if (tab_need(&scan, 8, err) || util_rd_skip(&scan.r, 8, err) || tab_u32(&scan, &len, err))
            return UTIL_ETRUNC;
        uint64_t left = scan.size - util_rd_off(&scan.r);
        if (len > left)
            return util_fail(err, UTIL_ETRUNC, util_rd_off(&scan.r) - 4,
                             "named resource %" PRIu32 ": name length %" PRIu32 " > %zu bytes left",
                             i, len, (size_t)left);
        if (tab_need(&scan, len, err))
            return UTIL_ETRUNC;
        scan.r.pos += len;
        names_total += (size_t)len + 1;
    }
    p->named = calloc(p->named_count, sizeof *p->named);
    pv->names = malloc(names_total);
    if (!p->named || !pv->names)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory for %" PRIu32 " names",
                         p->named_count);
    /* Every byte read below was checked by the first pass. */
    util_rd *r = &t->r;
    size_t used = 0;
    for (uint32_t i = 0; i < p->named_count; i++) {
        pak_named *n = &p->named[i];
        const uint8_t *name;
        n->offset = util_rd_off(r);
        if (util_rd_u32(r, &n->type, err) || util_rd_u32(r, &n->id, err) ||
            util_rd_u32(r, &n->name_len, err))
            return UTIL_ETRUNC;
        if (util_rd_bytes(r, n->name_len, &name, err))
            return UTIL_ETRUNC;
        memcpy(pv->names + used, name, n->name_len);
        pv->names[used + n->name_len] = '\0';
        n->name = pv->names + used;
        used += (size_t)n->name_len + 1;
        const uint8_t *nul = n->name_len ? memchr(name, 0, n->name_len) : NULL;
        n->nul_offset = nul ? n->offset + 12 + (uint64_t)(nul - name) : UINT64_MAX;
        if (nul && add_anomaly(p, -1, n->nul_offset, "name_nul", err,
                               "named resource %" PRIu32 ": name of %" PRIu32
                               " bytes holds a NUL byte at 0x%" PRIx64 " (the name is cut there)",
                               i, n->name_len, n->nul_offset))
            return UTIL_ENOMEM;
    }
    return 0;
}

/* Resource table (§2.4): u32 count, then 20-byte entries: u32 compressed, fourcc type,
 * id32 id, u32 size, u32 offset (absolute). */
static int read_resources(pak_file *p, tabrd *t, util_err *err)
{
    if (tab_u32(t, &p->entry_count, err))
        return UTIL_ETRUNC;
    if (tab_check_count(t, p->entry_count, 20, "resource", err))
        return UTIL_ETRUNC;
    if (p->entry_count == 0)
        return 0;
    if (tab_need(t, (size_t)p->entry_count * 20, err))
        return UTIL_ETRUNC;
    p->entries = calloc(p->entry_count, sizeof *p->entries);
    if (!p->entries)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory for %" PRIu32 " entries",
                         p->entry_count);
    util_rd *r = &t->r;
    for (uint32_t i = 0; i < p->entry_count; i++) {
        pak_entry *e = &p->entries[i];
        e->index = i;
        e->table_offset = util_rd_off(r);
        if (util_rd_u32(r, &e->compressed, err) || util_rd_u32(r, &e->type, err) ||
            util_rd_u32(r, &e->id, err) || util_rd_u32(r, &e->size, err) ||
            util_rd_u32(r, &e->offset, err))
            return UTIL_ETRUNC;
    }
    return 0;
}

/* Per-entry checks of §2.8 step 4 (they need no entry bytes); never fatal except out of
 * memory. */
static int check_entry(pak_file *p, pak_entry *e, util_err *err)
{
    int64_t ix = e->index;
    uint64_t end = (uint64_t)e->offset + e->size; /* both u32: cannot overflow u64 */
    int rc = 0;
    e->in_bounds = end <= p->size;
    if (e->compressed > 1)
        rc |= add_anomaly(p, ix, e->table_offset, "compressed_flag", err,
                          "entry %" PRId64 ": compressed flag %" PRIu32 " is neither 0 nor 1", ix,
                          e->compressed);
    if (e->offset % PAK_ALIGN || e->size % PAK_ALIGN)
        rc |= add_anomaly(p, ix, e->table_offset + 12, "misaligned", err,
                          "entry %" PRId64 ": offset 0x%" PRIx32 " or size 0x%" PRIx32
                          " is not a multiple of 32",
                          ix, e->offset, e->size);
    if (!e->in_bounds)
        rc |= add_anomaly(p, ix, e->offset, "out_of_bounds", err,
                          "entry %" PRId64 ": data [0x%" PRIx32 ", 0x%" PRIx64
                          ") runs past the end of the file (0x%zx bytes)",
                          ix, e->offset, end, p->size);
    else if (e->size && e->offset < p->tables_end)
        rc |= add_anomaly(p, ix, e->offset, "overlaps_tables", err,
                          "entry %" PRId64 ": data at 0x%" PRIx32
                          " overlaps the tables, which end at 0x%" PRIx64,
                          ix, e->offset, p->tables_end);
    if (e->compressed && e->size < 4)
        rc |= add_anomaly(p, ix, e->offset, "short_compressed", err,
                          "entry %" PRId64 ": compressed but only %" PRIu32 " bytes stored", ix,
                          e->size);
    e->decompressed_size = 0; /* pak_entry_sizes */
    return rc ? UTIL_ENOMEM : 0;
}

void pak_entry_sizes(pak_entry *e, const uint8_t *head, size_t head_len, const uint8_t *tail,
                     size_t tail_len)
{
    e->decompressed_size = 0;
    e->codec = pak_entry_codec(e, head, head_len);
    if (!e->compressed) {
        /* The padding is 0xFF up to the next multiple of 32, so at most 31 bytes. tail holds
         * the entry's last tail_len bytes: byte k of the entry is tail[k - (size - tail_len)]. */
        uint32_t n = e->size;
        if (e->in_bounds && tail && tail_len <= e->size) {
            uint32_t first = e->size - (uint32_t)tail_len; /* entry offset of tail[0] */
            while (n > first && e->size - n < PAK_ALIGN - 1 && tail[n - 1 - first] == 0xFF)
                n--;
        }
        e->decompressed_size = n;
    } else if (e->in_bounds && e->size >= 4 && head && head_len >= 4) {
        util_rd r = util_rd_make(head, head_len, e->offset);
        util_rd_u32(&r, &e->decompressed_size, NULL);
    }
}

static int cmp_by_offset(const void *a, const void *b)
{
    const pak_entry *x = *(const pak_entry *const *)a, *y = *(const pak_entry *const *)b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Overlaps between the data of in-bounds, non-empty entries, and table-order breaks. */
static int check_layout(pak_file *p, util_err *err)
{
    int rc = 0;
    pak_entry **by_off = malloc((size_t)p->entry_count * sizeof *by_off);
    if (!by_off)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory checking layout");
    size_t n = 0;
    for (uint32_t i = 0; i < p->entry_count; i++)
        if (p->entries[i].in_bounds && p->entries[i].size)
            by_off[n++] = &p->entries[i];
    qsort(by_off, n, sizeof *by_off, cmp_by_offset);
    const pak_entry *reach = NULL; /* entry whose data ends furthest so far */
    for (size_t k = 0; k < n && !rc; k++) {
        const pak_entry *e = by_off[k];
        if (reach && e->offset < (uint64_t)reach->offset + reach->size)
            rc = add_anomaly(p, e->index, e->offset, "overlap", err,
                             "entry %" PRIu32 ": data at 0x%" PRIx32 " overlaps entry %" PRIu32
                             " [0x%" PRIx32 ", 0x%" PRIx64 ")",
                             e->index, e->offset, reach->index, reach->offset,
                             (uint64_t)reach->offset + reach->size);
        if (!reach || (uint64_t)e->offset + e->size > (uint64_t)reach->offset + reach->size)
            reach = e;
    }
    for (uint32_t i = 1; i < p->entry_count && !rc; i++)
        if (p->entries[i].offset < p->entries[i - 1].offset)
            rc = add_anomaly(p, i, p->entries[i].table_offset + 16, "out_of_order", err,
                             "entry %" PRIu32 ": data at 0x%" PRIx32
                             " comes before the previous entry's (0x%" PRIx32 ")",
                             i, p->entries[i].offset, p->entries[i - 1].offset);
    free(by_off);
    return rc;
}

/* Header, tables and the checks that need no entry bytes, from head[0..head_len) of a file
 * of p->size bytes (need: see tabrd). */
static int parse_tables(pak_file *p, const uint8_t *head, size_t head_len, uint64_t *need,
                        util_err *err)
{
    tabrd t = {util_rd_make(head, head_len, 0), p->size, need};
    uint32_t version;
    if (tab_u32(&t, &version, err))
        return UTIL_ETRUNC;
    if (version != PAK_VERSION)
        return util_fail(err, UTIL_EFORMAT, 0,
                         "not a MP1/MP2 PAK: version 0x%08" PRIx32 ", expected 0x%08x", version,
                         PAK_VERSION);
    if (tab_u32(&t, &p->header_unused, err))
        return UTIL_ETRUNC;
    if (p->size == 8) { /* §2.2: a PAK ending after its header is empty */
        p->tables_end = 8;
    } else {
        int rc = read_named(p, &t, err);
        if (!rc)
            rc = read_resources(p, &t, err);
        if (rc)
            return rc;
        p->tables_end = util_rd_off(&t.r);
        /* Writers pad the tables to 32 bytes; a file ending inside that gap is cut short. */
        uint64_t data_start = align32(p->tables_end);
        if (p->size < data_start)
            return util_fail(err, UTIL_ETRUNC, p->size,
                             "file ends at 0x%zx, inside the padding after the tables (data "
                             "starts at 0x%" PRIx64 ")",
                             p->size, data_start);
    }
    p->tables_hash = util_fnv1a(UTIL_FNV_INIT, head, (size_t)p->tables_end);
    if (p->header_unused)
        if (add_anomaly(p, -1, 4, "header_unused", err,
                        "header word at 4 is 0x%08" PRIx32 ", expected 0", p->header_unused))
            return UTIL_ENOMEM;
    for (uint32_t i = 0; i < p->entry_count; i++)
        if (check_entry(p, &p->entries[i], err))
            return UTIL_ENOMEM;
    if (p->entry_count && check_layout(p, err))
        return UTIL_ENOMEM;
    return 0;
}

pak_file *pak_new(uint64_t size)
{
    pak_file *p = calloc(1, sizeof *p);
    pak_priv *pv = calloc(1, sizeof *pv);
    if (!p || !pv) {
        free(p);
        free(pv);
        return NULL;
    }
    p->priv = pv;
    p->size = (size_t)size;
    return p;
}

int pak_open_tables(pak_file **out, const uint8_t *head, size_t head_len, uint64_t file_size,
                    uint64_t *need, util_err *err)
{
    int rc = 0;
    *out = NULL;
    *need = 0;
    if (file_size > SIZE_MAX)
        return util_fail(err, UTIL_EIO, UINT64_MAX, "file of %" PRIu64 " bytes is too large",
                         file_size);
    if (head_len > file_size)
        head_len = (size_t)file_size;
    pak_file *p = pak_new(file_size);
    if (!p)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    rc = parse_tables(p, head, head_len, need, err);
    if (rc)
        goto done;
    *out = p;
    p = NULL;
done:
    pak_close(p);
    return rc;
}

void pak_close(pak_file *p)
{
    if (!p)
        return;
    pak_priv *pv = p->priv;
    if (pv) {
        util_src_close(pv->own_src);
        free(pv->names);
        free(pv);
    }
    free(p->named);
    free(p->entries);
    free(p->anomalies);
    free(p);
}

const char *pak_game_name(pak_game g)
{
    switch (g) {
    case PAK_GAME_MP1:
        return "MP1";
    case PAK_GAME_MP2:
        return "MP2";
    default:
        return "unknown";
    }
}
