/* census_rows.c — the census of an ANCS or EVNT decode counted from the rows the writer
 * writes for it, while the PAK is being read: each field of db/columns.h's
 * DB_CENSUS_FIELDS as the SELECT db/gen/gen_sql.c writes for it in db/census/census.sql
 * counts it, and the decode's warnings per code and type. The final pass then finds the
 * content counted (it has census_contents rows) and reads none of its rows again; a content
 * written without these rows (by an earlier ancsdb, or whose counts were dropped) is still
 * counted there.
 *
 * The counts are grouped as census_run.c groups a statement's rows: per field, game, value
 * and, where the value is made from a column (printf, CASE), that column too. A value is
 * kept as the row has it (an integer, a real, a text) and stored in census_contents.value,
 * whose TEXT affinity turns it into the text CAST(... AS TEXT) gives. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum {
    CF_ANCS_VERSION,
    CF_CHARSET_VERSION,
    CF_CHAR_VERSION,
    CF_CHAR_UNKNOWN_A,
    CF_CHAR_UNKNOWN_B,
    CF_CHAR_UNKNOWN_C,
    CF_CHAR_THIRD_LIST,
    CF_ANIM_NAME_UNKNOWN,
    CF_INDEXED_AABB,
    CF_EFFECT_FLAGS,
    CF_EFFECT_PARENTED,
    CF_FROZEN_MODEL,
    CF_FROZEN_SKIN,
    CF_PAS_MAGIC,
    CF_PAS_STATE_TYPE,
    CF_PAS_PARM_COUNT,
    CF_PAS_PARM_TYPE,
    CF_PAS_WEIGHT_FUNCTION,
    CF_ANIMSET_VERSION,
    CF_TRANSITION_UNKNOWN_ID,
    CF_BLEND_UNKNOWN_FLAG,
    CF_RANDOM_PATTERN,
    CF_PLAY_START_TYPE,
    CF_MT_TYPE,
    CF_MT_UNKNOWN_FLAG,
    CF_MT_RUN_A,
    CF_MT_FLAGS,
    CF_MT_DURATION_TYPE,
    CF_EVNT_VERSION,
    CF_EMBEDDED_VERSION,
    CF_EMBEDDED_COUNT,
    CF_POI_UNKNOWN_U16,
    CF_POI_INDEX,
    CF_POI_UNIQUE,
    CF_POI_FLAGS,
    CF_POI_TYPE,
    CF_POI_SOUND_HIGH_BITS,
    CF_POI_ECHOES_A,
    CF_POI_ECHOES_B,
    CF_POI_ECHOES_C,
    CF_POI_ECHOES_D,
    CF_POI_PARTICLE_DURATION,
    CF_POI_PARTICLE_PARENTED,
    CF_COUNT,
    CF_WARNING = CF_COUNT /* 'warning.' || code: the code follows in the key */
};

