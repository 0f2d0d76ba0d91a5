-- Every event node each character's animations play, one row per (character, animation, node): ANIM, EVNT or event set, kind, name, time, target, particle or sound
-- param: ANCS_ID — the ANCS (0x1A2B3C4D, 1A2B3C4D, decimal, or its name)
-- param: CHAR_INDEX? — optional: one character's position in the set (every character when absent)
--
-- The reach rules of CONTRACT.md "How a character reaches an asset", step 3: character c
-- uses animation-set entry i (character_anims.anim_index, resolved through the ID map at
-- ingest); in MP1 every ANIM of the Play nodes of entry i's tree, and each ANIM's EVNT from
-- the FIRST resource pair naming that ANIM (by ANIM ID, not by position); in MP2 the
-- embedded event set at index i. The MP1 steps are those char_reach holds (rule 4: k3 = 0
-- the ANIM, k3 = 1 its EVNT, both at k1 = anim_index, k2 = the Play node's order), computed
-- once per ANCS content at ingest (db/rows_ancs.c).
-- Every node of the EVNT or event set is listed whatever character it targets: target_char
-- is the node's character index (-1 = every character). In MP2 anim_id is the ANIM of the
-- animation's first Play node (the event set belongs to the animation, not to one ANIM) and
-- evnt_id is NULL; in MP1 event_set is NULL. asset_type/asset_id are the particle of a
-- particle node, sound_id the sound of a sound node (0x + 8 hex digits), value the value of
-- a bool or int32 node. Rows alike in every column shown (one ANCS in two contents) appear
-- once.
WITH ch AS NOT MATERIALIZED (
    SELECT game, ancs_id, content_id, char_index, name FROM characters
    WHERE ancs_id = ?1 AND (?2 IS NULL OR char_index = ?2)
),
-- MP1: (character, animation, ANIM at its first Play node, EVNT of the first pair)
mp1 AS (
    SELECT a.game, a.ancs_id, a.content_id, a.char_index, ch.name AS character,
           a.k1 AS anim_index, a.k2 AS seq, a.dst_id AS anim_id, v.dst_id AS evnt_id,
           NULL AS event_set
    FROM ch CROSS JOIN char_reach a
         ON a.game = ch.game AND a.ancs_id = ch.ancs_id AND a.content_id = ch.content_id
        AND a.char_index = ch.char_index
    CROSS JOIN char_reach v
         ON v.game = a.game AND v.ancs_id = a.ancs_id AND v.content_id = a.content_id
        AND v.char_index = a.char_index AND v.rule = 4 AND v.k3 = 1 AND v.k1 = a.k1
        AND v.k2 = a.k2
    WHERE ch.game = 'MP1' AND a.rule = 4 AND a.k3 = 0
),
-- MP2: (character, animation it uses) and the event set of the same index
mp2 AS (
    SELECT DISTINCT ch.game, ch.ancs_id, ch.content_id, ch.char_index, ch.name AS character,
           u.anim_index
    FROM ch CROSS JOIN character_anims u
         ON u.game = ch.game AND u.ancs_id = ch.ancs_id AND u.content_id = ch.content_id
        AND u.char_index = ch.char_index
    WHERE ch.game = 'MP2' AND u.anim_index IS NOT NULL
),
plays AS (
    SELECT m.*, e.kind, e.node_index, e.name, e.time, e.char_index AS target_char,
           e.particle_type, e.particle_id, e.sound_id, e.value
    FROM mp1 m
    CROSS JOIN events e ON e.game = m.game AND e.owner_type = 'EVNT' AND e.owner_id = m.evnt_id
    UNION ALL
    SELECT m.game, m.ancs_id, m.content_id, m.char_index, m.character, m.anim_index, 0,
           (SELECT p.anim_asset_id FROM anim_primitives p
            WHERE p.game = m.game AND p.ancs_id = m.ancs_id AND p.content_id = m.content_id
              AND p.owner = 'animation' AND p.owner_index = m.anim_index
              AND p.anim_asset_id NOT IN (0, 4294967295)
            ORDER BY p.seq LIMIT 1),
           NULL, m.anim_index,
           e.kind, e.node_index, e.name, e.time, e.char_index, e.particle_type, e.particle_id,
           e.sound_id, e.value
    FROM mp2 m
    CROSS JOIN events e ON e.game = m.game AND e.owner_type = 'ANCS' AND e.owner_id = m.ancs_id
                       AND e.content_id = m.content_id AND e.anim_index = m.anim_index
),
shown AS (
    SELECT p.game, p.ancs_id, p.char_index, p.character, p.anim_index, an.name AS animation,
           p.anim_id, p.evnt_id, p.event_set, p.node_index, p.kind, p.name, p.time,
           p.target_char, p.particle_type, p.particle_id, p.sound_id, p.value,
           min(p.content_id) AS content_id, min(p.seq) AS seq
    FROM plays p
    LEFT JOIN animations an ON an.game = p.game AND an.ancs_id = p.ancs_id
                           AND an.content_id = p.content_id AND an.anim_index = p.anim_index
    GROUP BY p.game, p.ancs_id, p.char_index, p.character, p.anim_index, an.name, p.anim_id,
             p.evnt_id, p.event_set, p.kind, p.node_index, p.name, p.time, p.target_char,
             p.particle_type, p.particle_id, p.sound_id, p.value
)
SELECT s.game,
       s.ancs_id,
       (SELECT l.label FROM asset_label l WHERE l.asset_id = s.ancs_id) AS ancs_id_name,
       s.char_index,
       s.character,
       s.anim_index,
       s.animation,
       CASE WHEN s.anim_id IS NOT NULL THEN printf('%08X', s.anim_id) END AS anim_id,
       (SELECT l.label FROM asset_label l WHERE l.asset_id = s.anim_id) AS anim_id_name,
       s.evnt_id,
       (SELECT l.label FROM asset_label l WHERE l.asset_id = s.evnt_id) AS evnt_id_name,
       s.event_set,
       s.node_index,
       s.kind,
       s.name,
       s.time,
       s.target_char,
       s.particle_type AS asset_type,
       s.particle_id AS asset_id,
       (SELECT l.label FROM asset_label l WHERE l.asset_id = s.particle_id) AS asset_id_name,
       CASE WHEN s.sound_id IS NOT NULL THEN printf('0x%08X', s.sound_id) END AS sound_id,
       s.value
FROM shown s
ORDER BY s.game, s.ancs_id, s.char_index, s.content_id, s.anim_index, s.seq, s.anim_id,
         CASE s.kind WHEN 'bool' THEN 0 WHEN 'int32' THEN 1 WHEN 'particle' THEN 2 ELSE 3 END,
         s.node_index;
