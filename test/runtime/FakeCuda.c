/*===- FakeCuda.c - a CUDA driver stand-in for tests without a GPU -------===*
 *
 * Implements the driver entry points the dlc runtime and the gpu-check
 * runner use, on host memory: allocations are malloc'ed, copies are
 * memcpy, modules must be PTX text and functions must be `.entry`s in it,
 * and launches are checked (grid and block sizes, one non-NULL pointer per
 * parameter the PTX entry declares) but run no code, so outputs keep their
 * previous contents. Tests load it with DLC_CUDA_DRIVER=libdlc-fake-cuda.so.
 *
 * Dynamic shared memory above 48 KB needs the kernel's attribute set, as on
 * a GPU (227 KB at most).
 *
 * Stream capture and graphs: between cuStreamBeginCapture and
 * cuStreamEndCapture a launch is checked as above and recorded, not run; a
 * copy or a synchronization of the capturing stream fails and invalidates
 * the capture, as on a GPU; cuGraphLaunch checks the recorded launches
 * again.
 *
 * A cubin is accepted only with DLC_FAKE_CUDA_CUBIN=1 (see load_cubin).
 *
 * The stream is asynchronous, as on a GPU: an asynchronous copy from or to
 * page-locked memory (cuMemHostAlloc) and a launch of the one kernel the
 * stand-in computes, `fake_add_one(in, out, n)` (out[i] = in[i] + 1 for n
 * floats), are queued and run, in order, when the stream is synchronized;
 * an asynchronous copy from pageable memory takes the source's bytes at
 * once and writes them in stream order (at once when nothing is queued);
 * one to pageable memory, and any synchronous copy, first runs the queue.
 * Graphs replay fake_add_one's launches with the parameters they were
 * captured with.
 *
 * Events read a clock that each launch moves on by one microsecond per
 * block of its grid (a graph's replay by its launches') and each copy by
 * one millisecond per 10 MB, so event-timed durations are known by hand;
 * DLC_FAKE_CUDA_NO_EVENTS=1 makes cuEventCreate unsupported. The device is
 * "dlc fake GPU" with 80 GiB.
 *
 * Environment: DLC_FAKE_CUDA_LOG=1 prints every module load, launch,
 * capture and graph launch to stderr (=2: also page-locked allocations and
 * runs of the stream's queue); DLC_FAKE_CUDA_FREE_BYTES sets the
 * free device memory reported; DLC_FAKE_CUDA_NO_GRAPHS=1 makes capture
 * unsupported (as a driver or device without it); DLC_FAKE_CUDA_NO_PINNED=1
 * makes cuMemHostAlloc fail; DLC_FAKE_CUDA_SM (e.g.
 * 80) sets the compute capability (9.0 otherwise), against which PTX
 * loads as with the driver's JIT (not for a newer target, an
 * architecture-specific one such as sm_90a only on its own).
 *
 *===----------------------------------------------------------------------===*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
enum {
  kOk = 0,
  kInvalidValue = 1,
  kOutOfMemory = 2,
  kNotFound = 500,
  kInvalidImage = 200,
  kNoBinaryForGpu = 209,
  kInvalidPtx = 218,
  kLaunchOutOfResources = 701,
  kNotSupported = 801,
  kCaptureUnsupported = 900,
  kCaptureInvalidated = 901
};

typedef struct fake_function {
  char name[256];
  int num_params;
  int max_dynamic_shared; /* bytes, cuFuncSetAttribute */
} fake_function;

typedef struct fake_module {
  fake_function functions[4096];
  int count;
  /* A module loaded from a cubin: its image, searched for function names. */
  const unsigned char *cubin;
  size_t cubin_size;
} fake_module;

static int logging(void) {
  const char *v = getenv("DLC_FAKE_CUDA_LOG");
  return v && *v && *v != '0';
}
/* DLC_FAKE_CUDA_LOG=2: also page-locked allocations and queue runs. */
static int logging_stream(void) {
  const char *v = getenv("DLC_FAKE_CUDA_LOG");
  return v && atoi(v) >= 2;
}

