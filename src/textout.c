/* textout.c — the one policy for strings ancsdb prints (see cli.h): JSON string literals that
 * are always valid UTF-8, and terminal-safe text for tables and dumps. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Length of the well-formed UTF-8 sequence at s[0..n) (1..4) and its code point, or 0 when
 * s[0] does not start one (stray continuation byte, overlong form, surrogate, > U+10FFFF,
 * truncated sequence). */
static size_t utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned char c = s[0];
    size_t len;
    uint32_t v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        v = c & 0x1Fu;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        v = c & 0x0Fu;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        v = c & 0x07u;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t k = 1; k < len; k++) {
        if ((s[k] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (s[k] & 0x3Fu);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return len;
}

/* Code points a terminal may act on: C0 and C1 controls, DEL, line/paragraph separators and
 * the bidirectional overrides and isolates (text that reorders what follows it). */
static int is_unsafe(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

void cli_json_string(FILE *f, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    for (size_t i = 0; i < n;) {
        uint32_t cp = 0;
        size_t len = utf8_seq(p + i, n - i, &cp);
        if (len == 0) { /* not UTF-8: the byte as the code point of the same value */
            fprintf(f, "\\u%04x", p[i]);
            i++;
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
        } else if (is_unsafe(cp)) {
            fprintf(f, "\\u%04x", (unsigned)cp);
        } else {
            fwrite(p + i, 1, len, f);
        }
        i += len;
    }
    fputc('"', f);
}

void cli_json_cstr(FILE *f, const char *s)
{
    cli_json_string(f, s, strlen(s));
}

char *cli_term_escape(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    /* at most 6 output bytes per input byte ("\u202e" for 3 bytes; "\xNN" for 1) */
    if (n > (SIZE_MAX - 1) / 6)
        return NULL;
    char *out = malloc(n * 6 + 1), *o = out;
    if (!out)
        return NULL;
    for (size_t i = 0; i < n;) {
        uint32_t cp = 0;
        size_t len = utf8_seq(p + i, n - i, &cp);
        if (len == 0) {
            o += sprintf(o, "\\x%02x", p[i]);
            i++;
            continue;
        }
        if (cp == '\n') {
            o += sprintf(o, "\\n");
        } else if (cp == '\r') {
            o += sprintf(o, "\\r");
        } else if (cp == '\t') {
            o += sprintf(o, "\\t");
        } else if (is_unsafe(cp)) {
            o += cp < 0x100 ? sprintf(o, "\\x%02x", (unsigned)cp)
                            : sprintf(o, "\\u%04x", (unsigned)cp);
        } else {
            memcpy(o, p + i, len);
            o += len;
        }
        i += len;
    }
    *o = '\0';
    return out;
}

size_t cli_text_width(const char *s)
{
    size_t w = 0;
    for (; s && *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}
