//===- HoistAccumulators.cpp - a thread's accumulators stay in registers --===//
#include "codegen/gpu/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace dlc {
#define GEN_PASS_DEF_GPUHOISTACCUMULATORS
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct HoistAccumulatorsPass
    : dlc::impl::GpuHoistAccumulatorsBase<HoistAccumulatorsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *ctx = &getContext();
    {
      // Transfers of views index their buffers: a thread's tile of the
      // accumulator is then the same indices in every K step.
      RewritePatternSet patterns(ctx);
      memref::populateFoldMemRefAliasOpPatterns(patterns);
      (void)applyPatternsGreedily(func, std::move(patterns));
    }
    IRRewriter rewriter(ctx);
    DominanceInfo dominance(func);
    eliminateCommonSubExpressions(rewriter, dominance, func);
    func.walk([](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
    // The K loops run the same number of times in every thread of a block
    // (their bounds are constants), which upstream hoisting needs on
    // distributed loops.
    linalg::hoistRedundantVectorTransfers(func, /*verifyNonZeroTrip=*/true);
    // The accumulator's initial value (a fill, a bias) and the epilogues
    // read and write the same thread's tile: forwarded, and the overwritten
    // stores removed.
    vector::transferOpflowOpt(rewriter, func);
    // Nothing after a kernel's last barrier reads what it orders.
    func.walk([&](gpu::LaunchOp launch) {
      Operation *terminator = launch.getBody().front().getTerminator();
      while (auto barrier =
                 dyn_cast_or_null<gpu::BarrierOp>(terminator->getPrevNode()))
        rewriter.eraseOp(barrier);
    });
  }
};
} // namespace
