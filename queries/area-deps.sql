-- What an area (room) loads: its MLVL dependency list by script layer, in file order, with names (layer -1: the area's own group)
-- param: AREA — the area: its MREA ID (0x1A2B3C4D, 1A2B3C4D or decimal), its English name or its internal name (MP2), case-insensitive
-- param: [LAYER] — optional: a layer index (-1 for the area's own group) or layer name (every layer when absent)
--
-- A name is turned into the MREA ID before the query runs (exit 2 listing the candidates
-- when it names several areas). The area's rows come from its world's newest content when
-- several releases with different contents are in view (`--release LABEL` to choose).
-- `held` is 0 for a dependency that is in no PAK of the game (dangling).
WITH ar AS (
    SELECT a.game, a.mlvl_id, a.content_id, a.area_index, a.mrea_id
    FROM mlvl_latest m
    JOIN mlvl_areas a ON a.game = m.game AND a.mlvl_id = m.mlvl_id AND a.content_id = m.content_id
    WHERE a.mrea_id = ?1
)
SELECT d.game,
       w.name AS world,
       d.mlvl_id,
       d.area_index,
       a.name AS area,
       ar.mrea_id,
       d.layer_index,
       l.name AS layer,
       CASE WHEN d.layer_index < 0 THEN 1 ELSE l.active END AS active,
       d.dep_index,
       d.type,
       d.asset_id,
       (SELECT n.label FROM asset_label n WHERE n.asset_id = d.asset_id) AS asset_id_name,
       EXISTS (SELECT 1 FROM assets x WHERE x.game = d.game AND x.asset_id = d.asset_id) AS held
FROM ar
JOIN area_deps d ON d.game = ar.game AND d.mlvl_id = ar.mlvl_id AND d.content_id = ar.content_id
                AND d.area_index = ar.area_index
JOIN worlds w ON w.game = ar.game AND w.mlvl_id = ar.mlvl_id AND w.content_id = ar.content_id
JOIN areas a ON a.game = ar.game AND a.mlvl_id = ar.mlvl_id AND a.content_id = ar.content_id
            AND a.area_index = ar.area_index
LEFT JOIN area_layers l ON l.game = d.game AND l.mlvl_id = d.mlvl_id AND l.content_id = d.content_id
                       AND l.area_index = d.area_index AND l.layer_index = d.layer_index
WHERE ?2 IS NULL
   OR (CASE WHEN ?2 = '-1' OR (?2 <> '' AND ?2 NOT GLOB '*[^0-9]*')
            THEN d.layer_index = CAST(?2 AS INTEGER)
            ELSE l.name = ?2 COLLATE NOCASE END)
ORDER BY d.game, w.name, d.mlvl_id, d.area_index, d.layer_index < 0, d.layer_index, d.dep_index;
