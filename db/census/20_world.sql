-- Worlds (db/schema/60_worlds.sql), run by the final pass after char_reach and before
-- census.sql:
-- 1. the asset_refs rows of every MLVL (src_type 'MLVL'), made again from the decoded rows:
--    their `via` spells the area's name, which comes from a STRG that may be ingested after the
--    MLVL or change in another release (the name a world or area has in the view `areas`);
-- 2. the census rows of the MLVL and STRG contents not counted yet (the fields docs/formats.md
--    §11 calls unknown or constant, and their decoder warnings), which census.sql then sums
--    like every other content's.
DROP TABLE IF EXISTS temp.world_area_names;
CREATE TEMP TABLE world_area_names(game TEXT NOT NULL, mlvl_id INTEGER NOT NULL,
                                   content_id INTEGER NOT NULL, area_index INTEGER NOT NULL,
                                   label TEXT NOT NULL,
                                   PRIMARY KEY (game, mlvl_id, content_id, area_index));
INSERT INTO world_area_names
SELECT game, mlvl_id, content_id, area_index,
       'area ' || area_index || ifnull(' ''' || name || '''', '')
FROM areas;

DELETE FROM asset_refs WHERE src_type = 'MLVL';
INSERT OR IGNORE INTO asset_refs(game, src_type, src_id, content_id, dst_type, dst_id,
                                 char_index, via)
SELECT d.game, 'MLVL', d.mlvl_id, d.content_id, d.type, d.asset_id, NULL,
       n.label || CASE WHEN d.layer_index < 0 THEN ' > area'
                       ELSE ' > layer ' || d.layer_index || ifnull(' ''' || l.name || '''', '')
                  END
FROM area_deps d
JOIN world_area_names n ON n.game = d.game AND n.mlvl_id = d.mlvl_id
                       AND n.content_id = d.content_id AND n.area_index = d.area_index
LEFT JOIN area_layers l ON l.game = d.game AND l.mlvl_id = d.mlvl_id
                       AND l.content_id = d.content_id AND l.area_index = d.area_index
                       AND l.layer_index = d.layer_index
WHERE d.asset_id NOT IN (0, 4294967295)
UNION ALL
SELECT a.game, 'MLVL', a.mlvl_id, a.content_id, 'MREA', a.mrea_id, NULL, n.label
FROM mlvl_areas a
JOIN world_area_names n ON n.game = a.game AND n.mlvl_id = a.mlvl_id
                       AND n.content_id = a.content_id AND n.area_index = a.area_index
WHERE a.mrea_id NOT IN (0, 4294967295)
UNION ALL
SELECT a.game, 'MLVL', a.mlvl_id, a.content_id, 'STRG', a.name_strg, NULL, n.label || ' > name'
FROM mlvl_areas a
JOIN world_area_names n ON n.game = a.game AND n.mlvl_id = a.mlvl_id
                       AND n.content_id = a.content_id AND n.area_index = a.area_index
WHERE a.name_strg NOT IN (0, 4294967295)
UNION ALL
SELECT game, 'MLVL', mlvl_id, content_id, dst_type, dst_id, NULL, via
FROM (SELECT game, mlvl_id, content_id, 'STRG' AS dst_type, world_name_strg AS dst_id,
             'world name' AS via FROM mlvl_worlds
      UNION ALL
      SELECT game, mlvl_id, content_id, 'STRG', dark_world_name_strg, 'dark world name'
      FROM mlvl_worlds
      UNION ALL
      SELECT game, mlvl_id, content_id, 'SAVW', savw_id, 'save info' FROM mlvl_worlds
      UNION ALL
      SELECT game, mlvl_id, content_id, 'MAPW', mapw_id, 'world map' FROM mlvl_worlds
      UNION ALL
      SELECT game, mlvl_id, content_id, 'CMDL', default_skybox_id, 'default skybox'
      FROM mlvl_worlds
      UNION ALL
      SELECT game, mlvl_id, content_id, 'AGSC', agsc_id, 'audio group ' || group_id
      FROM mlvl_audio_groups)
WHERE dst_id IS NOT NULL AND dst_id NOT IN (0, 4294967295);
DROP TABLE temp.world_area_names;

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
