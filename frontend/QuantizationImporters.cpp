//===- QuantizationImporters.cpp - ONNX quantization ops ------------------===//
//
// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, MatMulInteger,
// ConvInteger, QLinearMatMul and QLinearConv as float arithmetic. Integer
// products are accumulated in f64, where they are exact, so results match
// ONNX's integer semantics.
//
//===----------------------------------------------------------------------===//
#include "frontend/NodeImporter.h"
#include "ir/DlcOps.h"

#include <cmath>

using namespace mlir;
using namespace dlc;

namespace {


/// Operand i as `et`, or `dflt` (a scalar) when absent.
Value operandAs(NodeContext &nc, size_t i, Type et, double dflt = 0) {
  if (!nc.operand(i))
    return scalarConstant(nc, et, dflt);
  return castValue(nc, nc.operand(i), et, nc.isUnsigned(i));
}

/// A per-axis parameter (1-D of the axis' size) shaped to broadcast against
/// a rank-`rank` tensor along `axis`; scalars pass through.
Value alongAxis(NodeContext &nc, Value p, int64_t axis, int64_t rank) {
  auto t = typeOf(p);
  if (t.getRank() == 0 || rank <= 1)
    return p;
  SmallVector<int64_t> shape(rank, 1);
  shape[axis] = t.getRank() == 1 ? t.getDimSize(0) : t.getNumElements();
  return one(reshapeTo(nc, p, shape));
}

/// saturate(round_half_even(v) + zp) into the integer type `qt`.
Value quantize(NodeContext &nc, Value v, Value zp, Type qt, bool isUnsigned) {
  if (!v || !zp)
    return Value();
  Type et = typeOf(v).getElementType();
  v = one(buildTyped<RoundOp>(nc, v.getType(), {v}));
  v = one(buildInferred<AddOp>(nc, {v, zp}));
  unsigned w = qt.getIntOrFloatBitWidth();
  double lo = isUnsigned ? 0 : -std::ldexp(1.0, w - 1);
  double hi = isUnsigned ? std::ldexp(1.0, w) - 1 : std::ldexp(1.0, w - 1) - 1;
  v = one(buildInferred<MaxOp>(nc, {v, scalarConstant(nc, et, lo)}));
  v = one(buildInferred<MinOp>(nc, {v, scalarConstant(nc, et, hi)}));
  return castValue(nc, v, qt, false, isUnsigned);
}

/// The quantized type and signedness of zero point operand `i` (uint8 when
/// absent, as ONNX specifies).
std::pair<Type, bool> zeroPointType(NodeContext &nc, size_t i) {
  if (!nc.operand(i))
    return {nc.builder.getIntegerType(8), true};
  return {typeOf(nc.operand(i)).getElementType(), nc.isUnsigned(i)};
}

NodeResults importDequantizeLinear(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)))
    return failure();
  auto t = typeOf(nc.operand(0));
  Type f = typeOf(nc.operand(1)).getElementType();
  // The axis only matters for per-axis (1-D) scales.
  FailureOr<int64_t> axis = 0;
  if (typeOf(nc.operand(1)).getRank() == 1)
    axis = normalizeAxis(nc, nc.intAttr("axis", 1), t.getRank());
  else
    nc.acknowledgeAttr("axis");
  if (failed(axis))
    return failure();
  Value x = castValue(nc, nc.operand(0), f, nc.isUnsigned(0));
  Value zp = alongAxis(nc, operandAs(nc, 2, f), *axis, t.getRank());
  Value scale = alongAxis(nc, nc.operand(1), *axis, t.getRank());
  return buildInferred<MulOp>(nc, {one(buildInferred<SubOp>(nc, {x, zp})), scale});
}

