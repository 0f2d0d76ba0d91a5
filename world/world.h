/* world.h — MLVL (world: areas, script layers, per-layer dependency lists) and STRG (string
 * tables) of Metroid Prime 1 and 2, decoded from bytes into structs and encoded back byte-exact
 * (docs/formats.md §11, §12). Knows nothing of PAK files, paths or SQLite.
 *
 * Ownership: a decoded MLVL or STRG lives in the util_arena passed to the decoder; every
 * pointer in it (strings included) is valid until util_arena_free. Strings are NUL-terminated;
 * STRG text is converted from UTF-16BE to UTF-8. */
#ifndef ANCSDB_WORLD_H
#define ANCSDB_WORLD_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define WORLD_MLVL_MAGIC   0xDEAFBABEu
#define WORLD_MLVL_MP1     0x11u /* MLVL version of Metroid Prime */
#define WORLD_MLVL_MP2     0x17u /* MLVL version of Metroid Prime 2: Echoes */
#define WORLD_STRG_MAGIC   0x87654321u
#define WORLD_STRG_MP1     0u          /* STRG version 0: Metroid Prime */
#define WORLD_STRG_MP2     1u          /* STRG version 1: Echoes, with a name table */
#define WORLD_MAX_LAYERS   64          /* layer flags are one u64 per area (§11.3) */
#define WORLD_MAX_LANGS    64          /* languages in one STRG (§12.3); the games use 1 to 6 */
#define WORLD_NONE         0xFFFFFFFFu /* "no asset" (0 is treated as none too, §1.3) */
#define WORLD_DOCK_CORNERS 4           /* coordinates a dock normally has */

typedef enum { WORLD_GAME_UNKNOWN = 0, WORLD_GAME_MP1 = 1, WORLD_GAME_MP2 = 2 } world_game;

/* A finding the decoder decodes on (a constant with another value, padding that is not 0xFF,
 * offsets that disagree with the layout, ...), and what a top-level decode saw besides the
 * structure itself (util.h: every decoder's, the ANCS/EVNT decoder's too). */
typedef util_warning world_warning;
typedef util_report world_report;

/* ---- MLVL (§11) ------------------------------------------------------------------------ */

/* MP1 memory relay (11 bytes). */
typedef struct world_memory_relay {
    uint32_t instance_id, target_id;
    uint16_t message;
    uint8_t active;
} world_memory_relay;

/* MP1 audio group: u32 group_id, id AGSC. */
typedef struct world_audio_group {
    uint32_t group_id, agsc_id;
} world_audio_group;

/* One entry of an area's dependency list: stored as (id, FourCC). */
typedef struct world_dep {
    uint32_t id;
    uint32_t type;       /* FourCC */
    int32_t layer_index; /* derived: the layer whose group holds it; -1 = the area's own group
                            (after the last layer offset) */
    uint32_t dep_index;  /* derived: position inside its layer (or own group) */
} world_dep;

typedef struct world_dock_link {
    uint32_t area_index, dock_index;
} world_dock_link;

typedef struct world_vec3 {
    float v[3];
} world_vec3;

typedef struct world_dock {
    uint32_t link_count;
    world_dock_link *links;
    uint32_t coord_count; /* normally WORLD_DOCK_CORNERS */
    world_vec3 *coords;
} world_dock;

/* A script layer of an area (derived from the layer tables after the areas and the area's
 * dependency offsets). */
typedef struct world_layer {
    const char *name;
    int active;         /* bit i of the area's layer_flags */
    uint32_t dep_start; /* index of its first dependency in the area's deps */
    uint32_t dep_count;
    /* MP2: its code modules rel_modules[module_start .. module_start + module_count) when the
       area's rel offsets are well-formed (two per layer, start <= end <= count); else 0, 0 */
    uint32_t module_start, module_count;
} world_layer;

/* §11.2 Area: id name STRG, 12 x f32 transform, 6 x f32 bbox, id MREA, u32 area_id,
 * u32 + n x u16 attached, u32 unknown, u32 + n x (id, FourCC) deps, u32 + n x u32 dep offsets,
 * u32 + n x Dock, [MP2: u32 + n x cstring rel modules, u32 + n x u32 rel offsets,
 * cstring internal name]. */
