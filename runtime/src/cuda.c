/*===- cuda.c - CUDA model instances over a dlopen'ed driver -------------===*
 *
 * The driver API is loaded with dlopen("libcuda.so.1") so that libraries
 * and tools built with the CUDA target start, and fail with a clear
 * status, on machines without an NVIDIA driver. The few driver types used
 * are declared here (they are part of the driver's stable C ABI), so the
 * runtime builds without a CUDA toolkit.
 *
 *===----------------------------------------------------------------------===*/
#include "cuda.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult; /* CUDA_SUCCESS = 0 */
typedef int CUdevice;
typedef uint64_t CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
typedef struct CUevent_st *CUevent;

enum {
  kAttrComputeCapabilityMajor = 75,
  kAttrComputeCapabilityMinor = 76,
  kJitErrorLogBuffer = 5,
  kJitErrorLogBufferSizeBytes = 6,
  kStreamNonBlocking = 1,
  kFuncAttrMaxDynamicSharedSizeBytes = 8,
  /* Dynamic shared memory a kernel may use without opting in. */
  kDefaultSharedBytes = 48 * 1024,
  /* CU_STREAM_CAPTURE_MODE_THREAD_LOCAL: other threads' unsafe calls do not
   * invalidate this thread's capture. */
  kCaptureModeThreadLocal = 1,
  /* Graphs kept per instance (one per set of device tensor addresses). */
  kMaxGraphs = 4,
  /* dlcrt_cuda.failed_kernel: reading a value back, or a graph's replay. */
  kHostRead = -1,
  kGraphLaunch = -2,
};

/* Driver entry points, by their exported (versioned) names. */
#define DLC_CUDA_FUNCTIONS(X)                                                  \
  X(cuInit, "cuInit", (unsigned))                                              \
  X(cuGetErrorName, "cuGetErrorName", (CUresult, const char **))               \
  X(cuDeviceGetCount, "cuDeviceGetCount", (int *))                             \
  X(cuDeviceGet, "cuDeviceGet", (CUdevice *, int))                             \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute", (int *, int, CUdevice))      \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",                      \
    (CUcontext *, CUdevice))                                                   \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", (CUdevice))     \
  X(cuCtxPushCurrent, "cuCtxPushCurrent_v2", (CUcontext))                      \
  X(cuCtxPopCurrent, "cuCtxPopCurrent_v2", (CUcontext *))                      \
  X(cuMemGetInfo, "cuMemGetInfo_v2", (size_t *, size_t *))                     \
  X(cuMemAlloc, "cuMemAlloc_v2", (CUdeviceptr *, size_t))                      \
  X(cuMemFree, "cuMemFree_v2", (CUdeviceptr))                                  \
  X(cuMemHostAlloc, "cuMemHostAlloc", (void **, size_t, unsigned))             \
  X(cuMemFreeHost, "cuMemFreeHost", (void *))                                  \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2", (CUdeviceptr, const void *, size_t))      \
  X(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2",                                 \
    (CUdeviceptr, const void *, size_t, CUstream))                             \
  X(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2",                                 \
    (void *, CUdeviceptr, size_t, CUstream))                                   \
  X(cuStreamCreate, "cuStreamCreate", (CUstream *, unsigned))                  \
  X(cuStreamDestroy, "cuStreamDestroy_v2", (CUstream))                         \
  X(cuStreamSynchronize, "cuStreamSynchronize", (CUstream))                    \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx",                                  \
    (CUmodule *, const void *, unsigned, int *, void **))                      \
  X(cuModuleUnload, "cuModuleUnload", (CUmodule))                              \
  X(cuModuleGetFunction, "cuModuleGetFunction",                                \
    (CUfunction *, CUmodule, const char *))                                    \
  X(cuFuncSetAttribute, "cuFuncSetAttribute", (CUfunction, int, int))          \
  X(cuLaunchKernel, "cuLaunchKernel",                                          \
    (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,   \
     unsigned, CUstream, void **, void **))

/* The graph API (CUDA 11.4 and newer): optional, a driver without it runs
 * every kernel launch by launch. */
