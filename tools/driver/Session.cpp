//===- Session.cpp - a model compiled and loaded into dlc
//-------------------===//
#include "tools/driver/Session.h"
#include "analysis/Analyze.h"
#include "codegen/Library.h"
#include "codegen/ModelAbi.h"
#include "compiler/Compiler.h"
#include "compiler/Diagnostics.h"
#include "compiler/Executor.h"
#include "dlc/dlc_model_abi.h"
#include "dlc/dlc_runtime_text.h"
#include "tools/driver/Budget.h"
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
                const std::vector<const onnx::TensorProto *> &knownInputs,
                unsigned threads, std::optional<dlc::Target> target,
                bool exposeNodeOutputs) {
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
    *compileSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
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

/// Largest absolute and relative differences of output `a` from reference
/// `b` (both of `t`'s dtype, compared as doubles), and how many elements
/// differ beyond rtol 1e-3 / atol 1e-4.
Differences compareOutputs(const dlc::TensorInfo &t, const std::string &a,
                           const std::string &b) {
  size_t n = t.sizeBytes / std::max<uint64_t>(1, dlc::dtypeSize(t.dtype));
  auto value = [&](const std::string &buf, size_t i) -> double {
    const char *p = buf.data();
    switch (t.dtype) {
    case DLC_DTYPE_F32:
      return ((const float *)p)[i];
    case DLC_DTYPE_F64:
      return ((const double *)p)[i];
    case DLC_DTYPE_I64:
      return (double)((const int64_t *)p)[i];
    case DLC_DTYPE_I32:
      return ((const int32_t *)p)[i];
    case DLC_DTYPE_I8:
      return ((const int8_t *)p)[i];
    case DLC_DTYPE_I16:
      return ((const int16_t *)p)[i];
    case DLC_DTYPE_U16:
      return ((const uint16_t *)p)[i];
    case DLC_DTYPE_U32:
      return ((const uint32_t *)p)[i];
    case DLC_DTYPE_U64:
      return (double)((const uint64_t *)p)[i];
    case DLC_DTYPE_F16:
    case DLC_DTYPE_BF16: {
      APFloat f(t.dtype == DLC_DTYPE_F16 ? APFloat::IEEEhalf()
                                         : APFloat::BFloat(),
                APInt(16, ((const uint16_t *)p)[i]));
      bool lost;
      f.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      return f.convertToDouble();
    }
    default:
      return ((const uint8_t *)p)[i]; // u8, bool
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

/// Deterministic inputs for bench: floats in [-1, 1), small integers.
std::string syntheticInput(const dlc::TensorInfo &t, std::mt19937 &rng) {
  std::string bytes(t.sizeBytes, '\0');
  size_t n = t.sizeBytes / std::max<uint64_t>(1, dlc::dtypeSize(t.dtype));
  std::uniform_real_distribution<float> uni(-1.0f, 1.0f);
  for (size_t i = 0; i < n; ++i) {
    switch (t.dtype) {
    case DLC_DTYPE_F32:
      ((float *)bytes.data())[i] = uni(rng);
      break;
    case DLC_DTYPE_F64:
      ((double *)bytes.data())[i] = uni(rng);
      break;
    case DLC_DTYPE_I64:
      ((int64_t *)bytes.data())[i] = rng() % 4;
      break;
    case DLC_DTYPE_I32:
      ((int32_t *)bytes.data())[i] = rng() % 4;
      break;
    default:
      bytes[i * dlc::dtypeSize(t.dtype)] = rng() % 2;
      break;
    }
  }
  return bytes;
}

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

} // namespace dlc::driver
