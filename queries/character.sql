-- One character's summary: IDs, animation names, particle references (by name, or every character of an ANCS by its ID)
-- param: NAME_OR_ID — character name (case-insensitive) or the ANCS asset ID
SELECT c.game,
       c.ancs_id,
       c.char_index,
       c.char_id,
       c.name,
       c.version,
       c.model_id,
       c.skin_id,
       c.skeleton_id,
       c.frozen_model_id,
       c.frozen_skin_id,
       c.cspp_id,
       (SELECT group_concat(a.anim_id || ':' || a.name || ifnull('->' || a.anim_index, ''), ', ')
        FROM (SELECT * FROM character_anims x
              WHERE x.game = c.game AND x.ancs_id = c.ancs_id AND x.char_index = c.char_index
              ORDER BY x.seq) a) AS animations,
       (SELECT group_concat(ifnull(p.particle_type, '????') || ' ' || printf('%08X', p.particle_id)
                            || ' (' || p.list || ')', ', ')
        FROM (SELECT * FROM particle_refs y
              WHERE y.game = c.game AND y.ancs_id = c.ancs_id AND y.char_index = c.char_index
              ORDER BY y.source DESC, y.list, y.effect_index, y.seq) p) AS particle_refs,
       (SELECT group_concat(DISTINCT r.dst_type || ' ' || printf('%08X', r.dst_id))
        FROM asset_refs r
        WHERE r.game = c.game AND r.src_type = 'ANCS' AND r.src_id = c.ancs_id
          AND r.char_index = c.char_index AND r.via = 'event') AS event_particles_mp2,
       (SELECT group_concat(DISTINCT printf('%08X', r.dst_id))
        FROM asset_refs r
        WHERE r.game = c.game AND r.src_type = 'ANCS' AND r.src_id = c.ancs_id
          AND r.char_index = c.char_index AND r.dst_type = 'EVNT') AS evnt_reached
FROM characters c
WHERE c.name = ?1 COLLATE NOCASE
   OR (typeof(?1) = 'integer' AND c.ancs_id = ?1)
ORDER BY c.game, c.ancs_id, c.char_index;
