-- ancsdb schema (PRAGMA user_version = 2). Asset IDs are INTEGER unsigned 32-bit values;
-- an asset is (game, asset_id). game is 'MP1' or 'MP2'. FourCCs are 4-character TEXT.

CREATE TABLE ingest_state (
    key TEXT PRIMARY KEY,            -- 'final_pass_pending'
    value INTEGER NOT NULL           -- 1 while a PAK changed and the final pass (orphan
                                     -- decode, assets rebuild) has not run since
) WITHOUT ROWID;
INSERT INTO ingest_state VALUES ('final_pass_pending', 0);
CREATE TABLE paks (
    pak_id INTEGER PRIMARY KEY,      -- row id, stable while the file is unchanged
    path TEXT NOT NULL UNIQUE,       -- where it was last read from: the absolute path of the
                                     -- file, or IMAGE:DISC_PATH for a PAK inside a disc image
    release_id INTEGER,              -- releases.release_id (the ingest always sets it)
    release_path TEXT,               -- path inside the release: the disc path (below files/ of
                                     -- an extracted disc), or the path below the folder given
    source_offset INTEGER,           -- offset of the PAK in its disc image (NULL for a file)
    game TEXT,                       -- 'MP1' or 'MP2' (detected or forced with --game)
    game_detected TEXT,              -- what pak_detect_game said: 'MP1', 'MP2', 'unknown'
    file_size INTEGER,               -- bytes
    mtime INTEGER,                   -- modification time, seconds since the epoch
    mtime_ns INTEGER,                -- nanosecond part of the modification time
    tables_hash INTEGER,             -- FNV-1a of the header and tables (signed 64-bit view)
    content_hash INTEGER,            -- XXH3-64 of every byte (only with --rehash, else NULL)
    header_unused INTEGER,           -- PAK header +0x04 (FORMATS 2.2, always 0)
    named_count INTEGER,             -- named-resource entries
    resource_count INTEGER,          -- resource-table entries
    status TEXT NOT NULL,            -- 'ok' (tables read) or 'error' (unreadable)
    ingested_at INTEGER              -- unix time of the ingest
);
CREATE UNIQUE INDEX paks_release ON paks(release_id, release_path);

CREATE TABLE pak_entries (
    pak_id INTEGER NOT NULL,         -- paks.pak_id
    entry_index INTEGER NOT NULL,    -- position in the resource table
    type TEXT NOT NULL,              -- FourCC
    asset_id INTEGER NOT NULL,       -- asset ID
    compressed INTEGER NOT NULL,     -- raw flag as stored (0/1 normally)
    data_offset INTEGER NOT NULL,    -- absolute offset of the data
    stored_size INTEGER NOT NULL,    -- bytes stored, padding included
    decompressed_size INTEGER,       -- u32 prefix of compressed entries; else stored_size
    table_offset INTEGER,            -- where the 20-byte table entry sits
    in_bounds INTEGER,               -- 1 when offset + size fits in the file
    content_hash INTEGER,            -- XXH3-64 of the inflated bytes without trailing 0xFF bytes
                                     -- (every entry; NULL when it could not be read)
    stored_hash INTEGER,             -- XXH3-64 of the stored bytes of a compressed entry (lets
                                     -- a later ingest know the content without inflating: it
                                     -- reads them all once, so no index)
    content_id INTEGER,              -- ANCS/EVNT/MLVL/STRG: contents.content_id of these bytes
    PRIMARY KEY (pak_id, entry_index)
) WITHOUT ROWID;
CREATE INDEX pak_entries_asset ON pak_entries(asset_id, type);
CREATE INDEX pak_entries_content ON pak_entries(content_id) WHERE content_id IS NOT NULL;

