//===- StridedReads.cpp - strided vector reads as loads and shuffles ------===//
//
// A vector read of a slice with a stride along its innermost dimension (the
// taps of a stride-2 depthwise convolution) would become one scalar load per
// lane. It is instead one contiguous read covering the strided elements
// followed by a shuffle that picks every s-th of them.
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/StridedReads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {
/// Strides up to this are rewritten; larger ones would read mostly unused
/// elements.
constexpr int64_t kMaxStride = 4;

///   %s = tensor.extract_slice %src[o..] [n..] [t.., s]
///   %v = vector.transfer_read %s[i.., j] : vector<R..xN>
/// ==>
///   %c = tensor.extract_slice %src[o..] [n.., s*(n-1)+1] [t.., 1]
///   %w = vector.transfer_read %c[i.., s*j] : vector<R..x(s*(N-1)+1)>
///   %v = one shuffle [0, s, .., s*(N-1)] per row of %w
/// The contiguous read stays in bounds: its last element is the strided
/// read's last one. Several rows (a tile of several output rows of a
/// stride-2 depthwise convolution) are one contiguous read each.
struct StridedInnermostRead : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto slice = read.getBase().getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || read.getMask() || !read.getPermutationMap().isMinorIdentity())
      return failure();
    VectorType type = read.getVectorType();
    auto sliceType = slice.getType();
    int64_t rank = sliceType.getRank();
    if (rank != slice.getSourceType().getRank() || type.getRank() != rank ||
        type.isScalable() || !sliceType.hasStaticShape())
      return failure();
    if (!llvm::all_of(read.getInBoundsValues(), [](bool b) { return b; }))
      return failure();
    ArrayRef<int64_t> shape = type.getShape();
    int64_t rows = ShapedType::getNumElements(shape.drop_back());
    int64_t lanes = shape.back();
    std::optional<int64_t> stride =
        getConstantIntValue(slice.getMixedStrides().back());
    if (!stride || *stride < 2 || *stride > kMaxStride || lanes < 2)
      return failure();
    int64_t s = *stride;

    Location loc = read.getLoc();
    SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
    SmallVector<OpFoldResult> strides = slice.getMixedStrides();
    int64_t inner = sliceType.getDimSize(rank - 1);
    sizes.back() = rewriter.getIndexAttr(s * (inner - 1) + 1);
    strides.back() = rewriter.getIndexAttr(1);
    Value contiguous = tensor::ExtractSliceOp::create(
        rewriter, loc, slice.getSource(), slice.getMixedOffsets(), sizes,
        strides);

    SmallVector<Value> indices(read.getIndices());
    Value sValue = arith::ConstantIndexOp::create(rewriter, loc, s);
    indices.back() = arith::MulIOp::create(rewriter, loc, indices.back(), sValue);
    int64_t span = s * (lanes - 1) + 1;
    SmallVector<int64_t> wideShape(shape);
    wideShape.back() = span;
    auto wideType = VectorType::get(wideShape, type.getElementType());
    Value wide = vector::TransferReadOp::create(
        rewriter, loc, wideType, contiguous, indices, read.getPadding(),
        SmallVector<bool>(rank, true));

    Type element = type.getElementType();
    SmallVector<int64_t> mask;
    for (int64_t k = 0; k < lanes; ++k)
      mask.push_back(s * k);
    auto pick = [&](Value row) {
      return vector::ShuffleOp::create(rewriter, loc, row, row,
                                       rewriter.getDenseI64ArrayAttr(mask));
    };
    Value flatWide = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get({rows, span}, element), wide);
    Value picked = ub::PoisonOp::create(
        rewriter, loc, VectorType::get({rows, lanes}, element));
    for (int64_t r = 0; r < rows; ++r)
      picked = vector::InsertOp::create(
          rewriter, loc,
          pick(vector::ExtractOp::create(rewriter, loc, flatWide, r)), picked,
          r);
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(read, type, picked);
    return success();
  }
};
} // namespace

void dlc::populateStridedReadPatterns(RewritePatternSet &patterns) {
  patterns.add<StridedInnermostRead>(patterns.getContext());
}
