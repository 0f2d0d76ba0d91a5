/* test_hostile_pak.c — whole PAK files that cannot be read, through db_ingest_paths on
 * files in a temp folder (hostile_scene.h): a cut or empty header, not a PAK, huge counts and
 * name lengths, unreadable files (FIFO, folder loops) and empty folders. The PAK gets a
 * load_errors row naming the stage and a byte offset; the ingest is not fatal and the other
 * PAK keeps its rows. */
#define _XOPEN_SOURCE 700 /* mkfifo, symlink */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hostile_scene.h"

/* ---- PAK-level faults -------------------------------------------------------------------- */

static void test_pak_header_truncated(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    static const uint8_t six[] = {0x00, 0x03, 0x00, 0x05, 0x00, 0x00};
    assert_int_equal(tu_write_file(s.bad, six, sizeof six), 0);
    scene_ingest(&s);
    assert_int_equal(expect_error(&s, "pak", -1), 4); /* the unused word at 4 is cut */
    expect_intact(&s, 0);
    scene_free(&s);
}

static void test_pak_zero_length(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    assert_int_equal(tu_write_file(s.bad, "", 0), 0);
    scene_ingest(&s);
    assert_int_equal(expect_error(&s, "pak", -1), 0);
    expect_intact(&s, 0);
    scene_free(&s);
}

static void test_pak_not_a_pak(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    static const char text[] = "#!/bin/sh\necho this is not a PAK file at all\n";
    assert_int_equal(tu_write_file(s.bad, text, sizeof text - 1), 0);
    scene_ingest(&s);
    assert_int_equal(expect_error(&s, "pak", -1), 0); /* the version word */
    expect_intact(&s, 0);
    scene_free(&s);
}

static void test_pak_entry_count_huge(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    write_bad_valid(&s, ANCS_GAME_MP1);
    patch32(s.bad, 12, 0xFFFFFFF0u); /* resource_count */
    scene_ingest(&s);
    int64_t off = expect_error(&s, "pak", -1);
    assert_true(off >= 12 && off <= 16);
    expect_intact(&s, 0);
    scene_free(&s);
}

static void test_pak_named_length_huge(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    util_err e;
    util_err_clear(&e);
    pak_builder *b = pak_builder_new();
    assert_int_equal(pak_builder_add_named(b, FC_ANCS, ID_GOOD_SAME, "Pirate", &e), 0);
    add_good(b, ANCS_GAME_MP1, ID_GOOD_SAME);
    assert_int_equal(pak_builder_finish_file(b, s.bad, &e), 0);
    pak_builder_free(b);
    /* named_count at 8, then type 12, id 16, name_length 20 (§2.3) */
    assert_int_equal(read32(s.bad, 20), 6);
    patch32(s.bad, 20, 0xFFFFFF00u);
    scene_ingest(&s);
    int64_t off = expect_error(&s, "pak", -1);
    assert_true(off >= 8 && off <= 24);
    expect_intact(&s, 0);
    scene_free(&s);
}

/* ---- unreadable files ------------------------------------------------------------------ */

static void test_unreadable_files(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    write_bad_valid(&s, ANCS_GAME_MP1);
    char p[1200];
    snprintf(p, sizeof p, "%s/fifo.pak", s.dir);
    assert_int_equal(mkfifo(p, 0600), 0); /* must not block the walk or pak_open */
    snprintf(p, sizeof p, "%s/folder.pak", s.dir);
    assert_int_equal(mkdir(p, 0700), 0); /* a folder named *.pak is a folder */
    snprintf(p, sizeof p, "%s/dangling.pak", s.dir);
    assert_int_equal(symlink("/nonexistent/ancsdb/x.pak", p), 0);
    snprintf(p, sizeof p, "%s/loop", s.dir);
    assert_int_equal(symlink(".", p), 0);
    snprintf(p, sizeof p, "%s/self.pak", s.dir);
    assert_int_equal(symlink("self.pak", p), 0); /* ELOOP */
    scene_ingest(&s);
    assert_int_equal(s.st.paks_seen, 2); /* good.pak and bad.pak, once each */
    assert_int_equal(q1(s.d, "SELECT count(*) FROM load_errors WHERE stage = 'pak' AND "
                             "entry_index IS NULL AND byte_offset IS NULL AND (pak_path LIKE "
                             "'%dangling.pak' OR pak_path LIKE '%self.pak' OR pak_path LIKE "
                             "'%fifo.pak')"),
                     3);
    assert_int_equal(s.st.errors, 3);
    expect_intact(&s, 1);
    assert_int_equal(q1(s.d, "SELECT count(*) FROM paks"), 2);
    scene_free(&s);
}

/* Regression: an empty folder made the walk call qsort(NULL, 0, ...) (UBSan). */
static void test_empty_folder(void **state)
{
    (void)state;
    char *dir = tu_tempdir();
    char sub[1200];
    snprintf(sub, sizeof sub, "%s/empty", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_open(&d, ":memory:", DB_OPEN_READWRITE, &e), 0);
    db_ingest_opts o = {.game = PAK_GAME_UNKNOWN, .jobs = 1, .quiet = 1, .log = NULL};
    db_ingest_stats st;
    const char *paths[2] = {sub, dir};
    assert_int_equal(db_ingest_paths(d, paths, 2, &o, &st, &e), 0);
    assert_int_equal(st.paks_seen, 0);
    assert_int_equal(st.errors, 0);
    db_close(d);
    rmdir(sub);
    rmdir(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pak_header_truncated),  cmocka_unit_test(test_pak_zero_length),
        cmocka_unit_test(test_pak_not_a_pak),         cmocka_unit_test(test_pak_entry_count_huge),
        cmocka_unit_test(test_pak_named_length_huge), cmocka_unit_test(test_unreadable_files),
        cmocka_unit_test(test_empty_folder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
