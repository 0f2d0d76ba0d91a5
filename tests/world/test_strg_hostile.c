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

/* ---- a language twice ------------------------------------------------------------------- */

/* Metroid Prime: ENGL, FREN, ENGL, one string each ("A", "B", "C"), back to back. Decoded
 * whole (and re-encoded byte for byte), with one strg_language_twice warning at the third
 * language entry (16 + 2 x 8). */
static void test_language_twice(void **state)
{
    (void)state;
    util_wr w;
    util_wr_init(&w);
    util_wr_u32(&w, 0x87654321u);
    util_wr_u32(&w, 0);
    util_wr_u32(&w, 3);
    util_wr_u32(&w, 1);
    const char *fc[3] = {"ENGL", "FREN", "ENGL"};
    for (uint32_t k = 0; k < 3; k++) {
        put_fourcc(&w, fc[k]);
        util_wr_u32(&w, 12 * k); /* each table: size word, 1 offset, 2 units */
    }
    for (uint32_t k = 0; k < 3; k++) {
        util_wr_u32(&w, 8);
        util_wr_u32(&w, 4);
        util_wr_u16(&w, (uint16_t)('A' + k));
        util_wr_u16(&w, 0);
    }
    assert_false(w.failed);
    util_arena a;
    util_err err;
    world_strg s;
    assert_int_equal(decode(&s, &w, &a, &err), 0);
    assert_int_equal(s.report.warning_count, 1);
    assert_string_equal(s.report.warnings->code, "strg_language_twice");
    assert_int_equal(s.report.warnings->offset, 32);
    assert_non_null(strstr(s.report.warnings->msg, "ENGL"));
    assert_string_equal(world_strg_text(&s, ENGL, 0), "A");
    assert_string_equal(world_strg_text(&s, FREN, 0), "B");
    assert_string_equal(s.languages[2].strings[0], "C");
    util_wr o;
    util_wr_init(&o);
    assert_int_equal(world_strg_encode(&o, &s, &err), 0);
    assert_int_equal(o.len, w.len);
    assert_memory_equal(o.buf, w.buf, w.len);
    util_wr_free(&o);
    util_arena_free(&a);
    util_wr_free(&w);
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
        cmocka_unit_test(test_language_twice),
        cmocka_unit_test(test_name_table_size_past),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
