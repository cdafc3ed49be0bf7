//===- CostModel.cpp - roofline predictions of kernels on devices ---------===//
#include "codegen/common/CostModel.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>

using namespace dlc;

llvm::StringRef dlc::figureSourceName(FigureSource source) {
  switch (source) {
  case FigureSource::Measured:
    return "measured";
  case FigureSource::Given:
    return "given";
  case FigureSource::Datasheet:
    return "datasheet";
  case FigureSource::Estimate:
    return "estimate";
  }
  return "estimate";
}

llvm::StringRef dlc::boundName(Bound bound) {
  switch (bound) {
  case Bound::Compute:
    return "compute";
  case Bound::Memory:
    return "memory";
  case Bound::Launch:
    return "launch";
  case Bound::Unknown:
    return "unknown";
  }
  return "unknown";
}

/// The fraction of the FLOP peak dlc's kernels attain by class (indexed by
/// KernelKind): contractions and convolutions run register-blocked FMA
/// loops; elementwise and reduction kernels are scalar-heavy bodies (exp,
/// erf, divisions) whose FLOPs cost several instructions each.
static std::vector<double> cpuEfficiency() {
  return {/*Convolution=*/0.75, /*Contraction=*/0.75,
          /*Reduction=*/0.15,
          /*Elementwise=*/0.15, /*DataMovement=*/1.0,
          /*Other=*/0.15};
}
static std::vector<double> gpuEfficiency() {
  return {/*Convolution=*/0.4,  /*Contraction=*/0.5,
          /*Reduction=*/0.25,
          /*Elementwise=*/0.25, /*DataMovement=*/1.0,
          /*Other=*/0.25};
}

DevicePeaks dlc::estimatedCpuPeaks(unsigned vectorLanes, unsigned threads) {
  DevicePeaks cpu;
  cpu.name = "host CPU";
  cpu.threads = std::max(1u, threads);
  // Two FMA pipes at 3 GHz, 2 FLOPs per lane per FMA, per thread; about
  // 15 GB/s of memory bandwidth per thread, up to 60.
  cpu.flops = {2.0 * 2 * vectorLanes * 3e9 * cpu.threads,
               FigureSource::Estimate};
  cpu.bandwidth = {std::min(60e9, 15e9 * cpu.threads), FigureSource::Estimate};
  // A parallel region's fork and join (OpenMP) per kernel; none on one
  // thread.
  cpu.launch = {2e-6, FigureSource::Estimate};
  // A run's entry, its checks and, with threads, the OpenMP team's wake-up.
  cpu.runCost = {cpu.threads > 1 ? 8e-6 : 1e-6, FigureSource::Estimate};
  cpu.saturation = {double(cpu.threads), FigureSource::Estimate};
  cpu.efficiency = cpuEfficiency();
  cpu.serialFlops = {cpu.flops.value / cpu.threads, FigureSource::Estimate};
  cpu.serialBandwidth = {15e9, FigureSource::Estimate};
  // dlc-cpu-openmp-threads' thresholds: 20000 vector operations or 64k
  // elements moved.
  cpu.parallelFlops = 20000.0 * 2 * vectorLanes;
  cpu.parallelBytes = 65536.0 * 4;
  cpu.cacheBytes = {512.0 * 1024, FigureSource::Estimate};
  cpu.cacheBandwidth = {100e9, FigureSource::Estimate};
  return cpu;
}

std::optional<DevicePeaks> dlc::datasheetGpuPeaks(llvm::StringRef name) {
  struct Sheet {
    const char *key, *name;
    double flops, bandwidth, memory, link;
    int sms;
  };
  // FP32 (not tensor-core) rates, memory bandwidth and size, PCIe link
  // (what a pinned copy attains, about 85% of the bus rate).
  static const Sheet sheets[] = {
      {"h200", "NVIDIA H200 SXM", 67e12, 4.8e12, 141e9, 55e9, 132},
      {"h100", "NVIDIA H100 SXM", 67e12, 3.35e12, 80e9, 55e9, 132},
      {"a100", "NVIDIA A100 SXM 80GB", 19.5e12, 2.0e12, 80e9, 25e9, 108},
  };
  std::string key = name.lower();
  for (const Sheet &s : sheets) {
    if (key != s.key)
      continue;
    DevicePeaks gpu;
    gpu.name = s.name;
    gpu.gpu = true;
    gpu.flops = {s.flops, FigureSource::Datasheet};
    gpu.bandwidth = {s.bandwidth, FigureSource::Datasheet};
    gpu.memory = {s.memory, FigureSource::Datasheet};
    gpu.link = {s.link, FigureSource::Datasheet};
    // Launch and transfer latencies are typical driver figures, not a
    // datasheet's.
    gpu.launch = {4e-6, FigureSource::Estimate};
    gpu.linkLatency = {10e-6, FigureSource::Estimate};
    // Threads in flight: 2048 per multiprocessor.
    gpu.saturation = {double(s.sms) * 2048, FigureSource::Datasheet};
    gpu.efficiency = gpuEfficiency();
    return gpu;
  }
  return std::nullopt;
}

