/* columns.h — what the columns of the tables (tables.h and the schema files) mean, declared once:
 * which hold asset IDs (and the asset's type), which hold enumerated values (and their label
 * table), which name the owning asset and character; and the layout of every `v_` view.
 * Plain X-macro lists, no code: read by
 *   - db/gen/gen_sql.c, run at build time: it writes every `v_` view (views_embedded.c,
 *     created by db/views.c), the census's per-content fields (db/census/census.sql.in) and
 *     the field lists of queries/release-diff-fields.sql.in;
 *   - db/views.c: db_is_id_column, which src/output.c asks whether a column prints as an ID;
 *   - tests/db/test_views.c, which checks a new database against these lists.
 * A new column holding asset IDs: one ID(...) line (and a C(...) in its table's view);
 * a new column named *_id that is no asset: one NOT_ASSET(...) line (the test asks for one
 * of the two); a new table with asset IDs: its view in DB_VIEWS and DBV_<view>. */
#ifndef ANCSDB_DB_COLUMNS_H
#define ANCSDB_DB_COLUMNS_H

/* ---- asset IDs -------------------------------------------------------------------------
 * ID(table, column, shown, type): column holds asset IDs (unsigned 32-bit). In a view it is
 * `shown` (8 upper-case hex digits, compared case-insensitively) with `shown`_name beside it
 * (asset_label); the CLI prints the integer as 8 hex digits. type: the asset's type, a
 * FourCC literal ("'ANCS'"), the name of the row's column holding it ("type"), or "" when
 * nothing says (the third particle list). */
// clang-format off
#define DB_ID_COLUMNS(ID)                                                                          \
    ID(pak_entries, asset_id, asset, "type")                                                       \
    ID(pak_names, asset_id, asset, "type")                                                         \
    ID(assets, asset_id, asset, "type")                                                            \
    ID(release_assets, asset_id, asset, "type")                                                    \
    ID(contents, asset_id, asset, "type")                                                          \
    ID(load_errors, asset_id, asset, "type")                                                       \
    ID(warnings, asset_id, asset, "type")                                                          \
    ID(asset_names, asset_id, asset, "type")                                                       \
    ID(ancs, asset_id, ancs, "'ANCS'")                                                             \
    ID(characters, ancs_id, ancs, "'ANCS'")                                                        \
    ID(characters, model_id, model, "'CMDL'")                                                      \
    ID(characters, skin_id, skin, "'CSKR'")                                                        \
    ID(characters, skeleton_id, skeleton, "'CINF'")                                                \
    ID(characters, frozen_model_id, frozen_model, "'CMDL'")                                        \
    ID(characters, frozen_skin_id, frozen_skin, "'CSKR'")                                          \
    ID(characters, cspp_id, cspp, "'CSPP'")                                                        \
    ID(character_anims, ancs_id, ancs, "'ANCS'")                                                   \
    ID(anim_id_map, ancs_id, ancs, "'ANCS'")                                                       \
    ID(particle_refs, ancs_id, ancs, "'ANCS'")                                                     \
    ID(particle_refs, particle_id, particle, "particle_type")                                      \
    ID(pas_states, ancs_id, ancs, "'ANCS'")                                                        \
    ID(pas_parms, ancs_id, ancs, "'ANCS'")                                                         \
    ID(pas_anim_infos, ancs_id, ancs, "'ANCS'")                                                    \
    ID(pas_values, ancs_id, ancs, "'ANCS'")                                                        \
    ID(anim_aabbs, ancs_id, ancs, "'ANCS'")                                                        \
    ID(indexed_aabbs, ancs_id, ancs, "'ANCS'")                                                     \
    ID(effects, ancs_id, ancs, "'ANCS'")                                                           \
    ID(effect_components, ancs_id, ancs, "'ANCS'")                                                 \
    ID(effect_components, particle_id, particle, "particle_type")                                  \
    ID(animations, ancs_id, ancs, "'ANCS'")                                                        \
    ID(meta_anim_nodes, ancs_id, ancs, "'ANCS'")                                                   \
    ID(meta_anim_nodes, anim_asset_id, anim, "'ANIM'")                                             \
    ID(anim_primitives, ancs_id, ancs, "'ANCS'")                                                   \
    ID(anim_primitives, anim_asset_id, anim, "'ANIM'")                                             \
    ID(transitions, ancs_id, ancs, "'ANCS'")                                                       \
    ID(half_transitions, ancs_id, ancs, "'ANCS'")                                                  \
    ID(additive_animations, ancs_id, ancs, "'ANCS'")                                               \
    ID(animation_resources, ancs_id, ancs, "'ANCS'")                                               \
    ID(animation_resources, anim_asset_id, anim, "'ANIM'")                                         \
    ID(animation_resources, evnt_asset_id, evnt, "'EVNT'")                                         \
    ID(evnt, asset_id, evnt, "'EVNT'")                                                             \
    ID(event_sets, ancs_id, ancs, "'ANCS'")                                                        \
    ID(events, owner_id, owner, "owner_type")                                                      \
    ID(events, particle_id, particle, "particle_type")                                             \
    ID(asset_refs, src_id, src, "src_type")                                                        \
    ID(asset_refs, dst_id, dst, "dst_type")                                                        \
    ID(char_reach, ancs_id, ancs, "'ANCS'")                                                        \
    ID(char_reach, dst_id, dst, "dst_type")                                                        \
    ID(mlvl_worlds, mlvl_id, mlvl, "'MLVL'")                                                       \
    ID(mlvl_worlds, world_name_strg, world_name_strg, "'STRG'")                                    \
    ID(mlvl_worlds, dark_world_name_strg, dark_world_name_strg, "'STRG'")                          \
    ID(mlvl_worlds, savw_id, savw, "'SAVW'")                                                       \
    ID(mlvl_worlds, mapw_id, mapw, "'MAPW'")                                                       \
    ID(mlvl_worlds, default_skybox_id, default_skybox, "'CMDL'")                                   \
    ID(mlvl_memory_relays, mlvl_id, mlvl, "'MLVL'")                                                \
    ID(mlvl_audio_groups, mlvl_id, mlvl, "'MLVL'")                                                 \
    ID(mlvl_audio_groups, agsc_id, agsc, "'AGSC'")                                                 \
    ID(mlvl_areas, mlvl_id, mlvl, "'MLVL'")                                                        \
    ID(mlvl_areas, mrea_id, mrea, "'MREA'")                                                        \
    ID(mlvl_areas, name_strg, name_strg, "'STRG'")                                                 \
    ID(area_layers, mlvl_id, mlvl, "'MLVL'")                                                       \
    ID(area_deps, mlvl_id, mlvl, "'MLVL'")                                                         \
    ID(area_deps, asset_id, asset, "type")                                                         \
    ID(area_attached, mlvl_id, mlvl, "'MLVL'")                                                     \
    ID(area_dock_links, mlvl_id, mlvl, "'MLVL'")                                                   \
    ID(area_modules, mlvl_id, mlvl, "'MLVL'")                                                      \
    ID(mlvl_ref_labels, mlvl_id, mlvl, "'MLVL'")                                                   \
    ID(strg, strg_id, strg, "'STRG'")                                                              \
    ID(strings, strg_id, strg, "'STRG'")