CREATE TABLE pak_names (
    pak_id INTEGER NOT NULL,         -- paks.pak_id
    seq INTEGER NOT NULL,            -- position in the named-resource table
    name TEXT NOT NULL,              -- the name
    type TEXT NOT NULL,              -- FourCC of the named asset
    asset_id INTEGER NOT NULL,       -- named asset
    PRIMARY KEY (pak_id, seq)
) WITHOUT ROWID;
CREATE INDEX pak_names_asset ON pak_names(asset_id);
CREATE INDEX pak_names_name ON pak_names(name COLLATE NOCASE);

CREATE TABLE assets (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    asset_id INTEGER NOT NULL,       -- asset ID
    type TEXT NOT NULL,              -- FourCC (the smallest one when entries disagree)
    copies INTEGER NOT NULL,         -- resource-table entries holding it, all PAKs of the game
    pak_count INTEGER NOT NULL,      -- distinct PAKs holding it
    PRIMARY KEY (game, asset_id)
) WITHOUT ROWID;
CREATE INDEX assets_type ON assets(type, game);

-- One row per distinct content of an ANCS or EVNT asset: copies whose inflated bytes are
-- equal (trailing 0xFF bytes ignored) are one content, decoded once, whatever PAK or release
-- holds them. Every table of decoded rows carries the content_id the rows come from.
CREATE TABLE contents (
    content_id INTEGER PRIMARY KEY,  -- row id
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    type TEXT NOT NULL,              -- 'ANCS', 'EVNT', 'MLVL' or 'STRG'
    asset_id INTEGER NOT NULL,       -- asset ID
    hash INTEGER NOT NULL,           -- XXH3-64 of the inflated bytes without trailing 0xFF
    size INTEGER,                    -- inflated bytes of the copy decoded
    status TEXT NOT NULL,            -- 'ok' or 'decode_error'
    error_offset INTEGER,            -- decode_error: offset in the inflated bytes
    error TEXT,                      -- decode_error: the message (every copy gets a load_errors row)
    UNIQUE (game, type, asset_id, hash)
);

CREATE TABLE ancs (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    asset_id INTEGER NOT NULL,       -- the ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    ancs_version INTEGER,            -- u16 at +0 (always 1)
    charset_version INTEGER,         -- character set u16 version (always 1)
    character_count INTEGER,         -- characters
    animset_version INTEGER,         -- animation set version V
    animation_count INTEGER,         -- animations
    transition_count INTEGER,        -- transitions
    additive_count INTEGER,          -- additive animations (NULL when V < 2)
    default_fade_in REAL,            -- default additive fade-in (NULL when V < 2)
    default_fade_out REAL,           -- default additive fade-out (NULL when V < 2)
    half_transition_count INTEGER,   -- half transitions (NULL when V < 3)
    resource_pair_count INTEGER,     -- MP1 ANIM/EVNT pairs (NULL when absent)
    event_set_count INTEGER,         -- MP2 embedded event sets (NULL when absent)
    default_trans_type INTEGER,      -- default transition: meta-transition type 0..3
    default_trans_duration REAL,     -- its duration (Trans/PhaseTrans)
    default_trans_duration_type INTEGER, -- its duration CharAnimTime type
    default_trans_unknown_flag INTEGER,  -- its unknown bool8
    default_trans_run_a INTEGER,     -- its run_a
    default_trans_flags INTEGER,     -- its flags
    size INTEGER,                    -- inflated bytes
    consumed INTEGER,                -- bytes of structure decoded
    trailing_len INTEGER,            -- bytes after the structure
    trailing_all_ff INTEGER,         -- 1 when those are all 0xFF padding
    PRIMARY KEY (game, asset_id, content_id)
) WITHOUT ROWID;