CUresult cuInit(unsigned flags) { return flags == 0 ? kOk : kInvalidValue; }
CUresult cuGetErrorName(CUresult r, const char **name) {
  *name = r == kOk                   ? "CUDA_SUCCESS"
          : r == kInvalidValue       ? "CUDA_ERROR_INVALID_VALUE"
          : r == kOutOfMemory        ? "CUDA_ERROR_OUT_OF_MEMORY"
          : r == kNotFound           ? "CUDA_ERROR_NOT_FOUND"
          : r == kInvalidImage       ? "CUDA_ERROR_INVALID_IMAGE"
          : r == kInvalidPtx         ? "CUDA_ERROR_INVALID_PTX"
          : r == kNotSupported       ? "CUDA_ERROR_NOT_SUPPORTED"
          : r == kCaptureUnsupported ? "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"
          : r == kCaptureInvalidated ? "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"
                                     : "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
  return kOk;
}
CUresult cuDeviceGetCount(int *count) { *count = 1; return kOk; }
CUresult cuDeviceGet(int *device, int ordinal) {
  *device = ordinal;
  return ordinal == 0 ? kOk : kInvalidValue;
}
/* The device's compute capability: DLC_FAKE_CUDA_SM (e.g. 80), else 9.0. */
static int fake_sm(void) {
  const char *v = getenv("DLC_FAKE_CUDA_SM");
  int sm = v && *v ? atoi(v) : 90;
  return sm >= 10 ? sm : 90;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  (void)device;
  *value = attribute == 75   ? fake_sm() / 10
           : attribute == 76 ? fake_sm() % 10
                             : 0;
  return kOk;
}
static int context_token;
CUresult cuDevicePrimaryCtxRetain(void **ctx, int device) {
  (void)device;
  *ctx = &context_token;
  return kOk;
}
CUresult cuDevicePrimaryCtxRelease_v2(int device) { (void)device; return kOk; }
CUresult cuCtxPushCurrent_v2(void *ctx) { return ctx ? kOk : kInvalidValue; }
CUresult cuCtxPopCurrent_v2(void **ctx) { *ctx = &context_token; return kOk; }
CUresult cuCtxSetCurrent(void *ctx) { (void)ctx; return kOk; }
CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total) {
  const char *v = getenv("DLC_FAKE_CUDA_FREE_BYTES");
  *total = (size_t)80 << 30;
  *free_bytes = v ? (size_t)strtoull(v, NULL, 10) : *total;
  return kOk;
}
CUresult cuMemAlloc_v2(uint64_t *ptr, size_t bytes) {
  void *p = calloc(1, bytes ? bytes : 1);
  *ptr = (uint64_t)(uintptr_t)p;
  return p ? kOk : kOutOfMemory;
}
/* The stream's queue: copies and fake_add_one launches, run in order by
 * run_queue. */
typedef struct fake_op {
  int add_one; /* 0: copy n bytes; 1: n floats of src plus one */
  void *dst;
  const void *src;
  size_t n;
  void *owned; /* a pageable source's bytes, freed once copied */
} fake_op;
static fake_op *queue;
static size_t queued, queue_capacity;

static CUresult enqueue(fake_op op) {
  if (queued == queue_capacity) {
    size_t grown_capacity = queue_capacity ? 2 * queue_capacity : 64;
    fake_op *grown = realloc(queue, grown_capacity * sizeof *grown);
    if (!grown)
      return kOutOfMemory;
    queue = grown;
    queue_capacity = grown_capacity;
  }
  queue[queued++] = op;
  return kOk;
}

static void run_queue(void) {
  if (logging_stream() && queued)
    fprintf(stderr, "fake-cuda: %zu queued operations run\n", queued);
  for (size_t i = 0; i < queued; ++i) {
    fake_op *op = &queue[i];
    if (op->add_one)
      for (size_t e = 0; e < op->n; ++e)
        ((float *)op->dst)[e] = ((const float *)op->src)[e] + 1.0f;
    else
      memcpy(op->dst, op->src, op->n);
    free(op->owned);
  }
  /* Released whenever empty: the library may be unloaded at any time. */
  free(queue);
  queue = NULL;
  queued = queue_capacity = 0;
}

