//===- PipelineKLoops.cpp - double-buffered K loops with cp.async ---------===//
//
// A contraction's K loop after mapping and vector lowering:
//
//   scf.for %k = LB to UB step S iter_args(%acc) {
//     <staging: index math, copies into shared buffers>   (stage(k))
//     gpu.barrier ...
//     <compute: reads the shared buffers, yields %acc'>   (compute(k))
//     gpu.barrier
//   }
//
// becomes, with a second copy of each shared buffer (X0, X1):
//
//   stage(LB) -> X0; commit; wait; barrier
//   scf.for %k0 = LB to LB + 2S * pairs step 2S iter_args(%acc) {
//     issue stage(k0 + S) -> X1; commit
//     compute(k0) from X0
//     finish stage(k0 + S) -> X1; wait; barrier
//     issue stage(min(k0 + 2S, UB - S)) -> X0; commit
//     compute(k0 + S) from X1
//     finish stage(...) -> X0; wait; barrier
//   }
//   compute(UB - S) from X0        (an odd number of steps)
//
// Issuing a stage runs its loads and its asynchronous copies (cp.async);
// finishing it, its plain stores into shared memory of the values it
// loaded (a transposing copy), so that the loads' latency overlaps the
// compute as the copies' does. Each stage writes the copy that the
// previous step read, which that step's barrier has released.
//===----------------------------------------------------------------------===//
#include "codegen/gpu/KernelUtils.h"
#include "codegen/gpu/Passes.h"
#include "ir/DlcAttrs.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

namespace dlc {
#define GEN_PASS_DEF_GPUPIPELINEKLOOPS
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using dlc::GpuConfigAttr;
using dlc::kGpuConfigAttrName;

static bool isWorkgroup(Type type) {
  return dlc::inAddressSpace(type, gpu::AddressSpace::Workgroup);
}

/// The shared-memory allocation `v` is a view of, if any.
static memref::AllocOp sharedRoot(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto alloc = dyn_cast<memref::AllocOp>(def))
      return isWorkgroup(alloc.getType()) ? alloc : memref::AllocOp();
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      return {};
    v = view.getViewSource();
  }
  return {};
}

namespace {
/// How an op and the ops nested in it touch shared buffers; `unknown`
/// when an op takes a shared buffer without declaring its effects, or has
/// side effects it does not attribute to a value.
struct Access {
  bool readsShared = false, writesShared = false, writesOther = false,
       unknown = false;
};
} // namespace

