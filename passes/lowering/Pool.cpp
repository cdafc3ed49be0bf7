//===- Pool.cpp - lower MaxPool, AveragePool and GlobalAveragePool ----------===//
#include "ir/DlcOps.h"
#include "passes/lowering/Patterns.h"
#include "passes/lowering/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;

namespace {

/// The named linalg op a 2-D window reduction becomes.
enum class NamedPool { None, Max, Sum };

/// The padded input and window reduction shared by max and average pooling.
/// `combine` reduces (input element, accumulator); 2-D windows use the named
/// op `namedKind`, which must compute the same.
template <typename PoolOp>
Value buildWindowReduction(PatternRewriter &rewriter, PoolOp op,
                           TypedAttr padValue, TypedAttr initValue,
                           NamedPool namedKind,
                           function_ref<Value(OpBuilder &, Location, Value,
                                              Value)>
                               combine) {
  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  auto inType = cast<RankedTensorType>(op.getInput().getType());
  auto resultType = cast<RankedTensorType>(op.getType());
  int64_t rank = inType.getRank(), spatial = rank - 2;
  ArrayRef<int64_t> k = op.getKernelShape(), s = op.getStrides(),
                    dil = op.getDilations(), pads = op.getPads();
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t in = inType.getDimSize(2 + i), out = resultType.getDimSize(2 + i);
    low[2 + i] = pads[i];
    // ceil_mode windows may reach past the end padding: pad those too.
    int64_t needed = (out - 1) * s[i] + (k[i] - 1) * dil[i] + 1 - in - pads[i];
    high[2 + i] = std::max(pads[spatial + i], needed);
  }
  Value input = dlc::buildPad(rewriter, loc, op.getInput(), low, high, padValue);
  Value init = dlc::buildFilled(rewriter, loc, resultType, initValue);
  Value window =
      tensor::EmptyOp::create(rewriter, loc, k, resultType.getElementType());

  // 2-D windows become linalg's named NCHW pooling ops, which the CPU
  // vectorizer handles (strided windows included) once tiled to one output
  // row; a generic with a strided read would stay scalar.
  if (spatial == 2 && namedKind != NamedPool::None) {
    SmallVector<NamedAttribute> attrs{
        rewriter.getNamedAttr("strides", rewriter.getI64TensorAttr(s)),
        rewriter.getNamedAttr("dilations", rewriter.getI64TensorAttr(dil))};
    SmallVector<Value> ins{input, window};
    if (namedKind == NamedPool::Max)
      return linalg::PoolingNchwMaxOp::create(rewriter, loc,
                                              TypeRange{resultType}, ins,
                                              ValueRange{init}, attrs)
          .getResult(0);
    return linalg::PoolingNchwSumOp::create(rewriter, loc,
                                            TypeRange{resultType}, ins,
                                            ValueRange{init}, attrs)
        .getResult(0);
  }

  unsigned numLoops = rank + spatial;
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> inExprs{d(0), d(1)}, winExprs, outExprs{d(0), d(1)};
  for (int64_t i = 0; i < spatial; ++i) {
    AffineExpr o = d(2 + i), w = d(rank + i);
    inExprs.push_back(o * s[i] + w * dil[i]);
    winExprs.push_back(w);
    outExprs.push_back(o);
  }
  SmallVector<utils::IteratorType> iters(numLoops,
                                         utils::IteratorType::parallel);
  for (unsigned i = rank; i < numLoops; ++i)
    iters[i] = utils::IteratorType::reduction;
  return linalg::GenericOp::create(
             rewriter, loc, resultType, ValueRange{input, window}, init,
             ArrayRef<AffineMap>{AffineMap::get(numLoops, 0, inExprs, ctx),
                                 AffineMap::get(numLoops, 0, winExprs, ctx),
                                 AffineMap::get(numLoops, 0, outExprs, ctx)},
             iters,
             [&](OpBuilder &b, Location l, ValueRange args) {
               linalg::YieldOp::create(b, l, combine(b, l, args[0], args[2]));
             })
      .getResult(0);
}

