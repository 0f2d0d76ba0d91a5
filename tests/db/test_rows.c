/* test_db_rows.c — schema creation and refusal, the mapping of hand-built ancs_set /
 * EVNT structs to rows, and the reach rules of CONTRACT.md ("How a character reaches an
 * asset") through the who-references query. Expected values come from the hand-built
 * structs and CONTRACT.md, in :memory: databases. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "testutil.h"

/* ---- helpers ------------------------------------------------------------------------- */

typedef struct rows {
    int n;
    char text[64][160]; /* each row: cells joined with '|' (NULL -> "-") */
} rows;

static void r_begin(void *ctx, int ncols, const char *const *names)
{
    (void)ncols;
    (void)names;
    ((rows *)ctx)->n = 0;
}

static int r_row(void *ctx, int ncols, const db_cell *cells)
{
    rows *r = ctx;
    if (r->n == 64)
        return 1;
    char *out = r->text[r->n++];
    out[0] = 0;
    for (int c = 0; c < ncols; c++) {
        char cell[64];
        if (cells[c].type == DB_INT)
            snprintf(cell, sizeof cell, "%lld", (long long)cells[c].i);
        else if (cells[c].type == DB_REAL)
            snprintf(cell, sizeof cell, "%g", cells[c].r);
        else if (cells[c].type == DB_TEXT)
            snprintf(cell, sizeof cell, "%s", cells[c].s);
        else
            snprintf(cell, sizeof cell, "-");
        size_t len = strlen(out);
        snprintf(out + len, 160 - len, "%s%s", c ? "|" : "", cell);
    }
    return 0;
}

static void run(db *d, rows *r, const char *sql, int nb, const db_bind *b)
{
    db_sink s = {r, r_begin, r_row, NULL};
    util_err e;
    util_err_clear(&e);
    r->n = 0;
    int rc = db_exec(d, sql, nb, b, &s, &e);
    if (rc)
        fprintf(stderr, "SQL failed: %s\n", e.msg);
    assert_int_equal(rc, 0);
}

static long count(db *d, const char *sql)
{
    rows r;
    run(d, &r, sql, 0, NULL);
    assert_int_equal(r.n, 1);
    return atol(r.text[0]);
}

/* The census_contents rows of content (db/census_rows.c counts them as the rows are
 * written), "field=value:count" sorted, against want (NULL-terminated). */
static void census_is(db *d, int64_t content, const char *const *want)
{
    rows r;
    db_bind b = {.type = DB_INT, .i = content};
    run(d, &r,
        "SELECT field || '=' || ifnull(value, 'NULL') || ':' || count FROM census_contents "
        "WHERE content_id = ?1 ORDER BY 1",
        1, &b);
    int n = 0;
    for (; want[n]; n++) {
        if (n >= r.n)
            fail_msg("census of content %lld: %s missing", (long long)content, want[n]);
        assert_string_equal(r.text[n], want[n]);
    }
    for (int k = n; k < r.n; k++)
        fprintf(stderr, "census of content %lld: unexpected %s\n", (long long)content, r.text[k]);
    assert_int_equal(r.n, n);
}

static char *read_query(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/queries/%s.sql", tu_source_dir(), name);
    size_t len;
    uint8_t *b = tu_read_file(path, &len);
    assert_non_null(b);
    char *s = malloc(len + 1);
    memcpy(s, b, len);
    s[len] = 0;
    free(b);
    return s;
}

/* who-references TYPE ID restricted to one ANCS: rows "char_index" ("-" for NULL),
 * sorted as the query sorts them, joined with ','. */