static Access accessOf(Operation *op) {
  Access a;
  op->walk([&](Operation *inner) {
    if (isa<ViewLikeOpInterface, memref::AllocOp, gpu::BarrierOp>(inner))
      return;
    auto iface = dyn_cast<MemoryEffectOpInterface>(inner);
    if (!iface) {
      if (inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return;
      a.unknown = true;
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (MemoryEffects::EffectInstance &e : effects) {
      Value v = e.getValue();
      bool shared = v && sharedRoot(v);
      if (isa<MemoryEffects::Read>(e.getEffect()) && shared)
        a.readsShared = true;
      if (isa<MemoryEffects::Write>(e.getEffect())) {
        if (shared)
          a.writesShared = true;
        else
          a.writesOther = true;
      }
      if (isa<MemoryEffects::Allocate, MemoryEffects::Free>(e.getEffect()))
        a.unknown = true;
    }
  });
  return a;
}

/// A vector load from global memory stored whole into shared memory, 4, 8
/// or 16 bytes, aligned to its size on both sides: an asynchronous copy.
static bool rewriteAsAsyncCopy(vector::StoreOp store) {
  auto load = store.getValueToStore().getDefiningOp<vector::LoadOp>();
  if (!load || !load->hasOneUse() || !sharedRoot(store.getBase()) ||
      isWorkgroup(load.getBase().getType()) ||
      load->getBlock() != store->getBlock())
    return false;
  VectorType type = store.getVectorType();
  if (type.getRank() != 1 || type.isScalable() ||
      !type.getElementType().isIntOrFloat())
    return false;
  int64_t bytes =
      type.getNumElements() * type.getElementType().getIntOrFloatBitWidth() / 8;
  if (bytes != 4 && bytes != 8 && bytes != 16)
    return false;
  // One element is aligned to its size anyway.
  auto aligned = [&](std::optional<uint64_t> alignment) {
    return type.getNumElements() == 1 ||
           alignment.value_or(0) >= static_cast<uint64_t>(bytes);
  };
  if (!aligned(store.getAlignment()) || !aligned(load.getAlignment()))
    return false;
  OpBuilder b(store);
  MLIRContext *ctx = b.getContext();
  nvgpu::DeviceAsyncCopyOp::create(
      b, store.getLoc(), nvgpu::DeviceAsyncTokenType::get(ctx), store.getBase(),
      store.getIndices(), load.getBase(), load.getIndices(),
      b.getIndexAttr(type.getNumElements()), /*srcElements=*/Value(),
      // cp.async.cg (L2 only) exists for 16-byte copies alone.
      bytes == 16 ? b.getUnitAttr() : UnitAttr());
  store.erase();
  load.erase();
  return true;
}

namespace {
/// The parts of a K loop's body.
struct Parts {
  SmallVector<Operation *> staging; // before the first read of shared memory
  SmallVector<Operation *> compute; // from it to the last barrier
  // The staging's pure ops whose results the compute uses (directly or
  // not), recomputed for the compute's own step.
  SmallVector<Operation *> recomputed;
  SmallVector<memref::AllocOp> buffers;
};
} // namespace

static std::optional<Parts> split(scf::ForOp loop) {
  Block *body = loop.getBody();
  SmallVector<Operation *> ops;
  for (Operation &op : body->without_terminator())
    ops.push_back(&op);
  if (ops.size() < 2 || !isa<gpu::BarrierOp>(ops.back()))
    return std::nullopt;
  ops.pop_back();
  Parts parts;
  size_t first = ops.size();
  for (size_t i = 0; i < ops.size(); ++i) {
    Access a = accessOf(ops[i]);
    if (a.unknown)
      return std::nullopt;
    if (a.readsShared) {
      first = i;
      break;
    }
    if (a.writesOther)
      return std::nullopt;
    if (auto alloc = dyn_cast<memref::AllocOp>(ops[i])) {
      if (!isWorkgroup(alloc.getType()) || !alloc.getType().hasStaticShape())
        return std::nullopt;
      continue;
    }
    if (!isa<gpu::BarrierOp>(ops[i]))
      parts.staging.push_back(ops[i]);
  }
  if (first == ops.size())
    return std::nullopt;
  for (size_t i = first; i < ops.size(); ++i) {
    Access a = accessOf(ops[i]);
    bool barrier = false;
    ops[i]->walk([&](gpu::BarrierOp) { barrier = true; });
    if (a.unknown || a.writesShared || barrier)
      return std::nullopt;
    parts.compute.push_back(ops[i]);
  }
  // The buffers the staging writes; the compute may use results of the
  // staging's pure ops only (they are recomputed for its step).
  llvm::SetVector<Operation *> buffers;
  for (Operation *op : parts.staging) {
    bool staticBuffers = true;
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        if (memref::AllocOp alloc = sharedRoot(v)) {
          if (!alloc.getType().hasStaticShape() ||
              !alloc.getSymbolOperands().empty())
            staticBuffers = false;
          buffers.insert(alloc);
        }
      for (Value v : inner->getOperands())
        if (auto arg = dyn_cast<BlockArgument>(v))
          if (arg.getOwner() == body && arg != loop.getInductionVar())
            staticBuffers = false; // the staging reads an accumulator
    });
    if (!staticBuffers)
      return std::nullopt;
  }
  if (buffers.empty())
    return std::nullopt;
  llvm::SmallPtrSet<Operation *, 16> staging(parts.staging.begin(),
                                             parts.staging.end());
  llvm::SmallPtrSet<Operation *, 16> needed;
  SmallVector<Operation *> worklist;
  auto need = [&](Operation *op) {
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        if (Operation *def = v.getDefiningOp())
          if (staging.contains(def) && needed.insert(def).second)
            worklist.push_back(def);
    });
  };
  for (Operation *op : parts.compute)
    need(op);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!isMemoryEffectFree(op) || op->getNumRegions() != 0)
      return std::nullopt;
    need(op);
  }
  for (Operation *op : parts.staging)
    if (needed.contains(op))
      parts.recomputed.push_back(op);
  for (Operation *b : buffers)
    parts.buffers.push_back(cast<memref::AllocOp>(b));
  return parts;
}

