//===- Bounds.cpp - compile-time bounds of run-time sizes ---------------===//
#include "codegen/common/Bounds.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "llvm/Support/MathExtras.h"

#include <functional>
#include <limits>

using namespace mlir;

namespace {

/// The value-bounds analysis stops at values (and sizes) carried by loops
/// or yielded by branches: it only proves carried values unchanged, and
/// trying to, it compares each carried value again at every level of a
/// loop nest (and each branch's), which takes time exponential in the
/// nest's depth (the loops of NonMaxSuppression over data-dependent numbers
/// of boxes). `interval` sizes carried tensors through their loops and
/// branches itself.
bool stopAtCarriedValues(Value v, std::optional<int64_t>,
                         ValueBoundsConstraintSet &) {
  if (auto result = dyn_cast<OpResult>(v))
    return isa<scf::ForOp, scf::WhileOp, scf::IfOp>(result.getOwner());
  auto arg = cast<BlockArgument>(v);
  Operation *parent = arg.getOwner()->getParentOp();
  if (auto loop = dyn_cast_or_null<scf::ForOp>(parent))
    return arg != loop.getInductionVar();
  return isa_and_nonnull<scf::WhileOp>(parent);
}

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

/// The index value that dimension `d` of `v` was created with (the size of
/// a tensor.empty, of a view, of the destination of the op that computed
/// it), or null.
Value sizeValueOf(Value v, int64_t d, int depth = 16) {
  if (depth == 0)
    return Value();
  // Loops carry values of the shapes they came in with (the frontend checks
  // it for its loops; tile loops insert into theirs, and so do the loops of
  // lowerings): a carried value is sized as its initial value.
  // (A while loop's result and body argument j are its condition's
  // argument j: the before region's argument k, the loop's init k.)
  auto initOfWhile = [](scf::WhileOp loop, unsigned j) -> Value {
    auto arg = dyn_cast<BlockArgument>(loop.getConditionOp().getArgs()[j]);
    if (!arg || arg.getOwner() != &loop.getBefore().front())
      return Value();
    return loop.getInits()[arg.getArgNumber()];
  };
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *parent = arg.getOwner()->getParentOp();
    Value init;
    if (auto loop = dyn_cast_or_null<scf::WhileOp>(parent))
      init = arg.getOwner() == &loop.getBefore().front()
                 ? loop.getInits()[arg.getArgNumber()]
                 : initOfWhile(loop, arg.getArgNumber());
    if (auto loop = dyn_cast_or_null<scf::ForOp>(parent))
      if (OpOperand *tied = loop.getTiedLoopInit(arg))
        init = tied->get();
    return init ? sizeValueOf(init, d, depth - 1) : Value();
  }
  if (auto loop = v.getDefiningOp<scf::WhileOp>()) {
    Value init = initOfWhile(loop, cast<OpResult>(v).getResultNumber());
    return init ? sizeValueOf(init, d, depth - 1) : Value();
  }
  if (auto loop = v.getDefiningOp<scf::ForOp>())
    return sizeValueOf(loop.getInits()[cast<OpResult>(v).getResultNumber()], d,
                       depth - 1);
  Operation *def = v.getDefiningOp();
  if (!def)
    return Value();
  auto result = [](OpFoldResult size) {
    return dyn_cast<Value>(size);
  };
  if (auto empty = dyn_cast<tensor::EmptyOp>(def))
    return empty.getType().isDynamicDim(d) ? empty.getDynamicSize(d)
                                           : Value();
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def))
    return result(expand.getMixedOutputShape()[d]);
  // A collapsed group of one dynamic dimension and units: that dimension.
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def)) {
    std::optional<int64_t> only;
    auto source = collapse.getSrcType();
    // (The indices are a temporary: kept here, not iterated in place.)
    SmallVector<ReassociationIndices> groups =
        collapse.getReassociationIndices();
    for (int64_t s : groups[d]) {
      if (source.isDynamicDim(s)) {
        if (only)
          return Value();
        only = s;
      } else if (source.getDimSize(s) != 1) {
        return Value();
      }
    }
    return only ? sizeValueOf(collapse.getSrc(), *only, depth - 1) : Value();
  }
  if (auto splat = dyn_cast<tensor::SplatOp>(def))
    return splat.getType().isDynamicDim(d)
               ? splat.getDynamicSizes()[splat.getType().getDynamicDimIndex(d)]
               : Value();
  if (auto generate = dyn_cast<tensor::GenerateOp>(def))
    return generate.getType().isDynamicDim(d)
               ? generate.getDynamicExtents()[generate.getType()
                                                  .getDynamicDimIndex(d)]
               : Value();
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def))
    if (slice.getSourceType().getRank() == slice.getType().getRank())
      return result(slice.getMixedSizes()[d]);
  if (auto cast = dyn_cast<tensor::CastOp>(def))
    return sizeValueOf(cast.getSource(), d, depth - 1);
  // Buffers: allocations and views.
  if (auto alloc = dyn_cast<memref::AllocOp>(def))
    return alloc.getType().isDynamicDim(d)
               ? alloc.getDynamicSizes()[alloc.getType().getDynamicDimIndex(d)]
               : Value();
  if (auto expand = dyn_cast<memref::ExpandShapeOp>(def))
    return result(expand.getMixedOutputShape()[d]);
  if (auto view = dyn_cast<memref::SubViewOp>(def))
    if (view.getSourceType().getRank() == view.getType().getRank())
      return result(view.getMixedSizes()[d]);
  if (auto view = dyn_cast<memref::ReinterpretCastOp>(def))
    return result(view.getMixedSizes()[d]);
  if (auto cast = dyn_cast<memref::CastOp>(def))
    return sizeValueOf(cast.getSource(), d, depth - 1);
  // Results of destination-style ops have their destination's sizes (long
  // chains of them, the insertions of a concatenation of many parts, do
  // not count against `depth`).
  if (isa<DestinationStyleOpInterface>(def)) {
    Value dest = v;
    for (int steps = 0; steps < 4096; ++steps) {
      auto op = dest.getDefiningOp<DestinationStyleOpInterface>();
      auto res = dyn_cast<OpResult>(dest);
      if (!op || !res || !op.getTiedOpOperand(res))
        break;
      dest = op.getTiedOpOperand(res)->get();
    }
    if (dest == v || dest.getDefiningOp<DestinationStyleOpInterface>())
      return Value();
    return sizeValueOf(dest, d, depth - 1);
  }
  return Value();
}

