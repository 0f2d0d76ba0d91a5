-- Where the game loads an asset: every (world, area, script layer) whose MLVL dependency list holds it, with names, whether the layer is active, and for what an ANCS needs the ANCS of the same layer that reaches it (through)
-- param: TYPE — FourCC of the asset: ANCS, PART, EVNT, ANIM, CMDL, TXTR, ...
-- param: ID — asset ID (0x1A2B3C4D, 1A2B3C4D or decimal) or the asset's name (with or without its directory)
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
),
-- the releases of each MLVL content that holds a hit, looked up once per content
content_rel AS (
    SELECT DISTINCT c.content_id, rl.label
    FROM (SELECT DISTINCT content_id FROM hit) c
    JOIN pak_entries e ON e.content_id = c.content_id
    JOIN paks p ON p.pak_id = e.pak_id
    JOIN releases rl ON rl.release_id = p.release_id
),
-- the releases of each output row (whatever its content and MREA) in label order, made in
-- one sorted pass over the rows rather than one scan of them per output row
rel AS (
    SELECT DISTINCT game, mlvl_id, area_index, layer_index, through,
           group_concat(label, ', ') OVER (
               PARTITION BY game, mlvl_id, area_index, layer_index, through ORDER BY label
               ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS releases
    FROM (SELECT DISTINCT x.game, x.mlvl_id, x.area_index, x.layer_index, x.through, c.label
          FROM rows_ x
          JOIN content_rel c ON c.content_id = x.content_id)
),
out_ AS (
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
           (SELECT n.label FROM asset_label n WHERE n.asset_id = r.through) AS through_name
    FROM rows_ r
    JOIN worlds w ON w.game = r.game AND w.mlvl_id = r.mlvl_id AND w.content_id = r.content_id
    JOIN areas a ON a.game = r.game AND a.mlvl_id = r.mlvl_id AND a.content_id = r.content_id
                AND a.area_index = r.area_index
    LEFT JOIN area_layers l ON l.game = r.game AND l.mlvl_id = r.mlvl_id
                           AND l.content_id = r.content_id AND l.area_index = r.area_index
                           AND l.layer_index = r.layer_index
    GROUP BY r.game, r.mlvl_id, r.area_index, r.layer_index, r.through, a.mrea_id
)
SELECT o.game, o.world, o.area_index, o.area, o.layer_index, o.layer, o.active, o.mlvl_id,
       o.mlvl_id_name, o.mrea_id, o.mrea_id_name, o.through, o.through_name, g.releases
FROM out_ o
LEFT JOIN rel g ON g.game = o.game AND g.mlvl_id = o.mlvl_id AND g.area_index = o.area_index
               AND g.layer_index = o.layer_index AND g.through IS o.through
ORDER BY o.game, o.world, o.mlvl_id, o.area_index, o.layer_index, o.through, o.mrea_id;
