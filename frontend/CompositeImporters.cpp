//===- CompositeImporters.cpp - ONNX ops decomposed into dlc ops ----------===//
//
// Ops whose semantics are compositions of existing dlc ops (often exactly
// ONNX's own function bodies): BitShift, CumSum, Hardmax, EyeLike,
// DepthToSpace, SpaceToDepth, GlobalMaxPool, InstanceNormalization,
// MeanVarianceNormalization, OneHot.
//
//===----------------------------------------------------------------------===//
#include "frontend/NodeImporter.h"
#include "ir/DlcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>
#include <limits>

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace dlc;

namespace {


Value constant(NodeContext &nc, DenseElementsAttr value) {
  return ConstantOp::create(nc.builder, nc.loc, value);
}

/// 0, 1, ..., n-1 as i64, laid along `axis` of a rank-`rank` tensor.
Value iota(NodeContext &nc, int64_t n, int64_t axis, int64_t rank) {
  SmallVector<int64_t> shape(rank, 1), values;
  shape[axis] = n;
  for (int64_t i = 0; i < n; ++i)
    values.push_back(i);
  return constant(nc, DenseElementsAttr::get(
                          RankedTensorType::get(shape, nc.builder.getI64Type()),
                          ArrayRef<int64_t>(values)));
}

/// `iota` along `axis` with the size of dimension `dim` of `x`: a
/// tensor.generate of the positions when that size is dynamic.
Value iotaAlong(NodeContext &nc, Value x, int64_t dim, int64_t axis,
                int64_t rank) {
  auto t = typeOf(x);
  if (!t.isDynamicDim(dim))
    return iota(nc, t.getDimSize(dim), axis, rank);
  OpBuilder &b = nc.builder;
  SmallVector<int64_t> shape(rank, 1);
  shape[axis] = ShapedType::kDynamic;
  Value n = tensor::DimOp::create(b, nc.loc, x, dim);
  return tensor::GenerateOp::create(
      b, nc.loc, RankedTensorType::get(shape, b.getI64Type()), ValueRange{n},
      [&](OpBuilder &gb, Location l, ValueRange ivs) {
        tensor::YieldOp::create(
            gb, l,
            arith::IndexCastOp::create(gb, l, gb.getI64Type(), ivs[axis])
                .getResult());
      });
}

Value transpose(NodeContext &nc, Value v, ArrayRef<int64_t> perm) {
  return one(buildInferred<TransposeOp>(
      nc, {v},
      {nc.builder.getNamedAttr("perm", nc.builder.getDenseI64ArrayAttr(perm))}));
}

NodeResults importBitShift(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)))
    return failure();
  std::string dir = nc.stringAttr("direction", "");
  if (dir == "LEFT")
    return buildInferred<ShiftLeftOp>(nc, {nc.operand(0), nc.operand(1)});
  if (dir == "RIGHT")
    return buildInferred<ShiftRightOp>(nc, {nc.operand(0), nc.operand(1)});
  return nc.error() << "direction must be LEFT or RIGHT", failure();
}

NodeResults importCumSum(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)))
    return failure();
  auto axisValues = nc.constantInts(1);
  if (!axisValues || axisValues->size() != 1)
    return nc.error() << "axis must be a constant scalar", failure();
  auto axis = normalizeAxis(nc, (*axisValues)[0], typeOf(nc.operand(0)).getRank());
  if (failed(axis))
    return failure();
  OpBuilder &b = nc.builder;
  return buildTyped<CumSumOp>(
      nc, nc.operand(0).getType(), {nc.operand(0)},
      {b.getNamedAttr("axis", b.getI64IntegerAttr(*axis)),
       b.getNamedAttr("exclusive", b.getBoolAttr(nc.intAttr("exclusive", 0))),
       b.getNamedAttr("reverse", b.getBoolAttr(nc.intAttr("reverse", 0)))});
}

/// 1 at the first maximum along the axis, 0 elsewhere.
NodeResults importHardmax(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)) || failed(requireFloat(nc, 1)))
    return failure();
  Value x = nc.operand(0);
  auto t = typeOf(x);
  bool legacy = nc.opset < 13;
  auto axis = normalizeAxis(nc, nc.intAttr("axis", legacy ? 1 : -1), t.getRank());
  if (failed(axis))
    return failure();
  int64_t ax = *axis;
  if (legacy && !t.hasStaticShape())
    return nc.error() << "dynamic dimensions are not supported before opset "
                         "13 (the input is coerced to 2-D)",
           failure();
  if (legacy) { // Coerce to 2-D [outer, inner] and take the max over inner.
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < t.getRank(); ++d)
      (d < ax ? outer : inner) *= t.getDimSize(d);
    x = one(reshapeTo(nc, x, {outer, inner}));
    ax = 1;
  }
  auto xt = typeOf(x);
  OpBuilder &b = nc.builder;
  Value idx = one(buildInferred<ArgReduceOp>(
      nc, {x},
      {b.getNamedAttr("is_max", b.getBoolAttr(true)),
       b.getNamedAttr("axis", b.getI64IntegerAttr(ax)),
       b.getNamedAttr("keepdims", b.getBoolAttr(true)),
       b.getNamedAttr("select_last_index", b.getBoolAttr(false))}));
  Value eq = one(buildInferred<EqualOp>(
      nc, {idx, iotaAlong(nc, x, ax, ax, xt.getRank())}));
  Value y = one(buildTyped<CastOp>(nc, xt, {eq}));
  if (legacy)
    return reshapeTo(nc, y, t.getShape());
  return SmallVector<Value>{y};
}