/// Interval arithmetic over the integer ops that compute sizes, for what
/// the value-bounds analysis (linear) does not bound: products and
/// quotients of bounded sizes. `depth` limits the walk.
std::optional<Interval> interval(Value v, int depth = 32) {
  if (depth == 0)
    return std::nullopt;
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min(),
                    kMax = std::numeric_limits<int64_t>::max();
  // The bounds of `x` from the analysis and from interval arithmetic, the
  // tighter of each; a side without a bound is infinite.
  auto bounded = [&](Value x) -> std::optional<Interval> {
    FailureOr<int64_t> lo = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::LB, x, stopAtCarriedValues);
    FailureOr<int64_t> hi = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::UB, x, stopAtCarriedValues,
        /*closedUB=*/true);
    Interval r{succeeded(lo) ? *lo : kMin, succeeded(hi) ? *hi : kMax};
    if (r.lo == kMin || r.hi == kMax)
      if (std::optional<Interval> more = interval(x, depth - 1))
        r = Interval{std::max(r.lo, more->lo), std::min(r.hi, more->hi)};
    if (r.lo == kMin && knownNonNegative(x))
      r.lo = 0;
    if (r.lo == kMin && r.hi == kMax)
      return std::nullopt;
    return r;
  };
  // The bounds of `x`, both finite.
  auto finite = [&](Value x) -> std::optional<Interval> {
    std::optional<Interval> r = bounded(x);
    if (!r || r->lo == kMin || r->hi == kMax)
      return std::nullopt;
    return r;
  };
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto cst = getConstantIntValue(v))
    return Interval{*cst, *cst};
  auto both = [&](Value a,
                  Value b) -> std::optional<std::pair<Interval, Interval>> {
    std::optional<Interval> x = finite(a), y = finite(b);
    if (!x || !y)
      return std::nullopt;
    return std::make_pair(*x, *y);
  };
  if (auto op = dyn_cast<arith::MulIOp>(def)) {
    auto xy = both(op.getLhs(), op.getRhs());
    if (!xy || xy->first.lo < 0 || xy->second.lo < 0)
      return std::nullopt;
    Interval r;
    if (llvm::MulOverflow(xy->first.lo, xy->second.lo, r.lo) ||
        llvm::MulOverflow(xy->first.hi, xy->second.hi, r.hi))
      return std::nullopt;
    return r;
  }
  if (isa<arith::AddIOp>(def)) {
    // A sum of many terms (a concatenation of many dynamic parts) is a
    // chain of additions deeper than `depth`: the sum of its terms.
    SmallVector<Value> terms, work{v};
    while (!work.empty()) {
      Value x = work.pop_back_val();
      if (auto add = x.getDefiningOp<arith::AddIOp>()) {
        work.push_back(add.getRhs());
        work.push_back(add.getLhs());
        continue;
      }
      terms.push_back(x);
    }
    Interval sum{0, 0};
    for (Value term : terms) {
      std::optional<Interval> t = finite(term);
      if (!t)
        return std::nullopt;
      if (llvm::AddOverflow(sum.lo, t->lo, sum.lo) ||
          llvm::AddOverflow(sum.hi, t->hi, sum.hi))
        return std::nullopt;
    }
    return sum;
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
  if (auto op = dyn_cast<arith::SubIOp>(def)) {
    auto xy = both(op.getLhs(), op.getRhs());
    if (!xy)
      return std::nullopt;
    Interval r;
    if (llvm::SubOverflow(xy->first.lo, xy->second.hi, r.lo) ||
        llvm::SubOverflow(xy->first.hi, xy->second.lo, r.hi))
      return std::nullopt;
    return r;
  }
  // Minima, maxima and selections (slice bounds clamped to a dimension):
  // sides may be infinite.
  if (isa<arith::MinSIOp, arith::MaxSIOp, arith::SelectOp>(def)) {
    bool select = isa<arith::SelectOp>(def);
    std::optional<Interval> x = bounded(def->getOperand(select ? 1 : 0)),
                            y = bounded(def->getOperand(select ? 2 : 1));
    Interval inf{kMin, kMax};
    Interval a = x.value_or(inf), b = y.value_or(inf);
    Interval r = isa<arith::MinSIOp>(def)
                     ? Interval{std::min(a.lo, b.lo), std::min(a.hi, b.hi)}
                 : isa<arith::MaxSIOp>(def)
                     ? Interval{std::max(a.lo, b.lo), std::max(a.hi, b.hi)}
                     : Interval{std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
    if (r.lo == kMin && r.hi == kMax)
      return std::nullopt;
    return r;
  }
  if (auto op = dyn_cast<arith::IndexCastOp>(def))
    return finite(op.getIn());
  // Affine expressions of bounded operands (sums, products, divisions by
  // positive constants).
  auto evalExpr = [&](AffineExpr root, AffineMap map,
                      ValueRange operands) -> std::optional<Interval> {
    std::function<std::optional<Interval>(AffineExpr)> eval =
        [&](AffineExpr e) -> std::optional<Interval> {
      if (auto c = dyn_cast<AffineConstantExpr>(e))
        return Interval{c.getValue(), c.getValue()};
      if (auto d = dyn_cast<AffineDimExpr>(e))
        return finite(operands[d.getPosition()]);
      if (auto sym = dyn_cast<AffineSymbolExpr>(e))
        return finite(operands[map.getNumDims() + sym.getPosition()]);
      auto bin = dyn_cast<AffineBinaryOpExpr>(e);
      if (!bin)
        return std::nullopt;
      std::optional<Interval> l = eval(bin.getLHS()), r = eval(bin.getRHS());
      if (!l || !r)
        return std::nullopt;
      switch (e.getKind()) {
      case AffineExprKind::Add: {
        Interval s;
        if (llvm::AddOverflow(l->lo, r->lo, s.lo) ||
            llvm::AddOverflow(l->hi, r->hi, s.hi))
          return std::nullopt;
        return s;
      }
      case AffineExprKind::Mul: {
        int64_t p[4];
        if (llvm::MulOverflow(l->lo, r->lo, p[0]) ||
            llvm::MulOverflow(l->lo, r->hi, p[1]) ||
            llvm::MulOverflow(l->hi, r->lo, p[2]) ||
            llvm::MulOverflow(l->hi, r->hi, p[3]))
          return std::nullopt;
        return Interval{*std::min_element(p, p + 4),
                        *std::max_element(p, p + 4)};
      }
      case AffineExprKind::FloorDiv:
      case AffineExprKind::CeilDiv: {
        if (r->lo != r->hi || r->lo <= 0)
          return std::nullopt;
        int64_t q = r->lo;
        bool ceil = e.getKind() == AffineExprKind::CeilDiv;
        auto div = [&](int64_t a) {
          int64_t f = a >= 0 ? a / q : -((-a + q - 1) / q);
          return ceil && f * q != a ? f + 1 : f;
        };
        return Interval{div(l->lo), div(l->hi)};
      }
      default:
        return std::nullopt;
      }
    };
    return eval(root);
  };
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    AffineMap map = apply.getAffineMap();
    if (map.getNumResults() == 1)
      return evalExpr(map.getResult(0), map, apply.getOperands());
    return std::nullopt;
  }
  // Minima and maxima of operands and constants: a minimum is at most any
  // of its entries, a maximum at least any (unbounded sides are infinite).
  if (isa<affine::AffineMinOp, affine::AffineMaxOp>(def)) {
    bool isMin = isa<affine::AffineMinOp>(def);
    AffineMap map = isMin ? cast<affine::AffineMinOp>(def).getMap()
                          : cast<affine::AffineMaxOp>(def).getMap();
    Interval result{isMin ? kMax : kMin, isMin ? kMax : kMin};
    for (AffineExpr e : map.getResults()) {
      std::optional<Interval> r;
      if (auto c = dyn_cast<AffineConstantExpr>(e))
        r = Interval{c.getValue(), c.getValue()};
      else if (auto d = dyn_cast<AffineDimExpr>(e))
        r = bounded(def->getOperand(d.getPosition()));
      else if (auto sym = dyn_cast<AffineSymbolExpr>(e))
        r = bounded(def->getOperand(map.getNumDims() + sym.getPosition()));
      else
        r = evalExpr(e, map, def->getOperands());
      Interval entry = r ? *r : Interval{kMin, kMax};
      result = isMin ? Interval{std::min(result.lo, entry.lo),
                                std::min(result.hi, entry.hi)}
                     : Interval{std::max(result.lo, entry.lo),
                                std::max(result.hi, entry.hi)};
    }
    if (result.lo == kMin && result.hi == kMax)
      return std::nullopt;
    return result;
  }
  // The bounds of a value that sizes a dimension, which is never negative
  // (a bound above is what matters).
  auto sizeInterval = [&](Value size) -> std::optional<Interval> {
    std::optional<Interval> r = bounded(size);
    if (!r || r->hi == kMax)
      return std::nullopt;
    return Interval{std::max<int64_t>(r->lo, 0), std::max<int64_t>(r->hi, 0)};
  };
  // A dimension of a tensor: the size value it was made with; of an
  // scf.if's result, the union of the branches' (each branch yields its own
  // size).
  std::function<std::optional<Interval>(Value, int64_t, int)> dimInterval =
      [&](Value t, int64_t d, int left) -> std::optional<Interval> {
    auto shaped = dyn_cast<ShapedType>(t.getType());
    if (!shaped || left == 0)
      return std::nullopt;
    if (!shaped.isDynamicDim(d))
      return Interval{shaped.getDimSize(d), shaped.getDimSize(d)};
    if (Value size = sizeValueOf(t, d))
      return sizeInterval(size);
    while (auto cast = t.getDefiningOp<CastOpInterface>()) {
      t = cast->getOperand(0);
      if (auto source = dyn_cast<ShapedType>(t.getType());
          source && !source.isDynamicDim(d))
        return Interval{source.getDimSize(d), source.getDimSize(d)};
    }
    if (auto branch = t.getDefiningOp<scf::IfOp>()) {
      if (branch.getElseRegion().empty())
        return std::nullopt;
      unsigned k = cast<OpResult>(t).getResultNumber();
      std::optional<Interval> a = dimInterval(
          branch.thenYield().getOperand(k), d, left - 1);
      std::optional<Interval> b = dimInterval(
          branch.elseYield().getOperand(k), d, left - 1);
      if (!a || !b)
        return std::nullopt;
      return Interval{std::min(a->lo, b->lo), std::max(a->hi, b->hi)};
    }
    if (Value size = sizeValueOf(t, d))
      return sizeInterval(size);
    return std::nullopt;
  };
  if (auto dim = dyn_cast<tensor::DimOp>(def))
    if (std::optional<int64_t> index = dim.getConstantIndex())
      return dimInterval(dim.getSource(), *index, 8);
  if (auto dim = dyn_cast<memref::DimOp>(def))
    if (std::optional<int64_t> index = dim.getConstantIndex())
      return dimInterval(dim.getSource(), *index, 8);
  return std::nullopt;
}

} // namespace

