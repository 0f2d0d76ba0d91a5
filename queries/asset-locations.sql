-- Which PAKs hold an asset: every resource-table entry with its compression and sizes
-- param: TYPE — FourCC of the asset (e.g. ANCS)
-- param: ID — asset ID (0x1A2B3C4D, 1A2B3C4D or decimal) or the asset's name (with or without its directory)
SELECT p.game,
       p.path,
       e.entry_index,
       e.type,
       e.asset_id,
       (SELECT l.label FROM asset_label l WHERE l.asset_id = e.asset_id) AS asset_id_name,
       e.compressed,
       e.data_offset,
       e.stored_size,
       e.decompressed_size,
       (SELECT group_concat(n.name) FROM pak_names n
        WHERE n.pak_id = e.pak_id AND n.asset_id = e.asset_id AND n.type = e.type) AS name
FROM pak_entries e
JOIN paks p ON p.pak_id = e.pak_id
WHERE e.asset_id = ?2 AND e.type = ?1
ORDER BY p.game, p.path, e.entry_index;
