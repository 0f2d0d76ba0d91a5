-- Worlds (MLVL, docs/formats.md §11) and string tables (STRG, §12). Like ANCS/EVNT each
-- distinct content (inflated bytes, trailing 0xFF ignored) is decoded once and its rows carry
-- its content_id; a release sees the contents its PAK entries hold (`--release` scopes every
-- table here like the others).
--
-- Names of worlds and areas live in STRGs, which may come from another PAK, and an area may be
-- renamed in a release whose MLVL is unchanged: they are looked up when read. `worlds` and
-- `areas` are views that add them (string 0 of the STRG in language ENGL, found by FourCC)
-- to the decoded rows of `mlvl_worlds` and `mlvl_areas`. A STRG ID with several contents
-- (releases that differ) gives the name of a content held by a release that also holds the
-- MLVL content, the newest such (the highest content_id; the key is made into text so that
-- max() picks it: an ORDER BY there cannot see the outer row); under `--release` only that
-- release's contents exist.

-- One row per MLVL content.
CREATE TABLE mlvl_worlds (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    mlvl_id INTEGER NOT NULL,        -- the MLVL
    content_id INTEGER NOT NULL,     -- contents.content_id: the content the rows come from
    version INTEGER NOT NULL,        -- 0x11 (17) MP1, 0x17 (23) MP2
    world_name_strg INTEGER,         -- STRG of the world's name
    dark_world_name_strg INTEGER,    -- MP2: STRG of the dark world's name (NULL in MP1)
    temple_key_world_index INTEGER,  -- MP2: temple key world index, not an asset (NULL in MP1)
    savw_id INTEGER,                 -- SAVW (world save info)
    default_skybox_id INTEGER,       -- CMDL of the default skybox (FFFFFFFF: none)
    memory_relay_count INTEGER,      -- MP1 memory relays (NULL in MP2)
    area_count INTEGER NOT NULL,     -- areas
    unknown_after_area_count INTEGER, -- MP1 u32 after area_count (always 1; NULL in MP2)
    mapw_id INTEGER,                 -- MAPW (world map)
    script_layer_header INTEGER,     -- u8 after world_map_id (always 0)
    script_instance_count INTEGER,   -- u32 after it (always 0)
    audio_group_count INTEGER,       -- MP1 audio groups (NULL in MP2)
    unknown_string TEXT,             -- MP1 string after the audio groups (always ''; NULL in MP2)
    layer_name_count INTEGER,        -- layer names (sum of the areas' layer counts)
    size INTEGER,                    -- inflated bytes
    trailing_len INTEGER,            -- bytes after the structure (0xFF padding)
    PRIMARY KEY (game, mlvl_id, content_id)
) WITHOUT ROWID;
CREATE INDEX mlvl_worlds_name ON mlvl_worlds(world_name_strg);

-- MP1 memory relays of a world.
CREATE TABLE mlvl_memory_relays (
    game TEXT NOT NULL,              -- 'MP1'
    mlvl_id INTEGER NOT NULL,        -- the MLVL
    content_id INTEGER NOT NULL,     -- contents.content_id
    relay_index INTEGER NOT NULL,    -- position in the list
    instance_id INTEGER,             -- script instance ID (not an asset)
    target_id INTEGER,               -- target instance ID (not an asset)
    message INTEGER,                 -- u16 script message
    active INTEGER,                  -- u8
    PRIMARY KEY (game, mlvl_id, content_id, relay_index)
) WITHOUT ROWID;

-- MP1 audio groups of a world (the AGSCs its areas load; MP1 leaves them out of the layers).
CREATE TABLE mlvl_audio_groups (
    game TEXT NOT NULL,              -- 'MP1'
    mlvl_id INTEGER NOT NULL,        -- the MLVL
    content_id INTEGER NOT NULL,     -- contents.content_id
    group_index INTEGER NOT NULL,    -- position in the list
    group_id INTEGER,                -- audio group ID (not an asset)
    agsc_id INTEGER,                 -- AGSC
    PRIMARY KEY (game, mlvl_id, content_id, group_index)
) WITHOUT ROWID;

-- One row per area (room) of an MLVL content.
CREATE TABLE mlvl_areas (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    mlvl_id INTEGER NOT NULL,        -- the MLVL
    content_id INTEGER NOT NULL,     -- contents.content_id
    area_index INTEGER NOT NULL,     -- position in the world's area list
    mrea_id INTEGER,                 -- the MREA of the area
    area_id INTEGER,                 -- internal area ID (not an asset)
    name_strg INTEGER,               -- STRG of the area's name (FFFFFFFF: none)
    internal_name TEXT,              -- MP2 internal area name (NULL in MP1)
    layer_count INTEGER NOT NULL,    -- script layers
    layer_flags INTEGER,             -- the u64 layer flags (bit i: layer i active), signed view
    attached_count INTEGER,          -- attached areas
    unknown INTEGER,                 -- u32 after the attached areas (always 0)
    dependency_count INTEGER,        -- entries of the dependency list (every layer and own group)
    dock_count INTEGER,              -- docks
    module_count INTEGER,            -- MP2 rel modules (NULL in MP1)
    transform TEXT,                  -- 3 x 4 row-major matrix, 12 numbers separated by spaces
    position_x REAL,                 -- translation (the transform's 4th column)
    position_y REAL,
    position_z REAL,
    min_x REAL,                      -- bounding box
    min_y REAL,
    min_z REAL,
    max_x REAL,
    max_y REAL,
    max_z REAL,
    byte_offset INTEGER,             -- offset of the area in the MLVL
    PRIMARY KEY (game, mlvl_id, content_id, area_index)
) WITHOUT ROWID;
CREATE INDEX mlvl_areas_mrea ON mlvl_areas(mrea_id);
CREATE INDEX mlvl_areas_name ON mlvl_areas(name_strg);
CREATE INDEX mlvl_areas_internal ON mlvl_areas(internal_name COLLATE NOCASE)
    WHERE internal_name IS NOT NULL;

-- One row per script layer of an area.
CREATE TABLE area_layers (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    mlvl_id INTEGER NOT NULL,        -- the MLVL
    content_id INTEGER NOT NULL,     -- contents.content_id
    area_index INTEGER NOT NULL,     -- the area
    layer_index INTEGER NOT NULL,    -- position among the area's layers
    name TEXT,                       -- layer name ('Default', '1st Pass', ...)
    active INTEGER NOT NULL,         -- 1: active when the area loads (bit layer_index of the flags)
    dependency_count INTEGER,        -- entries of its dependency list
    PRIMARY KEY (game, mlvl_id, content_id, area_index, layer_index)
) WITHOUT ROWID;

-- One row per entry of an area's dependency list, in file order: what the game loads for a
-- layer (layer_index >= 0) or for the area itself (layer_index -1, the group after the last
-- layer offset).
CREATE TABLE area_deps (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    mlvl_id INTEGER NOT NULL,        -- the MLVL
    content_id INTEGER NOT NULL,     -- contents.content_id
    area_index INTEGER NOT NULL,     -- the area
    layer_index INTEGER NOT NULL,    -- the layer; -1: the area's own group
    dep_index INTEGER NOT NULL,      -- position inside its layer (or own group)
    seq INTEGER NOT NULL,            -- position in the area's whole list
    type TEXT NOT NULL,              -- FourCC stored with it
    asset_id INTEGER NOT NULL,       -- the asset
    PRIMARY KEY (game, mlvl_id, content_id, area_index, layer_index, dep_index)
) WITHOUT ROWID;
CREATE INDEX area_deps_asset ON area_deps(asset_id, game);

-- One row per attached (adjacent) area.
CREATE TABLE area_attached (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    mlvl_id INTEGER NOT NULL,        -- the MLVL
    content_id INTEGER NOT NULL,     -- contents.content_id
    area_index INTEGER NOT NULL,     -- the area
    attached_index INTEGER NOT NULL, -- position in its attached list
    other_area_index INTEGER NOT NULL, -- the attached area (index in the same MLVL)
    PRIMARY KEY (game, mlvl_id, content_id, area_index, attached_index)
) WITHOUT ROWID;

-- Docks of an area: one row per connection of a dock to another area's dock.
CREATE TABLE area_dock_links (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    mlvl_id INTEGER NOT NULL,        -- the MLVL
    content_id INTEGER NOT NULL,     -- contents.content_id
    area_index INTEGER NOT NULL,     -- the area
    dock_index INTEGER NOT NULL,     -- the dock
    link_index INTEGER NOT NULL,     -- position in the dock's connection list
    other_area_index INTEGER,        -- the area it connects to
    other_dock_index INTEGER,        -- that area's dock
    coordinate_count INTEGER,        -- the dock's coordinates (normally 4)
    PRIMARY KEY (game, mlvl_id, content_id, area_index, dock_index, link_index)
) WITHOUT ROWID;

-- MP2: the code modules (.rel) an area's layers need.
CREATE TABLE area_modules (
    game TEXT NOT NULL,              -- 'MP2'
    mlvl_id INTEGER NOT NULL,        -- the MLVL
    content_id INTEGER NOT NULL,     -- contents.content_id
    area_index INTEGER NOT NULL,     -- the area
    module_index INTEGER NOT NULL,   -- position in the area's module list
    layer_index INTEGER,             -- the layer whose (start, end) range holds it; NULL: none
    name TEXT,                       -- module file name ('Sporb.rel')
    PRIMARY KEY (game, mlvl_id, content_id, area_index, module_index)
) WITHOUT ROWID;

-- The area labels (`area 3 'Main Plaza'`) the MLVL's asset_refs rows were last made with (by
-- the ingest, db/ingest_world.c, or the final pass, db/census/20_world.sql): an MLVL
-- content's rows are made again when one of its areas' names changes.
CREATE TABLE mlvl_ref_labels (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    mlvl_id INTEGER NOT NULL,        -- the MLVL
    content_id INTEGER NOT NULL,     -- contents.content_id
    area_index INTEGER NOT NULL,     -- the area
    label TEXT NOT NULL,             -- 'area N' and the area's name as the `via` spells it
    PRIMARY KEY (game, mlvl_id, content_id, area_index)
) WITHOUT ROWID;

-- One row per STRG content.
CREATE TABLE strg (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    strg_id INTEGER NOT NULL,        -- the STRG
    content_id INTEGER NOT NULL,     -- contents.content_id
    version INTEGER NOT NULL,        -- 0 MP1, 1 MP2
    language_count INTEGER,          -- languages
    string_count INTEGER,            -- strings per language
    name_count INTEGER,              -- MP2 name-table entries (NULL in MP1)
    languages TEXT,                  -- the languages' FourCCs in file order, comma-separated
    size INTEGER,                    -- inflated bytes
    trailing_len INTEGER,            -- bytes after the structure (0xFF padding)
    PRIMARY KEY (game, strg_id, content_id)
) WITHOUT ROWID;

-- One row per string of a STRG content and language.
CREATE TABLE strings (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    strg_id INTEGER NOT NULL,        -- the STRG
    content_id INTEGER NOT NULL,     -- contents.content_id
    language TEXT NOT NULL,          -- FourCC: 'ENGL', 'FREN', 'GERM', 'SPAN', 'ITAL', 'JAPN', ...
    string_index INTEGER NOT NULL,   -- position in the language's table
    name TEXT,                       -- MP2: the name-table name of the string (NULL: none, MP1)
    text TEXT,                       -- the string as UTF-8 (formatting tags kept)
    PRIMARY KEY (game, strg_id, content_id, language, string_index)
) WITHOUT ROWID;
-- names (string 0 in English) by their text
CREATE INDEX strings_name ON strings(text COLLATE NOCASE)
    WHERE language = 'ENGL' AND string_index = 0;

-- The name of each STRG content: string 0 in ENGL (NULL when it has no ENGL table).
CREATE VIEW strg_names AS
SELECT s.game, s.strg_id, s.content_id, s.text AS name
FROM strings s
WHERE s.language = 'ENGL' AND s.string_index = 0;

-- Worlds with their names: one row per MLVL content (contract table `worlds`).
CREATE VIEW worlds AS
SELECT w.game, w.mlvl_id, w.content_id, w.version,
       (SELECT substr(max(printf('%d%020d', EXISTS (
                   SELECT 1 FROM pak_entries e1 JOIN paks p1 ON p1.pak_id = e1.pak_id
                   JOIN pak_entries e2 ON e2.content_id = s.content_id
                   JOIN paks p2 ON p2.pak_id = e2.pak_id
                   WHERE e1.content_id = w.content_id AND p2.release_id = p1.release_id),
                   s.content_id) || s.text), 22)
        FROM strings s
        WHERE s.game = w.game AND s.strg_id = w.world_name_strg AND s.language = 'ENGL'
          AND s.string_index = 0) AS name,
       (SELECT substr(max(printf('%d%020d', EXISTS (
                   SELECT 1 FROM pak_entries e1 JOIN paks p1 ON p1.pak_id = e1.pak_id
                   JOIN pak_entries e2 ON e2.content_id = s.content_id
                   JOIN paks p2 ON p2.pak_id = e2.pak_id
                   WHERE e1.content_id = w.content_id AND p2.release_id = p1.release_id),
                   s.content_id) || s.text), 22)
        FROM strings s
        WHERE s.game = w.game AND s.strg_id = w.dark_world_name_strg AND s.language = 'ENGL'
          AND s.string_index = 0) AS dark_name,
       w.world_name_strg, w.dark_world_name_strg, w.temple_key_world_index, w.savw_id,
       w.mapw_id, w.default_skybox_id, w.area_count, w.memory_relay_count, w.audio_group_count
FROM mlvl_worlds w;

-- Areas with their names: one row per area of an MLVL content (contract table `areas`).
CREATE VIEW areas AS
SELECT a.game, a.mlvl_id, a.content_id, a.area_index, a.mrea_id, a.area_id, a.name_strg,
       (SELECT substr(max(printf('%d%020d', EXISTS (
                   SELECT 1 FROM pak_entries e1 JOIN paks p1 ON p1.pak_id = e1.pak_id
                   JOIN pak_entries e2 ON e2.content_id = s.content_id
                   JOIN paks p2 ON p2.pak_id = e2.pak_id
                   WHERE e1.content_id = a.content_id AND p2.release_id = p1.release_id),
                   s.content_id) || s.text), 22)
        FROM strings s
        WHERE s.game = a.game AND s.strg_id = a.name_strg AND s.language = 'ENGL'
          AND s.string_index = 0) AS name,
       a.internal_name, a.layer_count, a.attached_count, a.dependency_count, a.layer_flags,
       a.position_x, a.position_y, a.position_z
FROM mlvl_areas a;

-- The newest content of each MLVL (the highest content_id: the last one ingested): what the
-- named queries show of a world when several releases with different contents are in view.
CREATE VIEW mlvl_latest AS
SELECT game, mlvl_id, max(content_id) AS content_id FROM mlvl_worlds GROUP BY game, mlvl_id;
