/*===- run_raw.c - run a generated library on fixed inputs, write outputs -===*
 *
 * Built against a library that `dlc compile ... --name net` generates, for
 * the host or for another triple (run there under qemu): fills each input
 * with the same integer-derived values on every machine, runs the model
 * once and writes each output's bytes, one output after the other, to
 * OUT, so that two builds' results can be compared.
 *
 * Usage: run_raw OUT [THREADS]
 *===----------------------------------------------------------------------===*/
#include "net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 2 && argc != 3) {
    fprintf(stderr, "usage: %s OUT [THREADS]\n", argv[0]);
    return 2;
  }
  dlc_options options;
  dlc_options_init(&options);
  options.num_threads = argc == 3 ? (uint32_t)atoi(argv[2]) : 1;
  net_model *model = NULL;
  dlc_status *s = net_create(&options, &model);
  if (s) {
    fprintf(stderr, "create: %s\n", dlc_status_message(s));
    return 1;
  }
  size_t ni = net_num_inputs(), no = net_num_outputs();
  dlc_tensor *in = calloc(ni, sizeof *in), *out = calloc(no, sizeof *out);
  for (size_t i = 0; i < ni; ++i) {
    size_t bytes = net_input_size_bytes(i);
    in[i] = (dlc_tensor){malloc(bytes), bytes, net_input_dtype(i),
                         net_input_rank(i), net_input_max_shape(i)};
    if (net_input_dtype(i) != DLC_DTYPE_F32) {
      fprintf(stderr, "input %zu: only f32 inputs are filled\n", i);
      return 1;
    }
    float *x = in[i].data;
    for (size_t k = 0; k < bytes / sizeof(float); ++k)
      x[k] = (float)((k * 2654435761u + i) % 1000u) / 1000.0f - 0.5f;
  }
  for (size_t i = 0; i < no; ++i) {
    size_t bytes = net_output_size_bytes(i);
    out[i] = (dlc_tensor){calloc(1, bytes), bytes, net_output_dtype(i),
                          net_output_rank(i), net_output_max_shape(i)};
  }
  if ((s = net_run(model, in, ni, out, no))) {
    fprintf(stderr, "run: %s\n", dlc_status_message(s));
    return 1;
  }
  FILE *f = fopen(argv[1], "wb");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  for (size_t i = 0; i < no; ++i)
    fwrite(out[i].data, 1, out[i].size_bytes, f);
  fclose(f);
  printf("ran: %zu input(s), %zu output(s)\n", ni, no);
  net_destroy(model);
  return 0;
}