#define DLC_CUDA_GRAPH_FUNCTIONS(X)                                            \
  X(cuStreamBeginCapture, "cuStreamBeginCapture_v2", (CUstream, int))          \
  X(cuStreamEndCapture, "cuStreamEndCapture", (CUstream, CUgraph *))           \
  X(cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags",                \
    (CUgraphExec *, CUgraph, unsigned long long))                              \
  X(cuGraphLaunch, "cuGraphLaunch", (CUgraphExec, CUstream))                   \
  X(cuGraphExecDestroy, "cuGraphExecDestroy", (CUgraphExec))                   \
  X(cuGraphDestroy, "cuGraphDestroy", (CUgraph))

/* Events (dlc_options.cuda_profile): optional, profiling is refused
 * without them. */
#define DLC_CUDA_EVENT_FUNCTIONS(X)                                            \
  X(cuEventCreate, "cuEventCreate", (CUevent *, unsigned))                     \
  X(cuEventRecord, "cuEventRecord", (CUevent, CUstream))                       \
  X(cuEventElapsedTime, "cuEventElapsedTime_v2", (float *, CUevent, CUevent))  \
  X(cuEventDestroy, "cuEventDestroy_v2", (CUevent))

typedef struct dlcrt_cuda_driver {
  void *library;
#define DLC_DECLARE(field, symbol, params) CUresult(*field) params;
  DLC_CUDA_FUNCTIONS(DLC_DECLARE)
  DLC_CUDA_GRAPH_FUNCTIONS(DLC_DECLARE)
  DLC_CUDA_EVENT_FUNCTIONS(DLC_DECLARE)
#undef DLC_DECLARE
  int has_graphs, has_events;
} dlcrt_cuda_driver;

/* Where an instance stands with CUDA graphs (dlc_options.cuda_graphs). */
typedef enum graph_state {
  kGraphsOff,      /* plain launches on every run */
  kGraphsFirstRun, /* the next run launches plainly and is watched */
  kGraphsOn,       /* runs replay (or record) a graph */
} graph_state;

struct dlcrt_cuda {
  dlcrt_cuda_driver driver;
  CUdevice device;
  CUcontext context; /* the device's primary context, retained */
  CUstream stream;
  CUmodule module;
  CUfunction *functions;
  uint32_t num_kernels;
  const char *const *kernel_names;
  const uint32_t *kernel_shared_bytes;
  CUdeviceptr workspace, constants;
  /* Host parts' buffers (dlc_model_desc.host_workspace_size); NULL: none. */
  void *host_workspace;
  CUdeviceptr *io; /* device copies of inputs then outputs (host I/O) */
  size_t num_io;
  /* Staging for asynchronous runs (host I/O): page-locked where the driver
   * gives it (cuMemHostAlloc), else ordinary host memory; NULL: none. */
  void *staging;
  int staging_pinned;
  int device_pointers;
  int sm;
  /* First launch failure of the current run. */
  CUresult launch_error;
  int32_t failed_kernel;
  /* CUDA graphs: the state, whether the run in progress read a value back
   * (dlcrt_cuda_read) or is being recorded, and the graphs recorded. */
  graph_state graphs;
  int host_read, capturing;
  size_t num_args;
  CUgraphExec recorded[kMaxGraphs];
  void **recorded_args; /* num_args tensor addresses per recorded graph */
  uint32_t num_recorded;
  /* dlc_options.cuda_profile: `capacity` events; slot i was recorded before
   * a launch of kernel slot_kernel[i], or after a call's last launch (-1);
   * `used` of them this run. The times of the timed launches: profile_ms,
   * profile_kernel (profile_count of them). */
  CUevent *events;
  int32_t *slot_kernel;
  uint32_t capacity, used, launches_wanted, launches_timed;
  float *profile_ms;
  int32_t *profile_kernel;
  uint32_t profile_count;
};

static const char *error_name(const dlcrt_cuda_driver *d, CUresult r) {
  const char *name = NULL;
  if (d->cuGetErrorName && d->cuGetErrorName(r, &name) == 0 && name)
    return name;
  /* The stub library in the toolkit cannot name its own errors. */
  switch (r) {
  case 3: return "CUDA_ERROR_NOT_INITIALIZED";
  case 34: return "CUDA_ERROR_STUB_LIBRARY (the toolkit's stub, not a driver)";
  case 35: return "CUDA_ERROR_INSUFFICIENT_DRIVER";
  case 100: return "CUDA_ERROR_NO_DEVICE";
  default: return "unknown CUDA error";
  }
}

#define DLC_CHECK(cuda, call, what)                                            \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != 0)                                                               \
      return dlcrt_status_create(DLC_INTERNAL, "%s failed: %s (%d)", what,    \
                                 error_name(&(cuda)->driver, r_), r_);         \
  } while (0)

/* Path of the driver: $DLC_CUDA_DRIVER if set (tests point it at a missing
 * or stub library), else the soname. */
static const char *driver_path(void) {
  const char *env = getenv("DLC_CUDA_DRIVER");
  return env && *env ? env : "libcuda.so.1";
}

static dlc_status *load_driver(dlcrt_cuda_driver *d) {
  const char *path = driver_path();
  d->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!d->library) {
    const char *why = dlerror();
    return dlcrt_status_create(DLC_UNAVAILABLE,
                               "no CUDA driver: cannot load %s (%s); this "
                               "model was compiled with --target cuda and "
                               "needs an NVIDIA GPU and driver",
                               path, why ? why : "unknown error");
  }
#define DLC_RESOLVE(field, symbol, params)                                     \
  *(void **)(&d->field) = dlsym(d->library, symbol);                           \
  if (!d->field)                                                               \
    return dlcrt_status_create(DLC_UNAVAILABLE,                                \
                               "no CUDA driver: %s lacks %s (driver too old)", \
                               path, symbol);
  DLC_CUDA_FUNCTIONS(DLC_RESOLVE)
#undef DLC_RESOLVE
  d->has_graphs = 1;
#define DLC_RESOLVE_OPTIONAL(field, symbol, params)                            \
  *(void **)(&d->field) = dlsym(d->library, symbol);                           \
  d->has_graphs &= d->field != NULL;
  DLC_CUDA_GRAPH_FUNCTIONS(DLC_RESOLVE_OPTIONAL)
#undef DLC_RESOLVE_OPTIONAL
  d->has_events = 1;
#define DLC_RESOLVE_EVENT(field, symbol, params)                               \
  *(void **)(&d->field) = dlsym(d->library, symbol);                           \
  d->has_events &= d->field != NULL;
  DLC_CUDA_EVENT_FUNCTIONS(DLC_RESOLVE_EVENT)
#undef DLC_RESOLVE_EVENT
  /* Drivers before CUDA 12.8 export the same function without _v2. */
  if (!d->cuEventElapsedTime) {
    *(void **)(&d->cuEventElapsedTime) =
        dlsym(d->library, "cuEventElapsedTime");
    d->has_events = d->cuEventCreate && d->cuEventRecord &&
                    d->cuEventElapsedTime && d->cuEventDestroy;
  }
  return NULL;
}

