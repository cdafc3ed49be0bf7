//===- CostModel.h - roofline predictions of kernels on devices --*- C++
//-*-===//
//
// What a device can do (its peaks, each with where the figure came from)
// and what a program's kernels (KernelCosts.h) are predicted to take on it:
// per kernel the larger of its compute time (FLOPs over the attainable
// FLOP rate) and its memory time (bytes over the memory bandwidth), plus a
// fixed cost per kernel (a GPU launch, a CPU parallel region); per run the
// sum, and for a GPU the transfers of inputs and outputs over the host
// link. A kernel with fewer independent work items than the device needs
// to fill itself (its parallelism) gets that fraction of the peak.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_CODEGEN_COMMON_COSTMODEL_H
#define DLC_CODEGEN_COMMON_COSTMODEL_H

#include "codegen/common/KernelCosts.h"

#include <optional>
#include <string>
#include <vector>

namespace dlc {

/// Where a figure comes from.
enum class FigureSource { Measured, Given, Datasheet, Estimate };
llvm::StringRef figureSourceName(FigureSource source);

struct Figure {
  double value = 0;
  FigureSource source = FigureSource::Estimate;
};

struct DevicePeaks {
  std::string name;
  bool gpu = false;
  /// Threads the CPU figures are for (1 for a GPU).
  unsigned threads = 1;
  Figure flops;     // FP32 FLOP/s
  Figure bandwidth; // bytes/s between memory and the cores
  Figure launch;    // seconds of fixed cost per kernel
  Figure runCost;   // seconds of fixed cost per run (CPU: waking threads)
  /// Independent work items (parallel iterations) the device needs in
  /// flight to reach its peaks.
  Figure saturation;
  /// GPU only: device memory in bytes, and the host link's bandwidth
  /// (bytes/s, pinned host memory) and latency per transfer (seconds).
  Figure memory, link, linkLatency;
  /// GPU only, recorded beside the others (the cost model predicts fp32
  /// kernels from `flops` and transfers from `link`): the FP16 tensor-core
  /// rate (mma.sync, fp32 accumulation) and the link from pageable memory.
  Figure tensorFlops, linkPageable;
  /// The fraction of the FLOP peak dlc's kernels of each class attain
  /// (indexed by KernelKind).
  std::vector<double> efficiency;
  /// CPU only: the one-thread figures, for kernels too small to be spread
  /// over the threads (dlc-cpu-openmp-threads runs them on one), and the
  /// FLOPs or bytes from which a kernel is spread.
  Figure serialFlops, serialBandwidth;
  double parallelFlops = 0, parallelBytes = 0;
  /// CPU only: the cache of one thread (bytes) and its bandwidth per
  /// thread: a kernel whose activations fit in the cache of the threads
  /// it runs on reads and writes them at that rate, and weights that fit
  /// whole stay there between runs.
  Figure cacheBytes, cacheBandwidth;
};

/// Peaks of the host CPU at `threads` threads from its vector width (in
/// 32-bit lanes) when nothing was measured: rough, marked as estimates.
DevicePeaks estimatedCpuPeaks(unsigned vectorLanes, unsigned threads);
/// Datasheet figures of an NVIDIA GPU by name ("h100", "h200", "a100").
std::optional<DevicePeaks> datasheetGpuPeaks(llvm::StringRef name);

/// How a kernel's time is bounded.
enum class Bound { Compute, Memory, Launch, Unknown };
llvm::StringRef boundName(Bound bound);

struct KernelTime {
  double seconds = 0;
  double compute = 0, memory = 0, fixed = 0;
  Bound bound = Bound::Unknown;
  bool known = true;
};

/// Costs scaled to a batch: FLOPs, activations and parallelism grow with
/// `scale` (the batch over the batch the costs were counted at), weights
/// do not. `weightsCached`: the program's weights fit in the cache.
KernelTime predictKernel(const KernelCost &kernel, const DevicePeaks &device,
                         double scale, bool weightsCached = false);

struct RunPrediction {
  double batch = 1;
  double seconds = 0;         // all kernels
  double transferSeconds = 0; // GPU: inputs in and outputs out, per run
  double transferBytes = 0;
  double memoryBytes = 0; // GPU: weights + workspace + inputs and outputs
  bool fits = true;
  unsigned unknownKernels = 0;
};

/// What a run's inputs and outputs and intermediate tensors take.
struct ProgramSizes {
  double inputBytes = 0, outputBytes = 0; // at the counted batch
  double weightBytes = 0;
  double workspaceBytes = 0; // at the counted batch
  double countedBatch = 1;
};

RunPrediction predictRun(const ProgramCosts &costs, const ProgramSizes &sizes,
                         const DevicePeaks &device, double batch);

/// Whether the program's weights stay in the device's cache between runs.
bool weightsStayCached(const ProgramSizes &sizes, const DevicePeaks &device);

/// The largest batch whose weights, workspace and inputs and outputs fit in
/// the device's memory (0: not even one sample; capped at `limit`).
int64_t maxBatchThatFits(const ProgramSizes &sizes, const DevicePeaks &gpu,
                         int64_t limit);

/// The fewest sub-batches (a divisor of `batch`) whose predicted memory
/// fits in the device's: 1 when the whole batch fits, 0 when not even one
/// sample does (as `dlc compile --gpu-memory` plans a static batch).
int64_t subBatchesToFit(const ProgramSizes &sizes, const DevicePeaks &gpu,
                        int64_t batch);

/// The smallest batch (up to `limit`) at which the GPU with its transfers
/// is predicted faster than the CPU, if any.
std::optional<int64_t> crossoverBatch(const ProgramCosts &costs,
                                      const ProgramSizes &sizes,
                                      const DevicePeaks &cpu,
                                      const DevicePeaks &gpu, int64_t limit);

} // namespace dlc

#endif
