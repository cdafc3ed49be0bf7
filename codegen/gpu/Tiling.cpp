//===- Tiling.cpp - block and thread tiling of GPU kernels on tensors -----===//
#include "codegen/gpu/Tiling.h"
#include "codegen/gpu/Rounding.h"
#include "codegen/gpu/RowKernels.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::gpu_tiling;

static int64_t divisorAtMost(int64_t size, int64_t limit) {
  for (int64_t t = std::min(size, limit); t > 1; --t)
    if (size % t == 0)
      return t;
  return 1;
}

bool gpu_tiling::isBlockForall(scf::ForallOp forall) {
  std::optional<ArrayAttr> mapping = forall.getMapping();
  return mapping && !mapping->empty() &&
         isa<gpu::GPUBlockMappingAttr>(mapping->getValue().front());
}

bool gpu_tiling::isThreadForall(scf::ForallOp forall) {
  std::optional<ArrayAttr> mapping = forall.getMapping();
  return mapping && !mapping->empty() &&
         isa<gpu::GPUThreadMappingAttr>(mapping->getValue().front());
}

bool gpu_tiling::isWarpForall(scf::ForallOp forall) {
  std::optional<ArrayAttr> mapping = forall.getMapping();
  return mapping && !mapping->empty() &&
         isa<gpu::GPUWarpMappingAttr>(mapping->getValue().front());
}

static SmallVector<OpFoldResult> indexAttrs(MLIRContext *ctx,
                                            ArrayRef<int64_t> sizes) {
  SmallVector<OpFoldResult> result;
  for (int64_t s : sizes)
    result.push_back(IntegerAttr::get(IndexType::get(ctx), s));
  return result;
}

/// Linear mapping attributes for the loops with a nonzero tile size,
/// outermost first (the innermost tiled loop is linear_dim_0, the fastest
/// varying); failure beyond the ten linear dimensions there are.
template <typename MappingAttr>
static FailureOr<SmallVector<Attribute>> linearMapping(MLIRContext *ctx,
                                                       ArrayRef<int64_t> sizes) {
  int64_t tiled = llvm::count_if(sizes, [](int64_t s) { return s != 0; });
  if (tiled > 10)
    return failure();
  SmallVector<Attribute> mapping;
  for (int64_t k = 0; k < tiled; ++k)
    mapping.push_back(MappingAttr::get(
        ctx, static_cast<gpu::MappingId>(
                 static_cast<int64_t>(gpu::MappingId::LinearDim0) + tiled -
                 1 - k)));
  return mapping;
}

/// Producers worth recomputing per tile: fills and elementwise ops.
static bool isFusable(Operation *producer) {
  if (isPlacedOnCpu(producer))
    return false;
  if (isa<linalg::FillOp>(producer))
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(producer);
  return generic && generic.getNumReductionLoops() == 0 &&
         llvm::all_of(generic.getIndexingMapsArray(), [](AffineMap map) {
           return map.isProjectedPermutation();
         });
}

/// The fusion rule of both levels: fills always; elementwise producers
/// whose every user is in the loop nest (otherwise they would be computed
/// twice), and into ops with reductions only as their accumulator (an
/// input read by a reduction window would be recomputed per window).
/// `within`, when set, is the block forall that producers must be in;
/// `root` is the op being tiled (still a user until it is replaced).
static scf::SCFTileAndFuseOptions::ControlFnTy
fusionControl(bool hasReduction, Operation *within, Operation *root) {
  return [hasReduction, within, root](tensor::ExtractSliceOp slice,
                                      OpResult producer,
                                      bool isDestinationOperand)
             -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
    Operation *op = producer.getOwner();
    if (!isFusable(op))
      return std::nullopt;
    if (within && !within->isProperAncestor(op))
      return std::nullopt;
    if (!isa<linalg::FillOp>(op) && !isDestinationOperand) {
      Operation *nest = slice;
      while (isa_and_nonnull<scf::ForallOp, scf::ForOp>(nest->getParentOp()) &&
             nest->getParentOp() != within)
        nest = nest->getParentOp();
      if (!llvm::all_of(producer.getUsers(), [&](Operation *user) {
            return user == root || nest->isAncestor(user);
          }))
        return std::nullopt;
    }
    if (hasReduction && !isDestinationOperand)
      return std::nullopt;
    return scf::SCFTileAndFuseOptions::ControlFnResult{false};
  };
}

/// Tiles `op` into a forall of `sizes` with `mapping`, fusing producers by
/// `control`; replaces and erases what the tiled loop nest supersedes.
static FailureOr<scf::SCFTileAndFuseResult>
tileAndFuse(RewriterBase &rewriter, TilingInterface op, ArrayRef<int64_t> sizes,
            ArrayRef<Attribute> mapping,
            scf::SCFTileAndFuseOptions::ControlFnTy control) {
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(indexAttrs(op->getContext(), sizes))
      .setLoopType(scf::SCFTilingOptions::LoopType::ForallOp)
      .setMapping(mapping);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn(control);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTileAndFuseResult> fused =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, op, options);
  if (failed(fused) || fused->loops.empty())
    return failure();
  for (OpResult res : op->getResults())
    if (Value repl = fused->replacements.lookup(res))
      rewriter.replaceAllUsesWith(res, repl);
  if (op->use_empty())
    rewriter.eraseOp(op);
  for (Operation *producer : fused->fusedProducers)
    if (producer->use_empty())
      rewriter.eraseOp(producer);
  return fused;
}

