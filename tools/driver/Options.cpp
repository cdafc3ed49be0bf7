//===- Options.cpp - options shared by the subcommands
//----------------------===//
#include "analysis/Analyze.h"
#include "codegen/Library.h"
#include "codegen/ModelAbi.h"
#include "compiler/Compiler.h"
#include "compiler/Diagnostics.h"
#include "compiler/Executor.h"
#include "dlc/dlc_model_abi.h"
#include "dlc/dlc_runtime_text.h"
#include "tools/driver/Budget.h"
#include "tools/driver/Command.h"
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

/// Whether `triple` names another machine than the one dlc runs on.
bool isCrossTriple(StringRef triple) {
  return !triple.empty() &&
         Triple(Triple::normalize(triple)) !=
             Triple(Triple::normalize(sys::getProcessTriple()));
}

/// The runtime archive shipped beside the dlc binary: lib/ in a build tree,
/// the installed library directory (GNUInstallDirs' libdir, such as
/// lib/x86_64-linux-gnu under /usr) in an installation. For a triple other
/// than the host's, libdlc_runtime-TRIPLE.a (built where TRIPLE-gcc is).
std::string runtimeArchivePath(const char *argv0, StringRef triple) {
  std::string exe =
      sys::fs::getMainExecutable(argv0, (void *)&runtimeArchivePath);
  StringRef prefix = sys::path::parent_path(sys::path::parent_path(exe));
  std::string name = "libdlc_runtime.a";
  if (isCrossTriple(triple))
    name = ("libdlc_runtime-" + triple + ".a").str();
  SmallString<256> path;
  for (StringRef libdir : {StringRef("lib"), StringRef(DLC_INSTALL_LIBDIR)}) {
    path = prefix;
    sys::path::append(path, libdir, name);
    if (sys::fs::exists(path))
      break;
  }
  return path.str().str();
}

/// Reads --target and --gpu-arch into `opts`; prints the error and returns
/// false on bad values.

