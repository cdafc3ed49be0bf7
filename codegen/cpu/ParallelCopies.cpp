//===- ParallelCopies.cpp - copies and border fills as parallel loops -----===//
//
// A copy outside the tile loops runs on one thread; made a forall over its
// rows, it is split between the threads like the tiles around it. The fills
// of a padded buffer's borders (one per padded side) become one forall over
// the channels: one pass over the buffer instead of four, split between the
// threads where dlc-cpu-openmp-threads finds it worth forking.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/CopyRows.h"
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
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

/// The fill's view when it is a unit-stride subview of a static memref.
memref::SubViewOp filledView(linalg::FillOp fill) {
  if (fill.getOutputs().size() != 1)
    return {};
  auto view = fill.getOutputs()[0].getDefiningOp<memref::SubViewOp>();
  if (!view || !view.getSourceType().hasStaticShape() ||
      !view.getType().hasStaticShape() ||
      view.getSourceType().getRank() != view.getType().getRank() ||
      !llvm::all_of(view.getStaticStrides(), [](int64_t s) { return s == 1; }))
    return {};
  return view;
}

/// How many leading dimensions of its source `view` covers whole.
int64_t wholeLeadingDims(memref::SubViewOp view) {
  ArrayRef<int64_t> shape = view.getSourceType().getShape();
  int64_t n = 0;
  while (n < int64_t(shape.size()) - 1 && view.getStaticOffsets()[n] == 0 &&
         view.getStaticSizes()[n] == shape[n])
    ++n;
  return n;
}

/// Replaces `fills` (of views of one buffer, each covering its `outer`
/// leading dimensions whole) with one forall over those dimensions whose
/// iteration fills its slice of each.
void fillInParallel(IRRewriter &rewriter, ArrayRef<linalg::FillOp> fills,
                    int64_t outer) {
  linalg::FillOp front = fills.front(), last = fills.back();
  Location loc = front.getLoc();
  ArrayRef<int64_t> shape = filledView(front).getSourceType().getShape();
  rewriter.setInsertionPoint(last);
  SmallVector<OpFoldResult> ubs;
  for (int64_t d = 0; d < outer; ++d)
    ubs.push_back(rewriter.getIndexAttr(shape[d]));
  auto forall =
      scf::ForallOp::create(rewriter, loc, ubs, ValueRange(), std::nullopt);
  rewriter.setInsertionPointToStart(forall.getBody());
  for (linalg::FillOp fill : fills) {
    auto view = fill.getOutputs()[0].getDefiningOp<memref::SubViewOp>();
    ArrayRef<int64_t> sizes = view.getType().getShape();
    SmallVector<OpFoldResult> offsets, subSizes, strides;
    for (int64_t d = 0; d < int64_t(sizes.size()); ++d) {
      if (d < outer)
        offsets.push_back(forall.getInductionVars()[d]);
      else
        offsets.push_back(rewriter.getIndexAttr(0));
      subSizes.push_back(rewriter.getIndexAttr(d < outer ? 1 : sizes[d]));
      strides.push_back(rewriter.getIndexAttr(1));
    }
    Value slice = memref::SubViewOp::create(rewriter, loc, view.getResult(),
                                            offsets, subSizes, strides);
    linalg::FillOp::create(rewriter, fill.getLoc(), fill.getInputs(),
                           ValueRange{slice});
  }
  for (linalg::FillOp fill : fills)
    rewriter.eraseOp(fill);
}

/// Runs of adjacent fills outside parallel loops of views of one buffer
/// that cover its leading (batch, channel) dimensions whole: a padded
/// buffer's border slabs. Each run with its number of whole dimensions.
SmallVector<std::pair<SmallVector<linalg::FillOp>, int64_t>>
borderFillRuns(func::FuncOp func, int64_t minElements) {
  SmallVector<std::pair<SmallVector<linalg::FillOp>, int64_t>> runs;
  func.walk([&](Block *block) {
    SmallVector<linalg::FillOp> run;
    Value base;
    int64_t outer = 0, elements = 0;
    auto flush = [&] {
      int64_t iterations = 1;
      for (int64_t d = 0; d < outer; ++d)
        iterations *= cast<MemRefType>(base.getType()).getDimSize(d);
      if (iterations > 1 && elements >= minElements)
        runs.push_back({run, outer});
      run.clear();
      base = {};
      outer = elements = 0;
    };
    for (Operation &op : *block) {
      if (isa<memref::SubViewOp>(op))
        continue;
      auto fill = dyn_cast<linalg::FillOp>(op);
      memref::SubViewOp view = fill ? filledView(fill) : nullptr;
      if (!view || fill->getParentOfType<scf::ForallOp>() ||
          fill->getParentOfType<scf::ParallelOp>()) {
        flush();
        continue;
      }
      int64_t whole = wholeLeadingDims(view);
      if (run.empty() || view.getSource() != base) {
        flush();
        base = view.getSource();
        outer = whole;
      } else {
        outer = std::min(outer, whole);
      }
      run.push_back(fill);
      elements += view.getType().getNumElements();
    }
    flush();
  });
  return runs;
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
    for (auto &[fills, outer] : borderFillRuns(getOperation(), minElements))
      fillInParallel(rewriter, fills, outer);
  }
};
} // namespace
