/* cmd_export.c — `ancsdb export (ancs|character|evnt) ID [CHAR_INDEX]`: one nested JSON
 * document with everything the database holds for one asset (lists as arrays, nested
 * structures as objects, asset IDs as 8-hex strings), keys in a fixed order so that the
 * exports of two releases diff line by line. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "db.h"
#include "jsonw.h"

/* ==== SQL ================================================================================
 * Every query reads one table (or a join to name things) for one asset: ?1 game, ?2 the
 * ANCS or EVNT ID, ?3 a character index, ?4 a sub-index (owner index, effect, state, ...).
 * Columns come out in table order; the keys of the parent (game, ancs_id, char_index, ...)
 * are left out of the JSON by the skip lists below. Tables: ancs, characters,
 * character_anims, anim_id_map, particle_refs, pas_states, pas_parms, pas_anim_infos,
 * pas_values, anim_aabbs, indexed_aabbs, effects, effect_components, animations,
 * meta_anim_nodes, transitions, half_transitions, additive_animations, animation_resources,
 * event_sets, evnt, events, asset_refs, warnings, decoded, pak_entries, paks, asset_label. */
static const char sql_games[] = "SELECT game FROM assets WHERE asset_id = ?2 AND type = ?1 "
                                "UNION SELECT game FROM ancs WHERE asset_id = ?2 AND 'ANCS' = ?1 "
                                "UNION SELECT game FROM evnt WHERE asset_id = ?2 AND 'EVNT' = ?1 "
                                "ORDER BY 1";
/* Rows of one content: an asset decoded from several distinct contents (releases that differ)
 * is exported as its newest content. */
#define CUR_CONTENT                                                                                \
    " AND content_id = (SELECT max(c.content_id) FROM contents c WHERE c.game = ?1 AND "           \
    "c.asset_id = ?2) "
static const char sql_label[] = "SELECT label FROM asset_label WHERE asset_id = ?2";
static const char sql_ancs[] = "SELECT * FROM ancs WHERE game = ?1 AND asset_id = ?2" CUR_CONTENT;
static const char sql_decoded[] =
    "SELECT d.*, (SELECT p.path FROM pak_entries e JOIN paks p USING (pak_id) WHERE "
    "e.content_id = d.content_id ORDER BY p.path, e.entry_index LIMIT 1) AS pak_path, (SELECT "
    "group_concat(release, ', ') FROM (SELECT DISTINCT v.release FROM v_content_releases v "
    "WHERE v.content_id = d.content_id ORDER BY v.release)) AS releases FROM contents d "
    "WHERE d.game = ?1 AND d.asset_id = ?2 AND d.type = ?3 ORDER BY d.content_id DESC LIMIT 1";
static const char sql_locations[] =
    "SELECT p.path AS pak_path, e.entry_index, e.compressed, e.data_offset, e.stored_size, "
    "e.decompressed_size, e.content_hash FROM pak_entries e JOIN paks p USING (pak_id) "
    "WHERE p.game = ?1 AND e.asset_id = ?2 AND e.type = ?3 ORDER BY p.path, e.entry_index";
static const char sql_characters[] =
    "SELECT * FROM characters WHERE game = ?1 AND ancs_id = ?2 "
    "AND (?3 IS NULL OR char_index = ?3) " CUR_CONTENT "ORDER BY char_index";
static const char sql_char_anims[] = "SELECT * FROM character_anims WHERE game = ?1 AND ancs_id "
                                     "= ?2 AND char_index = ?3 " CUR_CONTENT "ORDER BY seq";
static const char sql_id_map[] = "SELECT anim_index FROM anim_id_map WHERE game = ?1 AND ancs_id "
                                 "= ?2 AND char_index = ?3 " CUR_CONTENT "ORDER BY anim_id";
static const char sql_particle_refs[] =
    "SELECT * FROM particle_refs WHERE game = ?1 AND ancs_id = ?2 AND char_index = ?3 "
    "" CUR_CONTENT
    "ORDER BY source DESC, CASE list WHEN 'PART' THEN 0 WHEN 'SWHC' THEN 1 WHEN 'third_list' "
    "THEN 2 WHEN 'ELSC' THEN 3 WHEN 'SPSC' THEN 4 ELSE 5 END, effect_index, seq";
