//===- Analyze.cpp - `dlc analyze`: costs and CPU-vs-GPU advice -----------===//
#include "analysis/Analyze.h"

#include "analysis/AnalyzeReport.h"
#include "codegen/common/CostModel.h"
#include "codegen/common/KernelCosts.h"
#include "codegen/cpu/Target.h"
#include "compiler/Diagnostics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace llvm;
using namespace dlc;

namespace {

/// The largest batch the crossover and fit searches consider.
constexpr int64_t kBatchLimit = 65536;

/// 1234567 -> "1.23M".
std::string human(double v, StringRef unit = "") {
  const char *suffix[] = {"", "k", "M", "G", "T", "P"};
  int i = 0;
  while (std::fabs(v) >= 1000 && i < 5) {
    v /= 1000;
    ++i;
  }
  return formatv("{0:f2}{1}{2}", v, suffix[i], unit).str();
}

std::string ms(double seconds) { return formatv("{0:f3}", seconds * 1e3); }

/// What was counted, and at which batch.
struct Analysis {
  ProgramCosts costs;
  ProgramSizes sizes;
  std::string batchDim; // the model's symbolic batch; empty: static
};

json::Value kernelJson(const KernelCost &k, unsigned index, double scale,
                       const AnalyzeOptions &options, const DevicePeaks &cpu) {
  json::Object o{{"index", int64_t(index)},
                 {"kind", kernelKindName(k.kind)},
                 {"ops", int64_t(k.numOps)},
                 {"nodes", json::Array(k.nodes)}};
  if (k.unknownFlops.empty()) {
    o["flops"] = k.flops * scale;
    o["macs"] = k.macs * scale;
  } else {
    o["flops"] = nullptr;
    o["flops_unknown"] = k.unknownFlops;
  }
  if (k.unknownBytes.empty()) {
    double bytes = (k.bytesRead + k.bytesWritten) * scale + k.weightBytes;
    o["bytes"] = bytes;
    o["bytes_read"] = k.bytesRead * scale;
    o["weight_bytes"] = k.weightBytes;
    o["bytes_written"] = k.bytesWritten * scale;
    if (k.unknownFlops.empty() && bytes > 0)
      o["intensity"] = k.flops * scale / bytes;
  } else {
    o["bytes"] = nullptr;
    o["bytes_unknown"] = k.unknownBytes;
  }
  o["parallelism"] = k.parallelism * scale;
  o["trips"] = k.trips;
  auto device = [&](const DevicePeaks &d) {
    KernelTime t = predictKernel(k, d, scale);
    json::Object p{{"bound", boundName(t.bound)}};
    if (t.known)
      p["ms"] = t.seconds * 1e3;
    else
      p["ms"] = nullptr;
    return p;
  };
  if (options.cpu)
    o["cpu"] = device(cpu);
  if (options.cuda) {
    json::Object g = device(options.gpu);
    // Kernels without parallel loops run on one GPU thread (dlc's CUDA
    // lowering of full reductions to a scalar).
    g["lowering"] = k.parallelism > 1 || k.kind == KernelKind::DataMovement
                        ? "parallel"
                        : "one thread";
    o["cuda"] = std::move(g);
  }
  return o;
}

json::Value peaksJson(const DevicePeaks &d) {
  json::Object o{{"name", d.name},
                 {"flops", figureToJson(d.flops)},
                 {"bandwidth", figureToJson(d.bandwidth)},
                 {"launch", figureToJson(d.launch)},
                 {"run_cost", figureToJson(d.runCost)},
                 {"saturation", figureToJson(d.saturation)}};
  if (d.gpu) {
    o["memory"] = figureToJson(d.memory);
    o["link"] = figureToJson(d.link);
    o["link_latency"] = figureToJson(d.linkLatency);
  } else {
    o["threads"] = int64_t(d.threads);
  }
  json::Array efficiency;
  for (double e : d.efficiency)
    efficiency.push_back(e);
  o["efficiency_by_kind"] = std::move(efficiency);
  return o;
}

std::string describe(const DevicePeaks &d) {
  std::string s =
      formatv("{0}: {1} fp32 ({2}), {3} ({4}), {5} per kernel "
              "({6})",
              d.name, human(d.flops.value, "FLOP/s"),
              figureSourceName(d.flops.source), human(d.bandwidth.value, "B/s"),
              figureSourceName(d.bandwidth.source),
              formatv("{0:f1} us", d.launch.value * 1e6),
              figureSourceName(d.launch.source))
          .str();
  if (d.gpu)
    s += formatv(", {0} memory ({1}), host link {2} ({3})",
                 human(d.memory.value, "B"), figureSourceName(d.memory.source),
                 human(d.link.value, "B/s"), figureSourceName(d.link.source))
             .str();
  else
    s += formatv(", {0} thread(s)", d.threads).str();
  return s;
}

} // namespace

