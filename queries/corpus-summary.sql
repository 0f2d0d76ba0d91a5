-- Counts per game (release '(all)') and per game and release: PAKs, entries, distinct assets per type, decoded ANCS/EVNT contents, characters, errors, warnings
-- (each table read once: the entries per game and release, the decoded contents per release)
WITH ent AS MATERIALIZED (
    SELECT p.game, p.release_id, count(*) AS n, sum(e.compressed <> 0) AS nc
    FROM pak_entries e JOIN paks p USING (pak_id)
    GROUP BY p.game, p.release_id
),
cr AS MATERIALIZED (
    SELECT DISTINCT content_id, game, type, release FROM v_content_releases
    WHERE type IN ('ANCS', 'EVNT')
)
SELECT game, item, count, release FROM (
SELECT game, '(all)' AS release, o, item, count FROM (
    SELECT game, 1 AS o, 'paks' AS item, count(*) AS count FROM paks GROUP BY game
    UNION ALL
    SELECT game, 2, 'paks_unreadable', count(*) FROM paks WHERE status <> 'ok' GROUP BY game
    UNION ALL
    SELECT game, 3, 'entries', sum(n) FROM ent GROUP BY game
    UNION ALL
    SELECT game, 4, 'entries_compressed', sum(nc) FROM ent GROUP BY game HAVING sum(nc) > 0
    UNION ALL
    SELECT game, 5, 'assets', count(*) FROM assets GROUP BY game
    UNION ALL
    SELECT game, 6, 'assets.' || type, count(*) FROM assets GROUP BY game, type
    UNION ALL
    SELECT game, 7, 'ancs_decoded', count(*) FROM ancs GROUP BY game
    UNION ALL
    SELECT game, 8, 'characters', count(*) FROM characters GROUP BY game
    UNION ALL
    SELECT game, 9, 'animations', count(*) FROM animations GROUP BY game
    UNION ALL
    SELECT game, 10, 'evnt_decoded', count(*) FROM evnt GROUP BY game
    UNION ALL
    SELECT game, 11, 'event_sets', count(*) FROM event_sets GROUP BY game
    UNION ALL
    SELECT game, 12, 'events', count(*) FROM events GROUP BY game
    UNION ALL
    SELECT game, 13, 'asset_refs', count(*) FROM asset_refs GROUP BY game
    UNION ALL
    -- load errors and warnings: a row for every game, 0 when there are none
    SELECT g.game, 14, 'load_errors', (SELECT count(*) FROM load_errors l WHERE l.game = g.game)
    FROM (SELECT game FROM paks UNION SELECT game FROM load_errors UNION SELECT game FROM warnings) g
    WHERE g.game IS NOT NULL
    UNION ALL
    SELECT '?', 14, 'load_errors', count(*) FROM load_errors WHERE game IS NULL
    HAVING count(*) > 0
    UNION ALL
    SELECT g.game, 15, 'warnings', (SELECT count(*) FROM warnings w WHERE w.game = g.game)
    FROM (SELECT game FROM paks UNION SELECT game FROM load_errors UNION SELECT game FROM warnings) g
    WHERE g.game IS NOT NULL
    UNION ALL
    SELECT '?', 15, 'warnings', count(*) FROM warnings WHERE game IS NULL HAVING count(*) > 0
)
UNION ALL
SELECT game, release, o, item, count FROM (
    SELECT p.game, r.label AS release, 1 AS o, 'paks' AS item, count(*) AS count
    FROM paks p JOIN releases r USING (release_id) GROUP BY p.game, r.label
    UNION ALL
    SELECT e.game, r.label, 3, 'entries', sum(e.n)
    FROM ent e JOIN releases r USING (release_id)
    GROUP BY e.game, r.label
    UNION ALL
    SELECT a.game, r.label, 5, 'assets', count(*)
    FROM release_assets a JOIN releases r USING (release_id) GROUP BY a.game, r.label
    UNION ALL
    SELECT game, release, 7, 'ancs_decoded', count(*) FROM cr
    WHERE type = 'ANCS' GROUP BY game, release
    UNION ALL
    SELECT v.game, v.release, 8, 'characters', count(*)
    FROM cr v JOIN characters c ON c.content_id = v.content_id
    GROUP BY v.game, v.release
    UNION ALL
    SELECT game, release, 10, 'evnt_decoded', count(*) FROM cr
    WHERE type = 'EVNT' GROUP BY game, release
    UNION ALL
    SELECT ifnull(l.game, '?'), r.label, 14, 'load_errors', count(*)
    FROM load_errors l JOIN releases r USING (release_id) GROUP BY l.game, r.label)
)
ORDER BY game, release <> '(all)', release, o, item;