static void who(db *d, const char *type, uint32_t id, char *out, size_t n)
{
    char *sql = read_query("who-references");
    db_bind b[2] = {{DB_TEXT, 0, type}, {DB_INT, id, NULL}};
    rows r;
    run(d, &r, sql, 2, b);
    free(sql);
    out[0] = 0;
    for (int i = 0; i < r.n; i++) {
        /* columns: game|ancs_id|ancs_id_name|char_index|character|via|through_evnt|... */
        char tmp[160];
        snprintf(tmp, sizeof tmp, "%s", r.text[i]);
        char *f[8] = {0};
        int k = 0;
        for (char *p = strtok(tmp, "|"); p && k < 8; p = strtok(NULL, "|"))
            f[k++] = p;
        size_t len = strlen(out);
        snprintf(out + len, n - len, "%s%s", i ? "," : "", f[3] ? f[3] : "?");
    }
}

static db *open_mem(void)
{
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_open(&d, ":memory:", DB_OPEN_READWRITE, &e), 0);
    return d;
}

/* ---- schema ---------------------------------------------------------------------------- */

static void test_schema_has_contract_columns(void **state)
{
    (void)state;
    db *d = open_mem();
    static const char *const need[] = {
        "paks:pak_id,path,game,file_size,named_count,resource_count,status",
        "pak_entries:pak_id,entry_index,type,asset_id,compressed,data_offset,stored_size,"
        "decompressed_size",
        "pak_names:pak_id,name,type,asset_id",
        "assets:game,asset_id,type,copies",
        "ancs:game,asset_id,charset_version,character_count,animset_version,animation_count,"
        "transition_count",
        "characters:game,ancs_id,char_index,char_id,version,name,model_id,skin_id,skeleton_id,"
        "frozen_model_id,frozen_skin_id,cspp_id,unknown_a,unknown_b,unknown_c",
        "character_anims:game,ancs_id,char_index,seq,anim_id,name,unknown",
        "particle_refs:game,ancs_id,char_index,source,particle_type,particle_id",
        "animations:game,ancs_id,anim_index,name",
        "anim_primitives:game,ancs_id,owner,owner_index,anim_asset_id,primitive_id,name",
        "animation_resources:game,ancs_id,res_index,anim_asset_id,evnt_asset_id",
        "events:game,owner_type,owner_id,anim_index,kind,name,char_index,particle_type,"
        "particle_id,value,locator_name,duration,bone_name,bone_id,scale,parented_mode,"
        "sound_id,falloff,max_distance,echoes_unknown_a,echoes_unknown_b,echoes_unknown_c,"
        "echoes_unknown_d,unknown_u16,poi_type,time,time_type,index,unique,weight,flags",
        "asset_refs:game,src_type,src_id,dst_type,dst_id,char_index,via",
        "load_errors:pak_path,entry_index,type,asset_id,stage,byte_offset,message",
        "warnings:game,type,asset_id,byte_offset,code,message",
        "pas_states:state_type",
        "pas_parms:parm_type,weight_function",
        "pas_anim_infos:anim_id",
        "pas_values:value",
        "effects:name",
        "effect_components:particle_id,flags",
        "anim_aabbs:name",
        "indexed_aabbs:anim_id",
        "anim_id_map:anim_id,anim_index",
        "transitions:unknown_id,anim_a,anim_b,trans_type,duration,duration_type,flags",
        "half_transitions:anim,trans_type",
        "additive_animations:anim_index,fade_in,fade_out",
        "meta_anim_nodes:owner,owner_index,seq,parent_seq,type",
        "evnt:game,asset_id,version",
    };
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", need[i]);
        char *colon = strchr(buf, ':');
        *colon = 0;
        char *save = NULL;
        for (char *c = strtok_r(colon + 1, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
            char sql[1200];
            snprintf(sql, sizeof sql,
                     "SELECT count(*) FROM pragma_table_info('%s') WHERE name = '%s'", buf, c);
            if (count(d, sql) != 1)
                fail_msg("table %s lacks column %s", buf, c);
        }
    }
    assert_int_equal(count(d, "PRAGMA user_version"), DB_SCHEMA_VERSION);
    assert_int_equal(count(d, "SELECT count(*) FROM v_characters"), 0);
    assert_int_equal(count(d, "SELECT count(*) FROM v_asset_refs"), 0);
    db_close(d);
}

