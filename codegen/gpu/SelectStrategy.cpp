//===- SelectStrategy.cpp - a GPU kernel configuration per root op --------===//
//
// The heuristics of the CUDA target, apart from the transformations: each
// linalg op that roots a kernel gets a #dlc.gpu_config (tile sizes per
// level, threads, K step), which dlc-gpu-tile-and-fuse only reads.
//
//===----------------------------------------------------------------------===//
#include "codegen/gpu/Passes.h"
#include "ir/DlcAttrs.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace dlc {
#define GEN_PASS_DEF_GPUSELECTSTRATEGY
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

/// The largest divisor of `size` that is at most `limit`.
static int64_t divisorAtMost(int64_t size, int64_t limit) {
  for (int64_t t = std::min(size, limit); t > 1; --t)
    if (size % t == 0)
      return t;
  return 1;
}

/// Upstream tiling assumes indices grow with the loops; a reversed read
/// (`n - 1 - d`) cannot be tiled.
static bool hasNegativeCoefficient(AffineMap map) {
  bool negative = false;
  for (AffineExpr e : map.getResults())
    e.walk([&](AffineExpr sub) {
      if (auto bin = dyn_cast<AffineBinaryOpExpr>(sub))
        if (bin.getKind() == AffineExprKind::Mul)
          if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
            negative |= c.getValue() < 0;
    });
  return negative;
}

/// Whether `op`'s innermost parallel loop walks its output contiguously.
static bool innermostIsContiguous(linalg::LinalgOp op, unsigned loop) {
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (map.getNumResults() == 0)
      return false;
    auto d = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!d || d.getPosition() != loop)
      return false;
  }
  return true;
}

namespace {
struct SelectStrategyPass
    : dlc::impl::GpuSelectStrategyBase<SelectStrategyPass> {
  using Base::Base;

  /// One thread per `vector` elements of the innermost parallel loop (one
  /// element of the others), about `maxThreads` threads per block; loops
  /// with reductions run whole in each thread. The block's tile grows from
  /// the innermost loop outwards, so that neighbouring threads touch
  /// neighbouring elements.
  GpuConfigAttr parallelConfig(linalg::LinalgOp op, GpuKernelKind kind) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
    size_t n = ranges.size();
    SmallVector<int64_t> workgroup(n, 0), thread(n, 0);
    SmallVector<unsigned> parallel;
    for (unsigned d = 0; d < n; ++d)
      if (iters[d] == utils::IteratorType::parallel)
        parallel.push_back(d);
    for (unsigned d : parallel)
      thread[d] = 1;
    if (!parallel.empty()) {
      unsigned inner = parallel.back();
      // i1 tensors are bytes in memory but bits in vectors: no vectors.
      bool bytes = llvm::all_of(op->getOperandTypes(), [](Type t) {
        return getElementTypeOrSelf(t).getIntOrFloatBitWidth() >= 8;
      });
      if (kind == GpuKernelKind::Elementwise && bytes &&
          ranges[inner] % vectorWidth == 0 && innermostIsContiguous(op, inner))
        thread[inner] = vectorWidth;
    }
    int64_t budget = maxThreads;
    for (unsigned d : llvm::reverse(parallel)) {
      int64_t tiles = ranges[d] / thread[d];
      int64_t g = divisorAtMost(tiles, budget);
      workgroup[d] = g * thread[d];
      budget /= g;
    }
    return GpuConfigAttr::get(op->getContext(), kind, workgroup, thread,
                              SmallVector<int64_t>(n, 0),
                              /*pipelineDepth=*/1, GpuPrecision::F32);
  }

  void runOnOperation() override {
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::FillOp>(op) || op.getNumLoops() == 0 ||
          op->getParentOfType<scf::ForallOp>())
        return;
      if (llvm::any_of(op.getIndexingMapsArray(), hasNegativeCoefficient))
        return;
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      if (llvm::any_of(ranges, [](int64_t r) {
            return ShapedType::isDynamic(r) || r == 0;
          }))
        return;
      // A reduction to a scalar has no parallel loop to tile.
      if (op.getNumParallelLoops() == 0)
        return;
      GpuKernelKind kind = op.getNumReductionLoops() == 0
                               ? GpuKernelKind::Elementwise
                               : GpuKernelKind::Window;
      op->setAttr(kGpuConfigAttrName, parallelConfig(op, kind));
    });
  }
};
} // namespace
