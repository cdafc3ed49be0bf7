/*===- run_library.c - run a dlc-generated library in a loop ---------------===*
 *
 * Links against a library generated with `dlc compile ... --name net` and
 * runs it ITERATIONS times, for `perf record` and other profilers
 * (JIT-compiled code in `dlc bench` has no symbols) and for
 * benchmarks/run.py, which times the library against ONNX Runtime in
 * alternating rounds:
 *
 *   dlc compile model.onnx -o out --name net
 *   cc -O2 -Iout benchmarks/micro/run_library.c out/libnet.a \
 *      -L/usr/lib/llvm-22/lib -lomp -Wl,-rpath,/usr/lib/llvm-22/lib -lm -o run
 *   perf record ./run 50 [THREADS]
 *   ./run 20 2 --json input_0.bin input_1.bin
 *
 * The inputs are zero-filled, or read from raw files (one per input, in the
 * header's order, each exactly the input's size in bytes). Without --json
 * it prints the mean time per run; with --json, after warm-up runs for 200
 * ms, one JSON line with the median, minimum and mean of the timed runs.
 *===----------------------------------------------------------------------===*/
#include "net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int read_input(const char *path, void *data, size_t size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    return 1;
  }
  size_t got = fread(data, 1, size, f);
  int extra = fgetc(f) != EOF;
  fclose(f);
  if (got != size || extra) {
    fprintf(stderr, "%s: expected exactly %zu bytes\n", path, size);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  int iterations = argc > 1 ? atoi(argv[1]) : 20;
  dlc_options options;
  dlc_options_init(&options);
  options.num_threads = argc > 2 ? (uint32_t)atoi(argv[2]) : 1;
  int json = argc > 3 && strcmp(argv[3], "--json") == 0;
  int first_input = json ? 4 : 3;
  if (iterations < 1) {
    fprintf(stderr, "usage: %s ITERATIONS [THREADS] [--json] [INPUT.bin ...]\n",
            argv[0]);
    return 1;
  }
  net_model *model = NULL;
  dlc_status *s = net_create(&options, &model);
  if (s) {
    fprintf(stderr, "create: %s\n", dlc_status_message(s));
    return 1;
  }
  size_t ni = net_num_inputs(), no = net_num_outputs();
  if (argc > first_input && (size_t)(argc - first_input) != ni) {
    fprintf(stderr, "the model has %zu inputs, %d files given\n", ni,
            argc - first_input);
    return 1;
  }
  dlc_tensor *in = calloc(ni, sizeof *in), *out = calloc(no, sizeof *out);
  /* Symbolic dimensions run at the top of their ranges (max shapes; the
     static shape otherwise). */
  for (size_t i = 0; i < ni; ++i) {
    in[i] = (dlc_tensor){calloc(1, net_input_size_bytes(i)),
                         net_input_size_bytes(i), net_input_dtype(i),
                         net_input_rank(i), net_input_max_shape(i)};
    if (argc > first_input &&
        read_input(argv[first_input + i], in[i].data, in[i].size_bytes))
      return 1;
  }
  for (size_t i = 0; i < no; ++i)
    out[i] = (dlc_tensor){calloc(1, net_output_size_bytes(i)),
                          net_output_size_bytes(i), net_output_dtype(i),
                          net_output_rank(i), net_output_max_shape(i)};
  double *times = calloc((size_t)iterations, sizeof *times);
  /* With --json: warm-up runs for at least 200 ms (a new OpenMP worker
     takes a few milliseconds to settle on its own core). */
  for (double start = now_ms(); json && now_ms() - start < 200;)
    if ((s = net_run(model, in, ni, out, no))) {
      fprintf(stderr, "run: %s\n", dlc_status_message(s));
      return 1;
    }
  double t0 = now_ms();
  for (int it = 0; it < iterations; ++it) {
    double start = now_ms();
    if ((s = net_run(model, in, ni, out, no))) {
      fprintf(stderr, "run: %s\n", dlc_status_message(s));
      return 1;
    }
    times[it] = now_ms() - start;
  }
  double mean = (now_ms() - t0) / iterations;
  if (json) {
    qsort(times, (size_t)iterations, sizeof *times, compare);
    int mid = iterations / 2;
    double median =
        iterations % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
    printf("{\"median_ms\": %.4f, \"min_ms\": %.4f, \"mean_ms\": %.4f, "
           "\"runs\": %d, \"threads\": %u}\n",
           median, times[0], mean, iterations, options.num_threads);
  } else {
    printf("%.3f ms per run\n", mean);
  }
  net_destroy(model);
  return 0;
}
