/*===- model.c - model instances: create, validate, run ------------------===*/
#include "cuda.h"
#include "dlc/dlc_model_abi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  /* Dynamic batch: run calls the entry once per sample on per-sample views
   * of the caller's tensors (inputs, then outputs). A batched tensor whose
   * batch axis has larger dimensions before it is not contiguous per
   * sample: it goes through a staging buffer of one sample, allocated here
   * at create. */
  int batched;
  size_t *outer;      /* product of the dimensions before the batch axis */
  void **staging;     /* NULL where a sample is contiguous */
  dlc_tensor *sample; /* per-sample views handed to the CUDA runner */
};

static const dlc_tensor_desc *io_desc(const dlc_model_desc *desc, size_t k) {
  return k < desc->num_inputs ? &desc->inputs[k]
                              : &desc->outputs[k - desc->num_inputs];
}

/* Sets up the per-sample state of a dynamic-batch model; NULL on success. */
static dlc_status *create_batch_state(dlcrt_model *model) {
  const dlc_model_desc *desc = model->desc;
  size_t n = desc->num_inputs + desc->num_outputs;
  for (size_t k = 0; k < n; ++k)
    model->batched |= io_desc(desc, k)->batch_axis >= 0;
  if (!model->batched)
    return NULL;
  model->outer = calloc(n, sizeof(size_t));
  model->staging = calloc(n, sizeof(void *));
  model->sample = calloc(n, sizeof(dlc_tensor));
  if (!model->outer || !model->staging || !model->sample)
    return dlcrt_status_create(DLC_OUT_OF_MEMORY, "create: out of memory");
  for (size_t k = 0; k < n; ++k) {
    const dlc_tensor_desc *t = io_desc(desc, k);
    model->outer[k] = 1;
    for (int32_t d = 0; d < t->batch_axis; ++d)
      model->outer[k] *= (size_t)t->shape[d];
    if (t->batch_axis < 0 || model->outer[k] == 1)
      continue;
    model->staging[k] = dlcrt_aligned_alloc((size_t)t->size_bytes);
    if (!model->staging[k])
      return dlcrt_status_create(DLC_OUT_OF_MEMORY,
                                 "create: cannot allocate %llu bytes to "
                                 "stage '%s'",
                                 (unsigned long long)t->size_bytes, t->name);
  }
  return NULL;
}

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
  dlc_status *batch_status = create_batch_state(model);
  if (batch_status) {
    dlcrt_model_destroy(model);
    return batch_status;
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
  size_t n = model->desc->num_inputs + model->desc->num_outputs;
  for (size_t k = 0; model->staging && k < n; ++k)
    dlcrt_aligned_free(model->staging[k]);
  free(model->staging);
  free(model->outer);
  free(model->sample);
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

/* Checks one caller tensor against its description; NULL when it matches.
 * For a batched tensor the batch axis may have any size >= 1: the first
 * batched tensor sets *batch (-1 before), the others must agree. */
static dlc_status *check_tensor(const char *kind, size_t index,
                                const dlc_tensor_desc *want,
                                const dlc_tensor *got, int64_t *batch) {
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
    shape_ok = d == want->batch_axis ? got->shape[d] >= 1
                                     : got->shape[d] == want->shape[d];
  if (!shape_ok) {
    char have[160], need[160];
    format_shape(have, sizeof have, got->rank, got->shape);
    format_shape(need, sizeof need, want->rank, want->shape);
    return dlcrt_status_create(
        DLC_INVALID_ARGUMENT, "run: %s %zu ('%s') has shape %s, expected %s%s",
        kind, index, want->name, have, need,
        want->batch_axis >= 0 ? " (-1: any batch size >= 1)" : "");
  }
  uint64_t samples = 1;
  if (want->batch_axis >= 0) {
    int64_t n = got->shape[want->batch_axis];
    if (*batch >= 0 && n != *batch)
      return dlcrt_status_create(
          DLC_INVALID_ARGUMENT,
          "run: %s %zu ('%s') has batch size %lld (dimension %d), the "
          "inputs before it %lld",
          kind, index, want->name, (long long)n, (int)want->batch_axis,
          (long long)*batch);
    *batch = n;
    samples = (uint64_t)n;
  }
  if (got->size_bytes < want->size_bytes * samples)
    return dlcrt_status_create(
        DLC_INVALID_ARGUMENT,
        "run: %s %zu ('%s') buffer is %zu bytes, needs %llu", kind, index,
        want->name, got->size_bytes,
        (unsigned long long)(want->size_bytes * samples));
  return NULL;
}

/* Runs the entry once on the pointers in args (CPU) or the views in
 * model->sample (CUDA). */
static dlc_status *run_entry(dlcrt_model *model, const dlc_tensor *inputs,
                             const dlc_tensor *outputs) {
  const dlc_model_desc *desc = model->desc;
  if (model->cuda)
    return dlcrt_cuda_run(model->cuda, desc, inputs, outputs, model->args);
  model->args[desc->num_inputs + desc->num_outputs] = model->workspace;
  model->args[desc->num_inputs + desc->num_outputs + 1] = &model->num_threads;
  desc->entry(model->args);
  return NULL;
}

/* Copies sample b of a batched tensor (batch size n) between the caller's
 * buffer and the contiguous one-sample staging buffer. */
static void stage(const dlcrt_model *model, size_t k, const dlc_tensor *t,
                  int64_t b, int64_t n, int to_staging) {
  size_t chunk = (size_t)io_desc(model->desc, k)->size_bytes / model->outer[k];
  char *user = (char *)t->data, *buf = (char *)model->staging[k];
  for (size_t o = 0; o < model->outer[k]; ++o) {
    char *u = user + ((size_t)o * (size_t)n + (size_t)b) * chunk;
    if (to_staging)
      memcpy(buf + o * chunk, u, chunk);
    else
      memcpy(u, buf + o * chunk, chunk);
  }
}

/* A dynamic-batch run: the entry once per sample, in order. */
static dlc_status *run_batched(dlcrt_model *model, const dlc_tensor *inputs,
                               const dlc_tensor *outputs, int64_t n) {
  const dlc_model_desc *desc = model->desc;
  size_t ni = desc->num_inputs, no = desc->num_outputs;
  if (model->cuda && dlcrt_cuda_device_pointers(model->cuda)) {
    for (size_t k = 0; k < ni + no; ++k)
      if (model->staging[k])
        return dlcrt_status_create(
            DLC_INVALID_ARGUMENT,
            "run: '%s' has its batch axis %d after larger dimensions; with "
            "cuda_device_pointers the batch axis must be the outermost",
            io_desc(desc, k)->name, (int)io_desc(desc, k)->batch_axis);
  }
  for (int64_t b = 0; b < n; ++b) {
    for (size_t k = 0; k < ni + no; ++k) {
      const dlc_tensor *t = k < ni ? &inputs[k] : &outputs[k - ni];
      const dlc_tensor_desc *td = io_desc(desc, k);
      void *p = t->data;
      if (model->staging[k]) {
        if (k < ni)
          stage(model, k, t, b, n, 1);
        p = model->staging[k];
      } else if (td->batch_axis >= 0) {
        p = (char *)t->data + (size_t)b * (size_t)td->size_bytes;
      }
      model->sample[k] = *t;
      model->sample[k].data = p;
      model->args[k] = p;
    }
    dlc_status *s = run_entry(model, model->sample, model->sample + ni);
    if (s)
      return s;
    for (size_t k = ni; k < ni + no; ++k)
      if (model->staging[k])
        stage(model, k, &outputs[k - ni], b, n, 0);
  }
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
  int64_t batch = -1;
  for (size_t i = 0; i < num_inputs; ++i) {
    dlc_status *s =
        check_tensor("input", i, &desc->inputs[i], &inputs[i], &batch);
    if (s)
      return s;
    model->args[i] = inputs[i].data;
  }
  for (size_t i = 0; i < num_outputs; ++i) {
    dlc_status *s =
        check_tensor("output", i, &desc->outputs[i], &outputs[i], &batch);
    if (s)
      return s;
    model->args[num_inputs + i] = outputs[i].data;
  }
  if (model->batched)
    return run_batched(model, inputs, outputs, batch < 0 ? 1 : batch);
  return run_entry(model, inputs, outputs);
}
