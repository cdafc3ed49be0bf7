/*===- peaks_main.c - a GPU's peaks as a dlc peaks file ------------------===*
 *
 *   peaks [--ptx] [--cpu-threads N]
 *
 * Measures GPU 0 (gpu_peaks.c) and prints its figures as the "cuda" part
 * of a peaks file that `dlc analyze --peaks FILE` reads, each marked
 * measured; --ptx prints the measurement kernels' PTX instead. With
 * --cpu-threads N, also this machine's CPU, as `dlc analyze
 * --measure-peaks` does for AVX2 code (twelve independent chains of 8-lane
 * FMAs per thread, and a 64 MiB copy per thread, on 1 and N threads at
 * once): the "cpu" part, for predictions of the x86-64-v3 libraries that
 * gpu-check runs here. Built by scripts/gpu-check.sh on the GPU machine,
 * which has no dlc. Exits 2 when there is no GPU, after saying why.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "gpu_peaks.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

enum { kFmaIters = 20000000, kCopyBytes = 64 << 20, kCopyRepeats = 4 };

/* FLOPs of twelve chains of 8-lane FMAs (AVX2), or of scalar ones. */
#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) static double fma_avx2(float *sink) {
  __m256 a0 = _mm256_set1_ps(0.0f), a1 = _mm256_set1_ps(0.001f),
         a2 = _mm256_set1_ps(0.002f), a3 = _mm256_set1_ps(0.003f),
         a4 = _mm256_set1_ps(0.004f), a5 = _mm256_set1_ps(0.005f),
         a6 = _mm256_set1_ps(0.006f), a7 = _mm256_set1_ps(0.007f),
         a8 = _mm256_set1_ps(0.008f), a9 = _mm256_set1_ps(0.009f),
         a10 = _mm256_set1_ps(0.010f), a11 = _mm256_set1_ps(0.011f);
  const __m256 m = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-7f);
  for (long n = 0; n < kFmaIters; ++n) {
    a0 = _mm256_fmadd_ps(a0, m, c), a1 = _mm256_fmadd_ps(a1, m, c);
    a2 = _mm256_fmadd_ps(a2, m, c), a3 = _mm256_fmadd_ps(a3, m, c);
    a4 = _mm256_fmadd_ps(a4, m, c), a5 = _mm256_fmadd_ps(a5, m, c);
    a6 = _mm256_fmadd_ps(a6, m, c), a7 = _mm256_fmadd_ps(a7, m, c);
    a8 = _mm256_fmadd_ps(a8, m, c), a9 = _mm256_fmadd_ps(a9, m, c);
    a10 = _mm256_fmadd_ps(a10, m, c), a11 = _mm256_fmadd_ps(a11, m, c);
    __asm__ volatile(""
                     : "+x"(a0), "+x"(a1), "+x"(a2), "+x"(a3), "+x"(a4),
                       "+x"(a5), "+x"(a6), "+x"(a7), "+x"(a8), "+x"(a9),
                       "+x"(a10), "+x"(a11));
  }
  __m256 s = _mm256_add_ps(
      _mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)),
      _mm256_add_ps(_mm256_add_ps(a4, a5), _mm256_add_ps(a6, a7)));
  s = _mm256_add_ps(
      s, _mm256_add_ps(_mm256_add_ps(a8, a9), _mm256_add_ps(a10, a11)));
  float lanes[8];
  _mm256_storeu_ps(lanes, s);
  *sink += lanes[0];
  return 2.0 * 8 * 12 * (double)kFmaIters;
}
#endif

typedef struct cpu_work {
  int copy;
  double flops;
  float sink;
  char *from, *to;
} cpu_work;

static void *cpu_thread(void *arg) {
  cpu_work *w = arg;
  if (w->copy) {
    for (int r = 0; r < kCopyRepeats; ++r)
      memcpy(w->to, w->from, kCopyBytes);
    return NULL;
  }
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    w->flops = fma_avx2(&w->sink);
#endif
  return NULL;
}

/* FLOP/s (copy = 0) or copy bytes/s (read + written) on `threads`
 * threads at once; 0 when it cannot. */
