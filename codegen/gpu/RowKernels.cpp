//===- RowKernels.cpp - the ops a row kernel recomputes -------------------===//
#include "codegen/gpu/RowKernels.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"

using namespace mlir;

std::optional<llvm::SetVector<Operation *>>
dlc::gpu_rows::findRowChain(linalg::GenericOp root) {
  SmallVector<int64_t> ranges = root.getStaticLoopRanges();
  ArrayRef<int64_t> rows = ArrayRef<int64_t>(ranges).drop_back();
  llvm::SetVector<Operation *> chain;
  SmallVector<Operation *> worklist;
  auto visitInputs = [&](linalg::GenericOp op) {
    for (Value v : op.getDpsInputs())
      if (auto def = v.getDefiningOp<linalg::GenericOp>())
        if (!chain.contains(def))
          worklist.push_back(def);
  };
  visitInputs(root);
  while (!worklist.empty() && chain.size() < 64) {
    auto op = cast<linalg::GenericOp>(worklist.pop_back_val());
    if (chain.contains(op) || linalg::isaContractionOpInterface(op) ||
        op->getNumResults() != 1 ||
        !llvm::all_of(op.getIndexingMapsArray(),
                      [](AffineMap m) { return m.isProjectedPermutation(); }))
      continue;
    SmallVector<int64_t> r = op.getStaticLoopRanges();
    bool elementwise = op.getNumReductionLoops() == 0 &&
                       (r == ranges || ArrayRef<int64_t>(r) == rows);
    bool rowReduction =
        op.getNumReductionLoops() == 1 && r == ranges &&
        linalg::isReductionIterator(op.getIteratorTypesArray().back());
    if (!elementwise && !rowReduction)
      continue;
    chain.insert(op);
    visitInputs(op);
  }
  // Only ops whose every user is in the chain (or the root).
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation *op : llvm::make_early_inc_range(chain)) {
      bool outside = llvm::any_of(op->getUsers(), [&](Operation *user) {
        return user != root.getOperation() && !chain.contains(user);
      });
      if (outside) {
        chain.remove(op);
        changed = true;
      }
    }
  }
  bool reduces = false;
  for (Operation *op : chain) {
    auto generic = cast<linalg::GenericOp>(op);
    if (generic.getNumReductionLoops() != 0) {
      reduces = true;
      continue;
    }
    if (generic.getStaticLoopRanges() == ranges &&
        llvm::none_of(generic.getDpsInputOperands(), [&](OpOperand *in) {
          return generic.getMatchingIndexingMap(in).isFunctionOfDim(
              ranges.size() - 1);
        }))
      return std::nullopt;
  }
  if (!reduces)
    return std::nullopt;
  return chain;
}
