//===- VersionPartialTiles.cpp - static copies of full tiles
//---------------===//
#include "codegen/cpu/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace dlc {
#define GEN_PASS_DEF_VERSIONPARTIALTILES
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

/// Marks the versions this pass makes while it runs.
constexpr llvm::StringLiteral kFullTiles = "dlc.full_tiles";

/// The smallest constant among `min`'s results, when it has one above 1 and
/// reads one of `ivs` and a run-time size (a tile size along a loop of
/// run-time size).
std::optional<int64_t> tileSizeOf(affine::AffineMinOp min, ValueRange ivs) {
  // It reads an induction variable and a size known at run time only
  // (static loops split their remainders off instead).
  if (!llvm::any_of(min.getOperands(),
                    [&](Value v) { return llvm::is_contained(ivs, v); }) ||
      llvm::all_of(min.getOperands(),
                   [&](Value v) { return llvm::is_contained(ivs, v); }))
    return std::nullopt;
  std::optional<int64_t> size;
  for (AffineExpr e : min.getMap().getResults())
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      size = size ? std::min(*size, c.getValue()) : c.getValue();
  if (!size || *size <= 1)
    return std::nullopt;
  return size;
}

/// The partial tile's linalg ops, tiled by 1 along their loops of run-time
/// size: single rows (or columns) of static shape, which the vectorizer
/// takes, reading their operands as the full tiles do (a matmul's partial
/// block of rows as rows of the same vector width).
void tileDynamicLoopsByOne(Block &block) {
  SmallVector<TilingInterface> ops;
  block.walk([&](linalg::LinalgOp op) {
    // Full-tile copies of inner loops (their shapes become static once
    // canonicalized) stay whole.
    for (Operation *p = op->getParentOp(); p && p != block.getParentOp();
         p = p->getParentOp())
      if (auto inner = dyn_cast<scf::IfOp>(p);
          inner && inner->hasAttr(kFullTiles) &&
          inner.getThenRegion().isAncestor(op->getParentRegion()))
        return;
    if (op.hasPureTensorSemantics() &&
        llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
      ops.push_back(cast<TilingInterface>(op.getOperation()));
  });
  IRRewriter rewriter(block.getParentOp()->getContext());
  for (TilingInterface op : ops) {
    auto linalgOp = cast<linalg::LinalgOp>(op.getOperation());
    SmallVector<OpFoldResult> sizes;
    for (int64_t r : linalgOp.getStaticLoopRanges())
      sizes.push_back(rewriter.getIndexAttr(ShapedType::isDynamic(r) ? 1 : 0));
    scf::SCFTilingOptions options;
    options.setTileSizes(sizes);
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> tiled =
        scf::tileUsingSCF(rewriter, op, options);
    if (failed(tiled))
      continue;
    rewriter.replaceOp(op, tiled->replacements);
  }
}

/// Versions the body of a tile loop (`ivs` its induction variables,
/// `terminator` what reads the tile's results).
void versionBody(Block &body, ValueRange ivs, Operation *terminator) {
  SmallVector<std::pair<affine::AffineMinOp, int64_t>> sizes;
  for (Operation &op : body.without_terminator())
    if (auto min = dyn_cast<affine::AffineMinOp>(op))
      if (std::optional<int64_t> size = tileSizeOf(min, ivs))
        sizes.push_back({min, *size});
  if (sizes.empty())
    return;
  // The sizes and what they are computed from stay; the rest of the body
  // is the tile's computation.
  llvm::SetVector<Operation *> kept;
  for (auto [min, size] : sizes) {
    kept.insert(min);
    BackwardSliceOptions options;
    options.filter = [&](Operation *op) { return op->getBlock() == &body; };
    SetVector<Operation *> slice;
    (void)getBackwardSlice(min.getOperation(), &slice, options);
    kept.insert(slice.begin(), slice.end());
  }
  SmallVector<Operation *> tile;
  for (Operation &op : body.without_terminator())
    if (!kept.contains(&op))
      tile.push_back(&op);
  if (tile.empty())
    return;
  llvm::SmallPtrSet<Operation *, 16> inTile(tile.begin(), tile.end());
  // The tile's values that the terminator (or its region) reads.
  SmallVector<Value> results;
  terminator->walk([&](Operation *op) {
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp();
          def && inTile.contains(def) && !llvm::is_contained(results, v))
        results.push_back(v);
  });
  // Kept ops never read the tile's values (they come before it); anything
  // else must be the terminator.
  for (Operation *op : tile)
    for (Operation *user : op->getUsers()) {
      Operation *owner = body.findAncestorOpInBlock(*user);
      if (!owner || (!inTile.contains(owner) && owner != terminator))
        return;
    }

  OpBuilder b(terminator);
  Location loc = terminator->getLoc();
  Value full;
  for (auto [min, size] : sizes) {
    Value eq =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, min.getResult(),
                              arith::ConstantIndexOp::create(b, loc, size));
    full = full ? arith::AndIOp::create(b, loc, full, eq).getResult() : eq;
  }
  SmallVector<Type> types;
  for (Value v : results)
    types.push_back(v.getType());
  auto ifOp = scf::IfOp::create(b, loc, types, full, /*withElseRegion=*/true);
  ifOp->setAttr(kFullTiles, b.getUnitAttr());
  // Full tiles: the constants as sizes.
  {
    Block *then = ifOp.thenBlock();
    OpBuilder tb = OpBuilder::atBlockEnd(then);
    IRMapping map;
    for (auto [min, size] : sizes)
      map.map(min.getResult(),
              arith::ConstantIndexOp::create(tb, loc, size).getResult());
    for (Operation *op : tile)
      tb.clone(*op, map);
    SmallVector<Value> yielded;
    for (Value v : results)
      yielded.push_back(map.lookup(v));
    scf::YieldOp::create(tb, loc, yielded);
  }
  // The partial tile: the original computation.
  {
    Block *otherwise = ifOp.elseBlock();
    OpBuilder eb = OpBuilder::atBlockEnd(otherwise);
    auto yield = scf::YieldOp::create(eb, loc, results);
    for (Operation *op : tile)
      op->moveBefore(yield);
  }
  for (auto [v, r] : llvm::zip(results, ifOp.getResults()))
    v.replaceUsesWithIf(r, [&](OpOperand &use) {
      return terminator->isAncestor(use.getOwner());
    });
  tileDynamicLoopsByOne(*ifOp.elseBlock());
}

struct VersionPartialTilesPass
    : dlc::impl::VersionPartialTilesBase<VersionPartialTilesPass> {
  void runOnOperation() override {
    // Innermost loops first: an outer loop's copy then copies the inner
    // versioned bodies.
    SmallVector<Operation *> loops;
    getOperation().walk([&](Operation *op) {
      if (isa<scf::ForallOp, scf::ForOp>(op))
        loops.push_back(op);
    });
    for (Operation *loop : loops) {
      if (auto forall = dyn_cast<scf::ForallOp>(loop))
        versionBody(*forall.getBody(), forall.getInductionVars(),
                    forall.getBody()->getTerminator());
      else if (auto forOp = dyn_cast<scf::ForOp>(loop))
        versionBody(*forOp.getBody(), forOp.getInductionVar(),
                    forOp.getBody()->getTerminator());
    }
    getOperation().walk([](scf::IfOp op) { op->removeAttr(kFullTiles); });
  }
};

} // namespace
