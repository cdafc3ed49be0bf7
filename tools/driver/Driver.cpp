//===- Driver.cpp - the dlc command line ----------------------------------===//
#include "tools/driver/Driver.h"

#include "codegen/Library.h"
#include "codegen/ModelAbi.h"
#include "dlc/dlc_model_abi.h"
#include "dlc/dlc_runtime_text.h"
#include "tools/driver/Analyze.h"
#include "tools/driver/Budget.h"
#include "tools/driver/Compiler.h"
#include "tools/driver/Diagnostics.h"
#include "tools/driver/Executor.h"
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

namespace {

constexpr int kExitOk = 0, kExitFailure = 1, kExitCannotCompile = 2;

const char *kUsage = R"(usage:
  dlc --version | --help
  dlc compile MODEL.onnx -o OUTDIR [--name NAME] [--shared]
              [--emit=mlir|linalg|ptx|llvm|asm|obj|lib] [--mcpu CPU]
              [--mtriple T] [--target cpu|cuda|cuda-emulator|auto]
              [--gpu h200|h100|a100] [--gpu-arch sm_80,sm_90] [--gpu-cubin auto|off]
              [--gpu-precision fp32|tf32|fp16|bf16]
              [--placement gpu|auto|cpu-fallback-off] [--cpu-nodes N1,N2,...]
              [--gpu-memory SIZE] [--time-passes] [--quiet] [--data DIR] [--dim NAME=SIZE|NAME=MIN..MAX[,...]]
              [--batch-split auto|K] [--batch-chunk auto|S]
              [--max-memory SIZE] [--max-time SECONDS]
  dlc run MODEL.onnx --data DIR --out OUTDIR [--data DIR2 --out OUTDIR2 ...]
                     [--target cpu|cuda|cuda-emulator]
                     [--threads T] [--compare cpu [--per-node]]
                     [--dim NAME=SIZE|NAME=MIN..MAX[,...]] [--batch-split auto|K]
                     [--batch-chunk auto|S] [--cuda-graphs auto|off]
                     [--gpu-cubin auto|off] [--gpu-precision P] [--gpu-memory SIZE]
                     [--placement P] [--cpu-nodes N1,N2,...]
                     [--max-memory SIZE] [--max-time SECONDS]
  dlc check MODEL.onnx [--dim NAME=SIZE|NAME=MIN..MAX[,...]]
                       [--max-memory SIZE] [--max-time SECONDS]
  dlc bench MODEL.onnx [--iterations N] [--warmup N] [--threads T[,T...]]
                       [--data DIR] [--target cpu|cuda] [--batch N]
                       [--dim NAME=SIZE|NAME=MIN..MAX[,...]] [--batch-split auto|K]
                       [--batch-chunk auto|S] [--mcpu CPU]
                       [--cuda-graphs auto|off] [--gpu-cubin auto|off]
                       [--gpu-precision P] [--gpu-memory SIZE]
                       [--max-memory SIZE] [--max-time SECONDS] [--profile]
  dlc analyze MODEL.onnx [--target cpu,cuda] [--batch N[,N...]]
                         [--threads T] [--dim NAME=SIZE[,...]]
                         [--gpu h200|h100|a100] [--peaks FILE]
                         [--measure-peaks] [--measure] [--json FILE|-]
                         [--html FILE] [--max-memory SIZE] [--max-time SECONDS]
  dlc analyze --measure-peaks [--threads T] [--json FILE|-]

analyze counts each fused kernel's FLOPs (2 per multiply-add) and bytes and
predicts its time on the CPU and a GPU (roofline with a fixed cost per
kernel), the run's latency per batch, the GPU's transfers and memory, the
largest batch that fits and the batch from which the GPU wins (see
docs/analyze.md). The machines' figures come from --peaks FILE (as written
by --measure-peaks --json), --measure-peaks (this CPU's FMA rate and copy
bandwidth on 1, 2, 4, ... T threads, measured now), the named GPU's datasheet, or
estimates; each figure says which. --threads defaults to the host's cores.
--measure also compiles the model for this CPU, times it at each batch
(median of 20 runs on synthetic inputs) and sets the prediction beside it.
--html FILE writes the report as one self-contained page (rooflines,
latency and memory against batch, time breakdown, sortable kernel table).

bench --profile compiles the model with a clock stamp after every kernel
(CPU), or times each kernel launch with CUDA events on the model's stream
(--target cuda; CUDA graphs off), and prints each kernel's mean time per
run, share of the run, GFLOP/s and GB/s (FLOPs and bytes as analyze counts
them) and the ONNX nodes it computes, and how much of the run the kernels
add up to; a JSON line too.

--max-memory SIZE (bytes, or with K, M, G, T: 512M, 8G) and --max-time
SECONDS bound the compile's resident memory and wall time (0 or none: no
limit); by default 80% of physical memory and 1800 s. A compile over its
budget stops with exit 2 and an error naming the budget, what it used and
the phase it was in. --time-passes also prints both against the budget.
On a terminal, compile shows its phase (import, each pass, LLVM O3, machine
code), time and memory on one line of stderr, erased when it ends; --quiet
(or stderr not a terminal) turns it off.

--dim NAME=MIN..MAX keeps a symbolic input dimension symbolic: the library
is compiled once and runs at any size in that range (every symbolic
dimension then needs a size or a range). Without ranges, a symbolic
input dimension left without --dim becomes the model's dynamic batch (one
per model): when dlc proves the samples independent, the CPU library is
compiled for chunks of 1..S samples (the batch a symbolic dimension there)
and run calls it once per chunk. --batch-chunk S fixes S (1: one sample
per call); auto (the default) takes the smallest chunk whose intermediate
tensors outweigh the weights, at most 64. CUDA runs one sample per call.

A static batch (the first dimension of every input, the same size B) runs
as K sub-batches of B/K when dlc proves the samples independent: with 2 or
more threads, sub-batches run at once on separate threads. --batch-split K
fixes K (1 keeps the batch whole); auto (the default) takes the smallest
sub-batch whose intermediate tensors outweigh the weights. On the CPU only,
unless --gpu-memory asks (below), or K is given.

--gpu-memory SIZE (compile, --target cuda or cuda-emulator; bytes, or with
K, M, G, T: 512M, 80G): the device memory a run may use. When a run of the
model's static batch needs more (workspace, constants, device copies of
the inputs and outputs), the batch is compiled as the fewest sub-batches
that fit, which run one after the other on the device (the samples must be
proven independent); the compile reports the plan. --target auto takes
the --gpu's memory.

--cuda-graphs auto (the default) records a CUDA model's kernel launches as
a CUDA graph on its second run and replays it on later ones (one launch
per run) where every run launches the same kernels; off launches each
kernel on every run.

--gpu-cubin auto (the default) assembles each --gpu-arch's PTX into a cubin
with the CUDA toolkit's ptxas where one is found ($CUDA_HOME/bin,
/usr/local/cuda/bin, PATH) and embeds both: create loads the cubin on a GPU
of that architecture's major version (no JIT compilation), the PTX on newer
ones. off embeds the PTX alone.

