-- Warnings counted per (game, code, release): how many rows and how many distinct assets; release '(all)' is the whole corpus, then each release whose PAKs hold the warned content
-- param: [CODE_PATTERN] — only codes matching it: case-insensitive, `*` and `?` wildcards; without a wildcard, codes containing it (e.g. copy_differs, 'pas*')
WITH w AS (
    SELECT w.rowid AS wid, w.game, w.code, w.asset_id, w.pak_id, w.content_id
    FROM warnings w
    WHERE ?1 IS NULL
       OR lower(w.code) GLOB lower(CASE WHEN instr(?1, '*') OR instr(?1, '?') THEN ?1
                                        ELSE '*' || ?1 || '*' END)
),
-- the releases a warning belongs to: its PAK's, or those of every PAK holding its content
rel AS (
    SELECT w.wid, r.label
    FROM w JOIN paks p ON p.pak_id = w.pak_id JOIN releases r ON r.release_id = p.release_id
    UNION
    SELECT w.wid, r.label
    FROM w JOIN pak_entries e ON w.pak_id IS NULL AND e.content_id = w.content_id
           JOIN paks p ON p.pak_id = e.pak_id JOIN releases r ON r.release_id = p.release_id
)
SELECT game, code, count, assets, release
FROM (
    SELECT w.game, w.code, count(*) AS count, count(DISTINCT w.asset_id) AS assets,
           '(all)' AS release
    FROM w
    GROUP BY w.game, w.code
    UNION ALL
    SELECT w.game, w.code, count(*), count(DISTINCT w.asset_id), rel.label
    FROM w JOIN rel ON rel.wid = w.wid
    GROUP BY w.game, w.code, rel.label
)
ORDER BY code, game, release <> '(all)', release;
