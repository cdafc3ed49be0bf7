//===- Elementwise.cpp - lower elementwise dlc ops to linalg.generic ------===//
#include "ir/DlcOps.h"
#include "passes/lowering/Patterns.h"
#include "passes/lowering/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

namespace {

/// Add/Sub/Mul/Div: FloatOp for floats, IntOp for integers.
template <typename SrcOp, typename FloatOp, typename IntOp>
struct BinaryLowering : OpRewritePattern<SrcOp> {
  using OpRewritePattern<SrcOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(SrcOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    bool isFloat = isa<FloatType>(type.getElementType());
    if (!isFloat && type.getElementType().isInteger(1))
      return rewriter.notifyMatchFailure(op, "boolean arithmetic");
    Value result = dlc::buildElementwise(
        rewriter, op.getLoc(), type, {op.getLhs(), op.getRhs()},
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          if (isFloat)
            return FloatOp::create(b, loc, args[0], args[1]);
          return IntOp::create(b, loc, args[0], args[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

template <typename SrcOp>
struct UnaryLowering : OpRewritePattern<SrcOp> {
  using OpRewritePattern<SrcOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(SrcOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    Value result = dlc::buildElementwise(
        rewriter, op.getLoc(), type, {op.getInput()},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return buildScalar(b, loc, args[0]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
  static Value buildScalar(OpBuilder &b, Location loc, Value x);
};

template <>
Value UnaryLowering<dlc::ReluOp>::buildScalar(OpBuilder &b, Location loc,
                                              Value x) {
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(x.getType()));
  // maxnumf keeps NaN inputs NaN only if both are; ONNX Relu propagates
  // NaN, which max(x, 0) via cmp+select does.
  Value isPos =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGT, x, zero);
  return arith::SelectOp::create(b, loc, isPos, x, zero);
}

template <>
Value UnaryLowering<dlc::SigmoidOp>::buildScalar(OpBuilder &b, Location loc,
                                                 Value x) {
  // sigmoid(x) = 0.5 + 0.5 * tanh(x / 2): one rational approximation, no
  // exponential.
  Value half = arith::ConstantOp::create(b, loc, b.getFloatAttr(x.getType(), 0.5));
  Value t = math::TanhOp::create(b, loc, arith::MulFOp::create(b, loc, x, half));
  return math::FmaOp::create(b, loc, t, half, half);
}

template <>
Value UnaryLowering<dlc::TanhOp>::buildScalar(OpBuilder &b, Location loc,
                                              Value x) {
  return math::TanhOp::create(b, loc, x);
}

/// y = (x - mean) * scale / sqrt(var + eps) + bias, per channel.
struct BatchNormLowering : OpRewritePattern<dlc::BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::BatchNormOp op,
                                PatternRewriter &rewriter) const override {
    auto type = op.getType();
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineMap> maps;
    maps.push_back(rewriter.getMultiDimIdentityMap(type.getRank()));
    AffineMap channel =
        AffineMap::get(type.getRank(), 0, getAffineDimExpr(1, ctx));
    for (int i = 0; i < 4; ++i)
      maps.push_back(channel);
    maps.push_back(rewriter.getMultiDimIdentityMap(type.getRank()));
    SmallVector<utils::IteratorType> iters(type.getRank(),
                                           utils::IteratorType::parallel);
    Value init = dlc::buildEmpty(rewriter, loc, type, op.getInput());
    float eps = op.getEpsilon().convertToFloat();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type,
        ValueRange{op.getInput(), op.getScale(), op.getBias(), op.getMean(),
                   op.getVariance()},
        init, maps, iters, [&](OpBuilder &b, Location l, ValueRange args) {
          Type et = args[0].getType();
          Value epsV = arith::ConstantOp::create(b, l, b.getFloatAttr(et, eps));
          Value var = arith::AddFOp::create(b, l, args[4], epsV);
          Value inv = math::RsqrtOp::create(b, l, var);
          Value centered = arith::SubFOp::create(b, l, args[0], args[3]);
          Value scaled = arith::MulFOp::create(b, l, centered, inv);
          Value mul = arith::MulFOp::create(b, l, scaled, args[1]);
          linalg::YieldOp::create(b, l,
                                  Value(arith::AddFOp::create(b, l, mul, args[2])));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void dlc::populateElementwiseLoweringPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<BinaryLowering<AddOp, arith::AddFOp, arith::AddIOp>,
               BinaryLowering<SubOp, arith::SubFOp, arith::SubIOp>,
               BinaryLowering<MulOp, arith::MulFOp, arith::MulIOp>,
               BinaryLowering<DivOp, arith::DivFOp, arith::DivSIOp>,
               UnaryLowering<ReluOp>, UnaryLowering<SigmoidOp>,
               UnaryLowering<TanhOp>, BatchNormLowering>(ctx);
}
