//===- ResizeImporter.cpp - ONNX Resize / Upsample ------------------------===//
//
// With static shapes, resizing is linear in the input and separable: along
// each resized axis the output is W * x for an (out x in) matrix W of
// interpolation weights computed here, at compile time, exactly as ONNX's
// reference defines them (coordinate transformation, nearest rounding,
// linear and cubic coefficients, edge padding, exclude_outside). Each axis
// then becomes one MatMul with a constant.
//
// An axis of dynamic size (symbolic, or data-dependent) is resized at run
// time instead: per output position, the source positions ("taps") and
// their coefficients are computed by the same rules (tensor.generate, in
// double precision as the reference), and the output is the sum over taps
// of Gather(x, tap) * coefficient.
//
//===----------------------------------------------------------------------===//
#include "frontend/NodeImporter.h"
#include "ir/DlcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace dlc;

namespace {

struct ResizeMode {
  std::string mode, transform, nearestMode;
  double cubicA = -0.75;
  bool excludeOutside = false;
};

/// Coefficients of the neighbors around `ratio` (ONNX reference semantics).
SmallVector<double> coefficients(const ResizeMode &m, double ratio,
                                 bool isInteger) {
  if (m.mode == "nearest") {
    if (isInteger)
      return {0, 1};
    if (m.nearestMode == "round_prefer_ceil")
      return {double(ratio < 0.5), double(ratio >= 0.5)};
    if (m.nearestMode == "floor")
      return {1, 0};
    if (m.nearestMode == "ceil")
      return {0, 1};
    return {double(ratio <= 0.5), double(ratio > 0.5)}; // round_prefer_floor
  }
  if (m.mode == "linear")
    return {1 - ratio, ratio};
  double a = m.cubicA, r = ratio, s = 1 - ratio;
  return {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
          ((a + 2) * r - (a + 3)) * r * r + 1,
          ((a + 2) * s - (a + 3)) * s * s + 1,
          ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a};
}

/// Row-major (out x in) interpolation weights for one axis. With
/// tf_crop_and_resize, `roi` is the axis' crop window (start, end) and
/// `outside` marks the outputs outside the input, whose rows stay zero
/// (they take the extrapolation value).
FailureOr<SmallVector<double>> axisWeights(NodeContext &nc, const ResizeMode &m,
                                           int64_t in, int64_t out,
                                           double scale,
                                           std::pair<double, double> roi,
                                           SmallVectorImpl<bool> &outside) {
  SmallVector<double> w(out * in, 0.0);
  outside.assign(out, false);
  double outWidth = scale * in;
  for (int64_t x = 0; x < out; ++x) {
    double xo;
    if (m.transform == "tf_crop_and_resize") {
      auto [start, end] = roi;
      xo = out > 1 ? start * (in - 1) + x * (end - start) * (in - 1) / (out - 1)
                   : 0.5 * (start + end) * (in - 1);
      if (xo < 0 || xo > in - 1) {
        outside[x] = true;
        continue;
      }
    } else if (m.transform == "align_corners")
      xo = outWidth == 1 ? 0 : x * double(in - 1) / (outWidth - 1);
    else if (m.transform == "asymmetric")
      xo = x / scale;
    else if (m.transform == "pytorch_half_pixel")
      xo = outWidth == 1 ? -0.5 : (x + 0.5) / scale - 0.5;
    else if (m.transform == "half_pixel")
      xo = (x + 0.5) / scale - 0.5;
    else if (m.transform == "tf_half_pixel_for_nn")
      xo = (x + 0.5) / scale;
    else
      return nc.error() << "coordinate_transformation_mode '" << m.transform
                        << "' is not supported",
             failure();
    double fl = std::floor(xo);
    bool isInteger = xo == fl;
    double ratio = isInteger ? 1 : xo - fl;
    SmallVector<double> c = coefficients(m, ratio, isInteger);
    int64_t n = c.size(), pad = (n + 1) / 2;
    // The n nearest positions in the edge-padded axis, ties to the lower.
    double xp = xo + pad;
    SmallVector<int64_t> idx;
    for (int64_t i = 0; i < in + 2 * pad; ++i)
      idx.push_back(i);
    std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) {
      double da = std::abs(xp - a), db = std::abs(xp - b);
      return da < db || (da == db && a < b);
    });
    idx.resize(n);
    llvm::sort(idx);
    if (m.excludeOutside) {
      double sum = 0;
      for (int64_t i = 0; i < n; ++i) {
        int64_t src = idx[i] - pad;
        if (src < 0 || src >= in)
          c[i] = 0;
        sum += c[i];
      }
      for (double &v : c)
        v = sum != 0 ? v / sum : 0;
    }
    for (int64_t i = 0; i < n; ++i) {
      int64_t src = std::clamp<int64_t>(idx[i] - pad, 0, in - 1);
      w[x * in + src] += c[i];
    }
  }
  return w;
}