/// Compiles `model` to linalg for the CPU and counts the kernels of its
/// public functions into `costs`, the model's interface into `info`;
/// prints the errors and returns false when it cannot.
static bool countKernels(const std::string &model, CompileOptions compile,
                         ProgramCosts &costs, ModelInfo &info) {
  std::unique_ptr<mlir::MLIRContext> owned = createCompilerContext();
  mlir::MLIRContext &context = *owned;
  DiagnosticCollector diags(context);
  compile.target = dlc::Target::Cpu;
  bool counted = false;
  compile.inspectLinalg = [&](mlir::ModuleOp module, const ModelInfo &i) {
    for (auto func : module.getOps<mlir::func::FuncOp>()) {
      if (func.isExternal() || func.isPrivate())
        continue;
      ProgramCosts c = analyzeKernelCosts(func);
      costs.kernels.insert(costs.kernels.end(), c.kernels.begin(),
                           c.kernels.end());
      costs.weightBytes += c.weightBytes;
      costs.peakLiveBytes = std::max(costs.peakLiveBytes, c.peakLiveBytes);
    }
    info = i;
    counted = true;
  };
  CompiledModel result;
  if (succeeded(compileModel(context, model, compile, Stage::Linalg, nulls(),
                             result)) &&
      counted)
    return true;
  for (const dlc::CompileError &e : diags.errors())
    errs() << "dlc: error: " << e.str() << "\n";
  if (diags.errors().empty())
    errs() << "dlc: error: " << model << ": the analysis failed\n";
  return false;
}

bool dlc::countModelKernels(const std::string &model,
                            const CompileOptions &compile,
                            ProgramCosts &costs) {
  ModelInfo info;
  if (!countKernels(model, compile, costs, info))
    return false;
  // The ops lived in countKernels' context, which is gone.
  for (KernelCost &k : costs.kernels) {
    k.root = nullptr;
    k.ops.clear();
  }
  return true;
}

std::optional<dlc::AutoTarget> dlc::pickTarget(const std::string &model,
                                               const CompileOptions &compile,
                                               unsigned threads,
                                               const DevicePeaks &gpu) {
  ProgramCosts costs;
  ModelInfo info;
  CompileOptions cpuCompile = compile;
  cpuCompile.target = Target::Cpu;
  if (!countKernels(model, cpuCompile, costs, info))
    return std::nullopt;
  ProgramSizes sizes;
  for (const TensorInfo &t : info.inputs)
    sizes.inputBytes += double(t.sizeBytes);
  for (const TensorInfo &t : info.outputs)
    sizes.outputBytes += double(t.sizeBytes);
  sizes.weightBytes = costs.weightBytes;
  sizes.workspaceBytes = costs.peakLiveBytes;
  sizes.countedBatch = 1;
  unsigned lanes = 4;
  if (auto target = resolveCpuTarget(compile.mcpu, compile.mtriple))
    lanes = unsigned(target->vectorWidth);
  else
    consumeError(target.takeError());
  DevicePeaks cpu = cpuPeaksAt(MachinePeaks(), threads, lanes);
  RunPrediction c = predictRun(costs, sizes, cpu, 1);
  RunPrediction g = predictRun(costs, sizes, gpu, 1);
  double gpuTotal = g.seconds + g.transferSeconds;
  AutoTarget pick;
  if (c.unknownKernels || g.unknownKernels) {
    pick.reason = formatv("cpu: {0} kernels have no cost formula, so the "
                          "prediction cannot choose; the CPU runs every model",
                          std::max(c.unknownKernels, g.unknownKernels));
  } else if (!g.fits) {
    pick.reason = formatv(
        "cpu: the {0}'s {1} of memory cannot hold the {2} a run "
        "needs",
        gpu.name, human(gpu.memory.value, "B"), human(g.memoryBytes, "B"));
  } else if (gpuTotal < c.seconds) {
    pick.target = Target::Cuda;
    pick.reason = formatv("cuda: predicted {0} ms on the {1} with transfers "
                          "against {2} ms on this CPU at {3} thread(s)",
                          ms(gpuTotal), gpu.name, ms(c.seconds), threads);
  } else {
    pick.reason = formatv("cpu: predicted {0} ms on this CPU at {1} "
                          "thread(s) against {2} ms on the {3} with "
                          "transfers",
                          ms(c.seconds), threads, ms(gpuTotal), gpu.name);
  }
  return pick;
}