static const char sql_pas_states[] = "SELECT * FROM pas_states WHERE game = ?1 AND ancs_id = ?2 "
                                     "AND char_index = ?3 " CUR_CONTENT "ORDER BY state_index";
static const char sql_pas_parms[] =
    "SELECT * FROM pas_parms WHERE game = ?1 AND ancs_id = ?2 AND char_index = ?3 "
    "AND state_index = ?4 " CUR_CONTENT "ORDER BY parm_index";
static const char sql_pas_infos[] =
    "SELECT * FROM pas_anim_infos WHERE game = ?1 AND ancs_id = ?2 AND char_index = ?3 "
    "AND state_index = ?4 " CUR_CONTENT "ORDER BY info_index";
static const char sql_pas_values[] =
    "SELECT * FROM pas_values WHERE game = ?1 AND ancs_id = ?2 AND char_index = ?3 "
    "AND state_index = ?4 " CUR_CONTENT "ORDER BY info_index, parm_index";
static const char sql_aabbs[] = "SELECT * FROM anim_aabbs WHERE game = ?1 AND ancs_id = ?2 AND "
                                "char_index = ?3 " CUR_CONTENT "ORDER BY seq";
static const char sql_iaabbs[] = "SELECT * FROM indexed_aabbs WHERE game = ?1 AND ancs_id = ?2 "
                                 "AND char_index = ?3 " CUR_CONTENT "ORDER BY seq";
static const char sql_effects[] = "SELECT * FROM effects WHERE game = ?1 AND ancs_id = ?2 AND "
                                  "char_index = ?3 " CUR_CONTENT "ORDER BY effect_index";
static const char sql_components[] =
    "SELECT * FROM effect_components WHERE game = ?1 AND ancs_id = ?2 AND char_index = ?3 "
    "AND effect_index = ?4 " CUR_CONTENT "ORDER BY comp_index";
static const char sql_animations[] = "SELECT * FROM animations WHERE game = ?1 AND ancs_id = ?2 "
                                     "" CUR_CONTENT "ORDER BY anim_index";
static const char sql_meta_nodes[] =
    "SELECT * FROM meta_anim_nodes WHERE game = ?1 AND ancs_id = ?2 AND owner = ?3 "
    "AND owner_index = ?4 " CUR_CONTENT "ORDER BY seq";
static const char sql_transitions[] = "SELECT * FROM transitions WHERE game = ?1 AND ancs_id = ?2 "
                                      "" CUR_CONTENT "ORDER BY trans_index";
static const char sql_halfs[] = "SELECT * FROM half_transitions WHERE game = ?1 AND ancs_id = ?2 "
                                "" CUR_CONTENT "ORDER BY half_index";
static const char sql_additives[] = "SELECT * FROM additive_animations WHERE game = ?1 AND "
                                    "ancs_id = ?2 " CUR_CONTENT "ORDER BY seq";
static const char sql_pairs[] = "SELECT * FROM animation_resources WHERE game = ?1 AND ancs_id = "
                                "?2 " CUR_CONTENT "ORDER BY res_index";
static const char sql_event_sets[] = "SELECT * FROM event_sets WHERE game = ?1 AND ancs_id = ?2 "
                                     "" CUR_CONTENT "ORDER BY anim_index";
static const char sql_events[] =
    "SELECT * FROM events WHERE game = ?1 AND owner_type = ?3 AND owner_id = ?2 AND "
    "anim_index IS ?4 " CUR_CONTENT
    "ORDER BY CASE kind WHEN 'bool' THEN 0 WHEN 'int32' THEN 1 WHEN 'particle' "
    "THEN 2 ELSE 3 END, node_index";
static const char sql_evnt[] = "SELECT * FROM evnt WHERE game = ?1 AND asset_id = ?2" CUR_CONTENT;
static const char sql_refs_from[] =
    "SELECT r.*, l.label AS dst_id_name FROM asset_refs r LEFT JOIN asset_label l ON "
    "l.asset_id = r.dst_id WHERE r.game = ?1 AND r.src_type = ?3 AND r.src_id = ?2 "
    "AND r.content_id = (SELECT max(c.content_id) FROM contents c WHERE c.game = ?1 AND "
    "c.asset_id = ?2) ORDER BY r.char_index IS NULL, r.char_index, r.via, r.dst_type, r.dst_id";
