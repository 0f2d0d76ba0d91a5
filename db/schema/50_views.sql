-- Views for people: every table holding asset IDs, with each ID printed as 8 upper-case hex
-- digits and its name beside it (`<column>_name`, from asset_label), the owning character's
-- name (`character`) and enumerated fields labelled (`<column>_label`, from 40_labels.sql).
-- Hex columns compare case-insensitively (COLLATE NOCASE), so `WHERE ancs = '1a2b3c4d'` and
-- `WHERE ancs = '1A2B3C4D'` both match; they are text, not indexed: for large databases
-- filter the tables on the integer columns instead (`ancs_id = 0x1A2B3C4D`).
-- Views over v_characters, v_asset_refs, v_pak_entries, v_events, v_load_errors: 10_core.sql.

-- A PAK's named resources.
CREATE VIEW v_pak_names AS
SELECT p.game,
       p.path,
       t.seq,
       t.name,
       t.type,
       printf('%08X', t.asset_id) COLLATE NOCASE AS asset,
       n1.label AS asset_name
FROM pak_names t
JOIN paks p ON p.pak_id = t.pak_id
LEFT JOIN asset_label n1 ON n1.asset_id = t.asset_id;

-- Every distinct asset of each game.
CREATE VIEW v_assets AS
SELECT t.game,
       t.type,
       printf('%08X', t.asset_id) COLLATE NOCASE AS asset,
       n1.label AS asset_name,
       t.copies,
       t.pak_count
FROM assets t
LEFT JOIN asset_label n1 ON n1.asset_id = t.asset_id;

-- Each distinct content of an ANCS/EVNT (decoded once) and the releases holding it.
CREATE VIEW v_decoded AS
SELECT t.game,
       t.type,
       printf('%08X', t.asset_id) COLLATE NOCASE AS asset,
       n1.label AS asset_name,
       t.content_id,
       (SELECT group_concat(release, ', ') FROM (SELECT DISTINCT v.release
        FROM v_content_releases v WHERE v.content_id = t.content_id ORDER BY v.release))
           AS releases,
       t.size,
       t.status
FROM contents t
LEFT JOIN asset_label n1 ON n1.asset_id = t.asset_id;

