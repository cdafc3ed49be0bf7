//===- SignalImporters.cpp - DFT and STFT as matrix products --------------===//
//
// A DFT of length L over a static axis is two matrix products with
// constant cos/sin matrices (computed in double at compile time, then
// rounded to the element type): for X = xr + i xi,
//   forward  Yr = xr C + xi S,  Yi = xi C - xr S
//   inverse  Yr = (xr C - xi S) / L,  Yi = (xi C + xr S) / L
// with C[n][k] = cos(2 pi k n / L), S[n][k] = sin(2 pi k n / L). STFT
// gathers its frames with a constant index table, applies the window and
// takes the DFT of each frame. Lengths, steps and windows' sizes must be
// known at compile time.
//
//===----------------------------------------------------------------------===//
#include "frontend/NodeImporter.h"
#include "ir/DlcOps.h"

#include <cmath>

using namespace mlir;
using namespace dlc;

namespace {

struct Signal : OnnxOps {
  Type et;

  /// A constant of the element type from doubles.
  Value floats(ArrayRef<int64_t> shape, ArrayRef<double> values) {
    auto type = RankedTensorType::get(shape, et);
    SmallVector<APFloat> elems;
    for (double v : values) {
      APFloat f(v);
      bool lost;
      f.convert(cast<FloatType>(et).getFloatSemantics(),
                APFloat::rmNearestTiesToEven, &lost);
      elems.push_back(f);
    }
    return ConstantOp::create(nc.builder, nc.loc,
                              DenseElementsAttr::get(type, elems));
  }
  /// Element `part` (0 real, 1 imaginary) of the last axis, removed.
  Value part(Value x, int64_t index) {
    int64_t last = typeOf(x).getRank() - 1;
    return op("Gather", {x, i64({}, {index})}, {intAttribute("axis", last)});
  }
  /// The DFT of length `length` along the last axis of xr (and xi, null
  /// for a real signal), keeping `bins` frequencies: [..., bins, 2].
  Value dftLastAxis(Value xr, Value xi, int64_t length, int64_t bins,
                    bool inverse) {
    int64_t n = typeOf(xr).getShape().back();
    int64_t used = std::min(n, length); // a longer signal is truncated
    if (used < n) {
      int64_t last = typeOf(xr).getRank() - 1;
      auto cut = [&](Value v) {
        return op("Slice",
                  {v, i64({1}, {0}), i64({1}, {used}), i64({1}, {last})});
      };
      xr = cut(xr);
      if (xi)
        xi = cut(xi);
    }
    SmallVector<double> c, s;
    for (int64_t row = 0; row < used; ++row)
      for (int64_t k = 0; k < bins; ++k) {
        // The angle's product reduced mod L keeps it exact and small.
        double angle = 2 * M_PI * (double)((row * k) % length) / length;
        c.push_back(std::cos(angle));
        s.push_back(std::sin(angle));
      }
    Value cm = floats({used, bins}, c), sm = floats({used, bins}, s);
    Value rc = op("MatMul", {xr, cm}), rs = op("MatMul", {xr, sm});
    Value yr, yi;
    if (!xi) {
      yr = rc;
      yi = inverse ? rs : op("Neg", {rs});
    } else {
      Value ic = op("MatMul", {xi, cm}), is = op("MatMul", {xi, sm});
      yr = op(inverse ? "Sub" : "Add", {rc, is});
      yi = op(inverse ? "Add" : "Sub", {ic, rs});
    }
    if (inverse) {
      Value scale = floats({}, {1.0 / length});
      yr = op("Mul", {yr, scale});
      yi = op("Mul", {yi, scale});
    }
    int64_t rank = typeOf(xr).getRank();
    Value axes = i64({1}, {rank});
    return op("Concat",
              {op("Unsqueeze", {yr, axes}), op("Unsqueeze", {yi, axes})},
              {intAttribute("axis", rank)});
  }
};

NodeResults importDFT(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)) || failed(requireFloat(nc, 1)))
    return failure();
  Value x = nc.operand(0);
  RankedTensorType t = typeOf(x);
  int64_t rank = t.getRank();
  if (rank < 2 || !t.hasStaticShape() ||
      (t.getShape().back() != 1 && t.getShape().back() != 2))
    return nc.error() << "input " << t
                      << " must end in a static real (1) or complex (2) axis",
           failure();
  FailureOr<int64_t> axis = normalizeAxis(nc, nc.intAttr("axis", 1), rank - 1);
  if (failed(axis))
    return failure();
  bool inverse = nc.intAttr("inverse", 0) != 0;
  bool onesided = nc.intAttr("onesided", 0) != 0;
  bool complex = t.getShape().back() == 2;
  if (onesided && (inverse || complex))
    return nc.error() << "onesided needs a real forward transform", failure();
  int64_t length = t.getDimSize(*axis);
  if (nc.operand(1)) {
    std::optional<SmallVector<int64_t>> l = nc.constantInts(1);
    if (!l || l->size() != 1 || (*l)[0] < 1)
      return nc.error() << "dft_length must be a positive constant", failure();
    length = (*l)[0];
  }
  Signal s{{nc}, t.getElementType()};
  // [..., signal..., 1|2] -> parts with the signal axis last.
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank - 1; ++d)
    if (d != *axis)
      perm.push_back(d);
  perm.push_back(*axis);
  auto moved = [&](Value v) {
    return s.op("Transpose", {v}, {intsAttribute("perm", perm)});
  };
  Value xr = moved(s.part(x, 0));
  Value xi = complex ? moved(s.part(x, 1)) : Value();
  int64_t bins = onesided ? length / 2 + 1 : length;
  Value y = s.dftLastAxis(xr, xi, length, bins, inverse); // [..., K, 2]
  // Back: the frequency axis where the signal axis was.
  SmallVector<int64_t> back(rank);
  for (int64_t d = 0, j = 0; d < rank - 1; ++d)
    back[d] = d == *axis ? rank - 2 : j++;
  back[rank - 1] = rank - 1;
  Value result = s.op("Transpose", {y}, {intsAttribute("perm", back)});
  if (!result)
    return failure();
  return SmallVector<Value>{result};
}

