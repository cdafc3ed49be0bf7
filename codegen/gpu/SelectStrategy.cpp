//===- SelectStrategy.cpp - a GPU kernel configuration per root op --------===//
//
// The heuristics of the CUDA target, apart from the transformations: each
// linalg op that roots a kernel gets a #dlc.gpu_config (tile sizes per
// level, threads, K step), which dlc-gpu-tile-and-fuse only reads.
//
//===----------------------------------------------------------------------===//
#include "codegen/gpu/Passes.h"
#include "codegen/gpu/RowKernels.h"
#include "ir/DlcAttrs.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace dlc {
#define GEN_PASS_DEF_GPUSELECTSTRATEGY
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

static constexpr int64_t kWarpSize = 32;
/// Outputs (one warp each) per block of a reduction kernel.
static constexpr int64_t kWarpsPerBlock = 8;

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

/// Whether `v` is computed by a generic that reads another tensor at
/// computed indices (an im2col): its tile of each K step is loaded element
/// by element into registers and then stored into shared memory, not copied
/// asynchronously.
static bool isGathered(Value v) {
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic)
    return false;
  return generic.getBody()
      ->walk([](tensor::ExtractOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// The per-loop tile sizes of a contraction config: `bm` x `bn` blocks and
/// `tm` x `tn` thread (or warp) tiles over the innermost m and n loops, K
/// steps of `bk` over the innermost k loop (1 over outer k loops, which
/// the blocks do not tile), 1 over the other loops.
struct ContractionTiles {
  SmallVector<int64_t> workgroup, thread, reduction;
};
static ContractionTiles
contractionTiles(size_t rank, const linalg::ContractionDimensions &dims,
                 int64_t bm, int64_t bn, int64_t tm, int64_t tn, int64_t bk) {
  ContractionTiles t{SmallVector<int64_t>(rank, 1),
                     SmallVector<int64_t>(rank, 1),
                     SmallVector<int64_t>(rank, 0)};
  for (unsigned d : dims.k) {
    t.workgroup[d] = 0;
    t.reduction[d] = 1;
  }
  unsigned m = dims.m.back(), n = dims.n.back(), k = dims.k.back();
  t.workgroup[m] = bm;
  t.workgroup[n] = bn;
  t.thread[m] = tm;
  t.thread[n] = tn;
  t.reduction[k] = bk;
  return t;
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
      // (index values are 64 bits once lowered.)
      bool bytes = llvm::all_of(op->getOperandTypes(), [](Type t) {
        Type e = getElementTypeOrSelf(t);
        return !e.isIntOrFloat() || e.getIntOrFloatBitWidth() >= 8;
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
                              /*pipelineDepth=*/1, GpuPrecision::F32,
                              /*mma=*/{});
  }

  /// A contraction with the innermost m, n and k loops of at least 16, 16
  /// and 4 in strict f32: blocks of BM x BN outputs (each thread TM x TN of
  /// them, in registers), K steps of BK staged in shared memory. The
  /// largest tiles that divide the loops and still give `minBlocks` blocks
  /// (two per SM), else the ones that give the most blocks.
  std::optional<GpuConfigAttr> contractionConfig(linalg::LinalgOp op) {
    if (!linalg::isaContractionOpInterface(op) || op.getNumDpsInputs() != 2 ||
        op.getNumDpsInits() != 1)
      return std::nullopt;
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty())
      return std::nullopt;
    if (!llvm::all_of(op->getOperandTypes(), [](Type t) {
          return getElementTypeOrSelf(t).isF32();
        }))
      return std::nullopt;
    // The output must be read through a projected permutation (the tiles
    // of the epilogues are the output's).
    if (!op.getMatchingIndexingMap(op.getDpsInitOperand(0))
             .isProjectedPermutation())
      return std::nullopt;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    unsigned m = dims->m.back(), n = dims->n.back(), k = dims->k.back();
    int64_t M = ranges[m], N = ranges[n], K = ranges[k];
    if (M < 8 || N < 8 || K < 4)
      return std::nullopt;
    int64_t outer = 1;
    for (auto [d, r] : llvm::enumerate(ranges))
      if (d != m && d != n && !llvm::is_contained(dims->k, d))
        outer *= r;
    // Tensor cores: m16n8k8 for tf32; m16n8k16 for fp16, whose operands
    // are staged in half precision. Not bf16: upstream's conversion to
    // nvgpu (MLIR 22) takes no bf16 fragments.
    if (tensorCores && M % 16 == 0 && N % 8 == 0 &&
        ((contractionPrecision == GpuPrecision::TF32 && K % 8 == 0) ||
         (contractionPrecision == GpuPrecision::F16 && K % 16 == 0)))
      return warpgroups && M % 64 == 0 ? wgmmaConfig(op, *dims, outer)
                                       : mmaConfig(op, *dims, outer);
    // bf16 on Hopper's warpgroup instructions (dlc's own lowering, which
    // takes bf16; upstream's mma.sync conversion does not).
    if (tensorCores && warpgroups &&
        contractionPrecision == GpuPrecision::BF16 && M % 64 == 0 &&
        N % 8 == 0 && K % 16 == 0)
      return wgmmaConfig(op, *dims, outer);
    // Blocks of bm x bn outputs, each thread tm x tn of them: bm and bn
    // divisors of M and N from 8 to 128 (24 filters, 49 pixels of a 7x7
    // image), tm and tn up to 8, 32 to `limit` threads. The best fills the
    // GPU once (`minBlocks` / 2 blocks) first, then has the largest tile
    // (fewest global reads per output), then the largest per-thread block
    // (fewest shared reads per FMA), then whole warps.
    auto divisors = [](int64_t n) {
      SmallVector<int64_t> d;
      for (int64_t t = std::min<int64_t>(n, 128); t >= 8; --t)
        if (n % t == 0)
          d.push_back(t);
      return d;
    };
    struct Tile {
      int64_t bm, bn, tm, tn;
    };
    auto blocksOf = [&](const Tile &t) {
      return outer * (M / t.bm) * (N / t.bn);
    };
    auto pick = [&](int64_t limit) {
      std::optional<Tile> best;
      std::tuple<int64_t, int64_t, int64_t, bool> bestKey{};
      for (int64_t bm : divisors(M))
        for (int64_t tm = std::min<int64_t>(bm, 8); tm >= 1; --tm) {
          if (bm % tm != 0)
            continue;
          for (int64_t bn : divisors(N))
            for (int64_t tn = std::min<int64_t>(bn, 8); tn >= 1; --tn) {
              if (bn % tn != 0)
                continue;
              int64_t threads = (bm / tm) * (bn / tn);
              if (threads < 32 || threads > limit)
                continue;
              Tile tile{bm, bn, tm, tn};
              std::tuple<int64_t, int64_t, int64_t, bool> key{
                  std::min(blocksOf(tile), minBlocks / 2), bm * bn, tm * tn,
                  threads % 32 == 0};
              if (!best || key > bestKey) {
                best = tile;
                bestKey = key;
              }
            }
        }
      return best;
    };
    // At two blocks per SM, ptxas keeps a block of more than 128 threads
    // within 128 registers per thread (over 4 warps, 2 per scheduler):
    // 8 x 8 accumulators with asynchronously copied operands fit, but the
    // values and indices of a gathered operand's staging do not always.
    // Such a kernel takes at most 128 threads (255 registers) when that
    // still gives tiles of 128 x 64, or smaller tiles that fit on the GPU
    // at once (`minBlocks` blocks); otherwise (the 1568 pixels of a batch
    // of 32 7x7 images, which no tile of 64 to 128 divides, in 448 blocks:
    // two waves) its wider tile loads each K step before multiplying it
    // (no staged values in flight).
    bool gathered = llvm::any_of(op.getDpsInputs(), isGathered);
    std::optional<Tile> best = pick(gathered ? 128 : 256);
    bool unstaged = false;
    if (gathered && (!best || (best->bm * best->bn < 128 * 64 &&
                               blocksOf(*best) > minBlocks))) {
      std::optional<Tile> wide = pick(256);
      unstaged = wide && (wide->bm / wide->tm) * (wide->bn / wide->tn) > 128;
      if (wide)
        best = wide;
    }
    if (!best)
      return std::nullopt;
    int64_t bk = K % 16 == 0 ? 16 : K % 8 == 0 ? 8 : divisorAtMost(K, 16);
    ContractionTiles tiles = contractionTiles(ranges.size(), *dims, best->bm,
                                              best->bn, best->tm, best->tn, bk);
    // Two K steps in flight (double-buffered shared memory: the next
    // step's tiles load while this one's are multiplied) once the
    // innermost K loop has two steps; the tiles of two steps are at most
    // 32 KB.
    int64_t depth = K / bk >= 2 && !unstaged ? 2 : 1;
    // Each thread's K step `sub` rows at a time: sub x (tm + tn) operand
    // registers live beside the tm x tn accumulators (and, pipelined, the
    // next step's staged values): 4 rows, 2 when pipelined or unstaged.
    int64_t sub = depth > 1 || unstaged ? 2 : 4;
    tiles.thread[k] = bk % sub == 0 ? sub : 1;
    return GpuConfigAttr::get(op->getContext(), GpuKernelKind::Contraction,
                              tiles.workgroup, tiles.thread, tiles.reduction,
                              depth, contractionPrecision, /*mma=*/{});
  }

  /// A contraction on tensor cores (`mma.sync.m16n8k8` for tf32,
  /// `m16n8k16` for fp16): blocks of bm x bn outputs, each warp
  /// wm x wn of them (a grid of 16 x 8 instructions), 1 to 8 warps per
  /// block, K steps of two instructions' k where K allows. The best fills the
  /// GPU once first, then has the largest block tile, then the largest warp
  /// tile.
  GpuConfigAttr mmaConfig(linalg::LinalgOp op,
                          const linalg::ContractionDimensions &dims,
                          int64_t outer) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    unsigned m = dims.m.back(), n = dims.n.back(), k = dims.k.back();
    int64_t M = ranges[m], N = ranges[n], K = ranges[k];
    constexpr int64_t im = 16, in = 8;
    int64_t ik = contractionPrecision == GpuPrecision::TF32 ? 8 : 16;
    struct Tile {
      int64_t bm, bn, wm, wn;
    };
    int64_t bk = K % (2 * ik) == 0 ? 2 * ik : ik;
    std::optional<Tile> best;
    std::tuple<int64_t, int64_t, int64_t> bestKey{};
    for (int64_t bm = im; bm <= std::min<int64_t>(M, 128); bm += im) {
      if (M % bm != 0)
        continue;
      for (int64_t bn = in; bn <= std::min<int64_t>(N, 128); bn += in) {
        if (N % bn != 0)
          continue;
        for (int64_t wm : {32, 16})
          for (int64_t wn : {32, 16, 8}) {
            if (bm % wm != 0 || bn % wn != 0)
              continue;
            int64_t warps = (bm / wm) * (bn / wn);
            if (warps > 8)
              continue;
            // fp16 operands are staged through registers (converted by
            // the threads, no cp.async), double-buffered: at most 4 warps
            // (255 registers each at two blocks per SM), at most 32 staged
            // values per thread per step, warp tiles of at most 32 x 16 in
            // blocks of one or two warps. Beyond these, kernels of
            // ResNet-50 and MobileNetV2 (batch 1 and 32) spilled on sm_80.
            if (ik == 16 && (warps > 4 || (bm + bn) * bk > 32 * 32 * warps ||
                             (warps <= 2 && wm * wn > 512)))
              continue;
            int64_t blocks = outer * (M / bm) * (N / bn);
            std::tuple<int64_t, int64_t, int64_t> key{
                std::min(blocks, minBlocks / 2), bm * bn, wm * wn};
            if (!best || key > bestKey) {
              best = Tile{bm, bn, wm, wn};
              bestKey = key;
            }
          }
      }
    }
    assert(best && "a 16 x 8 tile divides every loop that fits");
    return tensorCoreConfig(op, dims, best->bm, best->bn, best->wm, best->wn,
                            bk, {im, in, ik});
  }

  /// A tensor-core contraction's config: bm x bn blocks of wm x wn warp
  /// tiles, K steps of bk (two in flight where K has two), the warps'
  /// steps one instruction's k at a time, `instr` = {m, n, k} of the
  /// instruction on the innermost m, n and k loops.
  GpuConfigAttr tensorCoreConfig(linalg::LinalgOp op,
                                 const linalg::ContractionDimensions &dims,
                                 int64_t bm, int64_t bn, int64_t wm, int64_t wn,
                                 int64_t bk, std::array<int64_t, 3> instr) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    unsigned m = dims.m.back(), n = dims.n.back(), k = dims.k.back();
    ContractionTiles tiles =
        contractionTiles(ranges.size(), dims, bm, bn, wm, wn, bk);
    tiles.thread[k] = instr[2];
    SmallVector<int64_t> mma(ranges.size(), 0);
    mma[m] = instr[0];
    mma[n] = instr[1];
    mma[k] = instr[2];
    int64_t depth = ranges[k] / bk >= 2 ? 2 : 1;
    return GpuConfigAttr::get(op->getContext(), GpuKernelKind::Contraction,
                              tiles.workgroup, tiles.thread, tiles.reduction,
                              depth, contractionPrecision, mma);
  }

  /// A contraction on Hopper's warpgroup instructions (`wgmma.m64nNk8`
  /// for tf32, `m64nNk16` for fp16, operands in shared memory): blocks of
  /// one or two warpgroups (bm = 64 or 128 rows) by bn columns (up to 128,
  /// the N of the instruction), each warp 16 rows of its group's tile, K
  /// steps of 32 where K allows. The best fills the GPU once first, then
  /// has the largest tile.
  GpuConfigAttr wgmmaConfig(linalg::LinalgOp op,
                            const linalg::ContractionDimensions &dims,
                            int64_t outer) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    unsigned m = dims.m.back(), n = dims.n.back(), k = dims.k.back();
    int64_t M = ranges[m], N = ranges[n], K = ranges[k];
    int64_t ik = contractionPrecision == GpuPrecision::TF32 ? 8 : 16;
    int64_t bk = K % 32 == 0 ? 32 : ik;
    int64_t bestM = 0, bestN = 0;
    std::pair<int64_t, int64_t> bestKey{};
    for (int64_t bm : {64, 128}) {
      if (M % bm != 0)
        continue;
      for (int64_t bn = 8; bn <= std::min<int64_t>(N, 128); bn += 8) {
        // Two warpgroups (256 threads) have 128 registers each at two
        // blocks per SM: at most 32 accumulators (ResNet-50's batch-32
        // kernels spilled with 64).
        if (N % bn != 0 || (bm == 128 && bn > 64))
          continue;
        int64_t blocks = outer * (M / bm) * (N / bn);
        std::pair<int64_t, int64_t> key{std::min(blocks, minBlocks / 2),
                                        bm * bn};
        if (!bestM || key > bestKey) {
          bestM = bm;
          bestN = bn;
          bestKey = key;
        }
      }
    }
    assert(bestM && "a 64 x 8 tile divides every loop that fits");
    return tensorCoreConfig(op, dims, bestM, bestN, 16, bestN, bk,
                            {64, bestN, ik});
  }

  /// A reduction of at least 32 elements per output whose innermost loop
  /// is a reduction, with one combiner that has a neutral element (a sum,
  /// a max, ...) on 32- or 64-bit values: one warp per output, its lanes
  /// striding over the reduced elements (coalesced) and combining their
  /// partial results by warp shuffles; up to 8 outputs (warps) per block.
  std::optional<GpuConfigAttr> reductionConfig(linalg::LinalgOp op) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || generic.getNumDpsInits() != 1 ||
        generic->getNumResults() != 1 || generic.getNumReductionLoops() == 0)
      return std::nullopt;
    SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
    if (iters.back() != utils::IteratorType::reduction)
      return std::nullopt;
    if (!llvm::all_of(generic.getIndexingMapsArray(), [](AffineMap m) {
          return m.isProjectedPermutation();
        }))
      return std::nullopt;
    Type element = getElementTypeOrSelf(generic->getResult(0).getType());
    unsigned bits = element.getIntOrFloatBitWidth();
    if (bits != 32 && bits != 64)
      return std::nullopt;
    SmallVector<Operation *> combiners;
    BlockArgument out = generic.getMatchingBlockArgument(
        generic.getDpsInitOperand(0));
    if (!matchReduction(generic.getRegionOutputArgs(), 0, combiners) ||
        combiners.size() != 1 || !arith::getNeutralElement(combiners[0]) ||
        !out.hasOneUse())
      return std::nullopt;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t reduced = 1;
    std::optional<unsigned> innerParallel;
    for (auto [d, it] : llvm::enumerate(iters)) {
      if (it == utils::IteratorType::reduction)
        reduced *= ranges[d];
      else
        innerParallel = d;
    }
    if (reduced < kWarpSize || !innerParallel)
      return std::nullopt;
    size_t n = ranges.size();
    SmallVector<int64_t> workgroup(n, 0), thread(n, 0), reduction(n, 0);
    for (auto [d, it] : llvm::enumerate(iters))
      if (it == utils::IteratorType::parallel) {
        workgroup[d] = 1;
        thread[d] = 1;
      }
    workgroup[*innerParallel] =
        divisorAtMost(ranges[*innerParallel], kWarpsPerBlock);
    reduction[n - 1] = kWarpSize;
    return GpuConfigAttr::get(op->getContext(), GpuKernelKind::Reduction,
                              workgroup, thread, reduction,
                              /*pipelineDepth=*/1, GpuPrecision::F32,
                              /*mma=*/{});
  }

  /// An elementwise op over rows (its innermost loop the row, at least 32
  /// long) that depends, through elementwise ops, on a reduction of the
  /// same rows which gets a `reduction` config (softmax's division, layer
  /// norm's scale and shift): the reduction's config, for a row kernel that
  /// recomputes the whole chain in one warp per row.
  std::optional<GpuConfigAttr> rowConfig(linalg::LinalgOp op) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || generic.getNumReductionLoops() != 0 ||
        generic.getNumDpsInits() != 1 || generic->getNumResults() != 1 ||
        op.getNumLoops() < 2 ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
      return std::nullopt;
    if (op.getStaticLoopRanges().back() < kWarpSize)
      return std::nullopt;
    std::optional<llvm::SetVector<Operation *>> chain =
        gpu_rows::findRowChain(generic);
    if (!chain)
      return std::nullopt;
    // Every reduction of the chain runs as a warp's: each must take the
    // reduction config (they all have the root's loops, so the same one).
    std::optional<GpuConfigAttr> config;
    if (llvm::any_of(*chain, isPlacedOnCpu))
      return std::nullopt;
    for (Operation *producer : *chain) {
      auto g = cast<linalg::GenericOp>(producer);
      if (g.getNumReductionLoops() == 0)
        continue;
      std::optional<GpuConfigAttr> c = reductionConfig(g);
      if (!c)
        return std::nullopt;
      config = c;
    }
    return config;
  }

  void runOnOperation() override {
    std::optional<GpuPrecision> p = symbolizeGpuPrecision(precision);
    if (!p) {
      getOperation().emitError("dlc-gpu-select-strategy: unknown precision '")
          << precision << "' (f32, tf32, f16 or bf16)";
      return signalPassFailure();
    }
    contractionPrecision = *p;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::FillOp>(op) || op.getNumLoops() == 0 ||
          op->getParentOfType<scf::ForallOp>() || isPlacedOnCpu(op))
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
      if (std::optional<GpuConfigAttr> c = contractionConfig(op)) {
        op->setAttr(kGpuConfigAttrName, *c);
        return;
      }
      if (std::optional<GpuConfigAttr> c = reductionConfig(op)) {
        op->setAttr(kGpuConfigAttrName, *c);
        return;
      }
      if (std::optional<GpuConfigAttr> c = rowConfig(op)) {
        op->setAttr(kGpuConfigAttrName, *c);
        return;
      }
      GpuKernelKind kind = op.getNumReductionLoops() == 0
                               ? GpuKernelKind::Elementwise
                               : GpuKernelKind::Window;
      op->setAttr(kGpuConfigAttrName, parallelConfig(op, kind));
    });
  }

  GpuPrecision contractionPrecision = GpuPrecision::F32;
};
} // namespace