static const char sql_evnt_users[] =
    "SELECT r.ancs_id, l.label AS ancs_id_name, r.res_index, r.anim_asset_id FROM "
    "animation_resources r LEFT JOIN asset_label l ON l.asset_id = r.ancs_id WHERE r.game = ?1 "
    "AND r.evnt_asset_id = ?2 ORDER BY r.ancs_id, r.res_index";
static const char sql_warnings[] =
    "SELECT w.byte_offset, w.code, w.message, p.path AS pak_path FROM warnings w LEFT JOIN paks "
    "p USING (pak_id) WHERE w.game = ?1 AND w.asset_id = ?2 AND w.type = ?3 "
    "ORDER BY w.pak_id IS NOT NULL, p.path, w.byte_offset, w.code, w.message";
/* ==== end of SQL ========================================================================= */

static const char export_usage[] =
    "usage: ancsdb export [--db FILE] [--release LABEL] [--game MP1|MP2] ancs ID\n"
    "       ancsdb export [--db FILE] [--release LABEL] [--game MP1|MP2] character ANCS_ID\n"
    "                     [CHAR_INDEX]\n"
    "       ancsdb export [--db FILE] [--release LABEL] [--game MP1|MP2] evnt ID\n"
    "\n"
    "Prints one JSON document with everything the database holds for one ANCS (its\n"
    "characters, animation set, event sets, references, warnings, where it is stored), one\n"
    "character (every field and list; every character of the set, as an array, without\n"
    "CHAR_INDEX) or one EVNT (its event nodes by kind, the sets that use it). Lists are\n"
    "arrays, nested structures objects (meta-animation trees nest their children), asset IDs\n"
    "8-hex strings, keys in a fixed order, one member per line: the exports of two databases\n"
    "compare with diff. --game is needed when both games hold the ID.\n"
    "\n"
    "options:\n"
    "  --db FILE     database file (default corpus.db)\n"
    "  --game G      MP1 or MP2\n"
    "  --release LABEL  as one release holds it (releases.label, e.g. GM8E01_00; several\n"
    "                labels separated by commas: those releases); without it,\n"
    "                an asset held by several releases is exported from its newest content\n"
    "  -h, --help    show this help\n"
    "\n"
    "exit status: 0 ok, 1 not in the database, 2 usage error, 3 fatal\n";

typedef struct ex {
    db *d;
    jw w;
    const char *game;
    util_err err;
    int failed;
} ex;

/* Run sql with ?1 game, ?2 id, ?3 s3 (text) or i3 (int), ?4 i4 (int, or NULL when < -1). */
static int fetch(ex *x, db_rows *rs, const char *sql, uint32_t id, const char *s3, int64_t i3,
                 int64_t i4)
{
    memset(rs, 0, sizeof *rs);
    if (x->failed)
        return -1;
    db_bind b[4];
    memset(b, 0, sizeof b);
    b[0].type = DB_TEXT;
    b[0].s = x->game;
    b[1].type = DB_INT;
    b[1].i = id;
    if (s3) {
        b[2].type = DB_TEXT;
        b[2].s = s3;
    } else if (i3 >= 0) {
        b[2].type = DB_INT;
        b[2].i = i3;
    }
    if (i4 >= 0) {
        b[3].type = DB_INT;
        b[3].i = i4;
    }
    if (db_exec_rows(rs, x->d, sql, 4, b, &x->err)) {
        x->failed = 1;
        return -1;
    }
    return 0;
}

static int64_t ival(const db_rows *rs, size_t r, const char *name)
{
    int c = db_rows_col(rs, name);
    return c < 0 ? -1 : db_rows_int(rs, r, c);
}

static int in_list(const char *name, const char *const *skip)
{
    for (; skip && *skip; skip++)
        if (!strcmp(*skip, name))
            return 1;
    return 0;
}

