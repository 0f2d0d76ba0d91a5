-- Counts per game: PAKs, entries, distinct assets per type, decoded ANCS/EVNT, characters, errors, warnings
SELECT game, item, count FROM (
    SELECT game, 1 AS o, 'paks' AS item, count(*) AS count FROM paks GROUP BY game
    UNION ALL
    SELECT game, 2, 'paks_unreadable', count(*) FROM paks WHERE status <> 'ok' GROUP BY game
    UNION ALL
    SELECT p.game, 3, 'entries', count(*) FROM pak_entries e JOIN paks p USING (pak_id)
    GROUP BY p.game
    UNION ALL
    SELECT p.game, 4, 'entries_compressed', count(*) FROM pak_entries e JOIN paks p USING (pak_id)
    WHERE e.compressed <> 0 GROUP BY p.game
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
ORDER BY game, o, item;
