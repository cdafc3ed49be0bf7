//===- TileAndFuse.cpp - tile by dlc.tile_sizes, fuse producers -----------===//
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/Affine/ViewLikeInterfaceUtils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
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
/// The order of the parallel tile loops (a permutation of all loops,
/// outermost first), when not the loops' own order.
static constexpr StringLiteral kParallelOrder = "dlc.parallel_order";
/// The order of the reduction loops (a permutation of all loops, outermost
/// first), when not the loops' own order.
static constexpr StringLiteral kReductionOrder = "dlc.reduction_order";
/// The tile sizes of the remainder that a parallel tile size leaves along
/// a loop, when not the whole part's (the split loop's size is the
/// remainder's own).
static constexpr StringLiteral kRemainderTileSizes = "dlc.remainder_tile_sizes";
/// A convolution whose elementwise input producers stay their own ops.
static constexpr StringLiteral kUnfusedInputs = "dlc.unfused_inputs";

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
    nested->removeAttr(kRemainderTileSizes);
  });
}

/// Marks ops produced by tiling or fusion for dlc-cpu-vectorize, with no
/// config left.
static void markTiled(ArrayRef<Operation *> ops) {
  for (Operation *op : ops) {
    clearConfig(op);
    op->setAttr("dlc.vectorize", UnitAttr::get(op->getContext()));
  }
}

/// The epilogue waiting for `producer`'s result, if any.
static Operation *epilogueOf(Operation *producer) {
  if (producer->getNumResults() != 1 || !producer->getResult(0).hasOneUse())
    return nullptr;
  Operation *user = *producer->getResult(0).getUsers().begin();
  return user->hasAttr(kEpilogueTileSizes) ? user : nullptr;
}

/// A per-channel scaling (squeeze-excitation): one operation per element of
/// one full-size input and one broadcast input, whose result only this tile
/// reads. It is recomputed once per filter tile and its values are
/// broadcast from registers instead of straight from memory, so anything
/// heavier costs more than the pass it saves: a depthwise convolution's
/// taps, a ReLU6 clamp (MobileNetV2 +15%), a residual add of two full
/// tensors (+11%).
static bool isInputProducer(Value source) {
  auto generic = source.getDefiningOp<linalg::GenericOp>();
  if (!generic || !source.hasOneUse() || generic.getNumReductionLoops() != 0 ||
      generic->getNumResults() != 1 || generic.getNumDpsInputs() != 2 ||
      generic.getBody()->getOperations().size() != 2)
    return false;
  int full = 0;
  for (OpOperand *in : generic.getDpsInputOperands()) {
    AffineMap m = generic.getMatchingIndexingMap(in);
    if (!m.isProjectedPermutation(/*allowZeroInResults=*/true))
      return false;
    full += m.isIdentity();
  }
  return full == 1;
}

/// Inside the reduction loops, `inner` (one step of a convolution) reads a
/// small slice of each input: an elementwise producer used only by this op
/// (EfficientNet's squeeze-excitation scaling) is computed on that slice
/// instead of as its own pass over memory. Its slice is a slice of the
/// parallel tile's slice; the two are merged into one slice of the
/// producer's result first.
static void fuseInputProducers(IRRewriter &rewriter, Operation *inner,
                               MutableArrayRef<LoopLikeOpInterface> loops) {
  auto dps = dyn_cast<DestinationStyleOpInterface>(inner);
  if (!dps || loops.empty())
    return;
  for (OpOperand *operand : dps.getDpsInputOperands()) {
    auto slice = operand->get().getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice)
      continue;
    auto outer = slice.getSource().getDefiningOp<tensor::ExtractSliceOp>();
    if (!outer || !outer->hasOneUse() || !isInputProducer(outer.getSource()))
      continue;
    Operation *producer = outer.getSource().getDefiningOp();
    rewriter.setInsertionPoint(slice);
    SmallVector<OpFoldResult> offsets, sizes, strides;
    if (failed(affine::mergeOffsetsSizesAndStrides(
            rewriter, slice.getLoc(), outer, slice, outer.getDroppedDims(),
            offsets, sizes, strides)))
      continue;
    auto merged = tensor::ExtractSliceOp::create(
        rewriter, slice.getLoc(), slice.getType(), outer.getSource(), offsets,
        sizes, strides);
    rewriter.replaceOp(slice, merged.getResult());
    if (outer->use_empty())
      rewriter.eraseOp(outer);
    std::optional<scf::SCFFuseProducerOfSliceResult> fused =
        scf::tileAndFuseProducerOfSlice(rewriter, merged, loops);
    if (!fused)
      continue;
    markTiled(fused->tiledOps);
    if (producer->use_empty())
      rewriter.eraseOp(producer);
  }
}