/// `v` as M / 2^k (M, 2^k), exactly: a float32 scale (or its product with
/// a float32 extent) is such a dyadic rational. None when M or 2^k does not
/// fit in 31 bits (a size times M must not overflow).
std::optional<std::pair<int64_t, int64_t>> dyadic(double v) {
  if (!(v > 0) || !std::isfinite(v))
    return std::nullopt;
  int64_t den = 1;
  while (v != std::floor(v)) {
    if (den >= (int64_t(1) << 30))
      return std::nullopt;
    v *= 2;
    den *= 2;
  }
  if (v >= double(int64_t(1) << 31))
    return std::nullopt;
  return std::make_pair(int64_t(v), den);
}

/// The taps of output position `x` along one axis of run-time size `in`
/// (index values), as ONNX's reference computes them (axisWeights):
/// clamped source positions and their coefficients (f64), and whether the
/// position is outside a tf_crop_and_resize window.
struct Taps {
  SmallVector<Value> src, coef;
  Value outside;
};

Taps tapsAt(OpBuilder &b, Location loc, const ResizeMode &m, Value x,
            Value inIndex, Value outIndex, std::optional<double> scale,
            std::pair<double, double> roi) {
  Type f64 = b.getF64Type();
  auto cst = [&](double v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(f64, v));
  };
  auto toF = [&](Value index) -> Value {
    Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
    return arith::SIToFPOp::create(b, loc, f64, i);
  };
  auto add = [&](Value p, Value q) -> Value {
    return arith::AddFOp::create(b, loc, p, q);
  };
  auto sub = [&](Value p, Value q) -> Value {
    return arith::SubFOp::create(b, loc, p, q);
  };
  auto mul = [&](Value p, Value q) -> Value {
    return arith::MulFOp::create(b, loc, p, q);
  };
  auto div = [&](Value p, Value q) -> Value {
    return arith::DivFOp::create(b, loc, p, q);
  };
  auto cmp = [&](arith::CmpFPredicate pred, Value p, Value q) -> Value {
    return arith::CmpFOp::create(b, loc, pred, p, q);
  };
  auto select = [&](Value c, Value p, Value q) -> Value {
    return arith::SelectOp::create(b, loc, c, p, q);
  };
  using P = arith::CmpFPredicate;
  Value xf = toF(x), in = toF(inIndex), out = toF(outIndex);
  // Sizes mode: the scale is out / in.
  Value sc = scale ? cst(*scale) : div(out, in);
  Value outWidth = mul(sc, in), one = cst(1), half = cst(0.5);
  Value xo, outside = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
  if (m.transform == "tf_crop_and_resize") {
    auto [start, end] = roi;
    Value last = sub(in, one);
    Value spread =
        add(mul(cst(start), last),
            div(mul(mul(xf, cst(end - start)), last), sub(out, one)));
    Value middle = mul(cst(0.5 * (start + end)), last);
    xo = select(cmp(P::OGT, out, one), spread, middle);
    outside = arith::OrIOp::create(b, loc, cmp(P::OLT, xo, cst(0)),
                                   cmp(P::OGT, xo, last));
  } else if (m.transform == "align_corners") {
    xo = select(cmp(P::OEQ, outWidth, one), cst(0),
                div(mul(xf, sub(in, one)), sub(outWidth, one)));
  } else if (m.transform == "asymmetric") {
    xo = div(xf, sc);
  } else if (m.transform == "pytorch_half_pixel") {
    xo = select(cmp(P::OEQ, outWidth, one), cst(-0.5),
                sub(div(add(xf, half), sc), half));
  } else if (m.transform == "half_pixel") {
    xo = sub(div(add(xf, half), sc), half);
  } else { // tf_half_pixel_for_nn (checked by the caller)
    xo = div(add(xf, half), sc);
  }
  // floor(xo) (a truncation, one less below zero off integers).
  Type i64 = b.getI64Type();
  Value truncated = arith::SIToFPOp::create(
      b, loc, f64, arith::FPToSIOp::create(b, loc, i64, xo));
  Value fl = select(cmp(P::OGT, truncated, xo), sub(truncated, one), truncated);
  Value isInteger = cmp(P::OEQ, xo, fl);
  Value ratio = select(isInteger, one, sub(xo, fl));
  // Coefficients of the n taps (coefficients(), on values).
  SmallVector<Value> c;
  if (m.mode == "nearest") {
    Value up;
    if (m.nearestMode == "round_prefer_ceil")
      up = cmp(P::OGE, ratio, half);
    else if (m.nearestMode == "floor")
      up = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
    else if (m.nearestMode == "ceil")
      up = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    else
      up = cmp(P::OGT, ratio, half);
    up = arith::OrIOp::create(b, loc, up, isInteger);
    c = {select(up, cst(0), one), select(up, one, cst(0))};
  } else if (m.mode == "linear") {
    c = {sub(one, ratio), ratio};
  } else {
    Value a = cst(m.cubicA), r = ratio, s = sub(one, ratio);
    Value r1 = add(r, one), s1 = add(s, one);
    Value a5 = cst(5 * m.cubicA), a8 = cst(8 * m.cubicA),
          a4 = cst(4 * m.cubicA), a2 = cst(m.cubicA + 2),
          a3 = cst(m.cubicA + 3);
    auto outer = [&](Value t) {
      return sub(mul(add(mul(sub(mul(a, t), a5), t), a8), t), a4);
    };
    auto inner = [&](Value t) {
      return add(mul(mul(sub(mul(a2, t), a3), t), t), one);
    };
    c = {outer(r1), inner(r), inner(s), outer(s1)};
  }
  int64_t n = c.size();
  // The first tap: fl - n/2 at integers, fl - n/2 + 1 otherwise (the n
  // nearest positions, ties to the lower).
  Value flI = arith::FPToSIOp::create(b, loc, i64, fl);
  Value first = arith::SubIOp::create(
      b, loc, flI,
      select(isInteger, arith::ConstantIntOp::create(b, loc, i64, n / 2),
             arith::ConstantIntOp::create(b, loc, i64, n / 2 - 1)));
  Value inI = arith::IndexCastOp::create(b, loc, i64, inIndex);
  Value zeroI = arith::ConstantIntOp::create(b, loc, i64, 0);
  Value lastI = arith::SubIOp::create(
      b, loc, inI, arith::ConstantIntOp::create(b, loc, i64, 1));
  Taps taps;
  Value sum = cst(0);
  SmallVector<Value> raw;
  for (int64_t k = 0; k < n; ++k) {
    Value src = arith::AddIOp::create(
        b, loc, first, arith::ConstantIntOp::create(b, loc, i64, k));
    if (m.excludeOutside) {
      Value inside = arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, src, zeroI),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, src, lastI));
      c[k] = select(inside, c[k], cst(0));
      sum = add(sum, c[k]);
    }
    src = arith::MaxSIOp::create(b, loc, src, zeroI);
    src = arith::MinSIOp::create(b, loc, src, lastI);
    taps.src.push_back(src);
  }
  for (int64_t k = 0; k < n; ++k) {
    Value ck = c[k];
    if (m.excludeOutside)
      ck = select(cmp(P::ONE, sum, cst(0)), div(ck, sum), cst(0));
    taps.coef.push_back(select(outside, cst(0), ck));
  }
  taps.outside = outside;
  return taps;
}

