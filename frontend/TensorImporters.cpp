//===- TensorImporters.cpp - reductions, shapes and data movement ---------===//
#include "frontend/DynamicBatch.h"
#include "frontend/NodeImporter.h"
#include "frontend/ShapeValues.h"
#include "ir/DlcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <algorithm>

#include <cstdint>
#include <limits>

using namespace mlir;
using namespace dlc;

namespace {

NodeResults constantOf(NodeContext &nc, DenseElementsAttr value) {
  Value v = ConstantOp::create(nc.builder, nc.loc, value);
  return SmallVector<Value>{v};
}

NodeResults i64Constant(NodeContext &nc, ArrayRef<int64_t> shape,
                        ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get(shape, nc.builder.getI64Type());
  return constantOf(nc, DenseElementsAttr::get(type, values));
}

/// Axes from the `axes` attribute (before `inputFromOpset`) or the constant
/// input `index`; nullopt (with an error) when an input is not constant.
FailureOr<std::optional<SmallVector<int64_t>>>
readAxes(NodeContext &nc, int64_t inputFromOpset, size_t index) {
  if (nc.opset < inputFromOpset) {
    if (auto axes = nc.intsAttr("axes"))
      return std::optional<SmallVector<int64_t>>(*axes);
    return std::optional<SmallVector<int64_t>>();
  }
  if (!nc.operand(index))
    return std::optional<SmallVector<int64_t>>();
  auto axes = nc.constantInts(index);
  if (!axes)
    return nc.error() << "the axes input must be a constant", failure();
  return std::optional<SmallVector<int64_t>>(*axes);
}

NodeResults importReduce(NodeContext &nc, StringRef kind) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  Value x = nc.operand(0);
  int64_t rank = typeOf(x).getRank();
  if (!isa<FloatType>(typeOf(x).getElementType()) &&
      (kind == "mean" || kind == "l2" || kind == "log_sum" ||
       kind == "log_sum_exp"))
    return nc.error() << "integer inputs are not supported for this "
                         "reduction (floating point only)",
           failure();
  int64_t inputFrom = kind == "sum" ? 13 : 18;
  auto axes = readAxes(nc, inputFrom, 1);
  if (failed(axes))
    return failure();
  SmallVector<int64_t> resolved;
  if (!*axes || (*axes)->empty()) {
    if (nc.intAttr("noop_with_empty_axes", 0))
      return SmallVector<Value>{x};
    for (int64_t d = 0; d < rank; ++d)
      resolved.push_back(d);
  } else {
    auto n = normalizeAxes(nc, **axes, rank);
    if (failed(n))
      return failure();
    resolved = *n;
  }
  OpBuilder &b = nc.builder;
  return buildInferred<ReduceOp>(
      nc, {x},
      {b.getNamedAttr("kind", b.getStringAttr(kind)),
       b.getNamedAttr("axes", b.getDenseI64ArrayAttr(resolved)),
       b.getNamedAttr("keepdims", b.getBoolAttr(nc.intAttr("keepdims", 1)))});
}

template <bool IsMax>
NodeResults importArgReduce(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  auto axis = normalizeAxis(nc, nc.intAttr("axis", 0),
                            typeOf(nc.operand(0)).getRank());
  if (failed(axis))
    return failure();
  OpBuilder &b = nc.builder;
  return buildInferred<ArgReduceOp>(
      nc, {nc.operand(0)},
      {b.getNamedAttr("is_max", b.getBoolAttr(IsMax)),
       b.getNamedAttr("axis", b.getI64IntegerAttr(*axis)),
       b.getNamedAttr("keepdims", b.getBoolAttr(nc.intAttr("keepdims", 1))),
       b.getNamedAttr("select_last_index",
                      b.getBoolAttr(nc.intAttr("select_last_index", 0)))});
}

/// ONNX's clamping of a slice bound `x` along a dimension of size `n`
/// (index values): negative bounds count from the end; the result is in
/// [0, n].
Value clampSliceBound(OpBuilder &b, Location loc, Value x, Value n) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value negative =
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, x, zero);
  x = b.createOrFold<arith::SelectOp>(
      loc, negative, b.createOrFold<arith::AddIOp>(loc, x, n), x);
  x = b.createOrFold<arith::MaxSIOp>(loc, x, zero);
  return b.createOrFold<arith::MinSIOp>(loc, x, n);
}

