//===- Softmax.cpp - lower softmax to max / exp / sum / divide --------------===//
#include "ir/DlcOps.h"
#include "passes/lowering/Patterns.h"
#include "passes/lowering/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;

namespace {

struct SoftmaxLowering : OpRewritePattern<dlc::SoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::SoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto type = op.getType();
    Type et = type.getElementType();
    int64_t rank = type.getRank(), axis = op.getAxis();
    int64_t last = op.getTrailing() ? rank : axis + 1;

    SmallVector<int64_t> keptShape, keptDims;
    SmallVector<AffineExpr> keptExprs;
    SmallVector<utils::IteratorType> reduceIters;
    for (int64_t d = 0; d < rank; ++d) {
      bool reduced = d >= axis && d < last;
      reduceIters.push_back(reduced ? utils::IteratorType::reduction
                                    : utils::IteratorType::parallel);
      if (!reduced) {
        keptShape.push_back(type.getDimSize(d));
        keptDims.push_back(d);
        keptExprs.push_back(getAffineDimExpr(d, ctx));
      }
    }
    auto keptType = RankedTensorType::get(keptShape, et);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap keptMap = AffineMap::get(rank, 0, keptExprs, ctx);
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);

    SmallVector<Value> keptSizes =
        dlc::dynamicDimsOf(rewriter, loc, op.getInput(), keptDims);
    auto reduce = [&](Value in, TypedAttr initValue, bool isMax) {
      Value init =
          dlc::buildFilledSized(rewriter, loc, keptType, initValue, keptSizes);
      return linalg::GenericOp::create(
                 rewriter, loc, keptType, in, init,
                 ArrayRef<AffineMap>{identity, keptMap}, reduceIters,
                 [&](OpBuilder &b, Location l, ValueRange args) {
                   Value r =
                       isMax ? Value(arith::MaximumFOp::create(b, l, args[1], args[0]))
                             : Value(arith::AddFOp::create(b, l, args[1], args[0]));
                   linalg::YieldOp::create(b, l, r);
                 })
          .getResult(0);
    };
    auto combine = [&](Value full, Value kept, bool isExp) {
      Value init = dlc::buildEmpty(rewriter, loc, type, op.getInput());
      return linalg::GenericOp::create(
                 rewriter, loc, type, ValueRange{full, kept}, init,
                 ArrayRef<AffineMap>{identity, keptMap, identity}, parallel,
                 [&](OpBuilder &b, Location l, ValueRange args) {
                   Value r;
                   if (isExp)
                     r = math::ExpOp::create(
                         b, l, arith::SubFOp::create(b, l, args[0], args[1]));
                   else
                     r = arith::DivFOp::create(b, l, args[0], args[1]);
                   linalg::YieldOp::create(b, l, r);
                 })
          .getResult(0);
    };

    Value max = reduce(op.getInput(),
                       rewriter.getFloatAttr(
                           et, -std::numeric_limits<double>::infinity()),
                       /*isMax=*/true);
    Value exps = combine(op.getInput(), max, /*isExp=*/true);
    Value sum = reduce(exps, rewriter.getFloatAttr(et, 0.0), /*isMax=*/false);
    if (!op.getLog()) {
      rewriter.replaceOp(op, combine(exps, sum, /*isExp=*/false));
      return success();
    }
    // LogSoftmax: x - max - log(sum).
    Value shift = dlc::buildElementwise(
        rewriter, loc, keptType, {max, sum},
        [](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::AddFOp::create(b, l, args[0],
                                       math::LogOp::create(b, l, args[1]));
        });
    Value init = dlc::buildEmpty(rewriter, loc, type, op.getInput());
    rewriter.replaceOp(
        op, linalg::GenericOp::create(
                rewriter, loc, type, ValueRange{op.getInput(), shift}, init,
                ArrayRef<AffineMap>{identity, keptMap, identity}, parallel,
                [](OpBuilder &b, Location l, ValueRange args) {
                  linalg::YieldOp::create(
                      b, l, Value(arith::SubFOp::create(b, l, args[0], args[1])));
                })
                .getResult(0));
    return success();
  }
};

} // namespace

void dlc::populateSoftmaxLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<SoftmaxLowering>(patterns.getContext());
}