FailureOr<BlockTiling> gpu_tiling::tileToBlocks(RewriterBase &rewriter,
                                                TilingInterface root,
                                                GpuConfigAttr config) {
  MLIRContext *ctx = root->getContext();
  ArrayRef<int64_t> sizes = config.getWorkgroup();
  FailureOr<SmallVector<Attribute>> mapping =
      linearMapping<gpu::GPUBlockMappingAttr>(ctx, sizes);
  if (failed(mapping))
    return failure();
  bool hasReduction = llvm::is_contained(root.getLoopIteratorTypes(),
                                         utils::IteratorType::reduction);
  FailureOr<scf::SCFTileAndFuseResult> fused = tileAndFuse(
      rewriter, root, sizes, *mapping, fusionControl(hasReduction, nullptr, root));
  if (failed(fused))
    return failure();
  BlockTiling result;
  result.forall = cast<scf::ForallOp>(fused->loops.front().getOperation());
  result.tiledRoot = fused->tiledAndFusedOps.front();
  for (Operation *op : fused->tiledAndFusedOps)
    op->removeAttr(kGpuConfigAttrName);
  return result;
}

/// Thread tiles for an op left in a block: at most `maxThreads` tiles over
/// its parallel loops, the innermost loop split first.
static SmallVector<int64_t> defaultThreadTiles(TilingInterface op,
                                               int64_t maxThreads) {
  auto linalgOp = cast<linalg::LinalgOp>(op.getOperation());
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iters = op.getLoopIteratorTypes();
  SmallVector<int64_t> sizes(ranges.size(), 0);
  int64_t budget = maxThreads;
  for (int64_t d = ranges.size() - 1; d >= 0; --d) {
    if (iters[d] != utils::IteratorType::parallel)
      continue;
    int64_t g = divisorAtMost(ranges[d], budget);
    sizes[d] = ranges[d] / g;
    budget /= g;
  }
  return sizes;
}

LogicalResult gpu_tiling::distributeToThreads(RewriterBase &rewriter,
                                              BlockTiling &block,
                                              GpuConfigAttr config,
                                              int64_t maxThreads) {
  MLIRContext *ctx = block.forall->getContext();
  auto distribute = [&](TilingInterface op,
                        ArrayRef<int64_t> sizes) -> LogicalResult {
    FailureOr<SmallVector<Attribute>> mapping =
        linearMapping<gpu::GPUThreadMappingAttr>(ctx, sizes);
    if (failed(mapping))
      return op->emitError("too many loops to map to threads");
    bool hasReduction = llvm::is_contained(op.getLoopIteratorTypes(),
                                           utils::IteratorType::reduction);
    FailureOr<scf::SCFTileAndFuseResult> fused =
        tileAndFuse(rewriter, op, sizes, *mapping,
                    fusionControl(hasReduction, block.forall, op));
    if (failed(fused))
      return op->emitError("failed to distribute the op over GPU threads");
    return success();
  };
  if (failed(distribute(cast<TilingInterface>(block.tiledRoot),
                        config.getThread())))
    return failure();
  // Whatever the root's threads did not take in runs in tiles of its own.
  while (true) {
    TilingInterface left;
    for (Operation &op : block.forall.getBody()->without_terminator())
      if (auto t = dyn_cast<TilingInterface>(op))
        if (isa<linalg::LinalgOp>(op))
          left = t;
    if (!left)
      return success();
    SmallVector<int64_t> sizes = defaultThreadTiles(left, maxThreads);
    if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
      return left->emitError("cannot distribute an op without parallel "
                             "loops over GPU threads");
    if (failed(distribute(left, sizes)))
      return failure();
  }
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

/// Rewrites the chain of elementwise ops consuming `root`'s result so that
/// each updates the value it reads in place: `E(ins: R, X; outs: empty)`
/// whose body ignores its init becomes `E'(ins: X; outs: R)`. The whole
/// chain then writes the contraction's output tile, which stays in
/// registers. Returns the last op of the chain (`root` when none).
static linalg::LinalgOp foldEpiloguesInPlace(RewriterBase &rewriter,
                                             linalg::LinalgOp root) {
  linalg::LinalgOp last = root;
  while (last->getNumResults() == 1 && last->getResult(0).hasOneUse()) {
    Value result = last->getResult(0);
    OpOperand &use = *result.getUses().begin();
    auto user = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (!user || isPlacedOnCpu(user) || user.getNumReductionLoops() != 0 ||
        user.getNumDpsInits() != 1 || user->getNumResults() != 1)
      break;
    if (user.isDpsInit(&use)) {
      last = user;
      continue;
    }
    OpOperand *init = user.getDpsInitOperand(0);
    if (!user.getMatchingIndexingMap(&use).isIdentity() ||
        !user.getMatchingIndexingMap(init).isIdentity() ||
        init->get().getType() != result.getType() ||
        !user.getMatchingBlockArgument(init).use_empty())
      break;
    unsigned index = use.getOperandNumber();
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *in : user.getDpsInputOperands())
      if (in != &use) {
        inputs.push_back(in->get());
        maps.push_back(user.getMatchingIndexingMap(in));
      }
    maps.push_back(user.getMatchingIndexingMap(init));
    rewriter.setInsertionPoint(user);
    auto inPlace = linalg::GenericOp::create(
        rewriter, user.getLoc(), TypeRange{result.getType()}, inputs,
        ValueRange{result}, maps, user.getIteratorTypesArray(),
        [](OpBuilder &, Location, ValueRange) {});
    inPlace.getRegion().takeBody(user.getRegion());
    Block &body = inPlace.getRegion().front();
    BlockArgument read = body.getArgument(index);
    BlockArgument out = body.getArgument(user.getNumDpsInputs());
    read.replaceAllUsesWith(out);
    body.eraseArgument(index);
    rewriter.replaceOp(user, inPlace->getResults());
    last = inPlace;
  }
  return last;
}