--gpu-precision (compile, run, bench; --target cuda takes fp32, tf32 and
fp16, and bf16 with --gpu-arch sm_90a; --target cuda-emulator all four):
the precision of the contraction kernels (MatMul, Gemm, convolutions):
fp32 (the default), or operands rounded to tf32, fp16 or bf16 and
multiplied and accumulated in fp32, as tensor cores do; other ops stay
fp32. Contractions whose M, N and K are multiples of 16, 8 and 8 (tf32) or
16, 8 and 16 (fp16) run on tensor cores (mma.sync, sm_80 and newer); with
--gpu-arch sm_90a, those whose M is a multiple of 64 (and bf16 ones) on
Hopper's warpgroup instructions (wgmma).

--target auto (compile): the device the cost model predicts faster for the
model at its batch (dlc analyze's prediction: this CPU's estimated figures
on one thread, the datasheet of --gpu, default h200, transfers included;
the CPU when the batch does not fit in the GPU's memory), printed with the
reason; then compiles for it (the GPU's options are ignored, with a note,
when it picks the CPU).

--placement (compile, run; --target cuda or cuda-emulator): which kernels
run on the CPU, as host parts of the same library, with a transfer per
tensor and direction between device and host memory: gpu (the default)
only the kernels of the nodes named by --cpu-nodes; auto also those the
cost model predicts faster on the CPU, transfers included (serial work, tiny
tails); cpu-fallback-off none (--cpu-nodes is then an error). compile prints
each host part with its nodes and reason, and the bytes crossing the bus
per run.
)";

/// `--key value`, `--key=value` and flags after a command and a positional.
struct Args {
  std::string command, model;
  std::map<std::string, std::string> options; // the last value of each
  std::map<std::string, std::vector<std::string>> repeated; // all, in order
  std::vector<std::string> flags;
  std::string error;

  bool has(StringRef flag) const {
    return std::find(flags.begin(), flags.end(), flag.str()) != flags.end();
  }
  std::optional<std::string> get(StringRef key) const {
    auto it = options.find(key.str());
    if (it == options.end())
      return std::nullopt;
    return it->second;
  }
  std::vector<std::string> getAll(StringRef key) const {
    auto it = repeated.find(key.str());
    return it == repeated.end() ? std::vector<std::string>() : it->second;
  }
};

Args parseArgs(int argc, char **argv, ArrayRef<StringRef> valueOptions,
               ArrayRef<StringRef> flagOptions) {
  Args args;
  if (argc < 2) {
    args.error = "missing command";
    return args;
  }
  args.command = argv[1];
  for (int i = 2; i < argc; ++i) {
    StringRef a = argv[i];
    if (!a.starts_with("-")) {
      if (!args.model.empty()) {
        args.error = "unexpected argument '" + a.str() + "'";
        return args;
      }
      args.model = a.str();
      continue;
    }
    StringRef key = a, value;
    bool hasValue = false;
    if (a.contains('=')) {
      std::tie(key, value) = a.split('=');
      hasValue = true;
    }
    if (llvm::is_contained(flagOptions, key) && !hasValue) {
      args.flags.push_back(key.str());
      continue;
    }
    if (!llvm::is_contained(valueOptions, key)) {
      args.error = "unknown option '" + key.str() + "' for '" + args.command + "'";
      return args;
    }
    if (!hasValue) {
      if (i + 1 >= argc) {
        args.error = "option '" + key.str() + "' needs a value";
        return args;
      }
      value = argv[++i];
    }
    args.options[key.str()] = value.str();
    args.repeated[key.str()].push_back(value.str());
  }
  if (args.model.empty())
    args.error = "missing the model file";
  return args;
}

int usageError(const std::string &msg) {
  errs() << "dlc: error: " << msg << "\n" << kUsage;
  return kExitFailure;
}

/// Whether `triple` names another machine than the one dlc runs on.
static bool isCrossTriple(StringRef triple) {
  return !triple.empty() &&
         Triple(Triple::normalize(triple)) !=
             Triple(Triple::normalize(sys::getProcessTriple()));
}

/// The runtime archive shipped beside the dlc binary: lib/ in a build tree,
/// the installed library directory (GNUInstallDirs' libdir, such as
/// lib/x86_64-linux-gnu under /usr) in an installation. For a triple other
/// than the host's, libdlc_runtime-TRIPLE.a (built where TRIPLE-gcc is).
std::string runtimeArchivePath(const char *argv0, StringRef triple = "") {
  std::string exe = sys::fs::getMainExecutable(argv0, (void *)&runtimeArchivePath);
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
bool parseDims(const Args &args, dlc::CompileOptions &opts);

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
                      const dlc::BudgetLimits &budget, bool progress = false) {
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
  mlir::DialectRegistry registry;
  dlc::registerCompilerDialects(registry);
  mlir::MLIRContext context(registry);
  context.disableMultithreading();
  context.printOpOnDiagnostic(false);
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
    for (const std::string &e : diags.errors())
      errs() << "dlc: error: " << e << "\n";
  return false;
}

