-- Assets whose name or directory (or directory + name) contains PATTERN, case-insensitive for ASCII letters, * and ? as wildcards; with the PAKs holding them
-- param: PATTERN — a part of a name or directory, e.g. door, or with wildcards, e.g. ice_temple*door (* any run of characters, ? one character)
--
-- Names come from asset_names (every source: imported maps and the PAKs' named resources);
-- the name and directory printed are the ones asset_label shows. One row per game holding
-- the asset; an ID that no PAK holds (named by a map only) prints once with game NULL.
--
-- A name matches when directory + name is LIKE pat (PATTERN with \ % _ escaped, * -> %,
-- ? -> _, inside %...%): that LIKE alone decides every row printed. The maps' names
-- (hundreds of thousands in a large corpus) are not all tried when PATTERN has 3 characters in a row without * or ?:
-- asset_name_trigrams (db/schema/31_name_search.sql) gives the assets whose map names hold
-- the three such 3-character pieces that fewest assets hold (asset_name_trigram_docs). It
-- folds case like LIKE for ASCII and also for other letters, and the pieces need not be
-- adjacent nor in one name of the asset, so it gives a superset of the assets that match;
-- each candidate's rows are then tried with the LIKE. Without such a piece (`ab`, `a*b`,
-- `?`) every map name is tried, as before. The PAKs' names (source 'pak') are not in the
-- index: their few rows are always tried, from index asset_names_pak.
WITH RECURSIVE arg(a) AS (SELECT CAST(?1 AS TEXT)),
pat(p) AS (
    SELECT '%' || replace(replace(e, '*', '%'), '?', '_') || '%'
    FROM (SELECT replace(replace(replace(a, '\', '\\'), '%', '\%'), '_', '\_') AS e FROM arg)
),
-- k: how many characters without * or ? end at character i of PATTERN (by characters, not
-- bytes)
run(i, k) AS (
    SELECT 0, 0
    UNION ALL
    SELECT i + 1, CASE WHEN substr(a, i + 1, 1) IN ('*', '?') THEN 0 ELSE k + 1 END
    FROM run, arg WHERE i < length(a)
),
-- the 3-character pieces of PATTERN without * or ?, each with how many assets' map names
-- hold it (0: none, or a trigram with other than ASCII letters in another case)
piece(w, docs) AS (
    SELECT min(x.w), ifnull(d.docs, 0)
    FROM (SELECT substr(a, i - 2, 3) AS w FROM run, arg WHERE k >= 3) x
    LEFT JOIN asset_name_trigram_docs d ON d.trigram = lower(x.w)
    GROUP BY lower(x.w)
),
-- the three pieces fewest assets hold, as an FTS5 query: "_a7" AND "3/s" AND "g_m" (""
-- inside a string is "); NULL when there is none. More pieces find fewer candidates but
-- cost their lists of assets: 'MET' of 'METROID3/strg_metroid3_a7' is in 163,000 assets.
tri(q) AS (
    SELECT group_concat('"' || replace(w, '"', '""') || '"', ' AND ')
    FROM (SELECT w FROM piece ORDER BY docs, w LIMIT 3)
),
-- the pattern as a scalar subquery (joined as a table instead, the scan of every name
-- was several times slower); tri joined first, so that the branch it rules out is
-- not run at all (a condition on a scalar subquery is tested on every row); CROSS JOIN
-- keeps the order written (the index, then each candidate's rows) whatever the statistics
hit(asset_id) AS (
    SELECT n.asset_id -- map names, candidates from the index
    FROM tri
    CROSS JOIN asset_name_trigrams t
    CROSS JOIN asset_names n ON n.asset_id = t.rowid
    WHERE tri.q IS NOT NULL AND t.asset_name_trigrams MATCH tri.q AND n.source <> 'pak'
      AND ifnull(n.directory, '') || n.name LIKE (SELECT p FROM pat) ESCAPE '\'
    UNION
    SELECT n.asset_id -- map names, all of them
    FROM tri
    CROSS JOIN asset_names n
    WHERE tri.q IS NULL AND n.source <> 'pak'
      AND ifnull(n.directory, '') || n.name LIKE (SELECT p FROM pat) ESCAPE '\'
    UNION
    SELECT n.asset_id -- the PAKs' names
    FROM asset_names n
    WHERE n.source = 'pak'
      AND ifnull(n.directory, '') || n.name LIKE (SELECT p FROM pat) ESCAPE '\'
),
-- the PAKs holding a hit, with their file names (the path after its last /) worked out
-- once per PAK (the hits first: the 1x statistics made SQLite scan pak_entries instead)
pak_file(pak_id, game, f) AS MATERIALIZED (
    SELECT p.pak_id, p.game, substr(p.path, length(rtrim(p.path, replace(p.path, '/', ''))) + 1)
    FROM paks p
    WHERE p.pak_id IN (SELECT e.pak_id
                       FROM hit h CROSS JOIN pak_entries e ON e.asset_id = h.asset_id)
),
shown(asset_id, type, name, directory) AS (
    SELECT n.asset_id, n.type, n.name, n.directory
    FROM hit h
    CROSS JOIN asset_names n ON n.asset_id = h.asset_id
    WHERE n.source = ifnull((SELECT min(m.source) FROM asset_names m
                             WHERE m.asset_id = n.asset_id AND m.source <> 'pak'), 'pak')
)
SELECT a.game,
       ifnull(a.type, s.type) AS type,
       s.asset_id,
       s.name,
       s.directory,
       (SELECT group_concat(x.f, ', ')
        FROM (SELECT DISTINCT pf.f
              FROM pak_entries e JOIN pak_file pf ON pf.pak_id = e.pak_id
              WHERE e.asset_id = s.asset_id AND pf.game IS a.game
              ORDER BY pf.f) x) AS paks
FROM shown s
LEFT JOIN assets a ON a.game IN (SELECT DISTINCT game FROM paks) AND a.asset_id = s.asset_id
ORDER BY ifnull(s.directory, '') || s.name, s.asset_id, a.game;
