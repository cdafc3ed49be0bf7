//===- SelectTiling.cpp - tile-size heuristic for the CPU -----------------===//
#include "codegen/common/Bounds.h"
#include "codegen/cpu/Passes.h"
#include "codegen/cpu/RegisterBlock.h"

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

/// The range the heuristics assume for a loop of run-time size: long, and
/// divisible by every tile size they choose.
static constexpr int64_t kNominalDynamicRange = int64_t(1) << 20;

/// Contractions reducing over at most this many elements keep their rows
/// outermost among the tile loops (measured on MobileNetV2's, EfficientNet's
/// and MNASNet's pointwise convolutions, docs/performance.md). A reduction
/// of 64 takes row blocks innermost: ResNet-50's 64-to-256-channel 1x1
/// convolutions over 56 x 56 streamed the whole 800 KB input from L2 once
/// per block of 6 filters (AVX2 code, Zen 4: 1.25 -> 1.04 ms, 1.95 -> 1.26
/// with the residual add).
static constexpr int64_t kMaxShortReduction = 32;
/// Row blocks that a contraction's panel of an image must serve to be
/// copied once per tile rather than read in place by each: the copy is
/// about one pass of in-place reads (the image from L3, a channel plane per
/// row of the panel). Measured (Zen 4, one thread): ResNet-50's 256-to-64
/// and 256-to-128-channel 1x1 convolutions over 56 x 56 (10 and 21 blocks
/// of 6 filters, AVX2 code) 1.7-1.9 -> 1.1-1.3 ms and 2.7-3.0 -> 2.0-2.1
/// ms, its 64-to-256 ones with the residual add (32 blocks of 8, AVX-512)
/// 1.41-1.46 -> 1.24-1.31 ms; MobileNetV2's projections to 24 and 32
/// filters (3 and 4 blocks of 8, AVX-512) 5-13% slower.
static constexpr int64_t kMinPanelRowBlocks = 8;

/// The fewest output columns a convolution tile takes to divide its row
/// rather than leave a remainder.
static constexpr int64_t kMinDivisorColumns = 3;

/// A convolution's innermost channel loop shorter than this is taken to be
/// unrolled by LLVM (all its filter vectors live at once).
static constexpr int64_t kMinInnermostChannels = 16;

/// The share of the FMA peak a 16-register convolution tile reaches with
/// `acc` accumulators, the window's columns unrolled inside the tile (each
/// accumulator takes one FMA per tap from consecutive broadcasts, a chain
/// of window-many per channel) or the window as loops outside the channel
/// loop (one FMA per accumulator and step, two filter vectors), linear
/// between measured points and proportional to `acc` below the first (its
/// FMA chains then bound it). Measured on 3x3 convolutions over 13 to 60
/// columns and 64 to 128 channels (AVX2 code, AMD Zen 5, one thread,
/// against a 138 GFLOP/s FMA peak; remainder tiles from their kernel's
/// time in `dlc bench --profile`): unrolled 3, 6, 7, 8 and 10 accumulators
/// 0.33, 0.67, 0.74, 0.80 and 0.88; as loops 6, 8, 10 and 12 (2 filter
/// vectors by 3 to 6 columns) 0.65, 0.76, 0.85 and 0.93.
static double interpolatedRate(ArrayRef<std::pair<int64_t, double>> points,
                               int64_t acc) {
  if (acc <= points.front().first)
    return points.front().second * acc / points.front().first;
  for (auto [lo, hi] : llvm::zip(points.drop_back(), points.drop_front()))
    if (acc <= hi.first)
      return lo.second + (hi.second - lo.second) * (acc - lo.first) /
                             static_cast<double>(hi.first - lo.first);
  return points.back().second;
}
static double unrolledWindowRate(int64_t acc) {
  static constexpr std::pair<int64_t, double> points[] = {
      {3, 0.33}, {6, 0.67}, {7, 0.74}, {8, 0.80}, {10, 0.88}};
  return interpolatedRate(points, acc);
}
static double windowLoopsRate(int64_t acc) {
  static constexpr std::pair<int64_t, double> points[] = {
      {6, 0.65}, {8, 0.76}, {10, 0.85}, {12, 0.93}};
  return interpolatedRate(points, acc);
}

