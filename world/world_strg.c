/* world_strg.c — STRG bytes to structs (docs/formats.md §12), and back.
 *
 * The header and language table are read in order; the MP2 name table follows them; the
 * string tables are then visited by their offsets (relative to the string data start). A
 * table must lie inside the input (UTIL_ETRUNC, at the field that placed or sized it); a
 * string offset must fall inside its table and the string must end (a 16-bit 0) inside it,
 * be whole UTF-16 code units and pair its surrogates (UTIL_EFORMAT, at the fault).
 *
 * Byte-exact round trip: the decoder checks, as it reads, that the input is laid out the way
 * the encoder lays tables out (strings back to back in index order, tables back to back in
 * language order, names back to back in entry order, every offset and size the one the
 * encoder computes); when it is not, it keeps the input's body (raw_body) for the encoder to
 * write verbatim. (UTF-16 read back as UTF-8 encodes to the same code units: the decoder
 * accepts no lone surrogate, so the strings' bytes are the encoder's.) Languages that share
 * a table, and strings that share their bytes, could make the decoded strings many times
 * larger than the file: what one STRG decodes into is capped at a multiple of its size and
 * by its arena's limit (UTIL_EFORMAT past it). */
#include "world_int.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LANG_ENTRY_MP1 8
#define LANG_ENTRY_MP2 12
#define NAME_ENTRY     8
/* What one STRG may decode into besides its input copy: per language its two string arrays
 * and one block of UTF-8 text, per string its UTF-8 bytes, per name its entry, its index key
 * and its text (which the rows repeat). At most this many times the file's size plus a floor:
 * a string of a file whose tables and strings lie back to back costs at most 13/6 of its bytes
 * (an empty one: 6 bytes in the file, 12 bytes of slots and 1 of text), a name at most 25/9, so
 * only tables or strings used more than once can pass it. At most, too, what the arena's limit
 * leaves, less a reserve for the warnings. */
#define BUDGET_FACTOR  4
#define BUDGET_FLOOR   65536
#define BUDGET_RESERVE 32768
#define ARENA_ALIGN    (sizeof(max_align_t)) /* util_arena_alloc's rounding */

typedef struct sdec {
    wdec d;
    uint64_t budget; /* bytes still allowed */
    uint64_t cap;    /* bytes allowed in all */
    int by_limit;    /* cap set by the arena's limit */
    int laid_out;    /* 1 while every offset and size read is the one the encoder writes */
    uint64_t next;   /* where the encoder puts the next language table (from the data start) */
} sdec;

