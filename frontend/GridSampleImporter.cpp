//===- GridSampleImporter.cpp - GridSample as weighted gathers ------------===//
//
// GridSample (opset 16, 4-D: X [N, C, H, W], grid [N, Ho, Wo, 2]) with the
// semantics of torch.nn.functional.grid_sample, which the ONNX op follows:
// grid coordinates are unnormalized (align_corners or not), moved inside by
// the padding mode (border clips, reflection mirrors; for bicubic each tap
// is), and each output is a weighted sum of taps of X: 1 (nearest, rounding
// half to even), 4 (bilinear) or 16 (bicubic, A = -0.75). A tap is a
// GatherElements from X flattened to [N, C, H*W]; with zeros padding a tap
// outside X contributes 0.
//
//===----------------------------------------------------------------------===//
#include "frontend/NodeImporter.h"
#include "ir/DlcOps.h"

using namespace mlir;
using namespace dlc;

namespace {

struct Sampler : OnnxOps {
  Value x; // [N, C, H, W]
  int64_t n, c, h, w, ho, wo;
  std::string padding;
  bool alignCorners;
  Value flat; // [N, C, H*W]

  Value f(double v) {
    return scalarConstant(nc, typeOf(x).getElementType(), v);
  }
  Value add(Value a, Value b) { return op("Add", {a, b}); }
  Value sub(Value a, Value b) { return op("Sub", {a, b}); }
  Value mul(Value a, Value b) { return op("Mul", {a, b}); }