/// Slice of a tensor with dynamic dimensions, or with starts and ends
/// known at run time only (computed from shapes), as a tensor.extract_slice
/// sized at run time. Positive steps only.
NodeResults importDynamicSlice(NodeContext &nc, ArrayRef<OpFoldResult> starts,
                               ArrayRef<OpFoldResult> ends,
                               ArrayRef<int64_t> axes,
                               ArrayRef<int64_t> steps) {
  OpBuilder &b = nc.builder;
  Location loc = nc.loc;
  Value x = nc.operand(0);
  auto t = typeOf(x);
  int64_t rank = t.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes,
      strides(rank, b.getIndexAttr(1));
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(
        t.isDynamicDim(d)
            ? OpFoldResult(tensor::DimOp::create(b, loc, x, d).getResult())
            : OpFoldResult(b.getIndexAttr(t.getDimSize(d))));
  SmallVector<int64_t> seen;
  for (size_t i = 0; i < starts.size(); ++i) {
    auto axis = normalizeAxis(nc, axes[i], rank);
    if (failed(axis))
      return failure();
    if (llvm::is_contained(seen, *axis))
      return nc.error() << "axis " << axes[i] << " appears twice", failure();
    seen.push_back(*axis);
    int64_t step = steps[i];
    if (step <= 0)
      return nc.error() << "step " << step
                        << " over a dimension or bound known at run time "
                           "only is not supported yet (positive steps are)",
             failure();
    Value n = getValueOrCreateConstantIndexOp(b, loc, sizes[*axis]);
    // "To the end" (a bound at or past INT32_MAX) is the dimension.
    auto bound = [&](OpFoldResult e, bool isEnd) -> Value {
      if (auto attr = dyn_cast<Attribute>(e)) {
        int64_t v = cast<IntegerAttr>(attr).getInt();
        if (isEnd && v >= INT32_MAX)
          return n;
        if (v <= INT32_MIN)
          return arith::ConstantIndexOp::create(b, loc, 0);
      }
      return clampSliceBound(b, loc, indexValueOf(b, loc, e), n);
    };
    Value s = bound(starts[i], false), e = bound(ends[i], true);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value size = b.createOrFold<arith::SubIOp>(loc, e, s);
    if (step != 1)
      size = b.createOrFold<arith::CeilDivSIOp>(
          loc, size, arith::ConstantIndexOp::create(b, loc, step));
    size = b.createOrFold<arith::MaxSIOp>(loc, size, zero);
    offsets[*axis] = getAsOpFoldResult(s);
    sizes[*axis] = getAsOpFoldResult(size);
    strides[*axis] = b.getIndexAttr(step);
  }
  SmallVector<int64_t> shape;
  for (OpFoldResult size : sizes)
    shape.push_back(getConstantIntValue(size).value_or(ShapedType::kDynamic));
  Value slice = tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(shape, t.getElementType()), x, offsets,
      sizes, strides);
  return SmallVector<Value>{slice};
}

NodeResults importSlice(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  Value x = nc.operand(0);
  auto t = typeOf(x);
  int64_t rank = t.getRank();
  SmallVector<int64_t> starts, ends, axes, steps;
  // Starts and ends known at run time only (computed from shapes).
  std::optional<SmallVector<OpFoldResult>> runStarts, runEnds;
  if (nc.opset < 10) {
    starts = nc.intsAttr("starts").value_or(SmallVector<int64_t>{});
    ends = nc.intsAttr("ends").value_or(SmallVector<int64_t>{});
    axes = nc.intsAttr("axes").value_or(SmallVector<int64_t>{});
  } else {
    auto s = nc.constantInts(1), e = nc.constantInts(2);
    if (s && e) {
      starts = *s;
      ends = *e;
    } else {
      runStarts = shapeElements(nc.operand(1));
      runEnds = shapeElements(nc.operand(2));
      if (!runStarts || !runEnds)
        return nc.error() << "starts and ends must be constants or computed "
                             "from tensor shapes",
               failure();
    }
    if (nc.operand(3)) {
      auto a = nc.constantInts(3);
      if (!a)
        return nc.error() << "axes must be a constant", failure();
      axes = *a;
    }
    if (nc.operand(4)) {
      auto st = nc.constantInts(4);
      if (!st)
        return nc.error() << "steps must be a constant", failure();
      steps = *st;
    }
  }
  size_t count = runStarts ? runStarts->size() : starts.size();
  size_t endCount = runEnds ? runEnds->size() : ends.size();
  if (axes.empty())
    for (size_t i = 0; i < count; ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(count, 1);
  if (endCount != count || axes.size() != count || steps.size() != count)
    return nc.error() << "starts, ends, axes and steps differ in length",
           failure();
  if (runStarts || !t.hasStaticShape()) {
    if (!runStarts) {
      Builder attrs(nc.builder.getContext());
      runStarts.emplace();
      runEnds.emplace();
      for (auto [a, b] : llvm::zip(starts, ends)) {
        runStarts->push_back(attrs.getI64IntegerAttr(a));
        runEnds->push_back(attrs.getI64IntegerAttr(b));
      }
    }
    return importDynamicSlice(nc, *runStarts, *runEnds, axes, steps);
  }
  SmallVector<int64_t> outStarts(rank, 0), outSteps(rank, 1),
      shape(t.getShape()), clamped;
  for (size_t i = 0; i < starts.size(); ++i) {
    auto axis = normalizeAxis(nc, axes[i], rank);
    if (failed(axis))
      return failure();
    int64_t n = t.getDimSize(*axis), step = steps[i];
    if (step == 0)
      return nc.error() << "step 0 is invalid", failure();
    int64_t s = starts[i], e = ends[i];
    if (s < 0)
      s = std::max<int64_t>(s, -n) + n;
    if (e < 0)
      e = std::max<int64_t>(e, -n - 1) + n;
    int64_t size;
    // A bound past the end (not the "to the end" INT_MAX idiom) is cut to
    // the dimension: the slice then depends on the dimension's size.
    if ((e > n && e < INT32_MAX) || (s > n && s < INT32_MAX))
      clamped.push_back(*axis);
    if (step > 0) {
      s = std::clamp<int64_t>(s, 0, n);
      e = std::clamp<int64_t>(e, 0, n);
      size = e > s ? (e - s + step - 1) / step : 0;
    } else {
      s = std::clamp<int64_t>(s, 0, n - 1);
      e = std::clamp<int64_t>(e, -1, n - 1);
      size = s > e ? (s - e - step - 1) / -step : 0;
    }
    outStarts[*axis] = size ? s : 0;
    outSteps[*axis] = step;
    shape[*axis] = size;
  }
  OpBuilder &b = nc.builder;
  NodeResults results = buildTyped<SliceOp>(
      nc, RankedTensorType::get(shape, t.getElementType()), x,
      {b.getNamedAttr("starts", b.getDenseI64ArrayAttr(outStarts)),
       b.getNamedAttr("steps", b.getDenseI64ArrayAttr(outSteps))});
  // For the dynamic-batch check (frontend/DynamicBatch.h); the importer
  // takes the attribute off again.
  if (succeeded(results) && !clamped.empty())
    if (Operation *op = (*results)[0].getDefiningOp())
      op->setAttr(kClampedAxesAttr, b.getDenseI64ArrayAttr(clamped));
  return results;
}

NodeResults importGather(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)))
    return failure();
  auto axis = normalizeAxis(nc, nc.intAttr("axis", 0),
                            typeOf(nc.operand(0)).getRank());
  if (failed(axis))
    return failure();
  return buildInferred<GatherOp>(
      nc, {nc.operand(0), nc.operand(1)},
      {nc.builder.getNamedAttr("axis", nc.builder.getI64IntegerAttr(*axis))});
}

