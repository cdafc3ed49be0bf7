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
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
