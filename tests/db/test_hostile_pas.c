/* test_hostile_pas.c — work linear in the bytes read (issue 11 item 7): a PAS state whose
 * ParmInfos have types outside 0–4 holds values of 0 bytes (docs/formats.md §4, ParmInfo), so
 * 12 such ParmInfos × 300 AnimInfos cost 4 bytes per AnimInfo; they give no pas_values
 * rows (the counts stay in pas_states), and more than 8 ParmInfos is a warning. The ANCS is
 * a fixture character set whose first state is replaced, encoded with the real encoder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "hostile_scene.h"

#define NPARM 12u
#define NANIM 300u

static void test_zero_byte_values_are_not_rows(void **state)
{
    (void)state;
    util_arena a;
    util_arena_init(&a);
    util_err e;
    util_err_clear(&e);
    fixture_ancs_opts o;
    fixture_ancs_opts_init(&o, ANCS_GAME_MP1, 7);
    o.char_count = 1;
    ancs_set set;
    assert_int_equal(fixture_ancs_build(&set, &o, &a, &e), 0);
    ancs_pas *pas = &set.chars[0].pas;
    static ancs_pas_state st;
    static ancs_pas_parm parms[NPARM];
    static ancs_pas_anim anims[NANIM];
    static uint32_t values[NANIM][NPARM];
    for (uint32_t j = 0; j < NPARM; j++)
        parms[j] = (ancs_pas_parm){.parm_type = 5 + (int32_t)j, .weight = 1.0f};
    parms[0].parm_type = 1; /* one real u32 parameter: one value row per AnimInfo */
    for (uint32_t k = 0; k < NANIM; k++) {
        anims[k].anim_id = k;
        anims[k].values = values[k];
        values[k][0] = k;
    }
    st.state_type = 3;
    st.parm_count = NPARM;
    st.parms = parms;
    st.anim_count = NANIM;
    st.anims = anims;
    pas->state_count = 1;
    pas->states = &st;
    util_wr w;
    util_wr_init(&w);
    assert_int_equal(ancs_encode(&w, &set, &e), 0);
    size_t len;
    uint8_t *bytes = util_wr_take(&w, &len);
    /* the state's bytes: 12 header + 20 (parm 0) + 11 × 12 + 300 × (4 + 4) */
    assert_true(len > 12 + 20 + 11 * 12 + NANIM * 8);

    scene s;
    scene_init(&s);
    write_bad(&s, ANCS_GAME_MP1, bytes, len);
    scene_ingest(&s);
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT parm_count * 1000 + anim_info_count FROM pas_states "
             "WHERE ancs_id = %u",
             ID_BAD);
    assert_int_equal(q1(s.d, sql), NPARM * 1000 + NANIM);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM pas_parms WHERE ancs_id = %u", ID_BAD);
    assert_int_equal(q1(s.d, sql), NPARM);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM pas_anim_infos WHERE ancs_id = %u", ID_BAD);
    assert_int_equal(q1(s.d, sql), NANIM);
    /* only the u32 parameter's values are rows */
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM pas_values WHERE ancs_id = %u AND parm_index = 0", ID_BAD);
    assert_int_equal(q1(s.d, sql), NANIM);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM pas_values WHERE ancs_id = %u", ID_BAD);
    assert_int_equal(q1(s.d, sql), NANIM);
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM warnings WHERE asset_id = %u AND code = 'pas_parm_count'",
             ID_BAD);
    assert_int_equal(q1(s.d, sql), 1);
    scene_free(&s);
    free(bytes);
    util_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_byte_values_are_not_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
