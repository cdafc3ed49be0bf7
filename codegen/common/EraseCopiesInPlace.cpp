//===- EraseCopiesInPlace.cpp - copies of a buffer onto itself ------------===//
//
// After bufferization, a memref.copy whose source and destination are the
// same memory (views of one buffer at the same offsets and strides, the
// source possibly through the branches of scf.if ops) is erased.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace dlc {
#define GEN_PASS_DEF_ERASECOPIESINPLACE
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// Where a buffer starts: a base buffer and the offsets and strides of a
/// subview of it (none for the base itself).
struct Place {
  Value base;
  SmallVector<OpFoldResult> offsets, strides;
};

Place placeOf(Value v) {
  while (auto cast = v.getDefiningOp<memref::CastOp>())
    v = cast.getSource();
  // (A rank-reducing view drops unit dimensions that another view of the
  // same shape may keep elsewhere: [1, n] and [n, 1] from one start.)
  if (auto view = v.getDefiningOp<memref::SubViewOp>()) {
    if (view.getSourceType().getRank() != view.getType().getRank())
      return {Value(), {}, {}};
    return {view.getSource(), view.getMixedOffsets(), view.getMixedStrides()};
  }
  return {v, {}, {}};
}

bool samePlace(const Place &a, const Place &b) {
  auto equal = [](ArrayRef<OpFoldResult> x, ArrayRef<OpFoldResult> y) {
    return x.size() == y.size() &&
           llvm::all_of(llvm::zip(x, y), [](auto pair) {
             return isEqualConstantIntOrValue(std::get<0>(pair),
                                              std::get<1>(pair));
           });
  };
  return a.base && a.base == b.base && equal(a.offsets, b.offsets) &&
         equal(a.strides, b.strides);
}

/// Whether every buffer `v` may be (each branch of an scf.if that yields
/// it, through casts) starts at `place`.
bool alwaysAt(Value v, const Place &place, int depth = 8) {
  while (auto cast = v.getDefiningOp<memref::CastOp>())
    v = cast.getSource();
  if (auto branch = v.getDefiningOp<scf::IfOp>()) {
    if (depth == 0 || branch.getElseRegion().empty())
      return false;
    unsigned k = cast<OpResult>(v).getResultNumber();
    return alwaysAt(branch.thenYield().getOperand(k), place, depth - 1) &&
           alwaysAt(branch.elseYield().getOperand(k), place, depth - 1);
  }
  return samePlace(placeOf(v), place);
}

struct EraseCopiesInPlacePass
    : dlc::impl::EraseCopiesInPlaceBase<EraseCopiesInPlacePass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      if (alwaysAt(copy.getSource(), placeOf(copy.getTarget())))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies)
      copy.erase();
  }
};
} // namespace
