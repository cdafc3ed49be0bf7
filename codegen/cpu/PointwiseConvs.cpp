//===- PointwiseConvs.cpp - 1x1 convolutions as spatial contractions ------===//
//
// A 1x1 convolution with unit strides is a matmul per image: filters by
// channels times channels by pixels. As linalg.conv_2d_nchw_fchw it is
// tiled and vectorized along the filters, which leaves each tile's
// accumulators in pixel-major order and costs a register transpose per tile
// to store into NCHW; with few input channels (MobileNet's 16-96) that
// transpose is a large part of the tile. As a contraction over
//   (n, f, h, w, c):  y[n, f, h, w] += x[n, c, h, w] * w[f, c, 0, 0]
// the register block is a few filters by vectors of output columns: input
// rows are read as vectors, filter weights broadcast, and results stored as
// they are. Rows of whole vectors are rewritten as they are; otherwise, when
// the image's pixels make whole vectors (28 x 28 = 784), the image is
// flattened into one row (collapse_shape), and the reshapes are folded
// through the elementwise ops around the contraction (its bias, its
// activation), which stay fusable with it. A row of 28 as it is would end
// in a 12-lane remainder, which LLVM legalizes badly (measured 3-4x slower
// than the convolution form); 7 x 7 and 14 x 14 images keep the
// convolution form.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/ConstantData.h"
#include "codegen/common/ConvTypes.h"
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_POINTWISECONVS
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// Whether `value` is inserted into a larger tensor (a concatenation written
/// in place, dlc's concat lowering), directly or through the elementwise ops
/// that follow it (its activation).
static bool feedsInsertSlice(Value value, int depth = 0) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(user))
      if (use.get() == insert.getSource())
        return true;
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (generic && depth < 4 && generic.getNumReductionLoops() == 0 &&
        generic.getNumResults() == 1 &&
        feedsInsertSlice(generic.getResult(0), depth + 1))
      return true;
  }
  return false;
}

