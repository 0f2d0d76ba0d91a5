-- References whose target asset is in no PAK of that game (IDs 0 and FFFFFFFF mean none and are never stored)
-- (each target looked up once, in the order of asset_refs_dst, then the references to the
-- missing ones: at 10x a lookup per reference took twice as long)
WITH targets AS (SELECT DISTINCT dst_id, game FROM asset_refs),
     missing AS (SELECT t.dst_id, t.game FROM targets t
                 WHERE NOT EXISTS (SELECT 1 FROM assets a
                                   WHERE a.game = t.game AND a.asset_id = t.dst_id))
SELECT DISTINCT r.game,
       r.src_type,
       r.src_id,
       (SELECT l.label FROM asset_label l WHERE l.asset_id = r.src_id) AS src_id_name,
       r.dst_type,
       r.dst_id,
       (SELECT l.label FROM asset_label l WHERE l.asset_id = r.dst_id) AS dst_id_name,
       r.via
FROM missing m JOIN asset_refs r ON r.dst_id = m.dst_id AND r.game = m.game
ORDER BY r.game, r.src_type, r.src_id, r.dst_id, r.via;