Value dlc::definingSize(Value v, int64_t d) { return sizeValueOf(v, d); }

std::optional<int64_t> dlc::boundedProduct(ArrayRef<int64_t> bounds) {
  int64_t product = 1;
  for (int64_t b : bounds)
    if (llvm::MulOverflow(product, b, product))
      return std::nullopt;
  return product;
}

FailureOr<int64_t> dlc::boundShape(Operation *op, ShapedType type,
                                   ArrayRef<OpFoldResult> sizes,
                                   SmallVectorImpl<int64_t> &bounds) {
  for (auto [d, size] : llvm::enumerate(sizes)) {
    if (std::optional<int64_t> c = getConstantIntValue(size)) {
      bounds.push_back(*c);
      continue;
    }
    std::optional<int64_t> ub = upperBoundOfSize(cast<Value>(size));
    if (!ub || *ub < 0)
      return op->emitError() << "cannot bound dimension " << d << " of " << type
                             << ": its size is not bounded at compile time";
    bounds.push_back(*ub);
  }
  std::optional<int64_t> elements = boundedProduct(bounds);
  if (!elements)
    return op->emitError() << "the upper bounds of " << type
                           << " overflow: its buffer would hold more than "
                              "2^63 elements";
  return *elements;
}

std::optional<int64_t> dlc::lowerBoundOfSize(Value size) {
  FailureOr<int64_t> lb = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::LB, size, stopAtCarriedValues);
  std::optional<Interval> range = interval(size);
  if (range && range->lo == std::numeric_limits<int64_t>::min())
    range.reset();
  if (succeeded(lb) && range)
    return std::max(*lb, range->lo);
  if (succeeded(lb))
    return *lb;
  if (range)
    return range->lo;
  return std::nullopt;
}

