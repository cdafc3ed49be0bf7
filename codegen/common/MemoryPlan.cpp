//===- MemoryPlan.cpp - static workspace plan for intermediate buffers ----===//
#include "codegen/common/Passes.h"

#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"

namespace dlc {
#define GEN_PASS_DEF_MEMORYPLAN
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

struct Buffer {
  memref::AllocOp alloc;
  int64_t size = 0;
  unsigned begin = 0, end = 0; // live range in top-level op indices
  int64_t offset = 0;
};

/// The op of `block` that contains `op`.
Operation *topLevelAncestor(Block &block, Operation *op) {
  while (op && op->getBlock() != &block)
    op = op->getParentOp();
  return op;
}

struct MemoryPlanPass : dlc::impl::MemoryPlanBase<MemoryPlanPass> {
  using Base::Base;

  LogicalResult planFunction(func::FuncOp func) {
    if (func.isExternal())
      return success();
    Block &body = func.getBody().front();
    DenseMap<Operation *, unsigned> index;
    for (auto [i, op] : llvm::enumerate(body))
      index[&op] = i;

    // Scratch of a parallel tile is private to the thread running it: a
    // stack buffer (hoisted to once per thread by dlc-cpu-openmp-threads),
    // not a shared slot of the workspace.
    SmallVector<memref::AllocOp> threadPrivate;
    // Buffers in another memory space (a GPU block's shared memory) are the
    // target's to place.
    func.walk([&](memref::AllocOp alloc) {
      if (alloc.getType().getMemorySpace())
        return;
      if (alloc->getParentOfType<scf::ForallOp>() ||
          alloc->getParentOfType<scf::ParallelOp>())
        threadPrivate.push_back(alloc);
    });
    for (memref::AllocOp alloc : threadPrivate) {
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape()) {
        alloc.emitError("cannot plan a buffer of type ") << type;
        return failure();
      }
      OpBuilder b(alloc);
      auto alloca = memref::AllocaOp::create(b, alloc.getLoc(), type,
                                             b.getI64IntegerAttr(alignment));
      alloc.replaceAllUsesWith(alloca.getResult());
      alloc.erase();
    }

    SmallVector<Buffer> buffers;
    WalkResult walk = func.walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      if (type.getMemorySpace())
        return WalkResult::advance();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity()) {
        alloc.emitError("cannot plan a buffer of type ") << type;
        return WalkResult::interrupt();
      }
      Buffer buf;
      buf.alloc = alloc;
      int64_t bits = type.getNumElements() *
                     std::max<int64_t>(8, type.getElementTypeBitWidth());
      buf.size = (bits / 8 + alignment - 1) / alignment * alignment;
      Operation *top = topLevelAncestor(body, alloc);
      if (top != alloc.getOperation()) {
        // Allocated inside a loop: live for the whole function, one slot
        // for every iteration, so no iteration may hand it to the next
        // (dlc-carry-loop-values-in-place copies carried values).
        SmallVector<Value> worklist{alloc.getResult()};
        while (!worklist.empty()) {
          Value v = worklist.pop_back_val();
          for (Operation *user : v.getUsers()) {
            if (isa<scf::YieldOp, scf::ConditionOp>(user) &&
                isa<scf::WhileOp, scf::ForOp>(user->getParentOp())) {
              alloc.emitError("a buffer allocated in a loop is carried to "
                              "its next iteration; the workspace plan gives "
                              "it one slot");
              return WalkResult::interrupt();
            }
            if (isa<ViewLikeOpInterface>(user) ||
                isa<memref::CastOp, memref::ExpandShapeOp,
                    memref::CollapseShapeOp, memref::ReinterpretCastOp>(user))
              for (Value r : user->getResults())
                worklist.push_back(r);
          }
        }
        buf.begin = 0;
        buf.end = body.getOperations().size();
      } else {
        buf.begin = buf.end = index[top];
        // Follow views and aliases to the last use.
        SmallVector<Value> worklist{alloc.getResult()};
        while (!worklist.empty()) {
          Value v = worklist.pop_back_val();
          for (Operation *user : v.getUsers()) {
            if (Operation *t = topLevelAncestor(body, user))
              buf.end = std::max(buf.end, index[t]);
            if (isa<ViewLikeOpInterface>(user) ||
                isa<memref::CastOp, memref::ExpandShapeOp,
                    memref::CollapseShapeOp, memref::ReinterpretCastOp>(user))
              for (Value r : user->getResults())
                worklist.push_back(r);
          }
        }
      }
      buffers.push_back(buf);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();

    // First fit, largest buffers first.
    SmallVector<Buffer *> order;
    for (Buffer &b : buffers)
      order.push_back(&b);
    llvm::stable_sort(order, [](Buffer *a, Buffer *b) { return a->size > b->size; });
    SmallVector<Buffer *> placed;
    int64_t total = 0;
    for (Buffer *buf : order) {
      SmallVector<std::pair<int64_t, int64_t>> busy;
      for (Buffer *p : placed)
        if (!(p->end < buf->begin || buf->end < p->begin))
          busy.push_back({p->offset, p->offset + p->size});
      llvm::sort(busy);
      int64_t offset = 0;
      for (auto [lo, hi] : busy) {
        if (offset + buf->size <= lo)
          break;
        offset = std::max(offset, hi);
      }
      buf->offset = offset;
      total = std::max(total, offset + buf->size);
      placed.push_back(buf);
    }

    OpBuilder b(func.getContext());
    auto wsType = MemRefType::get({std::max<int64_t>(total, alignment)},
                                  b.getI8Type());
    unsigned argIndex = func.getNumArguments();
    if (failed(func.insertArgument(argIndex, wsType, {}, func.getLoc())))
      return failure();
    Value ws = func.getArgument(argIndex);
    func.setArgAttr(argIndex, "dlc.workspace", b.getUnitAttr());
    for (Buffer &buf : buffers) {
      b.setInsertionPoint(buf.alloc);
      Location loc = buf.alloc.getLoc();
      Value offset = arith::ConstantIndexOp::create(b, loc, buf.offset);
      Value view = memref::ViewOp::create(b, loc, buf.alloc.getType(), ws,
                                          offset, ValueRange{});
      buf.alloc.replaceAllUsesWith(view);
      buf.alloc.erase();
    }
    SmallVector<memref::DeallocOp> deallocs;
    func.walk([&](memref::DeallocOp d) { deallocs.push_back(d); });
    for (memref::DeallocOp d : deallocs)
      d.erase();
    func->setAttr("dlc.workspace_size", b.getI64IntegerAttr(wsType.getNumElements()));
    // The live-set lower bound: the most bytes alive at any one op. A plan
    // without fragmentation would need exactly this much.
    int64_t liveSet = 0;
    for (unsigned i = 0, e = body.getOperations().size(); i <= e; ++i) {
      int64_t live = 0;
      for (const Buffer &buf : buffers)
        if (buf.begin <= i && i <= buf.end)
          live += buf.size;
      liveSet = std::max(liveSet, live);
    }
    func->setAttr("dlc.workspace_live_set", b.getI64IntegerAttr(liveSet));
    return success();
  }

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(planFunction(func)))
        return signalPassFailure();
  }
};
} // namespace