  /// Grid coordinate g in [-1, 1] -> pixel coordinate along a size.
  Value unnormalize(Value g, int64_t size) {
    if (alignCorners)
      return mul(add(g, f(1)), f((size - 1) / 2.0));
    return mul(sub(mul(add(g, f(1)), f(size)), f(1)), f(0.5));
  }
  /// torch's reflect_coordinates over [twiceLow / 2, twiceHigh / 2].
  Value reflect(Value v, int64_t twiceLow, int64_t twiceHigh) {
    if (twiceLow == twiceHigh)
      return mul(v, f(0));
    double low = twiceLow / 2.0, span = (twiceHigh - twiceLow) / 2.0;
    Value in = op("Abs", {sub(v, f(low))});
    Value extra = op("Mod", {in, f(span)}, {intAttribute("fmod", 1)});
    Value flips = op("Floor", {op("Div", {in, f(span)})});
    Value even = op(
        "Equal", {op("Mod", {flips, f(2)}, {intAttribute("fmod", 1)}), f(0)});
    return op("Where",
              {even, add(extra, f(low)), add(sub(f(span), extra), f(low))});
  }
  Value clip(Value v, int64_t size) {
    return op("Clip", {v, f(0), f(size - 1)});
  }
  /// The padding mode applied to coordinate v along a size.
  Value pad(Value v, int64_t size) {
    if (padding == "border")
      return clip(v, size);
    if (padding == "reflection") {
      v = alignCorners ? reflect(v, 0, 2 * (size - 1))
                       : reflect(v, -1, 2 * size - 1);
      return clip(v, size);
    }
    return v;
  }
  /// X at integral coordinates (xi, yi) [N, Ho, Wo], 0 outside: [N, C, Ho, Wo].
  Value tap(Value xi, Value yi) {
    Value inside = op("And", {op("And", {op("GreaterOrEqual", {xi, f(0)}),
                                         op("LessOrEqual", {xi, f(w - 1)})}),
                              op("And", {op("GreaterOrEqual", {yi, f(0)}),
                                         op("LessOrEqual", {yi, f(h - 1)})})});
    Value index = add(mul(clip(yi, h), f(w)), clip(xi, w));
    index = castValue(nc, index, nc.builder.getI64Type());
    index = op("Reshape", {index, i64({3}, {n, 1, ho * wo})});
    index = op("Expand", {index, i64({3}, {n, c, ho * wo})});
    Value v = op("GatherElements", {flat, index}, {intAttribute("axis", 2)});
    v = op("Reshape", {v, i64({4}, {n, c, ho, wo})});
    Value mask = op("Unsqueeze", {inside, i64({1}, {1})});
    return op("Where", {mask, v, f(0)});
  }
  /// weight [N, Ho, Wo] * tap.
  Value weighted(Value weight, Value xi, Value yi) {
    return mul(op("Unsqueeze", {weight, i64({1}, {1})}), tap(xi, yi));
  }
  /// Cubic convolution weights (A = -0.75) of the taps at -1, 0, 1, 2 from
  /// floor, for the fraction t.
  SmallVector<Value> cubic(Value t) {
    const double a = -0.75;
    auto outer = [&](Value d) { // |d| in [1, 2]
      return sub(mul(add(mul(sub(mul(f(a), d), f(5 * a)), d), f(8 * a)), d),
                 f(4 * a));
    };
    auto inner = [&](Value d) { // |d| in [0, 1]
      return add(mul(mul(sub(mul(f(a + 2), d), f(a + 3)), d), d), f(1));
    };
    Value u = sub(f(1), t);
    return {outer(add(t, f(1))), inner(t), inner(u), outer(add(u, f(1)))};
  }
};

NodeResults importGridSample(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)) || failed(requireFloat(nc, 2)))
    return failure();
  Value x = nc.operand(0), grid = nc.operand(1);
  RankedTensorType xt = typeOf(x), gt = typeOf(grid);
  if (xt.getRank() != 4 || gt.getRank() != 4 || !xt.hasStaticShape() ||
      !gt.hasStaticShape() || gt.getDimSize(3) != 2 ||
      gt.getDimSize(0) != xt.getDimSize(0))
    return nc.error() << "needs a static 4-D input and a [N, Ho, Wo, 2] grid, "
                         "got "
                      << xt << " and " << gt,
           failure();
  std::string mode = nc.stringAttr("mode", "bilinear");
  // GridSample-20 renamed the interpolation modes (and generalized them to
  // N-D inputs, which the rank check above refuses).
  if (nc.opset >= 20 && (mode == "linear" || mode == "cubic"))
    mode = mode == "linear" ? "bilinear" : "bicubic";
  std::string padding = nc.stringAttr("padding_mode", "zeros");
  if (mode != "bilinear" && mode != "nearest" && mode != "bicubic")
    return nc.error() << "mode '" << mode << "' is not supported", failure();
  if (padding != "zeros" && padding != "border" && padding != "reflection")
    return nc.error() << "padding_mode '" << padding << "' is not supported",
           failure();
  Sampler s{{nc},
            x,
            xt.getDimSize(0),
            xt.getDimSize(1),
            xt.getDimSize(2),
            xt.getDimSize(3),
            gt.getDimSize(1),
            gt.getDimSize(2),
            padding,
            nc.intAttr("align_corners", 0) != 0,
            Value()};
  s.flat = s.op("Reshape", {x, s.i64({3}, {s.n, s.c, s.h * s.w})});
  auto coordinate = [&](int64_t which) {
    return s.op("Gather", {grid, s.i64({}, {which})},
                {intAttribute("axis", 3)});
  };
  Value gx = s.unnormalize(coordinate(0), s.w),
        gy = s.unnormalize(coordinate(1), s.h);
  Value result;
  if (mode == "bicubic") {
    Value x0 = s.op("Floor", {gx}), y0 = s.op("Floor", {gy});
    SmallVector<Value> wx = s.cubic(s.sub(gx, x0)), wy = s.cubic(s.sub(gy, y0));
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i) {
        Value xi = s.pad(s.add(x0, s.f(i - 1)), s.w),
              yi = s.pad(s.add(y0, s.f(j - 1)), s.h);
        Value term = s.weighted(s.mul(wx[i], wy[j]), xi, yi);
        result = result ? s.add(result, term) : term;
      }
  } else {
    gx = s.pad(gx, s.w);
    gy = s.pad(gy, s.h);
    if (mode == "nearest") {
      result = s.tap(s.op("Round", {gx}), s.op("Round", {gy}));
    } else {
      Value x0 = s.op("Floor", {gx}), y0 = s.op("Floor", {gy});
      Value x1 = s.add(x0, s.f(1)), y1 = s.add(y0, s.f(1));
      Value ax = s.sub(gx, x0), ay = s.sub(gy, y0);
      Value bx = s.sub(s.f(1), ax), by = s.sub(s.f(1), ay);
      result = s.add(s.add(s.weighted(s.mul(bx, by), x0, y0),
                           s.weighted(s.mul(ax, by), x1, y0)),
                     s.add(s.weighted(s.mul(bx, ay), x0, y1),
                           s.weighted(s.mul(ax, ay), x1, y1)));
    }
  }
  if (!result)
    return failure();
  return SmallVector<Value>{result};
}

} // namespace

void dlc::addGridSampleImporter(NodeImporterTable &table) {
  table["GridSample"] = importGridSample;
}
