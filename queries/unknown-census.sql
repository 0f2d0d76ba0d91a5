-- Census of every field known only as "unknown" (docs/formats.md §6): game, field, value, count of occurrences, release ('(all)': the whole corpus, each distinct content counted once; then each release)
-- param: [FIELD_PATTERN] — only fields matching it: case-insensitive, `*` and `?` wildcards; without a wildcard, fields containing it (e.g. characters.unknown, 'poi.*')
SELECT game, field, value, count, release
FROM unknown_census
WHERE ?1 IS NULL
   OR lower(field) GLOB lower(CASE WHEN instr(?1, '*') OR instr(?1, '?') THEN ?1
                                   ELSE '*' || ?1 || '*' END)
ORDER BY field, game, release <> '(all)', release, count DESC, value;
