//===- TileAndFuse.cpp - tile by dlc.tile_sizes, fuse producers -----------===//
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace dlc {
#define GEN_PASS_DEF_TILEANDFUSE
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

static constexpr StringLiteral kTileSizes = "dlc.tile_sizes";
/// Set on elementwise ops to run inside their producer's tiles; the sizes
/// are used if that fusion fails.
static constexpr StringLiteral kEpilogueTileSizes = "dlc.epilogue_tile_sizes";

/// Producers worth recomputing per tile: fills and elementwise ops.
static bool isFusable(Operation *producer) {
  if (isa<linalg::FillOp>(producer))
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(producer);
  return generic && generic.getNumReductionLoops() == 0 &&
         llvm::all_of(generic.getIndexingMapsArray(), [](AffineMap map) {
           return map.isProjectedPermutation();
         });
}

static SmallVector<OpFoldResult> toOfr(MLIRContext *ctx,
                                       ArrayRef<int64_t> sizes) {
  SmallVector<OpFoldResult> result;
  for (int64_t s : sizes)
    result.push_back(IntegerAttr::get(IndexType::get(ctx), s));
  return result;
}

static void clearConfig(Operation *op) {
  op->walk([](Operation *nested) {
    nested->removeAttr(kTileSizes);
    nested->removeAttr(kEpilogueTileSizes);
  });
}

/// The epilogue waiting for `producer`'s result, if any.
static Operation *epilogueOf(Operation *producer) {
  if (producer->getNumResults() != 1 || !producer->getResult(0).hasOneUse())
    return nullptr;
  Operation *user = *producer->getResult(0).getUsers().begin();
  return user->hasAttr(kEpilogueTileSizes) ? user : nullptr;
}

namespace {
struct TileAndFusePass : dlc::impl::TileAndFuseBase<TileAndFusePass> {
  LogicalResult tileOne(IRRewriter &rewriter, TilingInterface op) {
    MLIRContext *ctx = op->getContext();
    auto sizes = op->getAttrOfType<DenseI64ArrayAttr>(kTileSizes).asArrayRef();
    SmallVector<utils::IteratorType> iters = op.getLoopIteratorTypes();
    SmallVector<int64_t> parallelSizes(sizes), reductionSizes(sizes.size(), 0);
    bool hasReductionTiles = false;
    for (auto [i, it] : llvm::enumerate(iters))
      if (it == utils::IteratorType::reduction) {
        reductionSizes[i] = sizes[i];
        parallelSizes[i] = 0;
        hasReductionTiles |= sizes[i] != 0;
      }

    scf::SCFTileAndFuseOptions options;
    // Parallel tiles are independent: an scf.forall, which the pipeline
    // turns into an OpenMP worksharing loop. Reduction tiles stay
    // sequential (scf.for) inside each parallel tile.
    options.setTilingOptions(
        scf::SCFTilingOptions()
            .setTileSizes(toOfr(ctx, parallelSizes))
            .setLoopType(scf::SCFTilingOptions::LoopType::ForallOp));
    // Reductions read whole input windows per tile (a convolution's tile
    // reads every input channel): an elementwise producer fused into such
    // an input would be recomputed by every tile and unrolled over the
    // window. Only their accumulators (fill, bias) fuse; it stays its own
    // tiled op otherwise.
    bool hasReduction = llvm::is_contained(iters, utils::IteratorType::reduction);
    options.setFusionControlFn(
        [hasReduction](tensor::ExtractSliceOp, OpResult producer,
                       bool isDestinationOperand)
            -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          if (!isFusable(producer.getOwner()))
            return std::nullopt;
          if (hasReduction && !isDestinationOperand)
            return std::nullopt;
          return scf::SCFTileAndFuseOptions::ControlFnResult{false};
        });
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTileAndFuseResult> fused =
        scf::tileConsumerAndFuseProducersUsingSCF(rewriter, op, options);
    if (failed(fused))
      return op->emitError("failed to tile and fuse");
    for (OpResult res : op->getResults())
      if (Value repl = fused->replacements.lookup(res))
        rewriter.replaceAllUsesWith(res, repl);
    for (Operation *tiled : fused->tiledAndFusedOps) {
      clearConfig(tiled);
      tiled->setAttr("dlc.vectorize", UnitAttr::get(ctx));
    }
    clearConfig(op);
    if (op->use_empty())
      rewriter.eraseOp(op);
    for (Operation *producer : fused->fusedProducers)
      if (producer->use_empty())
        rewriter.eraseOp(producer);

    if (hasReductionTiles && !fused->tiledAndFusedOps.empty()) {
      auto tiled = cast<TilingInterface>(fused->tiledAndFusedOps.front());
      rewriter.setInsertionPoint(tiled);
      FailureOr<scf::SCFTilingResult> red = scf::tileUsingSCF(
          rewriter, tiled,
          scf::SCFTilingOptions().setTileSizes(toOfr(ctx, reductionSizes)));
      if (failed(red))
        return tiled->emitError("failed to tile reduction loops");
      rewriter.replaceOp(tiled, red->replacements);
    }

    // An elementwise epilogue (activation, bias, residual add) runs on each
    // tile while it is in registers, not as another pass over memory.
    if (fused->loops.size() == 1)
      if (Operation *epilogue = epilogueOf(fused->loops.front())) {
        FailureOr<scf::SCFFuseConsumerOfSliceResult> consumer =
            scf::tileAndFuseConsumer(rewriter, epilogue, fused->loops);
        if (succeeded(consumer)) {
          for (Operation *tiledOp : consumer->tiledOps) {
            clearConfig(tiledOp);
            tiledOp->setAttr("dlc.vectorize", UnitAttr::get(ctx));
          }
          if (epilogue->use_empty())
            rewriter.eraseOp(epilogue);
        }
      }
    return success();
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Consumers first, so that producers fuse into their tiles. Each step
    // re-finds the last op still carrying a config: fusion erases ops.
    while (true) {
      TilingInterface last;
      getOperation().walk([&](TilingInterface op) {
        if (op->hasAttr(kTileSizes))
          last = op;
      });
      if (!last) {
        // Epilogues whose producer did not take them are tiled alone.
        bool any = false;
        getOperation().walk([&](Operation *op) {
          if (auto sizes = op->getAttr(kEpilogueTileSizes)) {
            op->setAttr(kTileSizes, sizes);
            op->removeAttr(kEpilogueTileSizes);
            any = true;
          }
        });
        if (!any)
          return;
        continue;
      }
      if (failed(tileOne(rewriter, last)))
        return signalPassFailure();
    }
  }
};
} // namespace