/// The staging's top-level stores into shared memory of values it loads,
/// with the pure ops between the loads and the stores used by nothing
/// else; empty when other staging ops write the same buffers (their order
/// is kept).
static llvm::SmallPtrSet<Operation *, 16> lateStores(const Parts &parts) {
  llvm::SmallPtrSet<Operation *, 16> late;
  llvm::SmallPtrSet<Operation *, 4> lateBuffers;
  llvm::SmallPtrSet<Operation *, 16> recomputed(parts.recomputed.begin(),
                                                parts.recomputed.end());
  for (Operation *op : llvm::reverse(parts.staging)) {
    Value base;
    if (auto store = dyn_cast<vector::StoreOp>(op))
      base = store.getBase();
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      base = store.getMemRef();
    if (base) {
      if (memref::AllocOp alloc = sharedRoot(base)) {
        late.insert(op);
        lateBuffers.insert(alloc);
      }
      continue;
    }
    if (!isMemoryEffectFree(op) || op->getNumRegions() != 0 ||
        recomputed.contains(op) || op->getNumResults() == 0)
      continue;
    if (llvm::all_of(op->getUsers(),
                     [&](Operation *user) { return late.contains(user); }) &&
        !op->use_empty())
      late.insert(op);
  }
  for (Operation *op : parts.staging) {
    if (late.contains(op))
      continue;
    bool conflict = false;
    op->walk([&](Operation *inner) {
      auto iface = dyn_cast<MemoryEffectOpInterface>(inner);
      if (!iface)
        return;
      SmallVector<MemoryEffects::EffectInstance> effects;
      iface.getEffects(effects);
      for (MemoryEffects::EffectInstance &e : effects)
        if (isa<MemoryEffects::Write>(e.getEffect()) && e.getValue())
          if (memref::AllocOp alloc = sharedRoot(e.getValue()))
            conflict |= lateBuffers.contains(alloc);
    });
    if (conflict)
      return {};
  }
  return late;
}

