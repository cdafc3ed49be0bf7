/*===- sgemm_bench.c - OpenBLAS sgemm reference for the matmul benchmark -===*
 *
 *   sgemm_bench M N K THREADS ITERATIONS
 * C[M,N] = A[M,K] * B[K,N], row-major, fp32. Prints one JSON line with the
 * median and minimum milliseconds, the GFLOP/s of the median and the kernel
 * family OpenBLAS chose for this CPU ("core").
 *===----------------------------------------------------------------------===*/
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void openblas_set_num_threads(int);
char *openblas_get_corename(void);

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: sgemm_bench M N K THREADS ITERATIONS\n");
    return 2;
  }
  int m = atoi(argv[1]), n = atoi(argv[2]), k = atoi(argv[3]);
  int threads = atoi(argv[4]), iters = atoi(argv[5]);
  if (m < 1 || n < 1 || k < 1 || threads < 1 || iters < 1) {
    fprintf(stderr, "sgemm_bench: arguments must be positive\n");
    return 2;
  }
  openblas_set_num_threads(threads);
  float *a = malloc(sizeof(float) * m * k), *b = malloc(sizeof(float) * k * n),
        *c = malloc(sizeof(float) * m * n);
  double *ms = malloc(sizeof(double) * iters);
  if (!a || !b || !c || !ms)
    return 1;
  for (long i = 0; i < (long)m * k; ++i)
    a[i] = (float)(i % 7) * 0.1f;
  for (long i = 0; i < (long)k * n; ++i)
    b[i] = (float)(i % 5) * 0.1f;
  for (int w = 0; w < 2; ++w)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k,
                b, n, 0.0f, c, n);
  for (int i = 0; i < iters; ++i) {
    double t0 = now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k,
                b, n, 0.0f, c, n);
    ms[i] = (now() - t0) * 1e3;
  }
  qsort(ms, iters, sizeof(double), cmp);
  double median = iters % 2 ? ms[iters / 2] : (ms[iters / 2 - 1] + ms[iters / 2]) / 2;
  printf("{\"m\": %d, \"n\": %d, \"k\": %d, \"threads\": %d, \"median_ms\": %.4f, "
         "\"min_ms\": %.4f, \"gflops\": %.2f, \"core\": \"%s\"}\n",
         m, n, k, threads, median, ms[0], 2.0 * m * n * k / (median * 1e-3) / 1e9,
         openblas_get_corename());
  free(a), free(b), free(c), free(ms);
  return 0;
}
