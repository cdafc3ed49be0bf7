/*===- dlc_model_abi.h - contract between generated code and runtime -*- C -*-=*
 *
 * Internal: generated model code describes itself with a dlc_model_desc and
 * forwards its public `<name>_*` functions to the dlcrt_* functions below.
 * Users never include this file; they use `<name>.h`.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DLC_MODEL_ABI_H
#define DLC_MODEL_ABI_H

#include "dlc/dlc_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DLC_MODEL_ABI_VERSION 14

/* One input or output of a model. For a model with a dynamic batch, a
 * batched tensor has shape[batch_axis] == DLC_DIM_DYNAMIC and size_bytes is
 * the size of one sample; the entry point computes one sample per call, or
 * a chunk of up to batch_chunk samples (dlc_model_desc.batch_chunk).
 * For a model whose static batch is split (dlc_model_desc.batch_split), a
 * batched tensor has its whole shape and size; the entry point computes
 * 1/batch_split of it (along batch_axis) per call.
 * An output whose size depends on data (NonZero, NonMaxSuppression, ...)
 * has shape[d] == DLC_DIM_DYNAMIC at such dimensions, max_shape their
 * upper bounds and size_bytes the size at max_shape; the entry point writes
 * the actual elements densely from the buffer's start (nothing after them)
 * and the actual sizes of all such dimensions, output by output, to the
 * int64_t array that follows the outputs in its arguments.
 * An input with symbolic dimensions compiled as such (`--dim NAME=MIN..MAX`)
 * has shape[d] == DLC_DIM_DYNAMIC there, min_shape and max_shape the range
 * and dim_names[d] the dimension's name (dimensions of one name have one
 * size per run); size_bytes is the size at max_shape. The caller's buffer
 * holds the tensor densely at its actual shape; the runtime checks the
 * sizes and passes them to the entry (num_input_dynamic_dims). Outputs
 * whose shape follows from them are written as data-dependent ones. */
typedef struct dlc_tensor_desc {
  const char *name;
  int32_t dtype; /* dlc_dtype */
  int32_t rank;
  const int64_t *shape;
  uint64_t size_bytes;
  int32_t batch_axis; /* -1: not batched */
  uint32_t reserved;
  const int64_t *max_shape; /* upper bounds; equal to shape where static */
  /* Lower bounds of symbolic input dimensions; elsewhere equal to shape
   * (so DLC_DIM_DYNAMIC at a batch axis or data-dependent dimension). */
  const int64_t *min_shape;
  /* Per dimension, the symbolic dimension's name, NULL where static; NULL
   * for tensors without symbolic dimensions. */
  const char *const *dim_names;
} dlc_tensor_desc;

/* The compiled entry point. `args` holds num_inputs input pointers, then
 * num_outputs output pointers, then (when num_dynamic_dims is not 0) the
 * int64_t array of data-dependent sizes the entry writes, then (when
 * num_input_dynamic_dims is not 0) the int64_t array of the inputs'
 * symbolic sizes (input by input, dimension by dimension), then (when
 * state_size is not 0) the state pointer, then the workspace pointer
 * (64-byte aligned),
 * then the host workspace (when host_workspace_size is not 0),
 * then, for the CPU, a pointer to the int32_t thread count (>= 1) of the
 * OpenMP regions; for CUDA, the device pointer of the constants arena and
 * the launch context passed to dlcrt_cuda_launch. For CUDA every tensor
 * and workspace pointer is a device pointer; the two arrays of sizes are
 * host memory (the entry's host code reads and writes them). */
typedef void (*dlc_entry_fn)(void **args);

/* The kernels for one GPU architecture (sm = 10 * major + minor; negative
 * for an architecture-specific target such as sm_90a, -90, whose PTX runs
 * on that capability only, preferred there): PTX, and
 * where `dlc compile` found ptxas, the cubin it assembled from that PTX
 * (machine code for GPUs of the same major version and at least this
 * minor one, loaded without JIT compilation). */
