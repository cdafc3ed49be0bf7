/*===- model.c - model instances: create, validate, run ------------------===*/
#include "cuda.h"
#include "dlc/dlc_model_abi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct dlcrt_model {
  const dlc_model_desc *desc;
  void *workspace;
  int owns_workspace;
  /* Threads of the model's parallel regions; the entry reads it through
   * args. */
  int32_t num_threads;
  /* Argument vector for the entry point, sized at create: run never
   * allocates. */
  void **args;
  /* CUDA models: device state; the host workspace is unused. */
  dlcrt_cuda *cuda;
};

const dlc_tensor_desc *dlcrt_input_desc(const dlc_model_desc *desc,
                                        size_t i) {
  return desc && i < desc->num_inputs ? &desc->inputs[i] : NULL;
}

const dlc_tensor_desc *dlcrt_output_desc(const dlc_model_desc *desc,
                                         size_t i) {
  return desc && i < desc->num_outputs ? &desc->outputs[i] : NULL;
}

dlc_status *dlcrt_model_create(const dlc_model_desc *desc,
                               const dlc_options *options,
                               dlcrt_model **out_model) {
  if (!out_model)
    return dlcrt_status_create(DLC_INVALID_ARGUMENT,
                               "create: out_model must not be NULL");
  *out_model = NULL;
  if (!desc || desc->abi_version != DLC_MODEL_ABI_VERSION)
    return dlcrt_status_create(
        DLC_INTERNAL, "create: model ABI version %u, runtime expects %u",
        desc ? desc->abi_version : 0u, (unsigned)DLC_MODEL_ABI_VERSION);
  dlc_options defaults;
  dlc_options_init(&defaults);
  if (!options)
    options = &defaults;

  dlcrt_model *model = calloc(1, sizeof(*model));
  if (!model)
    return dlcrt_status_create(DLC_OUT_OF_MEMORY, "create: out of memory");
  model->desc = desc;
  if (options->num_threads > 1024) {
    dlcrt_model_destroy(model);
    return dlcrt_status_create(DLC_INVALID_ARGUMENT,
                               "create: options.num_threads is %u, at most "
                               "1024 are supported",
                               (unsigned)options->num_threads);
  }
  model->num_threads =
      options->num_threads ? (int32_t)options->num_threads : 1;
  size_t num_args = desc->num_inputs + desc->num_outputs + 3;
  model->args = calloc(num_args, sizeof(void *));
  if (!model->args) {
    dlcrt_model_destroy(model);
    return dlcrt_status_create(DLC_OUT_OF_MEMORY, "create: out of memory");
  }
  if (desc->cuda) {
    dlc_status *s = dlcrt_cuda_create(desc, options, &model->cuda);
    if (s) {
      dlcrt_model_destroy(model);
      return s;
    }
    *out_model = model;
    return NULL;
  }
  if (options->workspace) {
    if (options->workspace_size < desc->workspace_size)
      goto bad_workspace;
    if (((uintptr_t)options->workspace & 63) != 0) {
      dlcrt_model_destroy(model);
      return dlcrt_status_create(
          DLC_INVALID_ARGUMENT,
          "create: options.workspace must be 64-byte aligned");
    }
    model->workspace = options->workspace;
  } else {
    model->workspace = dlcrt_aligned_alloc((size_t)desc->workspace_size);
    model->owns_workspace = 1;
    if (!model->workspace) {
      dlcrt_model_destroy(model);
      return dlcrt_status_create(DLC_OUT_OF_MEMORY,
                                 "create: cannot allocate %llu bytes of "
                                 "workspace",
                                 (unsigned long long)desc->workspace_size);
    }
  }
  *out_model = model;
  return NULL;

bad_workspace:
  dlcrt_model_destroy(model);
  return dlcrt_status_create(
      DLC_INVALID_ARGUMENT,
      "create: options.workspace_size is %llu bytes, model '%s' needs %llu",
      (unsigned long long)options->workspace_size, desc->model_name,
      (unsigned long long)desc->workspace_size);
}