NodeResults importEyeLike(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  auto t = typeOf(nc.operand(0));
  if (t.getRank() != 2)
    return nc.error() << "input must be 2-D", failure();
  Type et = t.getElementType();
  if (nc.attr("dtype"))
    et = convertElementType(nc.builder.getContext(), nc.intAttr("dtype", 1));
  if (!et)
    return nc.error() << "unsupported dtype", failure();
  int64_t k = nc.intAttr("k", 0);
  OpBuilder &b = nc.builder;
  if (!t.hasStaticShape()) {
    // Ones on the k-th diagonal, generated at run time.
    SmallVector<Value> sizes = dynamicSizesOf(nc, nc.operand(0), 0, 2);
    Value eye = tensor::GenerateOp::create(
        b, nc.loc, RankedTensorType::get(t.getShape(), et), sizes,
        [&](OpBuilder &gb, Location l, ValueRange ivs) {
          Value diff = arith::SubIOp::create(gb, l, ivs[1], ivs[0]);
          Value on =
              arith::CmpIOp::create(gb, l, arith::CmpIPredicate::eq, diff,
                                    arith::ConstantIndexOp::create(gb, l, k));
          auto value = [&](double v) -> Value {
            return arith::ConstantOp::create(
                gb, l,
                isa<FloatType>(et)
                    ? TypedAttr(gb.getFloatAttr(et, v))
                    : TypedAttr(gb.getIntegerAttr(et, (int64_t)v)));
          };
          tensor::YieldOp::create(
              gb, l,
              arith::SelectOp::create(gb, l, on, value(1), value(0))
                  .getResult());
        });
    return SmallVector<Value>{eye};
  }
  SmallVector<Attribute> values;
  for (int64_t i = 0; i < t.getDimSize(0); ++i)
    for (int64_t j = 0; j < t.getDimSize(1); ++j) {
      double v = j - i == k ? 1 : 0;
      values.push_back(isa<FloatType>(et) ? Attribute(b.getFloatAttr(et, v))
                                          : Attribute(b.getIntegerAttr(et, (int64_t)v)));
    }
  return SmallVector<Value>{constant(
      nc, DenseElementsAttr::get(RankedTensorType::get(t.getShape(), et), values))};
}

/// Sizes of a reshape's result, each static or an index value (for
/// reshapes of tensors with dynamic dimensions).
struct DimSizes {
  NodeContext &nc;
  SmallVector<OpFoldResult> dims;

  OpFoldResult of(Value v, int64_t d) {
    RankedTensorType t = typeOf(v);
    if (!t.isDynamicDim(d))
      return nc.builder.getIndexAttr(t.getDimSize(d));
    return tensor::DimOp::create(nc.builder, nc.loc, v, d).getResult();
  }
  OpFoldResult scaled(OpFoldResult x, int64_t k, bool divide) {
    if (auto c = getConstantIntValue(x))
      return nc.builder.getIndexAttr(divide ? *c / k : *c * k);
    Value kv = arith::ConstantIndexOp::create(nc.builder, nc.loc, k);
    Value xv = cast<Value>(x);
    return divide
               ? arith::DivUIOp::create(nc.builder, nc.loc, xv, kv).getResult()
               : arith::MulIOp::create(nc.builder, nc.loc, xv, kv).getResult();
  }
  /// `v` reshaped to `dims`.
  NodeResults reshape(Value v, ArrayRef<OpFoldResult> to) {
    SmallVector<int64_t> shape;
    SmallVector<Value> sizes;
    for (OpFoldResult d : to) {
      std::optional<int64_t> c = getConstantIntValue(d);
      shape.push_back(c.value_or(ShapedType::kDynamic));
      if (!c)
        sizes.push_back(cast<Value>(d));
    }
    return reshapeTo(nc, v, shape, sizes);
  }
};

/// DepthToSpace and SpaceToDepth as a reshape, a transpose and a reshape;
/// dimensions may be dynamic (that they divide by the block size at run
/// time, as ONNX requires, is not checked: the reshapes then view a prefix
/// of the input).
NodeResults importDepthToSpace(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  Value x = nc.operand(0);
  auto t = typeOf(x);
  int64_t bs = nc.intAttr("blocksize", 0);
  if (t.getRank() != 4 || bs < 1 ||
      (!t.isDynamicDim(1) && t.getDimSize(1) % (bs * bs)))
    return nc.error() << "needs a 4-D input whose channels divide by "
                         "blocksize^2",
           failure();
  DimSizes ds{nc, {}};
  OpFoldResult n = ds.of(x, 0), c = ds.of(x, 1), h = ds.of(x, 2),
               w = ds.of(x, 3), co = ds.scaled(c, bs * bs, true);
  OpFoldResult b = nc.builder.getIndexAttr(bs);
  bool crd = nc.stringAttr("mode", "DCR") == "CRD";
  Value v = one(crd ? ds.reshape(x, {n, co, b, b, h, w})
                    : ds.reshape(x, {n, b, b, co, h, w}));
  if (!v)
    return failure();
  v = transpose(nc, v,
                crd ? ArrayRef<int64_t>{0, 1, 4, 2, 5, 3}
                    : ArrayRef<int64_t>{0, 3, 4, 1, 5, 2});
  if (!v)
    return failure();
  return ds.reshape(v,
                    {n, co, ds.scaled(h, bs, false), ds.scaled(w, bs, false)});
}

