/* rows_evnt.c — the rows of event data: an EVNT resource (evnt, its events, the particles
 * it names as asset_refs) and the event nodes of MP2 ANCS event sets. */
#include <string.h>

#include "internal.h"

/* The columns every kind of event node has. */
static void put_poi(db_row *r, const ancs_poi *b)
{
    dbi_int(r, COL(events, byte_offset), (int64_t)b->offset);
    dbi_int(r, COL(events, unknown_u16), b->unknown_u16);
    dbi_text(r, COL(events, name), b->name);
    dbi_int(r, COL(events, poi_type), b->poi_type);
    dbi_real(r, COL(events, time), b->time.time);
    dbi_int(r, COL(events, time_type), b->time.type);
    dbi_int(r, COL(events, index), b->index);
    dbi_int(r, COL(events, unique), b->unique);
    dbi_real(r, COL(events, weight), b->weight);
    dbi_int(r, COL(events, char_index), b->char_index);
    dbi_int(r, COL(events, flags), b->flags);
}

int dbi_put_event_nodes(db *d, const char *owner_type, uint32_t owner_id, int64_t anim_index,
                        const ancs_evnt *ev, int mp2, util_err *err)
{
    static const char *const kinds[] = {"bool", "int32", "particle", "sound"};
    int rc = 0;
    db_row r;
    char fc[5];
    for (int kind = 0; kind < 4; kind++) {
        uint32_t n = kind == 0   ? ev->bool_count
                     : kind == 1 ? ev->int32_count
                     : kind == 2 ? ev->particle_count
                                 : ev->sound_count;
        for (uint32_t i = 0; i < n; i++) {
            TRY(dbi_row_begin(&r, d, TBL(events), err));
            dbi_text(&r, COL(events, owner_type), owner_type);
            dbi_int(&r, COL(events, owner_id), owner_id);
            if (anim_index >= 0)
                dbi_int(&r, COL(events, anim_index), anim_index);
            dbi_text(&r, COL(events, kind), kinds[kind]);
            dbi_int(&r, COL(events, node_index), i);
            if (kind == 0) {
                put_poi(&r, &ev->bools[i].base);
                dbi_int(&r, COL(events, value), ev->bools[i].value);
            } else if (kind == 1) {
                put_poi(&r, &ev->int32s[i].base);
                dbi_int(&r, COL(events, value), ev->int32s[i].value);
                dbi_text(&r, COL(events, locator_name), ev->int32s[i].locator_name);
            } else if (kind == 2) {
                const ancs_poi_particle *p = &ev->particles[i];
                put_poi(&r, &p->base);
                dbi_int(&r, COL(events, duration), p->duration);
                dbi_text(&r, COL(events, particle_type), dbi_fourcc(p->particle_type, fc));
                dbi_int(&r, COL(events, particle_id), p->particle_id);
                if (mp2)
                    dbi_int(&r, COL(events, bone_id), p->bone_id);
                else
                    dbi_text(&r, COL(events, bone_name), p->bone_name);
                dbi_real(&r, COL(events, scale), p->scale);
                dbi_int(&r, COL(events, parented_mode), p->parented_mode);
            } else {
                const ancs_poi_sound *s = &ev->sounds[i];
                put_poi(&r, &s->base);
                dbi_int(&r, COL(events, sound_id), s->sound_id);
                dbi_real(&r, COL(events, falloff), s->falloff);
                dbi_real(&r, COL(events, max_distance), s->max_distance);
                if (mp2) {
                    dbi_int(&r, COL(events, echoes_unknown_a), s->echoes_unknown_a);
                    dbi_int(&r, COL(events, echoes_unknown_b), s->echoes_unknown_b);
                    dbi_int(&r, COL(events, echoes_unknown_c), s->echoes_unknown_c);
                    dbi_real(&r, COL(events, echoes_unknown_d), s->echoes_unknown_d);
                }
            }
            TRY(dbi_row_end(&r, err));
        }
    }
    return rc;
}

static int put_evnt_rows(db *d, const char *game, uint32_t asset_id, const ancs_evnt_file *evf,
                         util_err *err)
{
    int rc = 0;
    const ancs_evnt *ev = &evf->evnt;
    db_row r;
    TRY(dbi_row_begin(&r, d, TBL(evnt), err));
    dbi_int(&r, COL(evnt, asset_id), asset_id);
    dbi_int(&r, COL(evnt, version), ev->version);
    dbi_int(&r, COL(evnt, bool_count), ev->bool_count);
    dbi_int(&r, COL(evnt, int32_count), ev->int32_count);
    dbi_int(&r, COL(evnt, particle_count), ev->particle_count);
    if (ev->version >= 2)
        dbi_int(&r, COL(evnt, sound_count), ev->sound_count);
    dbi_int(&r, COL(evnt, size), (unsigned)(evf->report.consumed + evf->report.trailing_len));
    dbi_int(&r, COL(evnt, trailing_len), (unsigned)evf->report.trailing_len);
    TRY(dbi_row_end(&r, err));
    TRY(dbi_put_event_nodes(d, "EVNT", asset_id, -1, ev, evf->game == ANCS_GAME_MP2, err));
    for (uint32_t k = 0; k < ev->particle_count; k++) {
        const ancs_poi_particle *p = &ev->particles[k];
        char fc[5];
        if (dbi_id_none(p->particle_id))
            continue;
        TRY(dbi_put_ref(d, "EVNT", asset_id, dbi_fourcc(p->particle_type, fc), p->particle_id,
                        p->base.char_index < 0 ? -1 : p->base.char_index, "event", err));
    }
    TRY(dbi_put_report_warnings(d, game, "EVNT", asset_id, &evf->report, err));
    return rc;
}

int db_put_evnt(db *d, const char *game, uint32_t asset_id, int64_t content_id,
                const ancs_evnt_file *evf, util_err *err)
{
    int rc = dbi_key_text(d, DBK_game, game, err); /* the key columns (tables.h) */
    dbi_key_int(d, DBK_content_id, content_id);
    d->content = content_id;
    if (rc)
        return rc;
    dbi_batch_begin(d);
    dbi_census_begin(d);
    rc = put_evnt_rows(d, game, asset_id, evf, err);
    int crc = dbi_census_end(d, rc != 0, err);
    if (!rc)
        rc = crc;
    int frc = dbi_batch_end(d, rc != 0, err);
    d->content = 0;
    return rc ? rc : frc;
}
