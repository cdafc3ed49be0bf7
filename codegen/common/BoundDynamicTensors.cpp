//===- BoundDynamicTensors.cpp - dynamic tensors in bounded buffers -------===//
#include "codegen/common/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

namespace dlc {
#define GEN_PASS_DEF_BOUNDDYNAMICTENSORS
#include "codegen/common/Passes.h.inc"
} // namespace dlc

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

/// The largest value `size` takes, or nullopt.
std::optional<int64_t> upperBound(Value size) {
  FailureOr<int64_t> ub = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::UB, size, /*stopCondition=*/nullptr,
      /*closedUB=*/true);
  if (succeeded(ub))
    return *ub;
  if (std::optional<Interval> range = interval(size))
    return range->hi;
  return std::nullopt;
}

struct BoundDynamicTensorsPass
    : dlc::impl::BoundDynamicTensorsBase<BoundDynamicTensorsPass> {
  void runOnOperation() override {
    SmallVector<tensor::EmptyOp> empties;
    getOperation().walk([&](tensor::EmptyOp op) {
      if (!op.getType().hasStaticShape())
        empties.push_back(op);
    });
    for (tensor::EmptyOp op : empties) {
      RankedTensorType type = op.getType();
      SmallVector<int64_t> bounds;
      SmallVector<OpFoldResult> sizes = op.getMixedSizes();
      for (auto [d, size] : llvm::enumerate(sizes)) {
        if (!type.isDynamicDim(d)) {
          bounds.push_back(type.getDimSize(d));
          continue;
        }
        std::optional<int64_t> ub = upperBound(cast<Value>(size));
        if (!ub || *ub < 0) {
          op.emitError() << "cannot bound dimension " << d << " of " << type
                         << ": its size is not bounded at compile time";
          return signalPassFailure();
        }
        bounds.push_back(*ub);
      }
      OpBuilder b(op);
      Value full = tensor::EmptyOp::create(b, op.getLoc(), bounds,
                                           type.getElementType());
      SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0)),
          strides(type.getRank(), b.getIndexAttr(1));
      Value slice = tensor::ExtractSliceOp::create(b, op.getLoc(), type, full,
                                                   offsets, sizes, strides);
      op.replaceAllUsesWith(slice);
      op.erase();
    }
  }
};
} // namespace
