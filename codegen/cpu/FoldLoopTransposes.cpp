//===- FoldLoopTransposes.cpp - loop-carried transposes -------------------===//
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_FOLDLOOPTRANSPOSES
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// iter_arg -> transpose(P) ... yield transpose(x, P^-1)  ==>
/// carry transpose(init, P); yield x; result = transpose(result, P^-1).
struct FoldCarriedTranspose : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      if (!isa<VectorType>(arg.getType()) || !arg.hasOneUse())
        continue;
      auto in = dyn_cast<vector::TransposeOp>(*arg.getUsers().begin());
      auto out = yield.getOperand(i).getDefiningOp<vector::TransposeOp>();
      if (!in || !out || out->getBlock() != loop.getBody())
        continue;
      ArrayRef<int64_t> perm = in.getPermutation();
      if (invertPermutationVector(perm) != out.getPermutation())
        continue;

      Location loc = loop.getLoc();
      Value init = loop.getInitArgs()[i];
      rewriter.setInsertionPoint(loop);
      Value newInit = vector::TransposeOp::create(rewriter, loc, init, perm);
      Value inner = out.getVector();
      // The new loop carries the transposed type in slot i.
      SmallVector<Value> inits(loop.getInitArgs());
      inits[i] = newInit;
      auto newLoop = scf::ForOp::create(
          rewriter, loc, loop.getLowerBound(), loop.getUpperBound(),
          loop.getStep(), inits);
      Block *newBody = newLoop.getBody(); // no terminator: it has iter_args
      SmallVector<Value> argRepl(newBody->getArguments());
      // Uses of the old iter_arg saw a value of the old type: only the
      // transpose, which now reads the carried value directly.
      rewriter.replaceAllUsesWith(in.getResult(), arg);
      rewriter.eraseOp(in);
      rewriter.mergeBlocks(loop.getBody(), newBody, argRepl);
      // The block argument i now has the transposed type; the merged body
      // used `arg` where it expected the transposed value.
      auto newYield = cast<scf::YieldOp>(newBody->getTerminator());
      rewriter.modifyOpInPlace(newYield,
                               [&] { newYield->setOperand(i, inner); });
      if (out->use_empty())
        rewriter.eraseOp(out);
      rewriter.setInsertionPointAfter(newLoop);
      SmallVector<Value> results(newLoop.getResults());
      results[i] = vector::TransposeOp::create(
          rewriter, loc, newLoop.getResult(i), out.getPermutation());
      rewriter.replaceOp(loop, results);
      return success();
    }
    return failure();
  }
};

struct FoldLoopTransposesPass
    : dlc::impl::FoldLoopTransposesBase<FoldLoopTransposesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldCarriedTranspose>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
