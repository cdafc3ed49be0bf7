//===- MergeKernelModules.cpp - one gpu.module for all kernels ------------===//
#include "codegen/gpu/Passes.h"

namespace dlc {
#define GEN_PASS_DEF_MERGEKERNELMODULES
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct MergeKernelModulesPass
    : dlc::impl::MergeKernelModulesBase<MergeKernelModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> kernelModules(
        module.getOps<gpu::GPUModuleOp>());
    if (kernelModules.empty())
      return;
    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToEnd(module.getBody());
    auto merged = gpu::GPUModuleOp::create(b, module.getLoc(), "dlc_kernels");
    Block &mergedBody = merged.getBodyRegion().front();

    // Old (module, kernel) -> new kernel name.
    llvm::DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> renamed;
    for (gpu::GPUModuleOp old : kernelModules) {
      SmallVector<gpu::GPUFuncOp> funcs(old.getOps<gpu::GPUFuncOp>());
      for (gpu::GPUFuncOp func : funcs) {
        std::string name = old.getName().str();
        if (funcs.size() > 1)
          name += "_" + func.getName().str();
        StringAttr newName = b.getStringAttr(name);
        renamed[{old.getNameAttr(), func.getNameAttr()}] = newName;
        func->moveBefore(&mergedBody, mergedBody.end());
        func.setName(newName);
      }
      // Device functions the kernels call (cloned by outlining into each
      // module that uses them): one copy each.
      for (Operation &op :
           llvm::make_early_inc_range(old.getBodyRegion().front())) {
        auto symbol = dyn_cast<SymbolOpInterface>(op);
        if (!symbol) {
          op.emitError("unexpected op in an outlined kernel module");
          return signalPassFailure();
        }
        if (!SymbolTable::lookupSymbolIn(merged, symbol.getNameAttr()))
          op.moveBefore(&mergedBody, mergedBody.end());
      }
      old.erase();
    }
    module.walk([&](gpu::LaunchFuncOp launch) {
      auto key = std::make_pair(launch.getKernelModuleName(),
                                launch.getKernelName());
      auto it = renamed.find(key);
      if (it == renamed.end())
        return;
      launch.setKernelAttr(SymbolRefAttr::get(
          merged.getNameAttr(), {FlatSymbolRefAttr::get(it->second)}));
    });
  }
};
} // namespace