CREATE TABLE characters (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    char_index INTEGER NOT NULL,     -- position in the set
    char_id INTEGER NOT NULL,        -- character ID stored before the body
    version INTEGER NOT NULL,        -- character version T
    name TEXT,                       -- debug name
    model_id INTEGER,                -- CMDL
    skin_id INTEGER,                 -- CSKR
    skeleton_id INTEGER,             -- CINF
    frozen_model_id INTEGER,         -- CMDL ice overlay (T >= 4, else NULL)
    frozen_skin_id INTEGER,          -- CSKR ice overlay (T >= 4, else NULL)
    cspp_id INTEGER,                 -- CSPP (T >= 10, else NULL)
    unknown_a INTEGER,               -- u32 after the particle data (always present)
    unknown_b INTEGER,               -- u32 (T >= 10, else NULL)
    unknown_c INTEGER,               -- u8 after CSPP (T >= 10, else NULL)
    anim_name_count INTEGER,         -- entries of the animation-name list
    part_count INTEGER,              -- PART list length
    swhc_count INTEGER,              -- SWHC list length
    third_list_count INTEGER,        -- the unidentified 3rd list (T >= 6, else NULL)
    elsc_count INTEGER,              -- ELSC list length
    spsc_count INTEGER,              -- SPSC list length (T >= 10, else NULL)
    aabb_count INTEGER,              -- animation AABBs (T >= 2, else NULL)
    effect_count INTEGER,            -- effects (T >= 3, else NULL)
    id_map_count INTEGER,            -- animation ID map length (T >= 5, else NULL)
    indexed_aabb_count INTEGER,      -- indexed AABBs (T >= 10, else NULL)
    pas_magic TEXT,                  -- PAS database magic (normally PAS4)
    pas_default_state INTEGER,       -- default anim state type
    pas_state_count INTEGER,         -- anim states
    byte_offset INTEGER,             -- offset of the character ID in the ANCS
    PRIMARY KEY (game, ancs_id, content_id, char_index)
) WITHOUT ROWID;
CREATE INDEX characters_name ON characters(name COLLATE NOCASE);
CREATE INDEX characters_model ON characters(model_id);

CREATE TABLE character_anims (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    char_index INTEGER NOT NULL,     -- character position
    seq INTEGER NOT NULL,            -- position in the animation-name list
    anim_id INTEGER NOT NULL,        -- character-relative animation ID
    unknown TEXT,                    -- MP1 extra string (normally ''), NULL in MP2
    name TEXT,                       -- animation name
    anim_index INTEGER,              -- animation-set index it maps to (NULL when unmapped)
    PRIMARY KEY (game, ancs_id, content_id, char_index, seq)
) WITHOUT ROWID;

CREATE TABLE anim_id_map (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    char_index INTEGER NOT NULL,     -- character position
    anim_id INTEGER NOT NULL,        -- character-relative ID (position in the map)
    anim_index INTEGER NOT NULL,     -- animation-set index stored there
    PRIMARY KEY (game, ancs_id, content_id, char_index, anim_id)
) WITHOUT ROWID;

CREATE TABLE particle_refs (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    char_index INTEGER NOT NULL,     -- character position
    source TEXT NOT NULL,            -- 'particles' (resource lists) or 'effect'
    list TEXT NOT NULL,              -- 'PART','SWHC','third_list','ELSC','SPSC' or 'effect'
    seq INTEGER NOT NULL,            -- position in the list (component position for effects)
    effect_index INTEGER,            -- effects: effect position
    particle_type TEXT,              -- FourCC; NULL for the third list (T >= 6)
    particle_id INTEGER NOT NULL,    -- particle asset
    content_id INTEGER NOT NULL DEFAULT 0 -- contents.content_id: the content the rows come from
);
CREATE INDEX particle_refs_owner ON particle_refs(game, ancs_id, content_id, char_index);
CREATE INDEX particle_refs_particle ON particle_refs(particle_id);

CREATE TABLE pas_states (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    char_index INTEGER NOT NULL,     -- character position
    state_index INTEGER NOT NULL,    -- position in the PAS database
    state_type INTEGER,              -- EAnimationState
    parm_count INTEGER,              -- parm infos
    anim_info_count INTEGER,         -- anim infos
    PRIMARY KEY (game, ancs_id, content_id, char_index, state_index)
) WITHOUT ROWID;