static void test_schema_version_refused(void **state)
{
    (void)state;
    char *dir = tu_tempdir();
    char path[1024];
    snprintf(path, sizeof path, "%s/v.db", dir);
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_open(&d, path, DB_OPEN_READWRITE, &e), 0);
    assert_int_equal(db_exec(d, "PRAGMA user_version = 77", 0, NULL, NULL, &e), 0);
    db_close(d);
    assert_int_equal(db_open(&d, path, DB_OPEN_READWRITE, &e), DB_EVERSION);
    assert_non_null(strstr(e.msg, "schema version 77"));
    assert_null(d);
    assert_int_equal(db_open(&d, path, DB_OPEN_READONLY, &e), DB_EVERSION);
    /* a foreign database (objects, user_version 0) is refused too */
    snprintf(path, sizeof path, "%s/f.db", dir);
    assert_int_equal(db_open(&d, path, DB_OPEN_READWRITE, &e), 0);
    assert_int_equal(db_exec(d, "PRAGMA user_version = 0; CREATE TABLE mine(x)", 0, NULL, NULL, &e),
                     0);
    db_close(d);
    assert_int_equal(db_open(&d, path, DB_OPEN_READWRITE, &e), DB_EVERSION);
    /* read-only connections refuse writes */
    snprintf(path, sizeof path, "%s/r.db", dir);
    assert_int_equal(db_open(&d, path, DB_OPEN_READWRITE, &e), 0);
    db_close(d);
    assert_int_equal(db_open(&d, path, DB_OPEN_READONLY, &e), 0);
    assert_int_equal(db_exec(d, "DELETE FROM paks", 0, NULL, NULL, &e), UTIL_ESQL);
    db_close(d);
    assert_int_equal(tu_remove_tree(dir), 0);
    free(dir);
}

/* ---- a hand-built MP1 set ---------------------------------------------------------------- */

enum {
    ANCS_ID = 0xA0000001u,
    A0 = 0x10000000u,
    A1 = 0x10000001u,
    A1B = 0x10000011u,
    A2 = 0x10000002u,
    AT = 0x100000FFu,
    AH = 0x100000FEu,
    E0 = 0xE0000000u,
    E1 = 0xE0000001u,
    E2 = 0xE0000002u,
    E9 = 0xE0000009u,
    P1 = 0x50000001u,
    P2 = 0x50000002u,
    P3 = 0x50000003u,
    PL = 0x50000010u,
    PT = 0x50000020u,
    PE = 0x50000030u,
    M0 = 0xC0000000u,
    M1 = 0xC0000001u,
};

static ancs_meta_anim play(uint32_t anim, uint32_t prim, const char *name)
{
    ancs_meta_anim m;
    memset(&m, 0, sizeof m);
    m.type = ANCS_META_PLAY;
    m.anim_id = anim;
    m.primitive_id = prim;
    m.primitive_name = name;
    m.start_time.type = 2;
    return m;
}

/* Two T=5/6 characters sharing one ID map {2, 0, 1}: character 0 lists anim_id 0
 * (-> animation 2), character 1 lists anim_id 1 (-> animation 0). Animation 1 is used by
 * no one. Pairs are not parallel to animations, and A2 appears twice (first pair wins). */
