//===- EmulateKernels.cpp - run outlined kernels on the host CPU ----------===//
#include "codegen/gpu/Passes.h"

namespace dlc {
#define GEN_PASS_DEF_EMULATEKERNELS
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct EmulateKernelsPass : dlc::impl::EmulateKernelsBase<EmulateKernelsPass> {
  /// Turns `kernel` into a func.func in `module` taking (params..., block
  /// index, thread index, block size, grid size).
  LogicalResult emulate(gpu::GPUFuncOp kernel, ModuleOp module) {
    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToEnd(module.getBody());
    Type index = b.getIndexType();
    SmallVector<Type> inputs(kernel.getArgumentTypes());
    inputs.append({index, index, index, index});
    auto func = func::FuncOp::create(b, kernel.getLoc(), kernel.getName(),
                                     b.getFunctionType(inputs, {}));
    func.setPrivate();
    func.getBody().takeBody(kernel.getBody());
    Block &entry = func.getBody().front();
    Value bid = entry.addArgument(index, kernel.getLoc());
    Value tid = entry.addArgument(index, kernel.getLoc());
    Value bdim = entry.addArgument(index, kernel.getLoc());
    Value gdim = entry.addArgument(index, kernel.getLoc());
    WalkResult result = func.walk([&](Operation *op) {
      b.setInsertionPoint(op);
      auto dimOf = [](Operation *op) -> std::optional<gpu::Dimension> {
        if (auto o = dyn_cast<gpu::BlockIdOp>(op))
          return o.getDimension();
        if (auto o = dyn_cast<gpu::ThreadIdOp>(op))
          return o.getDimension();
        if (auto o = dyn_cast<gpu::BlockDimOp>(op))
          return o.getDimension();
        if (auto o = dyn_cast<gpu::GridDimOp>(op))
          return o.getDimension();
        return std::nullopt;
      };
      if (std::optional<gpu::Dimension> dim = dimOf(op)) {
        Value v;
        if (*dim == gpu::Dimension::x)
          v = isa<gpu::BlockIdOp>(op)    ? bid
              : isa<gpu::ThreadIdOp>(op) ? tid
              : isa<gpu::BlockDimOp>(op) ? bdim
                                         : gdim;
        else
          v = arith::ConstantIndexOp::create(
              b, op->getLoc(), isa<gpu::BlockDimOp, gpu::GridDimOp>(op) ? 1 : 0);
        op->replaceAllUsesWith(ValueRange{v});
        op->erase();
        return WalkResult::advance();
      }
      if (isa<gpu::ReturnOp>(op)) {
        func::ReturnOp::create(b, op->getLoc());
        op->erase();
        return WalkResult::advance();
      }
      if (op->getDialect() && op->getDialect()->getNamespace() == "gpu") {
        op->emitError("cannot emulate '") << op->getName() << "' on the CPU";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> kernelModules(
        module.getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp kernels : kernelModules) {
      for (auto kernel :
           llvm::make_early_inc_range(kernels.getOps<gpu::GPUFuncOp>()))
        if (failed(emulate(kernel, module)))
          return signalPassFailure();
    }
    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp l) { launches.push_back(l); });
    for (gpu::LaunchFuncOp launch : launches) {
      OpBuilder b(launch);
      Location loc = launch.getLoc();
      auto isOne = [](Value v) {
        return matchPattern(v, m_One());
      };
      if (!isOne(launch.getGridSizeY()) || !isOne(launch.getGridSizeZ()) ||
          !isOne(launch.getBlockSizeY()) || !isOne(launch.getBlockSizeZ())) {
        launch.emitError("only 1-D grids can be emulated");
        return signalPassFailure();
      }
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      Value grid = launch.getGridSizeX(), block = launch.getBlockSizeX();
      auto blocks = scf::ForOp::create(b, loc, zero, grid, one);
      b.setInsertionPointToStart(blocks.getBody());
      auto threads = scf::ForOp::create(b, loc, zero, block, one);
      b.setInsertionPointToStart(threads.getBody());
      SmallVector<Value> args(launch.getKernelOperands());
      args.append(
          {blocks.getInductionVar(), threads.getInductionVar(), block, grid});
      func::CallOp::create(b, loc, launch.getKernelName().getValue(),
                           TypeRange{}, args);
      launch.erase();
    }
    // Device copies of helper functions duplicate the host's.
    for (gpu::GPUModuleOp kernels : kernelModules)
      kernels.erase();
    module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
  }
};
} // namespace
