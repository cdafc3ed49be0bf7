/*===- model.c - model instances: create, validate, run ------------------===*/
#include "cuda.h"
#include "dlc/dlc_model_abi.h"
#include "workers.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one thread needs to run the entry point: its own scratch memory and
 * argument vector, and for a dynamic batch its staging buffers. All of it
 * is allocated at create: run never allocates. */
typedef struct worker {
  void *workspace;
  int owns_workspace;
  /* cuda-emulator models with host parts (dlc_model_desc
   * .host_workspace_size): their host buffers; NULL otherwise. */
  void *host_workspace;
  /* CPU models with state (dlc_model_desc.state_size): this worker's,
   * zeroed at create and kept from call to call; NULL otherwise. */
  void *state;
  void **args;
  /* Per tensor (inputs, then outputs): a one-sample buffer for a batched
   * tensor whose batch axis has larger dimensions before it (its samples
   * are not contiguous); NULL otherwise. */
  void **staging;
  /* Workers other than the first: a private buffer per output without a
   * batch axis (the same for every sample, which the first worker writes
   * to the caller's buffer); NULL otherwise. */
  void **private_out;
  /* Threads of the model's parallel regions; the entry reads it through
   * args. */
  int32_t num_threads;
  /* The sizes of the data-dependent output dimensions the entry writes
   * (dlc_model_desc.num_dynamic_dims of them), the sizes of the inputs'
   * symbolic dimensions it reads (num_input_dynamic_dims) and each input's
   * bytes in the call in progress. */
  int64_t *dims;
  int64_t *input_dims;
  /* Per tensor (inputs, then outputs), the bytes of the call in progress:
   * an input's at its actual shape (symbolic dimensions), a batched
   * tensor's share of the batch. */
  uint64_t *bytes;
} worker;

struct dlcrt_model {
  const dlc_model_desc *desc;
  atomic_int running;  /* a run is in progress (dlcrt_model_run) */
  int32_t num_threads; /* dlc_options.num_threads, at least 1 */
  /* CUDA models: device state; the host workspace is unused. */
  dlcrt_cuda *cuda;
  /* Dynamic batch: run calls the entry once per sample (or per chunk of
   * samples, `chunk`) on views of the caller's tensors. On the CPU with
   * num_threads > 1, that many workers run samples at once, each on one thread
   * (or the threads split among fewer samples); the team of threads starts at
   * create. */
  int batched;
  /* A static batch split into sub-batches (dlc_model_desc.batch_split):
   * their number; run calls the entry once per sub-batch, as for the
   * samples of a dynamic batch. 0 otherwise. */
  int64_t split;
  /* A dynamic batch compiled for chunks (dlc_model_desc.batch_chunk): the
   * most samples per entry call; 1 for one sample per call. */
  int64_t chunk;
  size_t *outer; /* per tensor: product of the dimensions before the batch */
  dlc_tensor *sample; /* CUDA models: per-call views handed to the runner */
  /* CUDA models with host I/O and without a dynamic batch: asynchronous
   * runs (dlcrt_model_run_async). The staging memory holds per tensor its
   * whole bytes at staged_at[k], each call's share of a split batch densely
   * after the previous one's, then one check word per call. While
   * `pending`, the outputs' data pointers wait in pending_out for
   * dlcrt_model_wait. */
  size_t *staged_at;
  size_t staging_bytes, checks_at;
  int pending;
  void **pending_out;
  int num_workers;
  worker *workers;
  dlcrt_workers *team;
  /* The batched run in progress, read by the team. */
  const dlc_tensor *run_inputs, *run_outputs;
  int64_t run_batch;
  int run_members;
  /* Every output's shape as the last successful run left it (run_shape[i]
   * points into shapes). */
  int64_t *shapes;
  int64_t **run_shape;
  int ran;
};

static const dlc_tensor_desc *io_desc(const dlc_model_desc *desc, size_t k) {
  return k < desc->num_inputs ? &desc->inputs[k]
                              : &desc->outputs[k - desc->num_inputs];
}

static size_t num_tensors(const dlc_model_desc *desc) {
  return desc->num_inputs + desc->num_outputs;
}

/* Bytes of tensor k that one entry call of a batched run reads or writes:
 * one sample, or one sub-batch of a split static batch. */
static size_t call_bytes(const dlcrt_model *model, size_t k) {
  size_t size = (size_t)io_desc(model->desc, k)->size_bytes;
  return model->split ? size / (size_t)model->split : size;
}

/* Allocates worker `w`'s argument vector, staging buffers and (unless
 * `workspace` is given) workspace; NULL on success. */