static void build_mp1(ancs_set *s, ancs_character *ch, ancs_animation *an, ancs_meta_anim *kids,
                      ancs_res_pair *pairs, ancs_transition *tr, ancs_meta_anim *tplay,
                      ancs_anim_name *names, uint32_t *map, uint32_t *part, uint32_t *third,
                      ancs_effect *ef, ancs_effect_comp *comp)
{
    memset(s, 0, sizeof *s);
    s->game = ANCS_GAME_MP1;
    s->version = 1;
    s->charset_version = 1;
    s->char_count = 2;
    s->chars = ch;
    memset(ch, 0, 2 * sizeof *ch);
    map[0] = 2;
    map[1] = 0;
    map[2] = 1;
    names[0] = (ancs_anim_name){0, "", "Attack"};
    names[1] = (ancs_anim_name){1, "odd", "Idle"};
    for (int i = 0; i < 2; i++) {
        ch[i].char_id = 10 + i;
        ch[i].version = i == 0 ? 5 : 6;
        ch[i].name = i == 0 ? "Pirate" : "Drone";
        ch[i].model_id = i == 0 ? M0 : M1;
        ch[i].skin_id = 0xD0000000u + i;
        ch[i].skeleton_id = 0xB0000000u;
        ch[i].anim_name_count = 1;
        ch[i].anim_names = &names[i];
        ch[i].pas.magic = 0x50415334u; /* PAS4 */
        ch[i].pas.default_state = -1;
        ch[i].frozen_model_id = 0;
        ch[i].frozen_skin_id = 0;
        ch[i].id_map.count = 3;
        ch[i].id_map.ids = map;
        ch[i].unknown_a = 1;
    }
    part[0] = PL;
    ch[0].part.count = 1;
    ch[0].part.ids = part;
    third[0] = PT;
    ch[1].third.count = 1; /* T = 6: the unidentified list */
    ch[1].third.ids = third;
    comp[0] = (ancs_effect_comp){"spark", 0x53574843u /* SWHC */, PE, "bone", 0, 1.0f, 1, 0x42};
    ef[0] = (ancs_effect){"Sparks", 1, comp};
    ch[1].effect_count = 1;
    ch[1].effects = ef;

    ancs_animset *as = &s->animset;
    memset(as, 0, sizeof *as);
    as->version = 4;
    as->animation_count = 3;
    as->animations = an;
    an[0] = (ancs_animation){"Idle", play(A0, 0, "Idle")};
    kids[0] = play(A1, 1, "Walk");
    kids[1] = play(A1B, 1, "WalkB");
    memset(&an[1], 0, sizeof an[1]);
    an[1].name = "Walk";
    an[1].meta.type = ANCS_META_BLEND;
    an[1].meta.child_count = 2;
    an[1].meta.children = kids;
    an[1].meta.blend_weight = 0.5f;
    an[2] = (ancs_animation){"Attack", play(A2, 2, "Attack")};
    pairs[0] = (ancs_res_pair){A1, E1};
    pairs[1] = (ancs_res_pair){A2, E2};
    pairs[2] = (ancs_res_pair){A0, E0};
    pairs[3] = (ancs_res_pair){A2, E9};
    as->pair_count = 4;
    as->pairs = pairs;
    *tplay = play(AT, 7, "Trans");
    memset(tr, 0, sizeof *tr);
    tr->unknown_id = 99;
    tr->anim_a = 0;
    tr->anim_b = 2;
    tr->trans.type = ANCS_TRANS_META_ANIM;
    tr->trans.anim = tplay;
    as->transition_count = 1;
    as->transitions = tr;
    as->default_transition.type = ANCS_TRANS_TRANS;
    as->default_transition.duration.time = 0.25f;
    as->default_transition.flags = 3;
    (void)AH;
}

static void build_evnt(ancs_evnt_file *f, ancs_poi_particle *pp)
{
    memset(f, 0, sizeof *f);
    f->game = ANCS_GAME_MP1;
    f->evnt.version = 1;
    memset(pp, 0, 3 * sizeof *pp);
    uint32_t ids[3] = {P1, P2, P3};
    int32_t who[3] = {0, 1, -1};
    for (int i = 0; i < 3; i++) {
        pp[i].base.name = "fx";
        pp[i].base.poi_type = 5;
        pp[i].base.char_index = who[i];
        pp[i].particle_type = 0x50415254u; /* PART */
        pp[i].particle_id = ids[i];
        pp[i].bone_name = "root";
        pp[i].duration = -1;
    }
    f->evnt.particle_count = 3;
    f->evnt.particles = pp;
}

