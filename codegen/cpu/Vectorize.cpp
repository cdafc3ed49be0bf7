//===- Vectorize.cpp - vectorize tiled linalg ops ---------------------------===//
#include "codegen/cpu/Passes.h"
#include "codegen/cpu/StridedReads.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_VECTORIZE
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// A tile of a grouped 2-D convolution over one group and one row of its
/// window and output (linalg.conv_2d_ngchw_gfchw with unit g, kh and oh) is
/// a 1-D convolution of that group's channels and filters: rank-reducing
/// slices make it linalg.conv_1d_ncw_fcw, which the vectorizer handles.
struct GroupedConvTileTo1D : OpRewritePattern<linalg::Conv2DNgchwGfchwOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::Conv2DNgchwGfchwOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    auto xType = dyn_cast<RankedTensorType>(op.getInputs()[0].getType());
    auto wType = dyn_cast<RankedTensorType>(op.getInputs()[1].getType());
    auto yType = dyn_cast<RankedTensorType>(op.getOutputs()[0].getType());
    if (!xType || !wType || !yType || !xType.hasStaticShape() ||
        !wType.hasStaticShape() || !yType.hasStaticShape())
      return failure();
    // x [N, G, C, H, W], w [G, F, C, KH, KW], y [N, G, F, OH, OW].
    if (wType.getDimSize(0) != 1 || wType.getDimSize(3) != 1 ||
        yType.getDimSize(3) != 1 || xType.getDimSize(3) != 1)
      return failure();
    Location loc = op.getLoc();
    Type et = yType.getElementType();
    auto x = tensor::createCanonicalRankReducingExtractSliceOp(
        rewriter, loc, op.getInputs()[0],
        RankedTensorType::get(
            {xType.getDimSize(0), xType.getDimSize(2), xType.getDimSize(4)},
            xType.getElementType()));
    auto w = tensor::createCanonicalRankReducingExtractSliceOp(
        rewriter, loc, op.getInputs()[1],
        RankedTensorType::get(
            {wType.getDimSize(1), wType.getDimSize(2), wType.getDimSize(4)},
            wType.getElementType()));
    auto y = tensor::createCanonicalRankReducingExtractSliceOp(
        rewriter, loc, op.getOutputs()[0],
        RankedTensorType::get(
            {yType.getDimSize(0), yType.getDimSize(2), yType.getDimSize(4)},
            et));
    auto strides = llvm::to_vector(op.getStrides().getValues<int64_t>());
    auto dilations = llvm::to_vector(op.getDilations().getValues<int64_t>());
    Value conv = linalg::Conv1DNcwFcwOp::create(
                     rewriter, loc, TypeRange{y.getType()}, ValueRange{x, w},
                     ValueRange{y}, rewriter.getI64TensorAttr({strides[1]}),
                     rewriter.getI64TensorAttr({dilations[1]}))
                     .getResult(0);
    rewriter.replaceOp(op, tensor::createCanonicalRankReducingInsertSliceOp(
                               rewriter, loc, conv, op.getOutputs()[0]));
    return success();
  }
};

struct VectorizePass : dlc::impl::VectorizeBase<VectorizePass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *ctx = &getContext();

    // Size-1 windows of tiled 2-D convolutions become 1-D convolutions,
    // which the vectorizer handles. Static tiles only: the partial tiles of
    // loops of run-time size stay scalar.
    {
      SmallVector<Operation *> convs;
      func.walk([&](linalg::LinalgOp op) {
        if (isa<linalg::ConvolutionOpInterface>(op.getOperation()) &&
            op.hasPureTensorSemantics() &&
            llvm::none_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
          convs.push_back(op);
      });
      RewritePatternSet patterns(ctx);
      linalg::populateDecomposeConvolutionPatterns(patterns);
      patterns.add<GroupedConvTileTo1D>(ctx);
      GreedyRewriteConfig config;
      config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
      if (failed(applyOpPatternsGreedily(convs, std::move(patterns), config)))
        return signalPassFailure();
    }

    // Vectorize every linalg op inside a tile loop (static shapes by
    // construction). An op the vectorizer declines stays scalar.
    SmallVector<linalg::LinalgOp> candidates;
    func.walk([&](linalg::LinalgOp op) {
      // Vectors of i1 are bit-packed in memory while i1 tensors are stored
      // one byte per element: keep boolean ops scalar.
      auto isBool = [](Type t) {
        return getElementTypeOrSelf(t).isInteger(1);
      };
      if (llvm::any_of(op->getOperandTypes(), isBool) ||
          llvm::any_of(op->getResultTypes(), isBool))
        return;
      bool tiled = op->hasAttr("dlc.vectorize") ||
                   (op->getParentOfType<scf::ForOp>() ||
                    op->getParentOfType<scf::ForallOp>());
      if (tiled &&
          llvm::all_of(op.getStaticLoopRanges(),
                       [](int64_t s) { return !ShapedType::isDynamic(s); }))
        candidates.push_back(op);
    });
    IRRewriter rewriter(ctx);
    for (linalg::LinalgOp op : candidates) {
      rewriter.setInsertionPoint(op);
      // Contractions become vector.contract with their own indexing maps
      // (not broadcasts + reductions), which lower to outer products/FMAs.
      FailureOr<linalg::VectorizationResult> result = linalg::vectorize(
          rewriter, op, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
          /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
          /*assumeDynamicDimsMatchVecSizes=*/false,
          /*createNamedContraction=*/true);
      if (succeeded(result))
        rewriter.replaceOp(op, result->replacements);
    }

    {
      // Broadcasting reads (a generic contraction's operands are read over
      // the whole iteration space) become explicit broadcasts, which the
      // contraction patterns below fold into vector.contract's indexing
      // maps. Reads only: writes keep their permutation maps, so that
      // accumulator read/write pairs still match for hoisting.
      RewritePatternSet readPatterns(ctx);
      vector::populateVectorTransferPermutationMapLoweringPatterns(readPatterns);
      SmallVector<Operation *> reads;
      func.walk([&](vector::TransferReadOp read) { reads.push_back(read); });
      GreedyRewriteConfig config;
      config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
      if (failed(applyOpPatternsGreedily(reads, std::move(readPatterns), config)))
        return signalPassFailure();

      RewritePatternSet patterns(ctx);
      vector::populateVectorReductionToContractPatterns(patterns);
      vector::populateSinkVectorOpsPatterns(patterns);
      vector::TransferReadOp::getCanonicalizationPatterns(patterns, ctx);
      vector::TransferWriteOp::getCanonicalizationPatterns(patterns, ctx);
      tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
      // exp/tanh/erf as polynomials that vectorize, not libm calls.
      populateMathPolynomialApproximationPatterns(patterns);
      dlc::populateStridedReadPatterns(patterns);
      if (failed(applyPatternsGreedily(func, std::move(patterns))))
        return signalPassFailure();
    }
  }
};
} // namespace
