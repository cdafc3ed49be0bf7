/*===- dlc_runtime.h - dlc runtime: public C types --------------*- C -*-===*
 *
 * The public types shared by every library that `dlc compile` generates.
 * A generated header `<name>.h` includes this file; `dlc compile` copies it
 * next to the generated header.
 *
 * Conventions
 *  - Functions that can fail return `dlc_status *`: NULL means success; a
 *    non-NULL status is owned by the caller and must be released with
 *    dlc_status_free(). Statuses are only allocated on failure.
 *  - There is no global state: every piece of state lives in a model handle.
 *  - Handles are opaque. `*_create` gives ownership, `*_destroy` takes it
 *    back, accessors borrow.
 *  - Thread safety: a model handle may be used by one thread at a time;
 *    distinct handles (of the same or different models) are independent.
 *    A run on a handle that another thread is running fails with
 *    DLC_INVALID_ARGUMENT instead of racing it; destroy must not race a
 *    run of the same handle. Destroying NULL is a no-op.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DLC_RUNTIME_H
#define DLC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* In a model's input/output shapes: the dynamic batch dimension. A model
 * compiled from ONNX inputs with one symbolic dimension (such as 'N') runs
 * at any size >= 1 there, the same size for every batched tensor of a run;
 * the model's size_bytes accessors then give the bytes of one sample. */
#define DLC_DIM_DYNAMIC (-1)

/* Element types. The values are stable (part of the ABI). */
typedef enum dlc_dtype {
  DLC_DTYPE_INVALID = 0,
  DLC_DTYPE_F32 = 1,
  DLC_DTYPE_F64 = 2,
  DLC_DTYPE_F16 = 3,
  DLC_DTYPE_I8 = 4,
  DLC_DTYPE_U8 = 5,
  DLC_DTYPE_I16 = 6,
  DLC_DTYPE_I32 = 7,
  DLC_DTYPE_I64 = 8,
  DLC_DTYPE_BOOL = 9,
  DLC_DTYPE_U16 = 10,
  DLC_DTYPE_U32 = 11,
  DLC_DTYPE_U64 = 12,
  DLC_DTYPE_BF16 = 13,
} dlc_dtype;

/* Returns the size in bytes of one element of `dtype`, 0 if invalid. */
size_t dlc_dtype_size(dlc_dtype dtype);
/* Returns a static, lower-case name such as "f32"; never NULL. */
const char *dlc_dtype_name(dlc_dtype dtype);

typedef enum dlc_status_code {
  DLC_OK = 0,
  DLC_INVALID_ARGUMENT = 1, /* wrong count, dtype, shape, size or NULL; an
                             * input value a check refused (an index) */
  DLC_OUT_OF_MEMORY = 2,    /* an allocation failed */
  DLC_UNAVAILABLE = 3,      /* a device or driver is not present */
  DLC_INTERNAL = 4,         /* a bug in dlc */
} dlc_status_code;

typedef struct dlc_status dlc_status;

/* Code of `status`; DLC_OK for NULL. */
dlc_status_code dlc_status_code_of(const dlc_status *status);
/* Message of `status` (borrowed, valid until dlc_status_free); "ok" for NULL. */
const char *dlc_status_message(const dlc_status *status);
/* Releases `status`; NULL is accepted. */
void dlc_status_free(dlc_status *status);

/* A tensor view passed to or filled by `<name>_run`. The caller owns `data`
 * and `shape`. `size_bytes` is the size of the buffer at `data`; it must be at
 * least the tensor's byte size. Row-major, densely packed. */
typedef struct dlc_tensor {
  void *data;
  size_t size_bytes;
  dlc_dtype dtype;
  int32_t rank;
  const int64_t *shape;
} dlc_tensor;

/* Options for `<name>_create`. Always initialize with dlc_options_init(). */
typedef struct dlc_options {
  /* Threads that run uses for the parallel loops of the model (OpenMP
   * worker threads); 0 means 1. At most 1024. A CPU model with a dynamic
   * batch instead splits the batch into up to num_threads shares run at
   * once (threads started at create, one workspace each; a caller-given
   * workspace is the first one), each share one sample or chunk of samples
   * per call, splitting the threads among the samples when there are
   * fewer. */
  uint32_t num_threads;
  /* Optional caller-owned scratch memory of at least `<name>_workspace_size()`
   * bytes, 64-byte aligned. NULL: create allocates it and destroy frees it. */
  void *workspace;
  size_t workspace_size;
  /* CUDA models only (`dlc compile --target cuda`). The device ordinal to
   * run on (0: the first GPU). The workspace above is ignored: a CUDA
   * model's workspace lives in device memory, allocated by create. */
  uint32_t cuda_device;
  /* CUDA models only. 0: the data pointers of the tensors given to run are
   * host memory; run copies inputs to the device and outputs back.
   * Nonzero: they are device pointers (CUdeviceptr) the caller owns and
   * fills, 16-byte aligned (run refuses others with DLC_INVALID_ARGUMENT:
   * the kernels access 16 bytes at a time); run copies nothing and returns
   * once the work is queued on the model's stream and finished. */
  uint32_t cuda_device_pointers;
  /* CUDA models only. How run launches the kernels: DLC_CUDA_GRAPHS_AUTO
   * (0, the default) records a run's launches once as a CUDA graph and
   * replays it, so that each later run costs one launch instead of one per
   * kernel; DLC_CUDA_GRAPHS_OFF launches every kernel on every run. Under
   * AUTO, the first run launches plainly; a graph is recorded from the
   * second run on when the launches are the same on every run: a model
   * without symbolic dimensions whose first run read nothing back from the
   * device. With cuda_device_pointers, a graph is kept per set of tensor
   * addresses, up to 4; a fifth set turns graphs off for the instance. A
   * driver without graph support, or a capture that fails, falls back to
   * plain launches. */
  uint32_t cuda_graphs;
  /* CUDA models only. 0 (the default): off. N > 0: run times the first N
   * kernel launches of each run with CUDA events recorded on the model's
   * stream before each launch and after each call's last one (CUDA graphs
   * are then off); `<name>_kernel_profile` gives each launch's kernel and
   * time once the run (or wait) returns. The events are created at create
   * (N + calls per run of them at most). */
  uint32_t cuda_profile;
} dlc_options;

/* Values of dlc_options.cuda_graphs. */
enum {
  DLC_CUDA_GRAPHS_AUTO = 0,
  DLC_CUDA_GRAPHS_OFF = 1,
};

void dlc_options_init(dlc_options *options);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DLC_RUNTIME_H */
