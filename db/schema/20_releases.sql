-- Releases: one build of one game as it shipped (a disc). Every PAK belongs to one release
-- (paks.release_id); decoded rows belong to contents (contents.content_id), and a release
-- sees the contents its PAK entries hold.
CREATE TABLE releases (
    release_id INTEGER PRIMARY KEY,  -- row id
    label TEXT NOT NULL UNIQUE,      -- GM8E01_00 (disc: game code + revision), --release LABEL,
                                     -- or the base name of the path given
    game TEXT,                       -- 'MP1' / 'MP2'; NULL when it holds PAKs of both games
    game_code TEXT,                  -- disc header: 6-character game code (NULL without a disc)
    maker TEXT,                      -- disc header: maker code ('01')
    disc INTEGER,                    -- disc header: disc number
    revision INTEGER,                -- disc header: revision
    region TEXT,                     -- 'NTSC-U', 'PAL', 'NTSC-J', 'NTSC-K' (game code's 4th letter)
    title TEXT,                      -- disc header: game title
    source TEXT,                     -- where it was last read from (image, folder or file)
    source_kind TEXT                 -- 'image', 'extracted', 'folder', 'file'
);

-- `assets` within each release: one row per release, game and asset ID with the first type in
-- text order, the copies and the distinct PAKs holding it in that release (rebuilt with
-- `assets` by every final pass; what `--release` shows as `assets`).
CREATE TABLE release_assets (
    release_id INTEGER NOT NULL,     -- releases.release_id
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    asset_id INTEGER NOT NULL,       -- asset ID
    type TEXT NOT NULL,              -- FourCC (the smallest one when entries disagree)
    copies INTEGER NOT NULL,         -- resource-table entries holding it in the release
    pak_count INTEGER NOT NULL,      -- distinct PAKs of the release holding it
    PRIMARY KEY (release_id, game, asset_id)
) WITHOUT ROWID;

-- Which releases hold each content: one row per (content, release).
CREATE VIEW v_content_releases AS
SELECT DISTINCT e.content_id, c.game, c.type, c.asset_id, p.release_id, r.label AS release
FROM pak_entries e
JOIN paks p ON p.pak_id = e.pak_id
JOIN releases r ON r.release_id = p.release_id
JOIN contents c ON c.content_id = e.content_id
WHERE e.content_id IS NOT NULL;

-- One row per release: where it came from and what it holds.
CREATE VIEW v_releases AS
SELECT r.label, r.game, r.game_code, r.revision, r.region, r.title, r.source,
       (SELECT count(*) FROM paks p WHERE p.release_id = r.release_id) AS paks,
       (SELECT count(*) FROM pak_entries e JOIN paks p USING (pak_id)
        WHERE p.release_id = r.release_id) AS entries
FROM releases r;