KernelTime dlc::predictKernel(const KernelCost &kernel,
                              const DevicePeaks &device, double scale,
                              bool weightsCached) {
  KernelTime t;
  if (!kernel.unknownFlops.empty() || !kernel.unknownBytes.empty()) {
    t.known = false;
    t.bound = Bound::Unknown;
  }
  double flops = kernel.flops * scale;
  double activations = (kernel.bytesRead + kernel.bytesWritten) * scale;
  double weights = kernel.weightBytes;
  // Work spread over fewer items than the device runs at once leaves the
  // rest idle.
  double parallelism = kernel.parallelism * scale;
  // dlc's GPU reductions run a warp per output, its lanes striding over the
  // reduced elements (dlc-gpu-select-strategy's `reduction` kind).
  if (device.gpu && kernel.kind == KernelKind::Reduction)
    parallelism *= std::clamp(kernel.reductionExtent, 1.0, 32.0);
  double fill = device.saturation.value > 0
                    ? std::min(1.0, parallelism / device.saturation.value)
                    : 1.0;
  double efficiency = 1.0;
  size_t kind = size_t(kernel.kind);
  if (kind < device.efficiency.size())
    efficiency = device.efficiency[kind];

  if (device.gpu) {
    double rate = device.flops.value * efficiency * fill;
    double bandwidth = device.bandwidth.value * fill;
    t.compute = rate > 0 ? flops / rate : 0;
    t.memory = bandwidth > 0 ? (activations + weights) / bandwidth : 0;
    t.fixed = device.launch.value * kernel.trips;
  } else {
    // Small kernels run on one thread, without a fork and join.
    bool parallel =
        device.threads > 1 &&
        (flops >= device.parallelFlops * kernel.trips ||
         activations + weights >= device.parallelBytes * kernel.trips);
    double threads =
        parallel ? std::min<double>(device.threads, std::max(1.0, parallelism))
                 : 1.0;
    double rate = parallel ? device.flops.value * threads / device.threads
                           : device.serialFlops.value;
    double dram =
        parallel ? device.bandwidth.value : device.serialBandwidth.value;
    double cache = device.cacheBandwidth.value * threads;
    double cacheBytes = device.cacheBytes.value * threads;
    auto rateFor = [&](bool cached) {
      return cached && cache > 0 ? cache : dram;
    };
    double actRate = rateFor(activations / kernel.trips <= cacheBytes);
    double weightRate = rateFor(weightsCached);
    t.compute = rate > 0 ? flops / (rate * efficiency) : 0;
    t.memory = (actRate > 0 ? activations / actRate : 0) +
               (weightRate > 0 ? weights / weightRate : 0);
    t.fixed = parallel ? device.launch.value * kernel.trips : 0;
  }
  t.seconds = std::max(t.compute, t.memory) + t.fixed;
  if (t.known) {
    if (t.fixed >= std::max(t.compute, t.memory))
      t.bound = Bound::Launch;
    else
      t.bound = t.compute >= t.memory ? Bound::Compute : Bound::Memory;
  }
  return t;
}

bool dlc::weightsStayCached(const ProgramSizes &sizes,
                            const DevicePeaks &device) {
  return !device.gpu && device.cacheBytes.value > 0 &&
         sizes.weightBytes <= device.cacheBytes.value * device.threads;
}

RunPrediction dlc::predictRun(const ProgramCosts &costs,
                              const ProgramSizes &sizes,
                              const DevicePeaks &device, double batch) {
  RunPrediction run;
  run.batch = batch;
  double scale = batch / std::max(1.0, sizes.countedBatch);
  bool cached = weightsStayCached(sizes, device);
  for (const KernelCost &kernel : costs.kernels) {
    KernelTime t = predictKernel(kernel, device, scale, cached);
    run.seconds += t.seconds;
    run.unknownKernels += !t.known;
  }
  run.seconds += device.runCost.value;
  if (device.gpu) {
    run.transferBytes = (sizes.inputBytes + sizes.outputBytes) * scale;
    run.transferSeconds =
        (device.link.value > 0 ? run.transferBytes / device.link.value : 0) +
        2 * device.linkLatency.value;
    run.memoryBytes =
        sizes.weightBytes +
        (sizes.workspaceBytes + sizes.inputBytes + sizes.outputBytes) * scale;
    run.fits =
        device.memory.value <= 0 || run.memoryBytes <= device.memory.value;
  }
  return run;
}

int64_t dlc::maxBatchThatFits(const ProgramSizes &sizes, const DevicePeaks &gpu,
                              int64_t limit) {
  if (gpu.memory.value <= 0)
    return limit;
  double perSample =
      (sizes.workspaceBytes + sizes.inputBytes + sizes.outputBytes) /
      std::max(1.0, sizes.countedBatch);
  double room = gpu.memory.value - sizes.weightBytes;
  if (room < perSample)
    return 0;
  if (perSample <= 0)
    return limit;
  return std::min<int64_t>(limit, int64_t(std::floor(room / perSample)));
}

int64_t dlc::subBatchesToFit(const ProgramSizes &sizes, const DevicePeaks &gpu,
                             int64_t batch) {
  int64_t fit = maxBatchThatFits(sizes, gpu, batch);
  if (fit <= 0)
    return 0;
  for (int64_t parts = 1; parts <= batch; ++parts)
    if (batch % parts == 0 && batch / parts <= fit)
      return parts;
  return 0;
}

std::optional<int64_t> dlc::crossoverBatch(const ProgramCosts &costs,
                                           const ProgramSizes &sizes,
                                           const DevicePeaks &cpu,
                                           const DevicePeaks &gpu,
                                           int64_t limit) {
  int64_t fit = std::min(limit, maxBatchThatFits(sizes, gpu, limit));
  for (int64_t b = 1; b <= fit; ++b) {
    RunPrediction onCpu = predictRun(costs, sizes, cpu, double(b));
    RunPrediction onGpu = predictRun(costs, sizes, gpu, double(b));
    if (onGpu.seconds + onGpu.transferSeconds < onCpu.seconds)
      return b;
  }
  return std::nullopt;
}