NodeResults importSpaceToDepth(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  Value x = nc.operand(0);
  auto t = typeOf(x);
  int64_t bs = nc.intAttr("blocksize", 0);
  if (t.getRank() != 4 || bs < 1 ||
      (!t.isDynamicDim(2) && t.getDimSize(2) % bs) ||
      (!t.isDynamicDim(3) && t.getDimSize(3) % bs))
    return nc.error() << "needs a 4-D input whose spatial dims divide by "
                         "blocksize",
           failure();
  DimSizes ds{nc, {}};
  OpFoldResult n = ds.of(x, 0), c = ds.of(x, 1),
               h = ds.scaled(ds.of(x, 2), bs, true),
               w = ds.scaled(ds.of(x, 3), bs, true);
  OpFoldResult b = nc.builder.getIndexAttr(bs);
  Value v = one(ds.reshape(x, {n, c, h, b, w, b}));
  if (!v)
    return failure();
  v = transpose(nc, v, {0, 3, 5, 1, 2, 4});
  if (!v)
    return failure();
  return ds.reshape(v, {n, ds.scaled(c, bs * bs, false), h, w});
}

NodeResults importGlobalMaxPool(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)) || failed(requireFloat(nc, 1)))
    return failure();
  SmallVector<int64_t> axes;
  for (int64_t d = 2; d < typeOf(nc.operand(0)).getRank(); ++d)
    axes.push_back(d);
  return SmallVector<Value>{reduce(nc, nc.operand(0), "max", axes)};
}

/// (x - mean) / sqrt(var + eps) over `axes`.
Value normalize(NodeContext &nc, Value x, ArrayRef<int64_t> axes, double eps) {
  Type et = typeOf(x).getElementType();
  Value mean = reduce(nc, x, "mean", axes);
  Value d = one(buildInferred<SubOp>(nc, {x, mean}));
  Value var = reduce(nc, one(buildInferred<MulOp>(nc, {d, d})), "mean", axes);
  Value ve = one(buildInferred<AddOp>(nc, {var, scalarConstant(nc, et, eps)}));
  Value sd = one(buildTyped<SqrtOp>(nc, ve.getType(), {ve}));
  return one(buildInferred<DivOp>(nc, {d, sd}));
}

NodeResults importInstanceNormalization(NodeContext &nc) {
  if (failed(requireOperands(nc, 3)) || failed(requireFloat(nc, 3)))
    return failure();
  auto t = typeOf(nc.operand(0));
  if (t.getRank() < 2)
    return nc.error() << "input " << t
                      << " must have rank >= 2 (N, C, spatial dimensions)",
           failure();
  SmallVector<int64_t> axes, paramShape{t.getDimSize(1)};
  for (int64_t d = 2; d < t.getRank(); ++d) {
    axes.push_back(d);
    paramShape.push_back(1);
  }
  Value y = normalize(nc, nc.operand(0), axes, nc.floatAttr("epsilon", 1e-5f));
  Value scale = one(reshapeTo(nc, nc.operand(1), paramShape));
  Value bias = one(reshapeTo(nc, nc.operand(2), paramShape));
  y = one(buildInferred<MulOp>(nc, {y, scale}));
  return buildInferred<AddOp>(nc, {y, bias});
}

NodeResults importMeanVarianceNormalization(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)) || failed(requireFloat(nc, 1)))
    return failure();
  auto t = typeOf(nc.operand(0));
  auto axes = normalizeAxes(
      nc, nc.intsAttr("axes").value_or(SmallVector<int64_t>{0, 2, 3}),
      t.getRank());
  if (failed(axes))
    return failure();
  return SmallVector<Value>{normalize(nc, nc.operand(0), *axes, 1e-9)};
}

/// on where indices (wrapped) == position along `axis`, off elsewhere.
NodeResults importOneHot(NodeContext &nc) {
  if (failed(requireOperands(nc, 3)))
    return failure();
  auto depthValue = nc.constantScalar(1);
  if (!depthValue)
    return nc.error() << "depth must be a constant", failure();
  // ONNX takes the depth's integer part; a size a tensor can have.
  if (!(*depthValue >= 1 && *depthValue <= double(int64_t(1) << 31)))
    return nc.error() << "depth " << *depthValue << " is outside [1, 2^31]",
           failure();
  int64_t depth = (int64_t)*depthValue;
  auto it = typeOf(nc.operand(0));
  int64_t outRank = it.getRank() + 1;
  auto axis = normalizeAxis(nc, nc.intAttr("axis", -1), outRank);
  if (failed(axis))
    return failure();
  Value idx = nc.operand(0);
  if (it.getElementType() != nc.builder.getI64Type())
    idx = one(buildTyped<CastOp>(
        nc, RankedTensorType::get(it.getShape(), nc.builder.getI64Type()), {idx}));
  Type i64 = nc.builder.getI64Type();
  Value isNeg = one(buildInferred<LessOp>(nc, {idx, scalarConstant(nc, i64, 0)}));
  Value wrapped = one(buildInferred<AddOp>(nc, {idx, scalarConstant(nc, i64, depth)}));
  idx = one(buildInferred<WhereOp>(nc, {isNeg, wrapped, idx}));
  SmallVector<int64_t> shape(it.getShape());
  shape.insert(shape.begin() + *axis, 1);
  idx = one(reshapeTo(nc, idx, shape));
  Value eq = one(buildInferred<EqualOp>(nc, {idx, iota(nc, depth, *axis, outRank)}));
  OpBuilder &b = nc.builder;
  auto pick = [&](int64_t i) {
    Value index = constant(nc, DenseElementsAttr::get(
                                   RankedTensorType::get({}, i64), (int64_t)i));
    return one(buildInferred<GatherOp>(
        nc, {nc.operand(2), index}, {b.getNamedAttr("axis", b.getI64IntegerAttr(0))}));
  };
  return buildInferred<WhereOp>(nc, {eq, pick(1), pick(0)});
}

