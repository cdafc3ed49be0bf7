//===- AnalyzeCommand.cpp - dlc analyze
//-------------------------------------===//
#include "analysis/Analyze.h"
#include "codegen/Library.h"
#include "codegen/ModelAbi.h"
#include "compiler/Compiler.h"
#include "compiler/Diagnostics.h"
#include "compiler/Executor.h"
#include "dlc/dlc_model_abi.h"
#include "dlc/dlc_runtime_text.h"
#include "tools/driver/Budget.h"
#include "tools/driver/Session.h"
#include "tools/driver/TensorIO.h"

#include "onnx/common/version.h"
#include "onnx/onnx_pb.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <thread>
#include <unistd.h>

using namespace llvm;

namespace dlc::driver {

/// `dlc analyze`: options into dlc::AnalyzeOptions, peaks measured or read.
int runAnalyzeCommand(const Args &args) {
  dlc::AnalyzeOptions opts;
  opts.model = args.model;
  opts.compile.mcpu = args.get("--mcpu").value_or("");
  if (!parseDims(args, opts.compile))
    return kExitFailure;
  if (!opts.compile.dimRanges.empty())
    return usageError("analyze takes --dim NAME=SIZE; sizes in a range are "
                      "analyzed one size at a time");
  if (auto targets = args.get("--target")) {
    opts.cpu = opts.cuda = false;
    SmallVector<StringRef> parts;
    StringRef(*targets).split(parts, ',');
    for (StringRef t : parts) {
      if (t == "cpu")
        opts.cpu = true;
      else if (t == "cuda")
        opts.cuda = true;
      else
        return usageError(
            "analyze --target takes cpu, cuda or cpu,cuda, not '" + t.str() +
            "'");
    }
  }
  if (auto batches = args.get("--batch")) {
    opts.batches.clear();
    SmallVector<StringRef> parts;
    StringRef(*batches).split(parts, ',');
    for (StringRef part : parts) {
      int64_t b = 0;
      if (part.getAsInteger(10, b) || b < 1 || b > 65536)
        return usageError("--batch takes integers from 1 to 65536, "
                          "comma-separated");
      opts.batches.push_back(b);
    }
  }
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  opts.threads = cores;
  if (auto threads = args.get("--threads"))
    if (StringRef(*threads).getAsInteger(10, opts.threads) ||
        opts.threads < 1 || opts.threads > 1024)
      return usageError("--threads must be an integer from 1 to 1024");
  std::string gpuName = args.get("--gpu").value_or("h200");
  std::optional<dlc::DevicePeaks> gpu = dlc::datasheetGpuPeaks(gpuName);
  if (!gpu)
    return usageError("--gpu takes h200, h100 or a100, not '" + gpuName + "'");
  opts.gpu = *gpu;
  if (auto peaks = args.get("--peaks")) {
    std::string error;
    if (!dlc::readPeaksFile(*peaks, opts.peaks, error)) {
      errs() << "dlc: error: --peaks " << error << "\n";
      return kExitFailure;
    }
    if (opts.peaks.gpu)
      opts.gpu = *opts.peaks.gpu;
  }
  if (args.has("--measure-peaks")) {
    dlc::MachinePeaks measured = dlc::measureCpuPeaks(opts.threads);
    opts.peaks.cpuName = measured.cpuName;
    opts.peaks.cpuIsa = measured.cpuIsa;
    opts.peaks.cacheBytes = measured.cacheBytes;
    opts.peaks.cacheBandwidth = measured.cacheBandwidth;
    for (auto &[count, figures] : measured.cpu)
      opts.peaks.cpu[count] = figures;
    // The GPU where there is one (a driver and a device).
    std::string gpuWhy;
    if (std::optional<dlc::DevicePeaks> gpu = dlc::measureGpuPeaks(gpuWhy)) {
      opts.peaks.gpu = *gpu;
      opts.gpu = *gpu;
    }
    if (args.model.empty()) {
      json::Value value = dlc::peaksToJson(opts.peaks);
      std::optional<std::string> json = args.get("--json");
      if (json && *json != "-") {
        std::error_code ec;
        raw_fd_ostream file(*json, ec);
        if (ec) {
          errs() << "dlc: error: cannot write " << *json << ": " << ec.message()
                 << "\n";
          return kExitFailure;
        }
        file << formatv("{0:2}", value) << "\n";
      }
      if (json && *json == "-") {
        outs() << formatv("{0:2}", value) << "\n";
        return kExitOk;
      }
      dlc::printPeaks(outs(), opts.peaks, gpuWhy);
      return kExitOk;
    }
  }
  opts.jsonPath = args.get("--json").value_or("");
  opts.htmlPath = args.get("--html").value_or("");
  // --measure: the CPU library compiled and run as `dlc bench` does, on
  // synthetic inputs, at each batch.
  Session session;
  bool sessionOpen = false;
  Args benchArgs = args;
  benchArgs.options.erase("--target");
  // The measured build is profiled (a clock stamp after each kernel, about
  // 20 ns each), for the per-kernel calibration.
  benchArgs.flags.push_back("--profile");
  if (args.has("--measure"))
    opts.measureCpu = [&](int64_t batch)
        -> std::optional<dlc::AnalyzeOptions::CpuMeasurement> {
      if (!sessionOpen) {
        if (openSession(benchArgs, session, nullptr, {}, opts.threads,
                        dlc::Target::Cpu))
          return std::nullopt;
        sessionOpen = true;
      }
      if (batch != 1 && session.compiled.info.batchDim.empty()) {
        errs() << "dlc: error: --measure at batch " << batch
               << " needs a model with a dynamic batch; this one is static\n";
        return std::nullopt;
      }
      if (!session.setBatch(batch))
        return std::nullopt;
      for (dlc::TensorInfo &t : session.inInfo)
        if (!t.dimNames.empty())
          t.shape = t.maxShape;
      std::mt19937 rng(0);
      session.inputs.clear();
      for (const auto &t : session.inInfo)
        session.inputs.push_back(syntheticInput(t, rng));
      session.bind();
      std::optional<RunTimes> times = timeRuns(session, 3, 20);
      if (!times)
        return std::nullopt;
      dlc::AnalyzeOptions::CpuMeasurement m;
      m.seconds = times->median / 1e3;
      m.meanSeconds = times->mean / 1e3;
      // The stamps time one call: a dynamic batch over 1 runs in several.
      if (batch == 1 || session.compiled.info.batchDim.empty()) {
        std::vector<std::string> names = session.profileNames();
        for (size_t k = 0; k < names.size(); ++k)
          m.kernels.push_back({names[k], times->kernelMs[k] / 1e3});
      }
      return m;
    };
  dlc::BudgetLimits budget;
  if (!parseBudget(args, budget))
    return kExitFailure;
  dlc::CompileWatch watch(args.model, budget);
  opts.compile.onPhase = [&](StringRef phase) { watch.setPhase(phase); };
  return dlc::runAnalyze(opts);
}

} // namespace dlc::driver
