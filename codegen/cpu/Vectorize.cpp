//===- Vectorize.cpp - vectorize tiled linalg ops ---------------------------===//
#include "codegen/common/ConvTypes.h"
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
    std::optional<dlc::ConvTypes> types = dlc::staticConvTypes(op);
    if (!types)
      return failure();
    auto [xType, wType, yType] = *types;
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

/// A tile of a 2-D convolution over one row of its window (linalg.conv_2d_
/// nchw_fchw with unit kh), several output rows: one 1-D convolution per
/// output row, through rank-reducing slices of the input row, the window
/// row and the output row. The rows' filter reads are the same vectors (CSE
/// keeps one), so each loaded filter vector feeds every row's accumulators;
/// each row's output is a slice of the tile's accumulator that the vector
/// transfers fold into, which keeps them hoistable out of the channel loop.
/// One row is left to upstream's decomposition.
struct ConvTileRowsTo1D : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  static constexpr int64_t kMaxTileRows = 8;
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<dlc::ConvTypes> types = dlc::staticConvTypes(op);
    if (!types)
      return failure();
    auto [xType, wType, yType] = *types;
    // x [N, C, H, W], w [F, C, KH, KW], y [N, F, OH, OW]. A tile's few
    // rows only: an untiled convolution is not unrolled row by row.
    int64_t rows = yType.getDimSize(2);
    if (wType.getDimSize(2) != 1 || rows <= 1 || rows > kMaxTileRows)
      return failure();
    auto strides = llvm::to_vector(op.getStrides().getValues<int64_t>());
    if ((rows - 1) * strides[0] >= xType.getDimSize(2))
      return failure();
    auto dilations = llvm::to_vector(op.getDilations().getValues<int64_t>());
    Location loc = op.getLoc();
    // Row `row` of a 4-D tensor as a 3-D one (dimension 2 dropped).
    auto rowSlice = [&](Value v, int64_t row) {
      auto type = cast<RankedTensorType>(v.getType());
      SmallVector<OpFoldResult> offsets(4, rewriter.getIndexAttr(0)), sizes,
          ones(4, rewriter.getIndexAttr(1));
      offsets[2] = rewriter.getIndexAttr(row);
      for (auto [d, size] : llvm::enumerate(type.getShape()))
        sizes.push_back(rewriter.getIndexAttr(d == 2 ? 1 : size));
      auto reduced = RankedTensorType::get(
          {type.getDimSize(0), type.getDimSize(1), type.getDimSize(3)},
          type.getElementType());
      return std::make_tuple(reduced, offsets, sizes, ones);
    };
    auto [wReduced, wOffsets, wSizes, wOnes] = rowSlice(op.getInputs()[1], 0);
    Value w = tensor::ExtractSliceOp::create(
        rewriter, loc, wReduced, op.getInputs()[1], wOffsets, wSizes, wOnes);
    Value y = op.getOutputs()[0];
    for (int64_t r = 0; r < rows; ++r) {
      auto [xReduced, xOffsets, xSizes, xOnes] =
          rowSlice(op.getInputs()[0], r * strides[0]);
      Value x = tensor::ExtractSliceOp::create(
          rewriter, loc, xReduced, op.getInputs()[0], xOffsets, xSizes, xOnes);
      auto [yReduced, yOffsets, ySizes, yOnes] = rowSlice(y, r);
      Value yRow = tensor::ExtractSliceOp::create(rewriter, loc, yReduced, y,
                                                  yOffsets, ySizes, yOnes);
      Value conv =
          linalg::Conv1DNcwFcwOp::create(
              rewriter, loc, TypeRange{yReduced}, ValueRange{x, w},
              ValueRange{yRow}, rewriter.getI64TensorAttr({strides[1]}),
              rewriter.getI64TensorAttr({dilations[1]}))
              .getResult(0);
      y = tensor::InsertSliceOp::create(rewriter, loc, conv, y, yOffsets,
                                        ySizes, yOnes);
    }
    rewriter.replaceOp(op, y);
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
      patterns.add<GroupedConvTileTo1D, ConvTileRowsTo1D>(ctx);
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

      // Strided reads first, without folding: a copy of a strided slice (the
      // pixels of a strided 1x1 convolution, dlc-cpu-pointwise-convs) is a
      // read written whole, which folding would turn back into the slice
      // (then a scalar copy at bufferization). Its tiles read unit-stride
      // slices of the strided slice: merged into one strided slice first.
      RewritePatternSet strided(ctx);
      tensor::populateMergeConsecutiveInsertExtractSlicePatterns(strided);
      dlc::populateStridedReadPatterns(strided);
      GreedyRewriteConfig noFolding;
      noFolding.enableFolding(false);
      if (failed(applyPatternsGreedily(func, std::move(strided), noFolding)))
        return signalPassFailure();
    }
    {
      RewritePatternSet patterns(ctx);
      vector::populateVectorReductionToContractPatterns(patterns);
      vector::populateSinkVectorOpsPatterns(patterns);
      vector::TransferReadOp::getCanonicalizationPatterns(patterns, ctx);
      vector::TransferWriteOp::getCanonicalizationPatterns(patterns, ctx);
      tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
      // exp/tanh/erf as polynomials that vectorize, not libm calls.
      populateMathPolynomialApproximationPatterns(patterns);
      if (failed(applyPatternsGreedily(func, std::move(patterns))))
        return signalPassFailure();
    }
  }
};
} // namespace
