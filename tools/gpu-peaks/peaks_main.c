/*===- peaks_main.c - a GPU's peaks as a dlc peaks file ------------------===*
 *
 *   peaks [--ptx]
 *
 * Measures GPU 0 (gpu_peaks.c) and prints its figures as the "cuda" part
 * of a peaks file that `dlc analyze --peaks FILE` reads, each marked
 * measured; --ptx prints the measurement kernels' PTX instead. Built by
 * scripts/gpu-check.sh on the GPU machine, which has no dlc. Exits 2 when
 * there is no GPU, after saying why.
 *
 *===----------------------------------------------------------------------===*/
#include "gpu_peaks.h"

#include <stdio.h>
#include <string.h>

static void figure(const char *key, double value, int *first) {
  if (value <= 0)
    return;
  printf("%s\n    \"%s\": {\"value\": %.6g, \"source\": \"measured\"}",
         *first ? "" : ",", key, value);
  *first = 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--ptx") == 0) {
    fputs(dlc_gpu_peaks_ptx, stdout);
    return 0;
  }
  if (argc > 1) {
    fprintf(stderr, "usage: peaks [--ptx]\n");
    return 2;
  }
  dlc_gpu_peaks p;
  if (dlc_measure_gpu_peaks(0, &p) != 0) {
    fprintf(stderr, "peaks: %s\n", p.error);
    return 2;
  }
  printf("{\n  \"cuda\": {\n    \"name\": \"");
  for (const char *c = p.name; *c; ++c)
    if (*c != '"' && *c != '\\' && (unsigned char)*c >= 32)
      putchar(*c);
  printf("\"");
  int first = 0;
  figure("flops", p.fp32_flops, &first);
  figure("tensor_flops", p.fp16_tensor_flops, &first);
  figure("bandwidth", p.bandwidth, &first);
  figure("memory", p.memory_bytes, &first);
  figure("link", p.link_pinned, &first);
  figure("link_pageable", p.link_pageable, &first);
  figure("link_latency", p.link_latency, &first);
  figure("launch", p.launch, &first);
  printf("\n  },\n  \"note\": \"sm_%d, %d multiprocessors%s%s\"\n}\n", p.sm,
         p.multiprocessors, p.error[0] ? "; " : "", p.error);
  return 0;
}
