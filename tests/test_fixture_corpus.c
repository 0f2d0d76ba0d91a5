/* test_fixture_corpus.c — the demo corpus builder: PAK names as on the discs (the sample
 * corpus's truth.json lists them too), every ANCS and EVNT decodes cleanly with the game's
 * character versions, and references resolve mostly inside the corpus. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ancs.h"
#include "fixture_corpus.h"
#include "pak.h"
#include "testutil.h"

#define FCC(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

static const char *const mp1_names[] = {"AudioGrp", "GGuiSys",  "Metroid1", "Metroid2", "Metroid3",
                                        "Metroid4", "Metroid5", "Metroid6", "Metroid7", "Metroid8",
                                        "MidiData", "MiscData", "NoARAM",   "SamusGun", "SlideShow",
                                        "TestAnim", "Tweaks"};
static const char *const mp2_names[] = {"AudioGrp", "FrontEnd", "GGuiSys",  "LogBook",  "Metroid1",
                                        "Metroid2", "Metroid3", "Metroid4", "Metroid5", "Metroid6",
                                        "MiscData", "SamusGun", "TestAnim"};

typedef struct tally {
    long ancs, evnt, chars, entries;
    int bad_version;
} tally;

static void check_game(const char *dir, int mp2, const char *const *names, size_t n, tally *t)
{
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s/%s.pak", dir, mp2 ? "mp2" : "mp1", names[i]);
        pak_file *p = NULL;
        util_err e;
        util_err_clear(&e);
        assert_int_equal(pak_open(&p, path, &e), 0);
        t->entries += p->entry_count;
        if (p->entry_count > 0 && strncmp(names[i], "Metroid", 7) == 0)
            assert_int_equal(pak_detect_game(p, NULL), mp2 ? PAK_GAME_MP2 : PAK_GAME_MP1);
        for (uint32_t k = 0; k < p->entry_count; k++) {
            uint32_t type = p->entries[k].type;
            if (type != FCC('A', 'N', 'C', 'S') && type != FCC('E', 'V', 'N', 'T'))
                continue;
            assert_false(mp2 && type == FCC('E', 'V', 'N', 'T')); /* MP2 has no EVNT type */
            uint8_t *buf = NULL;
            size_t len = 0;
            assert_int_equal(pak_inflate(&buf, &len, p, k, PAK_MAX_INFLATE, &e), 0);
            util_arena a;
            util_arena_init(&a);
            if (type == FCC('A', 'N', 'C', 'S')) {
                ancs_set s;
                assert_int_equal(
                    ancs_decode(&s, buf, len, mp2 ? ANCS_GAME_MP2 : ANCS_GAME_MP1, &a, &e), 0);
                t->ancs++;
                t->chars += s.char_count;
                for (uint32_t c = 0; c < s.char_count; c++) {
                    uint16_t v = s.chars[c].version;
                    if (mp2 ? v != 10 : (v != 5 && v != 6))
                        t->bad_version++;
                }
                assert_int_equal(s.animset.version, 4);
            } else {
                ancs_evnt_file ev;
                assert_int_equal(ancs_evnt_decode(&ev, buf, len, ANCS_GAME_MP1, &a, &e), 0);
                assert_true(ev.evnt.version == 1 || ev.evnt.version == 2);
                t->evnt++;
            }
            util_arena_free(&a);
            free(buf);
        }
        pak_close(p);
    }
}

static void test_small_corpus(void **state)
{
    (void)state;
    char *dir = tu_tempdir();
    assert_non_null(dir);
    fixture_corpus_opts o = {.seed = 7, .scale = 0.02, .opaque_bytes = 0, .games = 3};
    fixture_corpus_stats st;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(fixture_corpus_build(dir, &o, &st, NULL, &e), 0);
    assert_int_equal(st.paks, 17 + 13);
    tally t1 = {0}, t2 = {0};
    check_game(dir, 0, mp1_names, sizeof mp1_names / sizeof mp1_names[0], &t1);
    check_game(dir, 1, mp2_names, sizeof mp2_names / sizeof mp2_names[0], &t2);
    /* 2% of 271 and 484 ANCS; each distinct ANCS at least once (copies add entries) */
    assert_true(t1.ancs >= 5 && t2.ancs >= 10);
    assert_true(t1.evnt > 0);
    assert_int_equal(t1.bad_version + t2.bad_version, 0);
    assert_int_equal(t1.entries + t2.entries, st.entries);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(tu_run(cmd, NULL), 0);
    free(dir);
}

static void test_same_seed_same_bytes(void **state)
{
    (void)state;
    char *d1 = tu_tempdir(), *d2 = tu_tempdir();
    fixture_corpus_opts o = {.seed = 3, .scale = 0.01, .opaque_bytes = 0, .games = 1};
    util_err e;
    assert_int_equal(fixture_corpus_build(d1, &o, NULL, NULL, &e), 0);
    assert_int_equal(fixture_corpus_build(d2, &o, NULL, NULL, &e), 0);
    char cmd[8500];
    snprintf(cmd, sizeof cmd, "diff -r '%s' '%s' >/dev/null", d1, d2);
    assert_int_equal(tu_run(cmd, NULL), 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", d1, d2);
    assert_int_equal(tu_run(cmd, NULL), 0);
    free(d1);
    free(d2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_corpus),
        cmocka_unit_test(test_same_seed_same_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