/* Result columns of the named queries (queries/) that hold asset IDs under a name no table
 * column has (a computed column prints as an ID when its name is an ID column's). */
#define DB_QUERY_ID_NAMES(Q) Q(evnt_id) Q(through)

/* Columns named *_id that hold no asset ID (row keys, in-file numbers, sound IDs). */
#define DB_NOT_ASSET_COLUMNS(N)                                                                    \
    N(pak_id) N(content_id) N(release_id) N(char_id) N(anim_id) N(primitive_id) N(unknown_id)      \
    N(bone_id) N(sound_id) N(area_id) N(instance_id) N(target_id) N(group_id)

/* HEX(table, column): a number that is no asset but reads best as 8 hex digits in the view
 * (no name beside it, no case-insensitive compare). */
#define DB_HEX_COLUMNS(HEX) HEX(mlvl_areas, area_id)

/* ---- enumerations ----------------------------------------------------------------------
 * ENUM(table, column, label): the values of column are labelled by table label_<label>
 * (db/schema/40_labels.sql); the view shows <column>_label beside the number. */
#define DB_ENUM_COLUMNS(ENUM)                                                                      \
    ENUM(ancs, default_trans_type, meta_trans_type)                                                \
    ENUM(ancs, default_trans_duration_type, time_type)                                             \
    ENUM(characters, pas_default_state, anim_state)                                                \
    ENUM(pas_states, state_type, anim_state)                                                       \
    ENUM(pas_parms, parm_type, parm_type)                                                          \
    ENUM(pas_parms, weight_function, weight_function)                                              \
    ENUM(effect_components, parented_mode, parented_mode)                                          \
    ENUM(animations, meta_type, meta_anim_type)                                                    \
    ENUM(meta_anim_nodes, type, meta_anim_type)                                                    \
    ENUM(meta_anim_nodes, start_time_type, time_type)                                              \
    ENUM(anim_primitives, start_time_type, time_type)                                              \
    ENUM(transitions, trans_type, meta_trans_type)                                                 \
    ENUM(transitions, duration_type, time_type)                                                    \
    ENUM(half_transitions, trans_type, meta_trans_type)                                            \
    ENUM(half_transitions, duration_type, time_type)                                               \
    ENUM(events, kind, event_kind)                                                                 \
    ENUM(events, poi_type, poi_type)                                                               \
    ENUM(events, time_type, time_type)                                                             \
    ENUM(events, parented_mode, parented_mode)

/* ---- owners ----------------------------------------------------------------------------
 * OWNER(table, key): the rows of table describe one decoded content of one asset, found by
 * these key columns (the census joins a content to its rows with USING (key)). */