namespace {
struct PipelineKLoopsPass
    : dlc::impl::GpuPipelineKLoopsBase<PipelineKLoopsPass> {
  using Base::Base;

  void pipeline(scf::ForOp loop) {
    auto config = loop->getAttrOfType<GpuConfigAttr>(kGpuConfigAttrName);
    loop->removeAttr(kGpuConfigAttrName);
    if (!config || config.getPipelineDepth() < 2 ||
        !loop->getParentOfType<gpu::LaunchOp>())
      return;
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (!lb || !ub || !step || *step <= 0 || (*ub - *lb) % *step != 0)
      return;
    int64_t steps = (*ub - *lb) / *step;
    if (steps < 2 || !split(loop))
      return;

    // The copies become asynchronous; the parts are found again.
    // (Only the staging writes shared memory.)
    bool async = false;
    SmallVector<vector::StoreOp> stores;
    loop.getBody()->walk(
        [&](vector::StoreOp store) { stores.push_back(store); });
    for (vector::StoreOp store : stores)
      async |= rewriteAsAsyncCopy(store);
    std::optional<Parts> parts = split(loop);
    assert(parts && "the K loop lost its form to its async copies");

    // Stores of the staging that can wait until after the compute (plain
    // stores of values loaded by the staging, at the staging's top level):
    // their loads are issued before the compute, their values held in
    // registers through it, so that the loads' latency overlaps it too.
    llvm::SmallPtrSet<Operation *, 16> late = lateStores(*parts);

    Location loc = loop.getLoc();
    OpBuilder b(loop);
    // Both copies of each buffer before the loop.
    IRMapping slot0, slot1;
    for (memref::AllocOp alloc : parts->buffers) {
      if (loop->isAncestor(alloc))
        alloc->moveBefore(loop);
      Operation *twin = b.clone(*alloc);
      slot1.map(alloc.getResult(), twin->getResult(0));
    }
    auto index = [&](OpBuilder &ob, int64_t v) -> Value {
      return arith::ConstantIndexOp::create(ob, loc, v);
    };
    // Issues step `k`'s staging into the copy `m` maps the buffers to
    // (`m` then maps its values for stageLate).
    auto stageEarly = [&](OpBuilder &ob, Value k, IRMapping &m) {
      m.map(loop.getInductionVar(), k);
      for (Operation *op : parts->staging)
        if (!late.contains(op))
          ob.clone(*op, m);
      if (async)
        NVVM::CpAsyncCommitGroupOp::create(ob, loc);
    };
    auto stageLate = [&](OpBuilder &ob, IRMapping &m) {
      for (Operation *op : parts->staging)
        if (late.contains(op))
          ob.clone(*op, m);
    };
    auto settle = [&](OpBuilder &ob) {
      if (async)
        NVVM::CpAsyncWaitGroupOp::create(ob, loc, 0);
      gpu::BarrierOp::create(ob, loc);
    };
    auto compute = [&](OpBuilder &ob, Value k, const IRMapping &slot,
                       ValueRange acc) {
      IRMapping m = slot;
      m.map(loop.getInductionVar(), k);
      m.map(loop.getRegionIterArgs(), acc);
      for (Operation *op : parts->recomputed)
        ob.clone(*op, m);
      for (Operation *op : parts->compute)
        ob.clone(*op, m);
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      SmallVector<Value> results;
      for (Value v : yield.getOperands())
        results.push_back(m.lookupOrDefault(v));
      return results;
    };

    int64_t pairs = steps / 2;
    bool odd = steps % 2 != 0;
    IRMapping first = slot0;
    stageEarly(b, index(b, *lb), first);
    stageLate(b, first);
    settle(b);
    auto pairsLoop = scf::ForOp::create(
        b, loc, index(b, *lb), index(b, *lb + pairs * 2 * *step),
        index(b, 2 * *step), loop.getInitArgs(),
        [&](OpBuilder &ob, Location, Value k0, ValueRange acc) {
          Value k1 = arith::AddIOp::create(ob, loc, k0, index(ob, *step));
          IRMapping m1 = slot1;
          stageEarly(ob, k1, m1);
          SmallVector<Value> acc1 = compute(ob, k0, slot0, acc);
          stageLate(ob, m1);
          settle(ob);
          // The step after k1; with an even number of steps, the last pair
          // stages its own last step again (harmless: nothing reads it),
          // which keeps the loop free of branches.
          Value k2 = arith::AddIOp::create(ob, loc, k1, index(ob, *step));
          if (!odd)
            k2 = arith::MinSIOp::create(ob, loc, k2, index(ob, *ub - *step));
          IRMapping m2 = slot0;
          stageEarly(ob, k2, m2);
          SmallVector<Value> acc2 = compute(ob, k1, slot1, acc1);
          stageLate(ob, m2);
          settle(ob);
          scf::YieldOp::create(ob, loc, acc2);
        });
    SmallVector<Value> results(pairsLoop.getResults());
    if (odd)
      results = compute(b, index(b, *ub - *step), slot0, results);
    loop.replaceAllUsesWith(results);
    loop.erase();
  }

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr(kGpuConfigAttrName))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      pipeline(loop);
  }
};
} // namespace