NodeResults importQuantizeLinear(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)) || failed(requireFloat(nc, 2)))
    return failure();
  auto t = typeOf(nc.operand(0));
  Type f = t.getElementType();
  // The axis only matters for per-axis (1-D) scales.
  FailureOr<int64_t> axis = 0;
  if (typeOf(nc.operand(1)).getRank() == 1)
    axis = normalizeAxis(nc, nc.intAttr("axis", 1), t.getRank());
  else
    nc.acknowledgeAttr("axis");
  if (failed(axis))
    return failure();
  auto [qt, isUnsigned] = zeroPointType(nc, 2);
  Value scale = alongAxis(nc, nc.operand(1), *axis, t.getRank());
  Value zp = alongAxis(nc, operandAs(nc, 2, f), *axis, t.getRank());
  Value v = one(buildInferred<DivOp>(nc, {nc.operand(0), scale}));
  return SmallVector<Value>{quantize(nc, v, zp, qt, isUnsigned)};
}

NodeResults importDynamicQuantizeLinear(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)) || failed(requireFloat(nc, 1)))
    return failure();
  Value x = nc.operand(0);
  auto t = typeOf(x);
  Type f = t.getElementType();
  OpBuilder &b = nc.builder;
  SmallVector<int64_t> all;
  for (int64_t d = 0; d < t.getRank(); ++d)
    all.push_back(d);
  Value zero = scalarConstant(nc, f, 0);
  Value hi = one(buildInferred<MaxOp>(nc, {reduce(nc, x, "max", all, false), zero}));
  Value lo = one(buildInferred<MinOp>(nc, {reduce(nc, x, "min", all, false), zero}));
  Value scale = one(buildInferred<DivOp>(
      nc, {one(buildInferred<SubOp>(nc, {hi, lo})), scalarConstant(nc, f, 255)}));
  Type u8 = b.getIntegerType(8);
  Value zpF = one(buildInferred<SubOp>(nc, {zero, one(buildInferred<DivOp>(nc, {lo, scale}))}));
  Value zp = quantize(nc, zpF, zero, u8, true);
  Value zpBack = castValue(nc, zp, f, true);
  Value y = quantize(nc, one(buildInferred<DivOp>(nc, {x, scale})), zpBack, u8, true);
  return SmallVector<Value>{y, scale, zp};
}

/// (a - a_zp) @ (b - b_zp) in f64 (exact), as `resultType` elements.
Value integerMatMul(NodeContext &nc, size_t a, size_t azp, size_t b, size_t bzp) {
  Type f64 = nc.builder.getF64Type();
  Value av = one(buildInferred<SubOp>(
      nc, {castValue(nc, nc.operand(a), f64, nc.isUnsigned(a)), operandAs(nc, azp, f64)}));
  Value bzpv = operandAs(nc, bzp, f64);
  auto bt = typeOf(nc.operand(b));
  if (typeOf(bzpv).getRank() == 1 && bt.getRank() >= 2) // per column
    bzpv = alongAxis(nc, bzpv, bt.getRank() - 1, bt.getRank());
  Value bv = one(buildInferred<SubOp>(
      nc, {castValue(nc, nc.operand(b), f64, nc.isUnsigned(b)), bzpv}));
  return one(buildInferred<MatMulOp>(nc, {av, bv}));
}

/// The QLinear* output: the f64 accumulator scaled by x_scale * w_scale /
/// y_scale (operands 1 and 6; `wScale` already broadcast as needed) and
/// quantized with y_zero_point (operand 7).
Value requantize(NodeContext &nc, Value acc, Value wScale) {
  Type f64 = nc.builder.getF64Type();
  Value scale = one(buildInferred<DivOp>(
      nc, {one(buildInferred<MulOp>(nc, {operandAs(nc, 1, f64), wScale})),
           operandAs(nc, 6, f64)}));
  Value v = one(buildInferred<MulOp>(nc, {acc, scale}));
  auto [qt, isUnsigned] = zeroPointType(nc, 7);
  return quantize(nc, v, operandAs(nc, 7, f64), qt, isUnsigned);
}

NodeResults importMatMulInteger(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)))
    return failure();
  Value y = integerMatMul(nc, 0, 2, 1, 3);
  return SmallVector<Value>{castValue(nc, y, nc.builder.getI32Type(), false)};
}

