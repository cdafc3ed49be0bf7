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
// they are. Only rows of whole vectors are rewritten: a row of 28 would end
// in a 12-lane remainder, which LLVM legalizes badly (measured 3-4x slower
// than the convolution form), and 7 or 14 columns waste lanes.
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_POINTWISECONVS
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct PointwiseConvToContraction
    : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  PointwiseConvToContraction(MLIRContext *ctx, int64_t vectorWidth)
      : OpRewritePattern(ctx), vectorWidth(vectorWidth) {}

  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    auto wType = dyn_cast<RankedTensorType>(op.getInputs()[1].getType());
    auto yType = dyn_cast<RankedTensorType>(op.getOutputs()[0].getType());
    if (!wType || !yType || !wType.hasStaticShape() ||
        !yType.hasStaticShape() || wType.getDimSize(2) != 1 ||
        wType.getDimSize(3) != 1 || !yType.getElementType().isF32() ||
        yType.getDimSize(3) % vectorWidth != 0)
      return failure();
    if (!llvm::all_of(op.getStrides().getValues<int64_t>(),
                      [](int64_t s) { return s == 1; }))
      return failure();

    MLIRContext *ctx = op.getContext();
    AffineExpr n, f, h, w, c;
    bindDims(ctx, n, f, h, w, c);
    // The filters as a [F, C] matrix (a contraction's operands are read
    // through projected permutations).
    Value filters = tensor::CollapseShapeOp::create(
        rewriter, op.getLoc(),
        RankedTensorType::get({wType.getDimSize(0), wType.getDimSize(1)},
                              wType.getElementType()),
        op.getInputs()[1], SmallVector<ReassociationIndices>{{0}, {1, 2, 3}});
    // Filters first: the contraction's M dim is the filters, its N dims the
    // pixels (the vector lanes).
    SmallVector<AffineMap> maps = {
        AffineMap::get(5, 0, {f, c}, ctx),
        AffineMap::get(5, 0, {n, c, h, w}, ctx),
        AffineMap::get(5, 0, {n, f, h, w}, ctx)};
    SmallVector<utils::IteratorType> iters(4, utils::IteratorType::parallel);
    iters.push_back(utils::IteratorType::reduction);
    auto generic = linalg::GenericOp::create(
        rewriter, op.getLoc(), yType, ValueRange{filters, op.getInputs()[0]},
        op.getOutputs(), maps,
        iters, [](OpBuilder &b, Location loc, ValueRange args) {
          Value mul = arith::MulFOp::create(b, loc, args[0], args[1]);
          Value add = arith::AddFOp::create(b, loc, args[2], mul);
          linalg::YieldOp::create(b, loc, add);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }

  int64_t vectorWidth;
};

struct PointwiseConvsPass
    : dlc::impl::PointwiseConvsBase<PointwiseConvsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<PointwiseConvToContraction>(&getContext(), vectorWidth);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
