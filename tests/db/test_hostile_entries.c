/* test_hostile_entries.c — damaged resource-table entries and payloads of bad.pak
 * (hostile_scene.h): data past the end of the file or over the tables, corrupt zlib and LZO
 * streams, declared sizes that lie. The entry gets a load_errors row (stage inflate) naming a
 * byte offset, or a warnings row; the ingest is not fatal and both intact ANCS keep their
 * rows. */
#define _XOPEN_SOURCE 700 /* mkfifo, symlink */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hostile_scene.h"

static void test_entry_offset_past_eof(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    write_bad_valid(&s, ANCS_GAME_MP1);
    struct stat sb;
    assert_int_equal(stat(s.bad, &sb), 0);
    uint32_t past = ((uint32_t)sb.st_size + 64u) & ~31u;
    patch32(s.bad, ENTRY_FIELD(0, F_OFFSET), past);
    scene_ingest(&s);
    assert_int_equal(expect_error(&s, "inflate", 0), past);
    expect_intact(&s, 1);
    scene_free(&s);
}

static void test_entry_size_past_eof(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    write_bad_valid(&s, ANCS_GAME_MP1);
    uint32_t off = read32(s.bad, ENTRY_FIELD(0, F_OFFSET));
    patch32(s.bad, ENTRY_FIELD(0, F_SIZE), 0xFFFFFFE0u);
    scene_ingest(&s);
    assert_int_equal(expect_error(&s, "inflate", 0), off);
    expect_intact(&s, 1);
    scene_free(&s);
}

static void test_entry_overlaps_tables(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    write_bad_valid(&s, ANCS_GAME_MP1);
    patch32(s.bad, ENTRY_FIELD(0, F_OFFSET), 0); /* data = header + tables */
    scene_ingest(&s);
    /* read anyway (an overlaps_tables warning), then it cannot inflate: header bytes 4..5
     * are 00 00, neither zlib nor an LZO segment length */
    int64_t off = expect_error(&s, "inflate", 0);
    assert_true(off >= 0 && off <= 6);
    assert_int_equal(q1(s.d, "SELECT count(*) FROM warnings WHERE code = 'overlaps_tables'"), 1);
    expect_intact(&s, 1);
    scene_free(&s);
}

/* Corrupt the compressed payload of entry 0 at payload offset `at` (after the u32 size). */
static void corrupt_payload(scene *s, size_t at, uint8_t xor_mask, size_t n)
{
    uint32_t off = read32(s->bad, ENTRY_FIELD(0, F_OFFSET));
    size_t len = 0;
    uint8_t *buf = tu_read_file(s->bad, &len);
    assert_non_null(buf);
    assert_true(off + 4 + at + n <= len);
    for (size_t i = 0; i < n; i++)
        buf[off + 4 + at + i] ^= xor_mask;
    assert_int_equal(tu_write_file(s->bad, buf, len), 0);
    free(buf);
}

static void test_corrupt_zlib(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    write_bad_valid(&s, ANCS_GAME_MP1);
    uint32_t off = read32(s.bad, ENTRY_FIELD(0, F_OFFSET));
    uint32_t size = read32(s.bad, ENTRY_FIELD(0, F_SIZE));
    corrupt_payload(&s, 8, 0x5A, 24); /* inside the deflate data (and the Adler-32 covers it) */
    scene_ingest(&s);
    int64_t at = expect_error(&s, "inflate", 0);
    assert_true(at >= off && at <= (int64_t)off + size);
    expect_intact(&s, 1);
    scene_free(&s);
}

static void test_corrupt_lzo(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    write_bad_valid(&s, ANCS_GAME_MP2);
    uint32_t off = read32(s.bad, ENTRY_FIELD(0, F_OFFSET));
    uint32_t size = read32(s.bad, ENTRY_FIELD(0, F_SIZE));
    /* first segment length (s16 at payload 0) -> 2: an LZO stream cut far too short */
    size_t len = 0;
    uint8_t *buf = tu_read_file(s.bad, &len);
    assert_non_null(buf);
    buf[off + 4] = 0x00;
    buf[off + 5] = 0x02;
    assert_int_equal(tu_write_file(s.bad, buf, len), 0);
    free(buf);
    scene_ingest(&s);
    int64_t at = expect_error(&s, "inflate", 0);
    assert_true(at >= off && at <= (int64_t)off + size);
    assert_int_equal(q1(s.d, "SELECT count(*) FROM paks WHERE path LIKE '%bad.pak' AND "
                             "game = 'MP2'"),
                     1);
    expect_intact(&s, 1);
    scene_free(&s);
}

static void declared_case(ancs_game g, int64_t delta, uint32_t absolute)
{
    scene s;
    scene_init(&s);
    write_bad_valid(&s, g);
    uint32_t off = read32(s.bad, ENTRY_FIELD(0, F_OFFSET));
    uint32_t size = read32(s.bad, ENTRY_FIELD(0, F_SIZE));
    uint32_t declared = read32(s.bad, off);
    patch32(s.bad, off, absolute ? absolute : (uint32_t)((int64_t)declared + delta));
    scene_ingest(&s);
    int64_t at = expect_error(&s, "inflate", 0);
    assert_true(at >= off && at <= (int64_t)off + size);
    expect_intact(&s, 1);
    scene_free(&s);
}

static void test_declared_smaller_zlib(void **state)
{
    (void)state;
    declared_case(ANCS_GAME_MP1, -5, 0);
}

static void test_declared_larger_zlib(void **state)
{
    (void)state;
    declared_case(ANCS_GAME_MP1, 7, 0);
}

static void test_declared_ffffffff_zlib(void **state)
{
    (void)state;
    declared_case(ANCS_GAME_MP1, 0, 0xFFFFFFFFu);
}

static void test_declared_smaller_lzo(void **state)
{
    (void)state;
    declared_case(ANCS_GAME_MP2, -5, 0);
}

static void test_declared_larger_lzo(void **state)
{
    (void)state;
    declared_case(ANCS_GAME_MP2, 7, 0);
}

static void test_declared_ffffffff_lzo(void **state)
{
    (void)state;
    declared_case(ANCS_GAME_MP2, 0, 0xFFFFFFFFu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entry_offset_past_eof), cmocka_unit_test(test_entry_size_past_eof),
        cmocka_unit_test(test_entry_overlaps_tables), cmocka_unit_test(test_corrupt_zlib),
        cmocka_unit_test(test_corrupt_lzo),           cmocka_unit_test(test_declared_smaller_zlib),
        cmocka_unit_test(test_declared_larger_zlib),  cmocka_unit_test(test_declared_ffffffff_zlib),
        cmocka_unit_test(test_declared_smaller_lzo),  cmocka_unit_test(test_declared_larger_lzo),
        cmocka_unit_test(test_declared_ffffffff_lzo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