static double cpu_rate(int threads, int copy) {
  cpu_work *w = calloc((size_t)threads, sizeof *w);
  pthread_t *t = calloc((size_t)threads, sizeof *t);
  double rate = 0;
  int ok = w && t;
  for (int i = 0; ok && i < threads; ++i) {
    w[i].copy = copy;
    if (copy) {
      w[i].from = malloc(kCopyBytes);
      w[i].to = malloc(kCopyBytes);
      ok = w[i].from && w[i].to;
      if (ok) {
        memset(w[i].from, 1, kCopyBytes);
        memset(w[i].to, 0, kCopyBytes);
      }
    }
  }
  double start = now();
  int started = 0;
  for (; ok && started < threads; ++started)
    ok = pthread_create(&t[started], NULL, cpu_thread, &w[started]) == 0;
  for (int i = 0; i < started; ++i)
    pthread_join(t[i], NULL);
  double seconds = now() - start;
  if (ok && seconds > 0) {
    double work = 0;
    for (int i = 0; i < threads; ++i)
      work += copy ? 2.0 * kCopyBytes * kCopyRepeats : w[i].flops;
    rate = work / seconds;
  }
  for (int i = 0; w && i < threads; ++i) {
    free(w[i].from);
    free(w[i].to);
  }
  free(w);
  free(t);
  return rate;
}

static void cpu_threads_json(int threads, int last) {
  double flops = cpu_rate(threads, 0), bytes = cpu_rate(threads, 1);
  printf("      \"%d\": {\"flops\": {\"value\": %.6g, \"source\": "
         "\"measured\"}, \"bandwidth\": {\"value\": %.6g, \"source\": "
         "\"measured\"}}%s\n",
         threads, flops, bytes, last ? "" : ",");
}

static void figure(const char *key, double value, int *first) {
  if (value <= 0)
    return;
  printf("%s\n    \"%s\": {\"value\": %.6g, \"source\": \"measured\"}",
         *first ? "" : ",", key, value);
  *first = 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--ptx") == 0) {
    fputs(dlc_gpu_peaks_ptx, stdout);
    return 0;
  }
  int cpu_threads = 0;
  if (argc == 3 && strcmp(argv[1], "--cpu-threads") == 0)
    cpu_threads = atoi(argv[2]);
  if ((argc != 1 && argc != 3) || (argc == 3 && cpu_threads < 1)) {
    fprintf(stderr, "usage: peaks [--ptx] [--cpu-threads N]\n");
    return 2;
  }
  dlc_gpu_peaks p;
  if (dlc_measure_gpu_peaks(0, &p) != 0) {
    fprintf(stderr, "peaks: %s\n", p.error);
    return 2;
  }
  printf("{\n");
  if (cpu_threads) {
    printf("  \"cpu\": {\n    \"name\": \"the GPU machine's CPU\",\n"
           "    \"isa\": \"avx2\",\n    \"threads\": {\n");
    if (cpu_threads > 1)
      cpu_threads_json(1, 0);
    cpu_threads_json(cpu_threads, 1);
    printf("    }\n  },\n");
  }
  printf("  \"cuda\": {\n    \"name\": \"");
  for (const char *c = p.name; *c; ++c)
    if (*c != '"' && *c != '\\' && (unsigned char)*c >= 32)
      putchar(*c);
  printf("\"");
  int first = 0;
  figure("flops", p.fp32_flops, &first);
  figure("tensor_flops", p.fp16_tensor_flops, &first);
  figure("bandwidth", p.bandwidth, &first);
  figure("memory", p.memory_bytes, &first);
  figure("link", p.link_pinned, &first);
  figure("link_pageable", p.link_pageable, &first);
  figure("link_latency", p.link_latency, &first);
  figure("launch", p.launch, &first);
  printf("\n  },\n  \"note\": \"sm_%d, %d multiprocessors%s%s\"\n}\n", p.sm,
         p.multiprocessors, p.error[0] ? "; " : "", p.error);
  return 0;
}