CREATE TABLE pas_parms (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    char_index INTEGER NOT NULL,     -- character position
    state_index INTEGER NOT NULL,    -- state position
    parm_index INTEGER NOT NULL,     -- parm position
    parm_type INTEGER,               -- EParmType (0..4; others carry no values)
    weight_function INTEGER,         -- EWeightFunction
    weight REAL,                     -- weight
    min_value,                       -- minimum, typed by parm_type (NULL when none)
    max_value,                       -- maximum, typed by parm_type (NULL when none)
    min_raw INTEGER,                 -- raw 32-bit pattern of the minimum
    max_raw INTEGER,                 -- raw 32-bit pattern of the maximum
    PRIMARY KEY (game, ancs_id, content_id, char_index, state_index, parm_index)
) WITHOUT ROWID;

CREATE TABLE pas_anim_infos (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    char_index INTEGER NOT NULL,     -- character position
    state_index INTEGER NOT NULL,    -- state position
    info_index INTEGER NOT NULL,     -- anim info position
    anim_id INTEGER,                 -- character-relative animation ID
    PRIMARY KEY (game, ancs_id, content_id, char_index, state_index, info_index)
) WITHOUT ROWID;

CREATE TABLE pas_values (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    char_index INTEGER NOT NULL,     -- character position
    state_index INTEGER NOT NULL,    -- state position
    info_index INTEGER NOT NULL,     -- anim info position
    parm_index INTEGER NOT NULL,     -- which parm the value belongs to
    value,                           -- typed by the parm (integer, real or 0/1)
    raw INTEGER,                     -- raw 32-bit pattern
    PRIMARY KEY (game, ancs_id, content_id, char_index, state_index, info_index, parm_index)
) WITHOUT ROWID;

CREATE TABLE anim_aabbs (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    char_index INTEGER NOT NULL,     -- character position
    seq INTEGER NOT NULL,            -- position in the list
    name TEXT,                       -- animation (primitive) name
    min_x REAL, min_y REAL, min_z REAL, -- box minimum
    max_x REAL, max_y REAL, max_z REAL, -- box maximum
    PRIMARY KEY (game, ancs_id, content_id, char_index, seq)
) WITHOUT ROWID;

CREATE TABLE indexed_aabbs (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    char_index INTEGER NOT NULL,     -- character position
    seq INTEGER NOT NULL,            -- position in the list
    anim_id INTEGER,                 -- ID of unknown index space (FORMATS 4.9)
    min_x REAL, min_y REAL, min_z REAL, -- box minimum
    max_x REAL, max_y REAL, max_z REAL, -- box maximum
    PRIMARY KEY (game, ancs_id, content_id, char_index, seq)
) WITHOUT ROWID;

CREATE TABLE effects (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    char_index INTEGER NOT NULL,     -- character position
    effect_index INTEGER NOT NULL,   -- position in the effect list
    name TEXT,                       -- effect name
    component_count INTEGER,         -- components
    PRIMARY KEY (game, ancs_id, content_id, char_index, effect_index)
) WITHOUT ROWID;

CREATE TABLE effect_components (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    char_index INTEGER NOT NULL,     -- character position
    effect_index INTEGER NOT NULL,   -- effect position
    comp_index INTEGER NOT NULL,     -- component position
    name TEXT,                       -- component name
    particle_type TEXT,              -- FourCC of the particle
    particle_id INTEGER,             -- particle asset
    bone_name TEXT,                  -- MP1 locator name (NULL in MP2)
    bone_id INTEGER,                 -- MP2 bone index (NULL in MP1)
    scale REAL,                      -- scale
    parented_mode INTEGER,           -- EParentedMode
    flags INTEGER,                   -- flags
    PRIMARY KEY (game, ancs_id, content_id, char_index, effect_index, comp_index)
) WITHOUT ROWID;