const char *const dbi_census_fields[CF_COUNT + 1] = {
    [CF_ANCS_VERSION] = "ancs.version",
    [CF_CHARSET_VERSION] = "charset.version",
    [CF_CHAR_VERSION] = "char.version",
    [CF_CHAR_UNKNOWN_A] = "char.unknown_a",
    [CF_CHAR_UNKNOWN_B] = "char.unknown_b",
    [CF_CHAR_UNKNOWN_C] = "char.unknown_c",
    [CF_CHAR_THIRD_LIST] = "char.particles.third_list.count",
    [CF_ANIM_NAME_UNKNOWN] = "char.anim_name.unknown_string",
    [CF_INDEXED_AABB] = "char.indexed_aabb.anim_id",
    [CF_EFFECT_FLAGS] = "char.effect_component.flags",
    [CF_EFFECT_PARENTED] = "char.effect_component.parented_mode",
    [CF_FROZEN_MODEL] = "char.frozen_model",
    [CF_FROZEN_SKIN] = "char.frozen_skin",
    [CF_PAS_MAGIC] = "pas.magic",
    [CF_PAS_STATE_TYPE] = "pas.state.type",
    [CF_PAS_PARM_COUNT] = "pas.state.parm_count",
    [CF_PAS_PARM_TYPE] = "pas.parm.type",
    [CF_PAS_WEIGHT_FUNCTION] = "pas.parm.weight_function",
    [CF_ANIMSET_VERSION] = "animset.version",
    [CF_TRANSITION_UNKNOWN_ID] = "transition.unknown_id",
    [CF_BLEND_UNKNOWN_FLAG] = "metaanim.blend.unknown_flag",
    [CF_RANDOM_PATTERN] = "metaanim.random.probability_pattern",
    [CF_PLAY_START_TYPE] = "metaanim.play.start_time.type",
    [CF_MT_TYPE] = "metatrans.type",
    [CF_MT_UNKNOWN_FLAG] = "metatrans.unknown_flag",
    [CF_MT_RUN_A] = "metatrans.run_a",
    [CF_MT_FLAGS] = "metatrans.flags",
    [CF_MT_DURATION_TYPE] = "metatrans.duration.type",
    [CF_EVNT_VERSION] = "evnt.version",
    [CF_EMBEDDED_VERSION] = "evnt.embedded.version",
    [CF_EMBEDDED_COUNT] = "evnt.embedded.count_vs_animations",
    [CF_POI_UNKNOWN_U16] = "poi.unknown_u16",
    [CF_POI_INDEX] = "poi.index",
    [CF_POI_UNIQUE] = "poi.unique",
    [CF_POI_FLAGS] = "poi.flags",
    [CF_POI_TYPE] = "poi.type per kind",
    [CF_POI_SOUND_HIGH_BITS] = "poi.sound.id_high_bits",
    [CF_POI_ECHOES_A] = "poi.sound.echoes_unknown_a",
    [CF_POI_ECHOES_B] = "poi.sound.echoes_unknown_b",
    [CF_POI_ECHOES_C] = "poi.sound.echoes_unknown_c",
    [CF_POI_ECHOES_D] = "poi.sound.echoes_unknown_d",
    [CF_POI_PARTICLE_DURATION] = "poi.particle.duration",
    [CF_POI_PARTICLE_PARENTED] = "poi.particle.parented_mode",
    [CF_COUNT] = NULL};

/* ---- the key of one count: field [code], game, value [, the column it is made from] ----- */

typedef struct counter {
    db *d;
    const db_val *row; /* the row's own columns */
    util_err *err;
} counter;

static int key_val(counter *c, const db_val *v)
{
    dbi_groups *g = &c->d->counted;
    if (v->kind == 'i')
        return dbi_groups_key_put(g, DBI_K_INT, &v->i, sizeof v->i, c->err);
    if (v->kind == 'r')
        return dbi_groups_key_put(g, DBI_K_REAL, &v->r, sizeof v->r, c->err);
    if (v->kind == 't')
        return dbi_groups_key_put(g, DBI_K_TEXT, c->d->btext + v->off, v->len, c->err);
    return dbi_groups_key_put(g, DBI_K_NULL, NULL, 0, c->err);
}

static int key_text(counter *c, const char *s, size_t n)
{
    return dbi_groups_key_put(&c->d->counted, DBI_K_TEXT, s, n, c->err);
}

static int key_begin(counter *c, int field)
{
    int64_t f = field;
    return dbi_groups_key_put(&c->d->counted, DBI_K_INT, &f, sizeof f, c->err);
}

static int key_game(counter *c)
{
    const char *game = c->d->key_text[DBK_game];
    return game ? key_text(c, game, strlen(game))
                : dbi_groups_key_put(&c->d->counted, DBI_K_NULL, NULL, 0, c->err);
}

static int add(counter *c)
{
    return dbi_groups_add(&c->d->counted, 1, c->err);
}

/* ---- the rows' columns ------------------------------------------------------------------- */

static const db_val *col(const counter *c, int k)
{
    return &c->row[k];
}

static int is_null(const db_val *v)
{
    return v->kind == 'n';
}