static void cell(jw *w, const char *key, const db_cell *c)
{
    switch (c->type) {
    case DB_INT:
        if (out_is_asset_column(key) && c->i >= 0 && c->i <= 0xFFFFFFFFll)
            jw_id(w, key, (uint32_t)c->i);
        else
            jw_int(w, key, c->i);
        break;
    case DB_REAL:
        jw_real(w, key, c->r);
        break;
    case DB_TEXT:
        jw_str(w, key, c->s);
        break;
    case DB_BLOB: {
        char *hex = malloc(c->n * 2 + 1);
        if (hex) {
            for (size_t k = 0; k < c->n; k++)
                snprintf(hex + 2 * k, 3, "%02X", (unsigned char)c->s[k]);
            hex[c->n * 2] = 0;
        }
        jw_str(w, key, hex);
        free(hex);
        break;
    }
    default:
        jw_null(w, key);
    }
}

/* The columns of row r (except those in skip, and those in skip_null when NULL) as members
 * of the open object. */
static void fields_nn(ex *x, const db_rows *rs, size_t r, const char *const *skip,
                      const char *const *skip_null)
{
    for (int c = 0; c < rs->ncols; c++) {
        const db_cell *v = db_rows_at(rs, r, c);
        if (strcmp(rs->names[c], "content_id") && !in_list(rs->names[c], skip) &&
            !(v->type == DB_NULL && in_list(rs->names[c], skip_null)))
            cell(&x->w, rs->names[c], v);
    }
}

static void fields(ex *x, const db_rows *rs, size_t r, const char *const *skip)
{
    fields_nn(x, rs, r, skip, NULL);
}

/* events columns that belong to one node kind: left out of the others */
static const char *const event_kind_cols[] = {"value",
                                              "locator_name",
                                              "duration",
                                              "particle_type",
                                              "particle_id",
                                              "bone_name",
                                              "bone_id",
                                              "scale",
                                              "parented_mode",
                                              "sound_id",
                                              "falloff",
                                              "max_distance",
                                              "echoes_unknown_a",
                                              "echoes_unknown_b",
                                              "echoes_unknown_c",
                                              "echoes_unknown_d",
                                              NULL};

/* key: [ {row}, ... ] */
static void rows_array_nn(ex *x, const char *key, const char *sql, uint32_t id, const char *s3,
                          int64_t i3, int64_t i4, const char *const *skip,
                          const char *const *skip_null)
{
    db_rows rs;
    fetch(x, &rs, sql, id, s3, i3, i4);
    jw_arr(&x->w, key);
    for (size_t r = 0; r < rs.nrows; r++) {
        jw_obj(&x->w, NULL);
        fields_nn(x, &rs, r, skip, skip_null);
        jw_end_obj(&x->w);
    }
    jw_end_arr(&x->w);
    db_rows_free(&rs);
}

static void rows_array(ex *x, const char *key, const char *sql, uint32_t id, const char *s3,
                       int64_t i3, int64_t i4, const char *const *skip)
{
    rows_array_nn(x, key, sql, id, s3, i3, i4, skip, NULL);
}

static const char *const skip_char[] = {"game", "ancs_id", "char_index", NULL};
static const char *const skip_ancs[] = {"game", "ancs_id", NULL};

/* ---- meta-animation trees ----------------------------------------------------------------- */

static const char *const skip_node[] = {"game", "ancs_id",    "owner", "owner_index",
                                        "seq",  "parent_seq", NULL};

static void meta_node(ex *x, const char *key, const db_rows *rs, size_t r, int depth)
{
    jw_obj(&x->w, key);
    fields(x, rs, r, skip_node);
    int64_t seq = ival(rs, r, "seq");
    int has = 0;
    for (size_t k = r + 1; k < rs->nrows && depth < 64; k++) {
        if (ival(rs, k, "parent_seq") != seq)
            continue;
        if (!has++)
            jw_arr(&x->w, "children");
        meta_node(x, NULL, rs, k, depth + 1);
    }
    if (has)
        jw_end_arr(&x->w);
    jw_end_obj(&x->w);
}

/* "meta": the tree of (owner, index), or null when it has none */
static void meta_tree(ex *x, const char *key, uint32_t ancs, const char *owner, int64_t index)
{
    db_rows rs;
    fetch(x, &rs, sql_meta_nodes, ancs, owner, -1, index);
    if (rs.nrows == 0) {
        jw_null(&x->w, key);
    } else {
        /* the root is the node without a parent (seq 0, the first row) */
        meta_node(x, key, &rs, 0, 0);
    }
    db_rows_free(&rs);
}

