/* ingest_game.c — the game decision of the ingest, in one place: which game (MP1, MP2) a
 * PAK's rows belong to. pak_game_decide (pak/pak_game.c) weighs the PAK's own signals (the
 * disc's game code, the codecs, the one-game resource types); when they tell nothing, an
 * ANCS's bytes or a world's version (ing_game_from_ancs); --game and the release's disc
 * code override; a PAK with no signal at all is settled after the run
 * (ing_settle_unknown_games) from its release and its folder. */
#include <stdlib.h>

#include "ingest_internal.h"

/* What the version of an MLVL or STRG says (docs/formats.md §11.1, §12.1: MLVL 0x11 / 0x17,
 * STRG 0 / 1 after their magic). */
static pak_game world_version_game(const uint8_t *buf, size_t n)
{
    if (n < 8)
        return PAK_GAME_UNKNOWN;
    uint32_t v = (uint32_t)buf[4] << 24 | (uint32_t)buf[5] << 16 | (uint32_t)buf[6] << 8 | buf[7];
    world_game g = world_is_mlvl(buf, n)   ? world_mlvl_version_game(v)
                   : world_is_strg(buf, n) ? world_strg_version_game(v)
                                           : WORLD_GAME_UNKNOWN;
    return g == WORLD_GAME_MP1   ? PAK_GAME_MP1
           : g == WORLD_GAME_MP2 ? PAK_GAME_MP2
                                 : PAK_GAME_UNKNOWN;
}

pak_game ing_game_from_ancs(const pak_file *p, size_t budget)
{
    int tried = 0;
    for (int pass = 0; pass < 2; pass++) /* ANCS first; then the worlds' versions */
        for (uint32_t i = 0; i < p->entry_count && tried < 4; i++) {
            const pak_entry *e = &p->entries[i];
            int want = pass == 0 ? e->type == UTIL_FCC_ANCS
                                 : e->type == UTIL_FCC_MLVL || e->type == UTIL_FCC_STRG;
            if (!want || !e->in_bounds || ing_entry_need(e) > budget)
                continue;
            tried++;
            uint8_t *buf = NULL;
            size_t n = 0;
            if (pak_inflate(&buf, &n, p, i, PAK_MAX_INFLATE, NULL) != 0)
                continue;
            pak_game pg = PAK_GAME_UNKNOWN;
            if (pass == 0) {
                ancs_game g = ancs_guess_game(buf, n);
                pg = g == ANCS_GAME_MP1 ? PAK_GAME_MP1 : g == ANCS_GAME_MP2 ? PAK_GAME_MP2 : pg;
            } else {
                pg = world_version_game(buf, n);
            }
            free(buf);
            if (pg != PAK_GAME_UNKNOWN)
                return pg;
        }
    return PAK_GAME_UNKNOWN;
}

static int has_type(const pak_file *p, uint32_t type)
{
    for (uint32_t i = 0; i < p->entry_count; i++)
        if (p->entries[i].type == type)
            return 1;
    return 0;
}

static int has_compressed(const pak_file *p)
{
    for (uint32_t i = 0; i < p->entry_count; i++)
        if (p->entries[i].compressed)
            return 1;
    return 0;
}

int ing_decide_game(ing *g, const ing_pak_at *at, pak_file *p, ing_game_choice *out)
{
    /* the disc's game code, the PAK's own signals, then (only when they tell nothing) an
     * ANCS's */
    out->conflict = 0;
    out->guessed = 0;
    pak_game_signals sig0 = {.disc_id = at->disc_id, .ancs = PAK_GAME_UNKNOWN};
    out->detected = pak_game_decide(p, &sig0, &out->conflict);
    if (out->detected == PAK_GAME_UNKNOWN) {
        pak_game_signals sig = {.disc_id = at->disc_id,
                                .ancs = ing_game_from_ancs(p, g->pl.budget)};
        out->detected = pak_game_decide(p, &sig, &out->conflict);
    }
    out->game = g->o->game != PAK_GAME_UNKNOWN ? g->o->game
                : at->game != PAK_GAME_UNKNOWN ? at->game
                                               : out->detected;
    if (out->game == PAK_GAME_UNKNOWN) {
        if (has_compressed(p) || has_type(p, UTIL_FCC_ANCS))
            return -1;
        out->game = PAK_GAME_MP1; /* nothing in it depends on the game */
        out->guessed = 1;
    }
    return 0;
}

/* A PAK with no signal of its game (empty, or only stored resources of types both games
 * have) holds nothing whose decoding depends on the game; it takes the game its release's
 * disc code names, else the game most PAKs of its folder in its release were detected as (a
 * dump keeps each game's PAKs together), else MP1. */
int ing_settle_unknown_games(ing *g)
{
    if (g->o->game != PAK_GAME_UNKNOWN)
        return 0;
    return dbi_exec(
        g->d,
        "UPDATE paks SET game = coalesce((SELECT CASE substr(r.game_code, 1, 3) WHEN 'GM8' "
        "THEN 'MP1' WHEN 'G2M' THEN 'MP2' END FROM releases r WHERE r.release_id = "
        "paks.release_id), (SELECT s.game FROM paks s WHERE s.game_detected IN ('MP1', "
        "'MP2') AND s.release_id = paks.release_id AND rtrim(s.path, replace(s.path, '/', "
        "'')) = rtrim(paks.path, replace(paks.path, '/', '')) GROUP BY s.game ORDER BY "
        "count(*) DESC, s.game LIMIT 1), 'MP1') WHERE game_detected = 'unknown';"
        "UPDATE warnings SET game = (SELECT p.game FROM paks p WHERE p.pak_id = "
        "warnings.pak_id) WHERE code = 'game_unknown' AND pak_id IS NOT NULL;",
        g->err);
}