int runCompile(const Args &args, const char *argv0) {
  dlc::CompileOptions opts;
  if (!parseTarget(args, opts) || !parseDims(args, opts) ||
      !parseBatchOptions(args, opts))
    return kExitFailure;
  std::string emit = args.get("--emit").value_or("lib");
  static const std::map<std::string, dlc::Stage> stages = {
      {"mlir", dlc::Stage::Mlir}, {"linalg", dlc::Stage::Linalg},
      {"ptx", dlc::Stage::Ptx},   {"llvm", dlc::Stage::Llvm}, {"asm", dlc::Stage::Asm},
      {"obj", dlc::Stage::Obj},   {"lib", dlc::Stage::Lib}};
  auto stage = stages.find(emit);
  if (stage == stages.end())
    return usageError("unknown --emit value '" + emit + "'");
  if (stage->second == dlc::Stage::Ptx && opts.target != dlc::Target::Cuda)
    return usageError("--emit=ptx needs --target cuda");
  opts.name = args.get("--name").value_or("model");
  if (!dlc::isValidModelName(opts.name))
    return usageError("--name '" + opts.name +
                      "' is not a C identifier (it prefixes every symbol)");
  opts.mcpu = args.get("--mcpu").value_or("");
  opts.mtriple = args.get("--mtriple").value_or("");
  opts.timePasses = args.has("--time-passes");
  std::vector<onnx::TensorProto> known;
  if (auto data = args.get("--data")) {
    if (!sys::fs::is_directory(*data)) {
      errs() << "dlc: error: --data " << *data << " is not a directory\n";
      return kExitFailure;
    }
    if (!loadKnownInputs(*data, known))
      return kExitFailure;
    for (const onnx::TensorProto &t : known)
      opts.knownInputs.push_back(&t);
  }
  std::optional<std::string> outDir = args.get("-o");
  bool textual = stage->second <= dlc::Stage::Asm;
  if (!outDir && !textual)
    return usageError("compile needs -o OUTDIR");
  dlc::BudgetLimits budget;
  if (!parseBudget(args, budget))
    return kExitFailure;
  // A library for another triple: refused before compiling when it cannot
  // be linked here.
  if (stage->second == dlc::Stage::Lib && isCrossTriple(opts.mtriple)) {
    if (args.has("--shared")) {
      errs() << "dlc: error: --shared links with the host's linker; for "
             << opts.mtriple
             << " link the static library with that triple's toolchain\n";
      return kExitFailure;
    }
    std::string runtime = runtimeArchivePath(argv0, opts.mtriple);
    if (!sys::fs::exists(runtime)) {
      errs() << "dlc: error: no dlc runtime for " << opts.mtriple << " ("
             << runtime << " is missing): dlc builds it where " << opts.mtriple
             << "-gcc is installed (Debian's cross toolchain, e.g. "
                "g++-aarch64-linux-gnu); --emit=obj writes the model's "
                "object alone\n";
      return kExitFailure;
    }
  }
  // On a terminal, the phase and the time so far on one line of stderr
  // (not with --quiet or --time-passes, nor while a stage is printed).
  bool progress = !textual && !args.has("--quiet") && !opts.timePasses &&
                  isatty(STDERR_FILENO);
  dlc::CompiledModel result;
  if (!compileReporting(args.model, opts, stage->second, outs(), result,
                        /*oneLine=*/false, budget, progress))
    return kExitCannotCompile;
  if (textual)
    return kExitOk;
  if (std::error_code ec = sys::fs::create_directories(*outDir)) {
    errs() << "dlc: error: cannot create " << *outDir << ": " << ec.message()
           << "\n";
    return kExitFailure;
  }
  SmallString<256> objPath(*outDir);
  sys::path::append(objPath, opts.name + ".o");
  StringRef object(result.object.data(), result.object.size());
  if (stage->second == dlc::Stage::Obj)
    return writeFile(objPath, object) ? kExitOk : kExitFailure;

  SmallString<256> header(*outDir), rtHeader(*outDir), lib(*outDir);
  sys::path::append(header, opts.name + ".h");
  sys::path::append(rtHeader, "dlc_runtime.h");
  if (!writeFile(header, dlc::generateHeader(result.info)) ||
      !writeFile(rtHeader, dlc::kRuntimeHeaderText))
    return kExitFailure;
  std::string runtime = runtimeArchivePath(argv0, opts.mtriple);
  if (args.has("--shared")) {
    sys::path::append(lib, "lib" + opts.name + ".so");
    if (!writeFile(objPath, object))
      return kExitFailure;
    Error err = dlc::linkSharedLibrary(lib, objPath, runtime,
                                       opts.target == dlc::Target::Cuda);
    sys::fs::remove(objPath);
    if (err) {
      errs() << "dlc: error: " << toString(std::move(err)) << "\n";
      return kExitFailure;
    }
  } else {
    sys::path::append(lib, "lib" + opts.name + ".a");
    if (Error err =
            dlc::writeStaticLibrary(lib, opts.name + ".o", object, runtime)) {
      errs() << "dlc: error: " << toString(std::move(err)) << "\n";
      return kExitFailure;
    }
  }
  outs() << "dlc: wrote " << header << ", " << lib << " (workspace "
         << result.info.workspaceSize << " bytes, live-set minimum "
         << result.info.workspaceLiveSet << " bytes, weights "
         << result.info.weightsSize << " bytes)\n";
  if (!result.info.batchDim.empty()) {
    outs() << "dlc: dynamic batch '" << result.info.batchDim << "': ";
    if (result.info.batchChunk)
      outs() << "compiled for chunks of 1.." << result.info.batchChunk
             << " samples, run once per chunk";
    else
      outs() << "compiled for one sample, run once per sample";
    outs() << "; batch axis of";
    for (auto [kind, list] : {std::pair{"input", &result.info.inputs},
                              std::pair{"output", &result.info.outputs}})
      for (const dlc::TensorInfo &t : *list)
        outs() << " " << kind << " '" << t.name << "' "
               << (t.batchAxis >= 0 ? std::to_string(t.batchAxis)
                                    : std::string("none"));
    outs() << "\n";
    if (!result.batchChunkSkipped.empty())
      outs() << "dlc: dynamic batch not chunked: " << result.batchChunkSkipped
             << "\n";
  }
  if (result.info.batchSplit) {
    int64_t batch = result.info.splitBatch;
    outs() << "dlc: batch split: the batch of " << batch << " runs as "
           << result.info.batchSplit << " sub-batches of "
           << batch / result.info.batchSplit << " (samples proven independent)"
           << (opts.target == dlc::Target::Cpu
                   ? ", at once with 2 or more threads; --batch-split 1 keeps "
                     "it whole\n"
                   : ", one after the other on the device\n");
  } else if (!result.batchSplitSkipped.empty()) {
    outs() << "dlc: batch not split: " << result.batchSplitSkipped << "\n";
  }
  if (!result.memoryPlan.empty())
    outs() << "dlc: " << result.memoryPlan << "\n";
  const dlc::ModelInfo &info = result.info;
  std::set<std::string> cpuNodes;
  for (const dlc::ModelInfo::HostPart &part : info.hostParts)
    cpuNodes.insert(part.nodes.begin(), part.nodes.end());
  uint64_t hostPartBytes = info.busBytesToHost + info.busBytesToDevice;
  if (const auto &cuda = result.info.cuda) {
    uint64_t io = 0;
    for (const auto *list : {&result.info.inputs, &result.info.outputs})
      for (const dlc::TensorInfo &t : *list)
        io += t.sizeBytes;
    std::string archs;
    for (auto &[sm, ptx] : cuda->ptx)
      archs += (archs.empty() ? "" : ", ") + dlc::cudaArchName(sm);
    outs() << "dlc: cuda: " << cuda->kernels.size() << " kernels, PTX for "
           << archs
           << (cuda->cubins.empty() ? " (no cubins)" : " and their cubins")
           << "; device memory " << result.info.workspaceSize
           << " bytes workspace + " << cuda->constantsSize
           << " bytes constants; " << cpuNodes.size()
           << " nodes run on the CPU; " << io + hostPartBytes
           << " bytes cross the bus per "
           << (result.info.batchDim.empty() ? "run" : "sample")
           << " (inputs and outputs " << io << ", host parts " << hostPartBytes
           << ")\n";
  }
  if (!info.hostParts.empty()) {
    outs() << "dlc: placement: " << info.hostParts.size()
           << " host part(s) on the CPU, " << info.hostWorkspaceSize
           << " bytes of host workspace; their transfers move "
           << info.busBytesToHost << " bytes to the host and "
           << info.busBytesToDevice << " bytes to the device per run\n";
    for (auto [k, part] : llvm::enumerate(info.hostParts)) {
      outs() << "dlc: host part " << k << ": nodes";
      for (const std::string &node : part.nodes)
        outs() << " '" << node << "'";
      outs() << " on the CPU:";
      for (auto [i, reason] : llvm::enumerate(part.reasons))
        outs() << (i ? "; " : " ") << reason;
      outs() << "\n";
    }
  } else if (info.cuda || info.cudaEmulated) {
    outs() << "dlc: placement: every kernel on the GPU\n";
  }
  return kExitOk;
}