NodeResults importSTFT(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)) || failed(requireFloat(nc, 1)))
    return failure();
  Value signal = nc.operand(0), window = nc.operand(2);
  RankedTensorType t = typeOf(signal);
  if (t.getRank() != 3 || !t.hasStaticShape() ||
      (t.getDimSize(2) != 1 && t.getDimSize(2) != 2))
    return nc.error() << "signal " << t
                      << " must be [batch, length, 1 or 2], static",
           failure();
  std::optional<SmallVector<int64_t>> step = nc.constantInts(1);
  if (!step || step->size() != 1 || (*step)[0] < 1)
    return nc.error() << "frame_step must be a positive constant", failure();
  int64_t frameLength = -1;
  if (nc.operand(3)) {
    std::optional<SmallVector<int64_t>> l = nc.constantInts(3);
    if (!l || l->size() != 1 || (*l)[0] < 1)
      return nc.error() << "frame_length must be a positive constant",
             failure();
    frameLength = (*l)[0];
  }
  if (window) {
    RankedTensorType wt = typeOf(window);
    if (wt.getRank() != 1 || !wt.hasStaticShape() ||
        (frameLength >= 0 && wt.getDimSize(0) != frameLength))
      return nc.error() << "window " << wt << " must be [frame_length]",
             failure();
    frameLength = wt.getDimSize(0);
  }
  if (frameLength < 0)
    return nc.error() << "needs a window or a frame_length", failure();
  int64_t signalLength = t.getDimSize(1);
  if (frameLength > signalLength)
    return nc.error() << "frame_length " << frameLength
                      << " is longer than the signal (" << signalLength << ")",
           failure();
  bool complex = t.getDimSize(2) == 2;
  bool onesided = nc.intAttr("onesided", 1) != 0;
  if (onesided && complex)
    return nc.error() << "onesided needs a real signal", failure();
  int64_t frames = (signalLength - frameLength) / (*step)[0] + 1;
  SmallVector<int64_t> table;
  for (int64_t f = 0; f < frames; ++f)
    for (int64_t j = 0; j < frameLength; ++j)
      table.push_back(f * (*step)[0] + j);
  Signal s{{nc}, t.getElementType()};
  Value indices = s.i64({frames, frameLength}, table);
  auto framed = [&](Value part) { // [batch, length] -> [batch, F, frame]
    Value v = s.op("Gather", {part, indices}, {intAttribute("axis", 1)});
    return window ? s.op("Mul", {v, window}) : v;
  };
  Value xr = framed(s.part(signal, 0));
  Value xi = complex ? framed(s.part(signal, 1)) : Value();
  int64_t bins = onesided ? frameLength / 2 + 1 : frameLength;
  Value y = s.dftLastAxis(xr, xi, frameLength, bins, /*inverse=*/false);
  if (!y)
    return failure();
  return SmallVector<Value>{y};
}

} // namespace