/* Page-locked host allocations (cuMemHostAlloc). */
static struct {
  char *at;
  size_t n;
} pinned[64];

static int is_pinned(const void *p, size_t n) {
  for (int i = 0; i < 64; ++i)
    if (pinned[i].at && (const char *)p >= pinned[i].at &&
        (const char *)p + n <= pinned[i].at + pinned[i].n)
      return 1;
  return 0;
}

CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned flags) {
  const char *off = getenv("DLC_FAKE_CUDA_NO_PINNED");
  *p = NULL;
  if ((off && *off && *off != '0') || flags)
    return kOutOfMemory;
  for (int i = 0; i < 64; ++i)
    if (!pinned[i].at) {
      /* Page-aligned, as the driver's. */
      if (posix_memalign(p, 4096, bytes ? bytes : 1) != 0)
        return kOutOfMemory;
      pinned[i].at = *p;
      pinned[i].n = bytes;
      if (logging_stream())
        fprintf(stderr, "fake-cuda: %zu bytes page-locked\n", bytes);
      return kOk;
    }
  return kOutOfMemory;
}

CUresult cuMemFreeHost(void *p) {
  for (int i = 0; i < 64; ++i)
    if (p && pinned[i].at == p) {
      run_queue();
      free(p);
      pinned[i].at = NULL;
      return kOk;
    }
  return kInvalidValue;
}

CUresult cuMemFree_v2(uint64_t ptr) {
  run_queue();
  free((void *)(uintptr_t)ptr);
  return kOk;
}
/* A launch as recorded by a capture, with fake_add_one's parameters. */
typedef struct fake_launch {
  void *function;
  unsigned grid[3], block[3], shared;
  uint64_t params[3];
} fake_launch;

typedef struct fake_graph {
  fake_launch *launches;
  int count;
} fake_graph;

/* The stream's capture: 1 while capturing, -1 once invalidated. */
static int capturing;
static fake_graph *captured;

/* A copy or synchronization of a capturing stream: not allowed. */
static int capture_breaks(void) {
  if (!capturing)
    return 0;
  capturing = -1;
  return 1;
}

/* The device's clock in milliseconds (events read it): each launch's
 * blocks take 1 us, each copy 1 ms per 10 MB. */
static double fake_clock_ms;
static void advance_copy(size_t n) { fake_clock_ms += (double)n / 1e7; }

CUresult cuDeviceGetName(char *name, int length, int device) {
  if (!name || length < 1 || device != 0)
    return kInvalidValue;
  snprintf(name, (size_t)length, "dlc fake GPU");
  return kOk;
}
CUresult cuDeviceTotalMem_v2(size_t *bytes, int device) {
  *bytes = (size_t)80 << 30;
  return device == 0 ? kOk : kInvalidValue;
}

CUresult cuMemcpyHtoD_v2(uint64_t dst, const void *src, size_t n) {
  run_queue();
  advance_copy(n);
  memcpy((void *)(uintptr_t)dst, src, n);
  return kOk;
}
CUresult cuMemcpyHtoDAsync_v2(uint64_t dst, const void *src, size_t n, void *s) {
  (void)s;
  if (capture_breaks())
    return kCaptureUnsupported;
  fake_op op = {0, (void *)(uintptr_t)dst, src, n, NULL};
  /* From pageable memory with nothing queued before it: done at once (so
   * that test entries computing on the host see their inputs). */
  if (!is_pinned(src, n) && queued == 0)
    return cuMemcpyHtoD_v2(dst, src, n);
  advance_copy(n);
  if (!is_pinned(src, n)) {
    op.owned = malloc(n ? n : 1);
    if (!op.owned)
      return kOutOfMemory;
    memcpy(op.owned, src, n);
    op.src = op.owned;
  }
  CUresult r = enqueue(op);
  if (r != kOk)
    free(op.owned);
  return r;
}
CUresult cuMemcpyDtoH_v2(void *dst, uint64_t src, size_t n) {
  run_queue();
  advance_copy(n);
  memcpy(dst, (const void *)(uintptr_t)src, n);
  return kOk;
}
CUresult cuMemcpyDtoHAsync_v2(void *dst, uint64_t src, size_t n, void *s) {
  (void)s;
  if (capture_breaks())
    return kCaptureUnsupported;
  if (!is_pinned(dst, n))
    return cuMemcpyDtoH_v2(dst, src, n);
  advance_copy(n);
  return enqueue((fake_op){0, dst, (const void *)(uintptr_t)src, n, NULL});
}
CUresult cuMemcpyDtoDAsync_v2(uint64_t dst, uint64_t src, size_t n, void *s) {
  (void)s;
  if (capture_breaks())
    return kCaptureUnsupported;
  advance_copy(n);
  return enqueue((fake_op){0, (void *)(uintptr_t)dst,
                           (const void *)(uintptr_t)src, n, NULL});
}
static int stream_token;
CUresult cuStreamCreate(void **stream, unsigned flags) {
  (void)flags;
  *stream = &stream_token;
  return kOk;
}
CUresult cuStreamDestroy_v2(void *stream) {
  run_queue();
  return stream ? kOk : kInvalidValue;
}
CUresult cuStreamSynchronize(void *stream) {
  if (capture_breaks())
    return kCaptureUnsupported;
  if (!stream)
    return kInvalidValue;
  run_queue();
  return kOk;
}

