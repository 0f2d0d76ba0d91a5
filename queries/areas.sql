-- The areas (rooms) of a world: MREA, name, internal name, script layers (active ones), dependencies and attached areas
-- param: WORLD — the world: its MLVL ID (0x1A2B3C4D, 1A2B3C4D or decimal), its English name or its dark world's (MP2), case-insensitive
--
-- A name is turned into the MLVL ID before the query runs (the rule of every ID argument:
-- `ancsdb query` stops with exit 2 and lists the candidates when it names several worlds).
-- The world's newest content when several releases with different contents are in view
-- (`--release LABEL` to choose). `attached` lists the indices of the attached areas;
-- `dependencies` counts every entry of the area's list (layers and own group).
WITH w AS (
    SELECT w.game, w.mlvl_id, w.content_id, w.name
    FROM mlvl_latest m
    JOIN worlds w ON w.game = m.game AND w.mlvl_id = m.mlvl_id AND w.content_id = m.content_id
    WHERE w.mlvl_id = ?1
)
SELECT a.game,
       w.name AS world,
       a.mlvl_id,
       a.area_index,
       a.mrea_id,
       (SELECT l.label FROM asset_label l WHERE l.asset_id = a.mrea_id) AS mrea_id_name,
       a.name,
       a.internal_name,
       a.layer_count AS layers,
       (SELECT count(*) FROM area_layers x
        WHERE x.game = a.game AND x.mlvl_id = a.mlvl_id AND x.content_id = a.content_id
          AND x.area_index = a.area_index AND x.active = 1) AS active_layers,
       a.dependency_count AS dependencies,
       (SELECT group_concat(other_area_index, ', ')
        FROM (SELECT x.other_area_index FROM area_attached x
              WHERE x.game = a.game AND x.mlvl_id = a.mlvl_id AND x.content_id = a.content_id
                AND x.area_index = a.area_index
              ORDER BY x.attached_index)) AS attached
FROM w
JOIN areas a ON a.game = w.game AND a.mlvl_id = w.mlvl_id AND a.content_id = w.content_id
ORDER BY a.game, w.name, a.mlvl_id, a.area_index;
