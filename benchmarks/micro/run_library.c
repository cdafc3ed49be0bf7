/*===- run_library.c - run a dlc-generated library in a loop (profiling) -===*
 *
 * Links against a library generated with `dlc compile ... --name net` and
 * runs it ITERATIONS times on zero-filled inputs, for `perf record` and
 * other profilers (JIT-compiled code in `dlc bench` has no symbols):
 *
 *   dlc compile model.onnx -o out --name net
 *   cc -O2 -Iout benchmarks/micro/run_library.c out/libnet.a -lomp -lm -o run
 *   perf record ./run 50 [THREADS]
 *===----------------------------------------------------------------------===*/
#include "net.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
  int iterations = argc > 1 ? atoi(argv[1]) : 20;
  dlc_options options;
  dlc_options_init(&options);
  options.num_threads = argc > 2 ? (uint32_t)atoi(argv[2]) : 1;
  net_model *model = NULL;
  dlc_status *s = net_create(&options, &model);
  if (s) {
    fprintf(stderr, "create: %s\n", dlc_status_message(s));
    return 1;
  }
  size_t ni = net_num_inputs(), no = net_num_outputs();
  dlc_tensor *in = calloc(ni, sizeof *in), *out = calloc(no, sizeof *out);
  /* Symbolic dimensions run at the top of their ranges (max shapes; the
     static shape otherwise). */
  for (size_t i = 0; i < ni; ++i)
    in[i] = (dlc_tensor){calloc(1, net_input_size_bytes(i)),
                         net_input_size_bytes(i), net_input_dtype(i),
                         net_input_rank(i), net_input_max_shape(i)};
  for (size_t i = 0; i < no; ++i)
    out[i] = (dlc_tensor){calloc(1, net_output_size_bytes(i)),
                          net_output_size_bytes(i), net_output_dtype(i),
                          net_output_rank(i), net_output_max_shape(i)};
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int it = 0; it < iterations; ++it)
    if ((s = net_run(model, in, ni, out, no))) {
      fprintf(stderr, "run: %s\n", dlc_status_message(s));
      return 1;
    }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("%.3f ms per run\n",
         ((t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6) / iterations);
  net_destroy(model);
  return 0;
}
