//===- MapToBlocks.cpp - parallel loops -> 1-D gpu.launch grids -----------===//
#include "codegen/gpu/KernelUtils.h"
#include "codegen/gpu/Passes.h"
#include "ir/DlcAttrs.h"
#include "ir/DlcDialect.h"
#include "ir/DlcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

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

/// A CUDA model's host work: a transfer, or a call of a host part.
static bool isHostOp(Operation *op) {
  if (isa<dlc::TransferOp>(op))
    return true;
  auto call = dyn_cast<func::CallOp>(op);
  if (!call)
    return false;
  auto module = op->getParentOfType<ModuleOp>();
  auto callee =
      module ? module.lookupSymbol<func::FuncOp>(call.getCallee()) : nullptr;
  return callee && callee->hasAttr(dlc::kHostPartAttrName);
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

  /// The entry's argument marked `attr`, or null.
  static BlockArgument markedArgument(func::FuncOp func, StringRef attr) {
    for (BlockArgument arg : func.getArguments())
      if (func.getArgAttr(arg.getArgNumber(), attr))
        return arg;
    return {};
  }

  /// `count` 8-byte slots of device memory past the workspace's plan: the
  /// workspace argument grows by them (and `dlc.workspace_size` with it).
  /// Returns a view of them, built at the start of the entry.
  FailureOr<Value> readbackSlots(func::FuncOp func, int64_t count) {
    BlockArgument ws = markedArgument(func, "dlc.workspace");
    auto type = ws ? dyn_cast<MemRefType>(ws.getType()) : MemRefType();
    if (!type || !type.hasStaticShape() || type.getRank() != 1)
      return failure();
    int64_t offset = llvm::alignTo(type.getNumElements(), 64);
    auto grown = MemRefType::get({offset + count * 8}, type.getElementType());
    ws.setType(grown);
    SmallVector<Type> inputs(func.getArgumentTypes());
    inputs[ws.getArgNumber()] = grown;
    func.setType(
        FunctionType::get(func.getContext(), inputs, func.getResultTypes()));
    OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
    func->setAttr("dlc.workspace_size",
                  b.getI64IntegerAttr(offset + count * 8));
    Location loc = func.getLoc();
    Value at = arith::ConstantIndexOp::create(b, loc, offset);
    return memref::ViewOp::create(b, loc,
                                  MemRefType::get({count}, b.getI64Type()), ws,
                                  at, ValueRange{})
        .getResult();
  }

  /// `v` (an integer, index or float scalar) as the i64 a slot holds, and
  /// back.
  static Value toSlot(OpBuilder &b, Location loc, Value v) {
    Type t = v.getType();
    if (t.isIndex())
      return arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
    if (auto f = dyn_cast<FloatType>(t))
      v = arith::BitcastOp::create(b, loc, b.getIntegerType(f.getWidth()), v);
    if (v.getType().getIntOrFloatBitWidth() < 64)
      return arith::ExtUIOp::create(b, loc, b.getI64Type(), v);
    return v;
  }
  static Value fromSlot(OpBuilder &b, Location loc, Value slot, Type t) {
    if (t.isIndex())
      return arith::IndexCastOp::create(b, loc, t, slot);
    unsigned width = t.getIntOrFloatBitWidth();
    Value bits = slot;
    if (width < 64)
      bits = arith::TruncIOp::create(b, loc, b.getIntegerType(width), slot);
    if (isa<FloatType>(t))
      return arith::BitcastOp::create(b, loc, t, bits);
    return bits;
  }

  /// Moves `run` (host-level ops of one block, in order) into one
  /// single-thread launch placed after its last op. Values of the run
  /// that the host needs after it (a data-dependent size, a loop's
  /// condition) come back through device memory: the launch stores them
  /// in slots past the workspace's plan, and the host reads them with
  /// `dlcrt_cuda_read` (which waits for the kernels before it).
  LogicalResult runSerially(ArrayRef<Operation *> run) {
    if (run.empty())
      return success();
    llvm::SmallPtrSet<Operation *, 8> inRun(run.begin(), run.end());
    SmallVector<Value> escaping;
    for (Operation *op : run)
      for (Value r : op->getResults())
        if (llvm::any_of(r.getUsers(), [&](Operation *user) {
              return !inRun.contains(user);
            })) {
          Type t = r.getType();
          if (!t.isIndex() && !t.isIntOrFloat())
            return op->emitError("a value of type ")
                   << t << " computed on the device is needed on the host; "
                   << "the CUDA target reads back only scalars";
          if (t.isIntOrFloat() && t.getIntOrFloatBitWidth() > 64)
            return op->emitError("a value of type ")
                   << t << " computed on the device is needed on the host; "
                   << "the CUDA target reads back at most 64 bits";
          escaping.push_back(r);
        }
    Operation *last = run.back();
    auto func = last->getParentOfType<func::FuncOp>();
    Value slots;
    BlockArgument context;
    if (!escaping.empty()) {
      context =
          func ? markedArgument(func, "dlc.cuda_context") : BlockArgument();
      FailureOr<Value> view =
          context ? readbackSlots(func, escaping.size()) : FailureOr<Value>();
      if (failed(view))
        return escaping.front().getDefiningOp()->emitError(
            "a value computed on the device is needed on the host, outside "
            "an entry with a workspace and a launch context");
      slots = *view;
    }
    OpBuilder b(last->getContext());
    b.setInsertionPointAfter(last);
    Location loc = last->getLoc();
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Block *hostBlock = b.getInsertionBlock();
    Block::iterator after = b.getInsertionPoint();
    createLaunch(b, loc, one, one, launches);
    gpu::LaunchOp launch = launches.back();
    for (Operation *op : run)
      op->moveBefore(b.getInsertionBlock(), b.getInsertionPoint());
    if (escaping.empty())
      return success();
    // In the launch: each value to its slot.
    for (auto [k, v] : llvm::enumerate(escaping)) {
      Value at = arith::ConstantIndexOp::create(b, loc, k);
      memref::StoreOp::create(b, loc, toSlot(b, loc, v), slots, at);
    }
    // On the host: the slots into a stack buffer (once per entry), then
    // each value from it.
    OpBuilder entry = OpBuilder::atBlockBegin(&func.getBody().front());
    auto hostType = MemRefType::get({(int64_t)escaping.size()}, b.getI64Type());
    Value host = memref::AllocaOp::create(entry, loc, hostType);
    b.setInsertionPoint(hostBlock, after);
    auto pointer = [&](Value buffer) -> Value {
      return memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
    };
    Value bytes = arith::ConstantIndexOp::create(b, loc, escaping.size() * 8);
    func::CallOp::create(
        b, loc,
        dlc::runtimeCopyFunction(func->getParentOfType<ModuleOp>(),
                                 "dlcrt_cuda_read"),
        ValueRange{context, pointer(host), pointer(slots), bytes});
    for (auto [k, v] : llvm::enumerate(escaping)) {
      Value at = arith::ConstantIndexOp::create(b, loc, k);
      Value slot = memref::LoadOp::create(b, loc, host, at);
      Value back = fromSlot(b, loc, slot, v.getType());
      v.replaceUsesWithIf(back, [&](OpOperand &use) {
        return !launch->isAncestor(use.getOwner());
      });
    }
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
      } else if (isHostOp(&op)) {
        // A transfer or a call of a host part (dlc-gpu-outline-host-parts):
        // host code, between the launches around it.
        if (failed(flush()))
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
      } else if (usesRun && !touchesMemory(&op) &&
                 llvm::any_of(op.getResultTypes(), llvm::IsaPred<MemRefType>)) {
        // A view sized by the run's values (a data-dependent size) stays
        // on the host, after the run, with the values read back.
        if (failed(flush()))
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
    if (func.isExternal() || func->hasAttr(dlc::kHostPartAttrName))
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
    // Each kernel's location names every ONNX node it computes (fused
    // kernels compute several); its launch keeps it through outlining, and
    // per-kernel profiles report it.
    func.walk([](gpu::LaunchOp launch) {
      llvm::SetVector<Location> names;
      launch->walk([&](Operation *op) {
        // Constants and their views carry their initializer's name, not a
        // node's.
        if (op->hasTrait<OpTrait::ConstantLike>() ||
            isa<memref::GetGlobalOp, LLVM::AddressOfOp, ViewLikeOpInterface>(
                op))
          return;
        op->getLoc()->walk([&](Location l) {
          if (isa<NameLoc>(l))
            names.insert(l);
          return WalkResult::advance();
        });
      });
      if (names.size() > 1)
        launch->setLoc(FusedLoc::get(launch.getContext(), names.getArrayRef()));
    });
  }
};
} // namespace
