/*===- gpu_peaks.c - measure a GPU's peaks through the CUDA driver --------===*
 *
 * Each figure is timed with CUDA events on one stream: device-to-device
 * copies (bandwidth), host-to-device copies from page-locked and pageable
 * memory (link) and of 4 bytes (latency), back-to-back launches of an empty
 * kernel (launch), and kernels of independent FP32 FMA chains and of
 * mma.sync loops on every multiprocessor (the FLOP rates), each sized from
 * a first short run to take tens of milliseconds. The driver is opened
 * with dlopen, as in the runtime (runtime/src/cuda.c), so that this builds
 * without a CUDA toolkit.
 *
 *===----------------------------------------------------------------------===*/
#include "gpu_peaks.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char dlc_gpu_peaks_ptx[] =
    ".version 7.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry dlc_peak_empty()\n"
    "{\n"
    "\tret;\n"
    "}\n"
    "\n"
    ".visible .entry dlc_peak_fma(\n"
    "\t.param .u64 dlc_peak_fma_out,\n"
    "\t.param .u32 dlc_peak_fma_iters\n"
    ")\n"
    "{\n"
    "\t.reg .pred %p<3>;\n"
    "\t.reg .b32 %r<4>;\n"
    "\t.reg .f32 %f<10>;\n"
    "\t.reg .b64 %rd<2>;\n"
    "\tld.param.u64 %rd1, [dlc_peak_fma_out];\n"
    "\tld.param.u32 %r1, [dlc_peak_fma_iters];\n"
    "\tmov.u32 %r2, %tid.x;\n"
    "\tcvt.rn.f32.u32 %f1, %r2;\n"
    "\tadd.f32 %f2, %f1, 0f3F800000;\n"
    "\tadd.f32 %f3, %f1, 0f40000000;\n"
    "\tadd.f32 %f4, %f1, 0f40400000;\n"
    "\tadd.f32 %f5, %f1, 0f40800000;\n"
    "\tadd.f32 %f6, %f1, 0f40A00000;\n"
    "\tadd.f32 %f7, %f1, 0f40C00000;\n"
    "\tadd.f32 %f8, %f1, 0f40E00000;\n"
    "\tmov.u32 %r3, 0;\n"
    "$L_fma:\n"
    "\tfma.rn.f32 %f1, %f1, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f2, %f2, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f3, %f3, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f4, %f4, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f5, %f5, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f6, %f6, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f7, %f7, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f8, %f8, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f1, %f1, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f2, %f2, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f3, %f3, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f4, %f4, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f5, %f5, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f6, %f6, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f7, %f7, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f8, %f8, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f1, %f1, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f2, %f2, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f3, %f3, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f4, %f4, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f5, %f5, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f6, %f6, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f7, %f7, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f8, %f8, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f1, %f1, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f2, %f2, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f3, %f3, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f4, %f4, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f5, %f5, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f6, %f6, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f7, %f7, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tfma.rn.f32 %f8, %f8, 0f3F7FFFF0, 0f3A83126F;\n"
    "\tadd.u32 %r3, %r3, 1;\n"
    "\tsetp.lt.u32 %p1, %r3, %r1;\n"
    "\t@%p1 bra $L_fma;\n"
    "\tadd.f32 %f1, %f1, %f2;\n"
    "\tadd.f32 %f1, %f1, %f3;\n"
    "\tadd.f32 %f1, %f1, %f4;\n"
    "\tadd.f32 %f1, %f1, %f5;\n"
    "\tadd.f32 %f1, %f1, %f6;\n"
    "\tadd.f32 %f1, %f1, %f7;\n"
    "\tadd.f32 %f1, %f1, %f8;\n"
    "\tsetp.eq.f32 %p2, %f1, 0f7F7FFFFF;\n"
    "\t@%p2 st.global.f32 [%rd1], %f1;\n"
    "\tret;\n"
    "}\n"
    "\n"
    ".visible .entry dlc_peak_mma(\n"
    "\t.param .u64 dlc_peak_mma_out,\n"
    "\t.param .u32 dlc_peak_mma_iters\n"
    ")\n"
    "{\n"
    "\t.reg .pred %p<3>;\n"
    "\t.reg .b32 %r<12>;\n"
    "\t.reg .f32 %f<18>;\n"
    "\t.reg .b64 %rd<2>;\n"
    "\tld.param.u64 %rd1, [dlc_peak_mma_out];\n"
    "\tld.param.u32 %r1, [dlc_peak_mma_iters];\n"
    "\tmov.u32 %r2, %tid.x;\n"
    "\tand.b32 %r3, %r2, 7;\n"
    "\tor.b32 %r4, %r3, 469769216;\n"
    "\tor.b32 %r5, %r3, 469769216;\n"
    "\tmov.b32 %r6, 469769216;\n"
    "\tmov.b32 %r7, 469769216;\n"
    "\tmov.b32 %r8, 469769216;\n"
    "\tor.b32 %r9, %r3, 469769216;\n"
    "\tmov.f32 %f1, 0f00000000;\n"
    "\tmov.f32 %f2, 0f00000000;\n"
    "\tmov.f32 %f3, 0f00000000;\n"
    "\tmov.f32 %f4, 0f00000000;\n"
    "\tmov.f32 %f5, 0f00000000;\n"
    "\tmov.f32 %f6, 0f00000000;\n"
    "\tmov.f32 %f7, 0f00000000;\n"
    "\tmov.f32 %f8, 0f00000000;\n"
    "\tmov.f32 %f9, 0f00000000;\n"
    "\tmov.f32 %f10, 0f00000000;\n"
    "\tmov.f32 %f11, 0f00000000;\n"
    "\tmov.f32 %f12, 0f00000000;\n"
    "\tmov.f32 %f13, 0f00000000;\n"
    "\tmov.f32 %f14, 0f00000000;\n"
    "\tmov.f32 %f15, 0f00000000;\n"
    "\tmov.f32 %f16, 0f00000000;\n"
    "\tmov.u32 %r10, 0;\n"
    "$L_mma:\n"
    "\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, "
    "{%r4,%r5,%r6,%r7}, {%r8,%r9}, {%f1,%f2,%f3,%f4};\n"
    "\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f5,%f6,%f7,%f8}, "
    "{%r4,%r5,%r6,%r7}, {%r8,%r9}, {%f5,%f6,%f7,%f8};\n"
    "\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f9,%f10,%f11,%f12}, "
    "{%r4,%r5,%r6,%r7}, {%r8,%r9}, {%f9,%f10,%f11,%f12};\n"
    "\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
    "{%f13,%f14,%f15,%f16}, {%r4,%r5,%r6,%r7}, {%r8,%r9}, "
    "{%f13,%f14,%f15,%f16};\n"
    "\tadd.u32 %r10, %r10, 1;\n"
    "\tsetp.lt.u32 %p1, %r10, %r1;\n"
    "\t@%p1 bra $L_mma;\n"
    "\tadd.f32 %f1, %f1, %f2;\n"
    "\tadd.f32 %f1, %f1, %f3;\n"
    "\tadd.f32 %f1, %f1, %f4;\n"
    "\tadd.f32 %f1, %f1, %f5;\n"
    "\tadd.f32 %f1, %f1, %f6;\n"
    "\tadd.f32 %f1, %f1, %f7;\n"
    "\tadd.f32 %f1, %f1, %f8;\n"
    "\tadd.f32 %f1, %f1, %f9;\n"
    "\tadd.f32 %f1, %f1, %f10;\n"
    "\tadd.f32 %f1, %f1, %f11;\n"
    "\tadd.f32 %f1, %f1, %f12;\n"
    "\tadd.f32 %f1, %f1, %f13;\n"
    "\tadd.f32 %f1, %f1, %f14;\n"
    "\tadd.f32 %f1, %f1, %f15;\n"
    "\tadd.f32 %f1, %f1, %f16;\n"
    "\tsetp.eq.f32 %p2, %f1, 0f7F7FFFFF;\n"
    "\t@%p2 st.global.f32 [%rd1], %f1;\n"
    "\tret;\n"
    "}\n";