/// A producer that computes its result from indices alone (an im2col: it
/// reads its source at computed indices, with no indexing-map inputs): it
/// can be computed for any tile, such as one K step of a contraction.
static bool isGatherProducer(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  return generic && generic.getNumDpsInputs() == 0 &&
         generic.getNumReductionLoops() == 0 && generic->getNumResults() == 1;
}

/// Tile sizes over an op whose loops are the dims of `root`'s output
/// (its epilogues, its accumulator's producers), from sizes over `root`'s
/// loops.
static SmallVector<int64_t> overOutputDims(linalg::LinalgOp root,
                                           ArrayRef<int64_t> sizes) {
  AffineMap out = root.getMatchingIndexingMap(root.getDpsInitOperand(0));
  SmallVector<int64_t> result;
  for (AffineExpr e : out.getResults())
    result.push_back(sizes[cast<AffineDimExpr>(e).getPosition()]);
  return result;
}

/// Copies a static tile `source` into a new shared memory tensor whose dims
/// are `source`'s permuted by `perm` (result dim i is source dim perm[i]),
/// its values rounded to `round` where given.
static Value promoteToShared(RewriterBase &rewriter, Location loc, Value source,
                             ArrayRef<int64_t> perm, Type elementType,
                             std::optional<dlc::GpuPrecision> round) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<int64_t> shape;
  for (int64_t d : perm)
    shape.push_back(type.getDimSize(d));
  MLIRContext *ctx = rewriter.getContext();
  auto space = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto sharedType = RankedTensorType::get(shape, elementType);
  auto alloc = bufferization::AllocTensorOp::create(
      rewriter, loc, sharedType, ValueRange{}, /*copy=*/Value(),
      /*size_hint=*/Value(), space);
  // A generic, not linalg.copy or linalg.transpose: those fold away on
  // tensors once tiled (the tile would be read straight from global memory).
  unsigned rank = type.getRank();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  SmallVector<AffineExpr> permuted;
  for (int64_t d : perm)
    permuted.push_back(getAffineDimExpr(d, ctx));
  AffineMap outMap = AffineMap::get(rank, 0, permuted, ctx);
  auto copy = linalg::GenericOp::create(
      rewriter, loc, TypeRange{sharedType}, ValueRange{source},
      ValueRange{alloc.getResult()}, ArrayRef<AffineMap>{identity, outMap},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value v = args[0];
        // Staged in a narrower precision (tensor cores' fp16): to nearest
        // even.
        if (round)
          v = dlc::roundToPrecision(b, l, v, *round);
        if (v.getType() != elementType)
          v = arith::TruncFOp::create(b, l, elementType, v);
        linalg::YieldOp::create(b, l, v);
      });
  return copy->getResult(0);
}

/// `op` rebuilt on its current operands (whose element types may no longer
/// match its body's arguments: a tile staged in fp16) with `inits` as its
/// outputs (read through `maps` where given, the yielded values rounded to
/// `round` where given): inputs narrower than the body's arguments are extended
/// (exactly) on entry, yielded values wider than the outputs truncated (to
/// nearest even).
static linalg::GenericOp
retypeGeneric(RewriterBase &rewriter, linalg::GenericOp op, ValueRange inits,
              ArrayRef<AffineMap> maps = {},
              std::optional<dlc::GpuPrecision> round = std::nullopt) {
  Block &old = op.getRegion().front();
  rewriter.setInsertionPoint(op);
  auto rebuilt = linalg::GenericOp::create(
      rewriter, op.getLoc(), inits.getTypes(), op.getDpsInputs(), inits,
      maps.empty() ? op.getIndexingMapsArray() : SmallVector<AffineMap>(maps),
      op.getIteratorTypesArray(),
      [&](OpBuilder &b, Location l, ValueRange args) {
        IRMapping mapping;
        for (auto [arg, value] : llvm::zip(old.getArguments(), args)) {
          Value v = value;
          if (v.getType() != arg.getType())
            v = arith::ExtFOp::create(b, l, arg.getType(), v);
          mapping.map(arg, v);
        }
        for (Operation &inner : old.without_terminator())
          b.clone(inner, mapping);
        SmallVector<Value> yielded;
        for (auto [v, init] :
             llvm::zip(old.getTerminator()->getOperands(), inits)) {
          Value y = mapping.lookupOrDefault(v);
          if (round)
            y = dlc::roundToPrecision(b, l, y, *round);
          Type element = getElementTypeOrSelf(init.getType());
          if (y.getType() != element)
            y = arith::TruncFOp::create(b, l, element, y);
          yielded.push_back(y);
        }
        linalg::YieldOp::create(b, l, yielded);
      });
  rewriter.replaceOp(op, rebuilt->getResults());
  return rebuilt;
}