/* A cubin (an ELF image) is refused unless DLC_FAKE_CUDA_CUBIN=1, as a GPU
 * of another architecture would, so that the runtime falls back to the
 * PTX; accepted, its functions are found by name in the image and their
 * parameters are not counted (-1). */
static CUresult load_cubin(void **module, const unsigned char *elf) {
  const char *v = getenv("DLC_FAKE_CUDA_CUBIN");
  if (!v || !*v || *v == '0')
    return kNoBinaryForGpu;
  if (elf[4] != 2) /* ELFCLASS64 */
    return kInvalidImage;
  uint64_t shoff;
  uint16_t shentsize, shnum;
  memcpy(&shoff, elf + 0x28, sizeof shoff);
  memcpy(&shentsize, elf + 0x3a, sizeof shentsize);
  memcpy(&shnum, elf + 0x3c, sizeof shnum);
  fake_module *m = calloc(1, sizeof *m);
  if (!m)
    return kOutOfMemory;
  m->cubin = elf;
  m->cubin_size = (size_t)(shoff + (uint64_t)shentsize * shnum);
  if (logging())
    fprintf(stderr, "fake-cuda: module from a cubin of %zu bytes\n",
            m->cubin_size);
  *module = m;
  return kOk;
}

/* Parses the `.entry NAME(` declarations and counts their `.param`s. */
CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned n,
                            int *options, void **values) {
  (void)n; (void)options; (void)values;
  if (memcmp(image,
             "\x7f"
             "ELF",
             4) == 0)
    return load_cubin(module, image);
  const char *ptx = image;
  if (!strstr(ptx, ".version") || !strstr(ptx, ".target"))
    return kInvalidImage;
  /* As the driver's JIT: PTX for a newer architecture, or for another
   * one's architecture-specific features (sm_90a), does not load. */
  char target[16] = "";
  int target_sm = 0;
  char suffix = 0;
  if (sscanf(strstr(ptx, ".target"), ".target %15s", target) != 1 ||
      sscanf(target, "sm_%d%c", &target_sm, &suffix) < 1)
    return kInvalidImage;
  if (target_sm > fake_sm() || (suffix == 'a' && target_sm != fake_sm())) {
    if (logging())
      fprintf(stderr, "fake-cuda: PTX for %s refused on sm_%d\n", target,
              fake_sm());
    return kInvalidPtx;
  }
  fake_module *m = calloc(1, sizeof *m);
  if (!m)
    return kOutOfMemory;
  for (const char *p = strstr(ptx, ".entry "); p && m->count < 4096;
       p = strstr(p + 1, ".entry ")) {
    const char *name = p + 7, *open = strchr(name, '(');
    const char *close = open ? strchr(open, ')') : NULL;
    if (!close)
      break;
    fake_function *f = &m->functions[m->count++];
    size_t len = (size_t)(open - name);
    snprintf(f->name, sizeof f->name, "%.*s", (int)len, name);
    for (const char *q = strstr(open, ".param"); q && q < close;
         q = strstr(q + 1, ".param"))
      ++f->num_params;
  }
  if (logging())
    fprintf(stderr, "fake-cuda: module with %d entries (.target %s)\n",
            m->count, target);
  *module = m;
  return kOk;
}
CUresult cuModuleUnload(void *module) { free(module); return kOk; }
CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
  fake_module *m = module;
  for (int i = 0; i < m->count; ++i)
    if (strcmp(m->functions[i].name, name) == 0) {
      *function = &m->functions[i];
      return kOk;
    }
  /* A cubin's symbol names: NUL-terminated strings in the image. */
  size_t len = strlen(name) + 1;
  for (size_t at = 0; m->cubin && m->count < 4096 && at + len <= m->cubin_size;
       ++at)
    if ((at == 0 || m->cubin[at - 1] == 0) &&
        memcmp(m->cubin + at, name, len) == 0) {
      fake_function *f = &m->functions[m->count++];
      snprintf(f->name, sizeof f->name, "%s", name);
      f->num_params = -1;
      *function = f;
      return kOk;
    }
  return kNotFound;
}
CUresult cuFuncSetAttribute(void *function, int attribute, int value) {
  fake_function *f = function;
  /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
  if (!f || attribute != 8 || value < 0 || value > 227 * 1024)
    return kInvalidValue;
  f->max_dynamic_shared = value;
  if (logging())
    fprintf(stderr, "fake-cuda: %s may use %d bytes of shared memory\n",
            f->name, value);
  return kOk;
}
/* Checks a launch's sizes and shared memory. */
static CUresult check_launch(const fake_function *f, unsigned gx, unsigned gy,
                             unsigned gz, unsigned bx, unsigned by, unsigned bz,
                             unsigned smem) {
  if (!f || !gx || !gy || !gz || !bx || !by || !bz ||
      (uint64_t)bx * by * bz > 1024)
    return kInvalidValue;
  if (smem > 48 * 1024 && (int)smem > f->max_dynamic_shared)
    return kInvalidValue;
  return kOk;
}

