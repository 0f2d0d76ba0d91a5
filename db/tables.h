/* tables.h — the tables the row writer fills, with their columns named in C: the INSERT text
 * is built from these lists (`INSERT INTO t("c1","c2",...) VALUES (...)`), so the column
 * order of the schema files is no contract. Only db/ includes this (through internal.h).
 *
 * DBT_<table>(C, t) lists a table's own columns; in code a column is COL(table, column) and a
 * table TBL(table). Tables marked keyed hold rows derived from one decoded ANCS/EVNT: their
 * key columns (DB_KEY_COLS) come first and are not in their lists; db_put_ancs/db_put_evnt
 * set their values once per decode (dbi_key_text/dbi_key_int) and the writer adds them to
 * every keyed row. To make every decoded row carry another key column: one K(column) in
 * DB_KEY_COLS, the column in the schema, and its value set beside DBK_game's. */
#ifndef ANCSDB_DB_TABLES_H
#define ANCSDB_DB_TABLES_H

/* The key columns of keyed tables, in order. */
#define DB_KEY_COLS(K) K(game) K(content_id)

/* T(table, keyed, or_ignore, batch_log): while batching, rows are written by INSERTs of up
 * to 2^batch_log rows; 0: one by one. Only tables with many rows per decode or PAK are
 * batched: inside a transaction every multi-row INSERT keeps a statement journal of each page
 * it touches (a temporary file), which costs more than it saves for a few rows (batching every
 * table wrote more to temporary files, not less). */
#define DB_TABLES(T)                                                                               \
    T(paks, 0, 0, 0)                                                                               \
    T(pak_entries, 0, 0, 6)                                                                        \
    T(pak_names, 0, 0, 0)                                                                          \
    T(assets, 0, 0, 6)                                                                             \
    T(release_assets, 0, 0, 6)                                                                     \
    T(contents, 0, 0, 0)                                                                           \
    T(load_errors, 0, 0, 0)                                                                        \
    T(warnings, 0, 0, 0)                                                                           \
    T(ancs, 1, 0, 0)                                                                               \
    T(characters, 1, 0, 0)                                                                         \
    T(character_anims, 1, 0, 5)                                                                    \
    T(anim_id_map, 1, 0, 5)                                                                        \
    T(particle_refs, 1, 0, 5)                                                                      \
    T(pas_states, 1, 0, 5)                                                                         \
    T(pas_parms, 1, 0, 0)                                                                          \
    T(pas_anim_infos, 1, 0, 5)                                                                     \
    T(pas_values, 1, 0, 5)                                                                         \
    T(anim_aabbs, 1, 0, 5)                                                                         \
    T(indexed_aabbs, 1, 0, 5)                                                                      \
    T(effects, 1, 0, 0)                                                                            \
    T(effect_components, 1, 0, 0)                                                                  \
    T(animations, 1, 0, 5)                                                                         \
    T(meta_anim_nodes, 1, 0, 5)                                                                    \
    T(anim_primitives, 1, 0, 5)                                                                    \
    T(transitions, 1, 0, 0)                                                                        \
    T(half_transitions, 1, 0, 0)                                                                   \
    T(additive_animations, 1, 0, 0)                                                                \
    T(animation_resources, 1, 0, 0)                                                                \
    T(evnt, 1, 0, 0)                                                                               \
    T(event_sets, 1, 0, 5)                                                                         \
    T(events, 1, 0, 5)                                                                             \
    T(asset_refs, 1, 1, 5)                                                                         \
    T(char_reach, 1, 0, 5)                                                                         \
    T(mlvl_worlds, 1, 0, 0)                                                                        \
    T(mlvl_memory_relays, 1, 0, 0)                                                                 \
    T(mlvl_audio_groups, 1, 0, 0)                                                                  \
    T(mlvl_areas, 1, 0, 0)                                                                         \
    T(area_layers, 1, 0, 0)                                                                        \
    T(area_deps, 1, 0, 6)                                                                          \
    T(area_attached, 1, 0, 5)                                                                      \
    T(area_dock_links, 1, 0, 5)                                                                    \
    T(area_modules, 1, 0, 0)                                                                       \
    T(mlvl_ref_labels, 1, 0, 0)                                                                    \
    T(strg, 1, 0, 0)                                                                               \
    T(strings, 1, 0, 5)                                                                            \
    T(census_contents, 0, 0, 6)