typedef struct dlc_cuda_image {
  int32_t sm;
  uint32_t cubin_size; /* bytes at `cubin`; 0: PTX only */
  const char *ptx;     /* NUL-terminated */
  const void *cubin;
} dlc_cuda_image;

/* What a CUDA model carries besides its host code. */
typedef struct dlc_cuda_desc {
  uint32_t num_images;
  uint32_t num_kernels;
  const dlc_cuda_image *images;
  const char *const *kernel_names; /* launch index -> PTX entry name */
  /* launch index -> bytes of dynamic shared memory each block uses; kernels
   * above 48 KB are allowed that much at create. */
  const uint32_t *kernel_shared_bytes;
  const void *constants;           /* uploaded to the device at create */
  uint64_t constants_size;
} dlc_cuda_desc;

typedef struct dlc_model_desc {
  uint32_t abi_version; /* DLC_MODEL_ABI_VERSION */
  uint32_t num_inputs;
  uint32_t num_outputs;
  /* >= 2: the static batch runs as this many sub-batches, one entry call
   * each: on the CPU on separate threads when num_threads allows; for CUDA
   * one after the other on the stream, the device copies of the inputs and
   * outputs holding one sub-batch (a batch that does not fit in device
   * memory); 0: it runs whole. */
  uint32_t batch_split;
  const char *model_name;
  const dlc_tensor_desc *inputs;
  const dlc_tensor_desc *outputs;
  uint64_t workspace_size;
  dlc_entry_fn entry;
  const dlc_cuda_desc *cuda; /* NULL for CPU models */
  /* Data-dependent output dimensions (DLC_DIM_DYNAMIC entries of the
   * outputs' shapes); when not 0 the entry takes one more argument after
   * the outputs, an int64_t array of this many sizes. */
  uint64_t num_dynamic_dims;
  /* Symbolic input dimensions (DLC_DIM_DYNAMIC entries of the inputs'
   * shapes); when not 0 the entry takes their sizes in one more argument
   * (see dlc_entry_fn). */
  uint64_t num_input_dynamic_dims;
  /* A dynamic batch compiled for chunks of samples: when >= 2, the entry
   * computes 1..batch_chunk samples per call (the batch a symbolic
   * dimension of the compiled code), densely at the start of each batched
   * tensor's buffer; the chunk's size is every entry of the input sizes
   * (num_input_dynamic_dims: one per batch axis of the inputs) and the
   * entry writes it at every output batch axis (num_dynamic_dims). Batched
   * tensors' size_bytes stay those of one sample. 0: one sample per call. */
  uint64_t batch_chunk;
  /* Run-time checks (the indices of Gather, GatherElements, GatherND and
   * the scatters): when num_checks is not 0, a check that fails during a
   * call writes its number k (1..num_checks) as a uint32_t at byte
   * check_offset of the workspace (device memory for CUDA models);
   * the runtime clears that word before each call and, when it is set
   * after the call, fails the run with check_messages[k - 1]. */
  uint64_t num_checks;
  uint64_t check_offset;
  const char *const *check_messages;
  /* CUDA models with host parts (kernels placed on the CPU): the bytes of
   * the host workspace, host memory the runtime allocates at create (64-byte
   * aligned) and passes to the entry right after the workspace; 0: none,
   * and no such argument. */
  uint64_t host_workspace_size;
  /* CPU models: the bytes of the model's state, memory the runtime
   * allocates zeroed at create (64-byte aligned), one per worker like the
   * workspace, and passes to the entry before the workspace; the entry
   * keeps data there from call to call (padded buffers whose borders it
   * fills on the first call). 0: none, and no such argument. */
  uint64_t state_size;
} dlc_model_desc;

typedef struct dlcrt_model dlcrt_model;

dlc_status *dlcrt_model_create(const dlc_model_desc *desc,
                               const dlc_options *options,
                               dlcrt_model **out_model);
dlc_status *dlcrt_model_run(dlcrt_model *model, const dlc_tensor *inputs,
                            size_t num_inputs, const dlc_tensor *outputs,
                            size_t num_outputs);