/// Resizes `x` along `axis`, whose size is known at run time only (or
/// whose output size is): the output size is `outSize` (a constant, or
/// in * scale rounded down), the taps are computed per output position.
FailureOr<Value> resizeAxisAtRunTime(NodeContext &nc, const ResizeMode &m,
                                     Value x, int64_t axis,
                                     std::optional<int64_t> outSize,
                                     std::optional<double> scale, double extent,
                                     std::pair<double, double> roi,
                                     double extrapolation) {
  OpBuilder &b = nc.builder;
  Location loc = nc.loc;
  RankedTensorType t = typeOf(x);
  int64_t rank = t.getRank();
  Type et = t.getElementType();
  Value in = b.createOrFold<tensor::DimOp>(loc, x, axis);
  Value out;
  if (outSize) {
    out = arith::ConstantIndexOp::create(b, loc, *outSize);
  } else {
    // floor(in * extent * scale), exactly (integer arithmetic, which the
    // bounds analysis bounds).
    std::optional<std::pair<int64_t, int64_t>> q = dyadic(extent * *scale);
    if (!q)
      return nc.error() << "the scale " << *scale << " of axis " << axis
                        << " (of run-time size) is not supported: its exact "
                           "fraction is too large",
             failure();
    out = b.createOrFold<arith::FloorDivSIOp>(
        loc,
        b.createOrFold<arith::MulIOp>(
            loc, in, arith::ConstantIndexOp::create(b, loc, q->first)),
        arith::ConstantIndexOp::create(b, loc, q->second));
  }
  std::optional<int64_t> staticOut = getConstantIntValue(out);
  int64_t outDim = staticOut.value_or(ShapedType::kDynamic);
  SmallVector<Value> dyn;
  if (!staticOut)
    dyn.push_back(out);
  // A vector of `type` over the output positions, along `axis` of a rank
  // `r` tensor (1 elsewhere), computed from each position's taps.
  auto perPosition =
      [&](Type type, int64_t r, int64_t at,
          function_ref<Value(OpBuilder &, Location, Taps &)> of) -> Value {
    SmallVector<int64_t> shape(r, 1);
    shape[at] = outDim;
    return tensor::GenerateOp::create(
        b, loc, RankedTensorType::get(shape, type), dyn,
        [&](OpBuilder &gb, Location l, ValueRange ivs) {
          Value inHere = gb.createOrFold<tensor::DimOp>(l, x, axis);
          Taps taps = tapsAt(gb, l, m, ivs[at], inHere, out, scale, roi);
          tensor::YieldOp::create(gb, l, of(gb, l, taps));
        });
  };
  int64_t n = m.mode == "cubic" ? 4 : 2;
  Value sum;
  for (int64_t k = 0; k < n; ++k) {
    Value idx = perPosition(
        b.getI64Type(), 1, 0,
        [&](OpBuilder &, Location, Taps &taps) { return taps.src[k]; });
    Value coef = perPosition(
        et, rank, axis, [&](OpBuilder &gb, Location l, Taps &taps) -> Value {
          if (et.isF64())
            return taps.coef[k];
          return arith::TruncFOp::create(gb, l, et, taps.coef[k]);
        });
    auto gathered = buildInferred<GatherOp>(
        nc, {x, idx}, {b.getNamedAttr("axis", b.getI64IntegerAttr(axis))});
    if (failed(gathered))
      return failure();
    Value term = one(buildInferred<MulOp>(nc, {(*gathered)[0], coef}));
    if (!term)
      return failure();
    sum = sum ? one(buildInferred<AddOp>(nc, {sum, term})) : term;
    if (!sum)
      return failure();
  }
  if (m.transform == "tf_crop_and_resize" && extrapolation != 0) {
    Value bias = perPosition(
        et, rank, axis, [&](OpBuilder &gb, Location l, Taps &taps) -> Value {
          Value v = arith::ConstantOp::create(
              gb, l, gb.getFloatAttr(et, extrapolation));
          Value zero = arith::ConstantOp::create(gb, l, gb.getZeroAttr(et));
          return arith::SelectOp::create(gb, l, taps.outside, v, zero);
        });
    sum = one(buildInferred<AddOp>(nc, {sum, bias}));
    if (!sum)
      return failure();
  }
  return sum;
}