/* ---- documents ------------------------------------------------------------------------------ */

static void label_of(ex *x, const char *key, uint32_t id);

/* One character as an object; with_head: a document of its own (type, game, ANCS first). */
static void character(ex *x, uint32_t ancs, const db_rows *chars, size_t r, int with_head)
{
    int64_t ci = ival(chars, r, "char_index");
    jw *w = &x->w;
    jw_obj(w, NULL);
    if (with_head) {
        jw_str(w, "type", "character");
        jw_str(w, "game", x->game);
        jw_id(w, "ancs_id", ancs);
        label_of(x, "ancs_id_name", ancs);
    }
    jw_int(w, "char_index", ci);
    fields(x, chars, r, skip_char);
    rows_array(x, "animation_names", sql_char_anims, ancs, NULL, ci, -1,
               (const char *const[]){"game", "ancs_id", "char_index", NULL});
    db_rows rs;
    fetch(x, &rs, sql_id_map, ancs, NULL, ci, -1);
    if (ival(chars, r, "id_map_count") < 0) { /* versions without an ID map */
        jw_null(w, "animation_id_map");
    } else {
        jw_arr(w, "animation_id_map");
        for (size_t k = 0; k < rs.nrows; k++)
            cell(w, NULL, &rs.cells[k]);
        jw_end_arr(w);
    }
    db_rows_free(&rs);
    rows_array(x, "particle_refs", sql_particle_refs, ancs, NULL, ci, -1, skip_char);
    /* PAS database: states > parms, anim infos > values */
    fetch(x, &rs, sql_pas_states, ancs, NULL, ci, -1);
    jw_arr(w, "pas_states");
    for (size_t s = 0; s < rs.nrows; s++) {
        int64_t si = ival(&rs, s, "state_index");
        jw_obj(w, NULL);
        fields(x, &rs, s, skip_char);
        rows_array(x, "parms", sql_pas_parms, ancs, NULL, ci, si,
                   (const char *const[]){"game", "ancs_id", "char_index", "state_index", NULL});
        db_rows infos, vals;
        fetch(x, &infos, sql_pas_infos, ancs, NULL, ci, si);
        fetch(x, &vals, sql_pas_values, ancs, NULL, ci, si);
        jw_arr(w, "anim_infos");
        for (size_t k = 0; k < infos.nrows; k++) {
            int64_t ii = ival(&infos, k, "info_index");
            jw_obj(w, NULL);
            fields(x, &infos, k,
                   (const char *const[]){"game", "ancs_id", "char_index", "state_index", NULL});
            jw_arr(w, "values");
            for (size_t v = 0; v < vals.nrows; v++) {
                if (ival(&vals, v, "info_index") != ii)
                    continue;
                jw_obj(w, NULL);
                fields(x, &vals, v,
                       (const char *const[]){"game", "ancs_id", "char_index", "state_index",
                                             "info_index", NULL});
                jw_end_obj(w);
            }
            jw_end_arr(w);
            jw_end_obj(w);
        }
        jw_end_arr(w);
        db_rows_free(&infos);
        db_rows_free(&vals);
        jw_end_obj(w);
    }
    jw_end_arr(w);
    db_rows_free(&rs);
    rows_array(x, "anim_aabbs", sql_aabbs, ancs, NULL, ci, -1, skip_char);
    rows_array(x, "indexed_aabbs", sql_iaabbs, ancs, NULL, ci, -1, skip_char);
    fetch(x, &rs, sql_effects, ancs, NULL, ci, -1);
    jw_arr(w, "effects");
    for (size_t k = 0; k < rs.nrows; k++) {
        int64_t ei = ival(&rs, k, "effect_index");
        jw_obj(w, NULL);
        fields(x, &rs, k, skip_char);
        rows_array(x, "components", sql_components, ancs, NULL, ci, ei,
                   (const char *const[]){"game", "ancs_id", "char_index", "effect_index", NULL});
        jw_end_obj(w);
    }
    jw_end_arr(w);
    db_rows_free(&rs);
    jw_end_obj(w);
}

static void label_of(ex *x, const char *key, uint32_t id)
{
    db_rows rs;
    fetch(x, &rs, sql_label, id, NULL, -1, -1);
    jw_str(&x->w, key, rs.nrows && rs.cells[0].type == DB_TEXT ? rs.cells[0].s : NULL);
    db_rows_free(&rs);
}

