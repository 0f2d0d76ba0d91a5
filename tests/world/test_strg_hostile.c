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

/* ---- name look-ups ---------------------------------------------------------------------- */

#define NSTR     4096 /* strings; names for the first half */
#define NNAME    4096 /* names: "n00000".. in order; name j is for string 7j mod NSTR/2 */
#define NAME_LEN 7    /* "n%05u" and its terminator */

/* Echoes, one language of NSTR empty strings back to back, NNAME names: every string of the
 * first half has two (the first in table order is name j, the second j + NSTR/2), the second
 * half none. */
static void build_named(util_wr *w)
{
    util_wr_u32(w, 0x87654321u);
    util_wr_u32(w, 1);
    util_wr_u32(w, 1);
    util_wr_u32(w, NSTR);
    put_fourcc(w, "ENGL");
    util_wr_u32(w, 0);
    util_wr_u32(w, 4 * NSTR + 2 * NSTR);
    util_wr_u32(w, NNAME);
    util_wr_u32(w, 8 * NNAME + NAME_LEN * NNAME);
    for (uint32_t j = 0; j < NNAME; j++) {
        util_wr_u32(w, 8 * NNAME + NAME_LEN * j);
        util_wr_u32(w, 7 * j % (NSTR / 2));
    }
    for (uint32_t j = 0; j < NNAME; j++) {
        char name[16];
        snprintf(name, sizeof name, "n%05u", j);
        util_wr_bytes(w, name, NAME_LEN);
    }
    for (uint32_t i = 0; i < NSTR; i++)
        util_wr_u32(w, 4 * NSTR + 2 * i);
    for (uint32_t i = 0; i < NSTR; i++)
        util_wr_u16(w, 0);
    assert_false(w->failed);
}

/* Each string's name is its first in table order, and finding it looks at about log2(names)
 * entries, not at all of them: NSTR look-ups of a linear search would look at over
 * NSTR/2 x NNAME entries (the strings without a name), a binary search at most 13 each. */
static void test_name_lookup(void **state)
{
    (void)state;
    util_wr w;
    util_wr_init(&w);
    build_named(&w);
    util_arena a;
    util_err err;
    world_strg s;
    assert_int_equal(decode(&s, &w, &a, &err), 0);
    assert_int_equal(s.name_count, NNAME);
    uint32_t *first = malloc(NSTR * sizeof *first);
    assert_non_null(first);
    for (uint32_t i = 0; i < NSTR; i++)
        first[i] = UINT32_MAX;
    for (uint32_t j = NNAME; j-- > 0;)
        first[7 * j % (NSTR / 2)] = j;
    unsigned long before = world_strg_name_probes();
    for (uint32_t i = 0; i < NSTR; i++) {
        const char *got = world_strg_name_of(&s, i);
        if (first[i] == UINT32_MAX) {
            assert_null(got);
        } else {
            char want[16];
            snprintf(want, sizeof want, "n%05u", first[i]);
            assert_non_null(got);
            assert_string_equal(got, want);
        }
    }
    unsigned long probes = world_strg_name_probes() - before;
    if (probes > (unsigned long)NSTR * 13)
        fail_msg("%d look-ups looked at %lu name entries", NSTR, probes);
    assert_null(world_strg_name_of(&s, NSTR)); /* past the strings */

    /* The same names in a struct built by hand (no index): the same answers. */
    world_strg h = s;
    h.name_index = NULL;
    for (uint32_t i = 0; i < NSTR; i += 97)
        assert_ptr_equal(world_strg_name_of(&h, i), world_strg_name_of(&s, i));
    free(first);
    util_arena_free(&a);
    util_wr_free(&w);
}

/* ---- languages sharing one table -------------------------------------------------------- */

#define SHARED_N 10000 /* strings of the shared table */

/* Metroid Prime, `langs` languages L000.. all at offset 0: one table of SHARED_N string
 * offsets that all point at one empty string. */
