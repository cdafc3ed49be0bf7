//===- CompileCommand.cpp - dlc compile
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

int runCompile(const Args &args, const char *argv0) {
  dlc::CompileOptions opts;
  if (!parseTarget(args, opts) || !parseDims(args, opts) ||
      !parseBatchOptions(args, opts))
    return kExitFailure;
  std::string emit = args.get("--emit").value_or("lib");
  static const std::map<std::string, dlc::Stage> stages = {
      {"mlir", dlc::Stage::Mlir}, {"linalg", dlc::Stage::Linalg},
      {"ptx", dlc::Stage::Ptx},   {"llvm", dlc::Stage::Llvm},
      {"asm", dlc::Stage::Asm},   {"obj", dlc::Stage::Obj},
      {"lib", dlc::Stage::Lib}};
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
         << result.info.workspaceLiveSet << " bytes, ";
  if (result.info.stateSize)
    outs() << "state " << result.info.stateSize << " bytes, ";
  outs() << "weights " << result.info.weightsSize << " bytes)\n";
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

} // namespace dlc::driver