static dlc_status *open_device(dlcrt_cuda *cuda, uint32_t ordinal) {
  dlcrt_cuda_driver *d = &cuda->driver;
  CUresult r = d->cuInit(0);
  if (r != 0)
    return dlcrt_status_create(DLC_UNAVAILABLE,
                               "no CUDA device: cuInit failed: %s (%d)",
                               error_name(d, r), r);
  int count = 0;
  r = d->cuDeviceGetCount(&count);
  if (r != 0 || count <= 0)
    return dlcrt_status_create(DLC_UNAVAILABLE,
                               "no CUDA device: the driver reports %d devices",
                               r != 0 ? 0 : count);
  if (ordinal >= (uint32_t)count)
    return dlcrt_status_create(DLC_INVALID_ARGUMENT,
                               "create: options.cuda_device is %u but only %d "
                               "CUDA devices are present",
                               ordinal, count);
  DLC_CHECK(cuda, d->cuDeviceGet(&cuda->device, (int)ordinal), "cuDeviceGet");
  int major = 0, minor = 0;
  DLC_CHECK(cuda,
            d->cuDeviceGetAttribute(&major, kAttrComputeCapabilityMajor,
                                    cuda->device),
            "cuDeviceGetAttribute");
  DLC_CHECK(cuda,
            d->cuDeviceGetAttribute(&minor, kAttrComputeCapabilityMinor,
                                    cuda->device),
            "cuDeviceGetAttribute");
  cuda->sm = major * 10 + minor;
  DLC_CHECK(cuda, d->cuDevicePrimaryCtxRetain(&cuda->context, cuda->device),
            "cuDevicePrimaryCtxRetain");
  return NULL;
}

/* The device's own architecture-specific image (sm_90a on sm_90), else the
 * newest portable image the device can run (PTX is JIT-compiled forward). */
static const dlc_cuda_image *pick_image(const dlc_cuda_desc *cd, int sm) {
  const dlc_cuda_image *best = NULL;
  for (uint32_t i = 0; i < cd->num_images; ++i)
    if (cd->images[i].sm == -sm)
      return &cd->images[i];
  for (uint32_t i = 0; i < cd->num_images; ++i)
    if (cd->images[i].sm > 0 && cd->images[i].sm <= sm &&
        (!best || cd->images[i].sm > best->sm))
      best = &cd->images[i];
  return best;
}

static dlc_status *load_kernels(dlcrt_cuda *cuda, const dlc_model_desc *desc) {
  dlcrt_cuda_driver *d = &cuda->driver;
  const dlc_cuda_desc *cd = desc->cuda;
  /* A model whose outputs are all constants or copies has no kernels (and no
   * PTX images): there is nothing to load. */
  if (cd->num_kernels == 0)
    return NULL;
  const dlc_cuda_image *image = pick_image(cd, cuda->sm);
  if (!image) {
    char archs[128] = "";
    size_t pos = 0;
    for (uint32_t i = 0; i < cd->num_images && pos < sizeof archs; ++i)
      pos += (size_t)snprintf(archs + pos, sizeof archs - pos, "%ssm_%d%s",
                              i ? ", " : "", abs(cd->images[i].sm),
                              cd->images[i].sm < 0 ? "a" : "");
    return dlcrt_status_create(
        DLC_UNAVAILABLE,
        "create: model '%s' has PTX for %s, the CUDA device is sm_%d (compile "
        "with --gpu-arch sm_%d)",
        desc->model_name, archs, cuda->sm, cuda->sm);
  }
  char log[4096] = "";
  int options[2] = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes};
  void *values[2] = {log, (void *)(uintptr_t)sizeof log};
  /* The cubin where the device can run it (the same major version: an
   * sm_80 cubin runs on sm_86, not on sm_90); else, or where the driver
   * refuses it, the PTX, compiled by the driver's JIT. */
  CUresult r = 1;
  if (image->cubin_size && abs(image->sm) / 10 == cuda->sm / 10)
    r = d->cuModuleLoadDataEx(&cuda->module, image->cubin, 0, NULL, NULL);
  if (r != 0)
    r = d->cuModuleLoadDataEx(&cuda->module, image->ptx, 2, options, values);
  if (r != 0)
    return dlcrt_status_create(
        DLC_INTERNAL,
        "create: loading the sm_%d%s PTX of '%s' failed: "
        "%s (%d): %s",
        abs(image->sm), image->sm < 0 ? "a" : "", desc->model_name,
        error_name(d, r), r, log);
  cuda->num_kernels = cd->num_kernels;
  cuda->kernel_names = cd->kernel_names;
  cuda->kernel_shared_bytes = cd->kernel_shared_bytes;
  cuda->functions = calloc(cd->num_kernels ? cd->num_kernels : 1,
                           sizeof(CUfunction));
  if (!cuda->functions)
    return dlcrt_status_create(DLC_OUT_OF_MEMORY, "create: out of memory");
  for (uint32_t i = 0; i < cd->num_kernels; ++i) {
    r = d->cuModuleGetFunction(&cuda->functions[i], cuda->module,
                               cd->kernel_names[i]);
    if (r != 0)
      return dlcrt_status_create(DLC_INTERNAL,
                                 "create: kernel '%s' not found: %s (%d)",
                                 cd->kernel_names[i], error_name(d, r), r);
    uint32_t shared = cd->kernel_shared_bytes[i];
    if (shared > kDefaultSharedBytes) {
      r = d->cuFuncSetAttribute(cuda->functions[i],
                                kFuncAttrMaxDynamicSharedSizeBytes,
                                (int)shared);
      if (r != 0)
        return dlcrt_status_create(
            DLC_UNAVAILABLE,
            "create: kernel '%s' needs %u bytes of shared memory per block, "
            "which the device does not allow: %s (%d)",
            cd->kernel_names[i], shared, error_name(d, r), r);
    }
  }
  return NULL;
}

