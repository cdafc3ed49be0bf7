//===- TileAndFuse.cpp - tile by dlc.tile_sizes, fuse producers -----------===//
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/Affine/ViewLikeInterfaceUtils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

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
/// The tiles of a contraction whose panel of columns is copied into a
/// dense buffer once per tile (its loops of rows and reductions untiled,
/// 0); the tile's own tiles are then `dlc.tile_sizes` within it.
static constexpr StringLiteral kPanelTileSizes = "dlc.panel_tile_sizes";
/// Ops inside another op's parallel tile: their tiles are a sequential
/// loop (scf.for), not a parallel loop nested in the first.
static constexpr StringLiteral kSequentialTiles = "dlc.sequential_tiles";

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
    nested->removeAttr(kPanelTileSizes);
    nested->removeAttr(kSequentialTiles);
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

/// Which producers fuse into a tile: fills and elementwise ops, only into
/// the accumulator of an op with reductions.
static scf::SCFTileAndFuseOptions::ControlFnTy
fusionControl(bool hasReduction) {
  return [hasReduction](tensor::ExtractSliceOp slice, OpResult producer,
                        bool isDestinationOperand)
             -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
    if (!isFusable(producer.getOwner()))
      return std::nullopt;
    // An elementwise producer that other ops also read would be
    // computed twice, once here and once for them; along a chain of
    // such ops (an LSTM's cell state, step after step) every tile
    // would recompute the whole chain. Fills are cheap enough.
    if (!isa<linalg::FillOp>(producer.getOwner()) && !isDestinationOperand) {
      Operation *nest = slice;
      while (isa_and_nonnull<scf::ForallOp, scf::ForOp>(nest->getParentOp()))
        nest = nest->getParentOp();
      if (!llvm::all_of(producer.getUsers(), [&](Operation *user) {
            return nest->isAncestor(user);
          }))
        return std::nullopt;
    }
    if (hasReduction && !isDestinationOperand)
      return std::nullopt;
    return scf::SCFTileAndFuseOptions::ControlFnResult{false};
  };
}

