/* ancs.h — ANCS (animated character set) and EVNT (animation events) of Metroid Prime 1
 * and 2, decoded from bytes into typed structs and encoded back byte-exact
 * (docs/formats.md §4, §5, §8). Knows nothing of PAK files, paths or SQLite.
 *
 * Ownership: a decoded set lives in the util_arena passed to the decoder; every pointer in
 * it (strings included) is valid until util_arena_free. Strings are NUL-terminated copies. */
#ifndef ANCSDB_ANCS_H
#define ANCSDB_ANCS_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* Meta-animation / meta-transition nesting beyond this is a decode error (FORMATS §4.12). */
#define ANCS_MAX_DEPTH 64

typedef enum { ANCS_GAME_AUTO = 0, ANCS_GAME_MP1 = 1, ANCS_GAME_MP2 = 2 } ancs_game;

enum {
    ANCS_META_PLAY = 0,
    ANCS_META_BLEND = 1,
    ANCS_META_PHASE_BLEND = 2,
    ANCS_META_RANDOM = 3,
    ANCS_META_SEQUENCE = 4
};
enum {
    ANCS_TRANS_META_ANIM = 0,
    ANCS_TRANS_TRANS = 1,
    ANCS_TRANS_PHASE_TRANS = 2,
    ANCS_TRANS_SNAP = 3
};
enum {
    ANCS_PARM_INT32 = 0,
    ANCS_PARM_UINT32 = 1,
    ANCS_PARM_FLOAT = 2,
    ANCS_PARM_BOOL = 3,
    ANCS_PARM_ENUM = 4
};

/* A decoder finding that docs/formats.md §8 says to decode on (PAS magic, odd version, ...),
 * and what a top-level decode saw besides the structure itself (util.h: every decoder's). */
typedef util_warning ancs_warning;
typedef util_report ancs_report;

/* §1.2 */
typedef struct ancs_time {
    float time;
    uint32_t type; /* CharAnimTime EType 0..4 */
} ancs_time;

typedef struct ancs_aabox {
    float min[3], max[3];
} ancs_aabox;

/* ---- EVNT (§5) ---------------------------------------------------------------------- */

/* §5.3 base POI node. */
typedef struct ancs_poi {
    uint64_t offset; /* of the node in the input */
    uint16_t unknown_u16;
    const char *name;
    uint16_t poi_type;
    ancs_time time;
    uint32_t index;
    uint8_t unique;
    float weight;
    int32_t char_index; /* -1 = every character */
    uint32_t flags;
} ancs_poi;

typedef struct ancs_poi_bool {
    ancs_poi base;
    uint8_t value;
} ancs_poi_bool;

typedef struct ancs_poi_int32 {
    ancs_poi base;
    int32_t value;
    const char *locator_name;
} ancs_poi_int32;

typedef struct ancs_poi_particle {
    ancs_poi base;
    int32_t duration;
    uint32_t particle_type, particle_id; /* ObjectTag */
    const char *bone_name;               /* MP1; NULL in MP2 */
    uint32_t bone_id;                    /* MP2; 0 in MP1 */
    float scale;
    uint32_t parented_mode;
} ancs_poi_particle;

typedef struct ancs_poi_sound {
    ancs_poi base;
    uint32_t sound_id;
    float falloff, max_distance;
    /* MP2 only (0 in MP1) */
    uint32_t echoes_unknown_a;
    uint16_t echoes_unknown_b, echoes_unknown_c;
    float echoes_unknown_d;
} ancs_poi_sound;

/* §5.2 — an MP1 EVNT resource or an MP2 embedded event set. */
typedef struct ancs_evnt {
    uint64_t offset;
    uint32_t version; /* EV; sound_nodes present when EV >= 2 */
    uint32_t bool_count;
    ancs_poi_bool *bools;
    uint32_t int32_count;
    ancs_poi_int32 *int32s;
    uint32_t particle_count;
    ancs_poi_particle *particles;
    uint32_t sound_count;
    ancs_poi_sound *sounds;
} ancs_evnt;