static void head(ex *x, const char *type, uint32_t id)
{
    jw_str(&x->w, "type", type);
    jw_str(&x->w, "game", x->game);
    jw_id(&x->w, "asset_id", id);
    label_of(x, "name", id);
}

static void tail(ex *x, const char *type, uint32_t id)
{
    static const char *const skip_ref[] = {"game", "src_type", "src_id", NULL};
    rows_array(x, "asset_refs", sql_refs_from, id, type, -1, -1, skip_ref);
    rows_array(x, "warnings", sql_warnings, id, type, -1, -1, NULL);
    db_rows rs;
    fetch(x, &rs, sql_decoded, id, type, -1, -1);
    if (rs.nrows) {
        jw_obj(&x->w, "decoded");
        fields(x, &rs, 0,
               (const char *const[]){"game", "type", "asset_id", "pak_id", "error_offset", "error",
                                     NULL});
        jw_end_obj(&x->w);
    } else {
        jw_null(&x->w, "decoded");
    }
    db_rows_free(&rs);
    rows_array(x, "locations", sql_locations, id, type, -1, -1, NULL);
}

static int ancs_doc(ex *x, uint32_t id)
{
    db_rows rs;
    jw *w = &x->w;
    fetch(x, &rs, sql_ancs, id, NULL, -1, -1);
    if (rs.nrows == 0) {
        db_rows_free(&rs);
        return 1;
    }
    jw_obj(w, NULL);
    head(x, "ANCS", id);
    jw_obj(w, "ancs");
    fields(x, &rs, 0, (const char *const[]){"game", "asset_id", NULL});
    jw_end_obj(w);
    db_rows_free(&rs);
    fetch(x, &rs, sql_characters, id, NULL, -1, -1);
    jw_arr(w, "characters");
    for (size_t r = 0; r < rs.nrows; r++)
        character(x, id, &rs, r, 0);
    jw_end_arr(w);
    db_rows_free(&rs);

    jw_obj(w, "animation_set");
    fetch(x, &rs, sql_animations, id, NULL, -1, -1);
    jw_arr(w, "animations");
    for (size_t r = 0; r < rs.nrows; r++) {
        jw_obj(w, NULL);
        fields(x, &rs, r, skip_ancs);
        meta_tree(x, "meta", id, "animation", ival(&rs, r, "anim_index"));
        jw_end_obj(w);
    }
    jw_end_arr(w);
    db_rows_free(&rs);
    fetch(x, &rs, sql_transitions, id, NULL, -1, -1);
    jw_arr(w, "transitions");
    for (size_t r = 0; r < rs.nrows; r++) {
        jw_obj(w, NULL);
        fields(x, &rs, r, skip_ancs);
        meta_tree(x, "meta", id, "transition", ival(&rs, r, "trans_index"));
        jw_end_obj(w);
    }
    jw_end_arr(w);
    db_rows_free(&rs);
    jw_obj(w, "default_transition");
    meta_tree(x, "meta", id, "default_transition", 0);
    jw_end_obj(w);
    fetch(x, &rs, sql_halfs, id, NULL, -1, -1);
    jw_arr(w, "half_transitions");
    for (size_t r = 0; r < rs.nrows; r++) {
        jw_obj(w, NULL);
        fields(x, &rs, r, skip_ancs);
        meta_tree(x, "meta", id, "half_transition", ival(&rs, r, "half_index"));
        jw_end_obj(w);
    }
    jw_end_arr(w);
    db_rows_free(&rs);
    rows_array(x, "additive_animations", sql_additives, id, NULL, -1, -1, skip_ancs);
    rows_array(x, "animation_resources", sql_pairs, id, NULL, -1, -1, skip_ancs);
    fetch(x, &rs, sql_event_sets, id, NULL, -1, -1);
    jw_arr(w, "event_sets");
    for (size_t r = 0; r < rs.nrows; r++) {
        jw_obj(w, NULL);
        fields(x, &rs, r, skip_ancs);
        rows_array_nn(x, "events", sql_events, id, "ANCS", -1, ival(&rs, r, "anim_index"),
                      (const char *const[]){"game", "owner_type", "owner_id", "anim_index", NULL},
                      event_kind_cols);
        jw_end_obj(w);
    }
    jw_end_arr(w);
    db_rows_free(&rs);
    jw_end_obj(w);
    tail(x, "ANCS", id);
    jw_end_obj(w);
    return 0;
}

