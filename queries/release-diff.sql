-- Assets that differ between two releases: added (only in B), removed (only in A), changed (in both, other content), every type, with names
-- param: A — label of the first release (releases.label, e.g. GM8E01_00)
-- param: B — label of the second release
--
-- An asset is (game, type, asset_id); its content in a release is the set of content hashes
-- of the entries holding it there (inflated bytes, trailing 0xFF ignored). One pass over
-- both releases' entries: per (asset, hash) in which release it occurs, then per asset.
WITH r AS (
    SELECT (SELECT release_id FROM releases WHERE label = ?1) AS ra,
           (SELECT release_id FROM releases WHERE label = ?2) AS rb
), x AS (
    SELECT p.game, e.type, e.asset_id, e.content_hash AS h,
           max(p.release_id = r.ra) AS in_a, max(p.release_id = r.rb) AS in_b
    FROM r CROSS JOIN paks p CROSS JOIN pak_entries e ON e.pak_id = p.pak_id
    WHERE p.release_id IN (r.ra, r.rb)
    GROUP BY p.game, e.type, e.asset_id, e.content_hash
), d AS (
    SELECT game, type, asset_id,
           CASE WHEN max(in_b) = 0 THEN 'removed' WHEN max(in_a) = 0 THEN 'added'
                ELSE 'changed' END AS change
    FROM x GROUP BY game, type, asset_id
    HAVING max(in_a) = 0 OR max(in_b) = 0 OR max(h IS NOT NULL AND in_a <> in_b) = 1
)
SELECT d.game, d.type, d.asset_id, d.change,
       (SELECT l.label FROM asset_label l WHERE l.asset_id = d.asset_id) AS asset_id_name
FROM d
ORDER BY d.game, d.change, d.type, d.asset_id;