void dlcrt_model_destroy(dlcrt_model *model) {
  if (!model)
    return;
  if (model->owns_workspace)
    dlcrt_aligned_free(model->workspace);
  dlcrt_cuda_destroy(model->cuda);
  free(model->args);
  free(model);
}

static void format_shape(char *buf, size_t cap, int32_t rank,
                         const int64_t *shape) {
  size_t pos = 0;
  pos += (size_t)snprintf(buf + pos, cap - pos, "[");
  for (int32_t d = 0; d < rank && pos < cap; ++d)
    pos += (size_t)snprintf(buf + pos, cap - pos, d ? ",%lld" : "%lld",
                            shape ? (long long)shape[d] : -1LL);
  if (pos < cap)
    snprintf(buf + pos, cap - pos, "]");
}

/* Checks one caller tensor against its description; NULL when it matches. */
static dlc_status *check_tensor(const char *kind, size_t index,
                                const dlc_tensor_desc *want,
                                const dlc_tensor *got) {
  if (!got->data)
    return dlcrt_status_create(DLC_INVALID_ARGUMENT,
                               "run: %s %zu ('%s') has a NULL data pointer",
                               kind, index, want->name);
  if ((int32_t)got->dtype != want->dtype)
    return dlcrt_status_create(
        DLC_INVALID_ARGUMENT, "run: %s %zu ('%s') has dtype %s, expected %s",
        kind, index, want->name, dlc_dtype_name(got->dtype),
        dlc_dtype_name((dlc_dtype)want->dtype));
  int shape_ok = got->rank == want->rank && (got->rank == 0 || got->shape);
  for (int32_t d = 0; shape_ok && d < want->rank; ++d)
    shape_ok = got->shape[d] == want->shape[d];
  if (!shape_ok) {
    char have[160], need[160];
    format_shape(have, sizeof have, got->rank, got->shape);
    format_shape(need, sizeof need, want->rank, want->shape);
    return dlcrt_status_create(
        DLC_INVALID_ARGUMENT, "run: %s %zu ('%s') has shape %s, expected %s",
        kind, index, want->name, have, need);
  }
  if (got->size_bytes < want->size_bytes)
    return dlcrt_status_create(
        DLC_INVALID_ARGUMENT,
        "run: %s %zu ('%s') buffer is %zu bytes, needs %llu", kind, index,
        want->name, got->size_bytes, (unsigned long long)want->size_bytes);
  return NULL;
}

dlc_status *dlcrt_model_run(dlcrt_model *model, const dlc_tensor *inputs,
                            size_t num_inputs, const dlc_tensor *outputs,
                            size_t num_outputs) {
  if (!model)
    return dlcrt_status_create(DLC_INVALID_ARGUMENT,
                               "run: model must not be NULL");
  const dlc_model_desc *desc = model->desc;
  if (num_inputs != desc->num_inputs || num_outputs != desc->num_outputs)
    return dlcrt_status_create(
        DLC_INVALID_ARGUMENT,
        "run: model '%s' takes %u inputs and %u outputs, got %zu and %zu",
        desc->model_name, desc->num_inputs, desc->num_outputs, num_inputs,
        num_outputs);
  if ((num_inputs && !inputs) || (num_outputs && !outputs))
    return dlcrt_status_create(DLC_INVALID_ARGUMENT,
                               "run: inputs/outputs array is NULL");
  for (size_t i = 0; i < num_inputs; ++i) {
    dlc_status *s = check_tensor("input", i, &desc->inputs[i], &inputs[i]);
    if (s)
      return s;
    if (!model->cuda)
      model->args[i] = inputs[i].data;
  }
  for (size_t i = 0; i < num_outputs; ++i) {
    dlc_status *s = check_tensor("output", i, &desc->outputs[i], &outputs[i]);
    if (s)
      return s;
    if (!model->cuda)
      model->args[num_inputs + i] = outputs[i].data;
  }
  if (model->cuda)
    return dlcrt_cuda_run(model->cuda, desc, inputs, outputs, model->args);
  model->args[num_inputs + num_outputs] = model->workspace;
  model->args[num_inputs + num_outputs + 1] = &model->num_threads;
  desc->entry(model->args);
  return NULL;
}
