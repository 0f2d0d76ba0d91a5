/* jsonw.c — streaming JSON writer for nested documents (see jsonw.h). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jsonw.h"

/* The one JSON string policy of the command line (cli_json_string, textout.c). */
void jw_string_literal(FILE *f, const char *s)
{
    cli_json_cstr(f, s ? s : "");
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

void jw_uint(jw *w, const char *key, uint64_t v)
{
    member(w, key);
    fprintf(w->f, "%" PRIu64, v);
}

void jw_bool(jw *w, const char *key, int v)
{
    member(w, key);
    fputs(v ? "true" : "false", w->f);
}

void jw_f32(jw *w, const char *key, float v)
{
    member(w, key);
    if (isnan(v) || isinf(v))
        fputs(isnan(v) ? "\"nan\"" : v < 0 ? "\"-inf\"" : "\"inf\"", w->f);
    else
        fprintf(w->f, "%.9g", (double)v);
}

void jw_done(jw *w)
{
    if (!w->compact)
        fputc('\n', w->f);
}
