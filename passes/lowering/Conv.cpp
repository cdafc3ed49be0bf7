//===- Conv.cpp - lower N-D grouped convolution
//-----------------------------===//
//
// 2-D convolutions without groups become linalg.conv_2d_nchw_fchw (which the
// vectorizer decomposes into 1-D convolutions); depthwise 2-D convolutions
// one elementwise multiply-add per window tap; other grouped 2-D ones
// linalg.conv_2d_ngchw_gfchw over expanded [N, G, C/G, ...] views (each
// target then picks its form: dlc-grouped-conv-taps); every other case
// becomes a grouped N-D convolution in linalg.generic form over those views.
//
//===----------------------------------------------------------------------===//
#include "ir/DlcOps.h"
#include "passes/lowering/Patterns.h"
#include "passes/lowering/Utils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace {

/// Splits dim 0 or 1 of `v` into (groups, size / groups).
Value splitDim(OpBuilder &b, Location loc, Value v, int64_t dim,
               int64_t groups) {
  auto t = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape(t.getShape());
  shape[dim] /= groups;
  shape.insert(shape.begin() + dim, groups);
  SmallVector<ReassociationIndices> reassoc;
  for (int64_t i = 0, j = 0; i < t.getRank(); ++i) {
    if (i == dim) {
      reassoc.push_back({j, j + 1});
      j += 2;
    } else {
      reassoc.push_back({j++});
    }
  }
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, t.getElementType()), v, reassoc);
}

/// A depthwise 2-D convolution (one filter per channel) as one elementwise
/// multiply-add per window tap: acc += x[n, c, oh*s + kh*d, ow*s + kw*d] *
/// w[c, 0, kh, kw], reading strided slices of the padded input. Elementwise
/// fusion merges the taps into one op, which vectorizes along the output
/// columns (the grouped generic form does not vectorize).
Value lowerDepthwise(PatternRewriter &rewriter, dlc::ConvOp op, Value input,
                     Value acc) {
  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  auto resultType = cast<RankedTensorType>(op.getType());
  auto weightType = cast<RankedTensorType>(op.getWeight().getType());
  Type et = resultType.getElementType();
  ArrayRef<int64_t> out = resultType.getShape();
  int64_t channels = weightType.getDimSize(0);
  AffineMap id = rewriter.getMultiDimIdentityMap(4);
  AffineMap channel = AffineMap::get(4, 0, getAffineDimExpr(1, ctx));
  auto oneAttr = rewriter.getIndexAttr(1);
  for (int64_t kh = 0; kh < weightType.getDimSize(2); ++kh)
    for (int64_t kw = 0; kw < weightType.getDimSize(3); ++kw) {
      Value x = dlc::buildWindowTap(
          rewriter, loc, input, RankedTensorType::get(out, et),
          kh * op.getDilations()[0], kw * op.getDilations()[1],
          op.getStrides());
      Value w = tensor::ExtractSliceOp::create(
          rewriter, loc, RankedTensorType::get({channels}, et), op.getWeight(),
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0),
                                 rewriter.getIndexAttr(0),
                                 rewriter.getIndexAttr(kh),
                                 rewriter.getIndexAttr(kw)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(channels), oneAttr,
                                 oneAttr, oneAttr},
          ArrayRef<OpFoldResult>{oneAttr, oneAttr, oneAttr, oneAttr});
      acc = dlc::buildFmaTap(rewriter, loc, resultType, x, w, acc, id, channel);
    }
  return acc;
}