std::optional<int64_t> dlc::upperBoundOfSize(Value size) {
  FailureOr<int64_t> ub = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::UB, size, stopAtCarriedValues,
      /*closedUB=*/true);
  // A bound from a clamp to a huge constant (a maximum that is "no
  // maximum") may be loose where interval arithmetic is tight.
  constexpr int64_t kLoose = int64_t(1) << 32;
  if (succeeded(ub) && *ub < kLoose)
    return *ub;
  if (std::optional<Interval> range = interval(size);
      range && range->hi != std::numeric_limits<int64_t>::max())
    return succeeded(ub) ? std::min(*ub, range->hi) : range->hi;
  if (succeeded(ub))
    return *ub;
  if (std::optional<Interval> range = interval(size);
      range && range->hi != std::numeric_limits<int64_t>::max())
    return range->hi;
  return std::nullopt;
}

std::optional<int64_t> dlc::upperBoundOfDim(Value v, int64_t d) {
  auto type = dyn_cast<ShapedType>(v.getType());
  if (!type || !type.hasRank() || d >= type.getRank())
    return std::nullopt;
  if (!type.isDynamicDim(d))
    return type.getDimSize(d);
  if (Value size = definingSize(v, d))
    return upperBoundOfSize(size);
  return std::nullopt;
}