static void test_mp1_rows_and_reach(void **state)
{
    (void)state;
    ancs_set s;
    ancs_character ch[2];
    ancs_animation an[3];
    ancs_meta_anim kids[2], tplay;
    ancs_res_pair pairs[4];
    ancs_transition tr;
    ancs_anim_name names[2];
    uint32_t map[3], part[1], third[1];
    ancs_effect ef[1];
    ancs_effect_comp comp[1];
    build_mp1(&s, ch, an, kids, pairs, &tr, &tplay, names, map, part, third, ef, comp);
    ancs_evnt_file ev;
    ancs_poi_particle pp[3];
    build_evnt(&ev, pp);

    db *d = open_mem();
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_put_ancs(d, "MP1", ANCS_ID, 1, &s, &e), 0);
    assert_int_equal(db_put_evnt(d, "MP1", E2, 2, &ev, &e), 0);

    /* rows */
    assert_int_equal(count(d, "SELECT count(*) FROM ancs WHERE character_count = 2 AND "
                              "animation_count = 3 AND transition_count = 1 AND "
                              "resource_pair_count = 4 AND event_set_count IS NULL"),
                     1);
    assert_int_equal(count(d, "SELECT count(*) FROM characters"), 2);
    assert_int_equal(count(d, "SELECT count(*) FROM characters WHERE char_index = 1 AND "
                              "char_id = 11 AND version = 6 AND name = 'Drone' AND "
                              "cspp_id IS NULL AND unknown_b IS NULL AND unknown_c IS NULL "
                              "AND frozen_model_id = 0 AND unknown_a = 1 AND "
                              "third_list_count = 1"),
                     1);
    assert_int_equal(count(d, "SELECT count(*) FROM characters WHERE char_index = 0 AND "
                              "third_list_count IS NULL"),
                     1);
    assert_int_equal(count(d, "SELECT count(*) FROM character_anims WHERE char_index = 1 AND "
                              "anim_id = 1 AND unknown = 'odd' AND name = 'Idle' AND "
                              "anim_index = 0"),
                     1);
    assert_int_equal(count(d, "SELECT count(*) FROM anim_id_map"), 6);
    assert_int_equal(count(d, "SELECT count(*) FROM particle_refs WHERE source = 'particles' "
                              "AND particle_type IS NULL AND particle_id = 1342177312"),
                     1); /* PT */
    assert_int_equal(count(d, "SELECT count(*) FROM particle_refs WHERE source = 'effect' AND "
                              "particle_type = 'SWHC' AND char_index = 1"),
                     1);
    /* anim_primitives: 1 + 2 + 1 Play nodes of animations, 1 of the transition */
    assert_int_equal(count(d, "SELECT count(*) FROM anim_primitives WHERE owner = 'animation'"), 4);
    assert_int_equal(count(d, "SELECT count(*) FROM anim_primitives WHERE owner = 'transition' "
                              "AND owner_index = 0 AND anim_asset_id = 268435711"),
                     1);
    assert_int_equal(count(d, "SELECT count(*) FROM meta_anim_nodes WHERE owner = 'animation' "
                              "AND owner_index = 1"),
                     3);
    assert_int_equal(count(d, "SELECT count(*) FROM meta_anim_nodes WHERE owner_index = 1 AND "
                              "seq = 2 AND parent_seq = 0 AND path = '1' AND type = 0"),
                     1);
    assert_int_equal(count(d, "SELECT count(*) FROM animation_resources"), 4);
    assert_int_equal(count(d, "SELECT count(*) FROM transitions WHERE unknown_id = 99 AND "
                              "trans_type = 0 AND duration IS NULL"),
                     1);
    assert_int_equal(count(d, "SELECT count(*) FROM ancs WHERE default_trans_type = 1 AND "
                              "default_trans_flags = 3 AND default_trans_duration = 0.25"),
                     1);
    assert_int_equal(count(d, "SELECT count(*) FROM events WHERE owner_type = 'EVNT' AND "
                              "kind = 'particle' AND anim_index IS NULL"),
                     3);
    assert_int_equal(count(d, "SELECT count(*) FROM events WHERE char_index = -1 AND "
                              "duration = -1 AND bone_name = 'root' AND bone_id IS NULL"),
                     1);

    /* the census of each, counted as its rows were written: the values built above */
    static const char *const census_ancs[] = {
        "ancs.version=1:1",
        "animset.version=4:1",
        "char.anim_name.unknown_string=(empty):1", /* '' */
        "char.anim_name.unknown_string=odd:1",
        "char.effect_component.flags=0x00000042:1",
        "char.effect_component.parented_mode=1:1",
        "char.frozen_model=00000000 (none):2",
        "char.frozen_skin=00000000 (none):2",
        "char.particles.third_list.count=1:1", /* character 0 has no third list */
        "char.unknown_a=1:2",                  /* unknown_b and _c: MP2 only */
        "char.version=5:1",
        "char.version=6:1",
        "charset.version=1:1",
        "metaanim.blend.unknown_flag=0:1",
        "metaanim.play.start_time.type=2:5", /* 4 Play nodes of animations, 1 of the transition */
        "metatrans.duration.type=0:1",       /* the default transition (type 1) */
        "metatrans.flags=0x00000003:1",
        "metatrans.run_a=0:1",
        "metatrans.type=0:1", /* the transition's */
        "metatrans.type=1:1", /* the default's */
        "metatrans.unknown_flag=0:1",
        "pas.magic=PAS4:2",
        "transition.unknown_id=99:1",
        NULL};
    census_is(d, 1, census_ancs);
    static const char *const census_evnt[] = {"evnt.version=1:1",
                                              "poi.flags=0x00000000:3",
                                              "poi.index=0:3",
                                              "poi.particle.duration=-1:3",
                                              "poi.particle.parented_mode=0:3",
                                              "poi.type per kind=particle:5:3",
                                              "poi.unique=0:3",
                                              "poi.unknown_u16=0:3",
                                              NULL};
    census_is(d, 2, census_evnt);

    /* reach (CONTRACT.md): char 0 uses animation 2 (A2 -> first pair E2), char 1 uses
     * animation 0 (A0 -> E0); animation 1 (A1, A1B -> E1) is used by no one; E9 is a
     * second pair of A2 and never looked up */
    char got[256];
    who(d, "PART", P1, got, sizeof got); /* node of E2 for character 0 */
    assert_string_equal(got, "0");
    who(d, "PART", P2, got, sizeof got); /* node for character 1, which never plays E2 */
    assert_string_equal(got, "");
    who(d, "PART", P3, got, sizeof got); /* node for every character */
    assert_string_equal(got, "0");
    who(d, "EVNT", E2, got, sizeof got);
    assert_string_equal(got, "0");
    who(d, "EVNT", E0, got, sizeof got);
    assert_string_equal(got, "1");
    who(d, "EVNT", E1, got, sizeof got);
    assert_string_equal(got, "-");
    who(d, "EVNT", E9, got, sizeof got);
    assert_string_equal(got, "-");
    who(d, "ANIM", A1B, got, sizeof got);
    assert_string_equal(got, "-");
    who(d, "ANIM", AT, got, sizeof got); /* transition: no single character */
    assert_string_equal(got, "-");
    who(d, "ANIM", A2, got, sizeof got);
    assert_string_equal(got, "0");
    who(d, "CMDL", M1, got, sizeof got);
    assert_string_equal(got, "1");
    who(d, "CINF", 0xB0000000u, got, sizeof got);
    assert_string_equal(got, "0,1");
    who(d, "PART", PL, got, sizeof got);
    assert_string_equal(got, "0");
    who(d, "ELSC", PT, got, sizeof got); /* third list: typeless, any particle type */
    assert_string_equal(got, "1");
    who(d, "SWHC", PE, got, sizeof got);
    assert_string_equal(got, "1");
    who(d, "PART", PE, got, sizeof got); /* typed reference: wrong type finds nothing */
    assert_string_equal(got, "");
    who(d, "CMDL", 0, got, sizeof got); /* frozen model 0 = none: no reference */
    assert_string_equal(got, "");

    /* deleting the asset removes every derived row */
    assert_int_equal(db_delete_content(d, "MP1", "ANCS", ANCS_ID, 1, &e), 0);
    assert_int_equal(db_delete_content(d, "MP1", "EVNT", E2, 2, &e), 0);
    assert_int_equal(count(d, "SELECT (SELECT count(*) FROM characters) + (SELECT count(*) FROM "
                              "asset_refs) + (SELECT count(*) FROM events) + (SELECT count(*) "
                              "FROM meta_anim_nodes) + (SELECT count(*) FROM ancs)"),
                     0);
    db_close(d);
}