bool parseTarget(const Args &args, dlc::CompileOptions &opts) {
  std::string target = args.get("--target").value_or("cpu");
  if (target == "auto") {
    // The cost model's choice for this model at its batch (dlc analyze's
    // prediction), said with its reason.
    std::string gpuName = args.get("--gpu").value_or("h200");
    std::optional<dlc::DevicePeaks> gpu = dlc::datasheetGpuPeaks(gpuName);
    if (!gpu) {
      errs() << "dlc: error: --gpu takes h200, h100 or a100\n";
      return false;
    }
    dlc::CompileOptions probe;
    if (!parseDims(args, probe))
      return false;
    probe.mcpu = args.get("--mcpu").value_or("");
    std::optional<dlc::AutoTarget> pick =
        dlc::pickTarget(args.model, probe, 1, *gpu);
    if (!pick)
      return false;
    outs() << "dlc: --target auto: " << pick->reason << "\n";
    // The chosen GPU's memory bounds the run unless --gpu-memory says.
    opts.gpuMemory = uint64_t(std::max(0.0, gpu->memory.value));
    if (pick->target != dlc::Target::Cuda) {
      // The GPU's options were for the other choice.
      for (const char *flag : {"--gpu-arch", "--gpu-cubin", "--gpu-precision",
                               "--placement", "--cpu-nodes"})
        if (args.get(flag))
          outs() << "dlc: --target auto chose the CPU: " << flag
                 << " does not apply\n";
      opts.target = dlc::Target::Cpu;
      return true;
    }
    target = "cuda";
  } else if (args.get("--gpu")) {
    errs() << "dlc: error: --gpu needs --target auto\n";
    return false;
  }
  if (target == "cpu") {
    opts.target = dlc::Target::Cpu;
  } else if (target == "cuda") {
    opts.target = dlc::Target::Cuda;
  } else if (target == "cuda-emulator") {
    opts.target = dlc::Target::CudaEmulator;
  } else {
    errs() << "dlc: error: unknown --target " << target
           << " (supported: cpu, cuda, cuda-emulator, auto)\n";
    return false;
  }
  if (auto archs = args.get("--gpu-arch")) {
    if (opts.target != dlc::Target::Cuda &&
        opts.target != dlc::Target::CudaEmulator) {
      errs() << "dlc: error: --gpu-arch needs --target cuda (or "
                "cuda-emulator, which then runs that architecture's "
                "kernels)\n";
      return false;
    }
    SmallVector<StringRef> parts;
    StringRef(*archs).split(parts, ',');
    opts.gpuArchs.clear();
    for (StringRef arch : parts) {
      unsigned sm = 0;
      StringRef number = arch;
      bool archSpecific = number.consume_back("a");
      if (!number.consume_front("sm_") || number.getAsInteger(10, sm) ||
          sm < 50) {
        errs() << "dlc: error: --gpu-arch '" << arch
               << "' is not an architecture like sm_80 (sm_50 or newer)\n";
        return false;
      }
      if (archSpecific && sm != 90) {
        errs() << "dlc: error: --gpu-arch '" << arch
               << "': the only architecture-specific target dlc has kernels "
                  "for is sm_90a (Hopper's warpgroup instructions)\n";
        return false;
      }
      opts.gpuArchs.push_back(arch.str());
    }
    if (llvm::is_contained(opts.gpuArchs, "sm_90a") &&
        opts.gpuArchs.size() != 1) {
      errs() << "dlc: error: --gpu-arch sm_90a builds Hopper kernels "
                "(wgmma) that no other architecture runs: give it alone\n";
      return false;
    }
  }
  if (auto precision = args.get("--gpu-precision")) {
    static const std::map<std::string, std::string> kPrecisions = {
        {"fp32", "f32"}, {"tf32", "tf32"}, {"fp16", "f16"}, {"bf16", "bf16"}};
    auto it = kPrecisions.find(*precision);
    if (it == kPrecisions.end()) {
      errs() << "dlc: error: --gpu-precision takes fp32, tf32, fp16 or bf16\n";
      return false;
    }
    if (opts.target == dlc::Target::Cpu) {
      errs() << "dlc: error: --gpu-precision needs --target cuda or "
                "cuda-emulator\n";
      return false;
    }
    if (opts.target == dlc::Target::Cuda && it->second == "bf16" &&
        !llvm::is_contained(opts.gpuArchs, "sm_90a")) {
      errs() << "dlc: error: --gpu-precision bf16 needs --gpu-arch sm_90a "
                "with --target cuda: its tensor-core kernels are Hopper's "
                "warpgroup instructions (mma.sync has none here yet); "
                "--target cuda-emulator runs the CUDA kernels with their "
                "operands rounded to bf16 (its numerics)\n";
      return false;
    }
    opts.gpuPrecision = it->second;
  }
  if (auto placement = args.get("--placement")) {
    static const std::map<std::string, std::string> kModes = {
        {"gpu", "gpu"}, {"auto", "auto"}, {"cpu-fallback-off", "off"}};
    auto it = kModes.find(*placement);
    if (it == kModes.end()) {
      errs() << "dlc: error: --placement takes gpu, auto or "
                "cpu-fallback-off\n";
      return false;
    }
    if (opts.target == dlc::Target::Cpu) {
      errs() << "dlc: error: --placement needs --target cuda or "
                "cuda-emulator\n";
      return false;
    }
    opts.placement = it->second;
  }
  if (auto nodes = args.get("--cpu-nodes")) {
    if (opts.target == dlc::Target::Cpu) {
      errs() << "dlc: error: --cpu-nodes needs --target cuda or "
                "cuda-emulator\n";
      return false;
    }
    SmallVector<StringRef> names;
    StringRef(*nodes).split(names, ',', -1, /*KeepEmpty=*/false);
    for (StringRef name : names)
      opts.cpuNodes.push_back(name.str());
  }
  if (auto memory = args.get("--gpu-memory")) {
    if (opts.target == dlc::Target::Cpu) {
      errs() << "dlc: error: --gpu-memory needs --target cuda or "
                "cuda-emulator\n";
      return false;
    }
    if (!dlc::parseMemoryBudget(*memory, opts.gpuMemory)) {
      errs() << "dlc: error: --gpu-memory takes bytes or a size such as "
                "512M or 80G (0 or none: no limit), not '"
             << *memory << "'\n";
      return false;
    }
  }
  if (auto state = args.get("--cpu-state")) {
    uint64_t bytes = 0;
    if (opts.target != dlc::Target::Cpu) {
      errs() << "dlc: error: --cpu-state needs --target cpu\n";
      return false;
    }
    if (*state != "none" && (!dlc::parseMemoryBudget(*state, bytes) ||
                             bytes > (uint64_t(1) << 40))) {
      errs() << "dlc: error: --cpu-state takes bytes or a size such as 512K "
                "or 8M (0 or none: no state), not '"
             << *state << "'\n";
      return false;
    }
    opts.cpuStateBytes = static_cast<int64_t>(bytes);
  }
  if (auto cubins = args.get("--gpu-cubin")) {
    if (opts.target != dlc::Target::Cuda) {
      errs() << "dlc: error: --gpu-cubin needs --target cuda\n";
      return false;
    }
    if (*cubins != "auto" && *cubins != "off") {
      errs() << "dlc: error: --gpu-cubin takes auto or off\n";
      return false;
    }
    opts.gpuCubins = *cubins == "auto";
  }
  return true;
}

