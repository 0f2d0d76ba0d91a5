-- Worlds (db/schema/60_worlds.sql), run by the final pass after char_reach and before
-- census.sql:
-- 1. the asset_refs rows of the MLVLs (src_type 'MLVL'), made from the decoded rows: their
--    `via` spells the area's name, which comes from a STRG that may be ingested after the MLVL
--    or change in another release (the name an area has in the view `areas`), so the rows of
--    an MLVL content are made again whenever one of its areas' names changes;
-- 2. the census rows of the MLVL and STRG contents not counted yet (the fields docs/formats.md
--    §11 calls unknown or constant, and their decoder warnings), which census.sql then sums
--    like every other content's.
DROP TABLE IF EXISTS temp.world_area_names;
DROP TABLE IF EXISTS temp.world_redo;
CREATE TEMP TABLE world_area_names(game TEXT NOT NULL, mlvl_id INTEGER NOT NULL,
                                   content_id INTEGER NOT NULL, area_index INTEGER NOT NULL,
                                   label TEXT NOT NULL,
                                   PRIMARY KEY (game, mlvl_id, content_id, area_index));
INSERT INTO world_area_names
SELECT game, mlvl_id, content_id, area_index,
       'area ' || area_index || ifnull(' ''' || name || '''', '')
FROM areas;
-- only the MLVL contents that are new or whose areas' labels changed (mlvl_ref_labels holds
-- the labels their rows were made with) get their rows made again
CREATE TEMP TABLE world_redo(content_id INTEGER PRIMARY KEY, game TEXT NOT NULL,
                             mlvl_id INTEGER NOT NULL);
INSERT OR IGNORE INTO world_redo
SELECT n.content_id, n.game, n.mlvl_id
FROM world_area_names n
LEFT JOIN mlvl_ref_labels l ON l.game = n.game AND l.mlvl_id = n.mlvl_id
                           AND l.content_id = n.content_id AND l.area_index = n.area_index
WHERE l.label IS NOT n.label;
INSERT OR IGNORE INTO world_redo
SELECT w.content_id, w.game, w.mlvl_id FROM mlvl_worlds w
WHERE NOT EXISTS (SELECT 1 FROM mlvl_ref_labels l WHERE l.game = w.game
                  AND l.mlvl_id = w.mlvl_id AND l.content_id = w.content_id);

DELETE FROM asset_refs WHERE rowid IN (
    SELECT a.rowid FROM world_redo r
    CROSS JOIN asset_refs a ON a.game = r.game AND a.src_type = 'MLVL' AND a.src_id = r.mlvl_id
                           AND a.content_id = r.content_id);
INSERT OR IGNORE INTO asset_refs(game, src_type, src_id, content_id, dst_type, dst_id,
                                 char_index, via)
SELECT d.game, 'MLVL', d.mlvl_id, d.content_id, d.type, d.asset_id, NULL,
       n.label || CASE WHEN d.layer_index < 0 THEN ' > area'
                       ELSE ' > layer ' || d.layer_index || ifnull(' ''' || l.name || '''', '')
                  END
FROM world_redo r
CROSS JOIN area_deps d ON d.game = r.game AND d.mlvl_id = r.mlvl_id AND d.content_id = r.content_id
JOIN world_area_names n ON n.game = d.game AND n.mlvl_id = d.mlvl_id
                       AND n.content_id = d.content_id AND n.area_index = d.area_index
LEFT JOIN area_layers l ON l.game = d.game AND l.mlvl_id = d.mlvl_id
                       AND l.content_id = d.content_id AND l.area_index = d.area_index
                       AND l.layer_index = d.layer_index
WHERE d.asset_id NOT IN (0, 4294967295)
UNION ALL
SELECT a.game, 'MLVL', a.mlvl_id, a.content_id, 'MREA', a.mrea_id, NULL, n.label
FROM world_redo r
CROSS JOIN mlvl_areas a ON a.game = r.game AND a.mlvl_id = r.mlvl_id AND a.content_id = r.content_id
JOIN world_area_names n ON n.game = a.game AND n.mlvl_id = a.mlvl_id
                       AND n.content_id = a.content_id AND n.area_index = a.area_index
WHERE a.mrea_id NOT IN (0, 4294967295)
UNION ALL
SELECT a.game, 'MLVL', a.mlvl_id, a.content_id, 'STRG', a.name_strg, NULL, n.label || ' > name'
FROM world_redo r
CROSS JOIN mlvl_areas a ON a.game = r.game AND a.mlvl_id = r.mlvl_id AND a.content_id = r.content_id
JOIN world_area_names n ON n.game = a.game AND n.mlvl_id = a.mlvl_id
                       AND n.content_id = a.content_id AND n.area_index = a.area_index
WHERE a.name_strg NOT IN (0, 4294967295)
UNION ALL
SELECT game, 'MLVL', mlvl_id, content_id, dst_type, dst_id, NULL, via
FROM (SELECT w.game, w.mlvl_id, w.content_id, 'STRG' AS dst_type,
             w.world_name_strg AS dst_id, 'world name' AS via
      FROM world_redo r CROSS JOIN mlvl_worlds w
           ON w.game = r.game AND w.mlvl_id = r.mlvl_id AND w.content_id = r.content_id
      UNION ALL
      SELECT w.game, w.mlvl_id, w.content_id, 'STRG', w.dark_world_name_strg, 'dark world name'
      FROM world_redo r CROSS JOIN mlvl_worlds w
           ON w.game = r.game AND w.mlvl_id = r.mlvl_id AND w.content_id = r.content_id
      UNION ALL
      SELECT w.game, w.mlvl_id, w.content_id, 'SAVW', w.savw_id, 'save info'
      FROM world_redo r CROSS JOIN mlvl_worlds w
           ON w.game = r.game AND w.mlvl_id = r.mlvl_id AND w.content_id = r.content_id
      UNION ALL
      SELECT w.game, w.mlvl_id, w.content_id, 'MAPW', w.mapw_id, 'world map'
      FROM world_redo r CROSS JOIN mlvl_worlds w
           ON w.game = r.game AND w.mlvl_id = r.mlvl_id AND w.content_id = r.content_id
      UNION ALL
      SELECT w.game, w.mlvl_id, w.content_id, 'CMDL', w.default_skybox_id, 'default skybox'
      FROM world_redo r CROSS JOIN mlvl_worlds w
           ON w.game = r.game AND w.mlvl_id = r.mlvl_id AND w.content_id = r.content_id
      UNION ALL
      SELECT g.game, g.mlvl_id, g.content_id, 'AGSC', g.agsc_id, 'audio group ' || g.group_id
      FROM world_redo r CROSS JOIN mlvl_audio_groups g
           ON g.game = r.game AND g.mlvl_id = r.mlvl_id AND g.content_id = r.content_id)
WHERE dst_id IS NOT NULL AND dst_id NOT IN (0, 4294967295);

DELETE FROM mlvl_ref_labels WHERE content_id IN (SELECT content_id FROM world_redo);
INSERT INTO mlvl_ref_labels(game, mlvl_id, content_id, area_index, label)
SELECT n.game, n.mlvl_id, n.content_id, n.area_index, n.label
FROM world_redo r CROSS JOIN world_area_names n
     ON n.game = r.game AND n.mlvl_id = r.mlvl_id AND n.content_id = r.content_id;
DROP TABLE temp.world_area_names;
DROP TABLE temp.world_redo;

-- ---- 2. the census of new MLVL and STRG contents -----------------------------------------
DROP TABLE IF EXISTS temp.world_new;
CREATE TEMP TABLE world_new(content_id INTEGER PRIMARY KEY, game TEXT NOT NULL,
                            type TEXT NOT NULL, asset_id INTEGER NOT NULL);
INSERT INTO world_new
SELECT content_id, game, type, asset_id FROM contents c
WHERE c.type IN ('MLVL', 'STRG')
  AND NOT EXISTS (SELECT 1 FROM census_contents x WHERE x.content_id = c.content_id);

INSERT INTO census_contents(content_id, game, field, value, count)
SELECT w.content_id, ifnull(w.game, '?'), 'warning.' || w.code, w.type, count(*)
FROM warnings w CROSS JOIN world_new n ON n.content_id = w.content_id
GROUP BY w.content_id, w.game, w.code, w.type;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT n.content_id, n.game, 'mlvl.version', printf('0x%X', w.version), 1
FROM world_new n CROSS JOIN mlvl_worlds w
     ON w.game = n.game AND w.mlvl_id = n.asset_id AND w.content_id = n.content_id;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT n.content_id, n.game, 'mlvl.unknown_after_area_count',
       CAST(w.unknown_after_area_count AS TEXT), 1
FROM world_new n CROSS JOIN mlvl_worlds w
     ON w.game = n.game AND w.mlvl_id = n.asset_id AND w.content_id = n.content_id
WHERE w.unknown_after_area_count IS NOT NULL;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT n.content_id, n.game, 'mlvl.script_layer_header', CAST(w.script_layer_header AS TEXT), 1
FROM world_new n CROSS JOIN mlvl_worlds w
     ON w.game = n.game AND w.mlvl_id = n.asset_id AND w.content_id = n.content_id;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT n.content_id, n.game, 'mlvl.script_instance_count',
       CAST(w.script_instance_count AS TEXT), 1
FROM world_new n CROSS JOIN mlvl_worlds w
     ON w.game = n.game AND w.mlvl_id = n.asset_id AND w.content_id = n.content_id;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT n.content_id, n.game, 'mlvl.unknown_string',
       CASE WHEN w.unknown_string = '' THEN '(empty)' ELSE w.unknown_string END, 1
FROM world_new n CROSS JOIN mlvl_worlds w
     ON w.game = n.game AND w.mlvl_id = n.asset_id AND w.content_id = n.content_id
WHERE w.unknown_string IS NOT NULL;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT n.content_id, n.game, 'mlvl.padding',
       CASE WHEN w.trailing_len = 0 THEN 'none' ELSE 'present' END, 1
FROM world_new n CROSS JOIN mlvl_worlds w
     ON w.game = n.game AND w.mlvl_id = n.asset_id AND w.content_id = n.content_id;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT n.content_id, n.game, 'area.unknown', CAST(a.unknown AS TEXT), count(*)
FROM world_new n CROSS JOIN mlvl_areas a
     ON a.game = n.game AND a.mlvl_id = n.asset_id AND a.content_id = n.content_id
GROUP BY n.content_id, n.game, a.unknown;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT n.content_id, n.game, 'area.layer_flags.unused_bits',
       CASE WHEN a.layer_count >= 64 THEN 'none unused'
            WHEN (a.layer_flags | ((1 << a.layer_count) - 1)) = -1 THEN 'all set'
            ELSE 'not all set' END, count(*)
FROM world_new n CROSS JOIN mlvl_areas a
     ON a.game = n.game AND a.mlvl_id = n.asset_id AND a.content_id = n.content_id
GROUP BY n.content_id, n.game, 4;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT n.content_id, n.game, 'area.dock.coordinate_count', CAST(k.coordinate_count AS TEXT),
       count(*)
FROM world_new n CROSS JOIN area_dock_links k
     ON k.game = n.game AND k.mlvl_id = n.asset_id AND k.content_id = n.content_id
WHERE k.link_index = 0
GROUP BY n.content_id, n.game, k.coordinate_count;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT n.content_id, n.game, 'strg.version', CAST(s.version AS TEXT), 1
FROM world_new n CROSS JOIN strg s
     ON s.game = n.game AND s.strg_id = n.asset_id AND s.content_id = n.content_id;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT n.content_id, n.game, 'strg.first_language', substr(s.languages, 1, 4), 1
FROM world_new n CROSS JOIN strg s
     ON s.game = n.game AND s.strg_id = n.asset_id AND s.content_id = n.content_id;
DROP TABLE temp.world_new;
