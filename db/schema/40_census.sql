-- The census of every field known only as "unknown" (docs/formats.md §6): one row per
-- (release, game, field, value) with the number of occurrences, release_id NULL for the whole
-- corpus (every distinct content counted once, whatever number of releases hold it). Read by the
-- named queries unknown-census and unknown-census-summary through the view unknown_census.
-- Every ingest's final pass refills the table with db/census/census.sql from census_contents
-- and the PAK tables (reading the table is a small read; computing it from the decoded
-- tables would scan every decoded row on every query).

-- What each distinct content adds to the census: one row per (content, field, value). Filled
-- once per content (a content decoded again loses its rows with its other rows), so an
-- ingest reads the decoded rows of the contents it added only.
CREATE TABLE census_contents (
    content_id INTEGER NOT NULL,     -- contents.content_id
    game TEXT,                       -- 'MP1' / 'MP2' ('?' for a warning of no game)
    field TEXT NOT NULL,             -- e.g. 'char.unknown_a'
    value TEXT,                      -- the value as text
    count INTEGER NOT NULL           -- occurrences in the content
);
CREATE INDEX census_contents_content ON census_contents(content_id);

CREATE TABLE census (
    release_id INTEGER,              -- the release counted; NULL: the whole corpus
    game TEXT,                       -- 'MP1' / 'MP2' ('?' for a warning of no game)
    field TEXT NOT NULL,             -- e.g. 'char.unknown_a'
    value TEXT,                      -- the value as text
    count INTEGER NOT NULL           -- occurrences
);
CREATE VIEW unknown_census(game, field, value, count, release) AS
SELECT c.game, c.field, c.value, c.count, ifnull(r.label, '(all)')
FROM census c LEFT JOIN releases r ON r.release_id = c.release_id;