/// A model compiled and loaded into this process, with owned buffers.
struct Session {
  dlc::CompiledModel compiled;
  std::unique_ptr<dlc::LoadedModel> loaded;
  dlcrt_model *model = nullptr;
  std::vector<std::string> inputs, outputs;
  std::vector<dlc_tensor> inTensors, outTensors;
  /// The inputs and outputs at the batch size of this session's run (the
  /// compiled ones for static models).
  int64_t batch = 1;
  std::vector<dlc::TensorInfo> inInfo, outInfo;
  /// dlc_options.cuda_graphs of the instances (--cuda-graphs).
  uint32_t cudaGraphs = DLC_CUDA_GRAPHS_AUTO;
  /// dlc_options.cuda_profile of the instances (bench --profile --target
  /// cuda): the launches timed per run.
  uint32_t cudaProfile = 0;
  /// Profiled models (bench --profile): the first worker's workspace, given
  /// by this session so that the clock stamps can be read after a run.
  struct FreeDeleter {
    void operator()(char *p) const { std::free(p); }
  };
  std::unique_ptr<char, FreeDeleter> workspace;

  /// The clock stamps of the last call (profiled models): kernel i took
  /// stamps[i + 1] - stamps[i] nanoseconds.
  std::vector<int64_t> profileStamps() const {
    const dlc::ModelInfo &info = compiled.info;
    std::vector<int64_t> stamps(info.profileKernels.size() + 1, 0);
    if (workspace && !info.profileKernels.empty())
      std::memcpy(stamps.data(), workspace.get() + info.profileOffset,
                  stamps.size() * sizeof(int64_t));
    return stamps;
  }

  /// The profiled kernels' names (their ONNX nodes): the CPU's stamped
  /// kernels, or each CUDA kernel (by launch index).
  std::vector<std::string> profileNames() const {
    const dlc::ModelInfo &info = compiled.info;
    if (!cudaProfile || !info.cuda)
      return info.profileKernels;
    std::vector<std::string> names;
    for (size_t k = 0; k < info.cuda->kernels.size(); ++k)
      names.push_back(k < info.cuda->kernelNodes.size() &&
                              !info.cuda->kernelNodes[k].empty()
                          ? info.cuda->kernelNodes[k]
                          : "(kernel " + info.cuda->kernels[k] + ")");
    return names;
  }

  /// Adds each profiled kernel's time in the last run, in ms, times
  /// `scale`, to `ms` (sized as profileNames()).
  void addProfile(std::vector<double> &ms, double scale) const {
    if (cudaProfile) {
      const int32_t *kernels = nullptr;
      const float *times = nullptr;
      size_t n = dlcrt_model_kernel_profile(model, &kernels, &times);
      for (size_t i = 0; i < n; ++i)
        if (kernels[i] >= 0 && size_t(kernels[i]) < ms.size())
          ms[kernels[i]] += double(times[i]) * scale;
      return;
    }
    std::vector<int64_t> stamps = profileStamps();
    for (size_t k = 0; k < ms.size(); ++k)
      ms[k] += double(stamps[k + 1] - stamps[k]) / 1e6 * scale;
  }

  ~Session() { dlcrt_model_destroy(model); }

  /// Sizes the output buffers for batch size `n`. Prints the error and
  /// returns false when the inputs and outputs would not fit in this
  /// machine's memory (checked before anything is allocated).
  [[nodiscard]] bool setBatch(int64_t n) {
    batch = n;
    inInfo.clear();
    outInfo.clear();
    uint64_t bytes = 0;
    bool overflow = false;
    for (const auto &t : compiled.info.inputs) {
      inInfo.push_back(atBatch(t, n));
      overflow |=
          __builtin_add_overflow(bytes, inInfo.back().sizeBytes, &bytes);
    }
    for (const auto &t : compiled.info.outputs) {
      outInfo.push_back(atBatch(t, n));
      overflow |=
          __builtin_add_overflow(bytes, outInfo.back().sizeBytes, &bytes);
    }
    uint64_t memory = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                      static_cast<uint64_t>(sysconf(_SC_PAGE_SIZE));
    if (overflow || bytes > memory) {
      errs() << "dlc: error: the model's inputs and outputs need "
             << (overflow ? std::string("more than 2^64")
                          : std::to_string(bytes))
             << " bytes";
      if (batch > 1)
        errs() << " at batch " << batch;
      errs() << ", more than this machine's " << memory << " bytes of memory\n";
      return false;
    }
    outputs.clear();
    for (const auto &t : outInfo)
      outputs.emplace_back(t.sizeBytes, '\0');
    return true;
  }

  void bind() {
    auto makeTensor = [](std::string &buf, const dlc::TensorInfo &t) {
      dlc_tensor v;
      v.data = buf.data();
      v.size_bytes = buf.size();
      v.dtype = (dlc_dtype)t.dtype;
      v.rank = t.shape.size();
      v.shape = t.shape.data();
      return v;
    };
    inTensors.clear();
    outTensors.clear();
    for (size_t i = 0; i < inputs.size(); ++i)
      inTensors.push_back(makeTensor(inputs[i], inInfo[i]));
    for (size_t i = 0; i < outputs.size(); ++i)
      outTensors.push_back(makeTensor(outputs[i], outInfo[i]));
  }
  std::string run() {
    dlc_status *s = dlcrt_model_run(model, inTensors.data(), inTensors.size(),
                                    outTensors.data(), outTensors.size());
    std::string msg = s ? dlc_status_message(s) : "";
    dlc_status_free(s);
    if (msg.empty())
      recordRunShapes();
    return msg;
  }
  /// Outputs of data-dependent shape: their info takes the shape and size
  /// this run produced (the buffers keep the bound's size).
  void recordRunShapes() {
    for (size_t i = 0; i < outInfo.size(); ++i) {
      dlc::TensorInfo &t = outInfo[i];
      if (t.maxShape.empty())
        continue;
      const int64_t *shape = dlcrt_model_output_shape(model, i);
      uint64_t elements = 1;
      for (size_t d = 0; d < t.shape.size(); ++d)
        elements *= (t.shape[d] = shape[d]);
      t.sizeBytes = elements * dlc::dtypeSize(t.dtype);
    }
  }
  /// The bytes of output i that the last run wrote.
  std::string outputBytes(size_t i) const {
    return outputs[i].substr(0, outInfo[i].sizeBytes);
  }
  /// Runs; prints the error and returns false on failure.
  bool runReporting() {
    std::string err = run();
    if (!err.empty())
      errs() << "dlc: error: " << err << "\n";
    return err.empty();
  }
};

/// (Re)creates the session's model instance, running on `threads`.
int recreateModel(Session &session, unsigned threads) {
  dlcrt_model_destroy(session.model);
  session.model = nullptr;
  dlc_options options;
  dlc_options_init(&options);
  options.num_threads = threads;
  options.cuda_graphs = session.cudaGraphs;
  options.cuda_profile = session.cudaProfile;
  if (!session.compiled.info.profileKernels.empty()) {
    size_t bytes = (session.compiled.info.workspaceSize + 63) / 64 * 64;
    session.workspace.reset(static_cast<char *>(
        std::aligned_alloc(64, std::max<size_t>(bytes, 64))));
    if (!session.workspace) {
      errs() << "dlc: error: cannot allocate the workspace\n";
      return kExitFailure;
    }
    std::memset(session.workspace.get(), 0, bytes);
    options.workspace = session.workspace.get();
    options.workspace_size = bytes;
  }
  if (dlc_status *s = dlcrt_model_create(session.loaded->desc(), &options,
                                         &session.model)) {
    errs() << "dlc: error: " << dlc_status_message(s) << "\n";
    dlc_status_free(s);
    return kExitFailure;
  }
  return kExitOk;
}