/// MelWeightMatrix: triangular filters over the spectrogram bins, as
/// ONNX's reference computes them (in float64: band edges at
/// num_mel_bins + 2 points evenly spaced in mel, converted to bins by
/// floor((dft_length + 1) * hz / sample_rate); the falling edge of each
/// filter overrides its rising edge). The sizes must be constants (or
/// inputs `dlc run` specializes); the edge frequencies may be data.
NodeResults importMelWeightMatrix(NodeContext &nc) {
  if (failed(requireOperands(nc, 5)))
    return failure();
  std::optional<SmallVector<int64_t>> mels = nc.constantInts(0),
                                      dft = nc.constantInts(1),
                                      rate = nc.constantInts(2);
  if (!mels || !dft || !rate || mels->size() != 1 || dft->size() != 1 ||
      rate->size() != 1)
    return nc.error() << "num_mel_bins, dft_length and sample_rate must be "
                         "constant scalars",
           failure();
  int64_t m = (*mels)[0], n = (*dft)[0], sr = (*rate)[0];
  if (m < 1 || n < 1 || sr < 1)
    return nc.error() << "num_mel_bins, dft_length and sample_rate must be "
                         "positive",
           failure();
  int64_t bins = n / 2 + 1;
  OpBuilder &b = nc.builder;
  Type f64 = b.getF64Type();
  OnnxOps ops{nc};
  auto cst = [&](ArrayRef<int64_t> shape, ArrayRef<double> values) -> Value {
    return ConstantOp::create(
        b, nc.loc,
        DenseElementsAttr::get(RankedTensorType::get(shape, f64), values));
  };
  auto scalar = [&](double v) { return cst({}, {v}); };
  auto toF64 = [&](Value v) {
    return ops.op("Cast", {v}, {intAttribute("to", onnx::TensorProto::DOUBLE)});
  };
  Value lo = toF64(nc.operand(3)), hi = toF64(nc.operand(4));
  // 2595 * log10(1 + hz / 700).
  auto mel = [&](Value hz) {
    Value l = ops.op(
        "Log",
        {ops.op("Add", {scalar(1.0), ops.op("Div", {hz, scalar(700.0)})})});
    return ops.op("Mul", {scalar(2595.0 / std::log(10.0)), l});
  };
  Value lowMel = mel(lo);
  Value step = ops.op("Div", {ops.op("Sub", {mel(hi), lowMel}),
                              scalar(static_cast<double>(m + 2))});
  SmallVector<double> points;
  for (int64_t i = 0; i < m + 2; ++i)
    points.push_back(static_cast<double>(i));
  Value melPoints =
      ops.op("Add", {ops.op("Mul", {cst({m + 2}, points), step}), lowMel});
  // 700 * (10^(mel / 2595) - 1), then the bin.
  Value hz = ops.op(
      "Mul",
      {scalar(700.0),
       ops.op("Sub",
              {ops.op("Pow", {scalar(10.0),
                              ops.op("Div", {melPoints, scalar(2595.0)})}),
               scalar(1.0)})});
  Value edges = ops.op(
      "Floor", {ops.op("Div", {ops.op("Mul", {hz, scalar(double(n + 1))}),
                               scalar(double(sr))})});
  auto part = [&](int64_t start) {
    return ops.op("Reshape", {ops.op("Slice", {edges, ops.i64({1}, {start}),
                                               ops.i64({1}, {start + m})}),
                              ops.i64({2}, {1, m})});
  };
  Value l = part(0), c = part(1), h = part(2);
  SmallVector<double> rows;
  for (int64_t j = 0; j < bins; ++j)
    rows.push_back(static_cast<double>(j));
  Value j = cst({bins, 1}, rows);
  auto both = [&](Value x, Value y) { return ops.op("And", {x, y}); };
  Value falling =
      both(ops.op("Greater", {h, c}),
           both(ops.op("LessOrEqual", {c, j}), ops.op("Less", {j, h})));
  Value fallingValue =
      ops.op("Div", {ops.op("Sub", {h, j}), ops.op("Sub", {h, c})});
  Value rising =
      both(ops.op("LessOrEqual", {l, j}), ops.op("LessOrEqual", {j, c}));
  Value risingValue =
      ops.op("Div", {ops.op("Sub", {j, l}), ops.op("Sub", {c, l})});
  Value zero = scalar(0.0), one = scalar(1.0);
  Value spike = ops.op("Where", {ops.op("Equal", {j, c}), one, zero});
  Value value =
      ops.op("Where",
             {falling, fallingValue,
              ops.op("Where", {ops.op("Equal", {l, c}), spike,
                               ops.op("Where", {rising, risingValue, zero})})});
  Value out =
      ops.op("Cast", {value},
             {intAttribute("to", nc.intAttr("output_datatype",
                                            onnx::TensorProto::FLOAT))});
  if (!out)
    return failure();
  return SmallVector<Value>{out};
}

void dlc::addSignalImporters(NodeImporterTable &table) {
  table["DFT"] = importDFT;
  table["STFT"] = importSTFT;
  table["MelWeightMatrix"] = importMelWeightMatrix;
}