NodeResults importSqueeze(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  auto t = typeOf(nc.operand(0));
  auto axes = readAxes(nc, 13, 1);
  if (failed(axes))
    return failure();
  SmallVector<int64_t> remove;
  if (*axes) {
    auto n = normalizeAxes(nc, **axes, t.getRank());
    if (failed(n))
      return failure();
    remove = *n;
  } else {
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (t.getDimSize(d) == 1)
        remove.push_back(d);
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < t.getRank(); ++d) {
    if (!llvm::is_contained(remove, d)) {
      shape.push_back(t.getDimSize(d));
    } else if (t.getDimSize(d) != 1) {
      return nc.error() << "cannot squeeze dimension " << d << " of size "
                        << t.getDimSize(d),
             failure();
    }
  }
  return reshapeTo(nc, nc.operand(0), shape);
}

NodeResults importUnsqueeze(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  auto t = typeOf(nc.operand(0));
  auto axes = readAxes(nc, 13, 1);
  if (failed(axes))
    return failure();
  if (!*axes)
    return nc.error() << "missing axes", failure();
  int64_t outRank = t.getRank() + (*axes)->size();
  auto n = normalizeAxes(nc, **axes, outRank);
  if (failed(n))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d = 0, src = 0; d < outRank; ++d)
    shape.push_back(llvm::is_contained(*n, d) ? 1 : t.getDimSize(src++));
  return reshapeTo(nc, nc.operand(0), shape);
}

NodeResults importExpand(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)))
    return failure();
  auto t = typeOf(nc.operand(0));
  auto shape = nc.constantInts(1);
  if (!shape)
    return nc.error() << "the shape input must be a constant", failure();
  if (typeOf(nc.operand(1)).getRank() != 1)
    return nc.error() << "the shape input must be 1-D, not "
                      << typeOf(nc.operand(1)),
           failure();
  for (int64_t d : *shape)
    if (d < 0)
      return nc.error() << "the shape's entry " << d << " is negative",
             failure();
  SmallVector<int64_t> out;
  if (failed(broadcastShapes(t.getShape(), *shape, out)))
    return nc.error() << "cannot expand " << t << " to the given shape",
           failure();
  auto type = RankedTensorType::get(out, t.getElementType());
  if (type == t)
    return SmallVector<Value>{nc.operand(0)};
  // A splat (an initial state of zeros) stays a constant at any size.
  if (auto cst = nc.operand(0).getDefiningOp<ConstantOp>())
    if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
        dense && dense.isSplat())
      return constantOf(nc, DenseElementsAttr::get(
                                type, dense.getSplatValue<Attribute>()));
  return buildTyped<ExpandOp>(nc, type, nc.operand(0));
}

NodeResults importTile(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)))
    return failure();
  auto t = typeOf(nc.operand(0));
  auto repeats = nc.constantInts(1);
  if (!repeats || (int64_t)repeats->size() != t.getRank())
    return nc.error() << "repeats must be a constant with one entry per "
                         "dimension",
           failure();
  if (llvm::any_of(*repeats, [](int64_t r) { return r < 0; }))
    return nc.error() << "repeats must not be negative", failure();
  if (!t.hasStaticShape()) {
    // Dynamic dimensions: each repeated axis is a concatenation of copies.
    Value v = nc.operand(0);
    for (int64_t d = 0; d < t.getRank(); ++d) {
      int64_t r = (*repeats)[d];
      if (r == 1)
        continue;
      if (r == 0)
        return nc.error() << "repeats of 0 over the dynamic shape " << t
                          << " are not supported",
               failure();
      SmallVector<Value> copies(r, v);
      v = one(buildInferred<ConcatOp>(
          nc, copies,
          {nc.builder.getNamedAttr("axis", nc.builder.getI64IntegerAttr(d))}));
      if (!v)
        return failure();
    }
    return SmallVector<Value>{v};
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < t.getRank(); ++d)
    shape.push_back(t.getDimSize(d) * (*repeats)[d]);
  return buildTyped<TileOp>(nc, RankedTensorType::get(shape, t.getElementType()),
                            nc.operand(0));
}

