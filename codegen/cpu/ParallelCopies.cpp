//===- ParallelCopies.cpp - large copies as parallel loops over rows ------===//
//
// A copy outside the tile loops runs on one thread; made a forall over its
// rows, it is split between the threads like the tiles around it.
//
//===----------------------------------------------------------------------===//
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

/// A static-shape memref of rank 2 or more whose innermost dimension is
/// contiguous and at least kMinRow long.
bool hasContiguousRows(Type t) {
  auto type = dyn_cast<MemRefType>(t);
  if (!type || !type.hasStaticShape() || type.getRank() < 2 ||
      type.getShape().back() < kMinRow)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         strides.back() == 1;
}

/// Replaces `copy` with a forall over its rows, each copying one row.
void copyRowsInParallel(IRRewriter &rewriter, memref::CopyOp copy) {
  Location loc = copy.getLoc();
  auto type = cast<MemRefType>(copy.getSource().getType());
  int64_t rank = type.getRank();
  ArrayRef<int64_t> shape = type.getShape();
  rewriter.setInsertionPoint(copy);
  SmallVector<OpFoldResult> ubs;
  for (int64_t size : shape.drop_back())
    ubs.push_back(rewriter.getIndexAttr(size));
  auto forall =
      scf::ForallOp::create(rewriter, loc, ubs, ValueRange(), std::nullopt);
  rewriter.setInsertionPointToStart(forall.getBody());
  SmallVector<OpFoldResult> offsets;
  for (Value iv : forall.getInductionVars())
    offsets.push_back(iv);
  offsets.push_back(rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes(rank - 1, rewriter.getIndexAttr(1));
  sizes.push_back(rewriter.getIndexAttr(shape.back()));
  SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
  auto row = [&](Value view) -> Value {
    auto rowType = memref::SubViewOp::inferRankReducedResultType(
        {shape.back()}, cast<MemRefType>(view.getType()), offsets, sizes,
        strides);
    return memref::SubViewOp::create(rewriter, loc, cast<MemRefType>(rowType),
                                     view, offsets, sizes, strides);
  };
  memref::CopyOp::create(rewriter, loc, row(copy.getSource()),
                         row(copy.getTarget()));
  rewriter.eraseOp(copy);
}

struct ParallelCopiesPass : dlc::impl::ParallelCopiesBase<ParallelCopiesPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      if (copy->getParentOfType<scf::ForallOp>() ||
          copy->getParentOfType<scf::ParallelOp>() ||
          !hasContiguousRows(copy.getSource().getType()) ||
          !hasContiguousRows(copy.getTarget().getType()))
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
