/* text.c — the one string policy for text ancsdb prints to people (see util.h): UTF-8
 * sequences, the code points a terminal may act on, and escaping. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

size_t util_utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
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

int util_cp_unsafe(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
           /* invisible: Arabic letter mark, zero-width space, joiners and direction marks,
            * word joiner and invisible operators, zero-width no-break space (BOM),
            * interlinear annotation marks */
           cp == 0x061C || (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2060 && cp <= 0x2064) ||
           cp == 0xFEFF || (cp >= 0xFFF9 && cp <= 0xFFFB);
}

char *util_text_safe(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    /* at most 4 output bytes per input byte ("\u202e" for 3 bytes; "\xNN" for 1) */
    if (n > (SIZE_MAX - 1) / 4)
        return NULL;
    char *out = malloc(n * 4 + 1), *o = out;
    if (!out)
        return NULL;
    for (size_t i = 0; i < n;) {
        uint32_t cp = 0;
        size_t len = util_utf8_seq(p + i, n - i, &cp);
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
        } else if (util_cp_unsafe(cp)) {
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

int util_text_vprintf(FILE *f, const char *fmt, va_list ap)
{
    char small[512], *text = small;
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0) {
        va_end(ap2);
        return EOF;
    }
    if ((size_t)n >= sizeof small) {
        text = malloc((size_t)n + 1);
        if (!text) {
            va_end(ap2);
            return EOF;
        }
        vsnprintf(text, (size_t)n + 1, fmt, ap2);
    }
    va_end(ap2);
    /* the line ends the format itself starts and ends with stay line ends */
    size_t len = (size_t)n, lead = strspn(fmt, "\n"), fl = strlen(fmt);
    int eol = fl > lead && fmt[fl - 1] == '\n' && len > lead && text[len - 1] == '\n';
    if (lead > len)
        lead = len;
    char *safe = util_text_safe(text + lead, len - lead - (size_t)eol);
    int rc = EOF;
    for (size_t k = 0; k < lead; k++)
        fputc('\n', f);
    if (safe) {
        rc = fputs(safe, f);
        if (rc != EOF && eol)
            rc = fputc('\n', f);
        free(safe);
    }
    if (text != small)
        free(text);
    return rc;
}

int util_text_printf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = util_text_vprintf(f, fmt, ap);
    va_end(ap);
    return rc;
}

void util_xml_escape(FILE *f, const char *s, unsigned flags)
{
    static const char bad[] = "\xEF\xBF\xBD"; /* U+FFFD */
    const unsigned char *p = (const unsigned char *)s;
    size_t left = s ? strlen(s) : 0;
    while (left > 0) {
        unsigned c = *p;
        uint32_t cp;
        size_t n = util_utf8_seq(p, left, &cp);
        const char *rep = NULL;
        if (n == 0) {
            rep = bad;
            n = 1;
        } else if (c == '&') {
            rep = "&amp;";
        } else if (c == '<') {
            rep = "&lt;";
        } else if (c == '>') {
            rep = "&gt;";
        } else if ((flags & UTIL_XML_QUOTES) && c == '"') {
            rep = "&quot;";
        } else if ((flags & UTIL_XML_QUOTES) && c == '\'') {
            rep = "&#39;";
        } else if ((flags & UTIL_XML_LINE_REFS) && (c == '\t' || c == '\n' || c == '\r')) {
            rep = c == '\t' ? "&#9;" : c == '\n' ? "&#10;" : "&#13;";
        } else if (c == '\t' || c == '\n') {
            rep = NULL;
        } else if (c < 0x20 || c == 0x7F || cp == 0xFFFE || cp == 0xFFFF) {
            rep = bad;
        }
        if (rep)
            fputs(rep, f);
        else
            fwrite(p, 1, n, f);
        p += n;
        left -= n;
    }
}