/* paks: pak_id is the rowid SQLite assigns. */
// clang-format off
#define DBT_paks(C, t)                                                                             \
    C(t, path) C(t, game) C(t, game_detected) C(t, file_size) C(t, mtime) C(t, mtime_ns)           \
    C(t, tables_hash) C(t, content_hash) C(t, header_unused) C(t, named_count)                     \
    C(t, resource_count) C(t, status) C(t, ingested_at) C(t, release_id) C(t, release_path)         \
    C(t, source_offset)
#define DBT_pak_entries(C, t)                                                                      \
    C(t, pak_id) C(t, entry_index) C(t, type) C(t, asset_id) C(t, compressed) C(t, data_offset)    \
    C(t, stored_size) C(t, decompressed_size) C(t, table_offset) C(t, in_bounds)                   \
    C(t, content_hash) C(t, stored_hash) C(t, content_id)
#define DBT_pak_names(C, t)                                                                        \
    C(t, pak_id) C(t, seq) C(t, name) C(t, type) C(t, asset_id)
#define DBT_assets(C, t)                                                                           \
    C(t, game) C(t, asset_id) C(t, type) C(t, copies) C(t, pak_count)
#define DBT_release_assets(C, t)                                                                   \
    C(t, release_id) C(t, game) C(t, asset_id) C(t, type) C(t, copies) C(t, pak_count)
#define DBT_contents(C, t)                                                                         \
    C(t, content_id) C(t, game) C(t, type) C(t, asset_id) C(t, hash) C(t, size) C(t, status)       \
    C(t, error_offset) C(t, error)
#define DBT_load_errors(C, t)                                                                      \
    C(t, pak_path) C(t, entry_index) C(t, type) C(t, asset_id) C(t, stage) C(t, byte_offset)       \
    C(t, message) C(t, game) C(t, release_id)
#define DBT_warnings(C, t)                                                                         \
    C(t, game) C(t, type) C(t, asset_id) C(t, byte_offset) C(t, code) C(t, message) C(t, pak_id)   \
    C(t, content_id)
#define DBT_ancs(C, t)                                                                             \
    C(t, asset_id) C(t, ancs_version) C(t, charset_version) C(t, character_count)                  \
    C(t, animset_version) C(t, animation_count) C(t, transition_count) C(t, additive_count)        \
    C(t, default_fade_in) C(t, default_fade_out) C(t, half_transition_count)                       \
    C(t, resource_pair_count) C(t, event_set_count) C(t, default_trans_type)                       \
    C(t, default_trans_duration) C(t, default_trans_duration_type)                                 \
    C(t, default_trans_unknown_flag) C(t, default_trans_run_a) C(t, default_trans_flags)           \
    C(t, size) C(t, consumed) C(t, trailing_len) C(t, trailing_all_ff)
#define DBT_characters(C, t)                                                                       \
    C(t, ancs_id) C(t, char_index) C(t, char_id) C(t, version) C(t, name) C(t, model_id)           \
    C(t, skin_id) C(t, skeleton_id) C(t, frozen_model_id) C(t, frozen_skin_id) C(t, cspp_id)       \
    C(t, unknown_a) C(t, unknown_b) C(t, unknown_c) C(t, anim_name_count) C(t, part_count)         \
    C(t, swhc_count) C(t, third_list_count) C(t, elsc_count) C(t, spsc_count) C(t, aabb_count)     \
    C(t, effect_count) C(t, id_map_count) C(t, indexed_aabb_count) C(t, pas_magic)                 \
    C(t, pas_default_state) C(t, pas_state_count) C(t, byte_offset)
#define DBT_character_anims(C, t)                                                                  \
    C(t, ancs_id) C(t, char_index) C(t, seq) C(t, anim_id) C(t, unknown) C(t, name)                \
    C(t, anim_index)
#define DBT_anim_id_map(C, t)                                                                      \
    C(t, ancs_id) C(t, char_index) C(t, anim_id) C(t, anim_index)
#define DBT_particle_refs(C, t)                                                                    \
    C(t, ancs_id) C(t, char_index) C(t, source) C(t, list) C(t, seq) C(t, effect_index)            \
    C(t, particle_type) C(t, particle_id)
#define DBT_pas_states(C, t)                                                                       \
    C(t, ancs_id) C(t, char_index) C(t, state_index) C(t, state_type) C(t, parm_count)             \
    C(t, anim_info_count)
#define DBT_pas_parms(C, t)                                                                        \
    C(t, ancs_id) C(t, char_index) C(t, state_index) C(t, parm_index) C(t, parm_type)              \
    C(t, weight_function) C(t, weight) C(t, min_value) C(t, max_value) C(t, min_raw)               \
    C(t, max_raw)