/// Thread tiles for a copy of a static tile of `shape` by `threads`
/// threads: up to 4 contiguous elements of the innermost dim each (one
/// 16-byte access for f32), then more along the outer dims while there are
/// more tiles than threads.
static SmallVector<int64_t> copyThreadTiles(ArrayRef<int64_t> shape,
                                            int64_t threads,
                                            ArrayRef<int64_t> maxTile) {
  SmallVector<int64_t> tile(shape.size(), 1);
  int64_t inner = shape.back();
  tile.back() = inner % 4 == 0 ? 4 : inner % 2 == 0 ? 2 : 1;
  // Where a dim's tile is capped (0: not).
  auto fits = [&](int64_t d, int64_t size) {
    return shape[d] % size == 0 && (!maxTile[d] || size <= maxTile[d]);
  };
  while (tile.back() > 1 && !fits(shape.size() - 1, tile.back()))
    tile.back() /= 2;
  auto count = [&] {
    int64_t c = 1;
    for (auto [s, t] : llvm::zip(shape, tile))
      c *= s / t;
    return c;
  };
  while (count() > threads) {
    bool grown = false;
    for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0 && !grown;
         --d)
      if (fits(d, 2 * tile[d])) {
        tile[d] *= 2;
        grown = true;
      }
    if (!grown && fits(shape.size() - 1, 2 * tile.back())) {
      tile.back() *= 2;
      grown = true;
    }
    if (!grown)
      break;
  }
  return tile;
}

/// Distributes `op` (in a block) over threads by `sizes`, no fusion.
static LogicalResult distributeAlone(RewriterBase &rewriter, TilingInterface op,
                                     ArrayRef<int64_t> sizes) {
  FailureOr<SmallVector<Attribute>> mapping =
      linearMapping<gpu::GPUThreadMappingAttr>(op->getContext(), sizes);
  if (failed(mapping))
    return op->emitError("too many loops to map to threads");
  auto noFusion = [](tensor::ExtractSliceOp, OpResult, bool)
      -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
    return std::nullopt;
  };
  if (failed(tileAndFuse(rewriter, op, sizes, *mapping, noFusion)))
    return op->emitError("failed to distribute the op over GPU threads");
  return success();
}

