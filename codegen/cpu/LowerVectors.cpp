//===- LowerVectors.cpp - n-D vector ops -> LLVM-convertible vector ops ---===//
#include "codegen/cpu/Passes.h"
#include "codegen/cpu/ScalarElementLoads.h"
#include "codegen/cpu/SlidingWindowFMAs.h"

#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_LOWERVECTORS
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct LowerVectorsPass : dlc::impl::LowerVectorsBase<LowerVectorsPass> {
  using LowerVectorsBase::LowerVectorsBase;
  void runOnOperation() override {
    // Whole chains of convolution taps first, before the contraction
    // lowering below takes them apart one tap at a time.
    {
      RewritePatternSet patterns(&getContext());
      dlc::populateSlidingWindowFMAPatterns(patterns);
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    vector::populateVectorContractLoweringPatterns(
        patterns, vector::VectorContractLowering::OuterProduct);
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerParallel);
    vector::populateVectorTransposeLoweringPatterns(
        patterns, vector::VectorTransposeLowering::Shuffle1D);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    vector::populateVectorMaskOpLoweringPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    vector::populateVectorGatherLoweringPatterns(patterns);
    if (scalarElementLoads)
      dlc::populateScalarElementLoadPatterns(patterns);
    vector::populateVectorStepLoweringPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