#define DB_OWNERS(OWNER)                                                                           \
    OWNER(ancs, "game, asset_id, content_id")                                                      \
    OWNER(evnt, "game, asset_id, content_id")                                                      \
    OWNER(characters, "game, ancs_id, content_id")                                                 \
    OWNER(character_anims, "game, ancs_id, content_id")                                            \
    OWNER(indexed_aabbs, "game, ancs_id, content_id")                                              \
    OWNER(effect_components, "game, ancs_id, content_id")                                          \
    OWNER(pas_states, "game, ancs_id, content_id")                                                 \
    OWNER(pas_parms, "game, ancs_id, content_id")                                                  \
    OWNER(transitions, "game, ancs_id, content_id")                                                \
    OWNER(meta_anim_nodes, "game, ancs_id, content_id")                                            \
    OWNER(event_sets, "game, ancs_id, content_id")                                                 \
    OWNER(events, "game, owner_type, owner_id, content_id")                                        \
    OWNER(mlvl_worlds, "game, mlvl_id, content_id")                                                \
    OWNER(mlvl_areas, "game, mlvl_id, content_id")                                                 \
    OWNER(area_dock_links, "game, mlvl_id, content_id")                                            \
    OWNER(strg, "game, strg_id, content_id")                                                       \
    OWNER(census_mt, "")                                                                           \
    OWNER(census_ev, "")

/* CHARACTER(table, ancs, char_index, when): rows of table belong to one character, the
 * characters row (game, ancs_id = ancs, content_id, char_index); the view shows its name as
 * `character`. when: an SQL condition on the row (t.) that must hold too, or "". */
#define DB_CHARACTER_OWNERS(CHARACTER)                                                             \
    CHARACTER(character_anims, ancs_id, char_index, "")                                            \
    CHARACTER(anim_id_map, ancs_id, char_index, "")                                                \
    CHARACTER(particle_refs, ancs_id, char_index, "")                                              \
    CHARACTER(pas_states, ancs_id, char_index, "")                                                 \
    CHARACTER(pas_parms, ancs_id, char_index, "")                                                  \
    CHARACTER(pas_anim_infos, ancs_id, char_index, "")                                             \
    CHARACTER(pas_values, ancs_id, char_index, "")                                                 \
    CHARACTER(anim_aabbs, ancs_id, char_index, "")                                                 \
    CHARACTER(indexed_aabbs, ancs_id, char_index, "")                                              \
    CHARACTER(effects, ancs_id, char_index, "")                                                    \
    CHARACTER(effect_components, ancs_id, char_index, "")                                          \
    CHARACTER(asset_refs, src_id, char_index, "t.src_type = 'ANCS'")                               \
    CHARACTER(char_reach, ancs_id, char_index, "")
// clang-format on

/* ---- the views -------------------------------------------------------------------------
 * V(view, table, from): view shows the rows of table read from `from` (the table itself, or a
 * view adding names to it: worlds, areas), its columns listed by DBV_<view>(C, B, K, X):
 *   C(column)  a column of `from`, shown as its role says: an ID as `shown` + `shown`_name,
 *              a HEX number in hex, an ENUM value with <column>_label, else as it is;
 *   B(column)  an ID in hex without its name beside it (unused: every view names its IDs);
 *   K()        the owning character's name, `character` (DB_CHARACTER_OWNERS);
 *   X(expr, name, join)  an expression over the row `t` (and join's alias), with the join
 *              it needs ("" for none; one join text is added once).
 * Views are made in this order (a view may read an earlier one). Every table with an ID
 * column has a view of its own rows (tests/db/test_views.c checks it), except those of
 * DB_NO_VIEW; a view shows every ID column of its table except those of DB_VIEW_OMITS. */
