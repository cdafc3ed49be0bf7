//===- PromoteAccumulators.cpp - reduction accumulators as iter_args ------===//
#include "codegen/gpu/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_PROMOTEACCUMULATORS
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// load m[i] ... store v, m[i] in a loop body, i loop-invariant, m used no
/// other way in the loop  =>  init = load m[i]; loop(acc = init) {.. yield v};
/// store result, m[i].
struct PromoteAccumulator : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    Block *body = loop.getBody();
    for (Operation &op : *body) {
      auto load = dyn_cast<memref::LoadOp>(op);
      if (!load)
        continue;
      Value buffer = load.getMemRef();
      if (llvm::any_of(load.getIndices(), [&](Value v) {
            return !loop.isDefinedOutsideOfLoop(v);
          }) ||
          !loop.isDefinedOutsideOfLoop(buffer))
        continue;
      memref::StoreOp store;
      bool otherUse = false;
      for (OpOperand &use : buffer.getUses()) {
        Operation *user = use.getOwner();
        if (!loop->isProperAncestor(user) || user == load)
          continue;
        auto s = dyn_cast<memref::StoreOp>(user);
        if (!s || store || s->getBlock() != body ||
            s.getIndices() != load.getIndices() || s.getMemRef() != buffer ||
            !load->isBeforeInBlock(s)) {
          otherUse = true;
          break;
        }
        store = s;
      }
      if (otherUse || !store)
        continue;
      // Views of the same memory inside the loop could alias: only whole
      // buffers used by nothing else in the loop qualify (checked above for
      // `buffer`; views are created outside loops by bufferization).
      rewriter.setInsertionPoint(loop);
      Value init = memref::LoadOp::create(rewriter, load.getLoc(), buffer,
                                          load.getIndices());
      Value stored = store.getValueToStore();
      SmallVector<Value> indices(load.getIndices());
      Location storeLoc = store.getLoc();
      FailureOr<LoopLikeOpInterface> newLoop =
          cast<LoopLikeOpInterface>(loop.getOperation())
              .replaceWithAdditionalYields(
                  rewriter, ValueRange{init},
                  /*replaceInitOperandUsesInLoop=*/false,
                  [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                    return SmallVector<Value>{stored};
                  });
      if (failed(newLoop))
        return failure();
      auto forOp = cast<scf::ForOp>(newLoop->getOperation());
      Value acc = forOp.getRegionIterArgs().back();
      rewriter.replaceOp(load, acc);
      rewriter.eraseOp(store);
      rewriter.setInsertionPointAfter(forOp);
      memref::StoreOp::create(rewriter, storeLoc, forOp.getResults().back(),
                              buffer, indices);
      return success();
    }
    return failure();
  }
};

struct PromoteAccumulatorsPass
    : dlc::impl::PromoteAccumulatorsBase<PromoteAccumulatorsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<PromoteAccumulator>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
