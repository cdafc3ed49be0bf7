//===- Session.h - a model compiled and loaded into dlc ----------*- C++
//-*-===//
//
// dlc run and dlc bench compile a model, load it with the JIT and run it
// on buffers they own.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TOOLS_DRIVER_SESSION_H
#define DLC_TOOLS_DRIVER_SESSION_H

#include "compiler/Executor.h"
#include "tools/driver/Command.h"

#include "dlc/dlc_model_abi.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <unistd.h>

namespace dlc::driver {
using llvm::errs;

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
    inTensors.clear();
    outTensors.clear();
    for (size_t i = 0; i < inputs.size(); ++i)
      inTensors.push_back(dlc::tensorOver(inputs[i], inInfo[i]));
    for (size_t i = 0; i < outputs.size(); ++i)
      outTensors.push_back(dlc::tensorOver(outputs[i], outInfo[i]));
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
int recreateModel(Session &session, unsigned threads);
/// Compiles and loads; on failure prints one line and returns the exit code.
int openSession(const Args &args, Session &session, double *compileSeconds,
                const std::vector<const onnx::TensorProto *> &knownInputs = {},
                unsigned threads = 1,
                std::optional<dlc::Target> target = std::nullopt,
                bool exposeNodeOutputs = false);
/// Reads `dir`'s input_*.pb files into the session's inputs.
int readInputs(const std::string &dir, Session &session);

struct Differences {
  double abs = 0, rel = 0;
  size_t beyond = 0; // elements with |a - b| > atol + rtol * |b| (or NaN)
};
/// Largest absolute and relative differences of output `a` from reference
/// `b`, and how many elements differ beyond rtol 1e-3 / atol 1e-4.
Differences compareOutputs(const dlc::TensorInfo &t, const std::string &a,
                           const std::string &b);
/// The median, minimum and mean of `iterations` timed runs after `warmup`
/// untimed ones, in milliseconds; nullopt after printing a run's error.
struct RunTimes {
  double median = 0, min = 0, mean = 0;
  /// Profiled models: each kernel's mean time over the timed runs.
  std::vector<double> kernelMs;
};
std::optional<RunTimes> timeRuns(Session &session, int warmup, int iterations);
/// Deterministic inputs for bench and analyze --measure: floats in [-1, 1),
/// small integers.
std::string syntheticInput(const dlc::TensorInfo &t, std::mt19937 &rng);
} // namespace dlc::driver

#endif
