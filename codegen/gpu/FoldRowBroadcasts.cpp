//===- FoldRowBroadcasts.cpp - a row's values without their unit dims -----===//
//
// Reductions imported with keepdims (ReduceMean, LayerNormalization) leave
// a row's value as [rows, 1]: a tensor.expand_shape of the reduced tensor,
// elementwise ops over [rows, 1], and consumers broadcasting it with a map
// result of 0. The row kernels' strategy and tiling follow elementwise
// ops, not reshapes; this pass removes the unit dims so that the chain from
// the reduction to its consumers is elementwise ops over [rows].
//===----------------------------------------------------------------------===//
#include "codegen/gpu/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_GPUFOLDROWBROADCASTS
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// A generic operand that is a tensor.expand_shape adding only unit dims,
/// read with 0 at those dims: the expand_shape's source, read without
/// them.
struct ReadThroughUnitExpand : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    for (OpOperand *in : op.getDpsInputOperands()) {
      auto expand = in->get().getDefiningOp<tensor::ExpandShapeOp>();
      if (!expand)
        continue;
      RankedTensorType result = expand.getResultType();
      if (!result.hasStaticShape())
        continue;
      // The source's dims each map to one result dim; the others are the
      // inserted unit dims.
      // (An expansion of a 0-d tensor has no groups: every dim is new.)
      SmallVector<bool> inserted(result.getRank(), true);
      bool onlyUnits = true;
      for (const ReassociationIndices &group :
           expand.getReassociationIndices()) {
        int64_t kept = -1;
        for (int64_t d : group)
          if (result.getDimSize(d) != 1) {
            if (kept >= 0)
              onlyUnits = false; // a dim split in two
            kept = d;
          }
        if (kept < 0)
          kept = group.front();
        inserted[kept] = false;
      }
      AffineMap map = op.getMatchingIndexingMap(in);
      SmallVector<AffineExpr> results;
      for (auto [d, e] : llvm::enumerate(map.getResults())) {
        if (!inserted[d]) {
          results.push_back(e);
          continue;
        }
        auto c = dyn_cast<AffineConstantExpr>(e);
        if (!c || c.getValue() != 0)
          onlyUnits = false;
      }
      if (!onlyUnits)
        continue;
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      maps[in->getOperandNumber()] =
          AffineMap::get(map.getNumDims(), 0, results, op.getContext());
      rewriter.modifyOpInPlace(op, [&] {
        in->set(expand.getSrc());
        op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
      return success();
    }
    return failure();
  }
};

struct FoldRowBroadcastsPass
    : dlc::impl::GpuFoldRowBroadcastsBase<FoldRowBroadcastsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<ReadThroughUnitExpand>(ctx);
    // Elementwise ops over [rows, 1, ...] of values expanded from [rows]
    // lose their trailing unit loops (only those: the other ops' shapes
    // are the kernels' own business).
    linalg::ControlDropUnitDims options;
    options.controlFn = [](Operation *op) -> SmallVector<unsigned> {
      auto generic = dyn_cast<linalg::GenericOp>(op);
      if (!generic || generic.getNumReductionLoops() != 0 ||
          generic.getNumLoops() < 2 || generic.getNumDpsInputs() == 0)
        return {};
      if (!llvm::all_of(generic.getDpsInputs(), [](Value v) {
            auto type = dyn_cast<RankedTensorType>(v.getType());
            return !type || type.getRank() == 0 ||
                   v.getDefiningOp<tensor::ExpandShapeOp>();
          }))
        return {};
      SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
      SmallVector<unsigned> dims;
      for (int64_t d = static_cast<int64_t>(ranges.size()) - 1;
           d > 0 && ranges[d] == 1; --d)
        dims.push_back(static_cast<unsigned>(d));
      return dims;
    };
    linalg::populateFoldUnitExtentDimsPatterns(patterns, options);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