/// Compiles and loads; on failure prints one line and returns the exit code.
int openSession(const Args &args, Session &session, double *compileSeconds,
                const std::vector<const onnx::TensorProto *> &knownInputs = {},
                unsigned threads = 1,
                std::optional<dlc::Target> target = std::nullopt,
                bool exposeNodeOutputs = false) {
  dlc::CompileOptions opts;
  if (!parseTarget(args, opts) || !parseDims(args, opts) ||
      !parseBatchOptions(args, opts))
    return kExitFailure;
  if (auto graphs = args.get("--cuda-graphs")) {
    if (*graphs != "auto" && *graphs != "off")
      return usageError("--cuda-graphs takes auto or off");
    session.cudaGraphs =
        *graphs == "off" ? DLC_CUDA_GRAPHS_OFF : DLC_CUDA_GRAPHS_AUTO;
  }
  if (target)
    opts.target = *target;
  opts.exposeNodeOutputs = exposeNodeOutputs;
  opts.profile = args.has("--profile");
  opts.mcpu = args.get("--mcpu").value_or("");
  opts.name = "dlc_model";
  opts.apiWrappers = false;
  opts.knownInputs = knownInputs;
  dlc::BudgetLimits budget;
  if (!parseBudget(args, budget))
    return kExitFailure;
  auto start = std::chrono::steady_clock::now();
  if (!compileReporting(args.model, opts, dlc::Stage::Obj, nulls(),
                        session.compiled, /*oneLine=*/true, budget))
    return kExitCannotCompile;
  if (compileSeconds)
    *compileSeconds = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  auto loaded = dlc::LoadedModel::load(
      StringRef(session.compiled.object.data(), session.compiled.object.size()),
      opts.name);
  if (!loaded) {
    errs() << "dlc: error: loading the compiled model failed: "
           << toString(loaded.takeError()) << "\n";
    return kExitFailure;
  }
  session.loaded = std::move(*loaded);
  if (int rc = recreateModel(session, threads))
    return rc;
  if (!session.setBatch(1))
    return kExitFailure;
  return kExitOk;
}

int readInputs(const std::string &dir, Session &session) {
  const auto &compiled = session.compiled.info.inputs;
  auto pathOf = [&](size_t i) {
    SmallString<256> path(dir);
    sys::path::append(path, "input_" + std::to_string(i) + ".pb");
    return path;
  };
  // A dynamic batch takes its size from the first batched input's file.
  for (size_t i = 0; i < compiled.size(); ++i) {
    onnx::TensorProto proto;
    std::string error;
    if (compiled[i].batchAxis < 0 || !sys::fs::exists(pathOf(i)) ||
        !dlc::loadTensorProto(pathOf(i).str().str(), proto, error))
      continue;
    if (proto.dims_size() > compiled[i].batchAxis) {
      int64_t n = proto.dims(compiled[i].batchAxis);
      if (n < 1) {
        errs() << "dlc: error: input '" << compiled[i].name << "' ("
               << pathOf(i) << ") has batch size " << n << " (dimension "
               << compiled[i].batchAxis
               << "); a dynamic batch must be at least 1\n";
        return kExitFailure;
      }
      if (!session.setBatch(n))
        return kExitFailure;
    }
    break;
  }
  auto &inputs = session.inInfo;
  session.inputs.clear();
  for (size_t i = 0; i < inputs.size(); ++i) {
    SmallString<256> path = pathOf(i);
    if (!sys::fs::exists(path)) {
      errs() << "dlc: error: missing " << path << " (the model has "
             << inputs.size() << " input" << (inputs.size() == 1 ? "" : "s")
             << ")\n";
      return kExitFailure;
    }
    // Symbolic dimensions take the file's sizes (the runtime checks them
    // against their ranges).
    if (!compiled[i].dimNames.empty()) {
      onnx::TensorProto proto;
      std::string error;
      if (dlc::loadTensorProto(path.str().str(), proto, error) &&
          proto.dims_size() == (int)compiled[i].shape.size())
        for (auto [d, size] : llvm::enumerate(inputs[i].shape))
          if (!compiled[i].dimNames[d].empty())
            size = proto.dims(d);
    }
    std::string bytes, error;
    if (!dlc::readTensorFile(path.str().str(), inputs[i], bytes, error)) {
      errs() << "dlc: error: " << error << "\n";
      return kExitFailure;
    }
    session.inputs.push_back(std::move(bytes));
  }
  return kExitOk;
}

struct Differences {
  double abs = 0, rel = 0;
  size_t beyond = 0; // elements with |a - b| > atol + rtol * |b| (or NaN)
};

/// Largest absolute and relative differences of output `a` from reference
/// `b` (both of `t`'s dtype, compared as doubles), and how many elements
/// differ beyond rtol 1e-3 / atol 1e-4.
Differences compareOutputs(const dlc::TensorInfo &t, const std::string &a,
                           const std::string &b) {
  size_t n = t.sizeBytes / std::max<uint64_t>(1, dlc::dtypeSize(t.dtype));
  auto value = [&](const std::string &buf, size_t i) -> double {
    const char *p = buf.data();
    switch (t.dtype) {
    case DLC_DTYPE_F32: return ((const float *)p)[i];
    case DLC_DTYPE_F64: return ((const double *)p)[i];
    case DLC_DTYPE_I64: return (double)((const int64_t *)p)[i];
    case DLC_DTYPE_I32: return ((const int32_t *)p)[i];
    case DLC_DTYPE_I8: return ((const int8_t *)p)[i];
    case DLC_DTYPE_I16: return ((const int16_t *)p)[i];
    case DLC_DTYPE_U16: return ((const uint16_t *)p)[i];
    case DLC_DTYPE_U32: return ((const uint32_t *)p)[i];
    case DLC_DTYPE_U64: return (double)((const uint64_t *)p)[i];
    case DLC_DTYPE_F16:
    case DLC_DTYPE_BF16: {
      APFloat f(t.dtype == DLC_DTYPE_F16 ? APFloat::IEEEhalf()
                                         : APFloat::BFloat(),
                APInt(16, ((const uint16_t *)p)[i]));
      bool lost;
      f.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      return f.convertToDouble();
    }
    default: return ((const uint8_t *)p)[i]; // u8, bool
    }
  };
  Differences r;
  for (size_t i = 0; i < n; ++i) {
    double x = value(a, i), y = value(b, i);
    if (std::isnan(x) && std::isnan(y))
      continue;
    double d = std::fabs(x - y);
    if (!(d <= 1e-4 + 1e-3 * std::fabs(y)))
      ++r.beyond;
    r.abs = std::max(r.abs, d);
    if (y != 0)
      r.rel = std::max(r.rel, d / std::fabs(y));
  }
  return r;
}

