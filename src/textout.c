/* textout.c — the one policy for strings ancsdb prints (see cli.h): JSON string literals that
 * are always valid UTF-8, and terminal-safe text for tables and dumps. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_json_string(FILE *f, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    for (size_t i = 0; i < n;) {
        uint32_t cp = 0;
        size_t len = util_utf8_seq(p + i, n - i, &cp);
        if (len == 0) { /* not UTF-8: byte XX as the lone surrogate U+DCXX (XX >= 0x80) */
            fprintf(f, "\\udc%02x", p[i]);
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
        } else if (util_cp_unsafe(cp)) {
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
    return util_text_safe(s, n);
}

void cli_say(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    util_text_vprintf(f, fmt, ap);
    va_end(ap);
}

size_t cli_text_width(const char *s)
{
    size_t w = 0;
    for (; s && *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}