static dlc_status *create_worker(dlcrt_model *model, worker *w,
                                 void *workspace) {
  const dlc_model_desc *desc = model->desc;
  size_t n = num_tensors(desc);
  /* The tensors, then the two arrays of sizes and, on the CPU, the state,
   * the workspace, the host workspace and the thread count; for CUDA, the
   * workspace, the constants and the launch context. */
  w->args = calloc(n + 7, sizeof(void *));
  w->staging = calloc(n ? n : 1, sizeof(void *));
  w->private_out = calloc(n ? n : 1, sizeof(void *));
  w->dims = calloc(desc->num_dynamic_dims ? desc->num_dynamic_dims : 1,
                   sizeof(int64_t));
  w->input_dims =
      calloc(desc->num_input_dynamic_dims ? desc->num_input_dynamic_dims : 1,
             sizeof(int64_t));
  w->bytes = calloc(n ? n : 1, sizeof(uint64_t));
  if (!w->args || !w->staging || !w->private_out || !w->dims ||
      !w->input_dims || !w->bytes)
    return dlcrt_status_create(DLC_OUT_OF_MEMORY, "create: out of memory");
  for (size_t k = desc->num_inputs; w != model->workers && k < n; ++k) {
    const dlc_tensor_desc *t = io_desc(desc, k);
    if (t->batch_axis >= 0)
      continue;
    w->private_out[k] = dlcrt_aligned_alloc((size_t)t->size_bytes);
    if (!w->private_out[k])
      return dlcrt_status_create(DLC_OUT_OF_MEMORY, "create: out of memory");
  }
  for (size_t k = 0; model->batched && k < n; ++k) {
    const dlc_tensor_desc *t = io_desc(desc, k);
    if (t->batch_axis < 0 || model->outer[k] <= 1 || t->size_bytes == 0)
      continue;
    size_t bytes = call_bytes(model, k) * (size_t)model->chunk;
    w->staging[k] = dlcrt_aligned_alloc(bytes);
    if (!w->staging[k])
      return dlcrt_status_create(DLC_OUT_OF_MEMORY,
                                 "create: cannot allocate %llu bytes to "
                                 "stage '%s'",
                                 (unsigned long long)bytes, t->name);
  }
  if (desc->cuda)
    return NULL;
  if (desc->host_workspace_size) {
    w->host_workspace = dlcrt_aligned_alloc((size_t)desc->host_workspace_size);
    if (!w->host_workspace)
      return dlcrt_status_create(DLC_OUT_OF_MEMORY,
                                 "create: cannot allocate %llu bytes of host "
                                 "workspace",
                                 (unsigned long long)desc->host_workspace_size);
  }
  if (desc->state_size) {
    w->state = dlcrt_aligned_alloc((size_t)desc->state_size);
    if (!w->state)
      return dlcrt_status_create(DLC_OUT_OF_MEMORY,
                                 "create: cannot allocate %llu bytes of "
                                 "model state",
                                 (unsigned long long)desc->state_size);
    memset(w->state, 0, (size_t)desc->state_size);
  }
  if (workspace) {
    w->workspace = workspace;
    return NULL;
  }
  w->workspace = dlcrt_aligned_alloc((size_t)desc->workspace_size);
  w->owns_workspace = 1;
  if (!w->workspace)
    return dlcrt_status_create(DLC_OUT_OF_MEMORY,
                               "create: cannot allocate %llu bytes of "
                               "workspace",
                               (unsigned long long)desc->workspace_size);
  return NULL;
}

static void destroy_worker(const dlcrt_model *model, worker *w) {
  if (w->owns_workspace)
    dlcrt_aligned_free(w->workspace);
  dlcrt_aligned_free(w->host_workspace);
  dlcrt_aligned_free(w->state);
  for (size_t k = 0; k < num_tensors(model->desc); ++k) {
    if (w->staging)
      dlcrt_aligned_free(w->staging[k]);
    if (w->private_out)
      dlcrt_aligned_free(w->private_out[k]);
  }
  free(w->staging);
  free(w->private_out);
  free(w->args);
  free(w->dims);
  free(w->input_dims);
  free(w->bytes);
}

/* Finds the batched tensors and their layout; NULL on success. */
static dlc_status *create_batch_state(dlcrt_model *model) {
  const dlc_model_desc *desc = model->desc;
  size_t n = num_tensors(desc);
  for (size_t k = 0; k < n; ++k)
    model->batched |= io_desc(desc, k)->batch_axis >= 0;
  if (desc->cuda) {
    model->sample = calloc(n ? n : 1, sizeof(dlc_tensor));
    model->pending_out =
        calloc(desc->num_outputs ? desc->num_outputs : 1, sizeof(void *));
    if (!model->sample || !model->pending_out)
      return dlcrt_status_create(DLC_OUT_OF_MEMORY, "create: out of memory");
  }
  if (!model->batched)
    return NULL;
  if (desc->batch_split >= 2)
    model->split = desc->batch_split;
  else if (desc->batch_chunk >= 2)
    model->chunk = (int64_t)desc->batch_chunk;
  model->outer = calloc(n, sizeof(size_t));
  if (!model->outer)
    return dlcrt_status_create(DLC_OUT_OF_MEMORY, "create: out of memory");
  for (size_t k = 0; k < n; ++k) {
    const dlc_tensor_desc *t = io_desc(desc, k);
    model->outer[k] = 1;
    for (int32_t d = 0; d < t->batch_axis; ++d)
      model->outer[k] *= (size_t)t->shape[d];
  }
  return NULL;
}

