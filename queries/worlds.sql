-- One row per world (MLVL): its name, dark-world name (MP2), areas, script layers, area dependencies and the releases holding it
-- param: [GAME] — optional: MP1 or MP2 (every game when absent)
--
-- Names are string 0 of the world's name STRGs in English (ENGL), looked up in the STRGs the
-- database holds (views `worlds` and `areas`, db/schema/60_worlds.sql). The counts are those
-- of the world's newest content (view mlvl_latest) when the releases in view hold different
-- ones; `--release LABEL` shows that release's. `releases` lists every release holding any
-- content of the MLVL.
SELECT w.game,
       w.mlvl_id,
       (SELECT l.label FROM asset_label l WHERE l.asset_id = w.mlvl_id) AS mlvl_id_name,
       w.name,
       w.dark_name,
       w.area_count AS areas,
       (SELECT count(*) FROM area_layers x
        WHERE x.game = w.game AND x.mlvl_id = w.mlvl_id AND x.content_id = w.content_id) AS layers,
       (SELECT count(*) FROM area_deps x
        WHERE x.game = w.game AND x.mlvl_id = w.mlvl_id AND x.content_id = w.content_id)
           AS dependencies,
       (SELECT group_concat(label, ', ')
        FROM (SELECT DISTINCT r.label FROM contents c
              JOIN pak_entries e ON e.content_id = c.content_id
              JOIN paks p ON p.pak_id = e.pak_id
              JOIN releases r ON r.release_id = p.release_id
              WHERE c.game = w.game AND c.type = 'MLVL' AND c.asset_id = w.mlvl_id
              ORDER BY r.label)) AS releases
FROM mlvl_latest m
JOIN worlds w ON w.game = m.game AND w.mlvl_id = m.mlvl_id AND w.content_id = m.content_id
WHERE ?1 IS NULL OR w.game = upper(?1)
ORDER BY w.game, w.name, w.mlvl_id;
