//===- DataMovement.cpp - lower constant, reshape, transpose, concat -------===//
#include "ir/DlcOps.h"
#include "passes/lowering/Patterns.h"
#include "passes/lowering/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace {

struct ConstantLowering : OpRewritePattern<dlc::ConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::ConstantOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, cast<TypedAttr>(op.getValue()));
    return success();
  }
};

struct ReshapeLowering : OpRewritePattern<dlc::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, dlc::buildReshape(rewriter, op.getLoc(),
                                             op.getInput(), op.getType()));
    return success();
  }
};

struct TransposeLowering : OpRewritePattern<dlc::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto type = op.getType();
    Value init = tensor::EmptyOp::create(rewriter, op.getLoc(),
                                         type.getShape(), type.getElementType());
    rewriter.replaceOp(op, linalg::TransposeOp::create(rewriter, op.getLoc(),
                                                       op.getInput(), init,
                                                       op.getPerm())
                               .getResult());
    return success();
  }
};

struct ConcatLowering : OpRewritePattern<dlc::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::ConcatOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    int64_t axis = op.getAxis();
    Value result = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                           type.getElementType());
    int64_t offset = 0;
    for (Value in : op.getInputs()) {
      auto inType = cast<RankedTensorType>(in.getType());
      if (inType.getDimSize(axis) == 0)
        continue;
      SmallVector<OpFoldResult> offsets(type.getRank(), rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes, strides(type.getRank(),
                                               rewriter.getIndexAttr(1));
      for (int64_t d : inType.getShape())
        sizes.push_back(rewriter.getIndexAttr(d));
      offsets[axis] = rewriter.getIndexAttr(offset);
      result = tensor::InsertSliceOp::create(rewriter, loc, in, result, offsets,
                                             sizes, strides);
      offset += inType.getDimSize(axis);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void dlc::populateDataMovementLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<ConstantLowering, ReshapeLowering, TransposeLowering,
               ConcatLowering>(patterns.getContext());
}
