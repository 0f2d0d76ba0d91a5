-- Decoder and loader warnings (anomalies in input that was read), by code: game, code, PAK path, asset, offset, detail
-- param: [CODE] — only warnings of this code (the table's `code` column, e.g. copy_differs, pas_magic; case-insensitive, `*` and `?` wildcards)
SELECT w.game,
       w.code,
       coalesce(p.path, dp.path) AS pak_path,
       w.type,
       w.asset_id,
       l.label AS asset_id_name,
       w.byte_offset,
       w.message AS detail
FROM warnings w
LEFT JOIN paks p ON p.pak_id = w.pak_id
LEFT JOIN paks dp ON w.pak_id IS NULL AND w.content_id IS NOT NULL
                  AND dp.pak_id = (SELECT min(e.pak_id) FROM pak_entries e
                                   WHERE e.content_id = w.content_id)
LEFT JOIN asset_label l ON l.asset_id = w.asset_id
WHERE ?1 IS NULL OR lower(w.code) GLOB lower(?1)
ORDER BY w.code, w.game, pak_path, w.asset_id, w.byte_offset;
