-- Where the game loads an asset: every (world, area, script layer) whose MLVL dependency list holds it, with names, whether the layer is active, and for what an ANCS needs the ANCS of the same layer that reaches it (through)
-- param: TYPE — FourCC of the asset: ANCS, PART, EVNT, ANIM, CMDL, TXTR, ...
-- param: ID — asset ID (0x1A2B3C4D, 1A2B3C4D or decimal)
--
-- layer_index -1 is the area's own group (listed after its last layer: loaded with the area,
-- `layer` NULL, `active` 1). `through`: an ANCS listed in the same layer whose characters
-- reach the asset by the reach rules (char_reach: own fields, particle lists, effects, the
-- ANIMs and MP1 EVNTs of the animations they use, MP2 event particles) or, in MP1, by the
-- particle nodes of such an EVNT (for the node's character or every character); one row per
-- such ANCS, one row with `through` NULL when none does. Rows alike in two contents (releases
-- in view) are one; `releases` lists the releases whose MLVL content has the row.
WITH hit AS (
    SELECT DISTINCT d.game, d.mlvl_id, d.content_id, d.area_index, d.layer_index
    FROM area_deps d
    WHERE d.asset_id = ?2 AND d.type = ?1
),
thr AS (
    SELECT h.game, h.mlvl_id, h.content_id, h.area_index, h.layer_index, x.asset_id AS through
    FROM hit h
    CROSS JOIN area_deps x
         ON x.game = h.game AND x.mlvl_id = h.mlvl_id AND x.content_id = h.content_id
        AND x.area_index = h.area_index AND x.layer_index = h.layer_index AND x.type = 'ANCS'
    WHERE ?1 <> 'ANCS'
      AND (EXISTS (SELECT 1 FROM char_reach r
                   WHERE r.game = h.game AND r.ancs_id = x.asset_id AND r.dst_id = ?2
                     AND (r.dst_type = ?1 OR r.dst_type IS NULL))
           OR (h.game = 'MP1'
               AND EXISTS (SELECT 1 FROM char_reach r
                           JOIN asset_refs e ON e.game = r.game AND e.src_type = 'EVNT'
                                            AND e.src_id = r.dst_id
                                            AND (e.char_index IS NULL
                                                 OR e.char_index = r.char_index)
                           WHERE r.game = h.game AND r.ancs_id = x.asset_id
                             AND r.dst_type = 'EVNT' AND e.dst_id = ?2 AND e.dst_type = ?1)))
),
rows_ AS (
    SELECT h.game, h.mlvl_id, h.content_id, h.area_index, h.layer_index, t.through
    FROM hit h
    LEFT JOIN thr t ON t.game = h.game AND t.mlvl_id = h.mlvl_id AND t.content_id = h.content_id
                   AND t.area_index = h.area_index AND t.layer_index = h.layer_index
)
SELECT r.game,
       max(w.name) AS world,
       r.area_index,
       max(a.name) AS area,
       r.layer_index,
       max(l.name) AS layer,
       CASE WHEN r.layer_index < 0 THEN 1 ELSE max(l.active) END AS active,
       r.mlvl_id,
       (SELECT n.label FROM asset_label n WHERE n.asset_id = r.mlvl_id) AS mlvl_id_name,
       a.mrea_id,
       (SELECT n.label FROM asset_label n WHERE n.asset_id = a.mrea_id) AS mrea_id_name,
       r.through,
       (SELECT n.label FROM asset_label n WHERE n.asset_id = r.through) AS through_name,
       (SELECT group_concat(label, ', ')
        FROM (SELECT DISTINCT rl.label FROM rows_ x
              JOIN pak_entries e ON e.content_id = x.content_id
              JOIN paks p ON p.pak_id = e.pak_id
              JOIN releases rl ON rl.release_id = p.release_id
              WHERE x.game = r.game AND x.mlvl_id = r.mlvl_id AND x.area_index = r.area_index
                AND x.layer_index = r.layer_index AND x.through IS r.through
              ORDER BY rl.label)) AS releases
FROM rows_ r
JOIN worlds w ON w.game = r.game AND w.mlvl_id = r.mlvl_id AND w.content_id = r.content_id
JOIN areas a ON a.game = r.game AND a.mlvl_id = r.mlvl_id AND a.content_id = r.content_id
            AND a.area_index = r.area_index
LEFT JOIN area_layers l ON l.game = r.game AND l.mlvl_id = r.mlvl_id
                       AND l.content_id = r.content_id AND l.area_index = r.area_index
                       AND l.layer_index = r.layer_index
GROUP BY r.game, r.mlvl_id, r.area_index, r.layer_index, r.through, a.mrea_id
ORDER BY r.game, world, r.mlvl_id, r.area_index, r.layer_index, r.through;
