/* fuzz_output.c — the one string policy over arbitrary bytes: result tables in every output
 * format (cells from the input), JSON string literals, terminal-safe text and printed lines.
 * Checked: a JSON string is valid UTF-8 with no raw control character and decodes back to
 * exactly the input bytes (\udcXX = byte XX); table output, escaped text and printed lines
 * are valid UTF-8 holding no control character (but the table's line ends) and no code point
 * a terminal acts on. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* valid UTF-8 with no unsafe code point; '\n' allowed when lines */
static void check_safe(const char *s, size_t n, int lines)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = util_utf8_seq(p + i, n - i, &cp);
        if (len == 0)
            abort();
        if (util_cp_unsafe(cp) && !(lines && cp == '\n'))
            abort();
        i += len;
    }
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Decode the JSON string literal j[0..n) back into bytes and compare with want. */
static void check_json_roundtrip(const char *j, size_t n, const uint8_t *want, size_t wn)
{
    check_safe(j, n, 0);
    if (n < 2 || j[0] != '"' || j[n - 1] != '"')
        abort();
    uint8_t *out = malloc(wn * 4 + 4);
    size_t o = 0;
    if (!out)
        return;
    for (size_t i = 1; i + 1 < n;) {
        unsigned char c = (unsigned char)j[i];
        if (c == '"')
            abort(); /* an unescaped quote inside */
        if (c != '\\') {
            out[o++] = c;
            i++;
            continue;
        }
        char e = j[i + 1];
        if (e == 'n' || e == 'r' || e == 't' || e == '"' || e == '\\') {
            out[o++] = e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : (uint8_t)e;
            i += 2;
            continue;
        }
        if (e != 'u' || i + 6 > n - 1)
            abort();
        uint32_t v = 0;
        for (int k = 0; k < 4; k++) {
            int h = hexval(j[i + 2 + k]);
            if (h < 0)
                abort();
            v = v << 4 | (uint32_t)h;
        }
        i += 6;
        if (v >= 0xDC80 && v <= 0xDCFF) { /* a byte that was not UTF-8 */
            out[o++] = (uint8_t)(v & 0xFF);
        } else if (v >= 0xD800 && v <= 0xDFFF) {
            abort(); /* no other surrogate is ever written */
        } else if (v < 0x80) {
            out[o++] = (uint8_t)v;
        } else if (v < 0x800) {
            out[o++] = (uint8_t)(0xC0 | v >> 6);
            out[o++] = (uint8_t)(0x80 | (v & 0x3F));
        } else {
            out[o++] = (uint8_t)(0xE0 | v >> 12);
            out[o++] = (uint8_t)(0x80 | (v >> 6 & 0x3F));
            out[o++] = (uint8_t)(0x80 | (v & 0x3F));
        }
    }
    if (o != wn || (wn && memcmp(out, want, wn) != 0))
        abort();
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f;

    /* the whole input as one JSON string and as terminal text */
    if (!(f = open_memstream(&buf, &len)))
        return 0;
    cli_json_string(f, (const char *)data, size);
    fclose(f);
    check_json_roundtrip(buf, len, data, size);
    free(buf);
    char *t = cli_term_escape((const char *)data, size);
    if (t) {
        check_safe(t, strlen(t), 0);
        free(t);
    }
    if (!(f = open_memstream(&buf, &len)))
        return 0;
    cli_say(f, "x %.*s y\n", (int)(size > 4096 ? 4096 : size), (const char *)data);
    fclose(f);
    if (len == 0 || buf[len - 1] != '\n' || memchr(buf, '\n', len) != buf + len - 1)
        abort(); /* one line, whatever the data held */
    check_safe(buf, len - 1, 0);
    free(buf);

    /* a result table: byte 0 picks the format and column count, then cells as
     * (kind/length byte, bytes) */
    if (size < 1)
        return 0;
    out_format fmt = (out_format)(data[0] & 3);
    int ncols = 1 + (data[0] >> 2 & 3);
    const char *names[4] = {"a\x1b[2J", "asset_id", "n\xc2\x9b", "\xff"};
    if (!(f = open_memstream(&buf, &len)))
        return 0;
    out_table *tb = out_begin(f, fmt, ncols, names);
    if (!tb) {
        fclose(f);
        free(buf);
        return 0;
    }
    size_t i = 1;
    while (i < size) {
        uint8_t k = data[i++];
        size_t n = k & 0x3F;
        if (n > size - i)
            n = size - i;
        switch (k >> 6) {
        case 0:
            out_textn(tb, (const char *)data + i, n);
            break;
        case 1:
            out_blob(tb, data + i, n);
            break;
        case 2:
            out_null(tb);
            break;
        default: {
            uint32_t v = 0;
            for (size_t b = 0; b < n && b < 4; b++)
                v = v << 8 | data[i + b];
            if (n & 1)
                out_id(tb, v);
            else
                out_int(tb, (int64_t)v - 0x7FFFFFFF);
        }
        }
        i += n;
        if (k == 0xFF)
            out_row_end(tb);
    }
    out_finish(tb);
    fclose(f);
    if (fmt == OUT_TABLE)
        check_safe(buf, len, 1);
    else if (fmt == OUT_JSON)
        check_safe(buf, len, 1); /* rows are separated by line ends; strings escape theirs */
    free(buf);
    return 0;
}
