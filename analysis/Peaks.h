//===- Peaks.h - this machine's peaks: measured, read, written ---*- C++
//-*-===//
#ifndef DLC_ANALYSIS_PEAKS_H
#define DLC_ANALYSIS_PEAKS_H

#include "codegen/common/CostModel.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <string>

namespace dlc {

/// A CPU's figures at one thread count.
struct CpuThreadPeaks {
  Figure flops, bandwidth;
};

/// What `dlc analyze` knows of the machines: the CPU at each thread count
/// measured or given, and a GPU.
struct MachinePeaks {
  std::string cpuName, cpuIsa;
  std::map<unsigned, CpuThreadPeaks> cpu;
  std::optional<Figure> cpuLaunch, cpuRunCost;
  /// Given fractions of the FLOP peak per kernel class (by
  /// kernelKindName), replacing the built-in ones.
  std::map<std::string, double> cpuEfficiency;
  /// One thread's cache (bytes) and its copy bandwidth.
  std::optional<Figure> cacheBytes, cacheBandwidth;
  std::optional<DevicePeaks> gpu;
};

/// Measures the host CPU's FP32 FMA rate and memory bandwidth (a copy,
/// bytes read plus written) on 1, 2, 4, ... and maxThreads threads, a few
/// tenths of a second each.
MachinePeaks measureCpuPeaks(unsigned maxThreads);

/// Measures GPU 0's figures (tools/gpu-peaks: FP32 and FP16 tensor-core
/// rates, device bandwidth, the host link from page-locked and pageable
/// memory and its latency, launch latency, memory), marked measured, over
/// the datasheet figures of the nearest known GPU for the rest; nullopt
/// with the reason in `why` when there is no usable driver or device.
std::optional<DevicePeaks> measureGpuPeaks(std::string &why);

/// The CPU's peaks at `threads` threads: measured or given figures where
/// `peaks` has them at that count, else scaled from a smaller count, else
/// estimated from `vectorLanes`.
DevicePeaks cpuPeaksAt(const MachinePeaks &peaks, unsigned threads,
                       unsigned vectorLanes);

llvm::json::Value peaksToJson(const MachinePeaks &peaks);
/// `dlc analyze --measure-peaks`'s text: the CPU's figures per thread count
/// and its cache, then the GPU's (each figure "not measured" where it was
/// not), or why no GPU was measured (`gpuWhy`).
void printPeaks(llvm::raw_ostream &os, const MachinePeaks &peaks,
                llvm::StringRef gpuWhy);
/// Reads a peaks file (as written by `dlc analyze --measure-peaks --json`,
/// or by hand); figures without a "source" are "given".
bool readPeaksFile(llvm::StringRef path, MachinePeaks &peaks,
                   std::string &error);

llvm::json::Value figureToJson(const Figure &figure);

} // namespace dlc

#endif
