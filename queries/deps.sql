-- Every asset a character reaches by the reach rules, one row per (character, asset) with its path (via) and names
-- param: ANCS_ID — the ANCS: its asset ID (0x1A2B3C4D, 1A2B3C4D or decimal) or its name
-- param: CHAR_INDEX? — optional: one character's position in the set (every character when absent)
--
-- The reach rules of CONTRACT.md "How a character reaches an asset", read from the decoded
-- tables (not from asset_refs), so that `via` can spell the path:
--   1. own fields (characters.model_id ... cspp_id);
--   2. particle lists and effect components (particle_refs, effects, effect_components);
--   3. the animations it uses (character_anims.anim_index, resolved at ingest through the
--      ID map from version 5), every ANIM of their Play nodes (anim_primitives), in MP1 each
--      ANIM's EVNT from the first resource pair naming that ANIM (animation_resources);
--   4. particle nodes (events) of those EVNTs (MP1) or of the embedded event set of the same
--      index (MP2) whose char_index is -1 or the character's position.
-- Every step inside the ANCS is computed once per ANCS content at ingest into char_reach
-- (db/rows_ancs.c, from the decoded set: these rules). The step out of it, the
-- particle nodes of an MP1 ANIM's EVNT (after the char_reach rows of rule 4 with k3 = 1), is
-- joined here from events, so the EVNTs the corpus holds now are the ones read.
-- IDs 0 and FFFFFFFF mean "none" and are left out. One row per (character, dst_type, dst_id):
-- `via` is the first path in rule order, `paths` how many distinct paths reach it; with
-- `ancsdb query deps --all-paths` (which makes the TEMP view opt_all_paths, db_scope_flag)
-- one row per path, each with that count.
-- Rows of one ANCS are matched by content_id too (each distinct content of an ANCS is decoded
-- once; two releases may hold two contents): a row alike in every shown column in two
-- contents appears once, rows that differ (a renamed character, another path) once per
-- content. CROSS JOINs keep SQLite walking from the few characters asked for into
-- char_reach and events by their keys; `ch` is NOT MATERIALIZED for the same reason.
WITH ch AS NOT MATERIALIZED (
    SELECT * FROM characters
    WHERE ancs_id = ?1 AND (?2 IS NULL OR char_index = ?2)
),
base AS (
    SELECT r.game, r.ancs_id, r.content_id, r.char_index, ch.name AS character, r.rule, r.k1,
           r.k2, r.k3, r.dst_type, r.dst_id, r.via
    FROM ch CROSS JOIN char_reach r
         ON r.game = ch.game AND r.ancs_id = ch.ancs_id AND r.content_id = ch.content_id
        AND r.char_index = ch.char_index
),
reach(game, ancs_id, content_id, char_index, character, rule, k1, k2, k3, dst_type, dst_id,
      via) AS (
    SELECT * FROM base
    UNION ALL
    SELECT v.game, v.ancs_id, v.content_id, v.char_index, v.character, 4, v.k1, v.k2,
           2 + e.node_index,
           e.particle_type, e.particle_id,
           v.via || ' > EVNT ' || printf('%08X', v.dst_id) || ' > particle node '
               || e.node_index || ifnull(' ''' || e.name || '''', '')
    FROM base v
    CROSS JOIN events e ON e.game = v.game AND e.owner_type = 'EVNT' AND e.owner_id = v.dst_id
    WHERE v.game = 'MP1' AND v.rule = 4 AND v.k3 = 1 AND v.dst_type = 'EVNT'
      AND e.kind = 'particle' AND (e.char_index = -1 OR e.char_index = v.char_index)
),
ranked AS (
    SELECT r.*,
           row_number() OVER (PARTITION BY game, ancs_id, content_id, char_index,
                                           ifnull(dst_type, ''), dst_id
                              ORDER BY rule, k1, k2, k3) AS nth,
           count(*) OVER (PARTITION BY game, ancs_id, content_id, char_index,
                                       ifnull(dst_type, ''), dst_id) AS paths
    FROM (SELECT DISTINCT * FROM reach WHERE dst_id NOT IN (0, 4294967295)) r
),
-- rows identical in every column shown (the same path in two contents of the ANCS) appear
-- once, at the place of their first content
once AS (
    SELECT s.*,
           row_number() OVER (PARTITION BY game, ancs_id, char_index, character,
                                           ifnull(dst_type, ''), dst_id, via, paths
                              ORDER BY content_id, rule, k1, k2, k3) AS copy
    FROM ranked s
    WHERE s.nth = 1
       OR EXISTS (SELECT 1 FROM temp.sqlite_master WHERE type = 'view' AND name = 'opt_all_paths')
)
SELECT o.game,
       o.ancs_id,
       (SELECT al.label FROM asset_label al WHERE al.asset_id = ?1) AS ancs_id_name,
       o.char_index,
       o.character,
       o.dst_type,
       o.dst_id,
       l.label AS dst_id_name,
       o.via,
       o.paths
FROM once o
LEFT JOIN asset_label l ON l.asset_id = o.dst_id
WHERE o.copy = 1
ORDER BY o.game, o.ancs_id, o.char_index, o.content_id, o.rule, o.k1, o.k2, o.k3, o.dst_id;
