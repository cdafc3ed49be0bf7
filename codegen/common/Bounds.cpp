//===- Bounds.cpp - compile-time bounds of run-time sizes
//------------------===//
#include "codegen/common/Bounds.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

using namespace mlir;

namespace {

/// A closed interval of index values.
struct Interval {
  int64_t lo, hi;
};

/// Whether `v` is never negative: a dimension size, a non-negative
/// constant, or the minimum or maximum of such.
bool knownNonNegative(Value v, int depth = 8) {
  if (depth == 0)
    return false;
  if (auto cst = getConstantIntValue(v))
    return *cst >= 0;
  Operation *def = v.getDefiningOp();
  if (isa_and_nonnull<tensor::DimOp, memref::DimOp>(def))
    return true;
  // A maximum with a non-negative constant.
  if (auto max = dyn_cast_or_null<affine::AffineMaxOp>(def))
    if (llvm::any_of(max.getMap().getResults(), [](AffineExpr e) {
          auto c = dyn_cast<AffineConstantExpr>(e);
          return c && c.getValue() >= 0;
        }))
      return true;
  if (isa_and_nonnull<affine::AffineMinOp, affine::AffineMaxOp>(def)) {
    AffineMap map = isa<affine::AffineMinOp>(def)
                        ? cast<affine::AffineMinOp>(def).getMap()
                        : cast<affine::AffineMaxOp>(def).getMap();
    for (AffineExpr e : map.getResults()) {
      auto c = dyn_cast<AffineConstantExpr>(e);
      if (!isa<AffineDimExpr, AffineSymbolExpr>(e) && !(c && c.getValue() >= 0))
        return false;
    }
    return llvm::all_of(def->getOperands(), [&](Value operand) {
      return knownNonNegative(operand, depth - 1);
    });
  }
  return false;
}

/// Interval arithmetic over the integer ops that compute sizes, for what
/// the value-bounds analysis (linear) does not bound: products and
/// quotients of bounded sizes. `depth` limits the walk.
std::optional<Interval> interval(Value v, int depth = 32) {
  if (depth == 0)
    return std::nullopt;
  auto bounded = [&](Value x) -> std::optional<Interval> {
    FailureOr<int64_t> lo = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::LB, x);
    FailureOr<int64_t> hi = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::UB, x, /*stopCondition=*/nullptr,
        /*closedUB=*/true);
    if (succeeded(hi) && (succeeded(lo) || knownNonNegative(x)))
      return Interval{succeeded(lo) ? *lo : 0, *hi};
    return interval(x, depth - 1);
  };
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto cst = getConstantIntValue(v))
    return Interval{*cst, *cst};
  auto both = [&](Value a,
                  Value b) -> std::optional<std::pair<Interval, Interval>> {
    std::optional<Interval> x = bounded(a), y = bounded(b);
    if (!x || !y)
      return std::nullopt;
    return std::make_pair(*x, *y);
  };
  if (auto op = dyn_cast<arith::MulIOp>(def)) {
    auto xy = both(op.getLhs(), op.getRhs());
    if (!xy || xy->first.lo < 0 || xy->second.lo < 0)
      return std::nullopt;
    return Interval{xy->first.lo * xy->second.lo, xy->first.hi * xy->second.hi};
  }
  if (auto op = dyn_cast<arith::AddIOp>(def)) {
    auto xy = both(op.getLhs(), op.getRhs());
    if (!xy)
      return std::nullopt;
    return Interval{xy->first.lo + xy->second.lo, xy->first.hi + xy->second.hi};
  }
  if (isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp,
          arith::CeilDivSIOp, arith::CeilDivUIOp>(def)) {
    auto xy = both(def->getOperand(0), def->getOperand(1));
    if (!xy || xy->first.lo < 0 || xy->second.lo <= 0)
      return std::nullopt;
    bool ceil = isa<arith::CeilDivSIOp, arith::CeilDivUIOp>(def);
    auto div = [&](int64_t a, int64_t b) {
      return ceil ? (a + b - 1) / b : a / b;
    };
    return Interval{div(xy->first.lo, xy->second.hi),
                    div(xy->first.hi, xy->second.lo)};
  }
  if (auto op = dyn_cast<arith::IndexCastOp>(def))
    return bounded(op.getIn());
  return std::nullopt;
}

} // namespace

std::optional<int64_t> dlc::upperBoundOfSize(Value size) {
  FailureOr<int64_t> ub = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::UB, size, /*stopCondition=*/nullptr,
      /*closedUB=*/true);
  if (succeeded(ub))
    return *ub;
  if (std::optional<Interval> range = interval(size))
    return range->hi;
  return std::nullopt;
}