CREATE TABLE animations (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    anim_index INTEGER NOT NULL,     -- animation-set index
    name TEXT,                       -- animation name
    meta_type INTEGER,               -- root meta-animation type
    depth INTEGER,                   -- tree depth (a lone Play = 1)
    PRIMARY KEY (game, ancs_id, content_id, anim_index)
) WITHOUT ROWID;

-- Every node of every meta-animation tree (animations, and transitions of type MetaAnim).
CREATE TABLE meta_anim_nodes (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    owner TEXT NOT NULL,             -- 'animation','transition','half_transition','default_transition'
    owner_index INTEGER NOT NULL,    -- position in its list (0 for the default transition)
    seq INTEGER NOT NULL,            -- pre-order position in the tree (root = 0)
    parent_seq INTEGER,              -- seq of the parent node (NULL for the root)
    child_pos INTEGER,               -- position among the parent's children
    path TEXT,                       -- child positions from the root, e.g. '0.1'
    depth INTEGER,                   -- root = 1
    type INTEGER NOT NULL,           -- 0 Play,1 Blend,2 PhaseBlend,3 Random,4 Sequence
    anim_asset_id INTEGER,           -- Play: ANIM
    primitive_id INTEGER,            -- Play: primitive ID
    primitive_name TEXT,             -- Play: primitive name
    start_time REAL,                 -- Play: start time
    start_time_type INTEGER,         -- Play: CharAnimTime type
    blend_weight REAL,               -- Blend/PhaseBlend weight
    unknown_flag INTEGER,            -- Blend/PhaseBlend bool8
    child_count INTEGER,             -- children (Blend 2, Random, Sequence)
    probability INTEGER,             -- this node's probability when its parent is Random
    prob_pattern TEXT,               -- Random: 'ascending_to_100','ascending_below_100','not_ascending','empty'
    byte_offset INTEGER,             -- offset of the type field in the ANCS
    PRIMARY KEY (game, ancs_id, content_id, owner, owner_index, seq)
) WITHOUT ROWID;

CREATE TABLE anim_primitives (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    owner TEXT NOT NULL,             -- 'animation','transition','half_transition','default_transition'
    owner_index INTEGER NOT NULL,    -- position in its list (0 for the default transition)
    seq INTEGER NOT NULL,            -- Play node order within the owner (stream order)
    anim_asset_id INTEGER,           -- ANIM
    primitive_id INTEGER,            -- primitive ID
    name TEXT,                       -- primitive name
    start_time REAL,                 -- start time
    start_time_type INTEGER,         -- CharAnimTime type
    PRIMARY KEY (game, ancs_id, content_id, owner, owner_index, seq)
) WITHOUT ROWID;
CREATE INDEX anim_primitives_anim ON anim_primitives(anim_asset_id);

CREATE TABLE transitions (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    trans_index INTEGER NOT NULL,    -- position in the list
    unknown_id INTEGER,              -- u32 before the pair (DECOMP x0_id)
    anim_a INTEGER,                  -- source (primitive ID space)
    anim_b INTEGER,                  -- destination
    trans_type INTEGER,              -- meta-transition type 0..3
    duration REAL,                   -- Trans/PhaseTrans duration
    duration_type INTEGER,           -- its CharAnimTime type
    unknown_flag INTEGER,            -- Trans/PhaseTrans bool8
    run_a INTEGER,                   -- Trans/PhaseTrans run_a
    flags INTEGER,                   -- Trans/PhaseTrans flags
    PRIMARY KEY (game, ancs_id, content_id, trans_index)
) WITHOUT ROWID;

CREATE TABLE half_transitions (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    half_index INTEGER NOT NULL,     -- position in the list
    anim INTEGER,                    -- destination animation
    trans_type INTEGER,              -- meta-transition type 0..3
    duration REAL,                   -- Trans/PhaseTrans duration
    duration_type INTEGER,           -- its CharAnimTime type
    unknown_flag INTEGER,            -- Trans/PhaseTrans bool8
    run_a INTEGER,                   -- Trans/PhaseTrans run_a
    flags INTEGER,                   -- Trans/PhaseTrans flags
    PRIMARY KEY (game, ancs_id, content_id, half_index)
) WITHOUT ROWID;

