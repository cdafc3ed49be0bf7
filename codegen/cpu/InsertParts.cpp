//===- InsertParts.cpp - insert a split op's parts where they are read ----===//
//
// An op split into parts (a remainder split by tile-and-fuse) is joined by
// inserting each part into an empty tensor. When that joined value is
// itself inserted into a larger tensor (a concatenation, the interior of a
// padded buffer), each part is inserted there directly instead: empty-tensor
// elimination then has each part's producer write its slice of the larger
// buffer in place, where a joined value in between would leave a buffer of
// its own and a copy of it.
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_INSERTPARTS
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// Static offsets, unit strides, no rank change.
bool isPlainInsert(tensor::InsertSliceOp insert) {
  return !llvm::any_of(insert.getStaticOffsets(), ShapedType::isDynamic) &&
         llvm::all_of(insert.getStaticStrides(),
                      [](int64_t s) { return s == 1; }) &&
         insert.getSourceType().getRank() == insert.getDestType().getRank();
}

/// The inserts, last first, that make `v` from parts inserted into a
/// `tensor.empty` (each a plain insert read only by the next); empty if `v`
/// is not made so.
SmallVector<tensor::InsertSliceOp> joinedParts(Value v) {
  SmallVector<tensor::InsertSliceOp> parts;
  while (auto insert = v.getDefiningOp<tensor::InsertSliceOp>()) {
    if (!v.hasOneUse() || !isPlainInsert(insert))
      return {};
    parts.push_back(insert);
    v = insert.getDest();
  }
  if (!v.getDefiningOp<tensor::EmptyOp>())
    return {};
  return parts;
}

/// insert (insert b into (insert a into empty)) into d
///   -> insert b into (insert a into d), at the composed offsets.
/// What the parts do not cover was undefined (the empty tensor's) and keeps
/// `d`'s values instead.
struct InsertJoinedParts : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::InsertSliceOp outer,
                                PatternRewriter &rewriter) const override {
    if (!isPlainInsert(outer))
      return failure();
    SmallVector<tensor::InsertSliceOp> parts = joinedParts(outer.getSource());
    if (parts.empty())
      return failure();
    ArrayRef<int64_t> base = outer.getStaticOffsets();
    Value result = outer.getDest();
    for (tensor::InsertSliceOp part : llvm::reverse(parts)) {
      SmallVector<OpFoldResult> offsets;
      for (auto [o, b] : llvm::zip(part.getStaticOffsets(), base))
        offsets.push_back(rewriter.getIndexAttr(o + b));
      result = tensor::InsertSliceOp::create(
          rewriter, outer.getLoc(), part.getSource(), result, offsets,
          part.getMixedSizes(), part.getMixedStrides());
    }
    rewriter.replaceOp(outer, result);
    for (tensor::InsertSliceOp part : parts)
      if (part->use_empty())
        rewriter.eraseOp(part);
    return success();
  }
};

struct InsertPartsPass : dlc::impl::InsertPartsBase<InsertPartsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<InsertJoinedParts>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
