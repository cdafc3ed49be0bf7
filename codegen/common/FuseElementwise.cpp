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
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::ControlFusionFn control = [](OpOperand *fused) {
      auto producer = fused->get().getDefiningOp<linalg::GenericOp>();
      auto consumer = dyn_cast<linalg::GenericOp>(fused->getOwner());
      if (!producer || !consumer)
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
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
