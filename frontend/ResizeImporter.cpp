//===- ResizeImporter.cpp - ONNX Resize / Upsample ------------------------===//
//
// With static shapes, resizing is linear in the input and separable: along
// each resized axis the output is W * x for an (out x in) matrix W of
// interpolation weights computed here, at compile time, exactly as ONNX's
// reference defines them (coordinate transformation, nearest rounding,
// linear and cubic coefficients, edge padding, exclude_outside). Each axis
// then becomes one MatMul with a constant.
//
//===----------------------------------------------------------------------===//
#include "frontend/NodeImporter.h"
#include "ir/DlcOps.h"

#include "mlir/IR/Matchers.h"

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

NodeResults importResize(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)) || failed(requireFloat(nc, 1)))
    return failure();
  Value x = nc.operand(0);
  auto t = typeOf(x);
  int64_t rank = t.getRank();
  if (!t.hasStaticShape())
    return nc.error() << "dynamic input shapes are not supported yet",
           failure();
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

  Type et = t.getElementType();
  OpBuilder &b = nc.builder;
  for (int64_t axis = 0; axis < rank; ++axis) {
    int64_t in = t.getDimSize(axis);
    // tf_crop_and_resize scales the crop window, not the whole axis.
    double extent = roi.empty() ? 1.0 : roi[rank + axis] - roi[axis];
    int64_t out = sizes.empty()
                      ? (int64_t)std::floor(in * extent * scales[axis])
                      : sizes[axis];
    double scale = sizes.empty() ? scales[axis] : double(out) / in;
    std::pair<double, double> window{0.0, 1.0};
    if (!roi.empty())
      window = {roi[axis], roi[rank + axis]};
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