/* MP2: the embedded event set at the used animation's index, filtered by node character. */
static void test_mp2_event_sets(void **state)
{
    (void)state;
    ancs_set s;
    memset(&s, 0, sizeof s);
    ancs_character ch[2];
    memset(ch, 0, sizeof ch);
    ancs_anim_name names[2] = {{0, NULL, "A"}, {1, NULL, "B"}};
    uint32_t map[2] = {1, 0};
    s.game = ANCS_GAME_MP2;
    s.version = 1;
    s.charset_version = 1;
    s.char_count = 2;
    s.chars = ch;
    for (int i = 0; i < 2; i++) {
        ch[i].version = 10;
        ch[i].name = i ? "Two" : "One";
        ch[i].anim_name_count = 1;
        ch[i].anim_names = &names[i];
        ch[i].id_map.count = 2;
        ch[i].id_map.ids = map;
        ch[i].frozen_model_id = 0xFFFFFFFFu;
        ch[i].frozen_skin_id = 0xFFFFFFFFu;
        ch[i].cspp_id = 0xC5000000u;
        ch[i].unknown_c = 7;
    }
    /* char 0: anim_id 0 -> set index 1; char 1: anim_id 1 -> set index 0 */
    ancs_animation an[2] = {{"A", play(0x11u, 0, "A")}, {"B", play(0x12u, 1, "B")}};
    ancs_poi_particle p0[2], p1[1], p2[1];
    memset(p0, 0, sizeof p0);
    memset(p1, 0, sizeof p1);
    memset(p2, 0, sizeof p2);
    p0[0].base.char_index = 0; /* set 0 is played by char 1 only */
    p0[0].particle_type = 0x50415254u;
    p0[0].particle_id = 0x7000u;
    p0[1].base.char_index = 1;
    p0[1].particle_type = 0x50415254u;
    p0[1].particle_id = 0x7001u;
    p1[0].base.char_index = -1;
    p1[0].particle_type = 0x454C5343u; /* ELSC */
    p1[0].particle_id = 0x7002u;
    p2[0].base.char_index = -1; /* a third set beyond the animations: no one */
    p2[0].particle_type = 0x50415254u;
    p2[0].particle_id = 0x7003u;
    ancs_evnt sets[3];
    memset(sets, 0, sizeof sets);
    sets[0].version = 2;
    sets[0].particle_count = 2;
    sets[0].particles = p0;
    sets[1].version = 2;
    sets[1].particle_count = 1;
    sets[1].particles = p1;
    sets[2].version = 2;
    sets[2].particle_count = 1;
    sets[2].particles = p2;
    s.animset.version = 4;
    s.animset.animation_count = 2;
    s.animset.animations = an;
    s.animset.event_set_count = 3;
    s.animset.event_sets = sets;
    s.animset.default_transition.type = ANCS_TRANS_SNAP;

    db *d = open_mem();
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_put_ancs(d, "MP2", 0xA2u, 1, &s, &e), 0);
    char got[256];
    who(d, "PART", 0x7000u, got, sizeof got);
    assert_string_equal(got, "");
    who(d, "PART", 0x7001u, got, sizeof got);
    assert_string_equal(got, "1");
    who(d, "ELSC", 0x7002u, got, sizeof got);
    assert_string_equal(got, "0");
    who(d, "PART", 0x7003u, got, sizeof got);
    assert_string_equal(got, "-");
    who(d, "CSPP", 0xC5000000u, got, sizeof got);
    assert_string_equal(got, "0,1");
    assert_int_equal(count(d, "SELECT count(*) FROM characters WHERE unknown_c = 7 AND "
                              "frozen_model_id = 4294967295 AND unknown_b = 0"),
                     2);
    assert_int_equal(count(d, "SELECT count(*) FROM events WHERE owner_type = 'ANCS' AND "
                              "anim_index = 2"),
                     1);
    assert_int_equal(count(d, "SELECT count(*) FROM event_sets"), 3);
    assert_int_equal(count(d, "SELECT count(*) FROM character_anims WHERE unknown IS NULL"), 2);
    static const char *const census[] = {
        "ancs.version=1:1",
        "animset.version=4:1",
        "char.frozen_model=FFFFFFFF (none):2",
        "char.frozen_skin=FFFFFFFF (none):2",
        "char.particles.third_list.count=0:2",
        "char.unknown_a=0:2",
        "char.unknown_b=0:2",
        "char.unknown_c=7:2",
        "char.version=10:2",
        "charset.version=1:1",
        "evnt.embedded.count_vs_animations=more sets than animations:1", /* 3 sets, 2 */
        "evnt.embedded.version=2:3",
        "metaanim.play.start_time.type=2:2",
        "metatrans.type=3:1", /* Snap: no other metatrans field */
        "pas.magic=????:2",
        "poi.flags=0x00000000:4", /* 2 + 1 + 1 nodes in the sets */
        "poi.index=0:4",
        "poi.particle.duration=0:4",
        "poi.particle.parented_mode=0:4",
        "poi.type per kind=particle:0:4",
        "poi.unique=0:4",
        "poi.unknown_u16=0:4",
        NULL};
    census_is(d, 1, census);
    db_close(d);
}