-- Decoded ANCS, with the default transition's type and time type labelled.
CREATE VIEW v_ancs AS
SELECT t.game,
       printf('%08X', t.asset_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.ancs_version,
       t.charset_version,
       t.character_count,
       t.animset_version,
       t.animation_count,
       t.transition_count,
       t.additive_count,
       t.half_transition_count,
       t.resource_pair_count,
       t.event_set_count,
       t.default_trans_type,
       l2.label AS default_trans_type_label,
       t.default_trans_duration,
       t.default_trans_duration_type,
       l3.label AS default_trans_duration_type_label,
       t.default_trans_unknown_flag,
       t.default_trans_run_a,
       t.default_trans_flags,
       t.size,
       t.trailing_len
FROM ancs t
LEFT JOIN asset_label n1 ON n1.asset_id = t.asset_id
LEFT JOIN label_meta_trans_type l2 ON l2.value = t.default_trans_type
LEFT JOIN label_time_type l3 ON l3.value = t.default_trans_duration_type;

-- Each character's animation-name list.
CREATE VIEW v_character_anims AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.char_index,
       c.name AS character,
       t.seq,
       t.anim_id,
       t.name,
       t.anim_index,
       t.unknown
FROM character_anims t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id
LEFT JOIN characters c ON c.game = t.game AND c.ancs_id = t.ancs_id
                      AND c.content_id = t.content_id AND c.char_index = t.char_index;

-- Each character's animation ID map.
CREATE VIEW v_anim_id_map AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.char_index,
       c.name AS character,
       t.anim_id,
       t.anim_index
FROM anim_id_map t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id
LEFT JOIN characters c ON c.game = t.game AND c.ancs_id = t.ancs_id
                      AND c.content_id = t.content_id AND c.char_index = t.char_index;

-- Particles listed by characters (resource lists and effect components).
CREATE VIEW v_particle_refs AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.char_index,
       c.name AS character,
       t.source,
       t.list,
       t.seq,
       t.effect_index,
       t.particle_type,
       printf('%08X', t.particle_id) COLLATE NOCASE AS particle,
       n2.label AS particle_name
FROM particle_refs t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id
LEFT JOIN characters c ON c.game = t.game AND c.ancs_id = t.ancs_id
                      AND c.content_id = t.content_id AND c.char_index = t.char_index
LEFT JOIN asset_label n2 ON n2.asset_id = t.particle_id;

-- PAS anim states, with their EAnimationState label.
CREATE VIEW v_pas_states AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.char_index,
       c.name AS character,
       t.state_index,
       t.state_type,
       l2.label AS state_type_label,
       t.parm_count,
       t.anim_info_count
FROM pas_states t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id
LEFT JOIN characters c ON c.game = t.game AND c.ancs_id = t.ancs_id
                      AND c.content_id = t.content_id AND c.char_index = t.char_index
LEFT JOIN label_anim_state l2 ON l2.value = t.state_type;

-- PAS parameter infos, with parm type and weight function labelled.
CREATE VIEW v_pas_parms AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.char_index,
       c.name AS character,
       t.state_index,
       t.parm_index,
       t.parm_type,
       l2.label AS parm_type_label,
       t.weight_function,
       l3.label AS weight_function_label,
       t.weight,
       t.min_value,
       t.max_value,
       t.min_raw,
       t.max_raw
FROM pas_parms t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id
LEFT JOIN characters c ON c.game = t.game AND c.ancs_id = t.ancs_id
                      AND c.content_id = t.content_id AND c.char_index = t.char_index
LEFT JOIN label_parm_type l2 ON l2.value = t.parm_type
LEFT JOIN label_weight_function l3 ON l3.value = t.weight_function;

-- PAS anim infos.
CREATE VIEW v_pas_anim_infos AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.char_index,
       c.name AS character,
       t.state_index,
       t.info_index,
       t.anim_id
FROM pas_anim_infos t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id
LEFT JOIN characters c ON c.game = t.game AND c.ancs_id = t.ancs_id
                      AND c.content_id = t.content_id AND c.char_index = t.char_index;

-- PAS parameter values.
CREATE VIEW v_pas_values AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.char_index,
       c.name AS character,
       t.state_index,
       t.info_index,
       t.parm_index,
       t.value,
       t.raw
FROM pas_values t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id
LEFT JOIN characters c ON c.game = t.game AND c.ancs_id = t.ancs_id
                      AND c.content_id = t.content_id AND c.char_index = t.char_index;

-- Per-animation bounding boxes.
CREATE VIEW v_anim_aabbs AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.char_index,
       c.name AS character,
       t.seq,
       t.name,
       t.min_x,
       t.min_y,
       t.min_z,
       t.max_x,
       t.max_y,
       t.max_z
FROM anim_aabbs t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id
LEFT JOIN characters c ON c.game = t.game AND c.ancs_id = t.ancs_id
                      AND c.content_id = t.content_id AND c.char_index = t.char_index;

-- MP2 indexed bounding boxes.
CREATE VIEW v_indexed_aabbs AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.char_index,
       c.name AS character,
       t.seq,
       t.anim_id,
       t.min_x,
       t.min_y,
       t.min_z,
       t.max_x,
       t.max_y,
       t.max_z
FROM indexed_aabbs t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id
LEFT JOIN characters c ON c.game = t.game AND c.ancs_id = t.ancs_id
                      AND c.content_id = t.content_id AND c.char_index = t.char_index;

-- Character effects.
CREATE VIEW v_effects AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.char_index,
       c.name AS character,
       t.effect_index,
       t.name,
       t.component_count
FROM effects t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id
LEFT JOIN characters c ON c.game = t.game AND c.ancs_id = t.ancs_id
                      AND c.content_id = t.content_id AND c.char_index = t.char_index;

-- Effect components, with the parented mode labelled.
CREATE VIEW v_effect_components AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.char_index,
       c.name AS character,
       t.effect_index,
       t.comp_index,
       t.name,
       t.particle_type,
       CASE WHEN t.particle_id IS NULL THEN NULL ELSE printf('%08X', t.particle_id) END
           COLLATE NOCASE AS particle,
       n2.label AS particle_name,
       t.bone_name,
       t.bone_id,
       t.scale,
       t.parented_mode,
       l3.label AS parented_mode_label,
       t.flags
FROM effect_components t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id
LEFT JOIN characters c ON c.game = t.game AND c.ancs_id = t.ancs_id
                      AND c.content_id = t.content_id AND c.char_index = t.char_index
LEFT JOIN asset_label n2 ON n2.asset_id = t.particle_id
LEFT JOIN label_parented_mode l3 ON l3.value = t.parented_mode;

-- The animation set's animations, with the root meta-animation type labelled.
CREATE VIEW v_animations AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.anim_index,
       t.name,
       t.meta_type,
       l2.label AS meta_type_label,
       t.depth
FROM animations t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id
LEFT JOIN label_meta_anim_type l2 ON l2.value = t.meta_type;

-- Every meta-animation node, with its type and start-time type labelled.
CREATE VIEW v_meta_anim_nodes AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.owner,
       t.owner_index,
       t.seq,
       t.parent_seq,
       t.child_pos,
       t.path,
       t.depth,
       t.type,
       l2.label AS type_label,
       CASE WHEN t.anim_asset_id IS NULL THEN NULL ELSE printf('%08X', t.anim_asset_id) END
           COLLATE NOCASE AS anim,
       n3.label AS anim_name,
       t.primitive_id,
       t.primitive_name,
       t.start_time,
       t.start_time_type,
       l4.label AS start_time_type_label,
       t.blend_weight,
       t.unknown_flag,
       t.child_count,
       t.probability,
       t.prob_pattern
FROM meta_anim_nodes t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id
LEFT JOIN label_meta_anim_type l2 ON l2.value = t.type
LEFT JOIN asset_label n3 ON n3.asset_id = t.anim_asset_id
LEFT JOIN label_time_type l4 ON l4.value = t.start_time_type;

-- Play nodes (primitives) in stream order.
CREATE VIEW v_anim_primitives AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.owner,
       t.owner_index,
       t.seq,
       CASE WHEN t.anim_asset_id IS NULL THEN NULL ELSE printf('%08X', t.anim_asset_id) END
           COLLATE NOCASE AS anim,
       n2.label AS anim_name,
       t.primitive_id,
       t.name,
       t.start_time,
       t.start_time_type,
       l3.label AS start_time_type_label
FROM anim_primitives t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id
LEFT JOIN asset_label n2 ON n2.asset_id = t.anim_asset_id
LEFT JOIN label_time_type l3 ON l3.value = t.start_time_type;

-- Transitions, with the meta-transition type labelled.
CREATE VIEW v_transitions AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.trans_index,
       t.unknown_id,
       t.anim_a,
       t.anim_b,
       t.trans_type,
       l2.label AS trans_type_label,
       t.duration,
       t.duration_type,
       l3.label AS duration_type_label,
       t.unknown_flag,
       t.run_a,
       t.flags
FROM transitions t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id
LEFT JOIN label_meta_trans_type l2 ON l2.value = t.trans_type
LEFT JOIN label_time_type l3 ON l3.value = t.duration_type;

-- Half transitions, with the meta-transition type labelled.
CREATE VIEW v_half_transitions AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.half_index,
       t.anim,
       t.trans_type,
       l2.label AS trans_type_label,
       t.duration,
       t.duration_type,
       l3.label AS duration_type_label,
       t.unknown_flag,
       t.run_a,
       t.flags
FROM half_transitions t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id
LEFT JOIN label_meta_trans_type l2 ON l2.value = t.trans_type
LEFT JOIN label_time_type l3 ON l3.value = t.duration_type;

-- Additive animations.
CREATE VIEW v_additive_animations AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.seq,
       t.anim_index,
       t.fade_in,
       t.fade_out
FROM additive_animations t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id;

-- MP1 ANIM -> EVNT resource pairs.
CREATE VIEW v_animation_resources AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.res_index,
       CASE WHEN t.anim_asset_id IS NULL THEN NULL ELSE printf('%08X', t.anim_asset_id) END
           COLLATE NOCASE AS anim,
       n2.label AS anim_name,
       CASE WHEN t.evnt_asset_id IS NULL THEN NULL ELSE printf('%08X', t.evnt_asset_id) END
           COLLATE NOCASE AS evnt,
       n3.label AS evnt_name
FROM animation_resources t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id
LEFT JOIN asset_label n2 ON n2.asset_id = t.anim_asset_id
LEFT JOIN asset_label n3 ON n3.asset_id = t.evnt_asset_id;

-- Decoded MP1 EVNT resources.
CREATE VIEW v_evnt AS
SELECT t.game,
       printf('%08X', t.asset_id) COLLATE NOCASE AS evnt,
       n1.label AS evnt_name,
       t.version,
       t.bool_count,
       t.int32_count,
       t.particle_count,
       t.sound_count,
       t.size,
       t.trailing_len
FROM evnt t
LEFT JOIN asset_label n1 ON n1.asset_id = t.asset_id;

-- MP2 event sets embedded in an ANCS.
CREATE VIEW v_event_sets AS
SELECT t.game,
       printf('%08X', t.ancs_id) COLLATE NOCASE AS ancs,
       n1.label AS ancs_name,
       t.anim_index,
       t.version,
       t.bool_count,
       t.int32_count,
       t.particle_count,
       t.sound_count
FROM event_sets t
LEFT JOIN asset_label n1 ON n1.asset_id = t.ancs_id;

-- Decoder and ingest warnings.
CREATE VIEW v_warnings AS
SELECT t.game,
       t.type,
       CASE WHEN t.asset_id IS NULL THEN NULL ELSE printf('%08X', t.asset_id) END
           COLLATE NOCASE AS asset,
       n1.label AS asset_name,
       t.byte_offset,
       t.code,
       t.message,
       p.path AS pak
FROM warnings t
LEFT JOIN paks p ON p.pak_id = t.pak_id
LEFT JOIN asset_label n1 ON n1.asset_id = t.asset_id;

-- Every name of every asset, by source ('pak' or a map's file name); asset_name = the one shown.
CREATE VIEW v_asset_names AS
SELECT printf('%08X', t.asset_id) COLLATE NOCASE AS asset,
       n1.label AS asset_name,
       t.type,
       t.name,
       t.directory,
       t.source,
       t.auto_name,
       t.auto_dir
FROM asset_names t
LEFT JOIN asset_label n1 ON n1.asset_id = t.asset_id;