/// `dlc run`: compiles once, then runs each --data DIR in order, writing the
/// outputs to its --out OUTDIR.
int runRun(const Args &args) {
  std::vector<std::string> dataDirs = args.getAll("--data"),
                           outDirs = args.getAll("--out");
  if (dataDirs.empty() || outDirs.empty())
    return usageError("run needs --data DIR and --out OUTDIR");
  if (dataDirs.size() != outDirs.size())
    return usageError("run takes one --out OUTDIR per --data DIR (" +
                      std::to_string(dataDirs.size()) + " --data, " +
                      std::to_string(outDirs.size()) + " --out)");
  std::vector<std::vector<onnx::TensorProto>> sets(dataDirs.size());
  for (auto [dir, set] : llvm::zip(dataDirs, sets)) {
    if (!sys::fs::is_directory(dir)) {
      errs() << "dlc: error: --data " << dir << " is not a directory\n";
      return kExitFailure;
    }
    if (!loadKnownInputs(dir, set))
      return kExitFailure;
  }
  // Values the model may be specialized to (ImportOptions::knownInputs):
  // only those every data set gives alike; an input that differs between
  // data sets stays data.
  std::vector<const onnx::TensorProto *> known;
  for (size_t k = 0; k < sets[0].size(); ++k) {
    std::string bytes = sets[0][k].SerializeAsString();
    bool same = llvm::all_of(sets, [&](const auto &set) {
      return k < set.size() && set[k].SerializeAsString() == bytes;
    });
    known.push_back(same ? &sets[0][k] : nullptr);
  }
  int threads = 0;
  if (StringRef(args.get("--threads").value_or("1")).getAsInteger(10, threads) ||
      threads < 1)
    return usageError("--threads must be an integer >= 1");
  std::optional<std::string> compare = args.get("--compare");
  std::string target = args.get("--target").value_or("cpu");
  if (compare &&
      (*compare != "cpu" || (target != "cuda" && target != "cuda-emulator")))
    return usageError(
        "--compare takes 'cpu' and needs --target cuda (or cuda-emulator)");
  bool perNode = args.has("--per-node");
  if (perNode && !compare)
    return usageError("--per-node needs --compare cpu");
  Session session;
  if (int rc = openSession(args, session, nullptr, known, threads))
    return rc;
  // The same model compiled again (for `target`, every node's outputs
  // exposed with `exposeNodeOutputs`), once, and run on each data set's
  // inputs.
  auto openAlso = [&](Session &s, std::optional<dlc::Target> target,
                      bool exposeNodeOutputs) {
    return openSession(args, s, nullptr, known, threads, target,
                       exposeNodeOutputs);
  };
  auto runAlso = [&](Session &s) {
    if (!s.setBatch(session.batch))
      return false;
    s.inputs = session.inputs;
    s.bind();
    return s.runReporting();
  };
  Session reference, nodesA, nodesB;
  if (compare)
    if (int rc = openAlso(reference, dlc::Target::Cpu, false))
      return rc;
  if (perNode) {
    if (int rc = openAlso(nodesA, std::nullopt, true))
      return rc;
    if (int rc = openAlso(nodesB, dlc::Target::Cpu, true))
      return rc;
  }
  for (auto [index, dataDir, outDir] : llvm::enumerate(dataDirs, outDirs)) {
    std::string prefix =
        dataDirs.size() > 1 ? "data set " + std::to_string(index) + ": " : "";
    if (int rc = readInputs(dataDir, session))
      return rc;
    session.bind();
    if (!session.runReporting())
      return kExitFailure;
    if (compare) {
      // The same model and inputs on the CPU path, output by output.
      if (!runAlso(reference))
        return kExitFailure;
      for (size_t i = 0; i < session.outputs.size(); ++i) {
        Differences d = compareOutputs(session.outInfo[i], session.outputs[i],
                                       reference.outputs[i]);
        outs() << prefix
               << formatv("output {0} '{1}': {2} vs cpu max abs diff {3:e}, "
                          "max rel diff {4:e}\n",
                          i, session.compiled.info.outputs[i].name, target,
                          d.abs, d.rel);
      }
    }
    if (perNode) {
      // Every node's outputs as model outputs, on both paths; the first
      // node (in graph order) whose result differs beyond tolerance is
      // where the paths diverge.
      if (!runAlso(nodesA) || !runAlso(nodesB))
        return kExitFailure;
      size_t first = session.outputs.size(), checked = 0;
      bool diverged = false;
      for (size_t i = first; i < nodesA.outputs.size() && !diverged;
           ++i, ++checked) {
        const dlc::TensorInfo &t = nodesA.outInfo[i];
        Differences d = compareOutputs(t, nodesA.outputs[i], nodesB.outputs[i]);
        if (!d.beyond)
          continue;
        diverged = true;
        outs() << prefix
               << formatv("first divergence: node {0}: {1} of {2} values "
                          "differ beyond rtol 1e-3 / atol 1e-4 (max abs diff "
                          "{3:e}, max rel diff {4:e}); {5} node outputs "
                          "before it agree\n",
                          t.name, d.beyond,
                          t.sizeBytes /
                              std::max<uint64_t>(1, dlc::dtypeSize(t.dtype)),
                          d.abs, d.rel, checked);
      }
      if (!diverged)
        outs() << prefix
               << formatv("all {0} node outputs agree within rtol 1e-3 / "
                          "atol 1e-4\n",
                          checked);
    }
    if (std::error_code ec = sys::fs::create_directories(outDir)) {
      errs() << "dlc: error: cannot create " << outDir << ": " << ec.message()
             << "\n";
      return kExitFailure;
    }
    for (size_t i = 0; i < session.outputs.size(); ++i) {
      SmallString<256> path(outDir);
      sys::path::append(path, "output_" + std::to_string(i) + ".pb");
      std::string error;
      if (!dlc::writeTensorFile(path.str().str(), session.outInfo[i],
                                session.outputBytes(i), error)) {
        errs() << "dlc: error: " << error << "\n";
        return kExitFailure;
      }
    }
  }
  return kExitOk;
}

/// Deterministic inputs for bench: floats in [-1, 1), small integers.
std::string syntheticInput(const dlc::TensorInfo &t, std::mt19937 &rng) {
  std::string bytes(t.sizeBytes, '\0');
  size_t n = t.sizeBytes / std::max<uint64_t>(1, dlc::dtypeSize(t.dtype));
  std::uniform_real_distribution<float> uni(-1.0f, 1.0f);
  for (size_t i = 0; i < n; ++i) {
    switch (t.dtype) {
    case DLC_DTYPE_F32: ((float *)bytes.data())[i] = uni(rng); break;
    case DLC_DTYPE_F64: ((double *)bytes.data())[i] = uni(rng); break;
    case DLC_DTYPE_I64: ((int64_t *)bytes.data())[i] = rng() % 4; break;
    case DLC_DTYPE_I32: ((int32_t *)bytes.data())[i] = rng() % 4; break;
    default: bytes[i * dlc::dtypeSize(t.dtype)] = rng() % 2; break;
    }
  }
  return bytes;
}

/// The median, minimum and mean of `iterations` timed runs after `warmup`
/// untimed ones, in milliseconds; nullopt after printing a run's error.
struct RunTimes {
  double median = 0, min = 0, mean = 0;
  /// Profiled models: each kernel's mean time over the timed runs.
  std::vector<double> kernelMs;
};
std::optional<RunTimes> timeRuns(Session &session, int warmup, int iterations) {
  for (int i = 0; i < warmup; ++i)
    if (!session.runReporting())
      return std::nullopt;
  std::vector<double> ms;
  RunTimes times;
  times.kernelMs.assign(session.profileNames().size(), 0);
  for (int i = 0; i < iterations; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    std::string err = session.run();
    auto t1 = std::chrono::steady_clock::now();
    if (!err.empty()) {
      errs() << "dlc: error: " << err << "\n";
      return std::nullopt;
    }
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    session.addProfile(times.kernelMs, 1.0 / iterations);
  }
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  times.median =
      sorted.size() % 2
          ? sorted[sorted.size() / 2]
          : (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]) / 2;
  times.min = sorted.front();
  for (double v : ms)
    times.mean += v / ms.size();
  return times;
}