/* v = x (an integer column; NULL is never equal) */
static int is_int(const db_val *v, int64_t x)
{
    return v->kind == 'i' && v->i == x;
}

static int is_text(const counter *c, const db_val *v, const char *s)
{
    size_t n = strlen(s);
    return v->kind == 't' && v->len == n && !memcmp(c->d->btext + v->off, s, n);
}

/* The column as it is (CAST(column AS TEXT) once stored). */
static int count(counter *c, int field, int k)
{
    int rc = key_begin(c, field);
    if (!rc)
        rc = key_game(c);
    if (!rc)
        rc = key_val(c, col(c, k));
    return rc ? rc : add(c);
}

static int count_if_set(counter *c, int field, int k)
{
    return is_null(col(c, k)) ? 0 : count(c, field, k);
}

/* A text made from a value: grouped by that value too (group NULL: the text alone). */
static int count_made(counter *c, int field, const char *text, size_t len, const db_val *group)
{
    int rc = key_begin(c, field);
    if (!rc)
        rc = key_game(c);
    if (!rc)
        rc = key_text(c, text, len);
    if (!rc && group)
        rc = key_val(c, group);
    return rc ? rc : add(c);
}

static int count_word(counter *c, int field, const char *text, const db_val *group)
{
    return count_made(c, field, text, strlen(text), group);
}

/* printf('0x%08X', column & mask), grouped by column & mask: SQLite prints NULL as 0 and a
 * negative value in 64 bits */
static int count_hex(counter *c, int field, int k, uint64_t mask)
{
    const db_val *v = col(c, k);
    db_val group = {.kind = 'n'};
    if (v->kind == 'i')
        group = (db_val){.kind = 'i', .i = (int64_t)((uint64_t)v->i & mask)};
    char text[32];
    int n = snprintf(text, sizeof text, "0x%08" PRIX64, group.kind == 'i' ? (uint64_t)group.i : 0);
    return count_made(c, field, text, (size_t)n, &group);
}

/* A CASE of a comparison, grouped by the comparison: 1, 0 or (a NULL operand) NULL. */
static int count_case(counter *c, int field, int truth, const char *yes, const char *no)
{
    db_val group = {.kind = truth < 0 ? 'n' : 'i', .i = truth > 0};
    return count_word(c, field, truth > 0 ? yes : no, &group);
}

/* CASE id WHEN 0 THEN '00000000 (none)' WHEN 4294967295 THEN 'FFFFFFFF (none)' ELSE 'an
 * asset' END, where id IS NOT NULL (its groups are its values) */
static int count_none_id(counter *c, int field, int k)
{
    const db_val *v = col(c, k);
    if (is_null(v))
        return 0;
    return count_word(c, field,
                      is_int(v, 0)            ? "00000000 (none)"
                      : is_int(v, 4294967295) ? "FFFFFFFF (none)"
                                              : "an asset",
                      NULL);
}

/* a = b of two integer columns as SQL has it: 1, 0, or -1 when either is NULL */
static int int_equal(const db_val *a, const db_val *b)
{
    return a->kind == 'i' && b->kind == 'i' ? a->i == b->i : -1;
}

/* The metatrans.* fields of one meta-transition (census_mt: t is its type). */
static int count_metatrans(counter *c, int t, int unknown_flag, int run_a, int flags,
                           int duration_type)
{
    TRY(count(c, CF_MT_TYPE, t));
    if (!is_int(col(c, t), 1) && !is_int(col(c, t), 2))
        return 0;
    TRY(count(c, CF_MT_UNKNOWN_FLAG, unknown_flag));
    TRY(count(c, CF_MT_RUN_A, run_a));
    TRY(count_hex(c, CF_MT_FLAGS, flags, UINT64_MAX));
    return count(c, CF_MT_DURATION_TYPE, duration_type);
}

/* ---- per table ---------------------------------------------------------------------------- */