/* An asynchronous run (CUDA models with host I/O and without a dynamic
 * batch): checks the tensors, copies the inputs into the instance's
 * staging memory and queues the copies and kernels on the model's stream,
 * then returns; the outputs are written by dlcrt_model_wait. Other models
 * run before it returns (wait then has nothing to do). */
dlc_status *dlcrt_model_run_async(dlcrt_model *model, const dlc_tensor *inputs,
                                  size_t num_inputs, const dlc_tensor *outputs,
                                  size_t num_outputs);
/* Waits for the asynchronous run in progress and writes its outputs;
 * returns its status (NULL also when none is in progress). */
dlc_status *dlcrt_model_wait(dlcrt_model *model);
void dlcrt_model_destroy(dlcrt_model *model);
/* CUDA models created with dlc_options.cuda_profile: the kernel launches
 * the last run timed, in order: *kernels their kernel indices
 * (dlcrt_kernel_name), *ms their times in milliseconds (from the event
 * before the launch to the next event on the stream). Returns their
 * number; 0 (and NULLs) otherwise. Borrowed, valid until the next run. */
size_t dlcrt_model_kernel_profile(const dlcrt_model *model,
                                  const int32_t **kernels, const float **ms);
/* The name of CUDA kernel k (its PTX entry); NULL for CPU models or out of
 * range. */
const char *dlcrt_kernel_name(const dlc_model_desc *desc, size_t k);
/* The shape of output i as the last successful run of `model` wrote it
 * (data-dependent dimensions at their actual sizes); NULL before the first
 * successful run or for i out of range. */
const int64_t *dlcrt_model_output_shape(const dlcrt_model *model, size_t i);

/* Called by the code of models compiled with clock stamps around their
 * kernels (`dlc bench --profile`): the monotonic clock in nanoseconds. */
int64_t dlcrt_profile_clock(void);

/* Called by the host code of CUDA models, once per kernel launch, with the
 * `ctx` the entry received. Launches go to the model's stream with the
 * kernel's dynamic shared memory (dlc_cuda_desc.kernel_shared_bytes); the
 * first failure is kept and reported by run, later launches are skipped. */
void dlcrt_cuda_launch(void *ctx, int32_t kernel, int64_t grid_x,
                       int64_t grid_y, int64_t grid_z, int64_t block_x,
                       int64_t block_y, int64_t block_z, void **params);

/* Called by the host code of CUDA models when it needs values that a
 * kernel computed (a data-dependent size, a loop's condition): copies
 * `bytes` from device address `src` to host memory `dst` after the kernels
 * launched before it, and waits for them. After a failed launch or copy it
 * writes zeros (run reports the failure). Without a context (a
 * cuda-emulator model, whose device memory is host memory) a plain copy. */
void dlcrt_cuda_read(void *ctx, uintptr_t dst, uintptr_t src, int64_t bytes);

/* Called by the host code of CUDA models after a host part (a kernel placed
 * on the CPU) wrote a tensor the device reads: copies `bytes` from host
 * memory `src` (the host workspace) to device address `dst`, queued on the
 * model's stream after the kernels launched before it. The host workspace
 * is pageable memory, so the copy has taken the bytes when it returns and
 * the host may write them again. Nothing after a failed launch or copy (run
 * reports the failure). Without a context (cuda-emulator) a plain copy. */
void dlcrt_cuda_write(void *ctx, uintptr_t dst, uintptr_t src, int64_t bytes);

/* cuda-emulator: a model compiled with --target cuda-emulator is a CPU
 * model whose kernels are host functions called once per GPU thread, with
 * the kernel's parameters (as for cuLaunchKernel: one pointer per
 * parameter), the block's shared memory and the thread's `info`: */
