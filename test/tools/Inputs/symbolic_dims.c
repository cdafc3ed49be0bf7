/* Runs the model of symbolic.onnxtxt (z = Relu(x + y) * x with x
 * [batch, seq, 2] and y [seq, 2]), compiled with batch=1..2 and seq=1..4,
 * at two sizes from one instance, then with inputs the runtime refuses. */
#include "net.h"

#include <stdio.h>
#include <string.h>

static void show(const char *what, int32_t rank, const int64_t *shape) {
  printf("%s [", what);
  for (int32_t d = 0; d < rank; ++d)
    printf(d ? ",%lld" : "%lld", (long long)shape[d]);
  printf("]");
}

static float z[16];

static int run(net_model *model, float *x, int64_t batch, int64_t seq, float *y,
               int64_t yseq, size_t xbytes) {
  int64_t xshape[] = {batch, seq, 2}, yshape[] = {yseq, 2};
  int64_t zshape[] = {DLC_DIM_DYNAMIC, DLC_DIM_DYNAMIC, 2};
  dlc_tensor in[] = {
      {x, xbytes, DLC_DTYPE_F32, 3, xshape},
      {y, (size_t)yseq * 2 * sizeof(float), DLC_DTYPE_F32, 2, yshape}};
  dlc_tensor out[] = {{z, sizeof z, DLC_DTYPE_F32, 3, zshape}};
  memset(z, 0xff, sizeof z);
  dlc_status *s = net_run(model, in, 2, out, 1);
  if (s) {
    printf("run: %s\n", dlc_status_message(s));
    dlc_status_free(s);
    return 1;
  }
  const int64_t *shape = net_output_run_shape(model, 0);
  show("run: z", 3, shape);
  printf(" =");
  for (int64_t i = 0; i < shape[0] * shape[1] * shape[2]; ++i)
    printf(" %g", z[i]);
  printf("\n");
  return 0;
}

int main(void) {
  for (size_t i = 0; i < net_num_inputs(); ++i) {
    printf("input %zu:", i);
    show(" shape", net_input_rank(i), net_input_shape(i));
    show(" min", net_input_rank(i), net_input_min_shape(i));
    show(" max", net_input_rank(i), net_input_max_shape(i));
    printf(" names");
    for (int32_t d = 0; d < net_input_rank(i); ++d)
      printf(" %s", net_input_dim_name(i, d) ? net_input_dim_name(i, d) : "-");
    printf(" %zu bytes\n", net_input_size_bytes(i));
  }
  show("output:", net_output_rank(0), net_output_shape(0));
  show(" max", net_output_rank(0), net_output_max_shape(0));
  printf(" %zu bytes\n", net_output_size_bytes(0));
  net_model *model = NULL;
  dlc_status *s = net_create(NULL, &model);
  if (s) {
    printf("create: %s\n", dlc_status_message(s));
    return 1;
  }
  float xa[] = {3, -4}, ya[] = {1, 2};
  float xb[12], yb[6];
  for (int i = 0; i < 12; ++i)
    xb[i] = (float)(i - 2);
  for (int i = 0; i < 6; ++i)
    yb[i] = (float)i;
  run(model, xa, 1, 1, ya, 1, sizeof xa);
  run(model, xb, 2, 3, yb, 3, sizeof xb);
  /* Out of range, sizes that disagree, a buffer below the run's shape. */
  run(model, xb, 1, 6, yb, 6, sizeof xb);
  run(model, xb, 2, 3, yb, 2, sizeof xb);
  run(model, xb, 2, 3, yb, 3, 8 * sizeof(float));
  net_destroy(model);
  return 0;
}
