-- Decoded values that differ between two releases, for every ANCS and EVNT whose content changed: one row per value (field as table.column), value_a and value_b (NULL on the side where the list entry does not exist)
-- param: A — label of the first release (releases.label)
-- param: B — label of the second release
--
-- Lists are matched by position: characters by char_index, animation names and particle
-- references by their position in the character's list, animations by index, events by
-- (owner, event set, kind, node position). char_index is NULL outside a character.
WITH ca AS (
    SELECT DISTINCT c.game, c.type, c.asset_id, c.content_id
    FROM pak_entries e JOIN paks p ON p.pak_id = e.pak_id
    JOIN contents c ON c.content_id = e.content_id
    WHERE p.release_id = (SELECT release_id FROM releases WHERE label = ?1)
), cb AS (
    SELECT DISTINCT c.game, c.type, c.asset_id, c.content_id
    FROM pak_entries e JOIN paks p ON p.pak_id = e.pak_id
    JOIN contents c ON c.content_id = e.content_id
    WHERE p.release_id = (SELECT release_id FROM releases WHERE label = ?2)
), pr AS (
    SELECT game, type, asset_id, xa, xb FROM (
        SELECT k.game, k.type, k.asset_id,
               (SELECT min(content_id) FROM ca WHERE ca.game = k.game AND ca.type = k.type
                                                 AND ca.asset_id = k.asset_id) AS xa,
               (SELECT min(content_id) FROM cb WHERE cb.game = k.game AND cb.type = k.type
                                                 AND cb.asset_id = k.asset_id) AS xb
        FROM (SELECT DISTINCT game, type, asset_id FROM ca
              INTERSECT SELECT DISTINCT game, type, asset_id FROM cb) k)
    WHERE xa <> xb
), chk AS (
    SELECT DISTINCT pr.game, pr.type, pr.asset_id, pr.xa, pr.xb, c.char_index
    FROM pr JOIN characters c ON c.game = pr.game AND c.ancs_id = pr.asset_id
                             AND c.content_id IN (pr.xa, pr.xb)
    WHERE pr.type = 'ANCS'
), charf(f) AS (
    VALUES ('char_id'), ('version'), ('name'), ('model_id'), ('skin_id'), ('skeleton_id'),
           ('frozen_model_id'), ('frozen_skin_id'), ('cspp_id'), ('unknown_a'), ('unknown_b'),
           ('unknown_c'), ('anim_name_count'), ('part_count'), ('swhc_count'),
           ('third_list_count'), ('elsc_count'), ('spsc_count'), ('aabb_count'),
           ('effect_count'), ('id_map_count'), ('indexed_aabb_count'), ('pas_state_count')
), char_rows AS (
    SELECT k.game, k.type, k.asset_id, k.char_index, 'characters.' || f.f AS field,
           CASE f.f WHEN 'char_id' THEN a.char_id WHEN 'version' THEN a.version
                    WHEN 'name' THEN a.name WHEN 'model_id' THEN a.model_id
                    WHEN 'skin_id' THEN a.skin_id WHEN 'skeleton_id' THEN a.skeleton_id
                    WHEN 'frozen_model_id' THEN a.frozen_model_id
                    WHEN 'frozen_skin_id' THEN a.frozen_skin_id WHEN 'cspp_id' THEN a.cspp_id
                    WHEN 'unknown_a' THEN a.unknown_a WHEN 'unknown_b' THEN a.unknown_b
                    WHEN 'unknown_c' THEN a.unknown_c WHEN 'anim_name_count' THEN a.anim_name_count
                    WHEN 'part_count' THEN a.part_count WHEN 'swhc_count' THEN a.swhc_count
                    WHEN 'third_list_count' THEN a.third_list_count
                    WHEN 'elsc_count' THEN a.elsc_count WHEN 'spsc_count' THEN a.spsc_count
                    WHEN 'aabb_count' THEN a.aabb_count WHEN 'effect_count' THEN a.effect_count
                    WHEN 'id_map_count' THEN a.id_map_count
                    WHEN 'indexed_aabb_count' THEN a.indexed_aabb_count
                    WHEN 'pas_state_count' THEN a.pas_state_count END AS value_a,
           CASE f.f WHEN 'char_id' THEN b.char_id WHEN 'version' THEN b.version
                    WHEN 'name' THEN b.name WHEN 'model_id' THEN b.model_id
                    WHEN 'skin_id' THEN b.skin_id WHEN 'skeleton_id' THEN b.skeleton_id
                    WHEN 'frozen_model_id' THEN b.frozen_model_id
                    WHEN 'frozen_skin_id' THEN b.frozen_skin_id WHEN 'cspp_id' THEN b.cspp_id
                    WHEN 'unknown_a' THEN b.unknown_a WHEN 'unknown_b' THEN b.unknown_b
                    WHEN 'unknown_c' THEN b.unknown_c WHEN 'anim_name_count' THEN b.anim_name_count
                    WHEN 'part_count' THEN b.part_count WHEN 'swhc_count' THEN b.swhc_count
                    WHEN 'third_list_count' THEN b.third_list_count
                    WHEN 'elsc_count' THEN b.elsc_count WHEN 'spsc_count' THEN b.spsc_count
                    WHEN 'aabb_count' THEN b.aabb_count WHEN 'effect_count' THEN b.effect_count
                    WHEN 'id_map_count' THEN b.id_map_count
                    WHEN 'indexed_aabb_count' THEN b.indexed_aabb_count
                    WHEN 'pas_state_count' THEN b.pas_state_count END AS value_b,
           1 AS o, f.f AS k1, 0 AS k2, '' AS k3
    FROM chk k JOIN charf f
    LEFT JOIN characters a ON a.game = k.game AND a.ancs_id = k.asset_id
                          AND a.content_id = k.xa AND a.char_index = k.char_index
    LEFT JOIN characters b ON b.game = k.game AND b.ancs_id = k.asset_id
                          AND b.content_id = k.xb AND b.char_index = k.char_index
), anim_keys AS (
    SELECT DISTINCT pr.game, pr.type, pr.asset_id, pr.xa, pr.xb, x.char_index, x.seq
    FROM pr JOIN character_anims x ON x.game = pr.game AND x.ancs_id = pr.asset_id
                                  AND x.content_id IN (pr.xa, pr.xb)
), anim_rows AS (
    SELECT k.game, k.type, k.asset_id, k.char_index, 'character_anims.' || f.f AS field,
           CASE f.f WHEN 'anim_id' THEN a.anim_id ELSE a.name END AS value_a,
           CASE f.f WHEN 'anim_id' THEN b.anim_id ELSE b.name END AS value_b,
           2 AS o, f.f AS k1, k.seq AS k2, '' AS k3
    FROM anim_keys k JOIN (SELECT 'anim_id' AS f UNION ALL SELECT 'name') f
    LEFT JOIN character_anims a ON a.game = k.game AND a.ancs_id = k.asset_id
         AND a.content_id = k.xa AND a.char_index = k.char_index AND a.seq = k.seq
    LEFT JOIN character_anims b ON b.game = k.game AND b.ancs_id = k.asset_id
         AND b.content_id = k.xb AND b.char_index = k.char_index AND b.seq = k.seq
), pref_keys AS (
    SELECT DISTINCT pr.game, pr.type, pr.asset_id, pr.xa, pr.xb, x.char_index, x.source, x.list,
           ifnull(x.effect_index, -1) AS effect_index, x.seq
    FROM pr JOIN particle_refs x ON x.game = pr.game AND x.ancs_id = pr.asset_id
                                AND x.content_id IN (pr.xa, pr.xb)
), pref_rows AS (
    SELECT k.game, k.type, k.asset_id, k.char_index, 'particle_refs.' || f.f AS field,
           CASE f.f WHEN 'particle_id' THEN a.particle_id ELSE a.particle_type END AS value_a,
           CASE f.f WHEN 'particle_id' THEN b.particle_id ELSE b.particle_type END AS value_b,
           3 AS o, k.list || ':' || k.effect_index, k.seq, f.f
    FROM pref_keys k JOIN (SELECT 'particle_type' AS f UNION ALL SELECT 'particle_id') f
    LEFT JOIN particle_refs a ON a.game = k.game AND a.ancs_id = k.asset_id
         AND a.content_id = k.xa AND a.char_index = k.char_index AND a.source = k.source
         AND a.list = k.list AND ifnull(a.effect_index, -1) = k.effect_index AND a.seq = k.seq
    LEFT JOIN particle_refs b ON b.game = k.game AND b.ancs_id = k.asset_id
         AND b.content_id = k.xb AND b.char_index = k.char_index AND b.source = k.source
         AND b.list = k.list AND ifnull(b.effect_index, -1) = k.effect_index AND b.seq = k.seq
), animation_keys AS (
    SELECT DISTINCT pr.game, pr.type, pr.asset_id, pr.xa, pr.xb, x.anim_index
    FROM pr JOIN animations x ON x.game = pr.game AND x.ancs_id = pr.asset_id
                             AND x.content_id IN (pr.xa, pr.xb)
), animation_rows AS (
    SELECT k.game, k.type, k.asset_id, NULL AS char_index, 'animations.name' AS field,
           a.name AS value_a, b.name AS value_b, 4 AS o, '' AS k1, k.anim_index AS k2, '' AS k3
    FROM animation_keys k
    LEFT JOIN animations a ON a.game = k.game AND a.ancs_id = k.asset_id
         AND a.content_id = k.xa AND a.anim_index = k.anim_index
    LEFT JOIN animations b ON b.game = k.game AND b.ancs_id = k.asset_id
         AND b.content_id = k.xb AND b.anim_index = k.anim_index
), prim_keys AS (
    SELECT DISTINCT pr.game, pr.type, pr.asset_id, pr.xa, pr.xb, x.owner, x.owner_index, x.seq
    FROM pr JOIN anim_primitives x ON x.game = pr.game AND x.ancs_id = pr.asset_id
                                  AND x.content_id IN (pr.xa, pr.xb)
), prim_rows AS (
    SELECT k.game, k.type, k.asset_id, NULL AS char_index, 'anim_primitives.' || f.f AS field,
           CASE f.f WHEN 'anim_asset_id' THEN a.anim_asset_id WHEN 'primitive_id'
                    THEN a.primitive_id ELSE a.name END AS value_a,
           CASE f.f WHEN 'anim_asset_id' THEN b.anim_asset_id WHEN 'primitive_id'
                    THEN b.primitive_id ELSE b.name END AS value_b,
           5 AS o, k.owner || ':' || k.owner_index, k.seq, f.f
    FROM prim_keys k
    JOIN (SELECT 'anim_asset_id' AS f UNION ALL SELECT 'primitive_id' UNION ALL SELECT 'name') f
    LEFT JOIN anim_primitives a ON a.game = k.game AND a.ancs_id = k.asset_id
         AND a.content_id = k.xa AND a.owner = k.owner AND a.owner_index = k.owner_index
         AND a.seq = k.seq
    LEFT JOIN anim_primitives b ON b.game = k.game AND b.ancs_id = k.asset_id
         AND b.content_id = k.xb AND b.owner = k.owner AND b.owner_index = k.owner_index
         AND b.seq = k.seq
), pair_keys AS (
    SELECT DISTINCT pr.game, pr.type, pr.asset_id, pr.xa, pr.xb, x.res_index
    FROM pr JOIN animation_resources x ON x.game = pr.game AND x.ancs_id = pr.asset_id
                                      AND x.content_id IN (pr.xa, pr.xb)
), pair_rows AS (
    SELECT k.game, k.type, k.asset_id, NULL AS char_index, 'animation_resources.' || f.f AS field,
           CASE f.f WHEN 'anim_asset_id' THEN a.anim_asset_id ELSE a.evnt_asset_id END AS value_a,
           CASE f.f WHEN 'anim_asset_id' THEN b.anim_asset_id ELSE b.evnt_asset_id END AS value_b,
           6 AS o, '' AS k1, k.res_index AS k2, f.f AS k3
    FROM pair_keys k JOIN (SELECT 'anim_asset_id' AS f UNION ALL SELECT 'evnt_asset_id') f
    LEFT JOIN animation_resources a ON a.game = k.game AND a.ancs_id = k.asset_id
         AND a.content_id = k.xa AND a.res_index = k.res_index
    LEFT JOIN animation_resources b ON b.game = k.game AND b.ancs_id = k.asset_id
         AND b.content_id = k.xb AND b.res_index = k.res_index
), ev_keys AS (
    SELECT DISTINCT pr.game, pr.type, pr.asset_id, pr.xa, pr.xb, ifnull(x.anim_index, -1) AS ai,
           x.kind, x.node_index
    FROM pr JOIN events x ON x.game = pr.game AND x.owner_type = pr.type
                         AND x.owner_id = pr.asset_id AND x.content_id IN (pr.xa, pr.xb)
), evf(f) AS (
    VALUES ('name'), ('poi_type'), ('time'), ('char_index'), ('flags'), ('value'),
           ('locator_name'), ('duration'), ('particle_type'), ('particle_id'), ('bone_name'),
           ('bone_id'), ('scale'), ('sound_id'), ('falloff'), ('max_distance')
), ev_rows AS (
    SELECT k.game, k.type, k.asset_id, NULL AS char_index, 'events.' || f.f AS field,
           CASE f.f WHEN 'name' THEN a.name WHEN 'poi_type' THEN a.poi_type
                    WHEN 'time' THEN a.time WHEN 'char_index' THEN a.char_index
                    WHEN 'flags' THEN a.flags WHEN 'value' THEN a.value
                    WHEN 'locator_name' THEN a.locator_name WHEN 'duration' THEN a.duration
                    WHEN 'particle_type' THEN a.particle_type
                    WHEN 'particle_id' THEN a.particle_id WHEN 'bone_name' THEN a.bone_name
                    WHEN 'bone_id' THEN a.bone_id WHEN 'scale' THEN a.scale
                    WHEN 'sound_id' THEN a.sound_id WHEN 'falloff' THEN a.falloff
                    WHEN 'max_distance' THEN a.max_distance END AS value_a,
           CASE f.f WHEN 'name' THEN b.name WHEN 'poi_type' THEN b.poi_type
                    WHEN 'time' THEN b.time WHEN 'char_index' THEN b.char_index
                    WHEN 'flags' THEN b.flags WHEN 'value' THEN b.value
                    WHEN 'locator_name' THEN b.locator_name WHEN 'duration' THEN b.duration
                    WHEN 'particle_type' THEN b.particle_type
                    WHEN 'particle_id' THEN b.particle_id WHEN 'bone_name' THEN b.bone_name
                    WHEN 'bone_id' THEN b.bone_id WHEN 'scale' THEN b.scale
                    WHEN 'sound_id' THEN b.sound_id WHEN 'falloff' THEN b.falloff
                    WHEN 'max_distance' THEN b.max_distance END AS value_b,
           7 AS o, k.ai || ':' || k.kind, k.node_index, f.f
    FROM ev_keys k JOIN evf f
    LEFT JOIN events a ON a.game = k.game AND a.owner_type = k.type AND a.owner_id = k.asset_id
         AND a.content_id = k.xa AND ifnull(a.anim_index, -1) = k.ai AND a.kind = k.kind
         AND a.node_index = k.node_index
    LEFT JOIN events b ON b.game = k.game AND b.owner_type = k.type AND b.owner_id = k.asset_id
         AND b.content_id = k.xb AND ifnull(b.anim_index, -1) = k.ai AND b.kind = k.kind
         AND b.node_index = k.node_index
), set_rows AS (
    SELECT pr.game, pr.type, pr.asset_id, NULL AS char_index, 'ancs.' || f.f AS field,
           CASE f.f WHEN 'character_count' THEN a.character_count
                    WHEN 'animation_count' THEN a.animation_count
                    WHEN 'transition_count' THEN a.transition_count
                    WHEN 'animset_version' THEN a.animset_version END AS value_a,
           CASE f.f WHEN 'character_count' THEN b.character_count
                    WHEN 'animation_count' THEN b.animation_count
                    WHEN 'transition_count' THEN b.transition_count
                    WHEN 'animset_version' THEN b.animset_version END AS value_b,
           0 AS o, f.f AS k1, 0 AS k2, '' AS k3
    FROM pr JOIN (SELECT 'character_count' AS f UNION ALL SELECT 'animation_count'
                  UNION ALL SELECT 'transition_count' UNION ALL SELECT 'animset_version') f
    LEFT JOIN ancs a ON a.game = pr.game AND a.asset_id = pr.asset_id AND a.content_id = pr.xa
    LEFT JOIN ancs b ON b.game = pr.game AND b.asset_id = pr.asset_id AND b.content_id = pr.xb
    WHERE pr.type = 'ANCS'
), id_fields(f) AS (
    -- fields holding asset IDs print as 8 hex digits, like every asset ID (character IDs
    -- and primitive IDs are numbers, not assets; sound IDs print as 0x + 8 hex digits, as
    -- everywhere)
    VALUES ('characters.model_id'), ('characters.skin_id'), ('characters.skeleton_id'),
           ('characters.frozen_model_id'), ('characters.frozen_skin_id'),
           ('characters.cspp_id'), ('particle_refs.particle_id'), ('events.particle_id'),
           ('anim_primitives.anim_asset_id'), ('animation_resources.anim_asset_id'),
           ('animation_resources.evnt_asset_id')
), allrows AS (
    SELECT * FROM set_rows UNION ALL SELECT * FROM char_rows UNION ALL SELECT * FROM anim_rows
    UNION ALL SELECT * FROM pref_rows UNION ALL SELECT * FROM animation_rows
    UNION ALL SELECT * FROM prim_rows UNION ALL SELECT * FROM pair_rows
    UNION ALL SELECT * FROM ev_rows
)
SELECT game, type, asset_id,
       (SELECT l.label FROM asset_label l WHERE l.asset_id = r.asset_id) AS asset_id_name,
       char_index, field,
       CASE WHEN r.field IN (SELECT f FROM id_fields) AND typeof(r.value_a) = 'integer'
            THEN printf('%08X', r.value_a)
            WHEN r.field = 'events.sound_id' AND typeof(r.value_a) = 'integer'
            THEN printf('0x%08X', r.value_a) ELSE r.value_a END AS value_a,
       CASE WHEN r.field IN (SELECT f FROM id_fields) AND typeof(r.value_b) = 'integer'
            THEN printf('%08X', r.value_b)
            WHEN r.field = 'events.sound_id' AND typeof(r.value_b) = 'integer'
            THEN printf('0x%08X', r.value_b) ELSE r.value_b END AS value_b
FROM allrows r
WHERE value_a IS NOT value_b
ORDER BY game, type, asset_id, char_index IS NOT NULL, char_index, o, k1, k2, k3;
