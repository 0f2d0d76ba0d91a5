/* test_strg_hostile.c — STRG decoding (docs/formats.md §12) of tables built by hand to cost
 * more than their size: name look-ups in a big Echoes name table (counted in name entries
 * looked at, not in time), languages sharing one table (over the decoder's budget, a decode
 * error at the language that passes it), a file laid out back to back that always fits, the
 * arena's limit, a language FourCC listed twice (a warning at the second entry), and a name
 * table size past the end (at the size field). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "world.h"

#define ENGL UTIL_FOURCC('E', 'N', 'G', 'L')
#define FREN UTIL_FOURCC('F', 'R', 'E', 'N')

static void put_fourcc(util_wr *w, const char *s)
{
    util_wr_u32(w, UTIL_FOURCC(s[0], s[1], s[2], s[3]));
}

static int decode(world_strg *s, const util_wr *w, util_arena *a, util_err *err)
{
    util_arena_init(a);
    util_err_clear(err);
    return world_strg_decode(s, w->buf, w->len, a, err);
}

/* ---- name table size past the end ------------------------------------------------------- */

/* Echoes, one language, no names but a name table size of 0x7FFFFFFF: truncation at the size
 * field (16 + 12 + 4 = 0x20), the message naming it. */
static void test_name_table_size_past(void **state)
{
    (void)state;
    util_wr w;
    util_wr_init(&w);
    util_wr_u32(&w, 0x87654321u);
    util_wr_u32(&w, 1);
    util_wr_u32(&w, 1);
    util_wr_u32(&w, 1);
    put_fourcc(&w, "ENGL");
    util_wr_u32(&w, 0);
    util_wr_u32(&w, 8);
    util_wr_u32(&w, 0);
    util_wr_u32(&w, 0x7FFFFFFF);
    util_wr_u32(&w, 4);
    util_wr_u16(&w, 'A');
    util_wr_u16(&w, 0);
    assert_false(w.failed);
    util_arena a;
    util_err err;
    world_strg s;
    int rc = decode(&s, &w, &a, &err);
    if (rc != UTIL_ETRUNC || err.offset != 0x20)
        fail_msg("rc %d @%llu: %s", rc, (unsigned long long)err.offset, err.msg);
    assert_non_null(strstr(err.msg, "name table size"));
    util_arena_free(&a);
    util_wr_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_name_table_size_past),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