/* The device buffer of one input or output: one sub-batch of a split
 * static batch (dlc_model_desc.batch_split), a chunk of samples of a
 * chunked batch (dlc_model_desc.batch_chunk), else its size. */
static size_t io_bytes(const dlc_model_desc *desc, const dlc_tensor_desc *t) {
  size_t bytes = (size_t)t->size_bytes;
  if (t->batch_axis >= 0 && desc->batch_split >= 2)
    bytes /= (size_t)desc->batch_split;
  else if (t->batch_axis >= 0 && desc->batch_chunk >= 2)
    bytes *= (size_t)desc->batch_chunk;
  return bytes;
}

static dlc_status *allocate(dlcrt_cuda *cuda, const dlc_model_desc *desc) {
  dlcrt_cuda_driver *d = &cuda->driver;
  size_t need = (size_t)desc->workspace_size + (size_t)desc->cuda->constants_size;
  if (!cuda->device_pointers) {
    for (uint32_t i = 0; i < desc->num_inputs; ++i)
      need += io_bytes(desc, &desc->inputs[i]);
    for (uint32_t i = 0; i < desc->num_outputs; ++i)
      need += io_bytes(desc, &desc->outputs[i]);
  }
  size_t free_bytes = 0, total_bytes = 0;
  DLC_CHECK(cuda, d->cuMemGetInfo(&free_bytes, &total_bytes), "cuMemGetInfo");
  if (need > free_bytes)
    return dlcrt_status_create(
        DLC_OUT_OF_MEMORY,
        "create: model '%s' needs %zu bytes of device memory (workspace %llu, "
        "constants %llu, inputs and outputs%s) but the device has %zu free of "
        "%zu; compiling with --gpu-memory set to the device's memory runs "
        "a static batch that does not fit as sub-batches that do",
        desc->model_name, need, (unsigned long long)desc->workspace_size,
        (unsigned long long)desc->cuda->constants_size,
        desc->batch_split >= 2 ? " of one sub-batch" : "", free_bytes,
        total_bytes);
  DLC_CHECK(cuda, d->cuMemAlloc(&cuda->workspace, desc->workspace_size ? desc->workspace_size : 64),
            "cuMemAlloc (workspace)");
  DLC_CHECK(cuda,
            d->cuMemAlloc(&cuda->constants, desc->cuda->constants_size
                                                ? desc->cuda->constants_size
                                                : 64),
            "cuMemAlloc (constants)");
  if (desc->cuda->constants_size)
    DLC_CHECK(cuda,
              d->cuMemcpyHtoD(cuda->constants, desc->cuda->constants,
                              desc->cuda->constants_size),
              "uploading the constants");
  if (desc->host_workspace_size) {
    cuda->host_workspace =
        dlcrt_aligned_alloc((size_t)desc->host_workspace_size);
    if (!cuda->host_workspace)
      return dlcrt_status_create(DLC_OUT_OF_MEMORY,
                                 "create: cannot allocate %llu bytes of host "
                                 "workspace",
                                 (unsigned long long)desc->host_workspace_size);
  }
  if (cuda->device_pointers)
    return NULL;
  cuda->num_io = desc->num_inputs + desc->num_outputs;
  cuda->io = calloc(cuda->num_io ? cuda->num_io : 1, sizeof(CUdeviceptr));
  if (!cuda->io)
    return dlcrt_status_create(DLC_OUT_OF_MEMORY, "create: out of memory");
  for (size_t i = 0; i < cuda->num_io; ++i) {
    const dlc_tensor_desc *t = i < desc->num_inputs
                                   ? &desc->inputs[i]
                                   : &desc->outputs[i - desc->num_inputs];
    size_t bytes = io_bytes(desc, t);
    DLC_CHECK(cuda, d->cuMemAlloc(&cuda->io[i], bytes ? bytes : 1),
              "cuMemAlloc (inputs and outputs)");
  }
  return NULL;
}

/* dlc_options.cuda_profile: `launches` timed launches per run, plus an end
 * event per entry call (`calls` per run). */
static dlc_status *create_profile(dlcrt_cuda *cuda, uint32_t launches,
                                  size_t calls) {
  if (!launches)
    return NULL;
  if (!cuda->driver.has_events)
    return dlcrt_status_create(DLC_UNAVAILABLE,
                               "create: options.cuda_profile needs the CUDA "
                               "driver's events, which this driver lacks");
  if (launches > (1u << 20))
    return dlcrt_status_create(DLC_INVALID_ARGUMENT,
                               "create: options.cuda_profile is %u, at most "
                               "%u launches are timed",
                               launches, 1u << 20);
  /* An end after each call, and one where the timed launches stop. */
  size_t slots = (size_t)launches + (calls ? calls : 1) + 1;
  cuda->events = calloc(slots, sizeof(CUevent));
  cuda->slot_kernel = calloc(slots, sizeof(int32_t));
  cuda->profile_ms = calloc(launches, sizeof(float));
  cuda->profile_kernel = calloc(launches, sizeof(int32_t));
  if (!cuda->events || !cuda->slot_kernel || !cuda->profile_ms ||
      !cuda->profile_kernel)
    return dlcrt_status_create(DLC_OUT_OF_MEMORY, "create: out of memory");
  for (size_t i = 0; i < slots; ++i) {
    CUresult r = cuda->driver.cuEventCreate(&cuda->events[i], 0);
    if (r != 0)
      return dlcrt_status_create(DLC_INTERNAL,
                                 "create: cuEventCreate failed: %s (%d)",
                                 error_name(&cuda->driver, r), r);
    cuda->capacity = (uint32_t)i + 1;
  }
  cuda->launches_wanted = launches;
  return NULL;
}