/* Bytes the arena takes for n bytes (n > 0). */
static uint64_t arena_bytes(uint64_t n)
{
    return (n + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN;
}

static uint16_t be16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

/* Charge n bytes decoded for `what` (whose field is at off) to the budget. */
static int spend(sdec *s, uint64_t n, uint64_t off, const char *what)
{
    if (n > s->budget)
        return util_fail(s->d.err, UTIL_EFORMAT, off,
                         "%s: the decoded strings would pass %llu bytes (%s; tables or strings "
                         "used more than once?)",
                         what, (unsigned long long)s->cap,
                         s->by_limit ? "what the memory budget leaves"
                                     : "4 times the file's size plus 64 KiB");
    s->budget -= n;
    return 0;
}

/* What a language table (i = TABLE) or its string i is called in messages, in buf. Made only
 * for a message: formatting it for every string was a third of what decoding a STRG cost. */
#define TABLE UINT32_MAX
static const char *what_of(char *buf, size_t n, const char *lang, uint32_t i)
{
    if (i == TABLE)
        snprintf(buf, n, "language %s table", lang);
    else
        snprintf(buf, n, "language %s string %u", lang, i);
    return buf;
}

/* spend for language lang's table or its string i. */
static int spend_in(sdec *s, uint64_t n, uint64_t off, const char *lang, uint32_t i)
{
    char what[48];
    return n <= s->budget ? spend(s, n, off, "")
                          : spend(s, n, off, what_of(what, sizeof what, lang, i));
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Check the UTF-16BE string at absolute offset `at` (string i of language lang's table), which
 * must end (a 16-bit 0) before `end` (absolute); *utf8 receives the bytes of its UTF-8 form,
 * terminator excluded, *utf16 its own bytes, terminator included. */
static int measure_utf16(const wdec *d, uint64_t at, uint64_t end, const char *lang, uint32_t i,
                         uint64_t *utf8, uint64_t *utf16)
{
    const uint8_t *p = d->r.p;
    uint64_t q = at, n = 0;
    char what[48];
    while (1) {
        if (end - q < 2) {
            what_of(what, sizeof what, lang, i);
            if (end - q == 1)
                return util_fail(d->err, UTIL_EFORMAT, q,
                                 "%s: odd-length UTF-16 (one byte left before its table ends)",
                                 what);
            return util_fail(d->err, UTIL_EFORMAT, at,
                             "%s has no terminator before its table ends at 0x%llx", what,
                             (unsigned long long)end);
        }
        uint16_t u = be16(p + q);
        if (u == 0) {
            *utf16 = q + 2 - at;
            break;
        }
        if (u >= 0xD800 && u <= 0xDBFF) {
            if (end - q < 4 || be16(p + q + 2) < 0xDC00 || be16(p + q + 2) > 0xDFFF)
                return util_fail(d->err, UTIL_EFORMAT, q,
                                 "%s: high surrogate 0x%04X not followed by a low one",
                                 what_of(what, sizeof what, lang, i), u);
            n += 4;
            q += 4;
            continue;
        }
        if (u >= 0xDC00 && u <= 0xDFFF)
            return util_fail(d->err, UTIL_EFORMAT, q, "%s: lone low surrogate 0x%04X",
                             what_of(what, sizeof what, lang, i), u);
        n += u < 0x80 ? 1 : u < 0x800 ? 2 : 3;
        q += 2;
    }
    *utf8 = n;
    return 0;
}

/* Write the UTF-8 form of the string at p (checked by measure_utf16) and its terminator to o;
 * the bytes written, terminator included. */
static size_t put_utf8(const uint8_t *p, char *o)
{
    size_t n = 0;
    for (uint32_t c; (c = be16(p)) != 0;) {
        p += 2;
        if (c >= 0xD800 && c <= 0xDBFF) {
            c = 0x10000 + ((c - 0xD800) << 10) + (be16(p) - 0xDC00u);
            p += 2;
        }
        if (c < 0x80) {
            o[n++] = (char)c;
        } else if (c < 0x800) {
            o[n++] = (char)(0xC0 | c >> 6);
            o[n++] = (char)(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            o[n++] = (char)(0xE0 | c >> 12);
            o[n++] = (char)(0x80 | (c >> 6 & 0x3F));
            o[n++] = (char)(0x80 | (c & 0x3F));
        } else {
            o[n++] = (char)(0xF0 | c >> 18);
            o[n++] = (char)(0x80 | (c >> 12 & 0x3F));
            o[n++] = (char)(0x80 | (c >> 6 & 0x3F));
            o[n++] = (char)(0x80 | (c & 0x3F));
        }
    }
    o[n++] = 0;
    return n;
}

/* §12.3 name table: u32 count, u32 size, count x (u32 name_offset, u32 string_index), names. */
static int dec_names(sdec *s, world_strg *g)
{
    wdec *d = &s->d;
    uint64_t coff = util_rd_off(&d->r);
    TRY(util_rd_u32(&d->r, &g->name_count, d->err));
    TRY(util_rd_u32(&d->r, &g->name_table_size, d->err));
    uint64_t start = util_rd_off(&d->r);
    if (g->name_table_size > util_rd_left(&d->r))
        return util_fail(d->err, UTIL_ETRUNC, coff + 4,
                         "name table size %u runs past the end (%zu bytes left after it)",
                         g->name_table_size, util_rd_left(&d->r));
    if (g->name_count > g->name_table_size / NAME_ENTRY)
        return util_fail(d->err, UTIL_EFORMAT, coff,
                         "%u names do not fit in a name table of %u bytes", g->name_count,
                         g->name_table_size);
    if (g->name_count)
        TRY(spend(s,
                  arena_bytes((uint64_t)g->name_count * sizeof *g->names) +
                      arena_bytes((uint64_t)g->name_count * sizeof *g->name_index),
                  coff, "name table"));
    TRY(util_dec_array(d, &g->names, g->name_count, sizeof *g->names));
    uint64_t *keys = NULL;
    TRY(util_dec_array(d, &keys, g->name_count, sizeof *keys));
    uint64_t end = start + g->name_table_size;
    uint64_t laid = (uint64_t)NAME_ENTRY * g->name_count; /* where the encoder puts name i */
    for (uint32_t i = 0; i < g->name_count; i++) {
        world_strg_name *n = &g->names[i];
        uint64_t off = util_rd_off(&d->r);
        TRY(util_rd_u32(&d->r, &n->name_offset, d->err));
        TRY(util_rd_u32(&d->r, &n->string_index, d->err));
        if (n->name_offset >= g->name_table_size)
            return util_fail(d->err, UTIL_EFORMAT, off,
                             "name %u at offset %u is past its name table (%u bytes)", i,
                             n->name_offset, g->name_table_size);
        if (n->string_index >= g->string_count)
            return util_fail(d->err, UTIL_EFORMAT, off + 4,
                             "name %u is for string %u, but there are %u strings", i,
                             n->string_index, g->string_count);
        uint64_t at = start + n->name_offset;
        const uint8_t *nul = memchr(d->r.p + at, 0, end - at);
        if (!nul)
            return util_fail(d->err, UTIL_EFORMAT, at,
                             "name %u has no terminator before its name table ends", i);
        uint64_t len = (uint64_t)(nul - (d->r.p + at)) + 1;
        TRY(spend(s, len, off, "name table"));
        n->name = (const char *)(d->r.p + at);
        s->laid_out &= n->name_offset == laid;
        laid += len;
        keys[i] = (uint64_t)n->string_index << 32 | i;
    }
    s->laid_out &= laid == g->name_table_size;
    d->r.pos = end; /* past the names; inside the input (checked above) */
    /* the names of string i in table order, found by a binary search (world_strg_name_of) */
    if (keys)
        qsort(keys, g->name_count, sizeof *keys, cmp_u64);
    g->name_index = keys;
    return 0;
}

/* §12.2 one language's table: [MP1 u32 size], string_count x u32 offset, UTF-16 strings.
 * *table_end receives its absolute end. */
static int dec_table(sdec *s, world_strg *g, uint32_t k, uint64_t data_start, uint64_t entry_off,
                     uint64_t *table_end)
{
    wdec *d = &s->d;
    world_strg_lang *l = &g->languages[k];
    int mp2 = g->game == WORLD_GAME_MP2;
    uint64_t len = d->r.len;
    char lang[5];
    util_fourcc_str(l->lang, lang);
    if (l->offset > len - data_start)
        return util_fail(d->err, UTIL_ETRUNC, entry_off + 4,
                         "language %s table at 0x%llx is past the end (%llu bytes)", lang,
                         (unsigned long long)(data_start + l->offset), (unsigned long long)len);
    uint64_t at = data_start + l->offset;
    uint64_t size_off = entry_off + 8; /* MP2: the size in the language entry */
    s->laid_out &= l->offset == s->next;
    if (!mp2) {
        if (len - at < 4)
            return util_fail(d->err, UTIL_ETRUNC, entry_off + 4,
                             "language %s table at 0x%llx: its size word is past the end", lang,
                             (unsigned long long)at);
        const uint8_t *p = d->r.p + at;
        l->size = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
        size_off = at;
        at += 4;
    }
    if (l->size > len - at)
        return util_fail(d->err, UTIL_ETRUNC, size_off,
                         "language %s table of %u bytes at 0x%llx runs past the end (%llu bytes)",
                         lang, l->size, (unsigned long long)at, (unsigned long long)len);
    uint64_t end = at + l->size;
    *table_end = end;
    s->next += (uint64_t)l->size + (mp2 ? 0 : 4);
    if ((uint64_t)g->string_count * 4 > l->size)
        return util_fail(d->err, UTIL_EFORMAT, size_off,
                         "language %s table of %u bytes cannot hold %u string offsets", lang,
                         l->size, g->string_count);
    if (g->string_count)
        TRY(spend_in(s,
                     arena_bytes((uint64_t)g->string_count * sizeof *l->string_offsets) +
                         arena_bytes((uint64_t)g->string_count * sizeof *l->strings) + ARENA_ALIGN,
                     entry_off + 4, lang, TABLE));
    TRY(util_dec_array(d, &l->string_offsets, g->string_count, sizeof *l->string_offsets));
    TRY(util_dec_array(d, &l->strings, g->string_count, sizeof *l->strings));
    /* The table's text goes in one arena block: each string costs its UTF-8 bytes, not a
     * block of its own. */
    uint64_t text = 0, laid = 4ull * g->string_count; /* where the encoder puts string i */
    for (uint32_t i = 0; i < g->string_count; i++) {
        uint64_t off = at + 4ull * i;
        const uint8_t *p = d->r.p + off;
        uint32_t o = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
        l->string_offsets[i] = o;
        if (o >= l->size)
            return util_fail(d->err, UTIL_EFORMAT, off,
                             "language %s string %u at offset %u is outside its table (%u bytes)",
                             lang, i, o, l->size);
        uint64_t n = 0, n16 = 0;
        TRY(measure_utf16(d, at + o, end, lang, i, &n, &n16));
        TRY(spend_in(s, n + 1, off, lang, i));
        text += n + 1;
        s->laid_out &= o == laid;
        laid += n16;
    }
    s->laid_out &= laid == l->size;
    if (!g->string_count)
        return 0;
    char *o = util_arena_alloc(d->a, (size_t)text); /* text: within the budget */
    if (!o)
        return util_dec_oom(d);
    for (uint32_t i = 0; i < g->string_count; i++) {
        l->strings[i] = o;
        o += put_utf8(d->r.p + at + l->string_offsets[i], o);
    }
    return 0;
}

int world_strg_decode(world_strg *out, const uint8_t *buf, size_t len, util_arena *arena,
                      util_err *err)
{
    memset(out, 0, sizeof *out);
    sdec ss = {0}, *s = &ss;
    wdec *d = &s->d;
    TRY(util_dec_start(d, buf, len, &out->report, arena, err));
    s->cap = (uint64_t)len * BUDGET_FACTOR + BUDGET_FLOOR;
    if (arena->limit) {
        size_t used = arena->total + BUDGET_RESERVE;
        uint64_t room = arena->limit > used ? arena->limit - used : 0;
        if (room < s->cap) {
            s->cap = room;
            s->by_limit = 1;
        }
    }
    s->budget = s->cap;
    s->laid_out = 1;
    world_strg *g = out;

    TRY(util_rd_u32(&d->r, &g->magic, err));
    if (g->magic != WORLD_STRG_MAGIC)
        return util_fail(err, UTIL_EFORMAT, 0, "STRG magic 0x%08X, expected 0x%08X", g->magic,
                         WORLD_STRG_MAGIC);
    TRY(util_rd_u32(&d->r, &g->version, err));
    g->game = world_strg_version_game(g->version);
    if (g->game == WORLD_GAME_UNKNOWN)
        return util_fail(err, UTIL_EFORMAT, 4,
                         "STRG version %u is not read (0 Metroid Prime, 1 Echoes; 3 is Prime 3)",
                         g->version);
    int mp2 = g->game == WORLD_GAME_MP2;
    TRY(util_rd_u32(&d->r, &g->language_count, err));
    if (g->language_count > WORLD_MAX_LANGS)
        return util_fail(err, UTIL_EFORMAT, 8, "%u languages (at most %d)", g->language_count,
                         WORLD_MAX_LANGS);
    TRY(util_rd_u32(&d->r, &g->string_count, err));
    size_t entry = mp2 ? LANG_ENTRY_MP2 : LANG_ENTRY_MP1;
    TRY(util_rd_check_count(&d->r, g->language_count, entry, "language", err));
    if (g->language_count)
        TRY(spend(s, arena_bytes((uint64_t)g->language_count * sizeof *g->languages), 8,
                  "language table"));
    TRY(util_dec_array(d, &g->languages, g->language_count, sizeof *g->languages));
    for (uint32_t k = 0; k < g->language_count; k++) {
        world_strg_lang *l = &g->languages[k];
        uint64_t off = util_rd_off(&d->r);
        TRY(util_rd_u32(&d->r, &l->lang, err));
        TRY(util_rd_u32(&d->r, &l->offset, err));
        if (mp2)
            TRY(util_rd_u32(&d->r, &l->size, err));
        for (uint32_t j = 0; j < k; j++) {
            if (g->languages[j].lang != l->lang)
                continue;
            char fc[5];
            util_fourcc_str(l->lang, fc);
            TRY(util_dec_warn(d, off, "strg_language_twice",
                              "language %s listed again (entry %u, first at entry %u): its "
                              "strings are read, only the first entry's are kept as rows",
                              fc, k, j));
            break;
        }
    }
    uint64_t lang_end = util_rd_off(&d->r);
    if (mp2)
        TRY(dec_names(s, g));
    uint64_t data_start = util_rd_off(&d->r);
    uint64_t end = data_start;
    for (uint32_t k = 0; k < g->language_count; k++) {
        uint64_t te = 0; /* set by dec_table on success; -O2 cannot see it */
        TRY(dec_table(s, g, k, data_start, 16 + (uint64_t)entry * k, &te));
        if (te > end)
            end = te;
    }
    d->r.pos = (size_t)end;

    /* Not the encoder's layout: keep the body, to the end of the table that ends last, for
     * an exact round trip. */
    if (!s->laid_out) {
        g->raw_body = d->r.p + lang_end;
        g->raw_body_len = (size_t)(end - lang_end);
        TRY(util_dec_warn(d, lang_end, "strg_layout",
                          "string tables not laid out back to back in order (kept as stored)"));
    }
    return util_dec_finish(d);
}

/* ---- encoder ------------------------------------------------------------------------------ */

static int enc_bad(util_err *err, const char *what)
{
    return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "cannot encode STRG: %s", what);
}

/* Bytes of s as UTF-16BE with its terminator; -1 when s is not valid UTF-8 (overlong forms,
 * surrogates and values past U+10FFFF included). Writes them to w when w is not NULL. */
static int64_t utf16_of(const char *str, util_wr *w)
{
    const uint8_t *p = (const uint8_t *)(str ? str : "");
    int64_t n = 0;
    while (*p) {
        uint32_t c;
        int extra;
        if (p[0] < 0x80) {
            c = p[0];
            extra = 0;
        } else if ((p[0] & 0xE0) == 0xC0) {
            c = p[0] & 0x1F;
            extra = 1;
        } else if ((p[0] & 0xF0) == 0xE0) {
            c = p[0] & 0x0F;
            extra = 2;
        } else if ((p[0] & 0xF8) == 0xF0) {
            c = p[0] & 0x07;
            extra = 3;
        } else {
            return -1;
        }
        for (int i = 1; i <= extra; i++) {
            if ((p[i] & 0xC0) != 0x80)
                return -1;
            c = c << 6 | (p[i] & 0x3F);
        }
        static const uint32_t min_of[4] = {0, 0x80, 0x800, 0x10000};
        if (c < min_of[extra] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            return -1;
        p += 1 + extra;
        if (c >= 0x10000) {
            if (w) {
                util_wr_u16(w, (uint16_t)(0xD800 + ((c - 0x10000) >> 10)));
                util_wr_u16(w, (uint16_t)(0xDC00 + ((c - 0x10000) & 0x3FF)));
            }
            n += 4;
        } else {
            if (w)
                util_wr_u16(w, (uint16_t)c);
            n += 2;
        }
    }
    if (w)
        util_wr_u16(w, 0);
    return n + 2;
}

int world_strg_encode(util_wr *w, const world_strg *s, util_err *err)
{
    world_game g = world_strg_version_game(s->version);
    if (g == WORLD_GAME_UNKNOWN || (s->game != WORLD_GAME_UNKNOWN && s->game != g))
        return enc_bad(err, "version is neither 0 (MP1) nor 1 (MP2), or disagrees with game");
    int mp2 = g == WORLD_GAME_MP2;
    if (s->language_count && !s->languages)
        return enc_bad(err, "language count without array");
    if (s->raw_body_len && !s->raw_body)
        return enc_bad(err, "raw body length without bytes");
    if (s->report.trailing_len && !s->report.trailing)
        return enc_bad(err, "trailing length without bytes");
    util_wr_u32(w, s->magic ? s->magic : WORLD_STRG_MAGIC);
    util_wr_u32(w, s->version);
    util_wr_u32(w, s->language_count);
    util_wr_u32(w, s->string_count);

    if (s->raw_body) {
        for (uint32_t k = 0; k < s->language_count; k++) {
            util_wr_u32(w, s->languages[k].lang);
            util_wr_u32(w, s->languages[k].offset);
            if (mp2)
                util_wr_u32(w, s->languages[k].size);
        }
        util_wr_bytes(w, s->raw_body, s->raw_body_len);
        util_wr_bytes(w, s->report.trailing, s->report.trailing_len);
        return util_wr_status(w, err);
    }

    /* Sizes first: each table holds string_count offsets and its strings. */
    uint64_t offset = 0;
    for (uint32_t k = 0; k < s->language_count; k++) {
        const world_strg_lang *l = &s->languages[k];
        if (s->string_count && !l->strings)
            return enc_bad(err, "string count without array");
        uint64_t size = 4ull * s->string_count;
        for (uint32_t i = 0; i < s->string_count; i++) {
            int64_t n = utf16_of(l->strings[i], NULL);
            if (n < 0)
                return enc_bad(err, "a string is not valid UTF-8");
            size += (uint64_t)n;
        }
        if (size > UINT32_MAX || offset > UINT32_MAX)
            return enc_bad(err, "string table over 4 GiB");
        util_wr_u32(w, l->lang);
        util_wr_u32(w, (uint32_t)offset);
        if (mp2)
            util_wr_u32(w, (uint32_t)size);
        offset += size + (mp2 ? 0 : 4);
    }
    if (mp2) {
        if (s->name_count && !s->names)
            return enc_bad(err, "name count without array");
        uint64_t size = (uint64_t)NAME_ENTRY * s->name_count;
        for (uint32_t i = 0; i < s->name_count; i++)
            size += strlen(s->names[i].name ? s->names[i].name : "") + 1;
        if (size > UINT32_MAX)
            return enc_bad(err, "name table over 4 GiB");
        util_wr_u32(w, s->name_count);
        util_wr_u32(w, (uint32_t)size);
        uint64_t at = (uint64_t)NAME_ENTRY * s->name_count;
        for (uint32_t i = 0; i < s->name_count; i++) {
            util_wr_u32(w, (uint32_t)at);
            util_wr_u32(w, s->names[i].string_index);
            at += strlen(s->names[i].name ? s->names[i].name : "") + 1;
        }
        for (uint32_t i = 0; i < s->name_count; i++)
            util_wr_cstr(w, s->names[i].name);
    }
    for (uint32_t k = 0; k < s->language_count; k++) {
        const world_strg_lang *l = &s->languages[k];
        uint64_t size = 4ull * s->string_count, at = size;
        for (uint32_t i = 0; i < s->string_count; i++)
            size += (uint64_t)utf16_of(l->strings[i], NULL);
        if (!mp2)
            util_wr_u32(w, (uint32_t)size);
        for (uint32_t i = 0; i < s->string_count; i++) {
            util_wr_u32(w, (uint32_t)at);
            at += (uint64_t)utf16_of(l->strings[i], NULL);
        }
        for (uint32_t i = 0; i < s->string_count; i++)
            utf16_of(l->strings[i], w);
    }
    util_wr_bytes(w, s->report.trailing, s->report.trailing_len);
    return util_wr_status(w, err);
}
