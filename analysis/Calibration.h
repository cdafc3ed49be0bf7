//===- Calibration.h - predicted against measured kernel times ---*- C++
//-*-===//
//
// `dlc analyze --measure`: the CPU's per-kernel predictions set beside the
// times of the kernels of a profiled build (`dlc bench --profile`'s clock
// stamps), matched through the ONNX nodes both name.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_ANALYSIS_CALIBRATION_H
#define DLC_ANALYSIS_CALIBRATION_H

#include "codegen/common/CostModel.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <utility>
#include <vector>

namespace dlc {

/// One profiled kernel: its ONNX nodes (space-separated) and its mean time
/// in seconds.
using ProfiledKernel = std::pair<std::string, double>;

/// One analysis kernel with the profiled time attributed to it.
struct KernelCalibration {
  size_t index = 0;                   // in ProgramCosts::kernels
  double predicted = 0, measured = 0; // seconds
};

struct Calibration {
  int64_t batch = 1;
  unsigned threads = 1;
  /// Analysis kernels with a prediction or a measured time.
  std::vector<KernelCalibration> kernels;
  /// Sums: predicted over every analysis kernel, measured over every
  /// profiled one; `unattributed`: the measured time of profiled kernels
  /// whose nodes no analysis kernel computes.
  double predicted = 0, measured = 0, unattributed = 0;
  /// The mean time of the profiled runs (the kernels' times are means of
  /// the same runs).
  double runMean = 0;
  /// Over the kernels with both figures: the median of predicted/measured,
  /// how many are within 2x either way, and their share of the measured
  /// time.
  double medianRatio = 0, within2xShare = 0;
  unsigned compared = 0, within2x = 0;
};

/// Matches each profiled kernel to the analysis kernel whose root node it
/// computes (else one of whose nodes it computes), and predicts each
/// analysis kernel on `cpu` at `scale` as dlc analyze's run prediction
/// does.
Calibration calibrate(const ProgramCosts &costs, const ProgramSizes &sizes,
                      const DevicePeaks &cpu, double scale,
                      const std::vector<ProfiledKernel> &profiled);

llvm::json::Value calibrationToJson(const Calibration &c,
                                    const ProgramCosts &costs);
/// The summary line and the kernels furthest from their predictions.
void printCalibration(llvm::raw_ostream &os, const Calibration &c,
                      const ProgramCosts &costs);

} // namespace dlc

#endif