NodeResults importPad(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  auto t = typeOf(nc.operand(0));
  int64_t rank = t.getRank();
  std::string mode = nc.stringAttr("mode", "constant");
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    return nc.error() << "pad mode '" << mode << "' is not supported "
                      << "(constant, edge, reflect)",
           failure();
  SmallVector<int64_t> pads;
  double value = 0;
  if (nc.opset < 11) {
    pads = nc.intsAttr("pads").value_or(SmallVector<int64_t>{});
    value = nc.floatAttr("value", 0);
  } else {
    auto p = nc.constantInts(1);
    if (!p)
      return nc.error() << "pads must be a constant", failure();
    pads = *p;
    if (nc.operand(2)) {
      auto v = nc.constantScalar(2);
      if (!v)
        return nc.error() << "constant_value must be a constant", failure();
      value = *v;
    }
    if (nc.operand(3)) {
      auto axes = nc.constantInts(3);
      if (!axes)
        return nc.error() << "axes must be a constant", failure();
      auto n = normalizeAxes(nc, *axes, rank);
      if (failed(n))
        return failure();
      SmallVector<int64_t> full(2 * rank, 0);
      for (auto [i, a] : llvm::enumerate(*axes)) {
        int64_t axis = a < 0 ? a + rank : a;
        full[axis] = pads[i];
        full[rank + axis] = pads[axes->size() + i];
      }
      pads = full;
    }
  }
  if ((int64_t)pads.size() != 2 * rank)
    return nc.error() << "expected " << 2 * rank << " pads, got "
                      << pads.size(),
           failure();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (pads[d] < 0 || pads[rank + d] < 0)
      return nc.error() << "negative pads are not supported", failure();
    shape.push_back(t.isDynamicDim(d)
                        ? ShapedType::kDynamic
                        : t.getDimSize(d) + pads[d] + pads[rank + d]);
  }
  if (mode != "constant") {
    // Each padded axis is one Gather with a constant table of source
    // positions: the nearest edge element, or the mirror image without the
    // edge (reflect).
    Value v = nc.operand(0);
    for (int64_t d = 0; d < rank; ++d) {
      int64_t before = pads[d], after = pads[rank + d], n = t.getDimSize(d);
      if (!before && !after)
        continue;
      if (ShapedType::isDynamic(n)) {
        // The table of source positions at run time (positions that the
        // size cannot mirror, which ONNX forbids, are clamped to it).
        OpBuilder &b = nc.builder;
        Location loc = nc.loc;
        Value size = tensor::DimOp::create(b, loc, v, d);
        Value total = arith::AddIOp::create(
            b, loc, size,
            arith::ConstantIndexOp::create(b, loc, before + after));
        bool edge = mode == "edge";
        Value table = tensor::GenerateOp::create(
            b, loc,
            RankedTensorType::get({ShapedType::kDynamic}, b.getI64Type()),
            ValueRange{total}, [&](OpBuilder &gb, Location l, ValueRange ivs) {
              Type i64 = gb.getI64Type();
              auto c = [&](int64_t k) -> Value {
                return arith::ConstantIntOp::create(gb, l, i64, k);
              };
              Value n64 = arith::IndexCastOp::create(gb, l, i64, size);
              Value last = arith::SubIOp::create(gb, l, n64, c(1));
              Value j = arith::SubIOp::create(
                  gb, l, arith::IndexCastOp::create(gb, l, i64, ivs[0]),
                  c(before));
              if (!edge) {
                using P = arith::CmpIPredicate;
                Value neg = arith::CmpIOp::create(gb, l, P::slt, j, c(0));
                Value past = arith::CmpIOp::create(gb, l, P::sgt, j, last);
                j = arith::SelectOp::create(
                    gb, l, neg, arith::SubIOp::create(gb, l, c(0), j),
                    arith::SelectOp::create(
                        gb, l, past,
                        arith::SubIOp::create(
                            gb, l, arith::MulIOp::create(gb, l, last, c(2)), j),
                        j));
              }
              j = arith::MaxSIOp::create(
                  gb, l, arith::MinSIOp::create(gb, l, j, last), c(0));
              tensor::YieldOp::create(gb, l, j);
            });
        v = one(importAs(nc, "Gather", {v, table}, {intAttribute("axis", d)}));
        if (!v)
          return failure();
        continue;
      }
      if (n == 0 || (mode == "reflect" && (before > n - 1 || after > n - 1)))
        return nc.error() << "pads " << before << " and " << after
                          << " of dimension " << d << " (size " << n
                          << ") do not fit " << mode << " mode",
               failure();
      SmallVector<int64_t> source;
      for (int64_t i = -before; i < n + after; ++i)
        source.push_back(mode == "edge" ? std::clamp<int64_t>(i, 0, n - 1)
                         : i < 0        ? -i
                         : i >= n       ? 2 * (n - 1) - i
                                        : i);
      Value table =
          int64Constant(nc.builder, nc.loc, {(int64_t)source.size()}, source);
      v = one(importAs(nc, "Gather", {v, table}, {intAttribute("axis", d)}));
      if (!v)
        return failure();
    }
    return SmallVector<Value>{v};
  }
  OpBuilder &b = nc.builder;
  return buildTyped<PadOp>(nc, RankedTensorType::get(shape, t.getElementType()),
                           nc.operand(0),
                           {b.getNamedAttr("pads", b.getDenseI64ArrayAttr(pads)),
                            b.getNamedAttr("value", b.getF64FloatAttr(value))});
}

