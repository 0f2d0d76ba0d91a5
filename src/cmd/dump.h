/* dump.h — what `ancsdb ancs dump` prints of each decoded resource (dump_ancs.c,
 * dump_world.c), as an indented tree or, with --json, one JSON object (treew.h).
 *
 * JSON field names (snake_case, stable): top level file, asset_id, game, size, version,
 * charset_version, consumed, trailing_bytes, trailing_all_ff, warnings[{offset, code,
 * message}], characters[...], animation_set{...}. Characters: index, offset, char_id,
 * version, name, model_id, skin_id, skeleton_id, animation_names[{anim_id, unknown, name}],
 * pas{magic, default_state, states[{state_type, parms[{parm_type, weight_function, weight,
 * min, max}], anims[{anim_id, values[]}]}]}, part, swhc, third, elsc, spsc (ID lists),
 * unknown_a, unknown_b, aabbs[{name, min, max}], effects[{name, components[{name,
 * particle_type, particle_id, bone_name, bone_id, scale, parented_mode, flags}]}],
 * frozen_model_id, frozen_skin_id, id_map, cspp_id, unknown_c, indexed_aabbs[{anim_id, min,
 * max}]. Fields a version lacks are null. Animation set: version, animations[{index, name,
 * meta}], transitions[{unknown_id, anim_a, anim_b, transition}], default_transition,
 * additives[{anim_index, fade_in, fade_out}], default_fade_in, default_fade_out,
 * half_transitions[{anim, transition}], resource_pairs[{anim_id, evnt_id}],
 * event_sets[{version, bool_nodes, int32_nodes, particle_nodes, sound_nodes}].
 * Meta-animation: {offset, type, type_name, ...body}; meta-transition likewise. Asset IDs
 * are 8-digit upper-case hex strings; PAS values are raw u32 (float bits for Float parms);
 * non-finite floats print as strings ("nan", "inf", "-inf").
 *
 * An MLVL or STRG (told by its magic; docs/formats.md §11, §12) is printed the same way with
 * type "MLVL" / "STRG": the world's header fields and areas (layers with their dependencies in
 * file order, the area's own group, docks, MP2 modules and internal name), or the string
 * table's languages (FourCC, strings as UTF-8) and MP2 names. */
#ifndef ANCSDB_DUMP_H
#define ANCSDB_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "ancs.h"
#include "treew.h"
#include "world.h"

/* Each prints one whole document: file (the path given), asset_id (has_id 0: null), size
 * (bytes decoded), then the resource's fields. */
void cli_dump_ancs(tw *e, const char *file, int has_id, uint32_t asset, size_t size,
                   const ancs_set *s);
void cli_dump_evnt(tw *e, const char *file, int has_id, uint32_t asset, size_t size,
                   const ancs_evnt_file *ev);
void cli_dump_mlvl(tw *e, const char *file, int has_id, uint32_t asset, size_t size,
                   const world_mlvl *m);
void cli_dump_strg(tw *e, const char *file, int has_id, uint32_t asset, size_t size,
                   const world_strg *s);

#endif
