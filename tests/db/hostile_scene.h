/* hostile_scene.h — the scene the hostile-ingest tests share (test_hostile_pak.c,
 * test_hostile_entries.c, test_hostile_ancs.c): good.pak (an intact MP1 ANCS) and bad.pak
 * (an intact ANCS plus one damaged entry, or a damaged whole file) in a temp folder, built
 * with pak_builder from hand-built ANCS bytes whose section offsets are known
 * (docs/formats.md §2–4); the ingest, and the checks every case makes: a load_errors row naming
 * the stage and a byte offset, and both intact ANCS still with their rows. */
#ifndef ANCSDB_TESTS_HOSTILE_SCENE_H
#define ANCSDB_TESTS_HOSTILE_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "pak.h"
#include "testutil.h"

#define FC_ANCS       0x414E4353u
#define FC_CMDL       0x434D444Cu
#define ID_GOOD_OTHER 0x22220001u /* intact ANCS in good.pak */
#define ID_GOOD_SAME  0x11110001u /* intact ANCS in bad.pak */
#define ID_BAD        0x0BAD0001u /* the damaged entry of bad.pak (entry 0) */
/* With no named resources the resource table starts at 12 and entry i at 16 + 20 i (§2.4). */
#define ENTRY_FIELD(i, f) (16u + 20u * (i) + (f))
#define F_SIZE            12u
#define F_OFFSET          16u

typedef struct knobs {
    ancs_game game;        /* MP1 or MP2 */
    uint16_t char_version; /* 0: 6 (MP1) / 10 (MP2) */
    const char *pas_magic; /* NULL: "PAS4" */
    uint32_t meta_type;    /* innermost meta-animation type (0 = Play; >= 5 unknown) */
    uint32_t trans_type;   /* default transition type (3 = Snap; >= 4 unknown) */
    uint32_t nest;         /* Sequence(1) levels wrapped around the Play node */
    uint32_t char_count;   /* written character count; 0: 1 */
    uint32_t anim_count;   /* written animation count; 0: 1 */
    const char *trailing;  /* bytes appended after the structure */
} knobs;

typedef struct layout {
    size_t charset, char_count, character, name, pas, particles, animset, anim_count, meta,
        transitions, default_trans, evsets, end;
} layout;

typedef struct scene {
    char *dir;
    char good[1024], bad[1024];
    db *d;
    db_ingest_stats st;
} scene;

void wr_id_list(util_wr *w, uint32_t n, uint32_t first);

void build_ancs(util_wr *w, const knobs *k, layout *L);

void knobs_init(knobs *k, ancs_game game);

pak_codec codec_of(ancs_game g);

void add_good(pak_builder *b, ancs_game g, uint32_t id);

/* good.pak in a fresh folder: one intact MP1 ANCS and a filler. */
void scene_init(scene *s);

/* bad.pak: entry 0 = the given ANCS bytes as ID_BAD (compressed with the game's codec, so
 * the inflated bytes are exactly `ancs`), entry 1 = an intact ANCS of the same game. */
void write_bad(scene *s, ancs_game g, const uint8_t *ancs, size_t len);

void write_bad_knobs(scene *s, const knobs *k, layout *L, size_t cut);

uint32_t be32(const uint8_t *p);

void put32(uint8_t *p, uint32_t v);

/* Overwrite the u32 at `off` of a file. */
void patch32(const char *path, size_t off, uint32_t v);

uint32_t read32(const char *path, size_t off);

/* One integer from a query (NULL reads as -1). */
int64_t q1(db *d, const char *sql);

/* Ingest the scene folder into a fresh in-memory database; never fatal. */
void scene_ingest(scene *s);

/* Both intact ANCS (one in good.pak, one in bad.pak unless bad.pak is wholly broken) have
 * their rows. */
void expect_intact(scene *s, int same_pak_too);

/* The one load_errors row of bad.pak: stage, entry (-1 = whole PAK) and byte offset. */
int64_t expect_error(scene *s, const char *stage, int64_t entry);

void scene_free(scene *s);

/* bad.pak with entry 0 = a valid ANCS of game g (so only the PAK bytes are hostile). */
void write_bad_valid(scene *s, ancs_game g);

#endif