/// Reads --dim NAME=SIZE|NAME=MIN..MAX[,...] into `opts`; prints the error
/// and returns false on bad values.
bool parseDims(const Args &args, dlc::CompileOptions &opts) {
  auto dims = args.get("--dim");
  if (!dims)
    return true;
  SmallVector<StringRef> parts;
  StringRef(*dims).split(parts, ',');
  for (StringRef part : parts) {
    auto [name, size] = part.split('=');
    if (size.contains("..")) {
      auto [lo, hi] = size.split("..");
      dlc::DimRange range;
      if (name.empty() || lo.getAsInteger(10, range.min) ||
          hi.getAsInteger(10, range.max) || range.min < 1 ||
          range.max < range.min) {
        errs() << "dlc: error: --dim '" << part
               << "' is not NAME=MIN..MAX with 1 <= MIN <= MAX\n";
        return false;
      }
      opts.dimRanges[name.str()] = range;
      continue;
    }
    int64_t value = 0;
    if (name.empty() || size.getAsInteger(10, value) || value < 0) {
      errs() << "dlc: error: --dim '" << part
             << "' is not NAME=SIZE with a size >= 0\n";
      return false;
    }
    opts.dimValues[name.str()] = value;
  }
  return true;
}

/// Reads --batch-split auto|K and --batch-chunk auto|S into `opts` (auto:
/// 0); prints the error and returns false on bad values.
bool parseBatchOptions(const Args &args, dlc::CompileOptions &opts) {
  std::string value = args.get("--batch-split").value_or("auto");
  if (value == "auto")
    opts.batchSplit = 0;
  else if (StringRef(value).getAsInteger(10, opts.batchSplit) ||
           opts.batchSplit < 1 || opts.batchSplit > 1024) {
    errs() << "dlc: error: --batch-split must be 'auto' or an integer from 1 "
              "to 1024\n";
    return false;
  }
  value = args.get("--batch-chunk").value_or("auto");
  if (value == "auto") {
    opts.batchChunk = 0;
    return true;
  }
  if (StringRef(value).getAsInteger(10, opts.batchChunk) ||
      opts.batchChunk < 1 || opts.batchChunk > 1024) {
    errs() << "dlc: error: --batch-chunk must be 'auto' or an integer from 1 "
              "to 1024\n";
    return false;
  }
  return true;
}