CREATE TABLE additive_animations (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    seq INTEGER NOT NULL,            -- position in the list
    anim_index INTEGER,              -- animation-set index
    fade_in REAL,                    -- seconds
    fade_out REAL,                   -- seconds
    PRIMARY KEY (game, ancs_id, content_id, seq)
) WITHOUT ROWID;

CREATE TABLE animation_resources (
    game TEXT NOT NULL,              -- 'MP1'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    res_index INTEGER NOT NULL,      -- position in the pair list
    anim_asset_id INTEGER,           -- ANIM
    evnt_asset_id INTEGER,           -- EVNT (0 / FFFFFFFF = none)
    PRIMARY KEY (game, ancs_id, content_id, res_index)
) WITHOUT ROWID;
CREATE INDEX animation_resources_evnt ON animation_resources(evnt_asset_id);

-- A decoded MP1 EVNT resource.
CREATE TABLE evnt (
    game TEXT NOT NULL,              -- 'MP1' (MP2 has no EVNT resources)
    asset_id INTEGER NOT NULL,       -- the EVNT
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    version INTEGER,                 -- EV
    bool_count INTEGER,              -- bool nodes
    int32_count INTEGER,             -- int32 nodes
    particle_count INTEGER,          -- particle nodes
    sound_count INTEGER,             -- sound nodes (NULL when EV < 2)
    size INTEGER,                    -- inflated bytes
    trailing_len INTEGER,            -- bytes after the structure
    PRIMARY KEY (game, asset_id, content_id)
) WITHOUT ROWID;

-- An MP2 event set embedded in an ANCS.
CREATE TABLE event_sets (
    game TEXT NOT NULL,              -- 'MP2'
    ancs_id INTEGER NOT NULL,        -- owning ANCS
    content_id INTEGER NOT NULL DEFAULT 0, -- contents.content_id: the content the rows come from
    anim_index INTEGER NOT NULL,     -- position in the event-set list
    version INTEGER,                 -- EV
    bool_count INTEGER,              -- bool nodes
    int32_count INTEGER,             -- int32 nodes
    particle_count INTEGER,          -- particle nodes
    sound_count INTEGER,             -- sound nodes (NULL when EV < 2)
    PRIMARY KEY (game, ancs_id, content_id, anim_index)
) WITHOUT ROWID;

CREATE TABLE events (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    owner_type TEXT NOT NULL,        -- 'EVNT' (resource) or 'ANCS' (MP2 embedded set)
    owner_id INTEGER NOT NULL,       -- the EVNT or ANCS
    anim_index INTEGER,              -- embedded set position; NULL for EVNT
    kind TEXT NOT NULL,              -- 'bool','int32','particle','sound'
    node_index INTEGER NOT NULL,     -- position in its kind's list
    byte_offset INTEGER,             -- offset of the node in its resource
    unknown_u16 INTEGER,             -- base: leading u16
    name TEXT,                       -- base: node name
    poi_type INTEGER,                -- base: EPOIType
    time REAL,                       -- base: CharAnimTime time
    time_type INTEGER,               -- base: CharAnimTime type
    "index" INTEGER,                 -- base: index (quote it: "index")
    "unique" INTEGER,                -- base: unique bool8 (quote it: "unique")
    weight REAL,                     -- base: weight
    char_index INTEGER,              -- base: -1 = every character, else a position
    flags INTEGER,                   -- base: flags
    value INTEGER,                   -- bool / int32 value
    locator_name TEXT,               -- int32 locator
    duration INTEGER,                -- particle duration (s32)
    particle_type TEXT,              -- particle FourCC
    particle_id INTEGER,             -- particle asset
    bone_name TEXT,                  -- particle: MP1 bone name
    bone_id INTEGER,                 -- particle: MP2 bone index
    scale REAL,                      -- particle scale
    parented_mode INTEGER,           -- particle EParentedMode
    sound_id INTEGER,                -- sound: ID (low 16 bits = effect)
    falloff REAL,                    -- sound falloff
    max_distance REAL,               -- sound max distance
    echoes_unknown_a INTEGER,        -- MP2 sound extra u32
    echoes_unknown_b INTEGER,        -- MP2 sound extra u16
    echoes_unknown_c INTEGER,        -- MP2 sound extra u16
    echoes_unknown_d REAL,           -- MP2 sound extra f32
    content_id INTEGER NOT NULL DEFAULT 0 -- contents.content_id: the content the rows come from
);
CREATE INDEX events_owner ON events(game, owner_type, owner_id, content_id, anim_index);
CREATE INDEX events_particle ON events(particle_id) WHERE particle_id IS NOT NULL;

