//===- PrefetchConstantBlocks.cpp - prefetch the next block of weights ----===//
//
// A tile of a convolution or matmul reads one block of a packed constant
// (16 or 32 filters' weights, `[F/nr, ...]`) and the tiles after it in the
// parallel loop's order read the same block again (the other output rows);
// then the next block. A model whose weights outgrow the caches brings
// each block from memory on its first tile, where the tile's loads wait on
// memory; the tiles after it hit in L2. Here every tile of a block also
// prefetches its share of the next block (tile r of R: the r-th R-th of it,
// in step with its own reads, or all at once when it starts where a read's
// share is under a line), so that the next block streams in while this one
// is computed.
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/Passes.h"

#include "mlir/IR/Dominance.h"

namespace dlc {
#define GEN_PASS_DEF_PREFETCHCONSTANTBLOCKS
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// Whether `v` is computed from any of `ivs` (within `scope`).
static bool dependsOn(Value v, ArrayRef<Value> ivs, Operation *scope,
                      int depth = 0) {
  if (llvm::is_contained(ivs, v))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || !scope->isProperAncestor(def))
    return false;
  if (depth > 16)
    return true;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return dependsOn(operand, ivs, scope, depth + 1);
  });
}

/// The loop of `forall` whose induction variable indexes blocks as `index`
/// (the variable itself with unit steps, or divided by its step); nullopt
/// otherwise.
static std::optional<unsigned> blockLoop(scf::ForallOp forall, Value index) {
  ArrayRef<int64_t> lbs = forall.getStaticLowerBound();
  ArrayRef<int64_t> steps = forall.getStaticStep();
  for (auto [d, iv] : llvm::enumerate(forall.getInductionVars())) {
    if (ShapedType::isDynamic(lbs[d]) || ShapedType::isDynamic(steps[d]) ||
        lbs[d] != 0)
      continue;
    if (index == iv && steps[d] == 1)
      return d;
    if (auto div = index.getDefiningOp<arith::DivUIOp>())
      if (div.getLhs() == iv)
        if (std::optional<int64_t> c = getConstantIntValue(div.getRhs());
            c && *c == steps[d])
          return d;
  }
  return std::nullopt;
}

