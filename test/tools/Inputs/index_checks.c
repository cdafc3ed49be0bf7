/* Runs the model of gather-run-time-indices.onnxtxt (y = Gather(x, i),
 * z = GatherElements(x, j), x of 4 rows) from one instance: indices in
 * range, then out of range (run fails naming the node), then in range
 * again (the instance is still usable). Prints y after each run. */
#include "net.h"

#include <stdio.h>

static int run(net_model *model, const int64_t *i, const int64_t *j) {
  float x[12], y[9], z[6];
  for (int k = 0; k < 12; ++k)
    x[k] = (float)(k + 1);
  int64_t xshape[] = {4, 3}, ishape[] = {3}, jshape[] = {2, 3};
  int64_t yshape[] = {3, 3}, zshape[] = {2, 3};
  dlc_tensor in[] = {{x, sizeof x, DLC_DTYPE_F32, 2, xshape},
                     {(void *)i, 3 * sizeof *i, DLC_DTYPE_I64, 1, ishape},
                     {(void *)j, 6 * sizeof *j, DLC_DTYPE_I64, 2, jshape}};
  dlc_tensor out[] = {{y, sizeof y, DLC_DTYPE_F32, 2, yshape},
                      {z, sizeof z, DLC_DTYPE_F32, 2, zshape}};
  dlc_status *s = net_run(model, in, 3, out, 2);
  if (s) {
    printf("run: code %d: %s\n", (int)dlc_status_code_of(s),
           dlc_status_message(s));
    dlc_status_free(s);
    return 1;
  }
  printf("run: ok, y =");
  for (int k = 0; k < 9; ++k)
    printf(" %g", y[k]);
  printf("\n");
  return 0;
}

int main(void) {
  net_model *model = NULL;
  dlc_status *s = net_create(NULL, &model);
  if (s) {
    printf("create: %s\n", dlc_status_message(s));
    return 1;
  }
  int64_t ok_i[] = {1, 3, -4}, ok_j[] = {3, -1, -4, 0, 2, -2};
  int64_t bad_i[] = {2, 100000, -7}, bad_j[] = {3, -1, -5, 0, 2, -2};
  run(model, ok_i, ok_j);
  run(model, bad_i, ok_j);
  run(model, ok_i, bad_j);
  run(model, ok_i, ok_j);
  net_destroy(model);
  return 0;
}
