//===- Args.cpp - the command line parsed
//-----------------------------------===//
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

const char *const kUsage = R"(usage:
  dlc --version | --help
  dlc compile MODEL.onnx -o OUTDIR [--name NAME] [--shared]
              [--emit=mlir|linalg|ptx|llvm|asm|obj|lib] [--mcpu CPU]
              [--mtriple T] [--target cpu|cuda|cuda-emulator|auto]
              [--gpu h200|h100|a100] [--gpu-arch sm_80,sm_90] [--gpu-cubin auto|off]
              [--gpu-precision fp32|tf32|fp16|bf16]
              [--placement gpu|auto|cpu-fallback-off] [--cpu-nodes N1,N2,...]
              [--gpu-memory SIZE] [--time-passes] [--quiet] [--data DIR] [--dim NAME=SIZE|NAME=MIN..MAX[,...]]
              [--batch-split auto|K] [--batch-chunk auto|S] [--cpu-state SIZE]
              [--max-memory SIZE] [--max-time SECONDS]
  dlc run MODEL.onnx --data DIR --out OUTDIR [--data DIR2 --out OUTDIR2 ...]
                     [--target cpu|cuda|cuda-emulator]
                     [--threads T] [--compare cpu [--per-node]]
                     [--dim NAME=SIZE|NAME=MIN..MAX[,...]] [--batch-split auto|K]
                     [--batch-chunk auto|S] [--cuda-graphs auto|off]
                     [--gpu-cubin auto|off] [--gpu-precision P] [--gpu-memory SIZE]
                     [--placement P] [--cpu-nodes N1,N2,...] [--cpu-state SIZE]
                     [--mcpu CPU] [--max-memory SIZE] [--max-time SECONDS]
  dlc check MODEL.onnx [--dim NAME=SIZE|NAME=MIN..MAX[,...]]
                       [--max-memory SIZE] [--max-time SECONDS]
  dlc bench MODEL.onnx [--iterations N] [--warmup N] [--threads T[,T...]]
                       [--data DIR] [--target cpu|cuda] [--batch N]
                       [--dim NAME=SIZE|NAME=MIN..MAX[,...]] [--batch-split auto|K]
                       [--batch-chunk auto|S] [--mcpu CPU]
                       [--cuda-graphs auto|off] [--gpu-cubin auto|off]
                       [--gpu-precision P] [--gpu-memory SIZE] [--cpu-state SIZE]
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

--cpu-state SIZE (--target cpu; bytes, or with K, M, G: 512K, 8M; default
2M): the most memory the model keeps from run to run, beside its
workspace, for padded buffers whose borders the first run fills (later runs
then skip the fills); 0 or none: no state, every run fills the borders.

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
      args.error =
          "unknown option '" + key.str() + "' for '" + args.command + "'";
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

} // namespace dlc::driver