/// The "fits" column of a batch that does not fit whole: the sub-batches
/// `dlc compile --gpu-memory` would run it as.
static std::string subBatchesOf(const ProgramSizes &sizes,
                                const DevicePeaks &gpu, int64_t batch) {
  int64_t parts = subBatchesToFit(sizes, gpu, batch);
  if (parts == 0)
    return "no (not even one sample)";
  return formatv("no: {0} sub-batches of {1}", parts, batch / parts).str();
}

int dlc::runAnalyze(const AnalyzeOptions &options) {
  Analysis analysis;
  ModelInfo info;
  if (!countKernels(options.model, options.compile, analysis.costs, info))
    return 2;
  ProgramSizes &sizes = analysis.sizes;
  for (const TensorInfo &t : info.inputs)
    sizes.inputBytes += double(t.sizeBytes);
  for (const TensorInfo &t : info.outputs)
    sizes.outputBytes += double(t.sizeBytes);
  sizes.weightBytes = analysis.costs.weightBytes;
  sizes.workspaceBytes = analysis.costs.peakLiveBytes;
  analysis.batchDim = info.batchDim;
  // A symbolic batch is imported for one sample; a static model's batch is
  // taken to be its first input's first dimension.
  sizes.countedBatch = 1;
  if (info.batchDim.empty() && !info.inputs.empty() &&
      !info.inputs[0].shape.empty() && info.inputs[0].shape[0] > 0)
    sizes.countedBatch = double(info.inputs[0].shape[0]);

  const ProgramCosts &costs = analysis.costs;
  unsigned lanes = 4;
  if (auto target =
          resolveCpuTarget(options.compile.mcpu, options.compile.mtriple))
    lanes = unsigned(target->vectorWidth);
  else
    consumeError(target.takeError());
  DevicePeaks cpu = cpuPeaksAt(options.peaks, options.threads, lanes);
  const DevicePeaks &gpu = options.gpu;
  double firstBatch = double(options.batches.front());
  double scale = firstBatch / sizes.countedBatch;

  double flops = 0, macs = 0;
  unsigned unknown = 0;
  for (const KernelCost &k : costs.kernels) {
    if (!k.unknownFlops.empty()) {
      ++unknown;
      continue;
    }
    flops += k.flops * scale;
    macs += k.macs * scale;
  }

  std::vector<RunPrediction> onCpu, onGpu;
  for (int64_t b : options.batches) {
    if (options.cpu)
      onCpu.push_back(predictRun(costs, sizes, cpu, double(b)));
    if (options.cuda)
      onGpu.push_back(predictRun(costs, sizes, gpu, double(b)));
  }
  // --measure: the CPU's measured latency beside the prediction.
  std::vector<std::optional<double>> measured(options.batches.size());
  // The per-kernel calibration, at the first batch whose kernels were
  // profiled.
  std::optional<Calibration> calibration;
  if (options.measureCpu && options.cpu)
    for (size_t i = 0; i < options.batches.size(); ++i) {
      std::optional<AnalyzeOptions::CpuMeasurement> m =
          options.measureCpu(options.batches[i]);
      if (!m)
        return 1;
      measured[i] = m->seconds;
      if (!calibration && !m->kernels.empty()) {
        calibration = calibrate(costs, sizes, cpu,
                                double(options.batches[i]) / sizes.countedBatch,
                                m->kernels);
        calibration->batch = options.batches[i];
        calibration->runMean = m->meanSeconds;
      }
    }
  std::optional<int64_t> crossover;
  if (options.cpu && options.cuda)
    crossover = crossoverBatch(costs, sizes, cpu, gpu, kBatchLimit);
  std::optional<int64_t> maxFit;
  if (options.cuda)
    maxFit = maxBatchThatFits(sizes, gpu, kBatchLimit);

  // The verdict at the first batch.
  std::string verdict;
  if (options.cpu && options.cuda) {
    const RunPrediction &c = onCpu.front(), &g = onGpu.front();
    double gpuTotal = g.seconds + g.transferSeconds;
    if (!g.fits)
      verdict = formatv("batch {0}: CPU; the GPU's {1} of memory cannot hold "
                        "{2} at this batch",
                        options.batches.front(), human(gpu.memory.value, "B"),
                        human(g.memoryBytes, "B"));
    else if (gpuTotal < c.seconds)
      verdict = formatv("batch {0}: GPU, predicted {1:f1}x faster than the "
                        "CPU ({2} ms with transfers against {3} ms)",
                        options.batches.front(), c.seconds / gpuTotal,
                        ms(gpuTotal), ms(c.seconds));
    else
      verdict = formatv("batch {0}: CPU, predicted {1:f1}x faster than the "
                        "GPU with its transfers ({2} ms against {3} ms)",
                        options.batches.front(), gpuTotal / c.seconds,
                        ms(c.seconds), ms(gpuTotal));
    if (crossover)
      verdict += formatv("; the GPU wins from batch {0}", *crossover).str();
    else
      verdict += "; the GPU does not win at any batch that fits";
  }

  // JSON and HTML.
  if (!options.jsonPath.empty() || !options.htmlPath.empty()) {
    json::Array kernels;
    for (auto [i, k] : llvm::enumerate(costs.kernels))
      kernels.push_back(kernelJson(k, i, scale, options, cpu));
    json::Array batches;
    for (size_t i = 0; i < options.batches.size(); ++i) {
      json::Object b{{"batch", options.batches[i]}};
      if (options.cpu)
        b["cpu_ms"] = onCpu[i].seconds * 1e3;
      if (measured[i]) {
        b["cpu_measured_ms"] = *measured[i] * 1e3;
        b["cpu_predicted_over_measured"] = onCpu[i].seconds / *measured[i];
      }
      if (options.cuda) {
        b["cuda_ms"] = onGpu[i].seconds * 1e3;
        b["cuda_with_transfers_ms"] =
            (onGpu[i].seconds + onGpu[i].transferSeconds) * 1e3;
        b["transfer_bytes"] = onGpu[i].transferBytes;
        b["device_memory_bytes"] = onGpu[i].memoryBytes;
        b["fits"] = onGpu[i].fits;
        // A batch that does not fit runs as sub-batches that do (dlc
        // compile --gpu-memory); 0: not even one sample fits.
        b["sub_batches"] = subBatchesToFit(sizes, gpu, options.batches[i]);
      }
      batches.push_back(std::move(b));
    }
    json::Object summary{
        {"batch", options.batches.front()},
        {"flops", flops},
        {"macs", macs},
        {"flops_definition",
         "2 per multiply-add, 1 per other floating-point operation; "
         "kernels with unknown counts are not included"},
        {"unknown_kernels", int64_t(unknown)},
        {"kernel_count", int64_t(costs.kernels.size())},
        {"weight_bytes", sizes.weightBytes},
        {"workspace_bytes_per_sample",
         sizes.workspaceBytes / sizes.countedBatch},
        {"input_bytes_per_sample", sizes.inputBytes / sizes.countedBatch},
        {"output_bytes_per_sample", sizes.outputBytes / sizes.countedBatch},
        {"batch_dimension", analysis.batchDim.empty()
                                ? json::Value(nullptr)
                                : json::Value(analysis.batchDim)},
        {"batch_scaling", analysis.batchDim.empty()
                              ? "extrapolated from the static model's first "
                                "input dimension"
                              : "symbolic batch, counted for one sample"},
        {"crossover_batch",
         crossover ? json::Value(*crossover) : json::Value(nullptr)},
        {"max_batch_fit", maxFit ? json::Value(*maxFit) : json::Value(nullptr)},
        {"verdict", verdict}};
    json::Object devices;
    if (options.cpu)
      devices["cpu"] = peaksJson(cpu);
    if (options.cuda)
      devices["cuda"] = peaksJson(gpu);
    // Latency and memory at powers of two, for plots.
    json::Array curve;
    int64_t last =
        std::max<int64_t>(1024, *std::max_element(options.batches.begin(),
                                                  options.batches.end()));
    if (crossover)
      last = std::max(last, 4 * *crossover);
    last = std::min(last, kBatchLimit);
    for (int64_t b = 1; b <= last; b *= 2) {
      json::Object c{{"batch", b}};
      if (options.cpu)
        c["cpu_ms"] = predictRun(costs, sizes, cpu, double(b)).seconds * 1e3;
      if (options.cuda) {
        RunPrediction g = predictRun(costs, sizes, gpu, double(b));
        c["cuda_ms"] = g.seconds * 1e3;
        c["cuda_with_transfers_ms"] = (g.seconds + g.transferSeconds) * 1e3;
        c["device_memory_bytes"] = g.memoryBytes;
      }
      curve.push_back(std::move(c));
    }
    json::Object top{
        {"model", options.model},        {"summary", std::move(summary)},
        {"devices", std::move(devices)}, {"batches", std::move(batches)},
        {"curve", std::move(curve)},     {"kernels", std::move(kernels)}};
    if (calibration)
      top["calibration"] = calibrationToJson(*calibration, costs);
    if (!options.htmlPath.empty()) {
      std::error_code ec;
      raw_fd_ostream file(options.htmlPath, ec);
      if (ec) {
        errs() << "dlc: error: cannot write " << options.htmlPath << ": "
               << ec.message() << "\n";
        return 1;
      }
      file << renderAnalyzeHtml(top);
    }
    json::Value value(std::move(top));
    if (options.jsonPath.empty()) {
      // HTML only: the text report follows.
    } else if (options.jsonPath == "-") {
      outs() << formatv("{0:2}", value) << "\n";
      return 0;
    } else {
      std::error_code ec;
      raw_fd_ostream file(options.jsonPath, ec);
      if (ec) {
        errs() << "dlc: error: cannot write " << options.jsonPath << ": "
               << ec.message() << "\n";
        return 1;
      }
      file << formatv("{0:2}", value) << "\n";
    }
  }

  // Text.
  raw_ostream &os = outs();
  os << "dlc analyze: " << options.model << "\n";
  os << formatv("  {0} FLOPs at batch {1} (2 x {2} multiply-adds, plus "
                "elementwise operations) in {3} kernels",
                human(flops), options.batches.front(), human(macs),
                costs.kernels.size());
  if (unknown)
    os << formatv("; {0} kernel(s) with unknown FLOPs not counted", unknown);
  os << formatv("\n  weights {0}, intermediate tensors at most {1} alive per "
                "sample, inputs {2} and outputs {3} per sample\n",
                human(sizes.weightBytes, "B"),
                human(sizes.workspaceBytes / sizes.countedBatch, "B"),
                human(sizes.inputBytes / sizes.countedBatch, "B"),
                human(sizes.outputBytes / sizes.countedBatch, "B"));
  if (options.cpu)
    os << "  cpu  " << describe(cpu) << "\n";
  if (options.cuda)
    os << "  cuda " << describe(gpu) << "\n";
  os << "\n";
  os << formatv("  {0,3} {1,-13} {2,9} {3,9} {4,7}", "#", "kind", "FLOPs",
                "bytes", "FLOP/B");
  if (options.cpu)
    os << formatv(" {0,9} {1,-7}", "cpu ms", "bound");
  if (options.cuda)
    os << formatv(" {0,9} {1,-7}", "cuda ms", "bound");
  os << "  nodes\n";
  for (auto [i, k] : llvm::enumerate(costs.kernels)) {
    double bytes = (k.bytesRead + k.bytesWritten) * scale + k.weightBytes;
    bool known = k.unknownFlops.empty(), bytesKnown = k.unknownBytes.empty();
    os << formatv("  {0,3} {1,-13} {2,9} {3,9} {4,7}", i,
                  kernelKindName(k.kind),
                  known ? human(k.flops * scale) : std::string("unknown"),
                  bytesKnown ? human(bytes, "B") : std::string("unknown"),
                  known && bytesKnown && bytes > 0
                      ? formatv("{0:f1}", k.flops * scale / bytes).str()
                      : std::string("-"));
    for (auto [enabled, device] :
         {std::pair<bool, const DevicePeaks *>{options.cpu, &cpu},
          std::pair<bool, const DevicePeaks *>{options.cuda, &gpu}}) {
      if (!enabled)
        continue;
      KernelTime t = predictKernel(k, *device, scale);
      os << formatv(" {0,9} {1,-7}", t.known ? ms(t.seconds) : "?",
                    boundName(t.bound));
    }
    std::string nodes = llvm::join(k.nodes, " ");
    if (nodes.size() > 60)
      nodes = nodes.substr(0, 57) + "...";
    os << "  " << nodes;
    if (!known)
      os << " (FLOPs unknown: " << k.unknownFlops << ")";
    os << "\n";
  }
  os << "\n";
  os << formatv("  {0,6}", "batch");
  if (options.cpu)
    os << formatv(" {0,10}", "cpu ms");
  if (measured.front())
    os << formatv(" {0,12} {1,10}", "measured ms", "predicted/measured");
  if (options.cuda)
    os << formatv(" {0,10} {1,14} {2,12} {3,12} {4}", "cuda ms",
                  "+transfers ms", "transfer", "device mem", "fits");
  os << "\n";
  for (size_t i = 0; i < options.batches.size(); ++i) {
    os << formatv("  {0,6}", options.batches[i]);
    if (options.cpu)
      os << formatv(" {0,10}", ms(onCpu[i].seconds));
    if (measured[i])
      os << formatv(" {0,12} {1,10}", ms(*measured[i]),
                    formatv("{0:f2}", onCpu[i].seconds / *measured[i]));
    if (options.cuda)
      os << formatv(
          " {0,10} {1,14} {2,12} {3,12} {4}", ms(onGpu[i].seconds),
          ms(onGpu[i].seconds + onGpu[i].transferSeconds),
          human(onGpu[i].transferBytes, "B"), human(onGpu[i].memoryBytes, "B"),
          onGpu[i].fits ? std::string("yes")
                        : subBatchesOf(sizes, gpu, options.batches[i]));
    os << "\n";
  }
  if (calibration)
    printCalibration(os, *calibration, costs);
  if (maxFit)
    os << formatv("  largest batch that fits in the GPU's {0}: {1}{2}\n",
                  human(gpu.memory.value, "B"), *maxFit,
                  *maxFit == kBatchLimit ? " (the search's limit)" : "");
  if (options.cpu && options.cuda)
    os << "  crossover batch: "
       << (crossover ? std::to_string(*crossover) : std::string("none"))
       << "\n  verdict: " << verdict << "\n";
  if (analysis.batchDim.empty() && options.batches.size() > 1)
    os << "  (a static model: batches other than its own are extrapolated "
          "from it, weights read once per run)\n";
  return 0;
}