/// The accumulator `part` starts from, when it is a slice of a fill or of
/// an elementwise op without other users (a bias broadcast over the
/// output): that slice is computed alone (a fill of the slice, the
/// producer's tile), so that tiling fuses it into the part's tiles.
/// Returns the producer whose slice was taken, or null.
static Operation *sliceInit(IRRewriter &rewriter, TilingInterface part) {
  auto dps = cast<DestinationStyleOpInterface>(part.getOperation());
  if (dps.getNumDpsInits() != 1)
    return nullptr;
  OpOperand &init = dps.getDpsInitsMutable()[0];
  auto slice = init.get().getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || slice.getType().getRank() != slice.getSourceType().getRank())
    return nullptr;
  // The remainder's accumulator is a slice of the whole part's insert,
  // which it does not overlap.
  Value source = slice.getSource();
  while (auto insert = source.getDefiningOp<tensor::InsertSliceOp>())
    source = insert.getDest();
  Operation *producer = source.getDefiningOp();
  if (!producer || producer->getNumResults() != 1 || !isFusable(producer))
    return nullptr;
  rewriter.setInsertionPoint(slice);
  Value sliced;
  // The slice starts from an empty tensor of its own, as the unsplit op's
  // accumulator did: tiling makes it the part's destination, which
  // empty-tensor elimination places in the joined result.
  auto fresh =
      tensor::EmptyOp::create(rewriter, slice.getLoc(), slice.getMixedSizes(),
                              slice.getType().getElementType());
  if (auto fill = dyn_cast<linalg::FillOp>(producer)) {
    sliced = linalg::FillOp::create(rewriter, fill.getLoc(),
                                    fill.getInputs()[0], fresh.getResult())
                 .getResult(0);
  } else {
    // An elementwise producer reading the same accumulator would read the
    // other part's values.
    auto generic = cast<linalg::GenericOp>(producer);
    if (llvm::any_of(generic.getDpsInitsMutable(), [&](OpOperand &out) {
          return generic.payloadUsesValueFromOperand(&out);
        }))
      return nullptr;
    auto moved = tensor::ExtractSliceOp::create(
        rewriter, slice.getLoc(), slice.getType(), producer->getResult(0),
        slice.getMixedOffsets(), slice.getMixedSizes(),
        slice.getMixedStrides());
    FailureOr<TilingResult> tiled =
        tensor::replaceExtractSliceWithTiledProducer(rewriter, moved,
                                                     producer->getOpResult(0));
    if (failed(tiled) || tiled->tiledValues.size() != 1) {
      rewriter.eraseOp(moved);
      return nullptr;
    }
    rewriter.eraseOp(moved);
    auto tiledOp = dyn_cast<DestinationStyleOpInterface>(
        tiled->tiledValues[0].getDefiningOp());
    if (!tiledOp || tiledOp.getNumDpsInits() != 1)
      return nullptr;
    rewriter.modifyOpInPlace(tiledOp, [&] {
      tiledOp.getDpsInitsMutable()[0].set(fresh.getResult());
    });
    sliced = tiled->tiledValues[0];
  }
  rewriter.modifyOpInPlace(part, [&] { init.set(sliced); });
  if (slice->use_empty())
    rewriter.eraseOp(slice);
  return producer;
}