/// bench --profile: each kernel's mean time, its share of the mean run,
/// its FLOP and byte rates (from the counts of the ONNX nodes it computes),
/// and whether the kernels add up to the run.
void printProfile(const Session &session, const RunTimes &times,
                  const dlc::ProgramCosts &costs) {
  const std::vector<std::string> names = session.profileNames();
  std::vector<double> flops(names.size(), 0), bytes(names.size(), 0);
  std::vector<bool> known(names.size(), true);
  // Each node's FLOPs, and each analysis kernel's bytes (at its root's
  // node), go to the longest profiled kernel that computes that node (a
  // contraction's packing of its operands and its compute loops carry the
  // same node).
  std::map<std::string, size_t> longest;
  for (size_t i = 0; i < names.size(); ++i) {
    SmallVector<StringRef> parts;
    StringRef(names[i]).split(parts, ' ', -1, /*KeepEmpty=*/false);
    for (StringRef p : parts) {
      auto [it, inserted] = longest.try_emplace(p.str(), i);
      if (!inserted && times.kernelMs[i] > times.kernelMs[it->second])
        it->second = i;
    }
  }
  for (const dlc::KernelCost &k : costs.kernels) {
    for (const auto &[node, f] : k.nodeFlops) {
      auto it = longest.find(node);
      if (it == longest.end())
        continue;
      flops[it->second] += f;
      known[it->second] = known[it->second] && k.unknownFlops.empty();
    }
    auto it = longest.find(k.rootNode);
    if (it != longest.end())
      bytes[it->second] += k.bytes();
  }
  double sum = 0;
  for (double ms : times.kernelMs)
    sum += ms;
  outs() << formatv("profile: {0} kernels add up to {1:f3} ms, {2:f1}% of "
                    "the run's {3:f3} ms (means of the timed runs)\n",
                    names.size(), sum, 100 * sum / times.mean, times.mean);
  outs() << formatv("  {0,4} {1,9} {2,7} {3,9} {4,8}  nodes\n", "#", "ms",
                    "share", "GFLOP/s", "GB/s");
  json::Array rows;
  for (size_t i = 0; i < names.size(); ++i) {
    double ms = times.kernelMs[i];
    double gflops = ms > 0 && known[i] ? flops[i] / ms / 1e6 : 0;
    double gbs = ms > 0 ? bytes[i] / ms / 1e6 : 0;
    std::string nodes =
        names[i].size() > 70 ? names[i].substr(0, 67) + "..." : names[i];
    outs() << formatv("  {0,4} {1,9:f4} {2,6:f1}% {3,9:f1} {4,8:f1}  {5}\n", i,
                      ms, 100 * ms / times.mean, gflops, gbs, nodes);
    rows.push_back(json::Object{{"index", int64_t(i)},
                                {"ms", ms},
                                {"share", ms / times.mean},
                                {"flops", flops[i]},
                                {"bytes", bytes[i]},
                                {"nodes", names[i]}});
  }
  json::Object line{{"profile", json::Object{{"run_ms", times.mean},
                                             {"kernels_ms", sum},
                                             {"kernels", std::move(rows)}}}};
  outs() << formatv("{0}", json::Value(std::move(line))) << "\n";
}

int runBench(const Args &args) {
  int iterations = 0, warmup = 0;
  if (StringRef(args.get("--iterations").value_or("20"))
          .getAsInteger(10, iterations) ||
      StringRef(args.get("--warmup").value_or("3")).getAsInteger(10, warmup) ||
      iterations < 1 || warmup < 0)
    return usageError("--iterations must be an integer >= 1, --warmup >= 0");
  // --threads 1,2: one compile, one model instance and one result per count.
  SmallVector<unsigned> threadCounts;
  SmallVector<StringRef> parts;
  StringRef(args.get("--threads").value_or("1")).split(parts, ',');
  for (StringRef part : parts) {
    unsigned t = 0;
    if (part.getAsInteger(10, t) || t < 1)
      return usageError("--threads takes integers >= 1, comma-separated");
    threadCounts.push_back(t);
  }
  int64_t batch = 1;
  if (StringRef(args.get("--batch").value_or("1")).getAsInteger(10, batch) ||
      batch < 1 || batch > 65536)
    return usageError("--batch must be an integer from 1 to 65536");
  if (args.get("--batch") && args.get("--data"))
    return usageError("--batch and --data: the batch size comes from the data");
  bool profile = args.has("--profile");
  std::string target = args.get("--target").value_or("cpu");
  if (profile && target != "cpu" && target != "cuda")
    return usageError("--profile times the kernels of CPU and CUDA models; "
                      "the emulator's times say nothing of a GPU's");
  Session session;
  // CUDA: each launch timed with events on the stream (graphs off), up to
  // this many per run.
  if (profile && target == "cuda")
    session.cudaProfile = 1u << 16;
  double compileSeconds = 0;
  if (int rc = openSession(args, session, &compileSeconds, {}, threadCounts[0]))
    return rc;
  if (profile && !session.cudaProfile && batch > 1 &&
      !session.compiled.info.batchDim.empty()) {
    errs() << "dlc: error: --profile times one call of the compiled code; a "
              "dynamic batch of "
           << batch << " runs in several: profile --batch 1, or a static "
           << "build of that batch (--dim " << session.compiled.info.batchDim
           << "=" << batch << ")\n";
    return kExitFailure;
  }
  // --profile: FLOPs and bytes of the kernels, as dlc analyze counts them.
  std::optional<dlc::ProgramCosts> costs;
  if (profile) {
    dlc::CompileOptions countOptions;
    if (!parseDims(args, countOptions))
      return kExitFailure;
    costs.emplace();
    if (!dlc::countModelKernels(args.model, countOptions, *costs))
      return kExitCannotCompile;
  }
  if (args.get("--batch") && session.compiled.info.batchDim.empty()) {
    errs() << "dlc: error: --batch needs a model with a dynamic batch (a "
              "symbolic input dimension); this one is static\n";
    return kExitFailure;
  }
  if (!session.setBatch(batch))
    return kExitFailure;
  if (auto data = args.get("--data")) {
    if (int rc = readInputs(*data, session))
      return rc;
  } else {
    // Symbolic dimensions run at the top of their ranges.
    for (dlc::TensorInfo &t : session.inInfo)
      if (!t.dimNames.empty())
        t.shape = t.maxShape;
    std::mt19937 rng(0);
    for (const auto &t : session.inInfo)
      session.inputs.push_back(syntheticInput(t, rng));
  }
  session.bind();
  for (size_t ti = 0; ti < threadCounts.size(); ++ti) {
    unsigned threads = threadCounts[ti];
    if (ti > 0)
      if (int rc = recreateModel(session, threads))
        return rc;
    std::optional<RunTimes> times = timeRuns(session, warmup, iterations);
    if (!times)
      return kExitFailure;
    double median = times->median, min = times->min, mean = times->mean;
    if (profile)
      printProfile(session, *times, *costs);
    outs() << formatv("model {0}: {1} thread(s): median {2:f3} ms, min {3:f3} "
                      "ms, mean {4:f3} ms over {5} runs; compile {6:f2} s; "
                      "workspace {7} bytes\n",
                      args.model, threads, median, min, mean, iterations,
                      compileSeconds, session.compiled.info.workspaceSize);
    outs() << formatv("{{\"model\": \"{0}\", \"median_ms\": {1:f4}, "
                      "\"min_ms\": {2:f4}, \"mean_ms\": {3:f4}, "
                      "\"iterations\": {4}, \"threads\": {5}, "
                      "\"compile_s\": {6:f3}, \"workspace_bytes\": {7}}\n",
                      args.model, median, min, mean, iterations, threads,
                      compileSeconds, session.compiled.info.workspaceSize);
  }
  return kExitOk;
}

