//===- Reduction.cpp - lower Reduce* and ArgMax/ArgMin --------------------===//
#include "ir/DlcOps.h"
#include "passes/lowering/Patterns.h"
#include "passes/lowering/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;

namespace {

/// The identity of `kind`'s combining operation for element type `t`.
TypedAttr reductionInit(OpBuilder &b, StringRef kind, Type t) {
  bool isMax = kind == "max", isMin = kind == "min";
  if (auto ft = dyn_cast<FloatType>(t)) {
    double inf = std::numeric_limits<double>::infinity();
    return b.getFloatAttr(t, isMax ? -inf : isMin ? inf : kind == "prod" ? 1 : 0);
  }
  unsigned w = t.getIntOrFloatBitWidth();
  if (isMax)
    return b.getIntegerAttr(t, APInt::getSignedMinValue(w));
  if (isMin)
    return b.getIntegerAttr(t, APInt::getSignedMaxValue(w));
  return b.getIntegerAttr(t, kind == "prod" ? 1 : 0);
}

/// Iteration-space split of a reduction over `axes`: the map to the kept
/// dims, the kept shape and dims, and the iterator types.
struct ReductionSpace {
  AffineMap keptMap;
  SmallVector<int64_t> keptShape, keptDims;
  SmallVector<utils::IteratorType> iters;
};

ReductionSpace reductionSpace(MLIRContext *ctx, RankedTensorType in,
                              ArrayRef<int64_t> axes) {
  ReductionSpace s;
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < in.getRank(); ++d) {
    bool reduced = llvm::is_contained(axes, d);
    s.iters.push_back(reduced ? utils::IteratorType::reduction
                              : utils::IteratorType::parallel);
    if (!reduced) {
      exprs.push_back(getAffineDimExpr(d, ctx));
      s.keptShape.push_back(in.getDimSize(d));
      s.keptDims.push_back(d);
    }
  }
  s.keptMap = AffineMap::get(in.getRank(), 0, exprs, ctx);
  return s;
}

struct ReduceLowering : OpRewritePattern<dlc::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::ReduceOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto in = op.getInput().getType();
    Type et = in.getElementType();
    bool isFloat = isa<FloatType>(et);
    StringRef kind = op.getKind();
    if (!isFloat && (kind == "mean" || kind == "l2" || kind == "log_sum" ||
                     kind == "log_sum_exp"))
      return rewriter.notifyMatchFailure(op, "needs a float type");
    ReductionSpace space =
        reductionSpace(rewriter.getContext(), in, op.getAxes());
    auto keptType = RankedTensorType::get(space.keptShape, et);
    SmallVector<Value> keptSizes =
        dlc::dynamicDimsOf(rewriter, loc, op.getInput(), space.keptDims);
    Value init = dlc::buildFilledSized(rewriter, loc, keptType,
                                       reductionInit(rewriter, kind, et),
                                       keptSizes);
    Value acc =
        linalg::GenericOp::create(
            rewriter, loc, keptType, op.getInput(), init,
            ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(in.getRank()),
                                space.keptMap},
            space.iters,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value x = args[0], a = args[1], r;
              if (kind == "l1")
                x = isFloat ? Value(math::AbsFOp::create(b, l, x))
                            : Value(math::AbsIOp::create(b, l, x));
              else if (kind == "l2" || kind == "sum_square")
                x = isFloat ? Value(arith::MulFOp::create(b, l, x, x))
                            : Value(arith::MulIOp::create(b, l, x, x));
              else if (kind == "log_sum_exp")
                x = math::ExpOp::create(b, l, x);
              if (kind == "max")
                r = isFloat ? Value(arith::MaximumFOp::create(b, l, a, x))
                            : Value(arith::MaxSIOp::create(b, l, a, x));
              else if (kind == "min")
                r = isFloat ? Value(arith::MinimumFOp::create(b, l, a, x))
                            : Value(arith::MinSIOp::create(b, l, a, x));
              else if (kind == "prod")
                r = isFloat ? Value(arith::MulFOp::create(b, l, a, x))
                            : Value(arith::MulIOp::create(b, l, a, x));
              else
                r = isFloat ? Value(arith::AddFOp::create(b, l, a, x))
                            : Value(arith::AddIOp::create(b, l, a, x));
              linalg::YieldOp::create(b, l, r);
            })
            .getResult(0);
    if (kind == "mean" || kind == "l2" || kind == "log_sum" ||
        kind == "log_sum_exp") {
      // The number of reduced elements (known at run time only along
      // dynamic dimensions).
      // (A static count is a constant in the body.)
      bool dynamicCount = llvm::any_of(
          op.getAxes(), [&](int64_t a) { return in.isDynamicDim(a); });
      Value count = dynamicCount
                        ? dlc::floatCountAlong(rewriter, loc, op.getInput(),
                                               op.getAxes(), et)
                        : Value();
      acc = dlc::buildElementwise(
          rewriter, loc, keptType, {acc},
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            // The mean of no elements is 0, as ONNX Runtime gives (ONNX
            // leaves it undefined): the sum over at least one.
            if (kind == "mean") {
              Value n = count;
              if (n)
                n = arith::MaximumFOp::create(
                    b, l, n,
                    arith::ConstantOp::create(b, l, b.getFloatAttr(et, 1)));
              else if (llvm::any_of(op.getAxes(), [&](int64_t a) {
                         return in.getDimSize(a) == 0;
                       }))
                n = arith::ConstantOp::create(b, l, b.getFloatAttr(et, 1));
              else
                n = dlc::floatCountAlong(b, l, op.getInput(), op.getAxes(), et);
              return arith::DivFOp::create(b, l, args[0], n);
            }
            if (kind == "l2")
              return math::SqrtOp::create(b, l, args[0]);
            return math::LogOp::create(b, l, args[0]);
          });
    }
    rewriter.replaceOp(op, dlc::buildReshape(rewriter, loc, acc, op.getType()));
    return success();
  }
};

