//===- ReportKernelCosts.cpp - remarks with each kernel's costs -----------===//
#include "codegen/common/KernelCosts.h"
#include "codegen/common/Passes.h"

#include "llvm/ADT/StringExtras.h"

namespace dlc {
#define GEN_PASS_DEF_REPORTKERNELCOSTS
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct ReportKernelCostsPass
    : dlc::impl::ReportKernelCostsBase<ReportKernelCostsPass> {
  void runOnOperation() override {
    dlc::ProgramCosts costs = dlc::analyzeKernelCosts(getOperation());
    for (auto [i, kernel] : llvm::enumerate(costs.kernels)) {
      InFlightDiagnostic remark = kernel.root->emitRemark();
      remark << "kernel " << i << ": " << dlc::kernelKindName(kernel.kind)
             << ", " << kernel.numOps << " op(s)";
      if (kernel.unknownFlops.empty())
        remark << ", " << int64_t(kernel.flops) << " FLOPs, "
               << int64_t(kernel.macs) << " multiply-adds";
      else
        remark << ", FLOPs unknown (" << kernel.unknownFlops << ")";
      if (kernel.unknownBytes.empty())
        remark << ", " << int64_t(kernel.bytesRead) << " bytes read, "
               << int64_t(kernel.weightBytes) << " bytes of weights, "
               << int64_t(kernel.bytesWritten) << " bytes written";
      else
        remark << ", bytes unknown (" << kernel.unknownBytes << ")";
      remark << ", parallelism " << int64_t(kernel.parallelism);
      if (kernel.trips != 1)
        remark << ", " << int64_t(kernel.trips) << " trips";
      remark << ", nodes: " << llvm::join(kernel.nodes, " ");
    }
  }
};
} // namespace
