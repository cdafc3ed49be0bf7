/* Links against a generated library (compile with -DMODEL=name and
 * -DMODEL_HEADER='"name.h"'), creates the model, runs it once on zero
 * inputs (symbolic dimensions at the top of their ranges) and prints
 * "MODEL: ok, N inputs, M outputs" or the status. */
#include MODEL_HEADER

#include <stdio.h>
#include <stdlib.h>

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define FN(suffix) CAT(MODEL, suffix)
#define STR2(x) #x
#define STR(x) STR2(x)

int main(void) {
  size_t ni = FN(_num_inputs)(), no = FN(_num_outputs)();
  dlc_tensor in[8], out[8];
  if (ni > 8 || no > 8)
    return 2;
  for (size_t i = 0; i < ni; ++i)
    in[i] = (dlc_tensor){calloc(1, FN(_input_size_bytes)(i)),
                         FN(_input_size_bytes)(i), FN(_input_dtype)(i),
                         FN(_input_rank)(i), FN(_input_max_shape)(i)};
  for (size_t i = 0; i < no; ++i)
    out[i] = (dlc_tensor){calloc(1, FN(_output_size_bytes)(i)),
                          FN(_output_size_bytes)(i), FN(_output_dtype)(i),
                          FN(_output_rank)(i), FN(_output_shape)(i)};
  FN(_model) *model = NULL;
  dlc_status *s = FN(_create)(NULL, &model);
  if (!s)
    s = FN(_run)(model, in, ni, out, no);
  if (s) {
    printf("%s: %s\n", STR(MODEL), dlc_status_message(s));
    dlc_status_free(s);
    FN(_destroy)(model);
    return 1;
  }
  printf("%s: ok, %zu inputs, %zu outputs\n", STR(MODEL), ni, no);
  FN(_destroy)(model);
  return 0;
}
