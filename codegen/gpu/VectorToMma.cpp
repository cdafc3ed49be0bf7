//===- VectorToMma.cpp - warps' contractions on tensor cores -------------===//
#include "codegen/gpu/Passes.h"
#include "codegen/gpu/Rounding.h"
#include "ir/DlcAttrs.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/NVGPU/Transforms/Transforms.h"
#include "mlir/IR/Iterators.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_GPUVECTORTOMMA
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

/// The tensor-core config of `launch`'s warp contractions (set on them by
/// dlc-gpu-vectorize), if it has any.
static GpuConfigAttr mmaConfigOf(gpu::LaunchOp launch) {
  GpuConfigAttr found;
  launch.walk([&](vector::ContractionOp contract) {
    auto config = contract->getAttrOfType<GpuConfigAttr>(kGpuConfigAttrName);
    if (config && config.usesMma() && !config.usesWarpgroups()) {
      found = config;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

namespace {
struct VectorToMmaPass : dlc::impl::GpuVectorToMmaBase<VectorToMmaPass> {
  LogicalResult convertLaunch(gpu::LaunchOp launch, GpuConfigAttr config) {
    MLIRContext *ctx = &getContext();
    {
      RewritePatternSet patterns(ctx);
      populatePrepareVectorToMMAPatterns(patterns, /*useNvGpu=*/true);
      // Half-precision operands extended to f32 for the contraction: the
      // instruction takes them as they are (f16 x f16 -> f32).
      vector::populateFoldArithExtensionPatterns(patterns);
      if (failed(applyPatternsGreedily(launch, std::move(patterns))))
        return launch.emitError("cannot prepare the warps' contractions");
    }
    // Upstream's conversion rebuilds the loops that carry fragments
    // without their attributes: the K loops' configs are put back on the
    // loops that hold their (moved) barriers.
    SmallVector<std::pair<Operation *, GpuConfigAttr>> kLoops;
    launch.walk([&](scf::ForOp loop) {
      auto c = loop->getAttrOfType<GpuConfigAttr>(kGpuConfigAttrName);
      if (!c)
        return;
      for (Operation &op : *loop.getBody())
        if (isa<gpu::BarrierOp>(op)) {
          kLoops.push_back({&op, c});
          break;
        }
    });
    // Converted one chain at a time from one of its contractions: given
    // the whole kernel, upstream's conversion would also start a chain at
    // every scalar op that it could convert as an elementwise matrix op
    // (an index multiplication) and then fail on it. A tensor-core kernel
    // has no other contractions: whatever did not convert would run a
    // warp's tile in one thread.
    IRRewriter rewriter(ctx);
    auto remaining = [&] {
      SmallVector<vector::ContractionOp> contracts;
      launch.walk([&](vector::ContractionOp contract) {
        contracts.push_back(contract);
      });
      return contracts;
    };
    for (SmallVector<vector::ContractionOp> left = remaining();
         !left.empty();) {
      vector::ContractionOp first = left.front();
      std::string type;
      llvm::raw_string_ostream os(type);
      os << first.getLhsType() << " x " << first.getRhsType();
      Location loc = first.getLoc();
      if (failed(convertVectorToNVVMCompatibleMMASync(rewriter, first)))
        return emitError(loc, "cannot convert a warp's contraction to "
                              "mma.sync: ")
               << type;
      // The conversion leaves the replaced ops for dead-code elimination.
      for (bool erased = true; erased;) {
        erased = false;
        launch.walk<WalkOrder::PostOrder, ReverseIterator>([&](Operation *op) {
          if (op != launch && isOpTriviallyDead(op)) {
            rewriter.eraseOp(op);
            erased = true;
          }
        });
      }
      SmallVector<vector::ContractionOp> now = remaining();
      if (now.size() >= left.size())
        return emitError(loc, "a tensor-core contraction did not convert to "
                              "mma.sync: ")
               << type;
      left = std::move(now);
    }
    for (auto [barrier, c] : kLoops)
      if (auto loop = dyn_cast<scf::ForOp>(barrier->getParentOp()))
        loop->setAttr(kGpuConfigAttrName, c);
    // f32 instructions as tf32, their operands rounded to the precision
    // (half-precision operands were rounded when they were staged).
    OpBuilder b(ctx);
    launch.walk([&](nvgpu::MmaSyncOp mma) {
      if (!getElementTypeOrSelf(mma.getMatrixA().getType()).isF32())
        return;
      b.setInsertionPoint(mma);
      for (OpOperand *operand :
           {&mma.getMatrixAMutable(), &mma.getMatrixBMutable()})
        operand->set(roundToPrecision(b, mma.getLoc(), operand->get(),
                                      config.getPrecision()));
    });
    RewritePatternSet patterns(ctx);
    nvgpu::populateMmaSyncF32ToTF32Patterns(patterns);
    if (failed(applyPatternsGreedily(launch, std::move(patterns))))
      return launch.emitError("cannot run the f32 mma.sync as tf32");
    return success();
  }

  void runOnOperation() override {
    SmallVector<std::pair<gpu::LaunchOp, GpuConfigAttr>> launches;
    getOperation().walk([&](gpu::LaunchOp launch) {
      if (GpuConfigAttr config = mmaConfigOf(launch))
        launches.push_back({launch, config});
    });
    for (auto [launch, config] : launches)
      if (failed(convertLaunch(launch, config)))
        return signalPassFailure();
  }
};
} // namespace