/// The epilogue that read `result` before it was split into `parts` (their
/// inserts, in order, make `result`'s replacement `joined`), split at the
/// same point: each part of the epilogue reads its part of the result
/// directly, so that each fuses into its part's tiles. `dim` is the split
/// dimension of the result.
static void splitEpilogue(IRRewriter &rewriter, Value joined,
                          SmallVector<tensor::InsertSliceOp, 2> inserts,
                          unsigned dim) {
  if (!joined.hasOneUse())
    return;
  auto epilogue = dyn_cast<linalg::GenericOp>(*joined.getUsers().begin());
  if (!epilogue || !epilogue->hasAttr(kEpilogueTileSizes) ||
      epilogue.getNumDpsInits() != 1 || epilogue->getNumResults() != 1)
    return;
  AffineMap out =
      epilogue.getMatchingIndexingMap(epilogue.getDpsInitOperand(0));
  auto loop = dyn_cast<AffineDimExpr>(out.getResult(dim));
  if (!loop)
    return;
  auto sizes = epilogue->getAttrOfType<DenseI64ArrayAttr>(kEpilogueTileSizes);
  std::optional<int64_t> point =
      getConstantIntValue(inserts[1].getMixedOffsets()[dim]);
  if (!point)
    return;
  rewriter.setInsertionPoint(epilogue);
  auto [first, second] =
      linalg::splitOp(rewriter, cast<TilingInterface>(epilogue.getOperation()),
                      loop.getPosition(), rewriter.getIndexAttr(*point));
  if (!first || !second)
    return;
  // Each part's slice of `joined` is the part itself.
  for (auto [part, insert] :
       llvm::zip(SmallVector<Operation *>{first, second}, inserts)) {
    part->setAttr(kEpilogueTileSizes, sizes);
    // A part writing a slice of an empty tensor (the remainder's, through
    // the whole part's insert, which it does not overlap) writes an empty
    // tensor of its own, which empty-tensor elimination can then place
    // where the joined result goes (a slice would stay in the unjoined
    // buffer).
    auto dps = cast<DestinationStyleOpInterface>(part);
    OpOperand &init = dps.getDpsInitsMutable()[0];
    auto slice = init.get().getDefiningOp<tensor::ExtractSliceOp>();
    Value base = slice ? slice.getSource() : Value();
    while (base && base.getDefiningOp<tensor::InsertSliceOp>())
      base = base.getDefiningOp<tensor::InsertSliceOp>().getDest();
    if (slice && base.getDefiningOp<tensor::EmptyOp>() &&
        slice.getType().getRank() == slice.getSourceType().getRank()) {
      rewriter.setInsertionPoint(slice);
      auto fresh = tensor::EmptyOp::create(rewriter, slice.getLoc(),
                                           slice.getMixedSizes(),
                                           slice.getType().getElementType());
      rewriter.modifyOpInPlace(part, [&] { init.set(fresh.getResult()); });
      if (slice->use_empty())
        rewriter.eraseOp(slice);
    }
    for (OpOperand &operand : part->getOpOperands()) {
      Value v = operand.get();
      auto slice = v.getDefiningOp<tensor::ExtractSliceOp>();
      if (!slice || slice.getSource() != joined ||
          slice.getType() != insert.getSourceType() ||
          !llvm::equal(slice.getMixedOffsets(), insert.getMixedOffsets(),
                       [](OpFoldResult a, OpFoldResult b) {
                         return isEqualConstantIntOrValue(a, b);
                       }))
        continue;
      Value source = insert.getSource();
      rewriter.modifyOpInPlace(part, [&] { operand.set(source); });
      if (slice->use_empty())
        rewriter.eraseOp(slice);
    }
  }
  // The joined result is read no more; its inserts would count as other
  // users of the parts.
  for (tensor::InsertSliceOp insert : llvm::reverse(inserts))
    if (insert->use_empty())
      rewriter.eraseOp(insert);
}

