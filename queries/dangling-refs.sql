-- References whose target asset is in no PAK of that game (IDs 0 and FFFFFFFF mean none and are never stored)
SELECT DISTINCT r.game,
       r.src_type,
       r.src_id,
       (SELECT l.label FROM asset_label l WHERE l.asset_id = r.src_id) AS src_id_name,
       r.dst_type,
       r.dst_id,
       (SELECT l.label FROM asset_label l WHERE l.asset_id = r.dst_id) AS dst_id_name,
       r.via
FROM asset_refs r
WHERE NOT EXISTS (SELECT 1 FROM assets a WHERE a.game = r.game AND a.asset_id = r.dst_id)
ORDER BY r.game, r.src_type, r.src_id, r.dst_id, r.via;
