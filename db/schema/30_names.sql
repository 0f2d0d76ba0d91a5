-- Names of assets: the PAKs' named resources (source 'pak') and imported Prime World Editor
-- asset name maps (source = the map's file name). One row per (asset, source).
CREATE TABLE asset_names (
    asset_id INTEGER NOT NULL,       -- asset ID
    type TEXT,                       -- FourCC the source gives (may disagree with the corpus)
    name TEXT NOT NULL,              -- the name (a map's <Name>, or the PAK name)
    directory TEXT,                  -- a map's <Directory> ('' or NULL for PAK names)
    source TEXT NOT NULL,            -- 'pak', or the map's file name
    auto_name INTEGER,               -- a map's <AutoGenName> (1 true, 0 false; NULL for 'pak')
    auto_dir INTEGER,                -- a map's <AutoGenDir>
    PRIMARY KEY (asset_id, source)
) WITHOUT ROWID;
-- No index in name order: `find` matches substrings (LIKE '%...%'), which such an index
-- cannot answer; it uses the trigram index of 31_name_search.sql instead.

-- The one name shown beside an asset ID everywhere (`<column>_name`): a map's directory +
-- name (the first map by source when several name the asset), else the PAK name, else no
-- row. One row per named asset ID (IDs are not per game: a map names an ID in both games).
-- A plain filtered SELECT, so SQLite flattens it into `LEFT JOIN asset_label l ON
-- l.asset_id = x.some_id` and each lookup is a search of asset_names' primary key.
CREATE VIEW asset_label AS
SELECT n.asset_id, ifnull(n.directory, '') || n.name AS label
FROM asset_names n
WHERE n.source = ifnull((SELECT min(m.source) FROM asset_names m
                         WHERE m.asset_id = n.asset_id AND m.source <> 'pak'), 'pak');
