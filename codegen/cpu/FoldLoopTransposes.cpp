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
      // Copies: both transposes are erased below.
      SmallVector<int64_t> perm(in.getPermutation());
      SmallVector<int64_t> outPerm(out.getPermutation());
      if (invertPermutationVector(perm) != outPerm)
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
          rewriter, loc, newLoop.getResult(i), outPerm);
      rewriter.replaceOp(loop, results);
      return success();
    }
    return failure();
  }
};

/// A loop-carried contraction accumulator whose innermost dimension does
/// not fill whole vectors while another parallel dimension of it does:
///   for ... iter_args(%acc) { %r = vector.contract %a, %b, %acc; yield %r }
/// ==> the loop carries transpose(%acc) with that dimension innermost (the
/// contraction's accumulator map permuted the same way), and the result is
/// transposed back after the loop.
struct WidenContractLanes : OpRewritePattern<scf::ForOp> {
  WidenContractLanes(MLIRContext *ctx, int64_t vectorWidth)
      : OpRewritePattern(ctx), vectorWidth(vectorWidth) {}

  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      auto type = dyn_cast<VectorType>(arg.getType());
      if (!type || type.getRank() < 2 || type.isScalable() || !arg.hasOneUse())
        continue;
      auto contract = dyn_cast<vector::ContractionOp>(*arg.getUsers().begin());
      if (!contract || contract.getAcc() != arg ||
          yield.getOperand(i) != contract.getResult() ||
          !contract.getResult().hasOneUse())
        continue;
      ArrayRef<int64_t> shape = type.getShape();
      int64_t rank = type.getRank();
      if (shape[rank - 1] % vectorWidth == 0)
        continue;
      // The largest other dimension made of a power of two of whole vectors
      // goes innermost (LLVM splits such vectors into registers cleanly).
      int64_t lanes = -1;
      for (int64_t d = 0; d < rank - 1; ++d)
        if (shape[d] % vectorWidth == 0 &&
            llvm::isPowerOf2_64(shape[d] / vectorWidth) &&
            (lanes < 0 || shape[d] > shape[lanes]))
          lanes = d;
      if (lanes < 0)
        continue;
      SmallVector<int64_t> perm;
      for (int64_t d = 0; d < rank; ++d)
        if (d != lanes)
          perm.push_back(d);
      perm.push_back(lanes);

      Location loc = loop.getLoc();
      rewriter.setInsertionPoint(loop);
      SmallVector<Value> inits(loop.getInitArgs());
      inits[i] = vector::TransposeOp::create(rewriter, loc, inits[i], perm);
      auto newLoop = scf::ForOp::create(rewriter, loc, loop.getLowerBound(),
                                        loop.getUpperBound(), loop.getStep(),
                                        inits);
      Block *newBody = newLoop.getBody();
      rewriter.mergeBlocks(loop.getBody(), newBody, newBody->getArguments());
      // The contraction now accumulates in the carried layout.
      SmallVector<AffineMap> maps = contract.getIndexingMapsArray();
      AffineMap accMap = maps[2];
      SmallVector<AffineExpr> results;
      for (int64_t d : perm)
        results.push_back(accMap.getResult(d));
      maps[2] = AffineMap::get(accMap.getNumDims(), 0, results,
                               rewriter.getContext());
      rewriter.setInsertionPoint(contract);
      auto widened = vector::ContractionOp::create(
          rewriter, contract.getLoc(), contract.getLhs(), contract.getRhs(),
          newBody->getArgument(1 + i), rewriter.getAffineMapArrayAttr(maps),
          contract.getIteratorTypes(), contract.getKind());
      rewriter.replaceOp(contract, widened.getResult());
      rewriter.setInsertionPointAfter(newLoop);
      SmallVector<Value> loopResults(newLoop.getResults());
      loopResults[i] = vector::TransposeOp::create(
          rewriter, loc, newLoop.getResult(i), invertPermutationVector(perm));
      rewriter.replaceOp(loop, loopResults);
      return success();
    }
    return failure();
  }

  int64_t vectorWidth;
};

struct FoldLoopTransposesPass
    : dlc::impl::FoldLoopTransposesBase<FoldLoopTransposesPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldCarriedTranspose>(&getContext());
    patterns.add<WidenContractLanes>(&getContext(), vectorWidth);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