struct ArgReduceLowering : OpRewritePattern<dlc::ArgReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::ArgReduceOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto in = op.getInput().getType();
    Type et = in.getElementType();
    int64_t axis = op.getAxis();
    bool isMax = op.getIsMax(), last = op.getSelectLastIndex();
    ReductionSpace space = reductionSpace(rewriter.getContext(), in, {axis});
    auto valType = RankedTensorType::get(space.keptShape, et);
    auto idxType = RankedTensorType::get(space.keptShape, rewriter.getI64Type());
    SmallVector<Value> keptSizes =
        dlc::dynamicDimsOf(rewriter, loc, op.getInput(), space.keptDims);
    Value valInit = dlc::buildFilledSized(
        rewriter, loc, valType,
        reductionInit(rewriter, isMax ? "max" : "min", et), keptSizes);
    Value idxInit = dlc::buildFilledSized(
        rewriter, loc, idxType, rewriter.getI64IntegerAttr(-1), keptSizes);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valType, idxType}, op.getInput(),
        ValueRange{valInit, idxInit},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(in.getRank()),
                            space.keptMap, space.keptMap},
        space.iters, [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = args[0], best = args[1], bestIdx = args[2];
          Value idx = arith::IndexCastOp::create(
              b, l, b.getI64Type(), linalg::IndexOp::create(b, l, axis));
          Value better;
          if (isa<FloatType>(et)) {
            auto p = isMax ? (last ? arith::CmpFPredicate::OGE
                                   : arith::CmpFPredicate::OGT)
                           : (last ? arith::CmpFPredicate::OLE
                                   : arith::CmpFPredicate::OLT);
            better = arith::CmpFOp::create(b, l, p, x, best);
          } else {
            auto p = isMax ? (last ? arith::CmpIPredicate::sge
                                   : arith::CmpIPredicate::sgt)
                           : (last ? arith::CmpIPredicate::sle
                                   : arith::CmpIPredicate::slt);
            better = arith::CmpIOp::create(b, l, p, x, best);
          }
          // The first element always wins (covers all -inf / +inf inputs).
          Value first = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::slt, bestIdx,
              arith::ConstantOp::create(b, l, b.getI64IntegerAttr(0)));
          Value take = arith::OrIOp::create(b, l, better, first);
          linalg::YieldOp::create(
              b, l,
              ValueRange{arith::SelectOp::create(b, l, take, x, best),
                         arith::SelectOp::create(b, l, take, idx, bestIdx)});
        });
    rewriter.replaceOp(op, dlc::buildReshape(rewriter, loc, generic.getResult(1),
                                             op.getType()));
    return success();
  }
};

/// out[..., i, ...] = sum over k of in[..., k, ...] for k <= i (k < i when
/// exclusive; k >= i / k > i when reversed): a reduction over k with the
/// condition in the body.
struct CumSumLowering : OpRewritePattern<dlc::CumSumOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::CumSumOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto type = op.getType();
    Type et = type.getElementType();
    int64_t rank = type.getRank(), axis = op.getAxis();
    bool exclusive = op.getExclusive(), reverse = op.getReverse();
    SmallVector<AffineExpr> inExprs, outExprs;
    for (int64_t d = 0; d < rank; ++d) {
      inExprs.push_back(getAffineDimExpr(d == axis ? rank : d, ctx));
      outExprs.push_back(getAffineDimExpr(d, ctx));
    }
    SmallVector<utils::IteratorType> iters(rank + 1,
                                           utils::IteratorType::parallel);
    iters[rank] = utils::IteratorType::reduction;
    Value init = dlc::buildFilled(rewriter, loc, type, rewriter.getZeroAttr(et),
                                  op.getInput());
    bool isFloat = isa<FloatType>(et);
    rewriter.replaceOp(
        op, linalg::GenericOp::create(
                rewriter, loc, type, op.getInput(), init,
                ArrayRef<AffineMap>{AffineMap::get(rank + 1, 0, inExprs, ctx),
                                    AffineMap::get(rank + 1, 0, outExprs, ctx)},
                iters,
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value i = linalg::IndexOp::create(b, l, axis);
                  Value k = linalg::IndexOp::create(b, l, rank);
                  auto pred = reverse ? (exclusive ? arith::CmpIPredicate::ugt
                                                   : arith::CmpIPredicate::uge)
                                      : (exclusive ? arith::CmpIPredicate::ult
                                                   : arith::CmpIPredicate::ule);
                  Value take = arith::CmpIOp::create(b, l, pred, k, i);
                  Value sum = isFloat
                                  ? Value(arith::AddFOp::create(b, l, args[1], args[0]))
                                  : Value(arith::AddIOp::create(b, l, args[1], args[0]));
                  linalg::YieldOp::create(
                      b, l, Value(arith::SelectOp::create(b, l, take, sum, args[1])));
                })
                .getResult(0));
    return success();
  }
};

} // namespace

void dlc::populateReductionLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<ReduceLowering, ArgReduceLowering, CumSumLowering>(
      patterns.getContext());
}
