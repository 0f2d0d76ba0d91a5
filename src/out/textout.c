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

/* Terminal cells of code point cp (as wcwidth does in a UTF-8 locale, for the ranges names
 * use): 0 for combining marks and zero-width characters, 2 for East Asian wide and fullwidth
 * characters (CJK, Hangul, kana, fullwidth forms, emoji), else 1. */
static int char_width(uint32_t cp)
{
    static const uint32_t zero[][2] = {
        {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A}, {0x064B, 0x065F},
        {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200F},
        {0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF},
    };
    static const uint32_t wide[][2] = {
        {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
        {0x2614, 0x2615},   {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF},
        {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},   {0xA960, 0xA97F},   {0xAC00, 0xD7A3},
        {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},
        {0xFFE0, 0xFFE6},   {0x16FE0, 0x18AFF}, {0x1B000, 0x1B2FF}, {0x1F300, 0x1F64F},
        {0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
    };
    for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++)
        if (cp >= zero[i][0] && cp <= zero[i][1])
            return 0;
    for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
        if (cp >= wide[i][0] && cp <= wide[i][1])
            return 2;
    return 1;
}

size_t cli_text_width(const char *s)
{
    size_t w = 0, n = s ? strlen(s) : 0;
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        uint32_t cp = 0;
        size_t len = util_utf8_seq(p + i, n - i, &cp);
        if (len == 0) { /* not UTF-8 (terminal text is escaped before): one cell */
            w++;
            i++;
            continue;
        }
        w += (size_t)char_width(cp);
        i += len;
    }
    return w;
}

size_t cli_text_fit(const char *s, size_t cells, size_t *used)
{
    size_t w = 0, n = s ? strlen(s) : 0, i = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (i < n) {
        uint32_t cp = 0;
        size_t len = util_utf8_seq(p + i, n - i, &cp);
        int cw = len ? char_width(cp) : 1;
        if (!len)
            len = 1;
        if (w + (size_t)cw > cells)
            break;
        w += (size_t)cw;
        i += len;
    }
    if (used)
        *used = w;
    return i;
}
