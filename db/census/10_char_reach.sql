-- char_reach (db/schema/45_reach.sql) of the ANCS contents whose rows an earlier ancsdb wrote
-- without it (one stopped before its final pass: an ingest now writes each content's
-- char_reach with its other rows, db/rows_ancs.c through ancs_char_paths), run by the final
-- pass just before census.sql. The reach rules of CONTRACT.md "How a character reaches an
-- asset", from the decoded tables: the same paths ancs_char_paths gives from the decoded set
-- (tests/cli/e2e_deps.sh compares the two). The contents' keys lead every lookup (CROSS
-- JOIN keeps that order).
DROP TABLE IF EXISTS temp.reach_new;
CREATE TEMP TABLE reach_new(content_id INTEGER PRIMARY KEY, game TEXT NOT NULL,
                            ancs_id INTEGER NOT NULL);
INSERT INTO reach_new
SELECT content_id, game, asset_id FROM contents c
WHERE c.type = 'ANCS'
  AND NOT EXISTS (SELECT 1 FROM census_contents x WHERE x.content_id = c.content_id)
  AND NOT EXISTS (SELECT 1 FROM char_reach r WHERE r.game = c.game AND r.ancs_id = c.asset_id
                  AND r.content_id = c.content_id);
-- MP1: each ANIM's EVNT is the one of the first resource pair naming the ANIM (min(res_index)
-- picks that row's evnt_asset_id); keyed by the ANIM so that each lookup below is one probe
-- of this table (looking through all pairs of the set for each ANIM grew with the square
-- of the animations)
DROP TABLE IF EXISTS temp.first_pair;
CREATE TEMP TABLE first_pair(content_id INTEGER NOT NULL, anim_asset_id INTEGER NOT NULL,
                             res_index INTEGER NOT NULL, evnt_asset_id INTEGER,
                             PRIMARY KEY (content_id, anim_asset_id)) WITHOUT ROWID;
INSERT INTO first_pair
SELECT r.content_id, r.anim_asset_id, min(r.res_index), r.evnt_asset_id
FROM reach_new n
CROSS JOIN animation_resources r
     ON r.game = n.game AND r.ancs_id = n.ancs_id AND r.content_id = n.content_id
WHERE n.game = 'MP1' AND r.anim_asset_id IS NOT NULL
GROUP BY r.content_id, r.anim_asset_id;

INSERT INTO char_reach(game, ancs_id, content_id, char_index, rule, k1, k2, k3, dst_type,
                       dst_id, via)
WITH ch AS NOT MATERIALIZED (
    SELECT c.* FROM reach_new n
    CROSS JOIN characters c
         ON c.game = n.game AND c.ancs_id = n.ancs_id AND c.content_id = n.content_id
),
-- 1. the character's own fields
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
-- the ANIMs of their Play nodes, each at its first node
anims AS (
    SELECT u.game, u.ancs_id, u.content_id, u.char_index, u.anim_index,
           p.anim_asset_id AS anim_id, min(p.seq) AS seq
    FROM used u
    CROSS JOIN anim_primitives p ON p.game = u.game AND p.ancs_id = u.ancs_id
                          AND p.content_id = u.content_id
                          AND p.owner = 'animation' AND p.owner_index = u.anim_index
    WHERE p.anim_asset_id NOT IN (0, 4294967295)
    GROUP BY u.game, u.ancs_id, u.content_id, u.char_index, u.anim_index, p.anim_asset_id
),
-- MP1: each ANIM's EVNT, from the first resource pair naming the ANIM (temp.first_pair)
evnts AS MATERIALIZED (
    SELECT n.*, (SELECT f.evnt_asset_id FROM temp.first_pair f
                 WHERE f.content_id = n.content_id AND f.anim_asset_id = n.anim_id) AS evnt_id
    FROM anims n
    WHERE n.game = 'MP1'
),
reach(game, ancs_id, content_id, char_index, rule, k1, k2, k3, dst_type, dst_id, via) AS (
    SELECT game, ancs_id, content_id, char_index, 1, k, 0, 0, dst_type, dst_id, via
    FROM own WHERE dst_id IS NOT NULL
    UNION ALL
    -- 2. particle lists
    SELECT p.game, p.ancs_id, p.content_id, p.char_index, 2,
           CASE p.list WHEN 'PART' THEN 0 WHEN 'SWHC' THEN 1 WHEN 'third_list' THEN 2
                       WHEN 'ELSC' THEN 3 ELSE 4 END, p.seq, 0,
           p.particle_type, p.particle_id, 'particles ' || p.list || ' ' || p.seq
    FROM ch CROSS JOIN particle_refs p
         ON ch.game = p.game AND ch.ancs_id = p.ancs_id AND ch.content_id = p.content_id
        AND ch.char_index = p.char_index
    WHERE p.source = 'particles'
    UNION ALL
    -- 3. effect components
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
    -- 4. the animations: each ANIM, its EVNT (MP1; `deps` adds that EVNT's particle nodes),
    -- and the particle nodes of the embedded event set of the same index (MP2)
    SELECT game, ancs_id, content_id, char_index, 4, anim_index, seq, 0, 'ANIM', anim_id,
           'animation ' || anim_index
    FROM anims
    UNION ALL
    SELECT game, ancs_id, content_id, char_index, 4, anim_index, seq, 1, 'EVNT', evnt_id,
           'animation ' || anim_index || ' > ANIM ' || printf('%08X', anim_id)
    FROM evnts WHERE evnt_id NOT IN (0, 4294967295)
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
)
-- (rows alike in every column, if a table ever held two, are made one by `deps`)
SELECT * FROM reach WHERE dst_id NOT IN (0, 4294967295);

DROP TABLE temp.first_pair;
DROP TABLE temp.reach_new;