/// HannWindow / HammingWindow / BlackmanWindow: a constant of the given
/// (constant) size, as ONNX's function bodies compute it.
NodeResults importWindow(NodeContext &nc) {
  auto size = nc.constantInts(0);
  if (!size || size->size() != 1 || (*size)[0] < 0)
    return nc.error() << "size must be a constant scalar", failure();
  int64_t n = (*size)[0];
  bool periodic = nc.intAttr("periodic", 1);
  Type et = convertElementType(nc.builder.getContext(),
                               nc.intAttr("output_datatype", 1));
  if (!et || !isa<FloatType>(et))
    return nc.error() << "output_datatype must be a float type", failure();
  StringRef op = nc.node.op_type();
  double a0 = op == "HannWindow" ? 0.5 : op == "HammingWindow" ? 25.0 / 46 : 0.42;
  double a1 = 1 - a0, a2 = op == "BlackmanWindow" ? 0.08 : 0;
  if (op == "BlackmanWindow")
    a1 = 0.5;
  double denom = periodic ? n : n - 1;
  const double tau = 6.283185307179586;
  SmallVector<Attribute> values;
  for (int64_t i = 0; i < n; ++i) {
    double v = a0 - a1 * std::cos(tau * i / denom) + a2 * std::cos(2 * tau * i / denom);
    values.push_back(nc.builder.getFloatAttr(et, v));
  }
  return SmallVector<Value>{constant(
      nc, DenseElementsAttr::get(RankedTensorType::get({n}, et), values))};
}

/// TopK with a constant k: k rounds of arg-max (or min) and masking, which
/// orders ties by index as ONNX does.
/// Rows up to this long take TopK by ranking all pairs.
static constexpr int64_t kMaxRankedRow = 64;

/// TopK as dlc.top_k along the last dimension (`axis` transposed there and
/// back), `k` a constant or the operand's run-time value, clamped to the
/// row's length. NaN counts as larger than every number.
NodeResults importTopKRows(NodeContext &nc, Value x, std::optional<int64_t> k,
                           int64_t axis, bool largest) {
  OpBuilder &b = nc.builder;
  Location loc = nc.loc;
  int64_t rank = typeOf(x).getRank();
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      perm.push_back(d);
  perm.push_back(axis);
  bool moved = axis != rank - 1;
  if (moved)
    x = transpose(nc, x, perm);
  if (!x)
    return failure();
  auto t = typeOf(x);
  Value n = t.isDynamicDim(rank - 1)
                ? Value(tensor::DimOp::create(b, loc, x, rank - 1))
                : Value(arith::ConstantIndexOp::create(b, loc,
                                                       t.getDimSize(rank - 1)));
  Value count;
  if (k) {
    count = arith::ConstantIndexOp::create(b, loc, *k);
  } else {
    Value kt = nc.operand(1);
    auto kType = typeOf(kt);
    if (!kType.hasStaticShape() || kType.getNumElements() != 1 ||
        !isa<IntegerType>(kType.getElementType()))
      return nc.error() << "k must be one integer, not " << kType, failure();
    SmallVector<Value> zeros(kType.getRank(),
                             arith::ConstantIndexOp::create(b, loc, 0));
    Value scalar = tensor::ExtractOp::create(b, loc, kt, zeros);
    // (A negative k keeps nothing; ONNX requires 0 <= k <= the axis size.)
    count = arith::MaxSIOp::create(
        b, loc, arith::IndexCastOp::create(b, loc, b.getIndexType(), scalar),
        arith::ConstantIndexOp::create(b, loc, 0));
  }
  count = arith::MinSIOp::create(b, loc, count, n);
  SmallVector<int64_t> shape(t.getShape());
  shape.back() = k && !t.isDynamicDim(rank - 1) ? *k : ShapedType::kDynamic;
  OperationState state(loc, TopKOp::getOperationName());
  state.addOperands({x, count});
  state.addAttribute("largest", b.getBoolAttr(largest));
  state.addTypes({RankedTensorType::get(shape, t.getElementType()),
                  RankedTensorType::get(shape, b.getI64Type())});
  NodeResults results = finishOp(nc, state);
  if (failed(results) || !moved)
    return results;
  SmallVector<int64_t> back(rank);
  for (int64_t d = 0; d < rank; ++d)
    back[perm[d]] = d;
  Value values = transpose(nc, (*results)[0], back),
        indices = transpose(nc, (*results)[1], back);
  if (!values || !indices)
    return failure();
  return SmallVector<Value>{values, indices};
}