typedef struct world_area {
    uint64_t offset; /* of the area's first byte in the input */
    uint32_t name_strg;
    float transform[12]; /* 3 x 4, row-major; translation in the 4th column */
    float bbox[6];       /* min x, y, z, max x, y, z */
    uint32_t mrea_id;
    uint32_t area_id; /* internal area ID: not an asset */
    uint32_t attached_count;
    uint16_t *attached; /* indices of other areas of this MLVL (< area_count) */
    uint32_t unknown;   /* normally 0 */
    uint32_t dep_count;
    world_dep *deps;           /* file order */
    uint32_t dep_offset_count; /* = layer_count + 1 */
    uint32_t *dep_offsets;
    uint32_t dock_count;
    world_dock *docks;
    uint32_t rel_module_count; /* MP2 */
    const char **rel_modules;
    uint32_t rel_offset_count; /* MP2: two per layer */
    uint32_t *rel_offsets;
    const char *internal_name; /* MP2; NULL in MP1 */

    /* From the tables after the areas (§11.1 items 18-21). */
    uint32_t layer_count; /* <= WORLD_MAX_LAYERS */
    uint64_t layer_flags; /* bit i = layer i active; bits >= layer_count normally set */
    world_layer *layers;  /* layer_count, derived */
    uint32_t own_dep_start, own_dep_count; /* the area's own group (layer_index -1) */
} world_area;

/* §11.1 MLVL: u32 magic, u32 version, id world name STRG, [MP2: id dark name STRG,
 * u32 temple key world index], id SAVW, id skybox, [MP1: u32 + n x MemoryRelay], u32 area
 * count, [MP1: u32 unknown], areas, id MAPW, u8, u32, [MP1: u32 + n x audio group, cstring],
 * u32 area count again, per area (u32 layer count, u64 flags), u32 + n x cstring layer names,
 * u32 + n x u32 layer name offsets, 0xFF padding. */
typedef struct world_mlvl {
    world_game game; /* by version */
    uint32_t magic;
    uint32_t version;
    uint32_t world_name_strg;
    uint32_t dark_world_name_strg;   /* MP2; WORLD_NONE in MP1 */
    uint32_t temple_key_world_index; /* MP2; WORLD_NONE in MP1 */
    uint32_t savw_id;
    uint32_t default_skybox_id;
    uint32_t memory_relay_count; /* MP1 */
    world_memory_relay *memory_relays;
    uint32_t area_count;
    uint32_t unknown_after_area_count; /* MP1: normally 1 */
    world_area *areas;
    uint32_t mapw_id;
    uint8_t script_layer_header;    /* normally 0 */
    uint32_t script_instance_count; /* must be 0 (an embedded layer is not decoded) */
    uint32_t audio_group_count;     /* MP1 */
    world_audio_group *audio_groups;
    const char *unknown_string;      /* MP1: normally ""; NULL in MP2 */
    uint32_t layer_flags_area_count; /* = area_count */
    uint32_t layer_name_count;       /* = sum of the areas' layer_count */
    const char **layer_names;
    uint32_t layer_name_offset_count; /* normally area_count */
    uint32_t *layer_name_offsets;     /* normally each area's first name's index */
    world_report report;
} world_mlvl;

/* ---- STRG (§12) ------------------------------------------------------------------------ */

/* One language: a FourCC and string_count UTF-8 strings. */
typedef struct world_strg_lang {
    uint32_t lang;            /* FourCC: 'ENGL', 'FREN', 'GERM', 'SPAN', 'ITAL', 'JAPN', ... */
    uint32_t offset;          /* as stored: from the string data start */
    uint32_t size;            /* as stored: MP2 language-table size; MP1 the table's size word */
    uint32_t *string_offsets; /* as stored, string_count */
    const char **strings;     /* string_count, UTF-8 */
} world_strg_lang;

/* MP2 name table entry. */
typedef struct world_strg_name {
    const char *name;
    uint32_t name_offset; /* as stored */
    uint32_t string_index;
} world_strg_name;

/* §12.1 STRG: u32 magic, u32 version, u32 language count, u32 string count, languages
 * (FourCC, u32 offset, [MP2: u32 size]), [MP2: name table], string tables, 0xFF padding. */
