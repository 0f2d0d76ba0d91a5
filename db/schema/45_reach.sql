-- What each character of an ANCS content reaches by the reach rules (CONTRACT.md "How a
-- character reaches an asset") within the ANCS itself, with the path, for the named query
-- `deps`: one row per (character, path, asset). Written with each ANCS content's other rows
-- (db/rows_ancs.c, the paths ancs_char_paths gives; for contents an earlier ancsdb wrote
-- without them, by the final pass: db/census/10_char_reach.sql), and gone when they go. The
-- one step that leaves the ANCS, MP1's particle nodes of the EVNT an ANIM names (rule 4), is
-- joined by `deps` at query time from the EVNT rows (rows with rule 4 and k3 = 1 are those
-- EVNT edges), so an EVNT added or changed later is seen.
CREATE TABLE char_reach (
    game TEXT NOT NULL,              -- 'MP1' / 'MP2'
    ancs_id INTEGER NOT NULL,        -- the ANCS
    content_id INTEGER NOT NULL,     -- contents.content_id: the content the rows come from
    char_index INTEGER NOT NULL,     -- the character's position in the set
    rule INTEGER NOT NULL,           -- 1 own fields, 2 particle lists, 3 effects, 4 animations
    k1 INTEGER NOT NULL,             -- order within the rule: field, list, effect or animation
    k2 INTEGER NOT NULL,             -- then: list position, component, or Play node order
    k3 INTEGER NOT NULL,             -- then: 0 ANIM, 1 its EVNT, 2 + n particle node n
    dst_type TEXT,                   -- FourCC of the asset reached (NULL: type unknown)
    dst_id INTEGER NOT NULL,         -- the asset reached (never 0 or FFFFFFFF)
    via TEXT NOT NULL                -- the path, e.g. 'animation 3 > ANIM 1A2B3C4D'
);
CREATE INDEX char_reach_owner ON char_reach(game, ancs_id, content_id, char_index);