/// A 1x1-window convolution tile on a 16-register target: the cycles of an
/// FMA's latency (each accumulator's FMAs form a chain), and the loads each
/// step of the channel loop pays besides its filter vectors and broadcasts
/// (its share of the loop and prefetch instructions, counted as loads).
static constexpr double kFmaLatency = 4;
static constexpr int64_t kStepLoads = 2;

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
/// The largest trip count of `op`'s loop `loop`, from the bound of an
/// operand dimension that it spans; nullopt when none is bounded.
static std::optional<int64_t> loopUpperBound(linalg::LinalgOp op,
                                             unsigned loop) {
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<ShapedType>(operand.get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [d, e] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(e);
          dim && dim.getPosition() == loop)
        if (std::optional<int64_t> ub = dlc::upperBoundOfDim(operand.get(), d))
          return ub;
  }
  return std::nullopt;
}

static int64_t tileAtMost(int64_t size, int64_t limit) {
  int64_t divisor = divisorAtMost(size, limit);
  return size > limit && 2 * divisor < limit ? limit : divisor;
}

/// The tile of at most `limit` along a loop of `size` that keeps the most
/// work per tile on average, remainder tile included (56 columns by at most
/// 13: tiles of 12 with a remainder of 8 average 11.2 columns, where the
/// divisor 8 gives 8); among equals the largest divisor, which needs no
/// remainder tile.
static int64_t fullestTileAtMost(int64_t size, int64_t limit) {
  int64_t best = 1;
  double bestAvg = 0;
  for (int64_t t = 1; t <= std::min(size, limit); ++t) {
    double avg = static_cast<double>(size) / ((size + t - 1) / t);
    bool better = avg > bestAvg + 1e-9 ||
                  (avg > bestAvg - 1e-9 && size % t == 0 && size % best != 0);
    if (better) {
      best = t;
      bestAvg = avg;
    }
  }
  return best;
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
    if (isa<linalg::Conv2DNchwFchwOp, linalg::Conv1DNcwFcwOp,
            linalg::Conv2DNgchwGfchwOp>(producer.getOperation()) ||
        (linalg::isaContractionOpInterface(producer) &&
         producer.getNumParallelLoops() >= 2))
      return true;
  }
  return false;
}

/// An elementwise op over a sliding window (a depthwise convolution lowered
/// to one multiply-add per tap: its inputs are slices of one tensor at
/// offsets that differ along the rows, the second innermost dimension).
/// Strided slices (stride-2 windows) only when the taps multiply-add (a
/// depthwise convolution, whose rows are chains of dependent FMAs):
/// dlc-cpu-vectorize reads each row of a tile contiguously and shuffles out
/// its strided lanes (AVX2: 14 columns of a 5x5 window 8% faster, AVX-512
/// 13%); a stride-2 max pooling over rows of a partial vector (SqueezeNet's
/// 55 columns in tiles of 5) ran 1.3x slower with 4 rows per tile.
static bool readsRowShiftedSlices(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || generic.getNumReductionLoops() != 0)
    return false;
  bool multiplies = llvm::any_of(generic.getBody()->getOperations(),
                                 llvm::IsaPred<math::FmaOp, arith::MulFOp>);
  llvm::SmallDenseMap<Value, int64_t> rowOffset;
  for (Value in : generic.getDpsInputs()) {
    auto slice = in.getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || slice.getSourceType().getRank() < 2)
      continue;
    if (!multiplies && !llvm::all_of(slice.getStaticStrides(),
                                     [](int64_t s) { return s == 1; }))
      return false;
    int64_t row = slice.getStaticOffsets()[slice.getSourceType().getRank() - 2];
    auto [it, inserted] = rowOffset.try_emplace(slice.getSource(), row);
    if (!inserted && !ShapedType::isDynamic(row) && it->second != row)
      return true;
  }
  return false;
}

/// Whether contraction `op`'s operand of columns (the one not indexed by
/// row loop `m`) is an image read in place: computed (not a constant, which
/// dlc-cpu-pack-constant-reads lays out at compile time), of rank 3 or more
/// ([N, C, H, W] or [N, C, H * W]), with its reduction dimension (the
/// channels) outside its innermost one.
static bool readsImagePanel(linalg::LinalgOp op, unsigned m) {
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(in);
    if (map.isFunctionOfDim(m))
      continue;
    auto type = dyn_cast<RankedTensorType>(in->get().getType());
    if (!type || type.getRank() < 3 || !type.hasStaticShape() ||
        matchPattern(in->get(), m_Constant()))
      return false;
    auto inner = dyn_cast<AffineDimExpr>(map.getResults().back());
    return inner && op.getIteratorTypesArray()[inner.getPosition()] ==
                        utils::IteratorType::parallel;
  }
  return false;
}