/// Tiles need not divide their loop: an op whose parallel tile size leaves
/// a remainder along a loop is split there (`linalg::splitOp`) into a part
/// of whole tiles and a remainder tiled as one piece, so every tile stays
/// static (a 197-row matmul is 24 tiles of 8 rows and one of 5, not 197
/// tiles of one row). What initializes the op (a fill, a bias broadcast)
/// and the epilogue that follows it are split with it, so that each part's
/// tiles still start from their own slice of the initial value and end
/// with their epilogue, instead of a pass over the whole output before and
/// one after. Returns true when `op` was split; both parts keep a config.
static bool splitRemainder(IRRewriter &rewriter, TilingInterface op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op.getOperation());
  if (!linalgOp)
    return false;
  auto sizes = op->getAttrOfType<DenseI64ArrayAttr>(kTileSizes).asArrayRef();
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iters = op.getLoopIteratorTypes();
  for (auto [d, it] : llvm::enumerate(iters)) {
    if (it != utils::IteratorType::parallel || sizes[d] <= 0 ||
        ShapedType::isDynamic(ranges[d]) || ranges[d] % sizes[d] == 0 ||
        ranges[d] < sizes[d])
      continue;
    int64_t point = ranges[d] / sizes[d] * sizes[d];
    SmallVector<int64_t> remainderSizes(sizes);
    if (auto own = op->getAttrOfType<DenseI64ArrayAttr>(kRemainderTileSizes))
      remainderSizes.assign(own.asArrayRef().begin(), own.asArrayRef().end());
    assert(remainderSizes.size() == sizes.size() &&
           "remainder tile sizes of another rank");
    remainderSizes[d] = ranges[d] - point;
    // The result dimension that loop d runs along, if one does.
    bool oneInit = linalgOp.getNumDpsInits() == 1;
    std::optional<unsigned> resultDim;
    if (oneInit)
      resultDim = linalgOp.getMatchingIndexingMap(linalgOp.getDpsInitOperand(0))
                      .getResultPosition(rewriter.getAffineDimExpr(d));
    rewriter.setInsertionPoint(op);
    auto [whole, remainder] =
        linalg::splitOp(rewriter, op, d, rewriter.getIndexAttr(point));
    if (!whole || !remainder)
      return false;
    remainder->setAttr(kTileSizes,
                       rewriter.getDenseI64ArrayAttr(remainderSizes));
    whole->removeAttr(kRemainderTileSizes);
    remainder->removeAttr(kRemainderTileSizes);
    // `op` is erased by the split.
    if (!oneInit || whole->getNumResults() != 1)
      return true;
    // The inserts that join the parts: the remainder's into the whole
    // part's, the whole part's into the original accumulator.
    Value wholeResult = whole->getResult(0);
    if (!wholeResult.hasOneUse())
      return true;
    auto wholeInsert =
        dyn_cast<tensor::InsertSliceOp>(*wholeResult.getUsers().begin());
    Value remainderResult = remainder->getResult(0);
    if (!wholeInsert || !remainderResult.hasOneUse())
      return true;
    auto remainderInsert =
        dyn_cast<tensor::InsertSliceOp>(*remainderResult.getUsers().begin());
    if (!remainderInsert)
      return true;
    Operation *initWhole = sliceInit(rewriter, whole);
    Operation *initRemainder = sliceInit(rewriter, remainder);
    // The two parts cover the whole result: nothing of the initial value
    // remains but its destination.
    if (initWhole && initWhole == initRemainder &&
        wholeInsert.getDest() == initWhole->getResult(0)) {
      auto dps = cast<DestinationStyleOpInterface>(initWhole);
      rewriter.modifyOpInPlace(wholeInsert, [&] {
        wholeInsert.getDestMutable().set(dps.getDpsInits()[0]);
      });
      if (initWhole->use_empty())
        rewriter.eraseOp(initWhole);
    }
    if (resultDim)
      splitEpilogue(rewriter, remainderInsert.getResult(),
                    {wholeInsert, remainderInsert}, *resultDim);
    return true;
  }
  return false;
}