static int character_doc(ex *x, uint32_t id, int64_t ci)
{
    db_rows rs;
    fetch(x, &rs, sql_characters, id, NULL, ci, -1);
    if (rs.nrows == 0) {
        db_rows_free(&rs);
        return 1;
    }
    if (ci < 0)
        jw_arr(&x->w, NULL);
    for (size_t r = 0; r < rs.nrows; r++)
        character(x, id, &rs, r, 1);
    if (ci < 0)
        jw_end_arr(&x->w);
    db_rows_free(&rs);
    return 0;
}

static int evnt_doc(ex *x, uint32_t id)
{
    db_rows rs;
    jw *w = &x->w;
    fetch(x, &rs, sql_evnt, id, NULL, -1, -1);
    if (rs.nrows == 0) {
        db_rows_free(&rs);
        return 1;
    }
    jw_obj(w, NULL);
    head(x, "EVNT", id);
    jw_obj(w, "evnt");
    fields(x, &rs, 0, (const char *const[]){"game", "asset_id", NULL});
    jw_end_obj(w);
    db_rows_free(&rs);
    static const char *const kinds[] = {"bool", "int32", "particle", "sound"};
    fetch(x, &rs, sql_events, id, "EVNT", -1, -2);
    jw_obj(w, "events");
    int kc = db_rows_col(&rs, "kind");
    for (size_t k = 0; k < 4; k++) {
        jw_arr(w, kinds[k]);
        for (size_t r = 0; kc >= 0 && r < rs.nrows; r++) {
            const db_cell *c = db_rows_at(&rs, r, kc);
            if (c->type != DB_TEXT || strcmp(c->s, kinds[k]))
                continue;
            jw_obj(w, NULL);
            fields_nn(
                x, &rs, r,
                (const char *const[]){"game", "owner_type", "owner_id", "anim_index", "kind", NULL},
                event_kind_cols);
            jw_end_obj(w);
        }
        jw_end_arr(w);
    }
    jw_end_obj(w);
    db_rows_free(&rs);
    rows_array(x, "used_by", sql_evnt_users, id, NULL, -1, -1, NULL);
    tail(x, "EVNT", id);
    jw_end_obj(w);
    return 0;
}

/* ---- argv ------------------------------------------------------------------------------------ */

static int usage_error(const char *msg, const char *arg)
{
    fputs("ancsdb: export: ", stderr);
    cli_say(stderr, msg, arg);
    fputc('\n', stderr);
    fputs(export_usage, stderr);
    return EXIT_USAGE;
}

/* The game holding (type, id): the one given, else the only one; NULL + message otherwise. */
static const char *pick_game(ex *x, const char *type, uint32_t id, const char *want, int *rc)
{
    db_rows rs;
    db_bind b[2];
    memset(b, 0, sizeof b);
    b[0].type = DB_TEXT;
    b[0].s = type;
    b[1].type = DB_INT;
    b[1].i = id;
    if (db_exec_rows(&rs, x->d, sql_games, 2, b, &x->err)) {
        cli_error("export: %s", x->err.msg);
        db_rows_free(&rs);
        *rc = EXIT_FATAL;
        return NULL;
    }
    const char *g = NULL;
    int mp1 = 0, mp2 = 0;
    for (size_t r = 0; r < rs.nrows; r++) {
        if (rs.cells[r].type != DB_TEXT)
            continue;
        mp1 |= !strcmp(rs.cells[r].s, "MP1");
        mp2 |= !strcmp(rs.cells[r].s, "MP2");
    }
    db_rows_free(&rs);
    if (want)
        g = (!strcmp(want, "MP1") && mp1) || (!strcmp(want, "MP2") && mp2) ? want : NULL;
    else if (mp1 && mp2)
        *rc = EXIT_USAGE;
    else
        g = mp1 ? "MP1" : mp2 ? "MP2" : NULL;
    if (*rc == EXIT_USAGE)
        cli_error("export: both games hold %s %08X: give --game MP1 or --game MP2", type, id);
    else if (!g) {
        cli_error("export: no %s %08X%s%s in the database", type, id, want ? " in " : "",
                  want ? want : "");
        *rc = EXIT_PARTIAL;
    }
    return g;
}

