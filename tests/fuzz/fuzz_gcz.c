/* fuzz_gcz.c — libFuzzer target: the input read as a GCZ container (fuzz_container.h). */
#define FUZZ_CONTAINER_MAGIC "\x01\xC0\x0B\xB1"
#define FUZZ_CONTAINER_KIND  DISC_KIND_GCZ
#include "fuzz_container.h"