typedef int CUresult;
typedef int CUdevice;
typedef uint64_t CUdeviceptr;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream, *CUevent;

enum {
  kAttrMultiprocessors = 16,
  kAttrMajor = 75,
  kAttrMinor = 76,
  kThreadsPerBlock = 256,
  kBlocksPerMultiprocessor = 8,
};

#define DLC_PEAK_FUNCTIONS(X)                                                  \
  X(cuInit, "cuInit", (unsigned))                                              \
  X(cuDeviceGet, "cuDeviceGet", (CUdevice *, int))                             \
  X(cuDeviceGetName, "cuDeviceGetName", (char *, int, CUdevice))               \
  X(cuDeviceTotalMem, "cuDeviceTotalMem_v2", (size_t *, CUdevice))             \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute", (int *, int, CUdevice))      \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",                      \
    (CUcontext *, CUdevice))                                                   \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", (CUdevice))     \
  X(cuCtxPushCurrent, "cuCtxPushCurrent_v2", (CUcontext))                      \
  X(cuCtxPopCurrent, "cuCtxPopCurrent_v2", (CUcontext *))                      \
  X(cuStreamCreate, "cuStreamCreate", (CUstream *, unsigned))                  \
  X(cuStreamDestroy, "cuStreamDestroy_v2", (CUstream))                         \
  X(cuStreamSynchronize, "cuStreamSynchronize", (CUstream))                    \
  X(cuMemAlloc, "cuMemAlloc_v2", (CUdeviceptr *, size_t))                      \
  X(cuMemFree, "cuMemFree_v2", (CUdeviceptr))                                  \
  X(cuMemHostAlloc, "cuMemHostAlloc", (void **, size_t, unsigned))             \
  X(cuMemFreeHost, "cuMemFreeHost", (void *))                                  \
  X(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2",                                 \
    (CUdeviceptr, const void *, size_t, CUstream))                             \
  X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2",                                 \
    (CUdeviceptr, CUdeviceptr, size_t, CUstream))                              \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx",                                  \
    (CUmodule *, const void *, unsigned, int *, void **))                      \
  X(cuModuleUnload, "cuModuleUnload", (CUmodule))                              \
  X(cuModuleGetFunction, "cuModuleGetFunction",                                \
    (CUfunction *, CUmodule, const char *))                                    \
  X(cuLaunchKernel, "cuLaunchKernel",                                          \
    (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,   \
     unsigned, CUstream, void **, void **))                                    \
  X(cuEventCreate, "cuEventCreate", (CUevent *, unsigned))                     \
  X(cuEventRecord, "cuEventRecord", (CUevent, CUstream))                       \
  X(cuEventElapsedTime, "cuEventElapsedTime_v2", (float *, CUevent, CUevent))  \
  X(cuEventDestroy, "cuEventDestroy_v2", (CUevent))