/* The staging memory of asynchronous runs: page-locked, so that the
 * copies from and to it run on the stream while the host goes on, else
 * (a driver that refuses) ordinary memory, with which the copies are
 * correct but the host waits for them. */
static dlc_status *allocate_staging(dlcrt_cuda *cuda, size_t bytes) {
  if (!bytes || cuda->device_pointers)
    return NULL;
  if (cuda->driver.cuMemHostAlloc(&cuda->staging, bytes, 0) == 0 &&
      cuda->staging) {
    cuda->staging_pinned = 1;
    return NULL;
  }
  cuda->staging = dlcrt_aligned_alloc(bytes);
  cuda->staging_pinned = 0;
  if (!cuda->staging)
    return dlcrt_status_create(DLC_OUT_OF_MEMORY,
                               "create: cannot allocate %zu bytes of staging "
                               "memory for asynchronous runs",
                               bytes);
  return NULL;
}

dlc_status *dlcrt_cuda_create(const dlc_model_desc *desc,
                              const dlc_options *options, size_t staging_bytes,
                              dlcrt_cuda **out) {
  *out = NULL;
  dlcrt_cuda *cuda = calloc(1, sizeof(*cuda));
  if (!cuda)
    return dlcrt_status_create(DLC_OUT_OF_MEMORY, "create: out of memory");
  cuda->device_pointers = options->cuda_device_pointers != 0;
  if (options->cuda_graphs > DLC_CUDA_GRAPHS_OFF) {
    free(cuda);
    return dlcrt_status_create(DLC_INVALID_ARGUMENT,
                               "create: options.cuda_graphs is %u; it must be "
                               "DLC_CUDA_GRAPHS_AUTO (0) or "
                               "DLC_CUDA_GRAPHS_OFF (1)",
                               (unsigned)options->cuda_graphs);
  }
  dlc_status *s = load_driver(&cuda->driver);
  /* A graph replays fixed launches: none where sizes change from run to run
   * (their grids and the host code's reads depend on them). */
  if (!s && options->cuda_graphs == DLC_CUDA_GRAPHS_AUTO &&
      !options->cuda_profile && cuda->driver.has_graphs &&
      desc->cuda->num_kernels > 0 && desc->num_dynamic_dims == 0 &&
      desc->num_input_dynamic_dims == 0) {
    cuda->num_args = desc->num_inputs + desc->num_outputs;
    cuda->recorded_args = calloc(
        kMaxGraphs * (cuda->num_args ? cuda->num_args : 1), sizeof(void *));
    if (!cuda->recorded_args)
      s = dlcrt_status_create(DLC_OUT_OF_MEMORY, "create: out of memory");
    cuda->graphs = kGraphsFirstRun;
  }
  if (!s)
    s = open_device(cuda, options->cuda_device);
  if (!s) {
    CUresult r = cuda->driver.cuCtxPushCurrent(cuda->context);
    if (r != 0)
      s = dlcrt_status_create(DLC_INTERNAL, "cuCtxPushCurrent failed: %s (%d)",
                              error_name(&cuda->driver, r), r);
    else {
      s = load_kernels(cuda, desc);
      if (!s)
        s = allocate(cuda, desc);
      if (!s)
        s = allocate_staging(cuda, staging_bytes);
      if (!s)
        s = create_profile(cuda, options->cuda_profile,
                           desc->batch_split >= 2 ? desc->batch_split : 1);
      if (!s && cuda->driver.cuStreamCreate(&cuda->stream,
                                            kStreamNonBlocking) != 0)
        s = dlcrt_status_create(DLC_INTERNAL, "create: cuStreamCreate failed");
      CUcontext popped;
      cuda->driver.cuCtxPopCurrent(&popped);
    }
  }
  if (s) {
    dlcrt_cuda_destroy(cuda);
    return s;
  }
  *out = cuda;
  return NULL;
}

void dlcrt_cuda_destroy(dlcrt_cuda *cuda) {
  if (!cuda)
    return;
  dlcrt_cuda_driver *d = &cuda->driver;
  if (cuda->context && d->cuCtxPushCurrent(cuda->context) == 0) {
    /* An asynchronous run may still be copying from or to the staging
     * memory. */
    if (cuda->stream)
      d->cuStreamSynchronize(cuda->stream);
    if (cuda->staging && cuda->staging_pinned)
      d->cuMemFreeHost(cuda->staging);
    for (uint32_t g = 0; g < cuda->num_recorded; ++g)
      d->cuGraphExecDestroy(cuda->recorded[g]);
    for (uint32_t i = 0; i < cuda->capacity; ++i)
      d->cuEventDestroy(cuda->events[i]);
    if (cuda->stream)
      d->cuStreamDestroy(cuda->stream);
    for (size_t i = 0; cuda->io && i < cuda->num_io; ++i)
      if (cuda->io[i])
        d->cuMemFree(cuda->io[i]);
    if (cuda->workspace)
      d->cuMemFree(cuda->workspace);
    if (cuda->constants)
      d->cuMemFree(cuda->constants);
    if (cuda->module)
      d->cuModuleUnload(cuda->module);
    CUcontext popped;
    d->cuCtxPopCurrent(&popped);
    d->cuDevicePrimaryCtxRelease(cuda->device);
  }
  dlcrt_aligned_free(cuda->host_workspace);
  if (!cuda->staging_pinned)
    dlcrt_aligned_free(cuda->staging);
  free(cuda->io);
  free(cuda->recorded_args);
  free(cuda->functions);
  free(cuda->events);
  free(cuda->slot_kernel);
  free(cuda->profile_ms);
  free(cuda->profile_kernel);
  if (d->library)
    dlclose(d->library);
  free(cuda);
}