NodeResults importQLinearMatMul(NodeContext &nc) {
  if (failed(requireOperands(nc, 8)))
    return failure();
  Value acc = integerMatMul(nc, 0, 2, 3, 5);
  return SmallVector<Value>{
      requantize(nc, acc, operandAs(nc, 4, nc.builder.getF64Type()))};
}

/// Conv on (x - x_zp) and (w - w_zp) in f64, with the node's attributes.
Value integerConv(NodeContext &nc, size_t x, size_t xzp, size_t w, size_t wzp) {
  Type f64 = nc.builder.getF64Type();
  auto wt = typeOf(nc.operand(w));
  if (wt.getRank() < 3 || typeOf(nc.operand(x)).getRank() != wt.getRank()) {
    (void)(nc.error() << "needs an input and weights of one rank, at least "
                         "3, got "
                      << typeOf(nc.operand(x)) << " and " << wt);
    return Value();
  }
  Value xv = one(buildInferred<SubOp>(
      nc, {castValue(nc, nc.operand(x), f64, nc.isUnsigned(x)),
           operandAs(nc, xzp, f64)}));
  Value wzpv = alongAxis(nc, operandAs(nc, wzp, f64), 0, wt.getRank());
  Value wv = one(buildInferred<SubOp>(
      nc, {castValue(nc, nc.operand(w), f64, nc.isUnsigned(w)), wzpv}));
  int64_t spatial = wt.getRank() - 2;
  auto ints = [&](StringRef name, int64_t dflt, int64_t n) {
    return nc.intsAttr(name).value_or(SmallVector<int64_t>(n, dflt));
  };
  if (nc.stringAttr("auto_pad", "NOTSET") != "NOTSET") {
    (void)(nc.error() << "auto_pad is not supported here");
    return Value();
  }
  OpBuilder &b = nc.builder;
  return one(buildInferred<ConvOp>(
      nc, {xv, wv},
      {b.getNamedAttr("strides", b.getDenseI64ArrayAttr(ints("strides", 1, spatial))),
       b.getNamedAttr("pads", b.getDenseI64ArrayAttr(ints("pads", 0, 2 * spatial))),
       b.getNamedAttr("dilations", b.getDenseI64ArrayAttr(ints("dilations", 1, spatial))),
       b.getNamedAttr("group", b.getI64IntegerAttr(nc.intAttr("group", 1)))}));
}

NodeResults importConvInteger(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)))
    return failure();
  Value y = integerConv(nc, 0, 2, 1, 3);
  if (!y)
    return failure();
  return SmallVector<Value>{castValue(nc, y, nc.builder.getI32Type(), false)};
}

NodeResults importQLinearConv(NodeContext &nc) {
  if (failed(requireOperands(nc, 8)))
    return failure();
  Type f64 = nc.builder.getF64Type();
  Value acc = integerConv(nc, 0, 2, 3, 5);
  if (!acc)
    return failure();
  int64_t rank = typeOf(acc).getRank();
  if (nc.operand(8)) { // int32 bias, already in the accumulator's scale
    Value bias = alongAxis(nc, castValue(nc, nc.operand(8), f64, false), 1, rank);
    acc = one(buildInferred<AddOp>(nc, {acc, bias}));
  }
  Value wScale = alongAxis(nc, operandAs(nc, 4, f64), 1, rank);
  return SmallVector<Value>{requantize(nc, acc, wScale)};
}

} // namespace

void dlc::addQuantizationImporters(NodeImporterTable &t) {
  t["QuantizeLinear"] = importQuantizeLinear;
  t["DequantizeLinear"] = importDequantizeLinear;
  t["DynamicQuantizeLinear"] = importDynamicQuantizeLinear;
  t["MatMulInteger"] = importMatMulInteger;
  t["QLinearMatMul"] = importQLinearMatMul;
  t["ConvInteger"] = importConvInteger;
  t["QLinearConv"] = importQLinearConv;
}