#define DBT_pas_anim_infos(C, t)                                                                   \
    C(t, ancs_id) C(t, char_index) C(t, state_index) C(t, info_index) C(t, anim_id)
#define DBT_pas_values(C, t)                                                                       \
    C(t, ancs_id) C(t, char_index) C(t, state_index) C(t, info_index) C(t, parm_index)             \
    C(t, value) C(t, raw)
#define DBT_anim_aabbs(C, t)                                                                       \
    C(t, ancs_id) C(t, char_index) C(t, seq) C(t, name) C(t, min_x) C(t, min_y) C(t, min_z)        \
    C(t, max_x) C(t, max_y) C(t, max_z)
#define DBT_indexed_aabbs(C, t)                                                                    \
    C(t, ancs_id) C(t, char_index) C(t, seq) C(t, anim_id) C(t, min_x) C(t, min_y) C(t, min_z)     \
    C(t, max_x) C(t, max_y) C(t, max_z)
#define DBT_effects(C, t)                                                                          \
    C(t, ancs_id) C(t, char_index) C(t, effect_index) C(t, name) C(t, component_count)
#define DBT_effect_components(C, t)                                                                \
    C(t, ancs_id) C(t, char_index) C(t, effect_index) C(t, comp_index) C(t, name)                  \
    C(t, particle_type) C(t, particle_id) C(t, bone_name) C(t, bone_id) C(t, scale)                \
    C(t, parented_mode) C(t, flags)
#define DBT_animations(C, t)                                                                       \
    C(t, ancs_id) C(t, anim_index) C(t, name) C(t, meta_type) C(t, depth)
#define DBT_meta_anim_nodes(C, t)                                                                  \
    C(t, ancs_id) C(t, owner) C(t, owner_index) C(t, seq) C(t, parent_seq) C(t, child_pos)         \
    C(t, path) C(t, depth) C(t, type) C(t, anim_asset_id) C(t, primitive_id)                       \
    C(t, primitive_name) C(t, start_time) C(t, start_time_type) C(t, blend_weight)                 \
    C(t, unknown_flag) C(t, child_count) C(t, probability) C(t, prob_pattern) C(t, byte_offset)
#define DBT_anim_primitives(C, t)                                                                  \
    C(t, ancs_id) C(t, owner) C(t, owner_index) C(t, seq) C(t, anim_asset_id) C(t, primitive_id)   \
    C(t, name) C(t, start_time) C(t, start_time_type)
#define DBT_transitions(C, t)                                                                      \
    C(t, ancs_id) C(t, trans_index) C(t, unknown_id) C(t, anim_a) C(t, anim_b) C(t, trans_type)    \
    C(t, duration) C(t, duration_type) C(t, unknown_flag) C(t, run_a) C(t, flags)
#define DBT_half_transitions(C, t)                                                                 \
    C(t, ancs_id) C(t, half_index) C(t, anim) C(t, trans_type) C(t, duration)                      \
    C(t, duration_type) C(t, unknown_flag) C(t, run_a) C(t, flags)
#define DBT_additive_animations(C, t)                                                              \
    C(t, ancs_id) C(t, seq) C(t, anim_index) C(t, fade_in) C(t, fade_out)
#define DBT_animation_resources(C, t)                                                              \
    C(t, ancs_id) C(t, res_index) C(t, anim_asset_id) C(t, evnt_asset_id)
#define DBT_evnt(C, t)                                                                             \
    C(t, asset_id) C(t, version) C(t, bool_count) C(t, int32_count) C(t, particle_count)           \
    C(t, sound_count) C(t, size) C(t, trailing_len)
#define DBT_event_sets(C, t)                                                                       \
    C(t, ancs_id) C(t, anim_index) C(t, version) C(t, bool_count) C(t, int32_count)                \
    C(t, particle_count) C(t, sound_count)
#define DBT_events(C, t)                                                                           \
    C(t, owner_type) C(t, owner_id) C(t, anim_index) C(t, kind) C(t, node_index)                   \
    C(t, byte_offset) C(t, unknown_u16) C(t, name) C(t, poi_type) C(t, time) C(t, time_type)       \
    C(t, index) C(t, unique) C(t, weight) C(t, char_index) C(t, flags) C(t, value)                 \
    C(t, locator_name) C(t, duration) C(t, particle_type) C(t, particle_id) C(t, bone_name)        \
    C(t, bone_id) C(t, scale) C(t, parented_mode) C(t, sound_id) C(t, falloff)                     \
    C(t, max_distance) C(t, echoes_unknown_a) C(t, echoes_unknown_b) C(t, echoes_unknown_c)        \
    C(t, echoes_unknown_d)