/// Replaces `op` by its tiled form and erases what the tiling left unused
/// (the op, its fused producers); `op` loses its config.
static void replaceByTiled(IRRewriter &rewriter, Operation *op,
                           scf::SCFTileAndFuseResult &fused) {
  for (OpResult res : op->getResults())
    if (Value repl = fused.replacements.lookup(res))
      rewriter.replaceAllUsesWith(res, repl);
  clearConfig(op);
  if (op->use_empty())
    rewriter.eraseOp(op);
  for (Operation *producer : fused.fusedProducers)
    if (producer->use_empty())
      rewriter.eraseOp(producer);
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
    // A remainder of fewer rows reads its columns in place: a copy of the
    // panel would serve only its few rows.
    remainder->removeAttr(kPanelTileSizes);
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

/// A sequential tile loop whose op's result only its fused epilogue reads
/// still carries that result, tile by tile, into a buffer of its own (the
/// forall's canonicalization drops such results; scf.for's keeps them while
/// the body slices the carried value). Each slice of the carried value is
/// only a destination that its writer does not read (the accumulator's
/// initial value, the tile's result): it becomes an empty tensor, the loop
/// yields the value unchanged, and canonicalization drops it.
static void dropUnreadResults(IRRewriter &rewriter, scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (unsigned i = 0, e = loop.getNumResults(); i < e; ++i) {
    if (!loop.getResult(i).use_empty())
      continue;
    BlockArgument carried = loop.getRegionIterArgs()[i];
    bool onlyDestinations = true;
    SmallVector<tensor::ExtractSliceOp> slices;
    for (OpOperand &use : carried.getUses()) {
      Operation *user = use.getOwner();
      // The insert of the tile's result, which only the yield reads (and
      // slices that nothing reads).
      if (auto insert = dyn_cast<tensor::InsertSliceOp>(user))
        if (use.get() == insert.getDest() &&
            llvm::all_of(insert->getUsers(), [&](Operation *reader) {
              return reader == yield.getOperation() ||
                     (isa<tensor::ExtractSliceOp>(reader) &&
                      reader->use_empty());
            }))
          continue;
      auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
      if (!slice) {
        onlyDestinations = false;
        break;
      }
      for (OpOperand &sliceUse : slice->getUses()) {
        auto dps = dyn_cast<linalg::LinalgOp>(sliceUse.getOwner());
        if (!dps || !dps.isDpsInit(&sliceUse) ||
            dps.payloadUsesValueFromOperand(&sliceUse))
          onlyDestinations = false;
      }
      slices.push_back(slice);
    }
    if (!onlyDestinations)
      continue;
    for (tensor::ExtractSliceOp slice : slices) {
      rewriter.setInsertionPoint(slice);
      rewriter.replaceOpWithNewOp<tensor::EmptyOp>(
          slice, slice.getMixedSizes(), slice.getType().getElementType());
    }
    rewriter.modifyOpInPlace(yield, [&] { yield->setOperand(i, carried); });
  }
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
    // sequential (scf.for) inside each parallel tile, as do the tiles of an
    // op inside another's tile.
    scf::SCFTilingOptions parallelOptions;
    parallelOptions.setTileSizes(toOfr(ctx, parallelSizes))
        .setLoopType(op->hasAttr(kSequentialTiles)
                         ? scf::SCFTilingOptions::LoopType::ForOp
                         : scf::SCFTilingOptions::LoopType::ForallOp);
    if (auto order = op->getAttrOfType<DenseI64ArrayAttr>(kParallelOrder))
      parallelOptions.setInterchange(order.asArrayRef());
    options.setTilingOptions(parallelOptions);
    // Reductions read whole input windows per tile (a convolution's tile
    // reads every input channel): an elementwise producer fused into such
    // an input would be recomputed by every tile and unrolled over the
    // window. Only their accumulators (fill, bias) fuse; it stays its own
    // tiled op otherwise.
    bool hasReduction = llvm::is_contained(iters, utils::IteratorType::reduction);
    options.setFusionControlFn(fusionControl(hasReduction));
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTileAndFuseResult> fused =
        scf::tileConsumerAndFuseProducersUsingSCF(rewriter, op, options);
    if (failed(fused))
      return op->emitError("failed to tile and fuse");
    markTiled(fused->tiledAndFusedOps.getArrayRef());
    replaceByTiled(rewriter, op, *fused);

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
          if (auto loop =
                  dyn_cast<scf::ForOp>(fused->loops.front().getOperation()))
            dropUnreadResults(rewriter, loop);
        }
      }
    return success();
  }

  /// Tiles `op` by its panel tile sizes (an scf.forall fusing its
  /// accumulator and its epilogue), copies the tile's panel of columns into
  /// a dense buffer, and leaves the tiled op, its epilogue and the copy
  /// configured for sequential tiles of their own inside the tile.
  LogicalResult tilePanel(IRRewriter &rewriter, TilingInterface op) {
    MLIRContext *ctx = op->getContext();
    auto linalgOp = cast<linalg::LinalgOp>(op.getOperation());
    SmallVector<int64_t> panel(
        op->getAttrOfType<DenseI64ArrayAttr>(kPanelTileSizes).asArrayRef());
    // Within the panel's tile, only the loops it leaves whole are tiled.
    auto inner = [&](StringRef name) -> DenseI64ArrayAttr {
      auto attr = op->getAttrOfType<DenseI64ArrayAttr>(name);
      if (!attr)
        return nullptr;
      SmallVector<int64_t> sizes(attr.asArrayRef());
      for (auto [s, p] : llvm::zip(sizes, panel)) {
        assert((p == 0 || p == s) && "a panel tile of several tiles");
        if (p != 0)
          s = 0;
      }
      return DenseI64ArrayAttr::get(ctx, sizes);
    };
    DenseI64ArrayAttr innerSizes = inner(kTileSizes);
    // The operand of columns: the input not read along the rows.
    std::optional<unsigned> rows;
    for (auto [d, s] : llvm::enumerate(innerSizes.asArrayRef()))
      if (s != 0 &&
          linalgOp.getIteratorTypesArray()[d] == utils::IteratorType::parallel)
        rows = d;
    assert(rows && "a panel tile without a loop of rows left");
    std::optional<unsigned> columns;
    for (OpOperand *in : linalgOp.getDpsInputOperands())
      if (!linalgOp.getMatchingIndexingMap(in).isFunctionOfDim(*rows))
        columns = in->getOperandNumber();
    assert(columns && "a panel tile without an operand of columns");

    scf::SCFTileAndFuseOptions options;
    scf::SCFTilingOptions tiling;
    tiling.setTileSizes(toOfr(ctx, panel))
        .setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
    options.setTilingOptions(tiling);
    // Only the accumulator (a fill, a bias) fuses, as into any reduction.
    options.setFusionControlFn(fusionControl(/*hasReduction=*/true));
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTileAndFuseResult> fused =
        scf::tileConsumerAndFuseProducersUsingSCF(rewriter, op, options);
    if (failed(fused) || fused->loops.size() != 1 ||
        fused->tiledAndFusedOps.empty())
      return op->emitError("failed to tile a panel");
    auto tiled = cast<linalg::LinalgOp>(fused->tiledAndFusedOps.front());
    markTiled(fused->tiledAndFusedOps.getArrayRef().drop_front());
    replaceByTiled(rewriter, op, *fused);
    tiled->removeAttr(kPanelTileSizes);
    tiled->removeAttr(kParallelOrder);
    tiled->setAttr(kTileSizes, innerSizes);
    tiled->setAttr(kSequentialTiles, UnitAttr::get(ctx));

    // The panel, copied one reduction step (a row of the panel) at a time.
    Value source = tiled->getOperand(*columns);
    auto type = cast<RankedTensorType>(source.getType());
    AffineMap map =
        tiled.getMatchingIndexingMap(&tiled->getOpOperand(*columns));
    SmallVector<int64_t> copySizes(type.getRank(), 0);
    for (auto [i, e] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        if (tiled.getIteratorTypesArray()[dim.getPosition()] ==
            utils::IteratorType::reduction)
          copySizes[i] = 1;
    rewriter.setInsertionPoint(tiled);
    Location loc = tiled.getLoc();
    auto dense = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType());
    auto copy =
        linalg::CopyOp::create(rewriter, loc, source, dense.getResult());
    copy->setAttr(kTileSizes, DenseI64ArrayAttr::get(ctx, copySizes));
    copy->setAttr(kSequentialTiles, UnitAttr::get(ctx));
    rewriter.modifyOpInPlace(
        tiled, [&] { tiled->setOperand(*columns, copy.getResult(0)); });

    AffineMap producerOut =
        tiled.getMatchingIndexingMap(tiled.getDpsInitOperand(0));
    // The epilogue joins the panel's tile, to be fused into the row
    // blocks' tiles in turn (its fallback: the same blocks of rows).
    if (Operation *epilogue = epilogueOf(fused->loops.front())) {
      FailureOr<scf::SCFFuseConsumerOfSliceResult> consumer =
          scf::tileAndFuseConsumer(rewriter, epilogue, fused->loops);
      if (succeeded(consumer)) {
        if (epilogue->use_empty())
          rewriter.eraseOp(epilogue);
        for (Operation *tiledEpilogue : consumer->tiledOps) {
          auto e = dyn_cast<linalg::LinalgOp>(tiledEpilogue);
          if (!e || e.getNumDpsInits() != 1) {
            markTiled(tiledEpilogue);
            continue;
          }
          // The epilogue's tile: the row block's, dim for dim of the
          // result.
          AffineMap out = e.getMatchingIndexingMap(e.getDpsInitOperand(0));
          SmallVector<int64_t> fallback(e.getNumLoops(), 0);
          for (auto [r, expr] : llvm::enumerate(producerOut.getResults()))
            if (auto from = dyn_cast<AffineDimExpr>(expr))
              if (auto to = dyn_cast<AffineDimExpr>(out.getResult(r)))
                fallback[to.getPosition()] = innerSizes[from.getPosition()];
          clearConfig(tiledEpilogue);
          tiledEpilogue->setAttr(kEpilogueTileSizes,
                                 DenseI64ArrayAttr::get(ctx, fallback));
          tiledEpilogue->setAttr(kSequentialTiles, UnitAttr::get(ctx));
        }
      }
    }
    // The tile's contraction result is now read by its epilogue only:
    // the loop's result for it goes.
    {
      RewritePatternSet patterns(ctx);
      scf::ForallOp::getCanonicalizationPatterns(patterns, ctx);
      (void)applyOpPatternsGreedily(
          SmallVector<Operation *>{fused->loops.front().getOperation()},
          std::move(patterns));
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
      if (last->hasAttr(kPanelTileSizes)) {
        if (failed(tilePanel(rewriter, last)))
          return signalPassFailure();
        continue;
      }
      if (failed(tileOne(rewriter, last)))
        return signalPassFailure();
    }
  }
};
} // namespace
