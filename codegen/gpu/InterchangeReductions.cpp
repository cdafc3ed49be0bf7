//===- InterchangeReductions.cpp - parallel loops before reductions -------===//
#include "codegen/gpu/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_INTERCHANGEREDUCTIONS
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct ParallelFirst : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<unsigned> order, reductions;
    for (auto [i, kind] : llvm::enumerate(op.getIteratorTypesArray()))
      (linalg::isParallelIterator(kind) ? order : reductions).push_back(i);
    order.append(reductions);
    if (llvm::equal(order, llvm::seq<unsigned>(0, order.size())))
      return failure();
    if (failed(linalg::interchangeGenericOp(rewriter, op, order)))
      return failure();
    return success();
  }
};

struct InterchangeReductionsPass
    : dlc::impl::InterchangeReductionsBase<InterchangeReductionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ParallelFirst>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
