/* pak_game.c — which game a PAK belongs to (docs/formats.md §2.7): the codec sniffed from a
 * compressed payload, the per-entry codec, and the vote of the signals (disc ID, codecs,
 * one-game resource types, ANCS versions). Calls nothing else in pak/. */
#include <string.h>

#include "pak_internal.h"

pak_codec pak_sniff_codec(const uint8_t *stored, size_t len)
{
    if (len < 6)
        return PAK_CODEC_NONE;
    unsigned b4 = stored[4], b5 = stored[5];
    if (b4 == 0x78 && (b4 * 256 + b5) % 31 == 0)
        return PAK_CODEC_ZLIB;
    int16_t seg = (int16_t)(uint16_t)(b4 << 8 | b5);
    if ((seg > 0 && seg <= (int)PAK_LZO_SEGMENT_BOUND) || (seg < 0 && seg >= -(int)PAK_LZO_SEGMENT))
        return PAK_CODEC_LZO;
    return PAK_CODEC_NONE;
}

/* ---- the game decision (§2.7) -------------------------------------------------------- */

/* Signal 3: resource types that exist in one game only (PWE CResTypeInfo). */
static pak_game game_of_type(uint32_t type)
{
    static const uint32_t mp1_only[] = {UTIL_FCC_EVNT, UTIL_FCC_CTWK};
    static const uint32_t mp2_only[] = {
        UTIL_FCC_SPSC, UTIL_FCC_SRSC, UTIL_FCC_CSPP, UTIL_FCC_PTLA,
        UTIL_FCC_RULE, UTIL_FCC_EGMC, UTIL_FCC_STLC, UTIL_FCC_FSM2,
    };
    for (size_t k = 0; k < sizeof mp1_only / sizeof mp1_only[0]; k++)
        if (type == mp1_only[k])
            return PAK_GAME_MP1;
    for (size_t k = 0; k < sizeof mp2_only / sizeof mp2_only[0]; k++)
        if (type == mp2_only[k])
            return PAK_GAME_MP2;
    return PAK_GAME_UNKNOWN;
}

/* Signal 1: the disc's game code, region letter ignored. */
pak_game pak_game_of_disc(const char *id)
{
    if (!id)
        return PAK_GAME_UNKNOWN;
    if (!strncmp(id, "GM8", 3))
        return PAK_GAME_MP1;
    if (!strncmp(id, "G2M", 3))
        return PAK_GAME_MP2;
    return PAK_GAME_UNKNOWN;
}

/* Majority of two vote counts; *mixed set when both are non-zero. */
static pak_game vote(size_t mp1, size_t mp2, int *mixed)
{
    if (mp1 && mp2)
        *mixed = 1;
    if (mp1 > mp2)
        return PAK_GAME_MP1;
    if (mp2 > mp1)
        return PAK_GAME_MP2;
    return PAK_GAME_UNKNOWN;
}

pak_codec pak_entry_codec(const pak_entry *e, const uint8_t *head, size_t head_len)
{
    if (!e->compressed || !e->in_bounds || e->size < 6 || !head)
        return PAK_CODEC_NONE;
    return pak_sniff_codec(head, head_len < e->size ? head_len : e->size);
}

pak_game pak_game_decide(const pak_file *p, const pak_game_signals *s, int *conflict)
{
    size_t codec_votes[3] = {0, 0, 0}, type_votes[3] = {0, 0, 0};
    int mixed = 0;
    for (uint32_t i = 0; i < p->entry_count; i++) {
        const pak_entry *e = &p->entries[i];
        type_votes[game_of_type(e->type)]++;
        pak_codec c = e->codec;
        if (c == PAK_CODEC_ZLIB)
            codec_votes[PAK_GAME_MP1]++;
        else if (c == PAK_CODEC_LZO)
            codec_votes[PAK_GAME_MP2]++;
    }
    pak_game by_disc = pak_game_of_disc(s ? s->disc_id : NULL);
    pak_game by_codec = vote(codec_votes[1], codec_votes[2], &mixed);
    pak_game by_type = vote(type_votes[1], type_votes[2], &mixed);
    pak_game by_ancs = s ? s->ancs : PAK_GAME_UNKNOWN;
    /* strongest first; any two signals present that disagree are a conflict */
    const pak_game order[4] = {by_disc, by_codec, by_type, by_ancs};
    pak_game g = PAK_GAME_UNKNOWN;
    for (int k = 0; k < 4; k++) {
        if (order[k] == PAK_GAME_UNKNOWN)
            continue;
        if (g == PAK_GAME_UNKNOWN)
            g = order[k];
        else if (order[k] != g)
            mixed = 1;
    }
    if (conflict)
        *conflict = mixed;
    return g;
}
