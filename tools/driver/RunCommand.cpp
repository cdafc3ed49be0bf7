//===- RunCommand.cpp - dlc run
//---------------------------------------------===//
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
  if (StringRef(args.get("--threads").value_or("1"))
          .getAsInteger(10, threads) ||
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

} // namespace dlc::driver
