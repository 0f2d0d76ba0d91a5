/* treew.c — a document as a text tree or as JSON (see treew.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "treew.h"

void tw_init(tw *t, FILE *f, int json)
{
    memset(t, 0, sizeof *t);
    t->f = f;
    t->json = json;
    jw_init(&t->w, f, 1);
}

void tw_begin(tw *t)
{
    t->depth = 0;
    t->count[0] = 0;
    t->is_arr[0] = 0;
    if (t->json)
        jw_obj(&t->w, NULL);
}

void tw_finish(tw *t)
{
    if (t->json) {
        jw_end_obj(&t->w);
        fputc('\n', t->f);
    }
}

/* The key JSON gets: none inside an array. */
static const char *jkey(const tw *t, const char *k)
{
    return t->is_arr[t->depth] ? NULL : k;
}

/* Start a tree line: the indentation, then `k: ` or `[i] `. */
static void line(tw *t, const char *k)
{
    for (int i = 0; i < t->depth; i++)
        fputs("  ", t->f);
    if (k)
        fprintf(t->f, "%s: ", k);
    else
        fprintf(t->f, "[%d] ", t->count[t->depth]++);
}

static void open_(tw *t, const char *k, int arr, const char *note)
{
    if (t->json) {
        if (arr)
            jw_arr(&t->w, jkey(t, k));
        else
            jw_obj(&t->w, jkey(t, k));
    } else {
        line(t, k);
        fprintf(t->f, "%s\n", note);
    }
    if (t->depth + 1 < TW_MAX_DEPTH)
        t->depth++;
    t->count[t->depth] = 0;
    t->is_arr[t->depth] = arr;
}

void tw_obj(tw *t, const char *k)
{
    open_(t, k, 0, "");
}

void tw_arr(tw *t, const char *k, uint32_t n)
{
    char note[32];
    snprintf(note, sizeof note, "(%u)", n);
    open_(t, k, 1, note);
}

void tw_end(tw *t, int is_arr)
{
    if (t->depth > 0)
        t->depth--;
    if (t->json) {
        if (is_arr)
            jw_end_arr(&t->w);
        else
            jw_end_obj(&t->w);
    }
}

void tw_uint(tw *t, const char *k, uint64_t v)
{
    if (t->json) {
        jw_uint(&t->w, jkey(t, k), v);
        return;
    }
    line(t, k);
    fprintf(t->f, "%llu\n", (unsigned long long)v);
}

void tw_int(tw *t, const char *k, int64_t v)
{
    if (t->json) {
        jw_int(&t->w, jkey(t, k), v);
        return;
    }
    line(t, k);
    fprintf(t->f, "%lld\n", (long long)v);
}

void tw_id(tw *t, const char *k, uint32_t v)
{
    if (t->json) {
        jw_id(&t->w, jkey(t, k), v);
        return;
    }
    line(t, k);
    fprintf(t->f, "%08X\n", v);
}

void tw_str(tw *t, const char *k, const char *s)
{
    if (t->json) {
        jw_str(&t->w, jkey(t, k), s);
        return;
    }
    line(t, k);
    if (!s) {
        fputs("(none)\n", t->f);
        return;
    }
    char *safe = cli_term_escape(s, strlen(s)); /* never raw control bytes to a terminal */
    fprintf(t->f, "\"%s\"\n", safe ? safe : "?");
    free(safe);
}

void tw_null(tw *t, const char *k)
{
    if (t->json) {
        jw_null(&t->w, jkey(t, k));
        return;
    }
    line(t, k);
    fputs("(absent)\n", t->f);
}

void tw_f32(tw *t, const char *k, float v)
{
    if (t->json) {
        jw_f32(&t->w, jkey(t, k), v);
        return;
    }
    line(t, k);
    if (isnan(v) || isinf(v))
        fputs(isnan(v) ? "nan\n" : v < 0 ? "-inf\n" : "inf\n", t->f);
    else
        fprintf(t->f, "%.9g\n", (double)v);
}

void tw_f32s(tw *t, const char *k, const float *v, int n)
{
    tw_arr(t, k, (uint32_t)n);
    for (int i = 0; i < n; i++)
        tw_f32(t, NULL, v[i]);
    tw_end(t, 1);
}

void tw_bool(tw *t, const char *k, int v)
{
    if (t->json) {
        jw_bool(&t->w, jkey(t, k), v);
        return;
    }
    line(t, k);
    fputs(v ? "true\n" : "false\n", t->f);
}

void tw_fourcc(tw *t, const char *k, uint32_t v)
{
    char s[5];
    util_fourcc_str(v, s);
    tw_str(t, k, s);
}