enum {
  DLC_EMU_BLOCK_ID = 0,       /* [3]: x, y, z */
  DLC_EMU_THREAD_ID = 3,      /* [3] */
  DLC_EMU_BLOCK_DIM = 6,      /* [3] */
  DLC_EMU_GRID_DIM = 9,       /* [3] */
  DLC_EMU_LINEAR_THREAD = 12, /* x + X * (y + Y * z); lane = this % 32 */
  DLC_EMU_SCHEDULER = 13,     /* the runtime's, for barriers and shuffles */
  DLC_EMU_INFO_SIZE = 16
};
typedef void (*dlc_emu_kernel_fn)(void **params, void *shared, int64_t *info);
/* Launch flags: the kernel calls dlcrt_emu_barrier or dlcrt_emu_shuffle
 * (its threads then run as fibers, phase by phase). */
enum { DLC_EMU_SYNC = 1 };
/* gpu.shuffle modes. */
enum {
  DLC_EMU_SHUFFLE_XOR = 0,
  DLC_EMU_SHUFFLE_UP = 1,
  DLC_EMU_SHUFFLE_DOWN = 2,
  DLC_EMU_SHUFFLE_IDX = 3
};
/* Runs every thread of every block, blocks one after the other, with
 * `shared_bytes` of shared memory per block (uninitialized: filled with
 * 0xff bytes). Misuse of barriers or shuffles (which would hang or be
 * undefined on a GPU) stops the process with a message. */
void dlcrt_emu_launch(dlc_emu_kernel_fn kernel, void **params, int64_t grid_x,
                      int64_t grid_y, int64_t grid_z, int64_t block_x,
                      int64_t block_y, int64_t block_z, int64_t shared_bytes,
                      int32_t flags);
/* gpu.barrier: returns once every thread of the block has reached it. */
void dlcrt_emu_barrier(int64_t *info);
/* gpu.shuffle of a 32-bit value among the lanes of a warp, in segments of
 * `width` lanes: returns (valid << 32) | the 32 bits of the source lane's
 * value (the caller's own when the source lane is outside its segment). */
int64_t dlcrt_emu_shuffle(int64_t *info, int32_t value, int32_t offset,
                          int32_t width, int32_t mode);

/* cp.async (nvgpu.device_async_copy) of 4, 8 or 16 bytes at byte
 * addresses `dst` (shared memory) and `src`: the source is read now, the
 * bytes land in shared memory at the thread's next dlcrt_emu_async_wait
 * (cp.async.wait_group 0), so a kernel that reads a tile before waiting
 * for it sees the bytes that were there. */
void dlcrt_emu_async_copy(int64_t *info, int64_t dst, int64_t src,
                          int64_t bytes);
void dlcrt_emu_async_wait(int64_t *info);

/* Warp-level matrix instructions (nvgpu.mma.sync). */
enum {
  /* mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 */
  DLC_EMU_MMA_M16N8K8_TF32 = 0,
  /* mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32 */
  DLC_EMU_MMA_M16N8K16 = 1
};
/* One lane's part of a warp's mma.sync: `fragments` (a byte address) holds
 * the lane's registers in PTX order, as floats: a0..a3, b0..b1, c0..c3
 * (m16n8k8) or a0..a7, b0..b3, c0..c3 (m16n8k16, the halves widened
 * exactly), then room for d0..d3, which are written. Returns once every
 * lane of the warp has called it, with D = A x B + C computed from the
 * lanes' fragments as the instruction does (fp32 products and sums, each
 * output summed over k in order). */
void dlcrt_emu_mma_sync(int64_t *info, int64_t fragments, int32_t kind);
/* One lane's part of a warp's ldmatrix.sync.aligned.m8n8.xTILES[.trans]
 * .shared.b16: `row` is the byte address of the row this lane supplies
 * (lanes 8i..8i+7 give the rows of matrix i, 16-byte aligned), `out` where
 * its 2 * TILES 16-bit elements go: of each matrix, row lane / 4, columns
 * 2 (lane % 4) and the next (of the transposed matrix with `transpose`). */
void dlcrt_emu_ldmatrix(int64_t *info, int64_t row, int64_t out, int32_t tiles,
                        int32_t transpose);