// clang-format off
#define DB_VIEWS(V)                                                                                \
    V(v_characters, characters, characters)                                                        \
    V(v_asset_refs, asset_refs, asset_refs)                                                        \
    V(v_pak_entries, pak_entries, pak_entries)                                                     \
    V(v_events, events, events)                                                                    \
    V(v_load_errors, load_errors, load_errors)                                                     \
    V(v_pak_names, pak_names, pak_names)                                                           \
    V(v_assets, assets, assets)                                                                    \
    V(v_decoded, contents, contents)                                                               \
    V(v_ancs, ancs, ancs)                                                                          \
    V(v_character_anims, character_anims, character_anims)                                         \
    V(v_anim_id_map, anim_id_map, anim_id_map)                                                     \
    V(v_particle_refs, particle_refs, particle_refs)                                               \
    V(v_pas_states, pas_states, pas_states)                                                        \
    V(v_pas_parms, pas_parms, pas_parms)                                                           \
    V(v_pas_anim_infos, pas_anim_infos, pas_anim_infos)                                            \
    V(v_pas_values, pas_values, pas_values)                                                        \
    V(v_anim_aabbs, anim_aabbs, anim_aabbs)                                                        \
    V(v_indexed_aabbs, indexed_aabbs, indexed_aabbs)                                               \
    V(v_effects, effects, effects)                                                                 \
    V(v_effect_components, effect_components, effect_components)                                   \
    V(v_animations, animations, animations)                                                        \
    V(v_meta_anim_nodes, meta_anim_nodes, meta_anim_nodes)                                         \
    V(v_anim_primitives, anim_primitives, anim_primitives)                                         \
    V(v_transitions, transitions, transitions)                                                     \
    V(v_half_transitions, half_transitions, half_transitions)                                      \
    V(v_additive_animations, additive_animations, additive_animations)                             \
    V(v_animation_resources, animation_resources, animation_resources)                             \
    V(v_evnt, evnt, evnt)                                                                          \
    V(v_event_sets, event_sets, event_sets)                                                        \
    V(v_warnings, warnings, warnings)                                                              \
    V(v_asset_names, asset_names, asset_names)                                                     \
    V(v_worlds, mlvl_worlds, worlds)                                                               \
    V(v_areas, mlvl_areas, areas)                                                                  \
    V(v_area_layers, area_layers, area_layers)                                                     \
    V(v_area_deps, area_deps, area_deps)                                                           \
    V(v_area_attached, area_attached, area_attached)                                               \
    V(v_strings, strings, strings)                                                                 \
    V(v_contents, contents, contents)                                                              \
    V(v_release_assets, release_assets, release_assets)                                            \
    V(v_char_reach, char_reach, char_reach)                                                        \
    V(v_mlvl_memory_relays, mlvl_memory_relays, mlvl_memory_relays)                                \
    V(v_mlvl_audio_groups, mlvl_audio_groups, mlvl_audio_groups)                                   \
    V(v_area_dock_links, area_dock_links, area_dock_links)                                         \
    V(v_area_modules, area_modules, area_modules)                                                  \
    V(v_strg, strg, strg)

/* Tables with an ID column and no view, and ID columns a view leaves out. */
#define DB_NO_VIEW(NV) NV(mlvl_ref_labels, "bookkeeping of the final pass")
#define DB_VIEW_OMITS(OM) /* none: every ID column is shown */

#define DBV_v_characters(C, B, K, X)                                                               \
    C(game) C(ancs_id) C(char_index) C(char_id) C(version) C(name) C(model_id) C(skin_id)          \
    C(skeleton_id) C(frozen_model_id) C(frozen_skin_id) C(cspp_id) C(unknown_a) C(unknown_b)       \
    C(unknown_c) C(anim_name_count) C(pas_default_state)
#define DBV_v_asset_refs(C, B, K, X)                                                               \
    C(game) C(src_type) C(src_id) C(dst_type) C(dst_id) C(char_index) K() C(via)                   \
    X("(SELECT a.type FROM assets a WHERE a.game = t.game AND a.asset_id = t.dst_id)",           \
      dst_held_as, "")
#define DBV_v_pak_entries(C, B, K, X)                                                              \
    X("p.game", game, "JOIN paks p ON p.pak_id = t.pak_id")                                        \
    X("p.path", path, "JOIN paks p ON p.pak_id = t.pak_id")                                        \
    C(entry_index) C(type) C(asset_id) C(compressed) C(data_offset) C(stored_size)                 \
    C(decompressed_size)
#define DBV_v_events(C, B, K, X)                                                                   \
    C(game) C(owner_type) C(owner_id) C(anim_index) C(kind) C(node_index) C(name) C(poi_type)      \
    C(time) C(time_type) C(char_index) C(particle_type) C(particle_id) C(parented_mode)            \
    C(sound_id)
#define DBV_v_load_errors(C, B, K, X)                                                              \
    C(pak_path) C(entry_index) C(type) C(asset_id) C(stage)                                        \
    X("CASE WHEN t.byte_offset IS NULL THEN NULL ELSE printf('0x%x', t.byte_offset) END", at, "")  \
    C(message)
#define DBV_v_pak_names(C, B, K, X)                                                                \
    X("p.game", game, "JOIN paks p ON p.pak_id = t.pak_id")                                        \
    X("p.path", path, "JOIN paks p ON p.pak_id = t.pak_id")                                        \
    C(seq) C(name) C(type) C(asset_id)
#define DBV_v_assets(C, B, K, X) C(game) C(type) C(asset_id) C(copies) C(pak_count)
#define DBV_v_decoded(C, B, K, X)                                                                  \
    C(game) C(type) C(asset_id) C(content_id)                                                      \
    X("(SELECT group_concat(release, ', ') FROM (SELECT DISTINCT v.release FROM "                  \
      "v_content_releases v WHERE v.content_id = t.content_id ORDER BY v.release))",               \
      releases, "")                                                                                \
    C(size) C(status)