NodeResults importTopK(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)))
    return failure();
  Value x = nc.operand(0);
  auto t = typeOf(x);
  Type et = t.getElementType();
  auto axis = normalizeAxis(nc, nc.intAttr("axis", -1), t.getRank());
  if (failed(axis))
    return failure();
  if (!isa<FloatType>(et))
    return nc.error() << "only floating-point inputs are supported",
           failure();
  bool largest = nc.intAttr("largest", 1);
  // sorted = 0 leaves the order of the k elements unspecified: dlc's sorted
  // order is one of them.
  nc.acknowledgeAttr("sorted");
  auto kv = nc.constantInts(1);
  if (kv && kv->size() != 1)
    return nc.error() << "k must be one integer, not " << kv->size(),
           failure();
  if (kv && ((*kv)[0] < 0 ||
             (!t.isDynamicDim(*axis) && (*kv)[0] > t.getDimSize(*axis))))
    return nc.error() << "k = " << (*kv)[0] << " does not fit an axis of size "
                      << t.getDimSize(*axis),
           failure();
  if (kv && (*kv)[0] == 0 && !t.hasStaticShape())
    return nc.error() << "k = 0 over an input of run-time size " << t
                      << " (results without elements of run-time shape) is "
                         "not supported",
           failure();
  int64_t n = t.isDynamicDim(*axis) ? 0 : t.getDimSize(*axis);
  if (!kv || (*kv)[0] < 1 || !t.hasStaticShape() || n > kMaxRankedRow)
    return importTopKRows(nc, x,
                          kv ? std::optional<int64_t>((*kv)[0]) : std::nullopt,
                          *axis, largest);
  // Short static rows: each element's rank among its row by comparing all
  // pairs (vectorized elementwise ops and sums, which also keep a dynamic
  // batch provably per sample); the element of rank p is output p.
  // The order is dlc.top_k's: NaN above every number, ties by index.
  int64_t k = (*kv)[0], a = *axis, rank = t.getRank();
  OpBuilder &b = nc.builder;
  Type i1 = b.getI1Type(), i64 = b.getI64Type();
  SmallVector<int64_t> iShape(t.getShape()), jShape(t.getShape());
  iShape.insert(iShape.begin() + a + 1, 1); // [.., n (i), 1, ..]
  jShape.insert(jShape.begin() + a, 1);     // [.., 1, n (j), ..]
  Value xi = one(reshapeTo(nc, x, iShape)), xj = one(reshapeTo(nc, x, jShape));
  if (!xi || !xj)
    return failure();
  auto isNaN = [&](Value v) {
    return one(buildTyped<IsNaNOp>(
        nc, RankedTensorType::get(typeOf(v).getShape(), i1), {v}));
  };
  auto both = [&](auto tag, Value p, Value q) {
    return one(buildInferred<decltype(tag)>(nc, {p, q}));
  };
  Value nanI = isNaN(xi), nanJ = isNaN(xj);
  Value ahead =
      largest
          ? both(OrOp(), both(GreaterOp(), xj, xi),
                 both(AndOp(), nanJ, one(buildInferred<NotOp>(nc, {nanI}))))
          : both(OrOp(), both(LessOp(), xj, xi),
                 both(AndOp(), one(buildInferred<NotOp>(nc, {nanJ})), nanI));
  Value same = both(OrOp(), both(EqualOp(), xj, xi), both(AndOp(), nanJ, nanI));
  Value earlier =
      both(LessOp(), iota(nc, n, a + 1, rank + 1), iota(nc, n, a, rank + 1));
  Value before = both(OrOp(), ahead, both(AndOp(), same, earlier));
  if (!before)
    return failure();
  SmallVector<int64_t> pairShape(typeOf(before).getShape());
  Value ranks =
      reduce(nc,
             one(buildTyped<CastOp>(nc, RankedTensorType::get(pairShape, i64),
                                    {before})),
             "sum", {a + 1}, /*keepdims=*/false); // [.., n (i), ..]
  SmallVector<int64_t> rShape(t.getShape());
  rShape.insert(rShape.begin() + a, 1); // [.., 1 (p), n (i), ..]
  Value hit = both(EqualOp(), one(reshapeTo(nc, ranks, rShape)),
                   iota(nc, k, a, rank + 1)); // [.., k, n, ..]
  Value positions = iota(nc, n, a + 1, rank + 1);
  if (!hit)
    return failure();
  Value picked = one(buildInferred<WhereOp>(
      nc,
      {hit, positions, one(reshapeTo(nc, scalarConstant(nc, i64, 0), {}))}));
  Value idx = reduce(nc, picked, "sum", {a + 1}, /*keepdims=*/false);
  if (!idx)
    return failure();
  Value values = one(buildTyped<GatherElementsOp>(
      nc, RankedTensorType::get(typeOf(idx).getShape(), et), {x, idx},
      {b.getNamedAttr("axis", b.getI64IntegerAttr(a))}));
  if (!values)
    return failure();
  return SmallVector<Value>{values, idx};
}