namespace {
struct PointwiseConvToContraction
    : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  PointwiseConvToContraction(MLIRContext *ctx, int64_t vectorWidth,
                             bool flattenRows)
      : OpRewritePattern(ctx), vectorWidth(vectorWidth),
        flattenRows(flattenRows) {}

  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    auto wType = dyn_cast<RankedTensorType>(op.getInputs()[1].getType());
    auto yType = dyn_cast<RankedTensorType>(op.getOutputs()[0].getType());
    // The batch may be a run-time size; the image and channels may not.
    if (!wType || !yType || !wType.hasStaticShape() ||
        llvm::any_of(yType.getShape().drop_front(), ShapedType::isDynamic) ||
        wType.getDimSize(2) != 1 || wType.getDimSize(3) != 1 ||
        !yType.getElementType().isF32())
      return failure();
    if (!llvm::all_of(op.getStrides().getValues<int64_t>(),
                      [](int64_t s) { return s == 1; }))
      return failure();
    // Rows of whole vectors as they are; otherwise the image as one row
    // when its pixels make whole vectors (28 x 28 = 784).
    int64_t h = yType.getDimSize(2), w = yType.getDimSize(3);
    bool flatten = w % vectorWidth != 0;
    if (flatten && !flattenRows)
      return failure();
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    SmallVector<ReassociationIndices> pixels = {{0}, {1}, {2, 3}};
    if (flatten && (h * w) % vectorWidth != 0) {
      // Pixels that make no whole vectors (7 x 7, 14 x 14): a 1-D
      // convolution over the image as one row, tiled like any convolution
      // (filter vectors by output columns), with the whole image to take
      // its columns from rather than rows of 7 or 14.
      // Filters in whole vectors only: a tile of half a vector of filters
      // (ShuffleNet's 116) by a long row of columns is vectorized along the
      // columns instead (13-lane vectors: 20x slower, AVX2).
      if (h == 1 || wType.getDimSize(0) % vectorWidth != 0)
        return failure();
      // Nor when the result is part of a concatenation written in place
      // (SqueezeNet's fire modules): the expand_shape after the 1-D
      // convolution would make the concatenation a copy (SqueezeNet 6.27 ->
      // 7.01 ms on AVX2, 3.35 -> 3.58 on AVX-512).
      if (feedsInsertSlice(op->getResult(0)))
        return failure();
      Value x = tensor::CollapseShapeOp::create(rewriter, loc,
                                                op.getInputs()[0], pixels);
      Value init = tensor::CollapseShapeOp::create(rewriter, loc,
                                                   op.getOutputs()[0], pixels);
      // Constant filters stay a constant (reshaped), which
      // dlc-cpu-pack-constant-reads lays out in its tiles' read order.
      auto filtersType =
          RankedTensorType::get({wType.getDimSize(0), wType.getDimSize(1), 1},
                                wType.getElementType());
      Value filters;
      if (auto cst = op.getInputs()[1].getDefiningOp<arith::ConstantOp>())
        if (ElementsAttr reshaped =
                dlc::reshapedConstant(cst.getValue(), filtersType))
          filters = arith::ConstantOp::create(rewriter, loc, filtersType,
                                              cast<TypedAttr>(reshaped));
      if (!filters)
        filters = tensor::CollapseShapeOp::create(rewriter, loc, filtersType,
                                                  op.getInputs()[1], pixels);
      auto conv = linalg::Conv1DNcwFcwOp::create(
          rewriter, loc, TypeRange{init.getType()}, ValueRange{x, filters},
          ValueRange{init},
          {rewriter.getNamedAttr("strides", rewriter.getI64TensorAttr({1})),
           rewriter.getNamedAttr("dilations", rewriter.getI64TensorAttr({1}))});
      rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
          op, yType, conv.getResult(0), pixels);
      return success();
    }

    // The filters as a [F, C] matrix (a contraction's operands are read
    // through projected permutations).
    Value filters = tensor::CollapseShapeOp::create(
        rewriter, loc,
        RankedTensorType::get({wType.getDimSize(0), wType.getDimSize(1)},
                              wType.getElementType()),
        op.getInputs()[1], SmallVector<ReassociationIndices>{{0}, {1, 2, 3}});
    Value x = op.getInputs()[0], init = op.getOutputs()[0];
    if (flatten) {
      x = tensor::CollapseShapeOp::create(rewriter, loc, x, pixels);
      init = tensor::CollapseShapeOp::create(rewriter, loc, init, pixels);
    }
    auto resultType = cast<RankedTensorType>(init.getType());
    int64_t rank = resultType.getRank();
    // Loops (n, f, pixel dims..., c), filters first: the contraction's M dim
    // is the filters, its N dims the pixels (the vector lanes).
    SmallVector<AffineExpr> d;
    for (int64_t i = 0; i <= rank; ++i)
      d.push_back(getAffineDimExpr(i, ctx));
    AffineExpr c = d[rank];
    SmallVector<AffineExpr> xExprs = {d[0], c}, yExprs = {d[0], d[1]};
    for (int64_t i = 2; i < rank; ++i) {
      xExprs.push_back(d[i]);
      yExprs.push_back(d[i]);
    }
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank + 1, 0, {d[1], c}, ctx),
        AffineMap::get(rank + 1, 0, xExprs, ctx),
        AffineMap::get(rank + 1, 0, yExprs, ctx)};
    SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
    iters.push_back(utils::IteratorType::reduction);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, resultType, ValueRange{filters, x}, ValueRange{init},
        maps, iters, [](OpBuilder &b, Location loc, ValueRange args) {
          Value mul = arith::MulFOp::create(b, loc, args[0], args[1]);
          Value add = arith::AddFOp::create(b, loc, args[2], mul);
          linalg::YieldOp::create(b, loc, add);
        });
    if (flatten) {
      rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
          op, yType, generic.getResult(0), pixels);
      return success();
    }
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }

  int64_t vectorWidth;
  bool flattenRows;
};

