/*===- fma_peak.c - this machine's fp32 FMA peak on one thread -----------===*
 *
 * Twelve independent chains of vector FMAs (enough to cover the FMA latency
 * on two pipes) on the widest vector the compiler targets; prints one JSON
 * line with the measured GFLOP/s (2 flops per lane per FMA).
 *
 *   cc -O2 -march=native fma_peak.c -o fma_peak && ./fma_peak
 *===----------------------------------------------------------------------===*/
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

#if defined(__AVX512F__)
typedef __m512 vec;
#define LANES 16
#define SET1 _mm512_set1_ps
#define FMA _mm512_fmadd_ps
#define ADD _mm512_add_ps
#define STORE _mm512_storeu_ps
#define ISA "avx512"
#elif defined(__FMA__)
typedef __m256 vec;
#define LANES 8
#define SET1 _mm256_set1_ps
#define FMA _mm256_fmadd_ps
#define ADD _mm256_add_ps
#define STORE _mm256_storeu_ps
#define ISA "avx2"
#else
#error "needs FMA (compile with -march=native on an x86-64 with FMA)"
#endif

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void) {
  /* Twelve named accumulators (not an array): they must live in registers. */
  vec a0 = SET1(0.0f), a1 = SET1(0.001f), a2 = SET1(0.002f), a3 = SET1(0.003f),
      a4 = SET1(0.004f), a5 = SET1(0.005f), a6 = SET1(0.006f),
      a7 = SET1(0.007f), a8 = SET1(0.008f), a9 = SET1(0.009f),
      a10 = SET1(0.010f), a11 = SET1(0.011f);
  const vec a = SET1(0.999999f), b = SET1(1e-7f);
  const long iters = 50000000;
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    double t0 = now();
    for (long n = 0; n < iters; ++n) {
      a0 = FMA(a0, a, b), a1 = FMA(a1, a, b), a2 = FMA(a2, a, b);
      a3 = FMA(a3, a, b), a4 = FMA(a4, a, b), a5 = FMA(a5, a, b);
      a6 = FMA(a6, a, b), a7 = FMA(a7, a, b), a8 = FMA(a8, a, b);
      a9 = FMA(a9, a, b), a10 = FMA(a10, a, b), a11 = FMA(a11, a, b);
      __asm__ volatile("" : "+x"(a0), "+x"(a1), "+x"(a2), "+x"(a3), "+x"(a4),
                       "+x"(a5), "+x"(a6), "+x"(a7), "+x"(a8), "+x"(a9),
                       "+x"(a10), "+x"(a11));
    }
    double t = now() - t0;
    double gflops = 2.0 * LANES * 12 * iters / t / 1e9;
    if (gflops > best)
      best = gflops;
  }
  vec sum = ADD(ADD(ADD(a0, a1), ADD(a2, a3)), ADD(ADD(a4, a5), ADD(a6, a7)));
  sum = ADD(sum, ADD(ADD(a8, a9), ADD(a10, a11)));
  float out[LANES];
  STORE(out, sum);
  printf("{\"isa\": \"%s\", \"peak_gflops\": %.2f, \"checksum\": %g}\n", ISA,
         best, (double)out[0]);
  return 0;
}