/* Warpgroup-level matrix instructions (Hopper wgmma, dlc.warpgroup_mma). */
enum {
  /* wgmma.mma_async.sync.aligned.m64nNk8.f32.tf32.tf32 */
  DLC_EMU_WGMMA_TF32 = 0,
  /* wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16 */
  DLC_EMU_WGMMA_F16 = 1,
  /* wgmma.mma_async.sync.aligned.m64nNk16.f32.bf16.bf16 */
  DLC_EMU_WGMMA_BF16 = 2
};
/* One thread's part of a warpgroup's wgmma (the 128 threads of block
 * threads 128g..128g+127), synchronous: `desc_a` and `desc_b` are the
 * K-major shared-memory matrix descriptors of A (64 x K) and B (N x K),
 * without swizzling, whose 14-bit start addresses are taken modulo 2^18
 * within the block's shared memory; `acc` (a byte address) holds the
 * thread's N / 2 f32 accumulators in the wgmma D layout, overwritten with
 * D = A x B^T + D. tf32 operands are f32 values of which the lower 13
 * mantissa bits are ignored, as the tensor cores do. Returns once all 128
 * threads have called it with the same operands. */
void dlcrt_emu_wgmma(int64_t *info, int64_t desc_a, int64_t desc_b, int64_t acc,
                     int32_t n, int32_t kind);

/* Accessors used by the generated `<name>_input_*` functions; out-of-range
 * indices give NULL. */
const dlc_tensor_desc *dlcrt_input_desc(const dlc_model_desc *desc, size_t i);
const dlc_tensor_desc *dlcrt_output_desc(const dlc_model_desc *desc, size_t i);

/* Describe a model; the generated `<name>_*` accessors forward here.
 * Out-of-range indices give NULL, DLC_DTYPE_INVALID or 0. */
size_t dlcrt_num_inputs(const dlc_model_desc *desc);
size_t dlcrt_num_outputs(const dlc_model_desc *desc);
size_t dlcrt_workspace_size(const dlc_model_desc *desc);
const char *dlcrt_input_name(const dlc_model_desc *desc, size_t i);
dlc_dtype dlcrt_input_dtype(const dlc_model_desc *desc, size_t i);
int32_t dlcrt_input_rank(const dlc_model_desc *desc, size_t i);
const int64_t *dlcrt_input_shape(const dlc_model_desc *desc, size_t i);
const int64_t *dlcrt_input_max_shape(const dlc_model_desc *desc, size_t i);
const int64_t *dlcrt_input_min_shape(const dlc_model_desc *desc, size_t i);
const char *dlcrt_input_dim_name(const dlc_model_desc *desc, size_t i,
                                 int32_t d);
size_t dlcrt_input_size_bytes(const dlc_model_desc *desc, size_t i);
const char *dlcrt_output_name(const dlc_model_desc *desc, size_t i);
dlc_dtype dlcrt_output_dtype(const dlc_model_desc *desc, size_t i);
int32_t dlcrt_output_rank(const dlc_model_desc *desc, size_t i);
const int64_t *dlcrt_output_shape(const dlc_model_desc *desc, size_t i);
const int64_t *dlcrt_output_max_shape(const dlc_model_desc *desc, size_t i);
const int64_t *dlcrt_output_min_shape(const dlc_model_desc *desc, size_t i);
const char *dlcrt_output_dim_name(const dlc_model_desc *desc, size_t i,
                                  int32_t d);
size_t dlcrt_output_size_bytes(const dlc_model_desc *desc, size_t i);

/* Creates a status; `code` must not be DLC_OK. Returns a static
 * out-of-memory status when allocation fails. printf-style. */
dlc_status *dlcrt_status_create(dlc_status_code code, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* 64-byte aligned allocation; NULL on failure. */
void *dlcrt_aligned_alloc(size_t size);
void dlcrt_aligned_free(void *ptr);

#ifdef __cplusplus
}
#endif

#endif /* DLC_MODEL_ABI_H */