typedef struct driver {
  void *library;
#define DLC_DECLARE(field, symbol, params) CUresult(*field) params;
  DLC_PEAK_FUNCTIONS(DLC_DECLARE)
#undef DLC_DECLARE
  CUstream stream;
  CUevent start, stop;
} driver;

static void note(dlc_gpu_peaks *out, const char *format, ...) {
  size_t used = strlen(out->error);
  if (used + 2 >= sizeof out->error)
    return;
  if (used)
    used += (size_t)snprintf(out->error + used, sizeof out->error - used, "; ");
  va_list args;
  va_start(args, format);
  vsnprintf(out->error + used, sizeof out->error - used, format, args);
  va_end(args);
}

/* Seconds between the events around the work `enqueue` queued; <= 0 when
 * it failed or took no measurable time. */
typedef CUresult (*work_fn)(driver *d, void *ctx);
static double timed(driver *d, work_fn enqueue, void *ctx) {
  float ms = 0;
  if (d->cuEventRecord(d->start, d->stream) != 0 || enqueue(d, ctx) != 0 ||
      d->cuEventRecord(d->stop, d->stream) != 0 ||
      d->cuStreamSynchronize(d->stream) != 0 ||
      d->cuEventElapsedTime(&ms, d->start, d->stop) != 0)
    return -1;
  return ms / 1e3;
}

typedef struct copies {
  CUdeviceptr dst, src_device;
  const void *src_host;
  size_t bytes;
  int repeats;
} copies;