#define DBT_asset_refs(C, t)                                                                       \
    C(t, src_type) C(t, src_id) C(t, dst_type) C(t, dst_id) C(t, char_index) C(t, via)
#define DBT_char_reach(C, t)                                                                       \
    C(t, ancs_id) C(t, char_index) C(t, rule) C(t, k1) C(t, k2) C(t, k3) C(t, dst_type)            \
    C(t, dst_id) C(t, via)
#define DBT_mlvl_worlds(C, t)                                                                      \
    C(t, mlvl_id) C(t, version) C(t, world_name_strg) C(t, dark_world_name_strg)                   \
    C(t, temple_key_world_index) C(t, savw_id) C(t, default_skybox_id) C(t, memory_relay_count)    \
    C(t, area_count) C(t, unknown_after_area_count) C(t, mapw_id) C(t, script_layer_header)        \
    C(t, script_instance_count) C(t, audio_group_count) C(t, unknown_string)                       \
    C(t, layer_name_count) C(t, size) C(t, trailing_len)
#define DBT_mlvl_memory_relays(C, t)                                                               \
    C(t, mlvl_id) C(t, relay_index) C(t, instance_id) C(t, target_id) C(t, message) C(t, active)
#define DBT_mlvl_audio_groups(C, t)                                                                \
    C(t, mlvl_id) C(t, group_index) C(t, group_id) C(t, agsc_id)
#define DBT_mlvl_areas(C, t)                                                                       \
    C(t, mlvl_id) C(t, area_index) C(t, mrea_id) C(t, area_id) C(t, name_strg)                     \
    C(t, internal_name) C(t, layer_count) C(t, layer_flags) C(t, attached_count) C(t, unknown)     \
    C(t, dependency_count) C(t, dock_count) C(t, module_count) C(t, transform) C(t, position_x)     \
    C(t, position_y) C(t, position_z) C(t, min_x) C(t, min_y) C(t, min_z) C(t, max_x)              \
    C(t, max_y) C(t, max_z) C(t, byte_offset)
#define DBT_area_layers(C, t)                                                                      \
    C(t, mlvl_id) C(t, area_index) C(t, layer_index) C(t, name) C(t, active)                       \
    C(t, dependency_count)
#define DBT_area_deps(C, t)                                                                        \
    C(t, mlvl_id) C(t, area_index) C(t, layer_index) C(t, dep_index) C(t, seq) C(t, type)          \
    C(t, asset_id)
#define DBT_area_attached(C, t)                                                                    \
    C(t, mlvl_id) C(t, area_index) C(t, attached_index) C(t, other_area_index)
#define DBT_area_dock_links(C, t)                                                                  \
    C(t, mlvl_id) C(t, area_index) C(t, dock_index) C(t, link_index) C(t, other_area_index)        \
    C(t, other_dock_index) C(t, coordinate_count)
#define DBT_area_modules(C, t)                                                                     \
    C(t, mlvl_id) C(t, area_index) C(t, module_index) C(t, layer_index) C(t, name)
#define DBT_mlvl_ref_labels(C, t) C(t, mlvl_id) C(t, area_index) C(t, label)
#define DBT_strg(C, t)                                                                             \
    C(t, strg_id) C(t, version) C(t, language_count) C(t, string_count) C(t, name_count)           \
    C(t, languages) C(t, size) C(t, trailing_len)
#define DBT_strings(C, t)                                                                          \
    C(t, strg_id) C(t, language) C(t, string_index) C(t, name) C(t, text)
/* census_contents: a decode's counts (db/census_rows.c) */
#define DBT_census_contents(C, t)                                                                  \
    C(t, content_id) C(t, game) C(t, field) C(t, value) C(t, count)
// clang-format on

#define DBT_COL_ENUM(t, c)                  DBC_##t##_##c,
#define DBT_TABLE_ENUM(t, keyed, ign, blog) enum { DBT_##t(DBT_COL_ENUM, t) DBC_##t##_n };
DB_TABLES(DBT_TABLE_ENUM)
#define DBT_TABLE_ID(t, keyed, ign, blog) DBT_ID_##t,
enum { DB_TABLES(DBT_TABLE_ID) DBT_COUNT };

/* A column of a table (its index among the table's own columns) and a table descriptor. */
#define COL(t, c) DBC_##t##_##c
#define TBL(t)    (&dbi_tables[DBT_ID_##t])

#endif
