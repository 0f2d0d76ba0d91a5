-- The characters an area (room) loads: each ANCS in its MLVL dependency list, per script layer, with its characters' names
-- param: AREA — the area: its MREA ID (0x1A2B3C4D, 1A2B3C4D or decimal), its English name or its internal name (MP2), case-insensitive
--
-- A name is turned into the MREA ID before the query runs (exit 2 listing the candidates
-- when it names several areas). One row per (area, layer, ANCS): `characters` the number of
-- characters of the set and `character_names` their names in set order (from the ANCS's
-- newest content; NULL when the ANCS is in no PAK or did not decode). Layer -1 is the area's
-- own group.
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
       d.layer_index,
       l.name AS layer,
       CASE WHEN d.layer_index < 0 THEN 1 ELSE l.active END AS active,
       d.asset_id AS ancs_id,
       (SELECT n.label FROM asset_label n WHERE n.asset_id = d.asset_id) AS ancs_id_name,
       (SELECT count(*) FROM characters c
        WHERE c.game = d.game AND c.ancs_id = d.asset_id
          AND c.content_id = (SELECT max(x.content_id) FROM ancs x
                              WHERE x.game = d.game AND x.asset_id = d.asset_id)) AS characters,
       (SELECT group_concat(name, ', ')
        FROM (SELECT c.name FROM characters c
              WHERE c.game = d.game AND c.ancs_id = d.asset_id
                AND c.content_id = (SELECT max(x.content_id) FROM ancs x
                                    WHERE x.game = d.game AND x.asset_id = d.asset_id)
              ORDER BY c.char_index)) AS character_names
FROM ar
JOIN area_deps d ON d.game = ar.game AND d.mlvl_id = ar.mlvl_id AND d.content_id = ar.content_id
                AND d.area_index = ar.area_index AND d.type = 'ANCS'
JOIN worlds w ON w.game = ar.game AND w.mlvl_id = ar.mlvl_id AND w.content_id = ar.content_id
JOIN areas a ON a.game = ar.game AND a.mlvl_id = ar.mlvl_id AND a.content_id = ar.content_id
            AND a.area_index = ar.area_index
LEFT JOIN area_layers l ON l.game = d.game AND l.mlvl_id = d.mlvl_id AND l.content_id = d.content_id
                       AND l.area_index = d.area_index AND l.layer_index = d.layer_index
ORDER BY d.game, w.name, d.mlvl_id, d.area_index, d.layer_index < 0, d.layer_index, d.dep_index;