/// LRN: x / (bias + alpha / size * sum of squares over a channel window)^beta;
/// the window sum is an average pool over [C, H*W] times the size.
NodeResults importLRN(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)) || failed(requireFloat(nc, 1)))
    return failure();
  Value x = nc.operand(0);
  auto t = typeOf(x);
  // The batch and the spatial sizes may be run-time sizes; the channels
  // (the window's axis) may not.
  if (t.getRank() < 3 || t.isDynamicDim(1))
    return nc.error() << "needs an input of rank >= 3 with static channels",
           failure();
  int64_t size = nc.intAttr("size", 0);
  if (size < 1)
    return nc.error() << "size must be >= 1", failure();
  double alpha = nc.floatAttr("alpha", 1e-4f), beta = nc.floatAttr("beta", 0.75f),
         bias = nc.floatAttr("bias", 1.0f);
  Type et = t.getElementType();
  int64_t n = t.getDimSize(0), c = t.getDimSize(1), rest = 1;
  for (int64_t d = 2; d < t.getRank(); ++d)
    rest = t.isDynamicDim(d) || ShapedType::isDynamic(rest)
               ? ShapedType::kDynamic
               : rest * t.getDimSize(d);
  Value sq = one(buildInferred<MulOp>(nc, {x, x}));
  SmallVector<Value> sizes = dynamicSizesOf(nc, x, 0, 1);
  if (ShapedType::isDynamic(rest))
    sizes.push_back(numElementsOf(nc, x, 2, t.getRank()));
  sq = one(reshapeTo(nc, sq, {n, 1, c, rest}, sizes));
  OpBuilder &b = nc.builder;
  int64_t lo = (size - 1) / 2, hi = size - 1 - lo;
  Value avg = one(buildInferred<AvgPoolOp>(
      nc, {sq},
      {b.getNamedAttr("kernel_shape", b.getDenseI64ArrayAttr({size, 1})),
       b.getNamedAttr("strides", b.getDenseI64ArrayAttr({1, 1})),
       b.getNamedAttr("pads", b.getDenseI64ArrayAttr({lo, 0, hi, 0})),
       b.getNamedAttr("dilations", b.getDenseI64ArrayAttr({1, 1})),
       b.getNamedAttr("count_include_pad", b.getBoolAttr(true))}));
  avg = one(
      reshapeTo(nc, avg, t.getShape(), dynamicSizesOf(nc, x, 0, t.getRank())));
  // bias + alpha / size * (avg * size) = bias + alpha * avg
  Value den = one(buildInferred<MulOp>(nc, {avg, scalarConstant(nc, et, alpha)}));
  den = one(buildInferred<AddOp>(nc, {den, scalarConstant(nc, et, bias)}));
  den = one(buildInferred<PowOp>(nc, {den, scalarConstant(nc, et, beta)}));
  return buildInferred<DivOp>(nc, {x, den});
}

/// RoiAlign (opsets 10 and 16) with a fixed sampling_ratio.
NodeResults importRoiAlign(NodeContext &nc) {
  if (failed(requireOperands(nc, 3)))
    return failure();
  RankedTensorType x = typeOf(nc.operand(0)), rois = typeOf(nc.operand(1));
  if (x.getRank() != 4 || !x.hasStaticShape() || rois.getRank() != 2 ||
      !rois.hasStaticShape() || rois.getDimSize(1) != 4 ||
      !isa<FloatType>(x.getElementType()) ||
      rois.getElementType() != x.getElementType())
    return nc.error() << "expects float X [N, C, H, W] and rois [R, 4] of its "
                         "type, got "
                      << x << " and " << rois,
           failure();
  std::string mode = nc.stringAttr("mode", "avg");
  if (mode != "avg" && mode != "max")
    return nc.error() << "mode '" << mode << "' is not supported", failure();
  int64_t sampling = nc.intAttr("sampling_ratio", 0);
  if (sampling <= 0)
    return nc.error() << "sampling_ratio " << sampling
                      << " (adaptive sampling, a grid sized by each region) "
                         "is not supported",
           failure();
  // Opset 10 has no coordinate_transformation_mode and behaves as
  // output_half_pixel.
  std::string transform =
      nc.stringAttr("coordinate_transformation_mode",
                    nc.opset >= 16 ? "half_pixel" : "output_half_pixel");
  if (transform != "half_pixel" && transform != "output_half_pixel")
    return nc.error() << "coordinate_transformation_mode '" << transform
                      << "' is not supported",
           failure();
  Value indices = nc.operand(2);
  RankedTensorType it = typeOf(indices);
  Type i64 = nc.builder.getI64Type();
  if (it.getElementType() != i64)
    indices = castValue(nc, indices, i64);
  int64_t outH = nc.intAttr("output_height", 1),
          outW = nc.intAttr("output_width", 1);
  if (outH < 1 || outW < 1)
    return nc.error() << "output_height and output_width must be at least 1, "
                         "got "
                      << outH << " and " << outW,
           failure();
  OpBuilder &b = nc.builder;
  return buildTyped<RoiAlignOp>(
      nc,
      RankedTensorType::get({rois.getDimSize(0), x.getDimSize(1), outH, outW},
                            x.getElementType()),
      ValueRange{nc.operand(0), nc.operand(1), indices},
      {b.getNamedAttr("mode", b.getStringAttr(mode)),
       b.getNamedAttr("sampling_ratio", b.getI64IntegerAttr(sampling)),
       b.getNamedAttr("spatial_scale",
                      b.getF64FloatAttr(nc.floatAttr("spatial_scale", 1.0f))),
       b.getNamedAttr("half_pixel", b.getBoolAttr(transform == "half_pixel"))});
}

/// Det: dlc.det over the last two (square) dimensions.
NodeResults importDet(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)) || failed(requireFloat(nc, 1)))
    return failure();
  RankedTensorType t = typeOf(nc.operand(0));
  int64_t rank = t.getRank();
  if (rank < 2 || !t.hasStaticShape() ||
      t.getDimSize(rank - 1) != t.getDimSize(rank - 2))
    return nc.error() << "the input must be square matrices [..., M, M], got "
                      << t,
           failure();
  return buildTyped<DetOp>(
      nc, RankedTensorType::get(t.getShape().drop_back(2), t.getElementType()),
      nc.operand(0));
}

