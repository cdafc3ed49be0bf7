/* Runs the model of data-dependent.onnxtxt (nz = NonZero(x), y =
 * Compress(x, c) along axis 1) twice from one instance, with results of
 * different sizes, and prints each output's run shape and values. */
#include "net.h"

#include <stdio.h>
#include <string.h>

static void show_shape(const char *what, const int64_t *shape) {
  printf("%s [%lld,%lld]", what, (long long)shape[0], (long long)shape[1]);
}

int main(void) {
  show_shape("nz shape", net_output_shape(0));
  show_shape(" max", net_output_max_shape(0));
  printf(" %zu bytes\n", net_output_size_bytes(0));
  show_shape("y shape", net_output_shape(1));
  show_shape(" max", net_output_max_shape(1));
  printf(" %zu bytes\n", net_output_size_bytes(1));
  net_model *model = NULL;
  dlc_status *s = net_create(NULL, &model);
  if (s) {
    printf("create: %s\n", dlc_status_message(s));
    return 1;
  }
  printf("before run: %s\n", net_output_run_shape(model, 0) ? "shape" : "NULL");
  float xs[2][6] = {{1, 0, 2, 0, 0, 3}, {0, 0, 0, 0, 5, 0}};
  uint8_t cs[2][3] = {{1, 0, 1}, {0, 1, 0}};
  int64_t nz[12];
  float y[6];
  for (int r = 0; r < 2; ++r) {
    memset(nz, 0xff, sizeof nz);
    memset(y, 0xff, sizeof y);
    int64_t xshape[] = {2, 3}, cshape[] = {3};
    int64_t nzshape[] = {2, DLC_DIM_DYNAMIC}, yshape[] = {2, 3};
    dlc_tensor in[] = {{xs[r], sizeof xs[r], DLC_DTYPE_F32, 2, xshape},
                       {cs[r], sizeof cs[r], DLC_DTYPE_BOOL, 1, cshape}};
    dlc_tensor out[] = {{nz, sizeof nz, DLC_DTYPE_I64, 2, nzshape},
                        {y, sizeof y, DLC_DTYPE_F32, 2, yshape}};
    s = net_run(model, in, 2, out, 2);
    if (s) {
      printf("run: %s\n", dlc_status_message(s));
      return 1;
    }
    const int64_t *ns = net_output_run_shape(model, 0);
    const int64_t *ys = net_output_run_shape(model, 1);
    /* The elements at the run shape; the rest of the buffer is not written
       (it keeps the 0xff fill). */
    show_shape("run: nz", ns);
    printf(" =");
    for (int i = 0; i < ns[0] * ns[1]; ++i)
      printf(" %lld", (long long)nz[i]);
    printf(" (then %s)", nz[ns[0] * ns[1]] == -1 ? "untouched" : "written");
    show_shape("; y", ys);
    printf(" =");
    for (int i = 0; i < ys[0] * ys[1]; ++i)
      printf(" %g", y[i]);
    printf("\n");
  }
  /* A buffer below the bound is refused. */
  int64_t xshape[] = {2, 3}, cshape[] = {3}, nzshape[] = {2, 3};
  int64_t yshape[] = {2, 2};
  dlc_tensor in[] = {{xs[0], sizeof xs[0], DLC_DTYPE_F32, 2, xshape},
                     {cs[0], sizeof cs[0], DLC_DTYPE_BOOL, 1, cshape}};
  dlc_tensor out[] = {{nz, 3 * sizeof(int64_t), DLC_DTYPE_I64, 2, nzshape},
                      {y, sizeof y, DLC_DTYPE_F32, 2, yshape}};
  s = net_run(model, in, 2, out, 2);
  printf("small: %s\n", dlc_status_message(s));
  dlc_status_free(s);
  net_destroy(model);
  return 0;
}
