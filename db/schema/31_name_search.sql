-- Schema version 6: what `find` searches names with. A database of version 5 opened for
-- writing gets these objects (this file run alone), their rows, and version 6.

-- The trigrams (every run of 3 characters, case folded) of each asset's map names:
-- rowid = asset ID, one row per asset that an imported map names, its text = the directory
-- + name of each map's row (by source) joined by a line feed. Only an index (contentless:
-- the text is not kept; `detail=none`: no positions; `columnsize=0`: no lengths), so it
-- tells which assets hold all of a few 3-character strings: `find` asks it for some
-- 3-character pieces of its pattern and checks the candidates' names exactly. Written only
-- by `names import` (emptied and filled again from asset_names in the import's
-- transaction); the PAKs' names (source 'pak') are not in it.
CREATE VIRTUAL TABLE asset_name_trigrams USING fts5(
    text, content='', detail=none, columnsize=0, tokenize='trigram');
-- Written all at once and then merged into one b-tree ('optimize'): no merging as it is
-- written, and a larger batch of trigrams gathered in memory per write than FTS5's default
-- (fewer, larger writes, for a few MiB more of peak memory).
INSERT INTO asset_name_trigrams(asset_name_trigrams, rank) VALUES ('automerge', 0);
INSERT INTO asset_name_trigrams(asset_name_trigrams, rank) VALUES ('hashsize', 4194304);

-- How many assets hold each trigram of asset_name_trigrams (written with it): `find` asks
-- the index for the pieces of its pattern that fewest assets hold (the list of a trigram that
-- most names hold, like 'met' of 'Uncategorized/Metroid1/', is long and slow to read).
CREATE TABLE asset_name_trigram_docs (
    trigram TEXT PRIMARY KEY,        -- as the index holds it (letters in lower case)
    docs INTEGER NOT NULL            -- assets whose map names hold it
) WITHOUT ROWID;

-- The PAKs' names (a few per PAK) without reading the maps' rows: `find` reads them all
-- from this index alone.
CREATE INDEX asset_names_pak ON asset_names(name, directory) WHERE source = 'pak';