/* The entry calls of one run of a static model: one per sub-batch of a
 * split batch, else one. */
static int64_t static_calls(const dlcrt_model *model) {
  return model->split ? model->split : 1;
}

/* Lays out the staging memory of asynchronous runs (CUDA models with host
 * I/O and without a dynamic batch): each tensor's whole bytes, 64-byte
 * aligned, then a check word per call. */
static void plan_staging(dlcrt_model *model, const dlc_options *options) {
  const dlc_model_desc *desc = model->desc;
  if (!desc->cuda || options->cuda_device_pointers ||
      (model->batched && !model->split))
    return;
  size_t n = num_tensors(desc), at = 0;
  model->staged_at = calloc(n ? n : 1, sizeof(size_t));
  if (!model->staged_at)
    return; /* asynchronous runs then run synchronously */
  for (size_t k = 0; k < n; ++k) {
    model->staged_at[k] = at;
    at += ((size_t)io_desc(desc, k)->size_bytes + 63) / 64 * 64;
  }
  model->checks_at = at;
  model->staging_bytes = at + (size_t)static_calls(model) * sizeof(uint32_t);
}

const dlc_tensor_desc *dlcrt_input_desc(const dlc_model_desc *desc,
                                        size_t i) {
  return desc && i < desc->num_inputs ? &desc->inputs[i] : NULL;
}

const dlc_tensor_desc *dlcrt_output_desc(const dlc_model_desc *desc,
                                         size_t i) {
  return desc && i < desc->num_outputs ? &desc->outputs[i] : NULL;
}

/* Allocates the run shapes of the outputs (and the array of data-dependent
 * sizes); NULL on success. */
static dlc_status *create_shapes(dlcrt_model *model) {
  const dlc_model_desc *desc = model->desc;
  size_t total = 0;
  for (uint32_t i = 0; i < desc->num_outputs; ++i)
    total += (size_t)desc->outputs[i].rank;
  model->shapes = calloc(total ? total : 1, sizeof(int64_t));
  model->run_shape =
      calloc(desc->num_outputs ? desc->num_outputs : 1, sizeof(int64_t *));
  if (!model->shapes || !model->run_shape)
    return dlcrt_status_create(DLC_OUT_OF_MEMORY, "create: out of memory");
  /* A chunked batch's entry takes the chunk as its only symbolic size. */
  if (desc->num_input_dynamic_dims && model->batched && model->chunk < 2)
    return dlcrt_status_create(
        DLC_INTERNAL,
        "create: model '%s' has symbolic input dimensions, which this "
        "runtime supports without a batch only",
        desc->model_name);
  if (desc->num_dynamic_dims && model->batched && model->chunk < 2)
    return dlcrt_status_create(
        DLC_INTERNAL,
        "create: model '%s' has dynamic output shapes, which this runtime "
        "supports without a batch only",
        desc->model_name);
  size_t at = 0;
  for (uint32_t i = 0; i < desc->num_outputs; ++i) {
    model->run_shape[i] = model->shapes + at;
    at += (size_t)desc->outputs[i].rank;
  }
  return NULL;
}

/* Records the shapes of the outputs of the run that just succeeded:
 * `batch` at a dynamic batch axis, the sizes the entry wrote at
 * data-dependent dimensions. */
static void record_shapes(dlcrt_model *model, int64_t batch) {
  const dlc_model_desc *desc = model->desc;
  size_t next = 0;
  for (uint32_t i = 0; i < desc->num_outputs; ++i) {
    const dlc_tensor_desc *t = &desc->outputs[i];
    int64_t *shape = model->run_shape[i];
    for (int32_t d = 0; d < t->rank; ++d) {
      if (d == t->batch_axis && model->batched && !model->split)
        shape[d] = batch < 0 ? 1 : batch;
      else if (t->shape[d] == DLC_DIM_DYNAMIC)
        shape[d] = model->workers[0].dims[next++];
      else
        shape[d] = t->shape[d];
    }
  }
  model->ran = 1;
}

