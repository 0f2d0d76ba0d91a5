-- What changed in the worlds between two releases: per (world, area, script layer) the assets added or removed, areas and worlds renamed (old and new name), worlds added or removed
-- param: A — label of the first release (releases.label, e.g. GM8E01_00)
-- param: B — label of the second release
-- param: [WORLD] — optional: one world only, by MLVL ID or name (English or dark world's, case-insensitive); every world when absent
--
-- Each release's MLVL and STRG contents are those its PAK entries hold. `change` is 'added'
-- (in the layer's list in B only), 'removed' (in A only), 'area renamed', 'world renamed'
-- (the English name, string 0 of the name STRG each release holds, differs: name_a, name_b),
-- 'world added' or 'world removed'. Layer -1 is an area's own group. Only worlds whose
-- contents differ are compared entry by entry.
WITH r AS (
    SELECT (SELECT release_id FROM releases WHERE label = ?1) AS ra,
           (SELECT release_id FROM releases WHERE label = ?2) AS rb
),
-- the MLVL contents each release holds (contents first: a few rows, then their entries)
mc AS MATERIALIZED (
    SELECT DISTINCT p.release_id AS rid, p.game, c.asset_id AS mlvl_id, c.content_id
    FROM r CROSS JOIN contents c CROSS JOIN pak_entries e ON e.content_id = c.content_id
    CROSS JOIN paks p ON p.pak_id = e.pak_id
    WHERE c.type = 'MLVL' AND p.release_id IN (r.ra, r.rb)
),
-- worlds: on which side, and whether the sides' content sets differ
ws AS (
    SELECT m.game, m.mlvl_id, max(m.rid = r.ra) AS in_a, max(m.rid = r.rb) AS in_b,
           group_concat(CASE WHEN m.rid = r.ra THEN m.content_id END) AS ca,
           group_concat(CASE WHEN m.rid = r.rb THEN m.content_id END) AS cb
    FROM (SELECT * FROM mc ORDER BY content_id) m CROSS JOIN r
    GROUP BY m.game, m.mlvl_id
),
-- the STRGs that name those worlds and their areas
need AS (
    SELECT m.game, w.world_name_strg AS strg_id
    FROM mc m JOIN mlvl_worlds w ON w.game = m.game AND w.mlvl_id = m.mlvl_id
                                AND w.content_id = m.content_id
    UNION
    SELECT m.game, a.name_strg
    FROM mc m JOIN mlvl_areas a ON a.game = m.game AND a.mlvl_id = m.mlvl_id
                               AND a.content_id = m.content_id
),
-- their contents each release holds
sh AS MATERIALIZED (
    SELECT DISTINCT p.release_id AS rid, p.game, c.asset_id AS strg_id, c.content_id
    FROM r CROSS JOIN need n
    CROSS JOIN contents c ON c.game = n.game AND c.type = 'STRG' AND c.asset_id = n.strg_id
    CROSS JOIN pak_entries e ON e.content_id = c.content_id
    CROSS JOIN paks p ON p.pak_id = e.pak_id
    WHERE p.release_id IN (r.ra, r.rb)
),
-- the English name of such a STRG in a release
nm(rid, game, strg_id, name) AS (
    SELECT h.rid, h.game, h.strg_id, max(s.text)
    FROM sh h JOIN strings s ON s.game = h.game AND s.strg_id = h.strg_id
                            AND s.content_id = h.content_id
    WHERE s.language = 'ENGL' AND s.string_index = 0
    GROUP BY h.rid, h.game, h.strg_id
),
-- world names per side
wn AS (
    SELECT m.rid, m.game, m.mlvl_id, max(n.name) AS name
    FROM mc m JOIN mlvl_worlds w ON w.game = m.game AND w.mlvl_id = m.mlvl_id
                                AND w.content_id = m.content_id
    LEFT JOIN nm n ON n.rid = m.rid AND n.game = m.game AND n.strg_id = w.world_name_strg
    GROUP BY m.rid, m.game, m.mlvl_id
),
-- area names per side
an AS (
    SELECT m.rid, m.game, m.mlvl_id, a.area_index, max(n.name) AS name
    FROM mc m JOIN mlvl_areas a ON a.game = m.game AND a.mlvl_id = m.mlvl_id
                               AND a.content_id = m.content_id
    LEFT JOIN nm n ON n.rid = m.rid AND n.game = m.game AND n.strg_id = a.name_strg
    GROUP BY m.rid, m.game, m.mlvl_id, a.area_index
),
-- the dependency entries of the worlds whose contents differ, with the sides holding them
ch AS (
    SELECT d.game, d.mlvl_id, d.area_index, d.layer_index, d.type, d.asset_id,
           CASE WHEN max(m.rid = r.ra) THEN 'removed' ELSE 'added' END AS change,
           NULL AS name_a, NULL AS name_b
    FROM r CROSS JOIN ws CROSS JOIN mc m ON m.game = ws.game AND m.mlvl_id = ws.mlvl_id
    CROSS JOIN area_deps d ON d.game = m.game AND d.mlvl_id = m.mlvl_id
                          AND d.content_id = m.content_id
    WHERE ws.in_a AND ws.in_b AND ws.ca IS NOT ws.cb
    GROUP BY d.game, d.mlvl_id, d.area_index, d.layer_index, d.type, d.asset_id
    HAVING max(m.rid = r.ra) <> max(m.rid = r.rb)
    UNION ALL
    SELECT x.game, x.mlvl_id, x.area_index, NULL, NULL, NULL, 'area renamed', x.name, y.name
    FROM r CROSS JOIN an x
    JOIN an y ON y.game = x.game AND y.mlvl_id = x.mlvl_id AND y.area_index = x.area_index
    WHERE x.rid = r.ra AND y.rid = r.rb AND x.name IS NOT y.name
    UNION ALL
    SELECT x.game, x.mlvl_id, NULL, NULL, NULL, NULL, 'world renamed', x.name, y.name
    FROM r CROSS JOIN wn x
    JOIN wn y ON y.game = x.game AND y.mlvl_id = x.mlvl_id
    WHERE x.rid = r.ra AND y.rid = r.rb AND x.name IS NOT y.name
    UNION ALL
    SELECT ws.game, ws.mlvl_id, NULL, NULL, NULL, NULL,
           CASE WHEN ws.in_a THEN 'world removed' ELSE 'world added' END,
           (SELECT name FROM wn WHERE wn.rid = r.ra AND wn.game = ws.game AND wn.mlvl_id = ws.mlvl_id),
           (SELECT name FROM wn WHERE wn.rid = r.rb AND wn.game = ws.game AND wn.mlvl_id = ws.mlvl_id)
    FROM ws CROSS JOIN r WHERE NOT (ws.in_a AND ws.in_b)
)
SELECT c.game,
       c.mlvl_id,
       coalesce((SELECT name FROM wn WHERE wn.rid = r.rb AND wn.game = c.game AND wn.mlvl_id = c.mlvl_id),
                (SELECT name FROM wn WHERE wn.rid = r.ra AND wn.game = c.game AND wn.mlvl_id = c.mlvl_id))
           AS world,
       c.area_index,
       coalesce((SELECT name FROM an WHERE an.rid = r.rb AND an.game = c.game
                 AND an.mlvl_id = c.mlvl_id AND an.area_index = c.area_index),
                (SELECT name FROM an WHERE an.rid = r.ra AND an.game = c.game
                 AND an.mlvl_id = c.mlvl_id AND an.area_index = c.area_index)) AS area,
       c.layer_index,
       (SELECT max(l.name) FROM mc m JOIN area_layers l ON l.game = m.game AND l.mlvl_id = m.mlvl_id
                                                    AND l.content_id = m.content_id
        WHERE m.game = c.game AND m.mlvl_id = c.mlvl_id AND l.area_index = c.area_index
          AND l.layer_index = c.layer_index) AS layer,
       c.change,
       c.type,
       c.asset_id,
       (SELECT n.label FROM asset_label n WHERE n.asset_id = c.asset_id) AS asset_id_name,
       c.name_a,
       c.name_b
FROM ch c CROSS JOIN r
WHERE ?3 IS NULL OR c.mlvl_id = ?3
ORDER BY c.game, c.mlvl_id, c.area_index IS NOT NULL, c.area_index, c.layer_index,
         c.change, c.type, c.asset_id;
