//===- HoistAccumulators.cpp - a thread's accumulators stay in registers --===//
#include "codegen/gpu/Passes.h"
#include "ir/DlcAttrs.h"

#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace dlc {
#define GEN_PASS_DEF_GPUHOISTACCUMULATORS
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// The buffer `v` is a view of, with the byte range of the view when known
/// (a memref.view of a static type at a constant offset); `v` itself for
/// kernel arguments and allocations.
struct Root {
  Value buffer;
  std::optional<std::pair<int64_t, int64_t>> bytes; // [begin, end)
};

static Root rootOf(Value v) {
  Root r{v, std::nullopt};
  while (Operation *def = r.buffer.getDefiningOp()) {
    if (auto view = dyn_cast<memref::ViewOp>(def)) {
      std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
      MemRefType type = view.getType();
      if (!r.bytes && shift && type.hasStaticShape())
        r.bytes = {*shift, *shift + type.getNumElements() *
                                        type.getElementTypeBitWidth() / 8};
      else
        r.bytes.reset();
      r.buffer = view.getSource();
      continue;
    }
    auto viewLike = dyn_cast<ViewLikeOpInterface>(def);
    if (!viewLike)
      break;
    r.buffer = viewLike.getViewSource();
  }
  return r;
}

/// Whether `a` and `b` may share memory: views of the same buffer whose byte
/// ranges are unknown or overlap (the memory plan gives live buffers
/// disjoint ranges of the workspace).
static bool mayAlias(Value a, Value b) {
  Root ra = rootOf(a), rb = rootOf(b);
  if (ra.buffer != rb.buffer)
    return !(isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
                 ra.buffer.getDefiningOp()) ||
             isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
                 rb.buffer.getDefiningOp()) ||
             (isa<BlockArgument>(ra.buffer) && isa<BlockArgument>(rb.buffer)));
  if (!ra.bytes || !rb.bytes)
    return true;
  return ra.bytes->first < rb.bytes->second &&
         rb.bytes->first < ra.bytes->second;
}