namespace {
struct PrefetchConstantBlocksPass
    : dlc::impl::PrefetchConstantBlocksBase<PrefetchConstantBlocksPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<std::pair<vector::TransferReadOp, scf::ForallOp>> reads;
    func.walk([&](vector::TransferReadOp read) {
      auto global = read.getBase().getDefiningOp<memref::GetGlobalOp>();
      auto forall = read->getParentOfType<scf::ForallOp>();
      if (global && forall && read->getParentOfType<scf::ForOp>() &&
          forall->isProperAncestor(read->getParentOfType<scf::ForOp>()))
        reads.push_back({read, forall});
    });
    ModuleOp module = func->getParentOfType<ModuleOp>();
    // Each constant flattened once, right after its get_global.
    llvm::DenseMap<Operation *, Value> flattened;
    // The (constant, forall) pairs whose tiles prefetch once per tile.
    llvm::DenseSet<std::pair<Operation *, Operation *>> prefetchedTiles;
    for (auto &entry : reads) {
      vector::TransferReadOp read = entry.first;
      scf::ForallOp forall = entry.second;
      auto global = read.getBase().getDefiningOp<memref::GetGlobalOp>();
      auto type = cast<MemRefType>(global.getType());
      auto def = module.lookupSymbol<memref::GlobalOp>(global.getNameAttr());
      if (!def || !def.getConstant() || type.getRank() < 2 ||
          !type.hasStaticShape() || !type.getLayout().isIdentity() ||
          !type.getElementType().isIntOrFloat())
        continue;
      int64_t elementBytes = type.getElementTypeBitWidth() / 8;
      int64_t elements = type.getNumElements();
      if (elementBytes == 0 || elements * elementBytes < minBytes)
        continue;
      // Blocks along the first dimension, indexed by one parallel loop; the
      // read's place inside its block does not depend on the parallel loops.
      SmallVector<Value> ivs(forall.getInductionVars());
      ValueRange indices = read.getIndices();
      std::optional<unsigned> d = blockLoop(forall, indices[0]);
      if (!d || llvm::any_of(indices.drop_front(), [&](Value i) {
            return dependsOn(i, ivs, forall);
          }))
        continue;
      // The tiles per block: the trip counts of the loops inside loop d.
      ArrayRef<int64_t> lbs = forall.getStaticLowerBound();
      ArrayRef<int64_t> ubs = forall.getStaticUpperBound();
      ArrayRef<int64_t> steps = forall.getStaticStep();
      SmallVector<int64_t> trips(ivs.size(), 1);
      int64_t tiles = 1;
      bool staticLoops = true;
      for (unsigned j = *d + 1; j < ivs.size(); ++j) {
        if (ShapedType::isDynamic(lbs[j]) || ShapedType::isDynamic(ubs[j]) ||
            ShapedType::isDynamic(steps[j])) {
          staticLoops = false;
          break;
        }
        trips[j] = llvm::divideCeil(ubs[j] - lbs[j], steps[j]);
        tiles *= trips[j];
      }
      int64_t block = elements / type.getDimSize(0);
      int64_t lineElements = std::max<int64_t>(1, 64 / elementBytes);
      int64_t readElements = 1;
      for (int64_t s : read.getVectorType().getShape())
        readElements *= s;
      // Lines of the next block per read: its share of this read's size.
      int64_t lines =
          llvm::divideCeil(llvm::divideCeil(readElements, tiles), lineElements);
      if (!staticLoops || block * elementBytes < minBlockBytes ||
          lines > kMaxPrefetchesPerRead)
        continue;

      // A read whose share of the next block is under a line would prefetch
      // the same line step after step (a 3x3 convolution's filter vectors
      // read by 84 tiles per block: one new line every 56 steps, each
      // prefetch about ten instructions beside the step's 30 FMAs): the
      // tile prefetches its whole share once instead, when it starts.
      // (One line more: a share that starts mid-line.)
      int64_t tileLines =
          llvm::divideCeil(llvm::divideCeil(block, tiles), lineElements) + 1;
      bool perTile = readElements < tiles * lineElements &&
                     tileLines <= kMaxPrefetchesPerTile &&
                     !forall->isAncestor(global);
      if (perTile && !prefetchedTiles.insert({global, forall}).second)
        continue;

      OpBuilder b(read);
      if (perTile)
        b.setInsertionPointToStart(forall.getBody());
      Location loc = read.getLoc();
      auto cst = [&](int64_t v) {
        return arith::ConstantIndexOp::create(b, loc, v).getResult();
      };
      // The read's offset inside its block, row-major (0, the block's
      // start, for a per-tile prefetch).
      Value offset = cst(0);
      if (!perTile)
        for (unsigned i = 1; i < indices.size(); ++i) {
          offset =
              arith::MulIOp::create(b, loc, offset, cst(type.getDimSize(i)));
          offset = arith::AddIOp::create(b, loc, offset, indices[i]);
        }
      // This tile's place among its block's tiles.
      Value tile = cst(0);
      for (unsigned j = *d + 1; j < ivs.size(); ++j) {
        Value pos = arith::SubIOp::create(b, loc, ivs[j], cst(lbs[j]));
        pos = arith::DivUIOp::create(b, loc, pos, cst(steps[j]));
        tile = arith::MulIOp::create(b, loc, tile, cst(trips[j]));
        tile = arith::AddIOp::create(b, loc, tile, pos);
      }
      // (block + 1) * B + (tile * B + offset) / tiles, within the constant.
      // The block index, read before the tile's loops: the forall's.
      Value blockIndex = perTile ? Value(ivs[*d]) : Value(indices[0]);
      if (perTile && steps[*d] != 1)
        blockIndex = arith::DivUIOp::create(b, loc, blockIndex, cst(steps[*d]));
      Value next = arith::AddIOp::create(b, loc, blockIndex, cst(1));
      next = arith::MulIOp::create(b, loc, next, cst(block));
      Value share = arith::MulIOp::create(b, loc, tile, cst(block));
      share = arith::AddIOp::create(b, loc, share, offset);
      share = arith::DivUIOp::create(b, loc, share, cst(tiles));
      Value at = arith::AddIOp::create(b, loc, next, share);
      Value &flat = flattened[global];
      if (!flat) {
        OpBuilder gb(global);
        gb.setInsertionPointAfter(global);
        flat = memref::CollapseShapeOp::create(
            gb, global.getLoc(), global,
            SmallVector<ReassociationIndices>{
                llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()))});
      }
      // The line `past` elements after `at`, clamped to the constant, into
      // L2.
      auto prefetch = [&](Value past) {
        Value i = arith::AddIOp::create(b, loc, at, past);
        i = arith::MinUIOp::create(b, loc, i, cst(elements - 1));
        memref::PrefetchOp::create(b, loc, flat, ValueRange{i},
                                   /*isWrite=*/false, /*localityHint=*/2,
                                   /*isDataCache=*/true);
      };
      if (perTile) {
        auto loop = scf::ForOp::create(b, loc, cst(0), cst(tileLines), cst(1));
        b.setInsertionPointToStart(loop.getBody());
        prefetch(arith::MulIOp::create(b, loc, loop.getInductionVar(),
                                       cst(lineElements)));
        continue;
      }
      for (int64_t l = 0; l < lines; ++l)
        prefetch(cst(l * lineElements));
    }
  }

  /// A tile prefetches its share of the next block at its start when that
  /// is at most this many lines: a larger burst (56 lines per tile of
  /// MNASNet's 1x1 expansions over 7x7 with AVX-512) ran those kernels 18%
  /// slower in the model than prefetching step by step.
  static constexpr int64_t kMaxPrefetchesPerTile = 16;
  /// A read's share of the next block takes at most this many prefetches
  /// (a block read by few tiles is left to the hardware's prefetchers).
  static constexpr int64_t kMaxPrefetchesPerRead = 4;
};
} // namespace
