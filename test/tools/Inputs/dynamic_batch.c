/* Runs the dynamic-batch model of dynamic-batch.onnxtxt (y = relu(x + b),
 * s = row sums of y) from one instance at batch 2 and 3, then with
 * mismatched batch sizes. */
#include "net.h"

#include <stdio.h>

static void show(const char *what, const float *v, int n) {
  printf("%s =", what);
  for (int i = 0; i < n; ++i)
    printf(" %g", v[i]);
  printf("\n");
}

int main(void) {
  const int64_t *xs = net_input_shape(0);
  printf("x shape [%lld,%lld], %zu bytes per sample\n", (long long)xs[0],
         (long long)xs[1], net_input_size_bytes(0));
  net_model *model = NULL;
  dlc_status *s = net_create(NULL, &model);
  if (s) {
    printf("create: %s\n", dlc_status_message(s));
    return 1;
  }
  float x[] = {1, 2, 3, -4, 5, -6, 0, 0, 0};
  float b[] = {1, -2, 0.5f};
  float y[9], sums[3];
  for (int64_t n = 2; n <= 3; ++n) {
    int64_t xshape[] = {n, 3}, bshape[] = {3}, sshape[] = {n};
    dlc_tensor in[] = {{x, sizeof x, DLC_DTYPE_F32, 2, xshape},
                       {b, sizeof b, DLC_DTYPE_F32, 1, bshape}};
    dlc_tensor out[] = {{y, sizeof y, DLC_DTYPE_F32, 2, xshape},
                        {sums, sizeof sums, DLC_DTYPE_F32, 1, sshape}};
    s = net_run(model, in, 2, out, 2);
    if (s) {
      printf("run: %s\n", dlc_status_message(s));
      return 1;
    }
    printf("batch %lld\n", (long long)n);
    show("y", y, (int)(3 * n));
    show("s", sums, (int)n);
  }
  int64_t x3[] = {3, 3}, b1[] = {3}, s2[] = {2};
  dlc_tensor in[] = {{x, sizeof x, DLC_DTYPE_F32, 2, x3},
                     {b, sizeof b, DLC_DTYPE_F32, 1, b1}};
  dlc_tensor out[] = {{y, sizeof y, DLC_DTYPE_F32, 2, x3},
                      {sums, sizeof sums, DLC_DTYPE_F32, 1, s2}};
  s = net_run(model, in, 2, out, 2);
  printf("mismatch: %s\n", dlc_status_message(s));
  dlc_status_free(s);
  net_destroy(model);
  return 0;
}