static int count_ancs(counter *c)
{
    TRY(count(c, CF_ANCS_VERSION, COL(ancs, ancs_version)));
    TRY(count(c, CF_CHARSET_VERSION, COL(ancs, charset_version)));
    TRY(count(c, CF_ANIMSET_VERSION, COL(ancs, animset_version)));
    const db_val *sets = col(c, COL(ancs, event_set_count));
    const db_val *anims = col(c, COL(ancs, animation_count));
    if (!is_null(sets)) {
        /* a comparison with NULL is not true: the CASE's ELSE (its groups are its values) */
        int known = sets->kind == 'i' && anims->kind == 'i';
        TRY(count_word(c, CF_EMBEDDED_COUNT,
                       known && sets->i == anims->i  ? "equal"
                       : known && sets->i > anims->i ? "more sets than animations"
                                                     : "fewer sets than animations",
                       NULL));
    }
    return count_metatrans(c, COL(ancs, default_trans_type), COL(ancs, default_trans_unknown_flag),
                           COL(ancs, default_trans_run_a), COL(ancs, default_trans_flags),
                           COL(ancs, default_trans_duration_type));
}

static int count_character(counter *c)
{
    TRY(count(c, CF_CHAR_VERSION, COL(characters, version)));
    TRY(count(c, CF_CHAR_UNKNOWN_A, COL(characters, unknown_a)));
    TRY(count_if_set(c, CF_CHAR_UNKNOWN_B, COL(characters, unknown_b)));
    TRY(count_if_set(c, CF_CHAR_UNKNOWN_C, COL(characters, unknown_c)));
    TRY(count_if_set(c, CF_CHAR_THIRD_LIST, COL(characters, third_list_count)));
    TRY(count_none_id(c, CF_FROZEN_MODEL, COL(characters, frozen_model_id)));
    TRY(count_none_id(c, CF_FROZEN_SKIN, COL(characters, frozen_skin_id)));
    return count(c, CF_PAS_MAGIC, COL(characters, pas_magic));
}

static int count_anim_name(counter *c)
{
    const db_val *v = col(c, COL(character_anims, unknown));
    if (is_null(v))
        return 0;
    if (v->kind == 't' && v->len == 0)
        return count_word(c, CF_ANIM_NAME_UNKNOWN, "(empty)", v);
    return count(c, CF_ANIM_NAME_UNKNOWN, COL(character_anims, unknown));
}

static int count_indexed_aabb(counter *c)
{
    return count_case(
        c, CF_INDEXED_AABB,
        int_equal(col(c, COL(indexed_aabbs, anim_id)), col(c, COL(indexed_aabbs, seq))),
        "equals position", "differs from position");
}