#define DBV_v_ancs(C, B, K, X)                                                                     \
    C(game) C(asset_id) C(ancs_version) C(charset_version) C(character_count)                      \
    C(animset_version) C(animation_count) C(transition_count) C(additive_count)                    \
    C(half_transition_count) C(resource_pair_count) C(event_set_count) C(default_trans_type)       \
    C(default_trans_duration) C(default_trans_duration_type) C(default_trans_unknown_flag)         \
    C(default_trans_run_a) C(default_trans_flags) C(size) C(trailing_len)
#define DBV_v_character_anims(C, B, K, X)                                                          \
    C(game) C(ancs_id) C(char_index) K() C(seq) C(anim_id) C(name) C(anim_index) C(unknown)
#define DBV_v_anim_id_map(C, B, K, X)                                                              \
    C(game) C(ancs_id) C(char_index) K() C(anim_id) C(anim_index)
#define DBV_v_particle_refs(C, B, K, X)                                                            \
    C(game) C(ancs_id) C(char_index) K() C(source) C(list) C(seq) C(effect_index)                  \
    C(particle_type) C(particle_id)
#define DBV_v_pas_states(C, B, K, X)                                                               \
    C(game) C(ancs_id) C(char_index) K() C(state_index) C(state_type) C(parm_count)                \
    C(anim_info_count)
#define DBV_v_pas_parms(C, B, K, X)                                                                \
    C(game) C(ancs_id) C(char_index) K() C(state_index) C(parm_index) C(parm_type)                 \
    C(weight_function) C(weight) C(min_value) C(max_value) C(min_raw) C(max_raw)
#define DBV_v_pas_anim_infos(C, B, K, X)                                                           \
    C(game) C(ancs_id) C(char_index) K() C(state_index) C(info_index) C(anim_id)
#define DBV_v_pas_values(C, B, K, X)                                                               \
    C(game) C(ancs_id) C(char_index) K() C(state_index) C(info_index) C(parm_index) C(value)       \
    C(raw)
#define DBV_v_anim_aabbs(C, B, K, X)                                                               \
    C(game) C(ancs_id) C(char_index) K() C(seq) C(name) C(min_x) C(min_y) C(min_z) C(max_x)        \
    C(max_y) C(max_z)
#define DBV_v_indexed_aabbs(C, B, K, X)                                                            \
    C(game) C(ancs_id) C(char_index) K() C(seq) C(anim_id) C(min_x) C(min_y) C(min_z) C(max_x)     \
    C(max_y) C(max_z)
#define DBV_v_effects(C, B, K, X)                                                                  \
    C(game) C(ancs_id) C(char_index) K() C(effect_index) C(name) C(component_count)
#define DBV_v_effect_components(C, B, K, X)                                                        \
    C(game) C(ancs_id) C(char_index) K() C(effect_index) C(comp_index) C(name) C(particle_type)    \
    C(particle_id) C(bone_name) C(bone_id) C(scale) C(parented_mode) C(flags)
#define DBV_v_animations(C, B, K, X)                                                               \
    C(game) C(ancs_id) C(anim_index) C(name) C(meta_type) C(depth)
#define DBV_v_meta_anim_nodes(C, B, K, X)                                                          \
    C(game) C(ancs_id) C(owner) C(owner_index) C(seq) C(parent_seq) C(child_pos) C(path)           \
    C(depth) C(type) C(anim_asset_id) C(primitive_id) C(primitive_name) C(start_time)              \
    C(start_time_type) C(blend_weight) C(unknown_flag) C(child_count) C(probability)               \
    C(prob_pattern)
#define DBV_v_anim_primitives(C, B, K, X)                                                          \
    C(game) C(ancs_id) C(owner) C(owner_index) C(seq) C(anim_asset_id) C(primitive_id) C(name)     \
    C(start_time) C(start_time_type)
#define DBV_v_transitions(C, B, K, X)                                                              \
    C(game) C(ancs_id) C(trans_index) C(unknown_id) C(anim_a) C(anim_b) C(trans_type)              \
    C(duration) C(duration_type) C(unknown_flag) C(run_a) C(flags)
#define DBV_v_half_transitions(C, B, K, X)                                                         \
    C(game) C(ancs_id) C(half_index) C(anim) C(trans_type) C(duration) C(duration_type)            \
    C(unknown_flag) C(run_a) C(flags)
#define DBV_v_additive_animations(C, B, K, X)                                                      \
    C(game) C(ancs_id) C(seq) C(anim_index) C(fade_in) C(fade_out)
#define DBV_v_animation_resources(C, B, K, X)                                                      \
    C(game) C(ancs_id) C(res_index) C(anim_asset_id) C(evnt_asset_id)
#define DBV_v_evnt(C, B, K, X)                                                                     \
    C(game) C(asset_id) C(version) C(bool_count) C(int32_count) C(particle_count)                  \
    C(sound_count) C(size) C(trailing_len)
#define DBV_v_event_sets(C, B, K, X)                                                               \
    C(game) C(ancs_id) C(anim_index) C(version) C(bool_count) C(int32_count) C(particle_count)     \
    C(sound_count)
