/* test_hostile_memory.c — one memory budget for the whole ingest (issue 11 item 6): with
 * --memory 1 MiB, an ANCS entry that inflates to 3 MiB (so needs over 6 MiB) (zeros, zlib) is a
 * load_errors row (stage inflate, the entry's offset, a message naming the budget) and the intact
 * ANCS beside it still load, with one thread or several. Sizes are from the hand-built PAK. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostile_scene.h"

static void run(int jobs)
{
    scene s;
    scene_init(&s);
    size_t n = (size_t)3 << 20;
    uint8_t *zeros = calloc(n, 1);
    assert_non_null(zeros);
    write_bad(&s, ANCS_GAME_MP1, zeros, n);
    free(zeros);
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_open(&s.d, ":memory:", DB_OPEN_READWRITE, &e), 0);
    db_ingest_opts o = {
        .game = PAK_GAME_UNKNOWN, .jobs = jobs, .quiet = 1, .memory = (size_t)4 << 20};
    const char *paths[1] = {s.dir};
    assert_int_equal(db_ingest_paths(s.d, paths, 1, &o, &s.st, &e), 0);
    assert_int_equal(s.st.errors, 1);
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM load_errors WHERE asset_id = %u AND entry_index = 0 AND "
             "stage = 'inflate' AND message LIKE '%%memory budget of 4 MiB%%' AND "
             "byte_offset = (SELECT data_offset FROM pak_entries WHERE asset_id = %u)",
             ID_BAD, ID_BAD);
    assert_int_equal(q1(s.d, sql), 1);
    expect_intact(&s, 1);
    scene_free(&s);
}

static void test_over_budget_one_thread(void **state)
{
    (void)state;
    run(1);
}

static void test_over_budget_threads(void **state)
{
    (void)state;
    run(3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_over_budget_one_thread),
        cmocka_unit_test(test_over_budget_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