NodeResults importShape(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  auto t = typeOf(nc.operand(0));
  int64_t rank = t.getRank();
  int64_t start = nc.intAttr("start", 0), end = nc.intAttr("end", rank);
  if (start < 0)
    start += rank;
  if (end < 0)
    end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  ArrayRef<int64_t> dims = t.getShape().slice(start, end - start);
  bool dynamic = llvm::any_of(dims, ShapedType::isDynamic);
  if (!dynamic)
    return i64Constant(nc, {(int64_t)dims.size()}, dims);
  // Sizes known at run time only: the dimensions' values.
  SmallVector<Value> values;
  for (int64_t d = start; d < end; ++d)
    values.push_back(
        t.isDynamicDim(d)
            ? Value(arith::IndexCastOp::create(
                  nc.builder, nc.loc, nc.builder.getI64Type(),
                  tensor::DimOp::create(nc.builder, nc.loc, nc.operand(0), d)))
            : Value(arith::ConstantOp::create(
                  nc.builder, nc.loc,
                  nc.builder.getI64IntegerAttr(t.getDimSize(d)))));
  Value shape = tensor::FromElementsOp::create(
      nc.builder, nc.loc,
      RankedTensorType::get({(int64_t)values.size()}, nc.builder.getI64Type()),
      values);
  return SmallVector<Value>{shape};
}

NodeResults importSize(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  auto t = typeOf(nc.operand(0));
  if (t.hasStaticShape())
    return i64Constant(nc, {}, {t.getNumElements()});
  Value n = arith::IndexCastOp::create(
      nc.builder, nc.loc, nc.builder.getI64Type(),
      numElementsOf(nc, nc.operand(0), 0, t.getRank()));
  Value size = tensor::FromElementsOp::create(
      nc.builder, nc.loc, RankedTensorType::get({}, nc.builder.getI64Type()),
      ValueRange{n});
  return SmallVector<Value>{size};
}

NodeResults importConstantOfShape(NodeContext &nc) {
  auto shape = nc.constantInts(0);
  // A shape computed from run-time sizes (Shape, Gather, Concat, ...): a
  // splat of run-time shape.
  std::optional<SmallVector<OpFoldResult>> elements;
  if (!shape && nc.operand(0))
    elements = shapeElements(nc.operand(0));
  if (!shape && !elements)
    return nc.error() << "the shape input must be a constant or computed "
                         "from tensor shapes (Shape, Gather, Concat, integer "
                         "arithmetic)",
           failure();
  MLIRContext *ctx = nc.builder.getContext();
  Attribute scalar = nc.builder.getF32FloatAttr(0);
  Type et = nc.builder.getF32Type();
  if (const auto *a = nc.attr("value")) {
    std::string error;
    ElementsAttr v = convertTensor(ctx, a->t(), error);
    auto dense = dyn_cast_or_null<DenseElementsAttr>(v);
    if (!dense || dense.getNumElements() != 1)
      return nc.error() << "value must be a one-element tensor", failure();
    et = dense.getElementType();
    scalar = *dense.getValues<Attribute>().begin();
  }
  if (!shape) {
    SmallVector<int64_t> dims;
    SmallVector<Value> sizes;
    for (OpFoldResult e : *elements) {
      if (auto attr = dyn_cast<Attribute>(e)) {
        int64_t d = cast<IntegerAttr>(attr).getInt();
        if (d < 0)
          return nc.error() << "the shape has a negative size " << d,
                 failure();
        dims.push_back(d);
        continue;
      }
      dims.push_back(ShapedType::kDynamic);
      sizes.push_back(indexValueOf(nc.builder, nc.loc, e));
    }
    Value value = arith::ConstantOp::create(nc.builder, nc.loc,
                                            cast<TypedAttr>(scalar));
    return SmallVector<Value>{tensor::SplatOp::create(
        nc.builder, nc.loc, value, RankedTensorType::get(dims, et), sizes)};
  }
  return constantOf(nc, DenseElementsAttr::get(
                            RankedTensorType::get(*shape, et), scalar));
}