typedef struct world_strg {
    world_game game; /* by version */
    uint32_t magic;
    uint32_t version;
    uint32_t language_count;
    uint32_t string_count;
    world_strg_lang *languages; /* in file order */
    uint32_t name_count;        /* MP2 */
    uint32_t name_table_size;   /* MP2, as stored */
    world_strg_name *names;
    /* Set by the decoder: per name (string_index << 32 | its position in names), sorted, so
       world_strg_name_of is a binary search. NULL when built by hand (a linear search). */
    const uint64_t *name_index;
    /* When the input's tables are not laid out the way the encoder lays them out (strings back
       to back, tables back to back, names back to back in entry order), the decoder keeps the
       bytes from the end of the language table to the end of the last table here and the
       encoder writes them verbatim (and the stored offsets and sizes) instead. NULL when built
       by hand or canonical. */
    const uint8_t *raw_body;
    size_t raw_body_len;
    world_report report;
} world_strg;

/* ---- API ------------------------------------------------------------------------------- */

/* Game of an MLVL version (0x11 MP1, 0x17 MP2) / STRG version (0 MP1, 1 MP2); UNKNOWN else. */
world_game world_mlvl_version_game(uint32_t version);
world_game world_strg_version_game(uint32_t version);
/* 1 when buf starts with the MLVL / STRG magic. */
int world_is_mlvl(const uint8_t *buf, size_t len);
int world_is_strg(const uint8_t *buf, size_t len);

/* Decode a whole MLVL into arena. UTIL_ETRUNC (a count that cannot fit in the bytes left, cut
 * data), UTIL_EFORMAT (magic, a version other than 0x11/0x17, layer count over 64, offsets out
 * of order, an attached index past the areas, ...), UTIL_ENOMEM; err names the offset. */
int world_mlvl_decode(world_mlvl *out, const uint8_t *buf, size_t len, util_arena *arena,
                      util_err *err);
/* Append the encoding of m (trailing bytes included) to w: byte-exact inverse of decode. Writes
 * the stored arrays (dep_offsets, layer_names, layer_name_offsets, layer_flags); for a world
 * built by hand call world_mlvl_pack first. UTIL_EFORMAT for inconsistent counts. */
int world_mlvl_encode(util_wr *w, const world_mlvl *m, util_err *err);
/* For a world built by hand: from each area's layers (name, active, dep_count; the area's deps
 * in layer order, then own_dep_count deps of its own group) fill dep_offsets, layer_flags
 * (bits >= layer_count set), the deps' layer_index/dep_index, layer_names, layer_name_offsets
 * and the counts. Arrays land in arena. UTIL_EFORMAT when the counts do not add up. */
int world_mlvl_pack(world_mlvl *m, util_arena *arena, util_err *err);

/* Decode a whole STRG into arena (UTF-16 checked and converted to UTF-8). UTIL_ETRUNC,
 * UTIL_EFORMAT (magic, version other than 0/1, an offset outside its table, a string with no
 * terminator in its table, odd UTF-16, a lone surrogate, a name past the name table, a string
 * index past the strings), UTIL_ENOMEM; err names the offset. */
int world_strg_decode(world_strg *out, const uint8_t *buf, size_t len, util_arena *arena,
                      util_err *err);
/* Append the encoding of s (trailing bytes included) to w: byte-exact inverse of decode. With
 * raw_body NULL the tables are laid out from the strings (offsets and sizes computed).
 * UTIL_EFORMAT for a string that is not valid UTF-8 or holds a character outside UTF-16. */
int world_strg_encode(util_wr *w, const world_strg *s, util_err *err);

/* The language with that FourCC (e.g. UTIL_FOURCC('E','N','G','L')), or NULL. */
const world_strg_lang *world_strg_find_language(const world_strg *s, uint32_t lang);
/* String index of language lang, or NULL (no such language or index). */
const char *world_strg_text(const world_strg *s, uint32_t lang, uint32_t index);
/* The first name-table name of string index, or NULL. */
const char *world_strg_name_of(const world_strg *s, uint32_t index);
/* Name entries world_strg_name_of has looked at on this thread so far: tests count the work
 * of a look-up with it. */
unsigned long world_strg_name_probes(void);

const char *world_game_name(world_game g); /* "MP1", "MP2", "unknown" */

#endif