void dlcrt_cuda_launch(void *ctx, int32_t kernel, int64_t grid_x,
                       int64_t grid_y, int64_t grid_z, int64_t block_x,
                       int64_t block_y, int64_t block_z, void **params) {
  dlcrt_cuda *cuda = ctx;
  if (cuda->launch_error != 0)
    return;
  /* A grid sized at run time may be empty: nothing to run. */
  if (grid_x == 0 || grid_y == 0 || grid_z == 0)
    return;
  CUresult r = 1; /* CUDA_ERROR_INVALID_VALUE */
  /* A timed launch: an event before it (the first launches_wanted of the
   * run, keeping a slot for each call's end). */
  if (cuda->launches_wanted && cuda->launches_timed < cuda->launches_wanted &&
      cuda->used + 1 < cuda->capacity && kernel >= 0 &&
      cuda->driver.cuEventRecord(cuda->events[cuda->used], cuda->stream) == 0) {
    cuda->slot_kernel[cuda->used++] = kernel;
    ++cuda->launches_timed;
  } else if (cuda->used > 0 && cuda->slot_kernel[cuda->used - 1] >= 0 &&
             cuda->used < cuda->capacity &&
             cuda->driver.cuEventRecord(cuda->events[cuda->used],
                                        cuda->stream) == 0) {
    /* The first launch not timed ends the last timed one. */
    cuda->slot_kernel[cuda->used++] = -1;
  }
  if (kernel >= 0 && (uint32_t)kernel < cuda->num_kernels)
    r = cuda->driver.cuLaunchKernel(
        cuda->functions[kernel], (unsigned)grid_x, (unsigned)grid_y,
        (unsigned)grid_z, (unsigned)block_x, (unsigned)block_y,
        (unsigned)block_z, cuda->kernel_shared_bytes[kernel], cuda->stream,
        params, NULL);
  if (r != 0) {
    cuda->launch_error = r;
    cuda->failed_kernel = kernel;
  }
}

/* Index of the graph recorded for the tensor addresses `args`, or -1. */
static int find_graph(const dlcrt_cuda *cuda, void **args) {
  for (uint32_t g = 0; g < cuda->num_recorded; ++g)
    if (memcmp(cuda->recorded_args + g * cuda->num_args, args,
               cuda->num_args * sizeof(void *)) == 0)
      return (int)g;
  return -1;
}

/* Records the entry's launches on `args` as a graph. Returns NULL where
 * the driver cannot record them, a launch fails, or the entry reads a
 * value back from the device. */
static CUgraphExec record_graph(dlcrt_cuda *cuda, const dlc_model_desc *desc,
                                void **args) {
  dlcrt_cuda_driver *d = &cuda->driver;
  if (d->cuStreamBeginCapture(cuda->stream, kCaptureModeThreadLocal) != 0)
    return NULL;
  cuda->capturing = 1;
  cuda->host_read = 0;
  cuda->launch_error = 0;
  desc->entry(args);
  cuda->capturing = 0;
  CUgraph graph = NULL;
  CUgraphExec exec = NULL;
  if (d->cuStreamEndCapture(cuda->stream, &graph) == 0 && graph &&
      !cuda->host_read && cuda->launch_error == 0 &&
      d->cuGraphInstantiateWithFlags(&exec, graph, 0) != 0)
    exec = NULL;
  if (graph)
    d->cuGraphDestroy(graph);
  cuda->launch_error = 0;
  return exec;
}

/* Queues the entry's kernels on `args`: a graph's replay (recorded first
 * where there is none for these addresses) or the launches one by one
 * (dlc_options.cuda_graphs). Failures are left in launch_error. */
static void launch_run(dlcrt_cuda *cuda, const dlc_model_desc *desc,
                       void **args) {
  dlcrt_cuda_driver *d = &cuda->driver;
  if (cuda->graphs == kGraphsOn) {
    int g = find_graph(cuda, args);
    if (g < 0 && cuda->num_recorded < kMaxGraphs) {
      CUgraphExec exec = record_graph(cuda, desc, args);
      if (exec) {
        g = (int)cuda->num_recorded++;
        cuda->recorded[g] = exec;
        memcpy(cuda->recorded_args + (size_t)g * cuda->num_args, args,
               cuda->num_args * sizeof(void *));
      }
    }
    cuda->launch_error = 0;
    if (g >= 0) {
      CUresult r = d->cuGraphLaunch(cuda->recorded[g], cuda->stream);
      if (r != 0) {
        cuda->launch_error = r;
        cuda->failed_kernel = kGraphLaunch;
      }
      return;
    }
    /* Recording failed, or a fifth set of addresses: launch by launch from
     * now on. */
    for (uint32_t i = 0; i < cuda->num_recorded; ++i)
      d->cuGraphExecDestroy(cuda->recorded[i]);
    cuda->num_recorded = 0;
    cuda->graphs = kGraphsOff;
  }
  cuda->launch_error = 0;
  cuda->host_read = 0;
  desc->entry(args);
  if (cuda->graphs == kGraphsFirstRun)
    cuda->graphs =
        cuda->host_read || cuda->launch_error ? kGraphsOff : kGraphsOn;
}