/* A standalone EVNT resource with its report. */
typedef struct ancs_evnt_file {
    ancs_game game;
    ancs_evnt evnt;
    ancs_report report;
} ancs_evnt_file;

/* ---- meta-animations and meta-transitions (§4.12, §4.14) ---------------------------- */

typedef struct ancs_meta_anim ancs_meta_anim;

struct ancs_meta_anim {
    uint64_t offset; /* of the type field */
    uint32_t type;   /* ANCS_META_* */
    /* Play */
    uint32_t anim_id; /* ANIM asset */
    uint32_t primitive_id;
    const char *primitive_name;
    ancs_time start_time;
    /* Blend, PhaseBlend: children[0] = a, children[1] = b */
    float blend_weight;
    uint8_t unknown_flag;
    /* Blend/PhaseBlend (2), Random, Sequence: children */
    uint32_t child_count;
    ancs_meta_anim *children;
    uint32_t *probabilities; /* Random only: one per child */
};

typedef struct ancs_meta_trans {
    uint64_t offset;
    uint32_t type;        /* ANCS_TRANS_* */
    ancs_meta_anim *anim; /* META_ANIM */
    ancs_time duration;   /* TRANS, PHASE_TRANS */
    uint8_t unknown_flag;
    uint8_t run_a;
    uint32_t flags;
} ancs_meta_trans;

/* ---- character (§4.3–4.9) ----------------------------------------------------------- */

typedef struct ancs_anim_name {
    uint32_t anim_id;    /* character-relative */
    const char *unknown; /* MP1 extra string (normally ""); NULL in MP2 */
    const char *name;
} ancs_anim_name;

typedef struct ancs_pas_parm {
    int32_t parm_type; /* ANCS_PARM_*; other values have no min/max bytes */
    int32_t weight_function;
    float weight;
    uint32_t min, max; /* raw bits (float bits for FLOAT, 0/1 byte value for BOOL) */
} ancs_pas_parm;

typedef struct ancs_pas_anim {
    uint32_t anim_id;
    uint32_t *values; /* parm_count raw values, typed by the state's parms */
} ancs_pas_anim;

typedef struct ancs_pas_state {
    int32_t state_type;
    uint32_t parm_count;
    ancs_pas_parm *parms;
    uint32_t anim_count;
    ancs_pas_anim *anims;
} ancs_pas_state;

typedef struct ancs_pas {
    uint32_t magic; /* normally 'PAS4' */
    int32_t default_state;
    uint32_t state_count;
    ancs_pas_state *states;
} ancs_pas;

typedef struct ancs_id_list {
    uint32_t count;
    uint32_t *ids;
} ancs_id_list;

typedef struct ancs_anim_aabb {
    const char *name;
    ancs_aabox box;
} ancs_anim_aabb;

typedef struct ancs_effect_comp {
    const char *name;
    uint32_t particle_type, particle_id;
    const char *bone_name; /* MP1; NULL in MP2 */
    uint32_t bone_id;      /* MP2 */
    float scale;
    uint32_t parented_mode;
    uint32_t flags;
} ancs_effect_comp;

typedef struct ancs_effect {
    const char *name;
    uint32_t comp_count;
    ancs_effect_comp *comps;
} ancs_effect;

typedef struct ancs_indexed_aabb {
    uint32_t anim_id;
    ancs_aabox box;
} ancs_indexed_aabb;

/* Presence of a character's optional parts by its version T (FORMATS §4.3, §8 #1). */
#define ANCS_HAS_AABBS(T)      ((T) >= 2)
#define ANCS_HAS_EFFECTS(T)    ((T) >= 3)
#define ANCS_HAS_FROZEN(T)     ((T) >= 4)
#define ANCS_HAS_ID_MAP(T)     ((T) >= 5)
#define ANCS_HAS_THIRD_LIST(T) ((T) >= 6)  /* the unidentified list; ELSC becomes 4th */
#define ANCS_HAS_MP2_FIELDS(T) ((T) >= 10) /* unknown_b, SPSC, CSPP, unknown_c, indexed */