static void build_shared(util_wr *w, uint32_t langs)
{
    util_wr_u32(w, 0x87654321u);
    util_wr_u32(w, 0);
    util_wr_u32(w, langs);
    util_wr_u32(w, SHARED_N);
    for (uint32_t k = 0; k < langs; k++) {
        char fc[5] = {'L', (char)('0' + k / 100), (char)('0' + k / 10 % 10), (char)('0' + k % 10),
                      0};
        put_fourcc(w, fc);
        util_wr_u32(w, 0);
    }
    util_wr_u32(w, 4 * SHARED_N + 2);
    for (uint32_t i = 0; i < SHARED_N; i++)
        util_wr_u32(w, 4 * SHARED_N);
    util_wr_u16(w, 0);
    assert_false(w->failed);
}

/* One language may point all its strings at one string (10000 strings from 40 KB: 13 bytes
 * each decoded, under four times the size); 64 languages sharing that table pass the budget at
 * the second language, a decode error at its offset field (16 + 8 + 4), before its arrays are
 * allocated. */
static void test_shared_table(void **state)
{
    (void)state;
    util_wr w;
    util_wr_init(&w);
    build_shared(&w, 1);
    util_arena a;
    util_err err;
    world_strg s;
    assert_int_equal(decode(&s, &w, &a, &err), 0);
    assert_string_equal(s.languages[0].strings[SHARED_N - 1], "");
    util_arena_free(&a);
    util_wr_free(&w);

    util_wr_init(&w);
    build_shared(&w, 64);
    int rc = decode(&s, &w, &a, &err);
    if (rc != UTIL_EFORMAT || err.offset != 28)
        fail_msg("rc %d @%llu: %s", rc, (unsigned long long)err.offset, err.msg);
    assert_non_null(strstr(err.msg, "language L001 table"));
    assert_non_null(strstr(err.msg, "4 times the file's size"));
    util_arena_free(&a);
    util_wr_free(&w);
}

/* ---- back to back, and the arena's limit ------------------------------------------------ */

#define FLAT_N 20000 /* empty strings per table: the cheapest bytes per string */

/* Metroid Prime, ENGL and FREN, each its own table of FLAT_N empty strings, back to back. */
static void build_flat(util_wr *w)
{
    util_wr_u32(w, 0x87654321u);
    util_wr_u32(w, 0);
    util_wr_u32(w, 2);
    util_wr_u32(w, FLAT_N);
    uint32_t size = 4 * FLAT_N + 2 * FLAT_N;
    put_fourcc(w, "ENGL");
    util_wr_u32(w, 0);
    put_fourcc(w, "FREN");
    util_wr_u32(w, 4 + size);
    for (int k = 0; k < 2; k++) {
        util_wr_u32(w, size);
        for (uint32_t i = 0; i < FLAT_N; i++)
            util_wr_u32(w, 4 * FLAT_N + 2 * i);
        for (uint32_t i = 0; i < FLAT_N; i++)
            util_wr_u16(w, 0);
    }
    assert_false(w->failed);
}

/* Each string used once always fits the budget, however small; an arena limit below what the
 * strings take is a decode error naming the memory budget, not an allocation failure. */
static void test_flat_and_limit(void **state)
{
    (void)state;
    util_wr w;
    util_wr_init(&w);
    build_flat(&w);
    util_arena a;
    util_err err;
    world_strg s;
    assert_int_equal(decode(&s, &w, &a, &err), 0);
    assert_int_equal(s.report.warning_count, 0);
    assert_string_equal(s.languages[1].strings[FLAT_N - 1], "");
    util_arena_free(&a);

    util_arena_init(&a);
    a.limit = w.len * 2;
    util_err_clear(&err);
    int rc = world_strg_decode(&s, w.buf, w.len, &a, &err);
    if (rc != UTIL_EFORMAT)
        fail_msg("rc %d @%llu: %s", rc, (unsigned long long)err.offset, err.msg);
    assert_non_null(strstr(err.msg, "memory budget"));
    assert_true(a.total <= a.limit);
    util_arena_free(&a);
    util_wr_free(&w);
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
        cmocka_unit_test(test_name_lookup),          cmocka_unit_test(test_shared_table),
        cmocka_unit_test(test_flat_and_limit),       cmocka_unit_test(test_language_twice),
        cmocka_unit_test(test_name_table_size_past),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