/// Pre-flight: every node dlc cannot compile, at once; exit 0 only when the
/// whole model is supported.
int runCheck(const Args &args) {
  dlc::CompileOptions opts;
  if (!parseDims(args, opts))
    return kExitFailure;
  opts.keepGoing = true;
  dlc::BudgetLimits budget;
  if (!parseBudget(args, budget))
    return kExitFailure;
  dlc::CompileWatch watch(args.model, budget);
  opts.onPhase = [&](StringRef phase) { watch.setPhase(phase); };
  dlc::CompiledModel result;
  mlir::DialectRegistry registry;
  dlc::registerCompilerDialects(registry);
  mlir::MLIRContext context(registry);
  context.disableMultithreading();
  context.printOpOnDiagnostic(false);
  dlc::DiagnosticCollector diags(context);
  bool ok = succeeded(dlc::compileModel(context, args.model, opts,
                                        dlc::Stage::Linalg, nulls(), result));
  if (ok) {
    outs() << args.model << ": supported: every node imports and lowers\n";
    return kExitOk;
  }
  for (const std::string &e : diags.errors())
    outs() << "  " << e << "\n";
  outs() << args.model << ": not supported (the problems above)\n";
  return kExitCannotCompile;
}

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
      outs() << "dlc: " << opts.peaks.cpuName << " (" << opts.peaks.cpuIsa
             << "), measured:\n";
      for (const auto &[count, figures] : opts.peaks.cpu)
        outs() << formatv("  {0} thread(s): {1:f1} GFLOP/s fp32 FMA, {2:f1} "
                          "GB/s copy (bytes read + written)\n",
                          count, figures.flops.value / 1e9,
                          figures.bandwidth.value / 1e9);
      outs() << formatv("  one thread's cache: {0} KiB, {1:f1} GB/s copy\n",
                        int64_t(opts.peaks.cacheBytes->value / 1024),
                        opts.peaks.cacheBandwidth->value / 1e9);
      if (const auto &g = opts.peaks.gpu) {
        auto fig = [](const dlc::Figure &f, double scale, const char *unit) {
          return f.source == dlc::FigureSource::Measured
                     ? formatv("{0:f1} {1}", f.value / scale, unit).str()
                     : std::string("not measured");
        };
        outs() << "dlc: " << g->name << ", measured:\n"
               << "  " << fig(g->flops, 1e12, "TFLOP/s") << " fp32 FMA, "
               << fig(g->tensorFlops, 1e12, "TFLOP/s")
               << " fp16 tensor cores (mma.sync, fp32 accumulation)\n"
               << "  " << fig(g->bandwidth, 1e9, "GB/s")
               << " device copy (bytes read + written), "
               << fig(g->memory, double(1u << 30), "GiB") << " memory\n"
               << "  host to device " << fig(g->link, 1e9, "GB/s")
               << " page-locked, " << fig(g->linkPageable, 1e9, "GB/s")
               << " pageable, " << fig(g->linkLatency, 1e-6, "us")
               << " per small copy; " << fig(g->launch, 1e-6, "us")
               << " per kernel launch\n";
        if (!gpuWhy.empty())
          outs() << "  (" << gpuWhy << ")\n";
      } else {
        outs() << "dlc: no GPU measured: " << gpuWhy << "\n";
      }
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

} // namespace

int dlc::driverMain(int argc, char **argv) {
  if (argc >= 2 && (StringRef(argv[1]) == "--help" || StringRef(argv[1]) == "-h")) {
    outs() << kUsage;
    return kExitOk;
  }
  if (argc >= 2 && StringRef(argv[1]) == "--version") {
    outs() << "dlc " << DLC_VERSION << " (runtime ABI "
           << DLC_MODEL_ABI_VERSION << ")\n"
           << "LLVM/MLIR " << LLVM_VERSION_STRING << "\n"
           << "ONNX " << onnx::LAST_RELEASE_VERSION << "\n";
    return kExitOk;
  }
  Args args;
  StringRef command = argc >= 2 ? argv[1] : "";
  if (command == "compile")
    args = parseArgs(argc, argv,
                     {"-o", "--name", "--emit", "--mcpu", "--mtriple",
                      "--target", "--gpu-arch", "--gpu-cubin",
                      "--gpu-precision", "--data", "--dim", "--batch-split",
                      "--batch-chunk", "--max-memory", "--max-time",
                      "--placement", "--cpu-nodes", "--gpu", "--gpu-memory"},
                     {"--shared", "--time-passes", "--quiet"});
  else if (command == "run")
    args = parseArgs(argc, argv,
                     {"--data", "--out", "--target", "--threads", "--compare",
                      "--gpu-arch", "--dim", "--batch-split", "--batch-chunk",
                      "--cuda-graphs", "--gpu-cubin", "--gpu-precision",
                      "--max-memory", "--max-time", "--placement",
                      "--cpu-nodes", "--gpu-memory"},
                     {"--per-node"});
  else if (command == "check")
    args = parseArgs(argc, argv, {"--dim", "--max-memory", "--max-time"}, {});
  else if (command == "bench")
    args = parseArgs(argc, argv,
                     {"--iterations", "--warmup", "--threads", "--data",
                      "--target", "--gpu-arch", "--dim", "--batch",
                      "--batch-split", "--batch-chunk", "--mcpu",
                      "--cuda-graphs", "--gpu-cubin", "--gpu-precision",
                      "--max-memory", "--max-time", "--gpu-memory"},
                     {"--profile"});
  else if (command == "analyze") {
    args = parseArgs(argc, argv,
                     {"--target", "--batch", "--threads", "--dim", "--gpu",
                      "--peaks", "--json", "--html", "--mcpu", "--max-memory",
                      "--max-time"},
                     {"--measure-peaks", "--measure"});
    if (args.error == "missing the model file" && args.has("--measure-peaks"))
      args.error.clear();
  } else
    return usageError(command.empty() ? "missing command"
                                      : "unknown command '" + command.str() + "'");
  if (!args.error.empty())
    return usageError(args.error);
  if (command == "compile")
    return runCompile(args, argv[0]);
  if (command == "run")
    return runRun(args);
  if (command == "check")
    return runCheck(args);
  if (command == "analyze")
    return runAnalyzeCommand(args);
  return runBench(args);
}