int cmd_export(int argc, char **argv)
{
    const char *dbpath = "corpus.db", *want = NULL, *release = NULL;
    char *pos[3];
    int npos = 0, k;
    enum { O_HELP, O_DB, O_GAME, O_RELEASE };
    static const cli_option opts[] = {{"help", 'h', 0, O_HELP},
                                      {"db", 0, 1, O_DB},
                                      {"game", 0, 1, O_GAME},
                                      {"release", 0, 1, O_RELEASE},
                                      {0}};
    cli_args a;
    cli_args_init(&a, "export", argc, argv);
    while ((k = cli_next(&a, opts)) != CLI_END) {
        const char *v = a.value;
        if (k == CLI_ERR) {
            return EXIT_USAGE;
        } else if (k == CLI_POS) {
            if (npos == 3)
                return usage_error("too many arguments ('%s')", v);
            pos[npos++] = (char *)v;
        } else if (k == O_HELP) {
            fputs(export_usage, stdout);
            return EXIT_OK;
        } else if (k == O_DB) {
            dbpath = v;
        } else if (k == O_RELEASE) {
            release = v;
        } else if (k == O_GAME) {
            if (!strcmp(v, "MP1") || !strcmp(v, "mp1"))
                want = "MP1";
            else if (!strcmp(v, "MP2") || !strcmp(v, "mp2"))
                want = "MP2";
            else
                return usage_error("--game must be MP1 or MP2, not '%s'", v);
        }
    }
    if (npos < 2)
        return usage_error("%s", "give what to export (ancs, character or evnt) and an ID");
    int kind = !strcmp(pos[0], "ancs")        ? 0
               : !strcmp(pos[0], "character") ? 1
               : !strcmp(pos[0], "evnt")      ? 2
                                              : -1;
    if (kind < 0)
        return usage_error("'%s' is not ancs, character or evnt", pos[0]);
    if (npos == 3 && kind != 1)
        return usage_error("CHAR_INDEX ('%s') goes with character only", pos[2]);
    uint32_t id = 0;
    int64_t ci = -1;
    if (npos == 3) {
        char *end;
        long long v = strtoll(pos[2], &end, 10);
        if (!*pos[2] || *end || v < 0 || v > INT32_MAX)
            return usage_error("'%s' is not a character index (0, 1, ...)", pos[2]);
        ci = v;
    }

    ex x;
    memset(&x, 0, sizeof x);
    util_err_clear(&x.err);
    int orc = cli_open_db(&x.d, "export", dbpath, DB_OPEN_READONLY, release, &x.err);
    if (orc != EXIT_OK)
        return orc;
    /* an ID, or the asset's name (cli_asset_arg: the rule of every command) */
    int rc = cli_asset_arg(x.d, "export", pos[1], kind == 2 ? "EVNT" : "ANCS", &id);
    if (rc != EXIT_OK) {
        db_close(x.d);
        return rc;
    }
    x.game = pick_game(&x, kind == 2 ? "EVNT" : "ANCS", id, want, &rc);
    if (x.game) {
        jw_init(&x.w, stdout, 0);
        int missing = kind == 0   ? ancs_doc(&x, id)
                      : kind == 1 ? character_doc(&x, id, ci)
                                  : evnt_doc(&x, id);
        if (x.failed) {
            cli_error("export: %s", x.err.msg);
            rc = EXIT_FATAL;
        } else if (missing) {
            if (kind == 1 && ci >= 0)
                cli_error("export: ANCS %08X of %s has no character %lld", id, x.game,
                          (long long)ci);
            else
                cli_error("export: no decoded %s %08X in %s", kind == 2 ? "EVNT" : "ANCS", id,
                          x.game);
            rc = EXIT_PARTIAL;
        } else {
            jw_done(&x.w);
        }
    }
    if (fflush(stdout) != 0) {
        cli_error("export: write error on stdout");
        rc = EXIT_FATAL;
    }
    db_close(x.d);
    return rc;
}