/// Einsum: the equation made explicit (ellipses expanded to letters, the
/// implicit output spelled out), then one dlc.einsum.
NodeResults importEinsum(NodeContext &nc) {
  std::string eq;
  for (char c : nc.stringAttr("equation", ""))
    if (c != ' ')
      eq.push_back(c);
  for (char c : eq)
    if (!llvm::isAlpha(c) && c != ',' && c != '-' && c != '>' && c != '.') {
      std::string shown, bad;
      llvm::raw_string_ostream eqOs(shown), cOs(bad);
      llvm::printEscapedString(eq, eqOs);
      llvm::printEscapedString(StringRef(&c, 1), cOs);
      return nc.error() << "equation '" << shown << "' has the character '"
                        << bad
                        << "'; only letters, ',', '...' and '->' are allowed",
             failure();
    }
  SmallVector<Value> inputs;
  for (size_t i = 0; i < nc.numOperands(); ++i)
    if (nc.operand(i))
      inputs.push_back(nc.operand(i));
  StringRef lhs = eq, out;
  bool explicitOut = StringRef(eq).contains("->");
  if (explicitOut)
    std::tie(lhs, out) = StringRef(eq).split("->");
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != inputs.size())
    return nc.error() << "equation has " << terms.size() << " inputs, node has "
                      << inputs.size(),
           failure();
  // Letters not used by the equation stand for ellipsis dimensions.
  std::string spare;
  for (char c = 'A'; c <= 'Z'; ++c)
    if (eq.find(c) == std::string::npos)
      spare.push_back(c);
  int64_t ellipsisRank = 0;
  SmallVector<std::string> subs;
  struct EllipsisAt { size_t term, pos; int64_t n; };
  SmallVector<EllipsisAt> ellipsisTerms;
  for (auto [term, v] : llvm::zip(terms, inputs)) {
    int64_t rank = typeOf(v).getRank();
    std::string t = term.str();
    size_t pos = t.find("...");
    if (pos != std::string::npos) {
      int64_t n = rank - (int64_t)(t.size() - 3);
      ellipsisRank = std::max(ellipsisRank, n);
      t.erase(pos, 3);
      ellipsisTerms.push_back({subs.size(), pos, n});
    }
    subs.push_back(t);
  }
  // Ellipses align to the right: the last n of the ellipsisRank letters.
  for (const EllipsisAt &e : ellipsisTerms)
    subs[e.term].insert(e.pos, spare.substr(ellipsisRank - e.n, e.n));
  for (auto [t, term, v] : llvm::zip(subs, terms, inputs))
    if ((int64_t)t.size() != typeOf(v).getRank())
      return nc.error() << "term '" << term << "' does not match rank "
                        << typeOf(v).getRank(),
             failure();
  std::string ellipsis = spare.substr(0, ellipsisRank);
  std::string outSubs;
  if (explicitOut) {
    outSubs = out.str();
    size_t pos = outSubs.find("...");
    if (pos != std::string::npos)
      outSubs.replace(pos, 3, ellipsis);
  } else {
    std::string counts;
    for (const std::string &t : subs)
      counts += t;
    outSubs = ellipsis;
    std::string letters;
    for (char c : counts)
      if (ellipsis.find(c) == std::string::npos &&
          std::count(counts.begin(), counts.end(), c) == 1)
        letters.push_back(c);
    llvm::sort(letters);
    outSubs += letters;
  }
  // Result shape from the letters' sizes (checked consistent).
  llvm::DenseMap<char, int64_t> sizes;
  for (auto [t, v] : llvm::zip(subs, inputs))
    for (auto [i, c] : llvm::enumerate(t)) {
      int64_t n = typeOf(v).getDimSize(i);
      auto [it, inserted] = sizes.insert({c, n});
      if (!inserted && it->second != n) {
        if (it->second == 1)
          it->second = n;
        else if (n != 1)
          return nc.error() << "dimension '" << c << "' has sizes "
                            << it->second << " and " << n,
                 failure();
      }
    }
  SmallVector<int64_t> shape;
  for (char c : outSubs) {
    if (!sizes.count(c))
      return nc.error() << "output letter '" << c << "' is not in the inputs",
             failure();
    shape.push_back(sizes[c]);
  }
  std::string canonical = llvm::join(subs, ",") + "->" + outSubs;
  return buildTyped<EinsumOp>(
      nc, RankedTensorType::get(shape, typeOf(inputs[0]).getElementType()),
      inputs,
      {nc.builder.getNamedAttr("equation", nc.builder.getStringAttr(canonical))});
}

