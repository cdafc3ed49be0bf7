/*===- cuda.h - CUDA model instances (internal) ----------------*- C -*-===*/
#ifndef DLC_RUNTIME_CUDA_H
#define DLC_RUNTIME_CUDA_H

#include "dlc/dlc_model_abi.h"

typedef struct dlcrt_cuda dlcrt_cuda;

/* Loads the driver (dlopen, never linked), picks the device and the PTX
 * image for it, loads the kernels, allocates the device workspace, the
 * constants (uploaded once) and, for host I/O, device copies of every input
 * and output. Fails with DLC_UNAVAILABLE "no CUDA driver..." / "no CUDA
 * device..." when there is no usable GPU. */
dlc_status *dlcrt_cuda_create(const dlc_model_desc *desc,
                              const dlc_options *options, dlcrt_cuda **out);

/* Whether run takes device pointers (dlc_options.cuda_device_pointers). */
int dlcrt_cuda_device_pointers(const dlcrt_cuda *cuda);

/* Runs the model on checked tensors; `args` is the entry's argument vector
 * (sized at create). Host inputs are copied in, outputs out, with one
 * synchronization. With symbolic input dimensions, `input_dims` holds their
 * sizes for the entry and `input_bytes` each input's bytes at its actual
 * shape; `dims` (host memory) receives the outputs' dynamic sizes, which
 * the entry writes before any output is copied back. All three are NULL
 * for a static model. With run-time checks (desc->num_checks), the word
 * they write in the device workspace is cleared before the kernels and
 * read back into `*failed` with the outputs (0: none failed). */
dlc_status *dlcrt_cuda_run(dlcrt_cuda *cuda, const dlc_model_desc *desc,
                           const dlc_tensor *inputs, const dlc_tensor *outputs,
                           void **args, int64_t *dims, int64_t *input_dims,
                           const uint64_t *input_bytes, uint32_t *failed);

void dlcrt_cuda_destroy(dlcrt_cuda *cuda);

#endif