/// Whether an op in `loop` other than `read` and `write` may touch the
/// memory `base` views. Barriers order other threads' accesses; a thread's
/// accumulator tile is its own.
static bool otherAccess(scf::ForOp loop, Value base, Operation *read,
                        Operation *write) {
  WalkResult result = loop.getBody()->walk([&](Operation *op) {
    if (op == read || op == write || isa<gpu::BarrierOp>(op))
      return WalkResult::advance();
    // Another piece of the same tile (a warp's tile in instruction-sized
    // pieces) at indices that provably differ.
    if (auto transfer = dyn_cast<VectorTransferOpInterface>(op))
      if (transfer.getBase() == base &&
          vector::isDisjointTransferSet(transfer,
                                        cast<VectorTransferOpInterface>(read),
                                        /*testDynamicValueUsingBounds=*/true))
        return WalkResult::advance();
    auto iface = dyn_cast<MemoryEffectOpInterface>(op);
    if (!iface) {
      if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return WalkResult::advance();
      return WalkResult::interrupt();
    }
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects) {
      if (isa<MemoryEffects::Allocate, MemoryEffects::Free>(effect.getEffect()))
        continue;
      Value v = effect.getValue();
      if (!v || mayAlias(v, base))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// Moves one read/write pair of a loop-invariant tile out of `loop`: the
/// tile is read before it, carried as an iter_arg and written after it.
static bool hoistOne(RewriterBase &rewriter, scf::ForOp loop) {
  for (Operation &op : *loop.getBody()) {
    auto read = dyn_cast<vector::TransferReadOp>(op);
    if (!read || !isa<MemRefType>(read.getBase().getType()) ||
        llvm::any_of(read->getOperands(), [&](Value v) {
          return !loop.isDefinedOutsideOfLoop(v);
        }))
      continue;
    vector::TransferWriteOp write;
    for (Operation *user : read.getBase().getUsers()) {
      auto w = dyn_cast<vector::TransferWriteOp>(user);
      if (w && w->getBlock() == loop.getBody() &&
          read->isBeforeInBlock(w) && w.getIndices() == read.getIndices() &&
          w.getVectorType() == read.getVectorType() &&
          w.getPermutationMap() == read.getPermutationMap() && !w.getMask())
        write = w;
    }
    if (!write || otherAccess(loop, read.getBase(), read, write))
      continue;
    // The trip count is a constant above zero (K steps), so the hoisted
    // read and write happen as they did.
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                           ub = getConstantIntValue(loop.getUpperBound());
    if (!lb || !ub || *ub <= *lb)
      continue;
    rewriter.moveOpBefore(read, loop);
    rewriter.moveOpAfter(write, loop);
    FailureOr<LoopLikeOpInterface> newLoop =
        cast<LoopLikeOpInterface>(loop.getOperation())
            .replaceWithAdditionalYields(
                rewriter, read.getResult(),
                /*replaceInitOperandUsesInLoop=*/true,
                [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                  return SmallVector<Value>{write.getVector()};
                });
    if (failed(newLoop))
      return false;
    rewriter.modifyOpInPlace(write, [&] {
      write.getValueToStoreMutable().assign(
          newLoop->getOperation()->getResults().back());
    });
    return true;
  }
  return false;
}

namespace {
struct HoistAccumulatorsPass
    : dlc::impl::GpuHoistAccumulatorsBase<HoistAccumulatorsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *ctx = &getContext();
    {
      // Transfers of views index their buffers: a thread's tile of the
      // accumulator is then the same indices in every K step.
      RewritePatternSet patterns(ctx);
      memref::populateFoldMemRefAliasOpPatterns(patterns);
      (void)applyPatternsGreedily(func, std::move(patterns));
    }
    IRRewriter rewriter(ctx);
    DominanceInfo dominance(func);
    eliminateCommonSubExpressions(rewriter, dominance, func);
    func.walk([](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
    // Innermost loops first, until nothing moves (upstream's hoisting skips
    // tiles of views, which every workspace buffer is).
    bool changed = true;
    while (changed) {
      changed = false;
      SmallVector<scf::ForOp> loops;
      func.walk([&](scf::ForOp loop) {
        if (loop->getParentOfType<gpu::LaunchOp>())
          loops.push_back(loop);
      });
      for (scf::ForOp loop : loops)
        if (hoistOne(rewriter, loop)) {
          changed = true;
          break;
        }
    }
    // A warp's accumulators on tensor cores are written in the fragments'
    // layout and read next by other threads (the epilogue): the barrier
    // that followed the warps' step in the loop now follows the writes.
    func.walk([&](scf::ForOp loop) {
      auto config =
          loop->getAttrOfType<dlc::GpuConfigAttr>(dlc::kGpuConfigAttrName);
      if (!config || !config.usesMma())
        return;
      Operation *last = loop;
      for (Operation *user : loop->getUsers())
        if (user->getBlock() == loop->getBlock() && last->isBeforeInBlock(user))
          last = user;
      Operation *next = last->getNextNode();
      if (last != loop && next && !isa<gpu::BarrierOp>(next)) {
        rewriter.setInsertionPointAfter(last);
        gpu::BarrierOp::create(rewriter, loop.getLoc());
      }
    });
    // The accumulator's initial value (a fill, a bias) and the epilogues
    // read and write the same thread's tile: forwarded, and the overwritten
    // stores removed.
    vector::transferOpflowOpt(rewriter, func);
    // Nothing after a kernel's last barrier reads what it orders.
    func.walk([&](gpu::LaunchOp launch) {
      Operation *terminator = launch.getBody().front().getTerminator();
      while (auto barrier =
                 dyn_cast_or_null<gpu::BarrierOp>(terminator->getPrevNode()))
        rewriter.eraseOp(barrier);
    });
  }
};
} // namespace