namespace {
struct TileAndFusePass : dlc::impl::TileAndFuseBase<TileAndFusePass> {
  LogicalResult tileOne(IRRewriter &rewriter, TilingInterface op) {
    MLIRContext *ctx = op->getContext();
    auto sizes = op->getAttrOfType<DenseI64ArrayAttr>(kTileSizes).asArrayRef();
    // Read now: `op` is erased once its tiled form replaces it.
    auto reductionOrder =
        op->getAttrOfType<DenseI64ArrayAttr>(kReductionOrder);
    bool unfusedInputs = op->hasAttr(kUnfusedInputs);
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
    scf::SCFTilingOptions parallelOptions;
    parallelOptions.setTileSizes(toOfr(ctx, parallelSizes))
        .setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
    if (auto order = op->getAttrOfType<DenseI64ArrayAttr>(kParallelOrder))
      parallelOptions.setInterchange(order.asArrayRef());
    options.setTilingOptions(parallelOptions);
    // Reductions read whole input windows per tile (a convolution's tile
    // reads every input channel): an elementwise producer fused into such
    // an input would be recomputed by every tile and unrolled over the
    // window. Only their accumulators (fill, bias) fuse; it stays its own
    // tiled op otherwise.
    bool hasReduction = llvm::is_contained(iters, utils::IteratorType::reduction);
    options.setFusionControlFn(
        [hasReduction](tensor::ExtractSliceOp slice, OpResult producer,
                       bool isDestinationOperand)
            -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          if (!isFusable(producer.getOwner()))
            return std::nullopt;
          // An elementwise producer that other ops also read would be
          // computed twice, once here and once for them; along a chain of
          // such ops (an LSTM's cell state, step after step) every tile
          // would recompute the whole chain. Fills are cheap enough.
          if (!isa<linalg::FillOp>(producer.getOwner()) &&
              !isDestinationOperand) {
            Operation *nest = slice;
            while (isa_and_nonnull<scf::ForallOp, scf::ForOp>(
                nest->getParentOp()))
              nest = nest->getParentOp();
            if (!llvm::all_of(producer.getUsers(), [&](Operation *user) {
                  return nest->isAncestor(user);
                }))
              return std::nullopt;
          }
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
    markTiled(fused->tiledAndFusedOps.getArrayRef());
    clearConfig(op);
    if (op->use_empty())
      rewriter.eraseOp(op);
    for (Operation *producer : fused->fusedProducers)
      if (producer->use_empty())
        rewriter.eraseOp(producer);

    if (hasReductionTiles && !fused->tiledAndFusedOps.empty()) {
      auto tiled = cast<TilingInterface>(fused->tiledAndFusedOps.front());
      rewriter.setInsertionPoint(tiled);
      scf::SCFTilingOptions redOptions;
      redOptions.setTileSizes(toOfr(ctx, reductionSizes));
      if (reductionOrder)
        redOptions.setInterchange(reductionOrder.asArrayRef());
      FailureOr<scf::SCFTilingResult> red =
          scf::tileUsingSCF(rewriter, tiled, redOptions);
      if (failed(red))
        return tiled->emitError("failed to tile reduction loops");
      rewriter.replaceOp(tiled, red->replacements);
      // Measured on convolutions only (BERT's matmuls got 7% slower).
      if (!red->tiledOps.empty() &&
          isa<linalg::Conv2DNchwFchwOp>(red->tiledOps.front()) &&
          !unfusedInputs)
        fuseInputProducers(rewriter, red->tiledOps.front(), red->loops);
    }

    // An elementwise epilogue (activation, bias, residual add) runs on each
    // tile while it is in registers, not as another pass over memory.
    if (fused->loops.size() == 1)
      if (Operation *epilogue = epilogueOf(fused->loops.front())) {
        FailureOr<scf::SCFFuseConsumerOfSliceResult> consumer =
            scf::tileAndFuseConsumer(rewriter, epilogue, fused->loops);
        if (succeeded(consumer)) {
          markTiled(consumer->tiledOps);
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
      if (splitRemainder(rewriter, last))
        continue;
      if (failed(tileOne(rewriter, last)))
        return signalPassFailure();
    }
  }
};
} // namespace
