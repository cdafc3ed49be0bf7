//===- FuseElementwise.cpp - guarded elementwise fusion -------------------===//
#include "codegen/common/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct FuseElementwisePass
    : dlc::impl::FuseElementwiseBase<FuseElementwisePass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    int64_t limit = maxBodyOps;
    linalg::ControlFusionFn control = [limit](OpOperand *fused) {
      auto producer = fused->get().getDefiningOp<linalg::GenericOp>();
      auto consumer = dyn_cast<linalg::GenericOp>(fused->getOwner());
      if (!producer || !consumer)
        return false;
      // Each fusion copies the producer's body into the consumer's: a chain
      // of n ops fused whole would copy n^2 / 2 ops.
      auto bodyOps = [](linalg::GenericOp op) {
        return static_cast<int64_t>(op.getBody()->getOperations().size());
      };
      if (bodyOps(producer) + bodyOps(consumer) > limit)
        return false;
      // Fusing a producer with other users duplicates its computation into
      // every consumer: residual chains then recompute quadratically.
      if (!llvm::all_of(producer->getUsers(),
                        [&](Operation *user) { return user == consumer; }))
        return false;
      auto permutations = [](linalg::GenericOp op) {
        return llvm::all_of(op.getIndexingMapsArray(), [](AffineMap m) {
          return m.isProjectedPermutation();
        });
      };
      // The consumer must read each produced element once: through a
      // broadcasting or reduced-away map (a matmul's A[m, k] is reused for
      // every n) the producer's body would be recomputed per reuse, and a
      // contraction with a fused body is no longer a contraction.
      return permutations(producer) &&
             consumer.getMatchingIndexingMap(fused).isPermutation();
    };
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    // A grouped convolution's result leaves its [N, G, F/G, OH, OW] form
    // through a collapse: its elementwise consumers (bias, activation) take
    // that form instead, so that they fuse into the convolution's tiles.
    // Its accumulator (the broadcast bias) enters that form through an
    // expand and takes it too.
    linalg::ControlFusionFn groupedResult = [](OpOperand *fused) {
      if (auto collapse = fused->get().getDefiningOp<tensor::CollapseShapeOp>())
        return collapse.getSrc().getDefiningOp<linalg::Conv2DNgchwGfchwOp>() &&
               isa<linalg::GenericOp>(fused->getOwner());
      auto expand = dyn_cast<tensor::ExpandShapeOp>(fused->getOwner());
      return expand && fused->get().getDefiningOp<linalg::GenericOp>() &&
             llvm::all_of(expand->getUsers(), [](Operation *user) {
               return isa<linalg::Conv2DNgchwGfchwOp>(user);
             });
    };
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, groupedResult);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
