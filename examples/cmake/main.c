/* Runs the model that dlc_add_model compiled (y = relu(x), float [2,3]) on
 * one input and prints the output. */
#include "net.h"

#include <stdio.h>

int main(void) {
  net_model *model = NULL;
  dlc_status *s = net_create(NULL, &model);
  if (s) {
    fprintf(stderr, "create: %s\n", dlc_status_message(s));
    dlc_status_free(s);
    return 1;
  }
  float x[6] = {-1, 2, -3, 4, -5, 6}, y[6] = {0};
  const int64_t shape[2] = {2, 3};
  dlc_tensor in = {x, sizeof x, DLC_DTYPE_F32, 2, shape};
  dlc_tensor out = {y, sizeof y, DLC_DTYPE_F32, 2, shape};
  s = net_run(model, &in, 1, &out, 1);
  if (s) {
    fprintf(stderr, "run: %s\n", dlc_status_message(s));
    dlc_status_free(s);
    net_destroy(model);
    return 1;
  }
  printf("y =");
  for (int i = 0; i < 6; ++i)
    printf(" %g", y[i]);
  printf("\n");
  net_destroy(model);
  return 0;
}