/* kind || ':' || poi_type, grouped by (kind, poi_type) */
static int count_poi_type(counter *c, const db_val *kind, const db_val *type)
{
    TRY(key_begin(c, CF_POI_TYPE));
    TRY(key_game(c));
    if (kind->kind == 't' && type->kind == 'i') {
        char buf[96], *text = buf;
        size_t cap = kind->len + 24;
        if (cap > sizeof buf && !(text = malloc(cap)))
            return util_fail(c->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        memcpy(text, c->d->btext + kind->off, kind->len);
        int n = snprintf(text + kind->len, 24, ":%" PRId64, type->i);
        int rc = key_text(c, text, kind->len + (size_t)n);
        if (text != buf)
            free(text);
        TRY(rc);
    } else { /* not what the writer writes: NULL || ... is NULL */
        TRY(dbi_groups_key_put(&c->d->counted, DBI_K_NULL, NULL, 0, c->err));
    }
    TRY(key_val(c, kind));
    TRY(key_val(c, type));
    return add(c);
}

static int count_event(counter *c)
{
    TRY(count(c, CF_POI_UNKNOWN_U16, COL(events, unknown_u16)));
    TRY(count(c, CF_POI_INDEX, COL(events, index)));
    TRY(count(c, CF_POI_UNIQUE, COL(events, unique)));
    TRY(count_hex(c, CF_POI_FLAGS, COL(events, flags), UINT64_MAX));
    const db_val *kind = col(c, COL(events, kind));
    TRY(count_poi_type(c, kind, col(c, COL(events, poi_type))));
    if (is_text(c, kind, "sound"))
        TRY(count_hex(c, CF_POI_SOUND_HIGH_BITS, COL(events, sound_id), 4294901760u));
    TRY(count_if_set(c, CF_POI_ECHOES_A, COL(events, echoes_unknown_a)));
    TRY(count_if_set(c, CF_POI_ECHOES_B, COL(events, echoes_unknown_b)));
    TRY(count_if_set(c, CF_POI_ECHOES_C, COL(events, echoes_unknown_c)));
    TRY(count_if_set(c, CF_POI_ECHOES_D, COL(events, echoes_unknown_d)));
    if (is_text(c, kind, "particle")) {
        TRY(count(c, CF_POI_PARTICLE_DURATION, COL(events, duration)));
        TRY(count(c, CF_POI_PARTICLE_PARENTED, COL(events, parented_mode)));
    }
    return 0;
}

/* ifnull(w.game, '?'), 'warning.' || w.code, w.type: a warning of the decode */
static int count_warning(counter *c)
{
    const db_val *owner = col(c, COL(warnings, content_id));
    if (!is_int(owner, c->d->content))
        return 0;
    const db_val *game = col(c, COL(warnings, game));
    TRY(key_begin(c, CF_WARNING));
    TRY(key_val(c, col(c, COL(warnings, code))));
    TRY(is_null(game) ? key_text(c, "?", 1) : key_val(c, game));
    TRY(key_val(c, col(c, COL(warnings, type))));
    return add(c);
}

static int count_row(counter *c, int table)
{
    switch (table) {
    case DBT_ID_ancs:
        return count_ancs(c);
    case DBT_ID_characters:
        return count_character(c);
    case DBT_ID_character_anims:
        return count_anim_name(c);
    case DBT_ID_indexed_aabbs:
        return count_indexed_aabb(c);
    case DBT_ID_effect_components:
        TRY(count_hex(c, CF_EFFECT_FLAGS, COL(effect_components, flags), UINT64_MAX));
        return count(c, CF_EFFECT_PARENTED, COL(effect_components, parented_mode));
    case DBT_ID_pas_states:
        TRY(count(c, CF_PAS_STATE_TYPE, COL(pas_states, state_type)));
        {
            const db_val *n = col(c, COL(pas_states, parm_count));
            return count_case(c, CF_PAS_PARM_COUNT, n->kind == 'i' ? n->i > 8 : -1, "> 8", "<= 8");
        }
    case DBT_ID_pas_parms:
        TRY(count(c, CF_PAS_PARM_TYPE, COL(pas_parms, parm_type)));
        return count(c, CF_PAS_WEIGHT_FUNCTION, COL(pas_parms, weight_function));
    case DBT_ID_transitions:
        TRY(count(c, CF_TRANSITION_UNKNOWN_ID, COL(transitions, unknown_id)));
        return count_metatrans(c, COL(transitions, trans_type), COL(transitions, unknown_flag),
                               COL(transitions, run_a), COL(transitions, flags),
                               COL(transitions, duration_type));
    case DBT_ID_half_transitions:
        return count_metatrans(c, COL(half_transitions, trans_type),
                               COL(half_transitions, unknown_flag), COL(half_transitions, run_a),
                               COL(half_transitions, flags), COL(half_transitions, duration_type));
    case DBT_ID_meta_anim_nodes: {
        const db_val *type = col(c, COL(meta_anim_nodes, type));
        if (is_int(type, 1) || is_int(type, 2))
            return count(c, CF_BLEND_UNKNOWN_FLAG, COL(meta_anim_nodes, unknown_flag));
        if (is_int(type, 3))
            return count(c, CF_RANDOM_PATTERN, COL(meta_anim_nodes, prob_pattern));
        if (is_int(type, 0))
            return count(c, CF_PLAY_START_TYPE, COL(meta_anim_nodes, start_time_type));
        return 0;
    }
    case DBT_ID_evnt:
        return count(c, CF_EVNT_VERSION, COL(evnt, version));
    case DBT_ID_event_sets:
        return count(c, CF_EMBEDDED_VERSION, COL(event_sets, version));
    case DBT_ID_events:
        return count_event(c);
    case DBT_ID_warnings:
        return count_warning(c);
    default:
        return 0;
    }
}

/* ---- the decode's census_contents rows ---------------------------------------------------- */

/* The next value of key (at *at) into column k of r. */
static void put_key_val(db_row *r, int k, const unsigned char *key, size_t *at)
{
    dbi_key_val v = dbi_groups_key_next(key, at);
    if (v.kind == DBI_K_INT)
        dbi_int(r, k, v.i);
    else if (v.kind == DBI_K_REAL)
        dbi_real(r, k, v.r);
    else if (v.kind == DBI_K_TEXT)
        dbi_text_n(r, k, (const char *)v.bytes, (size_t)v.len);
}

/* One census_contents row of group s. */
static int write_count(db *d, const dbi_group *s, util_err *err)
{
    const unsigned char *key = d->counted.keys + s->key;
    size_t at = 0;
    int64_t field = dbi_groups_key_next(key, &at).i;
    db_row r;
    TRY(dbi_row_begin(&r, d, TBL(census_contents), err));
    dbi_int(&r, COL(census_contents, content_id), d->content);
    if (field == CF_WARNING) { /* 'warning.' || code */
        dbi_key_val code = dbi_groups_key_next(key, &at);
        char *name = malloc(code.len + 9);
        if (!name)
            return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        memcpy(name, "warning.", 8);
        memcpy(name + 8, code.bytes, code.len);
        dbi_text_n(&r, COL(census_contents, field), name, code.len + 8);
        free(name);
    } else {
        dbi_text(&r, COL(census_contents, field), dbi_census_fields[field]);
    }
    put_key_val(&r, COL(census_contents, game), key, &at);
    put_key_val(&r, COL(census_contents, value), key, &at);
    dbi_int(&r, COL(census_contents, count), s->sum);
    return dbi_row_end(&r, err);
}

/* The counts so far as census_contents rows; then they are forgotten. */
static int write_counts(db *d, util_err *err)
{
    dbi_groups *g = &d->counted;
    int rc = 0;
    /* these rows are not counted */
    int (*seen)(db *, int, const db_val *, util_err *) = d->row_seen;
    d->row_seen = NULL;
    for (size_t k = 0; k < g->n && !rc; k++)
        rc = write_count(d, &g->slot[g->order[k]], err);
    dbi_groups_clear(g);
    d->row_seen = seen;
    return rc;
}

/* The row writer's observer: each row counted before it is buffered; once it is, the
 * counts so far written as rows when they are too many to keep (a bound on memory; the
 * census sums a value's rows). */
static int census_row(db *d, int table, const db_val *own, util_err *err)
{
    counter c = {d, own, err};
    return count_row(&c, table);
}

static int census_spill(db *d, util_err *err)
{
    return dbi_groups_full(&d->counted) ? write_counts(d, err) : 0;
}

void dbi_census_begin(db *d)
{
    dbi_groups_clear(&d->counted);
    d->row_seen = census_row;
    d->row_after = census_spill;
}

/* Past this many groups, or bytes of keys, a decode's table is freed after it, not kept for
 * the next one (a content of many distinct values would keep up to ~10 MiB). */
#define KEEP_GROUPS    4096
#define KEEP_KEY_BYTES ((size_t)256 << 10)

int dbi_census_end(db *d, int discard, util_err *err)
{
    int rc = discard ? 0 : write_counts(d, err);
    if (d->counted.cap > KEEP_GROUPS || d->counted.keys_cap > KEEP_KEY_BYTES)
        dbi_groups_free(&d->counted);
    else
        dbi_groups_clear(&d->counted);
    d->row_seen = NULL;
    d->row_after = NULL;
    return rc;
}
