//===- Analyze.h - `dlc analyze`: costs and CPU-vs-GPU advice ----*- C++
//-*-===//
#ifndef DLC_ANALYSIS_ANALYZE_H
#define DLC_ANALYSIS_ANALYZE_H

#include "analysis/Calibration.h"
#include "analysis/Peaks.h"
#include "compiler/Compiler.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dlc {

struct AnalyzeOptions {
  std::string model;
  /// Dimensions and budget hooks for the import.
  CompileOptions compile;
  bool cpu = true, cuda = true;
  /// The batches predicted (the first is the summary's).
  std::vector<int64_t> batches = {1};
  /// CPU threads the CPU predictions are for.
  unsigned threads = 1;
  /// The machines' figures (measured, given or estimated) and the GPU's.
  MachinePeaks peaks;
  DevicePeaks gpu;
  /// --measure: runs the CPU library at a batch and returns its median
  /// time in seconds and, where a profiled build runs that batch in one
  /// call, its kernels' mean times (nullopt after printing an error);
  /// unset: predictions only.
  struct CpuMeasurement {
    double seconds = 0;
    /// The mean of the same runs, which the kernels' mean times add up to.
    double meanSeconds = 0;
    std::vector<ProfiledKernel> kernels;
  };
  std::function<std::optional<CpuMeasurement>(int64_t batch)> measureCpu;
  /// Where the JSON report goes ("-": stdout instead of the text report);
  /// empty: none.
  std::string jsonPath;
  /// Where the HTML report goes; empty: none.
  std::string htmlPath;
};

/// Runs the analysis and prints its report; returns the process exit code.
int runAnalyze(const AnalyzeOptions &options);

/// `--target auto`: the device the cost model predicts faster for `model`
/// at its own batch (the CPU's estimated figures at `threads`, the GPU's
/// datasheet, transfers included; the CPU when the batch does not fit in
/// the GPU's memory), and why. Prints the errors and returns nullopt when
/// it cannot tell.
struct AutoTarget {
  Target target = Target::Cpu;
  std::string reason;
};
std::optional<AutoTarget> pickTarget(const std::string &model,
                                     const CompileOptions &compile,
                                     unsigned threads, const DevicePeaks &gpu);

/// The kernels of `model` as dlc analyze counts them (at `compile`'s
/// dimensions: names, kinds and figures; their `root` and `ops` are null, the
/// module they were counted on being gone); prints the errors and returns
/// false when it cannot.
bool countModelKernels(const std::string &model, const CompileOptions &compile,
                       ProgramCosts &costs);

} // namespace dlc

#endif