/* Queues fake_add_one's work for a launch. */
static CUresult enqueue_add_one(const fake_launch *l) {
  const fake_function *f = l->function;
  if (strcmp(f->name, "fake_add_one") != 0 || f->num_params != 3)
    return kOk;
  return enqueue((fake_op){1, (void *)(uintptr_t)l->params[1],
                           (const void *)(uintptr_t)l->params[0],
                           (size_t)l->params[2], NULL});
}

static void advance_clock(const fake_launch *l) {
  fake_clock_ms +=
      (double)l->grid[0] * (double)l->grid[1] * (double)l->grid[2] / 1000.0;
}

typedef struct fake_event {
  double at;
} fake_event;

CUresult cuEventCreate(void **event, unsigned flags) {
  const char *off = getenv("DLC_FAKE_CUDA_NO_EVENTS");
  *event = NULL;
  if (off && *off && *off != '0')
    return kNotSupported;
  if (flags)
    return kInvalidValue;
  fake_event *e = calloc(1, sizeof *e);
  *event = e;
  return e ? kOk : kOutOfMemory;
}
CUresult cuEventDestroy_v2(void *event) {
  free(event);
  return event ? kOk : kInvalidValue;
}
CUresult cuEventRecord(void *event, void *stream) {
  if (!event || !stream)
    return kInvalidValue;
  if (capture_breaks())
    return kCaptureUnsupported;
  ((fake_event *)event)->at = fake_clock_ms;
  return kOk;
}
CUresult cuEventElapsedTime(float *ms, void *start, void *end) {
  if (!start || !end)
    return kInvalidValue;
  *ms = (float)(((fake_event *)end)->at - ((fake_event *)start)->at);
  return kOk;
}
/* CUDA 12.8 and newer: the same, under the name CUDA 13's headers use. */
CUresult cuEventElapsedTime_v2(float *ms, void *start, void *end) {
  return cuEventElapsedTime(ms, start, end);
}

CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        void *stream, void **params, void **extra) {
  fake_function *f = function;
  (void)stream;
  CUresult r = check_launch(f, gx, gy, gz, bx, by, bz, smem);
  if (r == kOk && extra)
    r = kInvalidValue;
  for (int i = 0; r == kOk && i < f->num_params; ++i)
    if (!params || !params[i])
      r = kInvalidValue;
  if (r != kOk) {
    if (capturing)
      capturing = -1;
    return r;
  }
  fake_launch launch = {f, {gx, gy, gz}, {bx, by, bz}, smem, {0, 0, 0}};
  int adds = strcmp(f->name, "fake_add_one") == 0 && f->num_params == 3;
  for (int i = 0; adds && i < 3; ++i)
    memcpy(&launch.params[i], params[i], sizeof(uint64_t));
  if (capturing > 0) {
    fake_launch *grown = realloc(captured->launches,
                                 (size_t)(captured->count + 1) * sizeof *grown);
    if (!grown)
      return kOutOfMemory;
    captured->launches = grown;
    captured->launches[captured->count++] = launch;
  } else {
    advance_clock(&launch);
    r = adds ? enqueue_add_one(&launch) : kOk;
    if (r != kOk)
      return r;
  }
  if (logging()) {
    fprintf(stderr, "fake-cuda: %s %s grid %ux%ux%u block %ux%ux%u params %d",
            capturing ? "capture" : "launch", f->name, gx, gy, gz, bx, by, bz,
            f->num_params);
    if (smem)
      fprintf(stderr, " shared %u", smem);
    fprintf(stderr, "\n");
  }
  return kOk;
}

CUresult cuStreamBeginCapture_v2(void *stream, int mode) {
  const char *off = getenv("DLC_FAKE_CUDA_NO_GRAPHS");
  if (off && *off && *off != '0')
    return kNotSupported;
  if (!stream || capturing || mode < 0 || mode > 2)
    return kInvalidValue;
  captured = calloc(1, sizeof *captured);
  if (!captured)
    return kOutOfMemory;
  capturing = 1;
  return kOk;
}

CUresult cuStreamEndCapture(void *stream, void **graph) {
  if (!stream || !capturing)
    return kInvalidValue;
  int valid = capturing > 0;
  capturing = 0;
  *graph = captured;
  captured = NULL;
  if (logging())
    fprintf(stderr, "fake-cuda: captured %d launches%s\n",
            ((fake_graph *)*graph)->count, valid ? "" : " (invalidated)");
  if (!valid) {
    fake_graph *g = *graph;
    free(g->launches);
    free(g);
    *graph = NULL;
    return kCaptureInvalidated;
  }
  return kOk;
}

CUresult cuGraphDestroy(void *graph) {
  fake_graph *g = graph;
  if (!g)
    return kInvalidValue;
  free(g->launches);
  free(g);
  return kOk;
}

/* An executable graph: a copy of the captured launches. */
CUresult cuGraphInstantiateWithFlags(void **exec, void *graph,
                                     unsigned long long flags) {
  fake_graph *g = graph, *e = calloc(1, sizeof *e);
  if (!g || flags)
    return kInvalidValue;
  if (!e)
    return kOutOfMemory;
  e->launches = malloc((size_t)(g->count ? g->count : 1) * sizeof *e->launches);
  if (!e->launches) {
    free(e);
    return kOutOfMemory;
  }
  memcpy(e->launches, g->launches, (size_t)g->count * sizeof *e->launches);
  e->count = g->count;
  *exec = e;
  return kOk;
}

CUresult cuGraphExecDestroy(void *exec) { return cuGraphDestroy(exec); }

CUresult cuGraphLaunch(void *exec, void *stream) {
  fake_graph *e = exec;
  if (!e || !stream || capturing)
    return kInvalidValue;
  for (int i = 0; i < e->count; ++i) {
    const fake_launch *l = &e->launches[i];
    CUresult r = check_launch(l->function, l->grid[0], l->grid[1], l->grid[2],
                              l->block[0], l->block[1], l->block[2], l->shared);
    if (r == kOk)
      r = enqueue_add_one(l);
    advance_clock(l);
    if (r != kOk)
      return r;
  }
  if (logging())
    fprintf(stderr, "fake-cuda: graph launch of %d kernels\n", e->count);
  return kOk;
}
