/* walk.h — the benchmark programs' folder walk. */
#ifndef ANCSDB_BENCH_WALK_H
#define ANCSDB_BENCH_WALK_H

/* Call fn on every regular *.pak file (any case) at or below path; symlinks not followed. */
void bench_walk(const char *path, void (*fn)(const char *path));

#endif
