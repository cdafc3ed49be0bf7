//===- AnalysisTest.cpp - the analysis library's C++ API ------------------===//
//
// Calls the analysis library as an application would: a model's kernels
// counted, and the CPU-or-GPU choice. Expected values are computed here by
// hand from the models' shapes.
//
//===----------------------------------------------------------------------===//
#include "analysis/Analyze.h"

#include "codegen/common/CostModel.h"
#include "codegen/common/KernelCosts.h"

#include "test/common/TempModel.h"

#include "onnx/onnx_pb.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace {

/// `y = Relu(MatMul(a, b))` with a: [m, k] an input and b: [k, n] an input
/// or (`constantB`) an initializer of ones, written to a temporary file
/// whose path is returned.
std::string writeMatMul(int64_t m, int64_t k, int64_t n, bool constantB) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(13);
  onnx::GraphProto *graph = model.mutable_graph();
  graph->set_name("g");
  onnx::NodeProto *mm = graph->add_node();
  mm->set_name("mm");
  mm->set_op_type("MatMul");
  mm->add_input("a");
  mm->add_input("b");
  mm->add_output("c");
  onnx::NodeProto *relu = graph->add_node();
  relu->set_name("relu");
  relu->set_op_type("Relu");
  relu->add_input("c");
  relu->add_output("y");
  auto addValue = [](onnx::ValueInfoProto *v, const char *name,
                     std::initializer_list<int64_t> shape) {
    v->set_name(name);
    auto *tensor = v->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(onnx::TensorProto::FLOAT);
    for (int64_t d : shape)
      tensor->mutable_shape()->add_dim()->set_dim_value(d);
  };
  addValue(graph->add_input(), "a", {m, k});
  if (constantB) {
    onnx::TensorProto *b = graph->add_initializer();
    b->set_name("b");
    b->set_data_type(onnx::TensorProto::FLOAT);
    b->add_dims(k);
    b->add_dims(n);
    for (int64_t i = 0; i < k * n; ++i)
      b->add_float_data(1.0f);
  } else {
    addValue(graph->add_input(), "b", {k, n});
  }
  addValue(graph->add_output(), "y", {m, n});
  return dlc::test::writeTempModel(model, "dlc-analysis-test");
}

TEST(AnalysisLibrary, CountsAMatMulsFlopsAndWeights) {
  const int64_t m = 8, k = 48, n = 24;
  std::string path = writeMatMul(m, k, n, /*constantB=*/true);
  dlc::ProgramCosts costs;
  ASSERT_TRUE(dlc::countModelKernels(path, dlc::CompileOptions(), costs));
  std::remove(path.c_str());
  double macs = 0, weightBytes = 0;
  bool namesTheMatMul = false;
  for (const dlc::KernelCost &kernel : costs.kernels) {
    EXPECT_TRUE(kernel.unknownFlops.empty()) << kernel.unknownFlops;
    EXPECT_EQ(kernel.root, nullptr);
    macs += kernel.macs * kernel.trips;
    weightBytes += kernel.weightBytes * kernel.trips;
    for (const std::string &node : kernel.nodes)
      namesTheMatMul |= node == "mm";
  }
  EXPECT_TRUE(namesTheMatMul);
  // One multiply-add per (i, j, l) of the product; b read once, 4 bytes an
  // element.
  EXPECT_DOUBLE_EQ(macs, double(m * k * n));
  EXPECT_DOUBLE_EQ(costs.weightBytes, double(k * n * 4));
  EXPECT_DOUBLE_EQ(weightBytes, double(k * n * 4));
}

/// --target auto's choice for `y = Relu(a[m,k] x b[k,n])`, a and b inputs,
/// one CPU thread against an H200's datasheet figures.
std::optional<dlc::AutoTarget> pickFor(int64_t m, int64_t k, int64_t n) {
  std::string path = writeMatMul(m, k, n, /*constantB=*/false);
  std::optional<dlc::DevicePeaks> gpu = dlc::datasheetGpuPeaks("h200");
  EXPECT_TRUE(gpu);
  std::optional<dlc::AutoTarget> pick;
  if (gpu)
    pick = dlc::pickTarget(path, dlc::CompileOptions(), 1, *gpu);
  std::remove(path.c_str());
  return pick;
}

TEST(AnalysisLibrary, ATinyMatMulStaysOnTheCpu) {
  // 2 * 8^3 FLOPs: far less than one kernel launch and the transfers.
  std::optional<dlc::AutoTarget> pick = pickFor(8, 8, 8);
  ASSERT_TRUE(pick);
  EXPECT_EQ(pick->target, dlc::Target::Cpu) << pick->reason;
  EXPECT_FALSE(pick->reason.empty());
}

TEST(AnalysisLibrary, ALargeMatMulGoesToTheGpu) {
  // 2 * 2048^3 = 17 GFLOP: over 0.1 s on one CPU thread at any rate a core
  // reaches, about 0.3 ms on an H200's datasheet FP32 rate, and 48 MiB over
  // the host link (a few ms).
  std::optional<dlc::AutoTarget> pick = pickFor(2048, 2048, 2048);
  ASSERT_TRUE(pick);
  EXPECT_EQ(pick->target, dlc::Target::Cuda) << pick->reason;
}

} // namespace
