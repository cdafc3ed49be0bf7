//===- DistinctResults.cpp - one buffer per returned value ----------------===//
//
// Prepares returned buffers for buffer-results-to-out-params, which writes
// a returned allocation straight into the caller's output (hoisted) and
// copies anything else:
// - a buffer returned twice gets a copy of its own for each repeat;
// - a returned reshape of an allocation (the collapse_shape of a matmul
//   computed in panels) becomes an allocation of the returned shape, the
//   old allocation a reshape of it, so that it is written in place too.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/Passes.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace dlc {
#define GEN_PASS_DEF_DISTINCTRESULTS
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// The allocation that `v` reshapes (through collapse_shape and
/// expand_shape ops of identity layouts, collected in `chain` from `v`
/// down), if any.
static memref::AllocOp reshapedAlloc(Value v,
                                     SmallVectorImpl<Operation *> &chain) {
  auto isPlain = [](Type t) {
    auto m = dyn_cast<MemRefType>(t);
    return m && m.hasStaticShape() && m.getLayout().isIdentity();
  };
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(def))
      break;
    if (!isPlain(def->getOperand(0).getType()) ||
        !isPlain(def->getResult(0).getType()))
      return nullptr;
    chain.push_back(def);
    v = def->getOperand(0);
  }
  auto alloc = v.getDefiningOp<memref::AllocOp>();
  return alloc && !chain.empty() && isPlain(alloc.getType()) ? alloc : nullptr;
}

/// Allocates the returned shape of `operand`'s reshaped allocation instead:
/// the allocation becomes the inverse reshapes of the new one.
static void allocateAsReturned(OpOperand &operand, memref::AllocOp alloc,
                               ArrayRef<Operation *> chain) {
  OpBuilder b(alloc);
  Location loc = alloc.getLoc();
  auto type = cast<MemRefType>(operand.get().getType());
  auto fresh = memref::AllocOp::create(b, loc, type);
  fresh.setAlignmentAttr(alloc.getAlignmentAttr());
  Value view = fresh;
  for (Operation *op : chain) {
    if (auto collapse = dyn_cast<memref::CollapseShapeOp>(op))
      view = memref::ExpandShapeOp::create(b, loc, collapse.getSrcType(), view,
                                           collapse.getReassociationIndices());
    else
      view = memref::CollapseShapeOp::create(
          b, loc, view,
          cast<memref::ExpandShapeOp>(op).getReassociationIndices());
  }
  alloc.replaceAllUsesWith(view);
  alloc.erase();
  operand.set(fresh);
}

namespace {
struct DistinctResultsPass
    : dlc::impl::DistinctResultsBase<DistinctResultsPass> {
  void runOnOperation() override {
    bool failedCopy = false;
    getOperation().walk([&](func::ReturnOp ret) {
      llvm::SmallPtrSet<void *, 8> seen;
      OpBuilder b(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value v = operand.get();
        auto type = dyn_cast<MemRefType>(v.getType());
        if (!type || seen.insert(v.getAsOpaquePointer()).second)
          continue;
        if (!type.hasStaticShape()) {
          ret.emitError() << "result " << operand.getOperandNumber()
                          << " repeats a buffer of dynamic shape " << type;
          failedCopy = true;
          continue;
        }
        auto copy = memref::AllocOp::create(
            b, ret.getLoc(),
            MemRefType::get(type.getShape(), type.getElementType()));
        copy.setAlignment(64);
        memref::CopyOp::create(b, ret.getLoc(), v, copy);
        operand.set(copy);
      }
      // Reshaped allocations, each the base of one returned value only.
      llvm::DenseMap<Operation *, unsigned> bases;
      SmallVector<Operation *> chain;
      for (OpOperand &operand : ret->getOpOperands()) {
        chain.clear();
        Operation *base = reshapedAlloc(operand.get(), chain);
        if (!base)
          if (auto alloc = operand.get().getDefiningOp<memref::AllocOp>())
            base = alloc;
        if (base)
          ++bases[base];
      }
      for (OpOperand &operand : ret->getOpOperands()) {
        chain.clear();
        memref::AllocOp alloc = reshapedAlloc(operand.get(), chain);
        if (alloc && bases[alloc] == 1 &&
            llvm::none_of(alloc->getUsers(), [](Operation *user) {
              return isa<func::ReturnOp>(user);
            }))
          allocateAsReturned(operand, alloc, chain);
      }
    });
    if (failedCopy)
      signalPassFailure();
  }
};
} // namespace