struct MaxPoolLowering : OpRewritePattern<dlc::MaxPoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::MaxPoolOp op,
                                PatternRewriter &rewriter) const override {
    auto et = cast<FloatType>(op.getType().getElementType());
    auto negInf = rewriter.getFloatAttr(
        et, -std::numeric_limits<double>::infinity());
    Value result = buildWindowReduction(
        rewriter, op, negInf, negInf, NamedPool::Max,
        [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
          return arith::MaximumFOp::create(b, l, acc, x);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Number of input (or padded, with count_include_pad) elements each output
/// position of one spatial dim averages.
SmallVector<int64_t> windowCounts(int64_t in, int64_t out, int64_t k,
                                  int64_t s, int64_t d, int64_t padBegin,
                                  int64_t padEnd, bool includePad) {
  SmallVector<int64_t> counts;
  int64_t lo = includePad ? -padBegin : 0;
  int64_t hi = includePad ? in + padEnd : in;
  for (int64_t o = 0; o < out; ++o) {
    int64_t n = 0;
    for (int64_t w = 0; w < k; ++w) {
      int64_t pos = o * s - padBegin + w * d;
      n += pos >= lo && pos < hi;
    }
    counts.push_back(std::max<int64_t>(n, 1));
  }
  return counts;
}

struct AvgPoolLowering : OpRewritePattern<dlc::AvgPoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::AvgPoolOp op,
                                PatternRewriter &rewriter) const override {
    auto resultType = op.getType();
    auto et = cast<FloatType>(resultType.getElementType());
    auto zero = rewriter.getFloatAttr(et, 0.0);
    Value sum = buildWindowReduction(
        rewriter, op, zero, zero, NamedPool::Sum,
        [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
          return arith::AddFOp::create(b, l, acc, x);
        });
    // Divisors are static: a constant of the spatial output shape.
    auto inType = op.getInput().getType();
    int64_t spatial = resultType.getRank() - 2;
    SmallVector<SmallVector<int64_t>> perDim;
    SmallVector<int64_t> spatialShape;
    for (int64_t i = 0; i < spatial; ++i) {
      int64_t out = resultType.getDimSize(2 + i);
      spatialShape.push_back(out);
      perDim.push_back(windowCounts(
          inType.getDimSize(2 + i), out, op.getKernelShape()[i],
          op.getStrides()[i], op.getDilations()[i], op.getPads()[i],
          op.getPads()[spatial + i], op.getCountIncludePad()));
    }
    SmallVector<APFloat> divisors;
    int64_t total = 1;
    for (int64_t v : spatialShape)
      total *= v;
    for (int64_t flat = 0; flat < total; ++flat) {
      int64_t rem = flat, count = 1;
      for (int64_t i = spatial - 1; i >= 0; --i) {
        count *= perDim[i][rem % spatialShape[i]];
        rem /= spatialShape[i];
      }
      APFloat v((double)count);
      bool lost;
      v.convert(et.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      divisors.push_back(v);
    }
    auto divType = RankedTensorType::get(spatialShape, et);
    Value div = arith::ConstantOp::create(
        rewriter, op.getLoc(), DenseElementsAttr::get(divType, divisors));
    Value result = dlc::buildElementwise(
        rewriter, op.getLoc(), resultType, {sum, div},
        [](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(b, l, args[0], args[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct GlobalAvgPoolLowering : OpRewritePattern<dlc::GlobalAvgPoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::GlobalAvgPoolOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = op.getInput().getType();
    auto resultType = op.getType();
    Type et = resultType.getElementType();
    int64_t rank = inType.getRank();
    auto sumType = RankedTensorType::get(
        {inType.getDimSize(0), inType.getDimSize(1)}, et);
    Value acc = dlc::buildFilled(rewriter, loc, sumType,
                                 rewriter.getZeroAttr(et));
    SmallVector<utils::IteratorType> iters(rank,
                                           utils::IteratorType::reduction);
    iters[0] = iters[1] = utils::IteratorType::parallel;
    MLIRContext *ctx = rewriter.getContext();
    AffineMap outMap = AffineMap::get(
        rank, 0, {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx)}, ctx);
    Value sum = linalg::GenericOp::create(
                    rewriter, loc, sumType, op.getInput(), acc,
                    ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank),
                                        outMap},
                    iters,
                    [](OpBuilder &b, Location l, ValueRange args) {
                      linalg::YieldOp::create(
                          b, l, Value(arith::AddFOp::create(b, l, args[1], args[0])));
                    })
                    .getResult(0);
    double count = inType.getNumElements() /
                   (double)(inType.getDimSize(0) * inType.getDimSize(1));
    Value mean = dlc::buildElementwise(
        rewriter, loc, sumType, {sum},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value c = arith::ConstantOp::create(b, l, b.getFloatAttr(et, count));
          return arith::DivFOp::create(b, l, args[0], c);
        });
    rewriter.replaceOp(op, dlc::buildReshape(rewriter, loc, mean, resultType));
    return success();
  }
};

} // namespace

void dlc::populatePoolLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<MaxPoolLowering, AvgPoolLowering, GlobalAvgPoolLowering>(
      patterns.getContext());
}