NodeResults importRange(NodeContext &nc) {
  if (failed(requireOperands(nc, 3)))
    return failure();
  Type et = typeOf(nc.operand(0)).getElementType();
  auto start = nc.constantScalar(0), limit = nc.constantScalar(1),
       delta = nc.constantScalar(2);
  if (!start || !limit || !delta || *delta == 0)
    return nc.error() << "start, limit and delta must be constants (delta "
                         "non-zero)",
           failure();
  int64_t n = std::max<int64_t>(
      0, (int64_t)std::ceil((*limit - *start) / *delta));
  SmallVector<Attribute> values;
  for (int64_t i = 0; i < n; ++i) {
    double v = *start + i * *delta;
    values.push_back(isa<FloatType>(et) ? Attribute(nc.builder.getFloatAttr(et, v))
                                        : Attribute(nc.builder.getIntegerAttr(
                                              et, (int64_t)v)));
  }
  return constantOf(nc,
                    DenseElementsAttr::get(RankedTensorType::get({n}, et), values));
}

NodeResults importDropout(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  if (nc.operand(2)) {
    auto training = nc.constantInts(2);
    if (!training)
      return nc.error() << "training_mode must be a constant", failure();
    // Training with a ratio of 0 keeps every element, as inference does;
    // other ratios draw random masks.
    std::optional<double> ratio =
        nc.operand(1) ? nc.constantScalar(1) : std::optional<double>(0.5);
    if (!training->empty() && (*training)[0] && (!ratio || *ratio != 0.0))
      return nc.error() << "training mode with a ratio other than 0 (random "
                           "masks) is not supported",
             failure();
  }
  if (nc.opset < 7 && nc.intAttr("is_test", 0) == 0)
    return nc.error() << "training mode is not supported", failure();
  // Inference keeps every element: the ratio (an attribute before opset 12)
  // and the seed of the masks do not change the result.
  nc.acknowledgeAttr("ratio");
  nc.acknowledgeAttr("seed");
  // Inference: the identity, and a mask that keeps everything.
  auto t = typeOf(nc.operand(0));
  auto maskType = RankedTensorType::get(t.getShape(), nc.builder.getI1Type());
  if (!t.hasStaticShape()) {
    SmallVector<Value> sizes =
        dynamicSizesOf(nc, nc.operand(0), 0, t.getRank());
    Value yes = arith::ConstantOp::create(nc.builder, nc.loc,
                                          nc.builder.getBoolAttr(true));
    return SmallVector<Value>{
        nc.operand(0),
        tensor::SplatOp::create(nc.builder, nc.loc, yes, maskType, sizes)};
  }
  return SmallVector<Value>{
      nc.operand(0),
      ConstantOp::create(nc.builder, nc.loc,
                         DenseElementsAttr::get(maskType, true))};
}

NodeResults importGatherElements(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)))
    return failure();
  auto t = typeOf(nc.operand(0)), idx = typeOf(nc.operand(1));
  auto axis = normalizeAxis(nc, nc.intAttr("axis", 0), t.getRank());
  if (failed(axis))
    return failure();
  if (idx.getRank() != t.getRank())
    return nc.error() << "indices must have the input's rank", failure();
  return buildTyped<GatherElementsOp>(
      nc, RankedTensorType::get(idx.getShape(), t.getElementType()),
      {nc.operand(0), nc.operand(1)},
      {nc.builder.getNamedAttr("axis", nc.builder.getI64IntegerAttr(*axis))});
}

/// Trilu keeps the upper (or lower) triangle of the last two dims: a
/// compile-time mask and a Where.
NodeResults importTrilu(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  auto t = typeOf(nc.operand(0));
  if (t.getRank() < 2)
    return nc.error() << "input must have rank >= 2", failure();
  int64_t k = 0;
  if (nc.operand(1)) {
    auto kv = nc.constantInts(1);
    if (!kv || kv->size() != 1)
      return nc.error() << "k must be a constant scalar", failure();
    k = (*kv)[0];
  }
  bool upper = nc.intAttr("upper", 1);
  int64_t rows = t.getDimSize(t.getRank() - 2), cols = t.getDimSize(t.getRank() - 1);
  OpBuilder &b = nc.builder;
  Type et = t.getElementType();
  if (ShapedType::isDynamic(rows) || ShapedType::isDynamic(cols)) {
    // The mask over positions, generated at run time.
    SmallVector<Value> sizes =
        dynamicSizesOf(nc, nc.operand(0), t.getRank() - 2, t.getRank());
    Value mask = tensor::GenerateOp::create(
        b, nc.loc, RankedTensorType::get({rows, cols}, b.getI1Type()), sizes,
        [&](OpBuilder &gb, Location l, ValueRange ivs) {
          Value diff = arith::SubIOp::create(gb, l, ivs[1], ivs[0]);
          Value kv = arith::ConstantIndexOp::create(gb, l, k);
          Value keep = arith::CmpIOp::create(gb, l,
                                             upper ? arith::CmpIPredicate::sge
                                                   : arith::CmpIPredicate::sle,
                                             diff, kv);
          tensor::YieldOp::create(gb, l, keep);
        });
    Value zeros =
        ConstantOp::create(b, nc.loc,
                           DenseElementsAttr::get(RankedTensorType::get({}, et),
                                                  b.getZeroAttr(et)));
    return buildInferred<WhereOp>(nc, {mask, nc.operand(0), zeros});
  }
  SmallVector<bool> keep;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      keep.push_back(upper ? j - i >= k : j - i <= k);
  Value mask = ConstantOp::create(
      b, nc.loc,
      DenseElementsAttr::get(RankedTensorType::get({rows, cols}, b.getI1Type()),
                             keep));
  TypedAttr zero = b.getZeroAttr(et);
  Value zeros = ConstantOp::create(
      b, nc.loc, DenseElementsAttr::get(RankedTensorType::get({}, et), zero));
  return buildInferred<WhereOp>(nc, {mask, nc.operand(0), zeros});
}