/// A strided 1x1 convolution (ResNet's downsampling shortcuts) reads every
/// s-th pixel: as a convolution over rows of 7 or 14 output columns it ran
/// 1.4x slower than the unit-stride 1x1 convolution of the same size over
/// an image flattened into one row (AVX2 code). It becomes a unit-stride
/// convolution of a copy of the pixels it reads (a quarter of the input at
/// stride 2), which the pattern above then rewrites:
///   %s = tensor.extract_slice %x[0, 0, 0, 0] [N, C, OH, OW] [1, 1, sh, sw]
///   %c = linalg.copy ins(%s) outs(tensor.empty)
///   %y = linalg.conv_2d_nchw_fchw {strides = 1} ins(%c, %w) outs(%init)
struct StridedPointwiseConv : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<dlc::ConvTypes> types = dlc::staticConvTypes(op);
    if (!types)
      return failure();
    auto [xType, wType, yType] = *types;
    if (wType.getDimSize(2) != 1 || wType.getDimSize(3) != 1 ||
        !yType.getElementType().isF32())
      return failure();
    SmallVector<int64_t> strides(op.getStrides().getValues<int64_t>());
    if (llvm::all_of(strides, [](int64_t s) { return s == 1; }))
      return failure();
    Location loc = op.getLoc();
    SmallVector<int64_t> shape = {xType.getDimSize(0), xType.getDimSize(1),
                                  yType.getDimSize(2), yType.getDimSize(3)};
    SmallVector<OpFoldResult> offsets(4, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes,
        steps = {rewriter.getIndexAttr(1), rewriter.getIndexAttr(1),
                 rewriter.getIndexAttr(strides[0]),
                 rewriter.getIndexAttr(strides[1])};
    for (int64_t d : shape)
      sizes.push_back(rewriter.getIndexAttr(d));
    // Copied where the input is computed: read after the input is inserted
    // into a padded buffer (another convolution's), the input would be
    // copied out before the insert and back after it.
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfterValue(op.getInputs()[0]);
    auto pixelsType = RankedTensorType::get(shape, xType.getElementType());
    Value read = tensor::ExtractSliceOp::create(
        rewriter, loc, pixelsType, op.getInputs()[0], offsets, sizes, steps);
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, shape, xType.getElementType());
    Value pixels =
        linalg::CopyOp::create(rewriter, loc, read, empty).getResult(0);
    rewriter.setInsertionPoint(op);
    rewriter.replaceOpWithNewOp<linalg::Conv2DNchwFchwOp>(
        op, TypeRange{yType}, ValueRange{pixels, op.getInputs()[1]},
        op.getOutputs(), rewriter.getI64TensorAttr({1, 1}),
        rewriter.getI64TensorAttr({1, 1}));
    return success();
  }
};

struct PointwiseConvsPass
    : dlc::impl::PointwiseConvsBase<PointwiseConvsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<PointwiseConvToContraction>(&getContext(), vectorWidth,
                                             flattenImages);
    patterns.add<StridedPointwiseConv>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    if (!flattenImages)
      return;
    // The flattened images' reshapes move through the elementwise ops
    // around them (the bias that initializes the contraction, the
    // activation that follows it), so that those stay fusable with it.
    RewritePatternSet reshapes(&getContext());
    // Not into ops that read strided slices (depthwise taps): their
    // collapsed slices would be copied. Nor into the accumulator or the
    // epilogue of a grouped convolution, which are in its [N, G, F/G, OH,
    // OW] form so that they fuse into its tiles.
    linalg::populateFoldReshapeOpsByCollapsingPatterns(
        reshapes, [](OpOperand *operand) {
          auto generic = dyn_cast<linalg::GenericOp>(operand->getOwner());
          if (!generic)
            generic = operand->get().getDefiningOp<linalg::GenericOp>();
          auto grouped = [](Operation *op) {
            return isa_and_nonnull<linalg::Conv2DNgchwGfchwOp>(op);
          };
          return generic &&
                 llvm::none_of(
                     generic->getOperands(),
                     [&](Value v) {
                       return v.getDefiningOp<tensor::ExtractSliceOp>() ||
                              grouped(v.getDefiningOp());
                     }) &&
                 llvm::none_of(generic->getUsers(), grouped);
        });
    tensor::populateReassociativeReshapeFoldingPatterns(reshapes);
    linalg::FillOp::getCanonicalizationPatterns(reshapes, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(reshapes))))
      signalPassFailure();
  }
};
} // namespace