/// A grouped 2-D convolution as linalg.conv_2d_ngchw_gfchw over [N, G, C/G,
/// H, W] / [G, F/G, C/G, KH, KW] / [N, G, F/G, OH, OW] views of the padded
/// input, the weights and the accumulator `acc`. Each target decides how the
/// op runs (dlc-grouped-conv-taps).
Value lowerGroupedNamed(PatternRewriter &rewriter, dlc::ConvOp op, Value input,
                        Value acc, int64_t groups) {
  Location loc = op.getLoc();
  Value split = splitDim(rewriter, loc, acc, 1, groups);
  Value conv =
      linalg::Conv2DNgchwGfchwOp::create(
          rewriter, loc, TypeRange{split.getType()},
          ValueRange{splitDim(rewriter, loc, input, 1, groups),
                     splitDim(rewriter, loc, op.getWeight(), 0, groups)},
          ValueRange{split}, rewriter.getI64TensorAttr(op.getStrides()),
          rewriter.getI64TensorAttr(op.getDilations()))
          .getResult(0);
  return tensor::CollapseShapeOp::create(
      rewriter, loc, op.getType(), conv,
      SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
}

struct ConvLowering : OpRewritePattern<dlc::ConvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::ConvOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type et = resultType.getElementType();
    int64_t rank = resultType.getRank(), spatial = rank - 2;
    ArrayRef<int64_t> pads = op.getPads();

    SmallVector<int64_t> low(rank, 0), high(rank, 0);
    for (int64_t i = 0; i < spatial; ++i) {
      low[2 + i] = pads[i];
      high[2 + i] = pads[spatial + i];
    }
    Value input = dlc::buildPad(rewriter, loc, op.getInput(), low, high,
                                rewriter.getZeroAttr(et));
    auto weightType = cast<RankedTensorType>(op.getWeight().getType());
    // Sizes of the result's dynamic dimensions: the batch from the input,
    // each spatial size by ONNX's formula on the input's size at run time.
    SmallVector<Value> sizes;
    if (resultType.isDynamicDim(0))
      sizes.push_back(tensor::DimOp::create(rewriter, loc, op.getInput(), 0));
    if (resultType.isDynamicDim(1))
      sizes.push_back(tensor::DimOp::create(rewriter, loc, op.getWeight(), 0));
    for (int64_t i = 0; i < spatial; ++i) {
      if (!resultType.isDynamicDim(2 + i))
        continue;
      // (in + pads - ((k - 1) * dilation + 1)) floordiv stride + 1, the
      // kernel size k at run time too where it is dynamic.
      AffineExpr in = getAffineDimExpr(0, ctx), k = getAffineDimExpr(1, ctx);
      AffineMap size = AffineMap::get(
          2, 0,
          (in + pads[i] + pads[spatial + i] -
           ((k - 1) * op.getDilations()[i] + 1))
                  .floorDiv(op.getStrides()[i]) +
              1);
      Value kernel =
          weightType.isDynamicDim(2 + i)
              ? Value(tensor::DimOp::create(rewriter, loc, op.getWeight(),
                                            2 + i))
              : Value(arith::ConstantIndexOp::create(
                    rewriter, loc, weightType.getDimSize(2 + i)));
      // (An input smaller than the window gives no output, not a negative
      // size.)
      Value n = affine::AffineApplyOp::create(
          rewriter, loc, size,
          ValueRange{tensor::DimOp::create(rewriter, loc, op.getInput(), 2 + i),
                     kernel});
      sizes.push_back(affine::AffineMaxOp::create(
          rewriter, loc,
          AffineMap::get(
              1, 0, {getAffineDimExpr(0, ctx), getAffineConstantExpr(0, ctx)},
              ctx),
          ValueRange{n}));
    }

    // The accumulator starts as the broadcast bias, or zero.
    Value init;
    if (Value bias = op.getBias()) {
      AffineMap channel = AffineMap::get(rank, 0, getAffineDimExpr(1, ctx));
      Value empty = tensor::EmptyOp::create(rewriter, loc, resultType, sizes);
      SmallVector<utils::IteratorType> iters(rank,
                                             utils::IteratorType::parallel);
      init = linalg::GenericOp::create(
                 rewriter, loc, resultType, bias, empty,
                 ArrayRef<AffineMap>{channel,
                                     rewriter.getMultiDimIdentityMap(rank)},
                 iters,
                 [](OpBuilder &b, Location l, ValueRange args) {
                   linalg::YieldOp::create(b, l, args[0]);
                 })
                 .getResult(0);
    } else {
      init = dlc::buildFilledSized(rewriter, loc, resultType,
                                   rewriter.getZeroAttr(et), sizes);
    }

    int64_t group = op.getGroup();
    bool depthwise =
        weightType.getDimSize(0) == group && weightType.getDimSize(1) == 1;
    if (spatial == 2 && group == 1) {
      Value conv = linalg::Conv2DNchwFchwOp::create(
                       rewriter, loc, TypeRange{resultType},
                       ValueRange{input, op.getWeight()}, ValueRange{init},
                       rewriter.getI64TensorAttr(op.getStrides()),
                       rewriter.getI64TensorAttr(op.getDilations()))
                       .getResult(0);
      rewriter.replaceOp(op, conv);
      return success();
    }

    // (Depthwise taps are static slices of the output's shape.)
    if (spatial == 2 && group > 1 && resultType.hasStaticShape() && depthwise &&
        isa<FloatType>(et)) {
      rewriter.replaceOp(op, lowerDepthwise(rewriter, op, input, init));
      return success();
    }

    if (spatial == 2 && group > 1 && resultType.hasStaticShape() &&
        isa<FloatType>(et)) {
      rewriter.replaceOp(op,
                         lowerGroupedNamed(rewriter, op, input, init, group));
      return success();
    }

    // Grouped N-D convolution. Loops: n, g, f, o_1..o_S, c, k_1..k_S.
    Value x = splitDim(rewriter, loc, input, 1, group);
    Value w = splitDim(rewriter, loc, op.getWeight(), 0, group);
    Value acc = splitDim(rewriter, loc, init, 1, group);
    auto wt = cast<RankedTensorType>(w.getType());
    unsigned numLoops = 3 + spatial + 1 + spatial;
    auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
    unsigned cLoop = 3 + spatial;
    SmallVector<AffineExpr> xExprs{d(0), d(1), d(cLoop)};
    SmallVector<AffineExpr> wExprs{d(1), d(2), d(cLoop)};
    SmallVector<AffineExpr> oExprs{d(0), d(1), d(2)};
    for (int64_t i = 0; i < spatial; ++i) {
      AffineExpr o = d(3 + i), k = d(cLoop + 1 + i);
      xExprs.push_back(o * op.getStrides()[i] + k * op.getDilations()[i]);
      wExprs.push_back(k);
      oExprs.push_back(o);
    }
    SmallVector<utils::IteratorType> iters(numLoops,
                                           utils::IteratorType::parallel);
    for (unsigned i = cLoop; i < numLoops; ++i)
      iters[i] = utils::IteratorType::reduction;
    (void)wt;
    auto generic = linalg::GenericOp::create(
        rewriter, loc, acc.getType(), ValueRange{x, w}, acc,
        ArrayRef<AffineMap>{AffineMap::get(numLoops, 0, xExprs, ctx),
                            AffineMap::get(numLoops, 0, wExprs, ctx),
                            AffineMap::get(numLoops, 0, oExprs, ctx)},
        iters, [](OpBuilder &b, Location l, ValueRange args) {
          Value mul = arith::MulFOp::create(b, l, args[0], args[1]);
          linalg::YieldOp::create(b, l,
                                  Value(arith::AddFOp::create(b, l, args[2], mul)));
        });
    SmallVector<ReassociationIndices> reassoc{{0}, {1, 2}};
    for (int64_t i = 0; i < spatial; ++i)
      reassoc.push_back({3 + i});
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, resultType, generic.getResult(0), reassoc);
    return success();
  }
};

} // namespace

void dlc::populateConvLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<ConvLowering>(patterns.getContext());
}