#define DBV_v_warnings(C, B, K, X)                                                                 \
    C(game) C(type) C(asset_id) C(byte_offset) C(code) C(message)                                  \
    X("p.path", pak, "LEFT JOIN paks p ON p.pak_id = t.pak_id")
#define DBV_v_asset_names(C, B, K, X)                                                              \
    C(asset_id) C(type) C(name) C(directory) C(source) C(auto_name) C(auto_dir)
#define DBV_v_worlds(C, B, K, X)                                                                   \
    C(game) C(mlvl_id) C(name) C(dark_name) C(version) C(world_name_strg) C(savw_id) C(mapw_id)    \
    C(dark_world_name_strg) C(default_skybox_id) C(area_count) C(content_id)
#define DBV_v_areas(C, B, K, X)                                                                    \
    C(game) C(mlvl_id)                                                                             \
    X("w.name", world,                                                                             \
      "LEFT JOIN worlds w ON w.game = t.game AND w.mlvl_id = t.mlvl_id "                           \
      "AND w.content_id = t.content_id")                                                           \
    C(area_index) C(name) C(internal_name) C(mrea_id) C(name_strg) C(area_id) C(layer_count)       \
    C(attached_count) C(dependency_count) C(content_id)
#define DBV_v_area_layers(C, B, K, X)                                                              \
    C(game) C(mlvl_id) C(area_index)                                                               \
    X("a.name", area,                                                                              \
      "LEFT JOIN areas a ON a.game = t.game AND a.mlvl_id = t.mlvl_id "                            \
      "AND a.content_id = t.content_id AND a.area_index = t.area_index")                           \
    C(layer_index) C(name) C(active) C(dependency_count) C(content_id)
#define DBV_v_area_deps(C, B, K, X)                                                                \
    C(game) C(mlvl_id) C(area_index) C(layer_index)                                                \
    X("l.name", layer,                                                                             \
      "LEFT JOIN area_layers l ON l.game = t.game AND l.mlvl_id = t.mlvl_id "                      \
      "AND l.content_id = t.content_id AND l.area_index = t.area_index "                           \
      "AND l.layer_index = t.layer_index")                                                         \
    C(dep_index) C(type) C(asset_id) C(content_id)
#define DBV_v_area_attached(C, B, K, X)                                                            \
    C(game) C(mlvl_id) C(area_index) C(attached_index) C(other_area_index) C(content_id)
#define DBV_v_strings(C, B, K, X)                                                                  \
    C(game) C(strg_id) C(language) C(string_index) C(name) C(text) C(content_id)
#define DBV_v_contents(C, B, K, X)                                                                 \
    C(content_id) C(game) C(type) C(asset_id) C(hash) C(size) C(status) C(error_offset) C(error)
#define DBV_v_release_assets(C, B, K, X)                                                           \
    X("r.label", release, "LEFT JOIN releases r ON r.release_id = t.release_id")                   \
    C(game) C(type) C(asset_id) C(copies) C(pak_count)
#define DBV_v_char_reach(C, B, K, X)                                                               \
    C(game) C(ancs_id) C(char_index) K() C(rule) C(k1) C(k2) C(k3) C(dst_type) C(dst_id) C(via)    \
    C(content_id)
#define DBV_v_mlvl_memory_relays(C, B, K, X)                                                       \
    C(game) C(mlvl_id) C(relay_index) C(instance_id) C(target_id) C(message) C(active)             \
    C(content_id)
#define DBV_v_mlvl_audio_groups(C, B, K, X)                                                        \
    C(game) C(mlvl_id) C(group_index) C(group_id) C(agsc_id) C(content_id)
#define DBV_v_area_dock_links(C, B, K, X)                                                          \
    C(game) C(mlvl_id) C(area_index) C(dock_index) C(link_index) C(other_area_index)               \
    C(other_dock_index) C(coordinate_count) C(content_id)
#define DBV_v_area_modules(C, B, K, X)                                                             \
    C(game) C(mlvl_id) C(area_index) C(module_index) C(layer_index) C(name) C(content_id)
#define DBV_v_strg(C, B, K, X)                                                                     \
    C(game) C(strg_id) C(version) C(language_count) C(string_count) C(name_count) C(languages)     \
    C(size) C(trailing_len) C(content_id)
// clang-format on

/* ---- fields compared and counted --------------------------------------------------------
 * DIFF(table, column): queries/release-diff-fields.sql.in compares this decoded field of the
 * contents of two releases (`table.column`; an ID column's values print as 8 hex digits). */
