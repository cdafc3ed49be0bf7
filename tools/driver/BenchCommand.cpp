//===- BenchCommand.cpp - dlc bench
//-----------------------------------------===//
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
    const ModelInfo &info = session.compiled.info;
    outs() << formatv("model {0}: {1} thread(s): median {2:f3} ms, min {3:f3} "
                      "ms, mean {4:f3} ms over {5} runs; compile {6:f2} s; "
                      "workspace {7} bytes, state {8} bytes\n",
                      args.model, threads, median, min, mean, iterations,
                      compileSeconds, info.workspaceSize, info.stateSize);
    outs() << formatv("{{\"model\": \"{0}\", \"median_ms\": {1:f4}, "
                      "\"min_ms\": {2:f4}, \"mean_ms\": {3:f4}, "
                      "\"iterations\": {4}, \"threads\": {5}, "
                      "\"compile_s\": {6:f3}, \"workspace_bytes\": {7}, "
                      "\"state_bytes\": {8}}\n",
                      args.model, median, min, mean, iterations, threads,
                      compileSeconds, info.workspaceSize, info.stateSize);
  }
  return kExitOk;
}

} // namespace dlc::driver
