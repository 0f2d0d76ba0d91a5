-- Each sound ID of the events' sound nodes: how many nodes hold it, how many characters play it, one character and animation that does
-- param: [ANCS_ID] — optional: only this ANCS's events (ID or name; MP1: its pairs' EVNTs, MP2: its event sets); every event when absent
--
-- With ANCS_ID, only that set's characters count too.
--
-- nodes: distinct sound nodes (EVNT or event set, node index) whose sound_id is the ID.
-- characters: distinct characters whose animations play one of those nodes by the rules of
-- the named query `events` (MP1: the EVNT of each ANIM of the animation's Play nodes, first
-- resource pair by ANIM ID; MP2: the event set of the animation's index), whatever
-- character the node targets; 0 when only events no character uses hold it. example: the
-- first such character (by game, ANCS, position) and animation, as
-- `ANCS 1A2B3C4D character 0 'Name' > animation 3 'Walk'`. sound_id prints as 0x + 8 hex
-- digits (the low 16 bits are the sound effect).
WITH scope(game, owner_type, owner_id) AS (
    SELECT game, 'EVNT', evnt_asset_id FROM animation_resources WHERE ancs_id = ?1
    UNION
    SELECT game, 'ANCS', asset_id FROM ancs WHERE asset_id = ?1
),
nodes AS (
    SELECT DISTINCT e.game, e.owner_type, e.owner_id, e.anim_index, e.node_index, e.sound_id
    FROM events e
    WHERE e.kind = 'sound' AND e.sound_id IS NOT NULL
      AND (?1 IS NULL
           OR EXISTS (SELECT 1 FROM scope s WHERE s.game = e.game
                      AND s.owner_type = e.owner_type AND s.owner_id = e.owner_id))
),
-- MP1: each character's (animation, EVNT) from char_reach (rule 4, k3 = 1: the EVNT of an
-- ANIM of the animation's Play nodes, by the first resource pair naming the ANIM)
mp1 AS (
    SELECT DISTINCT v.game, v.ancs_id, v.char_index, v.content_id, v.k1 AS anim_index,
           v.dst_id AS evnt_id
    FROM char_reach v
    WHERE v.game = 'MP1' AND v.rule = 4 AND v.k3 = 1 AND v.dst_type = 'EVNT'
      AND v.dst_id IN (SELECT owner_id FROM nodes WHERE game = 'MP1')
),
plays AS (
    SELECT n.game, n.sound_id, m.ancs_id, m.char_index, m.content_id, m.anim_index
    FROM nodes n
    JOIN mp1 m ON m.game = n.game AND m.evnt_id = n.owner_id
    WHERE n.game = 'MP1' AND n.owner_type = 'EVNT' AND (?1 IS NULL OR m.ancs_id = ?1)
    UNION ALL
    SELECT n.game, n.sound_id, u.ancs_id, u.char_index, u.content_id, u.anim_index
    FROM nodes n
    JOIN character_anims u ON u.game = n.game AND u.ancs_id = n.owner_id
                          AND u.anim_index = n.anim_index
    WHERE n.game = 'MP2' AND n.owner_type = 'ANCS'
),
first_play AS (
    SELECT p.*, row_number() OVER (PARTITION BY p.game, p.sound_id
                                   ORDER BY p.ancs_id, p.char_index, p.anim_index,
                                            p.content_id) AS nth
    FROM plays p
),
-- per sound: its characters and its first play, each made once for every sound rather than
-- looked up through every play per sound
chars AS (
    SELECT game, sound_id, count(*) AS characters
    FROM (SELECT DISTINCT p.game, p.sound_id, p.ancs_id, p.char_index FROM plays p)
    GROUP BY game, sound_id
),
example AS (
    SELECT f.game, f.sound_id,
           'ANCS ' || printf('%08X', f.ancs_id) || ' character ' || f.char_index
               || ifnull(' ''' || c.name || '''', '') || ' > animation ' || f.anim_index
               || ifnull(' ''' || a.name || '''', '') AS example
    FROM first_play f
    LEFT JOIN characters c ON c.game = f.game AND c.ancs_id = f.ancs_id
                          AND c.content_id = f.content_id AND c.char_index = f.char_index
    LEFT JOIN animations a ON a.game = f.game AND a.ancs_id = f.ancs_id
                          AND a.content_id = f.content_id AND a.anim_index = f.anim_index
    WHERE f.nth = 1
),
counted AS (
    SELECT n.game, n.sound_id, count(*) AS nodes
    FROM nodes n
    GROUP BY n.game, n.sound_id
)
SELECT n.game,
       printf('0x%08X', n.sound_id) AS sound_id,
       n.nodes AS nodes,
       ifnull(c.characters, 0) AS characters,
       x.example AS example
FROM counted n
LEFT JOIN chars c ON c.game = n.game AND c.sound_id = n.sound_id
LEFT JOIN example x ON x.game = n.game AND x.sound_id = n.sound_id
ORDER BY n.game, n.sound_id;
