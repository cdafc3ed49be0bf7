/*===- cuda.h - CUDA model instances (internal) ----------------*- C -*-===*/
#ifndef DLC_RUNTIME_CUDA_H
#define DLC_RUNTIME_CUDA_H

#include "dlc/dlc_model_abi.h"

typedef struct dlcrt_cuda dlcrt_cuda;

/* One entry call of a run (see dlcrt_cuda_run). */
typedef struct dlcrt_cuda_call {
  /* Per tensor (inputs, then outputs), the bytes this call copies; NULL:
   * each tensor's size_bytes. */
  const uint64_t *bytes;
  /* Host memory: the outputs' dynamic sizes the entry writes, the inputs'
   * symbolic sizes it reads; NULL for a static model. */
  int64_t *dims;
  int64_t *input_dims;
  /* Where the run-time checks' word is read back to (0: none failed); it
   * must stay valid until the stream is synchronized. */
  uint32_t *failed;
  /* Nonzero: queue the call and return without synchronizing (the caller
   * waits with dlcrt_cuda_wait before reading outputs or `failed`). */
  int async;
} dlcrt_cuda_call;

/* Loads the driver (dlopen, never linked), picks the device and the PTX
 * image for it, loads the kernels, allocates the device workspace, the
 * constants (uploaded once) and, for host I/O, device copies of every input
 * and output. Fails with DLC_UNAVAILABLE "no CUDA driver..." / "no CUDA
 * device..." when there is no usable GPU. */
dlc_status *dlcrt_cuda_create(const dlc_model_desc *desc,
                              const dlc_options *options, size_t staging_bytes,
                              dlcrt_cuda **out);

/* Whether run takes device pointers (dlc_options.cuda_device_pointers). */
int dlcrt_cuda_device_pointers(const dlcrt_cuda *cuda);

/* Runs the model on checked tensors; `args` is the entry's argument vector
 * (sized at create). Host inputs are copied in, outputs out (`call->bytes`
 * of each, or its size), then the stream is synchronized unless
 * `call->async`. With symbolic input dimensions, `call->input_dims` holds
 * their sizes for the entry and `call->bytes` each input's bytes at its
 * actual shape; `call->dims` receives the outputs' dynamic sizes, which the
 * entry writes before any output is copied back. With run-time checks
 * (desc->num_checks), the word they write in the device workspace is
 * cleared before the kernels and read back into `*call->failed` with the
 * outputs. The staging memory (create's `staging_bytes`) is the caller's
 * to lay out: host tensors there are copied on the stream while the host
 * goes on. */
dlc_status *dlcrt_cuda_run(dlcrt_cuda *cuda, const dlc_model_desc *desc,
                           const dlc_tensor *inputs, const dlc_tensor *outputs,
                           void **args, const dlcrt_cuda_call *call);

/* Waits for the calls queued with `async`. */
dlc_status *dlcrt_cuda_wait(dlcrt_cuda *cuda);

/* The staging memory allocated at create (page-locked where the driver
 * allows), 64-byte aligned; NULL when none was asked for or the model
 * takes device pointers. */
void *dlcrt_cuda_staging(const dlcrt_cuda *cuda);

/* dlc_options.cuda_profile: forgets the launches timed so far (at the
 * start of a run), and computes the times of those timed since, once the
 * stream is synchronized (at the end of a run); dlcrt_cuda_profile reads
 * them. */
void dlcrt_cuda_profile_reset(dlcrt_cuda *cuda);
dlc_status *dlcrt_cuda_profile_finish(dlcrt_cuda *cuda);
size_t dlcrt_cuda_profile(const dlcrt_cuda *cuda, const int32_t **kernels,
                          const float **ms);

void dlcrt_cuda_destroy(dlcrt_cuda *cuda);

#endif
