-- Assets that differ between two releases: added (only in B), removed (only in A), changed (in both, other content), every type, with names
-- param: A — label of the first release (releases.label, e.g. GM8E01_00)
-- param: B — label of the second release
--
-- An asset is (game, type, asset_id); its content in a release is the set of content hashes
-- of the entries holding it there (inflated bytes, trailing 0xFF ignored).
WITH a AS (
    SELECT DISTINCT p.game, e.type, e.asset_id, e.content_hash AS h
    FROM pak_entries e JOIN paks p ON p.pak_id = e.pak_id
    WHERE p.release_id = (SELECT release_id FROM releases WHERE label = ?1)
), b AS (
    SELECT DISTINCT p.game, e.type, e.asset_id, e.content_hash AS h
    FROM pak_entries e JOIN paks p ON p.pak_id = e.pak_id
    WHERE p.release_id = (SELECT release_id FROM releases WHERE label = ?2)
), ka AS (
    SELECT game, type, asset_id, group_concat(h) AS hs
    FROM (SELECT * FROM a ORDER BY game, type, asset_id, h) GROUP BY game, type, asset_id
), kb AS (
    SELECT game, type, asset_id, group_concat(h) AS hs
    FROM (SELECT * FROM b ORDER BY game, type, asset_id, h) GROUP BY game, type, asset_id
), d AS (
    SELECT ka.game, ka.type, ka.asset_id,
           CASE WHEN kb.asset_id IS NULL THEN 'removed' ELSE 'changed' END AS change
    FROM ka LEFT JOIN kb ON kb.game = ka.game AND kb.type = ka.type AND kb.asset_id = ka.asset_id
    WHERE kb.asset_id IS NULL OR kb.hs IS NOT ka.hs
    UNION ALL
    SELECT kb.game, kb.type, kb.asset_id, 'added'
    FROM kb LEFT JOIN ka ON ka.game = kb.game AND ka.type = kb.type AND ka.asset_id = kb.asset_id
    WHERE ka.asset_id IS NULL
)
SELECT d.game, d.type, d.asset_id, d.change,
       (SELECT l.label FROM asset_label l WHERE l.asset_id = d.asset_id) AS asset_id_name
FROM d
ORDER BY d.game, d.change, d.type, d.asset_id;
