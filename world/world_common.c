/* world_common.c — the small look-up helpers of world.h (the decoder state the MLVL and STRG
 * decoders share is util.h's util_dec). */
#include "world_int.h"

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

world_game world_mlvl_version_game(uint32_t version)
{
    return version == WORLD_MLVL_MP1   ? WORLD_GAME_MP1
           : version == WORLD_MLVL_MP2 ? WORLD_GAME_MP2
                                       : WORLD_GAME_UNKNOWN;
}

world_game world_strg_version_game(uint32_t version)
{
    return version == WORLD_STRG_MP1   ? WORLD_GAME_MP1
           : version == WORLD_STRG_MP2 ? WORLD_GAME_MP2
                                       : WORLD_GAME_UNKNOWN;
}

int world_is_mlvl(const uint8_t *buf, size_t len)
{
    return buf && len >= 4 && be32(buf) == WORLD_MLVL_MAGIC;
}

int world_is_strg(const uint8_t *buf, size_t len)
{
    return buf && len >= 4 && be32(buf) == WORLD_STRG_MAGIC;
}

const world_strg_lang *world_strg_find_language(const world_strg *s, uint32_t lang)
{
    if (!s || !s->languages)
        return NULL;
    for (uint32_t i = 0; i < s->language_count; i++)
        if (s->languages[i].lang == lang)
            return &s->languages[i];
    return NULL;
}

const char *world_strg_text(const world_strg *s, uint32_t lang, uint32_t index)
{
    const world_strg_lang *l = world_strg_find_language(s, lang);
    if (!l || index >= s->string_count || !l->strings)
        return NULL;
    return l->strings[index];
}

static _Thread_local unsigned long name_probes;

unsigned long world_strg_name_probes(void)
{
    return name_probes;
}

const char *world_strg_name_of(const world_strg *s, uint32_t index)
{
    if (!s || !s->names)
        return NULL;
    if (!s->name_index) {
        for (uint32_t i = 0; i < s->name_count; i++) {
            name_probes++;
            if (s->names[i].string_index == index)
                return s->names[i].name;
        }
        return NULL;
    }
    /* the first key whose string index is not below index */
    uint64_t want = (uint64_t)index << 32;
    size_t lo = 0, hi = s->name_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        name_probes++;
        if (s->name_index[mid] < want)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == s->name_count || s->name_index[lo] >> 32 != index)
        return NULL;
    return s->names[(uint32_t)s->name_index[lo]].name;
}

const char *world_game_name(world_game g)
{
    return g == WORLD_GAME_MP1 ? "MP1" : g == WORLD_GAME_MP2 ? "MP2" : "unknown";
}
