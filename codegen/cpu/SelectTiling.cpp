//===- SelectTiling.cpp - tile-size heuristic for the CPU -----------------===//
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "llvm/ADT/bit.h"

namespace dlc {
#define GEN_PASS_DEF_SELECTTILING
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// Upper bound on the reduction elements one elementwise/pooling/reduction
/// tile covers: the vectorized tile is unrolled over them.
static constexpr int64_t kReductionBudget = 64;

/// The largest divisor of `size` that is at most `limit` (tiles stay static).
static int64_t divisorAtMost(int64_t size, int64_t limit) {
  for (int64_t t = std::min(size, limit); t > 1; --t)
    if (size % t == 0)
      return t;
  return 1;
}

/// The largest multiple of `vector` that divides `size` and is at most
/// `limit` (whole vectors, no masked remainder); the largest divisor at most
/// `limit` when no multiple divides.
static int64_t vectorMultipleAtMost(int64_t size, int64_t limit,
                                    int64_t vector) {
  for (int64_t t = std::min(size, limit) / vector * vector; t >= vector;
       t -= vector)
    if (size % t == 0)
      return t;
  return divisorAtMost(size, limit);
}

/// A tile of at most `limit` along a loop of `size`: the largest divisor
/// when it is at least half the limit, else the limit itself, leaving a
/// remainder that dlc-cpu-tile-and-fuse splits off (a row of 197 is tiled
/// by 16 with a remainder of 5, not one element at a time).
static int64_t tileAtMost(int64_t size, int64_t limit) {
  int64_t divisor = divisorAtMost(size, limit);
  return size > limit && 2 * divisor < limit ? limit : divisor;
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

/// An elementwise op that can run inside the tiles of the convolution or
/// contraction producing one of its operands (its activation, bias or
/// residual add): the producer's only use, read with an identity map.
static bool isEpilogueOf(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || generic.getNumReductionLoops() != 0 ||
      generic.getNumDpsInits() != 1 ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isProjectedPermutation(); }))
    return false;
  for (OpOperand *in : generic.getDpsInputOperands()) {
    auto producer = in->get().getDefiningOp<linalg::LinalgOp>();
    if (!producer || !in->get().hasOneUse() ||
        !generic.getMatchingIndexingMap(in).isIdentity())
      continue;
    if (isa<linalg::Conv2DNchwFchwOp>(producer.getOperation()) ||
        (linalg::isaContractionOpInterface(producer) &&
         producer.getNumParallelLoops() >= 2))
      return true;
  }
  return false;
}

namespace {
struct SelectTilingPass : dlc::impl::SelectTilingBase<SelectTilingPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::FillOp>(op) || op.getNumLoops() == 0)
        return;
      if (llvm::any_of(op.getIndexingMapsArray(), hasNegativeCoefficient))
        return;
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      if (llvm::any_of(ranges, ShapedType::isDynamic))
        return;
      SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
      SmallVector<int64_t> sizes(ranges.size(), 0);
      SmallVector<unsigned> parallel, reduction;
      for (auto [i, it] : llvm::enumerate(iters))
        (it == utils::IteratorType::parallel ? parallel : reduction)
            .push_back(i);

      if (linalg::isaContractionOpInterface(op) && parallel.size() >= 2) {
        // A register block of mr x nr accumulators, k one at a time: the
        // vectorized tile is an outer product (one FMA per nr lanes).
        for (unsigned d : parallel)
          sizes[d] = 1;
        unsigned m = parallel[parallel.size() - 2], n = parallel.back();
        // Columns are whole 2-vector blocks, with a remainder split off
        // when they do not divide the loop (784 columns: 24 blocks of 32
        // and one of 16); an odd-width vector block (28 lanes) legalizes
        // badly in LLVM.
        sizes[m] = tileAtMost(ranges[m], 8);
        sizes[n] = std::min(ranges[n], 2 * vectorWidth);
        for (unsigned d : reduction)
          sizes[d] = 1;
      } else if (isa<linalg::ConvolutionOpInterface>(op.getOperation()) &&
                 isa<linalg::Conv2DNchwFchwOp>(op)) {
        // (n, f, oh, ow, c, kh, kw): a vector of filters by a few output
        // columns per tile, kh = 1 so the tile decomposes into a 1-D
        // convolution (vectorized along the filters).
        // Narrow outputs (7 or 14 columns in late CNN stages) take more
        // filter vectors per tile, so that about 24 accumulators reuse each
        // loaded input value and filter vector.
        int64_t cols = tileAtMost(ranges[3], 16);
        // A power of two: a 48-lane vector legalizes badly in LLVM.
        int64_t filterVectors =
            llvm::bit_floor(static_cast<uint64_t>(std::clamp<int64_t>(24 / cols, 1, 4)));
        sizes = {1,
                 vectorMultipleAtMost(ranges[1], vectorWidth * filterVectors,
                                      vectorWidth),
                 1, cols, 1, 1, 0};
      } else if (isa<linalg::PoolingNchwMaxOp, linalg::PoolingNchwSumOp>(
                     op.getOperation())) {
        // (n, c, oh, ow, kh, kw): one output row of a few columns, a vector
        // of channels, kh = 1 so the tile decomposes into a 1-D pooling that
        // the vectorizer handles (strided windows too) with channels in the
        // lanes.
        sizes = {1, divisorAtMost(ranges[1], vectorWidth), 1,
                 tileAtMost(ranges[3], 8), 1, 0};
      } else {
        // Elementwise, pooling and reductions: one vector along the
        // innermost parallel loop; other parallel loops one at a time.
        for (unsigned d : parallel)
          sizes[d] = 1;
        if (!parallel.empty())
          sizes[parallel.back()] =
              tileAtMost(ranges[parallel.back()], vectorWidth);
        // Innermost reductions stay whole while the tile's reduction volume
        // fits kReductionBudget; outer ones are tiled so that a window of
        // 56x56 does not become one unrolled vector tile.
        int64_t volume = 1;
        for (unsigned d : llvm::reverse(reduction)) {
          if (volume * ranges[d] <= kReductionBudget) {
            sizes[d] = 0;
            volume *= ranges[d];
          } else {
            sizes[d] = divisorAtMost(ranges[d],
                                     std::max<int64_t>(1, kReductionBudget / volume));
            volume *= sizes[d];
          }
        }
      }
      // An epilogue is fused into its producer's tiles by
      // dlc-cpu-tile-and-fuse; these sizes are its fallback.
      op->setAttr(isEpilogueOf(op) ? "dlc.epilogue_tile_sizes"
                                   : "dlc.tile_sizes",
                  DenseI64ArrayAttr::get(op->getContext(), sizes));
    });
  }
};
} // namespace
