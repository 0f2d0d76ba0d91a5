-- Assets that differ between two releases: added (only in B), removed (only in A), changed (in both, other content), every type, with names
-- param: A — label of the first release (releases.label, e.g. GM8E01_00)
-- param: B — label of the second release
--
-- An asset is (game, type, asset_id); its content in a release is the set of content hashes
-- of the entries holding it there (inflated bytes, trailing 0xFF ignored; NULL hashes, of
-- entries that could not be read, count for presence only). One pass over both releases'
-- entries, grouped per asset (the integer asset_id first: the sort compares it before the
-- texts): whether A and B hold it, and the smallest and largest hash on each side. Sets of
-- one hash (nearly every asset) are equal when those are; when a side holds several hashes
-- and the bounds agree, the sets are compared exactly, per hash, for that asset alone.
WITH r AS (
    SELECT (SELECT release_id FROM releases WHERE label = ?1) AS ra,
           (SELECT release_id FROM releases WHERE label = ?2) AS rb
), s AS (
    SELECT p.game, e.type, e.asset_id,
           max(p.release_id = r.ra) AS in_a, max(p.release_id = r.rb) AS in_b,
           min(CASE WHEN p.release_id = r.ra THEN e.content_hash END) AS a_lo,
           max(CASE WHEN p.release_id = r.ra THEN e.content_hash END) AS a_hi,
           min(CASE WHEN p.release_id = r.rb THEN e.content_hash END) AS b_lo,
           max(CASE WHEN p.release_id = r.rb THEN e.content_hash END) AS b_hi
    FROM r CROSS JOIN paks p CROSS JOIN pak_entries e ON e.pak_id = p.pak_id
    WHERE p.release_id IN (r.ra, r.rb)
    GROUP BY e.asset_id, e.type, p.game
), d AS (
    SELECT s.game, s.type, s.asset_id,
           CASE WHEN s.in_b = 0 THEN 'removed' WHEN s.in_a = 0 THEN 'added'
                ELSE 'changed' END AS change
    FROM s CROSS JOIN r
    WHERE s.in_a = 0 OR s.in_b = 0
       OR (s.in_a = 1 AND s.in_b = 1
           AND (s.a_lo IS NOT s.b_lo OR s.a_hi IS NOT s.b_hi
                OR ((s.a_lo IS NOT s.a_hi OR s.b_lo IS NOT s.b_hi)
                    AND EXISTS (SELECT 1
                                FROM pak_entries e CROSS JOIN paks p ON p.pak_id = e.pak_id
                                WHERE e.asset_id = s.asset_id AND e.type = s.type
                                  AND p.game IS s.game AND p.release_id IN (r.ra, r.rb)
                                  AND e.content_hash IS NOT NULL
                                GROUP BY e.content_hash
                                HAVING max(p.release_id = r.ra) <> max(p.release_id = r.rb)))))
)
SELECT d.game, d.type, d.asset_id, d.change,
       (SELECT l.label FROM asset_label l WHERE l.asset_id = d.asset_id) AS asset_id_name
FROM d
ORDER BY d.game, d.change, d.type, d.asset_id;
