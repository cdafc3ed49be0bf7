//===- Calibration.cpp - predicted against measured kernel times ---------===//
#include "analysis/Calibration.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace llvm;
using namespace dlc;

Calibration dlc::calibrate(const ProgramCosts &costs, const ProgramSizes &sizes,
                           const DevicePeaks &cpu, double scale,
                           const std::vector<ProfiledKernel> &profiled) {
  Calibration c;
  c.threads = cpu.threads;
  std::vector<double> predicted(costs.kernels.size(), 0),
      measured(costs.kernels.size(), 0);
  bool cached = weightsStayCached(sizes, cpu);
  // Node -> the analysis kernels that compute it.
  std::map<std::string, std::vector<size_t>> byNode;
  for (auto [i, k] : llvm::enumerate(costs.kernels)) {
    KernelTime t = predictKernel(k, cpu, scale, cached);
    predicted[i] = t.known ? t.seconds : 0;
    c.predicted += predicted[i];
    for (const std::string &node : k.nodes)
      byNode[node].push_back(i);
  }
  // A profiled kernel goes to the analysis kernel sharing most of its
  // nodes, its root among them counting half a node more (a convolution's
  // padding copy and its compute loops name the same Conv node; the compute
  // also names the fused activation).
  for (const auto &[names, seconds] : profiled) {
    c.measured += seconds;
    SmallVector<StringRef> nodes;
    StringRef(names).split(nodes, ' ', -1, /*KeepEmpty=*/false);
    std::map<size_t, double> score;
    for (StringRef node : nodes)
      if (auto it = byNode.find(node.str()); it != byNode.end())
        for (size_t k : it->second)
          score[k] += costs.kernels[k].rootNode == node ? 1.5 : 1.0;
    auto best = std::max_element(
        score.begin(), score.end(),
        [](const auto &a, const auto &b) { return a.second < b.second; });
    if (best != score.end())
      measured[best->first] += seconds;
    else
      c.unattributed += seconds;
  }
  std::vector<double> ratios;
  for (size_t i = 0; i < costs.kernels.size(); ++i) {
    if (predicted[i] <= 0 && measured[i] <= 0)
      continue;
    c.kernels.push_back({i, predicted[i], measured[i]});
    if (predicted[i] <= 0 || measured[i] <= 0)
      continue;
    double ratio = predicted[i] / measured[i];
    ratios.push_back(ratio);
    ++c.compared;
    if (ratio >= 0.5 && ratio <= 2) {
      ++c.within2x;
      c.within2xShare += measured[i];
    }
  }
  if (c.measured > 0)
    c.within2xShare /= c.measured;
  if (!ratios.empty()) {
    std::sort(ratios.begin(), ratios.end());
    size_t n = ratios.size();
    c.medianRatio =
        n % 2 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
  }
  return c;
}

json::Value dlc::calibrationToJson(const Calibration &c,
                                   const ProgramCosts &costs) {
  json::Array kernels;
  for (const KernelCalibration &k : c.kernels) {
    json::Object o{{"index", int64_t(k.index)},
                   {"nodes", llvm::join(costs.kernels[k.index].nodes, " ")},
                   {"predicted_ms", k.predicted * 1e3},
                   {"measured_ms", k.measured * 1e3}};
    o["predicted_over_measured"] = k.predicted > 0 && k.measured > 0
                                       ? json::Value(k.predicted / k.measured)
                                       : json::Value(nullptr);
    kernels.push_back(std::move(o));
  }
  return json::Object{{"batch", c.batch},
                      {"threads", int64_t(c.threads)},
                      {"predicted_ms", c.predicted * 1e3},
                      {"measured_kernels_ms", c.measured * 1e3},
                      {"measured_run_mean_ms", c.runMean * 1e3},
                      {"unattributed_ms", c.unattributed * 1e3},
                      {"median_predicted_over_measured", c.medianRatio},
                      {"kernels_compared", int64_t(c.compared)},
                      {"kernels_within_2x", int64_t(c.within2x)},
                      {"measured_share_within_2x", c.within2xShare},
                      {"kernels", std::move(kernels)}};
}

void dlc::printCalibration(raw_ostream &os, const Calibration &c,
                           const ProgramCosts &costs) {
  os << formatv(
      "  calibration at batch {0}, {1} thread(s): kernels predicted "
      "{2:f3} ms, measured {3:f3} ms of the profiled runs' mean "
      "{4:f3} ms ({5:f3} ms not attributed to a kernel); per kernel, "
      "predicted/measured median {6:f2}, {7} of {8} within 2x ({9:f0}% "
      "of the measured time)\n",
      c.batch, c.threads, c.predicted * 1e3, c.measured * 1e3, c.runMean * 1e3,
      c.unattributed * 1e3, c.medianRatio, c.within2x, c.compared,
      100 * c.within2xShare);
  // The kernels whose errors cost the most time.
  std::vector<KernelCalibration> worst = c.kernels;
  llvm::sort(worst, [](const KernelCalibration &a, const KernelCalibration &b) {
    return std::fabs(a.predicted - a.measured) >
           std::fabs(b.predicted - b.measured);
  });
  worst.resize(std::min<size_t>(worst.size(), 5));
  for (const KernelCalibration &k : worst) {
    std::string nodes = llvm::join(costs.kernels[k.index].nodes, " ");
    if (nodes.size() > 50)
      nodes = nodes.substr(0, 47) + "...";
    os << formatv(
        "    #{0,-3} {1,-13} predicted {2,8:f3} ms, measured {3,8:f3} "
        "ms  {4}\n",
        k.index, kernelKindName(costs.kernels[k.index].kind), k.predicted * 1e3,
        k.measured * 1e3, nodes);
  }
}