/* The bytes of output i as the run wrote it: its shape with the dynamic
 * dimensions' sizes taken in order from `*next` of `dims`. */
static uint64_t run_bytes(const dlc_tensor_desc *t, const int64_t *dims,
                          size_t *next) {
  uint64_t elements = 1;
  for (int32_t d = 0; d < t->rank; ++d)
    elements *= (uint64_t)(t->shape[d] == DLC_DIM_DYNAMIC ? dims[(*next)++]
                                                          : t->shape[d]);
  return elements * dlc_dtype_size((dlc_dtype)t->dtype);
}

void dlcrt_cuda_read(void *ctx, uintptr_t dst, uintptr_t src, int64_t bytes) {
  dlcrt_cuda *cuda = ctx;
  if (bytes <= 0)
    return;
  if (!cuda) {
    memcpy((void *)dst, (const void *)src, (size_t)bytes);
    return;
  }
  cuda->host_read = 1;
  /* A recording cannot wait for the device: the recording is dropped and
   * the run launches plainly (launch_run). */
  if (!cuda->capturing && cuda->launch_error == 0) {
    CUresult r = cuda->driver.cuMemcpyDtoHAsync((void *)dst, (uint64_t)src,
                                                (size_t)bytes, cuda->stream);
    if (r == 0)
      r = cuda->driver.cuStreamSynchronize(cuda->stream);
    if (r == 0)
      return;
    cuda->launch_error = r;
    cuda->failed_kernel = kHostRead;
  }
  memset((void *)dst, 0, (size_t)bytes);
}

void dlcrt_cuda_write(void *ctx, uintptr_t dst, uintptr_t src, int64_t bytes) {
  dlcrt_cuda *cuda = ctx;
  if (bytes <= 0)
    return;
  if (!cuda) {
    memcpy((void *)dst, (const void *)src, (size_t)bytes);
    return;
  }
  /* A host part ran: the run cannot be recorded (dlcrt_cuda_read before it
   * already said so). */
  cuda->host_read = 1;
  if (cuda->capturing || cuda->launch_error != 0)
    return;
  CUresult r = cuda->driver.cuMemcpyHtoDAsync((uint64_t)dst, (const void *)src,
                                              (size_t)bytes, cuda->stream);
  if (r != 0) {
    cuda->launch_error = r;
    cuda->failed_kernel = kHostRead;
  }
}

static dlc_status *run_queued(dlcrt_cuda *cuda, const dlc_model_desc *desc,
                              const dlc_tensor *inputs,
                              const dlc_tensor *outputs, void **args,
                              const dlcrt_cuda_call *call) {
  int64_t *dims = call->dims;
  const uint64_t *bytes = call->bytes;
  uint32_t *failed = call->failed;
  dlcrt_cuda_driver *d = &cuda->driver;
  size_t ni = desc->num_inputs, no = desc->num_outputs;
  /* The kernels access tensors 16 bytes at a time where their layout
   * allows: caller-owned device buffers must be aligned for that (cuMemAlloc
   * gives 256 bytes; a sample of a batch is aligned when its size is a
   * multiple of 16 bytes). */
  for (size_t k = 0; cuda->device_pointers && k < ni + no; ++k) {
    const void *p = k < ni ? inputs[k].data : outputs[k - ni].data;
    if ((uintptr_t)p % 16 != 0)
      return dlcrt_status_create(
          DLC_INVALID_ARGUMENT,
          "run: with cuda_device_pointers, %s '%s' must be 16-byte aligned "
          "(it is at %p)",
          k < ni ? "input" : "output",
          k < ni ? desc->inputs[k].name : desc->outputs[k - ni].name, p);
  }
  for (size_t i = 0; i < ni; ++i) {
    if (cuda->device_pointers) {
      args[i] = inputs[i].data;
      continue;
    }
    args[i] = (void *)(uintptr_t)cuda->io[i];
    DLC_CHECK(cuda,
              d->cuMemcpyHtoDAsync(
                  cuda->io[i], inputs[i].data,
                  bytes ? bytes[i] : desc->inputs[i].size_bytes, cuda->stream),
              "run: copying an input to the device");
  }
  for (size_t i = 0; i < no; ++i)
    args[ni + i] = cuda->device_pointers
                       ? outputs[i].data
                       : (void *)(uintptr_t)cuda->io[ni + i];
  /* Sizes stay in host memory: the entry's host code reads and writes
   * them around the launches. */
  size_t at = ni + no;
  if (desc->num_dynamic_dims)
    args[at++] = dims;
  if (desc->num_input_dynamic_dims)
    args[at++] = call->input_dims;
  args[at] = (void *)(uintptr_t)cuda->workspace;
  if (desc->host_workspace_size)
    args[++at] = cuda->host_workspace;
  args[at + 1] = (void *)(uintptr_t)cuda->constants;
  args[at + 2] = cuda;
  /* Run-time checks: a failed one writes its number into a word of the
   * workspace when it is still 0 (outside any recorded graph, so that a
   * replay starts from 0 too). */
  static const uint32_t kNoFailure = 0;
  CUdeviceptr check_word = cuda->workspace + desc->check_offset;
  *failed = 0;
  if (desc->num_checks)
    DLC_CHECK(cuda,
              d->cuMemcpyHtoDAsync(check_word, &kNoFailure, sizeof kNoFailure,
                                   cuda->stream),
              "run: clearing the run-time checks' word");
  launch_run(cuda, desc, args);
  /* The end of the call's last timed launch. */
  if (cuda->launches_wanted && cuda->used > 0 &&
      cuda->slot_kernel[cuda->used - 1] >= 0 && cuda->used < cuda->capacity &&
      d->cuEventRecord(cuda->events[cuda->used], cuda->stream) == 0)
    cuda->slot_kernel[cuda->used++] = -1;
  if (cuda->launch_error != 0 && cuda->failed_kernel == kGraphLaunch)
    return dlcrt_status_create(DLC_INTERNAL,
                               "run: launching the recorded CUDA graph "
                               "failed: %s (%d)",
                               error_name(d, cuda->launch_error),
                               cuda->launch_error);
  if (cuda->launch_error != 0 && cuda->failed_kernel < 0)
    return dlcrt_status_create(
        DLC_INTERNAL,
        "run: reading a value the host needs back from the device failed: "
        "%s (%d)",
        error_name(d, cuda->launch_error), cuda->launch_error);
  if (cuda->launch_error != 0)
    return dlcrt_status_create(
        DLC_INTERNAL, "run: launching kernel '%s' failed: %s (%d)",
        cuda->kernel_names[cuda->failed_kernel],
        error_name(d, cuda->launch_error), cuda->launch_error);
  /* An output with dynamic dimensions is copied at the size the run
   * wrote (nothing after its elements). */
  size_t next = 0;
  for (size_t i = 0; !cuda->device_pointers && i < no; ++i)
    DLC_CHECK(
        cuda,
        d->cuMemcpyDtoHAsync(outputs[i].data, cuda->io[ni + i],
                             desc->num_dynamic_dims
                                 ? run_bytes(&desc->outputs[i], dims, &next)
                             : bytes ? bytes[ni + i]
                                     : desc->outputs[i].size_bytes,
                             cuda->stream),
        "run: copying an output to the host");
  if (desc->num_checks)
    DLC_CHECK(
        cuda,
        d->cuMemcpyDtoHAsync(failed, check_word, sizeof *failed, cuda->stream),
        "run: reading the run-time checks' word");
  if (!call->async)
    DLC_CHECK(cuda, d->cuStreamSynchronize(cuda->stream),
              "run: the model's kernels");
  return NULL;
}

