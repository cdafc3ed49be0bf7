/*===- describe.c - model description accessors --------------------------===*/
#include "dlc/dlc_model_abi.h"

size_t dlcrt_num_inputs(const dlc_model_desc *desc) {
  return desc ? desc->num_inputs : 0;
}
size_t dlcrt_num_outputs(const dlc_model_desc *desc) {
  return desc ? desc->num_outputs : 0;
}
size_t dlcrt_workspace_size(const dlc_model_desc *desc) {
  return desc ? (size_t)desc->workspace_size : 0;
}

#define DLC_DESCRIBE(KIND)                                                     \
  const char *dlcrt_##KIND##_name(const dlc_model_desc *desc, size_t i) {      \
    const dlc_tensor_desc *t = dlcrt_##KIND##_desc(desc, i);                   \
    return t ? t->name : NULL;                                                 \
  }                                                                            \
  dlc_dtype dlcrt_##KIND##_dtype(const dlc_model_desc *desc, size_t i) {       \
    const dlc_tensor_desc *t = dlcrt_##KIND##_desc(desc, i);                   \
    return t ? (dlc_dtype)t->dtype : DLC_DTYPE_INVALID;                        \
  }                                                                            \
  int32_t dlcrt_##KIND##_rank(const dlc_model_desc *desc, size_t i) {          \
    const dlc_tensor_desc *t = dlcrt_##KIND##_desc(desc, i);                   \
    return t ? t->rank : 0;                                                    \
  }                                                                            \
  const int64_t *dlcrt_##KIND##_shape(const dlc_model_desc *desc, size_t i) {  \
    const dlc_tensor_desc *t = dlcrt_##KIND##_desc(desc, i);                   \
    return t ? t->shape : NULL;                                                \
  }                                                                            \
  const int64_t *dlcrt_##KIND##_max_shape(const dlc_model_desc *desc,          \
                                          size_t i) {                          \
    const dlc_tensor_desc *t = dlcrt_##KIND##_desc(desc, i);                   \
    return t ? t->max_shape : NULL;                                            \
  }                                                                            \
  const int64_t *dlcrt_##KIND##_min_shape(const dlc_model_desc *desc,          \
                                          size_t i) {                          \
    const dlc_tensor_desc *t = dlcrt_##KIND##_desc(desc, i);                   \
    return t ? t->min_shape : NULL;                                            \
  }                                                                            \
  const char *dlcrt_##KIND##_dim_name(const dlc_model_desc *desc, size_t i,    \
                                      int32_t d) {                             \
    const dlc_tensor_desc *t = dlcrt_##KIND##_desc(desc, i);                   \
    return t && t->dim_names && d >= 0 && d < t->rank ? t->dim_names[d]        \
                                                      : NULL;                  \
  }                                                                            \
  size_t dlcrt_##KIND##_size_bytes(const dlc_model_desc *desc, size_t i) {     \
    const dlc_tensor_desc *t = dlcrt_##KIND##_desc(desc, i);                   \
    return t ? (size_t)t->size_bytes : 0;                                      \
  }

DLC_DESCRIBE(input)
DLC_DESCRIBE(output)

const char *dlcrt_kernel_name(const dlc_model_desc *desc, size_t k) {
  if (!desc || !desc->cuda || k >= desc->cuda->num_kernels)
    return NULL;
  return desc->cuda->kernel_names[k];
}
