-- Every asset a character reaches by the reach rules, one row per (character, asset) with its path (via) and names
-- param: ANCS_ID — the ANCS asset ID (0x1A2B3C4D, 1A2B3C4D or decimal)
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
-- IDs 0 and FFFFFFFF mean "none" and are left out. One row per (character, dst_type, dst_id):
-- `via` is the first path in rule order, `paths` how many distinct paths reach it.
-- Rows of one ANCS are matched by content_id too (each distinct content of an ANCS is decoded
-- once; two releases may hold two contents): a row alike in every shown column in two
-- contents appears once, rows that differ (a renamed character, another path) once per
-- content. Tables joined here (each keyed by game, owner and content): characters,
-- particle_refs, effects, effect_components, character_anims, anim_primitives,
-- animation_resources, events,
-- asset_label. CROSS JOINs keep SQLite walking from the few characters asked for into the
-- big tables by their (game, ancs_id, ...) keys. `ch` is NOT MATERIALIZED and each ANIM's
-- EVNT is a subquery: a materialised `ch` or a join to animation_resources made SQLite build
-- Bloom filters, each a scan of a whole table (10x: 80 ms, now ~1 ms).
WITH ch AS NOT MATERIALIZED (
    SELECT * FROM characters
    WHERE ancs_id = ?1 AND (?2 IS NULL OR char_index = ?2)
),
own(game, ancs_id, content_id, char_index, k, dst_type, dst_id, via) AS (
    SELECT game, ancs_id, content_id, char_index, 1, 'CMDL', model_id, 'model' FROM ch
    UNION ALL SELECT game, ancs_id, content_id, char_index, 2, 'CSKR', skin_id, 'skin' FROM ch
    UNION ALL SELECT game, ancs_id, content_id, char_index, 3, 'CINF', skeleton_id, 'skeleton'
              FROM ch
    UNION ALL SELECT game, ancs_id, content_id, char_index, 4, 'CMDL', frozen_model_id,
              'frozen_model' FROM ch
    UNION ALL SELECT game, ancs_id, content_id, char_index, 5, 'CSKR', frozen_skin_id,
              'frozen_skin' FROM ch
    UNION ALL SELECT game, ancs_id, content_id, char_index, 6, 'CSPP', cspp_id, 'cspp' FROM ch
),
-- the animation-set entries each character uses
used AS (
    SELECT DISTINCT a.game, a.ancs_id, a.content_id, a.char_index, a.anim_index
    FROM ch CROSS JOIN character_anims a
         ON ch.game = a.game AND ch.ancs_id = a.ancs_id AND ch.content_id = a.content_id
        AND ch.char_index = a.char_index
    WHERE a.anim_index IS NOT NULL
),
-- the ANIMs of their Play nodes
anims AS (
    SELECT DISTINCT u.game, u.ancs_id, u.content_id, u.char_index, u.anim_index,
           p.anim_asset_id AS anim_id,
           min(p.seq) OVER (PARTITION BY u.game, u.ancs_id, u.content_id, u.char_index,
                                         u.anim_index, p.anim_asset_id) AS seq
    FROM used u
    CROSS JOIN anim_primitives p ON p.game = u.game AND p.ancs_id = u.ancs_id
                          AND p.content_id = u.content_id
                          AND p.owner = 'animation' AND p.owner_index = u.anim_index
    WHERE p.anim_asset_id NOT IN (0, 4294967295)
),
-- MP1: each ANIM's EVNT, from the first resource pair naming the ANIM
evnts AS (
    SELECT * FROM (
        SELECT n.*, (SELECT r.evnt_asset_id FROM animation_resources r
                     WHERE r.game = n.game AND r.ancs_id = n.ancs_id
                       AND r.content_id = n.content_id AND r.anim_asset_id = n.anim_id
                     ORDER BY r.res_index LIMIT 1) AS evnt_id
        FROM anims n
        WHERE n.game = 'MP1')
    WHERE evnt_id NOT IN (0, 4294967295)
),
reach(game, ancs_id, content_id, char_index, rule, k1, k2, k3, dst_type, dst_id, via) AS (
    SELECT game, ancs_id, content_id, char_index, 1, k, 0, 0, dst_type, dst_id, via
    FROM own WHERE dst_id IS NOT NULL
    UNION ALL
    SELECT p.game, p.ancs_id, p.content_id, p.char_index, 2,
           CASE p.list WHEN 'PART' THEN 0 WHEN 'SWHC' THEN 1 WHEN 'third_list' THEN 2
                       WHEN 'ELSC' THEN 3 ELSE 4 END, p.seq, 0,
           p.particle_type, p.particle_id, 'particles ' || p.list || ' ' || p.seq
    FROM ch CROSS JOIN particle_refs p
         ON ch.game = p.game AND ch.ancs_id = p.ancs_id AND ch.content_id = p.content_id
        AND ch.char_index = p.char_index
    WHERE p.source = 'particles'
    UNION ALL
    SELECT c.game, c.ancs_id, c.content_id, c.char_index, 3, c.effect_index, c.comp_index, 0,
           c.particle_type, c.particle_id,
           'effect ' || c.effect_index || ifnull(' ''' || e.name || '''', '') || ' > component '
               || c.comp_index || ifnull(' ''' || c.name || '''', '')
    FROM ch CROSS JOIN effect_components c
         ON ch.game = c.game AND ch.ancs_id = c.ancs_id AND ch.content_id = c.content_id
        AND ch.char_index = c.char_index
    LEFT JOIN effects e ON e.game = c.game AND e.ancs_id = c.ancs_id
                       AND e.content_id = c.content_id AND e.char_index = c.char_index
                       AND e.effect_index = c.effect_index
    UNION ALL
    SELECT game, ancs_id, content_id, char_index, 4, anim_index, seq, 0, 'ANIM', anim_id,
           'animation ' || anim_index
    FROM anims
    UNION ALL
    SELECT game, ancs_id, content_id, char_index, 4, anim_index, seq, 1, 'EVNT', evnt_id,
           'animation ' || anim_index || ' > ANIM ' || printf('%08X', anim_id)
    FROM evnts
    UNION ALL
    SELECT v.game, v.ancs_id, v.content_id, v.char_index, 4, v.anim_index, v.seq, 2 + e.node_index,
           e.particle_type, e.particle_id,
           'animation ' || v.anim_index || ' > ANIM ' || printf('%08X', v.anim_id) || ' > EVNT '
               || printf('%08X', v.evnt_id) || ' > particle node ' || e.node_index
               || ifnull(' ''' || e.name || '''', '')
    FROM evnts v
    CROSS JOIN events e ON e.game = v.game AND e.owner_type = 'EVNT' AND e.owner_id = v.evnt_id
    WHERE e.kind = 'particle' AND (e.char_index = -1 OR e.char_index = v.char_index)
    UNION ALL
    SELECT u.game, u.ancs_id, u.content_id, u.char_index, 4, u.anim_index, 1000000,
           2 + e.node_index,
           e.particle_type, e.particle_id,
           'animation ' || u.anim_index || ' > event set ' || u.anim_index || ' > particle node '
               || e.node_index || ifnull(' ''' || e.name || '''', '')
    FROM used u
    CROSS JOIN events e ON e.game = u.game AND e.owner_type = 'ANCS' AND e.owner_id = u.ancs_id
                 AND e.content_id = u.content_id AND e.anim_index = u.anim_index
    WHERE u.game = 'MP2' AND e.kind = 'particle'
      AND (e.char_index = -1 OR e.char_index = u.char_index)
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
shown AS (
    SELECT r.game, r.ancs_id, r.char_index, ch.name AS character, r.dst_type, r.dst_id, r.via,
           r.paths, r.content_id, r.rule, r.k1, r.k2, r.k3
    FROM ranked r
    JOIN ch ON ch.game = r.game AND ch.ancs_id = r.ancs_id AND ch.content_id = r.content_id
           AND ch.char_index = r.char_index
    WHERE r.nth = 1
),
once AS (
    SELECT s.*,
           row_number() OVER (PARTITION BY game, ancs_id, char_index, character,
                                           ifnull(dst_type, ''), dst_id, via, paths
                              ORDER BY content_id, rule, k1, k2, k3) AS copy
    FROM shown s
)
SELECT o.game,
       o.ancs_id,
       al.label AS ancs_id_name,
       o.char_index,
       o.character,
       o.dst_type,
       o.dst_id,
       l.label AS dst_id_name,
       o.via,
       o.paths
FROM once o
LEFT JOIN asset_label al ON al.asset_id = o.ancs_id
LEFT JOIN asset_label l ON l.asset_id = o.dst_id
WHERE o.copy = 1
ORDER BY o.game, o.ancs_id, o.char_index, o.content_id, o.rule, o.k1, o.k2, o.k3, o.dst_id;