/// Decomposed into reductions and elementwise ops; returns Y, Mean and
/// InvStdDev.
NodeResults importLayerNormalization(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)) || failed(requireFloat(nc, 3)))
    return failure();
  Value x = nc.operand(0);
  auto t = typeOf(x);
  Type et = t.getElementType();
  // stash_type 1 (the default) computes in float32, 0 in the input's type;
  // Mean and InvStdDev are of that type, Y of the input's.
  int64_t stash = nc.intAttr("stash_type", 1);
  if (stash != 0 && stash != 1)
    return nc.error() << "stash_type " << stash
                      << " is not supported (0: the input's type, 1: float)",
           failure();
  Type ct = stash ? nc.builder.getF32Type() : et;
  auto computed = [&](Value v) {
    return v && ct != et ? castValue(nc, v, ct) : v;
  };
  Value scaleIn = computed(nc.operand(1)), biasIn = computed(nc.operand(2));
  x = computed(x);
  if (!x || !scaleIn || (nc.operand(2) && !biasIn))
    return failure();
  auto axis = normalizeAxis(nc, nc.intAttr("axis", -1), t.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> axes;
  for (int64_t d = *axis; d < t.getRank(); ++d)
    axes.push_back(d);
  OpBuilder &b = nc.builder;
  auto mean = [&](Value v) {
    return buildInferred<ReduceOp>(
        nc, {v},
        {b.getNamedAttr("kind", b.getStringAttr("mean")),
         b.getNamedAttr("axes", b.getDenseI64ArrayAttr(axes)),
         b.getNamedAttr("keepdims", b.getBoolAttr(true))});
  };
  auto scalar = [&](double v) -> Value {
    return ConstantOp::create(
        b, nc.loc,
        DenseElementsAttr::get(RankedTensorType::get({}, ct),
                               b.getFloatAttr(ct, v)));
  };
  auto m = mean(x);
  if (failed(m))
    return failure();
  auto d = buildInferred<SubOp>(nc, {x, (*m)[0]});
  auto sq = buildInferred<MulOp>(nc, {(*d)[0], (*d)[0]});
  auto var = mean((*sq)[0]);
  auto ve = buildInferred<AddOp>(
      nc, {(*var)[0], scalar(nc.floatAttr("epsilon", 1e-5f))});
  auto sd = buildTyped<SqrtOp>(nc, typeOf((*ve)[0]), {(*ve)[0]});
  auto inv = buildTyped<ReciprocalOp>(nc, typeOf((*sd)[0]), {(*sd)[0]});
  auto norm = buildInferred<MulOp>(nc, {(*d)[0], (*inv)[0]});
  auto y = buildInferred<MulOp>(nc, {(*norm)[0], scaleIn});
  if (failed(y))
    return failure();
  Value result = (*y)[0];
  if (biasIn) {
    auto yb = buildInferred<AddOp>(nc, {result, biasIn});
    if (failed(yb))
      return failure();
    result = (*yb)[0];
  }
  if (ct != et && !(result = castValue(nc, result, et)))
    return failure();
  return SmallVector<Value>{result, (*m)[0], (*inv)[0]};
}

/// Split along a dynamic dimension: by constant sizes, or into equal parts
/// of ceil(n / parts) (the last one smaller) sized at run time.
NodeResults importDynamicSplit(NodeContext &nc, int64_t axis, size_t outputs) {
  OpBuilder &b = nc.builder;
  Location loc = nc.loc;
  SmallVector<OpFoldResult> bounds; // outputs + 1 offsets, i64
  std::optional<SmallVector<int64_t>> sizes;
  if (nc.opset < 13 && nc.attr("split"))
    sizes = nc.intsAttr("split");
  else if (nc.opset >= 13 && nc.operand(1)) {
    sizes = nc.constantInts(1);
    if (!sizes)
      return nc.error() << "split must be a constant", failure();
  }
  if (sizes) {
    if (sizes->size() != outputs)
      return nc.error() << "split has " << sizes->size() << " entries for "
                        << outputs << " outputs",
             failure();
    int64_t offset = 0;
    bounds.push_back(b.getI64IntegerAttr(0));
    for (int64_t s : *sizes)
      bounds.push_back(b.getI64IntegerAttr(offset += s));
  } else {
    int64_t parts = nc.intAttr("num_outputs", outputs);
    if (parts < 1 || (size_t)parts != outputs)
      return nc.error() << "num_outputs does not match the outputs", failure();
    Value n = arith::IndexCastOp::create(
        b, loc, b.getI64Type(),
        tensor::DimOp::create(b, loc, nc.operand(0), axis));
    Value chunk = arith::CeilDivSIOp::create(
        b, loc, n,
        arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(parts)));
    for (int64_t i = 0; i <= parts; ++i)
      bounds.push_back(
          i == 0 ? OpFoldResult(b.getI64IntegerAttr(0))
                 : OpFoldResult(arith::MulIOp::create(
                                    b, loc, chunk,
                                    arith::ConstantOp::create(
                                        b, loc, b.getI64IntegerAttr(i)))
                                    .getResult()));
  }
  SmallVector<Value> results;
  for (size_t i = 0; i < outputs; ++i) {
    NodeResults r =
        importDynamicSlice(nc, {bounds[i]}, {bounds[i + 1]}, {axis}, {1});
    if (failed(r))
      return failure();
    results.push_back((*r)[0]);
  }
  return results;
}