const int64_t *dlcrt_model_output_shape(const dlcrt_model *model, size_t i) {
  if (!model || !model->ran || i >= model->desc->num_outputs)
    return NULL;
  return model->run_shape[i];
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
  if (options->num_threads > 1024)
    return dlcrt_status_create(DLC_INVALID_ARGUMENT,
                               "create: options.num_threads is %u, at most "
                               "1024 are supported",
                               (unsigned)options->num_threads);
  if (!desc->cuda && options->workspace) {
    if (options->workspace_size < desc->workspace_size)
      return dlcrt_status_create(
          DLC_INVALID_ARGUMENT,
          "create: options.workspace_size is %llu bytes, model '%s' needs "
          "%llu",
          (unsigned long long)options->workspace_size, desc->model_name,
          (unsigned long long)desc->workspace_size);
    if (((uintptr_t)options->workspace & 63) != 0)
      return dlcrt_status_create(
          DLC_INVALID_ARGUMENT,
          "create: options.workspace must be 64-byte aligned");
  }

  dlcrt_model *model = calloc(1, sizeof(*model));
  if (!model)
    return dlcrt_status_create(DLC_OUT_OF_MEMORY, "create: out of memory");
  model->desc = desc;
  model->chunk = 1;
  model->num_threads =
      options->num_threads ? (int32_t)options->num_threads : 1;
  dlc_status *s = create_batch_state(model);
  /* A dynamic batch on the CPU runs one sample per thread, a split static
   * batch one sub-batch per thread. */
  model->num_workers =
      model->batched && !desc->cuda ? (int)model->num_threads : 1;
  if (model->split && model->num_workers > model->split)
    model->num_workers = (int)model->split;
  model->workers = calloc((size_t)model->num_workers, sizeof(worker));
  if (!s && !model->workers)
    s = dlcrt_status_create(DLC_OUT_OF_MEMORY, "create: out of memory");
  for (int w = 0; !s && w < model->num_workers; ++w)
    s = create_worker(model, &model->workers[w],
                      w == 0 && !desc->cuda ? options->workspace : NULL);
  if (!s && model->num_workers > 1) {
    model->team = dlcrt_workers_create(model->num_workers);
    if (!model->team)
      s = dlcrt_status_create(DLC_OUT_OF_MEMORY,
                              "create: cannot start %d threads",
                              model->num_workers - 1);
  }
  if (!s)
    s = create_shapes(model);
  if (!s)
    plan_staging(model, options);
  if (!s && desc->cuda)
    s = dlcrt_cuda_create(desc, options, model->staging_bytes, &model->cuda);
  if (s) {
    dlcrt_model_destroy(model);
    return s;
  }
  *out_model = model;
  return NULL;
}

