//===- ResolveCarriedDims.cpp - sizes of carried tensors ------------------===//
#include "codegen/common/Bounds.h"
#include "codegen/common/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "llvm/ADT/MapVector.h"

namespace dlc {
#define GEN_PASS_DEF_RESOLVECARRIEDDIMS
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// Whether `v` is carried by a loop or computed into a destination: what
/// the size it was created with is not read off its defining op directly.
bool isCarriedOrComputed(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return isa_and_nonnull<scf::ForOp, scf::WhileOp>(
        arg.getOwner()->getParentOp());
  Operation *def = v.getDefiningOp();
  return isa_and_nonnull<scf::ForOp, scf::WhileOp, DestinationStyleOpInterface>(
      def);
}

struct ResolveCarriedDimsPass
    : dlc::impl::ResolveCarriedDimsBase<ResolveCarriedDimsPass> {
  void runOnOperation() override {
    DominanceInfo dominance(getOperation());
    llvm::MapVector<Operation *, Value> resolved;
    getOperation().walk([&](tensor::DimOp dim) {
      std::optional<int64_t> d = dim.getConstantIndex();
      auto type = dyn_cast<RankedTensorType>(dim.getSource().getType());
      if (!d || !type || !type.isDynamicDim(*d) ||
          !isCarriedOrComputed(dim.getSource()))
        return;
      Value size = dlc::definingSize(dim.getSource(), *d);
      if (size && size != dim.getResult() &&
          dominance.properlyDominates(size, dim))
        resolved[dim] = size;
    });
    // A size may itself be a resolved tensor.dim: follow it to the end, so
    // that no replacement refers to an erased op.
    for (auto &[dim, size] : resolved) {
      for (int steps = 0; steps < 64; ++steps) {
        auto it = resolved.find(size.getDefiningOp());
        if (!size.getDefiningOp() || it == resolved.end())
          break;
        size = it->second;
      }
    }
    for (auto &[dim, size] : resolved)
      dim->getResult(0).replaceAllUsesWith(size);
    for (auto &[dim, size] : resolved)
      if (dim->use_empty())
        dim->erase();
  }
};
} // namespace
