/*===- gpu_peaks.h - measure a GPU's peaks through the CUDA driver -*- C -*-===*
 *
 * Shared by `dlc analyze --measure-peaks` and the gpu-check bundle's
 * `peaks` program (which runs on a GPU machine without dlc): opens the
 * driver with dlopen (DLC_CUDA_DRIVER overrides the path, as for the
 * runtime) and measures device 0's figures in about a second.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DLC_GPU_PEAKS_H
#define DLC_GPU_PEAKS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dlc_gpu_peaks {
  char name[256];
  int sm; /* 10 * major + minor */
  int multiprocessors;
  double memory_bytes;
  /* FP32 FMA rate (FLOP/s, 2 per FMA) of a kernel of independent FMA
   * chains on every multiprocessor; FP16 tensor-core rate of mma.sync
   * m16n8k16 with FP32 accumulation (sm_80 and newer; 0 elsewhere). */
  double fp32_flops, fp16_tensor_flops;
  /* Device memory: a device-to-device copy, bytes read plus written per
   * second. */
  double bandwidth;
  /* Host to device, bytes per second, from page-locked and from pageable
   * memory (64 MiB copies), and the time of a 4-byte copy in seconds. */
  double link_pinned, link_pageable, link_latency;
  /* Seconds per kernel launch of an empty kernel, launched back to back. */
  double launch;
  /* Set when a measurement failed (no driver or device: nothing else is
   * set). */
  char error[512];
} dlc_gpu_peaks;

/* Measures `device`; returns 0 when it was measured (figures that could not
 * be measured are 0 and `error` says why), nonzero when there is no
 * usable driver or device (`error` says which). */
int dlc_measure_gpu_peaks(int device, dlc_gpu_peaks *out);

/* The PTX of the measurement kernels (sm_80), for tests that assemble it. */
extern const char dlc_gpu_peaks_ptx[];

#ifdef __cplusplus
}
#endif

#endif
