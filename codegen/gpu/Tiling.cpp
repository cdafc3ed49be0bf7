//===- Tiling.cpp - block and thread tiling of GPU kernels on tensors -----===//
#include "codegen/gpu/Tiling.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

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