NodeResults importSplit(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  Value x = nc.operand(0);
  auto t = typeOf(x);
  auto axis = normalizeAxis(nc, nc.intAttr("axis", 0), t.getRank());
  if (failed(axis))
    return failure();
  int64_t n = t.getDimSize(*axis);
  size_t outputs = nc.node.output_size();
  if (ShapedType::isDynamic(n))
    return importDynamicSplit(nc, *axis, outputs);
  SmallVector<int64_t> sizes;
  if (nc.opset < 13 && nc.attr("split")) {
    sizes = *nc.intsAttr("split");
  } else if (nc.opset >= 13 && nc.operand(1)) {
    auto s = nc.constantInts(1);
    if (!s)
      return nc.error() << "split must be a constant", failure();
    sizes = *s;
  } else {
    int64_t parts = nc.intAttr("num_outputs", outputs);
    if (parts < 1)
      return nc.error() << "num_outputs " << parts << " must be positive",
             failure();
    int64_t chunk = (n + parts - 1) / parts;
    for (int64_t i = 0, left = n; i < parts; ++i, left -= chunk)
      sizes.push_back(std::min(chunk, left));
  }
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s < 0 || s > n)
      return nc.error() << "split size " << s << " is outside [0, " << n
                        << "] (dimension " << *axis << ")",
             failure();
    total += s;
  }
  if (total != n || sizes.size() != outputs)
    return nc.error() << "split sizes do not add up to dimension " << *axis
                      << " (" << n << ") or do not match the outputs",
           failure();
  SmallVector<Value> results;
  OpBuilder &b = nc.builder;
  int64_t offset = 0;
  if (!t.hasStaticShape()) {
    // Other dimensions dynamic: slices of run-time sizes.
    for (int64_t s : sizes) {
      NodeResults r =
          importDynamicSlice(nc, {b.getI64IntegerAttr(offset)},
                             {b.getI64IntegerAttr(offset + s)}, {*axis}, {1});
      if (failed(r))
        return failure();
      results.push_back((*r)[0]);
      offset += s;
    }
    return results;
  }
  for (int64_t s : sizes) {
    SmallVector<int64_t> starts(t.getRank(), 0), steps(t.getRank(), 1),
        shape(t.getShape());
    starts[*axis] = s ? offset : 0;
    shape[*axis] = s;
    auto r = buildTyped<SliceOp>(
        nc, RankedTensorType::get(shape, t.getElementType()), x,
        {b.getNamedAttr("starts", b.getDenseI64ArrayAttr(starts)),
         b.getNamedAttr("steps", b.getDenseI64ArrayAttr(steps))});
    if (failed(r))
      return failure();
    results.push_back((*r)[0]);
    offset += s;
  }
  return results;
}

} // namespace

void dlc::addTensorImporters(NodeImporterTable &t) {
  t["ReduceSum"] = [](NodeContext &nc) { return importReduce(nc, "sum"); };
  t["ReduceMean"] = [](NodeContext &nc) { return importReduce(nc, "mean"); };
  t["ReduceMax"] = [](NodeContext &nc) { return importReduce(nc, "max"); };
  t["ReduceMin"] = [](NodeContext &nc) { return importReduce(nc, "min"); };
  t["ReduceProd"] = [](NodeContext &nc) { return importReduce(nc, "prod"); };
  t["ReduceL1"] = [](NodeContext &nc) { return importReduce(nc, "l1"); };
  t["ReduceL2"] = [](NodeContext &nc) { return importReduce(nc, "l2"); };
  t["ReduceLogSum"] = [](NodeContext &nc) {
    return importReduce(nc, "log_sum");
  };
  t["ReduceLogSumExp"] = [](NodeContext &nc) {
    return importReduce(nc, "log_sum_exp");
  };
  t["ReduceSumSquare"] = [](NodeContext &nc) {
    return importReduce(nc, "sum_square");
  };
  t["ArgMax"] = importArgReduce<true>;
  t["ArgMin"] = importArgReduce<false>;
  t["Slice"] = importSlice;
  t["Gather"] = importGather;
  t["Squeeze"] = importSqueeze;
  t["Unsqueeze"] = importUnsqueeze;
  t["Expand"] = importExpand;
  t["Tile"] = importTile;
  t["Pad"] = importPad;
  t["Shape"] = importShape;
  t["Size"] = importSize;
  t["ConstantOfShape"] = importConstantOfShape;
  t["Range"] = importRange;
  t["Dropout"] = importDropout;
  t["GatherElements"] = importGatherElements;
  t["Trilu"] = importTrilu;
  t["LayerNormalization"] = importLayerNormalization;
  t["Split"] = importSplit;
}
