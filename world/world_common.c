/* world_common.c — the decoder state shared by the MLVL and STRG decoders, and the small
 * look-up helpers of world.h. */
#include "world_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int wdec_oom(wdec *d)
{
    return util_fail(d->err, UTIL_ENOMEM, util_rd_off(&d->r), "out of memory");
}

int wdec_start(wdec *d, const uint8_t *buf, size_t len, world_report *rep, util_arena *arena,
               util_err *err)
{
    memset(d, 0, sizeof *d);
    memset(rep, 0, sizeof *rep);
    d->a = arena;
    d->err = err;
    d->rep = rep;
    uint8_t *copy = util_arena_alloc(arena, len ? len : 1);
    if (!copy)
        return util_fail(err, UTIL_ENOMEM, 0, "out of memory copying %zu input bytes", len);
    if (len)
        memcpy(copy, buf, len);
    d->r = util_rd_make(copy, len, 0);
    return 0;
}

int wdec_warn(wdec *d, uint64_t off, const char *code, const char *fmt, ...)
{
    char buf[192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    world_warning *w = util_arena_alloc(d->a, sizeof *w);
    char *msg = w ? util_arena_strdup(d->a, buf) : NULL;
    if (!msg)
        return wdec_oom(d);
    w->offset = off;
    w->code = code;
    w->msg = msg;
    world_warning **pp = &d->rep->warnings;
    while (*pp && (*pp)->offset <= off)
        pp = &(*pp)->next;
    w->next = *pp;
    *pp = w;
    d->rep->warning_count++;
    return 0;
}

int wdec_array(wdec *d, void *out, uint32_t n, size_t size)
{
    void *p = NULL;
    if (n) {
        p = util_arena_array(d->a, n, size);
        if (!p)
            return wdec_oom(d);
    }
    memcpy(out, &p, sizeof p);
    return 0;
}

int wdec_count(wdec *d, uint32_t *n, size_t min_size, const char *what)
{
    TRY(util_rd_u32(&d->r, n, d->err));
    return util_rd_check_count(&d->r, *n, min_size, what, d->err);
}

int wdec_finish(wdec *d)
{
    world_report *rep = d->rep;
    rep->consumed = d->r.pos;
    rep->trailing_len = util_rd_left(&d->r);
    rep->trailing = d->r.p + d->r.pos;
    rep->trailing_all_ff = 1;
    for (size_t i = 0; i < rep->trailing_len; i++)
        if (rep->trailing[i] != 0xFF) {
            rep->trailing_all_ff = 0;
            break;
        }
    if (!rep->trailing_all_ff)
        TRY(wdec_warn(d, rep->consumed, "trailing_bytes",
                      "%zu bytes after the end of the structure are not all 0xFF padding",
                      rep->trailing_len));
    return 0;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

world_game world_mlvl_version_game(uint32_t version)
{
    return version == WORLD_MLVL_MP1   ? WORLD_GAME_MP1
           : version == WORLD_MLVL_MP2 ? WORLD_GAME_MP2
                                       : WORLD_GAME_UNKNOWN;
}

world_game world_strg_version_game(uint32_t version)
{
    return version == WORLD_STRG_MP1   ? WORLD_GAME_MP1
           : version == WORLD_STRG_MP2 ? WORLD_GAME_MP2
                                       : WORLD_GAME_UNKNOWN;
}

int world_is_mlvl(const uint8_t *buf, size_t len)
{
    return buf && len >= 4 && be32(buf) == WORLD_MLVL_MAGIC;
}

int world_is_strg(const uint8_t *buf, size_t len)
{
    return buf && len >= 4 && be32(buf) == WORLD_STRG_MAGIC;
}

const world_strg_lang *world_strg_find_language(const world_strg *s, uint32_t lang)
{
    if (!s || !s->languages)
        return NULL;
    for (uint32_t i = 0; i < s->language_count; i++)
        if (s->languages[i].lang == lang)
            return &s->languages[i];
    return NULL;
}

const char *world_strg_text(const world_strg *s, uint32_t lang, uint32_t index)
{
    const world_strg_lang *l = world_strg_find_language(s, lang);
    if (!l || index >= s->string_count || !l->strings)
        return NULL;
    return l->strings[index];
}

const char *world_strg_name_of(const world_strg *s, uint32_t index)
{
    if (!s || !s->names)
        return NULL;
    for (uint32_t i = 0; i < s->name_count; i++)
        if (s->names[i].string_index == index)
            return s->names[i].name;
    return NULL;
}

const char *world_game_name(world_game g)
{
    return g == WORLD_GAME_MP1 ? "MP1" : g == WORLD_GAME_MP2 ? "MP2" : "unknown";
}
