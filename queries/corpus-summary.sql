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
    SELECT ifnull(game, '?'), 14, 'load_errors', count(*) FROM load_errors GROUP BY game
    UNION ALL
    SELECT ifnull(game, '?'), 15, 'warnings', count(*) FROM warnings GROUP BY game
)
ORDER BY game, o, item;
