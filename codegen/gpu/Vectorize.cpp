//===- Vectorize.cpp - vectorize the threads' tiles of GPU kernels --------===//
#include "codegen/gpu/Passes.h"
#include "codegen/gpu/Tiling.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_GPUVECTORIZE
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {
struct VectorizePass : dlc::impl::GpuVectorizeBase<VectorizePass> {
  using Base::Base;
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::LinalgOp> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      auto thread = op->getParentOfType<scf::ForallOp>();
      if (!thread || !gpu_tiling::isThreadForall(thread) ||
          !op.hasPureTensorSemantics() || op.hasDynamicShape())
        return;
      // Vectors of i1 are bit-packed in memory while i1 tensors are stored
      // one byte per element (as on the CPU): keep boolean ops scalar.
      auto isBool = [](Type t) { return getElementTypeOrSelf(t).isInteger(1); };
      if (llvm::any_of(op->getOperandTypes(), isBool) ||
          llvm::any_of(op->getResultTypes(), isBool))
        return;
      candidates.push_back(op);
    });
    for (linalg::LinalgOp op : candidates) {
      // Ops the vectorizer does not take (gathers with computed indices,
      // convolution windows) stay and become loops, as do a thread's long
      // reductions (a whole 112 x 112 window would be one vector); a
      // contraction's K step is its register block.
      if (failed(linalg::vectorizeOpPrecondition(op)))
        continue;
      int64_t volume = 1, reduced = 1;
      for (auto [r, it] : llvm::zip(op.getStaticLoopRanges(),
                                    op.getIteratorTypesArray())) {
        volume *= r;
        if (linalg::isReductionIterator(it))
          reduced *= r;
      }
      bool contraction = linalg::isaContractionOpInterface(op);
      if (reduced > maxVolume ||
          volume > (contraction ? maxContractionVolume : maxVolume))
        continue;
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::VectorizationResult> result =
          linalg::vectorize(rewriter, op);
      if (succeeded(result))
        rewriter.replaceOp(op, result->replacements);
    }
    RewritePatternSet patterns(&getContext());
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns,
                                                        &getContext());
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