typedef struct ancs_character {
    uint64_t offset; /* of the character ID */
    uint32_t char_id;
    uint16_t version; /* T */
    const char *name;
    uint32_t model_id, skin_id, skeleton_id;
    uint32_t anim_name_count;
    ancs_anim_name *anim_names;
    ancs_pas pas;
    ancs_id_list part, swhc, third, elsc, spsc; /* third: T >= 6; spsc: T >= 10 */
    uint32_t unknown_a;
    uint32_t unknown_b; /* T >= 10 */
    uint32_t aabb_count;
    ancs_anim_aabb *aabbs;
    uint32_t effect_count;
    ancs_effect *effects;
    uint32_t frozen_model_id, frozen_skin_id; /* T >= 4 */
    ancs_id_list id_map;                      /* T >= 5 */
    uint32_t cspp_id;                         /* T >= 10 */
    uint8_t unknown_c;                        /* T >= 10 */
    uint32_t indexed_aabb_count;
    ancs_indexed_aabb *indexed_aabbs;
} ancs_character;

/* ---- animation set (§4.10–4.13) ----------------------------------------------------- */

typedef struct ancs_animation {
    const char *name;
    ancs_meta_anim meta;
} ancs_animation;

typedef struct ancs_transition {
    uint32_t unknown_id;
    uint32_t anim_a, anim_b;
    ancs_meta_trans trans;
} ancs_transition;

typedef struct ancs_additive {
    uint32_t anim_index;
    float fade_in, fade_out;
} ancs_additive;

typedef struct ancs_half_transition {
    uint32_t anim; /* destination (§8 #9) */
    ancs_meta_trans trans;
} ancs_half_transition;

typedef struct ancs_res_pair {
    uint32_t anim_id, evnt_id;
} ancs_res_pair;

#define ANCS_SET_HAS_ADDITIVE(V) ((V) >= 2)
#define ANCS_SET_HAS_HALF(V)     ((V) >= 3)
#define ANCS_SET_HAS_TAIL(V)     ((V) >= 4) /* MP1 resource pairs / MP2 event sets */

typedef struct ancs_animset {
    uint16_t version; /* V */
    uint32_t animation_count;
    ancs_animation *animations;
    uint32_t transition_count;
    ancs_transition *transitions;
    ancs_meta_trans default_transition;
    uint32_t additive_count;
    ancs_additive *additives;
    float default_fade_in, default_fade_out;
    uint32_t half_count;
    ancs_half_transition *halfs;
    uint32_t pair_count; /* MP1 */
    ancs_res_pair *pairs;
    uint32_t event_set_count; /* MP2 */
    ancs_evnt *event_sets;
} ancs_animset;

typedef struct ancs_set {
    ancs_game game;           /* the game the bytes were decoded as (never AUTO) */
    uint16_t version;         /* ancs_version, always 1 */
    uint16_t charset_version; /* always 1 */
    uint32_t char_count;
    ancs_character *chars;
    ancs_animset animset;
    ancs_report report;
} ancs_set;

/* ---- API ---------------------------------------------------------------------------- */

/* Game an ANCS was most likely written for: first character's version 10 → MP2, else MP1
 * (FORMATS §2.7 signal 4; the ANCS signal callers hand to pak_game_decide). ANCS_GAME_AUTO
 * when the bytes do not start like a character set (00 01 00 01, at least one character,
 * 14 bytes). */
ancs_game ancs_guess_game(const uint8_t *buf, size_t len);

/* Decode a whole ANCS. game AUTO uses ancs_guess_game. Everything lands in arena.
 * Errors: UTIL_ETRUNC (counts that cannot fit, cut data), UTIL_EFORMAT (unknown meta types,
 * depth over ANCS_MAX_DEPTH), UTIL_ENOMEM; err names the absolute offset. */
int ancs_decode(ancs_set *out, const uint8_t *buf, size_t len, ancs_game game, util_arena *arena,
                util_err *err);
/* Append the encoding of set (trailing bytes included) to w: byte-exact inverse of decode. */
int ancs_encode(util_wr *w, const ancs_set *set, util_err *err);