NodeResults importResize(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)) || failed(requireFloat(nc, 1)))
    return failure();
  Value x = nc.operand(0);
  auto t = typeOf(x);
  int64_t rank = t.getRank();
  bool upsample = nc.node.op_type() == "Upsample";
  ResizeMode m;
  m.mode = nc.stringAttr("mode", "nearest");
  m.transform = upsample || nc.opset < 11
                    ? "asymmetric"
                    : nc.stringAttr("coordinate_transformation_mode",
                                    "half_pixel");
  m.nearestMode = nc.opset < 11 ? "floor"
                                : nc.stringAttr("nearest_mode",
                                                "round_prefer_floor");
  m.cubicA = nc.floatAttr("cubic_coeff_a", -0.75f);
  m.excludeOutside = nc.intAttr("exclude_outside", 0);
  if (m.mode != "nearest" && m.mode != "linear" && m.mode != "cubic" &&
      !(nc.opset < 11 && m.mode == "bilinear"))
    return nc.error() << "mode '" << m.mode << "' is not supported",
           failure();
  if (m.mode == "bilinear")
    m.mode = "linear";
  if (nc.attr("antialias") && nc.intAttr("antialias", 0))
    return nc.error() << "antialias is not supported", failure();

  // Scales (floats) or sizes (ints), from attributes or constant inputs.
  SmallVector<double> scales;
  SmallVector<int64_t> sizes;
  size_t scalesIndex = nc.opset >= 11 ? 2 : 1;
  if (upsample && nc.opset < 9) {
    for (float s : nc.attr("scales") ? nc.attr("scales")->floats()
                                     : decltype(nc.attr("scales")->floats()){})
      scales.push_back(s);
  } else if (nc.opset >= 11 && nc.operand(3)) {
    auto s = nc.constantInts(3);
    if (!s)
      return nc.error() << "sizes must be a constant", failure();
    sizes = *s;
  } else if (nc.operand(scalesIndex)) {
    DenseElementsAttr attr;
    const onnx::TensorProto *proto = nc.constantOperand(scalesIndex);
    std::string error;
    if (proto)
      attr = dyn_cast_or_null<DenseElementsAttr>(
          convertTensor(nc.builder.getContext(), *proto, error));
    else
      matchPattern(nc.constantOperandValue(scalesIndex), m_Constant(&attr));
    if (!attr || !isa<FloatType>(attr.getElementType()))
      return nc.error() << "scales must be a float constant", failure();
    for (const APFloat &v : attr.getValues<APFloat>())
      scales.push_back(v.convertToDouble());
  }
  if (sizes.empty() && (int64_t)scales.size() != rank)
    return nc.error() << "needs " << rank << " scales or sizes", failure();
  // tf_crop_and_resize: the crop window of each axis (a constant roi, or an
  // input `dlc run` specializes) and the value outside the input.
  SmallVector<double> roi;
  double extrapolation = nc.floatAttr("extrapolation_value", 0.0f);
  if (m.transform == "tf_crop_and_resize") {
    const onnx::TensorProto *proto = nc.constantOperand(1);
    DenseElementsAttr attr;
    std::string error;
    if (proto)
      attr = dyn_cast_or_null<DenseElementsAttr>(
          convertTensor(nc.builder.getContext(), *proto, error));
    else if (nc.operand(1))
      matchPattern(nc.constantOperandValue(1), m_Constant(&attr));
    if (!attr || !isa<FloatType>(attr.getElementType()) ||
        attr.getNumElements() != 2 * rank)
      return nc.error() << "tf_crop_and_resize needs a constant float roi of "
                        << 2 * rank << " values",
             failure();
    for (const APFloat &v : attr.getValues<APFloat>())
      roi.push_back(v.convertToDouble());
  }
  if (!sizes.empty() && (int64_t)sizes.size() != rank)
    return nc.error() << "needs " << rank << " sizes", failure();
  // Sizes and scales that give no axis length (the limit keeps each axis's
  // interpolation weights, input by output, a matrix that can be built).
  constexpr int64_t kMaxResizedAxis = int64_t(1) << 24;
  for (int64_t s : sizes)
    if (s < 1 || s > kMaxResizedAxis)
      return nc.error() << "size " << s << " is outside [1, " << kMaxResizedAxis
                        << "]",
             failure();
  for (double s : scales)
    if (!std::isfinite(s) || s <= 0)
      return nc.error() << "scale " << s << " must be finite and positive",
             failure();

  Type et = t.getElementType();
  OpBuilder &b = nc.builder;
  if (!llvm::is_contained({"tf_crop_and_resize", "align_corners", "asymmetric",
                           "pytorch_half_pixel", "half_pixel",
                           "tf_half_pixel_for_nn"},
                          m.transform))
    return nc.error() << "coordinate_transformation_mode '" << m.transform
                      << "' is not supported",
           failure();
  for (int64_t axis = 0; axis < rank; ++axis) {
    // tf_crop_and_resize scales the crop window, not the whole axis.
    double extent = roi.empty() ? 1.0 : roi[rank + axis] - roi[axis];
    std::pair<double, double> window{0.0, 1.0};
    if (!roi.empty())
      window = {roi[axis], roi[rank + axis]};
    if (typeOf(x).isDynamicDim(axis)) {
      // Scale 1 over the whole axis keeps it (as for static sizes).
      if (sizes.empty() && scales[axis] == 1.0 &&
          window == std::make_pair(0.0, 1.0))
        continue;
      FailureOr<Value> resized = resizeAxisAtRunTime(
          nc, m, x, axis,
          sizes.empty() ? std::nullopt : std::optional<int64_t>(sizes[axis]),
          sizes.empty() ? std::optional<double>(scales[axis]) : std::nullopt,
          extent, window, extrapolation);
      if (failed(resized))
        return failure();
      x = *resized;
      continue;
    }
    int64_t in = typeOf(x).getDimSize(axis);
    double scaled = std::floor(in * extent * scales[axis]);
    if (sizes.empty() && !(scaled >= 1 && scaled <= kMaxResizedAxis))
      return nc.error() << "scale " << scales[axis] << " resizes axis " << axis
                        << " of size " << in << " to "
                        << llvm::formatv("{0:F0}", scaled).str()
                        << " elements, outside [1, " << kMaxResizedAxis << "]",
             failure();
    int64_t out = sizes.empty() ? (int64_t)scaled : sizes[axis];
    if (in > 0 && out > kMaxResizedAxis * 16 / in)
      return nc.error() << "resizing axis " << axis << " from " << in << " to "
                        << out << " takes an interpolation matrix of "
                        << in * out << " weights (at most "
                        << kMaxResizedAxis * 16 << ")",
             failure();
    double scale = sizes.empty() ? scales[axis] : double(out) / in;
    if (out == in && scale == 1.0 && window == std::make_pair(0.0, 1.0))
      continue;
    SmallVector<bool> outside;
    FailureOr<SmallVector<double>> w =
        axisWeights(nc, m, in, out, scale, window, outside);
    if (failed(w))
      return failure();
    // Transposed weights (in x out) for x[..., in] @ W^T.
    SmallVector<APFloat> wt;
    for (int64_t i = 0; i < in; ++i)
      for (int64_t o = 0; o < out; ++o) {
        APFloat v((*w)[o * in + i]);
        bool lost;
        v.convert(cast<FloatType>(et).getFloatSemantics(),
                  APFloat::rmNearestTiesToEven, &lost);
        wt.push_back(v);
      }
    Value weights = ConstantOp::create(
        b, nc.loc,
        DenseElementsAttr::get(RankedTensorType::get({in, out}, et), wt));
    SmallVector<int64_t> perm;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        perm.push_back(d);
    perm.push_back(axis);
    SmallVector<int64_t> inverse(rank);
    for (int64_t d = 0; d < rank; ++d)
      inverse[perm[d]] = d;
    auto tr = [&](Value v, ArrayRef<int64_t> p) {
      return (*buildInferred<TransposeOp>(
          nc, {v}, {b.getNamedAttr("perm", b.getDenseI64ArrayAttr(p))}))[0];
    };
    Value moved = axis == rank - 1 ? x : tr(x, perm);
    auto mm = buildInferred<MatMulOp>(nc, {moved, weights});
    if (failed(mm))
      return failure();
    Value resized = (*mm)[0];
    if (llvm::is_contained(outside, true)) {
      // Outputs outside the input: their zero row plus the extrapolation
      // value (later axes mix such rows with weights that sum to 1).
      SmallVector<APFloat> bias;
      for (bool o : outside) {
        APFloat v(o ? extrapolation : 0.0);
        bool lost;
        v.convert(cast<FloatType>(et).getFloatSemantics(),
                  APFloat::rmNearestTiesToEven, &lost);
        bias.push_back(v);
      }
      Value biasValue = ConstantOp::create(
          b, nc.loc,
          DenseElementsAttr::get(RankedTensorType::get({out}, et), bias));
      resized = one(buildInferred<AddOp>(nc, {resized, biasValue}));
      if (!resized)
        return failure();
    }
    x = axis == rank - 1 ? resized : tr(resized, inverse);
  }
  return SmallVector<Value>{x};
}

} // namespace

void dlc::addResizeImporters(NodeImporterTable &t) {
  t["Resize"] = importResize;
  t["Upsample"] = importResize;
}
