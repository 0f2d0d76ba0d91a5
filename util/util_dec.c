/* util_dec.c — what every decoder of outside bytes shares (ANCS, EVNT, MLVL, STRG): the input
 * copied once into the arena with a cursor over the copy, arena arrays, counts checked against
 * the bytes left, warnings kept in input order, and the bytes after the structure. */
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int util_dec_start(util_dec *d, const uint8_t *buf, size_t len, util_report *rep, util_arena *arena,
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

int util_dec_oom(util_dec *d)
{
    return util_fail(d->err, UTIL_ENOMEM, util_rd_off(&d->r), "out of memory");
}

int util_dec_warn(util_dec *d, uint64_t off, const char *code, const char *fmt, ...)
{
    char buf[192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    util_warning *w = util_arena_alloc(d->a, sizeof *w);
    char *msg = w ? util_arena_strdup(d->a, buf) : NULL;
    if (!msg)
        return util_dec_oom(d);
    w->offset = off;
    w->code = code;
    w->msg = msg;
    util_warning **pp = &d->rep->warnings;
    while (*pp && (*pp)->offset <= off) /* stable: after the warnings at the same offset */
        pp = &(*pp)->next;
    w->next = *pp;
    *pp = w;
    d->rep->warning_count++;
    return 0;
}

int util_dec_array(util_dec *d, void *out, uint32_t n, size_t size)
{
    void *p = NULL;
    if (n) {
        p = util_arena_array(d->a, n, size);
        if (!p)
            return util_dec_oom(d);
    }
    memcpy(out, &p, sizeof p);
    return 0;
}

int util_dec_count(util_dec *d, uint32_t *n, size_t min_size, const char *what)
{
    int rc = util_rd_u32(&d->r, n, d->err);
    return rc ? rc : util_rd_check_count(&d->r, *n, min_size, what, d->err);
}

int util_dec_finish(util_dec *d)
{
    util_report *rep = d->rep;
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
        return util_dec_warn(d, rep->consumed, "trailing_bytes",
                             "%zu bytes after the end of the structure are not all 0xFF padding",
                             rep->trailing_len);
    return 0;
}
