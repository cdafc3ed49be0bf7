//===- LowerVectors.cpp - kernel vector ops -> 1-D loads, stores, FMAs ----===//
#include "codegen/gpu/Alignment.h"
#include "codegen/gpu/Passes.h"

#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_GPULOWERVECTORS
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// The unrolled shape of a vector op: one element along every dim but the
/// innermost, at most `lanes` along it (a 16-byte access for f32).
static std::optional<SmallVector<int64_t>> nativeShape(Operation *op,
                                                       int64_t lanes) {
  VectorType type;
  if (auto read = dyn_cast<vector::TransferReadOp>(op))
    type = read.getVectorType();
  else if (auto write = dyn_cast<vector::TransferWriteOp>(op))
    type = write.getVectorType();
  else if (auto contract = dyn_cast<vector::ContractionOp>(op)) {
    // Contractions unroll to one output element per step along every dim
    // but the innermost output dim; their reduction dims to one.
    SmallVector<int64_t> shape(contract.getIteratorTypes().size(), 1);
    auto acc = dyn_cast<VectorType>(contract.getAccType());
    if (!acc)
      return std::nullopt;
    // The innermost dim of the accumulator is the last parallel iterator
    // in its indexing map.
    AffineMap accMap = contract.getIndexingMapsArray()[2];
    if (accMap.getNumResults() == 0)
      return std::nullopt;
    unsigned inner =
        cast<AffineDimExpr>(accMap.getResults().back()).getPosition();
    shape[inner] = std::min(lanes, acc.getShape().back());
    return shape;
  } else if (op->getNumResults() == 1 &&
             OpTrait::hasElementwiseMappableTraits(op))
    type = dyn_cast<VectorType>(op->getResult(0).getType());
  if (!type || type.getRank() == 0)
    return std::nullopt;
  SmallVector<int64_t> shape(type.getRank(), 1);
  shape.back() = std::min(lanes, type.getShape().back());
  return shape;
}

namespace {
/// A kernel's copy of a small static tile (one thread's piece of a tile
/// staged in shared memory) as one vector read and write: bufferization
/// materializes the copies that fold away on tensors as memref.copy.
struct CopyToTransfers : OpRewritePattern<memref::CopyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::CopyOp copy,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<MemRefType>(copy.getSource().getType());
    if (!type || !type.hasStaticShape() || type.getRank() == 0 ||
        type.getNumElements() > 64 ||
        type.getElementTypeBitWidth() < 8 ||
        !copy->getParentOfType<gpu::LaunchOp>())
      return rewriter.notifyMatchFailure(copy, "not a small tile in a kernel");
    Location loc = copy.getLoc();
    auto vectorType = VectorType::get(type.getShape(), type.getElementType());
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    SmallVector<Value> indices(type.getRank(), zero);
    SmallVector<bool> inBounds(type.getRank(), true);
    Value padding = ub::PoisonOp::create(rewriter, loc, type.getElementType());
    Value v = vector::TransferReadOp::create(rewriter, loc, vectorType,
                                             copy.getSource(), indices,
                                             padding, inBounds);
    rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
        copy, v, copy.getTarget(), indices, inBounds);
    return success();
  }
};

struct LowerVectorsPass
    : dlc::impl::GpuLowerVectorsBase<LowerVectorsPass> {
  using Base::Base;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    Operation *root = getOperation();
    {
      // Reads and writes of views index the underlying buffer (kept apart
      // from canonicalization, with which it can loop on expand_shape).
      RewritePatternSet patterns(ctx);
      patterns.add<CopyToTransfers>(ctx);
      (void)applyPatternsGreedily(root, std::move(patterns));
    }
    {
      RewritePatternSet patterns(ctx);
      memref::populateFoldMemRefAliasOpPatterns(patterns);
      // Best effort, as upstream's pass: what is not folded stays a view.
      (void)applyPatternsGreedily(root, std::move(patterns));
    }
    {
      RewritePatternSet patterns(ctx);
      vector::populateVectorUnrollPatterns(
          patterns, vector::UnrollVectorOptions().setNativeShapeFn(
                        [this](Operation *op) {
                          return nativeShape(op, lanes);
                        }));
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateVectorReductionToContractPatterns(patterns);
      (void)applyPatternsGreedily(root, std::move(patterns));
    }
    {
      // The unrolled pieces as 1-D vectors (a 1x4 transfer reads 4 lanes).
      // Apart from the lowering below, with whose broadcast lowering these
      // patterns loop.
      RewritePatternSet patterns(ctx);
      vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
      (void)applyPatternsGreedily(root, std::move(patterns));
    }
    RewritePatternSet patterns(ctx);
    vector::populateVectorContractLoweringPatterns(
        patterns, vector::VectorContractLowering::OuterProduct);
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerParallel);
    vector::populateVectorTransposeLoweringPatterns(
        patterns, vector::VectorTransposeLowering::EltWise);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    vector::populateVectorMaskOpLoweringPatterns(patterns);
    vector::populateVectorTransferDropUnitDimsPatterns(patterns);
    vector::populateDropUnitDimWithShapeCastPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    vector::populateVectorGatherLoweringPatterns(patterns);
    // Single elements (a 0-D read of a broadcast value) as scalar accesses.
    vector::populateScalarVectorTransferLoweringPatterns(
        patterns, /*benefit=*/1, /*allowMultipleUses=*/true);
    vector::populateVectorStepLoweringPatterns(patterns);
    // Ops left unlowered are reported by the LLVM conversion.
    (void)applyPatternsGreedily(root, std::move(patterns));
    dlc::annotateVectorAlignment(root);
  }
};
} // namespace