/// An op reading a slice strided along its innermost dimension (the taps
/// of a stride-2 window).
static bool readsStridedSlices(linalg::LinalgOp op) {
  return llvm::any_of(op.getDpsInputs(), [](Value in) {
    auto slice = in.getDefiningOp<tensor::ExtractSliceOp>();
    return slice && slice.getStaticStrides().back() != 1;
  });
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
      // Loops of run-time size (symbolic dimensions) are sized for the
      // heuristics below as a long loop that every tile size divides: their
      // full tiles get a static-shape copy (dlc-cpu-version-partial-tiles)
      // that the vectorizer takes, the last partial tile stays scalar.
      for (int64_t &r : ranges)
        if (ShapedType::isDynamic(r))
          r = kNominalDynamicRange;
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
        // The innermost M and N dims (a matmul over packed panels of B has
        // N split in two: panel, then column within the panel).
        FailureOr<linalg::ContractionDimensions> dims =
            linalg::inferContractionDims(op);
        if (succeeded(dims) && !dims->m.empty() && !dims->n.empty()) {
          m = dims->m.back();
          n = dims->n.back();
        }
        // Columns are whole 2-vector blocks, with a remainder split off
        // when they do not divide the loop (200 columns with 16 lanes: 6
        // blocks of 32 and one of 8); an odd-width vector block (28 lanes)
        // legalizes badly in LLVM. Columns of whole vectors that 2-vector
        // blocks do not divide (rows of 112, images of 784 as pointwise
        // convolutions) take one vector from each of two rows of the image
        // when it has an even number of them (the same accumulators and
        // loads per FMA as two vectors of one row), else 1-vector blocks of
        // twice the rows: a remainder splits the op in two, and neither
        // half can then take in the bias that initializes it or the
        // activation that follows (EfficientNet-B0 at 112 x 112: a fill and
        // a SiLU pass over 4.8 MB each). Two image rows against twice the
        // filter rows (AVX2 code, Zen 5, one thread): ResNet-50's 1x1
        // convolutions over 56 x 56 0.95 -> 0.84 ms (256 filters), 0.99 ->
        // 0.86 ms (64).
        dlc::MatmulRegisterBlock block =
            dlc::matmulRegisterBlock(vectorWidth, vectorRegisters);
        sizes[n] = std::min(ranges[n], block.cols);
        int64_t rows = block.rows;
        if (ranges[n] % vectorWidth == 0 && ranges[n] % sizes[n] != 0) {
          sizes[n] = vectorWidth;
          std::optional<unsigned> imageRows;
          if (succeeded(dims) && dims->n.size() >= 2)
            imageRows = dims->n[dims->n.size() - 2];
          if (imageRows && ranges[*imageRows] % 2 == 0)
            sizes[*imageRows] = 2;
          else
            rows *= 2;
        }
        sizes[m] = vectorRegisters >= 32 ? tileAtMost(ranges[m], rows)
                                         : fullestTileAtMost(ranges[m], rows);
        // Row blocks innermost among the tile loops: consecutive tiles read
        // the same panel of B (K x nr, kept in L2) with other rows of A,
        // rather than all of B for each block of rows (2048^3 on AVX2: 371
        // -> 222 ms; 1024^3 within 3%).
        SmallVector<int64_t> order;
        for (unsigned d = 0; d < ranges.size(); ++d)
          if (d != m && iters[d] == utils::IteratorType::parallel)
            order.push_back(d);
        order.push_back(m);
        for (unsigned d : reduction)
          order.push_back(d);
        // A short reduction (a pointwise convolution over few channels)
        // makes every panel small enough to stay in L1 either way; there
        // the loops keep their order, rows outermost, so that consecutive
        // tiles write along the same mr rows of the result instead of
        // touching every row block of it (a 1x1 expansion to 96 channels:
        // 96 output planes at once, each store a cache miss).
        int64_t reductionVolume = 1;
        for (unsigned d : reduction)
          reductionVolume *= ranges[d];
        if (reductionVolume > kMaxShortReduction)
          op->setAttr("dlc.parallel_order",
                      DenseI64ArrayAttr::get(op->getContext(), order));
        for (unsigned d : reduction)
          sizes[d] = 1;
        // With row blocks innermost, every row block re-reads the tile's
        // panel of B (K rows of nr lanes). Read in place from an image (a
        // pointwise convolution's input), each of its rows lies in another
        // channel plane (half-used lines; a 56 x 56 plane's stride maps them
        // into a quarter of L1's sets), so it does not stay in L1 from one
        // row block to the next: it is copied into a dense buffer once per
        // tile and read there by all the row blocks, which then run in a
        // loop of their own inside the tile.
        if (reductionVolume > kMaxShortReduction &&
            ranges[m] >= kMinPanelRowBlocks * sizes[m] &&
            readsImagePanel(op, m)) {
          SmallVector<int64_t> panel(sizes);
          panel[m] = 0;
          for (unsigned d : reduction)
            panel[d] = 0;
          op->setAttr("dlc.panel_tile_sizes",
                      DenseI64ArrayAttr::get(op->getContext(), panel));
        }
      } else if (isa<linalg::Conv2DNchwFchwOp, linalg::Conv1DNcwFcwOp,
                     linalg::Conv2DNgchwGfchwOp>(op.getOperation())) {
        // (n, f, oh, ow, c, kh, kw): a vector of filters by a few output
        // columns per tile, kh = 1 so the tile decomposes into a 1-D
        // convolution (vectorized along the filters). A 1-D convolution
        // (n, f, ow, c, kw) is tiled the same way (a pointwise convolution
        // over an image flattened into one row, dlc-cpu-pointwise-convs).
        bool oneD = isa<linalg::Conv1DNcwFcwOp>(op.getOperation());
        bool grouped = isa<linalg::Conv2DNgchwGfchwOp>(op.getOperation());
        const unsigned g = grouped ? 1 : 0;
        const unsigned fDim = 1 + g, owDim = (oneD ? 2 : 3) + g,
                       cDim = (oneD ? 3 : 4) + g, khDim = oneD ? 0 : 5 + g,
                       kwDim = (oneD ? 4 : 6) + g;
        // Narrow outputs (7 or 14 columns in late CNN stages) take more
        // filter vectors per tile, so that about 24 accumulators reuse each
        // loaded input value and filter vector. A pointwise convolution
        // (1x1 window) with 32 registers takes all the filter vectors that
        // fit: its tile's epilogue (a transpose of the accumulators into
        // output rows) is amortized over only its channels, and 2 filter
        // vectors per broadcast input halve the loads per FMA (ResNet-50's
        // 1x1 convolutions over rows of 14, docs/performance.md).
        int64_t cols = tileAtMost(ranges[owDim], 16);
        // Columns that only a small divisor divides (SqueezeNet's stem, 111
        // = 3 x 37) take that divisor, with more filter vectors below,
        // rather than a remainder: split off, the remainder also splits
        // the bias fill and the activation from the convolution, which
        // then run as passes of their own over the output, plus a copy of
        // the whole part (the stem 1.35 -> 0.53 ms, docs/performance.md).
        if (int64_t divisor = divisorAtMost(ranges[owDim], 16);
            ranges[owDim] % cols != 0 && divisor >= kMinDivisorColumns)
          cols = divisor;
        bool pointwise = ranges[kwDim] == 1 && (oneD || ranges[khDim] == 1);
        // A power of two: a 48-lane vector legalizes badly in LLVM.
        int64_t filterVectors = llvm::bit_floor(
            static_cast<uint64_t>(std::clamp<int64_t>(24 / cols, 1, 4)));
        // Pointwise: as many filter vectors as fit with their accumulators,
        // the filter vectors themselves and a broadcast input (7 columns by
        // 4 vectors spill).
        if (pointwise && vectorRegisters >= 32)
          filterVectors = llvm::bit_floor(static_cast<uint64_t>(
              std::clamp<int64_t>((vectorRegisters - 1) / (cols + 1), 1, 4)));
        bool channelsInnermost = false;
        int64_t remainderTileRows = 1;
        // Filter tiles of exactly filterVectors vectors, a remainder of
        // fewer split off.
        bool wholeFilterVectors = false;
        if (vectorRegisters < 32 && pointwise &&
            ranges[fDim] % vectorWidth == 0) {
          // Few registers, a 1x1 window: the accumulators, the filter
          // vectors and the broadcast input, with one register to spare (no
          // window to unroll). The tile with the highest FMA rate over the
          // whole row wins, on a core that issues 2 FMAs and 2 loads per
          // cycle (a remainder tile runs at its own, lower rate); among
          // equals the one with more accumulators (fewer steps, each also
          // paying its loop and prefetch instructions). Measured on 1x1
          // convolutions over 7x7 and 14x14 images flattened into rows
          // (AVX2): 2 filter vectors by 6 columns ran 1.10-1.20x faster than
          // 1 by 12 (13 loads per 12 FMAs); 1 filter vector (RegNet's 440
          // filters) by 14 columns spilled. Filters that are not whole
          // vectors (ShuffleNet's 116: tiles of half a vector) keep the
          // register budget below: their tiles of 9 or 13 columns were
          // vectorized along the columns, 20x slower.
          auto stepCycles = [](int64_t fv, int64_t c) {
            return std::max(
                {fv * c / 2.0, (fv + c + kStepLoads) / 2.0, kFmaLatency});
          };
          double bestRate = 0;
          int64_t bestFmas = 0;
          int64_t row = ranges[owDim];
          int64_t vectors = ranges[fDim] / vectorWidth;
          auto rowCycles = [&](int64_t fv, int64_t c) {
            return (row / c) * stepCycles(fv, c) +
                   (row % c ? stepCycles(fv, row % c) : 0.0);
          };
          // Filters that fv vectors do not divide (SqueezeNet's classifier,
          // 1000 = 62 x 16 + 8) leave a remainder tile of fewer filter
          // vectors over the same columns, unless an activation follows:
          // the split then runs it as a pass of its own (RegNet's 440
          // filters over 7 x 7 with their ReLU, 8% slower than 1-vector
          // tiles).
          bool filterRemainder =
              llvm::none_of(op->getUsers(), [](Operation *user) {
                auto consumer = dyn_cast<linalg::LinalgOp>(user);
                return consumer && isEpilogueOf(consumer);
              });
          for (int64_t fv = 1; fv <= std::min<int64_t>(4, vectors); fv *= 2) {
            if (fv > 1 && vectors % fv != 0 && !filterRemainder)
              break;
            int64_t maxCols = std::min((vectorRegisters - 2 - fv) / fv, row);
            for (int64_t c = 1; c <= maxCols; ++c) {
              double cycles = vectors / fv * rowCycles(fv, c) +
                              (vectors % fv ? rowCycles(vectors % fv, c) : 0.0);
              double rate = vectors * row / cycles;
              if (rate > bestRate + 1e-9 ||
                  (rate > bestRate - 1e-9 && fv * c > bestFmas)) {
                bestRate = rate;
                bestFmas = fv * c;
                cols = c;
                filterVectors = fv;
              }
            }
          }
          wholeFilterVectors = true;
        } else if (vectorRegisters < 32) {
          // Few registers (AVX2's 16): cols x filterVectors accumulators,
          // the filter vectors and a broadcast input. Either the window's
          // columns are unrolled inside the tile (kw filter vectors live,
          // each input broadcast reused across the window: fewer loads per
          // FMA, but each accumulator's taps a dependent chain) or they are
          // a loop too, outside the channel loop (fv filter vectors live,
          // one FMA per accumulator and step). Each choice of filter vectors,
          // form and columns is timed over the whole row at its measured
          // rate, the remainder tile at its own (fewer accumulators, a lower
          // rate): 2 filter vectors by 6 columns as loops over rows of 56
          // and 28 (a remainder of 2 or 4), 1 by 10 unrolled over rows of
          // 60 ran 2-7% slower; over rows of 14 the loops' 6 + 6 + 2 ran 5%
          // slower than 5 + 5 + 4.
          int64_t window = ranges[kwDim];
          bool shortChannels = ranges[cDim] < kMinInnermostChannels;
          double bestRate = 0;
          int64_t row = ranges[owDim];
          // With the window as loops, a 2-D convolution's remainder tile
          // takes several output rows when its few columns leave
          // accumulators to spare (a row of 56 by tiles of 6: 2 columns of
          // 2 rows, each loaded filter vector's FMAs across the rows), as
          // many as fit and divide the image's height. Measured (AVX2 code,
          // Zen 5, one thread): the 2-column remainder of 3x3 convolutions
          // over rows of 56 0.126 -> 0.072 ms, ResNet-18's stem 0.114 ->
          // 0.039 ms; rows of 14 now take 6 + 6 + 2 x 2 rows over 5 + 5 +
          // 4 (ResNet-50's 256-channel 3x3 convolutions 4% faster). With
          // the window unrolled (ConvNeXt's 4x4 stride-4 stem) the part of
          // whole tiles ran 15% slower beside a remainder of 4 rows.
          bool remainderRows = !oneD && !grouped;
          const unsigned ohDim = 2;
          for (int64_t fv = 1; fv <= 4; fv *= 2) {
            if (fv > 1 && ranges[fDim] % (fv * vectorWidth) != 0)
              break;
            for (bool unrolled : {true, false}) {
              // With the window as loops, one filter vector per channel of
              // the innermost loop is live: LLVM unrolls a short channel
              // loop (the stem's 3 channels) and loads them all up front.
              // Over a long channel loop one filter vector's FMAs take one
              // broadcast each (loads bound them): two or more.
              if (!unrolled && !shortChannels && fv < 2)
                continue;
              int64_t live = shortChannels && !unrolled ? fv * ranges[cDim]
                             : unrolled                 ? fv * window
                                                        : fv;
              // One register to spare, except for the loops over a long
              // channel loop: their accumulators, filter vectors and
              // broadcast are all that is live (2 x 6 columns: 15).
              int64_t budget =
                  vectorRegisters - (unrolled || shortChannels ? 2 : 1);
              int64_t maxCols = (budget - live - 1) / fv;
              auto rate = [&](int64_t c) {
                return unrolled && window > 1 ? unrolledWindowRate(fv * c)
                                              : windowLoopsRate(fv * c);
              };
              for (int64_t c = 1; c <= std::min(maxCols, row); ++c) {
                int64_t rem = row % c;
                int64_t rows = rem && remainderRows && !unrolled
                                   ? divisorAtMost(ranges[ohDim], maxCols / rem)
                                   : 1;
                double time = (row / c) * (fv * c) / rate(c) +
                              (rem ? fv * rem / rate(rem * rows) : 0.0);
                // A remainder tile also splits the kernel in two (another loop
                // nest, the epilogue split): it must gain 2%.
                double r = fv * row / time * (row % c ? 0.98 : 1.0);
                if (r > bestRate + 1e-9) {
                  bestRate = r;
                  cols = c;
                  filterVectors = fv;
                  channelsInnermost = !unrolled;
                  remainderTileRows = rows;
                }
              }
            }
          }
        }
        // Filters in whole vectors; when no multiple of the vector width
        // divides them and the largest divisor is not whole 8-lane (256-bit)
        // vectors or whole vectors either (RegNet's 104 and 440: 26 and 22
        // lanes, which legalize into scalar code; ShuffleNet's 116 with
        // AVX2: 4-lane tiles at half the FMA rate, where 14 whole vectors
        // and a remainder ran its 1x1 convolutions about 2x faster, the
        // model 3.78 -> 3.40 ms), whole-vector tiles and a remainder that
        // dlc-cpu-tile-and-fuse splits off. 24 lanes (a vector and a half)
        // stay one tile.
        int64_t filterTile =
            wholeFilterVectors
                ? vectorWidth * filterVectors
                : vectorMultipleAtMost(
                      ranges[fDim], vectorWidth * filterVectors, vectorWidth);
        if (ranges[fDim] > vectorWidth &&
            filterTile % std::min<int64_t>(vectorWidth, 8) != 0)
          filterTile =
              std::min(ranges[fDim] / vectorWidth, filterVectors) * vectorWidth;
        sizes.assign(ranges.size(), 1);
        sizes[fDim] = filterTile;
        sizes[owDim] = cols;
        sizes[kwDim] = 0;
        bool remainderOnlyInColumns =
            ranges[fDim] % filterTile == 0 && ranges[owDim] % cols != 0;
        // A scaled input computed inside the tile is a register, and each
        // of its columns takes a lane permute to broadcast: materialized,
        // the columns are broadcast loads (with AVX-512 a memory operand of
        // the FMA). Measured on EfficientNet-B0 (AVX2) and MobileNetV3
        // (AVX-512), docs/design.md.
        op->setAttr("dlc.unfused_inputs", UnitAttr::get(op->getContext()));
        if (channelsInnermost) {
          // Loops kh, kw, then the channels innermost: each step one filter
          // vector and `cols` broadcasts, none shared with another step.
          sizes[kwDim] = 1;
          SmallVector<int64_t> order;
          for (unsigned d = 0; d < ranges.size(); ++d)
            if (d != cDim)
              order.push_back(d);
          order.push_back(cDim);
          op->setAttr("dlc.reduction_order",
                      DenseI64ArrayAttr::get(op->getContext(), order));
        }
        // The remainder of a row's columns, split off by
        // dlc-cpu-tile-and-fuse, takes its own rows per tile (n, f, oh, ow,
        // ...): the same filter vectors, so the packed filters serve both.
        if (remainderTileRows > 1 && remainderOnlyInColumns &&
            !ShapedType::isDynamic(op.getStaticLoopRanges()[2])) {
          SmallVector<int64_t> remainder(sizes);
          remainder[2] = remainderTileRows;
          remainder[owDim] = ranges[owDim] % cols;
          op->setAttr("dlc.remainder_tile_sizes",
                      DenseI64ArrayAttr::get(op->getContext(), remainder));
        }
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
        // A row that is not whole vectors and fits in 4 (56, 28 or 14
        // columns with 16 lanes) is one tile, so that it ends in one
        // partial vector rather than in a partial vector per tile (4 tiles
        // of 14 lanes): MobileNetV2 5.41 -> 5.14 ms, EfficientNet-B0
        // 10.66 -> 9.78 ms (AVX-512; depthwise convolutions and their
        // activations). Rows of whole vectors keep one vector per tile
        // (BERT's 768 columns in 64-lane tiles ran 8% slower). A longer
        // row read through strided slices (a stride-2 pooling window) is
        // cut into whole vectors and a remainder rather than into a
        // divisor's partial vectors: SqueezeNet's 3x3 stride-2 max pooling
        // into rows of 55 columns, tiles of 5 lanes before, ran 1.4x faster
        // in tiles of 8 (AVX2).
        if (!parallel.empty()) {
          int64_t row = ranges[parallel.back()];
          sizes[parallel.back()] =
              row % vectorWidth != 0 && row <= 4 * vectorWidth ? row
              : readsStridedSlices(op) ? fullestTileAtMost(row, vectorWidth)
                                       : tileAtMost(row, vectorWidth);
          // A transpose that keeps its innermost dimension (a packing copy
          // of panels) moves whole rows: a tile of up to 4 vectors is one
          // copy with one address computation (measured on the panels of
          // the 1024^3 matmul's B, docs/performance.md).
          if (auto transpose = dyn_cast<linalg::TransposeOp>(op.getOperation()))
            if (transpose.getPermutation().back() ==
                    static_cast<int64_t>(ranges.size()) - 1 &&
                row % vectorWidth == 0 && row <= 4 * vectorWidth)
              sizes[parallel.back()] = row;
          // A sliding window takes several rows per tile: the taps of
          // adjacent rows read the same input rows (loaded once in the
          // unrolled tile), and the rows' accumulations are independent
          // chains. Up to a quarter of the registers hold accumulators, in
          // the tile that keeps the most rows per tile on average (7 rows
          // of 7 columns with AVX2: 4 and a remainder of 3, where one row
          // per tile left each a single chain of 25 dependent FMAs for a
          // 5x5 window, 1.5x slower).
          if (parallel.size() >= 2 && readsRowShiftedSlices(op)) {
            unsigned rowDim = parallel[parallel.size() - 2];
            int64_t rowVectors =
                llvm::divideCeil(sizes[parallel.back()], vectorWidth);
            sizes[rowDim] = fullestTileAtMost(
                ranges[rowDim],
                std::max<int64_t>(1, vectorRegisters / 4 / rowVectors));
          }
        }
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
      // A loop of run-time size bounded below its tile (a chunk of at most
      // 4 samples under a block of 8 rows) gets the largest power of two
      // within its bound, so that runs at the bound take full tiles.
      for (auto [d, r] : llvm::enumerate(op.getStaticLoopRanges()))
        if (ShapedType::isDynamic(r) && sizes[d] > 1)
          if (std::optional<int64_t> ub = loopUpperBound(op, d);
              ub && *ub >= 1 && *ub < sizes[d])
            sizes[d] = (int64_t)llvm::bit_floor((uint64_t)*ub);
      // An epilogue is fused into its producer's tiles by
      // dlc-cpu-tile-and-fuse; these sizes are its fallback.
      op->setAttr(isEpilogueOf(op) ? "dlc.epilogue_tile_sizes"
                                   : "dlc.tile_sizes",
                  DenseI64ArrayAttr::get(op->getContext(), sizes));
    });
  }
};
} // namespace
