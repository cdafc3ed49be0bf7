/*===- cpuid_probe.c - What `cpuid` tells this process --------------------===*
 *
 * Prints one JSON line with the AVX2 and AVX-512F bits of leaf 7, as a
 * library choosing its kernels reads them; benchmarks/run.py runs it under
 * cpuid_avx2.c to check that the references will see an AVX2-only CPU.
 *===----------------------------------------------------------------------===*/
#include <cpuid.h>
#include <stdio.h>

int main(void) {
  unsigned a, b, c, d;
  __cpuid_count(7, 0, a, b, c, d);
  printf("{\"avx2\": %u, \"avx512f\": %u}\n", (b >> 5) & 1, (b >> 16) & 1);
  return 0;
}