int dlcrt_cuda_device_pointers(const dlcrt_cuda *cuda) {
  return cuda && cuda->device_pointers;
}

dlc_status *dlcrt_cuda_run(dlcrt_cuda *cuda, const dlc_model_desc *desc,
                           const dlc_tensor *inputs, const dlc_tensor *outputs,
                           void **args, const dlcrt_cuda_call *call) {
  dlcrt_cuda_driver *d = &cuda->driver;
  *call->failed = 0;
  CUresult r = d->cuCtxPushCurrent(cuda->context);
  if (r != 0)
    return dlcrt_status_create(DLC_INTERNAL, "run: cuCtxPushCurrent failed: %s",
                               error_name(d, r));
  dlc_status *s = run_queued(cuda, desc, inputs, outputs, args, call);
  CUcontext popped;
  d->cuCtxPopCurrent(&popped);
  return s;
}

dlc_status *dlcrt_cuda_wait(dlcrt_cuda *cuda) {
  dlcrt_cuda_driver *d = &cuda->driver;
  CUresult r = d->cuCtxPushCurrent(cuda->context);
  if (r != 0)
    return dlcrt_status_create(
        DLC_INTERNAL, "wait: cuCtxPushCurrent failed: %s", error_name(d, r));
  r = d->cuStreamSynchronize(cuda->stream);
  CUcontext popped;
  d->cuCtxPopCurrent(&popped);
  if (r != 0)
    return dlcrt_status_create(DLC_INTERNAL,
                               "wait: the model's kernels failed: %s (%d)",
                               error_name(d, r), r);
  return NULL;
}

void *dlcrt_cuda_staging(const dlcrt_cuda *cuda) {
  return cuda ? cuda->staging : NULL;
}

void dlcrt_cuda_profile_reset(dlcrt_cuda *cuda) {
  cuda->used = cuda->launches_timed = cuda->profile_count = 0;
}

dlc_status *dlcrt_cuda_profile_finish(dlcrt_cuda *cuda) {
  dlcrt_cuda_driver *d = &cuda->driver;
  cuda->profile_count = 0;
  if (!cuda->used)
    return NULL;
  CUresult pushed = d->cuCtxPushCurrent(cuda->context);
  if (pushed != 0)
    return dlcrt_status_create(DLC_INTERNAL, "run: cuCtxPushCurrent failed: %s",
                               error_name(d, pushed));
  dlc_status *s = NULL;
  for (uint32_t i = 0; !s && i + 1 < cuda->used; ++i) {
    if (cuda->slot_kernel[i] < 0)
      continue;
    float ms = 0;
    CUresult r =
        d->cuEventElapsedTime(&ms, cuda->events[i], cuda->events[i + 1]);
    if (r != 0) {
      s = dlcrt_status_create(DLC_INTERNAL,
                              "run: cuEventElapsedTime failed: %s (%d)",
                              error_name(d, r), r);
      break;
    }
    cuda->profile_ms[cuda->profile_count] = ms;
    cuda->profile_kernel[cuda->profile_count++] = cuda->slot_kernel[i];
  }
  CUcontext popped;
  d->cuCtxPopCurrent(&popped);
  return s;
}

size_t dlcrt_cuda_profile(const dlcrt_cuda *cuda, const int32_t **kernels,
                          const float **ms) {
  *kernels = cuda && cuda->profile_count ? cuda->profile_kernel : NULL;
  *ms = cuda && cuda->profile_count ? cuda->profile_ms : NULL;
  return cuda ? cuda->profile_count : 0;
}