LogicalResult gpu_tiling::tileContraction(RewriterBase &rewriter,
                                          linalg::LinalgOp root,
                                          GpuConfigAttr config) {
  MLIRContext *ctx = root->getContext();
  Location loc = root.getLoc();
  linalg::LinalgOp last = foldEpiloguesInPlace(rewriter, root);

  // Blocks over the output; the contraction (through the epilogues'
  // inits) and its accumulator's producers fuse into each block's tile.
  // Read now: `root` is erased once its tile replaces it.
  SmallVector<int64_t> blockSizes =
      overOutputDims(root, config.getWorkgroup());
  SmallVector<int64_t> outputThreads = overOutputDims(root, config.getThread());
  FailureOr<SmallVector<Attribute>> mapping =
      linearMapping<gpu::GPUBlockMappingAttr>(ctx, blockSizes);
  if (failed(mapping))
    return root->emitError("too many loops to map to blocks");
  // Accumulators (the contraction through the epilogues' inits, its fill or
  // bias) always fuse: recomputing a fill for another user is cheap, and
  // the contraction has no other user (the chain follows single uses).
  // Elementwise producers of the epilogues' other inputs fuse by the usual
  // rule; the contraction's own inputs are staged per K step instead.
  scf::SCFTileAndFuseOptions::ControlFnTy elementwise =
      fusionControl(/*hasReduction=*/false, nullptr, last);
  auto control = [elementwise](tensor::ExtractSliceOp slice, OpResult producer,
                               bool isDestinationOperand)
      -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
    if (!isa<linalg::LinalgOp>(producer.getOwner()))
      return std::nullopt;
    if (isDestinationOperand)
      return scf::SCFTileAndFuseOptions::ControlFnResult{false};
    if (llvm::any_of(slice->getUsers(), [](Operation *user) {
          auto l = dyn_cast<linalg::LinalgOp>(user);
          return l && l.getNumReductionLoops() != 0;
        })) {
      // An im2col fuses (and moves into the K steps below).
      // (Its only other user is the contraction being fused here.)
      if (isGatherProducer(producer.getOwner()))
        return scf::SCFTileAndFuseOptions::ControlFnResult{false};
      return std::nullopt;
    }
    return elementwise(slice, producer, isDestinationOperand);
  };
  FailureOr<scf::SCFTileAndFuseResult> fused =
      tileAndFuse(rewriter, cast<TilingInterface>(last.getOperation()),
                  blockSizes, *mapping, control);
  if (failed(fused))
    return emitError(loc, "failed to tile the contraction into GPU blocks");
  auto block = cast<scf::ForallOp>(fused->loops.front().getOperation());
  linalg::LinalgOp tiled;
  for (Operation *op : fused->tiledAndFusedOps) {
    op->removeAttr(kGpuConfigAttrName);
    auto l = dyn_cast<linalg::LinalgOp>(op);
    if (l && l.getNumReductionLoops() != 0)
      tiled = l;
  }
  if (!tiled)
    return emitError(loc, "the contraction did not fuse into its epilogue");

  // K steps.
  scf::SCFTilingOptions kOptions;
  kOptions.setTileSizes(indexAttrs(ctx, config.getReduction()));
  rewriter.setInsertionPoint(tiled);
  FailureOr<scf::SCFTilingResult> k = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(tiled.getOperation()), kOptions);
  if (failed(k) || k->tiledOps.size() != 1)
    return tiled->emitError("failed to tile the contraction's reduction");
  rewriter.replaceOp(tiled, k->replacements);
  // The K loop carries the config to the passes after bufferization
  // (dlc-gpu-pipeline-k-loops reads its pipeline depth).
  k->loops.back()->setAttr(kGpuConfigAttrName, config);
  auto step = cast<linalg::LinalgOp>(k->tiledOps.front());
  if (!isa<linalg::GenericOp>(step)) {
    rewriter.setInsertionPoint(step);
    FailureOr<linalg::GenericOp> generic =
        linalg::generalizeNamedOp(rewriter, step);
    if (failed(generic))
      return step->emitError("cannot generalize the contraction");
    step = *generic;
  }
  auto generic = cast<linalg::GenericOp>(step.getOperation());

  // Operand tiles in shared memory, reduction dims outermost. A gather
  // producer (im2col) fused into the block is computed per K step, straight
  // into shared memory. fp16 tensor-core kernels stage their operands in
  // fp16 (the K step widens them as it reads them).
  Type stagedType;
  if (config.usesMma() && config.getPrecision() == GpuPrecision::F16)
    stagedType = rewriter.getF16Type();
  if (config.usesMma() && config.getPrecision() == GpuPrecision::BF16)
    stagedType = rewriter.getBF16Type();
  // Hopper's warpgroup instructions read tf32 operands from shared memory
  // as they are (the low mantissa bits ignored, which truncates): they are
  // staged rounded to nearest instead, as the other paths round them.
  std::optional<GpuPrecision> roundStaged;
  if (config.usesWarpgroups() && config.getPrecision() == GpuPrecision::TF32)
    roundStaged = GpuPrecision::TF32;
  SmallVector<Operation *> copies;
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  for (OpOperand *in : generic.getDpsInputOperands()) {
    AffineMap map = maps[in->getOperandNumber()];
    // Operand tiles staged with the reduction dims outermost (the
    // CUDA-core step reads a row of each per k), or innermost for
    // half-precision tensor-core operands (fragments by plain ldmatrix, as
    // the A operand of mma.sync (row-major) and its B operand
    // (column-major) lie; upstream's transposed ldmatrix of A (MLIR 22)
    // fills the A registers in the wrong order, which the emulator's
    // ldmatrix shows) and for Hopper's warpgroup instructions, which read
    // tf32 operands K-major only.
    SmallVector<int64_t> perm;
    SmallVector<bool> order = {true, false};
    if (stagedType || config.usesWarpgroups())
      order = {false, true};
    for (bool reductions : order)
      for (auto [i, e] : llvm::enumerate(map.getResults())) {
        auto d = dyn_cast<AffineDimExpr>(e);
        if (!d)
          return generic->emitError("unexpected contraction operand map");
        bool isReduction = linalg::isReductionIterator(
            generic.getIteratorTypesArray()[d.getPosition()]);
        if (isReduction == reductions)
          perm.push_back(i);
      }
    if (auto slice = in->get().getDefiningOp<tensor::ExtractSliceOp>())
      if (isGatherProducer(slice.getSource().getDefiningOp())) {
        Operation *blockLevel = slice.getSource().getDefiningOp();
        SmallVector<LoopLikeOpInterface> kLoops(k->loops);
        std::optional<scf::SCFFuseProducerOfSliceResult> fusedGather =
            scf::tileAndFuseProducerOfSlice(rewriter, slice, kLoops);
        if (!fusedGather || fusedGather->tiledOps.size() != 1)
          return generic->emitError("cannot compute the im2col per K step");
        if (blockLevel->use_empty())
          rewriter.eraseOp(blockLevel);
        auto gather = cast<linalg::GenericOp>(fusedGather->tiledOps.front());
        auto type =
            cast<RankedTensorType>(gather.getDpsInits()[0].getType());
        if (stagedType)
          type = type.clone(stagedType);
        rewriter.setInsertionPoint(gather);
        auto alloc = bufferization::AllocTensorOp::create(
            rewriter, loc, type, ValueRange{}, /*copy=*/Value(),
            /*size_hint=*/Value(),
            gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
        // For warpgroup instructions, the gather writes its tile K-major.
        bool permute = config.usesWarpgroups() && !isIdentityPermutation(perm);
        if (permute) {
          auto shape = llvm::to_vector(llvm::map_range(
              perm, [&](int64_t d) { return type.getDimSize(d); }));
          auto permuted = RankedTensorType::get(shape, type.getElementType());
          rewriter.eraseOp(alloc);
          alloc = bufferization::AllocTensorOp::create(
              rewriter, loc, permuted, ValueRange{}, /*copy=*/Value(),
              /*size_hint=*/Value(),
              gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
          SmallVector<AffineMap> gatherMaps = gather.getIndexingMapsArray();
          AffineMap out = gatherMaps.back();
          SmallVector<AffineExpr> results;
          for (int64_t p : perm)
            results.push_back(out.getResult(p));
          gatherMaps.back() = AffineMap::get(out.getNumDims(), 0, results, ctx);
          gather = retypeGeneric(rewriter, gather, alloc.getResult(),
                                 gatherMaps, roundStaged);
          SmallVector<AffineExpr> operandResults;
          for (int64_t p : perm)
            operandResults.push_back(map.getResult(p));
          maps[in->getOperandNumber()] =
              AffineMap::get(map.getNumDims(), 0, operandResults, ctx);
          rewriter.modifyOpInPlace(generic,
                                   [&] { in->set(gather->getResult(0)); });
        } else if (stagedType || roundStaged) {
          gather = retypeGeneric(rewriter, gather, alloc.getResult(), {},
                                 roundStaged);
        } else {
          rewriter.modifyOpInPlace(gather, [&] {
            gather.getDpsInitsMutable()[0].set(alloc.getResult());
          });
        }
        copies.push_back(gather);
        continue;
      }
    // Moving unit dims moves no data: keep the operand's own order.
    auto shape = cast<RankedTensorType>(in->get().getType()).getShape();
    SmallVector<int64_t> nonUnit;
    for (int64_t d : perm)
      if (shape[d] != 1)
        nonUnit.push_back(d);
    if (llvm::is_sorted(nonUnit))
      perm = llvm::to_vector(llvm::seq<int64_t>(0, perm.size()));
    rewriter.setInsertionPoint(generic);
    Value shared = promoteToShared(
        rewriter, loc, in->get(), perm,
        stagedType ? stagedType : getElementTypeOrSelf(in->get().getType()),
        roundStaged);
    copies.push_back(shared.getDefiningOp());
    SmallVector<AffineExpr> results;
    for (int64_t p : perm)
      results.push_back(map.getResult(p));
    maps[in->getOperandNumber()] =
        AffineMap::get(map.getNumDims(), 0, results, ctx);
    rewriter.modifyOpInPlace(generic, [&] { in->set(shared); });
  }
  rewriter.modifyOpInPlace(generic, [&] {
    generic.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
  // The step reads the staged operands and extends them to the body's f32
  // (upstream's vectorization folds the extensions into the contraction:
  // f16 x f16 -> f32).
  if (stagedType)
    generic = retypeGeneric(rewriter, generic, generic.getDpsInits());

  // Threads: the step by `thread`, the copies by 16-byte pieces, the ops
  // over the output (accumulator producers, epilogues) by `thread` over
  // the output's dims.
  // A thread's step goes through the K step `thread[k]` reduction elements
  // at a time (an scf.for), so that only that many rows of its operands
  // are live in registers with the accumulators.
  int64_t threads = config.getNumThreads();
  SmallVector<int64_t> stepThreads(config.getThread()), inner;
  bool innerSteps = false;
  for (auto [d, it] : llvm::enumerate(generic.getIteratorTypesArray())) {
    bool reduction = linalg::isReductionIterator(it);
    inner.push_back(reduction ? stepThreads[d] : 0);
    innerSteps |= reduction && stepThreads[d] != 0;
    if (reduction)
      stepThreads[d] = 0;
  }
  // On tensor cores the step's tiles are warps' (each issues mma.sync
  // over its tile, `thread[k]` reduction elements at a time).
  FailureOr<SmallVector<Attribute>> threadMapping =
      config.usesMma()
          ? linearMapping<gpu::GPUWarpMappingAttr>(ctx, stepThreads)
          : linearMapping<gpu::GPUThreadMappingAttr>(ctx, stepThreads);
  if (failed(threadMapping))
    return generic->emitError("too many loops to map to threads");
  auto noFusion = [](tensor::ExtractSliceOp, OpResult, bool)
      -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
    return std::nullopt;
  };
  FailureOr<scf::SCFTileAndFuseResult> perThread =
      tileAndFuse(rewriter, cast<TilingInterface>(generic.getOperation()),
                  stepThreads, *threadMapping, noFusion);
  if (failed(perThread))
    return emitError(loc, "failed to distribute the K step over threads");
  if (innerSteps) {
    auto threadOp =
        cast<TilingInterface>(perThread->tiledAndFusedOps.front());
    scf::SCFTilingOptions innerOptions;
    innerOptions.setTileSizes(indexAttrs(ctx, inner));
    rewriter.setInsertionPoint(threadOp);
    FailureOr<scf::SCFTilingResult> innerK =
        scf::tileUsingSCF(rewriter, threadOp, innerOptions);
    if (failed(innerK))
      return threadOp->emitError("failed to tile a thread's K step");
    rewriter.replaceOp(threadOp, innerK->replacements);
  }
  for (Operation *copy : copies) {
    // Each thread reads up to 4 contiguous source elements (16 bytes), and
    // neighbouring threads neighbouring pieces (the copy's loops are the
    // source's dims, a gather's those of what it computes; a transposed
    // tile is written through its map).
    auto copyOp = cast<linalg::LinalgOp>(copy);
    SmallVector<int64_t> loops = copyOp.getStaticLoopRanges();
    // Hopper's warpgroup instructions read the tile in 16-byte rows of K
    // (dlc-gpu-vector-to-wgmma lays it out so): a thread writes within one.
    SmallVector<int64_t> maxTile(loops.size(), 0);
    if (config.usesWarpgroups()) {
      OpOperand *init = copyOp.getDpsInitOperand(0);
      AffineMap out = copyOp.getMatchingIndexingMap(init);
      if (auto d = dyn_cast<AffineDimExpr>(out.getResults().back()))
        maxTile[d.getPosition()] =
            16 / (getElementTypeOrSelf(init->get().getType())
                      .getIntOrFloatBitWidth() /
                  8);
    }
    if (failed(distributeAlone(rewriter, cast<TilingInterface>(copy),
                               copyThreadTiles(loops, threads, maxTile))))
      return failure();
  }
  SmallVector<TilingInterface> rest;
  for (Operation &op : block.getBody()->without_terminator())
    if (auto l = dyn_cast<linalg::LinalgOp>(op))
      rest.push_back(cast<TilingInterface>(op));
  for (TilingInterface op : rest) {
    auto l = cast<linalg::LinalgOp>(op.getOperation());
    // (A tensor-core kernel's `thread` tiles are warps'.)
    SmallVector<int64_t> sizes =
        !config.usesMma() && l.getNumLoops() == outputThreads.size() &&
                l.getNumReductionLoops() == 0
            ? outputThreads
            : defaultThreadTiles(op, threads);
    if (failed(distributeAlone(rewriter, op, sizes)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

LogicalResult gpu_tiling::tileReduction(RewriterBase &rewriter,
                                        TilingInterface root,
                                        GpuConfigAttr config) {
  MLIRContext *ctx = root->getContext();
  FailureOr<BlockTiling> block = tileToBlocks(rewriter, root, config);
  if (failed(block))
    return emitError(root->getLoc(), "failed to tile the reduction into blocks");
  FailureOr<SmallVector<Attribute>> mapping =
      linearMapping<gpu::GPUWarpMappingAttr>(ctx, config.getThread());
  if (failed(mapping))
    return block->tiledRoot->emitError("too many loops to map to warps");
  FailureOr<scf::SCFTileAndFuseResult> warps = tileAndFuse(
      rewriter, cast<TilingInterface>(block->tiledRoot), config.getThread(),
      *mapping,
      fusionControl(/*hasReduction=*/true, block->forall, block->tiledRoot));
  if (failed(warps))
    return emitError(root->getLoc(), "failed to distribute the reduction "
                                     "over warps");
  warps->tiledAndFusedOps.front()->setAttr(kGpuConfigAttrName, config);
  return success();
}

//===----------------------------------------------------------------------===//
// Row kernels
//===----------------------------------------------------------------------===//

/// Into the blocks: the fills and the ops of `chain` (findRowChain checked
/// them); into the warps: the block's copies of them (the linalg ops in
/// `within`).
static scf::SCFTileAndFuseOptions::ControlFnTy
rowFusionControl(Operation *within,
                 const llvm::SetVector<Operation *> *chain) {
  return [within, chain](tensor::ExtractSliceOp, OpResult producer, bool)
             -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
    Operation *op = producer.getOwner();
    bool fuse = within ? isa<linalg::LinalgOp>(op) &&
                             within->isProperAncestor(op)
                       : isa<linalg::FillOp>(op) || chain->contains(op);
    if (!fuse)
      return std::nullopt;
    return scf::SCFTileAndFuseOptions::ControlFnResult{false};
  };
}

/// Erases the ops of `scope` left without users: producers that a row
/// kernel recomputed in its tiles, and the slices they were read through.
static void eraseDead(RewriterBase &rewriter, Operation *scope) {
  (void)runRegionDCE(rewriter, scope->getRegions());
}

/// Whether `v` is (a slice of) a tensor.empty: a temporary, not the
/// kernel's output.
static bool isTemporary(Value v) {
  while (auto slice = v.getDefiningOp<tensor::ExtractSliceOp>())
    v = slice.getSource();
  return v.getDefiningOp<tensor::EmptyOp>() != nullptr;
}

LogicalResult gpu_tiling::tileRows(RewriterBase &rewriter,
                                   TilingInterface root,
                                   GpuConfigAttr config) {
  MLIRContext *ctx = root->getContext();
  Location loc = root.getLoc();
  FailureOr<SmallVector<Attribute>> blockMapping =
      linearMapping<gpu::GPUBlockMappingAttr>(ctx, config.getWorkgroup());
  if (failed(blockMapping))
    return root->emitError("too many loops to map to blocks");
  auto rootGeneric = dyn_cast<linalg::GenericOp>(root.getOperation());
  std::optional<llvm::SetVector<Operation *>> chain;
  if (rootGeneric)
    chain = gpu_rows::findRowChain(rootGeneric);
  if (!chain)
    return root->emitError("expected the root of a row kernel");
  FailureOr<scf::SCFTileAndFuseResult> blocks =
      tileAndFuse(rewriter, root, config.getWorkgroup(), *blockMapping,
                  rowFusionControl(nullptr, &*chain));
  if (failed(blocks))
    return emitError(loc, "failed to tile the row kernel into blocks");
  auto block = cast<scf::ForallOp>(blocks->loops.front().getOperation());
  eraseDead(rewriter, block->getParentOp());
  for (Operation *op : blocks->tiledAndFusedOps)
    op->removeAttr(kGpuConfigAttrName);
  block->walk([](Operation *op) { op->removeAttr(kGpuConfigAttrName); });

  FailureOr<SmallVector<Attribute>> warpMapping =
      linearMapping<gpu::GPUWarpMappingAttr>(ctx, config.getThread());
  if (failed(warpMapping))
    return root->emitError("too many loops to map to warps");
  auto tiledRoot = cast<TilingInterface>(blocks->tiledAndFusedOps.front());
  FailureOr<scf::SCFTileAndFuseResult> warps =
      tileAndFuse(rewriter, tiledRoot, config.getThread(), *warpMapping,
                  rowFusionControl(block, nullptr));
  if (failed(warps))
    return emitError(loc, "failed to distribute the row kernel over warps");
  auto warp = cast<scf::ForallOp>(warps->loops.front().getOperation());
  eraseDead(rewriter, block);

  // Elementwise producers into their consumers (each has one use: the
  // tile fusion made a copy per use), so that no row is stored.
  RewritePatternSet patterns(ctx);
  linalg::populateElementwiseOpsFusionPatterns(
      patterns, [&](OpOperand *operand) {
        Operation *producer = operand->get().getDefiningOp();
        return producer && warp->isProperAncestor(producer);
      });
  if (failed(applyPatternsGreedily(warp.getRegion(), std::move(patterns))))
    return warp->emitError("failed to fuse the row kernel's elementwise ops");
  // A reduction fused for two users is computed once.
  DominanceInfo dominance;
  eliminateCommonSubExpressions(rewriter, dominance, block);

  // The op writing the row (the fusion may have given it an empty init:
  // it does not read its output) writes into the kernel's output.
  for (Operation &op : warp.getTerminator().getYieldingOps()) {
    auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(op);
    if (!insert)
      continue;
    auto writer = insert.getSource().getDefiningOp<linalg::GenericOp>();
    if (!writer || writer.getNumDpsInits() != 1 ||
        !isTemporary(writer.getDpsInits()[0]))
      continue;
    rewriter.setInsertionPoint(writer);
    auto slice = tensor::ExtractSliceOp::create(
        rewriter, insert.getLoc(),
        cast<RankedTensorType>(insert.getSource().getType()), insert.getDest(),
        insert.getMixedOffsets(), insert.getMixedSizes(),
        insert.getMixedStrides());
    rewriter.modifyOpInPlace(writer, [&] {
      writer.getDpsInitsMutable()[0].set(slice.getResult());
    });
  }

  // A fill that CSE made the init of two ops (a max and a sum both from
  // 0, say) is copied for each: each gets its own buffer.
  SmallVector<linalg::LinalgOp> users;
  warp.getBody()->walk([&](linalg::LinalgOp op) { users.push_back(op); });
  for (linalg::LinalgOp op : users)
    for (OpOperand &init : op.getDpsInitsMutable()) {
      auto fill = init.get().getDefiningOp<linalg::FillOp>();
      if (!fill || fill->hasOneUse() || !warp->isProperAncestor(fill))
        continue;
      rewriter.setInsertionPoint(op);
      Operation *copy = rewriter.clone(*fill);
      rewriter.modifyOpInPlace(op, [&] { init.set(copy->getResult(0)); });
    }

  // A row's reduced values (and what is computed from them) in private
  // buffers: every lane holds its own copy.
  auto space = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Private);
  SmallVector<linalg::LinalgOp> ops;
  warp.getBody()->walk([&](linalg::LinalgOp op) { ops.push_back(op); });
  // The lowering spreads the reductions and the ops over whole rows (those
  // writing the kernel's output) over the lanes.
  for (linalg::LinalgOp op : ops) {
    bool overRow =
        op.getNumReductionLoops() != 0 ||
        llvm::any_of(op.getDpsInits(), [](Value v) { return !isTemporary(v); });
    if (isa<linalg::GenericOp>(op) && overRow)
      op->setAttr(kGpuConfigAttrName, config);
  }
  for (linalg::LinalgOp op : ops) {
    for (OpOperand &init : op.getDpsInitsMutable()) {
      auto type = dyn_cast<RankedTensorType>(init.get().getType());
      if (!type || !type.hasStaticShape() || !isTemporary(init.get()))
        continue;
      rewriter.setInsertionPoint(op);
      auto alloc = bufferization::AllocTensorOp::create(
          rewriter, op.getLoc(), type, ValueRange{}, /*copy=*/Value(),
          /*size_hint=*/Value(), space);
      rewriter.modifyOpInPlace(op, [&] { init.set(alloc.getResult()); });
    }
  }
  return success();
}

