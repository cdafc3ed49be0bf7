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

/* Runs the model on checked tensors; `args` is the entry's argument vector
 * (sized at create). Host inputs are copied in, outputs out, with one
 * synchronization. */
/* Whether run takes device pointers (dlc_options.cuda_device_pointers). */
int dlcrt_cuda_device_pointers(const dlcrt_cuda *cuda);
dlc_status *dlcrt_cuda_run(dlcrt_cuda *cuda, const dlc_model_desc *desc,
                           const dlc_tensor *inputs, const dlc_tensor *outputs,
                           void **args);

void dlcrt_cuda_destroy(dlcrt_cuda *cuda);

#endif