/* Decode / encode a standalone EVNT resource (MP1; MP2 layout when game is MP2). */
int ancs_evnt_decode(ancs_evnt_file *out, const uint8_t *buf, size_t len, ancs_game game,
                     util_arena *arena, util_err *err);
int ancs_evnt_encode(util_wr *w, const ancs_evnt_file *ev, util_err *err);

/* Call fn on every Play node of a meta-animation tree / meta-transition, depth first in
 * stream order. */
typedef void (*ancs_play_fn)(const ancs_meta_anim *play, void *ctx);
void ancs_meta_anim_walk(const ancs_meta_anim *m, ancs_play_fn fn, void *ctx);
void ancs_meta_trans_walk(const ancs_meta_trans *t, ancs_play_fn fn, void *ctx);

const char *ancs_game_name(ancs_game g); /* "MP1", "MP2", "auto" */

/* ---- what a character reaches ---------------------------------------------------------- */

/* One reference of a character set to an asset, by the rules of CONTRACT.md "How a
 * character reaches an asset". */
typedef struct ancs_edge {
    int64_t char_index; /* the reaching character's position in the set; -1: no single
                           character owns the reference (set level) */
    uint32_t dst_type;  /* FourCC of the target (0 when !typed) */
    int typed;          /* 0: the third particle list, whose type is unknown */
    uint32_t dst_id;    /* never 0 or 0xFFFFFFFF (those mean "none" and are left out) */
    const char *via;    /* static: model, skin, skeleton, frozen_model, frozen_skin, cspp,
                           particles, third_list, effect, animation, animation_resources,
                           event, transition, half_transition, default_transition, event_set */
} ancs_edge;

/* items owned: free with ancs_edges_free. */
typedef UTIL_VEC(ancs_edge) ancs_edges;

/* Every distinct edge of set (distinct by char_index, type, ID and via), in a fixed order:
 * transitions, default transition and half transitions; then per character its own fields,
 * particle lists, effects, and what its animations reach; then the set-level references of
 * animations, resource pairs and event sets no character reaches. Time and memory follow
 * the size of the set and the number of edges (hash lookups, no nested scans). *out is
 * reset first. UTIL_ENOMEM. */
int ancs_reach(ancs_edges *out, const ancs_set *set, util_err *err);
void ancs_edges_free(ancs_edges *e);

/* One path of a character to an asset inside the set (CONTRACT.md "How a character reaches
 * an asset"), as db/ keeps it in char_reach. rule: 1 the character's own fields (k1 1-6:
 * model, skin, skeleton, frozen model, frozen skin, CSPP), 2 its particle lists (k1 0 PART,
 * 1 SWHC, 2 the third list, 3 ELSC, 4 SPSC; k2 the position), 3 its effects (k1 effect, k2
 * component), 4 its animations (k1 the animation-set entry, k2 the position of the ANIM's
 * first Play node in the entry's tree among all its Play nodes, k3 0; k3 1: that ANIM's EVNT
 * from its first resource pair; k2 1000000 and k3 2 + n: particle node n of the event set of
 * the same index). */
typedef struct ancs_path {
    uint32_t char_index;
    uint32_t rule, k1, k2, k3;
    uint32_t dst_type; /* FourCC (0 when !typed: the third list) */
    int typed;
    uint32_t dst_id; /* never 0 or 0xFFFFFFFF */
    const char *via; /* the path as text, e.g. "animation 3 > ANIM 1A2B3C4D"; valid during
                        the call only */
} ancs_path;
/* 0, or a negative code (UTIL_E*, UTIL_ESQL) that stops the walk and is returned. */
typedef int (*ancs_path_fn)(const ancs_path *p, void *ctx);

/* Call fn on every path of every character of set. game: ANCS_GAME_MP1 adds each ANIM's
 * EVNT (from the resource pairs), ANCS_GAME_MP2 the particle nodes of the event sets, any
 * other neither. Each path once; time and memory follow the set's size and the paths (hash
 * lookups; each tree's distinct ANIMs listed once). 0, fn's code, or UTIL_ENOMEM (err). */
int ancs_char_paths(const ancs_set *set, ancs_game game, ancs_path_fn fn, void *ctx, util_err *err);

#endif
