-- The census of every field known only as "unknown" (FORMATS.md section 6): one row per
-- (game, field, value) with the number of occurrences across the corpus. Read by the named
-- queries unknown-census and unknown-census-summary through the view unknown_census, which
-- reads the table census: the ingest's final pass refills it from unknown_census_source
-- (about 70 aggregate scans: 5 s at 10x when a query ran them, 2 ms from the table).
CREATE TABLE census (
    game TEXT,                       -- 'MP1' / 'MP2' ('?' for a warning of no game)
    field TEXT NOT NULL,             -- e.g. 'char.unknown_a'
    value TEXT,                      -- the value as text
    count INTEGER NOT NULL           -- occurrences
);
CREATE VIEW unknown_census(game, field, value, count) AS
SELECT game, field, value, count FROM census;

-- What census holds, computed from the decoded tables. The pak_entries counts are taken per
-- PAK first, and the per-asset ones join pak_entries from paks: scanning the entries in
-- their key order (SQLite otherwise walked an index and looked up every entry's row); "all
-- copies alike" is min = max (count(DISTINCT) kept a temporary index per asset).
CREATE VIEW unknown_census_source(game, field, value, count) AS
SELECT game, 'pak.header.unused' AS field, printf('0x%08X', header_unused) AS value,
       count(*) AS count
FROM paks WHERE status = 'ok' GROUP BY game, header_unused
UNION ALL
SELECT p.game, 'pak.entry.compressed', CAST(x.compressed AS TEXT), sum(x.n)
FROM (SELECT pak_id, compressed, count(*) AS n FROM pak_entries GROUP BY pak_id, compressed) x
JOIN paks p USING (pak_id) GROUP BY p.game, x.compressed
UNION ALL
SELECT game, 'pak.duplicate_copies_identical',
       CASE WHEN n = 1 THEN 'identical' ELSE 'differ' END, count(*)
FROM (SELECT p.game, e.asset_id,
             CASE WHEN min(e.content_hash) = max(e.content_hash) THEN 1 ELSE 2 END AS n
      FROM paks p CROSS JOIN pak_entries e ON e.pak_id = p.pak_id
      WHERE e.content_hash IS NOT NULL
      GROUP BY p.game, e.asset_id HAVING count(*) > 1)
GROUP BY game, n = 1
UNION ALL
SELECT game, 'pak.duplicate_compressed_flag',
       CASE WHEN n = 1 THEN 'same' ELSE 'differs' END, count(*)
FROM (SELECT p.game, e.asset_id,
             CASE WHEN min(e.compressed <> 0) = max(e.compressed <> 0) THEN 1 ELSE 2 END AS n
      FROM paks p CROSS JOIN pak_entries e ON e.pak_id = p.pak_id
      GROUP BY p.game, e.asset_id HAVING count(*) > 1)
GROUP BY game, n = 1
UNION ALL
SELECT game, 'ancs.version', CAST(ancs_version AS TEXT), count(*) FROM ancs
GROUP BY game, ancs_version
UNION ALL
SELECT game, 'charset.version', CAST(charset_version AS TEXT), count(*) FROM ancs
GROUP BY game, charset_version
UNION ALL
SELECT game, 'char.version', CAST(version AS TEXT), count(*) FROM characters
GROUP BY game, version
UNION ALL
SELECT game, 'char.unknown_a', CAST(unknown_a AS TEXT), count(*) FROM characters
GROUP BY game, unknown_a
UNION ALL
SELECT game, 'char.unknown_b', CAST(unknown_b AS TEXT), count(*) FROM characters
WHERE unknown_b IS NOT NULL GROUP BY game, unknown_b
UNION ALL
SELECT game, 'char.unknown_c', CAST(unknown_c AS TEXT), count(*) FROM characters
WHERE unknown_c IS NOT NULL GROUP BY game, unknown_c
UNION ALL
SELECT game, 'char.particles.third_list.count', CAST(third_list_count AS TEXT), count(*)
FROM characters WHERE third_list_count IS NOT NULL GROUP BY game, third_list_count
UNION ALL
SELECT game, 'char.anim_name.unknown_string',
       CASE WHEN unknown = '' THEN '(empty)' ELSE unknown END, count(*)
FROM character_anims WHERE unknown IS NOT NULL GROUP BY game, unknown
UNION ALL
SELECT game, 'char.indexed_aabb.anim_id',
       CASE WHEN anim_id = seq THEN 'equals position' ELSE 'differs from position' END,
       count(*)
FROM indexed_aabbs GROUP BY game, anim_id = seq
UNION ALL
SELECT game, 'char.effect_component.flags', printf('0x%08X', flags), count(*)
FROM effect_components GROUP BY game, flags
UNION ALL
SELECT game, 'char.effect_component.parented_mode', CAST(parented_mode AS TEXT), count(*)
FROM effect_components GROUP BY game, parented_mode
UNION ALL
SELECT game, 'char.frozen_model', CASE frozen_model_id WHEN 0 THEN '00000000 (none)'
       WHEN 4294967295 THEN 'FFFFFFFF (none)' ELSE 'an asset' END, count(*)
FROM characters WHERE frozen_model_id IS NOT NULL
GROUP BY game, CASE frozen_model_id WHEN 0 THEN 0 WHEN 4294967295 THEN 1 ELSE 2 END
UNION ALL
SELECT game, 'char.frozen_skin', CASE frozen_skin_id WHEN 0 THEN '00000000 (none)'
       WHEN 4294967295 THEN 'FFFFFFFF (none)' ELSE 'an asset' END, count(*)
FROM characters WHERE frozen_skin_id IS NOT NULL
GROUP BY game, CASE frozen_skin_id WHEN 0 THEN 0 WHEN 4294967295 THEN 1 ELSE 2 END
UNION ALL
SELECT game, 'pas.magic', pas_magic, count(*) FROM characters GROUP BY game, pas_magic
UNION ALL
SELECT game, 'pas.state.type', CAST(state_type AS TEXT), count(*) FROM pas_states
GROUP BY game, state_type
UNION ALL
SELECT game, 'pas.state.parm_count', CASE WHEN parm_count > 8 THEN '> 8' ELSE '<= 8' END,
       count(*)
FROM pas_states GROUP BY game, parm_count > 8
UNION ALL
SELECT game, 'pas.parm.type', CAST(parm_type AS TEXT), count(*) FROM pas_parms
GROUP BY game, parm_type
UNION ALL
SELECT game, 'pas.parm.weight_function', CAST(weight_function AS TEXT), count(*)
FROM pas_parms GROUP BY game, weight_function
UNION ALL
SELECT game, 'animset.version', CAST(animset_version AS TEXT), count(*) FROM ancs
GROUP BY game, animset_version
UNION ALL
SELECT game, 'transition.unknown_id', CAST(unknown_id AS TEXT), count(*) FROM transitions
GROUP BY game, unknown_id
UNION ALL
SELECT game, 'metaanim.blend.unknown_flag', CAST(unknown_flag AS TEXT), count(*)
FROM meta_anim_nodes WHERE type IN (1, 2) GROUP BY game, unknown_flag
UNION ALL
SELECT game, 'metaanim.random.probability_pattern', prob_pattern, count(*)
FROM meta_anim_nodes WHERE type = 3 GROUP BY game, prob_pattern
UNION ALL
SELECT game, 'metaanim.play.start_time.type', CAST(start_time_type AS TEXT), count(*)
FROM meta_anim_nodes WHERE type = 0 GROUP BY game, start_time_type
UNION ALL
SELECT game, 'metatrans.type', CAST(t AS TEXT), count(*) FROM (
    SELECT game, trans_type AS t FROM transitions
    UNION ALL SELECT game, trans_type FROM half_transitions
    UNION ALL SELECT game, default_trans_type FROM ancs) GROUP BY game, t
UNION ALL
SELECT game, 'metatrans.unknown_flag', CAST(f AS TEXT), count(*) FROM (
    SELECT game, unknown_flag AS f FROM transitions WHERE trans_type IN (1, 2)
    UNION ALL SELECT game, unknown_flag FROM half_transitions WHERE trans_type IN (1, 2)
    UNION ALL SELECT game, default_trans_unknown_flag FROM ancs
              WHERE default_trans_type IN (1, 2)) GROUP BY game, f
UNION ALL
SELECT game, 'metatrans.run_a', CAST(f AS TEXT), count(*) FROM (
    SELECT game, run_a AS f FROM transitions WHERE trans_type IN (1, 2)
    UNION ALL SELECT game, run_a FROM half_transitions WHERE trans_type IN (1, 2)
    UNION ALL SELECT game, default_trans_run_a FROM ancs
              WHERE default_trans_type IN (1, 2)) GROUP BY game, f
UNION ALL
SELECT game, 'metatrans.flags', printf('0x%08X', f), count(*) FROM (
    SELECT game, flags AS f FROM transitions WHERE trans_type IN (1, 2)
    UNION ALL SELECT game, flags FROM half_transitions WHERE trans_type IN (1, 2)
    UNION ALL SELECT game, default_trans_flags FROM ancs
              WHERE default_trans_type IN (1, 2)) GROUP BY game, f
UNION ALL
SELECT game, 'metatrans.duration.type', CAST(f AS TEXT), count(*) FROM (
    SELECT game, duration_type AS f FROM transitions WHERE trans_type IN (1, 2)
    UNION ALL SELECT game, duration_type FROM half_transitions WHERE trans_type IN (1, 2)
    UNION ALL SELECT game, default_trans_duration_type FROM ancs
              WHERE default_trans_type IN (1, 2)) GROUP BY game, f
UNION ALL
SELECT game, 'evnt.version', CAST(version AS TEXT), count(*) FROM evnt
GROUP BY game, version
UNION ALL
SELECT game, 'evnt.embedded.version', CAST(version AS TEXT), count(*) FROM event_sets
GROUP BY game, version
UNION ALL
SELECT game, 'evnt.embedded.count_vs_animations',
       CASE WHEN event_set_count = animation_count THEN 'equal'
            WHEN event_set_count > animation_count THEN 'more sets than animations'
            ELSE 'fewer sets than animations' END, count(*)
FROM ancs WHERE event_set_count IS NOT NULL
GROUP BY game, CASE WHEN event_set_count = animation_count THEN 0
                   WHEN event_set_count > animation_count THEN 1 ELSE 2 END
UNION ALL
SELECT game, 'poi.unknown_u16', CAST(unknown_u16 AS TEXT), count(*) FROM events
GROUP BY game, unknown_u16
UNION ALL
SELECT game, 'poi.index', CAST("index" AS TEXT), count(*) FROM events
GROUP BY game, "index"
UNION ALL
SELECT game, 'poi.unique', CAST("unique" AS TEXT), count(*) FROM events
GROUP BY game, "unique"
UNION ALL
SELECT game, 'poi.flags', printf('0x%08X', flags), count(*) FROM events
GROUP BY game, flags
UNION ALL
SELECT game, 'poi.type per kind', kind || ':' || poi_type, count(*) FROM events
GROUP BY game, kind, poi_type
UNION ALL
SELECT game, 'poi.sound.id_high_bits', printf('0x%08X', sound_id & 4294901760), count(*)
FROM events WHERE kind = 'sound' GROUP BY game, sound_id & 4294901760
UNION ALL
SELECT game, 'poi.sound.echoes_unknown_a', CAST(echoes_unknown_a AS TEXT), count(*)
FROM events WHERE echoes_unknown_a IS NOT NULL GROUP BY game, echoes_unknown_a
UNION ALL
SELECT game, 'poi.sound.echoes_unknown_b', CAST(echoes_unknown_b AS TEXT), count(*)
FROM events WHERE echoes_unknown_b IS NOT NULL GROUP BY game, echoes_unknown_b
UNION ALL
SELECT game, 'poi.sound.echoes_unknown_c', CAST(echoes_unknown_c AS TEXT), count(*)
FROM events WHERE echoes_unknown_c IS NOT NULL GROUP BY game, echoes_unknown_c
UNION ALL
SELECT game, 'poi.sound.echoes_unknown_d', CAST(echoes_unknown_d AS TEXT), count(*)
FROM events WHERE echoes_unknown_d IS NOT NULL GROUP BY game, echoes_unknown_d
UNION ALL
SELECT game, 'poi.particle.duration', CAST(duration AS TEXT), count(*) FROM events
WHERE kind = 'particle' GROUP BY game, duration
UNION ALL
SELECT game, 'poi.particle.parented_mode', CAST(parented_mode AS TEXT), count(*)
FROM events WHERE kind = 'particle' GROUP BY game, parented_mode
UNION ALL
SELECT ifnull(game, '?'), 'warning.' || code, type, count(*) FROM warnings
GROUP BY game, code, type;
