//===- MapForall.cpp - block and thread foralls -> gpu.launch -------------===//
#include "codegen/gpu/KernelUtils.h"
#include "codegen/gpu/Passes.h"
#include "codegen/gpu/Tiling.h"

#include "mlir/Dialect/GPU/TransformOps/GPUTransformOps.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"

namespace dlc {
#define GEN_PASS_DEF_GPUMAPFORALL
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

static constexpr int64_t kWarpSize = 32;

/// Iterations of each loop of a forall with static bounds.
static FailureOr<SmallVector<int64_t>> tripCounts(scf::ForallOp forall) {
  std::optional<SmallVector<OpFoldResult>> lbs = forall.getLoopLowerBounds(),
                                           ubs = forall.getLoopUpperBounds(),
                                           steps = forall.getLoopSteps();
  if (!lbs || !ubs || !steps)
    return failure();
  SmallVector<int64_t> counts;
  for (auto [lb, ub, step] : llvm::zip(*lbs, *ubs, *steps)) {
    std::optional<int64_t> l = getConstantIntValue(lb),
                           u = getConstantIntValue(ub),
                           s = getConstantIntValue(step);
    if (!l || !u || !s || *s <= 0)
      return failure();
    counts.push_back((*u - *l + *s - 1) / *s);
  }
  return counts;
}

/// The position of each loop among the linear dimensions of `forall`'s
/// mapping (0: fastest varying).
static SmallVector<int64_t> linearDims(scf::ForallOp forall) {
  SmallVector<int64_t> dims;
  for (Attribute a : forall.getMapping()->getValue())
    dims.push_back(cast<DeviceMappingAttrInterface>(a).getMappingId() -
                   static_cast<int64_t>(gpu::MappingId::LinearDim0));
  return dims;
}

namespace {
struct MapForallPass : dlc::impl::GpuMapForallBase<MapForallPass> {
  LogicalResult mapBlocks(scf::ForallOp forall) {
    Location loc = forall.getLoc();
    FailureOr<SmallVector<int64_t>> counts = tripCounts(forall);
    if (failed(counts) || !forall.getOutputs().empty())
      return forall.emitError("expected a bufferized block forall with "
                              "static bounds");
    // As many threads as the largest of the block's thread foralls needs,
    // in whole warps.
    int64_t threads = 1;
    WalkResult walk = forall.getBody()->walk([&](scf::ForallOp inner) {
      FailureOr<SmallVector<int64_t>> c = tripCounts(inner);
      if (failed(c) || !(gpu_tiling::isThreadForall(inner) ||
                         gpu_tiling::isWarpForall(inner))) {
        inner.emitError("expected a thread forall with static bounds");
        return WalkResult::interrupt();
      }
      int64_t n = 1;
      for (int64_t v : *c)
        n *= v;
      // A warp forall takes a warp per iteration.
      if (gpu_tiling::isWarpForall(inner))
        n *= kWarpSize;
      threads = std::max(threads, n);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    if (threads > 1024)
      return forall.emitError("a block of ") << threads << " threads";
    if (threads > 1)
      threads = llvm::alignTo(threads, kWarpSize);

    int64_t blocks = 1;
    for (int64_t c : *counts)
      blocks *= c;
    IRRewriter rewriter(forall);
    Value grid = arith::ConstantIndexOp::create(rewriter, loc, blocks);
    Value block = arith::ConstantIndexOp::create(rewriter, loc, threads);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto launch =
        gpu::LaunchOp::create(rewriter, loc, grid, one, one, block, one, one);
    Block &body = launch.getBody().front();
    rewriter.setInsertionPointToStart(&body);
    gpu::TerminatorOp::create(rewriter, loc);
    rewriter.setInsertionPointToStart(&body);
    // The block id, delinearized over the loops (linear_dim_0 fastest).
    SmallVector<int64_t> dims = linearDims(forall);
    SmallVector<int64_t> order(dims.size()); // loops, slowest first
    for (auto [loop, dim] : llvm::enumerate(dims))
      order[dims.size() - 1 - dim] = loop;
    SmallVector<int64_t> basis;
    for (int64_t loop : order)
      basis.push_back((*counts)[loop]);
    Value bid = launch.getBlockIds().x;
    SmallVector<Value> idx(dims.size());
    if (dims.size() == 1) {
      idx[0] = bid;
    } else {
      auto delin =
          affine::AffineDelinearizeIndexOp::create(rewriter, loc, bid, basis);
      for (auto [k, loop] : llvm::enumerate(order))
        idx[loop] = delin.getResult(k);
    }
    IRMapping map;
    std::optional<SmallVector<OpFoldResult>> lbs = forall.getLoopLowerBounds(),
                                             steps = forall.getLoopSteps();
    for (auto [i, iv] : llvm::enumerate(forall.getInductionVars())) {
      Value lb = getValueOrCreateConstantIndexOp(rewriter, loc, (*lbs)[i]);
      Value step = getValueOrCreateConstantIndexOp(rewriter, loc, (*steps)[i]);
      map.map(iv, arith::AddIOp::create(
                      rewriter, loc, lb,
                      arith::MulIOp::create(rewriter, loc, idx[i], step)));
    }
    for (Operation &op : forall.getBody()->without_terminator())
      rewriter.clone(op, map);
    rewriter.eraseOp(forall);

    // Upstream maps normalized loops only (lower bound 0, step 1).
    SmallVector<scf::ForallOp> threadLoops;
    launch.walk([&](scf::ForallOp inner) { threadLoops.push_back(inner); });
    for (scf::ForallOp inner : threadLoops) {
      rewriter.setInsertionPoint(inner);
      if (failed(normalizeForallOp(rewriter, inner)))
        return inner.emitError("cannot normalize a thread forall");
    }
    rewriter.setInsertionPointToStart(&body);
    DiagnosedSilenceableFailure mapped =
        transform::gpu::mapNestedForallToThreadsImpl(
            rewriter, std::nullopt, launch, {threads, 1, 1}, kWarpSize,
            /*syncAfterDistribute=*/true);
    if (!mapped.succeeded())
      return launch.emitError("failed to map the block's foralls to threads");
    // The barrier after the last thread forall orders nothing.
    Operation *terminator = body.getTerminator();
    while (auto barrier =
               dyn_cast_or_null<gpu::BarrierOp>(terminator->getPrevNode()))
      rewriter.eraseOp(barrier);
    return sinkIntoLaunch(launch);
  }

  void runOnOperation() override {
    SmallVector<scf::ForallOp> blocks;
    getOperation().walk([&](scf::ForallOp forall) {
      if (gpu_tiling::isBlockForall(forall))
        blocks.push_back(forall);
    });
    for (scf::ForallOp forall : blocks)
      if (failed(mapBlocks(forall)))
        return signalPassFailure();
  }
};
} // namespace