// clang-format off
#define DB_DIFF_FIELDS(DIFF)                                                                       \
    DIFF(ancs, character_count) DIFF(ancs, animation_count) DIFF(ancs, transition_count)           \
    DIFF(ancs, animset_version)                                                                    \
    DIFF(characters, char_id) DIFF(characters, version) DIFF(characters, name)                     \
    DIFF(characters, model_id) DIFF(characters, skin_id) DIFF(characters, skeleton_id)             \
    DIFF(characters, frozen_model_id) DIFF(characters, frozen_skin_id) DIFF(characters, cspp_id)   \
    DIFF(characters, unknown_a) DIFF(characters, unknown_b) DIFF(characters, unknown_c)            \
    DIFF(characters, anim_name_count) DIFF(characters, part_count) DIFF(characters, swhc_count)    \
    DIFF(characters, third_list_count) DIFF(characters, elsc_count) DIFF(characters, spsc_count)   \
    DIFF(characters, aabb_count) DIFF(characters, effect_count) DIFF(characters, id_map_count)     \
    DIFF(characters, indexed_aabb_count) DIFF(characters, pas_state_count)                         \
    DIFF(character_anims, anim_id) DIFF(character_anims, name)                                     \
    DIFF(particle_refs, particle_type) DIFF(particle_refs, particle_id)                            \
    DIFF(animations, name)                                                                         \
    DIFF(anim_primitives, anim_asset_id) DIFF(anim_primitives, primitive_id)                       \
    DIFF(anim_primitives, name)                                                                    \
    DIFF(animation_resources, anim_asset_id) DIFF(animation_resources, evnt_asset_id)              \
    DIFF(events, name) DIFF(events, poi_type) DIFF(events, time) DIFF(events, char_index)          \
    DIFF(events, flags) DIFF(events, value) DIFF(events, locator_name) DIFF(events, duration)       \
    DIFF(events, particle_type) DIFF(events, particle_id) DIFF(events, bone_name)                  \
    DIFF(events, bone_id) DIFF(events, scale) DIFF(events, sound_id) DIFF(events, falloff)         \
    DIFF(events, max_distance)

/* The census of fields known only as "unknown" or constant (db/census/census.sql.in, for the
 * ANCS and EVNT contents): each
 * content not counted yet adds one census_contents row per (field, value) with the number of
 * its rows holding that value. The rows of table are the content's (DB_OWNERS' key joins
 * them; census_mt and census_ev: the meta-transitions and the event nodes census.sql.in
 * gathers first).
 *   CV(field, table, column, where)  the value is the column as text
 *   CX(field, table, value, where, group)  the value is an expression, rows grouped by group
 * where: a condition on the rows counted, or "". */
