//===- Occupancy.cpp - kernels ask ptxas for two blocks per SM ------------===//
#include "codegen/gpu/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace dlc {
#define GEN_PASS_DEF_GPUOCCUPANCY
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct OccupancyPass : dlc::impl::GpuOccupancyBase<OccupancyPass> {
  using Base::Base;

  void runOnOperation() override {
    if (blocksPerSm < 1) {
      getOperation().emitError("blocks-per-sm must be at least 1");
      return signalPassFailure();
    }
    Builder b(&getContext());
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (func.isKernel())
        func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                      b.getI32IntegerAttr(blocksPerSm));
    });
  }
};
} // namespace