/// `t` at batch size `n`: the batch axis gets n, the size n samples.
dlc::TensorInfo atBatch(const dlc::TensorInfo &t, int64_t n) {
  dlc::TensorInfo r = t;
  if (t.batchAxis >= 0) {
    r.shape[t.batchAxis] = n;
    r.sizeBytes = t.sizeBytes * n;
  }
  return r;
}

bool writeFile(StringRef path, StringRef data) {
  std::error_code ec;
  raw_fd_ostream os(path, ec);
  if (ec) {
    errs() << "dlc: error: cannot write " << path << ": " << ec.message()
           << "\n";
    return false;
  }
  os << data;
  return true;
}

/// The input files input_<i>.pb present in `dir`, for values that fix
/// shapes at compile time (dlc compiles static shapes; see
/// ImportOptions::knownInputs). Prints the error and returns false on a bad
/// file.
bool loadKnownInputs(StringRef dir, std::vector<onnx::TensorProto> &known) {
  for (int i = 0;; ++i) {
    SmallString<256> path(dir);
    sys::path::append(path, "input_" + std::to_string(i) + ".pb");
    if (!sys::fs::exists(path))
      return true;
    std::string error;
    known.emplace_back();
    if (!dlc::loadTensorProto(path.str().str(), known.back(), error)) {
      errs() << "dlc: error: " << error << "\n";
      return false;
    }
  }
}

/// --max-memory and --max-time, or their defaults; prints the error and
/// returns false on a bad value.
bool parseBudget(const Args &args, dlc::BudgetLimits &budget) {
  budget = dlc::defaultBudget();
  if (auto memory = args.get("--max-memory"))
    if (!dlc::parseMemoryBudget(*memory, budget.memoryBytes)) {
      usageError("--max-memory takes bytes or a size such as 512M or 8G "
                 "(0 or none: no limit), not '" +
                 *memory + "'");
      return false;
    }
  if (auto time = args.get("--max-time"))
    if (!dlc::parseTimeBudget(*time, budget.seconds)) {
      usageError("--max-time takes seconds (0 or none: no limit), not '" +
                 *time + "'");
      return false;
    }
  return true;
}

/// Compiles under `budget` with diagnostics collected; prints them and
/// returns false on failure. `oneLine` joins them (dlc run's contract).
/// `timePasses` also reports the time and peak memory against the budget.
bool compileReporting(const std::string &model, dlc::CompileOptions opts,
                      dlc::Stage stage, raw_ostream &out,
                      dlc::CompiledModel &result, bool oneLine,
                      const dlc::BudgetLimits &budget, bool progress) {
  dlc::CompileWatch watch(model, budget);
  if (progress)
    watch.showProgress();
  opts.onPhase = [&](StringRef phase) { watch.setPhase(phase); };
  auto report = llvm::make_scope_exit([&] {
    if (!opts.timePasses)
      return;
    errs() << formatv("dlc: compile took {0:f2} s (budget {1}), peak "
                      "resident memory {2} (budget {3})\n",
                      watch.elapsedSeconds(),
                      budget.seconds > 0 ? dlc::formatSeconds(budget.seconds)
                                         : std::string("none"),
                      dlc::formatBytes(watch.peakBytes()),
                      budget.memoryBytes ? dlc::formatBytes(budget.memoryBytes)
                                         : std::string("none"));
  });
  std::unique_ptr<mlir::MLIRContext> owned = dlc::createCompilerContext();
  mlir::MLIRContext &context = *owned;
  dlc::DiagnosticCollector diags(context);
  bool compiled =
      succeeded(dlc::compileModel(context, model, opts, stage, out, result));
  watch.stop();
  if (compiled)
    return true;
  if (diags.errors().empty())
    errs() << "dlc: error: " << model << ": compilation failed\n";
  else if (oneLine)
    errs() << "dlc: error: " << diags.oneLine() << "\n";
  else
    for (const dlc::CompileError &e : diags.errors())
      errs() << "dlc: error: " << e.str() << "\n";
  return false;
}

} // namespace dlc::driver