static CUresult copy_to_device(driver *d, void *ctx) {
  copies *c = ctx;
  for (int i = 0; i < c->repeats; ++i) {
    CUresult r =
        c->src_host
            ? d->cuMemcpyHtoDAsync(c->dst, c->src_host, c->bytes, d->stream)
            : d->cuMemcpyDtoDAsync(c->dst, c->src_device, c->bytes, d->stream);
    if (r != 0)
      return r;
  }
  return 0;
}

typedef struct launches {
  CUfunction function;
  unsigned blocks, threads;
  int repeats;
  CUdeviceptr out;
  unsigned iters;
} launches;

static CUresult launch(driver *d, void *ctx) {
  launches *l = ctx;
  void *params[] = {&l->out, &l->iters};
  for (int i = 0; i < l->repeats; ++i) {
    CUresult r =
        d->cuLaunchKernel(l->function, l->blocks, 1, 1, l->threads, 1, 1, 0,
                          d->stream, l->out ? params : NULL, NULL);
    if (r != 0)
      return r;
  }
  return 0;
}

/* A kernel's FLOP rate: `flops_per_iter` per thread and loop iteration
 * (FMA chains) or per warp (mma), its loop sized to take about 30 ms. */
static double flop_rate(driver *d, launches *l, double flops_per_iter,
                        int per_warp) {
  l->iters = 64;
  double t = timed(d, launch, l);
  if (t <= 0)
    return 0;
  double iters = 64 * 0.03 / t;
  l->iters = iters < 64 ? 64 : iters > (1 << 22) ? (1u << 22) : (unsigned)iters;
  t = timed(d, launch, l);
  if (t <= 0)
    return 0;
  double units = (double)l->blocks * l->threads / (per_warp ? 32 : 1);
  return units * l->iters * flops_per_iter / t;
}

static void measure(driver *d, CUdevice device, dlc_gpu_peaks *out) {
  int sms = 0;
  if (d->cuDeviceGetAttribute(&sms, kAttrMultiprocessors, device) != 0 ||
      sms < 1)
    sms = 1;
  out->multiprocessors = sms;
  /* Copies: 64 MiB each way. */
  size_t bytes = 64u << 20;
  CUdeviceptr a = 0, b = 0;
  void *pinned = NULL, *pageable = malloc(bytes);
  if (d->cuMemAlloc(&a, bytes) != 0 || d->cuMemAlloc(&b, bytes) != 0 ||
      !pageable) {
    note(out, "cannot allocate 2 x 64 MiB of device memory");
  } else {
    memset(pageable, 1, bytes);
    copies dd = {a, b, NULL, bytes, 20};
    double t = timed(d, copy_to_device, &dd);
    if (t > 0)
      out->bandwidth = 2.0 * bytes * dd.repeats / t;
    else
      note(out, "device copies could not be timed");
    copies hd = {a, 0, pageable, bytes, 3};
    t = timed(d, copy_to_device, &hd);
    if (t > 0)
      out->link_pageable = (double)bytes * hd.repeats / t;
    if (d->cuMemHostAlloc(&pinned, bytes, 0) == 0 && pinned) {
      memset(pinned, 1, bytes);
      hd.src_host = pinned;
      t = timed(d, copy_to_device, &hd);
      if (t > 0)
        out->link_pinned = (double)bytes * hd.repeats / t;
      copies small = {a, 0, pinned, 4, 100};
      t = timed(d, copy_to_device, &small);
      if (t > 0)
        out->link_latency = t / small.repeats;
    } else {
      note(out, "no page-locked host memory (cuMemHostAlloc failed)");
    }
    if (!out->link_pinned || !out->link_pageable)
      note(out, "host-to-device copies could not be timed");
  }
  /* Kernels. */
  CUmodule module = NULL;
  CUfunction empty = NULL, fma = NULL, mma = NULL;
  if (d->cuModuleLoadDataEx(&module, dlc_gpu_peaks_ptx, 0, NULL, NULL) != 0 ||
      d->cuModuleGetFunction(&empty, module, "dlc_peak_empty") != 0 ||
      d->cuModuleGetFunction(&fma, module, "dlc_peak_fma") != 0 ||
      d->cuModuleGetFunction(&mma, module, "dlc_peak_mma") != 0) {
    note(out, "the measurement kernels (sm_80 PTX) do not load on sm_%d",
         out->sm);
  } else {
    launches l = {empty, 1, 32, 1000, 0, 0};
    double t = timed(d, launch, &l);
    if (t > 0)
      out->launch = t / l.repeats;
    launches f = {
        fma, (unsigned)sms * kBlocksPerMultiprocessor, kThreadsPerBlock, 1, a,
        0};
    /* 32 FMAs (64 FLOPs) per thread and iteration. */
    out->fp32_flops = flop_rate(d, &f, 64, 0);
    /* Four m16n8k16 MMAs (4 x 4096 FLOPs) per warp and iteration. */
    launches m = f;
    m.function = mma;
    out->fp16_tensor_flops = flop_rate(d, &m, 4 * 4096.0, 1);
    if (!out->launch || !out->fp32_flops || !out->fp16_tensor_flops)
      note(out, "some kernels could not be timed");
  }
  if (module)
    d->cuModuleUnload(module);
  if (a)
    d->cuMemFree(a);
  if (b)
    d->cuMemFree(b);
  if (pinned)
    d->cuMemFreeHost(pinned);
  free(pageable);
}

