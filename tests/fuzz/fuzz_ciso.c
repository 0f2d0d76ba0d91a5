/* fuzz_ciso.c — libFuzzer target: the input read as a CISO container (fuzz_container.h). */
#define FUZZ_CONTAINER_MAGIC "CISO"
#define FUZZ_CONTAINER_KIND  DISC_KIND_CISO
#include "fuzz_container.h"
