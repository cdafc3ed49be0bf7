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
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {
/// Strides up to this are rewritten; larger ones would read mostly unused
/// elements.
constexpr int64_t kMaxStride = 4;

///   %s = tensor.extract_slice %src[o..] [n..] [1.., s]
///   %v = vector.transfer_read %s[i.., j] : vector<1x..xN>
/// ==>
///   %c = tensor.extract_slice %src[o..] [n.., s*(n-1)+1] [1.., 1]
///   %w = vector.transfer_read %c[i.., s*j] : vector<1x..x(s*(N-1)+1)>
///   %v = shape_cast(shuffle(shape_cast(%w), [0, s, .., s*(N-1)]))
/// The contiguous read stays in bounds: its last element is the strided
/// read's last one.
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
    if (llvm::any_of(shape.drop_back(), [](int64_t d) { return d != 1; }))
      return failure();
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

    auto flat = VectorType::get({span}, type.getElementType());
    Value flatWide = vector::ShapeCastOp::create(rewriter, loc, flat, wide);
    SmallVector<int64_t> mask;
    for (int64_t k = 0; k < lanes; ++k)
      mask.push_back(s * k);
    Value picked = vector::ShuffleOp::create(
        rewriter, loc, flatWide, flatWide, rewriter.getDenseI64ArrayAttr(mask));
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(read, type, picked);
    return success();
  }
};
} // namespace

void dlc::populateStridedReadPatterns(RewritePatternSet &patterns) {
  patterns.add<StridedInnermostRead>(patterns.getContext());
}