#define DB_CENSUS_FIELDS(CV, CX)                                                                   \
    CV("ancs.version", ancs, ancs_version, "")                                                     \
    CV("charset.version", ancs, charset_version, "")                                               \
    CV("char.version", characters, version, "")                                                    \
    CV("char.unknown_a", characters, unknown_a, "")                                                \
    CV("char.unknown_b", characters, unknown_b, "unknown_b IS NOT NULL")                           \
    CV("char.unknown_c", characters, unknown_c, "unknown_c IS NOT NULL")                           \
    CV("char.particles.third_list.count", characters, third_list_count,                            \
       "third_list_count IS NOT NULL")                                                             \
    CX("char.anim_name.unknown_string", character_anims,                                           \
       "CASE WHEN unknown = '' THEN '(empty)' ELSE unknown END", "unknown IS NOT NULL", "unknown")  \
    CX("char.indexed_aabb.anim_id", indexed_aabbs,                                                 \
       "CASE WHEN anim_id = seq THEN 'equals position' ELSE 'differs from position' END", "",      \
       "anim_id = seq")                                                                            \
    CX("char.effect_component.flags", effect_components, "printf('0x%08X', flags)", "", "flags")   \
    CV("char.effect_component.parented_mode", effect_components, parented_mode, "")                \
    CX("char.frozen_model", characters,                                                            \
       "CASE frozen_model_id WHEN 0 THEN '00000000 (none)' WHEN 4294967295 THEN "                  \
       "'FFFFFFFF (none)' ELSE 'an asset' END",                                                    \
       "frozen_model_id IS NOT NULL",                                                              \
       "CASE frozen_model_id WHEN 0 THEN 0 WHEN 4294967295 THEN 1 ELSE 2 END")                     \
    CX("char.frozen_skin", characters,                                                             \
       "CASE frozen_skin_id WHEN 0 THEN '00000000 (none)' WHEN 4294967295 THEN "                   \
       "'FFFFFFFF (none)' ELSE 'an asset' END",                                                    \
       "frozen_skin_id IS NOT NULL",                                                               \
       "CASE frozen_skin_id WHEN 0 THEN 0 WHEN 4294967295 THEN 1 ELSE 2 END")                      \
    CX("pas.magic", characters, "pas_magic", "", "pas_magic")                                      \
    CV("pas.state.type", pas_states, state_type, "")                                               \
    CX("pas.state.parm_count", pas_states, "CASE WHEN parm_count > 8 THEN '> 8' ELSE '<= 8' END",  \
       "", "parm_count > 8")                                                                       \
    CV("pas.parm.type", pas_parms, parm_type, "")                                                  \
    CV("pas.parm.weight_function", pas_parms, weight_function, "")                                 \
    CV("animset.version", ancs, animset_version, "")                                               \
    CV("transition.unknown_id", transitions, unknown_id, "")                                       \
    CV("metaanim.blend.unknown_flag", meta_anim_nodes, unknown_flag, "type IN (1, 2)")             \
    CX("metaanim.random.probability_pattern", meta_anim_nodes, "prob_pattern", "type = 3",         \
       "prob_pattern")                                                                             \
    CV("metaanim.play.start_time.type", meta_anim_nodes, start_time_type, "type = 0")              \
    CV("metatrans.type", census_mt, t, "")                                                         \
    CV("metatrans.unknown_flag", census_mt, unknown_flag, "t IN (1, 2)")                           \
    CV("metatrans.run_a", census_mt, run_a, "t IN (1, 2)")                                         \
    CX("metatrans.flags", census_mt, "printf('0x%08X', flags)", "t IN (1, 2)", "flags")            \
    CV("metatrans.duration.type", census_mt, duration_type, "t IN (1, 2)")                         \
    CV("evnt.version", evnt, version, "")                                                          \
    CV("evnt.embedded.version", event_sets, version, "")                                           \
    CX("evnt.embedded.count_vs_animations", ancs,                                                  \
       "CASE WHEN event_set_count = animation_count THEN 'equal' WHEN event_set_count > "          \
       "animation_count THEN 'more sets than animations' ELSE 'fewer sets than animations' END",   \
       "event_set_count IS NOT NULL",                                                              \
       "CASE WHEN event_set_count = animation_count THEN 0 WHEN event_set_count > "                \
       "animation_count THEN 1 ELSE 2 END")                                                        \
    CV("poi.unknown_u16", census_ev, unknown_u16, "")                                                 \
    CX("poi.index", census_ev, "CAST(\"index\" AS TEXT)", "", "\"index\"")                              \
    CX("poi.unique", census_ev, "CAST(\"unique\" AS TEXT)", "", "\"unique\"")                           \
    CX("poi.flags", census_ev, "printf('0x%08X', flags)", "", "flags")                                \
    CX("poi.type per kind", census_ev, "kind || ':' || poi_type", "", "kind, poi_type")               \
    CX("poi.sound.id_high_bits", census_ev, "printf('0x%08X', sound_id & 4294901760)",                \
       "kind = 'sound'", "sound_id & 4294901760")                                                  \
    CV("poi.sound.echoes_unknown_a", census_ev, echoes_unknown_a, "echoes_unknown_a IS NOT NULL")     \
    CV("poi.sound.echoes_unknown_b", census_ev, echoes_unknown_b, "echoes_unknown_b IS NOT NULL")     \
    CV("poi.sound.echoes_unknown_c", census_ev, echoes_unknown_c, "echoes_unknown_c IS NOT NULL")     \
    CV("poi.sound.echoes_unknown_d", census_ev, echoes_unknown_d, "echoes_unknown_d IS NOT NULL")     \
    CV("poi.particle.duration", census_ev, duration, "kind = 'particle'")                             \
    CV("poi.particle.parented_mode", census_ev, parented_mode, "kind = 'particle'")

/* The same for the MLVL and STRG contents, counted by db/census/census.sql.in. */
#define DB_CENSUS_WORLD_FIELDS(CV, CX)                                                             \
    CX("mlvl.version", mlvl_worlds, "printf('0x%X', version)", "", "version")                      \
    CV("mlvl.unknown_after_area_count", mlvl_worlds, unknown_after_area_count,                     \
       "unknown_after_area_count IS NOT NULL")                                                     \
    CV("mlvl.script_layer_header", mlvl_worlds, script_layer_header, "")                           \
    CV("mlvl.script_instance_count", mlvl_worlds, script_instance_count, "")                       \
    CX("mlvl.unknown_string", mlvl_worlds,                                                         \
       "CASE WHEN unknown_string = '' THEN '(empty)' ELSE unknown_string END",                     \
       "unknown_string IS NOT NULL", "unknown_string")                                             \
    CX("mlvl.padding", mlvl_worlds, "CASE WHEN trailing_len = 0 THEN 'none' ELSE 'present' END",   \
       "", "trailing_len = 0")                                                                     \
    CV("area.unknown", mlvl_areas, unknown, "")                                                    \
    CX("area.layer_flags.unused_bits", mlvl_areas,                                                 \
       "CASE WHEN layer_count >= 64 THEN 'none unused' WHEN (layer_flags | ((1 << layer_count) "   \
       "- 1)) = -1 THEN 'all set' ELSE 'not all set' END",                                         \
       "", "4")                                                                                    \
    CV("area.dock.coordinate_count", area_dock_links, coordinate_count, "link_index = 0")          \
    CV("strg.version", strg, version, "")                                                          \
    CX("strg.first_language", strg, "substr(languages, 1, 4)", "", "substr(languages, 1, 4)")
// clang-format on

#endif
