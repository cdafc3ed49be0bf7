/* Runs the split-batch model of batch-split.onnxtxt (y = relu(x + b),
 * s = row sums of y; a static batch of 4 run as 2 sub-batches) on one and
 * two threads, then with a batch of 2, which it refuses. */
#include "net.h"

#include <stdio.h>

static void show(const char *what, const float *v, int n) {
  printf(" %s =", what);
  for (int i = 0; i < n; ++i)
    printf(" %g", v[i]);
}

int main(void) {
  float x[] = {1, 2, 3, -4, 5, -6, 0, 0, 0, 9, 9, 9};
  float y[12], sums[4];
  int64_t xshape[] = {4, 3}, sshape[] = {4};
  dlc_tensor in[] = {{x, sizeof x, DLC_DTYPE_F32, 2, xshape}};
  dlc_tensor out[] = {{y, sizeof y, DLC_DTYPE_F32, 2, xshape},
                      {sums, sizeof sums, DLC_DTYPE_F32, 1, sshape}};
  for (unsigned threads = 1; threads <= 2; ++threads) {
    dlc_options options;
    dlc_options_init(&options);
    options.num_threads = threads;
    net_model *model = NULL;
    dlc_status *s = net_create(&options, &model);
    if (s) {
      printf("create: %s\n", dlc_status_message(s));
      return 1;
    }
    for (int i = 0; i < 12; ++i)
      y[i] = -1;
    s = net_run(model, in, 1, out, 2);
    if (s) {
      printf("run: %s\n", dlc_status_message(s));
      return 1;
    }
    printf("threads %u:", threads);
    show("y", y, 12);
    show("s", sums, 4);
    printf("\n");
    if (threads == 2) {
      int64_t two[] = {2, 3}, stwo[] = {2};
      dlc_tensor in2[] = {{x, 6 * sizeof(float), DLC_DTYPE_F32, 2, two}};
      dlc_tensor out2[] = {{y, 6 * sizeof(float), DLC_DTYPE_F32, 2, two},
                           {sums, 2 * sizeof(float), DLC_DTYPE_F32, 1, stwo}};
      s = net_run(model, in2, 1, out2, 2);
      printf("batch 2: %s\n", s ? dlc_status_message(s) : "accepted");
      dlc_status_free(s);
    }
    net_destroy(model);
  }
  return 0;
}
