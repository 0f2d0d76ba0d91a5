-- References whose target asset is in no PAK of that game (IDs 0 and FFFFFFFF mean none and are never stored)
SELECT DISTINCT r.game,
       r.src_type,
       r.src_id,
       r.dst_type,
       r.dst_id,
       r.via
FROM asset_refs r
WHERE NOT EXISTS (SELECT 1 FROM assets a WHERE a.game = r.game AND a.asset_id = r.dst_id)
ORDER BY r.game, r.src_type, r.src_id, r.dst_id, r.via;