/* An EVNT whose nodes hold more distinct values than the row writer's census keeps at once
 * (65,536): its counts are written as rows part way, between two rows of the decode, and the
 * decode's other rows stay whole. */
static void test_census_of_many_values(void **state)
{
    (void)state;
    enum { N = 70000 };
    ancs_evnt_file f;
    memset(&f, 0, sizeof f);
    f.game = ANCS_GAME_MP1;
    f.evnt.version = 1;
    ancs_poi_particle *pp = calloc(N, sizeof *pp);
    assert_non_null(pp);
    for (int i = 0; i < N; i++) {
        pp[i].base.name = "a node with a name long enough to fill the text buffer";
        pp[i].base.index = i;
        pp[i].particle_type = 0x50415254u; /* PART */
        pp[i].particle_id = 0x1000u + (uint32_t)i;
        pp[i].bone_name = "root";
    }
    f.evnt.particle_count = N;
    f.evnt.particles = pp;
    db *d = open_mem();
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_put_evnt(d, "MP1", 0xE0000001u, 7, &f, &e), 0);
    assert_int_equal(count(d, "SELECT count(*) FROM events WHERE node_index = \"index\" AND "
                              "particle_id = 4096 + node_index AND bone_name = 'root' AND "
                              "name LIKE 'a node %'"),
                     N);
    assert_int_equal(count(d, "SELECT count(DISTINCT node_index) FROM events"), N);
    /* every value once, whatever number of rows it took */
    assert_int_equal(count(d, "SELECT count(*) FROM (SELECT value, sum(count) AS n FROM "
                              "census_contents WHERE content_id = 7 AND field = 'poi.index' "
                              "GROUP BY value) WHERE n = 1"),
                     N);
    assert_int_equal(count(d, "SELECT sum(count) FROM census_contents WHERE content_id = 7 AND "
                              "field = 'poi.type per kind' AND value = 'particle:0'"),
                     N);
    db_close(d);
    free(pp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schema_has_contract_columns),
        cmocka_unit_test(test_schema_version_refused),
        cmocka_unit_test(test_mp1_rows_and_reach),
        cmocka_unit_test(test_mp2_event_sets),
        cmocka_unit_test(test_census_of_many_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
