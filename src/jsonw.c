/* jsonw.c — streaming JSON writer for nested documents (see jsonw.h). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"

/* Length of the well-formed UTF-8 sequence at p (1..4), or 0. */
static size_t utf8_seq(const unsigned char *p, uint32_t *cp)
{
    unsigned char c = p[0];
    size_t len;
    uint32_t v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        len = 2, v = c & 0x1Fu, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, v = c & 0x0Fu, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, v = c & 0x07u, min = 0x10000;
    } else {
        return 0;
    }
    for (size_t k = 1; k < len; k++) {
        if ((p[k] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (p[k] & 0x3Fu);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return len;
}

void jw_string_literal(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    fputc('"', f);
    while (*p) {
        uint32_t cp = 0;
        size_t len = utf8_seq(p, &cp);
        if (len == 0) { /* a byte that is not UTF-8: the code point of the same value */
            fprintf(f, "\\u%04x", *p++);
            continue;
        }
        if (cp == '"' || cp == '\\') {
            fputc('\\', f);
            fputc((int)cp, f);
        } else if (cp == '\n') {
            fputs("\\n", f);
        } else if (cp == '\r') {
            fputs("\\r", f);
        } else if (cp == '\t') {
            fputs("\\t", f);
        } else if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
                   (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069)) {
            fprintf(f, "\\u%04x", (unsigned)cp);
        } else {
            fwrite(p, 1, len, f);
        }
        p += len;
    }
    fputc('"', f);
}

void jw_init(jw *w, FILE *f, int compact)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    w->compact = compact;
}

static void member(jw *w, const char *key)
{
    if (w->count[w->depth]++)
        fputc(',', w->f);
    if (w->depth > 0 && !w->compact) {
        fputc('\n', w->f);
        for (int i = 0; i < w->depth; i++)
            fputs("  ", w->f);
    }
    if (key) {
        jw_string_literal(w->f, key);
        fputs(w->compact ? ":" : ": ", w->f);
    }
}

static void open_(jw *w, const char *key, char c)
{
    member(w, key);
    fputc(c, w->f);
    if (w->depth < JW_MAX_DEPTH)
        w->depth++;
    w->count[w->depth] = 0;
}

static void close_(jw *w, char c)
{
    int had = w->count[w->depth];
    if (w->depth > 0)
        w->depth--;
    if (had && !w->compact) {
        fputc('\n', w->f);
        for (int i = 0; i < w->depth; i++)
            fputs("  ", w->f);
    }
    fputc(c, w->f);
}

void jw_obj(jw *w, const char *key)
{
    open_(w, key, '{');
}

void jw_arr(jw *w, const char *key)
{
    open_(w, key, '[');
}

void jw_end_obj(jw *w)
{
    close_(w, '}');
}

void jw_end_arr(jw *w)
{
    close_(w, ']');
}

void jw_str(jw *w, const char *key, const char *s)
{
    member(w, key);
    if (s)
        jw_string_literal(w->f, s);
    else
        fputs("null", w->f);
}

void jw_int(jw *w, const char *key, int64_t v)
{
    member(w, key);
    fprintf(w->f, "%" PRId64, v);
}

void jw_real(jw *w, const char *key, double v)
{
    member(w, key);
    if (isnan(v) || isinf(v)) {
        fputs(isnan(v) ? "\"NaN\"" : v > 0 ? "\"Infinity\"" : "\"-Infinity\"", w->f);
        return;
    }
    char b[40];
    snprintf(b, sizeof b, "%.15g", v);
    if (strtod(b, NULL) != v)
        snprintf(b, sizeof b, "%.17g", v);
    /* keep it a JSON number with a fraction or exponent so readers see a real */
    fputs(b, w->f);
    if (!strpbrk(b, ".eEn"))
        fputs(".0", w->f);
}

void jw_bool(jw *w, const char *key, int v)
{
    member(w, key);
    fputs(v ? "true" : "false", w->f);
}

void jw_null(jw *w, const char *key)
{
    member(w, key);
    fputs("null", w->f);
}

void jw_id(jw *w, const char *key, uint32_t v)
{
    member(w, key);
    fprintf(w->f, "\"%08" PRIX32 "\"", v);
}

void jw_done(jw *w)
{
    if (!w->compact)
        fputc('\n', w->f);
}
