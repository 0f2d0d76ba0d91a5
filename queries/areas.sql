-- The areas (rooms) of a world: MREA, name, internal name, script layers (active ones), dependencies and attached areas
-- param: WORLD — the world: its name (English, case-insensitive) or its MLVL ID (0x1A2B3C4D, 1A2B3C4D or decimal)
--
-- WORLD is compared with each world's name and with its MLVL ID written as an ID argument
-- (up to 8 hex digits, with or without 0x, or 9 to 10 decimal digits): a world named like an
-- ID matches either way. The world's newest content when several releases with different
-- contents are in view (`--release LABEL` to choose). `attached` lists the indices of the
-- attached areas; `dependencies` counts every entry of the area's list (layers and own group).
WITH RECURSIVE
arg(t, h) AS (SELECT ?1, CASE WHEN ?1 LIKE '0x%' THEN substr(?1, 3) ELSE ?1 END),
hx(i, v) AS (
    SELECT 0, 0
    UNION ALL
    SELECT hx.i + 1, hx.v * 16 + instr('0123456789ABCDEF', upper(substr(arg.h, hx.i + 1, 1))) - 1
    FROM hx, arg WHERE hx.i < length(arg.h) AND hx.i < 8
),
id(v) AS (
    SELECT CASE WHEN length(t) IN (9, 10) AND t NOT GLOB '*[^0-9]*' THEN CAST(t AS INTEGER)
                WHEN length(h) BETWEEN 1 AND 8 AND h NOT GLOB '*[^0-9A-Fa-f]*'
                THEN (SELECT v FROM hx ORDER BY i DESC LIMIT 1) END
    FROM arg
),
w AS (
    SELECT w.game, w.mlvl_id, w.content_id, w.name
    FROM mlvl_latest m
    JOIN worlds w ON w.game = m.game AND w.mlvl_id = m.mlvl_id AND w.content_id = m.content_id
    WHERE w.mlvl_id = (SELECT v FROM id)
       OR (w.world_name_strg IN (SELECT s.strg_id FROM strings s
                                 WHERE s.language = 'ENGL' AND s.string_index = 0
                                   AND s.text = (SELECT t FROM arg) COLLATE NOCASE
                                   AND s.game = w.game)
           AND w.name = (SELECT t FROM arg) COLLATE NOCASE)
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
