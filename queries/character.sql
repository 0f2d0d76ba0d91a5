-- One character's summary: IDs, animation names, particle references, the releases holding it, one row per distinct content (by name or a part of it, or every character of an ANCS by its ID)
-- param: NAME_OR_ID — character name or a part of it (case-insensitive; also matched against the ANCS's asset name), or the ANCS asset ID
SELECT c.game,
       c.ancs_id,
       la.label AS ancs_id_name,
       c.char_index,
       c.char_id,
       c.name,
       c.version,
       c.model_id,
       lm.label AS model_id_name,
       c.skin_id,
       ls.label AS skin_id_name,
       c.skeleton_id,
       lk.label AS skeleton_id_name,
       c.frozen_model_id,
       lfm.label AS frozen_model_id_name,
       c.frozen_skin_id,
       lfs.label AS frozen_skin_id_name,
       c.cspp_id,
       lc.label AS cspp_id_name,
       (SELECT group_concat(a.anim_id || ':' || a.name || ifnull('->' || a.anim_index, ''), ', ')
        FROM (SELECT * FROM character_anims x
              WHERE x.game = c.game AND x.ancs_id = c.ancs_id AND x.content_id = c.content_id
                AND x.char_index = c.char_index
              ORDER BY x.seq) a) AS animations,
       (SELECT group_concat(ifnull(p.particle_type, '????') || ' ' || printf('%08X', p.particle_id)
                            || ifnull(' ' || (SELECT l.label FROM asset_label l
                                              WHERE l.asset_id = p.particle_id), '')
                            || ' (' || p.list || ')', ', ')
        FROM (SELECT * FROM particle_refs y
              WHERE y.game = c.game AND y.ancs_id = c.ancs_id AND y.content_id = c.content_id
                AND y.char_index = c.char_index
              ORDER BY y.source DESC, y.list, y.effect_index, y.seq) p) AS particle_refs,
       (SELECT group_concat(DISTINCT r.dst_type || ' ' || printf('%08X', r.dst_id)
                            || ifnull(' ' || l.label, ''))
        FROM asset_refs r LEFT JOIN asset_label l ON l.asset_id = r.dst_id
        WHERE r.game = c.game AND r.src_type = 'ANCS' AND r.src_id = c.ancs_id
          AND r.content_id = c.content_id AND r.char_index = c.char_index
          AND r.via = 'event') AS event_particles_mp2,
       (SELECT group_concat(DISTINCT printf('%08X', r.dst_id) || ifnull(' ' || l.label, ''))
        FROM asset_refs r LEFT JOIN asset_label l ON l.asset_id = r.dst_id
        WHERE r.game = c.game AND r.src_type = 'ANCS' AND r.src_id = c.ancs_id
          AND r.content_id = c.content_id AND r.char_index = c.char_index
          AND r.dst_type = 'EVNT') AS evnt_reached,
       (SELECT group_concat(v.release, ', ')
        FROM (SELECT DISTINCT release FROM v_content_releases v0
              WHERE v0.content_id = c.content_id ORDER BY release) v) AS releases
FROM characters c
LEFT JOIN asset_label la ON la.asset_id = c.ancs_id
LEFT JOIN asset_label lm ON lm.asset_id = c.model_id
LEFT JOIN asset_label ls ON ls.asset_id = c.skin_id
LEFT JOIN asset_label lk ON lk.asset_id = c.skeleton_id
LEFT JOIN asset_label lfm ON lfm.asset_id = c.frozen_model_id
LEFT JOIN asset_label lfs ON lfs.asset_id = c.frozen_skin_id
LEFT JOIN asset_label lc ON lc.asset_id = c.cspp_id
WHERE instr(lower(c.name), lower(?1)) > 0
   OR instr(lower(la.label), lower(?1)) > 0
   OR (typeof(?1) = 'integer' AND c.ancs_id = ?1)
ORDER BY c.game, c.ancs_id, c.char_index, c.content_id;