int dlc_measure_gpu_peaks(int device_ordinal, dlc_gpu_peaks *out) {
  memset(out, 0, sizeof *out);
  driver d;
  memset(&d, 0, sizeof d);
  const char *path = getenv("DLC_CUDA_DRIVER");
  path = path && *path ? path : "libcuda.so.1";
  d.library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!d.library) {
    const char *why = dlerror();
    note(out, "no CUDA driver: cannot load %s (%s)", path,
         why ? why : "unknown error");
    return 1;
  }
  /* Drivers before CUDA 12.8 export cuEventElapsedTime without _v2. */
#define DLC_RESOLVE(field, symbol, params)                                     \
  *(void **)(&d.field) = dlsym(d.library, symbol);                             \
  if (!d.field && strcmp(symbol, "cuEventElapsedTime_v2") == 0)                \
    *(void **)(&d.field) = dlsym(d.library, "cuEventElapsedTime");             \
  if (!d.field) {                                                              \
    note(out, "no CUDA driver: %s lacks %s", path, symbol);                    \
    dlclose(d.library);                                                        \
    return 1;                                                                  \
  }
  DLC_PEAK_FUNCTIONS(DLC_RESOLVE)
#undef DLC_RESOLVE
  CUdevice device = 0;
  CUcontext context = NULL;
  int major = 0, minor = 0;
  size_t total = 0;
  if (d.cuInit(0) != 0 || d.cuDeviceGet(&device, device_ordinal) != 0 ||
      d.cuDevicePrimaryCtxRetain(&context, device) != 0) {
    note(out, "no CUDA device %d", device_ordinal);
    dlclose(d.library);
    return 1;
  }
  d.cuDeviceGetName(out->name, (int)sizeof out->name, device);
  d.cuDeviceGetAttribute(&major, kAttrMajor, device);
  d.cuDeviceGetAttribute(&minor, kAttrMinor, device);
  out->sm = 10 * major + minor;
  if (d.cuDeviceTotalMem(&total, device) == 0)
    out->memory_bytes = (double)total;
  if (d.cuCtxPushCurrent(context) == 0) {
    if (d.cuStreamCreate(&d.stream, 1) == 0 &&
        d.cuEventCreate(&d.start, 0) == 0 && d.cuEventCreate(&d.stop, 0) == 0)
      measure(&d, device, out);
    else
      note(out, "cannot create a stream and events");
    if (d.start)
      d.cuEventDestroy(d.start);
    if (d.stop)
      d.cuEventDestroy(d.stop);
    if (d.stream)
      d.cuStreamDestroy(d.stream);
    CUcontext popped;
    d.cuCtxPopCurrent(&popped);
  }
  d.cuDevicePrimaryCtxRelease(device);
  dlclose(d.library);
  return 0;
}