CREATE TABLE asset_refs (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    src_type TEXT NOT NULL,          -- 'ANCS', 'EVNT' or 'MLVL' (a world's areas)
    src_id INTEGER NOT NULL,         -- referring asset
    dst_type TEXT,                   -- FourCC of the target (NULL: third-list ID, type unknown)
    dst_id INTEGER NOT NULL,         -- target asset
    char_index INTEGER,              -- ANCS: reaching character, NULL = no single character;
                                     -- EVNT: the node's character index, NULL for -1
    via TEXT NOT NULL,               -- field holding it: model, skin, skeleton, frozen_model,
                                     -- frozen_skin, cspp, particles, third_list, effect,
                                     -- animation, animation_resources, event, transition,
                                     -- half_transition, default_transition, event_set
    content_id INTEGER NOT NULL DEFAULT 0 -- contents.content_id: the content the rows come from
);
-- a content's rows are found by their key's first columns (game, src_type, src_id, content_id)
CREATE UNIQUE INDEX asset_refs_key ON asset_refs(game, src_type, src_id, content_id, dst_id,
    ifnull(dst_type, ''), ifnull(char_index, -2), via);
CREATE INDEX asset_refs_dst ON asset_refs(dst_id, game);

CREATE TABLE load_errors (
    pak_path TEXT NOT NULL,          -- file
    entry_index INTEGER,             -- NULL for whole-PAK faults
    type TEXT,                       -- FourCC of the entry
    asset_id INTEGER,                -- asset of the entry
    stage TEXT NOT NULL,             -- 'pak','inflate','decode'
    byte_offset INTEGER,             -- offset of the fault (file offset for 'pak'/'inflate',
                                     -- offset in the inflated resource for 'decode')
    message TEXT NOT NULL,           -- one line
    game TEXT,                       -- game of the PAK when known
    release_id INTEGER               -- release of the PAK when known
);
CREATE INDEX load_errors_path ON load_errors(pak_path);

CREATE TABLE warnings (
    game TEXT,                       -- 'MP1' / 'MP2'
    type TEXT,                       -- FourCC of the asset ('PAK ' rows are about the PAK)
    asset_id INTEGER,                -- asset (NULL for PAK-level rows)
    byte_offset INTEGER,             -- where, when known
    code TEXT NOT NULL,              -- short stable word (pas_magic, copy_differs, ...)
    message TEXT,                    -- one line
    pak_id INTEGER,                  -- PAK the row belongs to; NULL = belongs to a content
    content_id INTEGER               -- decoder warnings: the content decoded (else NULL)
);
CREATE INDEX warnings_content ON warnings(content_id) WHERE content_id IS NOT NULL;
CREATE INDEX warnings_asset ON warnings(game, asset_id);
CREATE INDEX warnings_pak ON warnings(pak_id);
CREATE INDEX warnings_code ON warnings(code);

-- Views for people (v_ + the table name): written from db/columns.h at build time
-- (db/gen/gen_sql.c) and made by db/views.c after these files.
