//===- MapToBlocks.cpp - parallel loops -> 1-D gpu.launch grids -----------===//
#include "codegen/gpu/KernelUtils.h"
#include "codegen/gpu/Passes.h"
#include "ir/DlcDialect.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

namespace dlc {
#define GEN_PASS_DEF_MAPTOBLOCKS
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// True if `buffer` is (a view of) an argument of the entry marked
/// `dlc.sizes`: the run's sizes of symbolic input dimensions and of dynamic
/// output dimensions, which live in host memory.
static bool isHostSizes(Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
    buffer = view.getViewSource();
  auto arg = dyn_cast<BlockArgument>(buffer);
  if (!arg)
    return false;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  return func && func.getArgAttr(arg.getArgNumber(), dlc::kSizesAttr);
}

/// True if `op` or an op nested in it reads or writes device memory (calls
/// are assumed to); the host's sizes buffers are not.
static bool touchesMemory(Operation *op) {
  WalkResult result = op->walk([](Operation *nested) {
    auto iface = dyn_cast<MemoryEffectOpInterface>(nested);
    if (!iface)
      return isa<CallOpInterface>(nested) ? WalkResult::interrupt()
                                          : WalkResult::advance();
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (auto &effect : effects)
      if (isa<MemoryEffects::Read, MemoryEffects::Write>(effect.getEffect()) &&
          !(effect.getValue() && isHostSizes(effect.getValue())))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

static bool containsParallelLoop(Operation *op) {
  return op->walk([](scf::ParallelOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// A launch of `grid` blocks of `block` threads at the builder's insertion
/// point; the builder is left inside its body, before the terminator.
/// Returns the thread's global linear index. `launches` collects it.
static Value createLaunch(OpBuilder &b, Location loc, Value grid, Value block,
                          SmallVectorImpl<gpu::LaunchOp> &launches) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto launch = gpu::LaunchOp::create(b, loc, grid, one, one, block, one, one);
  launches.push_back(launch);
  Block &body = launch.getBody().front();
  b.setInsertionPointToStart(&body);
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&body);
  Value bid = launch.getBlockIds().x, tid = launch.getThreadIds().x;
  Value bdim = launch.getBlockSize().x;
  return arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, bid, bdim), tid);
}

namespace {
struct MapToBlocksPass : dlc::impl::MapToBlocksBase<MapToBlocksPass> {
  using Base::Base;
  SmallVector<gpu::LaunchOp> launches;

  LogicalResult mapParallel(scf::ParallelOp loop) {
    if (loop.getNumResults() != 0)
      return loop.emitError("parallel loops with reductions are not "
                            "supported on the CUDA target");
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    SmallVector<Value> counts;
    Value total = arith::ConstantIndexOp::create(b, loc, 1);
    for (auto [lb, ub, step] : llvm::zip(loop.getLowerBound(),
                                         loop.getUpperBound(),
                                         loop.getStep())) {
      Value span = arith::SubIOp::create(b, loc, ub, lb);
      Value count = arith::CeilDivUIOp::create(b, loc, span, step);
      counts.push_back(count);
      total = arith::MulIOp::create(b, loc, total, count);
    }
    // At least one thread per block: a size known at run time may leave
    // no iterations (the grid is then empty, and the launch is skipped).
    Value bs = arith::ConstantIndexOp::create(b, loc, blockSize);
    Value block = arith::MaxUIOp::create(
        b, loc, arith::MinUIOp::create(b, loc, bs, total),
        arith::ConstantIndexOp::create(b, loc, 1));
    Value grid = arith::CeilDivUIOp::create(b, loc, total, block);
    Value linear = createLaunch(b, loc, grid, block, launches);
    Value inBounds = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           linear, total);
    auto guard = scf::IfOp::create(b, loc, inBounds, /*withElse=*/false);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
    IRMapping map;
    if (counts.size() == 1) {
      map.map(loop.getInductionVars()[0],
              arith::AddIOp::create(
                  b, loc, loop.getLowerBound()[0],
                  arith::MulIOp::create(b, loc, linear, loop.getStep()[0])));
    } else {
      auto delin = affine::AffineDelinearizeIndexOp::create(b, loc, linear,
                                                            counts);
      for (auto [i, iv] : llvm::enumerate(loop.getInductionVars()))
        map.map(iv, arith::AddIOp::create(
                        b, loc, loop.getLowerBound()[i],
                        arith::MulIOp::create(b, loc, delin.getResult(i),
                                              loop.getStep()[i])));
    }
    for (Operation &op : loop.getBody()->without_terminator())
      b.clone(op, map);
    loop.erase();
    return success();
  }

  /// Moves `run` (host-level ops of one block, in order) into one
  /// single-thread launch placed after its last op.
  LogicalResult runSerially(ArrayRef<Operation *> run) {
    if (run.empty())
      return success();
    llvm::SmallPtrSet<Operation *, 8> inRun(run.begin(), run.end());
    for (Operation *op : run)
      for (Value r : op->getResults())
        for (Operation *user : r.getUsers()) {
          if (inRun.contains(user))
            continue;
          // A size or a branch that depends on tensor values: the value
          // would have to come back from the device mid-run.
          return op->emitError("a value computed on the device is needed "
                               "on the host by '")
                 << user->getName()
                 << "' (a data-dependent shape, or control flow that "
                    "depends on tensor values), which the CUDA target does "
                    "not support yet";
        }
    Operation *last = run.back();
    OpBuilder b(last->getContext());
    b.setInsertionPointAfter(last);
    Value one = arith::ConstantIndexOp::create(b, last->getLoc(), 1);
    createLaunch(b, last->getLoc(), one, one, launches);
    for (Operation *op : run)
      op->moveBefore(b.getInsertionBlock(), b.getInsertionPoint());
    return success();
  }

  /// Maps the host-level ops of `block`. Consecutive ops that touch memory,
  /// with the scalar ops computing on what they load, form one serial
  /// launch.
  LogicalResult mapBlock(Block &block) {
    SmallVector<Operation *> run;
    llvm::SmallPtrSet<Operation *, 8> inRun;
    auto flush = [&]() {
      LogicalResult result = runSerially(run);
      run.clear();
      inRun.clear();
      return result;
    };
    for (Operation &op : llvm::make_early_inc_range(block)) {
      bool usesRun = llvm::any_of(op.getOperands(), [&](Value v) {
        return v.getDefiningOp() && inRun.contains(v.getDefiningOp());
      });
      if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
        if (failed(flush()) || failed(mapParallel(loop)))
          return failure();
      } else if (isa<gpu::LaunchOp>(op)) {
        // A kernel made from a forall: serial work around it stays on its
        // side of it.
        if (failed(flush()))
          return failure();
      } else if (containsParallelLoop(&op)) {
        if (failed(flush()))
          return failure();
        for (Region &region : op.getRegions())
          for (Block &nested : region)
            if (failed(mapBlock(nested)))
              return failure();
      } else if (!op.hasTrait<OpTrait::IsTerminator>() &&
                 (touchesMemory(&op) || usesRun)) {
        run.push_back(&op);
        inRun.insert(&op);
      }
    }
    return flush();
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    launches.clear();
    if (failed(mapBlock(func.getBody().front())))
      return signalPassFailure();
    // Every kernel, also those made from foralls: constants and views
    // that canonicalization left outside are sunk again.
    WalkResult sunk = func.walk([](gpu::LaunchOp launch) {
      return failed(dlc::sinkIntoLaunch(launch)) ? WalkResult::interrupt()
                                                 : WalkResult::advance();
    });
    if (sunk.wasInterrupted())
      return signalPassFailure();
  }
};
} // namespace
