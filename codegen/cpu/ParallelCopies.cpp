//===- ParallelCopies.cpp - large copies as parallel loops over rows ------===//
//
// A copy outside the tile loops runs on one thread; made a forall over its
// rows, it is split between the threads like the tiles around it.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/CopyRows.h"
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_PARALLELCOPIES
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// Rows shorter than this are not worth a copy each.
constexpr int64_t kMinRow = 16;

/// Replaces `copy` with a forall over its rows, each copying one row.
void copyRowsInParallel(IRRewriter &rewriter, memref::CopyOp copy) {
  Location loc = copy.getLoc();
  ArrayRef<int64_t> shape =
      cast<MemRefType>(copy.getSource().getType()).getShape();
  rewriter.setInsertionPoint(copy);
  SmallVector<OpFoldResult> ubs;
  for (int64_t size : shape.drop_back())
    ubs.push_back(rewriter.getIndexAttr(size));
  auto forall =
      scf::ForallOp::create(rewriter, loc, ubs, ValueRange(), std::nullopt);
  rewriter.setInsertionPointToStart(forall.getBody());
  SmallVector<Value> rows = forall.getInductionVars();
  memref::CopyOp::create(rewriter, loc,
                         dlc::rowOf(rewriter, loc, copy.getSource(), rows),
                         dlc::rowOf(rewriter, loc, copy.getTarget(), rows));
  rewriter.eraseOp(copy);
}

struct ParallelCopiesPass : dlc::impl::ParallelCopiesBase<ParallelCopiesPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      if (copy->getParentOfType<scf::ForallOp>() ||
          copy->getParentOfType<scf::ParallelOp>() ||
          !dlc::hasContiguousRows(copy.getSource().getType(), kMinRow) ||
          !dlc::hasContiguousRows(copy.getTarget().getType(), kMinRow))
        return;
      auto type = cast<MemRefType>(copy.getSource().getType());
      if (type.getNumElements() >= minElements)
        copies.push_back(copy);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies)
      copyRowsInParallel(rewriter, copy);
  }
};
} // namespace