/// GatherND: flatten the batch dimensions and the indexed ones and gather
/// by the linear index batch * (indexed volume) + sum(idx[j] * stride[j]),
/// each idx[j] checked against its dimension first.
/// The indexed and trailing dimensions of the data may be dynamic
/// (symbolic, or data-dependent): their sizes and strides are read at run
/// time.
NodeResults importGatherND(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)))
    return failure();
  Value data = nc.operand(0), idx = nc.operand(1);
  auto dt = typeOf(data), it = typeOf(idx);
  int64_t batchDims = nc.intAttr("batch_dims", 0);
  // Indices may have run-time sizes (data-dependent, symbolic) but for
  // the index depth and the batch dimensions.
  if (it.getRank() < 1 || it.isDynamicDim(it.getRank() - 1) ||
      llvm::any_of(it.getShape().take_front(std::max<int64_t>(0, batchDims)),
                   ShapedType::isDynamic) ||
      (batchDims > 0 && !dt.hasStaticShape()))
    return nc.error() << "needs a static index depth and batch dimensions "
                         "(and static data with batch_dims), not data "
                      << dt << " and indices " << it,
           failure();
  int64_t r = it.getDimSize(it.getRank() - 1);
  if (r < 1)
    return nc.error() << "the index depth (the indices' last dimension) must "
                         "be at least 1, not "
                      << r,
           failure();
  if (batchDims < 0 || batchDims >= std::min(dt.getRank(), it.getRank()) ||
      batchDims + r > dt.getRank() ||
      dt.getShape().take_front(batchDims) !=
          it.getShape().take_front(batchDims))
    return nc.error() << "batch_dims " << batchDims << " and index depth " << r
                      << " do not fit data " << dt << " and indices " << it,
           failure();
  OpBuilder &b = nc.builder;
  Type i64 = b.getI64Type();
  if (it.getElementType() != i64)
    idx = one(buildTyped<CastOp>(nc, RankedTensorType::get(it.getShape(), i64), {idx}));
  // Linear index = idx @ strides (negative indices wrap per dimension).
  // The sizes of the indexed dimensions and their strides, as [r] vectors
  // (constants when static).
  ArrayRef<int64_t> indexed = dt.getShape().slice(batchDims, r);
  bool dynamicIndexed = llvm::any_of(indexed, ShapedType::isDynamic);
  SmallVector<int64_t> strides(r);
  int64_t flat = 1;
  for (int64_t j = r - 1; j >= 0 && !dynamicIndexed; --j) {
    strides[j] = flat;
    flat *= indexed[j];
  }
  auto vectorOf = [&](ArrayRef<int64_t> values,
                      ArrayRef<Value> sizes) -> Value {
    if (!dynamicIndexed)
      return constant(
          nc, DenseElementsAttr::get(RankedTensorType::get({r}, i64), values));
    SmallVector<Value> elements;
    for (Value v : sizes)
      elements.push_back(arith::IndexCastOp::create(b, nc.loc, i64, v));
    return tensor::FromElementsOp::create(
        b, nc.loc, RankedTensorType::get({r}, i64), elements);
  };
  SmallVector<Value> dimValues, strideValues(r);
  if (dynamicIndexed) {
    for (int64_t j = 0; j < r; ++j)
      dimValues.push_back(
          numElementsOf(nc, data, batchDims + j, batchDims + j + 1));
    Value running = arith::ConstantIndexOp::create(b, nc.loc, 1);
    for (int64_t j = r - 1; j >= 0; --j) {
      strideValues[j] = running;
      running = arith::MulIOp::create(b, nc.loc, running, dimValues[j]);
    }
  }
  Value dimSizes = vectorOf(indexed, dimValues);
  // Each component of an index tuple within its own dimension (the linear
  // index alone would let one run into the next).
  idx = checkIndices(nc, idx, indexed, dynamicIndexed ? dimSizes : Value());
  if (!idx)
    return failure();
  Value neg = one(buildInferred<LessOp>(nc, {idx, scalarConstant(nc, i64, 0)}));
  idx = one(buildInferred<WhereOp>(
      nc, {neg, one(buildInferred<AddOp>(nc, {idx, dimSizes})), idx}));
  Value strideVec = vectorOf(strides, strideValues);
  Value weighted = one(buildInferred<MulOp>(nc, {idx, strideVec}));
  Value linear = reduce(nc, weighted, "sum", {it.getRank() - 1},
                        /*keepdims=*/false);
  int64_t batch = 1;
  for (int64_t d : dt.getShape().take_front(batchDims))
    batch *= d;
  if (batchDims > 0 && linear) {
    // Each index tuple's position in the batch, broadcast over the index
    // dimensions after the batch ones.
    SmallVector<int64_t> offsets(batch),
        shape(dt.getShape().take_front(batchDims));
    for (int64_t i = 0; i < batch; ++i)
      offsets[i] = i * flat;
    shape.append(it.getRank() - 1 - batchDims, 1);
    Value base =
        constant(nc, DenseElementsAttr::get(RankedTensorType::get(shape, i64),
                                            ArrayRef<int64_t>(offsets)));
    linear = one(buildInferred<AddOp>(nc, {linear, base}));
  }
  // The data as [batch * indexed volume, trailing...].
  SmallVector<int64_t> flatShape{dynamicIndexed ? ShapedType::kDynamic
                                                : batch * flat};
  llvm::append_range(flatShape, dt.getShape().drop_front(batchDims + r));
  SmallVector<Value> flatSizes;
  if (dynamicIndexed)
    flatSizes.push_back(numElementsOf(nc, data, 0, batchDims + r));
  llvm::append_range(flatSizes,
                     dynamicSizesOf(nc, data, batchDims + r, dt.getRank()));
  Value flatData = one(reshapeTo(nc, data, flatShape, flatSizes));
  if (!linear || !flatData)
    return failure();
  return buildInferred<GatherOp>(
      nc, {flatData, linear}, {b.getNamedAttr("axis", b.getI64IntegerAttr(0))});
}

} // namespace

void dlc::addCompositeImporters(NodeImporterTable &t) {
  t["Einsum"] = importEinsum;
  t["Det"] = importDet;
  t["RoiAlign"] = importRoiAlign;
  t["GatherND"] = importGatherND;
  t["TopK"] = importTopK;
  t["LRN"] = importLRN;
  t["HannWindow"] = importWindow;
  t["HammingWindow"] = importWindow;
  t["BlackmanWindow"] = importWindow;
  t["BitShift"] = importBitShift;
  t["CumSum"] = importCumSum;
  t["Hardmax"] = importHardmax;
  t["EyeLike"] = importEyeLike;
  t["DepthToSpace"] = importDepthToSpace;
  t["SpaceToDepth"] = importSpaceToDepth;
  t["GlobalMaxPool"] = importGlobalMaxPool;
  t["InstanceNormalization"] = importInstanceNormalization;
  t["MeanVarianceNormalization"] = importMeanVarianceNormalization;
  t["OneHot"] = importOneHot;
}