void dlcrt_model_destroy(dlcrt_model *model) {
  if (!model)
    return;
  dlcrt_workers_destroy(model->team);
  for (int w = 0; model->workers && w < model->num_workers; ++w)
    destroy_worker(model, &model->workers[w]);
  free(model->workers);
  dlcrt_cuda_destroy(model->cuda);
  free(model->outer);
  free(model->sample);
  free(model->staged_at);
  free(model->pending_out);
  free(model->shapes);
  free(model->run_shape);
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
 * For a tensor with a dynamic batch the batch axis may have any size >= 1:
 * the first batched tensor sets *batch (-1 before), the others must agree.
 * Tensors of a split static batch (`split`) are checked as static ones. */
static dlc_status *check_tensor(const char *kind, size_t index,
                                const dlc_tensor_desc *want,
                                const dlc_tensor *got, int split,
                                int64_t *batch, uint64_t need_bytes) {
  int dynamic = want->batch_axis >= 0 && !split;
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
  /* A data-dependent output dimension takes any value: the caller may
   * pass DLC_DIM_DYNAMIC or the upper bound. */
  for (int32_t d = 0; shape_ok && d < want->rank; ++d)
    shape_ok = dynamic && d == want->batch_axis
                   ? got->shape[d] >= 1
                   : (want->shape[d] == DLC_DIM_DYNAMIC ||
                      got->shape[d] == want->shape[d]);
  if (!shape_ok) {
    char have[160], need[160];
    format_shape(have, sizeof have, got->rank, got->shape);
    format_shape(need, sizeof need, want->rank, want->shape);
    return dlcrt_status_create(
        DLC_INVALID_ARGUMENT, "run: %s %zu ('%s') has shape %s, expected %s%s",
        kind, index, want->name, have, need,
        dynamic ? " (-1: any batch size >= 1)" : "");
  }
  uint64_t samples = 1;
  if (dynamic) {
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
    if (want->size_bytes && samples > SIZE_MAX / want->size_bytes)
      return dlcrt_status_create(
          DLC_INVALID_ARGUMENT,
          "run: %s %zu ('%s') has batch size %lld: its size overflows",
          kind, index, want->name, (long long)n);
  }
  if (got->size_bytes < need_bytes * samples)
    return dlcrt_status_create(
        DLC_INVALID_ARGUMENT,
        "run: %s %zu ('%s') buffer is %zu bytes, needs %llu", kind, index,
        want->name, got->size_bytes,
        (unsigned long long)(need_bytes * samples));
  return NULL;
}

/* Checks the symbolic dimensions of the inputs: each within its range, one
 * size per name; records the sizes for the entry in worker 0's input_dims and
 * each input's bytes at its actual shape in `bytes`. NULL when they hold. */
static dlc_status *check_symbolic_inputs(dlcrt_model *model,
                                         const dlc_tensor *inputs,
                                         uint64_t *bytes) {
  int64_t *sizes = model->workers[0].input_dims;
  const dlc_model_desc *desc = model->desc;
  size_t next = 0;
  for (uint32_t i = 0; i < desc->num_inputs; ++i) {
    const dlc_tensor_desc *want = &desc->inputs[i];
    const dlc_tensor *got = &inputs[i];
    bytes[i] = want->size_bytes;
    if (!want->dim_names)
      continue;
    if (got->rank != want->rank || (got->rank && !got->shape))
      continue; /* check_tensor reports it */
    uint64_t elements = 1;
    for (int32_t d = 0; d < want->rank; ++d) {
      int64_t n = got->shape[d];
      const char *name = want->dim_names[d];
      if (name) {
        if (n < want->min_shape[d] || n > want->max_shape[d])
          return dlcrt_status_create(
              DLC_INVALID_ARGUMENT,
              "run: input %u ('%s') dimension %d ('%s') is %lld, outside "
              "the range %lld..%lld the model was compiled for",
              i, want->name, (int)d, name, (long long)n,
              (long long)want->min_shape[d], (long long)want->max_shape[d]);
        /* The first dimension of this name sets its size. */
        for (uint32_t j = 0; j <= i; ++j) {
          const dlc_tensor_desc *other = &desc->inputs[j];
          if (!other->dim_names || inputs[j].rank != other->rank ||
              (other->rank && !inputs[j].shape))
            continue;
          int32_t end = j == i ? d : other->rank;
          for (int32_t e = 0; e < end; ++e)
            if (other->dim_names[e] && strcmp(other->dim_names[e], name) == 0 &&
                inputs[j].shape[e] != n)
              return dlcrt_status_create(
                  DLC_INVALID_ARGUMENT,
                  "run: input %u ('%s') dimension %d ('%s') is %lld, but "
                  "input %u ('%s') dimension %d gives '%s' the size %lld",
                  i, want->name, (int)d, name, (long long)n, j, other->name,
                  (int)e, name, (long long)inputs[j].shape[e]);
        }
        sizes[next++] = n;
      }
      elements *= (uint64_t)n;
    }
    bytes[i] = elements * dlc_dtype_size((dlc_dtype)want->dtype);
  }
  return NULL;
}

/* The status of a call whose run-time checks wrote `failed` (0: none). */
static dlc_status *check_failure(const dlc_model_desc *desc, uint32_t failed) {
  if (failed == 0)
    return NULL;
  if (failed > desc->num_checks)
    return dlcrt_status_create(DLC_INTERNAL, "run: check %u of %llu failed",
                               (unsigned)failed,
                               (unsigned long long)desc->num_checks);
  return dlcrt_status_create(DLC_INVALID_ARGUMENT, "run: %s",
                             desc->check_messages[failed - 1]);
}

/* Runs the entry once on `w`'s argument vector (CPU), or on the views
 * given (CUDA); a failed run-time check fails the run with its message. */
static dlc_status *run_entry(dlcrt_model *model, worker *w,
                             const dlc_tensor *inputs,
                             const dlc_tensor *outputs) {
  const dlc_model_desc *desc = model->desc;
  uint32_t failed = 0;
  if (model->cuda) {
    dlcrt_cuda_call call = {
        model->batched || desc->num_input_dynamic_dims ? w->bytes : NULL,
        w->dims, w->input_dims, &failed, 0};
    dlc_status *s =
        dlcrt_cuda_run(model->cuda, desc, inputs, outputs, w->args, &call);
    if (s)
      return s;
  } else {
    size_t at = num_tensors(desc);
    if (desc->num_dynamic_dims)
      w->args[at++] = w->dims;
    if (desc->num_input_dynamic_dims)
      w->args[at++] = w->input_dims;
    if (desc->state_size)
      w->args[at++] = w->state;
    w->args[at] = w->workspace;
    if (desc->host_workspace_size)
      w->args[++at] = w->host_workspace;
    w->args[at + 1] = &w->num_threads;
    char *word = (char *)w->workspace + desc->check_offset;
    if (desc->num_checks)
      memcpy(word, &failed, sizeof failed);
    desc->entry(w->args);
    if (desc->num_checks)
      memcpy(&failed, word, sizeof failed);
  }
  return check_failure(desc, failed);
}

/* Copies samples b..b+c-1 of a batched tensor (batch size n; a sample is
 * a sub-batch of a split static batch) between the caller's buffer and
 * the staging buffer `staged`, where they lie densely at batch size c. */
static void stage(const dlcrt_model *model, void *staged, size_t k,
                  const dlc_tensor *t, int64_t b, int64_t c, int64_t n,
                  int to_staging) {
  size_t unit = call_bytes(model, k) / model->outer[k];
  size_t run = unit * (size_t)c;
  char *user = (char *)t->data, *buf = (char *)staged;
  for (size_t o = 0; o < model->outer[k]; ++o) {
    char *u = user + (o * (size_t)n + (size_t)b) * unit;
    if (to_staging)
      memcpy(buf + o * run, u, run);
    else
      memcpy(u, buf + o * run, run);
  }
}

/* Runs samples b..b+c-1 of n (c > 1 only for a chunked batch; a sample is
 * a sub-batch of a split static batch) on worker w. */
static dlc_status *run_chunk(dlcrt_model *model, worker *w, int64_t b,
                             int64_t c, int64_t n, const dlc_tensor *inputs,
                             const dlc_tensor *outputs) {
  const dlc_model_desc *desc = model->desc;
  size_t ni = desc->num_inputs, nt = num_tensors(desc);
  for (size_t k = 0; k < nt; ++k) {
    const dlc_tensor *t = k < ni ? &inputs[k] : &outputs[k - ni];
    const dlc_tensor_desc *td = io_desc(desc, k);
    void *p = t->data;
    if (w->staging[k]) {
      if (k < ni)
        stage(model, w->staging[k], k, t, b, c, n, 1);
      p = w->staging[k];
    } else if (td->batch_axis >= 0) {
      p = (char *)t->data + (size_t)b * call_bytes(model, k);
    } else if (w->private_out[k]) {
      p = w->private_out[k];
    }
    w->args[k] = p;
    w->bytes[k] =
        td->batch_axis >= 0 ? call_bytes(model, k) * (size_t)c : td->size_bytes;
    if (model->cuda) {
      model->sample[k] = *t;
      model->sample[k].data = p;
    }
  }
  /* A chunked batch: the chunk is the entry's one symbolic size. */
  for (uint64_t d = 0; model->chunk > 1 && d < desc->num_input_dynamic_dims;
       ++d)
    w->input_dims[d] = c;
  /* The per-sample views exist for CUDA models only. */
  dlc_status *s = run_entry(model, w, model->sample,
                            model->sample ? model->sample + ni : NULL);
  for (size_t k = ni; !s && k < nt; ++k)
    if (w->staging[k])
      stage(model, w->staging[k], k, &outputs[k - ni], b, c, n, 0);
  return s;
}

/* Runs samples lo..hi-1 on worker w: one entry call per sample, or for a
 * chunked batch as few calls as the chunk allows, of about equal sizes. */
static dlc_status *run_range(dlcrt_model *model, worker *w, int64_t lo,
                             int64_t hi, int64_t n) {
  int64_t len = hi - lo;
  int64_t calls = (len + model->chunk - 1) / model->chunk;
  for (int64_t j = 0; j < calls; ++j) {
    int64_t b = lo + len * j / calls, e = lo + len * (j + 1) / calls;
    dlc_status *s =
        run_chunk(model, w, b, e - b, n, model->run_inputs, model->run_outputs);
    if (s)
      return s;
  }
  return NULL;
}

/* Team member m's share of the batched run in progress: a contiguous range
 * of samples. CPU entries cannot fail. */
static void run_share(void *ctx, int m) {
  dlcrt_model *model = (dlcrt_model *)ctx;
  int64_t n = model->run_batch, members = model->run_members;
  (void)run_range(model, &model->workers[m], n * m / members,
                  n * (m + 1) / members, n);
}

/* A batched run: the entry once per sample (or chunk of samples) of a
 * dynamic batch, or once per sub-batch of a split static one (n of them). */
static dlc_status *run_batched(dlcrt_model *model, const dlc_tensor *inputs,
                               const dlc_tensor *outputs, int64_t n) {
  const dlc_model_desc *desc = model->desc;
  worker *w0 = &model->workers[0];
  if (model->cuda) {
    for (size_t k = 0; dlcrt_cuda_device_pointers(model->cuda) &&
                       k < num_tensors(desc);
         ++k)
      if (w0->staging[k])
        return dlcrt_status_create(
            DLC_INVALID_ARGUMENT,
            "run: '%s' has its batch axis %d after larger dimensions; with "
            "cuda_device_pointers the batch axis must be the outermost",
            io_desc(desc, k)->name, (int)io_desc(desc, k)->batch_axis);
    model->run_inputs = inputs;
    model->run_outputs = outputs;
    return run_range(model, w0, 0, n, n);
  }
  /* As many samples at once as there are workers; threads left over (fewer
   * samples than threads) go to each sample's parallel loops. */
  int members = n < model->num_workers ? (int)n : model->num_workers;
  for (int m = 0; m < members; ++m)
    model->workers[m].num_threads = model->num_threads / members;
  model->run_inputs = inputs;
  model->run_outputs = outputs;
  model->run_batch = n;
  model->run_members = members;
  if (model->team)
    dlcrt_workers_run(model->team, members, run_share, model);
  else
    run_share(model, 0);
  return NULL;
}

/* Checks the caller's tensors of a run of `model` (held by the caller);
 * the batch of a dynamic batch goes to *batch (-1: none). */
static dlc_status *check_run(dlcrt_model *model, const dlc_tensor *inputs,
                             size_t num_inputs, const dlc_tensor *outputs,
                             size_t num_outputs, int64_t *batch) {
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
  worker *w0 = &model->workers[0];
  *batch = -1;
  if (desc->num_input_dynamic_dims && !model->batched) {
    dlc_status *s = check_symbolic_inputs(model, inputs, w0->bytes);
    if (s)
      return s;
  }
  for (size_t i = 0; i < num_inputs; ++i) {
    dlc_status *s = check_tensor("input", i, &desc->inputs[i], &inputs[i],
                                 model->split != 0, batch,
                                 desc->num_input_dynamic_dims && !model->batched
                                     ? w0->bytes[i]
                                     : desc->inputs[i].size_bytes);
    if (s)
      return s;
    w0->args[i] = inputs[i].data;
  }
  for (size_t i = 0; i < num_outputs; ++i) {
    dlc_status *s =
        check_tensor("output", i, &desc->outputs[i], &outputs[i],
                     model->split != 0, batch, desc->outputs[i].size_bytes);
    if (s)
      return s;
    w0->args[num_inputs + i] = outputs[i].data;
  }
  return NULL;
}

/* dlcrt_model_run with `model` held by this call. */
static dlc_status *run_held(dlcrt_model *model, const dlc_tensor *inputs,
                            size_t num_inputs, const dlc_tensor *outputs,
                            size_t num_outputs) {
  int64_t batch;
  dlc_status *s =
      check_run(model, inputs, num_inputs, outputs, num_outputs, &batch);
  if (s)
    return s;
  worker *w0 = &model->workers[0];
  if (model->cuda)
    dlcrt_cuda_profile_reset(model->cuda);
  if (model->batched) {
    s = run_batched(model, inputs, outputs,
                    model->split ? model->split : (batch < 0 ? 1 : batch));
  } else {
    w0->num_threads = model->num_threads;
    s = run_entry(model, w0, inputs, outputs);
  }
  if (!s && model->cuda)
    s = dlcrt_cuda_profile_finish(model->cuda);
  if (!s)
    record_shapes(model, batch);
  return s;
}

/* Takes `model` for one call; NULL when it was free. */
static dlc_status *hold(dlcrt_model *model, const char *what) {
  if (!model)
    return dlcrt_status_create(DLC_INVALID_ARGUMENT,
                               "%s: model must not be NULL", what);
  /* One run at a time per instance: its workspace, staging buffers and
   * output shapes are the instance's. A second concurrent run is refused
   * (one atomic exchange per run) instead of corrupting the first. */
  if (atomic_exchange(&model->running, 1))
    return dlcrt_status_create(
        DLC_INVALID_ARGUMENT,
        "%s: model '%s' is running on another thread; an instance runs "
        "one call at a time (create one instance per thread)",
        what, model->desc->model_name);
  return NULL;
}

static dlc_status *release(dlcrt_model *model, dlc_status *s) {
  atomic_store(&model->running, 0);
  return s;
}

/* hold() for a run: also refused while an asynchronous run is in
 * progress (wait first). */
static dlc_status *hold_for_run(dlcrt_model *model, const char *what) {
  dlc_status *s = hold(model, what);
  if (s || !model->pending)
    return s;
  return release(
      model,
      dlcrt_status_create(DLC_INVALID_ARGUMENT,
                          "%s: model '%s' has an asynchronous run in progress; "
                          "call wait before the next run",
                          what, model->desc->model_name));
}

dlc_status *dlcrt_model_run(dlcrt_model *model, const dlc_tensor *inputs,
                            size_t num_inputs, const dlc_tensor *outputs,
                            size_t num_outputs) {
  dlc_status *s = hold_for_run(model, "run");
  if (s)
    return s;
  return release(model,
                 run_held(model, inputs, num_inputs, outputs, num_outputs));
}

/* Queues an asynchronous run of a CUDA model with staging memory: the
 * inputs are copied into the staging memory (call by call for a split
 * batch), each call's copies and kernels are queued on the stream with its
 * outputs copied back into the staging memory, and nothing waits. */
static dlc_status *enqueue_run(dlcrt_model *model, const dlc_tensor *inputs,
                               const dlc_tensor *outputs) {
  const dlc_model_desc *desc = model->desc;
  size_t ni = desc->num_inputs, nt = num_tensors(desc);
  char *base = dlcrt_cuda_staging(model->cuda);
  worker *w = &model->workers[0];
  int64_t calls = static_calls(model);
  uint32_t *failed = (uint32_t *)(base + model->checks_at);
  dlcrt_cuda_profile_reset(model->cuda);
  for (int64_t c = 0; c < calls; ++c) {
    for (size_t k = 0; k < nt; ++k) {
      const dlc_tensor *t = k < ni ? &inputs[k] : &outputs[k - ni];
      const dlc_tensor_desc *td = io_desc(desc, k);
      int batched = model->split && td->batch_axis >= 0;
      char *at = base + model->staged_at[k] +
                 (batched ? (size_t)c * call_bytes(model, k) : 0);
      if (k < ni && batched)
        stage(model, at, k, t, c, 1, calls, 1);
      else if (k < ni && c == 0)
        memcpy(at, t->data,
               desc->num_input_dynamic_dims ? (size_t)w->bytes[k]
                                            : (size_t)td->size_bytes);
      if (batched)
        w->bytes[k] = call_bytes(model, k);
      else if (k >= ni || !desc->num_input_dynamic_dims)
        w->bytes[k] = td->size_bytes;
      model->sample[k] = *t;
      model->sample[k].data = at;
    }
    dlcrt_cuda_call call = {w->bytes, w->dims, w->input_dims, &failed[c], 1};
    dlc_status *s = dlcrt_cuda_run(model->cuda, desc, model->sample,
                                   model->sample + ni, w->args, &call);
    if (s) {
      /* Calls queued before this one may still be running. */
      dlc_status_free(dlcrt_cuda_wait(model->cuda));
      return s;
    }
  }
  for (size_t i = 0; i < desc->num_outputs; ++i)
    model->pending_out[i] = outputs[i].data;
  model->pending = 1;
  return NULL;
}

dlc_status *dlcrt_model_run_async(dlcrt_model *model, const dlc_tensor *inputs,
                                  size_t num_inputs, const dlc_tensor *outputs,
                                  size_t num_outputs) {
  dlc_status *s = hold_for_run(model, "run_async");
  if (s)
    return s;
  /* CPU models, caller-owned device tensors and dynamic batches: a run
   * that is over when this returns. */
  if (!model->cuda || !dlcrt_cuda_staging(model->cuda))
    return release(model,
                   run_held(model, inputs, num_inputs, outputs, num_outputs));
  int64_t batch;
  s = check_run(model, inputs, num_inputs, outputs, num_outputs, &batch);
  if (!s)
    s = enqueue_run(model, inputs, outputs);
  return release(model, s);
}

/* The bytes of output `t` at the shape `shape` a run wrote. */
static size_t shape_bytes(const dlc_tensor_desc *t, const int64_t *shape) {
  size_t elements = 1;
  for (int32_t d = 0; d < t->rank; ++d)
    elements *= (size_t)shape[d];
  return elements * dlc_dtype_size((dlc_dtype)t->dtype);
}

dlc_status *dlcrt_model_wait(dlcrt_model *model) {
  dlc_status *s = hold(model, "wait");
  if (s)
    return s;
  if (!model->pending)
    return release(model, NULL);
  model->pending = 0;
  const dlc_model_desc *desc = model->desc;
  s = dlcrt_cuda_wait(model->cuda);
  char *base = dlcrt_cuda_staging(model->cuda);
  int64_t calls = static_calls(model);
  const uint32_t *failed = (const uint32_t *)(base + model->checks_at);
  for (int64_t c = 0; !s && c < calls; ++c)
    s = check_failure(desc, failed[c]);
  if (!s)
    s = dlcrt_cuda_profile_finish(model->cuda);
  if (s)
    return release(model, s);
  record_shapes(model, -1);
  size_t ni = desc->num_inputs;
  for (size_t i = 0; i < desc->num_outputs; ++i) {
    const dlc_tensor_desc *td = &desc->outputs[i];
    size_t k = ni + i;
    char *staged = base + model->staged_at[k];
    if (!(model->split && td->batch_axis >= 0)) {
      memcpy(model->pending_out[i], staged,
             desc->num_dynamic_dims ? shape_bytes(td, model->run_shape[i])
                                    : (size_t)td->size_bytes);
      continue;
    }
    dlc_tensor view = {model->pending_out[i], td->size_bytes,
                       (dlc_dtype)td->dtype, td->rank, td->shape};
    for (int64_t c = 0; c < calls; ++c)
      stage(model, staged + (size_t)c * call_bytes(model, k), k, &view, c, 1,
            calls, 0);
  }
  return release(model, NULL);
}

size_t dlcrt_model_kernel_profile(const dlcrt_model *model,
                                  const int32_t **kernels, const float **ms) {
  const int32_t *k = NULL;
  const float *t = NULL;
  size_t n =
      model && !model->pending ? dlcrt_cuda_profile(model->cuda, &k, &t) : 0;
  if (kernels)
    *kernels = n ? k : NULL;
  if (ms)
    *ms = n ? t : NULL;
  return n;
}
